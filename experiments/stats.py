"""Statistics shared by the CLI and the reports: Wilson intervals, paired differences,
game-length summaries.  Every rate this project prints comes from here."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcore.game import Mean, Ratio, Share

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Rate:
    successes: int
    trials: int
    rate: float
    lo: float
    hi: float

    def as_dict(self) -> dict:
        return {"rate": self.rate, "ci95": [self.lo, self.hi], "n": self.trials}

    def __str__(self) -> str:
        return fmt_rate(self)


def wilson(successes: int, trials: int, z: float = Z95) -> Rate:
    """Wilson score interval for a binomial proportion (good near 0 and 1, unlike Wald)."""
    k = int(successes)
    n = int(trials)
    if n <= 0:
        return Rate(k, n, float("nan"), 0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return Rate(k, n, p, lo, hi)


@dataclass(frozen=True)
class Difference:
    mean: float
    lo: float
    hi: float
    n: int

    def as_dict(self) -> dict:
        return {"diff": self.mean, "ci95": [self.lo, self.hi], "n": self.n}

    def __str__(self) -> str:
        return fmt_diff(self)


# Two-sided 95% quantiles of Student's t for 1..10 degrees of freedom (beyond 10 the
# Cornish-Fisher expansion below is within 1e-5 of the exact value).
_T975 = (12.706204736174698, 4.302652729749464, 3.182446305284263, 2.7764451051977934,
         2.5705818356363146, 2.4469118511449692, 2.3646242515927844, 2.306004135204166,
         2.2621571628540993, 2.2281388519649385)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (a 95% interval's
    multiplier for a mean of df + 1 values); the normal 1.96 as df grows."""
    if df < 1:
        return float("inf")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    v = float(df)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3)
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z)
            / (92160 * v ** 4))


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean of ``values`` with its 95% interval (Student's t on the standard error):
    (mean, lo, hi); nan for no values, an infinite interval for one.  The interval comes from
    the values' spread, so it is zero-width when every value is the same: right for a figure
    that is constant by construction (Curse penalties with Curses off), overconfident for a
    handful of games that happen to agree."""
    v = np.asarray(values, dtype=np.float64)
    n = v.size
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(v.mean())
    if n == 1:
        return mean, float("-inf"), float("inf")
    half = t975(n - 1) * float(v.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def ratio_interval(num: np.ndarray, den: np.ndarray) -> tuple[float, float, float]:
    """A pooled ratio sum(num) / sum(den) over games (e.g. turns won by the roller over all
    turns) with its 95% interval, by the delta method with games as the independent units:
    se = sd(num_i - R den_i) / (mean(den) sqrt(n))."""
    x = np.asarray(num, dtype=np.float64)
    y = np.asarray(den, dtype=np.float64)
    n = x.size
    if n == 0 or y.sum() <= 0:
        return float("nan"), float("nan"), float("nan")
    r = float(x.sum() / y.sum())
    if n == 1:
        return r, float("-inf"), float("inf")
    se = float((x - r * y).std(ddof=1)) / (float(y.mean()) * math.sqrt(n))
    half = t975(n - 1) * se
    return r, r - half, r + half


def paired_difference(a: np.ndarray, b: np.ndarray) -> Difference:
    """Mean of a - b over paired playouts (same seed and index), with a 95% interval from
    Student's t on the per-pair differences; pairing removes the shared randomness from the
    variance.  For measurements such as game length; rates use ``paired_rate_difference``."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    n = a.size
    if n == 0:
        return Difference(float("nan"), float("nan"), float("nan"), 0)
    mean, lo, hi = mean_interval(a - b)
    return Difference(mean, lo, hi, n)


def unpaired_difference(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> Difference:
    """Difference of two independent proportions (Newcombe's hybrid Wilson interval)."""
    r1 = wilson(k1, n1, z)
    r2 = wilson(k2, n2, z)
    d = r1.rate - r2.rate
    lo = d - math.sqrt((r1.rate - r1.lo) ** 2 + (r2.hi - r2.rate) ** 2)
    hi = d + math.sqrt((r1.hi - r1.rate) ** 2 + (r2.rate - r2.lo) ** 2)
    return Difference(d, lo, hi, min(n1, n2))


def length_summary(values: np.ndarray) -> dict:
    """Mean, median and 90th percentile of a game-length column."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return {"mean": float("nan"), "p50": float("nan"), "p90": float("nan")}
    return {
        "mean": float(v.mean()),
        "p50": float(np.percentile(v, 50)),
        "p90": float(np.percentile(v, 90)),
    }


# ---- helpers shared by sweeps, comparisons and reports ----------------------------------


def outcome_rates(outcomes: np.ndarray, names: tuple[str, ...] | list[str]) -> dict[str, Rate]:
    """The share of each outcome (codes index ``names``), each with its Wilson interval."""
    codes = np.asarray(outcomes, dtype=np.int64)
    n = codes.size
    counts = np.bincount(codes, minlength=len(names)) if n else np.zeros(len(names), np.int64)
    return {name: wilson(int(counts[i]), n) for i, name in enumerate(names)}


def seat_wins(winners: np.ndarray, seats: int) -> tuple[np.ndarray, int]:
    """Games won by each seat (a winner of -1: nobody), and the number of games."""
    w = np.asarray(winners, dtype=np.int64)
    counts = np.bincount(w[w >= 0], minlength=seats) if w.size else np.zeros(seats, np.int64)
    return counts, w.size


def seat_win_rates(winners: np.ndarray, seats: int) -> list[Rate]:
    """Win rate of each seat (first-player advantage), each with its Wilson interval."""
    counts, n = seat_wins(winners, seats)
    return [wilson(int(counts[s]), n) for s in range(seats)]


def length_distribution(values: np.ndarray) -> dict:
    """A game-length column summarised: mean, sd, p10/p50/p90, min, max and the histogram
    (``hist[t]`` = number of games lasting ``t`` turns)."""
    v = np.asarray(values, dtype=np.int64)
    out = length_summary(v)
    if v.size == 0:
        out.update(sd=float("nan"), p10=float("nan"), min=0, max=0, hist=np.zeros(0, np.int64))
        return out
    out["sd"] = float(v.std(ddof=1)) if v.size > 1 else 0.0
    out["p10"] = float(np.percentile(v, 10))
    out["min"] = int(v.min())
    out["max"] = int(v.max())
    out["hist"] = np.bincount(np.clip(v, 0, None))
    return out


def paired_rate_difference(a: np.ndarray, b: np.ndarray, z: float = Z95) -> Difference:
    """Difference of two success rates measured on the same playouts (a - b), paired.

    Newcombe's score interval for paired proportions (Stat Med 1998;17:2635, method 10):
    Wilson limits for each rate, combined through the phi coefficient of the 2x2 table, with
    AD - BC reduced by n/2 when positive (a continuity correction on phi that errs on the
    wide side).  A normal interval on the per-playout
    differences would depend only on the playouts where a and b differ, so when common
    random numbers leave only a handful of those it is far too narrow (zero-width when none
    differ) and calls differences that an exact test would not."""
    a = np.asarray(a, dtype=bool)
    b = np.asarray(b, dtype=bool)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    both = int(np.count_nonzero(a & b))
    only_a = int(np.count_nonzero(a & ~b))
    only_b = int(np.count_nonzero(~a & b))
    return paired_counts_difference(both, only_a, only_b, a.size, z)


def paired_counts_difference(both: int, only_a: int, only_b: int, n: int,
                             z: float = Z95) -> Difference:
    """``paired_rate_difference`` from the counts of its 2x2 table: playouts where both
    events happened, only a, only b, out of n."""
    if n == 0:
        return Difference(float("nan"), float("nan"), float("nan"), 0)
    neither = n - both - only_a - only_b
    r1 = wilson(both + only_a, n, z)
    r2 = wilson(both + only_b, n, z)
    d = r1.rate - r2.rate
    cross = both * neither - only_a * only_b
    if cross > 0:
        cross = max(cross - n / 2.0, 0.0)
    margins = float(both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = cross / math.sqrt(margins) if margins > 0 else 0.0
    da1, du1 = r1.rate - r1.lo, r1.hi - r1.rate
    da2, du2 = r2.rate - r2.lo, r2.hi - r2.rate
    lo = d - math.sqrt(max(da1 ** 2 - 2 * phi * da1 * du2 + du2 ** 2, 0.0))
    hi = d + math.sqrt(max(du1 ** 2 - 2 * phi * du1 * da2 + da2 ** 2, 0.0))
    return Difference(d, max(lo, -1.0), min(hi, 1.0), n)


def seat_differences(winners: np.ndarray, seats: int) -> list[tuple[int, int, Difference]]:
    """For every pair of seats s < t, seat s's win rate minus seat t's, with the paired
    interval above: both come from the same games, in which at most one seat wins, so
    (unlike two separate Wilson intervals) the interval accounts for the one's win being
    the other's loss."""
    counts, n = seat_wins(winners, seats)
    return [(s, t, paired_counts_difference(0, int(counts[s]), int(counts[t]), n))
            for s in range(seats) for t in range(s + 1, seats)]


def resolve_figures(figures: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game's summary figures (``simcore.game.Mean``, ``Share``, ``Ratio``, plain values, or
    dicts of them) as (values, 95% intervals): the same keys, ``[lo, hi]`` for each figure
    that has an interval."""
    values: dict[str, Any] = {}
    intervals: dict[str, Any] = {}
    for key, fig in figures.items():
        if isinstance(fig, Mapping):
            values[key], sub = resolve_figures(fig)
            if sub:
                intervals[key] = sub
            continue
        if isinstance(fig, Mean):
            m, lo, hi = (mean_interval(fig.values) if fig.floor is None
                         else count_interval(fig.values, fig.floor))
        elif isinstance(fig, Share):
            r = wilson(fig.hits, fig.trials)
            m, lo, hi = (r.rate, r.lo, r.hi) if fig.trials > 0 else (float("nan"),) * 3
        elif isinstance(fig, Ratio):
            m, lo, hi = ratio_interval(fig.num, fig.den)
            if lo == lo and np.all(np.asarray(fig.num) >= 0) and np.all(np.asarray(fig.den) >= 0):
                lo = max(lo, 0.0)  # a ratio of counts is never below 0
        else:
            values[key] = fig
            continue
        values[key] = float(m)
        intervals[key] = [float(lo), float(hi)]
    return values, intervals


def share_keys(figures: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The keys of a game's summary figures that are shares (``Share``), as ``key`` or
    ``key.sub`` for a figure in a dict: they are written as rates (``rate_text``)."""
    out: list[str] = []
    for key, fig in figures.items():
        if isinstance(fig, Mapping):
            out += share_keys(fig, f"{prefix}{key}.")
        elif isinstance(fig, Share):
            out.append(prefix + key)
    return out


def headline(cooperative: bool) -> tuple[str, str]:
    """The rate every table and chart leads with: the team's win rate for a cooperative game,
    seat 0's for a competitive one; as (column prefix in sweep results, name)."""
    return ("win", "team win rate") if cooperative else ("seat0", "seat 0 win rate")


def headline_hits(cooperative: bool, outcome: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Per playout, did the headline event happen (the team won / seat 0 won)?"""
    if cooperative:
        return np.asarray(outcome) == 0
    return np.asarray(winner) == 0


def half_width(rate: Rate) -> float:
    """How far a rate's 95% interval reaches from the rate, on its longer side (the "plus or
    minus" of a sweep's precision).  Not half the width: a Wilson interval near 0 or 1 is
    lopsided (0 of 200 is [0, 1.9%]), and "0.0 ±0.9" would understate how far it reaches."""
    return max(rate.rate - rate.lo, rate.hi - rate.rate)


def pct(x: float, digits: int = 1) -> str:
    """A share as a percentage string."""
    return "n/a" if x != x else f"{100 * x:.{digits}f}%"


def rate_text(rate: float, lo: float | None = None, hi: float | None = None,
              digits: int = 1) -> str:
    """A share as this project writes every rate: percent with its 95% interval,
    ``41.4% [37.2, 45.8]`` (``41.4%`` without one; ``n/a`` for no games)."""
    if rate is None or rate != rate:
        return "n/a"
    text = f"{100 * rate:.{digits}f}%"
    if lo is not None and hi is not None and lo == lo and hi == hi:
        text += f" [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    return text


def fmt_rate(rate: Rate, digits: int = 1) -> str:
    """A :class:`Rate` as every rate is written (``rate_text``): ``52.3% [51.3, 53.3]``."""
    if rate.trials <= 0:
        return "n/a"
    return rate_text(rate.rate, rate.lo, rate.hi, digits)


def diff_text(diff: float, lo: float | None = None, hi: float | None = None, digits: int = 1,
              unit: str = "points", scale: float = 100.0) -> str:
    """A difference of two rates as every one is written: in percentage points with its 95%
    interval, ``+3.1 points [+1.0, +5.2]``; ``unit``/``scale`` for a difference of another
    measure (``+0.4 turns [+0.1, +0.7]``)."""
    if diff is None or diff != diff:
        return "n/a"
    text = f"{scale * diff:+.{digits}f} {unit}"
    if lo is not None and hi is not None and lo == lo and hi == hi:
        text += f" [{scale * lo:+.{digits}f}, {scale * hi:+.{digits}f}]"
    return text


def fmt_diff(diff: Difference, digits: int = 1, unit: str = "points", scale: float = 100.0) -> str:
    """A :class:`Difference` as every difference is written (``diff_text``):
    ``+3.1 points [+2.4, +3.8]``."""
    if diff.n <= 0:
        return "n/a"
    return diff_text(diff.mean, diff.lo, diff.hi, digits, unit, scale)


def count_interval(values: np.ndarray, floor: float = 0.0) -> tuple[float, float, float]:
    """``mean_interval`` of a count or a length (turns, Artefacts carried, cards played): its
    lower end clipped at ``floor``, the least the count can be, where the t interval of a
    small or skewed sample would reach below it."""
    m, lo, hi = mean_interval(values)
    if lo == lo:
        lo = max(lo, floor)
    return m, lo, hi
