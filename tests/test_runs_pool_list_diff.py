"""A single run kept in a folder, pools of runs of different seeds, the list of results under
a folder and the cell-by-cell difference of two sweeps."""

import json

import pandas as pd
import pytest

from experiments import load_sweep, run_sweep
from experiments.running.runner import run as run_api
from tests.cli_support import invoke


def run_folder(tmp_path, name, *args):
    out = tmp_path / name
    r = invoke("run", "sticky", "--games", 500, "-q", "--out", out, *args)
    assert r.exit_code == 0, r.output
    return out


def test_run_out_keeps_the_summary_and_every_playout(tmp_path):
    out = run_folder(tmp_path, "r1", "--seed", 4, "--set", "curses=true")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["tool"] == "cthulhu-sim" and manifest["kind"] == "run"
    assert manifest["playouts"] == [{"seed": 4, "start": 0, "end": 500}]
    assert manifest["settings"] == {"curses": True}
    summary = json.loads((out / "summary.json").read_text())
    api = run_api("sticky", {"curses": True}, games=500, seed=4).summary()
    assert summary["seat_win_rates"] == api["seat_win_rates"]
    playouts = pd.read_parquet(out / "playouts.parquet")
    assert len(playouts) == 500 and {"outcome", "winner", "turns"} <= set(playouts)
    row = pd.read_csv(out / "results.csv")
    assert len(row) == 1 and row["games"][0] == 500
    assert "Sticky Cthulhu" in (out / "report.md").read_text()


def test_pool_of_two_seeds_is_one_run_of_all_their_games(tmp_path):
    a = run_folder(tmp_path, "a", "--seed", 1)
    b = run_folder(tmp_path, "b", "--seed", 2)
    r = invoke("pool", a, b, "--out", tmp_path / "ab", "--json")
    assert r.exit_code == 0, r.output
    pooled = json.loads(r.stdout)
    assert pooled["games"] == 1000 and pooled["seed"] == [1, 2]
    frames = pd.concat([pd.read_parquet(a / "playouts.parquet"),
                        pd.read_parquet(b / "playouts.parquet")])
    wins0 = int((frames["winner"] == 0).sum())
    assert pooled["seat_win_rates"][0]["rate"] == pytest.approx(wins0 / 1000)
    manifest = json.loads((tmp_path / "ab" / "manifest.json").read_text())
    assert manifest["kind"] == "pool" and len(manifest["playouts"]) == 2
    text = invoke("pool", a, b, "--out", tmp_path / "ab2")
    assert "1,000 games, seeds 1, 2" in text.stdout


def test_pool_refuses_shared_playouts_and_different_settings(tmp_path):
    a = run_folder(tmp_path, "a", "--seed", 1)
    same = run_folder(tmp_path, "same", "--seed", 1)
    cursed = run_folder(tmp_path, "cursed", "--seed", 2, "--set", "curses=true")
    r = invoke("pool", a, same, "--out", tmp_path / "p1")
    assert r.exit_code == 2 and "share playouts (seed 1" in r.stderr
    r = invoke("pool", a, cursed, "--out", tmp_path / "p2")
    assert r.exit_code == 2 and "differ in settings: curses" in r.stderr
    r = invoke("pool", a, a, "--out", tmp_path / "p3")
    assert r.exit_code == 2 and "twice" in r.stderr
    assert not any((tmp_path / p).exists() for p in ("p1", "p2", "p3"))


def test_list_shows_every_result_under_a_folder(tmp_path):
    run_sweep({"title": "two cells", "game": "sticky", "axes": {"players": [2, 3]},
               "games": 200}, tmp_path / "sweeps" / "s1", report=False)
    run_folder(tmp_path, "runs/r1")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "manifest.json").write_text("{}")  # not ours
    r = invoke("list", tmp_path)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["folder", "kind", "game", "cells", "games", "date", "title"]
    sweep_line = next(line for line in lines if "s1" in line)
    assert "sweep" in sweep_line and "sticky" in sweep_line and "2/2" in sweep_line
    assert "400" in sweep_line and "two cells" in sweep_line
    assert any("r1" in line and "run" in line and "500" in line for line in lines)
    assert not any("junk" in line for line in lines)
    rows = json.loads(invoke("list", tmp_path, "--json").stdout)
    assert {r["kind"] for r in rows} == {"sweep", "run"}
    assert all(len(r["date"]) == 10 for r in rows)


def test_diff_pairs_cells_of_two_sweeps_with_the_same_seed(tmp_path):
    base = {"game": "sticky", "seed": 5, "axes": {"players": [2, 4]}, "games": 2000}
    a = run_sweep(base, tmp_path / "a", report=False)
    # a small rules variant: most games play out the same, so pairing pays
    b = run_sweep({**base, "settings": {"table.width_cm": 70.5}}, tmp_path / "b", report=False)
    r = invoke("diff", a.root, b.root, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["paired"] and len(d["cells"]) == 2
    for row in d["cells"]:
        assert row["paired"]
        assert row["diff"] == pytest.approx(row["b"]["rate"] - row["a"]["rate"])
        assert row["ci95"][0] <= row["diff"] <= row["ci95"][1]
    other_seed = run_sweep({**base, "seed": 6}, tmp_path / "c", report=False)
    d2 = json.loads(invoke("diff", a.root, other_seed.root, "--json").stdout)
    assert not d2["paired"] and not d2["cells"][0]["paired"]
    # paired on common random numbers: narrower than comparing independent games
    width = [r["ci95"][1] - r["ci95"][0] for r in d["cells"]]
    width2 = [r["ci95"][1] - r["ci95"][0] for r in d2["cells"]]
    assert all(w < w2 / 2 for w, w2 in zip(width, width2, strict=True))
    text = invoke("diff", a.root, b.root).stdout
    assert "B minus A" in text and "players 2" in text and "paired" in text


def test_diff_refuses_sweeps_of_different_games_or_no_common_cell(tmp_path):
    a = run_sweep({"game": "sticky", "axes": {"players": [2]}, "games": 100},
                  tmp_path / "a", report=False)
    b = run_sweep({"game": "sticky", "axes": {"players": [3]}, "games": 100},
                  tmp_path / "b", report=False)
    r = invoke("diff", a.root, b.root)
    assert r.exit_code == 2 and "no finished cell" in r.stderr
    assert load_sweep(a.root).complete


def test_shell_completion_is_offered():
    r = invoke("--help")
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout
