"""simcore/rules_data.py: loading rules data files, every error path, and overrides."""

import math
import textwrap

import pytest

from simcore.rules_data import RulesData, RulesError, parse_overrides, parse_text_value

GOOD = """
players = { value = 4, min = 2, max = 6, source = "public", note = "2 to 6 players." }
curses = { value = false, source = "rulebook", note = "Optional rule." }
face = { value = "reroll", choices = ["reroll", "any"], source = "assumed", note = "Reading." }
weights = { value = [1.0, 2.0, 3.0], min = 0.0, source = "assumed", note = "Three weights." }
seats = { value = ["a", "b"], min_len = 1, max_len = 4, source = "assumed", note = "Names." }
counts = { value = [1, 2], min = 0, max = 9, source = "assumed", note = "Two counts." }
title = { value = "Demo", source = "rulebook", note = "Box." }

[meta]
game = "demo"
title = "Demo game"

[table]
width_cm = { value = 70.0, min = 10.0, max = 500.0, source = "assumed", note = "Kitchen table." }
depth_cm = { value = 50, min = 10, max = 500, source = "assumed", note = "As width." }

[profiles.expert]
speed = { value = 1.5, min = 0.0, max = 10.0, source = "assumed", note = "Quick." }
"""


def write(tmp_path, text, name="rules.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def good(tmp_path):
    return RulesData.load(write(tmp_path, GOOD))


def error_of(fn):
    with pytest.raises(RulesError) as info:
        fn()
    return str(info.value)


def load_error(tmp_path, text):
    path = write(tmp_path, text + '\n[meta]\ngame = "demo"\n', name="bad.toml")
    return error_of(lambda: RulesData.load(path)), str(path)


# ---- loading --------------------------------------------------------------------------------
def test_load_good_file(good, tmp_path):
    assert good.game == "demo"
    assert good.meta["title"] == "Demo game"
    assert good.path == tmp_path / "rules.toml"
    assert good["players"] == 4
    assert good["curses"] is False
    assert good["face"] == "reroll"
    assert good["weights"] == [1.0, 2.0, 3.0]
    assert good["table.width_cm"] == 70.0
    # an int default under float-valued bounds stays an int; a float value is a float
    assert isinstance(good["table.width_cm"], float)
    assert good["profiles.expert.speed"] == 1.5
    assert "table.depth_cm" in good and "depth_cm" not in good
    assert good.get("nosuch", 3) == 3
    assert sorted(good.keys_under("table.")) == ["table.depth_cm", "table.width_cm"]
    assert good.source_counts() == {"rulebook": 2, "public": 1, "assumed": 7}
    e = good.entries["players"]
    assert (e.kind, e.min, e.max, e.source, e.note) == ("int", 2, 6, "public", "2 to 6 players.")
    assert good.entries["weights"].kind == "list[float]"
    assert good.entries["seats"].kind == "list[str]"
    assert good.entries["counts"].kind == "list[int]"
    # a list without min_len/max_len keeps its default length; with min_len only, any length
    assert (good.entries["weights"].min_len, good.entries["weights"].max_len) == (3, 3)
    assert (good.entries["seats"].min_len, good.entries["seats"].max_len) == (1, 4)
    assert good.resolved()["seats"] == ["a", "b"]
    assert good.overridden == {}


def test_unknown_key_suggests_close_keys(good):
    msg = error_of(lambda: good["playres"])
    assert "rules.toml" in msg and "'playres'" in msg and "did you mean players" in msg
    msg = error_of(lambda: good["table.widht_cm"])
    assert "table.width_cm" in msg
    msg = error_of(lambda: good["zzzzzzzz"])
    assert "did you mean" not in msg and "'zzzzzzzz'" in msg


def test_sticky_rules_file_loads_with_sources_and_notes(sticky):
    rules = sticky.default_rules()
    assert rules.game == "sticky"
    assert rules["players"] == 4
    for entry in rules.entries.values():
        assert entry.source in ("rulebook", "public", "assumed")
        assert entry.note
    counts = rules.source_counts()
    assert sum(counts.values()) == len(rules.entries)
    assert counts["assumed"] > 0 and counts["rulebook"] > 0


# ---- every error path of a file -------------------------------------------------------------
def test_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    msg = error_of(lambda: RulesData.load(path))
    assert str(path) in msg and "not found" in msg


def test_invalid_toml(tmp_path):
    path = write(tmp_path, "players = { value = 4,\n", name="broken.toml")
    msg = error_of(lambda: RulesData.load(path))
    assert str(path) in msg and "not valid TOML" in msg


def test_missing_meta_game(tmp_path):
    path = write(tmp_path, 'x = { value = 1, source = "public", note = "n" }\n')
    msg = error_of(lambda: RulesData.load(path))
    assert str(path) in msg and "'meta.game'" in msg


def test_missing_source(tmp_path):
    msg, path = load_error(tmp_path, 'players = { value = 4, min = 2, note = "n" }')
    assert path in msg
    assert "key 'players'" in msg and "source" in msg
    assert "rulebook" in msg and "public" in msg and "assumed" in msg


def test_missing_value(tmp_path):
    msg, path = load_error(tmp_path, 'players = { source = "public", note = "n" }')
    assert path in msg and "key 'players'" in msg and "'value'" in msg


def test_bad_source(tmp_path):
    msg, path = load_error(tmp_path, 'players = { value = 4, source = "guess", note = "n" }')
    assert path in msg and "key 'players'" in msg and "'guess'" in msg
    assert "rulebook, public, assumed" in msg


@pytest.mark.parametrize("note", ['', 'note = ""', 'note = "   "', "note = 3"])
def test_missing_or_empty_note(tmp_path, note):
    sep = ", " if note else ""
    entry = f'players = {{ value = 4, source = "public"{sep}{note} }}'
    msg, path = load_error(tmp_path, "[grp]\n" + entry)
    assert path in msg and "key 'grp.players'" in msg and "note is required" in msg


def test_unknown_field(tmp_path):
    msg, path = load_error(
        tmp_path, 'players = { value = 4, maximum = 6, source = "public", note = "n" }')
    assert path in msg and "key 'players'" in msg and "maximum" in msg
    for field in ("choices", "max", "max_len", "min", "min_len", "note", "source", "value"):
        assert field in msg


def test_bare_value_instead_of_a_table(tmp_path):
    msg, path = load_error(tmp_path, "players = 4")
    assert path in msg and "key 'players'" in msg
    assert "rulebook|public|assumed" in msg


@pytest.mark.parametrize(
    "line,reason,allowed",
    [
        ('p = { value = 9, min = 2, max = 6, source = "public", note = "n" }',
         "9 is above the maximum", "a int, between 2 and 6"),
        ('p = { value = 1, min = 2, max = 6, source = "public", note = "n" }',
         "1 is below the minimum", "a int, between 2 and 6"),
        ('p = { value = -0.5, min = 0.0, source = "public", note = "n" }',
         "-0.5 is below the minimum", "a float, >= 0.0"),
        ('p = { value = 7.5, max = 5.0, source = "public", note = "n" }',
         "7.5 is above the maximum", "a float, <= 5.0"),
        ('p = { value = "x", choices = ["a", "b"], source = "public", note = "n" }',
         "'x' is not allowed", "a str, one of a, b"),
        ('p = { value = [1.0, 12.0], max = 10.0, source = "public", note = "n" }',
         "item 1: 12.0 is above the maximum", "each float, <= 10.0"),
        ('p = { value = [1, 2], min_len = 3, source = "public", note = "n" }',
         "has 2 items, too few", "a list of 3..any items, each int"),
        ('p = { value = [1, 2, 3], max_len = 2, source = "public", note = "n" }',
         "has 3 items, too many", "a list of 3..2 items"),
    ],
    ids=["above-max", "below-min", "float-min", "float-max", "choice", "list-item",
         "list-short", "list-long"],
)
def test_value_out_of_range_in_file(tmp_path, line, reason, allowed):
    msg, path = load_error(tmp_path, line)
    assert path in msg and "key 'p'" in msg
    assert reason in msg
    assert allowed in msg.split("; allowed: ")[1]


@pytest.mark.parametrize(
    "value", ["[1, \"a\"]", "{ a = 1 }", "1979-05-27", "[[1], [2]]"],
    ids=["mixed-list", "table", "date", "nested-list"],
)
def test_wrong_type_in_file(tmp_path, value):
    msg, path = load_error(tmp_path, f'p = {{ value = {value}, source = "public", note = "n" }}')
    assert path in msg and "key 'p'" in msg and "unsupported value" in msg
    assert "allowed:" in msg and "int" in msg and "list" in msg


# ---- overrides ----------------------------------------------------------------------------
def test_overrides_from_strings(good):
    out = good.with_overrides([
        "players=3", "curses=true", "face=any", "weights=[0.5, 1, 2]",
        "table.width_cm=80", "seats=x,y,z", "title=Other game", "counts=[4, 5]",
    ])
    assert out["players"] == 3 and isinstance(out["players"], int)
    assert out["curses"] is True
    assert out["face"] == "any"
    assert out["weights"] == [0.5, 1.0, 2.0]
    assert all(isinstance(w, float) for w in out["weights"])
    assert out["table.width_cm"] == 80.0 and isinstance(out["table.width_cm"], float)
    assert out["seats"] == ["x", "y", "z"]
    assert out["title"] == "Other game"
    assert out["counts"] == [4, 5]
    assert out.overridden["players"] == 3
    assert set(out.overridden) == {"players", "curses", "face", "weights", "table.width_cm",
                                   "seats", "title", "counts"}
    # the original is untouched
    assert good["players"] == 4 and good["weights"] == [1.0, 2.0, 3.0] and good.overridden == {}
    assert out.resolved()["players"] == 3 and good.resolved()["players"] == 4


def test_overrides_from_a_dict(good):
    out = good.with_overrides({"players": 6, "table.depth_cm": 12, "curses": False,
                               "profiles.expert.speed": 2, "seats": "solo"})
    assert out["players"] == 6
    assert out["table.depth_cm"] == 12
    assert out["profiles.expert.speed"] == 2.0 and isinstance(out["profiles.expert.speed"], float)
    assert out["seats"] == ["solo"]  # a single item becomes a one-item list
    assert out.with_overrides({"players": 2})["players"] == 2
    assert out.with_overrides(None)["players"] == 6
    assert out.with_overrides({"players": 2}).overridden["table.depth_cm"] == 12


def test_bool_words_in_overrides(good):
    assert good.with_overrides(["curses=yes"])["curses"] is True
    assert good.with_overrides(["curses=on"])["curses"] is True
    assert good.with_overrides(["curses=off"])["curses"] is False
    assert good.with_overrides(["curses=false"])["curses"] is False


def test_parse_text_value():
    assert parse_text_value("3") == 3
    assert parse_text_value("2.5") == 2.5
    assert parse_text_value("1e3") == 1000.0
    assert parse_text_value("true") is True
    assert parse_text_value("No") is False
    assert parse_text_value("[1, 2]") == [1, 2]
    assert parse_text_value("1,2.5") == [1, 2.5]
    assert parse_text_value("expert,beginner") == ["expert", "beginner"]
    assert parse_text_value('"quoted"') == "quoted"
    assert parse_text_value("bare word") == "bare word"
    assert math.isnan(parse_text_value("nan"))
    assert parse_overrides(["a = 1", "b=x=y"]) == {"a": 1, "b": "x=y"}
    assert parse_overrides({"a": [1]}) == {"a": [1]}
    assert parse_overrides(None) == {}


@pytest.mark.parametrize(
    "item,reason,allowed",
    [
        ("players=9", "9 is above the maximum", "a int, between 2 and 6"),
        ("players=1", "1 is below the minimum", "a int, between 2 and 6"),
        ("players=abc", "'abc' is not an integer", "a int, between 2 and 6"),
        ("players=3.5", "3.5 is not an integer", "a int, between 2 and 6"),
        ("players=true", "True is not an integer", "a int, between 2 and 6"),
        ("curses=3", "3 is not a bool", "a bool"),
        ("face=sometimes", "'sometimes' is not allowed", "a str, one of reroll, any"),
        ("table.width_cm=5", "5.0 is below the minimum", "a float, between 10.0 and 500.0"),
        ("table.width_cm=wide", "'wide' is not a number", "a float, between 10.0 and 500.0"),
        ("table.width_cm=nan", "NaN is not allowed", "a float, between 10.0 and 500.0"),
        ("weights=[1, 2]", "has 2 items, too few", "a list of exactly 3 items, each float"),
        ("weights=[1, 2, 3, 4]", "has 4 items, too many", "a list of exactly 3 items"),
        ("weights=[1, -2, 3]", "item 1: -2.0 is below the minimum", "each float, >= 0.0"),
        ("weights=1,x,3", "item 1: 'x' is not a number", "each float, >= 0.0"),
        ("seats=[]", "has 0 items, too few", "a list of 1..4 items, each str"),
        ("seats=a,b,c,d,e", "has 5 items, too many", "a list of 1..4 items, each str"),
        ("seats=[1, 2]", "item 0: 1 is not a string", "each str"),
        ("title=5", "5 is not a string", "a str"),
    ],
)
def test_bad_override_names_key_and_allowed_values(good, item, reason, allowed):
    key = item.split("=")[0]
    msg = error_of(lambda: good.with_overrides([item]))
    assert msg.startswith(f"override: key '{key}': ")
    assert reason in msg
    assert allowed in msg.split("; allowed: ")[1]


def test_bad_override_from_dict(good):
    msg = error_of(lambda: good.with_overrides({"players": 7}))
    assert "override: key 'players'" in msg and "between 2 and 6" in msg
    msg = error_of(lambda: good.with_overrides({"weights": [1.0, "heavy", 2.0]}))
    assert "override: key 'weights'" in msg and "item 1: 'heavy' is not a number" in msg
    msg = error_of(lambda: good.with_overrides({"weights": 2.0}))
    assert "override: key 'weights'" in msg and "has 1 items, too few" in msg


def test_unknown_override_key_suggests_close_keys(good):
    msg = error_of(lambda: good.with_overrides(["playrs=3"]))
    assert "'playrs'" in msg and "did you mean players" in msg
    msg = error_of(lambda: good.with_overrides({"table.width": 3}))
    assert "'table.width'" in msg and "table.width_cm" in msg


def test_override_without_equals_sign(good):
    msg = error_of(lambda: good.with_overrides(["players"]))
    assert "'players'" in msg and "key=value" in msg


def test_fail_names_override_or_file(good):
    out = good.with_overrides(["players=3"])
    assert str(out.fail("players", "too many")) == "override: key 'players': too many"
    assert str(out.fail("curses", "bad")).startswith(f"{good.path}: key 'curses': bad")


def test_sticky_configure_rejects_cross_field_conflicts(sticky):
    msg = error_of(lambda: sticky.configure({"players": 6, "components.tentacles": 5}))
    assert "override: key 'players'" in msg and "tentacles" in msg
    msg = error_of(lambda: sticky.configure({"players": 3, "first_player": 3}))
    assert "key 'first_player'" in msg
    msg = error_of(lambda: sticky.configure({"seats": ["expert", "nobody"], "players": 2}))
    assert "key 'seats'" in msg and "'nobody'" in msg and "average, beginner, expert" in msg
    msg = error_of(lambda: sticky.configure({"seats": ["expert", "average"], "players": 3}))
    assert "key 'seats'" in msg and "2 profiles for 3 players" in msg
    msg = error_of(lambda: sticky.configure({"profiles.expert.reaction_mean_s": 0.1,
                                             "seats": "expert"}))
    assert "key 'profiles.expert.reaction_mean_s'" in msg and "reaction_min_s" in msg
