"""Bad input, second round (issue 30): each row is a command a demanding new user typed and
the one ``error:`` line it must give (non-zero exit, no traceback, nothing on stdout and
nothing written), in the manner of tests/test_bad_input.py, plus the few cases that need more
than one line of checking (a clamped --threads, an interrupted search run, atomic folders)."""

from __future__ import annotations

import json

import pytest

from tests.cli_support import invoke
from tests.test_bad_input import Row, snapshot

HEX_SWEEP = {"tool": "cthulhu-sim", "kind": "sweep", "title": "hex first side",
             "spec_hash": "0" * 64, "spec": {"game": "hex"}, "cells": []}

FILES = {
    "hexsweep/manifest.json": json.dumps(HEX_SWEEP).encode(),
}

ROWS = [
    # 1. main over another sweep (or a folder it did not write)
    Row("main-out-other-sweep", ["main", "-q", "--out", "hexsweep"],
        ["hexsweep", "holds another sweep (hex first side)", "--overwrite"]),
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input-2")
    for name, data in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_bad_input_is_one_line_and_writes_nothing(row, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    before = snapshot(workdir)
    r = invoke(*row.args)
    assert r.exit_code not in (0, None), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    assert r.stdout == "", r.stdout
    lines = r.stderr.strip().splitlines()
    assert lines and lines[0].startswith("error: "), r.stderr
    assert len(lines) == 1, r.stderr
    for culprit in row.culprit:
        assert culprit in r.stderr, (culprit, r.stderr)
    assert snapshot(workdir) == before, "something was written"
