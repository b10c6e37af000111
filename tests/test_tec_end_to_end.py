"""Tiny Epic Cthulhu end to end: the real engine through the ``cthulhu-sim`` command line
(typer's CliRunner) and the public Python API, with no stand-in.

``test_experiments_report.py`` checks the report, ``main``, ``compare`` and ``check`` against a
small numpy stand-in; these tests run the same commands on the real game at small sizes
(hundreds to a few thousand playouts: well under a second each once compiled).
"""

import json
import re

import pandas as pd
import pytest

from experiments import load_sweep
from experiments import run as run_api
from tests.cli_support import invoke

GOOS = ("nyarlathotep", "cthulhu")
DIFFICULTIES = ("normal", "hard")
PLAYERS = (2, 4)
PER_CELL = 200
CHARTS = ("chart-baseline.png", "chart-heatmap.png", "chart-length.png",
          "chart-outcomes.png", "chart-winrate.png")

SPEC = f"""
title = "Tiny Epic Cthulhu end-to-end test sweep"
game = "tec"
seed = 1
strategy = "heuristic"

[axes]
goo = {json.dumps(list(GOOS))}
difficulty = {json.dumps(list(DIFFICULTIES))}
players = {json.dumps(list(PLAYERS))}

[games]
per_cell = {PER_CELL}

[report]
heatmap = ["goo", "difficulty"]
x = "players"
baseline = {{ difficulty = "normal" }}
"""


pytestmark = pytest.mark.usefixtures("restore_threads")  # a test may change numba's threads


def test_sweep_command_writes_results_and_report(tmp_path):
    """A 2 Great Old Ones x 2 difficulties x 2 player counts sweep (heuristic, 200 games a
    cell) from a spec file: a results row per cell with Wilson intervals around each win rate,
    the Markdown and HTML reports with their charts, and the Great Old Ones in the order the
    game is calibrated to (Nyarlathotep the easiest, Cthulhu the hardest)."""
    spec = tmp_path / "tiny.toml"
    spec.write_text(SPEC)
    out = tmp_path / "out"
    r = invoke("sweep", spec, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert "8 of 8 cells" in r.stdout and f"{8 * PER_CELL:,} games" in r.stdout

    for name in ("report.md", "report.html", "results.parquet", "comparisons.parquet",
                 "manifest.json", *CHARTS):
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    for chart in CHARTS:
        assert (out / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({chart})" in (out / "report.md").read_text()
    assert "data:image/png;base64," in (out / "report.html").read_text()

    df = pd.read_parquet(out / "results.parquet")
    assert len(df) == 8
    cells = set(zip(df["goo"], df["difficulty"], df["players"], strict=True))
    assert cells == {(g, d, p) for g in GOOS for d in DIFFICULTIES for p in PLAYERS}
    assert (df["games"] == PER_CELL).all() and (df["strategy"] == "heuristic").all()
    assert df["win_rate"].between(0, 1).all()
    assert (df["win_lo"] <= df["win_rate"]).all() and (df["win_rate"] <= df["win_hi"]).all()
    assert (df["win_lo"] >= 0).all() and (df["win_hi"] <= 1).all()
    assert (df["win_hi"] - df["win_lo"] > 0).all()  # a real interval, not a point
    assert (df["win_rate"] == df["n_win"] / df["games"]).all()
    outcome_shares = df[["p_win", "p_strength", "p_madness", "p_cap"]].sum(axis=1)
    assert outcome_shares.round(12).eq(1).all()

    pooled = df.groupby("goo")[["n_win", "games"]].sum()
    rate = pooled["n_win"] / pooled["games"]
    assert rate["nyarlathotep"] > rate["cthulhu"]

    # the same sweep loads back from its folder, complete
    sweep = load_sweep(out)
    assert sweep.complete and len(sweep.results) == 8


def test_compare_heuristic_beats_random():
    """``compare tec --strategies random,heuristic --games 300 --json``: on the same 300
    playouts the heuristic wins more often, and the paired difference's 95% interval is
    above zero."""
    r = invoke("compare", "tec", "--strategies", "random,heuristic", "--games", 300, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["game"] == "tec" and out["games"] == 300 and out["metric"] == "team win rate"
    rates = {row["strategy"]: row for row in out["strategies"]}
    assert list(rates) == ["random", "heuristic"]
    for row in rates.values():
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["rate"] <= hi <= 1
    assert rates["heuristic"]["rate"] > rates["random"]["rate"]
    (pair,) = out["pairs"]
    assert (pair["a"], pair["b"]) == ("random", "heuristic")  # b minus a
    assert pair["n"] == 300
    assert pair["diff"] == pytest.approx(rates["heuristic"]["rate"] - rates["random"]["rate"])
    lo, hi = pair["ci95"]
    assert 0 < lo <= pair["diff"] <= hi


def test_check_random_strategy_finds_nothing():
    """``check tec --games 2000 --strategy random``: no conservation error, no stuck game,
    exit 0 (readable and JSON output agree)."""
    r = invoke("check", "tec", "--games", 2000, "--strategy", "random")
    assert r.exit_code == 0, r.output
    assert "rules check - strategy random, 2,000 games, seed 1" in r.stdout
    assert re.search(r"^\s+violations: 0$", r.stdout, re.M)
    assert re.search(r"^\s+stuck: 0$", r.stdout, re.M)
    assert "result: ok" in r.stdout and "first violation" not in r.stdout
    j = invoke("check", "tec", "--games", 2000, "--strategy", "random", "--json")
    assert j.exit_code == 0, j.output
    out = json.loads(j.stdout)
    assert out == {"games": 2000, "seed": 1, "violations": 0, "illegal_answers": 0,
                   "stuck": 0, "first_violation": None}


def test_run_json_schema():
    """``run tec --players 2 --goo cthulhu --difficulty hard --games 500 --json`` prints the
    documented object, consistent with itself and with the Python API."""
    r = invoke("run", "tec", "--players", 2, "--goo", "cthulhu", "--difficulty", "hard",
               "--games", 500, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert {"game", "config", "strategy", "games", "seed", "win_rate", "ci95",
            "outcome_rates", "turns", "playouts_per_s"} <= set(out)
    assert out["game"] == "tec" and out["strategy"] == "heuristic"
    assert out["games"] == 500 and out["seed"] == 1
    config = out["config"]
    assert (config["players"], config["goo"], config["difficulty"]) == (2, "cthulhu", "hard")
    assert isinstance(config["characters"], list)
    lo, hi = out["ci95"]
    assert 0 <= lo <= out["win_rate"] <= hi <= 1
    assert "seat_win_rates" not in out and "seat_differences" not in out  # a team game
    assert set(out["outcome_rates"]) == {"win", "strength", "madness", "cap", "shamblers"}
    assert out["outcome_rates"]["win"] == out["win_rate"]
    assert sum(out["outcome_rates"].values()) == pytest.approx(1.0)
    assert out["outcome_ci95"]["win"] == out["ci95"]
    turns = out["turns"]
    assert set(turns) == {"mean", "mean_ci95", "p50", "p90"}
    assert 1 <= turns["p50"] <= turns["p90"] and turns["mean"] > 1
    assert turns["mean_ci95"][0] < turns["mean"] < turns["mean_ci95"][1]
    # the game's figures and their intervals: a share (Wilson) and a mean (Student's t)
    assert set(out["extra_ci95"]) <= set(out["extra"])
    for key in ("phase_two_rate", "portals_sealed_mean"):
        lo, hi = out["extra_ci95"][key]
        assert lo <= out["extra"][key] <= hi
    assert set(out["extra_ci95"]["accursed_per_game"]) == set(out["extra"]["accursed_per_game"])
    assert out["playouts_per_s"] > 0
    assert out["assumed_values"] > 0
    # the CLI and the Python API play the same games
    api = run_api("tec", {"players": 2, "goo": "cthulhu", "difficulty": "hard"},
                  games=500, seed=1).summary()
    assert api["win_rate"] == out["win_rate"] and api["turns"] == turns
    assert api["outcome_rates"] == out["outcome_rates"]
