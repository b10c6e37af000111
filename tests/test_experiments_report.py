"""Reports and charts, the `main`, `compare` and `check` commands, against a stand-in for
Tiny Epic Cthulhu: a small numpy game with TEC's promised interface (game "tec", cooperative,
outcomes win/strength/madness/cap, settings players/goo/difficulty, strategies random and
heuristic, a check() method).  It is registered only for the duration of these tests."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps
from typer.testing import CliRunner

import simcore.registry as game_registry
from experiments import compare, load_sweep, run_sweep
from experiments.cli import app
from simcore.game import Config, Game, GameKind, Shortcut
from simcore.rules_data import RulesData
from strategies import registry as strat_registry
from strategies.registry import StrategySpec

RULES = """
players = { value = 2, min = 1, max = 4, source = "rulebook", note = "1 to 4 players." }
goo = { value = "cthulhu", choices = ["nyarlathotep", "yog-sothoth", "yig", "cthulhu"], \
source = "rulebook", note = "Great Old One." }
difficulty = { value = "normal", choices = ["normal", "hard", "madness"], source = "rulebook", \
note = "Difficulty." }
skill = { value = 0.1, min = 0.0, max = 0.5, source = "assumed", note = "Heuristic edge." }
pace = { value = 10, min = 1, max = 50, source = "assumed", note = "Turns, roughly." }
inject_violation = { value = false, source = "assumed", note = "Test switch for check()." }
[meta]
game = "tec"
"""

GOOS = ("nyarlathotep", "yog-sothoth", "yig", "cthulhu")
DIFFS = ("normal", "hard", "madness")
FIELDS = ("outcome", "winner", "turns", "phase2_turn", "pages_translated", "portals_sealed",
          "shamblers_banished", "acc_town_madness", "acc_town_shambler", "acc_temperament",
          "acc_energy")


def _uniform(seed: int, idx: np.ndarray, k: int) -> np.ndarray:
    """A counter-based uniform for (seed, index, k): SplitMix64 of the three."""
    with np.errstate(over="ignore"):
        z = (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + idx.astype(np.uint64)
             * np.uint64(0xBF58476D1CE4E5B9) + np.uint64(k) * np.uint64(0x94D049BB133111EB))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)


class FakeTec(Game):
    name = "tec"
    title = "Tiny Epic Cthulhu (stand-in)"
    kind = GameKind(cooperative=True, perfect_information=True, searchable=False,
                    has_checker=True)
    outcomes = ("win", "strength", "madness", "cap")
    record_fields = FIELDS
    event_fields = ("phase2_turn",)
    default_strategy = "heuristic"
    shortcuts = {k: Shortcut(k) for k in ("players", "goo", "difficulty")}

    def __init__(self, rules_file: Path):
        self.rules_file = rules_file

    def compile_params(self, rules: RulesData):
        if rules["players"] == 1 and rules["difficulty"] == "madness" and rules["pace"] == 50:
            raise rules.fail("pace", "too slow for a solo game at madness")
        return {k: rules[k] for k in ("players", "goo", "difficulty", "skill", "pace")}

    def seats(self, rules):
        return 0

    def _kernel(self, config: Config, seed: int, start: int, count: int) -> np.ndarray:
        p = config.params
        idx = np.arange(start, start + count, dtype=np.uint64)
        u = [_uniform(seed, idx, k) for k in range(4)]
        win_p = (0.75 - 0.15 * DIFFS.index(p["difficulty"]) - 0.05 * GOOS.index(p["goo"])
                 + 0.04 * p["players"] + (p["skill"] if config.strategy.name == "heuristic"
                                          else -0.1))
        outcome = np.where(u[0] < win_p, 0, np.where(u[1] < 0.6, 1, 2))
        outcome = np.where(u[3] < 0.002, 3, outcome)
        turns = p["pace"] + p["players"] + (u[2] * 8).astype(np.int64)
        out = np.zeros((count, len(FIELDS)), dtype=np.int64)
        out[:, 0] = outcome
        out[:, 1] = -1
        out[:, 2] = turns
        out[:, 3] = np.where(u[1] < 0.5, turns // 2, -1)
        out[:, 4] = (u[2] * 6).astype(np.int64)
        return out

    def summarize_extra(self, df, config):
        reached = df["phase2_turn"] >= 0
        return {"phase_two_share": float(reached.mean()),
                "pages_per_game": float(df["pages_translated"].mean())}

    def trace(self, config, seed, index=0):
        return f"stand-in game {seed}/{index}"

    def trace_record(self, config, seed, index=0):
        return self._kernel(config, seed, index, 1)[0]

    def check(self, config, games, seed, progress=None):
        done = 0
        while done < games:
            n = min(1000, games - done)
            self.run_batch(config, seed, done, n)
            done += n
            if progress is not None:
                progress(n)
        bad = bool(config.rules["inject_violation"])
        return {"games": games, "violations": int(bad), "stuck": 0,
                "first_violation": "seed 1 index 0: pages went negative" if bad else None}


def _noop(view, legal, params, rng):
    return 0


@pytest.fixture()
def tec(tmp_path_factory, monkeypatch):
    rules = tmp_path_factory.mktemp("faketec") / "rules.toml"
    rules.write_text(RULES)
    game = FakeTec(rules)
    monkeypatch.setitem(game_registry.GAME_MODULES, "tec", "tests.fake")
    monkeypatch.setitem(game_registry._cache, "tec", game)
    monkeypatch.setitem(strat_registry._REGISTRY, "tec", {
        n: StrategySpec("tec", n, _noop, {}, f"{n} stand-in") for n in ("heuristic", "random")})
    return game


SPEC = {"title": "stand-in balance", "game": "tec", "seed": 1, "strategy": "heuristic",
        "axes": {"goo": ["yig", "cthulhu"], "difficulty": ["normal", "hard", "madness"],
                 "players": [1, 2, 4]},
        "games": {"precision": 2.0, "round": 1024, "max_per_cell": 4096},
        "report": {"baseline": {"difficulty": "normal"}}}


def test_tec_report_has_every_chart_and_is_self_contained(tec, tmp_path):
    res = run_sweep(SPEC, tmp_path / "r")
    root = tmp_path / "r"
    charts = sorted(p.name for p in root.glob("chart-*.png"))
    assert charts == ["chart-baseline.png", "chart-heatmap.png", "chart-length.png",
                      "chart-outcomes.png", "chart-winrate.png"]
    for c in charts:
        assert (root / c).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (root / "report.md").read_text()
    for c in charts:
        assert f"]({c})" in md
    assert "3 of the 6 rules-data values behind these results are `assumed`" in md
    assert "causes of loss" in md and "win rate by Great Old One and difficulty" in md
    html = (root / "report.html").read_text()
    srcs = re.findall(r'src="([^"]*)"', html)
    assert len(srcs) == 5 and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "<link" not in html and "http" not in html.split("<body>")[1].split("data:")[0]
    df = res.results
    assert len(df) == 18 and {"win_rate", "p_strength", "p_madness", "p_cap",
                              "extra.phase_two_share", "mean_pages_translated"} <= set(df)
    # every caption names the settings and the number of games
    total = f"{int(df['games'].sum()):,} games in 18 cells"
    assert md.count(total) == len(charts)
    comps = pd_read(root / "comparisons.parquet")
    assert len(comps) == 12 and (comps["diff"] < 0).all()  # harder is harder


def test_a_sweep_over_one_categorical_setting_gets_a_win_rate_chart(tec, tmp_path):
    """"Which Great Old One is hardest?": a sweep over the Great Old One alone has no numeric
    axis for a line chart and no second axis for a heatmap; its win rates are drawn as bars
    with 95% intervals, one per Great Old One (and grouped by a second categorical axis)."""
    spec = {"title": "which is hardest", "game": "tec", "seed": 1, "strategy": "heuristic",
            "axes": {"goo": ["yig", "cthulhu"]}, "games": {"per_cell": 1000}}
    run_sweep(spec, tmp_path / "one")
    root = tmp_path / "one"
    assert (root / "chart-settings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (root / "report.md").read_text()
    assert "](chart-settings.png)" in md and "by Great Old One" in md
    spec2 = {**spec, "axes": {"goo": ["yig", "cthulhu"], "strategy": ["heuristic", "random"]}}
    spec2.pop("strategy")
    run_sweep(spec2, tmp_path / "two")
    assert not (tmp_path / "two" / "chart-settings.png").exists()  # the strategy chart has it
    assert (tmp_path / "two" / "chart-strategies.png").exists()


def pd_read(path):
    import pandas as pd

    return pd.read_parquet(path)


def test_main_runs_the_tec_balance_spec(tec, tmp_path):
    out = tmp_path / "tec-balance"
    res = CliRunner().invoke(app, ["main", "-q", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Great Old One" in res.output and "players 4" in res.output  # in words
    sweep = load_sweep(out)
    assert sweep.complete and len(sweep.results) == 48
    assert (sweep.results["halfwidth"] <= 0.01).all() or \
        (sweep.results["games"] == 32768).any()
    assert (out / "report.md").exists() and (out / "chart-heatmap.png").exists()
    assert (out / "chart-outcomes.png").exists()
    again = CliRunner().invoke(app, ["main", "-q", "--out", str(out)])
    assert again.exit_code == 0 and "this run: 0 games" in again.output


def test_check_command(tec):
    runner = CliRunner()
    ok = runner.invoke(app, ["check", "tec", "--games", "3000", "--seed", "2", "-q"])
    assert ok.exit_code == 0, ok.output
    assert "violations: 0" in ok.output and "result: ok" in ok.output
    bad = runner.invoke(app, ["check", "tec", "--games", "100", "--set",
                              "inject_violation=true", "--json"])
    assert bad.exit_code == 1
    assert json.loads(bad.output)["first_violation"].startswith("seed 1")
    none = runner.invoke(app, ["check", "sticky", "--games", "10"])
    assert none.exit_code == 2 and "sticky has no rules checker" in none.output
    badset = runner.invoke(app, ["check", "tec", "--set", "players=7"])
    assert badset.exit_code == 2 and "players" in badset.output


def test_compare_cooperative(tec, tmp_path):
    cmp = compare("tec", ["random", "heuristic"], {"difficulty": "hard"}, games=4000, seed=3)
    s = cmp.summary()
    assert s["metric"] == "team win rate" and [r["strategy"] for r in s["strategies"]] == [
        "random", "heuristic"]
    (pair,) = s["pairs"]
    assert pair["a"] == "random" and pair["b"] == "heuristic"
    assert pair["ci95"][0] > 0.15  # 0.2 better on the same playouts, a tight paired interval
    assert pair["ci95"][1] - pair["ci95"][0] < 0.03
    paths = cmp.write(tmp_path / "cmp")
    assert {p.name for p in paths} == {"compare.json", "report.md", "report.html",
                                       "chart-compare.png"}
    res = CliRunner().invoke(app, ["compare", "tec", "--strategies", "random,heuristic",
                                   "--games", "2000", "--difficulty", "hard", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["pairs"][0]["b"] == "heuristic"
    res = CliRunner().invoke(app, ["compare", "tec", "--strategies", "random,bogus"])
    assert res.exit_code == 2 and "bogus" in res.output


def test_cross_field_error_in_one_cell(tec, tmp_path):
    from experiments.running.spec import SpecError, load_spec

    with pytest.raises(SpecError, match="cell players=1, difficulty=madness: key 'pace'"):
        load_spec({"game": "tec", "settings": {"pace": 50},
                   "axes": {"players": [1, 2], "difficulty": ["hard", "madness"]},
                   "games": 10})


def test_mean_of_an_event_turn_counts_only_games_where_it_happened(tec, tmp_path):
    """phase2_turn is -1 in a game that never reaches phase two: its mean_ column (like the
    game's own phase-two turn mean) is over the games that reached it."""
    res = run_sweep({"game": "tec", "seed": 2, "axes": {"goo": ["yig", "cthulhu"]},
                     "games": 3000, "records": True}, tmp_path / "m", report=False)
    for _, row in res.results.iterrows():
        p = res.playouts(int(row["cell"]))
        reached = p["phase2_turn"] >= 0
        assert 0 < reached.sum() < len(p)
        assert row["mean_phase2_turn"] == pytest.approx(p.loc[reached, "phase2_turn"].mean())
        assert row["mean_phase2_turn"] > p["phase2_turn"].mean()
        assert row["mean_pages_translated"] == pytest.approx(p["pages_translated"].mean())
        assert row["mean_turns"] == pytest.approx(row["turns_mean"])
        # and its interval is the mean's over those games (Student's t)
        lo, hi = sps.t.interval(0.95, reached.sum() - 1, loc=row["mean_phase2_turn"],
                                scale=sps.sem(p.loc[reached, "phase2_turn"]))
        assert row["mean_phase2_turn_lo"] == pytest.approx(lo)
        assert row["mean_phase2_turn_hi"] == pytest.approx(hi)


def test_a_field_not_declared_an_event_keeps_its_plain_mean(tec, tmp_path, monkeypatch):
    """Only a game's event_fields leave out the games with -1: in any other field -1 is a
    value like the others (Tiny Epic Cthulhu's max_delirium is -1 when no Brain token was
    placed), so its mean_ column is the plain mean."""
    monkeypatch.setattr(type(tec), "event_fields", ())
    res = run_sweep({"game": "tec", "seed": 2, "axes": {"goo": ["yig", "cthulhu"]},
                     "games": 2000, "records": True}, tmp_path / "p", report=False)
    for _, row in res.results.iterrows():
        p = res.playouts(int(row["cell"]))
        assert (p["phase2_turn"] < 0).any()
        assert row["mean_phase2_turn"] == pytest.approx(p["phase2_turn"].mean())
