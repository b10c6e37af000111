"""A single run kept in a folder (``cthulhu-sim run --out DIR``), and pools of such runs
(``cthulhu-sim pool A B ... --out C``).

::

    DIR/manifest.json      the tool, the kind (run or pool), game, strategy, every resolved
                           setting, the playouts it holds (seed and index range of each part)
    DIR/summary.json       the same object as ``run --json``
    DIR/playouts.parquet   every playout's record (one row each)
    DIR/results.csv        the summary's figures as one CSV row
    DIR/rules.toml         a copy of the rules data file given with --rules, if any
    DIR/report.md          the summary in words

A pool joins runs of the same game, strategy and settings (as resolved, by the same version
of the simulator) that share no playout: runs of different seeds, most often.  Its summary is
computed from every game of every run, as one run of that many games would be.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from experiments.storage.outdir import (
    OutDirError,
    claim,
    folder_kind,
    read_manifest,
    staged,
    stamp,
)
from experiments.storage.store import (
    RULES_COPY,
    parquet_meta,
    write_csv,
    write_json,
    write_parquet,
    write_text,
)

PLAYOUTS = "playouts.parquet"


class PoolError(OutDirError):
    """Runs that cannot be pooled; the message names the runs and the reason."""


def config_hash(game: str, strategy: str, config: dict[str, Any]) -> str:
    payload = json.dumps({"game": game, "strategy": strategy, "config": config},
                         sort_keys=True, default=repr)
    return hashlib.sha256(payload.encode()).hexdigest()


def flat_figures(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary's figures as one flat row: nested keys joined by dots, a two-number interval
    as ``_lo``/``_hi``, seat lists by seat."""
    row: dict[str, Any] = {}

    def put(prefix: str, v: Any) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                put(f"{prefix}.{k}" if prefix else str(k), x)
        elif (isinstance(v, list) and len(v) == 2 and all(isinstance(x, float | int)
                                                         or x is None for x in v)
              and (prefix.endswith("ci95") or prefix.endswith("_ci95"))):
            base = prefix[: -len("ci95")].rstrip("._") or "ci95"
            row[f"{base}_lo"], row[f"{base}_hi"] = v
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for x in v:
                tag = "_".join(str(s) for s in x.get("seats", [x.get("seat", "")]))
                for k, y in x.items():
                    if k not in ("seat", "seats"):
                        put(f"{prefix}.{tag}.{k}", y)
        elif isinstance(v, list):
            row[prefix] = ";".join(str(x) for x in v)
        else:
            row[prefix] = v

    for key in ("game", "strategy", "games", "seed", "win_rate", "ci95", "outcome_rates",
                "outcome_ci95", "seat_win_rates", "turns", "extra", "extra_ci95",
                "assumed_values"):
        if key in summary:
            put(key, summary[key])
    return row


def _report_text(summary: dict[str, Any], kind: str, parts: list[dict]) -> str:
    from experiments.running.runner import format_summary

    what = "A run" if kind == "run" else f"A pool of {len(parts)} runs"
    seeds = ", ".join(f"seed {p['seed']} playouts {p['start']:,}-{p['end'] - 1:,}"
                      for p in parts)
    return (f"# {summary['title']}: {what.lower()}\n\n{what} of {summary['games']:,} games "
            f"({seeds}). Rates carry 95% intervals (Wilson for shares, Student's t for "
            "means).\n\n```\n" + format_summary(summary) + "\n```\n")


def write_run_folder(out: str | Path, kind: str, config: Any, frame: pd.DataFrame,
                     summary: dict[str, Any], parts: list[dict], rules_text: str | None,
                     overwrite: bool = False, sources: Sequence[str] = ()) -> list[Path]:
    """Write a run (or pool) folder; the folder is claimed first (see
    :func:`experiments.storage.outdir.claim`) and written whole or not at all (see
    :func:`experiments.storage.outdir.staged`)."""
    out = Path(out)
    state = claim(out, kind, overwrite)
    if state == "same" and not overwrite:
        raise OutDirError(f"--out {out}: already holds {'a run' if kind == 'run' else 'a pool'}"
                          "; give another folder, or --overwrite to replace it")
    with staged(out, kind, replace=state == "same") as stage:
        names = _write_run_files(stage, kind, config, frame, summary, parts, rules_text,
                                 sources)
    return [out / n for n in names]


def _write_run_files(out: Path, kind: str, config: Any, frame: pd.DataFrame,
                     summary: dict[str, Any], parts: list[dict], rules_text: str | None,
                     sources: Sequence[str]) -> list[str]:
    from simcore._cache import source_hash

    g = config.game
    resolved = config.resolved()
    manifest = {
        **stamp(kind),
        "game": g.name, "title": g.title, "strategy": config.strategy.name,
        "games": int(len(frame)), "playouts": parts,
        "settings": config.changed(), "config": resolved,
        "config_hash": config_hash(g.name, config.strategy.name, resolved),
        "engine": source_hash(),
        "rules_file": str(config.rules.path), "rules_copy": rules_text is not None,
        "sources": list(sources),
    }
    meta = {"kind": kind, "playouts": parts, "config_hash": manifest["config_hash"]}
    records = frame.drop(columns=[c for c in ("outcome_name",) if c in frame])
    paths = []
    if rules_text is not None:
        paths.append(write_text(out / RULES_COPY, rules_text))
    paths.append(write_parquet(out / PLAYOUTS, records, meta))
    paths.append(write_json(out / "summary.json", summary))
    paths.append(write_csv(out / "results.csv", pd.DataFrame([flat_figures(summary)])))
    paths.append(write_text(out / "report.md", _report_text(summary, kind, parts)))
    paths.append(write_json(out / "manifest.json", manifest))  # last: the folder is whole
    return [p.name for p in paths]


def save_run(result: Any, out: str | Path, overwrite: bool = False) -> list[Path]:
    """``cthulhu-sim run --out DIR``: keep a run's summary and every playout."""
    rules_path = Path(result.config.rules.path)
    own = Path(result.config.game.rules_file)
    rules_text = (rules_path.read_text(encoding="utf-8")
                  if rules_path.resolve() != own.resolve() else None)
    parts = [{"seed": int(result.seed), "start": 0, "end": int(result.games)}]
    return write_run_folder(out, "run", result.config, result.frame, result.summary(), parts,
                            rules_text, overwrite)


@dataclass
class SavedRun:
    root: Path
    manifest: dict

    @property
    def parts(self) -> list[dict]:
        return list(self.manifest.get("playouts") or [])


def load_run(root: str | Path) -> SavedRun:
    root = Path(root)
    if not root.exists():
        raise PoolError(f"{root}: no such folder")
    if not root.is_dir():
        raise PoolError(f"{root}: is a file, not a run's folder (give a folder written by "
                        "`cthulhu-sim run --out` or `pool --out`)")
    kind = folder_kind(root)
    if kind not in ("run", "pool"):
        what = f"holds {'a sweep' if kind == 'sweep' else 'a comparison'}" if kind else \
            "was not written by `cthulhu-sim run --out`"
        raise PoolError(f"{root}: not a run ({what}); pool takes folders of `run --out` "
                        "(and of earlier pools)")
    return SavedRun(root, read_manifest(root) or {})


def _overlap(a: dict, b: dict) -> bool:
    return a["seed"] == b["seed"] and a["start"] < b["end"] and b["start"] < a["end"]


def pool_runs(sources: Sequence[str | Path], out: str | Path, overwrite: bool = False
              ) -> dict[str, Any]:
    """Join runs into one (``cthulhu-sim pool``); returns the pooled summary."""
    from experiments.running.runner import check_memory, summarize
    from simcore.registry import get_game

    if len(sources) < 2:
        given = f"only {sources[0]} given" if sources else "no run given"
        raise PoolError(f"pool: {given}; give two or more run folders to pool")
    runs = [load_run(s) for s in sources]
    if len({r.root.resolve() for r in runs}) != len(runs):
        raise PoolError("pool: the same run is given twice")
    first = runs[0]
    for r in runs[1:]:
        for key, what in (("game", "games"), ("strategy", "strategies"),
                          ("engine", "versions of the simulator")):
            if r.manifest.get(key) != first.manifest.get(key):
                raise PoolError(f"pool: {first.root} and {r.root} are of different {what} "
                                f"({first.manifest.get(key)} and {r.manifest.get(key)}); "
                                "only runs of one configuration pool")
        if r.manifest.get("config_hash") != first.manifest.get("config_hash"):
            a, b = first.manifest.get("config", {}), r.manifest.get("config", {})
            differ = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
            shown = ", ".join(f"{k} ({a.get(k)!r} and {b.get(k)!r})" for k in differ[:3])
            raise PoolError(f"pool: {first.root} and {r.root} differ in settings: {shown}"
                            + (f" and {len(differ) - 3} more" if len(differ) > 3 else "")
                            + "; only runs of the same settings pool (to compare settings, "
                            "use `compare` or a sweep)")
    parts: list[dict] = []
    owner: list[Path] = []
    for r in runs:
        for p in r.parts:
            for q, root in zip(parts, owner, strict=True):
                if _overlap(p, q):
                    raise PoolError(
                        f"pool: {root} and {r.root} share playouts (seed {p['seed']}, indices "
                        f"{max(p['start'], q['start']):,} to {min(p['end'], q['end']) - 1:,}): "
                        "the same games would count twice; pool runs of different seeds")
            parts.append({k: int(p[k]) for k in ("seed", "start", "end")})
            owner.append(r.root)
    g = get_game(first.manifest["game"])
    total = sum(p["end"] - p["start"] for p in parts)
    check_memory(g, total, what="the pool", advice="pool fewer runs")
    rules_copy = first.root / RULES_COPY
    config = g.configure(first.manifest.get("settings") or {}, first.manifest["strategy"],
                         rules_copy if first.manifest.get("rules_copy") else None)
    if config_hash(g.name, config.strategy.name, config.resolved()) != \
            first.manifest.get("config_hash"):
        raise PoolError(f"pool: the settings of {first.root} no longer resolve to the same "
                        "configuration (its rules data has changed since); run them again")
    frames = []
    for r in runs:
        path = r.root / PLAYOUTS
        try:
            meta = parquet_meta(path)
            frame = pd.read_parquet(path)
        except Exception as exc:  # a missing or damaged file of a run
            raise PoolError(f"pool: {path} is unreadable ({type(exc).__name__}: {exc}); run "
                            "that run again") from None
        if meta is None or meta.get("playouts") != r.parts or len(frame) != sum(
                p["end"] - p["start"] for p in r.parts):
            raise PoolError(f"pool: {path} does not hold the playouts {r.root}/manifest.json "
                            "lists; run that run again")
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True)
    seeds = sorted({p["seed"] for p in parts})
    summary = summarize(config, frame, seeds if len(seeds) > 1 else seeds[0], math.nan)
    rules_text = rules_copy.read_text(encoding="utf-8") if rules_copy.exists() else None
    write_run_folder(out, "pool", config, frame, summary, parts, rules_text, overwrite,
                     [str(r.root) for r in runs])
    return summary
