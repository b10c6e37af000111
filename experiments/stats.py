"""Statistics shared by the CLI and the reports: Wilson intervals, paired differences,
game-length summaries.  Every rate this project prints comes from here."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

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
        return f"{100 * self.rate:6.2f}% [{100 * self.lo:6.2f}, {100 * self.hi:6.2f}]"


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


def wilson_half_width(successes: int, trials: int) -> float:
    r = wilson(successes, trials)
    return (r.hi - r.lo) / 2.0


@dataclass(frozen=True)
class Difference:
    mean: float
    lo: float
    hi: float
    n: int

    def as_dict(self) -> dict:
        return {"diff": self.mean, "ci95": [self.lo, self.hi], "n": self.n}

    def __str__(self) -> str:
        return f"{100 * self.mean:+6.2f} pts [{100 * self.lo:+6.2f}, {100 * self.hi:+6.2f}]"


def paired_difference(a: np.ndarray, b: np.ndarray, z: float = Z95) -> Difference:
    """Mean of a - b over paired playouts (same seed and index), with a normal 95% interval
    on the per-pair differences; pairing removes the shared randomness from the variance."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    n = a.size
    if n == 0:
        return Difference(float("nan"), float("nan"), float("nan"), 0)
    d = a - b
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n) if n > 1 else float("inf")
    return Difference(mean, mean - half, mean + half, n)


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


def seat_win_rates(winners: np.ndarray, seats: int) -> list[Rate]:
    """Win rate of each seat (first-player advantage), each with its Wilson interval."""
    w = np.asarray(winners, dtype=np.int64)
    n = w.size
    counts = np.bincount(w[w >= 0], minlength=seats) if n else np.zeros(seats, np.int64)
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


def paired_rate_difference(a: np.ndarray, b: np.ndarray) -> Difference:
    """Difference of two success rates measured on the same playouts (a - b), paired."""
    return paired_difference(np.asarray(a, dtype=bool), np.asarray(b, dtype=bool))


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
    """Half the width of a rate's 95% interval (the "plus or minus" of a sweep's precision)."""
    return (rate.hi - rate.lo) / 2.0


def pct(x: float, digits: int = 1) -> str:
    """A share as a percentage string."""
    return "n/a" if x != x else f"{100 * x:.{digits}f}%"


def fmt_rate(rate: Rate, digits: int = 1) -> str:
    """``52.3% [51.3, 53.3]``."""
    if rate.trials <= 0:
        return "n/a"
    return f"{100 * rate.rate:.{digits}f}% [{100 * rate.lo:.{digits}f}, {100 * rate.hi:.{digits}f}]"


def fmt_diff(diff: Difference, digits: int = 1, unit: str = "pts", scale: float = 100.0) -> str:
    """``+3.1 pts [+2.4, +3.8]``."""
    if diff.n <= 0:
        return "n/a"
    return (f"{scale * diff.mean:+.{digits}f} {unit} "
            f"[{scale * diff.lo:+.{digits}f}, {scale * diff.hi:+.{digits}f}]")
