"""``cthulhu-sim sensitivity``: one key at a time on common random numbers, Morris and Sobol'
through SALib, the keys found generically from the rules data, resumable plays, the folder,
the report."""

import json

import numpy as np
import pandas as pd
import pytest

from experiments.analysis.knobs import KnobError, select
from experiments.analysis.sensitivity import run_sensitivity
from tests.balance_support import Coin, toy_games  # noqa: F401  (a fixture)
from tests.cli_support import invoke

pytestmark = pytest.mark.usefixtures("toy_games")  # coin and duel registered


def effects(result):
    return {e.knob.name: e for e in result.effects}


def test_ignored_keys_have_no_effect_and_the_monotone_key_ranks_first():
    r = run_sensitivity("coin", games=4000, seed=3)
    names = [e.knob.name for e in r.effects]
    # every number of the rules data, found from its kinds (the list is left out by default)
    assert set(names) == {"bias", "nudge", "ignored", "spread", "odds", "boost"}
    assert names[0] == "bias"  # a point a step: the largest effect, ranked first
    e = effects(r)
    bias = e["bias"]
    assert bias.down.value == 49 and bias.up.value == 51
    assert bias.down.diff.mean < 0 < bias.up.diff.mean  # the known direction
    assert bias.significant
    for name in ("ignored", "spread", "odds"):  # read by nothing (or only by game length)
        for side in (e[name].down, e[name].up):
            assert side.played and side.identical
            assert side.diff.mean == 0.0 and side.diff.lo <= 0.0 <= side.diff.hi
        assert e[name].no_effect and not e[name].significant
    # the float steps: a tenth of the value, within the bounds
    assert (e["ignored"].down.value, e["ignored"].up.value) == (2.25, 2.75)
    assert (e["spread"].down.value, e["spread"].up.value) == (0.9, 1.1)
    # a float at 0: a tenth of its range
    assert (e["boost"].down.value, e["boost"].up.value) == (-0.004, 0.004)
    assert r.summary()["no_effect_at_all"] == ["ignored", "spread", "odds"]


def test_the_exact_effect_of_a_step_is_the_playouts_it_flips():
    """On common random numbers a step of bias changes exactly the playouts whose number
    falls in the point it adds: the effect is their share, playout by playout."""
    from tests.balance_support import uniforms

    games = 3000
    r = run_sensitivity("coin", keys=["bias"], games=games, seed=5)
    u = uniforms(5, 0, games)
    p = (50 + 0.3 + 10) / 100
    up = np.count_nonzero((u >= p) & (u < p + 0.01)) / games
    down = np.count_nonzero((u >= p - 0.01) & (u < p)) / games
    b = effects(r)["bias"]
    assert b.up.diff.mean == pytest.approx(up)
    assert b.down.diff.mean == pytest.approx(-down)


def test_a_mean_metric_sees_what_the_win_rate_does_not():
    r = run_sensitivity("coin", metric="turns", games=2000, seed=1)
    assert r.effects[0].knob.name == "spread"
    assert effects(r)["bias"].no_effect  # bias decides who wins, not how long it lasts


def test_assumed_keys_are_flagged_in_the_json():
    r = run_sensitivity("coin", games=500)
    keys = {k["key"]: k for k in r.summary()["keys"]}
    assert keys["ignored"]["assumed"] and keys["ignored"]["source"] == "assumed"
    assert not keys["bias"]["assumed"] and keys["bias"]["source"] == "rulebook"
    assert any("ignored *" in line for line in r.format().splitlines())
    assert not any("bias *" in line for line in r.format().splitlines())


def test_globs_lists_and_item_names():
    from experiments.running.plays import Setting

    rules = Setting.of("coin").rules
    assert [k.name for k in select(rules, ["ladder"])] == ["ladder[0]", "ladder[1]"]
    assert [k.name for k in select(rules, ["ladder[*]"])] == ["ladder[0]", "ladder[1]"]
    assert [k.name for k in select(rules, ["ladder[1]", "bias"])] == ["bias", "ladder[1]"]
    assert [k.name for k in select(rules, ["*i*"])] == ["bias", "ignored"]
    assert [k.name for k in select(rules, ["bias,nudge"])] == ["bias", "nudge"]
    for bad, why in (("colour", "not a number"), ("lucky", "not a number"),
                     ("nope", "unknown key"), ("ladder[7]", "has 2 items"),
                     ("zzz*", "matches no number")):
        with pytest.raises(KnobError, match=why):
            select(rules, [bad])
    r = run_sensitivity("coin", keys=["ladder[0]"], games=1000)
    assert r.effects[0].up.value == 11  # one item of the list moved, the other kept


def test_a_step_the_rules_refuse_or_a_bound_is_reported_not_played():
    r = run_sensitivity("coin", {"bias": 100, "nudge": 0}, keys=["bias", "nudge"], games=500)
    e = effects(r)
    assert e["bias"].up.value is None and e["bias"].up.note == "at its maximum"
    assert e["nudge"].down.note == "at its minimum"
    assert e["bias"].down.played


def test_morris_and_sobol_rank_by_salib_indices():
    m = run_sensitivity("coin", keys=["bias", "nudge", "ignored"], method="morris",
                        trajectories=6, games=1000, seed=2)
    g = {e.knob.name: e.stats for e in m.global_effects}
    assert m.global_effects[0].knob.name == "bias"
    assert g["ignored"]["mu_star"] == 0.0 and g["ignored"]["sigma"] == 0.0
    # over bias's range (25 to 75 by default: half its value either way) the win rate moves
    # about 50 points, which is what mu* measures
    assert 0.4 < g["bias"]["mu_star"] < 0.6
    assert len(m.points) == 1 + 6 * 4
    s = run_sensitivity("coin", keys=["bias", "ignored"], method="sobol", samples=16,
                        games=500, seed=2, bounds=["bias=30:70"])
    st = {e.knob.name: e.stats for e in s.global_effects}
    assert s.global_effects[0].knob.name == "bias"
    assert st["bias"]["ST"] > 0.8 and abs(st["ignored"]["ST"]) < 1e-9
    assert s.summary()["keys"][0]["range"] == [30, 70]


def test_runs_are_reproducible_from_the_seed(tmp_path):
    a = run_sensitivity("coin", games=800, seed=9, out=tmp_path / "a")
    b = run_sensitivity("coin", games=800, seed=9, out=tmp_path / "b", chunk=300)
    c = run_sensitivity("coin", games=800, seed=10)
    assert a.summary()["keys"] == b.summary()["keys"]
    assert a.summary()["keys"] != c.summary()["keys"]
    pa = pd.read_parquet(tmp_path / "a" / "sensitivity.parquet")
    pb = pd.read_parquet(tmp_path / "b" / "sensitivity.parquet")
    pd.testing.assert_frame_equal(pa, pb)
    m1 = run_sensitivity("coin", method="morris", keys=["bias", "nudge"], games=300, seed=4)
    m2 = run_sensitivity("coin", method="morris", keys=["bias", "nudge"], games=300, seed=4)
    assert m1.summary()["keys"] == m2.summary()["keys"]


def test_a_killed_run_resumes_without_replaying_finished_chunks(tmp_path):
    out = tmp_path / "s"
    seen = []

    sizes = []

    def boom(pid, start, n):
        seen.append((pid, start))
        sizes.append(n)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sensitivity("coin", games=1000, chunk=400, out=out, on_chunk=boom)
    files = {p.name: p.stat().st_mtime_ns for p in (out / "plays").glob("p*.parquet")}
    assert len(files) == 5
    assert not (out / "sensitivity.json").exists()
    with pytest.raises(Exception, match="--resume"):  # not started afresh by accident
        run_sensitivity("coin", games=1000, chunk=400, out=out)
    Coin.calls = 0
    replayed = []
    r = run_sensitivity("coin", games=1000, chunk=400, out=out, resume=True,
                        on_chunk=lambda pid, s, n: replayed.append((pid, s)))
    assert not set(replayed) & set(seen)  # nothing finished was played again
    total = r.n_points * 3  # chunks of 400, 400, 200
    assert len(replayed) == total - 5
    assert r.games_played == 1000 * r.n_points - sum(sizes)
    assert Coin.calls == r.games_played + 2  # (and two of the warm-up)
    for name, mtime in files.items():
        assert (out / "plays" / name).stat().st_mtime_ns == mtime
    whole = run_sensitivity("coin", games=1000, seed=1)
    assert r.summary()["keys"] == whole.summary()["keys"]
    assert r.games_reused == sum(sizes)
    # resuming a finished run plays nothing
    again = run_sensitivity("coin", games=1000, chunk=400, out=out, resume=True)
    assert again.games_played == 0


def test_the_folder_holds_json_parquet_chart_and_report(tmp_path):
    out = tmp_path / "o"
    r = run_sensitivity("coin", games=600, out=out)
    for name in ("sensitivity.json", "sensitivity.parquet", "sensitivity.csv", "points.parquet",
                 "chart-tornado.png", "report.md", "report.html", "manifest.json"):
        assert (out / name).exists(), name
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "sensitivity" and manifest["complete"]
    assert manifest["games_played"] == 600 * r.n_points
    data = json.loads((out / "sensitivity.json").read_text())
    assert data["keys"][0]["key"] == "bias" and data["keys"][0]["rank"] == 1
    assert set(data["keys"][0]["up"]) >= {"value", "effect", "effect_ci95", "metric"}
    html = (out / "report.html").read_text()
    assert "data:image/png;base64," in html and "bias" in html
    pts = pd.read_parquet(out / "points.parquet")
    assert len(pts) == r.n_points and {"win_rate", "turns_mean", "key", "side"} <= set(pts)
    # another request in the same folder is refused with --resume, replaced with --overwrite
    with pytest.raises(Exception, match="another request"):
        run_sensitivity("coin", games=700, out=out, resume=True)
    run_sensitivity("coin", games=700, out=out, overwrite=True)
    assert json.loads((out / "manifest.json").read_text())["request"]["games"] == 700


def test_a_folder_of_someone_else_is_refused_and_left_alone(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    r = invoke("sensitivity", "coin", "--games", "50", "-q", "--out", mine)
    assert r.exit_code == 2 and "not written by cthulhu-sim" in r.stderr
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_cli_table_and_json(tmp_path):
    r = invoke("sensitivity", "coin", "--games", "500", "-q", "--keys", "bias,ignored")
    assert r.exit_code == 0, r.output
    assert "bias" in r.stdout and "no playout changed" in r.stdout
    r = invoke("sensitivity", "coin", "--games", "500", "--json", "--keys", "bias")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["keys"][0]["key"] == "bias" and data["metric"] == "win"
    r = invoke("sensitivity", "coin", "--games", "50", "-q", "--set", "bias=20", "--keys",
               "bias", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    assert "report:" in r.stdout and (tmp_path / "c" / "report.html").exists()
    r = invoke("list", tmp_path)
    assert "sensitivity analysis" in r.stdout and "coin" in r.stdout


def test_competitive_games_default_to_seat_zero_and_take_gap():
    r = run_sensitivity("duel", games=2000)
    assert r.metric.name == "seat0"
    assert [e.knob.name for e in r.effects][:2] in (["edge", "comp"], ["comp", "edge"])
    g = run_sensitivity("duel", metric="gap", games=2000)
    assert g.base.value == pytest.approx(0.2, abs=0.05)  # 60% against 40%
    assert g.base.value == pytest.approx(2 * r.base.value - 1)  # (two seats, no draws)
    e = effects(g)
    assert e["edge"].up.diff.mean > 0 > e["comp"].up.diff.mean


def test_real_game_an_unused_profile_has_no_effect_and_aim_ranks_first(tmp_path):
    """Sticky Cthulhu with an expert in seat 0 against average players: the beginner's
    profile is used by no seat, so its numbers change nothing; the expert's aim moves seat
    0's win rate most (a wider spread of throws hits less)."""
    r = run_sensitivity("sticky", {"seats": ["expert", "average", "average", "average"]},
                        keys=["profiles.expert.aim_sd_cm", "profiles.expert.notice_p",
                              "profiles.beginner.*", "turn.roll_s"], games=1500, seed=2)
    assert r.effects[0].knob.name == "profiles.expert.aim_sd_cm"
    aim = r.effects[0]
    assert aim.up.diff.hi < 0 < aim.down.diff.lo  # less aim spread, more wins
    e = effects(r)
    for name, eff in e.items():
        if name.startswith("profiles.beginner.") or name == "turn.roll_s":
            assert eff.no_effect, name


def test_real_game_tec_through_the_common_interface():
    r = run_sensitivity("tec", {"goo": "cthulhu", "difficulty": "hard"},
                        keys=["turn.actions", "max_turns", "great_old_one.yig.energy_1"],
                        games=600, seed=1)
    assert r.effects[0].knob.name == "turn.actions"  # a fourth action helps a lot
    e = effects(r)
    assert e["great_old_one.yig.energy_1"].no_effect  # Yig is not played
    assert r.summary()["keys"][0]["source"] == "rulebook"
