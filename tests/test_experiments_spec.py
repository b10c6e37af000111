"""Sweep specs: parsing, cells, and bad specs failing before anything runs."""

import re
import textwrap

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from experiments.running.spec import SpecError, SweepSpec, load_spec

GOOD = """
title = "t"
game = "sticky"
seed = 3
strategy = "honest"

[settings]
curses = true

[axes]
players = [2, 4]
seats = [["expert", "beginner", "beginner", "beginner"], ["average"]]

[games]
per_cell = 100

[report]
baseline = { players = 2 }
"""


def write(tmp_path, text, name="spec.toml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_good_spec_cells_in_product_order(tmp_path):
    spec = SweepSpec.load(write(tmp_path, GOOD))
    cells = spec.cells()
    assert [c.label for c in cells] == [
        "players=2, seats=[expert,beginner,beginner,beginner]", "players=2, seats=[average]",
        "players=4, seats=[expert,beginner,beginner,beginner]", "players=4, seats=[average]"]
    assert cells[3].overrides == {"curses": True, "players": 4, "seats": ["average"]}
    cfg = spec.configure(cells[2])
    assert cfg.rules["players"] == 4 and cfg.rules["curses"] is True
    assert cfg.strategy.name == "honest"
    assert spec.per_cell == 100 and spec.precision is None
    assert spec.baseline == {"players": 2}


def test_strategy_list_is_an_axis_and_nested_keys_flatten(tmp_path):
    spec = SweepSpec.load(write(tmp_path, """
        game = "sticky"
        strategy = "cheater"
        [axes]
        table.width_cm = [60.0, 90]
        strategy.max_catch_p = [0.2, 0.4]
        [games]
        precision = 0.5
        round = 1000
        max_per_cell = 4000
    """))
    assert spec.axis_keys == ["table.width_cm", "strategy.max_catch_p"]
    assert len(spec.cells()) == 4
    cfg = spec.configure(spec.cells()[1])
    assert cfg.strategy.name == "cheater" and cfg.rules["table.width_cm"] == 60.0
    assert cfg.strategy.param_dict()["max_catch_p"] == 0.4
    listed = load_spec({"game": "sticky", "strategy": ["honest", "random"],
                        "axes": {"players": [2, 3]}, "games": 10})
    assert listed.axis_keys == ["players", "strategy"]
    assert [c.strategy for c in listed.cells()] == ["honest", "random"] * 2
    bad = re.escape("cell strategy.max_catch_p=0.2, strategy=honest")
    with pytest.raises(SpecError, match=bad):
        load_spec({"game": "sticky", "strategy": ["honest", "cheater"],
                   "axes": {"strategy.max_catch_p": [0.2]}, "games": 10})
    assert (spec.precision, spec.round, spec.max_per_cell) == (0.5, 1000, 4000)


def test_hash_tracks_what_decides_results(tmp_path):
    a = SweepSpec.load(write(tmp_path, GOOD, "a.toml"))
    b = SweepSpec.load(write(tmp_path, GOOD.replace('title = "t"', 'title = "other"'), "b.toml"))
    c = SweepSpec.load(write(tmp_path, GOOD.replace("seed = 3", "seed = 4"), "c.toml"))
    d = SweepSpec.load(write(tmp_path, GOOD.replace("curses = true", "curses = false"), "d.toml"))
    assert a.hash() == b.hash()
    assert len({a.hash(), c.hash(), d.hash()}) == 3


@pytest.mark.parametrize(
    "text, key, reason",
    [
        ('game = "chess"\n[axes]\n[games]\nper_cell = 5', "'game'", "unknown game 'chess'"),
        ('game = "sticky"\ncolour = 1\n[games]\nper_cell = 5', "'colour'", "unknown key"),
        ('game = "sticky"\n[axes]\nplayers = []\n[games]\nper_cell = 5', "'axes.players'",
         "empty axis"),
        ('game = "sticky"\n[axes]\nplayers = [2, 9]\n[games]\nper_cell = 5',
         "'axes.players' value 9", "above the maximum; allowed: an int, between 2 and 6"),
        ('game = "sticky"\n[axes]\nplayerz = [2]\n[games]\nper_cell = 5', "'axes.playerz'",
         "did you mean players"),
        ('game = "sticky"\n[axes]\ncurses = [true, "maybe"]\n[games]\nper_cell = 5',
         "'axes.curses' value maybe", "not a bool"),
        ('game = "sticky"\n[settings]\nplayers = 1\n[games]\nper_cell = 5', "'settings'",
         "below the minimum"),
        ('game = "sticky"\nstrategy = ["honest", "bluff"]\n[games]\nper_cell = 5',
         "key 'strategy' value bluff", "not known for sticky"),
        ('game = "sticky"\n[axes]\nstrategy = ["honest", "bluff"]\n[games]\nper_cell = 5',
         "key 'axes.strategy' value bluff", "not known for sticky"),
        ('game = "sticky"\nstrategy = "bluff"\n[games]\nper_cell = 5',
         "key 'strategy': strategy 'bluff' is not known for sticky", "honest"),
        ('game = "sticky"\nstrategy = "bluff"\n[settings]\ncurses = true\n[games]\n'
         'per_cell = 5', "key 'strategy': strategy 'bluff'", "not known for sticky"),
        ('game = "sticky"\n[games]\nper_cell = 5\nprecision = 1.0', "'games'", "exactly one"),
        ('game = "sticky"\n[games]\nprecision = 0', "'games.precision'", "percentage points"),
        ('game = "sticky"\n[games]\nper_cell = 0', "'games.per_cell'", "integer from 1 to"),
        ('game = "sticky"\n[games]\nper_cel = 5', "'games.per_cel'", "unknown key"),
        ('game = "sticky"', "'games'", "missing"),
        ('game = "sticky"\nseed = -1\n[games]\nper_cell = 5', "'seed'", "not an integer from 0 to"),
        ('game = "sticky"\n[axes]\nplayers = [2]\n[games]\nper_cell = 5\n[report]\n'
         'baseline = { players = 3 }', "'report.baseline.players'", "not a value of the axis"),
        ('game = "sticky"\n[axes]\nplayers = 2\n[games]\nper_cell = 5', "'axes.players'",
         "not a list"),
    ],
)
def test_bad_specs_name_file_key_and_reason(tmp_path, text, key, reason):
    path = write(tmp_path, text, "bad.toml")
    with pytest.raises(SpecError) as exc:
        SweepSpec.load(path)
    msg = str(exc.value)
    assert msg.startswith(str(path)), msg
    assert key in msg, msg
    assert reason in msg, msg


def test_cross_field_error_names_the_cell(tmp_path):
    path = write(tmp_path, """
        game = "sticky"
        [axes]
        players = [2, 6]
        first_player = [0, 4]
        [games]
        per_cell = 5
    """)
    try:
        SweepSpec.load(path)
    except SpecError as exc:  # first_player 4 is fine for 6 players, not for 2
        assert "cell players=2, first_player=4" in str(exc)
    else:  # the game may accept it (seat taken modulo players); then every cell is valid
        assert len(SweepSpec.load(path).cells()) == 4


def test_cli_rejects_bad_spec_before_running(tmp_path):
    path = write(tmp_path, 'game = "sticky"\n[axes]\nplayers = [2, 9]\n[games]\nper_cell = 5')
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["sweep", str(path), "--out", str(out)])
    assert res.exit_code == 2
    assert f"{path}: key 'axes.players' value 9" in res.output
    assert not out.exists()


def test_load_spec_from_dict_and_bundled_specs():
    spec = load_spec({"game": "sticky", "axes": {"players": [3]}, "games": 10})
    assert spec.per_cell == 10 and spec.source == "<dict>"
    from pathlib import Path

    import experiments

    folder = Path(experiments.__file__).parent / "specs"
    for p in sorted(folder.glob("sticky-*.toml")):
        assert SweepSpec.load(p).cells()
    tec = (folder / "tec-balance.toml").read_text()
    assert 'game = "tec"' in tec


def test_dict_spec_round_trips_through_toml(tmp_path):
    raw = {"title": "t \"q\"", "game": "sticky", "seed": 4, "strategy": "cheater",
           "settings": {"curses": True, "strategy.ignore_p": 0.5, "table.width_cm": 80.0},
           "axes": {"players": [2, 3], "seats": [["expert"], ["average", "beginner", "expert"]]},
           "games": {"precision": 1.5, "round": 500, "max_per_cell": 1000},
           "report": {"baseline": {"players": 2}, "x": "players"}}
    spec = load_spec(raw)
    again = SweepSpec.load(write(tmp_path, spec.to_toml()))
    assert again.hash() == spec.hash()
    assert again.title == spec.title and again.baseline == {"players": 2}


def test_bad_rules_file_in_a_spec_is_reported_under_rules(tmp_path):
    from simcore.sticky.game import Sticky

    text = Sticky.rules_file.read_text(encoding="utf-8")
    rules = tmp_path / "my-rules.toml"
    rules.write_text(text.replace("players = { value = 4,", "players = { value = 4.0,", 1),
                     encoding="utf-8")
    path = write(tmp_path, 'game = "sticky"\nrules = "my-rules.toml"\n[games]\nper_cell = 5',
                 "spec.toml")
    with pytest.raises(SpecError) as exc:
        SweepSpec.load(path)
    msg = str(exc.value)
    assert msg.startswith(f"{path}: key 'rules': {rules}: key 'players': 4.0 is not an integer")
    # a good copy works, and an axis is checked against the file's entries
    rules.write_text(text.replace("reach_cm = { value = 2.0,", "reach_cm = { value = 2,", 1),
                     encoding="utf-8")
    spec = write(tmp_path, 'game = "sticky"\nrules = "my-rules.toml"\n[axes]\n'
                 'table.reach_cm = [2.5, 3]\n[games]\nper_cell = 5', "spec.toml")
    cells = SweepSpec.load(spec).cells()
    assert [c.overrides["table.reach_cm"] for c in cells] == [2.5, 3]


def test_dict_spec_takes_numpy_scalars(tmp_path):
    import numpy as np

    raw = {"game": "sticky", "seed": np.int64(3),
           "settings": {"curses": np.True_, "table.width_cm": np.float32(80)},
           "axes": {"players": list(np.arange(2, 5))},
           "games": {"per_cell": np.int64(10)}, "report": {"baseline": {"players": np.int64(2)}}}
    spec = load_spec(raw)
    assert [c.values["players"] for c in spec.cells()] == [2, 3, 4]
    assert all(type(c.values["players"]) is int for c in spec.cells())
    assert spec.seed == 3 and spec.per_cell == 10 and spec.settings["curses"] is True
    plain = load_spec({**raw, "seed": 3, "axes": {"players": [2, 3, 4]}, "games": 10,
                       "settings": {"curses": True, "table.width_cm": 80.0},
                       "report": {"baseline": {"players": 2}}})
    assert spec.hash() == plain.hash()
    assert SweepSpec.load(write(tmp_path, spec.to_toml())).hash() == spec.hash()


def test_a_spec_with_a_byte_order_mark_reads_as_without_one(tmp_path):
    text = 'game = "sticky"\n[axes]\nplayers = [2, 3]\n[games]\nper_cell = 5\n'
    plain = write(tmp_path, text, "plain.toml")
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert SweepSpec.load(bom).hash() == SweepSpec.load(plain).hash()
    rules = tmp_path / "rules-bom.toml"
    from simcore.registry import get_game

    rules.write_bytes(b"\xef\xbb\xbf" + get_game("sticky").rules_file.read_bytes())
    assert get_game("sticky").load_rules(rules)["players"] == 4


@pytest.mark.parametrize("data, words", [
    (b'title = "caf\xe9"\ngame = "sticky"\n', r"not UTF-8 text \(byte 12 is 0xe9\)"),
    (b"\x00\x01binary\xff", "a binary file"),
])
def test_a_spec_that_is_not_text_is_named(tmp_path, data, words):
    path = tmp_path / "bad.toml"
    path.write_bytes(data)
    with pytest.raises(SpecError, match=words):
        SweepSpec.load(path)
    with pytest.raises(SpecError, match="is a folder, not a sweep spec"):
        SweepSpec.load(tmp_path)


def test_every_problem_of_a_spec_is_reported_at_once(tmp_path):
    path = write(tmp_path, 'game = "sticky"\nseed = -3\n[axes]\nplayers = [2, 9]\n'
                 'curses = ["maybe"]\n', "many.toml")
    with pytest.raises(SpecError) as exc:
        SweepSpec.load(path)
    lines = str(exc.value).splitlines()
    assert lines[0] == f"{path}: 4 problems:"
    text = str(exc.value)
    for part in ("key 'seed'", "key 'games': missing", "key 'axes.players' value 9",
                 "key 'axes.curses' value maybe"):
        assert part in text
    assert len(exc.value.problems) == 4
    r = CliRunner().invoke(app, ["sweep", str(path), "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and r.stderr.startswith(f"error: {path}: 4 problems:")
    assert not (tmp_path / "o").exists()
