"""Cthulhu Boardgame: one game in plain words, with a small picture of the board each turn.

The events come from the engine's trace run (the same playout the batch plays); the pictures
come from replaying the game's decisions on its own stream from Python (``StepGame.apply``),
which reproduces every state the game went through.
"""

from __future__ import annotations

import numpy as np

from simcore import engine as E
from simcore.hex import state as S

OUTCOME_WORDS = {
    "good_win": "Good wins: all the Artefacts on Good's base line",
    "bad_win": "Bad wins: all the Artefacts on Bad's base line",
    "stalemate": "stalemate: the turn cap was reached with no winner",
}


def hex_name(h: int, cols: int) -> str:
    """A hex as a column letter and a row number (row 1 at the top), e.g. ``d5``."""
    r, c = divmod(int(h), cols)
    return f"{chr(ord('a') + c)}{r + 1}"


def counter_codes(names: tuple[str, ...], sides: tuple[int, ...]) -> list[str]:
    """Two-letter codes: Good's in capitals, Bad's in small letters ("JW", "c3", "m")."""
    codes = []
    for name, side in zip(names, sides, strict=True):
        words = name.split()
        if words and words[-1].isdigit():
            code = words[0][0] + words[-1]
        else:
            code = "".join(wd[0] for wd in words[:2])
        code = code.upper() if side == S.GOOD else code.lower()
        base, k = code, 2
        while code in codes:
            code = f"{base[0]}{k}"
            k += 1
        codes.append(code)
    return codes


def board_picture(s: np.ndarray, rows: int, cols: int, codes: list[str], ip: np.ndarray,
                  indent: str = "    ") -> list[str]:
    """The board as text: odd rows pushed half a hex right; ``##`` Undergrowth, ``[..]`` an
    Artefact's hex, ``=`` marks the base lines (Good's ``G=``, Bad's ``B=``)."""
    lines = []
    header = indent + "   " + "".join(f"{chr(ord('a') + c):^7}" for c in range(cols))
    lines.append(header)
    for r in range(rows):
        cells = []
        for c in range(cols):
            h = r * cols + c
            g = int(s[S.S_H_GOOD + h]) - 1
            b = int(s[S.S_H_BAD + h]) - 1
            a = int(s[S.S_H_ARTEFACT + h]) - 1
            if int(s[S.S_H_UNDERGROWTH + h]):
                body = "####"
            else:
                who = "".join(codes[x] for x in (g, b) if x >= 0)
                body = who if who else ".."
            if a >= 0:
                body = f"[{body if body != '..' else '  '}]"
            cells.append(f"{body:^6}")
        good = _on_base(ip, S.GOOD, r * cols)
        bad = _on_base(ip, S.BAD, r * cols)
        tag = "G=" if good else "B=" if bad else "  "
        shift = "   " if r % 2 else ""
        lines.append(f"{indent}{tag}{r + 1:>2} {shift}" + " ".join(cells))
    return lines


def board_legend(codes: list[str], sides: tuple[int, ...], indent: str = "    ") -> list[str]:
    """A short key to the symbols of ``board_picture``, with counter codes of this game."""
    good = next((c for c, sd in zip(codes, sides, strict=True) if sd == S.GOOD), "JW")
    bad = next((c for c, sd in zip(codes, sides, strict=True) if sd == S.BAD), "c1")
    return [f"{indent}Key: .. empty hex, #### Undergrowth, [  ] an Artefact ([{good}] with a "
            "counter on it),",
            f"{indent}     {good} a Good counter (capitals), {bad} a Bad one (small letters), "
            f"{good}{bad} both in one hex (a fight),",
            f"{indent}     G= Good's base line, B= Bad's; rows 2, 4, ... sit half a hex right."]


def _on_base(ip: np.ndarray, side: int, h: int) -> bool:
    word = int(np.uint64(ip[S.I_BASE_BITS + 2 * side + (h >> 6)]))
    return bool((word >> (h & 63)) & 1)


def action_text(decision: int, a: int, codes: list[str], cols: int) -> str:
    """An answer to ``decision`` in words: a hex, a counter, or what a named code means."""
    if decision in (S.D_PLACE_ARTEFACT, S.D_PLACE_UNDERGROWTH, S.D_ENTER_HEX, S.D_MOVE_TO,
                    S.D_DROP_HEX):
        return hex_name(a, cols)
    if decision == S.D_DROP:
        return "leave it" if a == S.A_LEAVE else "keep it"
    if decision in (S.D_ENTER, S.D_MOVE_PICK, S.D_ATTACK_PICK) and a == S.A_END:
        return "pass" if decision == S.D_ENTER else "no more"
    return codes[a] if 0 <= a < len(codes) else str(a)


def format_events(game, config, seed: int, index: int, events: np.ndarray,
                  rec: np.ndarray) -> str:
    p = config.params
    ip = p.ip
    cols, rows = p.cols, p.rows
    names, sides = p.counter_names, p.counter_side
    codes = counter_codes(names, sides)

    def who(c: int) -> str:
        return f"{names[c]} ({codes[c]})"

    def at(h: int) -> str:
        return hex_name(h, cols)

    fields = {name: int(rec[k]) for k, name in enumerate(game.record_fields)}
    out = [f"{game.title} - seed {seed}, playout {index}, strategy {config.strategy.name}"]
    for side in (S.GOOD, S.BAD):
        kinds = []
        seen = set()
        for c in range(len(names)):
            if sides[c] != side:
                continue
            kind = int(ip[S.I_C_KIND + c])
            if kind in seen:
                continue
            seen.add(kind)
            copies = [codes[k] for k in range(len(names)) if int(ip[S.I_C_KIND + k]) == kind]
            label = p.kind_names[kind]
            shown = copies[0] if len(copies) == 1 else f"{copies[0]}..{copies[-1]}"
            kinds.append(f"{shown} {label} {ip[S.I_C_ATTACK + c]}-{ip[S.I_C_DEFENCE + c]}-"
                         f"{ip[S.I_C_RANGE + c]}-{ip[S.I_C_MOVE + c]}")
        out.append(f"{S.SIDE_NAMES[side]} (attack-defence-range-move): " + ", ".join(kinds))
    out.append(f"Board: {rows} rows x {cols} hexes; Good's base line is row "
               f"{rows if ip[S.I_GOOD_AT_BOTTOM] else 1}, Bad's row "
               f"{1 if ip[S.I_GOOD_AT_BOTTOM] else rows}.")
    out.append("Setup (HEX-S-3: Good places first, then in turn):")

    # replay the decisions to draw the board at the start of every turn
    st = game.new_state(config, seed, index)
    pictured_turn = 0
    keyed = False

    def picture_if_new_turn() -> None:
        nonlocal pictured_turn, keyed
        turn = int(st.s[E.TURN])
        if turn != pictured_turn and int(st.s[E.OUTCOME]) == E.PLAYING:
            pictured_turn = turn
            side = int(st.s[S.S_SIDE])
            out.append(f"Turn {turn} ({S.SIDE_NAMES[side]}, round {(turn + 1) // 2}):")
            out.extend(board_picture(st.s, rows, cols, codes, ip))
            if not keyed:  # the key under the first picture (and the final one)
                keyed = True
                out.extend(board_legend(codes, sides))

    search_lines: list[str] = []
    for e in events:
        code = int(e[0])
        a, b, c, d, e5, f, g = (int(x) for x in e[1:8])
        if code == E.EV_DECIDE:
            out.extend(search_lines)
            search_lines = []
            game.apply(config, st, c)
            continue
        if code == E.EV_SEARCH:
            asked = int(st.s[E.DECISION])
            if d == 0:
                search_lines.append(f"    {S.SIDE_NAMES[int(st.s[E.SEAT])]} searches "
                                    f"({e5:,} iterations) on {S.DECISION_NAMES[asked]}:")
            search_lines.append(f"      {action_text(asked, a, codes, cols)}: tried {b:,} "
                                f"times, mean result {c / 1e6:.3f}")
            continue
        if code == S.EV_TURN:
            picture_if_new_turn()
        elif code == S.EV_PLACE:
            what = "an Artefact" if b == 0 else "Undergrowth"
            out.append(f"  {S.SIDE_NAMES[a]} places {what} at {at(c)}.")
        elif code == S.EV_ENTER:
            out.append(f"  {who(a)} comes on at {at(b)}.")
        elif code == S.EV_MOVE:
            carry = f" carrying Artefact {d}" if d else ""
            out.append(f"  {codes[a]} moves {at(b)} -> {at(c)}{carry}.")
        elif code == S.EV_DROP:
            if d == 1:
                out.append(f"  {codes[a]} crosses its base line and leaves Artefact {b + 1} at "
                           f"{at(c)}.")
            else:
                out.append(f"  {codes[a]} leaves Artefact {b + 1} at {at(c)} on its base line.")
        elif code == S.EV_PICKUP:
            if d == 2:
                out.append(f"  {codes[a]} starts its turn in a fight over Artefact {b + 1} at "
                           f"{at(c)}: its side's turn, so it carries it.")
            else:
                how = "starts its turn on" if d == 0 else "survives the fight over"
                out.append(f"  {codes[a]} {how} Artefact {b + 1} at {at(c)} and carries it.")
        elif code == S.EV_MELEE:
            out.append(f"  {codes[a]} and {codes[b]} share a hex: {codes[a]} must attack.")
        elif code == S.EV_ATTACK:
            result = "kills it" if g else "misses"
            out.append(f"  {codes[a]} attacks {codes[b]} ({c} against {d}: needs {e5}, rolls "
                       f"{f}) and {result}.")
        elif code == S.EV_WIN:
            out.append(f"  {S.SIDE_NAMES[a]} has every Artefact on its base line.")
        elif code == S.EV_CAP:
            out.append(f"  The turn cap ({b or a}) is reached.")
        elif code == E.EV_FAULT:
            out.append(f"  FAULT: the playout was cut off after {a} decisions.")
    out.extend(search_lines)
    outcome = game.outcomes[fields["outcome"]]
    out.append("Final board:")
    out.extend(board_picture(st.s, rows, cols, codes, ip))
    out.extend(board_legend(codes, sides))
    words = OUTCOME_WORDS.get(outcome, outcome)
    out.append(f"Result: {words}, after {fields['turns']} turns ({(fields['turns'] + 1) // 2} "
               "rounds).")
    out.append(f"  Lost: Good {fields['good_lost']}, Bad {fields['bad_lost']}; Artefacts "
               f"taken up: Good {fields['good_pickups']}, Bad {fields['bad_pickups']}; on base "
               f"lines at the end: Good {fields['good_home']}, Bad {fields['bad_home']}.")
    out.append(f"  Record: {', '.join(f'{k}={v}' for k, v in fields.items())}")
    if not st.same_as(st) or int(st.s[E.OUTCOME]) != fields["outcome"]:
        out.append("  (the replay disagrees with the record: please report this)")
    return "\n".join(out)
