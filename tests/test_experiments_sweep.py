"""Sweeps: common random numbers, chunk independence, precision rounds, atomic cells and
resuming after an interrupt (an injected one and a real kill of a subprocess)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from experiments import load_sweep, run_sweep
from experiments.running.spec import load_spec
from experiments.storage.store import SweepDirError

FIXED = {"title": "fixed", "game": "sticky", "seed": 11, "strategy": "honest",
         "axes": {"players": [2, 3], "curses": [False, True]},
         "games": {"per_cell": 3000}, "report": {"baseline": {"curses": False}}}
PRECISION = {"game": "sticky", "seed": 5, "axes": {"players": [2, 4, 6]},
             "settings": {"seats": ["expert", "beginner"] + ["beginner"] * 4},
             "games": {"precision": 2.0, "round": 1000, "max_per_cell": 3000}}


def interrupt_after(spec, out, cells, **kwargs):
    """Run ``spec`` into ``out`` and stop it (as Ctrl-C would) once ``cells`` cells are saved."""
    def boom(index):
        if index + 1 >= cells:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, on_cell=boom, **kwargs)


def cell_files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "cells").glob("*.parquet"))} | {
        "p-" + p.name: p.read_bytes() for p in sorted((root / "playouts").glob("*.parquet"))}


def test_cells_use_common_random_numbers(tmp_path, sticky):
    res = run_sweep(FIXED, tmp_path / "s", report=False)
    df = res.results
    assert list(df["cell"]) == [0, 1, 2, 3] and (df["games"] == 3000).all()
    spec = load_spec(FIXED)
    for cell in spec.cells():
        cfg = spec.configure(cell)
        direct = sticky.run_batch(cfg, 11, 0, 3000)
        p = res.playouts(cell.index)
        assert np.array_equal(p["winner"].to_numpy(), direct["winner"])
        assert np.array_equal(p["turns"].to_numpy(), direct["turns"])
        row = df.iloc[cell.index]
        assert row["seat0_wins"] == int((direct["winner"] == 0).sum())
        assert row["turns_mean"] == pytest.approx(direct["turns"].mean())
        assert row["label"] == cell.label
    assert set(df.columns) >= {"players", "curses", "strategy", "seat1_rate", "p_cap",
                               "turns_hist", "mean_mishaps", "extra.mishaps_per_game",
                               "assumed_values", "halfwidth"}


def test_chunk_size_and_records_do_not_change_results(tmp_path):
    a = run_sweep(FIXED, tmp_path / "a", chunk=700, report=False)
    b = run_sweep(FIXED, tmp_path / "b", chunk=4096, report=False)
    pd.testing.assert_frame_equal(a.results, b.results, check_exact=True)
    assert cell_files(tmp_path / "a") == cell_files(tmp_path / "b")
    c = run_sweep(FIXED, tmp_path / "c", records=True, report=False)
    full = c.playouts(3)
    assert "mishaps" in full.columns and len(full) == 3000
    assert np.array_equal(full["winner"].to_numpy(), a.playouts(3)["winner"].to_numpy())


def test_precision_rounds_stop_at_target_or_cap(tmp_path):
    res = run_sweep(PRECISION, tmp_path / "p", chunk=600, report=False)
    df = res.results
    assert ((df["games"] % 1000) == 0).all() and (df["games"] <= 3000).all()
    for _, row in df.iterrows():
        met = 100 * row["halfwidth"] <= 2.0
        assert met or row["games"] == 3000
        if row["games"] > 1000:  # the round before was not precise enough
            spec = load_spec(PRECISION)
            n = int(row["games"]) - 1000
            p = res.playouts(int(row["cell"]))["winner"].to_numpy()[:n]
            from experiments.stats import half_width, seat_win_rates
            widths = [half_width(r) for r in seat_win_rates(p, int(row["n_seats"]))]
            assert 100 * max(widths) > 2.0
            del spec
    again = run_sweep(PRECISION, tmp_path / "q", chunk=1000, report=False)
    pd.testing.assert_frame_equal(df, again.results, check_exact=True)


def test_interrupted_sweep_resumes_to_identical_results(tmp_path):
    full = run_sweep(FIXED, tmp_path / "full")
    out = tmp_path / "part"

    def boom(index):
        if index == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(FIXED, out, on_cell=boom)
    assert sorted(p.name for p in (out / "cells").iterdir()) == ["c0000.parquet",
                                                                 "c0001.parquet"]
    assert not list(out.rglob(".tmp-*"))
    assert not (out / "results.parquet").exists()
    with pytest.raises(SweepDirError, match="--resume"):
        run_sweep(FIXED, out)
    ran = []
    res = run_sweep(FIXED, out, resume=True, on_cell=ran.append)
    assert ran == [2, 3]  # finished cells are not redone
    assert res.run_info["games_played"] == 2 * 3000
    pd.testing.assert_frame_equal(res.results, full.results, check_exact=True)
    assert cell_files(out) == cell_files(tmp_path / "full")
    assert (out / "results.parquet").read_bytes() == (tmp_path / "full/results.parquet") \
        .read_bytes()
    assert (out / "report.md").read_text().replace("../part-", "../full-") == \
        (tmp_path / "full/report.md").read_text()


def test_resume_refuses_a_different_spec(tmp_path):
    out = tmp_path / "s"
    run_sweep(FIXED, out, report=False)
    other = dict(FIXED, seed=12)
    with pytest.raises(SweepDirError, match="different spec"):
        run_sweep(other, out, resume=True)
    res = run_sweep(other, out, overwrite=True, report=False)
    assert (res.results["seed"] == 12).all()
    res = run_sweep(other, out, resume="auto", report=False)  # same spec: nothing to do
    assert res.run_info["games_played"] == 0
    assert load_sweep(out).complete


def test_precision_sweep_killed_and_resumed(tmp_path):
    """A real kill (SIGKILL) of the CLI mid-sweep, then --resume: identical files."""
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'game = "sticky"\nseed = 2\n[axes]\nplayers = [2, 3, 4, 5, 6]\ncurses = [false, true]\n'
        '[games]\nprecision = 0.3\nround = 12000\nmax_per_cell = 36000\n')
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "experiments.cli", "sweep", str(spec), "--out", str(out),
           "-q", "--no-report", "--chunk", "4000"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            done = list((out / "cells").glob("c*.parquet")) if (out / "cells").exists() else []
            if len(done) >= 2:
                break
            time.sleep(0.02)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode()[-2000:]
    finished = sorted(p.name for p in (out / "cells").glob("c*.parquet"))
    assert 2 <= len(finished) < 10
    for p in (out / "cells").glob("c*.parquet"):  # every saved cell is whole
        assert len(pd.read_parquet(p)) == 1
    res = run_sweep(spec, out, resume=True, report=False)
    assert res.run_info["cells_run"] == 10 - len(finished)
    assert not list(out.rglob(".tmp-*"))
    ref = run_sweep(spec, tmp_path / "ref", report=False)
    pd.testing.assert_frame_equal(res.results, ref.results, check_exact=True)
    assert cell_files(out) == cell_files(tmp_path / "ref")
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(manifest["cells"]) == 10


def test_cli_interrupt_message_and_exit_code(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import experiments.running.sweep
    from experiments.cli import app

    spec = tmp_path / "spec.toml"
    spec.write_text('game = "sticky"\n[axes]\nplayers = [2, 3]\n[games]\nper_cell = 500\n')

    def interrupted(*args, on_cell=None, **kwargs):
        on_cell(0)
        raise KeyboardInterrupt

    monkeypatch.setattr(experiments.running.sweep, "run_sweep", interrupted)
    res = CliRunner().invoke(app, ["sweep", str(spec), "--out", str(tmp_path / "o")])
    assert res.exit_code == 130
    assert "interrupted after 1 more cell(s)" in res.output and "--resume" in res.output


def test_reproduce_command_of_the_report_works_from_a_moved_folder(tmp_path, monkeypatch):
    """A sweep with its own rules data file: the output folder keeps a copy, its spec.toml
    names the copy, and the report's Reproduce command works wherever the folder goes."""
    import re
    import shlex
    import shutil

    from simcore.sticky.game import Sticky
    from tests.cli_support import invoke

    src = tmp_path / "work"
    src.mkdir()
    text = Sticky.rules_file.read_text(encoding="utf-8")
    mine = text.replace("reach_cm = { value = 2.0,", "reach_cm = { value = 2.5,", 1)
    assert mine != text
    (src / "mine.toml").write_text(mine, encoding="utf-8")
    (src / "my-spec.toml").write_text(
        '# my sweep\ngame = "sticky"\nseed = 4\nrules = "mine.toml"   # wider reach\n'
        '[axes]\nplayers = [2, 3]\n[games]\nper_cell = 300\n', encoding="utf-8")
    monkeypatch.chdir(src)
    r = invoke("sweep", "my-spec.toml", "--out", "out", "-q")
    assert r.exit_code == 0, r.output
    saved = (src / "out" / "spec.toml").read_text(encoding="utf-8")
    assert 'rules = "rules.toml"   # wider reach' in saved and saved.startswith("# my sweep")
    assert (src / "out" / "rules.toml").read_text(encoding="utf-8") == mine

    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    shutil.move(src / "out", moved)
    shutil.rmtree(src)
    md = (moved / "report.md").read_text(encoding="utf-8")
    section = md.split("## Reproduce", 1)[1]
    assert "From the folder that holds this report" in section
    command = shlex.split(re.search(r"^cthulhu-sim (sweep .*)$", section, re.M)[1])
    assert command[:2] == ["sweep", "spec.toml"]
    monkeypatch.chdir(moved)
    r = invoke(*command, "-q")
    assert r.exit_code == 0, r.output
    again = load_sweep(moved / command[command.index("--out") + 1])
    assert again.root.resolve().parent == moved.parent  # beside the folder, not inside
    pd.testing.assert_frame_equal(again.results, load_sweep(moved).results, check_exact=True)
    assert again.manifest["spec_hash"] == load_sweep(moved).manifest["spec_hash"]
    # the moved folder's own spec still resumes (nothing left to play)
    r = invoke("sweep", "spec.toml", "--out", ".", "--resume", "-q", "--no-report")
    assert r.exit_code == 0, r.output
    assert load_sweep(moved).run_info["games_played"] == 0


def test_saved_spec_of_a_dict_names_the_rules_copy(tmp_path):
    from simcore.sticky.game import Sticky

    rules = tmp_path / "r.toml"
    rules.write_text(Sticky.rules_file.read_text(encoding="utf-8"), encoding="utf-8")
    spec = load_spec({"game": "sticky", "rules": str(rules), "axes": {"players": [2]},
                      "games": 10})
    assert 'rules = "rules.toml"' in spec.saved_toml("rules.toml")
    assert spec.rules_path == rules  # unchanged


def test_resume_says_why_it_refuses_and_keeps_records_in_the_saved_spec(tmp_path, monkeypatch):
    """A sweep run with --records saves ``records = true`` in its spec copy, so the folder's
    own spec resumes it; a mismatch in records, or in the simulator's source, is named."""
    out = tmp_path / "r"
    small = dict(FIXED, axes={"players": [2]}, games={"per_cell": 500}, report={})
    run_sweep(small, out, records=True, report=False)
    saved = load_spec(out / "spec.toml")
    assert saved.records is True
    res = run_sweep(out / "spec.toml", out, resume=True, report=False)
    assert res.run_info["games_played"] == 0  # the same sweep: nothing left to play
    with pytest.raises(SweepDirError, match="records = true"):
        run_sweep(small, out, resume=True, records=False, report=False)
    import simcore._cache

    monkeypatch.setattr(simcore._cache, "source_hash", lambda: "another version")
    with pytest.raises(SweepDirError, match="another version of the simulator"):
        run_sweep(small, out, resume=True, records=True, report=False)


def test_report_drops_what_the_sweep_no_longer_makes(tmp_path):
    """Comparisons and charts of a previous report do not outlive a change of the spec's
    report options, nor an --overwrite by a sweep that makes none."""
    out = tmp_path / "s"
    run_sweep(FIXED, out)
    assert (out / "comparisons.parquet").exists() and (out / "chart-baseline.png").exists()
    no_baseline = dict(FIXED, report={})
    run_sweep(no_baseline, out, resume=True)  # same cells: only the report changes
    assert not (out / "comparisons.parquet").exists()
    assert not (out / "chart-baseline.png").exists()
    assert (out / "report.md").exists()
    run_sweep(FIXED, out, overwrite=True)
    assert (out / "comparisons.parquet").exists()
    other = dict(no_baseline, seed=3)
    run_sweep(other, out, overwrite=True, report=False)
    assert not (out / "comparisons.parquet").exists()


def test_report_keeps_comparisons_whose_playouts_are_gone(tmp_path):
    """Without the playout files a rebuilt report cannot recompute the paired comparisons:
    it keeps the saved ones (and their chart) rather than dropping them."""
    from experiments.reporting.report import build_report

    out = tmp_path / "s"
    run_sweep(dict(FIXED, games={"per_cell": 500}), out)
    before = pd.read_parquet(out / "comparisons.parquet")
    for p in (out / "playouts").glob("*.parquet"):
        p.unlink()
    build_report(load_sweep(out))
    pd.testing.assert_frame_equal(pd.read_parquet(out / "comparisons.parquet"), before)
    assert (out / "chart-baseline.png").exists()


def test_report_of_a_sweep_with_no_finished_cell_is_refused(tmp_path):
    from experiments.reporting.report import build_report

    out = tmp_path / "early"
    interrupt_after(dict(FIXED, games={"per_cell": 500}), out, 1)
    (out / "cells" / "c0000.parquet").unlink()  # as if stopped before the first cell ended
    for p in (out / "playouts").glob("*"):
        p.unlink()
    with pytest.raises(ValueError, match="no cell"):
        build_report(load_sweep(out))
    from cli_support import invoke

    r = invoke("report", str(out))
    assert r.exit_code != 0 and "no cell of the sweep" in r.output
    assert "Traceback" not in r.output


def test_damaged_cell_file_is_named_not_a_traceback(tmp_path):
    from cli_support import invoke

    out = tmp_path / "d"
    small = dict(FIXED, games={"per_cell": 500})
    interrupt_after(small, out, 2, report=False)
    cell = out / "cells" / "c0001.parquet"
    cell.write_bytes(cell.read_bytes()[:100])  # cut short
    with pytest.raises(SweepDirError, match="c0001.parquet is unreadable"):
        load_sweep(out)
    r = invoke("report", str(out))
    assert r.exit_code != 0 and "c0001.parquet is unreadable" in r.output
    assert "Traceback" not in r.output
    with pytest.raises(SweepDirError, match="c0001.parquet is unreadable"):
        run_sweep(small, out, resume=True, report=False)
    cell.unlink()  # as the message says: the cell is played again, to the same result
    res = run_sweep(small, out, resume=True, report=False)
    full = run_sweep(small, tmp_path / "full", report=False)
    pd.testing.assert_frame_equal(res.results, full.results, check_exact=True)
    (out / "results.parquet").write_bytes(b"not parquet")
    with pytest.raises(SweepDirError, match="results.parquet is unreadable"):
        load_sweep(out)
    (out / "results.parquet").unlink()  # as the message says
    res = run_sweep(small, out, resume=True, report=False)
    assert res.run_info["games_played"] == 0
    pd.testing.assert_frame_equal(load_sweep(out).results, full.results, check_exact=True)


def test_resume_says_how_much_was_finished(tmp_path, capsys):
    out = tmp_path / "p"
    small = dict(FIXED, games={"per_cell": 500})
    interrupt_after(small, out, 2, report=False)
    capsys.readouterr()
    run_sweep(small, out, resume=True, report=False, progress=True)
    assert "resuming, 2 of 4 cells already finished" in capsys.readouterr().err


def test_a_sweep_whose_cells_would_not_fit_in_memory_is_refused_before_starting(tmp_path,
                                                                               monkeypatch):
    import experiments.running.runner as runner
    from tests.cli_support import invoke

    monkeypatch.setattr(runner, "available_memory", lambda: 1_000_000_000)  # 1 GB
    big = dict(PRECISION, games={"precision": 0.01, "max_per_cell": 10_000_000})
    with pytest.raises(runner.TooManyGamesError, match="a sweep cell"):
        run_sweep(big, tmp_path / "big")
    assert not (tmp_path / "big").exists()  # nothing written, nothing to resume
    run_sweep(FIXED, tmp_path / "fits", report=False)  # 3,000 games a cell fit
    spec = tmp_path / "big.toml"
    spec.write_text('game = "sticky"\n[axes]\nplayers = [2, 3]\n[games]\nper_cell = 10000000\n')
    r = invoke("sweep", str(spec), "--out", str(tmp_path / "cli"), "-q")
    assert r.exit_code == 2 and "at most about" in r.stderr and "Traceback" not in r.output
