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


def test_parse_levels_reads_entrants_as_every_command_does(tmp_path):
    pf = tmp_path / "x.toml"
    playerfile.write(pf, {"game": "hex", "strategy": "heuristic",
                          "parameters": {"caution": 1.5}})
    got = parse_levels("hex", f"random, Heuristic,mcts:1_000,{pf},heuristic{{caution=0.9}},"
                       "mcts:50{rollout=random,c=1}")
    assert got == [Level("random", "random"), Level("heuristic", "heuristic"),
                   Level("mcts:1000", "mcts", 1000), Level(str(pf), str(pf)),
                   Level("heuristic{caution=0.9}", "heuristic", None, (("caution", 0.9),)),
                   Level("mcts:50{rollout=random,c=1}", "mcts", 50,
                         (("rollout", "random"), ("c", 1)))]
    listed = tmp_path / "levels.toml"
    listed.write_text('entrants = ["random", "flat_mc:20"]\n'
                      '[[entrant]]\nname = "heuristic"\nparams = { caution = 0.9 }\n')
    assert [lv.label for lv in parse_levels("hex", f"@{listed}")] == [
        "random", "flat_mc:20", "heuristic{caution=0.9}"]


def test_a_level_with_parameters_plays_them():
    g = get_game("hex")
    lv = parse_levels("hex", "heuristic{caution=0.9},mcts:7{rollout=random}")
    assert level_config(g, lv[0], {}, None).strategy.param_dict()["caution"] == 0.9
    mcts = level_config(g, lv[1], {}, None).strategy.param_dict()
    assert mcts["iterations"] == 7 and mcts["rollout"] == "random"


@pytest.mark.parametrize("text, words", [
    ("random,,heuristic", "an empty name"),
    ("random,nope", "'nope' is not a strategy of hex"),
    ("heuristic:10", "does not search, so it takes no budget"),
    ("mcts:0", "out of range"),
    ("mcts:lots", "not a whole number"),
    ("random,random", "repeated strategy"),
    ("heuristic,Heuristic", "repeated strategy"),
    ("table", "seats other strategies"),
    ("heuristic{bogus=1}", "no parameter 'bogus'"),
    ("heuristic{caution=99}", "out of range"),
    ("heuristic{caution=0.5", "never closed"),
    ("mcts:100{iterations=100}", "budget is given twice"),
    ("@missing-levels.toml", "cannot be read"),
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
    (["--levels", "heuristic{bogus=1}"], "heuristic has no parameter 'bogus'"),
    (["--levels", "mcts:0"], "budget 0 is out of range"),
    (["--levels", "@missing-levels.toml"], "cannot be read"),
    (["--levels", "random", "--resume"], "give --out DIR"),
    (["--levels", "random", "--resume", "--overwrite", "--out", "x"], "give one"),
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


def _same_curve(a, b):
    """Two curves' summaries, but for the seconds they took."""
    def strip(s):
        s = json.loads(json.dumps(s))
        for row in s["levels"]:
            row.pop("seconds_per_game")
        return s
    return strip(a.summary()) == strip(b.summary())


def test_a_stopped_curve_resumes_to_the_same_result(tmp_path, curve):
    out = tmp_path / "curve"
    played = []

    def boom(pid, start, n):
        played.append((pid, start))
        if len(played) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_skill("hex", LEVELS, games=GAMES, seed=SEED, out=out, on_chunk=boom)
    assert not (out / "skill.json").exists()
    with pytest.raises(Exception, match="--resume"):  # never started afresh by accident
        run_skill("hex", LEVELS, games=GAMES, seed=SEED, out=out)
    replayed = []
    got = run_skill("hex", LEVELS, games=GAMES, seed=SEED, out=out, resume=True,
                    on_chunk=lambda pid, s, n: replayed.append((pid, s)))
    assert replayed and not set(replayed) & set(played)  # the finished chunks were kept
    assert _same_curve(got, curve)
    assert got.claims == curve.claims
    assert all(lr.seconds > 0 for lr in got.levels)  # the first run's chunks timed too
    saved = json.loads((out / "skill.json").read_text())
    assert [r["level"] for r in saved["levels"]] == LEVELS.split(",")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["kind"] == "skill"


def test_skill_resume_refusals_are_one_line(tmp_path):
    out = tmp_path / "c"
    first = invoke("skill", "hex", "--levels", "random", "--games", 6, "--seed", SEED,
                   "--out", out)
    assert first.exit_code == 0, first.output
    again = invoke("skill", "hex", "--levels", "random", "--games", 6, "--seed", SEED,
                   "--out", out, "--resume", "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["levels"][0]["level"] == "random"
    for args, words in [
        (["--games", 7], "another request"),
        (["--levels", "random,heuristic"], "another request"),
        (["--set", "max_turns=100"], "another request"),
        (["--seed", SEED + 1], "another request"),
    ]:
        kw = {"--levels": "random", "--games": 6, "--seed": SEED}
        extra = []
        for i in range(0, len(args), 2):
            if args[i] in kw:
                kw[args[i]] = args[i + 1]
            else:
                extra += args[i:i + 2]
        res = invoke("skill", "hex", *[x for k, v in kw.items() for x in (k, v)], *extra,
                     "--out", out, "--resume")
        lines = [x for x in res.output.splitlines() if x.startswith("error:")]
        assert res.exit_code == 2 and len(lines) == 1 and words in lines[0], res.output
    other = tmp_path / "other"
    other.mkdir()
    from experiments.storage.outdir import stamp

    (other / "manifest.json").write_text(json.dumps(stamp("compare")))
    res = invoke("skill", "hex", "--levels", "random", "--games", 6, "--out", other,
                 "--resume")
    lines = [x for x in res.output.splitlines() if x.startswith("error:")]
    assert res.exit_code == 2 and len(lines) == 1 and "not a skill curve" in lines[0], \
        res.output


# ---- --order: a claim of order read at every level -----------------------------------------
TEC = {"overrides": ["players=2"], "games": 60, "seed": 1,
       "orders": ["goo=nyarlathotep,cthulhu", "goo=cthulhu,nyarlathotep"]}
CLAIM, BACKWARDS = "order goo: nyarlathotep > cthulhu", "order goo: cthulhu > nyarlathotep"


@pytest.fixture(scope="module")
def tec_curve():
    return run_skill("tec", "random,heuristic", **TEC)


def _rate(k, n=100):
    from experiments.stats import wilson

    return wilson(k, n)


@pytest.mark.parametrize("wins, state", [
    ([80, 50, 20], "holds"),  # every neighbouring pair apart, in order
    ([80, 50, 52], "unclear"),  # the last pair overlaps (a little the wrong way)
    ([55, 50, 20], "unclear"),  # in order, but not proven
    ([80, 20, 50], "flips"),  # one neighbour clearly the other way round
    ([0, 0, 0], "unclear"),
])
def test_an_order_at_one_level_holds_flips_or_is_unclear(wins, state):
    from experiments.analysis.order import Claim
    from experiments.analysis.skill import order_at_level, order_claim

    claim = Claim("goo", ("a", "b", "c"))
    at = order_at_level(claim, "x", [_rate(k) for k in wins])
    assert at.state == state and len(at.pairs) == 2
    c = order_claim(claim, ["x"], [at], "team win rate")
    assert c["holds"] == (state == "holds") and c["levels"] == {"x": state}
    assert c["flips_at"] == ("x" if state == "flips" else None)


def test_the_order_claim_is_read_at_every_level(tec_curve):
    claims = {c["claim"]: c for c in tec_curve.claims}
    right, wrong = claims[CLAIM], claims[BACKWARDS]
    # random never wins either way (unclear); the heuristic tells the two apart
    assert right["levels"] == {"random": "unclear", "heuristic": "holds"}
    assert not right["holds"] and right["flips_at"] is None
    assert wrong["levels"] == {"random": "unclear", "heuristic": "flips"}
    assert not wrong["holds"] and wrong["flips_at"] == "heuristic"
    assert "flips at heuristic" in wrong["text"] and "unclear" in right["text"]
    assert [c["claim"] for c in tec_curve.claims] == [CLAIM, BACKWARDS, "settled at the top"]


def test_order_json_shape(tec_curve):
    s = json.loads(json.dumps(tec_curve.summary()))
    assert [o["claim"] for o in s["orders"]] == [CLAIM, BACKWARDS]
    assert s["orders"][0]["values"] == ["nyarlathotep", "cthulhu"]
    for c in s["claims"]:
        assert {"claim", "holds", "flips_at"} <= set(c)
    for row in s["levels"]:
        assert [o["claim"] for o in row["orders"]] == [CLAIM, BACKWARDS]
        for o in row["orders"]:
            assert len(o["rates"]) == len(o["ci95"]) == 2
            assert all(lo <= r <= hi for r, (lo, hi) in zip(o["rates"], o["ci95"], strict=True))
            assert o["verdict"] in ("holds", "flips", "unclear")
    heur = s["levels"][1]["orders"]
    assert heur[0]["rates"] == heur[1]["rates"][::-1]  # the same playouts, read both ways
    assert heur[0]["verdict"] == "holds" and heur[1]["verdict"] == "flips"
    assert "orders" not in run_skill("hex", "random", games=4, seed=SEED).summary()
    text = tec_curve.format()
    assert CLAIM in text and "nyarlathotep [95% CI]" in text


def test_every_value_plays_the_same_playouts(tec_curve):
    g = get_game("tec")
    for lr in tec_curve.levels:
        for o in lr.orders:
            for v, hits, r in zip(o.claim.values, o.hits, o.rates, strict=True):
                config = level_config(g, lr.level, {"players": 2, "goo": v}, None)
                alone = run_config(config, TEC["games"], TEC["seed"]).frame
                assert (alone["outcome"].to_numpy() == 0).tolist() == hits.tolist()
                assert r.successes == hits.sum()
        # the default Great Old One is the level's own setting: the same games
        assert lr.orders[0].hits[0].tolist() == lr.hits.tolist()


def test_a_curve_with_orders_read_back_from_its_json_says_the_same(tec_curve):
    from experiments.analysis.skill import from_summary

    back = from_summary(json.loads(json.dumps(tec_curve.summary())))
    assert back.claims == tec_curve.claims
    assert [back.order_table(k) for k in range(2)] == [tec_curve.order_table(k)
                                                       for k in range(2)]


def test_a_stopped_curve_with_an_order_resumes_to_the_same_result(tmp_path, tec_curve):
    out = tmp_path / "curve"
    played = []

    def boom(pid, start, n):
        played.append((pid, start))
        if len(played) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_skill("tec", "random,heuristic", **TEC, out=out, on_chunk=boom)
    replayed = []
    got = run_skill("tec", "random,heuristic", **TEC, out=out, resume=True,
                    on_chunk=lambda pid, s, n: replayed.append((pid, s)))
    assert replayed and not set(replayed) & set(played)  # the finished chunks were kept
    assert _same_curve(got, tec_curve) and got.claims == tec_curve.claims
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["orders"] == ["goo=nyarlathotep,cthulhu",
                                                           "goo=cthulhu,nyarlathotep"]
    report = (out / "report.md").read_text()
    assert "## Order: goo: nyarlathotep > cthulhu" in report
    assert "--order goo=nyarlathotep,cthulhu --order goo=cthulhu,nyarlathotep" in report
    # the same again finds every game played; another --order is refused in one line
    again = []
    run_skill("tec", "random,heuristic", **TEC, out=out, resume=True,
              on_chunk=lambda *a: again.append(a))
    assert again == []
    args = ["skill", "tec", "--levels", "random,heuristic", "--games", TEC["games"], "--seed",
            TEC["seed"], "--players", "2", "--out", out, "--resume"]
    for orders in (["--order", "goo=nyarlathotep,yig"], []):
        res = invoke(*args, *orders)
        lines = [x for x in res.output.splitlines() if x.startswith("error:")]
        assert res.exit_code == 2 and len(lines) == 1, res.output
        assert "--resume must be given the same --order" in lines[0]


@pytest.mark.parametrize("order, words", [
    ("nope=a,b", "'nope' is not a key of tec's rules data"),
    ("goo=yig", "at least two values"),
    ("goo=yig,,cthulhu", "at least two values"),
    ("goo=yig,azathoth", "'azathoth' is not allowed"),
    ("goo=yig,Yig", "a value is named twice"),
    ("players=2,9", "9 is above the maximum"),
    ("players=2,4 --players 3", "players is also given by --set players=3"),
    ("strategy.caution=1,2", "each level is its own strategy"),
    ("goo=yig,cthulhu --order goo=yig,cthulhu", "is given twice"),
])
def test_bad_orders_are_one_line(order, words, tmp_path):
    first, *rest = order.split(" ")
    res = invoke("skill", "tec", "--order", first, *rest, "--out", tmp_path / "o")
    lines = [x for x in res.output.splitlines() if x.startswith("error:")]
    assert res.exit_code == 2 and len(lines) == 1 and words in lines[0], res.output
    assert not (tmp_path / "o").exists()


def test_an_order_by_a_shortcut_is_its_key():
    from experiments.analysis.skill import parse_orders

    (claim,) = parse_orders("hex", ["first=Bad,good"])
    assert claim.axis == "first_side" and claim.values == ("bad", "good")


# ---- Dask ----------------------------------------------------------------------------------
def test_skill_on_a_local_dask_cluster_plays_the_same_games(tmp_path):
    pytest.importorskip("distributed")
    kw = {"games": GAMES, "seed": SEED, "orders": ["first_side=good,bad"]}
    local = run_skill("hex", "random,heuristic", out=tmp_path / "local", **kw)
    dist = run_skill("hex", "random,heuristic", out=tmp_path / "dask", dask_local=2, **kw)
    assert _same_curve(local, dist) and local.claims == dist.claims
    a = {p.name: p.read_bytes() for p in (tmp_path / "local" / "plays").iterdir()}
    b = {p.name: p.read_bytes() for p in (tmp_path / "dask" / "plays").iterdir()}
    assert a == b and len(a) == 2 * 2 * 2  # 2 levels x 2 first sides (one the default) x 2


def test_the_charts_ticks_name_a_player_file_by_its_file_and_break_long_levels():
    from experiments.analysis.skill import tick_label

    assert tick_label("reports/players/hex-heuristic-trained.toml") == \
        "hex-heuristic-\ntrained.toml"
    assert tick_label("@my.toml") == "my.toml"
    assert tick_label("heuristic{caution=1.5,escort=1.5}") == "heuristic{caution=1.5,\nescort=1.5}"
    assert tick_label("mcts:1000") == "mcts:1000"
