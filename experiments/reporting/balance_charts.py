"""The charts of the balance tools: a tornado chart of one-at-a-time effects, the indices of a
global sensitivity analysis, and the path a tuning search took (metric against value).  The
same style as the sweeps' charts (matplotlib, Agg, PNG written atomically, captions printed
under the chart in the report, not inside it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from experiments.reporting.charts import _save, plt

DOWN = "#3b6fb6"  # one step down
UP = "#d9822b"  # one step up


def tornado_chart(rows: Sequence[dict], path: Path, title: str, xlabel: str,
                  scale: float = 100.0) -> None:
    """One row per key, largest effect at the top: the effect of a step down and of a step up
    (``rows[i]['down']``/``['up']``: (effect, lo, hi) or None), each with its 95% interval;
    ``rows[i]['label']`` names the key and its values."""
    n = max(len(rows), 1)
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.36 * n), constrained_layout=True)
    y = np.arange(len(rows))[::-1]
    h = 0.38
    for yi, row in zip(y, rows, strict=True):
        for side, off, color in (("down", h / 2, DOWN), ("up", -h / 2, UP)):
            eff = row.get(side)
            if eff is None:
                continue
            e, lo, hi = (scale * x for x in eff)
            ax.barh(yi + off, e, height=h * 0.92, color=color)
            ax.errorbar(e, yi + off, xerr=[[max(e - lo, 0)], [max(hi - e, 0)]], fmt="none",
                        ecolor="#333", elinewidth=0.9, capsize=2.5)
    ax.axvline(0, color="#444", lw=0.8)
    ax.set_yticks(y, [r["label"] for r in rows], fontsize=8)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color=DOWN, label="one step down"),
                       Patch(color=UP, label="one step up")], fontsize=8, loc="lower right")
    ax.set_title(title, fontsize=11)
    if not rows:
        ax.text(0.5, 0.5, "no key could be varied", ha="center", transform=ax.transAxes)
    _save(fig, path)


def index_chart(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float],
                Sequence[float]]], path: Path, title: str, xlabel: str) -> None:
    """Horizontal bars per key (first at the top) for each named series of (values, 95%
    half-widths): Morris's mu* and sigma, or Sobol's first-order and total indices."""
    n = max(len(labels), 1)
    k = len(series)
    fig, ax = plt.subplots(figsize=(8.5, 1.4 + 0.34 * n * max(1, k / 1.5)),
                           constrained_layout=True)
    y = np.arange(len(labels))[::-1]
    h = 0.8 / max(k, 1)
    colors = [DOWN, UP, "#5a9e5a"]
    for j, (name, vals, conf) in enumerate(series):
        off = 0.4 - h * (j + 0.5)
        v = np.asarray(vals, dtype=float)
        c = np.asarray(conf, dtype=float)
        ax.barh(y + off, v, height=h * 0.92, color=colors[j % 3], label=name)
        ok = np.isfinite(c)
        if ok.any():
            ax.errorbar(v[ok], (y + off)[ok], xerr=c[ok], fmt="none", ecolor="#333",
                        elinewidth=0.9, capsize=2.5)
    ax.axvline(0, color="#444", lw=0.8)
    ax.set_yticks(y, list(labels), fontsize=8)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(title, fontsize=11)
    _save(fig, path)


def path_chart(panels: Sequence[dict], path: Path, title: str, ylabel: str,
               scale: float = 100.0) -> None:
    """The path a search took: for each panel (a key, or a level of a ladder), every value it
    tried with the metric and its 95% interval (the last measurement of each), the target as
    a line, the chosen value marked and its confirming run beside it.  ``panels[i]``:
    ``{"title", "xlabel", "points": [(x, value, lo, hi, games)], "target", "integer",
    "confirmed": (x, value, lo, hi) or None}``."""
    n = max(len(panels), 1)
    cols = min(n, 3)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols + 0.6, 3.6 * rows),
                             constrained_layout=True, squeeze=False)
    for ax, panel in zip(axes.flat, panels, strict=False):
        pts = sorted(panel["points"])
        if pts:
            x = np.array([p[0] for p in pts], dtype=float)
            v = np.array([scale * p[1] for p in pts])
            lo = np.array([scale * p[2] for p in pts])
            hi = np.array([scale * p[3] for p in pts])
            ax.errorbar(x, v, yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], fmt="o-",
                        color=DOWN, ms=4, lw=1, capsize=3, label="search (same playouts)")
        if panel.get("target") is not None:
            ax.axhline(scale * panel["target"], color="#b22", lw=1, ls="--", label="target")
        conf = panel.get("confirmed")
        if conf is not None:
            cx, cv, clo, chi = conf
            cv, clo, chi = scale * cv, scale * clo, scale * chi
            ax.errorbar([cx], [cv], yerr=[[max(cv - clo, 0)], [max(chi - cv, 0)]], fmt="D",
                        color=UP, ms=6, capsize=4, label="chosen, fresh playouts")
        ax.set_xlabel(panel.get("xlabel", "value"))
        if panel.get("integer"):
            import matplotlib.ticker

            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_ylabel(ylabel)
        ax.set_title(panel.get("title", ""), fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=11)
    _save(fig, path)


def trials_chart(objective: Sequence[float], best: Sequence[float], path: Path, title: str,
                 ylabel: str, scale: float = 100.0) -> None:
    """An optimiser's trials: each trial's distance to the target and the best so far."""
    fig, ax = plt.subplots(figsize=(7.5, 3.8), constrained_layout=True)
    t = np.arange(1, len(objective) + 1)
    ax.plot(t, scale * np.asarray(objective, dtype=float), "o", ms=3, color=DOWN,
            label="trial")
    ax.plot(t, scale * np.asarray(best, dtype=float), "-", color=UP, label="best so far")
    ax.set_xlabel("trial (in the order played)")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title, fontsize=11)
    _save(fig, path)
