"""``cthulhu-sim skill``: every seat at one level, levels on the same playouts (hex, tiny)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from experiments.analysis.skill import Level, level_config, parse_levels, run_skill
from experiments.running.runner import run_config
from simcore.registry import get_game
from simcore.rules_data import RulesError
from strategies import playerfile
from tests.cli_support import invoke

GAMES, SEED = 24, 3
LEVELS = "random,heuristic,flat_mc:2"


@pytest.fixture(scope="module")
def curve():
    return run_skill("hex", LEVELS, games=GAMES, seed=SEED)


def test_parse_levels():
    got = parse_levels("hex", "random, Heuristic,mcts:1_000,x.toml")
    assert got == [Level("random", "random"), Level("Heuristic", "heuristic"),
                   Level("mcts:1000", "mcts", 1000), Level("x.toml", "x.toml")]


@pytest.mark.parametrize("text, words", [
    ("random,,heuristic", "an empty level"),
    ("random,nope", "'nope' is not a strategy of hex"),
    ("heuristic:10", "not a search strategy"),
    ("mcts:0", "from 1 to 1,000,000"),
    ("mcts:lots", "from 1 to 1,000,000"),
    ("random,random", "listed twice"),
    ("table", "seats other strategies"),
])
def test_bad_levels(text, words):
    with pytest.raises(RulesError, match=words):
        parse_levels("hex", text)


def test_every_level_plays_the_same_playouts_with_every_seat_at_it(curve):
    g = get_game("hex")
    for lr in curve.levels:
        config = level_config(g, lr.level, {}, None)
        if lr.level.budget is not None:
            assert config.strategy.param_dict()["iterations"] == lr.level.budget
            assert config.strategy.param_dict()["seats"] == "all"  # every seat searches
        alone = run_config(config, GAMES, SEED).frame
        assert (alone["winner"].to_numpy() == 0).tolist() == lr.hits.tolist()
        assert sum(r.successes for r in lr.seat_rates) + lr.stalemate.successes == GAMES


def test_summary_shape_and_claims(curve):
    s = curve.summary()
    assert [r["level"] for r in s["levels"]] == ["random", "heuristic", "flat_mc:2"]
    for row in s["levels"]:
        assert {"level", "strategy", "rates", "ci95", "stalemate", "turns"} <= set(row)
        assert len(row["rates"]) == 2 and all(lo <= r <= hi for r, (lo, hi)
                                               in zip(row["rates"], row["ci95"], strict=True))
    names = [c["claim"] for c in s["claims"]]
    assert "settled at the top" in names
    for c in s["claims"]:
        assert {"claim", "holds", "flips_at"} <= set(c)
    top = next(c for c in s["claims"] if c["claim"] == "settled at the top")
    assert top["holds"] == (top["ci95"][0] <= 0 <= top["ci95"][1])
    assert "claims:" in curve.format()


def test_a_player_file_is_a_level(tmp_path):
    path = tmp_path / "p.toml"
    playerfile.write(path, {"game": "hex", "strategy": "heuristic",
                            "parameters": {"caution": 1.5}})
    got = run_skill("hex", f"heuristic,{path}", games=GAMES, seed=SEED)
    assert got.levels[1].level.strategy == str(path)
    other = run_config(get_game("hex").configure({"strategy.caution": 1.5}, "heuristic"),
                       GAMES, SEED).frame
    assert np.array_equal(other["winner"].to_numpy() == 0, got.levels[1].hits)


def test_skill_cli_json_and_out(tmp_path):
    out = tmp_path / "curve"
    res = invoke("skill", "hex", "--levels", "random,heuristic", "--games", GAMES, "--seed",
                 SEED, "--json", "--out", out)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [r["level"] for r in data["levels"]] == ["random", "heuristic"]
    assert {p.name for p in out.iterdir()} >= {"skill.json", "chart-skill.png", "report.md",
                                               "report.html", "manifest.json"}
    again = invoke("skill", "hex", "--levels", "random", "--games", 5, "--out", out)
    assert again.exit_code == 2 and "already holds" in again.output


@pytest.mark.parametrize("args, words", [
    (["--levels", "random,nope"], "'nope' is not a strategy"),
    (["--levels", "random", "--set", "strategy.caution=1"], "each level is its own"),
    (["--levels", "missing.toml"], "player file missing.toml: no such file"),
    (["--levels", "random", "--games", 0], "below 1"),
])
def test_bad_skill_input_is_one_line(args, words):
    res = invoke("skill", "hex", *args)
    assert res.exit_code == 2
    lines = [x for x in res.output.splitlines() if x.startswith("error:")]
    assert len(lines) == 1 and words in lines[0], res.output


def test_a_curve_read_back_from_its_json_says_the_same(curve):
    from experiments.analysis.skill import from_summary

    back = from_summary(json.loads(json.dumps(curve.summary())))
    assert back.claims == curve.claims
    assert back.table() == curve.table()
