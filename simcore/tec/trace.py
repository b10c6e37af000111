"""Tiny Epic Cthulhu: one game in plain words, from the events the playout logged."""

from __future__ import annotations

import numpy as np

from simcore.engine import ENGINE_EVENTS, EV_DECIDE, EV_SEARCH
from simcore.tec import state as S

KINDS = ("Fear", "Rage", "Greed", "Chaos", "Eldritch")
ICON_WORDS = {
    S.IC_MADNESS: "move a Madness tentacle from the Shambler mat to the Discard mat",
    S.IC_SHAMBLER: "a Shambler",
    S.IC_CHAOS: "a Chaos tentacle to the Discard mat",
    S.IC_POWER_BLUE: "the blue power",
    S.IC_POWER_RED: "the red power",
    S.IC_POWER_GREEN: "the green power",
    S.IC_EXTRA: "draw one more tentacle",
}
POWER_WORDS = {
    S.PW_SPAWN: "spawns {n} Shambler(s) at {town}",
    S.PW_ENERGY: "feeds {n} Eldritch to its Energy Track",
    S.PW_DRAW: "draws {n} tentacle(s) at {town}",
    S.PW_MADDEN: "maddens everyone at or beside {town} ({n} {colour} each)",
    S.PW_HUNT: "hunts {n} step(s) toward the nearest investigator",
    S.PW_DECAY: "returns {n} {colour} tentacle(s) from the Discard mat to the Shambler mat",
    S.PW_DRAIN: "drains {n} Chaos from every investigator",
}
ACC_WORDS = ("a Town Madness track", "a Town Shambler track", "a Temperament track",
             "the Energy Track")
TOWN_ACTION_WORDS = dict(enumerate(S.TOWN_ACTIONS))


def town_move_words(action: int, kind: int, frm: int, took: int, n: int, name: str,
                    town) -> str:
    """What one EV_TOWN_MOVE row moved, in words."""
    if action == S.TA_VENT:
        return f"{name} vents a {KINDS[kind]} tentacle to the Discard mat."
    if action == -1:
        return (f"{name} (the medium's ability) moves a {KINDS[kind]} tentacle from its mat "
                "to the Discard mat.")
    if action == S.TA_BARRICADE:
        return (f"{name} barricades: a {S.COLOUR_NAMES[kind]} Shambler at {town(frm)} goes "
                "back to the Shambler mat.")
    if action == S.TA_GATHER:
        return f"{name} gathers a {KINDS[kind]} tentacle from {town(frm)}."
    if action == S.TA_EXCHANGE:
        return (f"{name} exchanges a {KINDS[kind]} tentacle for a {KINDS[took]} one from the "
                "Shambler mat.")
    if action == S.TA_WARD:
        return f"{name} wards: {n} Eldritch tentacle(s) from the Energy Track back to the bag."
    if action == S.TA_RECRUIT:
        return f"{name} recruits: {n} Chaos tentacle(s) from the supply to its Chaos Track."
    return f"{name} moves {n} piece(s)."


def format_events(ev: np.ndarray, rec: np.ndarray, config, seed: int, index: int) -> str:
    """Turn the event rows of one playout into readable lines."""
    p = config.params
    ip = p.ip
    chars = p.character_names
    sides: dict[int, str] = {}
    lines = [
        f"Tiny Epic Cthulhu - seed {seed}, playout {index}, strategy {config.strategy.name}",
        f"{S.GOOS[ip[S.I_GOO]].title()} on {S.DIFFICULTIES[ip[S.I_DIFFICULTY]]}, "
        f"{int(ip[S.I_PLAYERS])} player(s): " + ", ".join(chars),
    ]

    def town(t: int) -> str:
        return f"the {sides.get(int(t), f'town {t}').title()}"

    def who(c: int) -> str:
        return chars[int(c)] if 0 <= c < len(chars) else f"character {c}"

    tokens = int(ip[S.I_PAGE_TOKENS])
    status: list[str] = []  # the status line being gathered (EV_STATUS, then one per character)

    def flush() -> None:
        if status:
            lines.append("  " + status[0] + "; " + "; ".join(status[1:]) + ".")
            status.clear()

    def choice_name(kind: int, action: int) -> str:
        if kind == S.D_ACTION and 0 <= action < S.N_ACTIONS:
            return f"move to {town(action)}" if action < S.A_COLLECT else S.ACTION_NAMES[action]
        return f"choice {action}"

    searched: list[tuple[int, int, int, int]] = []  # the search's top actions, best first

    for e in ev:
        code = int(e[0])
        if code == EV_SEARCH:  # (logged while the search runs, before its decision's row)
            searched.append((int(e[1]), int(e[2]), int(e[3]), int(e[5])))
            continue
        if code == EV_DECIDE and searched:  # what the search considered, then its answer
            flush()
            kind = int(e[2])
            tried = "; ".join(f"{choice_name(kind, a)} tried {n:,} times, mean result "
                              f"{v / 1e6:.3f}" for a, n, v, _ in searched)
            lines.append(f"  search ({searched[0][3]:,} iterations) for {who(int(e[1]))} on "
                         f"{S.D_NAMES[kind]}: {tried}; chose {choice_name(kind, int(e[3]))}.")
            searched.clear()
            continue
        if code >= ENGINE_EVENTS:  # the driver's own rows (each decision asked)
            continue
        a, b, c, d, f, g = (int(x) for x in e[1:7])
        h = int(e[7])
        if code != S.EV_STATUS_CHAR:
            flush()
        if code == S.EV_SETUP_SIDE:
            sides[a] = p.town_names[b][c]
            lines.append(f"Setup: position {a} is the {p.town_names[b][c].title()} "
                         f"({'front' if c == 0 else 'back'} of card {b + 1}).")
        elif code == S.EV_SETUP_GOO:
            lines.append(f"Setup: the Great Old One appears at {town(a)}.")
        elif code == S.EV_SETUP_SHAMBLER:
            lines.append(f"Setup: a {S.COLOUR_NAMES[b] if b >= 0 else 'no'} Shambler lurks at "
                         f"{town(a)}.")
        elif code == S.EV_SETUP_PLAYER:
            lines.append(f"Setup: {who(a)} starts at {town(b)}.")
        elif code == S.EV_TURN:
            lines.append(f"Turn {a} (phase {c}): {who(b)}.")
        elif code == S.EV_SPIN:
            lines.append(f"  spins: the pointer stops at {town(b)} ({ICON_WORDS[c]}); the "
                         f"tentacle end points at {town(d)} ({S.COLOUR_NAMES[f]}).")
        elif code == S.EV_DRAW:
            where = "" if a >= S.K_CHAOS else f" -> {town(b)}"
            src = " (power)" if c else ""
            lines.append(f"    draws {KINDS[a]}{where}{src}.")
        elif code == S.EV_DRAW_SHORT:
            lines.append(f"    the bag runs out after {a} of {b} draws.")
        elif code == S.EV_ACCURSED:
            if a == S.ACC_TOWN_MADNESS:
                detail = f" at {town(b)} ({KINDS[c]}): {d} tentacles to the Shambler mat"
            elif a == S.ACC_TOWN_SHAMBLER:
                detail = f" at {town(b)}: {d} Shamblers back to their mat"
            elif a == S.ACC_TEMPERAMENT:
                detail = f" of {who(b)} ({KINDS[c]}): {d} tentacles to the Shambler mat"
            else:
                detail = f": {b} Eldritch and the Discard mat go into the bag"
            lines.append(f"    ACCURSED {ACC_WORDS[a]}{detail}.")
        elif code == S.EV_SPAWN:
            lines.append(f"    a {S.COLOUR_NAMES[b]} Shambler arrives at {town(a)} ({c} there).")
        elif code == S.EV_NO_SHAMBLER:
            lines.append("    no Shambler is left to place.")
        elif code == S.EV_GOO_MOVE:
            how = "hunts its way to" if b else "moves to"
            lines.append(f"    the Great Old One {how} {town(a)}.")
        elif code == S.EV_POWER:
            text = POWER_WORDS[b].format(n=c, town=town(d), colour=S.COLOUR_NAMES[a])
            lines.append(f"    POWER ({S.COLOUR_NAMES[a]}): the Great Old One {text}.")
        elif code == S.EV_ACTION:
            if b < S.N_ACTIONS:
                name = S.ACTION_NAMES[b]
                if b < S.A_COLLECT:
                    name = f"move to {town(b)}"
                lines.append(f"  action: {who(a)} - {name} ({c} action(s) left).")
        elif code == S.EV_MOVE:
            how = "travels" if d else "moves"
            way = {1: " clockwise", -1: " counter-clockwise"}.get(f, "")
            lines.append(f"    {who(a)} {how}{way} from {town(b)} to {town(c)}.")
        elif code == S.EV_FLIP:
            lines.append(f"    flips the Page card at {town(a)} (card {b}).")
        elif code == S.EV_STOP_DRAW:
            lines.append(f"    the Shamblers at {town(c)} force {who(a)} to draw {KINDS[b]}.")
        elif code == S.EV_COLLECT:
            lines.append(f"    {who(a)} collects {KINDS[b]} at {town(c)}.")
        elif code == S.EV_ROLL:
            dice = [c, d, f][:b]
            what = "to banish" if a == 0 else "to seal"
            lines.append(f"    rolls {b} Cthulhu dice {what}: {dice}.")
        elif code == S.EV_REROLL:
            lines.append(f"    rerolls (mask {a}): now {[b, c, d][:f]}.")
        elif code == S.EV_BANISH:
            if d == -1:
                lines.append(f"    the banishment costs {c} tentacle(s).")
            elif d == -2:
                lines.append(f"    {who(a)} chooses not to pay: no Shambler is banished.")
            elif d == -3:
                lines.append(f"    {who(a)} cannot pay: no Shambler is banished.")
            else:
                lines.append(f"    banishes a {S.COLOUR_NAMES[d]} Shambler at {town(b)} and "
                             f"clears {f} {KINDS[d]} tentacle(s) to the Discard mat.")
        elif code == S.EV_PAY:  # character, colour, Madness, Chaos, what for
            parts = [f"{c} {KINDS[b]}"] if c else []
            if d:
                parts.append(f"{d} Chaos (wild)")
            lines.append(f"    {who(a)} pays {' and '.join(parts)}.")
        elif code == S.EV_CLEANUP:
            lines.append(f"    a {KINDS[a]} tentacle goes from the Shambler mat to the Discard "
                         "mat.")
        elif code == S.EV_TOWN_ACTION:
            lines.append(f"    {who(a)} uses {town(b)}: {TOWN_ACTION_WORDS[c]} {d}.")
        elif code == S.EV_TRANSLATE:
            lines.append(f"    {who(a)} translates Page card {c} at {town(b)}: {d} Page "
                         f"token(s) placed, {f} of {tokens} on the Necronomicon.")
        elif code == S.EV_LINE_DONE:
            lines.append(f"    a Necronomicon {'row' if a == 0 else 'column'} ({b + 1}) is "
                         "complete: its Chaos tentacle goes to the Discard mat.")
        elif code == S.EV_PHASE2:
            lines.append("  THE NECRONOMICON IS TRANSLATED: phase two begins; the Great Old "
                         "One's mat flips and the Discard mat goes into the bag.")
        elif code == S.EV_SEAL:
            result = "SEALED" if f else "fails"
            lines.append(f"    {who(a)} attempts portal {b + 1}: {c} against {d} - {result}.")
        elif code == S.EV_BRAIN:
            verb = "prays: Brain token down to" if f else "Brain token rises to"
            lines.append(f"    {who(a)}'s {verb} space {b + 1} of {c}.")
        elif code == S.EV_STRENGTH:
            lines.append(f"    the Great Old One grows stronger: Strength {a} of {b} "
                         f"(phase {c}).")
        elif code == S.EV_CHAOS_LOST:
            lines.append(f"    {who(a)}'s Chaos Track is full: the Chaos tentacle returns to "
                         "the supply.")
        elif code == S.EV_GAIN:
            if a == S.GAIN_ENERGY:
                lines.append(f"    an Eldritch tentacle goes on the Energy Track ({d} of {f}).")
            elif a == S.GAIN_TEMPERAMENT:
                lines.append(f"    a {KINDS[c]} tentacle goes on {who(b)}'s {KINDS[c]} Track "
                             f"({d} of {f}).")
            elif a == S.GAIN_CHAOS:
                lines.append(f"    a Chaos tentacle goes on {who(b)}'s Chaos Track ({d} of "
                             f"{f}).")
            else:
                lines.append(f"    a {KINDS[c]} tentacle goes on {town(b)}'s Madness Track "
                             f"({d} of {f}).")
        elif code == S.EV_ELDRITCH_SWAP:
            parts = []
            if b:
                parts.append("its Eldritch tentacle goes to the Discard mat")
            parts.append("a fresh one from the supply takes its place" if c
                         else "the supply has no Eldritch left to replace it")
            lines.append(f"    at {town(a)}, " + " and ".join(parts) + ".")
        elif code == S.EV_TOWN_MOVE:
            lines.append("    " + town_move_words(b, c, d, f, g, who(a), town))
        elif code == S.EV_ABILITY:
            lines.append(f"    {who(a)} uses the {S.ABILITIES[b]} ability.")
        elif code == S.EV_VIOLATION:
            lines.append(f"    CHECK: {b} conservation error(s) after turn {a}.")
        elif code == S.EV_END:
            lines.append(f"End after {b} turns: {S.OUTCOMES[a] if a >= 0 else 'unfinished'}.")
        elif code == S.EV_POINTER:
            pass  # the spin line already says what the pointer shows
        elif code == S.EV_TURN_END:
            if d and b > 0:  # the game goes on and actions were left
                chaos = f" (and {c} Chaos tentacle(s) that could buy more)" if c else ""
                lines.append(f"  {who(a)} ends the turn with {b} action(s) unused{chaos}.")
        elif code == S.EV_STATUS:
            phase = "one" if d == 1 else "two"
            status.append(f"status after turn {a}: Strength {b} of {c} (phase {phase}), "
                          f"{f} Page card(s) translated ({g} of {tokens} Page tokens placed), "
                          f"{h} of {S.N_PORTALS} portals sealed")
        elif code == S.EV_STATUS_CHAR:
            madness = ", ".join(f"{S.MADNESS_NAMES[k]} {v}" for k, v in enumerate((b, c, d)))
            delirium = (f"Delirium space {g + 1} of {h}" if g >= 0
                        else "no Delirium yet")
            status.append(f"{who(a)}: {madness}, Chaos {f}, {delirium}")
    flush()
    outcome = S.OUTCOMES[int(rec[S.R_OUTCOME])]
    words = {"win": "the players seal all six portals and WIN",
             "strength": "the Great Old One reaches full strength: the players LOSE",
             "madness": "an investigator goes mad: the players LOSE",
             "cap": "the turn cap is reached"}[outcome]
    lines.append(f"Result: {words} (turn {int(rec[S.R_TURNS])}; phase two "
                 f"{'reached on turn ' + str(int(rec[S.R_PHASE2_TURN])) if rec[S.R_PHASE2_TURN] >= 0 else 'not reached'}; "  # noqa: E501
                 f"{int(rec[S.R_SEALED])} portal(s) sealed, {int(rec[S.R_TOKENS])} Page "
                 f"tokens placed).")
    return "\n".join(lines)
