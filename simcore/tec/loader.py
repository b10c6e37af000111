"""Tiny Epic Cthulhu: validate the rules data and flatten it into the ``ip`` vector."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.engine import fill_param_header
from simcore.rules_data import Limit, RulesData, check_limits
from simcore.tec import state as S


class TecParams(NamedTuple):
    ip: np.ndarray  # int64[I_SIZE]
    fp: np.ndarray  # float64: the game has no float parameters (one unused word)
    town_names: tuple[tuple[str, str], ...]  # [card] -> (front name, back name)
    character_names: tuple[str, ...]  # per seat


def _names_under(rules: RulesData, prefix: str) -> list[str]:
    out: list[str] = []
    for k in rules.keys_under(prefix):
        name = k[len(prefix):].split(".")[0]
        if name not in out:
            out.append(name)
    return out


TOKEN_KEYS = ("pages.token_1", "pages.token_2", "pages.token_3")
N_SETUP_DECISIONS = S.N_TOWNS  # the Town cards' sides


def blamed(rules: RulesData, keys: tuple[str, ...]) -> str:
    """The key a cross-field check blames: the first of ``keys`` that was overridden (the
    likely cause), else the first."""
    for k in keys:
        if k in rules.overridden:
            return k
    return keys[0]


# What the compiled engine can hold, whatever bounds a rules file declares (a user may edit
# or widen them): (key or "prefix.*.suffix", lowest, highest, fewest entries, most entries).
# A value beyond these would be written past its block of ``ip`` or index past an array in
# the jitted core, so it is refused here with the key named.  None: no limit.
ENGINE_LIMITS: tuple[Limit, ...] = (
    ("players", 1, S.MAX_CHARS, None, None),
    ("components.portals", S.N_PORTALS, S.N_PORTALS, None, None),  # (the board's six)
    ("components.madness_per_colour", 0, None, None, None),
    ("components.chaos", 0, None, None, None),
    ("components.eldritch", 0, None, None, None),
    ("components.shamblers_per_colour", 0, None, None, None),
    ("components.page_tokens", 1, S.MAX_ROWS * S.MAX_COLS, None, None),
    ("components.dice", 1, S.MAX_DICE, None, None),
    ("setup.bag_eldritch", 0, None, None, None),
    ("setup.extra_eldritch", 0, None, len(S.DIFFICULTIES), len(S.DIFFICULTIES)),
    ("setup.bag_madness_per_colour", 0, None, None, None),
    ("setup.shambler_mat_madness_per_colour", 0, None, None, None),
    ("setup.discard_madness_per_colour", 0, None, None, None),
    ("setup.town_eldritch", 0, None, None, None),
    ("setup.shamblers_per_player", 0, None, None, None),
    ("turn.actions", 0, None, None, None),
    ("turn.temperament_capacity", 1, 2, None, None),
    ("turn.chaos_capacity", 0, None, None, None),
    ("turn.move_by_fear", 0, None, 3, 3),
    ("turn.collect_by_greed", 0, None, 3, 3),
    ("turn.cleanup_by_rage", 0, None, 3, 3),
    ("dice.faces", 0, None, 1, 12),
    ("wheel.tentacle_offset", 1, None, None, None),
    ("wheel.icons", None, None, 2, S.MAX_SEGMENTS),
    ("wheel.colours", 0, S.N_COLOURS - 1, None, None),
    ("wheel.towns", 0, S.N_TOWNS - 1, None, None),
    ("town.*.card", 0, S.N_TOWNS - 1, None, None),
    ("town.*.side", 0, 1, None, None),
    ("town.*.amount", 0, None, None, None),
    ("town.*.madness_track", 1, None, None, None),
    ("town.*.shambler_track", 1, None, None, None),
    ("great_old_one.*.strength_1", 0, None, 1, S.MAX_STRENGTH),
    ("great_old_one.*.strength_2", 0, None, 1, S.MAX_STRENGTH),
    ("great_old_one.*.energy_1", 1, None, None, None),
    ("great_old_one.*.energy_2", 1, None, None, None),
    ("great_old_one.*.powers_1", None, None, S.N_COLOURS, S.N_COLOURS),
    ("great_old_one.*.powers_2", None, None, S.N_COLOURS, S.N_COLOURS),
    ("great_old_one.*.power_amounts_1", 0, None, S.N_COLOURS, S.N_COLOURS),
    ("great_old_one.*.power_amounts_2", 0, None, S.N_COLOURS, S.N_COLOURS),
    ("great_old_one.*.portal_colours", 0, S.N_COLOURS - 1, S.N_PORTALS, S.N_PORTALS),
    ("great_old_one.*.portal_numbers", None, None, S.N_PORTALS, S.N_PORTALS),
    ("character.*.amount", 0, None, None, None),
    ("character.*.delirium", 0, None, 1, S.MAX_DELIRIUM),
    ("pages.cost_blue", 0, None, S.N_TOWNS, S.MAX_PAGES),
    ("pages.cost_red", 0, None, None, None),
    ("pages.cost_green", 0, None, None, None),
    ("pages.token_1", 0, S.MAX_ROWS, None, None),
    ("pages.token_2", 0, S.MAX_ROWS, None, None),
    ("pages.token_3", 0, S.MAX_ROWS, None, None),
    ("pages.rune_1", -1, S.N_COLOURS - 1, None, None),
    ("pages.rune_2", -1, S.N_COLOURS - 1, None, None),
    ("necronomicon.rows", 1, S.MAX_ROWS, None, None),
    ("necronomicon.columns", 1, S.MAX_COLS, None, None),
    ("necronomicon.chaos_per_line", 0, None, None, None),
    ("max_turns", 1, None, None, None),
    ("max_actions_per_turn", 1, None, None, None),
)


def compile_params(rules: RulesData) -> TecParams:
    check_limits(rules, ENGINE_LIMITS)
    ip = np.zeros(S.I_SIZE, dtype=np.int64)
    players = rules["players"]
    n_chars = 2 if players == 1 else players  # TEC-M-2: solo plays two characters
    if n_chars > S.MAX_CHARS:
        raise rules.fail("players", f"at most {S.MAX_CHARS} characters are supported")
    ip[S.I_PLAYERS] = players
    ip[S.I_CHARS] = n_chars

    ip[S.I_MADNESS] = rules["components.madness_per_colour"]
    ip[S.I_CHAOS] = rules["components.chaos"]
    ip[S.I_ELDRITCH] = rules["components.eldritch"]
    ip[S.I_SHAMBLERS] = rules["components.shamblers_per_colour"]
    ip[S.I_PAGE_TOKENS] = rules["components.page_tokens"]
    ip[S.I_DICE] = rules["components.dice"]

    difficulty = S.DIFFICULTIES.index(rules["difficulty"])
    ip[S.I_DIFFICULTY] = difficulty
    extra = rules["setup.extra_eldritch"]
    ip[S.I_BAG_ELDRITCH] = rules["setup.bag_eldritch"] + extra[difficulty]
    ip[S.I_BAG_MADNESS] = rules["setup.bag_madness_per_colour"]
    ip[S.I_SMAT_MADNESS] = rules["setup.shambler_mat_madness_per_colour"]
    ip[S.I_DISC_MADNESS] = rules["setup.discard_madness_per_colour"]
    ip[S.I_TOWN_ELDRITCH] = rules["setup.town_eldritch"]
    ip[S.I_SHAMBLERS_PER_PLAYER] = rules["setup.shamblers_per_player"]
    placed = ip[S.I_BAG_MADNESS] + ip[S.I_SMAT_MADNESS] + ip[S.I_DISC_MADNESS]
    if placed > ip[S.I_MADNESS]:
        parts = ("setup.bag_madness_per_colour", "setup.shambler_mat_madness_per_colour",
                 "setup.discard_madness_per_colour")
        raise rules.fail(
            blamed(rules, parts + ("components.madness_per_colour",)),
            f"setup places {placed} Madness of a colour ("
            + " + ".join(f"{k} {rules[k]}" for k in parts)
            + f") but only components.madness_per_colour = {ip[S.I_MADNESS]} exist")
    eld = ip[S.I_BAG_ELDRITCH] + S.N_TOWNS * ip[S.I_TOWN_ELDRITCH]
    if eld > ip[S.I_ELDRITCH]:
        raise rules.fail("setup.bag_eldritch", f"setup needs {eld} Eldritch but "
                         f"components.eldritch is {ip[S.I_ELDRITCH]}")
    if ip[S.I_SHAMBLERS_PER_PLAYER] * n_chars > S.N_COLOURS * ip[S.I_SHAMBLERS]:
        raise rules.fail("setup.shamblers_per_player",
                         f"{ip[S.I_SHAMBLERS_PER_PLAYER]} per character x {n_chars} characters "
                         f"needs more Shamblers than the {S.N_COLOURS * ip[S.I_SHAMBLERS]} that "
                         "exist (components.shamblers_per_colour of each colour)")

    ip[S.I_ACTIONS] = rules["turn.actions"]
    ip[S.I_TEMP_CAP] = rules["turn.temperament_capacity"]
    ip[S.I_CHAOS_CAP] = rules["turn.chaos_capacity"]
    for key, off in (("turn.move_by_fear", S.I_MOVE_BY_FEAR),
                     ("turn.collect_by_greed", S.I_COLLECT_BY_GREED),
                     ("turn.cleanup_by_rage", S.I_CLEANUP_BY_RAGE)):
        # three values (ENGINE_LIMITS): for 0, 1 and 2 tentacles on the track, which is why
        # turn.temperament_capacity is at most 2
        ip[off:off + 3] = rules[key]

    faces = rules["dice.faces"]
    ip[S.I_N_FACES] = len(faces)
    ip[S.I_FACES:S.I_FACES + len(faces)] = faces

    icons = rules["wheel.icons"]
    colours = rules["wheel.colours"]
    towns = rules["wheel.towns"]
    for key, vals in (("wheel.colours", colours), ("wheel.towns", towns)):
        if len(vals) != len(icons):
            raise rules.fail(key, f"{len(vals)} entries but wheel.icons has {len(icons)}: "
                             "wheel.icons, wheel.colours and wheel.towns must have one entry "
                             "per segment (the same length)")
    offset = rules["wheel.tentacle_offset"]
    if not 0 < offset < len(icons):
        raise rules.fail("wheel.tentacle_offset", f"{offset} segments: the tentacle end must be "
                         f"1 to {len(icons) - 1} segments from the pointer on a wheel of "
                         f"{len(icons)} segments")
    for k, name in enumerate(icons):
        if name not in S.ICONS:
            raise rules.fail("wheel.icons", f"segment {k}: {name!r}; allowed: {', '.join(S.ICONS)}")
        ip[S.I_SEG_ICON + k] = S.ICONS.index(name)
        ip[S.I_SEG_COLOUR + k] = colours[k]
        ip[S.I_SEG_TOWN + k] = towns[k]
        ip[S.I_SEG_TENTACLE + k] = (k + offset) % len(icons)
    if set(towns) != set(range(S.N_TOWNS)):
        raise rules.fail("wheel.towns", "every Town position 0-4 needs at least one segment")
    ip[S.I_N_SEGMENTS] = len(icons)

    ip[S.I_TOWN_SIDES] = ("strategy", "random", "front", "back").index(rules["town_sides"])
    town_names: list[list[str]] = [["", ""] for _ in range(S.N_TOWNS)]
    for name in _names_under(rules, "town."):
        card = rules[f"town.{name}.card"]
        side = rules[f"town.{name}.side"]
        if town_names[card][side]:
            raise rules.fail(f"town.{name}.side", f"card {card} side {side} is already "
                             f"{town_names[card][side]!r}")
        town_names[card][side] = name
        k = card * 2 + side
        ip[S.I_SIDE_ACTION + k] = S.TOWN_ACTIONS.index(rules[f"town.{name}.action"])
        ip[S.I_SIDE_AMOUNT + k] = rules[f"town.{name}.amount"]
        ip[S.I_SIDE_MAD_LEN + k] = rules[f"town.{name}.madness_track"]
        ip[S.I_SIDE_SH_LEN + k] = rules[f"town.{name}.shambler_track"]
    for card in range(S.N_TOWNS):
        for side in range(2):
            if not town_names[card][side]:
                raise rules.fail("town", f"Town card {card} has no side {side}: each of the 5 "
                                 "cards needs a front (side 0) and a back (side 1)")

    goo = rules["goo"]
    ip[S.I_GOO] = S.GOOS.index(goo)
    base = f"great_old_one.{goo}"
    if f"{base}.portal_numbers" not in rules:
        raise rules.fail("goo", f"no [great_old_one.{goo}] table in the rules data")
    for ph in range(2):
        draws = rules[f"{base}.strength_{ph + 1}"]
        ip[S.I_STR_LEN + ph] = len(draws)
        ip[S.I_STR_DRAW + ph * S.MAX_STRENGTH:S.I_STR_DRAW + ph * S.MAX_STRENGTH + len(draws)] \
            = draws
        ip[S.I_ENERGY_LEN + ph] = rules[f"{base}.energy_{ph + 1}"]
        powers = rules[f"{base}.powers_{ph + 1}"]
        amounts = rules[f"{base}.power_amounts_{ph + 1}"]
        for c in range(S.N_COLOURS):
            ip[S.I_POWER + ph * 3 + c] = S.POWERS.index(powers[c])
            ip[S.I_POWER_N + ph * 3 + c] = amounts[c]
    ip[S.I_PORTAL_COLOUR:S.I_PORTAL_COLOUR + S.N_PORTALS] = rules[f"{base}.portal_colours"]
    ip[S.I_PORTAL_NUMBER:S.I_PORTAL_NUMBER + S.N_PORTALS] = rules[f"{base}.portal_numbers"]

    chars = list(rules["characters"])
    known = _names_under(rules, "character.")
    if len(chars) < n_chars:
        raise rules.fail("characters", f"{n_chars} characters play but only {len(chars)} "
                         f"{'is' if len(chars) == 1 else 'are'} named")
    chars = chars[:n_chars]
    if len(set(chars)) != len(chars):
        raise rules.fail("characters", "each player chooses a different Player mat")
    for seat, name in enumerate(chars):
        if name not in known:
            raise rules.fail("characters", f"{name!r} is not a character; allowed: "
                             f"{', '.join(known)}")
        ip[S.I_CHAR_ABILITY + seat] = S.ABILITIES.index(rules[f"character.{name}.ability"])
        ip[S.I_CHAR_AMOUNT + seat] = rules[f"character.{name}.amount"]
        track = rules[f"character.{name}.delirium"]
        ip[S.I_CHAR_DEL_LEN + seat] = len(track)
        ip[S.I_CHAR_DEL + seat * S.MAX_DELIRIUM:S.I_CHAR_DEL + seat * S.MAX_DELIRIUM
           + len(track)] = track

    cb, cr, cg = rules["pages.cost_blue"], rules["pages.cost_red"], rules["pages.cost_green"]
    t1, t2, t3 = (rules[k] for k in TOKEN_KEYS)
    r1, r2 = rules["pages.rune_1"], rules["pages.rune_2"]
    n_pages = len(cb)
    for key, vals in (("pages.cost_red", cr), ("pages.cost_green", cg), ("pages.token_1", t1),
                      ("pages.token_2", t2), ("pages.token_3", t3), ("pages.rune_1", r1),
                      ("pages.rune_2", r2)):
        if len(vals) != n_pages:
            raise rules.fail(key, f"must list one value per Page card ({n_pages})")
    rows = rules["necronomicon.rows"]
    cols = rules["necronomicon.columns"]
    if rows * cols != ip[S.I_PAGE_TOKENS]:
        raise rules.fail("necronomicon.rows", f"rows x columns ({rows * cols}) must equal "
                         f"components.page_tokens ({ip[S.I_PAGE_TOKENS]})")
    supply = [0] * (S.MAX_ROWS + 1)
    ip[S.I_N_PAGES] = n_pages
    for i in range(n_pages):
        ip[S.I_PAGE_COST + i * 3:S.I_PAGE_COST + i * 3 + 3] = (cb[i], cr[i], cg[i])
        toks = (t1[i], t2[i], t3[i])
        if toks[0] == 0:
            raise rules.fail("pages.token_1", f"card {i} shows no page number")
        for k, t in enumerate(toks):
            if t > rows:
                raise rules.fail(f"pages.token_{k + 1}",
                                 f"card {i}: page {t} but the Necronomicon has {rows} rows")
            supply[t] += 1
            ip[S.I_PAGE_TOK + i * 3 + k] = t
        for r in (r1[i], r2[i]):
            if r >= 0:
                ip[S.I_PAGE_RUNE + i * 3 + r] += 1
    for n in range(1, rows + 1):
        if supply[n] < cols:
            raise rules.fail(
                blamed(rules, TOKEN_KEYS + ("necronomicon.columns",)),
                f"only {supply[n]} cards show page {n} (on pages.token_1/2/3): the "
                f"Necronomicon could never be completed ({cols} needed)")
    ip[S.I_ROWS] = rows
    ip[S.I_COLS] = cols
    ip[S.I_LINE_CHAOS] = rules["necronomicon.chaos_per_line"]
    if ip[S.I_LINE_CHAOS] * (rows + cols) > ip[S.I_CHAOS]:
        raise rules.fail("necronomicon.chaos_per_line",
                         f"{ip[S.I_LINE_CHAOS]} per line x {rows + cols} rows and columns = "
                         f"{ip[S.I_LINE_CHAOS] * (rows + cols)} Chaos on the Necronomicon, but "
                         f"components.chaos is {ip[S.I_CHAOS]}")

    ip[S.I_TRANSLATE_DOWN] = 1 if rules["translate_face_down"] else 0
    ip[S.I_MOVE_EXACT] = 1 if rules["move_distance"] == "exact" else 0
    ip[S.I_FLIP_AT_STOP] = 1 if rules["page_flip"] == "stopped" else 0
    ip[S.I_FORCED_MOVE_P2] = 1 if rules["forced_move_phases"] == "both" else 0
    ip[S.I_FORCED_MOVE_ANY] = 1 if rules["forced_move_when"] == "any_action" else 0
    ip[S.I_SETUP_TENTACLES_FIRST] = 1 if rules["setup_order"] == "tentacles_first" else 0
    ip[S.I_SHAMBLER_LOSS] = 1 if rules["shambler_loss"] else 0
    ip[S.I_SETUP_GOO_PAGE] = 1 if rules["setup_goo_page"] == "flipped" else 0
    ip[S.I_MUST_MOVE_AFTER_SPIN] = 1 if rules["must_move_check"] == "after_spin" else 0
    ip[S.I_P2_ENERGY_TO_BAG] = 1 if rules["phase_two_energy"] == "bag" else 0
    ip[S.I_MAX_TURNS] = rules["max_turns"]
    ip[S.I_MAX_ACTIONS] = rules["max_actions_per_turn"]
    # the decision guard: a turn asks its actions (each at most a few questions per tentacle
    # or card it moves) and one colour at the spin; a game past it is a fault, not a hang
    per_turn = 2 + ip[S.I_MAX_ACTIONS] * (8 + 2 * max(1, *(
        rules[f"town.{n}.amount"] for n in _names_under(rules, "town."))))
    fill_param_header(ip, state_size=S.S_SIZE, hidden_size=S.H_SIZE, view_size=1,
                      mask_size=S.LEGAL_SIZE, record_size=S.R_SIZE, seats=n_chars,
                      max_decisions=N_SETUP_DECISIONS + ip[S.I_MAX_TURNS] * per_turn)
    names = tuple((a, b) for a, b in town_names)
    return TecParams(ip, np.zeros(1, dtype=np.float64), names, tuple(chars))
