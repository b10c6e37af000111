"""Tiny Epic Cthulhu heuristic, issue 15 part 2: the team's plan for phase two (who stocks
which Madness for the seals ahead), checked on hand-made tables."""
# ruff: noqa: N802  (test names carry the clause IDs, e.g. test_TEC_SE_2_...)

import numpy as np
import pytest

from simcore.engine import DECISION
from simcore.kernels import new_rng
from simcore.tec import state as S
from strategies import tec as H
from strategies.tec import HEURISTIC_PARAMS
from tests.tec_support import table

NAMES = list(HEURISTIC_PARAMS)


def values(**over) -> np.ndarray:
    v = np.array([p.default for p in HEURISTIC_PARAMS.values()], dtype=np.float64)
    for k, x in over.items():
        v[NAMES.index(k)] = x
    return v


def team_table(portals=((0, 3), (0, 2), (1, 3))):
    """Phase one, no face-up Page card (so no page to collect for), the portals open as
    given ((colour, number) each; the others sealed), no Madness on anyone's mat; char0 has
    one blue rune and two red ones, char1 three blue runes and one red one."""
    tb = table(chars=(2, 3))
    for q in range(S.N_PORTALS):
        tb[f"portal{q}.sealed"] = 1
    for q, (colour, number) in enumerate(portals):
        tb[f"portal{q}.colour"] = colour
        tb[f"portal{q}.number"] = number
        tb[f"portal{q}.sealed"] = 0
    for t in range(S.N_TOWNS):
        assert tb[f"town{t}.page_state"] != 1
    for c in range(tb["nchars"]):
        for k in range(3):
            tb[f"char{c}.temp.{k}"] = 0
            tb[f"char{c}.runes.{k}"] = 0
        tb[f"char{c}.ability"] = S.AB_SCHOLAR
    tb["char0.runes.blue"] = 1
    tb["char0.runes.red"] = 2
    tb["char1.runes.blue"] = 3
    tb["char1.runes.red"] = 1
    return tb


TEAM = {"prepare_slack": 0, "seal_stock": 1}  # only the team's best sealer, one Madness


def test_TEC_SE_2_the_team_stocks_each_colour_with_its_best_sealer():
    """TEC-SE-2 (a die per rune of the portal's colour) and TEC-SE-4 (a seal is covered with a
    Madness of its colour): before the flip, with prepare_slack 0, each character stocks one
    Madness of the colours no teammate rolls more dice for; with slack 3 (the default), of
    every colour it rolls a die for; with prepare_tokens 0 (before issue 15), none."""
    tb = team_table()
    ip, st = tb.ip, tb.st
    assert H.needs(ip, st, 0, values(**TEAM)) == (0, 1, 0)  # char1 rolls more for blue
    assert H.needs(ip, st, 1, values(**TEAM)) == (1, 0, 0)
    assert H.needs(ip, st, 0, values(seal_stock=1)) == (1, 1, 0)
    assert H.needs(ip, st, 0, values(**TEAM, prepare_tokens=0)) == (0, 0, 0)
    assert H.needs(ip, st, 0, values(prepare_slack=1, seal_stock=1)) == (0, 1, 0)
    assert H.needs(ip, st, 0, values(prepare_slack=2, seal_stock=1)) == (1, 1, 0)
    tb["char0.temp.red"] = 1  # already held
    assert H.needs(ip, st, 0, values(**TEAM)) == (0, 0, 0)


def test_TEC_SE_2_stock_counts_the_open_portals_of_a_colour():
    """With seal_stock 2 (the default) a sealer wants a Madness for each open portal of its
    colour (two blue here), one where only one is open; a sealed portal asks for nothing."""
    tb = team_table()
    ip, st = tb.ip, tb.st
    assert H.needs(ip, st, 1, values()) == (2, 1, 0)
    assert H.needs(ip, st, 0, values()) == (2, 1, 0)
    tb["portal2.sealed"] = 1
    assert H.needs(ip, st, 0, values()) == (2, 0, 0)


def test_TEC_SE_2_with_stock_team_the_second_madness_waits_on_the_others():
    """stock_team: the second Madness of a colour only while the colour's other sealers hold
    fewer of it than its open portals less one."""
    tb = team_table()
    ip, st = tb.ip, tb.st
    assert H.needs(ip, st, 0, values(stock_team=1))[0] == 2
    tb["char1.temp.blue"] = 1  # char1 (a blue sealer) covers the second blue portal
    assert H.needs(ip, st, 0, values(stock_team=1))[0] == 1
    assert H.needs(ip, st, 0, values(stock_team=0))[0] == 2


def test_TEC_SE_2_ties_and_the_occultist_count_as_the_rules_count_dice():
    """Equal dice: both stock the colour; the Occultist's extra die counts (TEC-SE-2 and its
    ability), so a one-rune Occultist matches a two-rune teammate."""
    tb = team_table()
    ip, st = tb.ip, tb.st
    tb["char1.runes.red"] = 2
    assert H.needs(ip, st, 0, values(**TEAM))[1] == 1
    assert H.needs(ip, st, 1, values(**TEAM))[1] == 1
    tb["char1.runes.red"] = 1
    tb["char1.ability"] = S.AB_OCCULTIST
    tb["char1.amount"] = 1
    assert H.needs(ip, st, 1, values(**TEAM))[1] == 1


def test_TEC_SE_2_stocking_waits_for_the_last_page_tokens():
    """prepare_tokens: stocking starts once at most that many Page tokens are left to place."""
    tb = team_table()
    ip, st = tb.ip, tb.st
    left = tb["page_pile"]
    assert H.needs(ip, st, 0, values(**TEAM, prepare_tokens=left)) == (0, 1, 0)
    assert H.needs(ip, st, 0, values(**TEAM, prepare_tokens=left - 1)) == (0, 0, 0)


@pytest.mark.parametrize("slack,want", [(0, S.STOP), (3, 0)])
def test_TEC_CO_1_a_collect_takes_what_the_team_plan_asks(slack, want):
    """TEC-CO-1: collecting, char0 (not the team's best blue sealer) leaves a blue Madness to
    its teammate with prepare_slack 0, and takes it with slack 3 (the default)."""
    tb = team_table(portals=((0, 3),))
    st = tb.st
    tb.move("bag.blue", "town2.mad.blue")
    mask = np.zeros(S.LEGAL_SIZE, dtype=np.uint8)
    mask[[0, S.STOP]] = 1
    st[DECISION] = S.D_COLLECT
    got = H.heuristic(tb.ip, np.zeros(1), st, np.zeros(1, dtype=np.int64), mask,
                      values(prepare_slack=slack), new_rng(1))
    assert int(got) == want


def test_TEC_DEL_3_a_character_near_madness_stocks_nothing():
    """TEC-DEL-3 (mad on the Delirium Track's top space): with ``stock_room`` 2 a character
    stocks only while more than two further accursed Temperament Tracks would leave it sane;
    stocked Madness fills the tracks that a forced draw accurses."""
    tb = team_table()
    ip, st = tb.ip, tb.st
    length = tb["char0.del_len"]
    tb["char0.brain"] = length - 4  # three more accursed tracks leave it sane
    assert H.needs(ip, st, 0, values(**TEAM, stock_room=2)) == (0, 1, 0)
    tb["char0.brain"] = length - 3  # two more
    assert H.needs(ip, st, 0, values(**TEAM, stock_room=2)) == (0, 0, 0)
    assert H.needs(ip, st, 0, values(**TEAM, stock_room=1)) == (0, 1, 0)


def test_TEC_SE_2_small_teams_may_leave_the_stock_out():
    """``stock_players``: the stock is kept only by teams of at least that many characters."""
    tb = team_table()
    ip, st = tb.ip, tb.st
    assert H.needs(ip, st, 0, values(**TEAM, stock_players=2)) == (0, 1, 0)
    assert H.needs(ip, st, 0, values(**TEAM, stock_players=3)) == (0, 0, 0)
