"""The statistics every report and the CLI share (experiments/stats.py)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from experiments.stats import (
    fmt_diff,
    fmt_rate,
    half_width,
    length_distribution,
    outcome_rates,
    paired_difference,
    paired_rate_difference,
    seat_win_rates,
    unpaired_difference,
    wilson,
)


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
    lo, hi = sps.norm.interval(0.95, loc=np.mean(b - a), scale=sps.sem(b - a))
    assert d.lo == pytest.approx(lo) and d.hi == pytest.approx(hi)
    same = paired_difference(a, a)
    assert same.mean == 0 and same.lo == 0 and same.hi == 0


def test_formatting():
    assert fmt_rate(wilson(50, 100)) == "50.0% [40.4, 59.6]"
    d = paired_rate_difference(np.array([1, 1, 0, 1], bool), np.array([0, 1, 0, 1], bool))
    assert fmt_diff(d).startswith("+25.0 pts")
