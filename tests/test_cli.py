"""The cthulhu-sim command line, through typer's CliRunner."""

import dataclasses
import json
import re

import pytest

from simcore.registry import get_game
from tests.cli_support import invoke

pytestmark = pytest.mark.usefixtures("restore_threads")  # a test may change numba's threads


def test_games_lists_sticky_with_settings_and_strategies():
    r = invoke("games")
    assert r.exit_code == 0, r.output
    assert ("sticky: Sticky Cthulhu (competitive, hidden information, not searchable, "
            "no rules checker, callback style)") in r.stdout  # its GameKind, in words
    assert "tec: Tiny Epic Cthulhu (cooperative, " in r.stdout
    assert "shortcuts: --players N (= --set players=...)" in r.stdout
    assert "players = 4 [public] an int, between 2 and 6" in r.stdout
    assert "curses = false [rulebook] a bool" in r.stdout  # in --set syntax
    assert "honest (default)" in r.stdout and "cheater" in r.stdout
    assert "table.width_cm" not in r.stdout  # only top-level settings without a game


def test_games_sticky_lists_every_key():
    r = invoke("games", "sticky")
    assert r.exit_code == 0, r.output
    for key in ("table.width_cm = 70.0", "profiles.expert.aim_sd_cm", "curse.spin_around.delay_s",
                "turn.roller_advantage_s", "components.tokens_to_win = 5"):
        assert key in r.stdout
    assert "rules.toml" in r.stdout
    r = invoke("games", "sticky", "--json")
    info = json.loads(r.stdout)["sticky"]
    assert info["kind"] == {"cooperative": False, "perfect_information": False,
                            "searchable": False, "has_checker": False, "style": "callback"}
    assert info["default_strategy"] == "honest"
    assert info["shortcuts"] == {"players": {"key": "players", "metavar": "N",
                                             "help": "Players (2-6)."}}
    assert info["settings"]["players"]["default"] == 4
    assert info["settings"]["players"]["allowed"] == "an int, between 2 and 6"
    assert sum(info["sources"].values()) == len(info["settings"])
    # each strategy's whole first paragraph, and its parameters with defaults and ranges
    assert info["strategies"]["spoiler"].endswith("tokens of winning.")
    assert info["strategy_params"]["cheater"]["ignore_p"] == {
        "default": 1.0, "allowed": "between 0 and 1",
        "help": "chance of ignoring an eligible Curse each turn"}
    assert info["strategy_params"]["by_seat"]["seat_0"]["allowed"] == (
        "one of honest, cheater, spoiler, random")
    assert info["strategy_params"]["honest"] == {}


def test_games_sticky_text_shows_strategy_parameters():
    r = invoke("games", "sticky")
    assert "strategy.block_at = 1.0 between 0 and 100: block when a rival" in r.stdout
    assert "strategy.seat_2 = honest one of honest, cheater, spoiler, random" in r.stdout


def test_games_unknown_game():
    r = invoke("games", "nosuch")
    assert r.exit_code == 2
    assert "unknown game 'nosuch'" in r.output and "sticky" in r.output


def test_run_json_schema():
    r = invoke("run", "sticky", "--games", 2000, "--seed", 3, "--json", "-q")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["game"] == "sticky" and out["title"] == "Sticky Cthulhu"
    assert out["strategy"] == "honest"
    assert out["games"] == 2000 and out["seed"] == 3
    config = out["config"]
    assert config["players"] == 4 and config["curses"] is False
    assert config["table.width_cm"] == 70.0
    rates = out["seat_win_rates"]
    assert [row["seat"] for row in rates] == [0, 1, 2, 3]
    for row in rates:
        assert set(row) == {"seat", "name", "rate", "ci95"}
        assert row["name"] == str(row["seat"])  # Sticky's seats have no names but numbers
        lo, hi = row["ci95"]
        assert 0.0 <= lo <= row["rate"] <= hi <= 1.0
        assert 0.15 < row["rate"] < 0.35
    assert sum(row["rate"] for row in rates) == pytest.approx(1.0)
    diffs = out["seat_differences"]  # every pair of seats, paired on the same games
    assert [row["seats"] for row in diffs] == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    for row in diffs:
        s, t = row["seats"]
        assert row["diff"] == pytest.approx(rates[s]["rate"] - rates[t]["rate"])
        assert row["ci95"][0] < row["diff"] < row["ci95"][1]
    assert out["outcome_rates"] == {"win": 1.0, "cap": 0.0}
    assert set(out["outcome_ci95"]) == {"win", "cap"}
    turns = out["turns"]
    assert set(turns) == {"mean", "mean_ci95", "p50", "p90"}
    assert 5 <= turns["p50"] <= turns["p90"] <= 200 and turns["mean"] > 5
    assert turns["mean_ci95"][0] < turns["mean"] < turns["mean_ci95"][1]
    assert out["playouts_per_s"] > 0
    assert out["assumed_values"] == out["rules_sources"]["assumed"] > 0
    assert "game_minutes_mean" in out["extra"]
    # every summary figure with an interval: the mean and the pooled roller share
    for key in ("game_minutes_mean", "roller_wins_share_of_turns"):
        lo, hi = out["extra_ci95"][key]
        assert lo < out["extra"][key] < hi


def test_run_json_is_reproducible_and_takes_overrides():
    args = ("run", "sticky", "--games", 1000, "--seed", 9, "--json", "-q")
    a = json.loads(invoke(*args).stdout)
    b = json.loads(invoke(*args, "--threads", 1).stdout)
    assert a["seat_win_rates"] == b["seat_win_rates"] and a["turns"] == b["turns"]
    c = json.loads(invoke(*args, "--players", 3, "--set", "curses=true",
                          "--set", "seats=expert,average,beginner").stdout)
    assert c["config"]["players"] == 3 and c["config"]["curses"] is True
    assert c["config"]["seats"] == ["expert", "average", "beginner"]
    assert len(c["seat_win_rates"]) == 3
    assert c["seat_win_rates"][0]["rate"] > c["seat_win_rates"][2]["rate"]
    d = json.loads(invoke(*args, "--strategy", "cheater", "--set", "curses=on",
                          "--set", "strategy.ignore_p=0.5").stdout)
    assert d["strategy"] == "cheater" and d["config"]["strategy.ignore_p"] == 0.5


def test_run_readable_table():
    r = invoke("run", "sticky", "--games", 2000, "--seed", 3, "-q")
    assert r.exit_code == 0, r.output
    text = r.stdout
    assert "Sticky Cthulhu - strategy honest, 2,000 games, seed 3" in text
    assert "seat  win rate [95% CI]" in text
    seat_rows = re.findall(r"^\s+(\d)\s+([\d.]+)%\s+\[([\d.]+), ([\d.]+)\]$", text, re.M)
    assert [row[0] for row in seat_rows] == ["0", "1", "2", "3"]
    for _, rate, lo, hi in seat_rows:
        assert float(lo) <= float(rate) <= float(hi)
    assert "seat against seat" in text
    assert len(re.findall(r"^\s+\d - \d\s+[+-][\d.]+ points \[[+-][\d.]+, [+-][\d.]+\]$",
                          text, re.M)) == 6
    # each outcome on a line: its rate with its interval, and what ended the game in words
    assert re.search(r"^    win  100\.0% \[99\.8, 100\.0\]\s+a player collected the tokens",
                     text, re.M)
    assert re.search(r"^    cap  0\.0% \[0\.0, 0\.2\]\s+turn cap reached", text, re.M)
    assert "game length (turns): mean" in text
    assert re.search(r"rules data: \d+ of \d+ values are assumed", text)
    assert "playouts/s" in text
    # the table and the JSON tell the same story
    out = json.loads(invoke("run", "sticky", "--games", 2000, "--seed", 3, "--json").stdout)
    assert f"{100 * out['seat_win_rates'][0]['rate']:.1f}% [" in text


def test_trace():
    r = invoke("trace", "sticky", "--seed", 7)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == "Sticky Cthulhu - seed 7, playout 0, strategy honest"
    assert lines[1].startswith("4 players: seat 0 average")
    assert lines[2].startswith("Setup: 35 tokens")
    assert lines[3].startswith("Turn 1: seat 0 rolls ")
    win = re.search(r"^Seat (\d) wins on turn (\d+)\.$", r.stdout, re.M)
    assert win
    assert lines[-1].startswith(f"Result: win, winner seat {win[1]}, {win[2]} turns")
    again = invoke("trace", "sticky", "--seed", 7)
    assert again.stdout == r.stdout
    other = invoke("trace", "sticky", "--seed", 7, "--index", 1)
    assert other.exit_code == 0 and other.stdout != r.stdout
    assert other.stdout.startswith("Sticky Cthulhu - seed 7, playout 1")


def test_trace_with_overrides_and_strategy():
    r = invoke("trace", "sticky", "--seed", 2, "--players", 2, "--set", "curses=true",
               "--strategy", "cheater")
    assert r.exit_code == 0, r.output
    assert "strategy cheater" in r.stdout and "2 players" in r.stdout
    assert "draws the Curse" in r.stdout


def test_hex_trace_has_a_key_under_the_board():
    """The board picture's symbols are explained under it: under the first picture and the
    final board, each with the game's own counter codes."""
    r = invoke("trace", "hex", "--seed", 1, "--index", 0)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    keys = [i for i, line in enumerate(lines) if line.strip().startswith("Key: ")]
    assert len(keys) == 2
    assert lines[keys[0] - 1].lstrip().startswith(("G=", "B="))  # right under the board
    assert lines.index("Final board:") < keys[1]
    key = "\n".join(lines[keys[0]:keys[0] + 3])
    for symbol in ("..", "####", "[  ]", "Undergrowth", "Artefact", "G=", "B=", "JW", "c1",
                   "half a hex"):
        assert symbol in key


@pytest.mark.parametrize(
    "args,key,allowed",
    [
        (["--set", "players=9"], "players", "allowed: an int, between 2 and 6"),
        (["--players", "1"], "players", "allowed: an int, between 2 and 6"),
        (["--set", "curses=maybe"], "curses", "allowed: a bool"),
        (["--set", "table.width_cm=wide"], "table.width_cm",
         "allowed: a float, between 10.0 and 500.0"),
        (["--set", "sixth_colour_face=blue"], "sixth_colour_face",
         "allowed: a str, one of colour, reroll, any"),
        (["--set", "turn.shake_drop_p=1.5"], "turn.shake_drop_p",
         "allowed: a float, between 0.0 and 1.0"),
        (["--set", "seats=expert,nobody,average,average"], "seats",
         "allowed: average, beginner, expert"),
        (["--set", "strategy.ignore_p=2", "--strategy", "cheater"], "strategy.ignore_p",
         "allowed: between 0.0 and 1.0"),
        (["--set", "strategy.nosuch=1", "--strategy", "cheater"], "strategy.nosuch",
         "allowed: strategy.ignore_p, strategy.max_catch_p"),
    ],
)
def test_run_rejects_bad_overrides(args, key, allowed):
    r = invoke("run", "sticky", "--games", 100, *args)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr.startswith("error: ")
    assert f"key '{key}'" in r.stderr
    assert allowed in r.stderr


def test_run_rejects_unknown_key_with_suggestion():
    r = invoke("run", "sticky", "--games", 100, "--set", "playrs=3")
    assert r.exit_code == 2
    assert "unknown override key" in r.stderr and "did you mean players" in r.stderr
    assert "key 'playrs'" in r.stderr
    r = invoke("run", "sticky", "--games", 100, "--set", "players")
    assert r.exit_code == 2 and "key=value" in r.stderr


def test_trace_rejects_bad_overrides():
    r = invoke("trace", "sticky", "--set", "players=7")
    assert r.exit_code == 2
    assert "key 'players'" in r.stderr and "between 2 and 6" in r.stderr


def test_unknown_strategy():
    r = invoke("run", "sticky", "--games", 100, "--strategy", "nosuch")
    assert r.exit_code == 2
    assert "strategy 'nosuch' is not known for sticky" in r.stderr
    assert "honest" in r.stderr and "cheater" in r.stderr


def test_run_rejects_unknown_game_and_bad_counts():
    r = invoke("run", "nosuch", "--games", 100)
    assert r.exit_code == 2 and "unknown game 'nosuch'" in r.stderr
    r = invoke("run", "sticky", "--games", 0)
    assert r.exit_code == 2
    r = invoke("run", "sticky", "--seed", -1)
    assert r.exit_code == 2


def test_bench_json():
    r = invoke("bench", "--seconds", 0.2, "--json", "--game", "sticky")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert set(out) == {"sticky"}  # the JSON maps each game to its figures
    sticky = out["sticky"]
    assert set(sticky) == {"playouts_per_s", "default_strategy", "strategies", "threads",
                           "draws_per_playout", "generator_draws_per_s",
                           "floor_playouts_per_s", "floor_ratio"}
    assert sticky["threads"] >= 1
    # the random-number floor (experiments.speed.rng_floor): draws counted by a counting build
    assert 50 < sticky["draws_per_playout"] < 5000
    assert sticky["floor_playouts_per_s"] == pytest.approx(
        sticky["generator_draws_per_s"] / sticky["draws_per_playout"])
    assert sticky["floor_ratio"] == pytest.approx(
        sticky["floor_playouts_per_s"] / sticky["playouts_per_s"])
    assert sticky["floor_ratio"] > 1  # a playout does more than draw its numbers
    assert sticky["default_strategy"] == "honest"
    from strategies import registry

    assert set(sticky["strategies"]) == set(registry.names("sticky")) >= {
        "honest", "cheater", "spoiler", "random"}
    assert all(v > 0 for v in sticky["strategies"].values())
    assert sticky["playouts_per_s"] == sticky["strategies"]["honest"]


def strict_json(text):
    """json.loads that refuses NaN and Infinity (not JSON, though Python writes them)."""
    def refuse(word):
        raise ValueError(f"{word} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_json_text_writes_nan_and_infinity_as_null():
    import numpy as np

    from experiments.storage.jsonout import json_text

    text = json_text({"a": float("nan"), "b": [np.float64("inf"), -np.inf, np.float32(1.5)],
                      "c": (np.int64(3), np.bool_(True)), "d": np.array([np.nan, 2.0]),
                      "e": {"f": float("-inf")}, "g": object})
    assert "NaN" not in text and "Infinity" not in text
    assert strict_json(text) == {"a": None, "b": [None, None, 1.5], "c": [3, True],
                                 "d": [None, 2.0], "e": {"f": None}, "g": str(object)}


@pytest.fixture
def nan_summary(sticky, monkeypatch):
    """Sticky's summary with figures that have no value (a mean over no games)."""
    plain = type(sticky).summarize_extra

    def extra(self, df, config):
        return {**plain(self, df, config), "empty_mean": float("nan"), "ratio": float("inf")}

    monkeypatch.setattr(type(sticky), "summarize_extra", extra)


def test_run_json_is_strict_json(nan_summary):
    r = invoke("run", "sticky", "--games", 200, "--json", "-q")
    assert r.exit_code == 0, r.output
    assert "NaN" not in r.stdout and "Infinity" not in r.stdout
    out = strict_json(r.stdout)
    assert out["extra"]["empty_mean"] is None and out["extra"]["ratio"] is None
    assert out["extra"]["game_minutes_mean"] > 0


def test_compare_json_is_strict_json(nan_summary, tmp_path):
    r = invoke("compare", "sticky", "--strategies", "honest,random", "--games", 200, "--json",
               "-q", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "NaN" not in r.stdout
    strict_json(r.stdout)
    strict_json((tmp_path / "compare.json").read_text())


def test_check_json_is_strict_json(sticky, monkeypatch):
    def check(config, games, seed, progress=None):
        return {"games": games, "seed": seed, "violations": 0, "stuck": 0,
                "mean_turns": float("nan"), "first_violation": None}

    monkeypatch.setattr(sticky, "check", check, raising=False)
    monkeypatch.setattr(sticky, "kind", dataclasses.replace(sticky.kind, has_checker=True))
    r = invoke("check", "sticky", "--games", 10, "--json", "-q")
    assert r.exit_code == 0, r.output
    assert "NaN" not in r.stdout
    assert strict_json(r.stdout)["mean_turns"] is None



# ---- one-line errors instead of tracebacks ------------------------------------------------
def test_bench_unknown_game_is_an_error_line():
    r = invoke("bench", "--game", "nosuch", "--seconds", 0.1)
    assert r.exit_code == 2
    assert r.stderr.startswith("error: unknown game 'nosuch'") and "Traceback" not in r.output
    assert r.stdout == ""


def test_unwritable_out_folder_is_an_error_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = blocker / "sub"
    r = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 10, "-q",
               "--out", out)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"error: cannot write {out}: ") and len(r.stderr.splitlines()) == 1
    assert r.stdout == ""
    spec = tmp_path / "s.toml"
    spec.write_text('game = "sticky"\n[axes]\nplayers = [2]\n[games]\nper_cell = 10\n')
    r = invoke("sweep", spec, "--out", out / "deeper", "-q")
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"error: cannot write {out}") and len(r.stderr.splitlines()) == 1


# ---- compare ------------------------------------------------------------------------------
def test_compare_needs_two_strategies(tmp_path):
    r = invoke("compare", "sticky", "--strategies", "honest", "--games", 10, "--out",
               tmp_path / "cmp")
    assert r.exit_code == 2
    assert r.stderr.startswith("error: ") and "nothing to compare" in r.stderr
    assert "honest" in r.stderr and "cheater" in r.stderr  # the strategies to choose from
    assert not (tmp_path / "cmp").exists()


def test_compare_prints_settings_as_set_takes_them():
    r = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 200, "-q",
               "--set", "curses=true", "--set", "seats=expert,beginner,beginner,beginner",
               "--set", "table.width_cm=80")
    assert r.exit_code == 0, r.output
    first = r.stdout.splitlines()[0]
    assert "curses=true" in first and "True" not in first
    assert "seats=expert,beginner,beginner,beginner" in first and "table.width_cm=80" in first
    sets = first.split("(seed 1), ")[1].split(", ")
    again = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 200,
                   "-q", *[a for s in sets for a in ("--set", s)])
    assert again.exit_code == 0, again.output
    assert again.stdout == r.stdout


RATE = r"\d+\.\d% \[\d+\.\d, \d+\.\d\]"  # how every rate is written: 41.4% [37.2, 45.8]
DIFF = r"[+-]\d+\.\d points \[[+-]\d+\.\d, [+-]\d+\.\d\]"  # and every difference of rates


def test_run_compare_and_ladder_write_rates_and_differences_one_way():
    """Percent with its interval for every rate, points with their interval for every
    difference of rates: in run, compare and ladder alike (tournament: its own tests)."""
    run = invoke("run", "hex", "--games", 40, "-q").stdout
    cmp = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 200,
                 "-q").stdout
    lad = invoke("ladder", "sticky", "--games", 60, "-q").stdout
    for text in (run, cmp, lad):
        assert "pts" not in text and "±" not in text and "95% CI [" not in text
        assert not re.search(r"\d\.\d{3} \[", text)  # no share written as 0.414 [...]
    assert re.search(rf"^  0 Good  {RATE}$", run, re.M)
    assert re.search(rf"^     0 - 1  {DIFF}$", run, re.M)
    assert re.search(rf"^  leader killed rate: {RATE}$", run, re.M)  # a share is a rate too
    assert re.search(rf"^  honest  +{RATE} +[\d.]+ +{RATE} / {RATE} / {RATE} / {RATE}", cmp,
                     re.M)
    assert re.search(rf"^  cheater - honest +{DIFF} +[+-][\d.]+ turns \[", cmp, re.M)
    assert re.search(rf"^  honest +{RATE} +{DIFF}$", lad, re.M)


def test_no_interval_of_a_count_reaches_below_zero():
    """A handful of games: the t interval of a count (Artefacts home, counters lost, game
    length) would reach below 0; the summary clips it there, in the JSON and the text."""
    out = json.loads(invoke("run", "hex", "--games", 3, "--seed", 4, "--json", "-q").stdout)
    lows = [out["turns"]["mean_ci95"][0]]
    for ci in out["extra_ci95"].values():
        lows += [c[0] for c in ci.values()] if isinstance(ci, dict) else [ci[0]]
    assert min(lows) == 0.0  # clipped where it would have gone below
    text = invoke("run", "hex", "--games", 3, "--seed", 4, "-q").stdout
    assert "[-" not in text.split("outcomes (")[1]


@pytest.mark.parametrize("value", [True, False, 3, 0.5, 80.0, "hard", ["expert"],
                                   ["expert", "beginner"], [1, 2], "Play, then sing",
                                   ["a,b", "c"], "true", "3"])
def test_set_text_reads_back(value):
    from experiments.running.comparison import set_text
    from simcore.rules_data import parse_text_value

    assert parse_text_value(set_text(value)) == value


# ---- a line before numba compiles ---------------------------------------------------------
COMPILING = "compiling (or loading compiled code) ..."


def test_commands_say_they_compile_unless_quiet_or_json():
    r = invoke("run", "sticky", "--games", 100)
    assert r.exit_code == 0, r.output
    assert f"sticky: {COMPILING}" in r.stderr and COMPILING not in r.stdout
    for quiet in ("-q", "--json"):
        r = invoke("run", "sticky", "--games", 100, quiet)
        assert r.exit_code == 0 and COMPILING not in r.output
    r = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 100)
    assert r.exit_code == 0, r.output
    assert f"sticky honest: {COMPILING}" in r.stderr
    assert f"sticky cheater: {COMPILING}" in r.stderr
    r = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 100, "-q")
    assert COMPILING not in r.output
    r = invoke("trace", "sticky", "--seed", 7)
    assert r.exit_code == 0 and f"sticky: {COMPILING}" in r.stderr
    assert r.stdout.startswith("Sticky Cthulhu - seed 7")


@pytest.mark.parametrize("args, message", [
    (["--players", "3", "--set", "players=2"], "--players 3 and --set players=2 disagree"),
    (["--set", "players=3", "--set", "players=5"], "--set players is given twice (3 and 5)"),
])
def test_conflicting_settings_are_refused(args, message):
    r = invoke("run", "sticky", "--games", 10, "-q", *args)
    assert r.exit_code == 2 and f"error: {message}" in r.output
    assert invoke("run", "sticky", "--games", 10, "-q", "--players", "3", "--set",
                  "players=3").exit_code == 0


def test_run_says_what_was_run():
    """The text summary names the settings changed from the defaults and the rules file, so
    a pasted result can be attributed; --json has them as `settings` and `rules_file`."""
    args = ("run", "sticky", "--games", 200, "-q", "--strategy", "by_seat", "--set",
            "curses=true", "--set", "strategy.seat_0=cheater")
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    assert "settings: curses=true, strategy.seat_0=cheater  (rules data: " in r.stdout
    info = json.loads(invoke(*args, "--json").stdout)
    assert info["settings"] == {"curses": True, "strategy.seat_0": "cheater"}
    assert info["rules_file"].endswith("rules.toml")
    assert "settings: defaults" in invoke("run", "sticky", "--games", 200, "-q").stdout


def test_version():
    r = invoke("--version")
    assert r.exit_code == 0 and r.stdout.startswith("cthulhu-sim ")


def test_help_names_what_each_option_takes():
    """Options show what they take (N, KEY=VALUE, NAME, FILE, DIR), flags nothing."""
    r = invoke("run", "--help")
    assert r.exit_code == 0
    lines = {line.split()[1]: line for line in r.output.splitlines()
             if line.startswith("│ --")}
    assert "KEY=VALUE" in lines["--set"] and "N" in lines["--games"].split()
    assert "FILE" in lines["--rules"] and "NAME" in lines["--strategy"]
    assert "<bool>" not in lines["--json"] and "<bool>" not in lines["--quiet"]
    r = invoke("sweep", "--help")
    lines = {line.split()[1]: line for line in r.output.splitlines()
             if line.startswith("│ --")}
    assert "DIR" in lines["--out"] and "<bool>" not in lines["--records"]


def test_a_run_too_big_for_memory_is_refused_before_playing(monkeypatch):
    import experiments.running.runner as runner

    monkeypatch.setattr(runner, "available_memory", lambda: 1_000_000_000)  # 1 GB
    r = invoke("run", "sticky", "--games", 10_000_000, "-q")
    assert r.exit_code == 2
    assert "10,000,000 games in a run" in r.stderr and "at most about" in r.stderr
    assert "Traceback" not in r.output
    r = invoke("compare", "sticky", "--strategies", "honest,cheater", "--games", 5_000_000, "-q")
    assert r.exit_code == 2 and "each of 2 strategies" in r.stderr
    # what the message offers fits: the largest count it names is accepted
    fit = int(r.stderr.split("at most about ")[1].split()[0].replace(",", ""))
    runner.check_memory(get_game("sticky"), fit, runs=2)


def test_memory_is_not_checked_where_it_cannot_be_read(monkeypatch):
    import experiments.running.runner as runner

    monkeypatch.setattr(runner, "available_memory", lambda: None)
    runner.check_memory(get_game("sticky"), 10**15)  # no error: nothing to compare with


def test_available_memory_reads_this_machine():
    import os

    from experiments.running.runner import available_memory

    avail = available_memory()
    if os.path.exists("/proc/meminfo"):  # Linux: always a figure
        assert avail is not None and 0 < avail
    else:
        assert avail is None


def test_available_memory_takes_a_lower_container_limit(monkeypatch):
    import experiments.running.runner as runner

    files = {"/sys/fs/cgroup/memory.max": 3_000_000_000,
             "/sys/fs/cgroup/memory.current": 1_000_000_000}
    monkeypatch.setattr(runner, "_meminfo_available", lambda: 20_000_000_000)
    monkeypatch.setattr(runner, "_read_int", lambda path: files.get(path))
    assert runner.available_memory() == 2_000_000_000  # the container's room, not the host's
    files["/sys/fs/cgroup/memory.max"] = None  # "max": no container limit
    assert runner.available_memory() == 20_000_000_000
    monkeypatch.setattr(runner, "_meminfo_available", lambda: None)
    assert runner.available_memory() is None


def test_games_game_prints_what_each_setting_means():
    """Each key comes with its note from the rules data (what it means and where it comes
    from), wrapped under it; the short listing without a game keeps to one line a key."""
    from simcore.registry import get_game

    rules = get_game("sticky").default_rules()
    r = invoke("games", "sticky")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    players = 4 "))
    note = []
    for line in lines[start + 1:]:
        if not line.startswith("        "):
            break
        note.append(line.strip())
    assert " ".join(note) == " ".join(rules.entries["players"].note.split())
    short = invoke("games").stdout
    assert rules.entries["players"].note.split()[0] not in short.split("players = 4")[1][:80]
