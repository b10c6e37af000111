"""simcore/tec/loader.py: every cross-field check of ``compile_params``, and the ``ip`` it builds.

Each check is triggered through ``GAME.configure`` with values that pass their own key's bounds
but break the cross-field rule.  Where the bundled bounds already exclude the case, a user rules
file (the bundled text with one entry rewritten, its bounds widened) reaches it; the two checks
that no override or user file can reach are run on an edited copy of the bundled file, loaded
the way the bundled file is (without a reference), which is where they still matter.
No game is played: configuration only.
"""

import json

import pytest

from simcore.registry import get_game
from simcore.rules_data import RulesData, RulesError
from simcore.tec import state as S
from simcore.tec.loader import compile_params

GAME = get_game("tec")
BUNDLED = GAME.rules_file.read_text(encoding="utf-8")
DEFAULTS = GAME.default_rules()
PAGE_KEYS = ("pages.cost_blue", "pages.cost_red", "pages.cost_green", "pages.token_1",
             "pages.token_2", "pages.token_3", "pages.rune_1", "pages.rune_2")
TOKEN_KEYS = ("pages.token_1", "pages.token_2", "pages.token_3")


def _span(lines, section):
    """The lines [start, end) holding the entries of ``section`` ("" = the top level)."""
    start = lines.index(f"[{section}]") + 1 if section else 0
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("[")), len(lines))
    return start, end


def edited(entries=None, drop=()):
    """The bundled rules text with each entry of ``entries`` (dotted key -> its fields, e.g.
    ``{"value": 5, "max": 6}``) rewritten, and the tables in ``drop`` removed."""
    lines = BUNDLED.splitlines()
    for key, fields in (entries or {}).items():
        section, _, leaf = key.rpartition(".")
        start, end = _span(lines, section)
        i = next(i for i in range(start, end) if lines[i].startswith(f"{leaf} = {{"))
        body = ", ".join(f"{name} = {json.dumps(v)}" for name, v in fields.items())
        lines[i] = f'{leaf} = {{ {body}, source = "assumed", note = "Test value." }}'
    for section in drop:
        start, end = _span(lines, section)
        del lines[start - 1:end]
    return "\n".join(lines) + "\n"


def write(tmp_path, text):
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(fn):
    with pytest.raises(RulesError) as info:
        fn()
    return str(info.value)


def override_error(overrides):
    return error_of(lambda: GAME.configure(overrides, None))


def user_file_error(tmp_path, entries, overrides=None):
    """The error of a user rules file with ``entries`` rewritten; the message and the path."""
    path = write(tmp_path, edited(entries))
    return error_of(lambda: GAME.configure(overrides, None, path)), str(path)


def bundled_edit_error(tmp_path, entries=None, drop=()):
    """The error of compiling an edited bundled file (loaded without a reference)."""
    rules = RulesData.load(write(tmp_path, edited(entries, drop)))
    return error_of(lambda: compile_params(rules))


def names(msg, key, *fragments):
    """Whether ``msg`` blames ``key`` and says every fragment of the reason."""
    return f"key '{key}'" in msg and all(f in msg for f in fragments)


def without_fives(key):
    return [4 if t == 5 else t for t in DEFAULTS[key]]


def cycled(key, n):
    vals = DEFAULTS[key]
    return [vals[i % len(vals)] for i in range(n)]


# ---- the bundled rules load ------------------------------------------------------------------
def test_bundled_defaults_load():
    """The bundled rules data compiles: ten segments, tentacle end five on, four characters
    named for two players."""
    config = GAME.configure(None, None)
    ip = config.params.ip
    assert ip.shape == (S.I_SIZE,)
    assert ip[S.I_PLAYERS] == 2 and ip[S.I_CHARS] == 2
    assert ip[S.I_N_SEGMENTS] == 10
    assert [ip[S.I_SEG_TENTACLE + k] for k in range(10)] == [(k + 5) % 10 for k in range(10)]
    assert ip[S.I_N_PAGES] == 30 and ip[S.I_ROWS] == 5 and ip[S.I_COLS] == 5
    assert config.params.character_names == ("professor", "detective")
    assert all(front and back for front, back in config.params.town_names)


def test_unedited_user_file_loads(tmp_path):
    """The test's user-file helper alone changes nothing: the copy compiles to the same ip."""
    path = write(tmp_path, edited())
    ip = GAME.configure(None, None, path).params.ip
    assert (ip == GAME.configure(None, None).params.ip).all()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_player_count_loads(players):
    """Solo plays two characters; otherwise one character per player."""
    ip = GAME.configure({"players": players}, None).params.ip
    assert ip[S.I_CHARS] == max(players, 2)


@pytest.mark.parametrize("offset", [1, 3, 9])
def test_tentacle_offset_sets_the_tentacle_segment(offset):
    """A valid non-default offset: the tentacle end lies ``offset`` segments past the pointer."""
    ip = GAME.configure({"wheel.tentacle_offset": offset}, None).params.ip
    n = ip[S.I_N_SEGMENTS]
    assert n == 10
    for k in range(n):
        assert ip[S.I_SEG_TENTACLE + k] == (k + offset) % n


def test_tentacle_offset_on_a_shorter_wheel():
    """Six segments: an offset of 5 is the largest allowed, and wraps round."""
    wheel = {"wheel.icons": ["madness", "shambler", "chaos", "power_blue", "power_red", "extra"],
             "wheel.colours": [0, 1, 2, 0, 1, 2], "wheel.towns": [0, 1, 2, 3, 4, 4],
             "wheel.tentacle_offset": 5}
    ip = GAME.configure(wheel, None).params.ip
    assert ip[S.I_N_SEGMENTS] == 6
    assert [ip[S.I_SEG_TENTACLE + k] for k in range(6)] == [5, 0, 1, 2, 3, 4]


# ---- players and setup counts ----------------------------------------------------------------
def test_players_at_most_the_supported_characters(tmp_path):
    """More than MAX_CHARS characters (reachable only by widening ``players`` in a user file)."""
    msg, path = user_file_error(tmp_path, {"players": {"value": 5, "min": 1, "max": 6}})
    assert msg.startswith(f"{path}: ")
    # the engine's limit names the key and what it holds (issue 30: checked with the others)
    assert names(msg, "players", f"beyond what the simulator supports (1 to {S.MAX_CHARS})")


@pytest.mark.parametrize("overrides, blamed", [
    ({"components.madness_per_colour": 14}, "components.madness_per_colour"),
    ({"setup.discard_madness_per_colour": 4}, "setup.discard_madness_per_colour"),
    ({"setup.shambler_mat_madness_per_colour": 5}, "setup.shambler_mat_madness_per_colour"),
    ({"setup.bag_madness_per_colour": 10}, "setup.bag_madness_per_colour"),
])
def test_setup_madness_must_fit_the_box(overrides, blamed):
    """Bag + Shambler mat + Discard mat Madness of a colour at most the box's; the message
    blames the count that was changed and shows each part."""
    msg = override_error(overrides)
    assert names(msg, blamed, "Madness of a colour", "components.madness_per_colour",
                 "setup.bag_madness_per_colour ", "setup.shambler_mat_madness_per_colour ",
                 "setup.discard_madness_per_colour ")


@pytest.mark.parametrize("overrides, needed", [
    ({"setup.bag_eldritch": 19}, 24),
    ({"setup.bag_eldritch": 17, "difficulty": "madness"}, 24),
    ({"components.eldritch": 7, "difficulty": "hard"}, 9),
])
def test_setup_eldritch_must_fit_the_box(overrides, needed):
    """Bag Eldritch (plus the difficulty's extra) plus one per Town card at most the box's."""
    msg = override_error(overrides)
    assert names(msg, "setup.bag_eldritch", f"setup needs {needed} Eldritch",
                 "components.eldritch")


def test_setup_bag_eldritch_fits_exactly():
    """The largest bag that still fits is accepted (the check is not off by one)."""
    ip = GAME.configure({"setup.bag_eldritch": 18}, None).params.ip
    assert ip[S.I_BAG_ELDRITCH] + S.N_TOWNS * ip[S.I_TOWN_ELDRITCH] == ip[S.I_ELDRITCH]


@pytest.mark.parametrize("overrides", [
    {"players": 4, "components.shamblers_per_colour": 1},
    {"players": 1, "setup.shamblers_per_player": 2, "components.shamblers_per_colour": 1},
])
def test_setup_shamblers_must_fit_the_box(overrides):
    """One Shambler per character (solo: two) at most the three colours' Shamblers."""
    msg = override_error(overrides)
    assert names(msg, "setup.shamblers_per_player", "needs more Shamblers than the 3 that exist")


# ---- turn ------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["turn.move_by_fear", "turn.collect_by_greed",
                                 "turn.cleanup_by_rage"])
@pytest.mark.parametrize("value", [[1, 2], [1, 2, 3, 4]])
def test_temperament_tables_need_three_values(tmp_path, key, value):
    """The Fear/Greed/Rage tables hold one value per 0, 1, 2 tentacles (user file: the bundled
    length bound fixes 3, so a wider bound is given)."""
    msg, _ = user_file_error(tmp_path, {key: {"value": value, "min_len": 1, "max_len": 5}})
    assert names(msg, key, "needs exactly 3 values")


def test_temperament_capacity_at_most_two(tmp_path):
    """The tables cover 0-2 tentacles, so the track holds at most 2 (user file: max widened)."""
    msg, _ = user_file_error(tmp_path,
                             {"turn.temperament_capacity": {"value": 3, "min": 1, "max": 5}})
    assert names(msg, "turn.temperament_capacity", "beyond what the simulator supports (1 to 2)")


# ---- the wheel -------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["wheel.icons", "wheel.colours", "wheel.towns"])
def test_wheel_lists_must_have_the_same_length(key):
    """Icons, colours and towns: one entry per segment; the list that differs from
    wheel.icons is named (or wheel.colours, when wheel.icons itself is the odd one)."""
    msg = override_error({key: DEFAULTS[key][:-1]})
    blamed = "wheel.colours" if key == "wheel.icons" else key
    assert names(msg, blamed, "the same length")


@pytest.mark.parametrize("offset", [10, 11, 31])
def test_tentacle_offset_must_be_less_than_the_segments(offset):
    """The tentacle end lies 1 to n-1 segments from the pointer on a wheel of n."""
    msg = override_error({"wheel.tentacle_offset": offset})
    assert msg.startswith("override: ")
    assert names(msg, "wheel.tentacle_offset", f"{offset} segments", "1 to 9 segments",
                 "wheel of 10 segments")


def test_tentacle_offset_must_be_less_than_a_shortened_wheel():
    """The default offset (5) is too large for a wheel shortened to five segments."""
    wheel = {"wheel.icons": ["madness", "shambler", "chaos", "extra", "madness"],
             "wheel.colours": [0, 1, 2, 0, 1], "wheel.towns": [0, 1, 2, 3, 4]}
    msg = override_error(wheel)
    assert names(msg, "wheel.tentacle_offset", "1 to 4 segments", "wheel of 5 segments")


def test_tentacle_offset_must_be_positive(tmp_path):
    """An offset of 0 (the pointer's own segment; user file: min widened) is refused."""
    msg, _ = user_file_error(tmp_path,
                             {"wheel.tentacle_offset": {"value": 0, "min": 0, "max": 31}})
    assert names(msg, "wheel.tentacle_offset", "beyond what the simulator supports (at least 1)")


def test_wheel_icons_must_be_known():
    """A segment's icon is one of the pointer actions (the key itself lists no choices)."""
    icons = list(DEFAULTS["wheel.icons"])
    icons[4] = "portal"
    msg = override_error({"wheel.icons": icons})
    assert names(msg, "wheel.icons", "segment 4: 'portal'", "allowed: madness")


def test_wheel_towns_must_cover_every_town():
    """Every Town position 0-4 needs a segment beside it."""
    msg = override_error({"wheel.towns": [0, 0, 1, 1, 2, 2, 3, 3, 3, 3]})
    assert names(msg, "wheel.towns", "every Town position 0-4")


# ---- Town cards ------------------------------------------------------------------------------
def test_town_sides_must_not_repeat():
    """Two Town sides on the same card and side: the later one is blamed."""
    msg = override_error({"town.hospital.side": 0})
    assert names(msg, "town.hospital.side", "card 0 side 0 is already 'asylum'")


def test_every_town_card_needs_both_sides(tmp_path):
    """A Town card without a back.  Unreachable through overrides or a user rules file: a user
    file must hold every bundled [town.*] table (at least ten sides), card/side outside 0-4/0-1
    fail earlier with an IndexError, and ten sides in ten slots with no repeat fill them all.
    Only an edit of the bundled file itself (loaded without a reference) reaches it."""
    msg = bundled_edit_error(tmp_path, drop=["town.market"])
    assert names(msg, "town", "Town card 4 has no side 1")


# ---- the Great Old One -----------------------------------------------------------------------
def test_goo_needs_its_table(tmp_path):
    """The chosen Great Old One needs a [great_old_one.*] table.  Unreachable through overrides
    or a user rules file: ``goo`` takes only the bundled choices and a user file must hold every
    bundled table.  Only an edit of the bundled file itself reaches it."""
    msg = bundled_edit_error(tmp_path, {"goo": {"value": "cthulhu",
                                                "choices": list(S.GOOS)}},
                             drop=["great_old_one.cthulhu"])
    assert names(msg, "goo", "no [great_old_one.cthulhu] table")


@pytest.mark.parametrize("phase", [1, 2])
def test_strength_track_at_most_max_strength(tmp_path, phase):
    """A Strength Track longer than MAX_STRENGTH (user file: the length bound widened)."""
    key = f"great_old_one.nyarlathotep.strength_{phase}"
    draws = [3] * (S.MAX_STRENGTH + 1)
    msg, _ = user_file_error(tmp_path, {key: {"value": draws, "max_len": 40}})
    assert names(msg, key, f"holds at most {S.MAX_STRENGTH} values")


# ---- characters ------------------------------------------------------------------------------
@pytest.mark.parametrize("overrides, fragment", [
    ({"players": 3, "characters": ["professor", "detective"]}, "3 characters play but only 2"),
    ({"players": 1, "characters": ["medium"]}, "2 characters play but only 1"),
])
def test_characters_enough_for_every_seat(overrides, fragment):
    """One named character per character played (solo: two)."""
    assert names(override_error(overrides), "characters", fragment)


def test_characters_must_differ():
    """Each player chooses a different Player mat."""
    msg = override_error({"characters": ["medium", "medium", "professor"]})
    assert names(msg, "characters", "a different Player mat")


def test_characters_extra_names_beyond_the_seats_are_ignored():
    """Only the seats' characters are checked: a repeat beyond them is allowed."""
    config = GAME.configure({"characters": ["medium", "professor", "medium"]}, None)
    assert config.params.character_names == ("medium", "professor")


def test_characters_must_be_known():
    """A named character needs a [character.*] table."""
    msg = override_error({"characters": ["professor", "nobody"]})
    assert names(msg, "characters", "'nobody' is not a character", "allowed: professor")


# ---- Page cards and the Necronomicon ---------------------------------------------------------
@pytest.mark.parametrize("key", PAGE_KEYS[1:])
def test_page_lists_one_value_per_card(tmp_path, key):
    """Every Page card list as long as pages.cost_blue (user file: length bound widened)."""
    msg, _ = user_file_error(tmp_path, {key: {"value": cycled(key, 31), "max_len": 31}})
    assert names(msg, key, "one value per Page card (30)")


@pytest.mark.parametrize("n", [S.N_TOWNS - 1, S.MAX_PAGES + 1])
def test_page_count_between_towns_and_max_pages(tmp_path, n):
    """Between N_TOWNS and MAX_PAGES Page cards (user file: every list's length bound
    widened)."""
    entries = {k: {"value": cycled(k, n), "min_len": 1, "max_len": 100} for k in PAGE_KEYS}
    msg, _ = user_file_error(tmp_path, entries)
    bound = (f"needs at least {S.N_TOWNS} values" if n < S.N_TOWNS
             else f"holds at most {S.MAX_PAGES} values")
    assert names(msg, "pages.cost_blue", bound)


@pytest.mark.parametrize("overrides, product, tokens", [
    ({"necronomicon.rows": 4}, 20, 25),
    ({"components.page_tokens": 24}, 25, 24),
])
def test_necronomicon_grid_holds_every_page_token(overrides, product, tokens):
    """rows x columns equals the Page tokens in the box."""
    msg = override_error(overrides)
    assert names(msg, "necronomicon.rows", f"rows x columns ({product})",
                 f"components.page_tokens ({tokens})")


def test_every_page_card_shows_a_first_number():
    """A Page card's first page number is never 0 (none)."""
    msg = override_error({"pages.token_1": [0] + DEFAULTS["pages.token_1"][1:]})
    assert names(msg, "pages.token_1", "card 0 shows no page number")


@pytest.mark.parametrize("key", TOKEN_KEYS)
def test_page_numbers_at_most_the_rows(key):
    """A page number beyond the Necronomicon's rows (a 4 x 5 book; the 5s are left only in
    ``key``) is blamed on the token list that shows it."""
    overrides = {"necronomicon.rows": 4, "components.page_tokens": 20}
    overrides.update({k: without_fives(k) for k in TOKEN_KEYS if k != key})
    card = DEFAULTS[key].index(5)
    msg = override_error(overrides)
    assert names(msg, key, f"card {card}: page 5 but the Necronomicon has 4 rows")


def test_every_page_number_on_enough_cards():
    """Each row's number on at least ``columns`` cards, or the book can never be completed."""
    msg = override_error({k: without_fives(k) for k in TOKEN_KEYS})
    assert names(msg, "pages.token_1", "only 0 cards show page 5", "(5 needed)")


def test_page_number_shortfall_blames_a_list_changed():
    """A shortfall made by changing pages.token_2 and token_3 (token_1 left as it is) names
    one of the lists changed, not token_1."""
    msg = override_error({k: without_fives(k) for k in TOKEN_KEYS[1:]})
    left = DEFAULTS["pages.token_1"].count(5)
    assert names(msg, "pages.token_2", f"only {left} cards show page 5", "(5 needed)")


@pytest.mark.parametrize("overrides", [
    {"components.chaos": 9},
    {"components.chaos": 7, "necronomicon.rows": 4, "necronomicon.columns": 4,
     "components.page_tokens": 16,
     **{k: without_fives(k) for k in TOKEN_KEYS}},
])
def test_necronomicon_chaos_fits_the_box(overrides):
    """One Chaos per row and column at most the box's Chaos."""
    msg = override_error(overrides)
    assert names(msg, "necronomicon.chaos_per_line", "Chaos on the Necronomicon, but",
                 f"components.chaos is {overrides['components.chaos']}")


# ---- what the compiled engine can hold (loader.ENGINE_LIMITS) ----------------------------
# A rules file may declare any bounds (a user edits or widens them), so the loader checks what
# the jitted core can hold itself: a value past these would be written outside its block of
# ``ip`` or index past an array inside numba, silently.

@pytest.mark.parametrize("entries, key, fragment", [
    ({"town.asylum.card": {"value": -1, "min": -1, "max": 4}}, "town.asylum.card",
     "-1 is beyond what the simulator supports (0 to 4)"),
    ({"town.asylum.side": {"value": 2, "min": 0, "max": 2}}, "town.asylum.side",
     "(0 to 1)"),
    ({"wheel.colours": {"value": [0, 1, 2, 1, 0, 3, 1, 0, 2, 1], "min": 0, "max": 3}},
     "wheel.colours", "entry 5: 3 is beyond what the simulator supports (0 to 2)"),
    ({"wheel.towns": {"value": [0, 0, 1, 1, 2, 2, 3, 3, 4, 5], "min": 0, "max": 5}},
     "wheel.towns", "entry 9: 5"),
    ({"great_old_one.yig.portal_colours": {"value": [0, 0, 1, 1, 2, 3], "min": 0, "max": 3,
                                           "min_len": 6, "max_len": 6}},
     "great_old_one.yig.portal_colours", "entry 5: 3"),
    ({"pages.rune_1": {"value": [3] + [0] * 29, "min": -1, "max": 3, "min_len": 1,
                       "max_len": 64}}, "pages.rune_1", "entry 0: 3 is beyond"),
    ({"necronomicon.rows": {"value": 6, "min": 1, "max": 6}}, "necronomicon.rows", "(1 to 5)"),
    ({"components.dice": {"value": 4, "min": 1, "max": 4}}, "components.dice", "(1 to 3)"),
    ({"components.chaos": {"value": -1, "min": -5, "max": 100}}, "components.chaos",
     "(at least 0)"),
    ({"setup.extra_eldritch": {"value": [0, 1], "min": 0, "max": 10, "min_len": 1,
                               "max_len": 5}}, "setup.extra_eldritch", "needs exactly 3 values"),
    ({"character.professor.delirium": {"value": [1] * 11, "min": 0, "max": 3, "min_len": 1,
                                       "max_len": 20}},
     "character.professor.delirium", f"holds at most {S.MAX_DELIRIUM} values, has 11"),
    ({"dice.faces": {"value": [0, 1, 2] * 5, "min": 0, "max": 2, "min_len": 1,
                     "max_len": 20}}, "dice.faces", "holds at most 12 values, has 15"),
])
def test_values_beyond_the_engine_are_refused_whatever_the_file_allows(tmp_path, entries, key,
                                                                        fragment):
    """A user file that widens a key's bounds still cannot pass a value the compiled engine
    cannot hold: the error names the file, the key and the simulator's limit."""
    msg, path = user_file_error(tmp_path, entries)
    assert names(msg, key, fragment) and path in msg


def test_a_wheel_longer_than_the_engine_holds_is_refused(tmp_path):
    """34 segments (the engine holds 32), with every wheel list's bound widened."""
    entries = {k: {"value": (list(DEFAULTS[k]) * 4)[:34], "min_len": 2, "max_len": 40}
               | ({} if k == "wheel.icons" else {"min": 0, "max": 4})
               for k in ("wheel.icons", "wheel.colours", "wheel.towns")}
    entries["wheel.colours"]["max"] = 2
    msg, _ = user_file_error(tmp_path, entries)
    assert names(msg, "wheel.icons", f"holds at most {S.MAX_SEGMENTS} values, has 34")


def test_engine_limits_also_guard_an_edited_bundled_file(tmp_path):
    """The bundled file itself may be edited in place (users test variants that way): its
    own bounds are not trusted either."""
    msg = bundled_edit_error(tmp_path, {"town.asylum.card": {"value": 7, "min": 0, "max": 9}})
    assert names(msg, "town.asylum.card", "7 is beyond what the simulator supports (0 to 4)")


def test_every_engine_limit_names_keys_that_exist():
    """Each ENGINE_LIMITS pattern matches at least one key of the bundled file, so a renamed
    key cannot silently drop its check."""
    from simcore.rules_data import limit_keys
    from simcore.tec.loader import ENGINE_LIMITS

    for pattern, *_ in ENGINE_LIMITS:
        assert limit_keys(DEFAULTS, pattern), pattern
