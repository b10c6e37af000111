"""Driving the workbench in process: an app over a fresh results folder, and its jobs."""

from __future__ import annotations

import html
import re
import time
import warnings

with warnings.catch_warnings():  # (Starlette 1.x prefers httpx2; httpx still works)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

REFRESH = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)"')
STATE = re.compile(r'<div id="job" data-state="(\w+)"')


def client(results) -> TestClient:
    import typer

    from experiments.cli import app
    from experiments.cli.serve import cli_words
    from experiments.workbench import create_app

    return TestClient(create_app(results, cli=cli_words(typer.main.get_command(app))))


def submit(c: TestClient, game: str, action: str, data: dict):
    return c.post(f"/games/{game}/{action}", data=data, follow_redirects=False)


def wait(c: TestClient, url: str, timeout: float = 600.0):
    """Follow a job page's reloads until the job is finished; its last page."""
    end = time.time() + timeout
    while time.time() < end:
        r = c.get(url)
        assert r.status_code == 200, r.text
        state = STATE.search(r.text)[1]
        if state in ("done", "failed", "cancelled"):
            return r
        url = REFRESH.search(r.text)[1]
    raise AssertionError(f"the job of {url} did not finish in {timeout} s")


def play(c: TestClient, game: str, action: str, data: dict):
    r = submit(c, game, action, data)
    assert r.status_code == 303, errors(r.text) or r.text[:2000]
    page = wait(c, r.headers["location"])
    assert STATE.search(page.text)[1] == "done", page.text[:3000]
    return page


def errors(text: str) -> dict[str, str]:
    """The messages beside the fields of a refused form: field to message."""
    return {k: html.unescape(v) for k, v in
            re.findall(r'data-error-for="([^"]+)">([^<]*)</span>', text)}


def text_of(page: str, element_id: str) -> str:
    m = re.search(rf'id="{element_id}"[^>]*>(.*?)</', page, re.S)
    assert m, f"no #{element_id} in the page"
    return html.unescape(m[1])
