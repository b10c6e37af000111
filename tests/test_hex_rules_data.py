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
