"""``cthulhu-sim check tec`` names the first offending playout with a ``cthulhu-sim trace``
command; that command must rebuild the configuration the check played (strategy, rules file,
every ``--set`` override and shortcut, strategy parameters), or it replays another game.

Stuck games are made on purpose with a low turn cap (``max_turns``): the checker counts a game
that reaches it as stuck and names the first one.
"""

import json
import re
import shlex
import shutil

import pytest

from simcore.registry import get_game
from simcore.replay import replay_command, set_options
from simcore.tec import state as S
from tests.cli_support import invoke

GAME = get_game("tec")
HINT = re.compile(r"^\s+first violation: playout (\d+) \(replay: (.*)\)$", re.M)

CASES = [
    # random strategy, shortcuts and a list override
    pytest.param(["--strategy", "random", "--players", "3", "--goo", "yig", "--difficulty",
                  "madness", "--set", "characters=medium,occultist,professor",
                  "--set", "max_turns=22"], None, id="random-shortcuts-list"),
    # heuristic with a strategy parameter and a bool override, from a copied rules file in a
    # folder whose name needs quoting
    pytest.param(["--strategy", "heuristic", "--players", "4", "--goo", "cthulhu",
                  "--set", "move_exact=true", "--set", "max_turns=40",
                  "--set", "strategy.translate_here=10"], "my rules", id="heuristic-rules-file"),
]


pytestmark = pytest.mark.usefixtures("restore_threads")  # a test may change numba's threads


@pytest.mark.parametrize("options,rules_dir", CASES)
def test_check_hint_replays_the_offending_game(tmp_path, options, rules_dir):
    """The hint ``check`` prints, run as given, traces the very game the check found stuck:
    same strategy and settings in the header, the turn cap reached on the capped turn, and
    word for word the trace of that playout under the check's configuration.  The options
    the old hint left out matter: without them the same seed and index is another game."""
    options = list(options)
    rules_path = None
    if rules_dir:
        rules_path = tmp_path / rules_dir / "rules.toml"
        rules_path.parent.mkdir()
        shutil.copy(GAME.rules_file, rules_path)
        options += ["--rules", str(rules_path)]
    r = invoke("check", "tec", "--games", 500, "--seed", 3, "-q", *options)
    assert r.exit_code == 1, r.output
    m = HINT.search(r.stdout)
    assert m, r.stdout
    index, command = int(m[1]), m[2]
    assert index > 0  # not playout 0, so --index is tested too
    argv = shlex.split(command)
    assert argv[:7] == ["cthulhu-sim", "trace", "tec", "--seed", "3", "--index", str(index)]
    if rules_path is not None:
        assert argv[argv.index("--rules") + 1] == str(rules_path)

    replayed = invoke(*argv[1:])
    assert replayed.exit_code == 0, replayed.output
    text = replayed.stdout.rstrip("\n")

    # the check's configuration, built from the options in Python
    strategy = options[options.index("--strategy") + 1]
    sets = [options[i + 1] for i, o in enumerate(options) if o == "--set"]
    for flag in ("players", "goo", "difficulty"):
        if f"--{flag}" in options:
            sets.append(f"{flag}={options[options.index('--' + flag) + 1]}")
    config = GAME.configure(sets, strategy, rules_path)
    rec = GAME.run_batch(config, 3, index, 1)[0]
    assert S.OUTCOMES[rec["outcome"]] == "cap"
    cap = config.rules["max_turns"]
    lines = text.splitlines()
    assert lines[0] == f"Tiny Epic Cthulhu - seed 3, playout {index}, strategy {strategy}"
    assert lines[-1].startswith(f"Result: the turn cap is reached (turn {cap};")
    assert argv[-1] == "--check"  # replayed under the checker, so a violation would show
    assert text == GAME.trace(config, 3, index, check=True) == GAME.trace(config, 3, index)

    # the hint as it was (seed and index only) replays a different game
    bare = invoke("trace", "tec", "--seed", 3, "--index", index)
    assert bare.exit_code == 0 and bare.stdout.rstrip("\n") != text
    assert "the turn cap is reached" not in bare.stdout.splitlines()[-1]


def test_json_first_violation_carries_the_same_hint():
    """``check --json`` names the playout with the same replay command."""
    r = invoke("check", "tec", "--games", 200, "--seed", 3, "--strategy", "random",
               "--players", "3", "--goo", "yig", "--difficulty", "madness",
               "--set", "characters=medium,occultist,professor", "--set", "max_turns=22",
               "--json")
    assert r.exit_code == 1, r.output
    first = json.loads(r.stdout)["first_violation"]
    # the CLI puts --players, --goo and --difficulty after the --set options
    config = GAME.configure(["characters=medium,occultist,professor", "max_turns=22",
                             "players=3", "goo=yig", "difficulty=madness"], "random")
    recs = GAME.run_batch(config, 3, 0, 200)
    stuck = [i for i, r in enumerate(recs) if S.OUTCOMES[r["outcome"]] == "cap"]
    assert stuck  # the turn cap of 22 leaves some games stuck
    index = stuck[0]
    assert first == f"playout {index} (replay: {replay_command(config, 3, index, check=True)})"


def test_replay_command_defaults_and_round_trip():
    """With nothing overridden the command is just the strategy; every kind of override
    (int, bool, choice, list of words, list of ints, a strategy parameter) is written so that
    ``--set`` reads it back to the same resolved configuration."""
    plain = GAME.configure(None, "heuristic")
    assert replay_command(plain, 1, 2) == (
        "cthulhu-sim trace tec --seed 1 --index 2 --strategy heuristic")
    overrides = {"players": 1, "move_distance": "exact", "must_move_check": "after_spin",
                 "characters": ["drifter", "medium"], "dice.faces": [0, 1, 1, 2, 2, 2],
                 "strategy.seal_here": 99.5, "strategy.banish_weight": 2}
    config = GAME.configure(overrides, "heuristic")
    options = set_options(config)
    assert options[::2] == ["--set"] * (len(options) // 2)
    assert len(options) // 2 == len(overrides)
    again = GAME.configure(options[1::2], "heuristic")
    assert again.resolved() == config.resolved()
    # and through the shell quoting of the whole command
    argv = shlex.split(replay_command(config, 4, 0))
    sets = [argv[i + 1] for i, a in enumerate(argv) if a == "--set"]
    assert GAME.configure(sets, argv[argv.index("--strategy") + 1]).resolved() == \
        config.resolved()


def test_values_that_need_a_literal():
    """A value the bare ``key=value`` form would read back differently is written as a TOML
    literal: a one-item list (a bare word reads as a string), a string that looks like a
    number, a comma or a boolean, and an empty string."""
    from simcore.replay import set_value_text as _plain
    from simcore.rules_data import parse_text_value

    for value in (["drifter"], [3], "12", "a,b", "true", "", [], 1.5, -0.0, [1.0, 2.5]):
        text = _plain(value)
        assert parse_text_value(text) == value, (value, text)
    assert _plain(["drifter"]) == '["drifter"]' and _plain("12") == '"12"'
    assert _plain(["a", "b"]) == "a,b" and _plain(7) == "7" and _plain(True) == "true"


def test_trace_check_needs_a_game_with_a_checker():
    """``trace --check`` replays under the rules checker; a game without one says so."""
    r = invoke("trace", "sticky", "--seed", 1, "--check")
    assert r.exit_code == 2 and "no rules checker" in r.output
