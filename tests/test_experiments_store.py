"""The sweep folder's atomic writes."""

import os
import stat

import pandas as pd

from experiments.storage.store import atomic_write, write_json, write_parquet, write_text


def test_written_files_get_the_mode_of_a_new_file(tmp_path):
    old = os.umask(0o022)
    try:
        paths = [write_text(tmp_path / "report.md", "# hi\n"),
                 write_json(tmp_path / "manifest.json", {"a": 1}),
                 write_parquet(tmp_path / "cells" / "c0000.parquet", pd.DataFrame({"x": [1]}))]
        os.umask(0o077)
        private = write_text(tmp_path / "private.md", "x")
    finally:
        os.umask(old)
    for p in paths:
        assert stat.S_IMODE(p.stat().st_mode) == 0o644, p
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert not list(tmp_path.glob(".tmp-*"))


def test_a_failed_write_leaves_no_temporary_file(tmp_path):
    def boom(fh):
        fh.write(b"half")
        raise RuntimeError("disk on fire")

    try:
        atomic_write(tmp_path / "x.json", boom)
    except RuntimeError:
        pass
    assert list(tmp_path.iterdir()) == []
