"""Which of a game's numbers moves the balance most (``cthulhu-sim sensitivity GAME``).

**One at a time** (the default, ``method="oat"``): every numeric value of the rules data (or
those ``keys`` name; globs such as ``goo.cthulhu.*`` and list items ``KEY[i]`` too) is moved
one step down and one step up from the base setting, within its bounds (one unit for an
integer, ``step`` times the value for a float), and every configuration plays the same
playouts ``0 .. games-1`` of the seed as the base (common random numbers).  Each key's effect
is the paired difference of the metric from the base's, with Newcombe's paired interval for
a share (Student's t for a mean); keys are ranked by their larger effect.  A key whose
change leaves the metric the same in every single playout is said to have no effect at all
(the rules ignore it in this setting); keys marked ``assumed`` in the rules data are flagged,
so a designer sees which invented numbers the answers hang on.

**Global** (``method="morris"`` or ``"sobol"``): the chosen keys vary together over ranges
(``bounds``, or ``spread`` times each value around it), sampled and analysed by SALib: Morris's
elementary effects (mu*, with its bootstrap 95% interval, and sigma, which is large where a
key acts through interactions or non-linearly) or Sobol's first-order and total indices.
Every sample point plays the same playouts too, so the differences between points are not
blurred by different dice; what noise is left (the games per point) adds to sigma and to the
Sobol' indices.

The configurations are played through :class:`experiments.running.plays.Plays`: resumable chunk by
chunk, on this machine or a Dask cluster.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.analysis.knobs import (
    Knob,
    KnobError,
    apply_bounds,
    parse_bounds,
    select,
    settings_for,
    value_text,
)
from experiments.analysis.metrics import Estimate, Metric, parse_metric
from experiments.running.plays import DEFAULT_CHUNK, Plays, Setting, session
from experiments.stats import Difference
from simcore.rules_data import RulesError

METHODS = ("oat", "morris", "sobol")
NOTE_WIDTH = 60  # a refused step's reason in the table (whole in the JSON)
MAX_POINTS = 100_000  # configurations one analysis may ask for


@dataclass
class Side:
    """One step of a key (down or up) in a one-at-a-time analysis."""

    value: float | None
    estimate: Estimate | None = None
    diff: Difference | None = None  # metric here minus the base's, paired
    note: str = ""  # why it was not played (at a bound, refused by the rules)
    identical: bool = False  # the metric the same as the base's in every playout
    point: Any = field(default=None, repr=False)  # what is played (experiments.running.plays.Point)

    @property
    def played(self) -> bool:
        return self.diff is not None

    @property
    def significant(self) -> bool:
        return self.played and not (self.diff.lo <= 0.0 <= self.diff.hi)

    def as_dict(self, k: Knob) -> dict[str, Any] | None:
        if self.value is None and not self.note:
            return None
        out: dict[str, Any] = {"value": k.cast(self.value) if self.value is not None else None}
        if self.played:
            out.update({"metric": self.estimate.value,
                        "metric_ci95": [self.estimate.lo, self.estimate.hi],
                        "effect": self.diff.mean, "effect_ci95": [self.diff.lo, self.diff.hi],
                        "significant": self.significant, "no_effect_at_all": self.identical})
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class KeyEffect:
    knob: Knob
    down: Side
    up: Side

    @property
    def effect(self) -> float:
        """The larger of the two effects, in size (-1 when neither was played)."""
        sizes = [abs(s.diff.mean) for s in (self.down, self.up) if s.played]
        return max(sizes) if sizes else -1.0

    @property
    def significant(self) -> bool:
        return self.down.significant or self.up.significant

    @property
    def no_effect(self) -> bool:
        sides = [s for s in (self.down, self.up) if s.played]
        return bool(sides) and all(s.identical for s in sides)

    @property
    def note(self) -> str:
        notes = [f"{w}: {s.note}" for w, s in (("down", self.down), ("up", self.up)) if s.note]
        return "; ".join(notes)


@dataclass
class GlobalEffect:
    knob: Knob
    lo: float
    hi: float
    stats: dict[str, float]  # mu, mu_star, mu_star_conf, sigma (Morris); S1, S1_conf, ST ...

    @property
    def effect(self) -> float:
        key = "mu_star" if "mu_star" in self.stats else "ST"
        v = self.stats.get(key, float("nan"))
        return v if v == v else -1.0


@dataclass
class Sensitivity:
    setting: Setting
    method: str
    metric: Metric
    seed: int
    games: int
    base: Estimate
    effects: list[KeyEffect] = field(default_factory=list)  # one at a time, ranked
    global_effects: list[GlobalEffect] = field(default_factory=list)  # morris / sobol, ranked
    options: dict[str, Any] = field(default_factory=dict)
    points: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    games_played: int = 0
    games_reused: int = 0
    seconds: float = 0.0
    backend: str = "local"
    dropped: int = 0  # Morris trajectories left out (a point the rules refuse)

    @property
    def game(self):
        return self.setting.game

    @property
    def title(self) -> str:
        how = {"oat": "one at a time", "morris": "Morris screening",
               "sobol": "Sobol' indices"}[self.method]
        return f"{self.game.title}: what moves the {self.metric.label} ({how})"

    @property
    def n_points(self) -> int:
        return len(self.points)

    # ---- JSON -----------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game.name, "title": self.game.title, "method": self.method,
            "metric": self.metric.name, "metric_label": self.metric.label,
            "settings": self.setting.config.changed(),
            "rules_file": str(self.setting.rules.path), "strategy":
            self.setting.config.strategy.name, "seed": self.seed,
            "games_per_point": self.games, "points": self.n_points,
            "games_played": self.games_played, "games_reused": self.games_reused,
            "base": self.base.as_dict(), **self.options,
        }
        if self.method == "oat":
            out["keys"] = [self._key_dict(e, i + 1) for i, e in enumerate(self.effects)]
            top = [e for e in self.effects if e.significant]
            out["assumed_among_significant"] = [e.knob.name for e in top if e.knob.assumed]
            out["no_effect_at_all"] = [e.knob.name for e in self.effects if e.no_effect]
        else:
            out["keys"] = [{"rank": i + 1, "key": e.knob.name, "source": e.knob.source,
                            "assumed": e.knob.assumed, "value": e.knob.cast(e.knob.value),
                            "range": [e.knob.cast(e.lo), e.knob.cast(e.hi)], **e.stats}
                           for i, e in enumerate(self.global_effects)]
            out["trajectories_dropped"] = self.dropped
        return out

    def _key_dict(self, e: KeyEffect, rank: int) -> dict[str, Any]:
        k = e.knob
        return {"rank": rank, "key": k.name, "source": k.source, "assumed": k.assumed,
                "value": k.cast(k.value), "effect": e.effect if e.effect >= 0 else None,
                "significant": e.significant, "no_effect_at_all": e.no_effect,
                "down": e.down.as_dict(k), "up": e.up.as_dict(k)}

    # ---- a table --------------------------------------------------------------------------
    def header(self) -> list[str]:
        m = self.metric
        lines = [self.title,
                 f"  settings: {self.setting.settings_text()}; strategy "
                 f"{self.setting.config.strategy.name}; seed {self.seed}",
                 f"  {self.games:,} games per configuration, every one on the same playouts "
                 f"(common random numbers); {self.n_points:,} configurations, "
                 f"{self.games * self.n_points:,} games"
                 + (f" ({self.games_played:,} played now, the rest found played)"
                    if self.games_reused else ""),
                 f"  base: {m.label} {m.fmt_est(self.base, 2)}"]
        return lines

    def format(self, top: int | None = 20) -> str:
        lines = self.header()
        if self.method == "oat":
            lines += self._oat_table(top)
        else:
            lines += self._global_table(top)
        return "\n".join(lines)

    def _oat_table(self, top: int | None) -> list[str]:
        m = self.metric
        rows = self.table_rows(top)
        head = ["rank", "key", "source", "value", "step down: effect [95% CI]",
                "step up: effect [95% CI]"]
        body = [[r["rank"], r["key"], r["source"], r["value"], r["down"], r["up"]] for r in rows]
        out = [f"  keys ranked by the larger effect of one step (paired difference from the "
               f"base, in {m.unit}; * = assumed value):"]
        out += _columns(head, body, indent="  ")
        shown = len(rows)
        rest = len(self.effects) - shown
        if rest > 0:
            out.append(f"  ... and {rest} more keys (--top 0 shows all; --json lists every key)")
        sig = [e for e in self.effects if e.significant]
        assumed = [e.knob.name for e in sig if e.knob.assumed]
        out.append(f"  {len(sig)} of {len(self.effects)} keys move it beyond their 95% interval"
                   + (f"; {len(assumed)} of those are assumed values: "
                      + ", ".join(assumed[:8]) + (" ..." if len(assumed) > 8 else "")
                      if assumed else ""))
        none = [e.knob.name for e in self.effects if e.no_effect]
        if none:
            out.append(f"  {len(none)} keys change no playout's result at all (ignored in this "
                       "setting): " + ", ".join(none[:8]) + (" ..." if len(none) > 8 else ""))
        fixed = [e.knob.name for e in self.effects if not (e.down.played or e.up.played)]
        if fixed:
            out.append(f"  {len(fixed)} keys could not be moved (at a bound, or refused by the "
                       "rules): " + ", ".join(fixed[:8]) + (" ..." if len(fixed) > 8 else ""))
        return out

    def table_rows(self, top: int | None) -> list[dict[str, str]]:
        m = self.metric
        chosen = self.effects if not top else self.effects[:top]
        out = []
        for i, e in enumerate(chosen):
            k = e.knob

            def cell(s: Side, k: Knob = k) -> str:
                if s.value is None:
                    return s.note or "-"
                if not s.played:
                    note = s.note if len(s.note) <= NOTE_WIDTH else (
                        s.note[:NOTE_WIDTH - 3].rstrip() + "...")
                    return f"{value_text(k, s.value)}: {note}"
                if s.identical:
                    return f"{value_text(k, s.value)}: no playout changed"
                tail = "" if s.significant else " (within noise)"
                return f"{value_text(k, s.value)}: {m.fmt_diff(s.diff)}{tail}"

            out.append({"rank": str(i + 1), "key": k.name + (" *" if k.assumed else ""),
                        "source": k.source, "value": value_text(k, k.value),
                        "down": cell(e.down), "up": cell(e.up)})
        return out

    def _global_table(self, top: int | None) -> list[str]:
        chosen = self.global_effects if not top else self.global_effects[:top]
        if self.method == "morris":
            head = ["rank", "key", "source", "range", "mu* [95% CI]", "sigma", "mu"]
            body = [[str(i + 1), e.knob.name + (" *" if e.knob.assumed else ""), e.knob.source,
                     f"{value_text(e.knob, e.lo)}..{value_text(e.knob, e.hi)}",
                     _ci(e.stats["mu_star"], e.stats["mu_star_conf"], self.metric),
                     _num(e.stats["sigma"], self.metric), _num(e.stats["mu"], self.metric)]
                    for i, e in enumerate(chosen)]
            out = [f"  Morris elementary effects ({self.options.get('trajectories')} "
                   f"trajectories, {self.options.get('levels')} levels; in {self.metric.unit} "
                   "across each key's range; * = assumed value):"]
        else:
            head = ["rank", "key", "source", "range", "total ST [95% CI]",
                    "first-order S1 [95% CI]"]
            body = [[str(i + 1), e.knob.name + (" *" if e.knob.assumed else ""), e.knob.source,
                     f"{value_text(e.knob, e.lo)}..{value_text(e.knob, e.hi)}",
                     f"{e.stats['ST']:.3f} [{e.stats['ST'] - e.stats['ST_conf']:.3f}, "
                     f"{e.stats['ST'] + e.stats['ST_conf']:.3f}]",
                     f"{e.stats['S1']:.3f} [{e.stats['S1'] - e.stats['S1_conf']:.3f}, "
                     f"{e.stats['S1'] + e.stats['S1_conf']:.3f}]"]
                    for i, e in enumerate(chosen)]
            out = [f"  Sobol' indices (share of the metric's variance over the ranges; "
                   f"{self.options.get('samples')} base samples; * = assumed value):"]
        out += _columns(head, body, indent="  ")
        if self.dropped:
            out.append(f"  {self.dropped} trajectories were left out: a point on them breaks the "
                       "rules' own constraints")
        return out

    # ---- files ----------------------------------------------------------------------------
    def frame(self) -> pd.DataFrame:
        """One row per key and step (one at a time) or per key (global)."""
        rows = []
        if self.method == "oat":
            for rank, e in enumerate(self.effects, 1):
                k = e.knob
                for side_name, s in (("down", e.down), ("up", e.up)):
                    row = {"rank": rank, "key": k.name, "source": k.source,
                           "assumed": k.assumed, "base_value": float(k.value), "side": side_name,
                           "value": float(s.value) if s.value is not None else np.nan,
                           "played": s.played, "note": s.note,
                           "base_metric": self.base.value,
                           "metric": s.estimate.value if s.played else np.nan,
                           "metric_lo": s.estimate.lo if s.played else np.nan,
                           "metric_hi": s.estimate.hi if s.played else np.nan,
                           "effect": s.diff.mean if s.played else np.nan,
                           "effect_lo": s.diff.lo if s.played else np.nan,
                           "effect_hi": s.diff.hi if s.played else np.nan,
                           "significant": s.significant, "no_effect_at_all": s.identical,
                           "games": self.games}
                    rows.append(row)
        else:
            for rank, e in enumerate(self.global_effects, 1):
                rows.append({"rank": rank, "key": e.knob.name, "source": e.knob.source,
                             "assumed": e.knob.assumed, "base_value": float(e.knob.value),
                             "lo": float(e.lo), "hi": float(e.hi), **e.stats,
                             "games": self.games})
        return pd.DataFrame(rows)

    def write(self, out: str | Path, top: int | None = 20) -> list[Path]:
        """The results into ``out`` (claimed and holding the plays already): JSON, Parquet,
        CSV, the chart and the report (Markdown and self-contained HTML); the manifest last.
        Written whole or not at all (a full disk leaves the plays and the unfinished
        manifest, for ``--resume``; see :func:`experiments.storage.outdir.staged`)."""
        from experiments.storage.outdir import staged

        final = Path(out)
        with staged(final, "sensitivity") as stage:
            paths = self._write_files(stage, final, top)
        return [final / p.relative_to(stage) for p in paths]

    def _write_files(self, out: Path, final: Path, top: int | None) -> list[Path]:
        from experiments.reporting.balance_charts import index_chart, tornado_chart
        from experiments.reporting.report import Doc
        from experiments.running.plays import finish_folder
        from experiments.storage.jsonout import json_text
        from experiments.storage.store import write_csv, write_parquet, write_text

        paths = [write_text(out / "sensitivity.json", json_text(self.summary()) + "\n")]
        frame = self.frame()
        paths.append(write_parquet(out / "sensitivity.parquet", frame,
                                   {"kind": "sensitivity", "method": self.method}))
        paths.append(write_csv(out / "sensitivity.csv", frame))
        pts = self.points.copy()
        if "turns_hist" in pts:
            pts["turns_hist"] = [np.asarray(h, dtype=np.int64) for h in pts["turns_hist"]]
        paths.append(write_parquet(out / "points.parquet", pts, {"kind": "points"}))
        if self.setting.rules_path is not None:
            from simcore.rules_data import read_toml_text

            paths.append(write_text(out / "rules.toml", read_toml_text(self.setting.rules_path)))
        m = self.metric
        scale = 100.0 if m.is_rate else 1.0
        caption = (f"{self.game.title}. Settings: {self.setting.settings_text()}; strategy "
                   f"{self.setting.config.strategy.name}. {self.games:,} games per configuration "
                   f"on the same playouts of seed {self.seed} ({self.n_points:,} configurations). "
                   f"Base {m.label}: {m.fmt_est(self.base, 2)}.")
        if self.method == "oat":
            chart = out / "chart-tornado.png"
            n_chart = top or 20
            rows = []
            for e in self.effects[:n_chart]:
                if not (e.down.played or e.up.played):
                    continue
                k = e.knob
                down, up = (value_text(k, s.value) if s.played else "-" for s in (e.down, e.up))
                rows.append({"label": f"{k.name}{' *' if k.assumed else ''} "
                                      f"({down} < {value_text(k, k.value)} > {up})",
                             "down": _trip(e.down), "up": _trip(e.up)})
            tornado_chart(rows, chart, self.title,
                          f"change in {m.label} ({'points' if m.is_rate else m.unit})", scale)
            caption += (" Bars: the paired difference from the base when the key moves one "
                        "step down (blue) or up (orange), with 95% intervals (Newcombe's for "
                        "shares, Student's t for means); * marks an assumed value.")
        else:
            chart = out / f"chart-{self.method}.png"
            chosen = self.global_effects[:top or 20]
            labels = [e.knob.name + (" *" if e.knob.assumed else "") for e in chosen]
            if self.method == "morris":
                series = [("mu* (mean size of the elementary effects)",
                           [scale * e.stats["mu_star"] for e in chosen],
                           [scale * e.stats["mu_star_conf"] for e in chosen]),
                          ("sigma (spread: interactions, curvature)",
                           [scale * e.stats["sigma"] for e in chosen], [np.nan] * len(chosen))]
                xlabel = f"effect over the key's range ({'points' if m.is_rate else m.unit})"
            else:
                series = [("total index ST", [e.stats["ST"] for e in chosen],
                           [e.stats["ST_conf"] for e in chosen]),
                          ("first-order index S1", [e.stats["S1"] for e in chosen],
                           [e.stats["S1_conf"] for e in chosen])]
                xlabel = "share of the variance of the metric"
            index_chart(labels, series, chart, self.title, xlabel)
            caption += " Error bars: SALib's bootstrap 95% intervals; * marks an assumed value."
        paths.append(chart)
        doc = Doc()
        doc.h(1, self.title)
        doc.p(caption)
        doc.img(chart.name, self.title, caption, f"Chart of the {self.method} analysis")
        doc.h(2, "Keys ranked")
        if self.method == "oat":
            rows = self.table_rows(None)
            doc.table(["rank", "key", "source", "value", "step down: effect [95% CI]",
                       "step up: effect [95% CI]"],
                      [[r["rank"], f"`{r['key']}`", r["source"], r["value"], r["down"], r["up"]]
                       for r in rows], right={0, 3})
        else:
            lines = self._global_table(None)
            doc.code("\n".join(lines))
        doc.h(2, "How this was measured")
        doc.ul(self.method_notes())
        doc.code("\n".join(self.header()))
        paths.append(write_text(out / "report.md", doc.markdown()))
        paths.append(write_text(out / "report.html",
                                doc.html(self.title, {chart.name: chart.read_bytes()})))
        finish_folder(final, into=out, points=self.n_points,
                      games_played=self.games * self.n_points, games=self.games,
                      seed=self.seed, charts=[chart.name])
        return paths

    def method_notes(self) -> list[str]:
        m = self.metric
        notes = [f"Every configuration plays playouts 0 to {self.games - 1:,} of seed "
                 f"{self.seed}: the same shuffles and dice wherever the rules let them agree "
                 "(common random numbers), so differences are paired."]
        if self.method == "oat":
            notes += [
                "One step: one unit for an integer key; for a float, "
                f"{self.options.get('step')} times its value (times its range when the value "
                "is 0), within the key's bounds.",
                "Effect: the metric one step away minus the base's; its 95% interval is "
                + ("Newcombe's for paired proportions." if m.kind == "share" else
                   "Student's t on the per-playout differences."),
                "A key is ranked by the larger of its two effects; 'within noise' means the "
                "interval holds 0; 'no playout changed' means the metric is the same in every "
                "playout (the rules ignore the key here).",
                "Keys marked * are 'assumed' in the rules data: invented numbers, not the "
                "rulebook's or a public source's.",
            ]
        else:
            notes += [
                "Ranges: as given with --bounds, otherwise each key's value plus or minus "
                f"{self.options.get('spread')} times it (at least one unit for an integer), "
                "within its bounds; integer keys are rounded to whole numbers at each "
                "sample point, so for an integer with few values a Morris jump (two thirds "
                "of its range) may round to more or less than that, and its mu* is "
                "approximate (one at a time is exact for integers).",
                f"Samples and indices by SALib ({self.method}), seeded with the run's seed; "
                "the noise of a finite number of games per point adds to sigma (Morris) and "
                "to the indices (Sobol').",
            ]
        return notes


def _trip(s: Side) -> tuple[float, float, float] | None:
    return (s.diff.mean, s.diff.lo, s.diff.hi) if s.played else None


def _num(v: float, m: Metric) -> str:
    return f"{100 * v:.2f}" if m.is_rate else f"{v:.4g}"


def _ci(v: float, conf: float, m: Metric) -> str:
    return f"{_num(v, m)} [{_num(v - conf, m)}, {_num(v + conf, m)}]"


def _columns(head: list[str], body: list[list[str]], indent: str = "") -> list[str]:
    widths = [max([len(h)] + [len(str(r[i])) for r in body]) for i, h in enumerate(head)]
    lines = [indent + "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    for r in body:
        lines.append(indent + "  ".join(str(c).ljust(w) for c, w in
                                        zip(r, widths, strict=True)).rstrip())
    return lines


# ---- running ----------------------------------------------------------------------------
def check_options(method: str, step: float, spread: float, trajectories: int, levels: int,
                  samples: int, bounds: list[str] | None, keys: list[str] | None) -> None:
    if method not in METHODS:
        raise KnobError(f"--method {method}: not a method; allowed: {', '.join(METHODS)} (oat: "
                        "one key at a time; morris, sobol: all keys together, with SALib)")
    if not (math.isfinite(step) and 0 < step <= 1):
        raise KnobError(f"--step {step:g}: a float key's step as a share of its value, above 0 "
                        "and at most 1 (0.1: ten per cent)")
    if not (math.isfinite(spread) and 0 < spread <= 10):
        raise KnobError(f"--spread {spread:g}: how far a global range reaches from each value, "
                        "as a share of it; above 0 and at most 10")
    if method == "oat" and bounds:
        raise KnobError("--bounds applies to --method morris or sobol (one at a time, the "
                        "steps are one unit, or --step for floats)")
    if method != "oat" and not keys:
        raise KnobError(f"--method {method} varies a chosen set of keys together: give --keys "
                        "(e.g. 'turn.*'; one at a time, the default, takes every key)")
    if method == "morris":
        if not 2 <= trajectories <= 10_000:
            raise KnobError(f"--trajectories {trajectories}: from 2 to 10,000")
        if levels < 2 or levels % 2 or levels > 64:
            raise KnobError(f"--levels {levels}: an even number of grid levels from 2 to 64")
    if method == "sobol" and (samples < 2 or samples & (samples - 1) or samples > 1 << 16):
        raise KnobError(f"--samples {samples}: a power of two from 2 to 65,536 (Sobol' "
                        "sequences need one)")


def run_sensitivity(
    game: str,
    overrides: Any = None,
    *,
    strategy: str | None = None,
    rules_path: str | None = None,
    metric: str | None = None,
    keys: list[str] | None = None,
    method: str = "oat",
    step: float = 0.1,
    bounds: list[str] | None = None,
    spread: float = 0.5,
    trajectories: int = 10,
    levels: int = 4,
    samples: int = 32,
    games: int = 10_000,
    seed: int = 1,
    out: str | Path | None = None,
    resume: bool = False,
    overwrite: bool = False,
    chunk: int = DEFAULT_CHUNK,
    scheduler: str | None = None,
    dask_local: int | None = None,
    threads: int | None = None,
    progress: bool = False,
    top: int | None = 20,
    on_chunk: Any = None,
    check_only: bool = False,
) -> Sensitivity | None:
    """The Python twin of ``cthulhu-sim sensitivity``.  Everything is checked before a
    folder is touched (a RulesError, KnobError or MetricError naming the culprit);
    ``check_only`` stops there."""
    from experiments.running.limits import MAX_GAMES, MAX_SEED
    from experiments.running.runner import check_memory

    check_options(method, step, spread, trajectories, levels, samples, bounds, keys)
    if not 1 <= games <= MAX_GAMES:
        raise KnobError(f"--games {games}: from 1 to {MAX_GAMES:,} per configuration")
    if not 0 <= seed <= MAX_SEED:
        raise KnobError(f"--seed {seed}: from 0 to 2**63 - 1")
    setting = Setting.of(game, overrides, strategy, rules_path)
    met = parse_metric(metric, setting.config)
    knobs = select(setting.rules, keys, "--keys")
    if not knobs:
        raise KnobError(f"{setting.game.name} has no numeric rules-data value to vary")
    spans = parse_bounds(bounds)
    if method != "oat":
        knobs = apply_bounds(knobs, spans)
    check_memory(setting.game, games, runs=2, what="a configuration's games",
                 advice="--games is per configuration")
    options: dict[str, Any] = {"step": step} if method == "oat" else {"spread": spread}
    if method == "morris":
        options.update(trajectories=trajectories, levels=levels)
    elif method == "sobol":
        options.update(samples=samples)
    base_point = setting.point({}, seed)
    undefined = met.undefined(base_point.config)
    if undefined:
        raise KnobError(f"--metric {met.name}: the base setting has no such value ({undefined})")
    if method == "oat":
        sides = _oat_points(setting, met, knobs, step, seed)
        n_points = 1 + len({s.point.pid for s in sides.values() if s.point is not None})
    else:
        ranges = [_global_range(k, spans.get(k.name), spread) for k in knobs]
        X = _global_sample(method, knobs, ranges, trajectories, levels, samples, seed)
        if len(X) + 1 > MAX_POINTS:
            raise KnobError(f"{len(X) + 1:,} configurations to play, more than the "
                            f"{MAX_POINTS:,} one analysis may; choose fewer keys or samples")
        pts, keep, dropped = _global_points(setting, met, knobs, X, method, seed)
        n_points = 1 + int(keep.sum())
    if n_points > MAX_POINTS:
        raise KnobError(f"{n_points:,} configurations to play, more than the {MAX_POINTS:,} "
                        "one analysis may; choose fewer keys (--keys) or samples")
    request = {"command": "sensitivity", **setting.request(), "method": method,
               "metric": met.name, "keys": [k.name for k in knobs], "games": games,
               "seed": seed, **options}
    if method != "oat":
        request["ranges"] = {k.name: [k.cast(a), k.cast(b)] for k, (a, b) in
                             zip(knobs, ranges, strict=True)}
    if out is not None:
        from experiments.running.plays import check_folder

        check_folder(out, "sensitivity", request, resume=resume, overwrite=overwrite)
    if check_only:
        return None
    title = f"{setting.game.title}: sensitivity ({method}) of the {met.label}"
    t0 = time.perf_counter()
    with session(setting, out, "sensitivity", request, resume=resume, overwrite=overwrite,
                 title=title, seed=seed, chunk=chunk, scheduler=scheduler,
                 dask_local=dask_local, threads=threads, progress=progress,
                 on_chunk=on_chunk) as plays:
        if method == "oat":
            result = _oat(setting, plays, met, knobs, base_point, sides, games, seed, options)
        else:
            result = _global(setting, plays, met, knobs, ranges, X, pts, keep, dropped,
                             base_point, method, games, seed, options, levels)
        result.games_played = plays.played
        result.backend = plays.backend
        result.games_reused = max(0, result.n_points * games - plays.played)
        result.seconds = time.perf_counter() - t0
        if out is not None:
            result.write(out, top)
    return result


def _oat_points(setting: Setting, met: Metric, knobs: list[Knob], step: float, seed: int
                ) -> dict[tuple[str, str], Side]:
    """Each knob's step down and up, with the point to play where the rules allow it."""
    sides: dict[tuple[str, str], Side] = {}
    for k in knobs:
        for side, v in zip(("down", "up"), k.steps(step), strict=True):
            if v is None:
                bound = "minimum" if side == "down" else "maximum"
                sides[(k.name, side)] = Side(None, note=f"at its {bound}")
                continue
            try:
                p = setting.point(k.setting(setting.rules, v), seed)
            except RulesError as exc:
                sides[(k.name, side)] = Side(v, note=f"refused by the rules ({_short(exc)})")
                continue
            why = met.undefined(p.config)
            if why:
                sides[(k.name, side)] = Side(v, note=f"no {met.name} ({why})")
                continue
            sides[(k.name, side)] = Side(v, point=p)
    return sides


def _point_row(cell_index: int, label: str, config, recs, seed: int, extra: dict) -> dict:
    from experiments.running.spec import Cell
    from experiments.running.sweep import cell_row

    cell = Cell(cell_index, {}, {}, None, label)
    row = cell_row(cell, config, recs, seed)
    row.pop("label", None)
    return {"point": cell_index, **extra, **row}


def _oat(setting: Setting, plays: Plays, met: Metric, knobs: list[Knob], base_point,
         sides: dict[tuple[str, str], Side], games: int, seed: int, options: dict
         ) -> Sensitivity:
    points = [base_point] + [s.point for s in sides.values() if s.point is not None]
    plays.ensure(points, games, desc=f"{setting.game.name} sensitivity")
    base_recs = plays.records(base_point, games)
    base_est = met.estimate(base_recs, base_point.config)
    rows = [_point_row(0, "base", base_point.config, base_recs, seed,
                       {"key": "", "side": "base", "value": np.nan})]
    for (name, side_name), s in sides.items():
        p = s.point
        if p is None:
            continue
        recs = plays.records(p, games)
        s.estimate = met.estimate(recs, p.config)
        s.diff = met.difference(recs, p.config, base_recs, base_point.config)
        s.identical = met.same(recs, p.config, base_recs, base_point.config)
        rows.append(_point_row(len(rows), f"{name} {side_name}", p.config, recs, seed,
                               {"key": name, "side": side_name, "value": float(s.value)}))
    effects = [KeyEffect(k, sides[(k.name, "down")], sides[(k.name, "up")]) for k in knobs]
    order = {k.name: i for i, k in enumerate(knobs)}
    effects.sort(key=lambda e: (-e.effect, order[e.knob.name]))
    return Sensitivity(setting, "oat", met, seed, games, base_est, effects=effects,
                       options=options, points=pd.DataFrame(rows))


def _short(exc: Exception) -> str:
    import re

    return re.sub(r"^(override|\S+\.toml): ", "", str(exc))


def _global_range(k: Knob, span, spread: float) -> tuple[float, float]:
    lo, hi = (k.lo, k.hi) if span is not None else k.default_range(spread)
    if lo is None or hi is None or not hi > lo:
        if span is None and (k.lo is not None and k.hi is not None and k.lo == k.hi):
            raise KnobError(f"--keys {k.name}: its bounds allow only {k.cast(k.lo)}, so it cannot "
                            "be varied; leave it out")
        raise KnobError(f"--keys {k.name}: no range to vary it over; give --bounds "
                        f"{k.name}=LO:HI")
    return float(lo), float(hi)


def _global_sample(method: str, knobs: list[Knob], ranges, trajectories: int, levels: int,
                   samples: int, seed: int) -> np.ndarray:
    problem = _problem(knobs, ranges)
    rng = np.random.default_rng(seed)
    if method == "morris":
        from SALib.sample import morris as morris_sample

        X = morris_sample.sample(problem, trajectories, num_levels=levels, seed=rng)
    else:
        from SALib.sample import sobol as sobol_sample

        X = sobol_sample.sample(problem, samples, calc_second_order=False, scramble=True,
                                seed=rng)
    for j, k in enumerate(knobs):  # integers at whole numbers, within the range
        lo, hi = ranges[j]
        col = np.clip(X[:, j], lo, hi)
        X[:, j] = np.round(col) if k.is_int else col
    return X


def _problem(knobs: list[Knob], ranges) -> dict:
    return {"num_vars": len(knobs), "names": [k.name for k in knobs],
            "bounds": [[float(a), float(b)] for a, b in ranges]}


def _global_points(setting: Setting, met: Metric, knobs: list[Knob], X: np.ndarray,
                   method: str, seed: int) -> tuple[list, np.ndarray, int]:
    """The point of every sample row (None where the rules refuse it), which rows are kept
    (Morris: whole trajectories without a refused point) and how many trajectories were
    dropped; Sobol' needs every point, so a refused one is an error."""
    pts: list[Any] = []
    bad: list[tuple[int, str]] = []
    for i, row in enumerate(X):
        try:
            p = setting.point(settings_for(knobs, list(row), setting.rules), seed)
            why = met.undefined(p.config)
            if why:
                raise RulesError(f"no {met.name} ({why})")
            pts.append(p)
        except RulesError as exc:
            pts.append(None)
            bad.append((i, _short(exc)))
    keep = np.ones(len(X), dtype=bool)
    dropped = 0
    if bad:
        i, why = bad[0]
        where = ", ".join(f"{k.name}={k.cast(v)}" for k, v in zip(knobs, X[i], strict=True))
        if method == "sobol":
            raise KnobError(f"{len(bad)} of {len(X)} sample points are refused by the rules "
                            f"(first: {where}: {why}); narrow the ranges with --bounds")
        per = len(knobs) + 1
        for j, _ in bad:
            t = j // per
            if keep[t * per]:
                dropped += 1
            keep[t * per:(t + 1) * per] = False
        if len(X) // per - dropped < 2:
            raise KnobError(f"{dropped} of {len(X) // per} Morris trajectories hold points the "
                            f"rules refuse (first: {where}: {why}); narrow the ranges with "
                            "--bounds")
    return pts, keep, dropped


def _global(setting: Setting, plays: Plays, met: Metric, knobs: list[Knob], ranges, X, pts,
            keep, dropped: int, base_point, method: str, games: int, seed: int, options: dict,
            levels: int) -> Sensitivity:
    D = len(knobs)
    live = [p for p, k in zip(pts, keep, strict=True) if k]
    plays.ensure([base_point, *live], games, desc=f"{setting.game.name} {method}")
    base_recs = plays.records(base_point, games)
    base_est = met.estimate(base_recs, base_point.config)
    Y = np.full(len(X), np.nan)
    rows = [_point_row(0, "base", base_point.config, base_recs, seed, {
        k.name: float(k.value) for k in knobs})]
    for i, p in enumerate(pts):
        if p is None or not keep[i]:
            continue
        recs = plays.records(p, games)
        Y[i] = met.estimate(recs, p.config).value
        rows.append(_point_row(len(rows), f"sample {i}", p.config, recs, seed,
                               {k.name: float(v) for k, v in zip(knobs, X[i], strict=True)}))
    problem = _problem(knobs, ranges)
    rng = np.random.default_rng([seed, 1])  # the bootstrap's own stream
    if method == "morris":
        from SALib.analyze import morris as morris_analyze

        # SALib's effects are per unit of the normalised range: the metric's change over a
        # key's whole range
        res = morris_analyze.analyze(problem, X[keep], Y[keep], num_resamples=1000,
                                     conf_level=0.95, num_levels=levels, seed=rng)
        stats = [{"mu": float(res["mu"][j]), "mu_star": float(res["mu_star"][j]),
                  "mu_star_conf": float(res["mu_star_conf"][j]),
                  "sigma": float(res["sigma"][j])} for j in range(D)]
    else:
        from SALib.analyze import sobol as sobol_analyze

        res = sobol_analyze.analyze(problem, Y, calc_second_order=False, num_resamples=1000,
                                    conf_level=0.95, seed=rng)
        stats = [{"S1": float(res["S1"][j]), "S1_conf": float(res["S1_conf"][j]),
                  "ST": float(res["ST"][j]), "ST_conf": float(res["ST_conf"][j])}
                 for j in range(D)]
    effects = [GlobalEffect(k, ranges[j][0], ranges[j][1], stats[j])
               for j, k in enumerate(knobs)]
    order = {k.name: i for i, k in enumerate(knobs)}
    effects.sort(key=lambda e: (-e.effect, order[e.knob.name]))
    result = Sensitivity(setting, method, met, seed, games, base_est, global_effects=effects,
                         options=options, points=pd.DataFrame(rows))
    result.dropped = dropped
    return result
