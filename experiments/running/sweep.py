"""Run a sweep: every cell of a spec, on this machine or a Dask cluster, resumable.

Cells are played in chunks of playout indices.  With ``games.per_cell`` a cell plays indices
``0 .. per_cell-1``; with ``games.precision`` it plays rounds of ``round`` indices (``0 ..
round-1``, then ``round .. 2*round-1`` ...) until its 95% interval reaches no further than
the target from the rate or it reaches ``max_per_cell``.  Whether another round is needed
depends only on the cell's own finished rounds, so the games played (and so the results)
never depend on the order chunks finish in, the chunk size, the machine or the number of
workers.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.reporting.text import fmt_value
from experiments.running.spec import Cell, SweepSpec, load_spec
from experiments.stats import (
    half_width,
    length_distribution,
    mean_interval,
    outcome_rates,
    resolve_figures,
    seat_win_rates,
)
from experiments.storage.store import (
    RULES_COPY,
    SweepDir,
    SweepDirError,
    cell_meta,
    write_csv,
    write_json,
    write_parquet,
)

DEFAULT_CHUNK = 8192
FORMAT = 1
KEY_COLUMNS = {"outcome": np.int8, "winner": np.int8, "turns": np.int32}


# ---- one cell's results -----------------------------------------------------------------
def cell_row(cell: Cell, config: Any, recs: np.ndarray, seed: int,
             metric: str = "win") -> dict[str, Any]:
    """One cell's aggregated results as a flat row (the columns of ``results.parquet``)."""
    g = config.game
    n = len(recs)
    row: dict[str, Any] = {"cell": cell.index, "label": cell.label}
    for k, v in cell.values.items():
        row[k] = fmt_value(v) if isinstance(v, list | tuple | dict) else v
    row["strategy"] = config.strategy.name
    row["games"] = n
    row["seed"] = seed
    rates = outcome_rates(recs["outcome"], g.outcomes)
    widths = []
    for name, r in rates.items():
        row[f"n_{name}"] = r.successes
        row[f"p_{name}"] = r.rate
        row[f"p_{name}_lo"] = r.lo
        row[f"p_{name}_hi"] = r.hi
        if metric == "all":
            widths.append(half_width(r))
    if g.kind.cooperative:
        win = rates[g.outcomes[0]]
        row["win_rate"], row["win_lo"], row["win_hi"] = win.rate, win.lo, win.hi
        widths.append(half_width(win))
    else:
        seats = g.seats(config.rules)
        row["n_seats"] = seats
        for s, r in enumerate(seat_win_rates(recs["winner"], seats)):
            row[f"seat{s}_wins"] = r.successes
            row[f"seat{s}_rate"] = r.rate
            row[f"seat{s}_lo"] = r.lo
            row[f"seat{s}_hi"] = r.hi
            widths.append(half_width(r))
    row["halfwidth"] = max(widths) if widths else float("nan")
    ld = length_distribution(recs["turns"])
    for k in ("mean", "sd", "p10", "p50", "p90", "min", "max"):
        row[f"turns_{k}"] = ld[k]
    row["turns_hist"] = ld["hist"].astype(np.int64)
    per_round = getattr(g, "turns_per_round", None)
    if per_round is not None:  # a game whose turns go round the table: its length in rounds
        row["turns_per_round"] = int(per_round(config))
        row["rounds_mean"] = ld["mean"] / row["turns_per_round"]
    for f in g.record_fields:
        if f in ("outcome", "winner"):
            continue
        values = happened(recs[f]) if f in g.event_fields else recs[f]
        row[f"mean_{f}"], row[f"mean_{f}_lo"], row[f"mean_{f}_hi"] = mean_interval(values)
    extra, intervals = resolve_figures(g.summarize_extra(g.to_frame(recs), config)) if n else (
        {}, {})
    row.update(_flatten_extra(extra, "extra."))
    for name, (lo, hi) in _flatten_intervals(intervals, "extra.").items():
        row[f"{name}_lo"] = lo
        row[f"{name}_hi"] = hi
    counts = config.rules.source_counts()
    row["assumed_values"] = int(counts.get("assumed", 0))
    row["rules_values"] = int(sum(counts.values()))
    return row


def happened(values: np.ndarray) -> np.ndarray:
    """The values of a field that dates an event (a game's ``event_fields``: -1 in a game where
    the event never happened, e.g. Tiny Epic Cthulhu's ``phase2_turn``) in the games where it
    happened: its mean is over those games (as ``phase_two_turn_mean`` is; NaN when none)."""
    return values[values >= 0]


def _flatten_extra(d: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, Mapping):
            out.update(_flatten_extra(v, f"{prefix}{k}."))
        elif isinstance(v, bool | np.bool_):
            out[f"{prefix}{k}"] = bool(v)
        elif isinstance(v, int | np.integer):
            out[f"{prefix}{k}"] = int(v)
        elif isinstance(v, float | np.floating):
            out[f"{prefix}{k}"] = float(v)
        else:
            out[f"{prefix}{k}"] = str(v)
    return out


def _flatten_intervals(d: Mapping[str, Any], prefix: str) -> dict[str, list[float]]:
    """``resolve_figures``' intervals, keyed like ``_flatten_extra``'s columns."""
    out: dict[str, list[float]] = {}
    for k, v in d.items():
        if isinstance(v, Mapping):
            out.update(_flatten_intervals(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = [float(v[0]), float(v[1])]
    return out


def precision_met(spec: SweepSpec, row_halfwidth: float) -> bool:
    return spec.precision is not None and 100.0 * row_halfwidth <= spec.precision


def playout_frame(recs: np.ndarray, full: bool) -> pd.DataFrame:
    """The per-playout file of a cell: outcome, winner, turns (every field when ``full``)."""
    if full:
        return pd.DataFrame(recs)
    return pd.DataFrame({k: recs[k].astype(t) for k, t in KEY_COLUMNS.items()})


# ---- progress of one cell ---------------------------------------------------------------
@dataclass
class _CellRun:
    cell: Cell
    config: Any
    rounds: list[np.ndarray] = field(default_factory=list)
    done: int = 0  # games in finished rounds
    round_end: int = 0
    parts: dict[int, np.ndarray] = field(default_factory=dict)

    def records(self) -> np.ndarray:
        if len(self.rounds) > 1:
            self.rounds = [np.concatenate(self.rounds)]
        return self.rounds[0]


def _chunks(cell: int, start: int, end: int, chunk: int) -> list[tuple[int, int, int]]:
    return [(cell, s, min(chunk, end - s)) for s in range(start, end, chunk)]


# ---- results ----------------------------------------------------------------------------
@dataclass
class SweepResult:
    """A sweep's results: ``results`` has one row per cell (see ``cell_row``)."""

    root: Path
    manifest: dict
    results: pd.DataFrame
    run_info: dict = field(default_factory=dict)

    @property
    def dir(self) -> SweepDir:
        return SweepDir(self.root)

    @property
    def game(self) -> str:
        return self.manifest["game"]

    @property
    def axes(self) -> dict[str, list]:
        return self.manifest["axes"]

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.manifest["cells"])

    def playouts(self, cell: int | str, columns: list[str] | None = None) -> pd.DataFrame:
        """Per-playout outcome, winner and turns (or every record field, when kept); the file
        is checked to be that cell's, of this sweep."""
        name = cell if isinstance(cell, str) else f"c{int(cell):04d}"
        return self.dir.read_playouts(name, columns, self.manifest.get("spec_hash"))

    def cell_index(self, **values: Any) -> int:
        """The cell whose axis values are ``values`` (unnamed axes must have one value)."""
        for c in self.manifest["cells"]:
            if all(json.dumps(c["values"].get(k)) == json.dumps(v) for k, v in values.items()):
                return int(c["index"])
        raise KeyError(f"no cell with {values}")

    @property
    def report_md(self) -> Path:
        return self.root / "report.md"

    @property
    def report_html(self) -> Path:
        return self.root / "report.html"


def load_sweep(root: str | Path) -> SweepResult:
    """The results of the sweep in ``root`` (finished cells only, if it is incomplete)."""
    from experiments.storage.outdir import folder_kind
    from experiments.storage.store import parquet_meta

    d = SweepDir(root)
    if not d.root.exists():
        raise FileNotFoundError(f"{root}: no such folder")
    if not d.root.is_dir():
        raise SweepDirError(f"{root}: is a file, not a sweep's folder (give the folder a "
                            "sweep wrote, with its manifest.json)")
    manifest = d.read_manifest()
    if manifest is None:
        raise FileNotFoundError(f"{root}: no sweep here ({d.manifest_path.name} is missing)")
    kind = folder_kind(d.root)
    if kind != "sweep":
        what = f"holds {kind} results" if kind else "was not written by cthulhu-sim"
        raise SweepDirError(f"{root}: not a sweep (its manifest.json {what})")
    spec_hash = manifest.get("spec_hash")
    if d.results_path.exists():
        advice = "delete it and run the sweep again with --resume to gather its cells again"
        try:
            results = pd.read_parquet(d.results_path)
            meta = parquet_meta(d.results_path)
        except Exception as exc:  # (written atomically: only a damaged disk does this)
            raise SweepDirError(
                f"{d.results_path} is unreadable ({type(exc).__name__}: {exc}); "
                f"{advice}") from None
        if meta is not None and meta.get("spec_hash") != spec_hash:
            raise SweepDirError(f"{d.results_path} belongs to another sweep than "
                                f"{d.manifest_path}; {advice}")
    else:
        results = d.read_cells(spec_hash)
    run_info = {}
    if (d.root / "run.json").exists():
        try:
            run_info = json.loads((d.root / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            run_info = {}  # timings only: a damaged one is not worth stopping for
    return SweepResult(d.root, manifest, results, run_info)


def write_results(d: SweepDir, results: pd.DataFrame, spec_hash: str) -> None:
    """``results.parquet`` (marked with the sweep's spec hash) and ``results.csv``."""
    cells = [int(c) for c in results["cell"]] if "cell" in results else []
    write_parquet(d.results_path, results,
                  {"kind": "results", "spec_hash": spec_hash, "cells": cells})
    write_csv(d.root / "results.csv", results)


def make_manifest(spec: SweepSpec, spec_hash: str) -> dict[str, Any]:
    from experiments.reporting.labels import game_words
    from experiments.storage.outdir import stamp
    from simcore._cache import source_hash
    from simcore.registry import get_game

    g = get_game(spec.game)
    cells = spec.cells()
    base = spec.configure(cells[0])
    rules = base.rules
    set_keys = [k for k in list(spec.settings) + spec.axis_keys if not k.startswith("strategy")]
    assumed_set = sorted({k for k in set_keys if k in rules.entries
                          and rules.entries[k].source == "assumed"})
    return {
        **stamp("sweep"),
        "format": FORMAT,
        "spec_hash": spec_hash,
        "engine": source_hash(),  # (also in spec_hash) to say why a resume is refused
        "game": spec.game,
        "game_title": g.title,
        "cooperative": bool(g.kind.cooperative),
        "outcomes": list(g.outcomes),
        "title": spec.title or f"{g.title} sweep",
        "description": spec.description,
        "seed": spec.seed,
        "strategy": spec.strategy or g.default_strategy,
        "settings": spec.settings,
        "settings_text": spec.settings_text(),
        "axes": {a.key: list(a.values) for a in spec.axes},
        "games_text": spec.games_text(),
        "spec": spec.normalized(),
        "report": {"baseline": spec.baseline, "heatmap": list(spec.heatmap or []) or None,
                   "x": spec.x},
        "rules_sources": rules.source_counts(),
        "assumed_set_by_sweep": assumed_set,
        "words": game_words(g),
        "cells": [{"index": c.index, "name": c.name, "label": c.label, "values": c.values}
                  for c in cells],
    }


# ---- running ----------------------------------------------------------------------------
def run_sweep(
    spec: str | Path | Mapping[str, Any] | SweepSpec,
    out: str | Path,
    *,
    resume: bool | str = False,
    overwrite: bool = False,
    scheduler: str | None = None,
    dask_local: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    threads: int | None = None,
    records: bool | None = None,
    progress: bool = False,
    report: bool = True,
    on_cell: Callable[[int], None] | None = None,
) -> SweepResult:
    """Run every unfinished cell of ``spec`` into the folder ``out`` and build its report.

    ``resume=True`` finishes a sweep begun in ``out`` (refusing a different spec);
    ``resume="auto"`` does so when ``out`` holds the same spec (and plays it again when only
    the simulator's version or rules data changed since); a sweep of another spec there is
    refused unless ``overwrite``.
    ``scheduler`` (a Dask scheduler address) or ``dask_local`` (a number of local worker
    processes) spread the chunks over a Dask cluster.  ``on_cell(index)`` is called after each
    cell is written.  The Python twin of ``cthulhu-sim sweep``.
    """
    spec = load_spec(spec)
    if records is not None and records != spec.records:
        spec.records = bool(records)
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    # a cell's records are held while it plays (its rounds and their join, then a frame of
    # them for the summary: two copies at the peak; measured about 310 bytes a Sticky game),
    # one cell at a time on this machine
    from experiments.running.runner import check_memory
    from simcore.registry import get_game

    check_memory(get_game(spec.game),
                 spec.per_cell if spec.per_cell is not None else spec.max_per_cell, runs=2,
                 what="a sweep cell", advice="games.per_cell, or games.max_per_cell with a "
                 "precision target")
    spec_hash = spec.hash()
    manifest = make_manifest(spec, spec_hash)
    from experiments.storage.outdir import folder_kind

    d = SweepDir(out)
    if resume == "auto":  # resume our own sweep of this spec; another sweep needs overwrite
        old = d.read_manifest() if folder_kind(d.root) == "sweep" else None
        if old is not None and old.get("spec_hash") != spec_hash and not overwrite:
            if old.get("spec") != manifest["spec"]:
                raise SweepDirError(
                    f"--out {d.root}: holds another sweep ({old.get('title') or 'untitled'}), "
                    f"not {manifest['title']}; give another folder, or --overwrite to "
                    "replace it")
            if progress:  # the same spec, played by another version: played again
                print(f"{d.root}: the same spec played by another version of the simulator "
                      "(or of its rules data); playing it again", file=sys.stderr, flush=True)
            overwrite = True
        resume = not overwrite
    existed = d.root.exists()
    fresh = d.prepare(manifest, spec.saved_toml(RULES_COPY), resume=bool(resume),
                      overwrite=overwrite, rules_text=spec.rules_text)
    try:
        return _play(spec, d, spec_hash, manifest, fresh, scheduler=scheduler,
                     dask_local=dask_local, chunk=chunk, threads=threads, progress=progress,
                     report=report, on_cell=on_cell)
    except Exception:
        if fresh and not d.finished():  # nothing played: leave no sweep for --resume to find
            d.clear()
            if not existed:
                with contextlib.suppress(OSError):
                    d.root.rmdir()
        raise


def _play(spec: SweepSpec, d: SweepDir, spec_hash: str, manifest: dict, fresh: bool, *,
          scheduler: str | None, dask_local: int | None, chunk: int, threads: int | None,
          progress: bool, report: bool, on_cell: Callable[[int], None] | None) -> SweepResult:
    cells = spec.cells()
    finished = d.finished()
    if finished:  # every finished cell's files must be that cell's, of this sweep
        d.read_cells(spec_hash)
        for name in sorted(finished):
            if d.playouts_path(name).exists():
                d.check_identity(d.playouts_path(name), name, spec_hash)
    todo = [c for c in cells if c.name not in finished]
    if progress and not fresh:
        print(f"{d.root}: resuming, {len(cells) - len(todo)} of {len(cells)} cells already "
              f"finished", file=sys.stderr, flush=True)
    runs = {c.index: _CellRun(c, spec.configure(c)) for c in todo}
    first = spec.per_cell if spec.per_cell is not None else min(spec.round, spec.max_per_cell)
    tasks: list[tuple[int, int, int]] = []
    for r in runs.values():
        r.round_end = first
        tasks.extend(_chunks(r.cell.index, 0, first, chunk))
    heapq.heapify(tasks)

    local = not (scheduler or dask_local)
    t_warm = time.perf_counter()
    if local:
        from experiments.running.runner import set_threads

        set_threads(threads)
        warmed = set()
        if progress and runs:  # (a cold game compiles every strategy's parts side by side)
            from experiments.running.runner import announce_compile

            announce_compile(spec.game, *(r.config for r in runs.values()))
        for r in runs.values():  # compile (or load) each strategy before the clock starts
            if r.config.strategy.name not in warmed:
                r.config.game.warm_up(r.config)
                warmed.add(r.config.strategy.name)
    warm_seconds = time.perf_counter() - t_warm

    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=first * len(todo), desc=f"{spec.game} sweep", unit="game",
                   unit_scale=True, file=sys.stderr, dynamic_ncols=True, smoothing=0.05)
        bar.set_postfix_str(f"cells {len(cells) - len(todo)}/{len(cells)}")
    n_done = len(cells) - len(todo)
    played = 0

    def handle(task: tuple[int, int, int], recs: np.ndarray) -> list[tuple[int, int, int]]:
        nonlocal n_done, played
        idx, start, count = task
        r = runs[idx]
        r.parts[start] = recs
        played += count
        if bar is not None:
            bar.update(count)
        if sum(len(p) for p in r.parts.values()) < r.round_end - r.done:
            return []
        r.rounds.extend(r.parts[s] for s in sorted(r.parts))
        r.parts.clear()
        r.done = r.round_end
        recs_all = r.records()
        if spec.precision is not None and r.done < spec.max_per_cell:
            hw = _quick_halfwidth(r.config, recs_all, spec.metric)
            if not precision_met(spec, hw):
                r.round_end = min(r.done + spec.round, spec.max_per_cell)
                if bar is not None:
                    bar.total += r.round_end - r.done
                    bar.refresh()
                return _chunks(idx, r.done, r.round_end, chunk)
        row = cell_row(r.cell, r.config, recs_all, spec.seed, spec.metric)
        meta = cell_meta(r.cell.name, r.cell.index, spec_hash, 0, len(recs_all))
        write_parquet(d.playouts_path(r.cell.name), playout_frame(recs_all, spec.records), meta)
        write_parquet(d.cell_path(r.cell.name), pd.DataFrame([row]), meta)
        del runs[idx]
        n_done += 1
        if bar is not None:
            bar.set_postfix_str(f"cells {n_done}/{len(cells)}")
        if on_cell is not None:
            on_cell(idx)
        return []

    t0 = time.perf_counter()
    backend = "local"
    workers = 1
    try:
        if not local:

            backend = f"dask {scheduler}" if scheduler else f"dask local x{dask_local}"
            workers = _run_dask(spec, runs, tasks, handle, scheduler, dask_local)
        else:
            _run_local(spec, runs, tasks, handle)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0

    results = d.read_cells(spec_hash)
    write_results(d, results, spec_hash)
    run_info = {"seconds": seconds, "compile_seconds": warm_seconds, "games_played": played,
                "cells_run": len(todo),
                "cells": len(cells), "backend": backend, "workers": workers,
                "playouts_per_s": played / seconds if seconds > 0 else None,
                "chunk": chunk}
    write_json(d.root / "run.json", run_info)
    result = SweepResult(d.root, d.read_manifest() or manifest, results, run_info)
    if report:
        from experiments.reporting.report import build_report

        build_report(result)
    return result


def _quick_halfwidth(config: Any, recs: np.ndarray, metric: str) -> float:
    g = config.game
    widths = []
    if metric == "all":
        widths += [half_width(r) for r in outcome_rates(recs["outcome"], g.outcomes).values()]
    if g.kind.cooperative:
        widths.append(half_width(outcome_rates(recs["outcome"], g.outcomes)[g.outcomes[0]]))
    else:
        widths += [half_width(r) for r in seat_win_rates(recs["winner"], g.seats(config.rules))]
    return max(widths)


def _run_local(spec, runs, tasks, handle) -> None:
    while tasks:
        idx, start, count = heapq.heappop(tasks)
        cfg = runs[idx].config
        recs = cfg.game.run_batch(cfg, spec.seed, start, count)
        for t in handle((idx, start, count), recs):
            heapq.heappush(tasks, t)


def _run_dask(spec, runs, tasks, handle, scheduler, dask_local) -> int:
    from experiments.running.distributed import CellSetup, play_tasks

    setups = {idx: CellSetup.of(spec.game, r.cell.overrides, r.cell.strategy, spec.rules_text)
              for idx, r in runs.items()}
    return play_tasks(setups, tasks, spec.seed, handle, scheduler, dask_local)
