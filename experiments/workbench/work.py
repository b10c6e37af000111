"""What a job does: the experiments layer's own functions, called as the CLI calls them.

- a run: the steps of :func:`experiments.running.runner.run_config` (memory check, compile, play,
  :class:`~experiments.running.runner.RunResult`), with a progress callback the page reads, then
  :func:`experiments.running.runfolder.save_run` (the ``run --out`` folder);
- a run to a precision target: a sweep of one cell
  (:func:`experiments.running.sweep.run_sweep`, whose ``games.precision`` plays rounds until
  the interval is narrow enough);
- a comparison: two runs on the same seed and playout indices, paired with the functions of
  :mod:`experiments.running.comparison`, written by :meth:`Comparison.write` (a ``compare``
  folder);
- a sweep of one key: :func:`experiments.running.sweep.run_sweep` (a ``sweep`` folder, its
  report and charts), and for a target :func:`experiments.analysis.tune.run_tune` (a ``tune``
  folder);
- one game: :meth:`Game.trace`.
"""

from __future__ import annotations

import math
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.workbench.jobs import Job

RUN_BATCH = 8192  # games between two progress reports (and cancel checks) of a run


@dataclass
class Ask:
    """A form's request, checked: everything a job needs."""

    game: str
    overrides: list[str]  # key=value, as --set takes them (strategy.X included)
    strategy: str | None
    games: int = 10_000
    precision: float | None = None
    seed: int = 1
    index: int = 0
    sweep_key: str = ""
    sweep_values: list = field(default_factory=list)
    target: str = ""
    metric: str | None = None
    compare_with: str = ""  # "" for the defaults, or a run folder inside the results folder
    save_as: str = ""

    def configure(self):
        from simcore.registry import get_game

        return get_game(self.game).configure(self.overrides, self.strategy)


# ---- runs -----------------------------------------------------------------------------
def play(job: Job, config, games: int, seed: int, stage: str = "playing"):
    """:func:`experiments.running.runner.run_config`'s steps, reporting progress to ``job``."""
    from experiments.running.runner import RunResult, check_memory

    g = config.game
    check_memory(g, games)
    job.tick(0, f"{stage}: compiling (or loading compiled code)")
    g.warm_up(config)  # compile (or load from cache) before the clock starts
    job.tick(0, stage)
    t0 = time.perf_counter()
    frame = g.play(config, games, seed, batch=RUN_BATCH, progress=job.tick)
    return RunResult(config, games, seed, frame, time.perf_counter() - t0)


def do_run(job: Job, ask: Ask, root: Path, folder: str) -> dict[str, Any]:
    if ask.precision is not None:
        return do_precision_run(job, ask, root, folder)
    from experiments.running.runfolder import save_run
    from experiments.running.runner import format_summary

    config = ask.configure()
    job.expect(ask.games, "games")
    result = play(job, config, ask.games, ask.seed)
    job.tick(0, "saving")
    save_run(result, root / folder)
    summary = result.summary()
    return {"kind": "run", "summary": summary, "text": format_summary(summary),
            "folder": folder, "seconds": result.seconds}


def spec_of(ask: Ask, title: str, axes: dict[str, list], games: dict[str, Any]) -> dict:
    """The sweep spec (as a dict, the TOML file's tables) of ``ask``."""
    from simcore.rules_data import parse_overrides

    settings = {k: v for k, v in parse_overrides(ask.overrides).items() if k not in axes}
    spec: dict[str, Any] = {"title": title, "game": ask.game, "seed": ask.seed,
                            "settings": settings, "axes": axes, "games": games}
    if ask.strategy:
        spec["strategy"] = ask.strategy
    return spec


def do_precision_run(job: Job, ask: Ask, root: Path, folder: str) -> dict[str, Any]:
    from experiments.reporting.report import format_sweep
    from experiments.running.sweep import run_sweep

    spec = spec_of(ask, f"{ask.game}: until every 95% interval is within "
                   f"±{ask.precision:g} points", {}, {"precision": ask.precision,
                                                       "max_per_cell": ask.games})
    job.expect(1, "cells")
    job.tick(0, f"playing rounds until the 95% interval is within ±{ask.precision:g} points "
                f"(at most {ask.games:,} games)")
    result = run_sweep(spec, root / folder, on_cell=lambda i: job.tick(1))
    return {"kind": "sweep", "text": format_sweep(result), "folder": folder,
            "charts": charts_of(root / folder)}


def charts_of(path: Path) -> list[str]:
    from experiments.storage.outdir import read_manifest

    m = read_manifest(path) or {}
    charts = m.get("charts")
    if isinstance(charts, list):
        return [c for c in charts if isinstance(c, str) and (path / c).is_file()]
    return sorted(p.name for p in path.glob("chart-*.png"))


def summary_chart(summary: dict) -> bytes:
    """The bar chart of a run's summary (the reports' own bar chart, with 95% intervals):
    every seat's win rate in a competitive game, the outcome shares in a cooperative one."""
    from experiments.reporting.charts import strategy_bar_chart

    if summary.get("seat_win_rates"):
        labels = [f"{r['seat']} {r['name']}" if r["name"] != str(r["seat"]) else str(r["seat"])
                  for r in summary["seat_win_rates"]]
        rates = [(r["rate"], *r["ci95"]) for r in summary["seat_win_rates"]]
        what, legend = "win rate by seat", "seat"
    else:
        labels = list(summary["outcome_rates"])
        rates = [(summary["outcome_rates"][k], *summary["outcome_ci95"][k]) for k in labels]
        what, legend = "outcomes", "outcome"
    title = f"{summary['title']}: {what}"
    seeds = summary["seed"]
    caption = (f"{summary['games']:,} games, seed {seeds}; error bars are 95% Wilson "
               "intervals.")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "chart.png"
        strategy_bar_chart(labels, rates, path, title, "share of games (%)", caption,
                           legend=legend)
        return path.read_bytes()


# ---- comparisons ----------------------------------------------------------------------
def check_saved(root: Path, rel: str, game: str):
    """The run folder ``rel`` inside the results folder, checked: (its path, its manifest,
    its one part); FormError (beside ``compare_with``) otherwise."""
    from experiments.running.runfolder import load_run
    from experiments.workbench.errors import FormError
    from experiments.workbench.paths import inside

    path = inside(root, rel, "compare_with")
    try:
        run = load_run(path)
    except Exception as exc:
        raise FormError(f"compare_with {rel!r}: {exc}", "compare_with") from None
    m = run.manifest
    if m.get("game") != game:
        raise FormError(f"compare_with {rel!r}: a run of {m.get('game')}, not of {game}",
                        "compare_with")
    if len(run.parts) != 1 or run.parts[0].get("start") != 0:
        raise FormError(f"compare_with {rel!r}: a pool of several runs; compare with one run "
                        "(its seed and playouts are played again here)", "compare_with")
    return path, m, run.parts[0]


def saved_run(root: Path, rel: str, game: str):
    """(config, frame, seed, games) of a run folder inside the results folder."""
    import pandas as pd

    from experiments.running.runfolder import PLAYOUTS
    from experiments.storage.store import RULES_COPY
    from simcore.registry import get_game

    path, m, part = check_saved(root, rel, game)
    config = get_game(game).configure(m.get("settings") or {}, m["strategy"],
                                      path / RULES_COPY if m.get("rules_copy") else None)
    frame = pd.read_parquet(path / PLAYOUTS)
    return config, frame, int(part["seed"]), int(part["end"]) - int(part["start"])


def do_compare(job: Job, ask: Ask, root: Path, folder: str) -> dict[str, Any]:
    from experiments.running.comparison import Comparison, Pair, run_hits
    from experiments.running.runner import RunResult
    from experiments.stats import paired_difference, paired_rate_difference, wilson
    from simcore.registry import get_game

    g = get_game(ask.game)
    config_b = ask.configure()
    if ask.compare_with:
        config_a, frame, seed, games = saved_run(root, ask.compare_with, ask.game)
        label_a = ask.compare_with
        job.expect(games, "games")
        run_a = RunResult(config_a, games, seed, frame, math.nan)
    else:
        seed, games, label_a = ask.seed, ask.games, "defaults"
        job.expect(2 * games, "games")
        run_a = play(job, g.configure(None, None), games, seed, "the defaults")
    run_b = play(job, config_b, games, seed, "your settings")
    label_b = "your settings"
    hits = [run_hits(r) for r in (run_a, run_b)]
    rates = [wilson(int(h.sum()), h.size) for h in hits]
    pair = Pair(label_a, label_b, paired_rate_difference(hits[1], hits[0]),
                paired_difference(run_b.frame["turns"].to_numpy(),
                                  run_a.frame["turns"].to_numpy()))
    comp = Comparison(g.name, g.title, bool(g.kind.cooperative), [label_a, label_b], games,
                      seed, config_b.changed(), [run_a, run_b], rates, [pair])
    job.tick(0, "saving")
    comp.write(root / folder)
    return {"kind": "compare", "summary": comp.summary(), "text": comp.format(),
            "folder": folder, "charts": ["chart-compare.png"], "pair": pair.as_dict(),
            "metric": comp.metric}


# ---- sweeps and tuning ----------------------------------------------------------------
def tune_kwargs(ask: Ask) -> dict[str, Any]:
    nums = [v for v in ask.sweep_values if isinstance(v, int | float) and not isinstance(v, bool)]
    overrides = [o for o in ask.overrides if o.split("=", 1)[0].strip() != ask.sweep_key]
    if nums:  # tune starts from the key's value in effect, which must lie in the range
        from experiments.reporting.text import set_text

        now = ask.configure().rules[ask.sweep_key]
        if isinstance(now, int | float) and not min(nums) <= now <= max(nums):
            start = min(nums) if now < min(nums) else max(nums)
            overrides.append(f"{ask.sweep_key}={set_text(start)}")
    kwargs: dict[str, Any] = {
        "overrides": overrides,
        "target": ask.target, "vary": [ask.sweep_key], "strategy": ask.strategy,
        "metric": ask.metric, "games": min(ask.games, 4096), "max_games": ask.games,
        "confirm_games": ask.games, "seed": ask.seed}
    if nums:
        kwargs["bounds"] = [f"{ask.sweep_key}={min(nums):g}:{max(nums):g}"]
    return kwargs


def do_sweep(job: Job, ask: Ask, root: Path, folder: str) -> dict[str, Any]:
    from experiments.reporting.report import format_sweep
    from experiments.running.sweep import run_sweep

    axes = {ask.sweep_key: ask.sweep_values}
    games = ({"precision": ask.precision, "max_per_cell": ask.games}
             if ask.precision is not None else {"per_cell": ask.games})
    spec = spec_of(ask, f"{ask.game}: {ask.sweep_key} from {ask.sweep_values[0]} to "
                   f"{ask.sweep_values[-1]}", axes, games)
    job.expect(len(ask.sweep_values), "cells")
    job.tick(0, "playing the sweep, cell by cell")
    result = run_sweep(spec, root / folder, on_cell=lambda i: job.tick(1))
    out: dict[str, Any] = {"kind": "sweep", "text": format_sweep(result), "folder": folder,
                           "charts": charts_of(root / folder)}
    if ask.target:
        from experiments.analysis.tune import run_tune

        tune_folder = f"{folder}-tune"
        job.expect(job.total + 1, "steps")
        job.tick(0, f"tuning {ask.sweep_key} to the target {ask.target}")
        tuned = run_tune(ask.game, out=root / tune_folder,
                         on_chunk=lambda pid, start, n: job.tick(0), **tune_kwargs(ask))
        job.tick(1)
        out.update(tune_text=tuned.format(), tune_folder=tune_folder,
                   tune_charts=charts_of(root / tune_folder))
    return out


# ---- one game -------------------------------------------------------------------------
def do_trace(job: Job, ask: Ask, root: Path, folder: str) -> dict[str, Any]:
    config = ask.configure()
    job.expect(1, "games")
    job.tick(0, "replaying the game (compiling its trace run the first time)")
    text = config.game.trace(config, ask.seed, ask.index)
    job.tick(1)
    return {"kind": "trace", "text": text, "seed": ask.seed, "index": ask.index}
