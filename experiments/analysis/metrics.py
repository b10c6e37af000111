"""The headline number the balance tools move: what ``--metric`` names, measured on a
configuration's playouts with its 95% interval, and the paired difference between two
configurations played on the same playouts (common random numbers).

========================  ===============================================================
``win``                   the team's win rate (cooperative games; their default)
``seatK``                 seat K's win rate (competitive games; ``seat0`` is their default)
``gap``                   the largest seat gap: the best seat's win rate minus the worst's
``outcome:NAME``          the share of games ending in outcome NAME (``outcome:strength``)
``mean:FIELD``, ``turns`` the mean of a record field (``mean:portals_sealed``); a field that
                          dates an event (-1 where it never happened) is averaged over the
                          games where it did
========================  ===============================================================

Every interval comes from :mod:`experiments.stats`: Wilson for a share, Newcombe's paired
interval for the difference of two shares on the same playouts, Student's t for means and for
paired differences of means.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from experiments.stats import (
    Difference,
    mean_interval,
    paired_counts_difference,
    paired_difference,
    paired_rate_difference,
    seat_wins,
    wilson,
)


class MetricError(ValueError):
    """A metric or a target the game cannot have; the message names it and what is allowed."""


@dataclass(frozen=True)
class Estimate:
    """A metric measured on ``n`` playouts, with its 95% interval."""

    value: float
    lo: float
    hi: float
    n: int

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "ci95": [self.lo, self.hi], "games": self.n}

    def holds(self, target: float) -> bool:
        return self.lo <= target <= self.hi


@dataclass(frozen=True)
class Metric:
    name: str  # as typed back: win, seat0, gap, outcome:NAME, mean:FIELD
    label: str  # in words, for tables and charts
    kind: str  # share, gap or mean
    outcome: int | None = None
    seat: int | None = None
    seat2: int | None = None  # a pair: seat's win rate minus seat2's
    field: str | None = None
    event: bool = False  # a field dating an event: averaged where it happened

    @property
    def is_rate(self) -> bool:
        """A share of games (targets and values from 0 to 1, shown as percentages)."""
        return self.kind in ("share", "gap", "pair")

    def fmt(self, v: float, digits: int = 1) -> str:
        if v != v:
            return "n/a"
        return f"{100 * v:.{digits}f}%" if self.is_rate else f"{v:.{digits + 2}g}"

    def fmt_est(self, e: Estimate, digits: int = 1) -> str:
        if self.is_rate:
            return f"{100 * e.value:.{digits}f}% [{100 * e.lo:.{digits}f}, {100 * e.hi:.{digits}f}]"
        return f"{e.value:.4g} [{e.lo:.4g}, {e.hi:.4g}]"

    def fmt_diff(self, d: Difference, digits: int = 1) -> str:
        if d.n <= 0 or d.mean != d.mean:
            return "n/a"
        if self.is_rate:
            return (f"{100 * d.mean:+.{digits}f} pts [{100 * d.lo:+.{digits}f}, "
                    f"{100 * d.hi:+.{digits}f}]")
        return f"{d.mean:+.4g} [{d.lo:+.4g}, {d.hi:+.4g}]"

    @property
    def unit(self) -> str:
        return "points" if self.is_rate else (self.field or "")

    # ---- on one configuration -------------------------------------------------------------
    def undefined(self, config: Any) -> str | None:
        """Why this metric has no value in ``config`` (a seat it does not have), or None."""
        if self.kind == "share" and self.seat is not None:
            seats = config.game.seats(config.rules)
            if self.seat >= seats:
                return f"it has {seats} seats, so no seat {self.seat}"
        if self.kind == "gap" and config.game.seats(config.rules) < 2:
            return "it has fewer than two seats"
        if self.kind == "pair" and config.game.seats(config.rules) <= max(self.seat, self.seat2):
            return f"it has {config.game.seats(config.rules)} seats"
        return None

    def _gap_pair(self, recs: np.ndarray, config: Any) -> tuple[int, int, np.ndarray]:
        seats = config.game.seats(config.rules)
        counts, _ = seat_wins(recs["winner"], seats)
        best = int(np.argmax(counts))
        worst = int(np.argmin(counts))
        return best, worst, counts

    def values(self, recs: np.ndarray, config: Any) -> np.ndarray:
        """One value per playout whose mean is the metric (a gap's: +1 where the best seat
        won, -1 where the worst did, 0 otherwise); an event field's games without the event
        are NaN."""
        if self.kind == "share":
            if self.seat is not None:
                return (recs["winner"] == self.seat).astype(np.float64)
            return (recs["outcome"] == self.outcome).astype(np.float64)
        if self.kind in ("gap", "pair"):
            best, worst = ((self.seat, self.seat2) if self.kind == "pair"
                           else self._gap_pair(recs, config)[:2])
            w = recs["winner"]
            return (w == best).astype(np.float64) - (w == worst).astype(np.float64)
        v = recs[self.field].astype(np.float64)
        if self.event:
            v[v < 0] = np.nan
        return v

    def estimate(self, recs: np.ndarray, config: Any) -> Estimate:
        n = len(recs)
        if self.kind == "share":
            hits = int(self.values(recs, config).sum())
            r = wilson(hits, n)
            return Estimate(r.rate, r.lo, r.hi, n)
        if self.kind == "gap":
            best, worst, counts = self._gap_pair(recs, config)
            d = paired_counts_difference(0, int(counts[best]), int(counts[worst]), n)
            return Estimate(d.mean, max(d.lo, 0.0), d.hi, n)
        if self.kind == "pair":
            counts, _ = seat_wins(recs["winner"], config.game.seats(config.rules))
            d = paired_counts_difference(0, int(counts[self.seat]), int(counts[self.seat2]), n)
            return Estimate(d.mean, d.lo, d.hi, n)
        v = self.values(recs, config)
        m, lo, hi = mean_interval(v[~np.isnan(v)])
        return Estimate(m, lo, hi, n)

    def difference(self, a: np.ndarray, config_a: Any, b: np.ndarray, config_b: Any
                   ) -> Difference:
        """The metric of ``a`` minus that of ``b``, paired playout by playout (the two must be
        the same playouts of the same seed)."""
        if len(a) != len(b):
            raise ValueError("paired playouts must be as many")
        if self.kind == "share":
            return paired_rate_difference(self.values(a, config_a) > 0,
                                          self.values(b, config_b) > 0)
        va, vb = self.values(a, config_a), self.values(b, config_b)
        if self.kind in ("gap", "pair"):
            return paired_difference(va, vb)
        both = ~(np.isnan(va) | np.isnan(vb))  # (an event field: games where both had it)
        return paired_difference(va[both], vb[both])

    def same(self, a: np.ndarray, config_a: Any, b: np.ndarray, config_b: Any) -> bool:
        """Whether the metric's value is the same in every playout of ``a`` and ``b``."""
        va, vb = self.values(a, config_a), self.values(b, config_b)
        return bool(np.array_equal(va, vb, equal_nan=True))


def seat_pair(config: Any, a: int = 0, b: int = 1) -> Metric:
    """Seat ``a``'s win rate minus seat ``b``'s (what ``--target fair`` brings to 0 in a
    two-seat game)."""
    names = config.game.seat_names(config.rules)

    def name(s: int) -> str:
        return f"seat {s}" + (f" ({names[s]})" if names[s] != str(s) else "")

    return Metric(f"seat{a}-seat{b}", f"{name(a)} minus {name(b)} win rate", "pair", seat=a,
                  seat2=b)


def default_metric(game: Any) -> str:
    return "win" if game.kind.cooperative else "seat0"


def parse_metric(text: str | None, config: Any) -> Metric:
    """The metric ``text`` names for the game of ``config`` (its default when None)."""
    g = config.game
    name = (text or default_metric(g)).strip()
    low = name.lower()
    coop = bool(g.kind.cooperative)
    allowed = _allowed(g)
    if low == "win":
        if not coop:
            raise MetricError(f"--metric win: {g.name} is competitive, so it has no team win "
                              f"rate; allowed: {allowed}")
        return Metric("win", "team win rate", "share", outcome=0)
    m = re.fullmatch(r"seat[: ]?(\d+)", low)
    if m:
        if coop:
            raise MetricError(f"--metric {name}: {g.name} is cooperative (one team result), so "
                              f"it has no seats; allowed: {allowed}")
        seat = int(m[1])
        seats = g.seats(config.rules)
        if seat >= seats:
            raise MetricError(f"--metric {name}: this setting has {seats} seats (0 to "
                              f"{seats - 1}); allowed: {allowed}")
        names = g.seat_names(config.rules)
        label = f"seat {seat} win rate" + (f" ({names[seat]})" if names[seat] != str(seat)
                                           else "")
        return Metric(f"seat{seat}", label, "share", seat=seat)
    if low == "gap":
        if coop:
            raise MetricError(f"--metric gap: {g.name} is cooperative (one team result), so it "
                              f"has no seats to compare; allowed: {allowed}")
        return Metric("gap", "largest seat gap (best seat's win rate minus the worst's)", "gap")
    if low.startswith("outcome:"):
        out = name.split(":", 1)[1].strip()
        if out not in g.outcomes:
            raise MetricError(f"--metric {name}: {g.name} has no outcome {out!r}; its outcomes: "
                              f"{', '.join(g.outcomes)}")
        return Metric(f"outcome:{out}", f"share of games ending '{out}'", "share",
                      outcome=g.outcomes.index(out))
    if low.startswith("mean:") or low == "turns":
        field = "turns" if low == "turns" else name.split(":", 1)[1].strip()
        if field not in g.record_fields or field in ("outcome", "winner"):
            fields = [f for f in g.record_fields if f not in ("outcome", "winner")]
            raise MetricError(f"--metric {name}: {g.name} records no field {field!r}; its "
                              f"fields: {', '.join(fields)}")
        return Metric(f"mean:{field}", f"mean {field.replace('_', ' ')}", "mean", field=field,
                      event=field in g.event_fields)
    hint = ""
    if name in g.outcomes:
        hint = f" (for the share of the outcome, outcome:{name})"
    elif name in g.record_fields:
        hint = f" (for its mean, mean:{name})"
    raise MetricError(f"--metric {name}: not a metric of {g.name}{hint}; allowed: {allowed}")


def _allowed(g: Any) -> str:
    first = "win" if g.kind.cooperative else "seat0 (seat1 ...), gap"
    return f"{first}, outcome:NAME ({', '.join(g.outcomes)}), mean:FIELD (e.g. turns)"


def parse_target(text: str, metric: Metric, what: str = "--target") -> float:
    """A target value: a number (``0.5``) or, for a share, a percentage (``50%``); a share's
    target must lie in [0, 1]."""
    t = text.strip()
    pct = t.endswith("%")
    try:
        v = float(t[:-1] if pct else t)
    except ValueError:
        raise MetricError(f"{what} {text}: not a number (e.g. 0.5, or 50%)") from None
    if not math.isfinite(v):
        raise MetricError(f"{what} {text}: not a finite number")
    if pct:
        if not metric.is_rate:
            raise MetricError(f"{what} {text}: a percentage, but {metric.name} is a mean, not a "
                              "share of games")
        v /= 100.0
    if metric.is_rate and not 0.0 <= v <= 1.0:
        raise MetricError(f"{what} {text}: outside [0, 1] ({metric.label} is a share of games; "
                          "give 0.5 or 50%)")
    return v
