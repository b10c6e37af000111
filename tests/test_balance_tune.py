"""``cthulhu-sim tune``: a bisection with confidence-based stopping on one key, Optuna on
several, ``fair`` for competitive games, difficulty ladders, confirmation on fresh playouts,
resumable plays, the rules file and the report."""

import json

import pytest

from experiments.analysis.knobs import KnobError
from experiments.analysis.metrics import MetricError
from experiments.analysis.tune import CONFIRM_START, run_tune
from experiments.running.plays import Setting
from experiments.running.runner import run
from tests.balance_support import toy_games  # noqa: F401  (a fixture)
from tests.cli_support import invoke

pytestmark = pytest.mark.usefixtures("toy_games")  # coin and duel registered
FLAT = {"nudge": 0, "ladder": [0, 0]}  # coin's p is bias / 100


def default_rate(game, overrides=None, games=4096, seed=1):
    return run(game, overrides, games=games, seed=seed).summary()["win_rate"]


def test_tuning_away_from_the_default_finds_it_again():
    target = default_rate("coin")  # on the playouts the search starts with
    for start in (5, 95):
        r = run_tune("coin", {"bias": start}, target=str(target), vary=["bias"], seed=1)
        lv = r.levels[0]
        assert abs(lv.best["bias"] - 50) <= 1, lv.best
        assert lv.start.value != pytest.approx(target)
        assert lv.confirmed.n == 20_000 and lv.reached
        assert {p.phase for p in lv.path} >= {"start", "bracket", "bisect", "confirm"}


def test_a_float_key_is_found_to_its_tolerance():
    """boost adds to the chance of a win; tuned from 0.015 to the rate at its default, 0, on
    a grid of 0.005 (half a point of win rate, beyond the noise of 65,536 games)."""
    n = 65536
    target = default_rate("coin", games=n)
    r = run_tune("coin", {"boost": 0.015}, target=str(target), vary=["boost"], tol=0.005,
                 games=n, max_games=n, confirm_games=n)
    lv = r.levels[0]
    assert abs(lv.best["boost"]) <= 0.005 + 1e-12
    assert r.options["tolerance"] == {"boost": 0.005}
    values = {p.values["boost"] for p in lv.path}
    assert all(round(v / 0.005) * 0.005 == pytest.approx(v, abs=1e-12) for v in values)
    # the default tolerance is a hundredth of the range
    r = run_tune("coin", target="0.6", vary=["boost"], games=2048)
    assert r.options["tolerance"] == {"boost": 0.0004}


def test_the_search_spends_games_where_they_decide():
    """Probes far from the target stop at the first games; only those near it get more."""
    r = run_tune("coin", target="0.3", vary=["bias"], games=1024, max_games=32768)
    lv = r.levels[0]
    assert abs(lv.best["bias"] - 20) <= 1
    by_value = {}
    for p in lv.path:
        if p.phase != "confirm":
            by_value[p.values["bias"]] = max(by_value.get(p.values["bias"], 0), p.games)
    far = [v for v in by_value if abs(v - 20) > 5]
    assert far and all(by_value[v] == 1024 for v in far)
    assert max(by_value.values()) > 1024


def test_the_closer_of_two_neighbours_is_decided_on_enough_games():
    """Target 30.1% with p = bias / 100: bias 30 (0.1 points away) is the closer, 31 (0.9
    away) the other side; the two are played on until the midpoint's interval says so."""
    r = run_tune("coin", FLAT, target="0.301", vary=["bias"], games=1024,
                 max_games=131072)
    lv = r.levels[0]
    assert lv.best == {"bias": 30} and lv.decided and not lv.notes
    most = {}
    for p in lv.path:
        most[p.values["bias"]] = max(most.get(p.values["bias"], 0), p.games)
    assert most[30] == most[31] > 1024  # both played on, as many games each
    # the same two the other way round: 30.9% is nearer 31
    r = run_tune("coin", FLAT, target="0.309", vary=["bias"], games=1024,
                 max_games=131072)
    assert r.levels[0].best == {"bias": 31} and r.levels[0].decided


def test_a_target_between_two_whole_values_is_said_so():
    """30.5% lies half-way between bias 30 and 31: neither reaches it, and neither is the
    closer within the intervals, which the answer says."""
    r = run_tune("coin", FLAT, target="0.305", vary=["bias"], games=4096, max_games=131072)
    lv = r.levels[0]
    assert lv.best["bias"] in (30, 31) and not lv.decided
    assert any("lies between bias = 30 (" in n and ") and 31 (" in n and "no whole value" in n
               for n in lv.notes)
    assert any("as close to the target" in n for n in lv.notes)


def test_a_target_beyond_the_range_says_so_and_how_close():
    r = run_tune("coin", target="0.9", vary=["bias"], bounds=["bias=10:60"])
    lv = r.levels[0]
    assert lv.out_of_reach and lv.best["bias"] == 60
    assert any("out of reach" in n and "nearest, 60" in n for n in lv.notes)
    assert not lv.reached
    assert r.summary()["out_of_reach"] is True


def test_a_target_missed_at_both_ends_but_reached_between_is_not_out_of_reach(monkeypatch):
    """Both ends of the range below the target, the middle above it (a hump): the scan of a
    short range finds the values that reach it, and the answer says the metric turns back
    instead of calling the target out of reach."""
    from simcore.registry import get_game

    coin = get_game("coin")

    def humped(self, rules):  # 40% at bias 20 and 80, 55% at 50
        b = rules["bias"]
        return ((30 + 0.5 * min(b, 100 - b)) / 100.0, float(rules["spread"]))

    monkeypatch.setattr(type(coin), "compile_params", humped)
    r = run_tune("coin", target="0.5", vary=["bias"], bounds=["bias=20:80"])
    lv = r.levels[0]
    assert not lv.out_of_reach
    assert lv.best["bias"] in (38, 39, 40, 41, 42, 58, 59, 60, 61, 62), lv.best
    assert any("reaches it between" in n and "turns back" in n for n in lv.notes), lv.notes
    assert not any("out of reach" in n for n in lv.notes)


def test_same_seed_same_search():
    a = run_tune("coin", target="0.42", vary=["bias"], seed=7).summary()
    b = run_tune("coin", target="0.42", vary=["bias"], seed=7).summary()
    for d in (a, b):
        d.pop("games_played")
    assert a == b
    c = run_tune("coin", target="0.42", vary=["bias"], seed=8).summary()
    assert c["levels"][0]["path"] != a["levels"][0]["path"]


def test_several_keys_with_optuna_are_reproducible():
    kw = dict(target="0.35", vary=["bias", "nudge"], games=1024, budget=20 * 1024, seed=3)
    a = run_tune("coin", **kw)
    b = run_tune("coin", **kw)
    assert a.levels[0].best == b.levels[0].best
    assert [p.values for p in a.levels[0].path] == [p.values for p in b.levels[0].path]
    lv = a.levels[0]
    assert lv.method.startswith("Optuna TPE, 20 trials")
    assert abs(lv.found.value - 0.35) < 0.03
    first = lv.path[0]  # the value in effect, the optimiser's first trial
    assert first.phase == "start" and first.values == {"bias": 50, "nudge": 3}
    assert first.objective == pytest.approx(abs(first.estimate.value - 0.35))
    assert all(p.objective is not None for p in lv.path if p.phase != "confirm")
    # with a penalty for moving, nudge (a tenth of the effect per unit) stays nearer home
    c = run_tune("coin", **{**kw, "penalty": 0.05})
    assert abs(c.levels[0].best["nudge"] - 3) <= abs(lv.best["nudge"] - 3) + 5


def test_fair_finds_the_compensation_for_the_first_seat():
    r = run_tune("duel", target="fair", vary=["comp"], games=2048)
    lv = r.levels[0]
    assert r.fair and r.metric.name == "seat0-seat1"
    assert abs(lv.best["comp"] - 10) <= 1  # comp = edge makes the seats equal
    assert lv.reached and lv.seat_pairs and lv.seat_pairs[0]["seats"] == [0, 1]
    assert r.summary()["target"] == "fair"


def test_a_ladder_tunes_the_levels_item_of_a_list_one_per_level():
    r = run_tune("coin", target="easy=0.6,hard=0.25", vary=["ladder"])
    assert r.level_key == "level"
    assert [lv.knobs[0].name for lv in r.levels] == ["ladder[0]", "ladder[1]"]
    assert r.key_values() == {"ladder": [10, -25]}
    assert r.set_line() == "--set ladder=10,-25"
    s = r.summary()
    assert s["best"] == {"ladder": [10, -25]} and s["target"] == {"easy": 0.6, "hard": 0.25}
    # a single number is tuned per level: one value each
    r = run_tune("coin", target="easy=0.6,hard=0.25", vary=["bias"])
    assert r.per_level_scalars()
    assert {lv.name: lv.best["bias"] for lv in r.levels} == {"easy": 50, "hard": 45}
    assert r.summary()["set"] == {"easy": "--set bias=50", "hard": "--set bias=45"}


def test_bad_requests_name_the_key_and_the_reason():
    cases = [
        (dict(target="0.5", vary=["nope"]), KnobError, "unknown key"),
        (dict(target="0.5", vary=["colour"]), KnobError, "not a number"),
        (dict(target="0.5", vary=["lucky"]), KnobError, "not a number"),
        (dict(target="0.5", vary=["ladder"]), KnobError, "name one item"),
        (dict(target="1.5", vary=["bias"]), MetricError, r"outside \[0, 1\]"),
        (dict(target="-0.1", vary=["bias"]), MetricError, r"outside \[0, 1\]"),
        (dict(target="150%", vary=["bias"]), MetricError, r"outside \[0, 1\]"),
        (dict(target="0.5", vary=["bias"], bounds=["bias=60:80"]), KnobError, "leaves out"),
        (dict(target="0.5", vary=["bias"], bounds=["bias=0:200"]), KnobError, "above"),
        (dict(target="0.5", vary=["bias"], bounds=["nudge=1:3"]), KnobError,
         "not one of the keys varied"),
        (dict(target="fair", vary=["bias"]), MetricError, "cooperative"),
        (dict(target="medium=0.5", vary=["bias"]), MetricError, "not the values of one"),
        (dict(target="easy=0.5,easy=0.4", vary=["bias"]), MetricError, "twice"),
        (dict(target="0.5", vary=["bias"], tol=0.1), KnobError, "--tol applies to float"),
        (dict(target="0.5", vary=["bias"], games=100, max_games=50), KnobError, "below"),
        (dict(target="seat0=0.5", vary=["bias"]), MetricError, "cooperative"),
    ]
    for kwargs, exc, why in cases:
        with pytest.raises(exc, match=why):
            run_tune("coin", **kwargs)
    with pytest.raises(MetricError, match="outside"):
        run_tune("duel", target="seat1=2", vary=["comp"])


def test_the_folder_holds_the_answer_as_settings_a_rules_file_and_a_report(tmp_path):
    out = tmp_path / "t"
    r = run_tune("coin", {"nudge": 0}, target="0.3", vary=["bias"], out=out)
    for name in ("tune.json", "path.parquet", "path.csv", "rules-tuned.toml",
                 "chart-path.png", "report.md", "report.html", "manifest.json"):
        assert (out / name).exists(), name
    data = json.loads((out / "tune.json").read_text())
    assert data["best"] == {"bias": 20} and data["set"] == "--set bias=20"
    assert data["confirmed"]["playouts"] == [CONFIRM_START, CONFIRM_START + 20_000]
    assert data["path"] and data["rules_files"] == {"": "rules-tuned.toml"}
    # the rules file is the confirmed setting: the --set override and the tuned value
    tuned = Setting.of("coin", None, None, out / "rules-tuned.toml")
    assert tuned.rules["bias"] == 20 and tuned.rules["nudge"] == 0
    assert tuned.rules.entries["bias"].source == "assumed"
    assert "Was 50" in tuned.rules.entries["bias"].note
    text = (out / "rules-tuned.toml").read_text()
    assert 'colour = { value = "red"' in text  # the other lines as they were
    assert "data:image/png;base64," in (out / "report.html").read_text()
    assert r.summary()["best"] == {"bias": 20}


def test_a_killed_tuning_resumes_to_the_same_answer(tmp_path):
    out = tmp_path / "k"
    seen = []

    def boom(pid, start, n):
        seen.append((pid, start))
        if len(seen) == 6:
            raise KeyboardInterrupt

    kw = dict(target="0.37", vary=["bias"], games=1024, max_games=8192, chunk=1024)
    with pytest.raises(KeyboardInterrupt):
        run_tune("coin", out=out, on_chunk=boom, **kw)
    replayed = []
    r = run_tune("coin", out=out, resume=True,
                 on_chunk=lambda pid, s, n: replayed.append((pid, s)), **kw)
    assert not set(replayed) & set(seen)
    whole = run_tune("coin", **kw)
    assert r.games_used == whole.games_used == whole.games_played > r.games_played
    a, b = r.summary(), whole.summary()
    for d in (a, b):
        d.pop("games_played")
        d.pop("rules_files")
    assert a == b


def test_cli_tune_table_and_json(tmp_path):
    r = invoke("tune", "coin", "--target", "0.3", "--vary", "bias", "-q")
    assert r.exit_code == 0, r.output
    assert "bias = 20" in r.stdout and "--set bias=20" in r.stdout
    r = invoke("tune", "coin", "--target", "win=30%", "--vary", "bias", "--json",
               "--confirm", "2000")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["best"] == {"bias": 20} and data["confirmed"]["games"] == 2000
    r = invoke("tune", "coin", "--target", "2", "--vary", "bias", "-q")
    assert r.exit_code == 2 and "outside [0, 1]" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_real_game_sticky_recovers_the_default_token_count():
    """Sticky Cthulhu, an expert against a beginner: the more tokens to win, the more skill
    tells; tuned from 12 tokens to the win rate the rulebook's 5 gives, it finds 5."""
    setting = {"players": 2, "seats": ["expert", "beginner"]}
    target = run("sticky", setting, games=4096, seed=1).summary()["seat_win_rates"][0]["rate"]
    r = run_tune("sticky", {**setting, "components.tokens_to_win": 12}, target=str(target),
                 vary=["components.tokens_to_win"], bounds=["components.tokens_to_win=1:30"],
                 games=4096, max_games=16384, confirm_games=4096)
    assert abs(r.levels[0].best["components.tokens_to_win"] - 5) <= 1
