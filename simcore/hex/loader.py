"""Cthulhu Boardgame: validate the rules data and build the arrays the rules read, the board's
geometry (neighbours, distances, base lines and Artefact area as bitsets) included."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.engine import fill_param_header
from simcore.hex import state as S
from simcore.rules_data import Limit, RulesData, check_limits

COUNTER_KEYS = ("name", "attack", "defence", "range", "move", "count", "first", "last")

# What the compiled engine can hold, whatever bounds a rules file declares: every hex has a bit
# in two 64-bit words, counters and Artefacts index fixed arrays, the CRT is at most 6 x 6.
ENGINE_LIMITS: tuple[Limit, ...] = (
    ("max_turns", 1, 10**6, None, None),
    ("board.quarter_rows", 1, None, None, None),
    ("board.quarter_cols", 1, None, None, None),
    ("board.quarters_down", 1, None, None, None),
    ("board.quarters_across", 1, None, None, None),
    ("board.base_line_rows", 1, None, None, None),
    ("board.artefact_rows", 1, None, None, None),
    ("components.artefacts", 1, S.MAX_ARTEFACTS, None, None),
    ("components.undergrowth", 0, S.MAX_HEX, None, None),
    ("components.die_faces", 1, 10**6, None, None),
    ("crt.*", 1, None, 1, S.MAX_CRT_COLS),
    ("good.*.count", 0, S.MAX_COUNTERS, None, None),
    ("bad.*.count", 0, S.MAX_COUNTERS, None, None),
    ("good.*.attack", 1, S.MAX_CRT_COLS, None, None),
    ("bad.*.attack", 1, S.MAX_CRT_COLS, None, None),
    ("good.*.defence", 1, S.MAX_CRT_ROWS, None, None),
    ("bad.*.defence", 1, S.MAX_CRT_ROWS, None, None),
    ("good.*.range", 0, 64, None, None),
    ("bad.*.range", 0, 64, None, None),
    ("good.*.move", 1, 64, None, None),
    ("bad.*.move", 1, 64, None, None),
)


class HexParams(NamedTuple):
    ip: np.ndarray  # int64[I_SIZE]
    fp: np.ndarray  # float64[F_SIZE]: search's valuation (F_STALEMATE_WORTH)
    rows: int
    cols: int
    kind_names: tuple[str, ...]  # counter kind k's name
    counter_names: tuple[str, ...]  # counter i's name ("Cultist 3" where a kind has several)
    counter_side: tuple[int, ...]


def counter_kinds(rules: RulesData, side: str) -> list[str]:
    """The counter kinds of one side (``good`` or ``bad``) in file order."""
    kinds: list[str] = []
    for key in rules.keys_under(side + "."):
        kind = key.split(".")[1]
        if kind not in kinds:
            kinds.append(kind)
    return kinds


def hex_neighbours(r: int, c: int, rows: int, cols: int) -> list[int]:
    """The six neighbours of hex (r, c) in an "odd-r" layout (pointy-top hexes in rows, odd
    rows pushed half a hex right); -1 off the board."""
    if r % 2 == 0:
        steps = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
    else:
        steps = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))
    out = []
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        out.append(rr * cols + cc if 0 <= rr < rows and 0 <= cc < cols else -1)
    return out


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two hexes (cube coordinates of the odd-r layout)."""
    def cube(rc: tuple[int, int]) -> tuple[int, int, int]:
        r, c = rc
        x = c - (r - (r & 1)) // 2
        return x, -x - r, r

    (x1, y1, z1), (x2, y2, z2) = cube(a), cube(b)
    return max(abs(x1 - x2), abs(y1 - y2), abs(z1 - z2))


def _bits(ip: np.ndarray, off: int, hexes: list[int]) -> None:
    words = [0] * S.BIT_WORDS
    for h in hexes:
        words[h >> 6] |= 1 << (h & 63)
    for w, v in enumerate(words):
        ip[off + w] = np.int64(np.uint64(v).view(np.int64))


_BIT_OF = np.uint64(1) << np.arange(64, dtype=np.uint64)


def _bitsets(member: np.ndarray) -> np.ndarray:
    """Bit sets of hexes, ``BIT_WORDS`` int64 words each, from a boolean array whose last axis
    is the hex (at most ``MAX_HEX``): the same words ``_bits`` writes, for many sets at once
    (configuring a game builds about 10,000 of them)."""
    full = np.zeros((*member.shape[:-1], S.MAX_HEX), dtype=bool)
    full[..., :member.shape[-1]] = member
    words = full.reshape(*member.shape[:-1], S.BIT_WORDS, 64)
    # distinct powers of two: their sum is their union, with no carry
    return (words * _BIT_OF).sum(axis=-1, dtype=np.uint64).view(np.int64)


def _distances(rows: int, cols: int) -> np.ndarray:
    """``hex_distance`` between every two hexes of the board, as an ``n_hex x n_hex`` array."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    x = c - (r - (r & 1)) // 2
    y = -x - r
    return np.maximum.reduce([np.abs(v[:, None] - v[None, :]) for v in (x, y, r)])


def compile_params(rules: RulesData) -> HexParams:
    check_limits(rules, ENGINE_LIMITS)
    rows = rules["board.quarter_rows"] * rules["board.quarters_down"]
    cols = rules["board.quarter_cols"] * rules["board.quarters_across"]
    n_hex = rows * cols
    if n_hex > S.MAX_HEX:
        raise rules.fail("board.quarter_cols", f"the board would have {rows} x {cols} = {n_hex} "
                         f"hexes; the simulator holds at most {S.MAX_HEX}")
    base = rules["board.base_line_rows"]
    middle = rules["board.artefact_rows"]
    if 2 * base + middle > rows:
        raise rules.fail("board.artefact_rows", f"{middle} Artefact rows and two base lines of "
                         f"{base} rows do not fit in the board's {rows} rows")
    if (rows - middle) % 2:
        raise rules.fail("board.artefact_rows", f"the board's {rows} rows have no middle "
                         f"{middle} rows (rows - artefact_rows must be even)")
    first_mid = (rows - middle) // 2

    # ---- the Combat Results Table
    crt_keys = sorted(rules.keys_under("crt."), key=lambda k: int(k.rsplit("_", 1)[-1])
                      if k.rsplit("_", 1)[-1].isdigit() else 0)
    expected = [f"crt.defence_{d}" for d in range(1, len(crt_keys) + 1)]
    if crt_keys != expected:
        raise rules.fail(crt_keys[0] if crt_keys else "crt", "the table's rows must be "
                         "crt.defence_1, crt.defence_2, ... with no gap")
    if len(crt_keys) > S.MAX_CRT_ROWS:
        raise rules.fail(crt_keys[-1], f"the simulator holds at most {S.MAX_CRT_ROWS} rows")
    crt_rows = len(crt_keys)
    crt_cols = len(rules[crt_keys[0]])
    for key in crt_keys:
        if len(rules[key]) != crt_cols:
            raise rules.fail(key, f"has {len(rules[key])} numbers; every row needs {crt_cols} "
                             f"(as {crt_keys[0]})")

    # ---- counters: Good's kinds, then Bad's, each kind's copies together
    ip = np.zeros(S.I_SIZE, dtype=np.int64)
    kind_names: list[str] = []
    counter_names: list[str] = []
    counter_side: list[int] = []
    n = 0
    for side_i, side in enumerate(("good", "bad")):
        kinds = counter_kinds(rules, side)
        firsts = lasts = 0
        side_count = 0
        for kind in kinds:
            for key in COUNTER_KEYS:
                if f"{side}.{kind}.{key}" not in rules:
                    raise rules.fail(f"{side}.{kind}.{key}", "missing from the counter")
            count = rules[f"{side}.{kind}.count"]
            first = rules[f"{side}.{kind}.first"]
            last = rules[f"{side}.{kind}.last"]
            name = rules[f"{side}.{kind}.name"]
            attack = rules[f"{side}.{kind}.attack"]
            defence = rules[f"{side}.{kind}.defence"]
            if attack > crt_cols:
                raise rules.fail(f"{side}.{kind}.attack", f"{attack} has no column in the CRT "
                                 f"(attack values 1 to {crt_cols})")
            if defence > crt_rows:
                raise rules.fail(f"{side}.{kind}.defence", f"{defence} has no row in the CRT "
                                 f"(defence values 1 to {crt_rows})")
            if (first or last) and count > 1:
                raise rules.fail(f"{side}.{kind}.count", f"a counter that must come on "
                                 f"{'first' if first else 'last'} can have one copy only")
            if first and last:
                raise rules.fail(f"{side}.{kind}.last", "a counter cannot be both first and last")
            if count == 0:
                continue
            firsts += int(first)
            lasts += int(last)
            kind_index = len(kind_names)
            kind_names.append(name)
            for copy in range(count):
                if n >= S.MAX_COUNTERS:
                    raise rules.fail(f"{side}.{kind}.count", f"more than {S.MAX_COUNTERS} "
                                     "counters in all (the simulator's limit)")
                ip[S.I_C_SIDE + n] = side_i
                ip[S.I_C_ATTACK + n] = attack
                ip[S.I_C_DEFENCE + n] = defence
                ip[S.I_C_RANGE + n] = rules[f"{side}.{kind}.range"]
                ip[S.I_C_MOVE + n] = rules[f"{side}.{kind}.move"]
                ip[S.I_C_KIND + n] = kind_index
                ip[S.I_C_FIRST + n] = int(first)
                ip[S.I_C_LAST + n] = int(last)
                counter_names.append(name if count == 1 else f"{name} {copy + 1}")
                counter_side.append(side_i)
                n += 1
                side_count += 1
        if side_count == 0:
            raise rules.fail(f"{side}.{kinds[0]}.count" if kinds else side,
                             f"{side.capitalize()} needs at least one counter")
        if firsts > 1 or lasts > 1:
            raise rules.fail(side, "at most one counter of a side must come on first, and one last")
        if firsts and lasts and side_count < 2:
            raise rules.fail(side, "a side with one counter cannot have one first and one last")

    # ---- the board
    good_bottom = rules["board.good_base"] == "bottom"
    top = [r * cols + c for r in range(base) for c in range(cols)]
    bottom = [r * cols + c for r in range(rows - base, rows) for c in range(cols)]
    good_line, bad_line = (bottom, top) if good_bottom else (top, bottom)
    mid = [r * cols + c for r in range(first_mid, first_mid + middle) for c in range(cols)]
    n_art = rules["components.artefacts"]
    if n_art > len(mid):
        raise rules.fail("components.artefacts", f"{n_art} Artefacts do not fit in the "
                         f"{len(mid)} hexes of the Artefact area")
    free = n_hex - len(top) - len(bottom) - n_art
    if rules["components.undergrowth"] > free:
        raise rules.fail("components.undergrowth", f"at most {free} fit off the base lines "
                         "and the Artefacts' hexes")
    for h in range(n_hex):
        r, c = divmod(h, cols)
        ip[S.I_ROW + h] = r
        ip[S.I_COL + h] = c
        nbs = hex_neighbours(r, c, rows, cols)
        for d, x in enumerate(nbs):
            ip[S.I_NB + h * 6 + d] = x
        _bits(ip, S.I_NB_BITS + h * S.BIT_WORDS, [x for x in nbs if x >= 0])
    # the distance and ball tables whole, as arrays (hex by hex in Python they took most of a
    # configure: 60 ms of the default board's 85)
    dist = _distances(rows, cols)
    table = np.zeros((S.MAX_HEX, S.MAX_HEX), dtype=np.int64)
    table[:n_hex, :n_hex] = dist
    ip[S.I_DIST:S.I_DIST + S.MAX_HEX * S.MAX_HEX] = table.ravel()
    balls = _bitsets(dist[:, None, :] <= np.arange(S.MAX_BALL + 1)[None, :, None])
    ip[S.I_BALL_BITS:S.I_BALL_BITS + balls.size] = balls.ravel()
    _bits(ip, S.I_BASE_BITS + S.GOOD * S.BIT_WORDS, good_line)
    _bits(ip, S.I_BASE_BITS + S.BAD * S.BIT_WORDS, bad_line)
    _bits(ip, S.I_MIDDLE_BITS, mid)
    _bits(ip, S.I_BOARD_BITS, list(range(n_hex)))
    for c in range(n):
        rng_c = int(ip[S.I_C_RANGE + c])
        shots = _bitsets((dist >= 1) & (dist <= rng_c))
        off = S.I_C_RANGE_BITS + c * S.MAX_HEX * S.BIT_WORDS
        ip[off:off + shots.size] = shots.ravel()
    for side_i in range(2):
        mine = [c for c in range(n) if counter_side[c] == side_i]
        ip[S.I_SIDE_COUNTERS + side_i] = len(mine)
        ip[S.I_FIRST_OF + side_i] = next((c for c in mine if ip[S.I_C_FIRST + c]), -1)
        ip[S.I_LAST_OF + side_i] = next((c for c in mine if ip[S.I_C_LAST + c]), -1)
    for d, key in enumerate(crt_keys):
        for a, v in enumerate(rules[key]):
            ip[S.I_CRT + d * S.MAX_CRT_COLS + a] = v

    ip[S.I_ROWS] = rows
    ip[S.I_COLS] = cols
    ip[S.I_N_HEX] = n_hex
    ip[S.I_N_COUNTERS] = n
    ip[S.I_N_ARTEFACTS] = n_art
    ip[S.I_N_UNDERGROWTH] = rules["components.undergrowth"]
    ip[S.I_MAX_TURNS] = rules["max_turns"]
    ip[S.I_FIRST_SIDE] = S.GOOD if rules["first_side"] == "good" else S.BAD
    ip[S.I_ENTERED_MOVES] = int(rules["entered_counter_moves"])
    ip[S.I_ACCESS_PATH] = int(rules["undergrowth_access"] == "path")
    ip[S.I_WIN_POSSESSION] = int(rules["win_by"] == "possession")
    ip[S.I_DROP_PASSING] = int(rules["drop_in_passing"])
    ip[S.I_DIE_FACES] = rules["components.die_faces"]
    ip[S.I_BASE_ROWS] = base
    ip[S.I_GOOD_AT_BOTTOM] = int(good_bottom)
    ip[S.I_CRT_ROWS] = crt_rows
    ip[S.I_CRT_COLS] = crt_cols
    # a turn asks at most: what to bring on and where, then per counter which moves, whether it
    # leaves its Artefact (and in passing, where) and where it goes, which attacks and whom,
    # and the two "no more"s
    per_turn = 2 + 6 * n + 2
    fill_param_header(ip, state_size=S.S_SIZE, hidden_size=1, view_size=S.VIEW_WORDS,
                      mask_size=max(n_hex, S.MAX_COUNTERS + 1), record_size=S.R_SIZE, seats=2,
                      max_decisions=n_art + rules["components.undergrowth"]
                      + rules["max_turns"] * per_turn + 16)
    fp = np.zeros(S.F_SIZE, dtype=np.float64)
    fp[S.F_STALEMATE_WORTH] = rules["stalemate_worth"]
    return HexParams(ip, fp, rows, cols, tuple(kind_names),
                     tuple(counter_names), tuple(counter_side))
