"""A balance figure with the range its assumptions allow (``cthulhu-sim uncertainty GAME``).

Every ``assumed`` number of the rules data (or those ``keys`` name) is sampled over its
*plausible range* (``Entry.plausible_range()``: the rules data's ``plausible = [lo, hi]``, or
one step each way) all together: a Latin hypercube (``method="lhs"``) or a scrambled Sobol'
sequence (``"sobol"``) from :mod:`scipy.stats.qmc`, one column per factor.  An integer takes
each whole value of its range with equal chance (the unit interval cut into ``hi - lo + 1``
equal parts); a float is spread evenly; a list of numbers is one factor that moves the whole
list between its lowest and highest plausible versions at once (an item named ``KEY[i]`` moves
alone).  A sample the rules refuse (Wake Up's five Ingredient counts must add up to 64) is
left out and another drawn in its place, up to :data:`MAX_DRAWS` draws a sample; how many were
refused is reported.

The default setting and every sample play the same playouts ``0 .. games-1`` of one seed
(common random numbers, through :class:`experiments.running.plays.Plays`, as ``sensitivity``
plays them: resumable chunk by chunk in ``--out``, here or on a Dask cluster), so what differs
between samples is the assumptions, not the dice.  For the headline figure (the team's win
rate; each seat's for a competitive game, seat 0 first) it reports:

- its value at the defaults with the sampling 95% interval (Wilson);
- the *band*: the median and the 5-95% range of the figure over the samples;
- the *drivers*: the factors ranked by the size of Spearman's rank correlation between the
  factor and the figure over the same samples (``score``, signed: a positive one raises the
  figure), with the standardised regression coefficient of a linear fit (``src``; its
  square is about the share of the band's variance the factor explains on its own) and the
  fit's R squared.

The band holds the games' own noise too: each sample is measured on ``games`` playouts, whose
binomial variance is reported beside the band's (``noise_share``) so a reader can tell a band
of assumptions from one of too few games.
"""

from __future__ import annotations

import fnmatch
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.analysis.knobs import NUMERIC, NUMERIC_LISTS, KnobError, knob
from experiments.analysis.metrics import Estimate, Metric, default_metric, parse_metric
from experiments.running.plays import DEFAULT_CHUNK, Plays, Setting, session
from simcore.rules_data import Entry, RulesData, RulesError

METHODS = ("lhs", "sobol")
MAX_SAMPLES = 100_000
MAX_DRAWS = 50  # candidate draws per sample wanted, before a run of refusals stops
KIND = "uncertainty"
TOP = 10  # drivers in the table and the chart

_ITEM = re.compile(r"^(?P<key>[^\[\]]+)\[(?P<index>[^\[\]]*)\]$")


@dataclass(frozen=True)
class Factor:
    """One assumed number (or a whole list of them) and the range it is sampled over."""

    key: str
    index: int | None  # an item of a list moved alone; None for a scalar or a whole list
    kind: str  # int, float, list[int], list[float]
    value: Any  # in effect (the rules data's, or as --set makes it)
    lo: Any  # plausible range (lists: two lists)
    hi: Any
    source: str
    note: str = ""

    @property
    def name(self) -> str:
        return self.key if self.index is None else f"{self.key}[{self.index}]"

    @property
    def is_list(self) -> bool:
        return self.kind.startswith("list")

    @property
    def is_int(self) -> bool:
        return self.kind in ("int", "list[int]")

    def _one(self, u: float, lo: float, hi: float) -> int | float:
        if self.is_int:
            lo, hi = int(round(lo)), int(round(hi))
            return int(min(hi, lo + math.floor(u * (hi - lo + 1))))
        return float(f"{lo + u * (hi - lo):.12g}")

    def at(self, u: float) -> Any:
        """The value at ``u`` of the unit interval (a list: every item at once)."""
        if self.is_list:
            return [self._one(u, a, b) for a, b in zip(self.lo, self.hi, strict=True)]
        return self._one(u, self.lo, self.hi)

    def number(self, u: float) -> float:
        """What the drivers are ranked on: the value itself, or ``u`` for a whole list
        (where it is the place between the lowest and highest lists)."""
        return float(u) if self.is_list else float(self.at(u))

    def range_text(self) -> str:
        return f"{_text(self.lo)}..{_text(self.hi)}"

    def value_text(self) -> str:
        return _text(self.value)


def _text(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def _width(lo: Any, hi: Any) -> bool:
    if isinstance(lo, list):
        return any(b > a for a, b in zip(lo, hi, strict=True))
    return hi > lo


def _factor(rules: RulesData, entry: Entry, index: int | None = None) -> Factor:
    value = rules[entry.key]
    lo, hi = entry.plausible_range()
    kind = entry.kind
    if entry.plausible is None:  # one step each way from the value in effect
        e = Entry(entry.key, value, entry.source, entry.note, entry.min, entry.max,
                  kind=entry.kind)
        lo, hi = e.plausible_range()
    else:  # the file's range, widened to hold a value --set puts outside it
        if isinstance(value, list):
            lo = [min(a, v) for a, v in zip(lo, value, strict=True)]
            hi = [max(b, v) for b, v in zip(hi, value, strict=True)]
        else:
            lo, hi = min(lo, value), max(hi, value)
    if index is not None:
        value, lo, hi, kind = value[index], lo[index], hi[index], kind[5:-1]
    return Factor(entry.key, index, kind, value, lo, hi, entry.source, entry.note)


def _no_range(f: Factor, what: str) -> KnobError:
    return KnobError(f"{what} {f.name}: its plausible range is the one value {f.value_text()} "
                     f"(the rules data's plausible = [{_text(f.lo)}, {_text(f.hi)}]), so there "
                     "is nothing to vary; leave it out")


def factors(rules: RulesData, keys: list[str] | None, what: str = "--keys"
            ) -> tuple[list[Factor], list[Factor]]:
    """The factors to sample (in the rules data's order) and those left out because their
    plausible range is one value.  Without ``keys``: every assumed number and list of
    numbers.  A key is named (``KEY``; a list's ``KEY`` moves the whole list, ``KEY[i]`` one
    item) or matched by a glob (``counters.cultist.*``); a rulebook value, or a named key
    whose range is one value, is an error."""
    entries = rules.entries
    chosen: dict[str, Factor] = {}
    fixed: list[Factor] = []
    if not keys:
        for e in entries.values():
            if e.source == "assumed" and e.kind in NUMERIC + NUMERIC_LISTS:
                f = _factor(rules, e)
                if _width(f.lo, f.hi):
                    chosen[f.name] = f
                else:
                    fixed.append(f)
        return list(chosen.values()), fixed
    from experiments.analysis.knobs import _split

    for raw in _split(keys):
        if any(c in raw for c in "*?"):
            found = [e for k, e in entries.items() if e.kind in NUMERIC + NUMERIC_LISTS
                     and e.source != "rulebook" and fnmatch.fnmatchcase(k, raw)]
            if not found:
                raise KnobError(f"{what} {raw}: matches no assumed or public number of the "
                                f"{rules.game} rules data")
            for e in found:
                f = _factor(rules, e)
                if _width(f.lo, f.hi):
                    chosen.setdefault(f.name, f)
                else:
                    fixed.append(f)
            continue
        m = _ITEM.match(raw)
        k = knob(rules, raw, what, lists=True)  # unknown or not a number: its error line
        entry = entries[k.key]
        if entry.source == "rulebook":
            raise KnobError(f"{what} {raw}: a rulebook value (given by the text), so it has no "
                            "plausible range; only assumed and public numbers are sampled")
        f = _factor(rules, entry, k.index if m else None)
        if not _width(f.lo, f.hi):
            raise _no_range(f, what)
        chosen.setdefault(f.name, f)
    order = {k: i for i, k in enumerate(entries)}
    out = sorted(chosen.values(), key=lambda f: (order[f.key], f.index or 0))
    names = {f.key for f in out if f.index is None}
    clash = [f.name for f in out if f.index is not None and f.key in names]
    if clash:
        raise KnobError(f"{what} {clash[0]}: its list is varied whole as well; name one or "
                        "the other")
    return out, fixed


def unit_sample(method: str, d: int, n: int, seed: int, draw: int) -> np.ndarray:
    """``n`` points of the unit cube of ``d`` dimensions: draw ``draw`` of the run's stream
    (0 first; later draws replace refused samples)."""
    from scipy.stats import qmc

    rng = np.random.default_rng([seed, 2, draw])
    if method == "lhs":
        return qmc.LatinHypercube(d, seed=rng).random(n)
    import warnings

    sob = qmc.Sobol(d, scramble=True, seed=rng)
    with warnings.catch_warnings():  # a count not a power of two loses some balance
        warnings.simplefilter("ignore")
        return sob.random(n)


def settings_of(fs: list[Factor], u: np.ndarray, rules: RulesData) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f, x in zip(fs, u, strict=True):
        v = f.at(float(x))
        if f.index is None:
            out[f.key] = v
        else:
            items = out.get(f.key) or list(rules[f.key])
            items[f.index] = v
            out[f.key] = items
    return out


@dataclass
class Band:
    """One figure (a metric) at the defaults and over the samples."""

    metric: Metric
    default: Estimate
    values: np.ndarray  # per sample
    noise: float  # the mean binomial variance of a sample's estimate
    drivers: list[dict[str, Any]] = field(default_factory=list)
    r2: float | None = None

    @property
    def median(self) -> float:
        return float(np.median(self.values))

    @property
    def p5(self) -> float:
        return float(np.percentile(self.values, 5))

    @property
    def p95(self) -> float:
        return float(np.percentile(self.values, 95))

    @property
    def noise_share(self) -> float | None:
        var = float(np.var(self.values, ddof=1)) if len(self.values) > 1 else 0.0
        return min(1.0, self.noise / var) if var > 0 else None

    def as_dict(self) -> dict[str, Any]:
        return {"metric": self.metric.name, "label": self.metric.label,
                "default": {"value": self.default.value,
                            "ci95": [self.default.lo, self.default.hi]},
                "band": {"median": self.median, "p5": self.p5, "p95": self.p95,
                         "min": float(self.values.min()), "max": float(self.values.max())},
                "noise_share": self.noise_share, "r2": self.r2,
                "drivers": self.drivers}

    def sentence(self, top: int = 3) -> str:
        m = self.metric
        d = self.default
        lead = [x["key"] for x in self.drivers[:top] if abs(x["score"]) >= 0.2]
        text = (f"{m.label} {_pct(d.value, m)} [{_pct(d.lo, m, 1)}, {_pct(d.hi, m, 1)}] at the "
                f"assumed values; {_pct(self.p5, m)} to {_pct(self.p95, m)} (median "
                f"{_pct(self.median, m)}) over their plausible ranges")
        if lead:
            text += "; driven most by " + ", ".join(lead)
        return text


def _pct(v: float, m: Metric, digits: int = 1) -> str:
    return f"{100 * v:.{digits}f}%" if m.is_rate else f"{v:.4g}"


def drivers(fs: list[Factor], X: np.ndarray, y: np.ndarray) -> tuple[list[dict], float | None]:
    """Each factor's Spearman rank correlation with ``y`` (and its p-value), the standardised
    regression coefficients of a linear fit where there are more samples than factors, and
    that fit's R squared; ranked by the size of the rank correlation."""
    from scipy.stats import spearmanr

    n, d = X.shape
    out = []
    for j, f in enumerate(fs):
        x = X[:, j]
        if np.ptp(x) == 0 or np.ptp(y) == 0:
            rho, p = 0.0, 1.0
        else:
            res = spearmanr(x, y)
            rho, p = float(res.statistic), float(res.pvalue)
        out.append({"key": f.name, "score": rho, "p_value": p, "src": None,
                    "source": f.source, "range": [f.lo, f.hi], "value": f.value})
    r2 = None
    sx = X.std(axis=0)
    sy = y.std()
    if n > d + 1 and sy > 0:
        live = sx > 0
        Z = (X[:, live] - X[:, live].mean(axis=0)) / sx[live]
        zy = (y - y.mean()) / sy
        A = np.column_stack([np.ones(n), Z])
        coef, *_ = np.linalg.lstsq(A, zy, rcond=None)
        fit = A @ coef
        r2 = float(1 - np.sum((zy - fit) ** 2) / np.sum(zy ** 2))
        it = iter(coef[1:])
        for j, ok in enumerate(live):
            out[j]["src"] = float(next(it)) if ok else 0.0
    order = {f.name: i for i, f in enumerate(fs)}
    out.sort(key=lambda r: (-abs(r["score"]), order[r["key"]]))
    return out, r2


@dataclass
class Uncertainty:
    setting: Setting
    method: str
    seed: int
    games: int
    factors: list[Factor]
    fixed: list[Factor]
    bands: list[Band]  # the headline first (seat 0 or the team), then the other seats
    X: np.ndarray  # the factor numbers per sample (see Factor.number)
    U: np.ndarray  # the unit-cube points
    refused: int = 0
    refused_first: str = ""
    samples_asked: int = 0
    games_played: int = 0
    seconds: float = 0.0
    backend: str = "local"
    rows: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    keys_asked: list[str] | None = None  # --keys as given (None: every assumed number)
    metric_asked: str | None = None  # --metric as given (None: the game's headline)

    @property
    def game(self):
        return self.setting.game

    @property
    def headline(self) -> Band:
        return self.bands[0]

    @property
    def design(self) -> str:
        return "Latin hypercube" if self.method == "lhs" else "scrambled Sobol' sequence"

    @property
    def title(self) -> str:
        return f"{self.game.title}: the {self.headline.metric.label} over its assumptions"

    def summary(self) -> dict[str, Any]:
        h = self.headline.as_dict()
        return {
            "game": self.game.name, "title": self.game.title, "method": self.method,
            "settings": self.setting.config.changed(), "strategy":
            self.setting.config.strategy.name, "seed": self.seed, "games_per_sample":
            self.games, "samples": len(self.X), "samples_asked": self.samples_asked,
            "refused": self.refused, "refused_first": self.refused_first or None,
            "games_played": self.games_played,
            "metric": h["metric"], "label": h["label"], "default": h["default"],
            "band": h["band"], "noise_share": h["noise_share"], "r2": h["r2"],
            "drivers": h["drivers"],
            "seats": [b.as_dict() for b in self.bands[1:]] if len(self.bands) > 1 else [],
            "keys": [{"key": f.name, "source": f.source, "value": f.value,
                      "range": [f.lo, f.hi]} for f in self.factors],
            "fixed": [f.name for f in self.fixed],
            "command": self.command(),
        }

    def header(self) -> list[str]:
        lines = [self.title,
                 f"  settings: {self.setting.settings_text()}; strategy "
                 f"{self.setting.config.strategy.name}; seed {self.seed}",
                 f"  {len(self.factors)} assumed values sampled together over their plausible "
                 f"ranges ({self.design}); "
                 f"{len(self.X):,} samples x {self.games:,} games, every one on the same "
                 "playouts (common random numbers)"]
        if self.refused:
            lines.append(f"  {self.refused:,} samples refused by the rules and drawn again "
                         f"(first: {self.refused_first})")
        if self.fixed:
            lines.append(f"  {len(self.fixed)} assumed values have a one-value plausible range "
                         "and stay as they are: " + ", ".join(f.name for f in self.fixed[:6])
                         + (" ..." if len(self.fixed) > 6 else ""))
        return lines

    def format(self, top: int = TOP) -> str:
        lines = self.header()
        for b in self.bands:
            m = b.metric
            d = b.default
            lines.append(f"  {m.label}: {_pct(d.value, m)} [{_pct(d.lo, m)}, {_pct(d.hi, m)}] "
                         f"at the defaults; over the assumptions median {_pct(b.median, m)}, "
                         f"5-95% {_pct(b.p5, m)} to {_pct(b.p95, m)}"
                         + (f" (the games' noise is {100 * b.noise_share:.0f}% of its variance)"
                            if b.noise_share is not None else ""))
        lines.append(f"  what drives the {self.headline.metric.label} most (Spearman's rank "
                     "correlation over the samples; src: standardised regression coefficient"
                     + (f", linear fit R2 {self.headline.r2:.2f}" if self.headline.r2 is not None
                        else "") + "):")
        lines += _columns(*self.driver_table(top), indent="  ")
        return "\n".join(lines)

    def driver_table(self, top: int | None) -> tuple[list[str], list[list[str]]]:
        byname = {f.name: f for f in self.factors}
        head = ["rank", "key", "value", "plausible range", "rank corr.", "p", "src"]
        body = []
        for i, r in enumerate(self.headline.drivers[:top] if top else self.headline.drivers):
            f = byname[r["key"]]
            body.append([str(i + 1), r["key"], f.value_text(), f.range_text(),
                         f"{r['score']:+.2f}", f"{r['p_value']:.2g}",
                         "-" if r["src"] is None else f"{r['src']:+.2f}"])
        return head, body

    def command(self, out: str | None = None) -> str:
        """The command line that plays this analysis again (into ``out``)."""
        import shlex

        parts = ["cthulhu-sim", "uncertainty", self.game.name]
        for k, v in self.setting.request()["settings"].items():
            text = ",".join(map(str, v)) if isinstance(v, list | tuple) else str(v)
            if isinstance(v, bool):
                text = text.lower()
            parts += ["--set", f"{k}={text}"]
        parts += ["--strategy", self.setting.config.strategy.name]
        if self.setting.rules_path is not None:
            parts += ["--rules", "rules.toml"]
        if self.keys_asked:
            parts += ["--keys", ",".join(self.keys_asked)]
        if self.metric_asked:
            parts += ["--metric", self.metric_asked]
        if self.method != "lhs":
            parts += ["--method", self.method]
        parts += ["--samples", str(len(self.X)), "--games", str(self.games), "--seed",
                  str(self.seed)]
        if out:
            parts += ["--out", out]
        return " ".join(shlex.quote(p) for p in parts)

    # ---- files ----------------------------------------------------------------------------
    def write(self, out: str | Path) -> list[Path]:
        """The results into ``out`` (claimed and holding the plays already): JSON, Parquet,
        CSV, the chart and the report, the manifest last; written whole or not at all (a full
        disk leaves the plays and the unfinished manifest, for ``--resume``; see
        :func:`experiments.storage.outdir.staged`)."""
        from experiments.storage.outdir import staged

        final = Path(out)
        with staged(final, KIND) as stage:
            paths = self._write_files(stage, final)
        return [final / p.relative_to(stage) for p in paths]

    def _write_files(self, out: Path, final: Path) -> list[Path]:
        from experiments.reporting.report import Doc
        from experiments.running.plays import finish_folder
        from experiments.storage.jsonout import json_text
        from experiments.storage.store import write_csv, write_parquet, write_text

        paths = [write_text(out / "uncertainty.json", json_text(self.summary()) + "\n")]
        paths.append(write_parquet(out / "samples.parquet", self.rows, {"kind": KIND}))
        paths.append(write_csv(out / "samples.csv", self.rows))
        if self.setting.rules_path is not None:
            from simcore.rules_data import read_toml_text

            paths.append(write_text(out / "rules.toml", read_toml_text(self.setting.rules_path)))
        chart = out / "chart-band.png"
        band_chart(self, chart)
        paths.append(chart)
        h = self.headline
        caption = (f"{self.game.title}. Settings: {self.setting.settings_text()}; strategy "
                   f"{self.setting.config.strategy.name}. {len(self.X):,} samples of "
                   f"{len(self.factors)} assumed values over their plausible ranges, "
                   f"{self.games:,} games each on the same playouts of seed {self.seed}. Left: "
                   "the figure over the samples (the shaded band is the 5-95% range, the line "
                   "the value at the defaults with its 95% interval). Right: the rank "
                   "correlation of each assumed value with the figure, largest first.")
        doc = Doc()
        doc.h(1, self.title)
        doc.p(h.sentence()[:1].upper() + h.sentence()[1:] + ".")
        doc.img(chart.name, self.title, caption, "Histogram of the figure over the samples and "
                "its drivers")
        doc.h(2, "The figures")
        head = ["figure", "at the defaults [95% CI]", "median", "5-95% over the assumptions",
                "noise share"]
        body = []
        for b in self.bands:
            m, d = b.metric, b.default
            body.append([m.label, f"{_pct(d.value, m)} [{_pct(d.lo, m)}, {_pct(d.hi, m)}]",
                         _pct(b.median, m), f"{_pct(b.p5, m)} to {_pct(b.p95, m)}",
                         "-" if b.noise_share is None else f"{100 * b.noise_share:.0f}%"])
        doc.table(head, body, right={1, 2, 3, 4})
        doc.h(2, "What drives it")
        dh, db = self.driver_table(None)
        doc.table(dh, [[r[0], f"`{r[1]}`", *r[2:]] for r in db], right={0, 4, 5, 6})
        doc.h(2, "How this was measured")
        doc.ul(self.method_notes())
        doc.code("\n".join(self.header()))
        doc.h(2, "Reproduce")
        doc.p("From the folder that holds this report"
              + (", which keeps the rules data (`rules.toml`)" if self.setting.rules_path
                 is not None else "")
              + ", this draws the same samples and plays the same games into a new folder "
              "beside it; its `uncertainty.json` has the same figures:")
        doc.code(self.command(f"../{final.resolve().name}-reproduced"))
        paths.append(write_text(out / "report.md", doc.markdown()))
        paths.append(write_text(out / "report.html",
                                doc.html(self.title, {chart.name: chart.read_bytes()})))
        finish_folder(final, into=out, samples=len(self.X), games=self.games, seed=self.seed,
                      games_played=self.games * (len(self.X) + 1), charts=[chart.name])
        return paths

    def method_notes(self) -> list[str]:
        return [
            "Every assumed number of the rules data (or those --keys names) is sampled over its "
            "plausible range: the rules data's `plausible = [lo, hi]`, or one step each way "
            "(an integer: one unit; a float: a fifth of its value) where the note gives none. "
            "An integer takes each whole value with equal chance; a list moves whole between "
            "its lowest and highest plausible versions.",
            f"The samples are a {self.design} (scipy.stats.qmc) seeded with the run's seed; "
            f"a sample the rules refuse is drawn again ({self.refused:,} were).",
            f"The defaults and every sample play playouts 0 to {self.games - 1:,} of seed "
            f"{self.seed}: the same shuffles and dice wherever the rules let them agree "
            "(common random numbers).",
            "The value at the defaults carries its sampling 95% interval (Wilson); the band is "
            "the median and the 5th and 95th percentiles of the figure over the samples. Each "
            "sample's figure has its own sampling noise; 'noise share' is the mean binomial "
            "variance of a sample's figure over the variance across samples (small: the band "
            "is the assumptions'; near 100%: play more games per sample).",
            "Drivers: Spearman's rank correlation of each assumed value with the figure over the "
            "samples (signed: positive raises it), with its p-value; src is the standardised "
            "coefficient of a linear fit on every sampled value at once (its square is about "
            "the share of the variance the value explains), given where there are more "
            "samples than values. With few samples, correlations under about 2/sqrt(samples) "
            "in size are noise.",
        ]


def band_chart(u: Uncertainty, path: Path) -> None:
    from experiments.reporting.balance_charts import DOWN, UP
    from experiments.reporting.charts import _save, plt

    h = u.headline
    scale = 100.0 if h.metric.is_rate else 1.0
    top = h.drivers[:TOP]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 1.8 + 0.3 * max(len(top), 6)),
                                 constrained_layout=True, gridspec_kw={"width_ratios": [3, 2]})
    colors = [DOWN, UP, "#5a9e5a", "#8e5ab0"]
    lo = min(float(b.values.min()) for b in u.bands) * scale
    hi = max(float(b.values.max()) for b in u.bands) * scale
    bins = np.linspace(lo, hi if hi > lo else lo + 1, 25)
    for j, b in enumerate(u.bands):
        c = colors[j % len(colors)]
        ax.hist(b.values * scale, bins=bins, color=c, alpha=0.55, label=b.metric.label)
        ax.axvspan(b.p5 * scale, b.p95 * scale, color=c, alpha=0.12)
        ax.axvline(b.default.value * scale, color=c, lw=1.6)
        ax.axvspan(b.default.lo * scale, b.default.hi * scale, color=c, alpha=0.35)
    ax.set_xlabel(f"{'win rate (%)' if h.metric.is_rate else h.metric.label} over the samples")
    ax.set_ylabel("samples")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax.set_title(u.title, fontsize=10)
    y = np.arange(len(top))[::-1]
    bx.barh(y, [r["score"] for r in top],
            color=[UP if r["score"] > 0 else DOWN for r in top])
    bx.set_yticks(y, [r["key"] for r in top], fontsize=8)
    bx.axvline(0, color="#444", lw=0.8)
    bx.set_xlim(-1, 1)
    bx.set_xlabel(f"rank correlation with the {h.metric.label}")
    bx.grid(axis="x", alpha=0.3)
    _save(fig, path)


def _columns(head: list[str], body: list[list[str]], indent: str = "") -> list[str]:
    widths = [max([len(h)] + [len(str(r[i])) for r in body]) for i, h in enumerate(head)]
    lines = [indent + "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    for r in body:
        lines.append(indent + "  ".join(str(c).ljust(w) for c, w in
                                        zip(r, widths, strict=True)).rstrip())
    return lines


# ---- running ----------------------------------------------------------------------------
def _metrics(setting: Setting, metric: str | None) -> list[Metric]:
    config = setting.config
    head = parse_metric(metric, config)
    out = [head]
    if metric is None and default_metric(setting.game) == "seat0":
        out += [parse_metric(f"seat{s}", config) for s in range(1, config.seats)]
    return out


def draw_samples(setting: Setting, fs: list[Factor], mets: list[Metric], method: str,
                 samples: int, seed: int) -> tuple[np.ndarray, list, int, str]:
    """``samples`` unit points the rules accept (and their points), how many were refused
    and the first refusal's reason."""
    from experiments.analysis.sensitivity import _short

    U: list[np.ndarray] = []
    pts: list = []
    refused = 0
    first = ""
    draw = 0
    while len(pts) < samples:
        if refused > MAX_DRAWS * samples:
            raise KnobError(f"{refused:,} samples refused by the rules for {len(pts)} accepted "
                            f"(first: {first}); narrow the ranges with --keys")
        batch = unit_sample(method, len(fs), samples if draw == 0 else
                            max(samples - len(pts), 16), seed, draw)
        draw += 1
        for row in batch:
            if len(pts) >= samples:
                break
            changes = settings_of(fs, row, setting.rules)
            try:
                p = setting.point(changes, seed)
                for m in mets:
                    why = m.undefined(p.config)
                    if why:
                        raise RulesError(f"no {m.name} ({why})")
            except RulesError as exc:
                refused += 1
                if not first:
                    where = ", ".join(f"{f.name}={_text(f.at(float(x)))}"
                                      for f, x in zip(fs, row, strict=True))
                    first = f"{_short(exc)} at {where}"
                    if len(first) > 300:
                        first = first[:297] + "..."
                continue
            U.append(row)
            pts.append(p)
    return np.array(U), pts, refused, first


def check_options(method: str, samples: int, games: int, seed: int) -> None:
    from experiments.running.limits import MAX_GAMES, MAX_SEED

    if method not in METHODS:
        raise KnobError(f"--method {method}: not a method; allowed: lhs (Latin hypercube), "
                        "sobol (a scrambled Sobol' sequence)")
    if not 2 <= samples <= MAX_SAMPLES:
        raise KnobError(f"--samples {samples}: from 2 to {MAX_SAMPLES:,} (a band needs at least "
                        "two samples; a few hundred give steady percentiles)")
    if not 1 <= games <= MAX_GAMES:
        raise KnobError(f"--games {games}: from 1 to {MAX_GAMES:,} per sample")
    if not 0 <= seed <= MAX_SEED:
        raise KnobError(f"--seed {seed}: from 0 to 2**63 - 1")


def run_uncertainty(
    game: str,
    overrides: Any = None,
    *,
    strategy: str | None = None,
    rules_path: str | None = None,
    metric: str | None = None,
    keys: list[str] | None = None,
    method: str = "lhs",
    samples: int = 64,
    games: int = 2000,
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
) -> Uncertainty | None:
    """The Python twin of ``cthulhu-sim uncertainty``.  Everything is checked (and the samples
    drawn) before a folder is touched: a RulesError, KnobError or MetricError naming the
    culprit; ``check_only`` stops there."""
    from experiments.running.runner import check_memory

    check_options(method, samples, games, seed)
    setting = Setting.of(game, overrides, strategy, rules_path)
    mets = _metrics(setting, metric)
    fs, fixed = factors(setting.rules, keys)
    if not fs:
        raise KnobError(f"{setting.game.name} has no assumed number with a plausible range wider "
                        "than one value" + (" among --keys" if keys else ""))
    check_memory(setting.game, games, runs=2, what="a sample's games",
                 advice="--games is per sample")
    base_point = setting.point({}, seed)
    for m in mets:
        why = m.undefined(base_point.config)
        if why:
            raise KnobError(f"--metric {m.name}: the base setting has no such value ({why})")
    U, pts, refused, first = draw_samples(setting, fs, mets, method, samples, seed)
    request = {"command": KIND, **setting.request(), "method": method,
               "metrics": [m.name for m in mets], "keys": [f.name for f in fs],
               "ranges": {f.name: [f.lo, f.hi] for f in fs}, "samples": samples,
               "games": games, "seed": seed}
    if out is not None:
        from experiments.running.plays import check_folder

        check_folder(out, KIND, request, resume=resume, overwrite=overwrite)
    if check_only:
        return None
    t0 = time.perf_counter()
    with session(setting, out, KIND, request, resume=resume, overwrite=overwrite,
                 title=f"{setting.game.title}: uncertainty", seed=seed, chunk=chunk,
                 scheduler=scheduler, dask_local=dask_local, threads=threads,
                 progress=progress, on_chunk=on_chunk) as plays:
        result = _play(setting, plays, mets, fs, fixed, U, pts, base_point, method, games, seed)
        result.refused, result.refused_first, result.samples_asked = refused, first, samples
        result.keys_asked = list(keys) if keys else None
        result.metric_asked = metric
        result.games_played = plays.played
        result.backend = plays.backend
        result.seconds = time.perf_counter() - t0
        if out is not None:
            result.write(out)
    return result


def _play(setting: Setting, plays: Plays, mets: list[Metric], fs: list[Factor],
          fixed: list[Factor], U: np.ndarray, pts: list, base_point, method: str, games: int,
          seed: int) -> Uncertainty:
    plays.ensure([base_point, *pts], games, desc=f"{setting.game.name} uncertainty")
    base_recs = plays.records(base_point, games)
    X = np.array([[f.number(x) for f, x in zip(fs, row, strict=True)] for row in U])
    Y = np.empty((len(mets), len(pts)))
    rows = []
    for i, p in enumerate(pts):
        recs = plays.records(p, games)
        row = {"sample": i, **{f.name: X[i, j] for j, f in enumerate(fs)}}
        for k, m in enumerate(mets):
            Y[k, i] = m.estimate(recs, p.config).value
            row[m.name] = Y[k, i]
        row["turns_mean"] = float(np.mean(recs["turns"])) if "turns" in recs.dtype.names else np.nan
        rows.append(row)
    bands = []
    for k, m in enumerate(mets):
        y = Y[k]
        noise = float(np.mean(y * (1 - y)) / games) if m.kind == "share" else 0.0
        ranked, r2 = drivers(fs, X, y)
        bands.append(Band(m, m.estimate(base_recs, base_point.config), y, noise, ranked, r2))
    return Uncertainty(setting, method, seed, games, fs, fixed, bands, X, U,
                       rows=pd.DataFrame(rows))
