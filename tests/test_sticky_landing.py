"""Sticky Cthulhu: where a throw lands, against the law the model states (STK-T-3, STK-T-6).

A throw's aim error is an isotropic normal (standard deviation aim_sd_cm per axis), so its
distance from the target is Rayleigh; a hit lands within the reach (reach_cm + the token
radius) and a miss beyond it.  These tests pin the landing radius down exactly (from the draw
that decided hit or miss) and in law (which tokens a throw picks up, against the chance
integrated from the Rayleigh density), so a landing radius off by any factor fails them.
"""
# ruff: noqa: N802  (test names carry the clause IDs)

import math

import numpy as np
import pytest
from numba import njit
from scipy import integrate, stats

from simcore.kernels import new_rng, rng_load, rng_seed, rng_uniform_v
from simcore.sticky.rules import (
    NEED_SLACK,
    OFF,
    creature_index,
    landing_need,
    landing_stuck,
    sincos_of_turn,
)
from simcore.sticky.state import EV_THROW, F_REACH, F_TOKEN_R, MAX_TOKENS, SK_AIM
from tests.test_sticky_rules import Board, run_race

ALPHA = 1e-3


@njit(cache=True)
def landings(seed, n, tx, ty, two_var, reach2, px, py):
    """n throws at (tx, ty): (u, landing x, landing y, bit mask of tokens 0..4 picked up)."""
    rng = np.empty(4, dtype=np.uint64)
    rng_seed(rng, seed, 0)
    st = rng_load(rng)
    out = np.empty((n, 4))
    for i in range(n):
        u, st = rng_uniform_v(st)
        m, lx, ly, st = landing_stuck(st, px, py, 5, tx, ty, u, two_var, reach2)
        out[i, 0] = u
        out[i, 1] = lx
        out[i, 2] = ly
        out[i, 3] = float(m)
    return out


def test_STK_T_3_the_landing_radius_follows_from_the_hit_draw(sticky):
    """The landing point lies sqrt(-2 sd^2 log(1 - u)) from the target, u being the draw
    that decided hit (u < p_hit) or miss: so a hit lands within the reach and a miss beyond
    it, and over throws the distance is Rayleigh with the seat's sd; the angle is uniform."""
    p = sticky.configure().params
    sd = p.skill[0, SK_AIM]
    two_var = 2 * sd * sd
    reach = p.fp[F_REACH] + p.fp[F_TOKEN_R]
    px = np.full(MAX_TOKENS, OFF)
    py = np.full(MAX_TOKENS, OFF)
    tx, ty = 30.0, 25.0
    out = landings(3, 20_000, tx, ty, two_var, reach * reach, px, py)
    u = out[:, 0]
    r = np.hypot(out[:, 1] - tx, out[:, 2] - ty)
    # (the landing point's sine and cosine are within 1.8e-9 of the library's, see rules.py)
    assert np.allclose(r, np.sqrt(-two_var * np.log1p(-u)), rtol=5e-9, atol=0)
    hit = u < p.phit[0, 0]
    assert (r[hit] <= reach).all() and (r[~hit] > reach).all()
    assert stats.kstest(r, "rayleigh", args=(0, sd)).pvalue > ALPHA
    angle = np.arctan2(out[:, 2] - ty, out[:, 1] - tx)
    assert stats.kstest((angle + np.pi) / (2 * np.pi), "uniform").pvalue > ALPHA
    assert (out[:, 3] == 0).all()  # nothing on this table


def contact_chance(d, reach, sd, hit):
    """Chance that a throw at a target picks up a token whose centre is ``d`` from it, given
    that the throw hit (lands within ``reach``) or missed: the share of the circle of radius r
    about the target within ``reach`` of the token, over the Rayleigh density of r."""
    def share(r):
        if r <= 0.0:
            return 1.0 if d <= reach else 0.0
        c = (r * r + d * d - reach * reach) / (2 * r * d)
        return math.acos(min(1.0, max(-1.0, c))) / math.pi

    def density(r):
        return r / sd**2 * math.exp(-r * r / (2 * sd * sd))

    inside = 1 - math.exp(-reach * reach / (2 * sd * sd))
    if hit:
        return integrate.quad(lambda r: share(r) * density(r), 0, reach, limit=200)[0] / inside
    lo, hi = max(reach, d - reach), d + reach  # share(r) is 0 beyond these
    return integrate.quad(lambda r: share(r) * density(r), lo, hi, limit=200)[0] / (1 - inside)


@pytest.mark.parametrize("d, hit", [(4.5, True), (6.0, True), (6.0, False), (9.0, False)])
def test_STK_T_3_throws_pick_up_an_investigator_at_the_rate_the_aim_gives(sticky, d, hit):
    """STK-T-3/T-6 over many first throws: an Investigator ``d`` cm from the target is picked
    up by a hit (or by a miss) at the chance integrated from the landing law.  A landing
    radius scaled by any factor changes these chances (halved, a hit reaches the Investigator
    at 4.5 cm about half as often, and at 6 cm never)."""
    config = sticky.configure({"max_throws": 1})
    p = config.params
    sd = p.skill[0, SK_AIM]
    reach = p.fp[F_REACH] + p.fp[F_TOKEN_R]
    expected = contact_chance(d, reach, sd, hit)
    assert 0.002 < expected < 0.6
    b = Board(p)
    target = b.put(creature_index(2, 2, p.ip), 30.0, 25.0)
    b.put(1, 30.0 + d / math.sqrt(2), 25.0 + d / math.sqrt(2))
    throws = picked = 0
    for seed in range(6000):
        out = run_race(config, b, target, seed=seed, index=7)
        first = next(e for e in out.events if e[0] == EV_THROW)
        if first[3] == int(hit):
            throws += 1
            picked += first[5]
    assert throws > 1000
    assert stats.binomtest(int(picked), throws, expected).pvalue > ALPHA, (picked, throws,
                                                                           expected)


def test_STK_T_3_halving_the_landing_radius_would_change_those_chances(sticky):
    """The chances above tell a halved landing radius apart (so the test above fails on it)."""
    p = sticky.configure().params
    sd = p.skill[0, SK_AIM]
    reach = p.fp[F_REACH] + p.fp[F_TOKEN_R]
    for d in (4.5, 6.0):
        full = contact_chance(d, reach, sd, True)
        # a radius halved: a hit lands at r/2, r Rayleigh on [0, reach]
        half = integrate.quad(
            lambda r, d=d: (math.acos(min(1.0, max(-1.0, ((r / 2) ** 2 + d * d - reach**2)
                                                   / (2 * max(r / 2, 1e-12) * d)))) / math.pi)
            * r / sd**2 * math.exp(-r * r / (2 * sd * sd)), 0, reach)[0] / (
            1 - math.exp(-reach**2 / (2 * sd * sd)))
        assert half < 0.6 * full


def test_STK_T_3_only_throws_that_could_reach_an_investigator_compute_their_landing(sticky):
    """The common path computes a landing point only for a draw u with (1 - u) P <=
    NEED_SLACK, P = landing_need(gap2, 1 / two_var): every draw that can land sqrt(gap2) or
    more from the target passes (so no contact is missed), and few more do."""
    u = np.linspace(0.0, 1.0, 200_001)[:-1]
    for gap in (0.0, 0.5, 2.0, 5.0, 10.0, 20.0):
        for sd in (1.0, 3.5, 6.0):
            two_var = 2 * sd * sd
            need = landing_need(gap * gap, 1 / two_var)
            passes = (1.0 - u) * need <= NEED_SLACK
            reaches = np.sqrt(-two_var * np.log1p(-u)) >= gap
            assert passes[reaches].all()
            # the extra draws it lets through are a small share of all draws
            assert (passes & ~reaches).mean() < 0.02
    assert landing_need(0.0, 1 / 24.5) == 1.0  # an Investigator within the reach: all pass
    assert landing_need(1e300, 1 / 24.5) == np.inf  # none on the table: none passes
    assert landing_need(4.0, np.inf) == np.inf  # a perfect aim lands on the target


def test_STK_T_3_investigator_contacts_at_the_defaults(sticky):
    """At four players most Investigator contacts happen on misses (the audit counted about
    1.4 a game on misses against 0.64 on hits), and the model keeps them all: contacts per
    game are about three times the hits that bring the target home with one."""
    recs = sticky.run_batch(sticky.configure(), 1, 0, 20_000)
    contacts = recs["investigator_contacts"].mean()
    hits = recs["investigator_hits"].mean()
    assert 1.7 < contacts < 2.5 and 0.5 < hits < 0.85
    assert contacts > 2.5 * hits


def test_STK_T_3_landing_sine_and_cosine_within_their_bound():
    """sincos_of_turn: within 1.8e-9 of the C library's sin and cos of 2 pi v over a turn
    (the bound REACH_GUARD is sized for), exact at the quarter turns."""
    v = np.concatenate([np.linspace(0.0, 1.0, 400_001)[:-1], [0.125, 0.375, 1 - 2**-53]])
    out = turn_sincos(v)
    assert np.abs(out[:, 0] - np.sin(2 * np.pi * v)).max() < 1.8e-9
    assert np.abs(out[:, 1] - np.cos(2 * np.pi * v)).max() < 1.8e-9
    assert list(turn_sincos(np.array([0.0, 0.25, 0.5, 0.75]))[:, 1]) == [1.0, 0.0, -1.0, 0.0]


@njit(cache=True)
def turn_sincos(v):
    out = np.empty((v.shape[0], 2))
    for i in range(v.shape[0]):
        out[i, 0], out[i, 1] = sincos_of_turn(v[i])
    return out


def test_new_rng_is_the_playout_stream():
    """(The stream the helper above seeds is the one new_rng gives.)"""
    a = new_rng(3, 0)
    rng = np.empty(4, dtype=np.uint64)
    rng_seed(rng, 3, 0)
    assert np.array_equal(a, rng)
