"""``cthulhu-sim uncertainty``: every assumed number sampled over its plausible range together
(Latin hypercube or Sobol'), on common random numbers; the figure at the defaults with its
interval, its band over the assumptions, and the values that drive the band."""

import json

import numpy as np
import pytest

from experiments.analysis.knobs import KnobError
from experiments.analysis.uncertainty import factors, run_uncertainty, unit_sample
from tests.balance_support import toy_games  # noqa: F401  (a fixture)
from tests.cli_support import invoke

pytestmark = pytest.mark.usefixtures("toy_games")  # coin and duel registered

# duel: seat 0 wins playout i when u_i < (50 + edge - comp) / 100.  Both keys are assumed
# with no plausible range given, so one step each way: edge 9..11, comp 0..1 (its minimum).
DUEL_PLAUSIBLE = """
players = { value = 2, min = 2, max = 2, source = "rulebook", note = "Two." }
edge = { value = 10, min = 0, max = 40, plausible = [0, 20], source = "assumed", note = "n" }
comp = { value = 0, min = 0, max = 40, plausible = [0, 0], source = "assumed", note = "n" }
[meta]
game = "duel"
title = "Duel (test game)"
"""


def test_the_default_ranges_are_one_step_each_way_and_rulebook_values_stay():
    from experiments.running.plays import Setting

    fs, fixed = factors(Setting.of("duel").rules, None)
    assert [(f.name, f.lo, f.hi) for f in fs] == [("edge", 9, 11), ("comp", 0, 1)]
    assert fixed == []  # players is a rulebook value: not sampled at all


def test_the_band_brackets_the_default_and_is_what_the_playouts_give():
    """By hand: on common random numbers seat 0's win rate at (edge, comp) is the share of the
    playouts' uniforms below (50 + edge - comp) / 100, so every sample's figure lies between
    the figures at (9, 1) and (11, 0), and the figure rises with edge and falls with comp."""
    from tests.balance_support import uniforms

    games, seed = 400, 7
    r = run_uncertainty("duel", samples=12, games=games, seed=seed)
    u = uniforms(seed, 0, games)
    h = r.headline
    assert h.default.value == pytest.approx(np.mean(u < 0.60))
    for (edge, comp), y in zip(r.X, h.values, strict=True):
        assert edge in (9, 10, 11) and comp in (0, 1)
        assert y == pytest.approx(np.mean(u < (50 + edge - comp) / 100))
    assert np.mean(u < 0.58) <= h.p5 <= h.median <= h.p95 <= np.mean(u < 0.61)
    assert h.p5 <= h.default.value <= h.p95
    assert h.default.lo < h.default.value < h.default.hi
    names = [d["key"] for d in h.drivers]
    assert set(names) == {"edge", "comp"}
    score = {d["key"]: d["score"] for d in h.drivers}
    assert score["edge"] > 0 > score["comp"]
    # a competitive game: every seat's band, seat 1's the complement of seat 0's here
    assert [b.metric.name for b in r.bands] == ["seat0", "seat1"]
    assert r.bands[1].values == pytest.approx(1 - h.values)
    # a Latin hypercube: each integer value of edge about equally often
    counts = np.bincount(r.X[:, 0].astype(int) - 9)
    assert counts.min() >= 3


def test_a_given_plausible_range_is_used_and_the_wide_key_drives_the_band(tmp_path):
    rules = tmp_path / "duel.toml"
    rules.write_text(DUEL_PLAUSIBLE)
    r = run_uncertainty("duel", rules_path=str(rules), samples=32, games=500, seed=3)
    assert [f.name for f in r.factors] == ["edge"]
    assert [f.name for f in r.fixed] == ["comp"]  # plausible = [0, 0]: left as it is
    assert r.X[:, 0].min() >= 0 and r.X[:, 0].max() <= 20
    h = r.headline
    assert h.p95 - h.p5 > 0.1  # 20 points of edge: a wide band
    assert h.drivers[0]["key"] == "edge" and h.drivers[0]["score"] > 0.95
    assert h.r2 > 0.9
    with pytest.raises(KnobError, match="comp: its plausible range is the one value 0"):
        run_uncertainty("duel", rules_path=str(rules), keys=["comp"], samples=4, games=10)


def test_common_random_numbers_the_same_seed_gives_the_same_answer():
    a = run_uncertainty("duel", samples=8, games=300, seed=11).summary()
    b = run_uncertainty("duel", samples=8, games=300, seed=11).summary()
    assert a == b
    c = run_uncertainty("duel", samples=8, games=300, seed=12).summary()
    assert c["default"] != a["default"]


def test_sobol_and_lhs_cover_the_cube():
    for method in ("lhs", "sobol"):
        U = unit_sample(method, 3, 16, 1, 0)
        assert U.shape == (16, 3) and U.min() >= 0 and U.max() < 1
    assert run_uncertainty("duel", method="sobol", samples=8, games=50).headline


def test_a_list_moves_whole_between_its_two_ends():
    """coin's ladder [10, -20], assumed with no range given: one step each way, so its lowest
    list is [9, -21] and its highest [11, -19], every item at once."""
    r = run_uncertainty("coin", keys=["ladder", "spread"], samples=6, games=50)
    assert r.refused == 0
    assert [f.name for f in r.factors] == ["spread", "ladder"]  # the rules data's order
    ladder = r.factors[1]
    assert (ladder.lo, ladder.hi) == ([9, -21], [11, -19])
    assert ladder.at(0.0) == [9, -21] and ladder.at(0.99) == [11, -19]
    assert ladder.at(0.5) == [10, -20]
    assert r.rows["ladder"].between(0, 1).all()  # its place between the two ends


def test_a_sample_the_rules_refuse_is_replaced(monkeypatch):
    from experiments.analysis import uncertainty as unc
    from simcore.rules_data import RulesError

    real = unc.Setting.point
    seen = {"n": 0}

    def point(self, changes, seed):
        if changes.get("edge") == 11:
            seen["n"] += 1
            raise RulesError("override: edge 11 refused (a test's constraint)")
        return real(self, changes, seed)

    monkeypatch.setattr(unc.Setting, "point", point)
    r = run_uncertainty("duel", samples=9, games=20, seed=2)
    assert len(r.X) == 9 and 11 not in r.X[:, 0]
    assert r.refused == seen["n"] > 0
    assert "edge 11 refused" in r.refused_first
    assert "refused by the rules and drawn again" in r.format()


@pytest.mark.parametrize("args, culprit", [
    (["--keys", "no_such"], "--keys no_such: unknown key"),
    (["--keys", "players"], "a rulebook value"),
    (["--samples", "1"], "--samples"),
    (["--method", "magic"], "--method magic"),
    (["--metric", "seat5"], "seat5"),
])
def test_bad_input_is_one_line(args, culprit):
    r = invoke("uncertainty", "duel", "--games", "10", "-q", *args)
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and culprit in lines[0], r.output


def test_json_keys_and_the_folder_resumes(tmp_path):
    out = tmp_path / "u"
    args = ["uncertainty", "duel", "--samples", "6", "--games", "64", "--seed", "5"]
    r = invoke(*args, "--json", "--out", out)
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    assert set(s["default"]) == {"value", "ci95"}
    assert set(s["band"]) >= {"median", "p5", "p95"}
    assert s["drivers"] and set(s["drivers"][0]) >= {"key", "score"}
    assert s["seats"][0]["metric"] == "seat1"
    for name in ("uncertainty.json", "samples.parquet", "samples.csv", "chart-band.png",
                 "report.md", "report.html", "manifest.json"):
        assert (out / name).is_file(), name
    assert "over its assumptions" in (out / "report.md").read_text()
    again = invoke(*args, "--json", "--out", out)
    assert again.exit_code == 2 and "--resume" in again.output
    resumed = invoke(*args, "--json", "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    t = json.loads(resumed.output)
    assert t["games_played"] == 0 and t["band"] == s["band"]
    text = invoke(*args)
    assert text.exit_code == 0 and "at the defaults" in text.output


def test_hex_each_sample_is_the_run_of_its_counters_on_the_same_playouts():
    """The hex wargame, two Bad counter values (one step each way): every sample's Good win
    rate is what ``run`` gives for those counters on the same seed and playouts, the band
    brackets the default's figure, and both keys are ranked as drivers."""
    from simcore.registry import get_game

    games, seed = 40, 4
    keys = ["bad.cultist.move", "bad.monster.move"]
    r = run_uncertainty("hex", keys=keys, samples=3, games=games, seed=seed)
    g = get_game("hex")
    assert [f.name for f in r.factors] == keys
    assert [(f.lo, f.hi) for f in r.factors] == [(3, 5), (1, 3)]
    for (cm, mm), y in zip(r.X, r.headline.values, strict=True):
        cfg = g.configure({"bad.cultist.move": int(cm), "bad.monster.move": int(mm)})
        recs = g.run_batch(cfg, seed, 0, games)
        assert y == np.mean(recs["winner"] == 0)
    base = g.run_batch(g.configure({}), seed, 0, games)
    assert r.headline.default.value == np.mean(base["winner"] == 0)
    # three samples of a Latin hypercube: each key takes each of its three values once
    assert sorted(r.X[:, 0]) == [3, 4, 5] and sorted(r.X[:, 1]) == [1, 2, 3]
    h = r.headline
    assert h.p5 <= h.default.value <= h.p95  # (measured on this seed)
    assert {d["key"] for d in r.headline.drivers} == set(keys)
    assert [b.metric.name for b in r.bands] == ["seat0", "seat1"]


def _cli(*args, cwd):
    """The CLI in a fresh process, as a user runs it (nothing of this test's imports in it:
    a kind of folder that only its own command's module knew would go unrecognised)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "experiments", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300)


def test_an_uncertainty_folder_is_its_own_kind(tmp_path):
    """outdir's tables name the uncertainty folder themselves: `list` names it (with its
    samples and games) and every other command refuses to write over it, and it over them,
    in a process that never imported the uncertainty command."""
    from experiments.storage.outdir import KIND_WORDS, LAYOUTS, OutDirError, claim, folder_kind

    assert KIND_WORDS["uncertainty"] == "an uncertainty analysis"
    assert "uncertainty.json" in LAYOUTS["uncertainty"]
    out = tmp_path / "u"
    r = invoke("uncertainty", "duel", "--samples", "3", "--games", "16", "-q", "--out", out)
    assert r.exit_code == 0, r.output
    assert folder_kind(out) == "uncertainty"
    with pytest.raises(OutDirError, match="holds an uncertainty analysis of cthulhu-sim, not a "
                       "sensitivity analysis"):
        claim(out, "sensitivity")
    listing = _cli("list", tmp_path, cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    row = [x for x in listing.stdout.splitlines() if x.startswith(str(out))]
    assert len(row) == 1 and "uncertainty analysis" in row[0] and "duel" in row[0], listing.stdout
    assert " 3 " in row[0] and "64" in row[0]  # 3 samples; (3 + 1) x 16 games
    before = sorted(p.name for p in out.iterdir())
    over = _cli("run", "sticky", "--games", "10", "-q", "--out", out, cwd=tmp_path)
    lines = [x for x in over.stderr.splitlines() if x.strip()]
    assert over.returncode == 2 and len(lines) == 1, over.stderr
    assert "holds an uncertainty analysis of cthulhu-sim, not a run" in lines[0]
    assert sorted(p.name for p in out.iterdir()) == before
    # and an uncertainty run over another kind of folder is refused the same way
    cmp = tmp_path / "cmp"
    assert invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", "20", "-q",
                  "--out", cmp).exit_code == 0
    r = invoke("uncertainty", "duel", "--samples", "3", "--games", "16", "-q", "--out", cmp)
    assert r.exit_code == 2 and "holds a comparison of cthulhu-sim, not an uncertainty " \
        "analysis" in r.output, r.output


def test_the_reports_reproduce_line_plays_the_same_analysis_again(tmp_path):
    """report.md ends with the command that made it (settings, keys, samples, games, seed);
    run from the folder it fills a sibling folder with the same figures."""
    import shlex

    out = tmp_path / "u"
    r = invoke("uncertainty", "duel", "--keys", "edge", "--metric", "seat0", "--samples", "5",
               "--games", "40", "--seed", "7", "--method", "sobol", "-q", "--out", out)
    assert r.exit_code == 0, r.output
    text = (out / "report.md").read_text()
    assert "## Reproduce" in text
    line = text.split("## Reproduce", 1)[1].split("```")[1].strip()
    argv = shlex.split(line)
    assert argv[:3] == ["cthulhu-sim", "uncertainty", "duel"]
    assert argv[argv.index("--out") + 1] == "../u-reproduced"
    for opt, val in [("--keys", "edge"), ("--metric", "seat0"), ("--samples", "5"),
                     ("--games", "40"), ("--seed", "7"), ("--method", "sobol")]:
        assert argv[argv.index(opt) + 1] == val, line
    again = out.parent / "u-reproduced"
    argv[argv.index("--out") + 1] = str(again)
    r2 = invoke(*argv[1:], "-q")
    assert r2.exit_code == 0, r2.output
    a = json.loads((out / "uncertainty.json").read_text())
    b = json.loads((again / "uncertainty.json").read_text())
    assert a["command"] == b["command"] and "--out" not in a["command"]
    for k in ("default", "band", "drivers", "keys", "samples", "games_per_sample"):
        assert a[k] == b[k], k


# ---- a sweep's report carries the band of its headline figure ------------------------------
DUEL_WIDE = DUEL_PLAUSIBLE.replace("plausible = [0, 20]", "plausible = [0, 30]").replace(
    "plausible = [0, 0]", "plausible = [0, 20]")


def _findings(root):
    text = (root / "report.md").read_text()
    return text.split("## Findings", 1)[1].split("\n\n")[1].splitlines()


def test_a_sweeps_report_carries_the_band_and_no_verdict_it_contradicts(tmp_path):
    """`report DIR --uncertainty U`: the headline's band over the assumed values heads the
    findings, with the verdict the band allows (a band across the fair share: it depends on
    the assumed values); the link is kept for later reports, and `none` drops it."""
    from experiments.running.sweep import run_sweep

    sweep = tmp_path / "duel-balance"
    run_sweep({"game": "duel", "axes": {"comp": [0, 10]}, "games": {"per_cell": 200}}, sweep)
    narrow, wide = tmp_path / "narrow", tmp_path / "wide"
    rules = tmp_path / "wide.toml"
    rules.write_text(DUEL_WIDE)
    assert invoke("uncertainty", "duel", "--samples", "8", "--games", "200", "-q",
                  "--out", narrow).exit_code == 0  # edge 9..11, comp 0..1: 58-61%
    assert invoke("uncertainty", "duel", "--rules", rules, "--samples", "16", "--games", "200",
                  "-q", "--out", wide).exit_code == 0  # 50 + edge - comp: 30-80%
    s = json.loads((narrow / "uncertainty.json").read_text())
    assert s["band"]["p5"] > 0.5
    r = invoke("report", sweep, "--uncertainty", narrow)
    assert r.exit_code == 0, r.output
    first, second = _findings(sweep)[:2]
    assert first.startswith("- Over the assumed values ([the uncertainty analysis]"
                            "(../narrow/report.md)")
    assert f"{100 * s['band']['p5']:.1f}% to {100 * s['band']['p95']:.1f}%" in first
    assert "Verdict: over the plausible values the seat 0 win rate is above a fair share " \
        "(50.0%, 1 in 2) in at least 95% of the samples" in second
    assert '<a href="../narrow/report.html">' in (sweep / "report.html").read_text()
    assert json.loads((sweep / "manifest.json").read_text())["uncertainty"] == "../narrow"
    reproduce = (sweep / "report.md").read_text().split("## Reproduce", 1)[1]
    assert "cthulhu-sim report ../duel-balance-reproduced --uncertainty ../narrow" in reproduce
    assert invoke("report", sweep, "--uncertainty", wide).exit_code == 0
    w = json.loads((wide / "uncertainty.json").read_text())
    assert w["band"]["p5"] < 0.5 < w["band"]["p95"]
    second = _findings(sweep)[1]
    assert second.startswith("- Verdict: it depends on the assumed values. The 5-95% band "
                             "crosses a fair share (50.0%, 1 in 2)")
    assert "above a fair share" not in (sweep / "report.md").read_text()
    assert invoke("report", sweep).exit_code == 0  # the link is remembered
    assert _findings(sweep)[1] == second
    assert invoke("report", sweep, "--uncertainty", "none").exit_code == 0
    assert "Over the assumed values" not in (sweep / "report.md").read_text()


def test_the_verdict_follows_the_band_for_a_cooperative_game_too():
    from experiments.reporting.report import band_findings

    data = {"label": "team win rate", "default": {"value": 0.31, "ci95": [0.29, 0.33]},
            "band": {"p5": 0.0, "p95": 0.72, "median": 0.04}, "samples": 8, "keys": [1, 2],
            "games_per_sample": 2000, "settings": {"players": 2}, "strategy": "heuristic",
            "drivers": [{"key": "a.b", "score": -0.45}, {"key": "c", "score": 0.1}]}
    first, second = band_findings(data, cooperative=True)
    assert "team win rate 31.0% [29.0%, 33.0%] at the assumed values; 0.0% to 72.0% " \
        "(median 4.0%)" in first
    assert "8 samples of 2 assumed values" in first
    assert "2,000 games each; settings players=2; strategy heuristic" in first
    assert "driven most by `a.b`." in first and "`c`" not in first
    assert "crosses 50% (half the games)" in second and "depends on the assumed values" in second
    data["band"] = {"p5": 0.02, "p95": 0.45, "median": 0.2}
    second = band_findings(data, cooperative=True)[1]
    assert "the team wins less often than not in at least 95% of the samples" in second


@pytest.mark.parametrize("which, culprit", [
    ("missing", "no such folder"),
    ("sweep", "not an uncertainty analysis (the folder holds a sweep)"),
    ("coin", "an analysis of coin, not of duel"),
])
def test_report_uncertainty_bad_input_is_one_line(tmp_path, which, culprit):
    from experiments.running.sweep import run_sweep

    sweep = tmp_path / "s"
    run_sweep({"game": "duel", "axes": {"comp": [0, 10]}, "games": {"per_cell": 50}}, sweep)
    before = (sweep / "manifest.json").read_text()
    target = {"missing": tmp_path / "nope", "sweep": sweep, "coin": tmp_path / "c"}[which]
    if which == "coin":
        assert invoke("uncertainty", "coin", "--keys", "nudge", "--samples", "3",
                      "--games", "20", "-q", "--out", target).exit_code == 0
    r = invoke("report", sweep, "--uncertainty", target)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error:"), r.output
    assert culprit in lines[0], lines[0]
    assert (sweep / "manifest.json").read_text() == before  # nothing written
