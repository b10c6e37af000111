"""Claims of order checked on a sweep: "Nyarlathotep is the easiest, then Yog-Sothoth, Yig,
Cthulhu", "Hard is harder than Normal".

A claim names an axis of the sweep and some of its values, in the order in which the rate
must fall (the first value has the highest rate). It holds in a group of cells (the cells
that share every other axis's value) when each value's rate is above the next one's with the
two 95% intervals apart (the lower end of the first above the upper end of the second): a
difference that sampling noise cannot explain, whatever the pairing. It holds when it holds in
every group. ``check_orders`` does this on a sweep's results table (one row per cell, as
``results.parquet`` has them), ``format_check`` prints every cell and every verdict;
``cthulhu-sim order`` is the command line.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from experiments.reporting.text import fmt_value, python_scalars


class OrderError(ValueError):
    """A claim or a metric that does not fit the sweep (one line: what and what is allowed)."""


@dataclass(frozen=True)
class Claim:
    """The rate falls along ``values`` of ``axis`` (first value: the highest rate)."""

    axis: str
    values: tuple[Any, ...]

    def text(self) -> str:
        return f"{self.axis}: " + " > ".join(fmt_value(v) for v in self.values)


@dataclass(frozen=True)
class Pair:
    """One step of a claim in one group: ``upper`` must be above ``lower``."""

    claim: Claim
    group: tuple[tuple[str, Any], ...]  # the other axes' values
    upper: Any
    lower: Any
    rate_upper: float
    lo_upper: float
    hi_upper: float
    rate_lower: float
    lo_lower: float
    hi_lower: float

    @property
    def gap(self) -> float:
        """How far apart the two intervals are (negative: they overlap by that much)."""
        return self.lo_upper - self.hi_lower

    @property
    def holds(self) -> bool:
        return self.gap > 0.0

    @property
    def wrong_way(self) -> bool:
        """The rates themselves are in the other order (or equal)."""
        return self.rate_upper <= self.rate_lower

    @property
    def reversed(self) -> bool:
        """Clearly the other way round: ``lower``'s interval wholly above ``upper``'s."""
        return self.lo_lower - self.hi_upper > 0.0


def verdict(pairs: Sequence[Pair]) -> str:
    """One group's steps of a claim read together: ``holds`` (every neighbouring pair's
    intervals apart, in order), ``flips`` (some pair clearly the other way round) or
    ``unclear`` (in order or overlapping, but not proven)."""
    if all(p.holds for p in pairs):
        return "holds"
    return "flips" if any(p.reversed for p in pairs) else "unclear"


@dataclass
class Check:
    """Every pair of every claim; ``holds`` when every one does."""

    claims: list[Claim]
    metric: str
    pairs: list[Pair] = field(default_factory=list)

    @property
    def holds(self) -> bool:
        return all(p.holds for p in self.pairs)

    def failures(self) -> list[Pair]:
        return [p for p in self.pairs if not p.holds]

    def of(self, claim: Claim) -> list[Pair]:
        return [p for p in self.pairs if p.claim == claim]


METRIC_WORDS = {"win": "team win rate"}


def metric_columns(metric: str) -> tuple[str, str, str]:
    """The results columns (rate, lower end, upper end) of ``metric``: ``win`` (a
    cooperative game's team win rate), ``seatK`` (seat K's win rate) or ``outcome:NAME``."""
    if metric == "win":
        return "win_rate", "win_lo", "win_hi"
    if metric.startswith("seat") and metric[4:].isdigit():
        return f"{metric}_rate", f"{metric}_lo", f"{metric}_hi"
    if metric.startswith("outcome:") and metric[8:]:
        name = metric[8:]
        return f"p_{name}", f"p_{name}_lo", f"p_{name}_hi"
    raise OrderError(f"--metric {metric}: not a metric; allowed: win, seatK (K = 0, 1, ...), "
                     "outcome:NAME")


def claim_axis(text: str) -> str:
    """The axis ``AXIS=V1,V2,...`` names; an OrderError of one line when there is none."""
    axis, sep, _ = text.partition("=")
    axis = axis.strip()
    if not sep or not axis:
        raise OrderError(f"--order {text}: write AXIS=V1,V2,... (highest rate first), e.g. "
                         "goo=nyarlathotep,yog-sothoth,yig,cthulhu")
    return axis


def split_claim(text: str) -> tuple[str, list[str]]:
    """``AXIS=V1,V2,...`` as the axis and its value words (at least two, none empty); an
    OrderError of one line otherwise.  The words are checked against the axis by the
    caller (:func:`parse_claim` for a sweep)."""
    axis = claim_axis(text)
    words = [w.strip() for w in text.partition("=")[2].split(",")]
    if len(words) < 2 or any(not w for w in words):
        raise OrderError(f"--order {text}: give at least two values of {axis}, separated by "
                         "commas, highest rate first")
    return axis, words


def parse_claim(text: str, axes: Mapping[str, Sequence[Any]]) -> Claim:
    """``goo=nyarlathotep,yog-sothoth,yig,cthulhu`` against the sweep's ``axes``: the axis
    must be one of them and every value one of its values (written as in the spec)."""
    axis = claim_axis(text)
    if axis not in axes:
        raise OrderError(f"--order {text}: '{axis}' is not an axis of this sweep; its axes: "
                         + ", ".join(axes))
    words = split_claim(text)[1]
    by_text = {fmt_value(v): v for v in axes[axis]}
    unknown = [w for w in words if w not in by_text]
    if unknown:
        raise OrderError(f"--order {text}: {', '.join(unknown)} not a value of {axis}; its "
                         "values: " + ", ".join(by_text))
    if len(set(words)) < len(words):
        raise OrderError(f"--order {text}: a value is named twice")
    return Claim(axis, tuple(by_text[w] for w in words))


def _key(row: Mapping[str, Any], names: Sequence[str]) -> tuple[str, ...]:
    """A results row's cell as the axis values written out (numpy's booleans and integers,
    as a results table holds them, written as the spec's)."""
    return tuple(fmt_value(python_scalars(row[a])) for a in names)


def check_orders(results: pd.DataFrame, axes: Mapping[str, Sequence[Any]],
                 claims: Sequence[Claim], metric: str = "win") -> Check:
    """Every step of every claim in every group of cells (the other axes' values); a group
    missing a cell (an unfinished sweep) is named, not skipped."""
    rate_c, lo_c, hi_c = metric_columns(metric)
    missing_cols = [c for c in (rate_c, lo_c, hi_c) if c not in results]
    if missing_cols:
        raise OrderError(f"--metric {metric}: this sweep has no {missing_cols[0]} column "
                         "(win is for cooperative games; seatK for competitive ones)")
    index: dict[tuple, Any] = {}
    names = list(axes)
    for row in results.to_dict("records"):
        index[_key(row, names)] = row
    out = Check(list(claims), metric)
    for claim in claims:
        others = [a for a in names if a != claim.axis]
        for combo in itertools.product(*(axes[a] for a in others)):
            group = tuple(zip(others, combo, strict=True))
            values = dict(group)
            for upper, lower in itertools.pairwise(claim.values):
                rows = []
                for v in (upper, lower):
                    values[claim.axis] = v
                    key = tuple(fmt_value(values[a]) for a in names)
                    if key not in index:
                        cell = ", ".join(f"{a}={fmt_value(values[a])}" for a in names)
                        raise OrderError(f"the sweep has no results for the cell {cell} "
                                         "(finish it with `sweep --resume`)")
                    rows.append(index[key])
                a, b = rows
                out.pairs.append(Pair(claim, group, upper, lower,
                                      float(a[rate_c]), float(a[lo_c]), float(a[hi_c]),
                                      float(b[rate_c]), float(b[lo_c]), float(b[hi_c])))
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _group_text(group: tuple[tuple[str, Any], ...]) -> str:
    return ", ".join(f"{a} {fmt_value(v)}" for a, v in group) or "all"


def _pair_text(p: Pair) -> str:
    return (f"{fmt_value(p.upper)} {_pct(p.rate_upper)}% [{_pct(p.lo_upper)}, "
            f"{_pct(p.hi_upper)}] > {fmt_value(p.lower)} {_pct(p.rate_lower)}% "
            f"[{_pct(p.lo_lower)}, {_pct(p.hi_lower)}] ({_group_text(p.group)})")


def cell_table(results: pd.DataFrame, axes: Mapping[str, Sequence[Any]], metric: str = "win",
               column_axis: str | None = None) -> str:
    """Every cell as a Markdown table: one row per combination of the other axes, one column
    per value of ``column_axis`` (default: the last axis); each entry the rate and its 95%
    interval, in percent."""
    rate_c, lo_c, hi_c = metric_columns(metric)
    names = list(axes)
    col = column_axis or names[-1]
    if col not in axes:
        raise OrderError(f"--columns {col}: not an axis of this sweep; its axes: "
                         + ", ".join(names))
    rows_axes = [a for a in names if a != col]
    index = {_key(r, names): r for r in results.to_dict("records")}
    head = "| " + " | ".join(rows_axes) + " | " + " | ".join(
        f"{col} {fmt_value(v)}" for v in axes[col]) + " |"
    lines = [head, "|" + "---|" * len(rows_axes) + "---:|" * len(axes[col])]
    for combo in itertools.product(*(axes[a] for a in rows_axes)):
        values = dict(zip(rows_axes, combo, strict=True))
        entries = []
        for v in axes[col]:
            values[col] = v
            r = index.get(tuple(fmt_value(values[a]) for a in names))
            entries.append("-" if r is None else
                           f"{_pct(r[rate_c])} [{_pct(r[lo_c])}, {_pct(r[hi_c])}]")
        lines.append("| " + " | ".join(fmt_value(c) for c in combo) + " | "
                     + " | ".join(entries) + " |")
    return "\n".join(lines)


def format_check(check: Check, closest: int = 3) -> str:
    """Each claim's verdict (how many steps hold, the closest ones, every failure) and the
    overall verdict, in lines."""
    lines = []
    for claim in check.claims:
        pairs = check.of(claim)
        bad = [p for p in pairs if not p.holds]
        verdict = "holds" if not bad else "FAILS"
        words = METRIC_WORDS.get(check.metric, check.metric)
        lines.append(f"order {claim.text()} ({words} falls, 95% intervals apart): "
                     f"{verdict}, {len(pairs) - len(bad)} of {len(pairs)} steps")
        for p in bad:
            how = (f"wrong way round, {100 * (p.rate_lower - p.rate_upper):.2f} pts the other way"
                   if p.wrong_way else f"intervals overlap by {100 * -p.gap:.2f} pts")
            lines.append(f"  fails ({how}): {_pair_text(p)}")
        for p in sorted((p for p in pairs if p.holds), key=lambda p: p.gap)[:closest]:
            lines.append(f"  closest: {100 * p.gap:.2f} pts apart: {_pair_text(p)}")
    n_bad = len(check.failures())
    lines.append("every order holds" if check.holds
                 else f"{n_bad} of {len(check.pairs)} steps fail")
    return "\n".join(lines)


def check_json(check: Check) -> dict[str, Any]:
    return python_scalars({
        "metric": check.metric,
        "holds": check.holds,
        "claims": [{"axis": c.axis, "values": list(c.values),
                    "holds": all(p.holds for p in check.of(c))} for c in check.claims],
        "steps": [{"axis": p.claim.axis, "group": dict(p.group), "upper": p.upper,
                   "lower": p.lower, "rate_upper": p.rate_upper,
                   "ci95_upper": [p.lo_upper, p.hi_upper], "rate_lower": p.rate_lower,
                   "ci95_lower": [p.lo_lower, p.hi_lower], "gap": p.gap, "holds": p.holds}
                  for p in check.pairs],
    })
