"""Finding and comparing saved results: ``cthulhu-sim list DIR`` (every folder the tool wrote
under DIR) and ``cthulhu-sim diff A B`` (two sweeps of the same game, cell by cell).

``diff`` matches the cells of the two sweeps by their swept values (a rules variant run with
the same axes, say).  Where both sweeps used the same seed, a cell's playouts in A and in B
are the same random streams, so the difference is paired over the playouts both played
(Newcombe's interval for paired proportions, much tighter); otherwise it is the difference
of two independent rates (Newcombe's hybrid Wilson interval).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from experiments.storage.outdir import KIND_WORDS, OutDirError, folder_kind, read_manifest

# what `list` calls each kind of folder (a tournament is a sweep of seatings, named apart)
KIND_NAMES = {**{k: v.split(" ", 1)[1] for k, v in KIND_WORDS.items()},
              "tournament": "tournament"}


def list_folders(root: str | Path) -> list[dict[str, Any]]:
    """Every folder under ``root`` (``root`` included) that the tool wrote: its path, kind,
    game, cells (finished of all, for sweeps), games played and the date it was begun."""
    root = Path(root)
    if not root.exists():
        raise OutDirError(f"{root}: no such folder")
    if not root.is_dir():
        raise OutDirError(f"{root}: is a file, not a folder to look in")
    found = []
    for here, dirs, _files in os.walk(root):
        dirs.sort()
        path = Path(here)
        kind = folder_kind(path)
        if kind is None:
            continue
        m = read_manifest(path) or {}
        if kind == "sweep" and is_tournament(path, m):
            kind = "tournament"
        row = {"path": str(path), "kind": kind, "game": m.get("game", "?"),
               "title": m.get("title", ""), "date": _date(path, m)}
        if kind in ("sweep", "tournament"):
            cells = m.get("cells") or []
            row["cells"] = f"{_sweep_done(path)}/{len(cells)}"
            row["games"] = _sweep_games(path)
        elif kind in ("sensitivity", "tune"):  # configurations played, games in all
            row["cells"] = str(m.get("points", "-"))
            row["games"] = m.get("games_played")
        elif kind == "uncertainty":  # samples of the assumed values, games in all
            row["cells"] = str(m.get("samples", "-"))
            row["games"] = m.get("games_played")
        else:
            row["cells"] = "-"
            row["games"] = (m.get("games") if kind in ("run", "pool") else
                            _ladder_games(path, m) if kind == "ladder" else _compare_games(m))
        found.append(row)
        dirs[:] = [d for d in dirs if d not in ("cells", "playouts", "plays")]  # its insides
    return found


def is_tournament(path: Path, m: dict) -> bool:
    """A sweep that a tournament wrote: marked so by its manifest (or its tournament.json),
    or, begun and not yet finished, a sweep of the seats' strategies titled as one."""
    if m.get("tournament") or (path / "tournament.json").is_file():
        return True
    axes = m.get("axes") or {}
    return (": tournament of " in str(m.get("title", "")) and bool(axes)
            and all(str(k).startswith("strategy.seat_") for k in axes))


def _ladder_games(path: Path, m: dict) -> int | None:
    """Games a rung times the rungs (from ladder.json)."""
    games = m.get("games")
    try:
        rungs = len(json.loads((path / "ladder.json").read_text(encoding="utf-8"))["rungs"])
    except (OSError, ValueError, KeyError, TypeError):
        return games if isinstance(games, int) else None
    return int(games) * rungs if isinstance(games, int) else None


def _date(path: Path, m: dict) -> str:
    created = m.get("created")
    if isinstance(created, str) and created:
        return created[:10]
    from datetime import UTC, datetime

    try:
        return datetime.fromtimestamp((path / "manifest.json").stat().st_mtime, UTC) \
            .strftime("%Y-%m-%d")
    except OSError:
        return "?"


def _sweep_done(path: Path) -> int:
    """Finished cells: those of results.parquet (a finished sweep's folder may keep no
    cells/, as committed reports do), else the cell files written so far."""
    import pandas as pd

    done = len(list((path / "cells").glob("c*.parquet"))) if (path / "cells").is_dir() else 0
    if (path / "results.parquet").exists():
        try:
            return max(done, int(pd.read_parquet(path / "results.parquet",
                                                 columns=["cell"])["cell"].nunique()))
        except Exception:  # a damaged file: count the cells' own files
            return done
    return done


def _sweep_games(path: Path) -> int | None:
    import pandas as pd

    for name in ("results.parquet",):
        p = path / name
        if p.exists():
            try:
                return int(pd.read_parquet(p, columns=["games"])["games"].sum())
            except Exception:  # a damaged file: the listing goes on without it
                return None
    total = 0
    for p in sorted((path / "cells").glob("c*.parquet")) if (path / "cells").is_dir() else []:
        try:
            total += int(pd.read_parquet(p, columns=["games"])["games"].sum())
        except Exception:
            return None
    return total


def _compare_games(m: dict) -> int | None:
    games = m.get("games")
    n = len(m.get("strategies") or [])
    return int(games) * n if isinstance(games, int) and n else games


def format_listing(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no results of cthulhu-sim here"
    head = ["folder", "kind", "game", "cells", "games", "date", "title"]
    table = [[r["path"], KIND_NAMES.get(r["kind"], r["kind"]), r["game"], r["cells"],
              f"{r['games']:,}" if isinstance(r["games"], int) else "?", r["date"],
              r["title"]] for r in rows]
    widths = [max(len(h), *(len(str(t[i])) for t in table)) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(t, widths, strict=True)).rstrip()
              for t in table]
    return "\n".join(lines)


# ---- diff ---------------------------------------------------------------------------------
def diff_sweeps(a: str | Path, b: str | Path) -> dict[str, Any]:
    """Two sweeps of the same game, cell by cell: each common cell's headline rate in A and
    in B and the difference B - A with its 95% interval (paired where the seeds agree)."""
    from experiments.reporting.labels import cell_text, words_of
    from experiments.reporting.report import headline, headline_indicator
    from experiments.running.sweep import load_sweep
    from experiments.stats import paired_rate_difference, unpaired_difference
    from experiments.storage.store import SweepDirError

    A, B = load_sweep(a), load_sweep(b)
    if A.game != B.game:
        raise SweepDirError(f"diff: {a} is a sweep of {A.game} and {b} of {B.game}; diff "
                            "compares two sweeps of the same game")
    ma, mb = A.manifest, B.manifest
    words = words_of(ma)
    prefix, name = headline(ma)

    def canon(values: dict) -> str:
        return json.dumps(values, sort_keys=True)

    in_b = {canon(c["values"]): c for c in mb["cells"]}
    done_a = set(A.results["cell"].astype(int)) if len(A.results) else set()
    done_b = set(B.results["cell"].astype(int)) if len(B.results) else set()
    paired_seed = ma["seed"] == mb["seed"]
    rows = []
    only_a = []
    for c in ma["cells"]:
        cb = in_b.pop(canon(c["values"]), None)
        if cb is None:
            only_a.append(c["label"])
            continue
        if c["index"] not in done_a or cb["index"] not in done_b:
            continue
        ra = A.results[A.results["cell"] == c["index"]].iloc[0]
        rb = B.results[B.results["cell"] == cb["index"]].iloc[0]
        rate_a = _headline_rate(ra, prefix)
        rate_b = _headline_rate(rb, prefix)
        paired = (paired_seed and A.dir.playouts_path(c["name"]).exists()
                  and B.dir.playouts_path(cb["name"]).exists())
        if paired:
            pa = A.playouts(c["index"], ["outcome", "winner"])
            pb = B.playouts(cb["index"], ["outcome", "winner"])
            n = min(len(pa), len(pb))
            d = paired_rate_difference(headline_indicator(mb, pb)[:n],
                                       headline_indicator(ma, pa)[:n])
        else:
            d = unpaired_difference(rate_b.successes, rate_b.trials, rate_a.successes,
                                    rate_a.trials)
        values = {k: v for k, v in c["values"].items()
                  if len(ma["axes"].get(k, [])) > 1 or len(mb["axes"].get(k, [])) > 1}
        rows.append({"cell": c["label"], "label": cell_text(words, values),
                     "a": {"cell": c["index"], "games": rate_a.trials, "rate": rate_a.rate,
                           "ci95": [rate_a.lo, rate_a.hi]},
                     "b": {"cell": cb["index"], "games": rate_b.trials, "rate": rate_b.rate,
                           "ci95": [rate_b.lo, rate_b.hi]},
                     "diff": d.mean, "ci95": [d.lo, d.hi], "n": d.n, "paired": paired})
    if not rows:
        raise SweepDirError(f"diff: no finished cell of {a} has the swept values of a finished "
                            f"cell of {b} (A sweeps {', '.join(ma['axes']) or 'nothing'}, B "
                            f"{', '.join(mb['axes']) or 'nothing'})")
    return {"game": A.game, "title": ma.get("game_title", A.game), "metric": name,
            "a": {"folder": str(A.root), "title": ma.get("title"), "seed": ma["seed"],
                  "settings": ma.get("settings_text"), "strategy": ma.get("strategy")},
            "b": {"folder": str(B.root), "title": mb.get("title"), "seed": mb["seed"],
                  "settings": mb.get("settings_text"), "strategy": mb.get("strategy")},
            "paired": paired_seed, "cells": rows, "only_a": only_a,
            "only_b": [c["label"] for c in in_b.values()]}


def _headline_rate(row: Any, prefix: str):
    from experiments.stats import Rate

    n = int(row["games"])
    col = f"{prefix}_rate" if f"{prefix}_rate" in row else prefix
    r = float(row[col])
    return Rate(int(round(r * n)), n, r, float(row[f"{prefix}_lo"]), float(row[f"{prefix}_hi"]))


def format_diff(d: dict[str, Any]) -> str:
    how = ("paired over the playouts both played (same seed)" if d["paired"]
           else "unpaired (different seeds: independent games)")
    lines = [f"{d['title']}: {d['metric']}, B minus A, cell by cell; {how}",
             f"  A: {d['a']['folder']} ({d['a']['title']}; settings {d['a']['settings']}, "
             f"strategy {d['a']['strategy']}, seed {d['a']['seed']})",
             f"  B: {d['b']['folder']} ({d['b']['title']}; settings {d['b']['settings']}, "
             f"strategy {d['b']['strategy']}, seed {d['b']['seed']})"]
    head = ["cell", "A [95% CI]", "B [95% CI]", "B - A (points) [95% CI]"]
    table = []
    for r in d["cells"]:
        table.append([r["label"],
                      f"{100 * r['a']['rate']:.1f}% [{100 * r['a']['ci95'][0]:.1f}, "
                      f"{100 * r['a']['ci95'][1]:.1f}]",
                      f"{100 * r['b']['rate']:.1f}% [{100 * r['b']['ci95'][0]:.1f}, "
                      f"{100 * r['b']['ci95'][1]:.1f}]",
                      f"{100 * r['diff']:+.2f} [{100 * r['ci95'][0]:+.2f}, "
                      f"{100 * r['ci95'][1]:+.2f}]" + ("" if r["paired"] else " (unpaired)")])
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(head)]
    lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(t, widths, strict=True))
              for t in table]
    clear_cells = sum(1 for r in d["cells"] if not r["ci95"][0] <= 0 <= r["ci95"][1])
    lines.append(f"  {clear_cells} of {len(d['cells'])} differences are clear of 0 (95%)")
    for side in ("only_a", "only_b"):
        if d[side]:
            lines.append(f"  only in {side[-1].upper()}: " + "; ".join(d[side]))
    return "\n".join(lines)
