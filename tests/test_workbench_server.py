"""``cthulhu-sim serve`` as a user starts it: it prints its address (127.0.0.1 unless told),
serves the pages, stops cleanly on Ctrl-C, and a port it cannot have is one error line."""

from __future__ import annotations

import socket
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from cli_support import invoke  # noqa: E402
from workbench_server import Served  # noqa: E402


def test_serve_prints_its_address_serves_and_stops_on_ctrl_c(tmp_path):
    served = Served(tmp_path / "results")
    try:
        assert served.url.startswith("http://127.0.0.1:")
        assert "Ctrl-C" in served.first_line
        r = httpx.get(served.url + "games", timeout=60)
        assert r.status_code == 200 and 'data-game="hex"' in r.text
        assert httpx.get(served.url + "results", timeout=60).status_code == 200
    finally:
        code, out, err = served.stop()
    assert code == 0, err
    assert "stopped" in out
    assert "Traceback" not in err
    assert (tmp_path / "results").is_dir()


def test_a_port_in_use_is_one_error_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = invoke("serve", "--port", port, "--results", tmp_path)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --port {port}: cannot listen")


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "70000"], "--port: 70,000 is above"),
    (["--host", "no.such.host.invalid"], "--host no.such.host.invalid"),
])
def test_bad_options_are_one_error_line(tmp_path, args, words):
    r = invoke("serve", *args, "--results", tmp_path)
    assert r.exit_code == 2
    assert r.stderr.startswith("error: ") and words in r.stderr


def test_results_that_is_a_file_is_refused(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    r = invoke("serve", "--port", "0", "--results", f)
    assert r.exit_code == 2 and "is a file" in r.stderr


def test_ctrl_c_while_a_run_plays_stops_it_and_keeps_nothing(tmp_path):
    served = Served(tmp_path / "results")
    try:
        with httpx.Client(base_url=served.url, timeout=300) as c:
            r = c.post("/games/hex/run", data={"games": "2000000", "save_as": "long"})
            assert r.status_code == 303
            url = r.headers["location"]
            for _ in range(600):  # until it plays (a cold machine compiles first)
                page = c.get(url).text
                if "of 2,000,000 games" in page:
                    break
                time.sleep(0.2)
    finally:
        code, out, err = served.stop()
    assert code == 0 and "stopped" in out, err
    assert "Traceback" not in err
    assert not (tmp_path / "results" / "long").exists()
