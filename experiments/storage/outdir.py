"""Output folders: which ones this tool wrote, and what in them it may replace or remove.

Every folder the tool writes (a sweep, a comparison, a run, a pool of runs, a sensitivity
analysis, a tuning, an uncertainty analysis) holds a ``manifest.json`` saying ``"tool":
"cthulhu-sim"`` and its ``kind``.  A command that writes a folder first *claims* it:

- a new or empty folder is used as it is;
- a folder of the same kind is the caller's to resume or (with ``--overwrite``) replace;
- a folder of another kind is refused, or with ``--overwrite`` cleared of that kind's files;
- a non-empty folder the tool did not write is refused; with ``--overwrite`` the tool writes
  beside what is there, but never over a file it did not write (a ``report.md`` of the
  user's, say, is named and the command stops).

Clearing removes only the files of the kind's layout (never a whole subfolder), so notes a
user keeps in a results folder survive ``--overwrite``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

TOOL = "cthulhu-sim"
MANIFEST = "manifest.json"
TMP_PREFIX = ".tmp-"
STAGING = TMP_PREFIX + "staging-"  # a folder's files while they are written (see staged)

# what each kind of folder holds, as glob patterns relative to the folder
LAYOUTS: dict[str, tuple[str, ...]] = {
    "sweep": (MANIFEST, "spec.toml", "rules.toml", "results.parquet", "results.csv",
              "run.json", "comparisons.parquet", "report.md", "report.html", "chart-*.png",
              "tournament.json",
              "cells/c[0-9][0-9][0-9][0-9]*.parquet", "playouts/c[0-9][0-9][0-9][0-9]*.parquet"),
    "compare": (MANIFEST, "compare.json", "chart-compare.png", "report.md", "report.html"),
    "run": (MANIFEST, "summary.json", "playouts.parquet", "results.csv", "rules.toml",
            "report.md"),
    "pool": (MANIFEST, "summary.json", "playouts.parquet", "results.csv", "rules.toml",
             "report.md"),
    "ladder": (MANIFEST, "ladder.json", "chart-ladder.png", "report.md", "report.html"),
    "sensitivity": (MANIFEST, "rules.toml", "sensitivity.json", "sensitivity.parquet",
                    "sensitivity.csv", "points.parquet", "report.md", "report.html",
                    "chart-*.png", "plays/p[0-9a-f]*.parquet"),
    "tune": (MANIFEST, "rules.toml", "tune.json", "path.parquet", "path.csv",
             "rules-tuned*.toml", "report.md", "report.html", "chart-*.png",
             "plays/p[0-9a-f]*.parquet"),
    "uncertainty": (MANIFEST, "rules.toml", "uncertainty.json", "samples.parquet", "samples.csv",
                    "report.md", "report.html", "chart-*.png", "plays/p[0-9a-f]*.parquet"),
    # here, not in their modules, so a folder's kind is known whatever was imported
    "skill": (MANIFEST, "skill.json", "chart-skill.png", "report.md", "report.html",
              "timing.json", "plays/p[0-9a-f]*.parquet"),
    "train": (MANIFEST, "train.json", "player.toml", "report.md", "plays/p[0-9a-f]*.parquet"),
}
SUBFOLDERS = ("cells", "playouts", "plays")
KIND_WORDS = {"sweep": "a sweep", "compare": "a comparison", "run": "a run",
              "pool": "a pool of runs", "ladder": "a strength ladder",
              "sensitivity": "a sensitivity analysis", "tune": "a tuning",
              "uncertainty": "an uncertainty analysis", "skill": "a skill curve",
              "train": "a training"}


class OutDirError(RuntimeError):
    """An output folder the command may not write (or resume) as asked; the message names
    the folder, what is in the way and what to do."""


def read_manifest(root: str | Path) -> dict | None:
    """The folder's manifest, or None when it has none or one that is not JSON."""
    path = Path(root) / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def folder_kind(root: str | Path) -> str | None:
    """The kind of tool folder at ``root`` (``sweep``, ``compare``, ``run``, ``pool``,
    ``sensitivity``, ``tune``, ``uncertainty``, ...), or None when the tool did not write
    it.  Sweeps written before manifests named the tool are recognised by their spec hash and
    cell list."""
    m = read_manifest(root)
    if m is None:
        return None
    if m.get("tool") == TOOL and m.get("kind") in LAYOUTS:
        return m["kind"]
    if "tool" not in m and "spec_hash" in m and isinstance(m.get("cells"), list):
        return "sweep"
    return None


def layout_files(root: str | Path, kind: str, own: bool = False) -> list[Path]:
    """The files in ``root`` that the layout of ``kind`` names (and left-over temporaries).
    ``own``: of a folder the tool wrote, whose manifest lists the charts it drew; only those
    charts are its own (a ``chart-mine.png`` the user put there is not)."""
    root = Path(root)
    patterns = list(LAYOUTS[kind])
    charts = (read_manifest(root) or {}).get("charts") if own else None
    if isinstance(charts, list):
        patterns = [p for p in patterns if p != "chart-*.png"] + [
            c for c in charts if isinstance(c, str) and "/" not in c]
    found: set[Path] = set()
    for pattern in patterns:
        found.update(p for p in root.glob(pattern) if p.is_file())
    for folder in (root, *(root / s for s in SUBFOLDERS)):
        if folder.is_dir():
            found.update(p for p in folder.glob(TMP_PREFIX + "*") if p.is_file())
    return sorted(found)


def clear(root: str | Path, kind: str, keep: tuple[str, ...] = ()) -> None:
    """Remove the files of ``kind``'s layout from ``root`` (but those named in ``keep``), and
    the subfolders that leaves empty; anything else in the folder stays."""
    root = Path(root)
    for p in layout_files(root, kind, own=True):
        if p.relative_to(root).as_posix() not in keep:
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
    for sub in SUBFOLDERS:
        with contextlib.suppress(OSError):  # not there, or holds something else
            (root / sub).rmdir()


def _entries(root: Path) -> list[Path]:
    """What ``root`` holds, but a staging folder left by a write that was killed (see
    :func:`staged`): that is the tool's, and removed by the next write."""
    return [p for p in root.iterdir() if not (p.is_dir() and p.name.startswith(STAGING))]


@contextlib.contextmanager
def staged(root: str | Path, kind: str, replace: bool = False) -> Iterator[Path]:
    """Write a folder's files whole or not at all: the body writes them into a staging
    folder (yielded) inside ``root``; when it ends they are moved into ``root`` (the
    manifest last, so the folder is whole when it names itself), after ``replace`` removed
    the files of a previous ``kind`` folder there.  If the body fails (a full disk, an
    error, an interrupt) the staging folder is removed and ``root`` is as it was, or gone
    again when this made it."""
    import shutil
    import tempfile

    root = Path(root)
    made = not root.exists()
    root.mkdir(parents=True, exist_ok=True)
    for old in root.glob(STAGING + "*"):  # left by a write that was killed
        shutil.rmtree(old, ignore_errors=True)
    stage = Path(tempfile.mkdtemp(prefix=STAGING, dir=root))
    try:
        try:
            yield stage
        except BaseException:
            if made:
                shutil.rmtree(stage, ignore_errors=True)
                with contextlib.suppress(OSError):
                    root.rmdir()
            raise
        if replace:
            clear(root, kind)
        files = sorted((p for p in stage.rglob("*") if p.is_file()),
                       key=lambda p: (p.name == MANIFEST, str(p)))
        for p in files:
            dest = root / p.relative_to(stage)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(p, dest)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def destination(path: str | Path) -> Path:
    """Where a file written inside a staging folder (see :func:`staged`) ends up: the path
    with its ``.tmp-staging-*`` component dropped (``out/.tmp-staging-ab12/report.md`` is
    ``out/report.md``); any other path as it is."""
    p = Path(path)
    parts = [part for part in p.parts if not part.startswith(STAGING)]
    return Path(*parts) if parts else p


def _listing(root: Path, limit: int = 4) -> str:
    names = sorted(p.name + ("/" if p.is_dir() else "") for p in _entries(root))
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def claim(root: str | Path, kind: str, overwrite: bool = False, option: str = "--out") -> str:
    """May this command write a ``kind`` folder at ``root``?  ``"new"``: nothing of the
    tool's is there (the folder may not exist yet); ``"same"``: a folder of this kind, for
    the caller to resume or replace.  Anything else raises :class:`OutDirError`; nothing is
    written, and with ``overwrite`` only files the tool wrote are removed."""
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise OutDirError(f"{option} {root}: is a file, not a folder; give a folder's name")
    if not root.exists() or not _entries(root):
        return "new"
    found = folder_kind(root)
    if found == kind:
        return "same"
    if found is not None:
        if not overwrite:
            raise OutDirError(
                f"{option} {root}: holds {KIND_WORDS[found]} of cthulhu-sim, not "
                f"{KIND_WORDS[kind]}; give another folder, or --overwrite to replace it")
        clear(root, found)
        return "new"
    if not overwrite:
        raise OutDirError(
            f"{option} {root}: the folder is not empty and was not written by cthulhu-sim "
            f"(it holds {_listing(root)}); give a new or empty folder, or --overwrite to "
            "write beside what is there")
    clash = layout_files(root, kind)
    if clash:
        raise OutDirError(
            f"{option} {root}: {clash[0].relative_to(root)} is in the way and was not written "
            "by cthulhu-sim (--overwrite replaces only files the tool wrote); move it away or "
            "give another folder")
    return "new"


def stamp(kind: str) -> dict:
    """The fields every manifest starts with: the tool, the kind of folder, the version and
    the time it was written (UTC)."""
    from datetime import UTC, datetime
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("cthulhu-sim")
    except PackageNotFoundError:  # a source tree that was not installed
        ver = "unknown"
    return {"tool": TOOL, "kind": kind, "version": ver,
            "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
