"""The hex wargame's rules data: every assumed number says how far it could plausibly be put
(issue 28), and the game still loads at either end of every range."""

from __future__ import annotations

import strategies  # noqa: F401  (the strategy registry configure looks up)
from simcore.registry import get_game


def assumed_numbers():
    rules = get_game("hex").default_rules()
    return [e for e in rules.entries.values() if e.source == "assumed" and e.numeric]


def test_every_assumed_number_gives_its_plausible_range_with_a_reason():
    entries = assumed_numbers()
    assert len(entries) >= 30  # the counters' four numbers, the board, the counts, the cap
    for e in entries:
        assert e.plausible is not None, e.key  # given in the file, not the one-step default
        lo, hi = e.plausible
        assert lo <= e.value <= hi and lo < hi, e.key
        assert "Plausible" in e.note, e.key


def test_the_game_loads_with_every_assumed_number_at_either_end_of_its_range():
    g = get_game("hex")
    entries = assumed_numbers()
    for end in (0, 1):
        config = g.configure({e.key: e.plausible[end] for e in entries}, "heuristic")
        rec = g.trace_record(config, 1, 0)
        assert rec[0] in (0, 1, 2)


def test_the_board_tables_are_their_definitions_hex_by_hex():
    """The loader builds the distance, ball and range tables as whole arrays: on the printed
    board and a smaller one with other ranges, each entry is what its definition says
    (``hex_distance`` between the two hexes; the hexes within r steps; those 1 to range away)."""
    import numpy as np

    from simcore.hex import state as S
    from simcore.hex.loader import hex_distance

    def members(ip, off):
        words = ip[off:off + S.BIT_WORDS].view(np.uint64)
        return {w * 64 + b for w in range(S.BIT_WORDS) for b in range(64)
                if int(words[w]) >> b & 1}

    g = get_game("hex")
    for overrides in (None, {"board.quarters_across": 1, "good.colonel_grant.range": 5}):
        params = g.configure(overrides, "random").params
        ip, rows, cols = params.ip, params.rows, params.cols
        n_hex = rows * cols
        dist = {(h, k): hex_distance(divmod(h, cols), divmod(k, cols))
                for h in range(n_hex) for k in range(n_hex)}
        for (h, k), d in dist.items():
            assert ip[S.I_DIST + h * S.MAX_HEX + k] == d
        for h in range(0, n_hex, 7):
            for r in (0, 1, 3, S.MAX_BALL):
                off = S.I_BALL_BITS + (h * (S.MAX_BALL + 1) + r) * S.BIT_WORDS
                assert members(ip, off) == {k for k in range(n_hex) if dist[h, k] <= r}
            for c in range(len(params.counter_names)):
                reach = int(ip[S.I_C_RANGE + c])
                off = S.I_C_RANGE_BITS + (c * S.MAX_HEX + h) * S.BIT_WORDS
                assert members(ip, off) == {k for k in range(n_hex) if 1 <= dist[h, k] <= reach}
