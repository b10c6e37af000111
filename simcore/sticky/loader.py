"""Sticky Cthulhu: validate the rules data and turn it into the arrays the kernels read."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.rules_data import Limit, RulesData, check_limits
from simcore.sticky import state as S
from simcore.sticky.rules import hit_chances


class StickyParams(NamedTuple):
    fp: np.ndarray  # float64[F_SIZE]
    ip: np.ndarray  # int64[I_SIZE]
    skill: np.ndarray  # float64[players, SK_SIZE]
    curse: np.ndarray  # float64[cards, CU_SIZE]
    phit: np.ndarray  # float64[players, 1 + cards]: chance a throw hits (derived)
    packed: np.ndarray  # float64: fp, skill, curse and phit end to end (playout.unpack)
    curse_names: tuple[str, ...]
    curse_texts: tuple[str, ...]
    seat_profiles: tuple[str, ...]
    colour_names: tuple[str, ...] = ()  # for traces; a colour beyond the list has no name
    creature_names: tuple[str, ...] = ()  # for traces; likewise for Creature kinds


def profile_names(rules: RulesData) -> list[str]:
    return sorted({k.split(".")[1] for k in rules.keys_under("profiles.")})


def curse_names(rules: RulesData) -> list[str]:
    names: list[str] = []
    for k in rules.keys_under("curse."):
        name = k.split(".")[1]
        if name not in names:
            names.append(name)
    return names


# What the compiled engine can hold or compute with, whatever bounds a rules file declares (a
# user may edit or widen them): see simcore.rules_data.check_limits.  Seats and counts index
# arrays in the jitted core; a die needs a face; times, chances and the table must keep the
# race finite.
ENGINE_LIMITS: tuple[Limit, ...] = (
    ("players", 1, S.MAX_SEATS, None, None),
    ("first_player", 0, S.MAX_SEATS - 1, None, None),
    ("max_turns", 1, None, None, None),
    ("max_throws", 1, None, None, None),
    ("components.creature_kinds", 1, None, None, None),
    ("components.creature_colours", 1, None, None, None),
    ("components.investigators", 0, None, None, None),
    ("components.deep_one_tokens", 1, None, None, None),
    ("components.tokens_to_win", 1, None, None, None),
    ("components.tentacles", 1, None, None, None),
    ("components.creature_die_faces", 1, None, None, None),
    ("components.colour_die_faces", 1, None, None, None),
    ("table.width_cm", 1e-3, None, None, None),
    ("table.depth_cm", 1e-3, None, None, None),
    ("table.token_radius_cm", 1e-3, None, None, None),
    ("table.reach_cm", 0.0, None, None, None),
    ("table.placement_tries", 1, None, None, None),
    ("table.centre_cm", 0.0, None, None, None),
    ("turn.tangle_window_s", 0.0, None, None, None),
    ("turn.tangle_p", 0.0, 1.0, None, None),
    ("turn.tangle_s", 0.0, None, None, None),
    ("turn.roller_advantage_s", 0.0, None, None, None),
    ("turn.roll_s", 0.0, None, None, None),
    ("turn.shake_s", 0.0, None, None, None),
    ("turn.shake_drop_p", 0.0, 1.0, None, None),
    ("turn.curse_catch_scale", 0.0, None, None, None),
    ("turn.rethrow_spread", 0.0, 1.0, None, None),
    ("profiles.*.reaction_min_s", 0.0, None, None, None),
    ("profiles.*.reaction_mean_s", 0.0, None, None, None),
    ("profiles.*.rethrow_s", 1e-3, None, None, None),
    ("profiles.*.aim_sd_cm", 0.0, None, None, None),
    ("profiles.*.detach_s", 0.0, None, None, None),
    ("profiles.*.notice_p", 0.0, 1.0, None, None),
    ("curse.*.time_factor", 1e-3, None, None, None),
    ("curse.*.aim_factor", 0.0, None, None, None),
    ("curse.*.delay_s", 0.0, None, None, None),
    ("curse.*.catch_p", 0.0, 1.0, None, None),
)


def compile_params(rules: RulesData) -> StickyParams:
    check_limits(rules, ENGINE_LIMITS)
    players = rules["players"]
    kinds = rules["components.creature_kinds"]
    colours = rules["components.creature_colours"]
    investigators = rules["components.investigators"]
    to_win = rules["components.tokens_to_win"]
    if players > rules["components.tentacles"]:
        raise rules.fail("players", f"{players} players need {players} sticky tentacles, "
                         f"but components.tentacles is {rules['components.tentacles']}")
    if kinds * colours + investigators > S.MAX_TOKENS:
        raise rules.fail("components.creature_kinds",
                         f"kinds x colours + investigators must be at most {S.MAX_TOKENS}")
    if rules["components.creature_die_faces"] != kinds:
        raise rules.fail("components.creature_die_faces",
                         f"must equal components.creature_kinds ({kinds}): one face per kind")
    if rules["components.colour_die_faces"] < colours:
        raise rules.fail("components.colour_die_faces",
                         f"must be at least components.creature_colours ({colours})")
    if players * (to_win - 1) + 1 > rules["components.deep_one_tokens"]:
        raise rules.fail("components.tokens_to_win",
                         "the Deep One supply could run out before anyone wins; need "
                         "players x (tokens_to_win - 1) + 1 <= components.deep_one_tokens")
    if rules["first_player"] >= players:
        raise rules.fail("first_player", f"must be a seat below players ({players})")
    if rules["table.width_cm"] < 4 * rules["table.token_radius_cm"] * max(investigators, 1):
        raise rules.fail("table.width_cm", "too narrow for the Investigators' strips")
    colour_names = list(rules["components.colour_names"])
    sixth_colour = rules["components.sixth_face_colour"]
    sixth_mode = S.SIXTH_MODES.index(rules["sixth_colour_face"])
    sixth_index = colour_names.index(sixth_colour) if sixth_colour in colour_names else -1
    if sixth_mode == S.SIXTH_COLOUR and rules["components.colour_die_faces"] > colours:
        if not 0 <= sixth_index < colours:
            named = ", ".join(colour_names[:colours])
            raise rules.fail("components.sixth_face_colour",
                             f"{sixth_colour!r} names none of the {colours} colours "
                             f"(components.colour_names: {named}); name one of them, or set "
                             "sixth_colour_face to reroll or any")

    profiles = profile_names(rules)
    seats = list(rules["seats"])
    if len(seats) == 1:
        seats = seats * players
    if len(seats) < players:
        raise rules.fail("seats", f"names {len(seats)} profiles for {players} players; give one "
                         "name for every seat, or a single name for all")
    skill = np.zeros((players, S.SK_SIZE), dtype=np.float64)
    for s in range(players):
        name = seats[s]
        if name not in profiles:
            raise rules.fail("seats", f"seat {s} uses profile {name!r}; allowed: "
                             f"{', '.join(profiles)} (or add [profiles.{name}])")
        for j, key in enumerate(S.SKILL_KEYS):
            full = f"profiles.{name}.{key}"
            if full not in rules:
                raise rules.fail(full, "missing from the profile")
            skill[s, j] = rules[full]
        if skill[s, S.SK_REACT_MEAN] < skill[s, S.SK_REACT_MIN]:
            raise rules.fail(f"profiles.{name}.reaction_mean_s",
                             "must be at least reaction_min_s")
        aim = skill[s, S.SK_AIM]
        skill[s, S.SK_INV_TWO_VAR] = 1.0 / (2.0 * aim * aim) if aim > 0 else np.inf

    names = curse_names(rules)
    if rules["curses"] and not names:
        raise rules.fail("curses", "the optional rule needs Curse cards under [curse.*]")
    curse = np.zeros((max(len(names), 1), S.CU_SIZE), dtype=np.float64)
    texts = []
    for c, name in enumerate(names):
        for j, key in enumerate(S.CURSE_KEYS):
            full = f"curse.{name}.{key}"
            if full not in rules:
                raise rules.fail(full, "missing from the Curse card")
            curse[c, j] = float(rules[full])
        texts.append(rules.get(f"curse.{name}.text", name))
        af = curse[c, S.CU_AIM]
        curse[c, S.CU_INV_AIM2] = 1.0 / (af * af) if af > 0 else np.inf

    fp = np.zeros(S.F_SIZE, dtype=np.float64)
    fp[S.F_WIDTH] = rules["table.width_cm"]
    fp[S.F_DEPTH] = rules["table.depth_cm"]
    fp[S.F_TOKEN_R] = rules["table.token_radius_cm"]
    fp[S.F_REACH] = rules["table.reach_cm"]
    fp[S.F_ROLLER_ADV] = rules["turn.roller_advantage_s"]
    fp[S.F_ROLL_S] = rules["turn.roll_s"]
    fp[S.F_SHAKE_S] = rules["turn.shake_s"]
    fp[S.F_SHAKE_DROP] = rules["turn.shake_drop_p"]
    fp[S.F_CATCH_SCALE] = rules["turn.curse_catch_scale"]
    spread = rules["turn.rethrow_spread"]
    # 1 - s and 2 s are exact for the default 0.5, so rethrow x (0.5 + 1.0 x u) is bit for bit
    # the rethrow x (0.5 + u) the model always used
    fp[S.F_RETHROW_LO] = 1.0 - spread
    fp[S.F_RETHROW_SPAN] = 2.0 * spread
    fp[S.F_CENTRE] = rules["table.centre_cm"]
    # the central square (for a token's centre), kept on the table, as the rectangle its
    # whole token lies in
    r = fp[S.F_TOKEN_R]
    for lo_i, hi_i, size in ((S.F_CENTRE_X0, S.F_CENTRE_X1, fp[S.F_WIDTH]),
                             (S.F_CENTRE_Y0, S.F_CENTRE_Y1, fp[S.F_DEPTH])):
        half = 0.5 * fp[S.F_CENTRE]
        lo = min(max(0.5 * size - half - r, 0.0), max(size - 2.0 * r, 0.0))
        fp[lo_i] = lo
        fp[hi_i] = max(min(0.5 * size + half + r, size), lo + 2.0 * r)
    fp[S.F_TANGLE_WINDOW] = rules["turn.tangle_window_s"]
    fp[S.F_TANGLE_P] = rules["turn.tangle_p"]
    fp[S.F_TANGLE_S] = rules["turn.tangle_s"]

    ip = np.zeros(S.I_SIZE, dtype=np.int64)
    ip[S.I_PLAYERS] = players
    ip[S.I_KINDS] = kinds
    ip[S.I_COLOURS] = colours
    ip[S.I_INVESTIGATORS] = investigators
    ip[S.I_TO_WIN] = to_win
    ip[S.I_CURSES_ON] = 1 if rules["curses"] else 0
    ip[S.I_SIXTH_MODE] = sixth_mode
    ip[S.I_SIXTH_COLOUR] = max(sixth_index, 0)
    ip[S.I_RETURN_CENTRE] = 1 if rules["return_spot"] == "centre" else 0
    ip[S.I_TANGLES] = 1 if rules["tangles"] else 0
    ip[S.I_PUT_BACK_CLEAR] = 1 if rules["table.put_back_clear"] else 0
    ip[S.I_MAX_TURNS] = rules["max_turns"]
    ip[S.I_MAX_THROWS] = rules["max_throws"]
    ip[S.I_N_CURSES] = len(names)
    ip[S.I_KIND_FACES] = rules["components.creature_die_faces"]
    ip[S.I_COLOUR_FACES] = rules["components.colour_die_faces"]
    ip[S.I_FIRST] = rules["first_player"]
    ip[S.I_PLACE_TRIES] = rules["table.placement_tries"]
    ip[S.I_SUPPLY] = rules["components.deep_one_tokens"]
    phit = hit_chances(skill, curse, fp)
    ip[S.I_FP_SIZE] = fp.size
    ip[S.I_CURSE_ROWS] = curse.shape[0]
    packed = np.concatenate((fp, skill.ravel(), curse.ravel(), phit.ravel()))
    return StickyParams(fp, ip, skill, curse, phit, packed, tuple(names), tuple(texts),
                        tuple(seats[:players]), tuple(rules["components.colour_names"]),
                        tuple(rules["components.creature_names"]))
