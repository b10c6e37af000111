"""The charts of a sweep report (matplotlib, Agg backend, PNG).

Which charts are drawn follows from the sweep itself: a win-rate heatmap when two categorical
axes are swept (Great Old One by difficulty for Tiny Epic Cthulhu, one panel per player
count), win rate against a numeric axis (player count) with interval bands, the causes of loss
as stacked bars (from the game's outcome names), the distribution of game length (``turns``),
each seat's win rate for competitive games, a bar chart with intervals when strategies are
compared, and paired differences when the spec names a baseline (small multiples: one
panel per value of a swept setting).  Every chart has a title, labelled axes with units and a
legend; its caption (the sweep's settings and game count) is printed once, under the chart in
the report, not inside the image.  Settings and their values are written as the game names
them (``Yog-Sothoth``, ``Curses on``; see :mod:`experiments.reporting.labels`).
"""

from __future__ import annotations

import io
import itertools
import json
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from experiments.reporting.labels import (  # noqa: E402
    cell_text,
    headline_name,
    outcome_text,
    setting_name,
    setting_text,
    value_label,
    words_of,
)
from experiments.reporting.text import fmt_value  # noqa: E402
from experiments.stats import headline  # noqa: E402
from experiments.storage.store import atomic_write  # noqa: E402

MAX_FIGURES = 6  # per chart kind: beyond this, combinations of further axes are not drawn
MAX_BARS = 120
DPI = 110

AXIS_LABELS = {
    "players": "players (count)",
    "goo": "Great Old One",
    "difficulty": "difficulty (level)",
    "strategy": "strategy",
    "curses": "Curse rule (on/off)",
    "seats": "seat skill profiles",
    "first_player": "first player (seat number)",
}


AXIS_NAMES = {"goo": "Great Old One", "players": "player count", "curses": "Curse rule",
              "seats": "seat skills"}


def axis_label(key: str) -> str:
    """An axis label with its unit."""
    return AXIS_LABELS.get(key, f"{key} (setting value)")


def axis_name(key: str) -> str:
    """An axis in words, for titles."""
    return AXIS_NAMES.get(key, key)


@dataclass
class Chart:
    file: str
    title: str
    caption: str
    alt: str


@dataclass
class Roles:
    """Which swept axis plays which part in the charts."""

    x: str | None = None  # numeric axis along the x of line charts
    heat: tuple[str, str] | None = None  # rows and columns of the heatmap
    hue: str | None = None  # one line (or bar colour) per value
    panel: str | None = None  # one subplot per value
    rest: list[str] = field(default_factory=list)  # one figure per combination


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def choose_roles(axes: dict[str, list], report: dict | None = None) -> Roles:
    report = report or {}
    multi = [k for k, v in axes.items() if len(v) > 1]
    numeric = [k for k in multi if _numeric(axes[k])]
    x = report.get("x") if report.get("x") in multi else None
    if x is None:
        x = "players" if "players" in numeric else (numeric[0] if numeric else None)
    heat = None
    hm = report.get("heatmap")
    if hm and all(h in multi for h in hm):
        heat = (hm[0], hm[1])
    elif "goo" in multi and "difficulty" in multi:
        heat = ("goo", "difficulty")
    others = [k for k in multi if k != x]
    if heat is None and len(others) >= 2:
        heat = (others[0], others[1])
    if heat is not None and x in heat:
        hue = heat[0] if heat[1] == x else heat[1]
        left = [k for k in multi if k not in (x, hue)]
        panel = left[0] if left else None
    elif heat is not None:
        hue, panel = heat
    else:
        hue = others[0] if others else None
        panel = others[1] if len(others) > 1 else None
    rest = [k for k in multi if k not in (x, hue, panel)]
    return Roles(x, heat, hue, panel, rest)


# ---- data access ------------------------------------------------------------------------
class ChartData:
    """A sweep's manifest and results, with the selections the charts need."""

    def __init__(self, manifest: dict, results: pd.DataFrame):
        self.m = manifest
        self.df = results
        self.axes: dict[str, list] = manifest["axes"]
        self.coop = bool(manifest["cooperative"])
        self.roles = choose_roles(self.axes, manifest.get("report"))
        self.words = words_of(manifest)
        prefix, name = headline(self.coop)
        name = headline_name(self.words, name)
        self.rate_cols = (f"{prefix}_rate", f"{prefix}_lo", f"{prefix}_hi")
        self.rate_label = f"{name} (%)"

    def label(self, key: str, value: Any) -> str:
        """A value of a setting as a tick or legend label (``Yog-Sothoth``, ``on``)."""
        return value_label(self.words, key, value)

    def setting(self, key: str, value: Any) -> str:
        """A setting and its value, for a panel title (``players 3``, ``Curses on``)."""
        return setting_text(self.words, key, value)

    def axis_label(self, key: str) -> str:
        """An axis label with its unit."""
        name = setting_name(self.words, key)
        return AXIS_LABELS.get(key) or (name if name != key else f"{key} (setting value)")

    def axis_name(self, key: str) -> str:
        """A setting in words, for titles."""
        return AXIS_NAMES.get(key) or setting_name(self.words, key)

    def combo_text(self, combo: dict[str, Any]) -> str:
        return cell_text(self.words, combo)

    @property
    def total_games(self) -> int:
        return int(self.df["games"].sum()) if len(self.df) else 0

    def caption(self, note: str = "") -> str:
        m = self.m
        settings = ", ".join(p for p in m["settings_text"].split(", ")
                             if not p.startswith("strategy=")) or "defaults"
        head = m["game_title"]
        if "strategy" not in self.axes:
            head += f", strategy {m['strategy']}"
        parts = [
            head,
            f"Settings: {settings}",
            "Swept: " + ("; ".join(f"{setting_name(self.words, k)} = "
                                   + ", ".join(self.label(k, v) for v in vals)
                                   for k, vals in self.axes.items()) or "nothing"),
            f"{self.total_games:,} games in {len(self.df)} cells (seed {m['seed']}, "
            + m["games_text"] + ")",
        ]
        if note:
            parts.append(note)
        return ". ".join(parts) + "."

    def select(self, **values: Any) -> pd.DataFrame:
        df = self.df
        mask = np.ones(len(df), dtype=bool)
        for k, v in values.items():
            col = df[k]
            target = fmt_value(v) if isinstance(v, list | tuple) else v
            mask &= (col == target).to_numpy()
        return df[mask]

    def one(self, **values: Any) -> pd.Series | None:
        sel = self.select(**values)
        return None if sel.empty else sel.iloc[0]

    def combos(self, keys: list[str]) -> list[dict[str, Any]]:
        if not keys:
            return [{}]
        return [dict(zip(keys, c, strict=True))
                for c in itertools.product(*[self.axes[k] for k in keys])]

    def fixed(self) -> dict[str, Any]:
        """Axes with a single value (they apply to every cell)."""
        return {k: v[0] for k, v in self.axes.items() if len(v) == 1}


def _suffix(combo: dict[str, Any]) -> str:
    return "-".join(f"{k}-{fmt_value(v)}" for k, v in combo.items()).replace("/", "_") \
        .replace(" ", "_").replace("[", "").replace("]", "").replace(",", "_")


def _combo_text(combo: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {fmt_value(v)}" for k, v in combo.items())


def _save(fig, path: Path) -> None:
    """Write the figure as a PNG (atomically); its caption goes under it in the report."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.15,
                metadata={"Software": None})
    plt.close(fig)
    atomic_write(path, lambda fh: fh.write(buf.getvalue()))


def _grid(n: int) -> tuple[int, int]:
    cols = n if n <= 3 else (2 if n == 4 else 3)
    return math.ceil(n / cols), cols


def _colors(n: int) -> list:
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return [cmap(i % cmap.N) for i in range(n)]


# ---- the charts -------------------------------------------------------------------------
def heatmap_charts(data: ChartData, out: Path) -> list[Chart]:
    r = data.roles
    if r.heat is None:
        return []
    rows_key, cols_key = r.heat
    multi = [k for k, v in data.axes.items() if len(v) > 1 and k not in r.heat]
    facet = r.x if r.x in multi else (multi[0] if multi else None)
    rest = [k for k in multi if k != facet]
    rate, rate_lo, rate_hi = data.rate_cols
    charts = []
    for combo in data.combos(rest)[:MAX_FIGURES]:
        facet_vals = data.axes[facet] if facet else [None]
        nr, nc = _grid(len(facet_vals))
        rows_v, cols_v = data.axes[rows_key], data.axes[cols_key]
        fig, axs = plt.subplots(nr, nc, figsize=(0.6 + 1.2 * len(cols_v) * nc + 1.0,
                                                 0.6 + 0.55 * len(rows_v) * nr + 0.8),
                                squeeze=False, constrained_layout=True)
        im = None
        for i, fv in enumerate(facet_vals):
            ax = axs[i // nc][i % nc]
            grid = np.full((len(rows_v), len(cols_v)), np.nan)
            ends = np.full(grid.shape + (2,), np.nan)
            for a, rv in enumerate(rows_v):
                for b, cv in enumerate(cols_v):
                    sel = {**combo, rows_key: rv, cols_key: cv}
                    if facet:
                        sel[facet] = fv
                    row = data.one(**sel)
                    if row is not None:
                        grid[a, b] = 100 * row[rate]
                        ends[a, b] = (100 * row[rate_lo], 100 * row[rate_hi])
            im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
            for a in range(len(rows_v)):
                for b in range(len(cols_v)):
                    if not np.isnan(grid[a, b]):
                        v = grid[a, b]
                        lo, hi = ends[a, b]
                        ax.text(b, a, f"{v:.1f}%\n[{lo:.1f}, {hi:.1f}]", ha="center", va="center",
                                fontsize=7.5, color="black" if 20 < v < 80 else "white")
            ax.set_xticks(range(len(cols_v)), [data.label(cols_key, v) for v in cols_v], fontsize=8)
            ax.set_yticks(range(len(rows_v)), [data.label(rows_key, v) for v in rows_v], fontsize=8)
            ax.set_xlabel(data.axis_label(cols_key))
            ax.set_ylabel(data.axis_label(rows_key))
            if facet:
                ax.set_title(data.setting(facet, fv), fontsize=9)
        for j in range(len(facet_vals), nr * nc):
            axs[j // nc][j % nc].axis("off")
        cb = fig.colorbar(im, ax=axs, shrink=0.8)
        cb.set_label(data.rate_label)
        title = f"{data.m['game_title']}: {data.rate_label.split(' (')[0]} by " \
                f"{data.axis_name(rows_key)} and {data.axis_name(cols_key)}" + (
                    f" ({data.combo_text(combo)})" if combo else "")
        fig.suptitle(title, fontsize=11)
        name = "chart-heatmap" + (f"-{_suffix(combo)}" if combo else "") + ".png"
        note = "Colour legend: win rate from 0% (red) to 100% (green); each square shows " \
               "the rate and how far its 95% interval reaches from it, in points"
        cap = data.caption(note)
        _save(fig, out / name)
        charts.append(Chart(name, title, cap, f"Heatmap of {data.rate_label}"))
    return charts


def line_charts(data: ChartData, out: Path) -> list[Chart]:
    r = data.roles
    if r.x is None:
        return []
    rate, lo, hi = data.rate_cols
    xs = data.axes[r.x]
    charts = []
    for combo in data.combos(r.rest)[:MAX_FIGURES]:
        panels = data.axes[r.panel] if r.panel else [None]
        hues = data.axes[r.hue] if r.hue else [None]
        nr, nc = _grid(len(panels))
        fig, axs = plt.subplots(nr, nc, figsize=(1.0 + 3.6 * nc, 0.8 + 3.0 * nr), squeeze=False,
                                sharey=True, constrained_layout=True)
        colors = _colors(len(hues))
        hi_max = 100 * float(np.nanmax(data.df[hi].to_numpy(dtype=float)))
        y_top = min(100.0, max(10.0, 1.12 * hi_max + 1.0))
        for i, pv in enumerate(panels):
            ax = axs[i // nc][i % nc]
            for h, hv in enumerate(hues):
                ys, los, his, xv = [], [], [], []
                for x in xs:
                    sel = {**combo, r.x: x}
                    if r.panel:
                        sel[r.panel] = pv
                    if r.hue:
                        sel[r.hue] = hv
                    row = data.one(**sel)
                    if row is not None:
                        xv.append(x)
                        ys.append(100 * row[rate])
                        los.append(100 * row[lo])
                        his.append(100 * row[hi])
                label = data.label(r.hue, hv) if r.hue else data.rate_label.split(" (")[0]
                ax.plot(xv, ys, marker="o", color=colors[h], label=label, lw=1.6, ms=4)
                ax.fill_between(xv, los, his, color=colors[h], alpha=0.2, lw=0)
            if not data.coop and r.x == "players":
                ax.plot(xs, [100.0 / x for x in xs], ls="--", color="black", lw=0.9,
                        label="fair share")
            ax.set_xticks(xs)
            ax.set_xlabel(data.axis_label(r.x))
            ax.set_ylabel(data.rate_label)
            ax.set_ylim(0, y_top)
            ax.grid(alpha=0.3)
            if r.panel:
                ax.set_title(data.setting(r.panel, pv), fontsize=9)
            ax.legend(title=data.axis_label(r.hue) if r.hue else None, fontsize=7.5,
                      title_fontsize=8)
        for j in range(len(panels), nr * nc):
            axs[j // nc][j % nc].axis("off")
        title = (f"{data.m['game_title']}: {data.rate_label.split(' (')[0]} by "
                 f"{data.axis_name(r.x)}" + (f" ({data.combo_text(combo)})" if combo else ""))
        fig.suptitle(title, fontsize=11)
        name = "chart-winrate" + (f"-{_suffix(combo)}" if combo else "") + ".png"
        cap = data.caption("Shaded bands are 95% Wilson intervals"
                           + ("; dashed lines mark a fair share (1 / players)"
                              if not data.coop else ""))
        _save(fig, out / name)
        charts.append(Chart(name, title, cap, f"{data.rate_label} against {r.x}"))
    return charts


def outcome_chart(data: ChartData, out: Path) -> list[Chart]:
    """Causes of loss: the share of every outcome but a win, stacked, one bar per cell (one
    panel per value of the x axis, e.g. player count, when there are many cells)."""
    names = data.m["outcomes"]
    losses = names[1:]
    if not data.coop or not losses or len(data.df) > MAX_BARS:
        return []
    multi = [k for k, v in data.axes.items() if len(v) > 1]
    facet = data.roles.x if (data.roles.x and len(data.df) > 16) else None
    others = [k for k in multi if k != facet]
    facet_vals = data.axes[facet] if facet else [None]
    combos = data.combos(others)
    nr, nc = _grid(len(facet_vals))
    n = len(combos)
    fig, axs = plt.subplots(nr, nc, figsize=(1.5 + 4.6 * nc, 0.9 + (0.7 + 0.24 * n) * nr),
                            squeeze=False, sharex=True, constrained_layout=True)
    colors = plt.get_cmap("Set2")
    top = 5.0
    for i, fv in enumerate(facet_vals):
        ax = axs[i // nc][i % nc]
        rows = [data.one(**c, **({facet: fv} if facet else {})) for c in combos]
        left = np.zeros(n)
        y = np.arange(n)
        for j, name in enumerate(losses):
            vals = np.array([100 * r[f"p_{name}"] if r is not None else np.nan for r in rows])
            ax.barh(y, np.nan_to_num(vals), left=left, color=colors(j % 8), height=0.75,
                    label=textwrap.fill(f"{name}: {outcome_text(data.words, name)}", 34)
                    if i == 0 else None)
            left += np.nan_to_num(vals)
        top = max(top, float(left.max()) * 1.08)
        labels = [", ".join(data.label(k, v) for k, v in c.items()) or "all" for c in combos]
        ax.set_yticks(y, labels, fontsize=7 if n > 20 else 8)
        ax.set_ylim(n - 0.4, -0.6)
        ax.set_xlabel("share of games lost (%)")
        ax.set_ylabel(", ".join(data.axis_label(k) for k in others) if others else "")
        ax.grid(axis="x", alpha=0.3)
        if facet:
            ax.set_title(data.setting(facet, fv), fontsize=9)
    for i in range(len(facet_vals)):
        axs[i // nc][i % nc].set_xlim(0, min(100.0, top))
    for j in range(len(facet_vals), nr * nc):
        axs[j // nc][j % nc].axis("off")
    fig.legend(*axs[0][0].get_legend_handles_labels(), title="cause of loss", fontsize=8,
               loc="outside right upper")
    title = f"{data.m['game_title']}: causes of loss"
    fig.suptitle(title, fontsize=11)
    cap = data.caption("Each bar's length is the loss rate; its segments split it by how the "
                       "game was lost (outcomes " + ", ".join(losses) + ")")
    _save(fig, out / "chart-outcomes.png")
    return [Chart("chart-outcomes.png", title, cap, "Stacked bars of the causes of loss")]


def _pooled_hist(rows: pd.DataFrame) -> np.ndarray:
    """Average of the cells' game-length distributions (each cell weighs the same)."""
    hists = [np.asarray(h, dtype=float) for h in rows["turns_hist"]]
    if not hists:
        return np.zeros(0)
    size = max(len(h) for h in hists)
    acc = np.zeros(size)
    for h in hists:
        if h.sum() > 0:
            acc[: len(h)] += h / h.sum()
    return acc / len(hists)


def _turns_per_round(rows: pd.DataFrame) -> int | None:
    """The turns in a round when every one of ``rows`` has the same (None otherwise)."""
    if "turns_per_round" not in rows or rows.empty:
        return None
    values = set(rows["turns_per_round"].dropna().astype(int))
    return values.pop() if len(values) == 1 and min(values) > 0 else None


def length_chart(data: ChartData, out: Path) -> list[Chart]:
    if "turns_hist" not in data.df.columns or data.df.empty:
        return []
    r = data.roles
    panel_key = r.x or r.panel
    hue_key = r.hue if r.hue != panel_key else None
    pooled = [k for k in data.axes if len(data.axes[k]) > 1 and k not in (panel_key, hue_key)]
    panels = data.axes[panel_key] if panel_key else [None]
    hues = data.axes[hue_key] if hue_key else [None]
    nr, nc = _grid(len(panels))
    fig, axs = plt.subplots(nr, nc, figsize=(1.0 + 3.6 * nc, 0.8 + 2.8 * nr), squeeze=False,
                            sharey=False, constrained_layout=True)
    colors = _colors(len(hues))
    nz = [np.nonzero(np.asarray(h))[0] for h in data.df["turns_hist"]]
    t_lo = min((int(z[0]) for z in nz if z.size), default=0)
    t_hi = max((int(z[-1]) for z in nz if z.size), default=1)
    for i, pv in enumerate(panels):
        ax = axs[i // nc][i % nc]
        ax.set_xlim(t_lo - 0.6, t_hi + 0.6)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        for h, hv in enumerate(hues):
            sel = {}
            if panel_key:
                sel[panel_key] = pv
            if hue_key:
                sel[hue_key] = hv
            hist = _pooled_hist(data.select(**sel))
            if hist.size == 0:
                continue
            ax.stairs(100 * hist, np.arange(hist.size + 1) - 0.5, color=colors[h], lw=1.4,
                      label=data.label(hue_key, hv) if hue_key else "all cells")
        ax.set_xlabel("game length (turns)")
        ax.set_ylabel("share of games (%)")
        ax.grid(alpha=0.3)
        per_round = _turns_per_round(data.select(**({panel_key: pv} if panel_key else {})))
        if per_round:  # the same lengths in rounds (every player's turn once), on top
            ax.secondary_xaxis("top", functions=(lambda t, k=per_round: t / k,
                                                 lambda r, k=per_round: r * k)) \
                .set_xlabel("rounds", fontsize=8)
        if panel_key:
            ax.set_title(data.setting(panel_key, pv), fontsize=9)
        ax.legend(title=data.axis_label(hue_key) if hue_key else None, fontsize=7.5,
                  title_fontsize=8)
    for j in range(len(panels), nr * nc):
        axs[j // nc][j % nc].axis("off")
    title = f"{data.m['game_title']}: distribution of game length"
    fig.suptitle(title, fontsize=11)
    note = ("Cells pooled over " + ", ".join(data.axis_name(k) for k in pooled)
            + " with equal weight") if pooled else ""
    if data.words.get("turn"):
        note += ("; " if note else "") + data.words["turn"]
    cap = data.caption(note)
    _save(fig, out / "chart-length.png")
    return [Chart("chart-length.png", title, cap, "Distribution of game length in turns")]


def seat_chart(data: ChartData, out: Path) -> list[Chart]:
    """Competitive games: every seat's win rate per cell (first-player advantage)."""
    if data.coop or "n_seats" not in data.df.columns or data.df.empty:
        return []
    df = data.df
    if len(df) > 40:
        return []
    max_seats = int(df["n_seats"].max())
    n = len(df)
    width = 0.8 / max_seats
    fig, ax = plt.subplots(figsize=(max(6.0, 0.5 + 0.35 * n * max_seats / 2), 4.2),
                           constrained_layout=True)
    colors = _colors(max_seats)
    x = np.arange(n)
    for s in range(max_seats):
        col = f"seat{s}_rate"
        if col not in df:
            continue
        rate = 100 * df[col].to_numpy(dtype=float)
        lo = 100 * df[f"seat{s}_lo"].to_numpy(dtype=float)
        hi = 100 * df[f"seat{s}_hi"].to_numpy(dtype=float)
        ok = ~np.isnan(rate)
        ax.bar(x[ok] - 0.4 + width * (s + 0.5), rate[ok], width=width * 0.95, color=colors[s],
               yerr=[rate[ok] - lo[ok], hi[ok] - rate[ok]], capsize=2, label=f"seat {s}",
               error_kw={"lw": 0.8})
    # an equal share of the games someone won (games stopped at the turn cap have no winner)
    decided = sum(df[f"seat{s}_rate"].fillna(0.0).to_numpy(dtype=float)
                  for s in range(max_seats) if f"seat{s}_rate" in df)
    fair = 100.0 * decided / df["n_seats"].to_numpy(dtype=float)
    ax.hlines(fair, x - 0.45, x + 0.45, colors="black", linestyles="dashed", lw=1,
              label="fair share (games won / players)")
    ax.set_xticks(x, df["label"].tolist(), rotation=30 if n > 4 else 0, ha="right" if n > 4
                  else "center", fontsize=8)
    ax.set_xlabel("cell (swept settings)")
    ax.set_ylabel("win rate (%)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7.5, ncol=min(4, max_seats + 1))
    title = f"{data.m['game_title']}: win rate of each seat"
    ax.set_title(title, fontsize=11)
    cap = data.caption("Error bars are 95% Wilson intervals; seat 0 plays first unless "
                       "first_player says otherwise")
    _save(fig, out / "chart-seats.png")
    return [Chart("chart-seats.png", title, cap, "Win rate of each seat")]


def strategy_bar_chart(labels: list[str], rates: list[tuple[float, float, float]],
                       path: Path, title: str, ylabel: str, caption: str,
                       groups: list[str] | None = None,
                       group_title: str | None = None, legend: str = "strategy") -> None:
    """Bars with 95% intervals: ``rates[i] = (rate, lo, hi)`` for strategy ``labels[i]``
    (or, with ``groups``, ``rates`` is a list per group); ``legend`` names what the labels
    are (strategies, or the values of a swept setting)."""
    if groups is None:
        groups = [""]
        rates_g = [rates]
    else:
        rates_g = rates  # type: ignore[assignment]
    n_s = len(labels)
    fig, ax = plt.subplots(figsize=(max(5.5, 1.2 + 0.55 * n_s * len(groups)), 4.0),
                           constrained_layout=True)
    colors = _colors(n_s)
    width = 0.8 / n_s
    x = np.arange(len(groups))
    for s, name in enumerate(labels):
        vals = np.array([100 * g[s][0] for g in rates_g])
        lo = np.array([100 * g[s][1] for g in rates_g])
        hi = np.array([100 * g[s][2] for g in rates_g])
        ax.bar(x - 0.4 + width * (s + 0.5), vals, width=width * 0.95, color=colors[s],
               yerr=[vals - lo, hi - vals], capsize=3, label=name)
        for xi, v in zip(x - 0.4 + width * (s + 0.5), vals, strict=True):
            ax.text(xi, v + 1, f"{v:.1f}", ha="center", va="bottom", fontsize=7)
    if len(groups) > 1 or groups[0]:
        ax.set_xticks(x, groups, fontsize=8, rotation=20 if len(groups) > 4 else 0)
        ax.set_xlabel(group_title or "cell")
    else:
        ax.set_xticks([])
        ax.set_xlabel(legend)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 105)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title=legend, fontsize=8)
    ax.set_title(title, fontsize=11)
    _save(fig, path)


def _rates_by(data: ChartData, key: str) -> tuple[list, list[str] | None, list[str]]:
    """(rates, groups, other axes) for bars of the headline rate by each value of ``key``:
    ``rates[g][i] = (rate, lo, hi)`` for value i in group g, a group being one combination of
    the other swept axes (None when there are none)."""
    others = [k for k in data.axes if len(data.axes[k]) > 1 and k != key]
    combos = data.combos(others)[:24]
    rate, lo, hi = data.rate_cols
    per_group = []
    for combo in combos:
        vals = []
        for v in data.axes[key]:
            row = data.one(**combo, **{key: v})
            vals.append((row[rate], row[lo], row[hi]) if row is not None
                        else (np.nan, np.nan, np.nan))
        per_group.append(vals)
    return per_group, ([data.combo_text(c) for c in combos] if others else None), others


def strategy_chart(data: ChartData, out: Path) -> list[Chart]:
    if len(data.axes.get("strategy", [])) < 2:
        return []
    strategies = data.axes["strategy"]
    per_group, groups, others = _rates_by(data, "strategy")
    title = f"{data.m['game_title']}: {data.rate_label.split(' (')[0]} by strategy"
    cap = data.caption("Error bars are 95% Wilson intervals")
    strategy_bar_chart(list(strategies), per_group if groups else per_group[0],
                       out / "chart-strategies.png", title, data.rate_label, cap, groups,
                       ", ".join(others) if others else None)
    return [Chart("chart-strategies.png", title, cap, "Bar chart of win rates by strategy")]


def category_chart(data: ChartData, out: Path) -> list[Chart]:
    """Win rate by the values of a categorical setting (e.g. the Great Old One) when no
    heatmap or line chart shows it: a sweep over one such setting, with any others as
    groups of bars."""
    r = data.roles
    if r.x is not None or r.heat is not None or r.hue is None or r.hue == "strategy":
        return []
    key = r.hue
    values = data.axes[key]
    per_group, groups, others = _rates_by(data, key)
    name = data.axis_name(key)
    title = f"{data.m['game_title']}: {data.rate_label.split(' (')[0]} by {name}"
    cap = data.caption("Error bars are 95% Wilson intervals")
    strategy_bar_chart([data.label(key, v) for v in values], per_group if groups else per_group[0],
                       out / "chart-settings.png", title, data.rate_label, cap, groups,
                       ", ".join(others) if others else None, legend=name)
    return [Chart("chart-settings.png", title, cap, f"Bar chart of win rates by {name}")]


def baseline_chart(data: ChartData, comparisons: list[dict], out: Path) -> list[Chart]:
    """Paired differences from the baseline cells (dots with 95% intervals), as small
    multiples: one panel per value of a swept setting (the Great Old One, say), a row per
    combination of the others (player count), a colour per non-baseline value (Hard, Madness)."""
    if not comparisons or len(comparisons) > MAX_BARS:
        return []
    base = data.m["report"]["baseline"]
    base_keys = list(base)
    cells = data.m["cells"]
    multi = [k for k, v in data.axes.items() if len(v) > 1]
    others = [k for k in multi if k not in base_keys]

    def values(c: dict) -> dict[str, Any]:
        return cells[int(c["cell"])]["values"]

    def key_of(v: dict[str, Any], keys: list[str]) -> str:
        return json.dumps([v.get(k) for k in keys])

    hue_vals: list[list[Any]] = []
    for c in comparisons:
        hv = [values(c)[k] for k in base_keys]
        if hv not in hue_vals:
            hue_vals.append(hv)
    panel_key = None
    if len(comparisons) > 12 and len(others) > 1:
        small = [k for k in others if len(data.axes[k]) <= 6]
        prefer = ([k for k in (data.roles.heat or ()) if k in small]
                  + [k for k in small if not _numeric(data.axes[k])] + small)
        panel_key = prefer[0] if prefer else None
    row_keys = [k for k in others if k != panel_key]
    rows = data.combos(row_keys)
    row_index = {key_of(r, row_keys): i for i, r in enumerate(rows)}
    panels = data.axes[panel_key] if panel_key else [None]
    nr, nc = _grid(len(panels))
    n_h = len(hue_vals)
    height = 0.9 + (0.5 + 0.22 * len(rows) * max(1.0, n_h / 1.6)) * nr
    fig, axs = plt.subplots(nr, nc, figsize=(1.8 + 3.3 * nc, height), squeeze=False,
                            sharex=True, sharey=True, constrained_layout=True)
    colors = _colors(n_h) if n_h > 1 else ["#1f77b4"]
    step = 0.7 / n_h
    for i, pv in enumerate(panels):
        ax = axs[i // nc][i % nc]
        for h, hv in enumerate(hue_vals):
            ys, d, lo, hi = [], [], [], []
            for c in comparisons:
                v = values(c)
                if panel_key and json.dumps(v.get(panel_key)) != json.dumps(pv):
                    continue
                if [v[k] for k in base_keys] != hv:
                    continue
                ys.append(row_index[key_of(v, row_keys)] + (h - (n_h - 1) / 2) * step)
                d.append(100 * c["diff"])
                lo.append(100 * c["lo"])
                hi.append(100 * c["hi"])
            if not ys:
                continue
            d_, lo_, hi_ = np.array(d), np.array(lo), np.array(hi)
            ax.errorbar(d_, ys, xerr=[d_ - lo_, hi_ - d_], fmt="o", color=colors[h], ms=3.5,
                        capsize=2, lw=1.1,
                        label=", ".join(data.label(k, x) for k, x in zip(base_keys, hv,
                                                                         strict=True)))
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(range(len(rows)), [data.combo_text(r) for r in rows], fontsize=8)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.grid(axis="x", alpha=0.3)
        if panel_key:
            ax.set_title(data.setting(panel_key, pv), fontsize=9)
    for j in range(len(panels), nr * nc):
        axs[j // nc][j % nc].axis("off")
    base_text = ", ".join(data.setting(k, v) for k, v in base.items())
    fig.supxlabel(f"difference in {data.rate_label.split(' (')[0]} from the baseline "
                  f"({base_text}), percentage points", fontsize=9)
    handles, labels = axs[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, title=", ".join(data.axis_name(k) for k in base_keys)
                   + " (95% intervals)", fontsize=8, title_fontsize=8,
                   loc="outside right upper")
    title = f"{data.m['game_title']}: change from the baseline ({base_text})"
    fig.suptitle(title, fontsize=11)
    cap = data.caption("Each cell is compared with the cell that has the baseline's values and "
                       "the same other settings, over the same playouts (common random "
                       "numbers); the black line is no difference")
    _save(fig, out / "chart-baseline.png")
    return [Chart("chart-baseline.png", title, cap, "Paired differences from the baseline")]


def all_charts(manifest: dict, results: pd.DataFrame, out: Path,
               comparisons: list[dict] | None = None) -> list[Chart]:
    data = ChartData(manifest, results)
    if data.df.empty:
        return []
    charts: list[Chart] = []
    charts += heatmap_charts(data, out)
    charts += line_charts(data, out)
    charts += seat_chart(data, out)
    charts += outcome_chart(data, out)
    charts += length_chart(data, out)
    charts += strategy_chart(data, out)
    charts += category_chart(data, out)
    charts += baseline_chart(data, comparisons or [], out)
    return charts


def describe(charts: list[Chart]) -> str:
    return json.dumps([c.__dict__ for c in charts], indent=2)
