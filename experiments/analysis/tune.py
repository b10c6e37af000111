"""What setting hits a target (``cthulhu-sim tune GAME --target ... --vary KEY``).

**One key** (``--vary KEY`` once): the values the key may take (every integer of its range;
a float's range on a grid of ``tol`` through its value in effect) are searched by bisection
for where the metric crosses the target, assuming the metric moves one way as the key grows
(checked along the path: a reading against it is reported).  Every value plays the same
playouts (common random numbers).  A probe starts at ``games`` games and doubles them, up to
``max_games``, only while its 95% interval still holds the target, so games go where they
decide which way to go; at the end the two (or three) values around the crossing are played
on as many games until the closer one is decided or the cap is reached.  With ``--target
fair`` the search minimises the largest seat gap instead (a bisection on which way the gap
falls).  When the target lies beyond what the key's range reaches, the tool says so and how
close the nearest value gets.

**Several keys** (``--vary`` more than once): Optuna's TPE sampler, seeded with the run's seed
(so the result is reproducible), minimises the distance to the target (plus, with
``penalty``, a cost for moving keys from their values in effect, each as a share of its
range) within a budget of games: ``budget // games`` trials on the same playouts, the value
in effect tried first; the best few are then played again on four times the games and the
best of those is chosen.

**A difficulty ladder** (``--target normal=0.6,hard=0.45,madness=0.3``): the names are values of
one choice key (``difficulty``); each level is tuned on its own with that key set.  A varied
list with one item per level (``setup.extra_eldritch``, one for each difficulty) has the
level's item tuned, so the answer is one list for every level; a single number is tuned per
level, one value each.

Every answer is then confirmed on fresh playouts the search never saw (indices from 2**40 of
the same seed) with its 95% interval.  The playouts go through
:class:`experiments.running.plays.Plays`: resumable, on this machine or a Dask cluster.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from experiments.analysis.knobs import (
    Knob,
    KnobError,
    apply_bounds,
    finite_range,
    knob,
    parse_bounds,
    settings_for,
)
from experiments.analysis.metrics import Estimate, Metric, MetricError, parse_metric, parse_target
from experiments.running.plays import DEFAULT_CHUNK, Plays, Point, Setting, session
from experiments.stats import mean_interval, seat_differences
from simcore.rules_data import RulesError

CONFIRM_START = 1 << 40  # the confirming run's first playout index: far from the search's
MAX_GRID = 10**7  # values one key's search may walk (a float's range over its tolerance)
RECHECK = 3  # an optimiser's best trials played again on four times the games
SCAN = 64  # a target out of reach: a range of at most this many values is measured through


@dataclass
class Probe:
    """One measurement the search made: the values tried, on how many games, what it found."""

    values: dict[str, float]
    games: int
    estimate: Estimate
    phase: str  # start, bracket, bisect, choose, trial, recheck, confirm
    objective: float | None = None  # an optimiser's distance to the target

    def as_dict(self, knobs: list[Knob]) -> dict[str, Any]:
        casts = {k.name: k for k in knobs}
        out = {"values": {n: casts[n].cast(v) if n in casts else v
                          for n, v in self.values.items()},
               "games": self.games, "metric": self.estimate.value,
               "ci95": [self.estimate.lo, self.estimate.hi], "phase": self.phase}
        if self.objective is not None:
            out["objective"] = self.objective
        return out


@dataclass
class Level:
    """One target: a value of the metric (for a ladder, at one level of the level key)."""

    name: str | None  # the level (a value of the level key), or None
    changes: dict[str, Any]  # the level's setting (level key = name)
    knobs: list[Knob]
    target: float
    best: dict[str, float] = field(default_factory=dict)  # knob name -> chosen value
    best_index: tuple[int, ...] = ()  # the chosen values' places on the knobs' grids
    found: Estimate | None = None  # the chosen value on the search's playouts
    start: Estimate | None = None  # the value in effect, on the search's playouts
    confirmed: Estimate | None = None  # the chosen value on fresh playouts
    reached: bool = False  # the target within the confirmed interval
    out_of_reach: bool = False
    decided: bool = True  # the choice between the closest values decided at 95%
    notes: list[str] = field(default_factory=list)
    path: list[Probe] = field(default_factory=list)
    method: str = "bisection"
    seat_pairs: list[dict] = field(default_factory=list)  # fair: every pair, confirmed

    def games_used(self) -> int:
        """Games behind the answer: each value's most games in the search, and the
        confirming run's (played now or found played before)."""
        most: dict[str, int] = {}
        confirm = 0
        for p in self.path:
            if p.phase == "confirm":
                confirm = max(confirm, p.games)
                continue
            key = repr(sorted(p.values.items()))
            most[key] = max(most.get(key, 0), p.games)
        return sum(most.values()) + confirm

    def best_cast(self) -> dict[str, int | float]:
        ks = {k.name: k for k in self.knobs}
        return {n: ks[n].cast(v) for n, v in self.best.items()}


@dataclass
class Tuning:
    setting: Setting
    metric: Metric
    fair: bool
    level_key: str | None
    levels: list[Level]
    seed: int
    options: dict[str, Any]
    games_played: int = 0
    seconds: float = 0.0
    backend: str = "local"
    rules_files: dict[str, str] = field(default_factory=dict)  # level or "" -> file name

    @property
    def game(self):
        return self.setting.game

    @property
    def games_used(self) -> int:
        return sum(lv.games_used() for lv in self.levels)

    def games_text(self) -> str:
        used = self.games_used
        if used == self.games_played:
            return f"{used:,} games"
        return f"{used:,} games ({self.games_played:,} played now, the rest found played)"

    @property
    def knob_names(self) -> list[str]:
        names: list[str] = []
        for lv in self.levels:
            names += [k.name for k in lv.knobs if k.name not in names]
        return names

    def target_text(self) -> str:
        if self.fair:
            return "fair (every seat's win rate equal within its interval)"
        if self.level_key:
            return ", ".join(f"{lv.name}={self.metric.fmt(lv.target)}" for lv in self.levels)
        return f"{self.metric.fmt(self.levels[0].target)}"

    @property
    def title(self) -> str:
        what = "equal chances for every seat" if self.fair else (
            f"{self.metric.label} {self.target_text()}")
        names: list[str] = []
        for lv in self.levels:
            for k in lv.knobs:  # a ladder over a list: the list, one item per level
                n = (f"{k.key} (an item per {self.level_key})"
                     if self.level_key and k.index is not None else k.name)
                if n not in names:
                    names.append(n)
        return f"{self.game.title}: tuning {', '.join(names)} for {what}"

    # ---- the answer -------------------------------------------------------------------------
    def key_values(self) -> dict[str, Any]:
        """Rules-data key -> value for every tuned key, list items merged into their list
        (ladders over a list: one list for every level).  A scalar tuned per level of a
        ladder has no single value: :meth:`level_values` gives each."""
        out: dict[str, Any] = {}
        rules = self.setting.rules
        for lv in self.levels:
            for k in lv.knobs:
                if k.name not in lv.best:
                    continue
                if k.index is None:
                    if self.level_key is None:
                        out[k.key] = k.cast(lv.best[k.name])
                    continue
                items = out.get(k.key) or list(rules[k.key])
                items[k.index] = k.cast(lv.best[k.name])
                out[k.key] = items
        return out

    def per_level_scalars(self) -> bool:
        return self.level_key is not None and any(
            k.index is None for lv in self.levels for k in lv.knobs)

    def level_values(self, lv: Level) -> dict[str, Any]:
        return settings_for([k for k in lv.knobs if k.name in lv.best],
                            [lv.best[k.name] for k in lv.knobs if k.name in lv.best],
                            self.setting.rules)

    def set_line(self, lv: Level | None = None) -> str:
        from experiments.reporting.text import set_text

        values = self.level_values(lv) if lv is not None else self.key_values()
        return " ".join(f"--set {k}={set_text(v)}" for k, v in values.items())

    def summary(self) -> dict[str, Any]:
        m = self.metric
        out: dict[str, Any] = {
            "game": self.game.name, "title": self.game.title, "metric": m.name,
            "metric_label": m.label,
            "target": "fair" if self.fair else (
                {lv.name: lv.target for lv in self.levels} if self.level_key
                else self.levels[0].target),
            "level_key": self.level_key, "vary": self.knob_names,
            "settings": self.setting.config.changed(),
            "rules_file": str(self.setting.rules.path),
            "strategy": self.setting.config.strategy.name, "seed": self.seed,
            **self.options, "games_used": self.games_used, "games_played": self.games_played,
        }
        if self.per_level_scalars():
            out["best"] = {lv.name: lv.best_cast() for lv in self.levels}
        elif self.level_key:
            out["best"] = self.key_values()
        else:
            out["best"] = self.levels[0].best_cast()
        if self.level_key is None:
            out["set"] = self.set_line()
        else:
            out["set"] = (self.set_line() if not self.per_level_scalars() else
                          {lv.name: self.set_line(lv) for lv in self.levels})
        out["rules_files"] = self.rules_files
        out["levels"] = [self._level_dict(lv) for lv in self.levels]
        if self.level_key is None:  # the one target's answer at the top level too
            lv = self.levels[0]
            out.update({k: v for k, v in self._level_dict(lv).items()
                        if k not in ("level", "best", "target")})
        return out

    def _level_dict(self, lv: Level) -> dict[str, Any]:
        return {"level": lv.name, "target": lv.target, "best": lv.best_cast(),
                "method": lv.method,
                "start": lv.start.as_dict() if lv.start else None,
                "found": lv.found.as_dict() if lv.found else None,
                "confirmed": ({**lv.confirmed.as_dict(),
                               "playouts": [CONFIRM_START, CONFIRM_START + lv.confirmed.n]}
                              if lv.confirmed else None),
                "reached": lv.reached, "out_of_reach": lv.out_of_reach,
                "decided": lv.decided, "notes": lv.notes,
                **({"seat_differences": lv.seat_pairs} if lv.seat_pairs else {}),
                "path": [p.as_dict(lv.knobs) for p in lv.path]}

    # ---- a table ------------------------------------------------------------------------------
    def format(self) -> str:
        m = self.metric
        lines = [self.title,
                 f"  settings: {self.setting.settings_text()}; strategy "
                 f"{self.setting.config.strategy.name}; seed {self.seed}; "
                 f"{self.games_text()}"]
        for lv in self.levels:
            head = f"  {self.level_key} = {lv.name}: " if lv.name else "  "
            target = "fair" if self.fair else m.fmt(lv.target)
            chosen = ", ".join(f"{n} = {v}" for n, v in lv.best_cast().items())
            start = ", ".join(f"{k.name} = {k.cast(k.value)}" for k in lv.knobs)
            lines.append(f"{head}target {target} ({m.label}); {lv.method}: {chosen}")
            if lv.start is not None:
                lines.append(f"    from {start}: {m.fmt_est(lv.start, 2)} ({lv.start.n:,} games)")
            if lv.found is not None:
                lines.append(f"    chosen, on the search's playouts: {m.fmt_est(lv.found, 2)} "
                             f"({lv.found.n:,} games)")
            if lv.confirmed is not None:
                verdict = ("the target is inside it" if lv.reached
                           else "the target is outside it")
                lines.append(f"    confirmed on {lv.confirmed.n:,} fresh playouts: "
                             f"{m.fmt_est(lv.confirmed, 2)}; {verdict}")
            for note in lv.notes:
                lines.append(f"    note: {note}")
            if self.per_level_scalars():
                lines.append(f"    as settings: {self.set_line(lv)}")
        if not self.per_level_scalars():
            lines.append(f"  as settings: {self.set_line()}")
        if self.rules_files:
            lines.append("  rules file" + ("s" if len(self.rules_files) > 1 else "") + ": "
                         + ", ".join(self.rules_files.values()))
        return "\n".join(lines)

    # ---- files --------------------------------------------------------------------------------
    def write(self, out: str | Path) -> list[Path]:
        """The results into ``out`` (claimed and holding the plays already): the tuned rules
        files, JSON, Parquet, CSV, the charts and the report, the manifest last; written whole
        or not at all (a full disk leaves the plays and the unfinished manifest, for
        ``--resume``; see :func:`experiments.storage.outdir.staged`)."""
        from experiments.storage.outdir import staged

        final = Path(out)
        with staged(final, "tune") as stage:
            paths = self._write_files(stage, final)
        return [final / p.relative_to(stage) for p in paths]

    def _write_files(self, out: Path, final: Path) -> list[Path]:
        from experiments.reporting.balance_charts import path_chart, trials_chart
        from experiments.reporting.report import Doc
        from experiments.running.plays import finish_folder
        from experiments.storage.jsonout import json_text
        from experiments.storage.store import write_csv, write_parquet, write_text

        paths = self._write_rules(out)
        paths.append(write_text(out / "tune.json", json_text(self.summary()) + "\n"))
        import pandas as pd

        rows = []
        for lv in self.levels:
            for i, p in enumerate(lv.path):
                rows.append({"level": lv.name or "", "step": i, "phase": p.phase,
                             **{f"value.{n}": float(v) for n, v in p.values.items()},
                             "games": p.games, "metric": p.estimate.value,
                             "metric_lo": p.estimate.lo, "metric_hi": p.estimate.hi,
                             "objective": p.objective if p.objective is not None else np.nan,
                             "target": lv.target})
        frame = pd.DataFrame(rows)
        paths.append(write_parquet(out / "path.parquet", frame, {"kind": "tune-path"}))
        paths.append(write_csv(out / "path.csv", frame))
        if self.setting.rules_path is not None:
            from simcore.rules_data import read_toml_text

            paths.append(write_text(out / "rules.toml", read_toml_text(self.setting.rules_path)))
        m = self.metric
        scale = 100.0 if m.is_rate else 1.0
        ylabel = f"{m.label} ({'%' if m.is_rate else m.unit})"
        charts = []
        one_key = [lv for lv in self.levels if len(lv.knobs) == 1]
        if one_key:
            chart = out / "chart-path.png"
            panels = []
            for lv in one_key:
                k = lv.knobs[0]
                last: dict[float, Probe] = {}
                for p in lv.path:
                    if p.phase != "confirm":
                        last[p.values[k.name]] = p  # the latest (most games) of each value
                conf = None
                if lv.confirmed is not None and k.name in lv.best:
                    c = lv.confirmed
                    conf = (lv.best[k.name], c.value, c.lo, c.hi)
                panels.append({"title": (f"{self.level_key} = {lv.name}" if lv.name else k.name),
                               "xlabel": f"{k.name} (value)",
                               "points": [(x, p.estimate.value, p.estimate.lo, p.estimate.hi,
                                           p.games) for x, p in last.items()],
                               "target": None if self.fair else lv.target, "confirmed": conf,
                               "integer": k.is_int})
            path_chart(panels, chart, self.title, ylabel, scale)
            charts.append(chart)
        for lv in self.levels:
            if len(lv.knobs) > 1:
                trials = [p for p in lv.path if p.phase == "trial"]
                obj = [p.objective for p in trials]
                best = list(np.minimum.accumulate(obj)) if obj else []
                chart = out / (f"chart-trials-{lv.name}.png" if lv.name else "chart-trials.png")
                trials_chart(obj, best, chart, f"{self.title}: the optimiser's trials"
                             + (f" ({self.level_key} = {lv.name})" if lv.name else ""),
                             "distance to the target" + (" (points)" if m.is_rate else ""),
                             scale)
                charts.append(chart)
        caption = (f"{self.game.title}. Settings: {self.setting.settings_text()}; strategy "
                   f"{self.setting.config.strategy.name}; seed {self.seed}. Every value on the "
                   "same playouts (common random numbers), each point its latest measurement "
                   "with its 95% interval; the diamond is the chosen value played again on "
                   f"fresh playouts. {self.games_text()} in all.")
        doc = Doc()
        doc.h(1, self.title)
        doc.p(caption)
        doc.code(self.format())
        for c in charts:
            doc.img(c.name, self.title, caption, "The path of the search")
        doc.h(2, "The search, step by step")
        for lv in self.levels:
            if lv.name:
                doc.h(3, f"{self.level_key} = {lv.name}")
            doc.table(["step", "phase", "values", "games", f"{m.label} [95% CI]"]
                      + (["distance"] if len(lv.knobs) > 1 else []),
                      [[str(i + 1), p.phase,
                        ", ".join(f"{n}={v}" for n, v in p.as_dict(lv.knobs)["values"].items()),
                        f"{p.games:,}", m.fmt_est(p.estimate, 2)]
                       + ([m.fmt(p.objective, 2) if p.objective is not None else ""]
                          if len(lv.knobs) > 1 else [])
                       for i, p in enumerate(lv.path)], right={0, 3})
        doc.h(2, "How this was measured")
        doc.ul(self.method_notes())
        paths.append(write_text(out / "report.md", doc.markdown()))
        paths.append(write_text(out / "report.html", doc.html(
            self.title, {c.name: c.read_bytes() for c in charts})))
        finish_folder(final, into=out, points=sum(len({json_text(p.values) for p in lv.path})
                                      for lv in self.levels),
                      games_played=self.games_used, seed=self.seed,
                      charts=[c.name for c in charts])
        return paths + charts

    def _write_rules(self, out: Path) -> list[Path]:
        from experiments.storage.rulesfile import with_values
        from experiments.storage.store import write_text

        s = self.setting
        file_rules = (s.game.load_rules(s.rules_path) if s.rules_path is not None
                      else s.game.default_rules())
        base = {k: v for k, v in s.config.rules.overridden.items()}
        why = (f"Tuned by cthulhu-sim tune for {self.metric.label} "
               f"{'fair' if self.fair else self.target_text()} (seed {self.seed}).")
        paths = []
        if self.per_level_scalars():
            for lv in self.levels:
                values = {**base, **lv.changes, **self.level_values(lv)}
                name = f"rules-tuned-{lv.name}.toml"
                paths.append(write_text(out / name, with_values(file_rules, values, why)))
                self.rules_files[lv.name] = name
        else:
            values = {**base, **self.key_values()}
            paths.append(write_text(out / "rules-tuned.toml",
                                    with_values(file_rules, values, why)))
            self.rules_files[""] = "rules-tuned.toml"
        return paths

    def method_notes(self) -> list[str]:
        o = self.options
        notes = ["Every value tried plays the same playouts of the seed (common random "
                 "numbers), so the search compares values on the same shuffles and dice."]
        if any(len(lv.knobs) == 1 for lv in self.levels):
            notes.append(
                f"One key: bisection over its values, assuming the metric moves one way as "
                f"the key grows; a probe starts at {o['games']:,} games and doubles them up to "
                f"{o['max_games']:,} while its 95% interval holds the target; the values "
                "around the crossing are then played on as many games until the closer one "
                "is decided (or the cap is reached)."
                + (" Fair: the same, on which way the largest seat gap falls." if self.fair
                   else ""))
        if any(len(lv.knobs) > 1 for lv in self.levels):
            notes.append(
                f"Several keys: Optuna's TPE sampler seeded with {self.seed}, {o['budget']:,} "
                f"games of trials ({o['games']:,} per trial), minimising the distance to the "
                f"target plus {o['penalty']:g} times the keys' moves (each as a share of its "
                f"range); the best {RECHECK} trials played again on {4 * o['games']:,} games.")
        notes.append("Floats on a grid of their tolerance through the value in effect "
                     "(--tol; default a hundredth of the range).")
        notes.append(f"The answer is confirmed on {o['confirm']:,} fresh playouts (indices from "
                     "2**40 of the same seed, which the search never played), with its 95% "
                     "interval.")
        if self.level_key:
            notes.append(f"Each level of {self.level_key} is tuned on its own; a varied list with "
                         f"one item per level has the level's item tuned.")
        return notes


# ---- parsing the request ----------------------------------------------------------------------
def _looks_like_metric(name: str) -> bool:
    import re

    low = name.strip().lower()
    return bool(low in ("win", "gap", "turns") or re.fullmatch(r"seat[: ]?\d+", low)
                or low.startswith(("outcome:", "mean:")))


def parse_targets(text: str, setting: Setting, metric_text: str | None
                  ) -> tuple[Metric, bool, str | None, list[tuple[str | None, float]]]:
    """(metric, fair, level key, [(level, target)]) from ``--target``."""
    t = text.strip()
    g = setting.game
    if not t:
        raise MetricError("--target: empty; give a value (0.5), METRIC=VALUE (win=0.5), fair, "
                          "or levels (normal=0.6,hard=0.45)")
    if t.lower() == "fair":
        if g.kind.cooperative:
            raise MetricError(f"--target fair: {g.name} is cooperative (one team result), so "
                              "there are no seats to make equal; give a win rate (0.5)")
        if metric_text not in (None, "gap"):
            raise MetricError(f"--target fair makes every seat's win rate equal (the metric "
                              f"is the largest seat gap), so --metric {metric_text} does not "
                              "apply")
        if g.seats(setting.rules) == 2:  # equal chances: one seat minus the other at 0
            from experiments.analysis.metrics import seat_pair

            return seat_pair(setting.config), True, None, [(None, 0.0)]
        return parse_metric("gap", setting.config), True, None, [(None, 0.0)]
    if "=" not in t:
        met = parse_metric(metric_text, setting.config)
        return met, False, None, [(None, parse_target(t, met))]
    items = [x.strip() for x in t.split(",") if x.strip()]
    pairs = []
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise MetricError(f"--target {text}: {item!r} is not NAME=VALUE")
        pairs.append((name.strip(), value.strip()))
    if len(pairs) == 1 and _looks_like_metric(pairs[0][0]):
        name, value = pairs[0]
        met = parse_metric(name, setting.config)
        if metric_text is not None and parse_metric(metric_text, setting.config).name != met.name:
            raise MetricError(f"--target {text} and --metric {metric_text} name different "
                              "metrics; give one")
        return met, False, None, [(None, parse_target(value, met))]
    met = parse_metric(metric_text, setting.config)
    names = [n for n, _ in pairs]
    if len(set(names)) != len(names):
        raise MetricError(f"--target {text}: a level given twice")
    key = level_key(setting, names, text)
    return met, False, key, [(n, parse_target(v, met, f"--target {n}=")) for n, v in pairs]


def level_key(setting: Setting, names: list[str], text: str) -> str:
    """The one choice key of the rules data whose values hold every level name."""
    rules = setting.rules
    keys = [k for k, e in rules.entries.items()
            if e.kind == "str" and e.choices and all(n in e.choices for n in names)]
    if not keys:
        for n in names:
            if _looks_like_metric(n):
                raise MetricError(f"--target {text}: {n} is a metric; several targets are the "
                                  "levels of a setting (normal=0.6,hard=0.45), one target is "
                                  "METRIC=VALUE")
        choice = [f"{k} ({', '.join(map(str, e.choices))})" for k, e in rules.entries.items()
                  if e.kind == "str" and e.choices and "." not in k]
        raise MetricError(f"--target {text}: {', '.join(names)} are not the values of one "
                          f"setting of {setting.game.name} (a ladder names levels of one choice "
                          f"key: {'; '.join(choice) or 'it has none'}), nor a metric")
    if len(keys) > 1:
        raise MetricError(f"--target {text}: {', '.join(names)} are values of several keys "
                          f"({', '.join(keys)}); tune each level on its own with --set KEY=LEVEL")
    key = keys[0]
    if key in setting.overrides:
        raise MetricError(f"--target {text}: a ladder over {key}, which --set (or a shortcut) "
                          f"also sets ({key}={setting.overrides[key]}); leave it out")
    return key


def level_knobs(setting: Setting, level_rules, vary: list[str], key: str | None,
                level: str | None) -> list[Knob]:
    """The knobs ``--vary`` names, at one level: a list with one item per value of the
    level key has the level's item."""
    out = []
    for name in vary:
        entry = level_rules.entries.get(name.strip())
        if (key is not None and entry is not None and entry.kind.startswith("list")
                and "[" not in name):
            choices = setting.rules.entries[key].choices
            n = len(level_rules[entry.key])
            if n != len(choices):
                raise KnobError(f"--vary {name}: a list of {n} numbers, but {key} has "
                                f"{len(choices)} levels; a ladder tunes a list with one item "
                                "per level, or a single number")
            k = knob(level_rules, f"{entry.key}[{choices.index(level)}]", "--vary")
        else:
            k = knob(level_rules, name, "--vary")
        out.append(k)
    names = [k.name for k in out]
    if len(set(names)) != len(names):
        raise KnobError(f"--vary {', '.join(vary)}: a key given twice")
    return out


# ---- the search -------------------------------------------------------------------------------
class _Search:
    """One level's search: the values it may take and their measurements."""

    def __init__(self, setting: Setting, plays: Plays | None, met: Metric, lv: Level, seed: int,
                 games: int, max_games: int, tol: dict[str, float]):
        self.setting, self.plays, self.met, self.lv = setting, plays, met, lv
        self.seed, self.n0, self.cap = seed, games, max_games
        self.tol = tol
        self.points: dict[tuple, Point | None] = {}
        self.measured: dict[tuple, tuple[int, Estimate]] = {}

    # a knob's grid: index j stands for value v0 + j * step (integers: step 1)
    def step(self, k: Knob) -> float:
        return 1.0 if k.is_int else self.tol[k.name]

    def grid(self, k: Knob) -> tuple[int, int]:
        lo, hi = finite_range(k, "--vary")
        s = self.step(k)
        jlo = -math.floor((k.value - lo) / s + 1e-9)
        jhi = math.floor((hi - k.value) / s + 1e-9)
        if jhi - jlo > MAX_GRID:
            raise KnobError(f"--vary {k.name}: {jhi - jlo:,} values of {s:g} over its range, more "
                            f"than {MAX_GRID:,}; give a larger --tol or narrower --bounds")
        return jlo, jhi

    def value(self, k: Knob, j: int) -> float:
        return float(k.cast(round(k.value + j * self.step(k), 12)))

    def values(self, js: tuple[int, ...]) -> dict[str, float]:
        return {k.name: self.value(k, j) for k, j in zip(self.lv.knobs, js, strict=True)}

    def point(self, js: tuple[int, ...]) -> Point | None:
        if js not in self.points:
            vals = self.values(js)
            changes = {**self.lv.changes,
                       **settings_for(self.lv.knobs, list(vals.values()), self.setting.rules)}
            try:
                p = self.setting.point(changes, self.seed)
                if self.met.undefined(p.config):
                    p = None
            except RulesError:
                p = None
            self.points[js] = p
        return self.points[js]

    def records(self, js: tuple[int, ...], n: int) -> np.ndarray:
        return self.plays.records(self.points[js], n)

    def measure(self, js: tuple[int, ...], n: int, phase: str,
                objective: Any = None) -> Estimate:
        p = self.point(js)
        assert p is not None
        recs = self.records(js, n)
        e = self.met.estimate(recs, p.config)
        old = self.measured.get(js)
        if old is None or old[0] != n:
            obj = objective(e, js) if objective is not None else None
            self.lv.path.append(Probe(self.values(js), n, e, phase, obj))
        self.measured[js] = (n, e)
        return e

    def side(self, js: tuple[int, ...], phase: str) -> tuple[int, Estimate]:
        """Which side of the target the metric lies at ``js``: +1 above, -1 below, 0 when its
        interval still holds the target at the cap of games."""
        n = max(self.n0, self.measured.get(js, (0, None))[0])
        t = self.lv.target
        while True:
            e = self.measure(js, n, phase)
            if e.lo > t:
                return 1, e
            if e.hi < t:
                return -1, e
            if n >= self.cap:
                return 0, e
            n = min(2 * n, self.cap)


def _valid_span(search: _Search, jlo: int, jhi: int) -> tuple[int, int]:
    """The values around the value in effect (index 0) that the rules accept: the largest
    span [a, b] holding 0, found by bisection on the rules' answer (no games played)."""
    def ok(j: int) -> bool:
        return search.point((j,)) is not None

    if not ok(0):
        raise KnobError(f"--vary {search.lv.knobs[0].name}: the setting itself is refused")

    def edge(good: int, bad: int) -> int:
        while abs(bad - good) > 1:
            mid = (good + bad) // 2
            if ok(mid):
                good = mid
            else:
                bad = mid
        return good

    a = jlo if ok(jlo) else edge(0, jlo)
    b = jhi if ok(jhi) else edge(0, jhi)
    return a, b


def search_one(search: _Search, fair: bool) -> None:
    lv = search.lv
    k = lv.knobs[0]
    jlo, jhi = search.grid(k)
    a, b = _valid_span(search, jlo, jhi)
    if (a, b) != (jlo, jhi):
        lv.notes.append(f"the rules refuse {k.name} beyond {search.value(k, a):g} to "
                        f"{search.value(k, b):g}; searched within that")
    if a == b:
        raise KnobError(f"--vary {k.name}: the rules accept no value but {search.value(k, a):g} "
                        "in its range")
    lv.start = search.measure((0,), search.n0, "start")
    if search.met.kind == "gap":  # several seats: the least gap, by a ternary search
        lv.method = "ternary search on the largest seat gap"
        cands = _minimise(search, a, b)
    else:  # a value to cross (two seats, fair: one seat's win rate minus the other's at 0)
        cands = _cross(search, a, b)
    best, decided = _choose(search, cands, fair)
    lv.decided = decided
    lv.best_index = (best,)
    lv.best = search.values((best,))
    lv.found = search.measured[(best,)][1]
    _monotone_check(search, fair)


def _cross(search: _Search, a: int, b: int) -> list[int]:
    lv, k, met = search.lv, search.lv.knobs[0], search.met
    sa, ea = search.side((a,), "bracket")
    sb, eb = search.side((b,), "bracket")
    if sa != 0 and sa == sb:  # the target is beyond both ends
        lv.out_of_reach = True
        scanned = b - a + 1 <= SCAN
        lv.method = "bisection, then every value (out of reach)" if scanned else lv.method
        if scanned:  # a short range: every value, in case the metric turns back inside it
            for j in range(a, b + 1):
                if (j,) not in search.measured:
                    search.measure((j,), search.n0, "scan")
        near = sorted((abs(e.value - lv.target), abs(j[0]), j[0])
                      for j, (_, e) in search.measured.items())
        far_side = "above" if sa > 0 else "below"
        best = near[0][2]
        turned = [j[0] for j, (_, e) in search.measured.items()
                  if (e.value - lv.target) * sa <= 0]  # inside the range, on or past it
        if scanned and turned:  # both ends on one side, but the metric turns back between
            lv.out_of_reach = False
            lv.method = "bisection, then every value (the metric is not monotone)"
            lv.notes.append(
                f"{met.label} is {far_side} the target at both ends of {k.name}'s range "
                f"({search.value(k, a):g}: {met.fmt(ea.value)}, {search.value(k, b):g}: "
                f"{met.fmt(eb.value)}) but reaches it between ("
                + ", ".join(f"{search.value(k, j):g}" for j in sorted(turned))
                + "): the metric turns back inside the range")
            return [x[2] for x in near[:2]]
        lv.notes.append(
            f"out of reach: {met.label} is {far_side} the target at both ends of {k.name}'s "
            f"range ({search.value(k, a):g}: {met.fmt(ea.value)}, {search.value(k, b):g}: "
            f"{met.fmt(eb.value)})" + (", and at every value between" if scanned and all(
                (e.value - lv.target) * sa > 0 for _, e in search.measured.values()) else "")
            + f"; the nearest, {search.value(k, best):g}, gets within "
            f"{_gap(met, search.measured[(best,)][1].value - lv.target)} of it"
            + ("" if scanned else " (of the values the search measured)"))
        return [x[2] for x in near[:2]]
    if sa == 0:
        return [a, a + 1]
    if sb == 0:
        return [b - 1, b]
    while b - a > 1:
        c = (a + b) // 2
        sc, _ = search.side((c,), "bisect")
        if sc == 0:  # at the target within its interval on the most games a value gets
            if not k.is_int:
                _noise_note(search, c, a, b)
                return [c]  # (its neighbours are a tolerance away: as precise as asked)
            return [j for j in (c - 1, c, c + 1) if a <= j <= b]
        if sc == sa:
            a = c
        else:
            b = c
    return [a, b]


def _noise_note(search: _Search, c: int, a: int, b: int) -> None:
    """A float's probe that holds the target at the cap of games, with the bracket still
    wider than one step: the answer is as precise as the games allow, not the tolerance."""
    if b - a <= 2:
        return
    k, e = search.lv.knobs[0], search.measured[(c,)][1]
    half = max(e.value - e.lo, e.hi - e.value)
    search.lv.notes.append(
        f"at {e.n:,} games (--max-games) the 95% interval of {search.met.label} reaches "
        f"+-{_gap(search.met, half)}, more than one step of {k.name} "
        f"({search.step(k):g}) moves it: {search.value(k, c):g} is at the target within the "
        f"interval, but the values between {search.value(k, a):g} and {search.value(k, b):g} "
        "may be too; more games narrow it")


def _minimise(search: _Search, a: int, b: int) -> list[int]:
    """The values around the least seat gap, by a ternary search (the gap assumed to fall,
    then rise, as the key grows): which of two inner values has the smaller gap is decided by
    a paired comparison on the same playouts, or, where the cap of games leaves it
    undecided, by the point estimates."""
    while b - a > 3:
        m1 = a + (b - a) // 3
        m2 = b - (b - a) // 3
        s = _slope(search, m1, m2)
        if s == 0:
            e1, e2 = search.measured[(m1,)][1].value, search.measured[(m2,)][1].value
            s = 1 if e2 > e1 else -1
        if s > 0:  # larger at m2: the least gap is at m2 or before
            b = m2
        else:
            a = m1
    return list(range(a, b + 1))


def _slope(search: _Search, i: int, j: int) -> int:
    """+1 when the metric is decidedly larger at ``j`` than at ``i``, -1 smaller, 0 when
    the cap of games leaves it undecided."""
    n = max(search.n0, *(search.measured.get((x,), (0, None))[0] for x in (i, j)))
    while True:
        for x in (i, j):
            search.measure((x,), n, "bisect")
        pi, pj = search.points[(i,)], search.points[(j,)]
        d = search.met.difference(search.records((j,), n), pj.config,
                                  search.records((i,), n), pi.config)
        if d.lo > 0:
            return 1
        if d.hi < 0:
            return -1
        if n >= search.cap:
            return 0
        n = min(2 * n, search.cap)


def _choose(search: _Search, cands: list[int], fair: bool) -> tuple[int, bool]:
    """The candidate closest to the target, all played on as many games (doubling to the
    cap until the closest is decided at 95%); whether it was."""
    lv, k = search.lv, search.lv.knobs[0]
    if len(cands) == 1:
        return cands[0], True
    t = lv.target
    n = max(search.n0, *(search.measured.get((c,), (0, None))[0] for c in cands))
    # an integer is found exactly: the neighbours are played on until one is decidedly the
    # closer (or the cap); a float's neighbours are a tolerance apart, which is the precision
    # asked for, so the point estimates on the games played so far choose
    cap = search.cap if k.is_int else n
    while True:
        ests = {c: search.measure((c,), n, "choose") for c in cands}
        best = min(cands, key=lambda c: (abs(ests[c].value - t), abs(c)))
        ok = all(_closer(search, best, c, n, fair) for c in cands if c != best)
        if ok or n >= cap:
            break
        n = min(2 * n, cap)
    if k.is_int:
        _between_note(search, cands, ests, t)
    if not ok and not k.is_int:
        return best, False
    if not ok:
        others = ", ".join(f"{search.value(k, c):g}" for c in cands if c != best)
        lv.notes.append(f"{k.name} = {search.value(k, best):g} and {others} are as close to the "
                        f"target within the 95% intervals at {n:,} games; chose "
                        f"{search.value(k, best):g}, the closer on the point estimates (a "
                        "larger --max-games may separate them)")
    return best, ok


def _between_note(search: _Search, cands: list[int], ests: dict[int, Estimate],
                  t: float) -> None:
    """Two neighbouring integers decidedly either side of the target: none reaches it."""
    below = [c for c in cands if ests[c].hi < t]
    above = [c for c in cands if ests[c].lo > t]
    if not below or not above or any(ests[c].holds(t) for c in cands):
        return
    a, b = max(below, key=lambda c: ests[c].value), min(above, key=lambda c: ests[c].value)
    if abs(a - b) != 1:
        return
    k, m = search.lv.knobs[0], search.met
    lo, hi = sorted((a, b))
    search.lv.notes.append(
        f"the target lies between {k.name} = {search.value(k, lo):g} ({m.fmt(ests[lo].value)}) "
        f"and {search.value(k, hi):g} ({m.fmt(ests[hi].value)}): no whole value reaches it")


def _closer(search: _Search, b: int, c: int, n: int, fair: bool) -> bool:
    """Whether ``b`` is decidedly closer to the target than ``c`` on ``n`` games."""
    t = search.lv.target
    pb, pc = search.points[(b,)], search.points[(c,)]
    rb, rc = search.records((b,), n), search.records((c,), n)
    vb, vc = search.met.values(rb, pb.config), search.met.values(rc, pc.config)
    eb, ec = search.measured[(b,)][1].value, search.measured[(c,)][1].value
    if (eb - t) * (ec - t) < 0:
        # on either side of the target: b is the closer when the midpoint of the two lies on
        # b's side of it (below the target when c is below it, and so b above)
        both = ~(np.isnan(vb) | np.isnan(vc))
        _, lo, hi = mean_interval((vb[both] + vc[both]) / 2)
        return (hi < t) if ec < t else (lo > t)
    d = search.met.difference(rc, pc.config, rb, pb.config)  # c minus b, same side of t
    return d.lo > 0 if eb >= t else d.hi < 0


def _gap(met: Metric, d: float) -> str:
    return f"{100 * abs(d):.1f} points" if met.is_rate else f"{abs(d):.4g}"


def _monotone_check(search: _Search, fair: bool) -> None:
    if fair:
        return
    pts = sorted((j[0], e) for j, (_, e) in search.measured.items())
    if len(pts) < 3:
        return
    ends = pts[-1][1].value - pts[0][1].value
    sign = 1 if ends >= 0 else -1
    k = search.lv.knobs[0]
    for (j1, e1), (j2, e2) in zip(pts, pts[1:], strict=False):
        if (sign > 0 and e2.hi < e1.lo) or (sign < 0 and e2.lo > e1.hi):
            search.lv.notes.append(
                f"the metric does not move one way with {k.name}: {search.met.fmt(e1.value)} at "
                f"{search.value(k, j1):g} but {search.met.fmt(e2.value)} at "
                f"{search.value(k, j2):g}, against the trend across the range; the bisection "
                "assumes it does (narrow --bounds, or vary two keys for the optimiser)")
            return


def search_many(search: _Search, budget: int, penalty: float, fair: bool) -> None:
    """Optuna's TPE sampler (seeded), ``budget // games`` trials, then the best few played
    again on four times the games."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    lv = search.lv
    grids = [search.grid(k) for k in lv.knobs]
    widths = [max(hi - lo, 1) for lo, hi in grids]
    n = search.n0
    t = lv.target

    def distance(e: Estimate, js: tuple[int, ...]) -> float:
        move = sum(abs(j) / w for j, w in zip(js, widths, strict=True))
        return abs(e.value - t) + penalty * move

    if search.point(tuple(0 for _ in lv.knobs)) is None:
        raise KnobError("--vary: the setting itself is refused")
    lv.start = search.measure(tuple(0 for _ in lv.knobs), n, "start", distance)
    sampler = optuna.samplers.TPESampler(seed=search.seed % (2**32))
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.enqueue_trial({k.name: 0 for k in lv.knobs})
    trials = max(2, budget // n)
    scores: dict[tuple[int, ...], float] = {}

    def objective(trial: Any) -> float:
        js = tuple(trial.suggest_int(k.name, lo, hi)
                   for k, (lo, hi) in zip(lv.knobs, grids, strict=True))
        if search.point(js) is None:
            raise optuna.TrialPruned()
        e = search.measure(js, n, "trial", distance)
        scores[js] = distance(e, js)
        return scores[js]

    study.optimize(objective, n_trials=trials, gc_after_trial=False)
    if not scores:
        raise KnobError("--vary: every combination the optimiser tried is refused by the rules; "
                        "narrow --bounds")
    top = sorted(scores, key=lambda js: (scores[js], js))[:RECHECK]
    final = {js: distance(search.measure(js, 4 * n, "recheck", distance), js) for js in top}
    best = min(top, key=lambda js: (final[js], top.index(js)))
    lv.best_index = best
    lv.best = search.values(best)
    lv.found = search.measured[best][1]
    lv.method = f"Optuna TPE, {trials} trials"


def confirm(search: _Search, games: int, fair: bool) -> None:
    """The chosen values on ``games`` fresh playouts (from index 2**40), with the interval;
    whether the target is inside it (fair: every pair of seats equal within its interval)."""
    lv = search.lv
    p = search.point(lv.best_index)
    recs = search.plays.records(p, games, start=CONFIRM_START)
    e = search.met.estimate(recs, p.config)
    lv.confirmed = e
    lv.path.append(Probe(dict(lv.best), games, e, "confirm"))
    if fair:
        seats = p.config.game.seats(p.config.rules)
        pairs = seat_differences(recs["winner"], seats)
        lv.seat_pairs = [{"seats": [a, b], "diff": d.mean, "ci95": [d.lo, d.hi]}
                         for a, b, d in pairs]
        lv.reached = all(d.lo <= 0 <= d.hi for _, _, d in pairs)
        if not lv.reached:
            worst = max(pairs, key=lambda x: abs(x[2].mean))
            lv.notes.append(f"not equal within the intervals on the fresh playouts: seat "
                            f"{worst[0]} minus seat {worst[1]} is "
                            f"{100 * worst[2].mean:+.1f} points [{100 * worst[2].lo:+.1f}, "
                            f"{100 * worst[2].hi:+.1f}]")
    else:
        lv.reached = e.holds(lv.target)


# ---- running ------------------------------------------------------------------------------------
def run_tune(
    game: str,
    overrides: Any = None,
    *,
    target: str,
    vary: list[str],
    strategy: str | None = None,
    rules_path: str | None = None,
    metric: str | None = None,
    bounds: list[str] | None = None,
    tol: float | None = None,
    games: int = 4096,
    max_games: int = 65536,
    budget: int | None = None,
    penalty: float = 0.0,
    confirm_games: int = 20_000,
    seed: int = 1,
    out: str | Path | None = None,
    resume: bool = False,
    overwrite: bool = False,
    chunk: int = DEFAULT_CHUNK,
    scheduler: str | None = None,
    dask_local: int | None = None,
    threads: int | None = None,
    progress: bool = False,
    on_chunk: Any = None,
    check_only: bool = False,
) -> Tuning | None:
    """The Python twin of ``cthulhu-sim tune``.  Everything is checked before a folder is
    touched; ``check_only`` stops there."""
    from experiments.running.limits import MAX_GAMES, MAX_SEED
    from experiments.running.runner import check_memory

    if not vary:
        raise KnobError("--vary: give the key to tune (repeat --vary for several)")
    for what, v in (("--games", games), ("--max-games", max_games),
                    ("--confirm", confirm_games)):
        if not 1 <= v <= MAX_GAMES:
            raise KnobError(f"{what} {v}: from 1 to {MAX_GAMES:,}")
    if max_games < games:
        raise KnobError(f"--max-games {max_games:,} is below --games {games:,} (a probe's first "
                        "games); give at least as many")
    if not 0 <= seed <= MAX_SEED:
        raise KnobError(f"--seed {seed}: from 0 to 2**63 - 1")
    if not (math.isfinite(penalty) and penalty >= 0):
        raise KnobError(f"--penalty {penalty:g}: a cost of 0 or more per key moved across its "
                        "range")
    if tol is not None and not (math.isfinite(tol) and tol > 0):
        raise KnobError(f"--tol {tol:g}: a float key's tolerance, above 0")
    setting = Setting.of(game, overrides, strategy, rules_path)
    met, fair, key, targets = parse_targets(target, setting, metric)
    if budget is None:
        budget = 40 * games
    if len(vary) > 1 and not games <= budget <= MAX_GAMES:
        raise KnobError(f"--budget {budget:,}: at least one trial's games ({games:,}) and at most "
                        f"{MAX_GAMES:,}")
    spans = parse_bounds(bounds)
    levels: list[Level] = []
    tols: dict[str, float] = {}
    for name, value in targets:
        changes = {key: name} if key else {}
        try:
            lrules = setting.config.rules.with_overrides(changes) if changes else setting.rules
        except RulesError as exc:
            raise KnobError(f"--target {name}: {exc}") from None
        ks = level_knobs(setting, lrules, vary, key, name)
        ks = apply_bounds(ks, _spans_for(spans, ks))
        for k in ks:
            lo, hi = finite_range(k, "--vary")
            if not k.is_int:
                tk = tol if tol is not None else (hi - lo) / 100.0
                if tk >= hi - lo:
                    raise KnobError(f"--tol {tk:g}: as wide as {k.name}'s range ({lo:g} to "
                                    f"{hi:g}); give a smaller one")
                tols[k.name] = tk
        levels.append(Level(name, changes, ks, value))
    if tol is not None and not tols:
        raise KnobError(f"--tol applies to float keys; {', '.join(vary)} "
                        + ("is an integer" if len(vary) == 1 else "are integers")
                        + " (searched value by value)")
    check_memory(setting.game, max(max_games, confirm_games, 4 * games), runs=3,
                 what="a probe's games", advice="--max-games and --confirm are per value")
    options = {"games": games, "max_games": max_games, "confirm": confirm_games,
               "bounds": {k.name: [k.cast(k.lo), k.cast(k.hi)] for lv in levels
                          for k in lv.knobs},
               "tolerance": {n: float(f"{v:.12g}") for n, v in tols.items()}}
    if len(vary) > 1:
        options.update(budget=budget, penalty=penalty)
    request = {"command": "tune", **setting.request(), "metric": met.name, "target": target,
               "vary": list(vary), "seed": seed, **options}
    searches_checked = []
    for lv in levels:  # every level's setting and range, before a folder is touched
        s = _Search(setting, None, met, lv, seed, games, max_games, tols)
        for k in lv.knobs:
            s.grid(k)
        if s.point(tuple(0 for _ in lv.knobs)) is None:
            p_err = None
            try:
                setting.point({**lv.changes}, seed)
            except RulesError as exc:
                p_err = exc
            raise KnobError(f"--target {lv.name}: the level's setting is refused ({p_err})")
        searches_checked.append(s)
    if out is not None:
        from experiments.running.plays import check_folder

        check_folder(out, "tune", request, resume=resume, overwrite=overwrite)
    if check_only:
        return None
    title = f"{setting.game.title}: tuning {', '.join(vary)}"
    t0 = time.perf_counter()
    with session(setting, out, "tune", request, resume=resume, overwrite=overwrite,
                 title=title, seed=seed, chunk=chunk, scheduler=scheduler,
                 dask_local=dask_local, threads=threads, progress=progress,
                 on_chunk=on_chunk) as plays:
        for lv, checked in zip(levels, searches_checked, strict=True):
            s = _Search(setting, plays, met, lv, seed, games, max_games, tols)
            s.points = checked.points  # (configured already)
            if len(lv.knobs) == 1:
                search_one(s, fair)
            else:
                search_many(s, budget, penalty, fair)
            confirm(s, confirm_games, fair)
        result = Tuning(setting, met, fair, key, levels, seed, options,
                        games_played=plays.played, backend=plays.backend)
        result.seconds = time.perf_counter() - t0
        if out is not None:
            result.write(out)
    return result


def _spans_for(spans: dict, knobs: list[Knob]) -> dict:
    """``--bounds`` for one level's knobs: a bound on a list a ladder tunes item by item
    (``--bounds setup.extra_eldritch=0:5``) applies to the level's item."""
    out = dict(spans)
    for k in knobs:
        if k.index is not None and k.name not in out and k.key in out:
            out[k.name] = out.pop(k.key)
    return out
