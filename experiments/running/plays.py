"""Playouts of many configurations of one game, kept chunk by chunk in a folder: what the
balance tools (``cthulhu-sim sensitivity`` and ``cthulhu-sim tune``) play.

Every configuration (a *point*: the base setting with some numbers changed) plays playouts
``start .. start+games-1`` of one seed, so all points meet the same shuffles and dice (common
random numbers) and differences between them are paired.  Each chunk of playouts is written
as soon as it is played, atomically, to ``plays/p<point>-<first playout>.parquet`` with every
record field; its Parquet metadata names the point, the seed and the playouts it holds.  A
point is named by a digest of its whole resolved configuration, its strategy, the seed and
the simulator's source, so two requests that reach the same configuration share its
playouts, and a chunk of another version of the simulator is never taken for this one's.

Asking for playouts a point already has reads them; asking for more plays only the ones
missing.  So a run that is killed loses at most the chunks in flight, and running it again
(``--resume``) picks up every chunk it finished; a search that replays its steps finds them
all played.  Chunks are played here (numba's threads) or spread over a Dask cluster with the
sweeps' own task loop (:func:`experiments.running.distributed.play_tasks`); the records do not
depend on the chunk size, the machine or the number of workers.

The folder a balance tool writes holds these plays beside its results; its manifest names the
request, and ``--resume`` refuses a folder begun for another request, as a sweep's does.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import re
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.storage.outdir import (
    KIND_WORDS,
    TMP_PREFIX,
    OutDirError,
    claim,
    clear,
    read_manifest,
    stamp,
)
from experiments.storage.store import parquet_meta, write_json, write_parquet
from simcore.game import Config, Game

DEFAULT_CHUNK = 8192
CACHE_BYTES = 256 << 20  # records of recently used chunks kept in memory
_NAME = re.compile(r"^p(?P<pid>[0-9a-f]{20})-(?P<start>\d{19})$")


class PlaysError(OutDirError):
    """A file in the plays folder is not what its name says; the message says what to do."""


@dataclass
class Point:
    """One configuration: the base setting with ``changes`` (rules-data overrides)."""

    pid: str
    overrides: dict[str, Any]  # every override, the base setting's included
    changes: dict[str, Any]  # what differs from the base setting
    config: Config
    strategy: str | None = None  # its own strategy (None: the base setting's), for Dask


def make_point(game: Game, base: Mapping[str, Any], changes: Mapping[str, Any] | None,
               strategy: str | None, rules_path: str | None, seed: int) -> Point:
    """The point of the setting ``base`` with ``changes`` (a RulesError if the rules refuse
    the combination)."""
    changes = dict(changes or {})
    over = {**base, **changes}
    config = game.configure(over, strategy, rules_path)
    return Point(point_id(config, seed), over, changes, config)


def point_id(config: Config, seed: int) -> str:
    from simcore._cache import source_hash

    payload = {"game": config.game.name, "seed": int(seed), "strategy": config.strategy.name,
               "config": config.resolved(), "engine": source_hash()}
    text = json.dumps(payload, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class Plays:
    """The playouts of any number of points of one base setting, on one seed."""

    def __init__(self, game: Game, seed: int, folder: str | Path, *,
                 overrides: Mapping[str, Any] | None = None, strategy: str | None = None,
                 rules_path: str | Path | None = None, chunk: int = DEFAULT_CHUNK,
                 scheduler: str | None = None, dask_local: int | None = None,
                 threads: int | None = None, progress: bool = False,
                 on_chunk: Callable[[str, int, int], None] | None = None):
        from simcore.rules_data import read_toml_text

        if chunk < 1:
            raise ValueError("chunk must be at least 1")
        self.game = game
        self.seed = int(seed)
        self.folder = Path(folder)
        self.base = dict(overrides or {})
        self.strategy = strategy
        self.rules_path = str(rules_path) if rules_path is not None else None
        self.rules_text = read_toml_text(rules_path) if rules_path is not None else None
        self.chunk = int(chunk)
        self.scheduler = scheduler
        self.dask_local = dask_local
        self.threads = threads
        self.progress = progress
        self.on_chunk = on_chunk
        self.played = 0  # games played by this object
        self.read = 0  # games found already played
        self.backend = "local"
        self._warm: set[str] = set()
        self._cache: OrderedDict[tuple[str, int], np.ndarray] = OrderedDict()
        self._cache_bytes = 0
        self._index: dict[str, dict[int, int]] = {}  # pid -> {first playout: count}
        self._stack: contextlib.ExitStack | None = None  # the Dask client, kept open
        self._client: tuple[Any, int | None] | None = None
        self._scan()

    def __enter__(self) -> Plays:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Shut down the Dask client (and a local cluster) this object started."""
        if self._stack is not None:
            stack, self._stack, self._client = self._stack, None, None
            stack.close()

    def _connect(self) -> tuple[Any, int | None]:
        """A Dask client, opened on first use and kept for every later chunk (a search
        plays a few chunks at a time; a cluster per call would start for each)."""
        if self._client is None:
            from experiments.running.distributed import dask_client

            stack = contextlib.ExitStack()
            client, threads = stack.enter_context(dask_client(self.scheduler, self.dask_local))
            if self.scheduler:
                client.wait_for_workers(1, timeout=120)
            self._stack, self._client = stack, (client, threads)
        return self._client

    # ---- points ---------------------------------------------------------------------------
    def point(self, changes: Mapping[str, Any] | None = None) -> Point:
        """The point of the base setting with ``changes``; a RulesError if the rules refuse
        the combination."""
        return make_point(self.game, self.base, changes, self.strategy, self.rules_path,
                          self.seed)

    # ---- the folder -----------------------------------------------------------------------
    def _scan(self) -> None:
        if not self.folder.is_dir():
            return
        for tmp in self.folder.glob(TMP_PREFIX + "*"):  # left by a process killed mid-write
            with contextlib.suppress(OSError):
                tmp.unlink()
        for path in sorted(self.folder.glob("p*.parquet")):
            m = _NAME.match(path.stem)
            if m is None:
                continue
            meta = self._identity(path, m["pid"], int(m["start"]))
            lo, hi = meta["playouts"]
            self._index.setdefault(m["pid"], {})[lo] = hi - lo

    def _advice(self, path: Path) -> str:
        return f"delete {path} and run the same command again with --resume to play it again"

    def _identity(self, path: Path, pid: str, start: int) -> dict:
        try:
            meta = parquet_meta(path)
        except Exception as exc:  # (written atomically: only a damaged disk does this)
            raise PlaysError(f"{path} is unreadable ({type(exc).__name__}: {exc}); "
                             f"{self._advice(path)}") from None
        span = (meta or {}).get("playouts")
        if (meta is None or meta.get("kind") != "plays" or meta.get("point") != pid
                or not isinstance(span, list) or len(span) != 2 or span[0] != start):
            raise PlaysError(f"{path} does not hold the playouts its name says (a file copied or "
                             f"renamed over another); {self._advice(path)}")
        if meta.get("seed") != self.seed:
            raise PlaysError(f"{path} holds playouts of seed {meta.get('seed')}, not {self.seed} "
                             f"(copied from another folder); {self._advice(path)}")
        return meta

    def path(self, pid: str, start: int) -> Path:
        return self.folder / f"p{pid}-{start:019d}.parquet"

    def _missing(self, pid: str, start: int, end: int) -> list[tuple[int, int]]:
        """The runs of playouts in [start, end) the point lacks, cut at multiples of the
        chunk size (so a later, longer request reuses whole chunks)."""
        have = sorted(self._index.get(pid, {}).items())
        gaps, at = [], start
        for lo, n in have:
            hi = lo + n
            if hi <= at or lo >= end:
                continue
            if lo > at:
                gaps.append((at, lo))
            at = max(at, hi)
        if at < end:
            gaps.append((at, end))
        out = []
        for a, b in gaps:
            s = a
            while s < b:
                e = min(b, (s // self.chunk + 1) * self.chunk)
                out.append((s, e - s))
                s = e
        return out

    def has(self, point: Point, games: int, start: int = 0) -> bool:
        return not self._missing(point.pid, start, start + games)

    # ---- playing --------------------------------------------------------------------------
    def ensure(self, points: list[Point], games: int, start: int = 0,
               desc: str | None = None) -> int:
        """Play what ``points`` lack of playouts ``start .. start+games-1`` (all of them at
        once: over Dask, in parallel); the number of games played."""
        by_pid: dict[str, Point] = {}
        for p in points:
            by_pid.setdefault(p.pid, p)
        by_index = dict(enumerate(by_pid.values()))
        tasks = [(i, s, n) for i, p in by_index.items()
                 for s, n in self._missing(p.pid, start, start + games)]
        if not tasks:
            return 0
        self.folder.mkdir(parents=True, exist_ok=True)
        total = sum(n for _, _, n in tasks)
        bar = None
        if self.progress:
            from tqdm import tqdm

            bar = tqdm(total=total, desc=desc or f"{self.game.name} plays", unit="game",
                       unit_scale=True, file=sys.stderr, dynamic_ncols=True, leave=False)

        def handle(task: tuple[int, int, int], recs: np.ndarray) -> list:
            i, s, n = task
            self._save(by_index[i], s, recs)
            if bar is not None:
                bar.update(n)
            return []

        try:
            if self.scheduler or self.dask_local:
                from experiments.running.distributed import CellSetup, play_tasks

                setups = {i: CellSetup.of(self.game.name, p.overrides,
                                          p.strategy or self.strategy, self.rules_text)
                          for i, p in by_index.items()}
                heapq.heapify(tasks)
                self.backend = (f"dask {self.scheduler}" if self.scheduler
                                else f"dask local x{self.dask_local}")
                play_tasks(setups, tasks, self.seed, handle, self.scheduler, self.dask_local,
                           self._connect())
            else:
                from experiments.running.runner import announce_compile, set_threads

                set_threads(self.threads)
                for i, s, n in sorted(tasks):
                    config = by_index[i].config
                    if config.strategy.name not in self._warm:
                        if self.progress:
                            announce_compile(f"{self.game.name} {config.strategy.name}", config)
                        self.game.warm_up(config)
                        self._warm.add(config.strategy.name)
                    handle((i, s, n), self.game.run_batch(config, self.seed, s, n))
        finally:
            if bar is not None:
                bar.close()
        return total

    def _save(self, point: Point, start: int, recs: np.ndarray) -> None:
        n = len(recs)
        meta = {"kind": "plays", "point": point.pid, "seed": self.seed,
                "playouts": [start, start + n], "settings": _plain(point.changes)}
        write_parquet(self.path(point.pid, start), pd.DataFrame(recs), meta)
        self._index.setdefault(point.pid, {})[start] = n
        self._remember((point.pid, start), np.ascontiguousarray(recs))
        self.played += n
        if self.on_chunk is not None:
            self.on_chunk(point.pid, start, n)

    def _remember(self, key: tuple[str, int], recs: np.ndarray) -> None:
        self._cache[key] = recs
        self._cache_bytes += recs.nbytes
        while self._cache_bytes > CACHE_BYTES and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cache_bytes -= old.nbytes

    def _chunk(self, pid: str, lo: int) -> np.ndarray:
        key = (pid, lo)
        recs = self._cache.get(key)
        if recs is not None:
            self._cache.move_to_end(key)
            return recs
        path = self.path(pid, lo)
        try:
            frame = pd.read_parquet(path)
        except FileNotFoundError:
            raise PlaysError(f"{path} is missing (removed while the command ran?); run the same "
                             "command again with --resume") from None
        except Exception as exc:
            raise PlaysError(f"{path} is unreadable ({type(exc).__name__}: {exc}); "
                             f"{self._advice(path)}") from None
        dtype = self.game.record_dtype
        if list(frame.columns) != list(dtype.names) or len(frame) != self._index[pid][lo]:
            raise PlaysError(f"{path} does not hold this game's records (its columns or length "
                             f"differ); {self._advice(path)}")
        recs = np.empty(len(frame), dtype=dtype)
        for name in dtype.names:
            recs[name] = frame[name].to_numpy()
        self._remember(key, recs)
        return recs

    def records(self, point: Point, games: int, start: int = 0) -> np.ndarray:
        """The records of playouts ``start .. start+games-1`` of ``point``, in order (playing
        any it lacks first)."""
        end = start + games
        if self._missing(point.pid, start, end):
            self.ensure([point], games, start)
        parts = []
        at = start
        for lo, n in sorted(self._index[point.pid].items()):
            hi = lo + n
            if hi <= at or lo >= end:
                continue
            recs = self._chunk(point.pid, lo)
            parts.append(recs[at - lo:min(hi, end) - lo])
            at = min(hi, end)
        self.read += games
        out = parts[0] if len(parts) == 1 else np.concatenate(parts)
        assert len(out) == games
        return out


def _plain(v: Any) -> Any:
    from experiments.reporting.text import python_scalars

    return python_scalars(v)


# ---- the folder of a balance tool ---------------------------------------------------------
def request_hash(request: Mapping[str, Any]) -> str:
    from simcore._cache import source_hash

    text = json.dumps({"request": request, "engine": source_hash()}, sort_keys=True,
                      default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def check_folder(out: str | Path, kind: str, request: Mapping[str, Any], *, resume: bool,
                 overwrite: bool) -> None:
    """Refuse, writing nothing, an ``out`` this request may not write: a file, a folder the
    tool did not write (see :func:`experiments.storage.outdir.claim`), another kind of results
    without ``overwrite``, results of this kind without ``resume`` or ``overwrite``, or (with
    ``resume``) results of another request."""
    from experiments.storage.outdir import folder_kind
    from simcore._cache import source_hash

    out = Path(out)
    found = folder_kind(out) if out.is_dir() else None
    if found is None or found != kind:
        if not (found is not None and overwrite):  # (another kind: cleared by open_folder)
            claim(out, kind, overwrite)
        return
    if overwrite:
        return
    if not resume:
        raise OutDirError(f"--out {out}: already holds {KIND_WORDS[kind]}; run again with "
                          "--resume to finish it, or --overwrite to start afresh")
    old = read_manifest(out) or {}
    if old.get("request_hash") != request_hash(request):
        what = "another request (other settings, keys, seed or games)"
        if old.get("request") == _plain(dict(request)) and old.get("engine") != source_hash():
            what = ("the same request played by another version of the simulator (its source "
                    "code has changed since)")
        raise OutDirError(f"--out {out}: holds {KIND_WORDS[kind]} of {what}; --resume would mix "
                          "them. Use another --out, or --overwrite to start afresh")


def open_folder(out: str | Path, kind: str, request: Mapping[str, Any], *, resume: bool,
                overwrite: bool, game: Game, title: str) -> bool:
    """Claim ``out`` for a ``kind`` folder (after :func:`check_folder`) and write its
    manifest; True when it starts afresh.  A folder of the same kind is resumed only with
    ``resume`` and only for the same request (the same settings, keys, seed and games, played
    by the same version of the simulator); ``overwrite`` replaces it."""
    from simcore._cache import source_hash

    check_folder(out, kind, request, resume=resume, overwrite=overwrite)
    out = Path(out)
    old = read_manifest(out) or {}
    state = claim(out, kind, overwrite)
    fresh = True
    if state == "same":
        if overwrite:
            clear(out, kind)
        else:
            fresh = False
    out.mkdir(parents=True, exist_ok=True)
    for tmp in out.glob(TMP_PREFIX + "*"):
        with contextlib.suppress(OSError):
            tmp.unlink()
    manifest = {**stamp(kind), "game": game.name, "title": title,
                "request": _plain(dict(request)), "request_hash": request_hash(request),
                "engine": source_hash(), "complete": False}
    if not fresh:
        manifest.update({k: old[k] for k in ("created", "charts") if k in old})
    write_json(out / "manifest.json", manifest)
    return fresh


def finish_folder(out: str | Path, into: str | Path | None = None, **fields: Any) -> None:
    """Mark the folder whole: its manifest, last, with ``fields`` (games played ...);
    ``into``: the staging folder of its final files (see
    :func:`experiments.storage.outdir.staged`), where the finished manifest waits to be moved
    in with them."""
    path = Path(into if into is not None else out) / "manifest.json"
    manifest = read_manifest(out) or {}
    manifest.update(_plain(fields))
    manifest["complete"] = True
    write_json(path, manifest)


def abandon_folder(out: str | Path, kind: str) -> None:
    """A fresh folder whose run stopped before it played anything is taken back (so the next
    try is not told to --resume); one that played keeps its plays for --resume."""
    plays = Path(out) / "plays"
    if plays.is_dir() and any(plays.glob("p*.parquet")):
        return
    clear(out, kind)
    with contextlib.suppress(OSError):
        Path(out).rmdir()


@contextlib.contextmanager
def session(setting: Setting, out: str | Path | None, kind: str, request: Mapping[str, Any],
            *, resume: bool, overwrite: bool, title: str, seed: int,
            **plays_kwargs: Any) -> Iterator[Plays]:
    """The plays of one balance request: ``out`` claimed and its manifest written (see
    :func:`open_folder`; nothing kept without ``out``), and on any failure of a fresh folder
    before a game was saved, the folder taken back."""
    fresh = True
    if out is not None:
        fresh = open_folder(out, kind, request, resume=resume, overwrite=overwrite,
                            game=setting.game, title=title)
    try:
        with plays_folder(out) as folder, setting.plays(seed, folder, **plays_kwargs) as plays:
            yield plays
    except BaseException:
        if out is not None and fresh:
            abandon_folder(out, kind)
        raise


@contextlib.contextmanager
def plays_folder(out: str | Path | None) -> Iterator[Path]:
    """Where the plays go: ``out/plays``, or a temporary folder removed afterwards when
    nothing is kept."""
    if out is not None:
        yield Path(out) / "plays"
        return
    with tempfile.TemporaryDirectory(prefix="cthulhu-sim-plays-") as tmp:
        yield Path(tmp)


# ---- the base setting every point starts from ---------------------------------------------
@dataclass
class Setting:
    """The base setting of a balance request: a game, its overrides (``--set`` and the
    shortcuts), a strategy and a rules data file, resolved and checked."""

    game: Game
    overrides: dict[str, Any]
    strategy: str | None
    rules_path: str | None
    config: Config

    @classmethod
    def of(cls, game: str | Game, overrides: Any = None, strategy: str | None = None,
           rules_path: str | Path | None = None) -> Setting:
        """Check the setting (a RulesError naming the key otherwise)."""
        from simcore.registry import get_game
        from simcore.rules_data import parse_overrides

        g = get_game(game) if isinstance(game, str) else game
        flat = parse_overrides(overrides)
        config = g.configure(flat, strategy, rules_path)
        return cls(g, flat, strategy, str(rules_path) if rules_path is not None else None,
                   config)

    @property
    def rules(self):
        return self.config.rules

    def request(self) -> dict[str, Any]:
        """What decides the playouts, as plain data (a manifest's request)."""
        rules_sha = None
        if self.rules_path is not None:
            from simcore.rules_data import read_toml_text

            rules_sha = hashlib.sha256(read_toml_text(self.rules_path).encode()).hexdigest()
        return {"game": self.game.name, "settings": _plain(self.overrides),
                "strategy": self.config.strategy.name, "rules_sha256": rules_sha}

    def settings_text(self) -> str:
        from experiments.reporting.text import settings_text

        text = settings_text(self.config.changed()) or "defaults"
        if self.rules_path is not None:
            text += f" (rules data: {Path(self.rules_path).name})"
        return text

    def point(self, changes: Mapping[str, Any] | None, seed: int) -> Point:
        return make_point(self.game, self.overrides, changes, self.strategy, self.rules_path,
                          seed)

    def plays(self, seed: int, folder: Path, **kwargs: Any) -> Plays:
        return Plays(self.game, seed, folder, overrides=self.overrides,
                     strategy=self.strategy, rules_path=self.rules_path, **kwargs)
