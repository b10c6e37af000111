"""Game shortcuts come from each game's ``Game.shortcuts``: every command that takes a GAME
accepts exactly the named game's, and a game added to the registry brings its own with no
edit to the command line."""

import importlib
import json
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import simcore.registry as game_registry
from simcore.game import Game, GameKind, Shortcut
from strategies import registry as strat_registry
from strategies.registry import StrategySpec
from tests.cli_support import invoke

GAME_COMMANDS = ("run", "trace", "compare", "check")


@pytest.mark.parametrize("command", ["run", "trace", "compare"])  # (sticky has no checker)
def test_tec_shortcuts_are_accepted_and_sticky_refuses_them_by_name(command):
    extra = {"compare": ["--strategies", "honest,cheater"]}.get(command, [])
    r = invoke(command, "sticky", "--goo", "cthulhu", *extra)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == ("error: --goo does not apply to sticky; its shortcuts: "
                                "--players (or --set KEY=VALUE with a key of `cthulhu-sim "
                                "games sticky`)")


def test_a_shortcut_is_the_set_it_stands_for():
    a = invoke("trace", "tec", "--goo", "cthulhu", "--difficulty", "hard", "--players", 3)
    b = invoke("trace", "tec", "--set", "goo=cthulhu", "--set", "difficulty=hard", "--set",
               "players=3")
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert "Cthulhu on hard, 3 player(s)" in a.stdout
    r = invoke("run", "tec", "--goo", "hastur", "--games", 10)
    assert r.exit_code == 2 and "key 'goo'" in r.stderr and "hastur" in r.stderr


def test_help_has_a_section_of_game_shortcuts_naming_each_game():
    for command in GAME_COMMANDS:
        out = invoke(command, "--help").stdout
        assert "Game shortcuts" in out
        assert "--goo" in out and "tec: Great Old One" in out
        assert "sticky: --players N; tec: --players N, --goo NAME, --difficulty LEVEL" in \
            " ".join(out.split())


def test_games_shows_each_games_kind_and_shortcuts():
    info = json.loads(invoke("games", "--json").stdout)
    assert info["tec"]["kind"]["cooperative"] is True and info["tec"]["kind"]["has_checker"]
    assert set(info["tec"]["shortcuts"]) == {"players", "goo", "difficulty"}
    assert info["sticky"]["kind"]["cooperative"] is False


RULES = """
sides = { value = 6, min = 2, max = 12, source = "assumed", note = "Faces of the die." }
[meta]
game = "dice"
"""


class Dice(Game):
    """A made-up game with a shortcut no other game has (``--sides``)."""

    name = "dice"
    title = "Dice (test game)"
    kind = GameKind(cooperative=True, perfect_information=True, searchable=False,
                    has_checker=False)
    outcomes = ("win", "loss")
    record_fields = ("outcome", "winner", "turns")
    default_strategy = "roll"
    shortcuts = {"sides": Shortcut("sides", "N", "Faces of the die.")}

    def compile_params(self, rules):
        return int(rules["sides"])

    def seats(self, rules):
        return 0

    def _kernel(self, config, seed, start, count):
        out = np.zeros((count, 3), dtype=np.int64)
        out[:, 0] = (np.arange(start, start + count) % config.params) != 0
        out[:, 1] = -1
        out[:, 2] = 1
        return out

    def trace_record(self, config, seed, index=0):
        return self._kernel(config, seed, index, 1)[0]

    def trace(self, config, seed, index=0, check=False):
        return f"a {config.params}-sided die, playout {index}"


@pytest.fixture
def dice_cli(tmp_path, monkeypatch):
    """The command line as built with a new game in the registry (the module is imported
    again, as a fresh process would)."""
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    module = types.ModuleType("tests_dice_game")
    game = Dice()
    game.rules_file = rules
    module.GAME = game
    monkeypatch.setitem(sys.modules, "tests_dice_game", module)
    monkeypatch.setitem(game_registry.GAME_MODULES, "dice", "tests_dice_game")
    monkeypatch.setitem(strat_registry._REGISTRY, "dice", {
        "roll": StrategySpec("dice", "roll", None, {}, "Rolls."),
        "reroll": StrategySpec("dice", "reroll", None, {}, "Rolls again.")})
    monkeypatch.setattr(strat_registry, "_LOADED", strat_registry._LOADED | {"dice"})
    import experiments.cli as cli

    fresh = importlib.reload(cli)
    yield fresh.app
    monkeypatch.undo()
    importlib.reload(cli)


def test_a_new_games_shortcuts_appear_with_no_cli_edit(dice_cli):
    runner = CliRunner()
    r = runner.invoke(dice_cli, ["trace", "dice", "--sides", "8", "--index", "3"])
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == "a 8-sided die, playout 3"
    r = runner.invoke(dice_cli, ["run", "--help"])
    assert "--sides" in r.stdout and "dice: Faces of the die." in r.stdout
    r = runner.invoke(dice_cli, ["run", "tec", "--sides", "8", "--games", "5"])
    assert r.exit_code == 2 and "--sides does not apply to tec" in r.stderr
    r = runner.invoke(dice_cli, ["run", "dice", "--goo", "cthulhu", "--games", "5"])
    assert r.exit_code == 2 and "--goo does not apply to dice; its shortcuts: --sides" in \
        r.stderr
    r = runner.invoke(dice_cli, ["run", "dice", "--sides", "99", "--games", "5"])
    assert r.exit_code == 2 and "key 'sides'" in r.stderr


def test_the_cli_asks_the_games_kind_not_its_methods(monkeypatch):
    """A game that says it has no checker is refused by check and trace --check, whatever
    methods it has."""
    from simcore.registry import get_game

    tec = get_game("tec")
    monkeypatch.setattr(tec, "kind", GameKind(cooperative=True, perfect_information=False,
                                              searchable=False, has_checker=False))
    r = invoke("check", "tec", "--games", 10)
    assert r.exit_code == 2 and "tec has no rules checker" in r.stderr
    r = invoke("trace", "tec", "--check")
    assert r.exit_code == 2 and "--check does not apply" in r.stderr
    assert Path(tec.rules_file).exists()
