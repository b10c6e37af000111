"""Booleans, integers and names are read one way everywhere: on the command line (--set and
the game shortcuts), in a sweep spec and from Python."""

import pytest

from experiments.running.spec import SpecError, load_spec
from simcore.registry import get_game
from simcore.rules_data import RulesError
from strategies import registry
from tests.cli_support import invoke


@pytest.fixture(scope="module")
def sticky_rules():
    return get_game("sticky").default_rules()


@pytest.fixture(scope="module")
def tec_rules():
    return get_game("tec").default_rules()


@pytest.mark.parametrize("text", ["true", "True", "TRUE", "yes", "Yes", "on", "ON"])
def test_every_spelling_of_true_works_on_the_command_line_and_in_a_spec(sticky_rules, text):
    assert sticky_rules.with_overrides([f"curses={text}"]).overridden == {"curses": True}
    spec = load_spec({"game": "sticky", "settings": {"curses": text}, "games": 5})
    assert spec.configure(spec.cells()[0]).rules["curses"] is True


@pytest.mark.parametrize("text", ["false", "False", "no", "NO", "off", "Off"])
def test_every_spelling_of_false_works(sticky_rules, text):
    assert sticky_rules.with_overrides([f"curses={text}"]).overridden == {"curses": False}


@pytest.mark.parametrize("text", ["1", "0", "maybe", "tru"])
def test_a_bool_refuses_numbers_and_other_words_everywhere(sticky_rules, text):
    with pytest.raises(RulesError, match="key 'curses'"):
        sticky_rules.with_overrides([f"curses={text}"])
    with pytest.raises(SpecError, match="curses"):
        load_spec({"game": "sticky", "settings": {"curses": text}, "games": 5})


@pytest.mark.parametrize("text", ["3", "03", "0x3", "+3", " 3"])
def test_integers_in_any_of_these_forms_are_three(tec_rules, text):
    assert tec_rules.with_overrides([f"players={text}"]).overridden == {"players": 3}
    spec = load_spec({"game": "tec", "settings": {"players": text.strip()}, "games": 5})
    assert spec.configure(spec.cells()[0]).rules["players"] == 3


@pytest.mark.parametrize("text", ["3.0", "3.5", "three", "3e0"])
def test_what_is_not_an_integer_is_refused_everywhere(tec_rules, text):
    with pytest.raises(RulesError, match="key 'players'"):
        tec_rules.with_overrides([f"players={text}"])


def test_choices_are_case_insensitive_and_stored_as_the_rules_spell_them(tec_rules):
    assert tec_rules.with_overrides(["goo=Cthulhu"]).overridden == {"goo": "cthulhu"}
    assert tec_rules.with_overrides(["goo=YOG-SOTHOTH"]).overridden == {"goo": "yog-sothoth"}
    spec = load_spec({"game": "TEC", "settings": {"difficulty": "Hard"}, "games": 5})
    assert spec.game == "tec"
    assert spec.configure(spec.cells()[0]).rules["difficulty"] == "hard"


def test_game_names_goo_and_strategy_names_are_case_insensitive_on_the_cli():
    r = invoke("trace", "TEC", "--goo", "Cthulhu", "--difficulty", "HARD", "--strategy",
               "Random", "--players", "03")
    assert r.exit_code == 0, r.output
    assert "Cthulhu on hard, 3 player(s)" in r.stdout and "strategy random" in r.stdout


def test_strategy_names_and_choice_parameters_are_case_insensitive():
    s = registry.get("sticky", "By_Seat", {"seat_0": "Cheater", "seat_1": "SPOILER"})
    assert s.name == "by_seat"
    assert s.param_dict()["seat_0"] == "cheater" and s.param_dict()["seat_1"] == "spoiler"
    assert registry.get("sticky", "cheater", {"ignore_p": "0.5"}).param_dict()["ignore_p"] == 0.5


def test_an_empty_strategy_is_an_error_not_the_default():
    r = invoke("run", "sticky", "--games", 10, "--strategy", "")
    assert r.exit_code == 2 and "--strategy: an empty name" in r.stderr
    r = invoke("run", "sticky", "--games", 10, "--strategy", "  ")
    assert r.exit_code == 2 and "--strategy" in r.stderr
    with pytest.raises(SpecError, match="key 'strategy'"):
        load_spec({"game": "sticky", "strategy": "", "games": 5})
    with pytest.raises(RulesError, match="an empty strategy name"):
        registry.get("sticky", "")


def test_threads_above_the_cores_are_clamped_and_said(restore_threads):
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    r = invoke("run", "sticky", "--games", 50, "-q", "--threads", most + 7)
    assert r.exit_code == 0, r.output
    assert f"--threads {most + 7} is more than the {most}" in r.stderr
    assert f"using {most}" in r.stderr
    r = invoke("run", "sticky", "--games", 50, "-q", "--threads", 1)
    assert "is more than" not in r.stderr
