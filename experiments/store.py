"""A sweep's folder: atomic writes, the manifest that guards --resume, and loading results.

::

    DIR/manifest.json          spec hash, game, cells (written before anything runs)
    DIR/spec.toml              the spec as given (its ``rules`` naming the copy below)
    DIR/rules.toml             a copy of the spec's rules data file, if it names one
    DIR/cells/c0007.parquet    one finished cell's aggregated results (one row)
    DIR/playouts/c0007.parquet that cell's per-playout outcome, winner and turns (every record
                               field too when the spec asks for records)
    DIR/results.parquet        every cell's row, in cell order
    DIR/run.json               timings of the last invocation (the only file that varies)
    DIR/report.md, report.html, chart-*.png

Every file is written to a temporary file in the same folder, flushed to disk and renamed over
its final name (``os.replace``), so an interrupted sweep leaves whole files or none.  A cell is
finished when its ``cells/`` file exists; its playouts file is written first.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pandas as pd

MANIFEST = "manifest.json"
RULES_COPY = "rules.toml"  # the copy of a spec's rules data file, beside spec.toml
FORMAT = 1
TMP_PREFIX = ".tmp-"


class SweepDirError(RuntimeError):
    """The output folder holds something --resume must not mix with."""


def atomic_write(path: str | Path, write: Callable[[IO[bytes]], None]) -> Path:
    """Call ``write(fh)`` on a temporary file beside ``path``, fsync it, and rename it over
    ``path``; on any error (or an interrupt) the temporary file is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            # mkstemp makes the file owner-only (0600); give it the mode any new file gets
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), 0o666 & ~_umask())
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def _umask() -> int:
    """The process's umask (reading it means setting it; it is put straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_bytes(path: str | Path, data: bytes) -> Path:
    return atomic_write(path, lambda fh: fh.write(data))


def write_text(path: str | Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))


def write_json(path: str | Path, obj: Any) -> Path:
    """``obj`` as strict JSON (NaN and infinities as null; see experiments.jsonout)."""
    from experiments.jsonout import finite

    return write_text(path, json.dumps(finite(obj), indent=2, allow_nan=False,
                                       default=_json_default) + "\n")


def write_parquet(path: str | Path, frame: pd.DataFrame) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    return atomic_write(path, lambda fh: pq.write_table(table, fh, compression="zstd"))


def _json_default(o: Any) -> Any:
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, Path):
        return str(o)
    return repr(o)


class SweepDir:
    """The files of one sweep under ``root``."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST

    def cell_path(self, name: str) -> Path:
        return self.root / "cells" / f"{name}.parquet"

    def playouts_path(self, name: str) -> Path:
        return self.root / "playouts" / f"{name}.parquet"

    @property
    def results_path(self) -> Path:
        return self.root / "results.parquet"

    def read_manifest(self) -> dict | None:
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except json.JSONDecodeError as exc:
            raise SweepDirError(f"{self.manifest_path}: unreadable ({exc})") from None

    def prepare(self, manifest: dict, spec_text: str | None, resume: bool,
                overwrite: bool, rules_text: str | None = None) -> bool:
        """Check (or start) the folder for a sweep whose manifest is ``manifest``; True when
        it starts a new sweep there (no sweep before, or ``overwrite``).  ``rules_text``, the
        spec's rules data file, is copied to ``rules.toml`` so the folder is self-contained."""
        old = self.read_manifest()
        if old is not None and not overwrite:
            if not resume:
                raise SweepDirError(
                    f"{self.root} already holds a sweep; run again with --resume to finish it, "
                    "or --overwrite to start afresh")
            if old.get("spec_hash") != manifest["spec_hash"]:
                what = "a different spec (or different rules data)"
                old_spec = dict(old.get("spec") or {})
                new_spec = dict(manifest.get("spec") or {})
                old_records = bool(old_spec.pop("records", False))
                new_records = bool(new_spec.pop("records", False))
                if old_spec == new_spec and old_records != new_records:
                    what = (f"the same sweep with records = {str(old_records).lower()} "
                            "(--records must match)")
                elif old_spec == new_spec and old.get("engine") not in (
                        None, manifest.get("engine")):
                    what = ("the same spec played by another version of the simulator (its "
                            "source code has changed since)")
                raise SweepDirError(
                    f"{self.root} holds results of {what}; --resume would mix them. Use "
                    "another --out, or --overwrite to start afresh")
        if old is not None and overwrite:
            self.clear()
        self.root.mkdir(parents=True, exist_ok=True)
        self.remove_temporaries()
        # same spec (or a fresh start): titles and report options may have changed
        write_json(self.manifest_path, manifest)
        if rules_text is not None:
            write_text(self.root / RULES_COPY, rules_text)
        if spec_text is not None:
            write_text(self.root / "spec.toml", spec_text)
        return old is None or overwrite

    def clear(self) -> None:
        """Remove a previous sweep's data and report (only files this layout names)."""
        for sub in ("cells", "playouts"):
            shutil.rmtree(self.root / sub, ignore_errors=True)
        for name in (MANIFEST, "spec.toml", RULES_COPY, "results.parquet", "run.json",
                     "comparisons.parquet", "report.md", "report.html"):
            with contextlib.suppress(FileNotFoundError):
                (self.root / name).unlink()
        for png in self.root.glob("chart-*.png"):
            png.unlink()

    def remove_temporaries(self) -> None:
        """Temporary files left by a process killed mid-write."""
        for folder in (self.root, self.root / "cells", self.root / "playouts"):
            if folder.is_dir():
                for p in folder.glob(TMP_PREFIX + "*"):
                    with contextlib.suppress(OSError):
                        p.unlink()

    def finished(self) -> set[str]:
        folder = self.root / "cells"
        if not folder.is_dir():
            return set()
        return {p.stem for p in folder.glob("c*.parquet")}

    def read_cells(self) -> pd.DataFrame:
        paths = sorted((self.root / "cells").glob("c*.parquet"))
        if not paths:
            return pd.DataFrame()
        frames = []
        for p in paths:
            try:
                frames.append(pd.read_parquet(p))
            except Exception as exc:  # (atomic writes never leave one; a damaged disk might)
                raise SweepDirError(
                    f"{p} is unreadable ({type(exc).__name__}: {exc}); delete it (and "
                    f"playouts/{p.name} if there) and run the sweep again with --resume to play "
                    "that cell again") from None
        return pd.concat(frames, ignore_index=True).sort_values("cell", ignore_index=True)

    def read_playouts(self, name: str, columns: list[str] | None = None) -> pd.DataFrame:
        return pd.read_parquet(self.playouts_path(name), columns=columns)
