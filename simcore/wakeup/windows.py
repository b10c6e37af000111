"""Wake Up, Cthulhu!: the Object windows outside auctions and who is asked first (WUC-CJ-5):
Ran-Tegoth once tokens are placed (WUC-OB-2), R'lyeh against C'thonian's return (WUC-CU-8,
WUC-OB-4).  The answers are applied by ``rules.step``.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import ask, frame_get, frame_pop, frame_push, frame_set
from simcore.wakeup import base as B
from simcore.wakeup import cards as CD
from simcore.wakeup import line as L
from simcore.wakeup import state as S


@njit(cache=True, _nrt=False, forceinline=True)
def nearest(ip, s, k):
    """WUC-CJ-5 "the closest one to the player with the turn": the ``k``-th seat asked, the
    active player being the 0th.  Nearest first counting seats either way round the table;
    with four players the left neighbour (who plays next) before the right one, the seat
    opposite last.  By the switch ``object_order = "turn_order"``: clockwise."""
    n = B.seats_of(ip)
    off = k
    if n == 4 and ip[S.I_ORDER_TURN] == 0 and k >= 2:
        off = 5 - k  # 2 -> the right neighbour (3), 3 -> the seat opposite (2)
    return (s[S.S_ACTIVE] + off) % n


@njit(cache=True, _nrt=False)
def push_ran_tegoth(s, amount):
    frame_push(s, S.PR_RAN_TEGOTH)
    frame_set(s, 0, amount)
    frame_set(s, 1, 0)


@njit(cache=True, _nrt=False)
def run_ran_tegoth(ip, s, ev, evn):
    """WUC-OB-2, WUC-CJ-5: the other players, the nearest to the active one first
    (``nearest``), are offered Ran-Tegoth in turn; the first to play it takes the window.  In
    solitaire only by the switch ``solo_ran_tegoth`` (``solo.run_solo_cthulhu``)."""
    n = B.seats_of(ip)
    k = frame_get(s, 1)
    if B.is_solo(ip):
        if k == 0 and CD.can_use(ip, s, 0, S.O_RAN_TEGOTH):
            ask(s, 0, S.D_RAN_TEGOTH)
            return True
        frame_pop(s)
        return False
    while k < n - 1:
        p = nearest(ip, s, 1 + k)
        if CD.can_use(ip, s, p, S.O_RAN_TEGOTH) and s[S.S_RESERVE + p] > 0:
            frame_set(s, 1, k)
            ask(s, p, S.D_RAN_TEGOTH)
            return True
        k += 1
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def cthonian_targets(ip, s, shielded):
    """The squares of the two tokens nearest the end where Cthulhu began (WUC-CU-8), the
    tokens of shielded seats not counted (WUC-OB-4)."""
    x = 0
    for p in range(B.seats_of(ip)):
        if not (shielded >> p) & 1:
            x |= s[S.S_OCC + p]
    t = 0
    for _ in range(ip[S.I_CTH_RETURN]):
        if x == 0:
            break
        q = B.highest(x)
        t |= 1 << q
        x &= ~(1 << q)
    return t


@njit(cache=True, _nrt=False)
def run_cthonian(ip, s, ev, evn):
    n = B.seats_of(ip)
    k = frame_get(s, 0)
    shielded = frame_get(s, 1)
    t = cthonian_targets(ip, s, shielded)
    while k < n:
        p = nearest(ip, s, k)
        if (s[S.S_OCC + p] & t) != 0 and not (shielded >> p) & 1 and \
                CD.can_use(ip, s, p, S.O_RLYEH):
            frame_set(s, 0, k)
            ask(s, p, S.D_SHIELD)
            return True
        k += 1
    while t != 0:
        q = B.lowest(t)
        t &= t - 1
        p = L.owner(ip, s, q)
        s[S.S_OCC + p] &= ~(1 << q)
        s[S.S_RESERVE + p] += 1
        s[S.S_RETURNED] += 1
        B.log(ev, evn, S.EV_RETURN, p, q, 0, 0, 0, 0, 0)
    L.close_gaps(ip, s)
    L.update_flags(ip, s)
    frame_pop(s)
    return False
