"""The statistics every report and the CLI share (experiments/stats.py)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from experiments.stats import (
    Z95,
    Difference,
    Rate,
    count_interval,
    diff_text,
    fmt_diff,
    fmt_rate,
    half_width,
    length_distribution,
    mean_interval,
    outcome_rates,
    paired_difference,
    paired_rate_difference,
    rate_text,
    ratio_interval,
    resolve_figures,
    seat_differences,
    seat_win_rates,
    t975,
    unpaired_difference,
    wilson,
)
from simcore.game import Mean, Ratio, Share


def test_wilson_known_values():
    r = wilson(50, 100)
    assert r.rate == 0.5
    assert r.lo == pytest.approx(0.4038, abs=1e-4)
    assert r.hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10).lo == 0.0 and wilson(10, 10).hi == 1.0
    assert math.isnan(wilson(0, 0).rate)
    assert half_width(wilson(5000, 10000)) == pytest.approx(0.0098, abs=1e-4)


@given(st.integers(1, 100_000), st.data())
@settings(max_examples=200, deadline=None)
def test_wilson_brackets_the_rate(n, data):
    k = data.draw(st.integers(0, n))
    r = wilson(k, n)
    assert 0.0 <= r.lo <= r.rate <= r.hi <= 1.0


def test_wilson_coverage_near_95_percent():
    rng = np.random.default_rng(5)
    p, n = 0.07, 300
    ks = rng.binomial(n, p, size=4000)
    covered = np.mean([wilson(int(k), n).lo <= p <= wilson(int(k), n).hi for k in ks])
    assert 0.93 <= covered <= 0.97


def test_outcome_and_seat_rates():
    codes = np.array([0, 0, 1, 2, 0, 3])
    rates = outcome_rates(codes, ("win", "strength", "madness", "cap"))
    assert [r.successes for r in rates.values()] == [3, 1, 1, 1]
    assert sum(r.rate for r in rates.values()) == pytest.approx(1.0)
    seats = seat_win_rates(np.array([0, 1, 1, -1, 2]), 4)
    assert [s.successes for s in seats] == [1, 2, 1, 0]
    assert all(s.trials == 5 for s in seats)


def test_length_distribution():
    v = np.array([3, 5, 5, 7, 10])
    d = length_distribution(v)
    assert d["hist"].sum() == 5 and d["hist"][5] == 2
    assert d["mean"] == pytest.approx(6.0) and d["p50"] == 5 and d["min"] == 3
    assert d["max"] == 10 and d["sd"] == pytest.approx(np.std(v, ddof=1))


def test_paired_difference_is_narrower_than_unpaired_for_correlated_samples():
    rng = np.random.default_rng(1)
    u = rng.random(20000)
    a = u < 0.52
    b = u < 0.50  # the same playouts, a slightly stronger strategy
    paired = paired_rate_difference(a, b)
    unpaired = unpaired_difference(int(a.sum()), a.size, int(b.sum()), b.size)
    assert paired.mean == pytest.approx(unpaired.mean)
    assert paired.hi - paired.lo < 0.5 * (unpaired.hi - unpaired.lo)
    assert paired.lo > 0  # detected


def test_paired_difference_matches_a_t_interval():
    rng = np.random.default_rng(2)
    a = rng.normal(1.0, 2.0, 500)
    b = a + rng.normal(0.3, 1.0, 500)
    d = paired_difference(b, a)
    lo, hi = sps.t.interval(0.95, 499, loc=np.mean(b - a), scale=sps.sem(b - a))
    assert d.lo == pytest.approx(lo, abs=1e-9) and d.hi == pytest.approx(hi, abs=1e-9)
    same = paired_difference(a, a)
    assert same.mean == 0 and same.lo == 0 and same.hi == 0
    # few games: Student's t, not the normal 1.96 (29% wider at 5 games)
    few = paired_difference(b[:5], a[:5])
    lo, hi = sps.t.interval(0.95, 4, loc=np.mean(b[:5] - a[:5]), scale=sps.sem(b[:5] - a[:5]))
    assert few.lo == pytest.approx(lo) and few.hi == pytest.approx(hi)


def test_t975_matches_scipy():
    for df in list(range(1, 60)) + [100, 1000, 10**6]:
        assert t975(df) == pytest.approx(sps.t.ppf(0.975, df), abs=1e-5), df
    assert t975(10**9) == pytest.approx(Z95)


def test_mean_interval_is_students_t():
    v = np.array([3.0, 5.0, 4.0, 8.0, 6.0, 5.5])
    m, lo, hi = mean_interval(v)
    elo, ehi = sps.t.interval(0.95, 5, loc=v.mean(), scale=sps.sem(v))
    assert m == pytest.approx(v.mean()) and lo == pytest.approx(elo) and hi == pytest.approx(ehi)
    assert np.isnan(mean_interval(np.array([]))[0])
    assert mean_interval(np.array([2.0]))[1:] == (-math.inf, math.inf)


def test_ratio_interval_reduces_to_a_mean_and_covers():
    """With one unit per game the pooled ratio is the plain mean and its interval the mean's;
    with games of varying length it covers the true ratio about 95% of the time."""
    x = np.array([0.0, 1.0, 1.0, 0.0, 1.0])
    assert ratio_interval(x, np.ones(5)) == pytest.approx(mean_interval(x))
    rng = np.random.default_rng(5)
    covered = 0
    reps = 2000
    for _ in range(reps):
        turns = rng.integers(5, 20, 300)
        wins = rng.binomial(turns, 0.3)
        _, lo, hi = ratio_interval(wins, turns)
        covered += lo <= 0.3 <= hi
    assert 0.93 <= covered / reps <= 0.97


def test_paired_rate_interval_is_not_degenerate_when_few_games_differ():
    """Common random numbers often leave only a handful of games where two settings differ.
    A normal interval on the per-game differences is then zero-width (none differ) or
    declares a difference an exact McNemar test would not (4 against 0: p = 0.125)."""
    n = 1000
    a = np.zeros(n, bool)
    a[:300] = True
    same = paired_rate_difference(a, a)
    assert same.mean == 0 and same.lo < -0.001 and same.hi > 0.001
    b = a.copy()
    b[:4] = False  # a won 4 games b lost, never the reverse
    d = paired_rate_difference(a, b)
    assert d.mean == pytest.approx(0.004) and d.lo < 0 < d.hi
    assert sps.binomtest(4, 4).pvalue > 0.05


@pytest.mark.parametrize("p_a_only,p_b_only,n", [
    (0.05, 0.03, 1000),  # many games differ: the ordinary case
    (0.002, 0.0, 500),  # almost none differ
    (0.002, 0.001, 1000),
])
def test_paired_rate_interval_covers(p_a_only, p_b_only, n):
    """Coverage of the paired interval (Newcombe's method 10) for 0/1 outcomes on the same
    playouts, 45% won by both: at least 93% of intervals hold the true difference, and in
    the ordinary case the interval is not much wider than it needs to be (coverage under 99%)."""
    rng = np.random.default_rng(11)
    truth = p_a_only - p_b_only
    probs = [0.45, p_a_only, p_b_only, 1 - 0.45 - p_a_only - p_b_only]
    covered = 0
    reps = 1500
    for _ in range(reps):
        cell = rng.choice(4, size=n, p=probs)
        a = (cell == 0) | (cell == 1)
        b = (cell == 0) | (cell == 2)
        d = paired_rate_difference(a, b)
        covered += d.lo <= truth <= d.hi
    assert covered / reps >= 0.93
    if p_b_only > 0.01:
        assert covered / reps <= 0.99


def test_half_width_is_the_longer_side_of_a_lopsided_interval():
    r = wilson(0, 200)
    assert half_width(r) == pytest.approx(r.hi) and r.hi > 0.018
    r = wilson(3, 400)
    assert half_width(r) == pytest.approx(r.hi - r.rate)
    assert half_width(wilson(50, 100)) == pytest.approx(wilson(50, 100).hi - 0.5)


def test_resolve_figures_gives_values_and_intervals():
    values, intervals = resolve_figures({
        "m": Mean(np.array([1.0, 2.0, 3.0])),
        "share": Share(30, 100),
        "none": Share(0, 0),
        "ratio": Ratio(np.array([1, 2]), np.array([4, 4])),
        "nested": {"x": Mean(np.array([5.0, 7.0])), "plain": 3},
        "count": 12,
    })
    # (a count's interval stops at 0, where the t interval of 1, 2, 3 would reach -0.48)
    assert values["m"] == 2.0 and intervals["m"] == pytest.approx(
        [0.0, mean_interval(np.array([1.0, 2.0, 3.0]))[2]])
    assert values["share"] == 0.3 and intervals["share"] == [wilson(30, 100).lo,
                                                             wilson(30, 100).hi]
    assert math.isnan(values["none"])
    assert values["ratio"] == pytest.approx(3 / 8)
    assert values["nested"] == {"x": 6.0, "plain": 3} and set(intervals["nested"]) == {"x"}
    assert values["count"] == 12 and "count" not in intervals


def test_formatting():
    assert fmt_rate(wilson(50, 100)) == "50.0% [40.4, 59.6]"
    d = paired_rate_difference(np.array([1, 1, 0, 1], bool), np.array([0, 1, 0, 1], bool))
    assert fmt_diff(d).startswith("+25.0 points [")


def test_one_way_of_writing_rates_and_differences():
    """Every rate: percent with its 95% interval; every difference of rates: points with its
    interval; Rate and Difference print the same way."""
    r = wilson(414, 1000)
    assert rate_text(0.414, 0.372, 0.458) == "41.4% [37.2, 45.8]" == fmt_rate(
        Rate(414, 1000, 0.414, 0.372, 0.458))
    assert str(r) == fmt_rate(r) and rate_text(0.5) == "50.0%" and rate_text(float("nan")) == "n/a"
    assert diff_text(0.031, 0.010, 0.052) == "+3.1 points [+1.0, +5.2]"
    assert diff_text(0.4, 0.1, 0.7, unit="turns", scale=1.0) == "+0.4 turns [+0.1, +0.7]"
    d = Difference(-0.02, -0.05, 0.01, 100)
    assert str(d) == fmt_diff(d) == "-2.0 points [-5.0, +1.0]"


def test_a_count_interval_never_reaches_below_zero():
    """A mean of counts (most games 0, one 5) has a t interval reaching below 0: a count's
    interval is clipped at 0, and a game's Mean figures are counts unless they say not."""
    counts = np.array([0] * 9 + [5])
    assert mean_interval(counts)[1] < 0
    assert count_interval(counts)[1] == 0.0 and count_interval(counts)[2] > 0.5
    _, intervals = resolve_figures({"carried": Mean(counts), "signed": Mean(counts, floor=None),
                                    "ratio": Ratio(counts, np.ones(10))})
    assert intervals["carried"][0] == 0.0 and intervals["signed"][0] < 0
    assert intervals["ratio"][0] == 0.0


def test_seat_differences_are_paired_differences_of_each_pair():
    winners = np.array([0, 0, 0, 1, 2, -1, 0, 1, 3, 0])
    diffs = seat_differences(winners, 4)
    assert [(s, t) for s, t, _ in diffs] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    for s, t, d in diffs:
        direct = paired_rate_difference(winners == s, winners == t)
        assert (d.mean, d.lo, d.hi, d.n) == (direct.mean, direct.lo, direct.hi, direct.n)
    s, t, d = diffs[0]
    assert d.mean == pytest.approx(0.5 - 0.2)
    assert seat_differences(np.zeros(0, np.int64), 3)[0][2].n == 0


@pytest.mark.parametrize("p,n", [((0.3, 0.25, 0.25, 0.2), 200), ((0.76, 0.08, 0.08, 0.08), 100),
                                 ((0.02, 0.01, 0.5, 0.47), 300)])
def test_seat_difference_interval_covers(p, n):
    """One seat's win is the others' loss (the 2x2 table has no game both won): the interval
    still covers the true difference about 95% of the time (checked: 94-97%)."""
    rng = np.random.default_rng(7)
    truth = p[0] - p[1]
    reps = 1500
    covered = 0
    for _ in range(reps):
        winners = rng.choice(4, size=n, p=p)
        _, _, d = seat_differences(winners, 4)[0]
        covered += d.lo <= truth <= d.hi
    assert 0.925 <= covered / reps <= 0.985
