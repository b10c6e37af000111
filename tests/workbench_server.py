"""A real ``cthulhu-sim serve`` in a child process, for the server and browser tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Served:
    def __init__(self, results: Path, *args: str):
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get(
            "PYTHONPATH", ""), "PYTHONUNBUFFERED": "1"}
        # this process's numba cache folder (simcore._cache sets it) would give the server a
        # cache of its own, cold: the server finds the usual one itself
        env.pop("NUMBA_CACHE_DIR", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "experiments", "serve", "--port", "0", "--results",
             str(results), *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"(http://\S+/)", line)
        if not m:
            self.proc.kill()
            raise AssertionError(f"serve printed no address: {line!r} {self.proc.stderr.read()}")
        self.url = m[1]
        self.first_line = line

    def stop(self, timeout: float = 30.0) -> tuple[int, str, str]:
        """Ctrl-C (SIGINT), then what it printed after and its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        t0 = time.time()
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            raise AssertionError(f"serve did not stop within {timeout} s of Ctrl-C") from None
        self.stop_seconds = time.time() - t0
        return self.proc.returncode, out, err
