"""The hex wargame's strategies: varied play (issue 26) and the heuristic's choices on
hand-built boards."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.hex import state as S
from strategies import hex as H
from tests.hex_support import Board


def setups(strategy: str, games: int, overrides: dict | None = None, seed: int = 11) -> list:
    """The setup (every placement in order) of each of ``games`` playouts."""
    g = Board().game
    config = g.configure({"max_turns": 1, **(overrides or {})}, strategy)
    out = []
    for k in range(games):
        events, _ = g.trace_events(config, seed, k)
        out.append(tuple((int(e[1]), int(e[2]), int(e[3])) for e in events
                         if int(e[0]) == S.EV_PLACE))
    return out


def test_the_heuristic_plays_varied_setups_from_its_own_stream():
    """Issue 26: placements about as good fall at random (``setup_noise``), so games differ;
    with no noise every game has the same setup."""
    varied = setups("heuristic", 200)
    assert len(set(varied)) >= 180
    assert all(len(x) == 11 for x in varied)  # three Artefacts, eight Undergrowth
    fixed = setups("heuristic", 20, {"strategy.setup_noise": 0.0, "strategy.tie_noise": 0.0})
    assert len(set(fixed)) == 1


def test_the_heuristic_brings_a_counter_on_out_of_danger_to_that_counter():
    """The entry hex weighs the danger to the counter coming on, whoever it is (it weighed
    John Wilson's whichever counter entered)."""
    b = Board()
    b.put("Colonel Grant", "d5")  # attack 3: kills a Cultist (defence 1) on a 3, the Monster
    # (defence 4) only on a 6
    b.artefact(0, "d4")  # two steps from d2
    ip, s = b.ip, b.s
    h = b.hex("d2")
    cultist = H.entry_value(ip, s, S.BAD, b.counter("Cultist 1"), h)
    monster = H.entry_value(ip, s, S.BAD, b.counter("Monster"), h)
    p_cultist = H.danger(ip, s, S.BAD, b.counter("Cultist 1"), h)
    p_monster = H.danger(ip, s, S.BAD, b.counter("Monster"), h)
    assert p_cultist == pytest.approx(4 / 6) and p_monster == pytest.approx(1 / 6)
    assert cultist == pytest.approx(-2.0 - 0.05 * 4 / 6)
    assert monster == pytest.approx(-2.0 - 0.05 * 1 / 6)


def test_search_values_a_stalemate_at_its_worth_and_a_lead_less_as_the_turns_run_out():
    """Issue 26 §3, stalls: search scores a stalemate at ``stalemate_worth`` (returns), and
    the estimate of an unfinished game (evaluate) falls towards it as the turn cap nears, so
    the same position reached later is worth less to the side ahead and search does not put
    off what it can do now."""
    from simcore import engine as E
    from simcore.hex import rules as R

    for worth in (0.5, 0.0):
        b = Board({"stalemate_worth": worth})
        b.artefact(0, "a8")  # Good has one home: Good is ahead
        b.artefact(1, "d4")
        b.artefact(2, "e5")
        b.put("John Wilson", "d6")
        b.put("Cultist 1", "d2")
        out = np.zeros(2)
        values = []
        for turn in (1, 60, 119, 120):
            b.s[E.TURN] = turn
            R.evaluate(b.ip, b.fp, b.s, out)
            values.append(out.copy())
        assert values[0][0] > values[1][0] > values[2][0] > worth  # Good's lead fades
        assert values[3][0] == pytest.approx(worth) and values[3][1] == pytest.approx(worth)
        b.s[E.OUTCOME] = S.O_STALEMATE
        b.s[E.WINNER] = -1
        R.returns(b.ip, b.fp, b.s, out)
        assert list(out) == [worth, worth]
