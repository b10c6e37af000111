"""Nothing lost, nothing overwritten: a command writes only into a new or empty folder or one
of its own kind, never over a file it did not write; and every stored cell says which cell,
sweep and playouts it holds, so a file in the wrong place is named on --resume."""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from experiments import load_sweep, run_sweep
from experiments.running.spec import SweepSpec
from experiments.storage.outdir import OutDirError, claim, folder_kind
from experiments.storage.store import SweepDirError, parquet_meta
from tests.cli_support import invoke

SMALL = {"title": "small", "game": "sticky", "seed": 3,
         "axes": {"players": [2, 3], "curses": [False, True]}, "games": {"per_cell": 400},
         "report": {"baseline": {"curses": False}}}


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture
def mine(tmp_path):
    """A folder of the user's own: notes and a report.md the tool did not write."""
    root = tmp_path / "mine"
    root.mkdir()
    (root / "report.md").write_text("# my notes, not a sweep\n")
    (root / "spec.toml").write_text("# my own spec draft\n")
    return root


def spec_file(tmp_path: Path) -> Path:
    p = tmp_path / "small.toml"
    p.write_text('game = "sticky"\nseed = 3\n[axes]\nplayers = [2, 3]\n[games]\nper_cell = 300\n')
    return p


# ---- a folder the tool did not write is refused --------------------------------------------
def test_sweep_refuses_a_folder_with_the_users_own_files(tmp_path, mine):
    before = tree(mine)
    r = invoke("sweep", spec_file(tmp_path), "--out", mine, "-q")
    assert r.exit_code == 2 and "not written by cthulhu-sim" in r.stderr
    assert "report.md" in r.stderr and "--overwrite" in r.stderr
    assert tree(mine) == before
    with pytest.raises(OutDirError):
        run_sweep(SMALL, mine, resume=True)
    assert tree(mine) == before


def test_overwrite_never_replaces_a_file_the_tool_did_not_write(tmp_path, mine):
    before = tree(mine)
    r = invoke("sweep", spec_file(tmp_path), "--out", mine, "-q", "--overwrite")
    assert r.exit_code == 2 and "report.md is in the way" in r.stderr
    assert tree(mine) == before


def test_overwrite_writes_beside_other_files_and_clears_only_its_own(tmp_path):
    root = tmp_path / "shared"
    root.mkdir()
    (root / "notes.txt").write_text("keep me")
    run_sweep(SMALL, root, overwrite=True)
    assert folder_kind(root) == "sweep" and (root / "report.md").exists()
    (root / "cells" / "my-cell-notes.txt").write_text("keep me too")
    (root / "chart-mine.png").write_bytes(b"my own chart")
    other = dict(SMALL, seed=4)  # another spec: --overwrite replaces the sweep
    res = run_sweep(other, root, overwrite=True)
    assert res.complete
    assert (root / "notes.txt").read_text() == "keep me"
    assert (root / "cells" / "my-cell-notes.txt").read_text() == "keep me too"
    assert (root / "chart-mine.png").read_bytes() == b"my own chart"  # not a chart it drew


def test_compare_and_run_refuse_foreign_folders_and_each_others(tmp_path, mine):
    before = tree(mine)
    r = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 50, "-q",
               "--out", mine)
    assert r.exit_code == 2 and "not written by cthulhu-sim" in r.stderr
    r = invoke("run", "sticky", "--games", 50, "-q", "--out", mine)
    assert r.exit_code == 2 and "not written by cthulhu-sim" in r.stderr
    assert tree(mine) == before
    cmp = tmp_path / "cmp"
    assert invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 50, "-q",
                  "--out", cmp).exit_code == 0
    assert folder_kind(cmp) == "compare"
    r = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 50, "-q",
               "--out", cmp)
    assert r.exit_code == 2 and "--overwrite" in r.stderr  # its own: replaced on request
    assert invoke("compare", "sticky", "--strategies", "honest,spoiler", "--games", 50, "-q",
                  "--out", cmp, "--overwrite").exit_code == 0
    assert "spoiler" in (cmp / "compare.json").read_text()
    r = invoke("run", "sticky", "--games", 50, "-q", "--out", cmp)
    assert r.exit_code == 2 and "holds a comparison" in r.stderr
    r = invoke("sweep", spec_file(tmp_path), "--out", cmp, "-q")
    assert r.exit_code == 2 and "holds a comparison" in r.stderr


def test_claim_says_what_it_found(tmp_path):
    assert claim(tmp_path / "new", "sweep") == "new"
    (tmp_path / "empty").mkdir()
    assert claim(tmp_path / "empty", "sweep") == "new"
    (tmp_path / "f").write_text("x")
    with pytest.raises(OutDirError, match="is a file"):
        claim(tmp_path / "f", "run")
    with_manifest = tmp_path / "web"
    with_manifest.mkdir()
    (with_manifest / "manifest.json").write_text(json.dumps({"name": "my web app"}))
    assert folder_kind(with_manifest) is None  # somebody else's manifest is not ours
    with pytest.raises(OutDirError, match="not written by cthulhu-sim"):
        claim(with_manifest, "sweep")


# ---- every stored cell says what it holds ---------------------------------------------------
def test_cell_files_record_cell_sweep_and_playouts(tmp_path):
    res = run_sweep(SMALL, tmp_path / "s", report=False)
    for c in res.manifest["cells"]:
        for sub in ("cells", "playouts"):
            meta = parquet_meta(tmp_path / "s" / sub / f"{c['name']}.parquet")
            assert meta == {"kind": "cell", "cell": c["index"], "name": c["name"],
                            "spec_hash": res.manifest["spec_hash"], "playouts": [0, 400]}


def test_a_cell_file_copied_over_another_is_named_on_resume(tmp_path):
    out = tmp_path / "s"
    run_sweep(SMALL, out, report=False)
    cells = out / "cells"
    shutil.copy(cells / "c0003.parquet", cells / "c0002.parquet")
    with pytest.raises(SweepDirError, match=r"c0002.parquet holds cell 3 \(c0003\), not c0002"):
        run_sweep(SMALL, out, resume=True)
    spec = tmp_path / "small.toml"
    spec.write_text(SweepSpec.from_dict(SMALL).to_toml())
    r = invoke("sweep", spec, "--out", out, "--resume", "-q")
    assert r.exit_code == 2 and "holds cell 3" in r.stderr and "--resume" in r.stderr
    assert "Traceback" not in r.output
    (out / "playouts" / "c0002.parquet").unlink()  # as the message says: cell 2 is replayed
    (cells / "c0002.parquet").unlink()
    res = run_sweep(SMALL, out, resume=True)
    full = run_sweep(SMALL, tmp_path / "full", report=False)
    pd.testing.assert_frame_equal(res.results, full.results, check_exact=True)


def test_a_cell_file_of_another_sweep_is_named(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_sweep(SMALL, a, report=False)
    run_sweep(dict(SMALL, seed=9), b, report=False)
    shutil.copy(b / "cells" / "c0001.parquet", a / "cells" / "c0001.parquet")
    with pytest.raises(SweepDirError, match="c0001.parquet belongs to another sweep"):
        run_sweep(SMALL, a, resume=True)
    shutil.copy(b / "results.parquet", a / "results.parquet")
    with pytest.raises(SweepDirError, match="results.parquet belongs to another sweep"):
        load_sweep(a)


def test_a_damaged_playouts_file_is_named_in_the_report_step(tmp_path):
    out = tmp_path / "s"
    run_sweep(SMALL, out, report=False)
    bad = out / "playouts" / "c0001.parquet"
    bad.write_bytes(bad.read_bytes()[:200])
    r = invoke("report", out)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "playouts/c0001.parquet is unreadable" in r.stderr
    assert "delete cells/c0001.parquet and playouts/c0001.parquet" in r.stderr
    with pytest.raises(SweepDirError, match="c0001.parquet is unreadable"):
        run_sweep(SMALL, out, resume=True)
    bad.unlink()
    (out / "cells" / "c0001.parquet").unlink()
    assert run_sweep(SMALL, out, resume=True).complete


def test_a_sweep_that_fails_before_any_cell_leaves_nothing(tmp_path, monkeypatch):
    """Nothing may be written before everything is checked, and a fresh sweep that fails
    before its first cell is saved takes back what it wrote."""
    from simcore.registry import get_game

    def broken(self, config, seed, start, count):
        raise RuntimeError("engine broke")

    monkeypatch.setattr(type(get_game("sticky")), "run_batch", broken)
    with pytest.raises(RuntimeError, match="engine broke"):
        run_sweep(SMALL, tmp_path / "never")
    assert not (tmp_path / "never").exists()


def test_a_spec_with_a_seed_too_big_writes_nothing(tmp_path):
    spec = tmp_path / "big-seed.toml"
    spec.write_text(f'game = "sticky"\nseed = {2**63}\n[games]\nper_cell = 5\n')
    out = tmp_path / "out"
    r = invoke("sweep", spec, "--out", out)
    assert r.exit_code == 2 and "key 'seed'" in r.stderr and "Traceback" not in r.output
    assert not out.exists()  # no manifest.json, no spec.toml
    r = invoke("run", "sticky", "--seed", 2**63, "--games", 5)
    assert r.exit_code == 2 and "--seed" in r.stderr
