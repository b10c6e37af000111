"""A sweep's folder: atomic writes, the manifest that guards --resume, and loading results.

::

    DIR/manifest.json          spec hash, game, cells (written before anything runs)
    DIR/spec.toml              the spec as given (its ``rules`` naming the copy below)
    DIR/rules.toml             a copy of the spec's rules data file, if it names one
    DIR/cells/c0007.parquet    one finished cell's aggregated results (one row)
    DIR/playouts/c0007.parquet that cell's per-playout outcome, winner and turns (every record
                               field too when the spec asks for records)
    DIR/results.parquet        every cell's row, in cell order
    DIR/results.csv            the same, as CSV
    DIR/run.json               timings of the last invocation (the only file that varies)
    DIR/report.md, report.html, chart-*.png

Each cell's two files carry in their Parquet metadata which cell they hold, the spec hash of
the sweep they belong to and the range of playout indices they cover, so a file copied over
another, or left from another sweep, is named on ``--resume`` instead of being taken for the
cell its name says.

Every file is written to a temporary file in the same folder, flushed to disk and renamed over
its final name (``os.replace``), so an interrupted sweep leaves whole files or none.  A cell is
finished when its ``cells/`` file exists; its playouts file is written first.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pandas as pd

from experiments.storage.outdir import MANIFEST, TMP_PREFIX, OutDirError, claim, clear

RULES_COPY = "rules.toml"  # the copy of a spec's rules data file, beside spec.toml
FORMAT = 1
META_KEY = b"cthulhu-sim"  # Parquet schema metadata: what a stored file holds (JSON)


class SweepDirError(OutDirError):
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
    """``obj`` as strict JSON (NaN and infinities as null; see experiments.storage.jsonout)."""
    from experiments.storage.jsonout import finite

    return write_text(path, json.dumps(finite(obj), indent=2, allow_nan=False,
                                       default=_json_default) + "\n")


def write_parquet(path: str | Path, frame: pd.DataFrame, meta: dict | None = None) -> Path:
    """``frame`` as Parquet; ``meta`` (JSON data) is kept in the file's schema metadata and
    read back by :func:`parquet_meta`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if meta is not None:
        table = table.replace_schema_metadata(
            {**(table.schema.metadata or {}), META_KEY: json.dumps(meta, sort_keys=True)})
    return atomic_write(path, lambda fh: pq.write_table(table, fh, compression="zstd"))


def parquet_meta(path: str | Path) -> dict | None:
    """What :func:`write_parquet` recorded in the file (None when it recorded nothing)."""
    import pyarrow.parquet as pq

    raw = (pq.read_schema(path).metadata or {}).get(META_KEY)
    if raw is None:
        return None
    try:
        out = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return out if isinstance(out, dict) else None


def write_csv(path: str | Path, frame: pd.DataFrame) -> Path:
    """``frame`` as CSV (a column of arrays, such as a length histogram, as ``a;b;c``)."""
    import numpy as np

    out = frame.copy()
    for col in out.columns:
        if out[col].dtype == object and any(isinstance(v, list | tuple | np.ndarray)
                                            for v in out[col]):
            out[col] = [";".join(str(x) for x in v) if isinstance(v, list | tuple | np.ndarray)
                        else v for v in out[col]]
    return write_text(path, out.to_csv(index=False))


def cell_meta(name: str, index: int, spec_hash: str, start: int, end: int) -> dict:
    """The identity a cell's files carry: which cell, which sweep, which playouts."""
    return {"kind": "cell", "cell": index, "name": name, "spec_hash": spec_hash,
            "playouts": [start, end]}


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
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (FileNotFoundError, NotADirectoryError):
            return None
        except IsADirectoryError:
            raise SweepDirError(f"{self.manifest_path}: is a folder, not a sweep's "
                                "manifest") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise SweepDirError(f"{self.manifest_path}: unreadable ({exc})") from None
        if not isinstance(data, dict):
            raise SweepDirError(f"{self.manifest_path}: unreadable (not a JSON object)")
        return data

    def prepare(self, manifest: dict, spec_text: str | None, resume: bool,
                overwrite: bool, rules_text: str | None = None) -> bool:
        """Check (or start) the folder for a sweep whose manifest is ``manifest``; True when
        it starts a new sweep there (no sweep before, or ``overwrite``).  ``rules_text``, the
        spec's rules data file, is copied to ``rules.toml`` so the folder is self-contained.
        A folder that holds anything but a sweep of this tool is refused (see
        :func:`experiments.storage.outdir.claim`)."""
        self.check_writable(overwrite)
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
        # same spec (or a fresh start): titles and report options may have changed; the
        # date it was begun and the charts its report drew stay
        if old is not None and not overwrite:
            manifest = {**manifest, **{k: old[k] for k in ("created", "charts") if k in old}}
        write_json(self.manifest_path, manifest)
        if rules_text is not None:
            write_text(self.root / RULES_COPY, rules_text)
        if spec_text is not None:
            write_text(self.root / "spec.toml", spec_text)
        return old is None or overwrite

    def check_writable(self, overwrite: bool = False) -> None:
        """Refuse, before anything is written, a folder that is not a sweep of this tool (or
        new, or empty), unless ``overwrite`` lets the sweep be written beside files that are
        not in its way."""
        claim(self.root, "sweep", overwrite)

    def clear(self) -> None:
        """Remove a previous sweep's data and report: only the files a sweep writes (see
        :data:`experiments.storage.outdir.LAYOUTS`), so anything else in the folder stays."""
        clear(self.root, "sweep")

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

    def _replay_advice(self, name: str) -> str:
        return (f"delete cells/{name}.parquet and playouts/{name}.parquet and run the sweep "
                "again with --resume to play that cell again")

    def check_identity(self, path: Path, name: str, spec_hash: str | None,
                       games: int | None = None) -> dict:
        """The identity ``path`` records (see :func:`cell_meta`), checked against the cell
        its name says and the sweep ``spec_hash``; a mismatch is named with what to do."""
        try:
            meta = parquet_meta(path)
        except Exception as exc:  # (written atomically: only a damaged disk does this)
            raise SweepDirError(f"{path} is unreadable ({type(exc).__name__}: {exc}); "
                                f"{self._replay_advice(name)}") from None
        index = int(name[1:]) if name[1:].isdigit() else None
        if meta is None or meta.get("kind") != "cell":
            raise SweepDirError(f"{path} does not say which cell it holds (not written by "
                                f"this version of cthulhu-sim); {self._replay_advice(name)}")
        if meta.get("cell") != index:
            raise SweepDirError(
                f"{path} holds cell {meta.get('cell')} ({meta.get('name')}), not {name}: a "
                f"file copied or renamed over another; {self._replay_advice(name)}")
        if spec_hash is not None and meta.get("spec_hash") != spec_hash:
            raise SweepDirError(
                f"{path} belongs to another sweep (spec hash {str(meta.get('spec_hash'))[:12]}, "
                f"this sweep's is {spec_hash[:12]}); {self._replay_advice(name)}")
        span = meta.get("playouts")
        if (games is not None and isinstance(span, list) and len(span) == 2
                and span[1] - span[0] != games):
            raise SweepDirError(
                f"{path} says it covers playouts {span[0]} to {span[1] - 1} but holds {games:,} "
                f"games; {self._replay_advice(name)}")
        return meta

    def read_cells(self, spec_hash: str | None = None) -> pd.DataFrame:
        """Every finished cell's row, each checked to be the cell its file name says (and,
        with ``spec_hash``, of that sweep)."""
        paths = sorted((self.root / "cells").glob("c*.parquet"))
        if not paths:
            return pd.DataFrame()
        frames = []
        for p in paths:
            try:
                frame = pd.read_parquet(p)
            except Exception as exc:  # (atomic writes never leave one; a damaged disk might)
                raise SweepDirError(
                    f"{p} is unreadable ({type(exc).__name__}: {exc}); delete it (and "
                    f"playouts/{p.name} if there) and run the sweep again with --resume to play "
                    "that cell again") from None
            games = int(frame["games"].iloc[0]) if "games" in frame and len(frame) else None
            self.check_identity(p, p.stem, spec_hash, games)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True).sort_values("cell", ignore_index=True)

    def read_playouts(self, name: str, columns: list[str] | None = None,
                      spec_hash: str | None = None) -> pd.DataFrame:
        """A cell's per-playout file, checked to be that cell's; an unreadable or mismatched
        file is named with what to do."""
        path = self.playouts_path(name)
        if spec_hash is not None or path.exists():
            self.check_identity(path, name, spec_hash)
        try:
            return pd.read_parquet(path, columns=columns)
        except FileNotFoundError:
            raise SweepDirError(f"{path} is missing; {self._replay_advice(name)}") from None
        except Exception as exc:  # (written atomically: only a damaged disk does this)
            raise SweepDirError(f"{path} is unreadable ({type(exc).__name__}: {exc}); "
                                f"{self._replay_advice(name)}") from None
