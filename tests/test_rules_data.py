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
         "9 is above the maximum", "an int, between 2 and 6"),
        ('p = { value = 1, min = 2, max = 6, source = "public", note = "n" }',
         "1 is below the minimum", "an int, between 2 and 6"),
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
        ("players=9", "9 is above the maximum", "an int, between 2 and 6"),
        ("players=1", "1 is below the minimum", "an int, between 2 and 6"),
        ("players=abc", "'abc' is not an integer", "an int, between 2 and 6"),
        ("players=3.5", "3.5 is not an integer", "an int, between 2 and 6"),
        ("players=true", "True is not an integer", "an int, between 2 and 6"),
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


def test_fail_mentions_the_override_that_caused_a_cross_field_error(good):
    out = good.with_overrides(["table.depth_cm=20", "curses=true"])
    msg = str(out.fail("table.width_cm", "must exceed table.depth_cm"))
    assert msg.startswith(f"{good.path}: key 'table.width_cm': must exceed table.depth_cm")
    assert "(with the override table.depth_cm=20)" in msg and "curses" not in msg
    # an override the reason does not name is still shown as in effect
    msg = str(out.fail("players", "too many for this table"))
    assert "overrides in effect: table.depth_cm=20, curses=true" in msg


def test_sticky_cross_field_error_from_an_override_names_it(sticky):
    msg = error_of(lambda: sticky.configure({"components.tentacles": 3}))
    assert "key 'players'" in msg and "with the override components.tentacles=3" in msg


def test_unknown_override_key_says_so_and_lists_keys(good):
    msg = error_of(lambda: good.with_overrides(["playrs=3"]))
    assert msg.startswith("override: key 'playrs': unknown override key; did you mean players?")
    assert "cthulhu-sim games demo" in msg
    msg = error_of(lambda: good.with_overrides(["zzzzzz=3"]))
    assert "unknown override key" in msg and "did you mean" not in msg
    assert "allowed keys: players, curses, face" in msg and "table.* (2 keys)" in msg


# ---- a user's rules data file, checked against the bundled one -------------------------------
REF = GOOD + """
[profiles.novice]
speed = { value = 0.5, min = 0.0, max = 10.0, source = "assumed", note = "Slow." }
"""


@pytest.fixture
def ref(tmp_path):
    return RulesData.load(write(tmp_path, REF, name="bundled.toml"))


def user_file(tmp_path, text):
    return write(tmp_path, text, name="mine.toml")


def user_error(tmp_path, ref, text):
    path = user_file(tmp_path, text)
    return error_of(lambda: RulesData.load(path, reference=ref)), str(path)


@pytest.mark.parametrize(
    "old,new,key,reason",
    [
        ("value = 4, min = 2", "value = 4.0, min = 2", "players",
         "4.0 is not an integer; allowed: an int, between 2 and 6"),
        ("value = 4, min = 2", 'value = "five", min = 2', "players", "'five' is not an integer"),
        ('value = "reroll"', "value = 1", "face", "1 is not a string"),
        ("value = false", "value = 0", "curses", "0 is not a bool"),
        ("value = [1.0, 2.0, 3.0]", 'value = [1.0, "x", 3.0]', "weights",
         "item 1: 'x' is not a number"),
        ("value = [1.0, 2.0, 3.0]", "value = [1.0, 2.0]", "weights", "has 2 items, too few"),
        ('value = ["a", "b"]', "value = 3", "seats", "3 is not a list"),
        ("value = 1.5, min", "value = { a = 1 }, min", "profiles.expert.speed",
         "{'a': 1} is not a number"),
    ],
    ids=["float-for-int", "str-for-int", "int-for-str", "int-for-bool", "list-item",
         "list-length", "scalar-for-list", "table-for-float"],
)
def test_user_file_values_take_the_bundled_kind(tmp_path, ref, old, new, key, reason):
    assert old in REF
    msg, path = user_error(tmp_path, ref, REF.replace(old, new, 1))
    assert msg.startswith(f"{path}: key '{key}': "), msg
    assert reason in msg


def test_user_file_int_where_a_float_is_expected_is_that_float(tmp_path, ref):
    text = REF.replace("width_cm = { value = 70.0", "width_cm = { value = 70").replace(
        "value = [1.0, 2.0, 3.0]", "value = [1, 2, 3]")
    mine = RulesData.load(user_file(tmp_path, text), reference=ref)
    assert mine["table.width_cm"] == 70.0 and isinstance(mine["table.width_cm"], float)
    assert mine.entries["table.width_cm"].kind == "float"
    assert mine["weights"] == [1.0, 2.0, 3.0] and all(isinstance(w, float)
                                                      for w in mine["weights"])
    out = mine.with_overrides(["table.width_cm=72.5"])  # a float override of a float key
    assert out["table.width_cm"] == 72.5
    # without the bundled file the same text is read on its own terms (an int)
    alone = RulesData.load(user_file(tmp_path, text))
    assert alone.entries["table.width_cm"].kind == "int"


def test_user_file_missing_key_is_reported_as_missing(tmp_path, ref):
    text = "\n".join(line for line in REF.splitlines()
                     if not line.startswith(("players", "title")))
    msg, path = user_error(tmp_path, ref, text)
    assert msg.startswith(f"{path}: key 'players': missing")
    assert str(ref.path) in msg and "also missing: title" in msg


def test_user_file_unknown_key_is_reported_as_unknown(tmp_path, ref):
    text = REF.replace("[table]\n", '[table]\nwidht_cm = { value = 1.0, source = "assumed", '
                                    'note = "n" }\n')
    msg, path = user_error(tmp_path, ref, text)
    assert msg.startswith(f"{path}: key 'table.widht_cm': unknown key")
    assert "did you mean table.width_cm" in msg


def test_user_file_for_another_game(tmp_path, ref):
    msg, path = user_error(tmp_path, ref, REF.replace('game = "demo"', 'game = "other"'))
    assert msg.startswith(f"{path}: key 'meta.game': 'other' is not 'demo'")


def test_user_file_may_add_an_item_to_a_collection(tmp_path, ref):
    new = '[profiles.mine]\nspeed = { value = 2, source = "assumed", note = "Mine." }\n'
    mine = RulesData.load(user_file(tmp_path, REF + new), reference=ref)
    assert mine["profiles.mine.speed"] == 2.0
    # bounds it leaves out are its siblings'
    assert (mine.entries["profiles.mine.speed"].min, mine.entries["profiles.mine.speed"].max) \
        == (0.0, 10.0)
    msg, path = user_error(tmp_path, ref, REF + new.replace("value = 2", "value = 11"))
    assert "key 'profiles.mine.speed'" in msg and "11.0 is above the maximum" in msg
    # a new item needs every key its siblings have
    msg, path = user_error(tmp_path, ref, REF + '[profiles.mine]\nspead = { value = 2, '
                           'source = "assumed", note = "Mine." }\n')
    assert msg.startswith(f"{path}: key 'profiles.mine.spead': unknown key")


def test_user_file_new_collection_item_missing_a_key(tmp_path):
    two = REF.replace('speed = { value = 0.5', 'grip = { value = 1, min = 0, max = 3, '
                      'source = "assumed", note = "n" }\nspeed = { value = 0.5').replace(
        'speed = { value = 1.5', 'grip = { value = 2, min = 0, max = 3, source = "assumed", '
        'note = "n" }\nspeed = { value = 1.5')
    ref = RulesData.load(write(tmp_path, two, name="bundled.toml"))
    msg, path = user_error(tmp_path, ref, two + '[profiles.mine]\nspeed = { value = 2.0, '
                           'source = "assumed", note = "Mine." }\n')
    assert msg.startswith(f"{path}: key 'profiles.mine.grip': missing (a new [profiles.mine] "
                          "needs every key the other [profiles.*] tables have (grip, speed))")


def test_user_file_bounds_and_choices(tmp_path, ref):
    # a bound left out is the bundled one; a bound given is the file's
    mine = RulesData.load(user_file(tmp_path, REF.replace(", min = 2, max = 6", "")),
                          reference=ref)
    assert (mine.entries["players"].min, mine.entries["players"].max) == (2, 6)
    wider = REF.replace("min = 2, max = 6", "min = 2, max = 8")
    assert RulesData.load(user_file(tmp_path, wider), reference=ref).entries["players"].max == 8
    # choices must be ones the simulator knows
    msg, path = user_error(tmp_path, ref, REF.replace('["reroll", "any"]', '["reroll", "odd"]'))
    assert msg.startswith(f"{path}: key 'face': choices odd are not ones the simulator knows")
    assert "allowed: reroll, any" in msg


@pytest.mark.parametrize(
    "field,reason",
    [('min = "2"', "field 'min': '2' is not a number"),
     ("max = true", "field 'max': True is not a number"),
     ('choices = "ab"', "field 'choices': 'ab' is not a list"),
     ("min_len = -1", "field 'min_len': -1 is not a non-negative integer")],
)
def test_malformed_bounds_are_reported_not_raised(tmp_path, ref, field, reason):
    line = f'p = {{ value = 3, {field}, source = "public", note = "n" }}'
    msg, path = load_error(tmp_path, line)
    assert msg.startswith(f"{path}: key 'p': {reason}")


def test_meta_not_a_table(tmp_path):
    path = write(tmp_path, 'meta = 3\np = { value = 1, source = "public", note = "n" }\n')
    msg = error_of(lambda: RulesData.load(path))
    assert "key 'meta'" in msg and "not a table" in msg


def sticky_variant(tmp_path, old, new):
    from simcore.sticky.game import Sticky

    text = Sticky.rules_file.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "my-sticky.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "old,new,reason",
    [
        ("players = { value = 4,", "players = { value = 4.0,",
         "key 'players': 4.0 is not an integer"),
        ("tokens_to_win = { value = 5,", 'tokens_to_win = { value = "five",',
         "key 'components.tokens_to_win': 'five' is not an integer"),
        ("max_throws = { value = 60,", "max_thrown = { value = 60,",
         "key 'max_thrown': unknown key"),
        # values no engine can hold, even where the file widens the key's bounds
        ("width_cm = { value = 70.0, min = 10.0, max = 500.0,",
         "width_cm = { value = inf, min = 10.0, max = inf,",
         "key 'table.width_cm': inf is not allowed (values must be finite)"),
        ("max_turns = { value = 200, min = 1, max = 100000,",
         "max_turns = { value = 99999999999999999999, min = 1, max = 1e30,",
         "key 'max_turns': 99999999999999999999 does not fit the simulator's 64-bit integers"),
        ("max_turns = { value = 200, min = 1, max = 100000,",
         "max_turns = { value = 5, min = 7, max = 3,",
         "key 'max_turns': field 'min' (7) is above field 'max' (3)"),
    ],
    ids=["float-players", "string-tokens", "renamed-key", "infinite-float", "huge-int",
         "min-above-max"],
)
def test_sticky_user_rules_file_errors_name_file_and_key(sticky, tmp_path, old, new, reason):
    path = sticky_variant(tmp_path, old, new)
    msg = error_of(lambda: sticky.configure(rules_path=path))
    assert msg.startswith(f"{path}: {reason}"), msg


def test_sticky_user_rules_file_removed_key_is_missing(sticky, tmp_path):
    from simcore.sticky.game import Sticky

    text = Sticky.rules_file.read_text(encoding="utf-8")
    path = tmp_path / "my-sticky.toml"
    path.write_text("\n".join(line for line in text.splitlines()
                              if not line.startswith("max_throws")), encoding="utf-8")
    msg = error_of(lambda: sticky.configure(rules_path=path))
    assert msg.startswith(f"{path}: key 'max_throws': missing")


def test_bundled_rules_files_pass_their_own_check():
    from simcore.registry import game_names, get_game

    for name in game_names():
        g = get_game(name)
        copy = g.load_rules(g.rules_file)
        bundled = g.default_rules()
        assert copy.resolved() == bundled.resolved()
        assert {k: e.kind for k, e in copy.entries.items()} == \
            {k: e.kind for k, e in bundled.entries.items()}


def test_sticky_user_rules_file_int_reach_takes_a_float_override(sticky, tmp_path):
    path = sticky_variant(tmp_path, "reach_cm = { value = 2.0,", "reach_cm = { value = 2,")
    config = sticky.configure(["table.reach_cm=2.5"], rules_path=path)
    assert config.rules["table.reach_cm"] == 2.5
    assert sticky.configure(rules_path=path).rules["table.reach_cm"] == 2.0


def test_sticky_user_rules_file_may_add_a_profile(sticky, tmp_path):
    profile = "\n".join(
        f'{k} = {{ value = {v}, source = "assumed", note = "Mine." }}'
        for k, v in (("reaction_min_s", 0.3), ("reaction_mean_s", 1.5), ("rethrow_s", 1),
                     ("aim_sd_cm", 3), ("detach_s", 0.7), ("notice_p", 0.85)))
    path = sticky_variant(tmp_path, "[profiles.beginner]",
                          f"[profiles.mine]\n{profile}\n\n[profiles.beginner]")
    config = sticky.configure({"seats": "mine"}, rules_path=path)
    assert config.params.seat_profiles == ("mine",) * 4
    assert config.rules["profiles.mine.rethrow_s"] == 1.0


def test_configure_turns_a_loader_crash_into_a_rules_error(sticky, monkeypatch):
    for exc in (TypeError("unsupported operand"), KeyError("nosuch"), ValueError("bad"),
                IndexError("out of range")):
        def crash(rules, exc=exc):
            raise exc

        monkeypatch.setattr(sticky, "compile_params", crash)
        msg = error_of(lambda: sticky.configure({"players": 3}))
        assert msg.startswith(f"{sticky.rules_file}: the rules data with overrides players=3 "
                              "cannot be used: ")
        assert type(exc).__name__ in msg
    # the game's own RulesError messages pass through unchanged
    monkeypatch.setattr(sticky, "compile_params",
                        lambda rules: (_ for _ in ()).throw(rules.fail("players", "no")))
    assert error_of(lambda: sticky.configure()) == f"{sticky.rules_file}: key 'players': no"


def test_python_values_from_numpy_and_tuples_are_accepted(sticky):
    """From Python, numpy scalars (as from a DataFrame) and tuples are taken as the plain
    values and lists they hold."""
    import numpy as np

    config = sticky.configure({"players": np.int64(4), "curses": np.True_,
                               "table.width_cm": np.float32(60.0),
                               "seats": ("expert", "beginner", "beginner", "beginner")})
    assert config.rules["players"] == 4 and type(config.rules["players"]) is int
    assert config.rules["curses"] is True
    assert config.rules["table.width_cm"] == 60.0
    assert config.params.seat_profiles == ("expert", "beginner", "beginner", "beginner")
    msg = error_of(lambda: sticky.configure({"players": np.int64(9)}))
    assert "key 'players': 9 is above the maximum" in msg


def test_overrides_refuse_infinite_and_oversized_values(sticky):
    assert "must be finite" in error_of(lambda: sticky.configure({"turn.roll_s": float("inf")}))
    assert "64-bit" in error_of(lambda: sticky.configure({"max_throws": 2**70}))
