"""How long a run takes from the page against the CLI (the workbench's speed figure).

``python -m experiments.workbench.timing [--games 100000] [--pairs 3] [--browser]`` starts
``cthulhu-sim serve`` in a child process, then alternates, ``--pairs`` times: the CLI's
``cthulhu-sim run hex --games N -q`` (a new process each time, as a user types it: start-up,
loading compiled code, play, summary) and the same run from the page (the form posted, the
job's page followed through its reloads until the result is shown; ``--browser``: clicked and
waited for in headless Chromium).  Each pair uses its own seed.  It prints every time and the
medians, each split into the play itself (the run's own clock, as ``run`` reports its speed)
and the rest (start-up, loading compiled code, the summary; for the page, the round trips and
the reloads too), which a loaded machine disturbs far less than the play.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFRESH = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)"')


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    return env


PLAY = re.compile(r"([0-9.]+) s of play")


def cli_seconds(game: str, games: int, seed: int) -> tuple[float, float]:
    """(wall seconds, seconds of play) of one ``cthulhu-sim run``."""
    import json

    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "experiments", "run", game, "--games",
                          str(games), "--seed", str(seed), "-q", "--json"], cwd=ROOT,
                         env=_env(), check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - t0
    return wall, games / json.loads(out)["playouts_per_s"]


def page_seconds(url: str, game: str, games: int, seed: int) -> tuple[float, float]:
    import httpx

    with httpx.Client(base_url=url, timeout=600, follow_redirects=True) as c:
        t0 = time.perf_counter()
        r = c.post(f"/games/{game}/run", data={"games": str(games), "seed": str(seed)})
        while 'id="result"' not in r.text:
            if 'data-state="failed"' in r.text or 'data-state="cancelled"' in r.text:
                raise RuntimeError("the job did not finish")
            r = c.get(REFRESH.search(r.text)[1])
        return time.perf_counter() - t0, float(PLAY.search(r.text)[1])


def browser_seconds(page, url: str, game: str, games: int, seed: int) -> tuple[float, float]:
    page.goto(f"{url}games/{game}")
    page.fill("#games", str(games))
    page.fill("#seed", str(seed))
    t0 = time.perf_counter()
    page.click("#run")
    page.wait_for_selector("#result", timeout=600_000)
    wall = time.perf_counter() - t0
    return wall, float(PLAY.search(page.inner_text("#result"))[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="hex")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--browser", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as results:
        proc = subprocess.Popen([sys.executable, "-m", "experiments", "serve", "--port", "0",
                                 "--results", results], cwd=ROOT, env=_env(),
                                stdout=subprocess.PIPE, text=True)
        url = re.search(r"(http://\S+/)", proc.stdout.readline())[1]
        pw = ctx = page = None
        try:
            if args.browser:
                from playwright.sync_api import sync_playwright

                pw = sync_playwright().start()
                ctx = pw.chromium.launch_persistent_context(
                    tempfile.mkdtemp(), executable_path="/usr/bin/chromium", headless=True,
                    args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                          "--no-first-run", "--disable-background-networking",
                          "--disable-component-update", "--disable-sync"])
                page = ctx.new_page()
            # the first visit imports the game (as a user's first look at its page does)
            page_seconds(url, args.game, 10, 0)
            rows = []
            for i in range(args.pairs):
                seed = 1000 + i
                runs = {}
                # alternate which goes first, so a drift of the machine's load falls on both
                for who in (("cli", "page") if i % 2 == 0 else ("page", "cli")):
                    if who == "cli":
                        runs[who] = cli_seconds(args.game, args.games, seed)
                    else:
                        runs[who] = (browser_seconds(page, url, args.game, args.games, seed)
                                     if page else page_seconds(url, args.game, args.games, seed))
                (c, cp), (p, pp) = runs["cli"], runs["page"]
                rows.append((c, p, c - cp, p - pp))
                print(f"pair {i + 1}: CLI {c:6.2f} s (play {cp:6.2f}, the rest {c - cp:5.2f})"
                      f"   page {p:6.2f} s (play {pp:6.2f}, the rest {p - pp:5.2f})"
                      f"   page - CLI {p - c:+6.2f} s", flush=True)
            med = [statistics.median(r[k] for r in rows) for k in range(4)]
            print(f"median: CLI {med[0]:.2f} s, page {med[1]:.2f} s, page - CLI "
                  f"{med[1] - med[0]:+.2f} s; beyond the play itself: CLI {med[2]:.2f} s, "
                  f"page {med[3]:.2f} s ({args.games:,} {args.game} games, "
                  f"{'browser' if page else 'http'})")
        finally:
            if ctx is not None:
                ctx.close()
            if pw is not None:
                pw.stop()
            proc.send_signal(signal.SIGINT)
            proc.wait(30)


if __name__ == "__main__":
    main()
