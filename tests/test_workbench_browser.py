"""The workbench in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright through the main path: open the games, pick hex, change a setting, run, wait for the
result and read the win rate, compare with the defaults, open the comparison's report from the
results page.

Skipped, saying why, where Playwright or Chromium is missing; with
``CTHULHU_SIM_REQUIRE_BROWSER=1`` (set by ``.ci/run``) it fails instead.  With
``WORKBENCH_SCREENSHOTS=DIR`` it also saves the pictures the README shows
(``workbench-game.png``, ``workbench-result.png``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from workbench_server import Served

CHROMIUM = os.environ.get("CTHULHU_SIM_CHROMIUM") or shutil.which("chromium") or \
    "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
REQUIRED = os.environ.get("CTHULHU_SIM_REQUIRE_BROWSER") == "1"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python playwright is not installed (pip install -e '.[dev]'; `make test` does)"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return (f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; `make test` does "
                "so when run as root)")
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    why = _missing()
    if why:
        if REQUIRED:
            pytest.fail(f"CTHULHU_SIM_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 900})
        try:
            yield context
        finally:
            context.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    served = Served(results)
    try:
        yield served, results
    finally:
        code, _, err = served.stop()
        assert code == 0, err


def test_main_path_in_a_real_browser(browser, server):
    served, results = server
    shots = os.environ.get("WORKBENCH_SCREENSHOTS")
    page = browser.new_page()
    page.set_default_timeout(300_000)  # a cold machine compiles the hex game first (~40 s)
    page.goto(served.url)
    assert page.title().startswith("cthulhu-sim")
    page.click("#games a[href='/games/hex']")
    page.wait_for_selector("#game-form")
    assert "Cthulhu Boardgame" in page.inner_text("h1")

    # change a setting, run, wait for the result, read the win rate
    page.fill("#set-max_turns", "80")
    page.fill("#games", "400")
    page.fill("#seed", "11")
    if shots:  # the top of the page, then the changed setting in its group
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(shots) / "workbench-game.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": 1280, "height": 1500})
    page.click("#run")
    page.wait_for_selector("#result[data-kind='run']")
    rate = page.inner_text("#win-rate")
    assert re.fullmatch(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", rate), rate  # as the CLI writes it
    folder = page.inner_text("#saved-link")
    saved = json.loads((results / folder / "summary.json").read_text())
    assert saved["settings"] == {"max_turns": 80} and saved["games"] == 400
    from experiments.stats import rate_text

    seat0 = saved["seat_win_rates"][0]
    assert rate == rate_text(seat0["rate"], *seat0["ci95"])
    page.wait_for_function("() => { const i = document.querySelector('#chart');"
                           " return i.complete && i.naturalWidth > 0; }")
    assert page.locator("#chart").evaluate("img => img.naturalWidth") > 100
    if shots:
        page.screenshot(path=str(Path(shots) / "workbench-result.png"), full_page=True)

    # back to the game, the same change, compared with the defaults on the same playouts
    page.goto(served.url + "games/hex")
    page.fill("#set-max_turns", "80")
    page.fill("#games", "400")
    page.click("#compare")
    page.wait_for_selector("#result[data-kind='compare']")
    diff = float(page.inner_text("#diff"))
    lo, hi = float(page.inner_text("#diff-lo")), float(page.inner_text("#diff-hi"))
    assert lo <= diff <= hi
    compare_folder = page.inner_text("#saved-link")

    # a bad value gets the CLI's line beside its field
    page.goto(served.url + "games/hex")
    page.fill("#games", "0")
    page.click("#run")
    page.wait_for_selector("[data-error-for='games']")
    assert "--games: 0 is below 1" in page.inner_text("[data-error-for='games']")

    # the results page lists both; the comparison opens its report
    page.click("header >> text=Results")
    page.wait_for_selector("#results")
    assert page.locator(f"tr[data-folder='{folder}']").count() == 1
    page.click(f"tr[data-folder='{compare_folder}'] a.report")
    page.wait_for_selector("h2:has-text('Paired differences')")
    assert "by strategy" in page.inner_text("h1") or "Cthulhu Boardgame" in page.inner_text("h1")
