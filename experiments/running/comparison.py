"""Compare strategies on the same seeds (the ``cthulhu-sim compare`` command).

Every strategy plays playouts ``0 .. games-1`` of the same seed, so the strategies meet the
same shuffles and dice where their choices agree, and the difference between two strategies is
measured pair by pair (a paired interval, much narrower than comparing two separate runs).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from experiments.reporting.text import set_text, settings_text
from experiments.running.runner import RunResult, check_memory, run_config
from experiments.stats import (
    Difference,
    Rate,
    fmt_diff,
    fmt_rate,
    headline,
    headline_hits,
    paired_difference,
    paired_rate_difference,
    rate_text,
    wilson,
)
from simcore.registry import get_game

__all__ = ["Comparison", "Pair", "compare", "set_text", "settings_text"]


def headline_name(cooperative: bool) -> str:
    return headline(cooperative)[1]


def run_hits(result: RunResult) -> np.ndarray:
    """Per playout: did the team win (cooperative), or seat 0 (competitive)?"""
    f = result.frame
    return headline_hits(result.game.kind.cooperative, f["outcome"].to_numpy(),
                         f["winner"].to_numpy())


@dataclass
class Pair:
    a: str
    b: str
    diff: Difference  # rate of b minus rate of a, paired
    turns: Difference  # mean game length of b minus a, paired

    def as_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "diff": self.diff.mean,
                "ci95": [self.diff.lo, self.diff.hi], "n": self.diff.n,
                "turns_diff": self.turns.mean, "turns_ci95": [self.turns.lo, self.turns.hi]}


@dataclass
class Comparison:
    game: str
    title: str
    cooperative: bool
    strategies: list[str]
    games: int
    seed: int
    settings: dict[str, Any]
    results: list[RunResult]
    rates: list[Rate]
    pairs: list[Pair]

    @property
    def metric(self) -> str:
        return headline_name(self.cooperative)

    def summary(self) -> dict[str, Any]:
        """The JSON form (``cthulhu-sim compare --json``)."""
        rows = []
        for name, res, rate in zip(self.strategies, self.results, self.rates, strict=True):
            s = res.summary()
            rows.append({"strategy": name, "rate": rate.rate, "ci95": [rate.lo, rate.hi],
                         "outcome_rates": s["outcome_rates"],
                         "outcome_ci95": s["outcome_ci95"],
                         **({"seat_win_rates": s["seat_win_rates"]}
                            if "seat_win_rates" in s else {}),
                         "turns": s["turns"], "extra": s["extra"]})
        first = self.results[0].summary()
        return {"game": self.game, "title": self.title, "metric": self.metric,
                "games": self.games, "seed": self.seed, "settings": self.settings,
                "strategies": rows, "pairs": [p.as_dict() for p in self.pairs],
                "assumed_values": first["assumed_values"],
                "rules_sources": first["rules_sources"]}

    def format(self) -> str:
        """A readable table."""
        summ = self.summary()
        head = ["strategy", f"{self.metric} [95% CI]", "mean turns"]
        rows = [[name, fmt_rate(rate), f"{float(res.frame['turns'].mean()):.2f}"]
                for name, res, rate in zip(self.strategies, self.results, self.rates,
                                           strict=True)]
        if not self.cooperative:
            head.append("every seat's win rate")
            for row, s in zip(rows, summ["strategies"], strict=True):
                row.append(" / ".join(rate_text(x["rate"], *x["ci95"])
                                      for x in s["seat_win_rates"]))
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        lines = [f"{self.title}: {len(self.strategies)} strategies on the same "
                 f"{self.games:,} games (seed {self.seed})"
                 + (", " + settings_text(self.settings) if self.settings else "")]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
        for r in rows:
            lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
        if self.pairs:
            lines.append(f"  paired differences (second minus first), in {self.metric} and in "
                         "game length:")
            pw = max(len(f"{p.b} - {p.a}") for p in self.pairs)
            for p in self.pairs:
                lines.append(f"  {(p.b + ' - ' + p.a).ljust(pw)}  {fmt_diff(p.diff):30s}"
                             f"  {fmt_diff(p.turns, 2, 'turns', 1.0)}")
        lines.append(f"  rules data: {summ['assumed_values']} of "
                     f"{sum(summ['rules_sources'].values())} values are assumed")
        return "\n".join(lines)

    def write(self, out: str | Path, overwrite: bool = False) -> list[Path]:
        """``compare.json``, a bar chart with intervals and a small report in ``out``, with a
        manifest that marks the folder as a comparison of this tool.  A folder holding
        anything else is refused (see :func:`experiments.storage.outdir.claim`); a previous
        comparison there is replaced only with ``overwrite``."""
        from experiments.storage.outdir import OutDirError, claim, staged

        final = Path(out)
        state = claim(final, "compare", overwrite)
        if state == "same" and not overwrite:
            raise OutDirError(f"--out {final}: already holds a comparison; give another "
                              "folder, or --overwrite to replace it")
        with staged(final, "compare", replace=state == "same") as out:
            names = [p.name for p in self._write_files(out)]
        return [final / n for n in names]

    def _write_files(self, out: Path) -> list[Path]:
        from experiments.reporting.charts import strategy_bar_chart
        from experiments.reporting.report import Doc
        from experiments.storage.jsonout import json_text
        from experiments.storage.outdir import stamp
        from experiments.storage.store import write_json, write_text

        paths = [write_text(out / "compare.json",
                            json_text(self.summary()) + "\n")]
        settings = settings_text(self.settings) or "defaults"
        caption = (f"{self.title}. Settings: {settings}. {self.games:,} games per strategy "
                   f"on the same seed ({self.seed}), {self.games * len(self.strategies):,} "
                   "in all. Error bars are 95% Wilson intervals.")
        title = f"{self.title}: {self.metric} by strategy"
        chart = out / "chart-compare.png"
        strategy_bar_chart(self.strategies, [(r.rate, r.lo, r.hi) for r in self.rates], chart,
                           title, f"{self.metric} (%)", caption)
        doc = Doc()
        doc.h(1, title)
        doc.p(caption)
        doc.table(["strategy", f"{self.metric} [95% CI]", "mean turns"],
                  [[n, fmt_rate(r), f"{float(res.frame['turns'].mean()):.2f}"]
                   for n, r, res in zip(self.strategies, self.rates, self.results,
                                        strict=True)], right={1, 2})
        doc.img(chart.name, title, caption, "Bar chart of win rates by strategy")
        if self.pairs:
            doc.h(2, "Paired differences")
            doc.table(["pair", f"{self.metric} difference", "length difference"],
                      [[f"{p.b} - {p.a}", fmt_diff(p.diff),
                        fmt_diff(p.turns, 2, "turns", 1.0)] for p in self.pairs],
                      right={1, 2})
        paths.append(write_text(out / "report.md", doc.markdown()))
        paths.append(write_text(out / "report.html",
                                doc.html(title, {chart.name: chart.read_bytes()})))
        write_json(out / "manifest.json", {  # last: the folder is whole
            **stamp("compare"), "game": self.game, "title": title,
            "strategies": self.strategies, "games": self.games, "seed": self.seed,
            "settings": self.settings})
        return paths + [chart]


def check_strategies(game: str, strategies: Sequence[str],
                     overrides: Mapping[str, Any] | Iterable[str] | None = None,
                     rules_path: str | None = None) -> list:
    """The configuration of each strategy to compare, every one checked (two or more,
    none repeated, each known, the settings valid for each); a RulesError otherwise.
    Strategies are entrants (``mcts:1000{rollout=random}``: experiments.running.entrants)."""
    return entrant_configs(game, strategies, overrides, rules_path)[1]


def entrant_configs(game: str, strategies: Sequence[str],
                    overrides: Mapping[str, Any] | Iterable[str] | None = None,
                    rules_path: str | None = None) -> tuple[list[str], list]:
    """(each entrant's label, its configuration), every one checked."""
    from experiments.running.entrants import parse_entrants
    from simcore.rules_data import RulesError, parse_overrides
    from strategies import registry

    g = get_game(game)
    strategies = list(strategies)
    if len(strategies) < 2:
        given = f"only {strategies[0]!r}" if strategies else "none"
        raise RulesError(f"strategies: {given} given, so there is nothing to compare; give two "
                         "or more, comma-separated, from " + ", ".join(registry.names(g.name)))
    flat = parse_overrides(overrides)
    shared = {k[9:]: v for k, v in flat.items() if k.startswith("strategy.")}
    entrants = parse_entrants(g.name, strategies, "--strategies", shared=shared)
    configs = [g.configure({**flat, **e.overrides()}, e.name, rules_path) for e in entrants]
    return [e.label for e in entrants], configs


def compare(
    game: str,
    strategies: Sequence[str] | str,
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    games: int = 10_000,
    seed: int = 1,
    rules_path: str | None = None,
    threads: int | None = None,
    quiet: bool = True,
    announce: bool = False,
) -> Comparison:
    """Play each strategy on the same seed; rates with Wilson intervals and, for every pair,
    paired differences.  The Python twin of ``cthulhu-sim compare``.  ``announce`` prints a
    line on stderr before each strategy compiles."""
    from simcore.rules_data import parse_overrides

    if isinstance(strategies, str):
        from experiments.running.entrants import split_entrants

        strategies = split_entrants(strategies)
    g = get_game(game)
    flat = parse_overrides(overrides)
    strategies, configs = entrant_configs(g.name, strategies, flat, rules_path)  # all first
    check_memory(g, games, runs=len(configs), what=f"each of {len(configs)} strategies")
    results = [run_config(c, games, seed, threads=threads, quiet=quiet,
                          announce=announce and f"{g.name} {label}")
               for label, c in zip(strategies, configs, strict=True)]
    hits = [run_hits(r) for r in results]
    rates = [wilson(int(h.sum()), h.size) for h in hits]
    pairs = []
    for i, j in itertools.combinations(range(len(strategies)), 2):
        pairs.append(Pair(strategies[i], strategies[j], paired_rate_difference(hits[j], hits[i]),
                          paired_difference(results[j].frame["turns"].to_numpy(),
                                            results[i].frame["turns"].to_numpy())))
    return Comparison(g.name, g.title, bool(g.kind.cooperative), strategies, games, seed, flat,
                      results, rates, pairs)
