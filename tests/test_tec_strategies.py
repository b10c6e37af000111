"""Tiny Epic Cthulhu strategies: every decision goes through them, and the heuristic plays
sensibly (decisions checked on hand-made states, and against the random baseline)."""

import numpy as np

from experiments.running.comparison import compare
from simcore.engine import DECISION
from simcore.kernels import new_rng
from simcore.tec import state as S
from strategies.tec import HEURISTIC_PARAMS, heuristic
from tests.tec_support import params, table

DEFAULTS = np.array([p.default for p in HEURISTIC_PARAMS.values()])


def ask_heuristic(st: np.ndarray, kind: int, legal: list[int]) -> int:
    mask = np.zeros(S.LEGAL_SIZE, dtype=np.uint8)
    mask[legal] = 1
    st[DECISION] = kind
    view = np.zeros(1, dtype=np.int64)
    return int(heuristic(params(), np.zeros(1), st, view, mask, DEFAULTS, new_rng(1)))


def reroll_table(dice, rerolls, purpose, portal=0, number=3):
    tb = table()
    st = tb.st
    st[S.S_NDICE] = len(dice)
    st[S.S_DICE:S.S_DICE + len(dice)] = dice
    st[S.S_REROLLS] = rerolls
    st[S.S_CTX] = purpose
    st[S.S_CTX + 1] = portal
    st[S.portal(portal) + S.Q_NUMBER] = number
    masks = [m for m in range(1 << len(dice)) if bin(m).count("1") <= rerolls]
    return st, masks


def test_heuristic_keeps_a_seal_roll_that_already_succeeds():
    """TEC-DEL-2 rerolls are the strategy's choice: never reroll a roll that seals."""
    st, masks = reroll_table([1, 2, 2], 1, purpose=1, number=3)
    assert ask_heuristic(st, S.D_REROLL, masks) == 0


def test_heuristic_rerolls_the_lowest_die_of_a_failing_seal():
    st, masks = reroll_table([2, 0, 1], 1, purpose=1, number=4)
    assert ask_heuristic(st, S.D_REROLL, masks) == 0b010


def test_heuristic_rerolls_a_banish_only_when_it_can_lower_the_highest_die():
    st, masks = reroll_table([1, 1, 1], 1, purpose=0)
    assert ask_heuristic(st, S.D_REROLL, masks) == 0  # another 1 would still set the cost
    st, masks = reroll_table([0, 2, 1], 1, purpose=0)
    assert ask_heuristic(st, S.D_REROLL, masks) == 0b010


def test_heuristic_must_move_away_from_the_great_old_one():
    """TEC-MV-3: with a forced move, the heuristic picks a move (the mask allows nothing
    else), never the end of the turn."""
    tb = table(goo=2, chars=(2, 3))
    tb["must_move"] = 1
    legal = sorted(tb.legal_actions())
    a = ask_heuristic(tb.st, S.D_ACTION, legal)
    assert S.A_MOVE <= a < S.A_MOVE + S.N_TOWNS


def test_heuristic_goes_the_way_round_that_passes_a_face_down_page():
    """TEC-MV-1/4: offered both ways round, the heuristic takes the one passing a face-down
    Page card it may then flip; with nothing to flip, the shorter way."""
    tb = table(goo=1, chars=(0, 0))
    st = tb.st
    for t in range(S.N_TOWNS):
        st[S.town(t) + S.T_PAGE_STATE] = 1
    st[S.town(3) + S.T_PAGE_STATE] = 0
    st[S.S_CTX] = 2
    assert ask_heuristic(st, S.D_DIRECTION, [0, 1]) == 1  # counter-clockwise passes town 3
    st[S.town(3) + S.T_PAGE_STATE] = 1
    assert ask_heuristic(st, S.D_DIRECTION, [0, 1]) == 0  # the shorter way


def test_heuristic_translates_when_it_can():
    """With a payable face-up page where it stands, translating beats everything else."""
    tb = table(chars=(2, 3))
    tb.reveal(2, 0)  # card 0 costs one Greed
    tb.move("bag.greed", "char0.temp.greed")
    legal = sorted(tb.legal_actions())
    assert S.A_TRANSLATE in legal
    assert ask_heuristic(tb.st, S.D_ACTION, legal) == S.A_TRANSLATE


def test_heuristic_beats_random_by_a_wide_paired_margin():
    """The heuristic's plan pays: on the same playouts it wins far more often than random."""
    cmp = compare("tec", ["heuristic", "random"], {"players": 2}, games=2000, seed=3)
    summary = cmp.summary()
    rates = {s["strategy"]: s["rate"] for s in summary["strategies"]}
    assert rates["heuristic"] > 0.4 and rates["random"] < 0.05
    pair = summary["pairs"][0]  # random minus heuristic, paired over the same playouts
    assert (pair["a"], pair["b"]) == ("heuristic", "random")
    assert pair["ci95"][1] < -0.3
