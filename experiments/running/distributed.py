"""Playing a sweep's chunks on a Dask distributed cluster.

A chunk is a run of playout indices of one cell.  Workers receive the cell's settings as plain
data (game name, overrides, strategy, the text of a custom rules file), configure the game
themselves (cached per worker) and send back the raw records; the client assembles each cell in
index order, so the results are bit-identical to a single-machine run.

Workers must run the same version of cthulhu-sim (``pip install -e .`` on every machine).
Start one worker per machine with one Dask thread: each chunk already uses every core through
numba::

    dask scheduler                                   # on the head node: tcp://HEAD:8786
    dask worker tcp://HEAD:8786 --nworkers 1 --nthreads 1   # on every machine
    cthulhu-sim sweep SPEC.toml --out DIR --scheduler tcp://HEAD:8786
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import signal
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


class ClusterStartError(RuntimeError):
    """The Dask cluster could not be started or reached; nothing was played."""


@dataclass(frozen=True)
class CellSetup:
    """Everything a worker needs to configure one cell (plain, picklable data)."""

    game: str
    overrides_json: str
    strategy: str | None
    rules_text: str | None = None

    @classmethod
    def of(cls, game: str, overrides: dict[str, Any], strategy: str | None,
           rules_text: str | None) -> CellSetup:
        return cls(game, json.dumps(overrides), strategy, rules_text)

    def key(self) -> str:
        raw = json.dumps([self.game, self.overrides_json, self.strategy, self.rules_text])
        return hashlib.sha256(raw.encode()).hexdigest()

    def configure(self):
        from simcore.registry import get_game

        rules_path = None
        if self.rules_text is not None:
            digest = hashlib.sha256(self.rules_text.encode()).hexdigest()[:16]
            folder = Path(tempfile.gettempdir()) / "cthulhu-sim-rules"
            folder.mkdir(parents=True, exist_ok=True)
            rules_path = folder / f"{digest}.toml"
            if not rules_path.exists():
                tmp = folder / f".{digest}.{os.getpid()}.tmp"
                tmp.write_text(self.rules_text, encoding="utf-8")
                os.replace(tmp, rules_path)
        g = get_game(self.game)
        return g.configure(json.loads(self.overrides_json), self.strategy, rules_path)


_CONFIGS: dict[str, Any] = {}


def play_chunk(setup: CellSetup, seed: int, start: int, count: int,
               threads: int | None = None) -> np.ndarray:
    """Worker side: the records of playouts ``start .. start+count-1`` of one cell."""
    key = setup.key()
    config = _CONFIGS.get(key)
    if config is None:
        config = _CONFIGS[key] = setup.configure()
    if threads:
        import numba

        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    return config.game.run_batch(config, seed, start, count)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in this process (and so in the processes it starts) for the block;
    nothing changes outside the main thread, where signals cannot be set."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def dask_client(scheduler: str | None = None,
                local_workers: int | None = None) -> Iterator[tuple[Any, int | None]]:
    """A connected ``distributed.Client`` and the numba threads each task should use: the
    cluster at ``scheduler``, or a local cluster of ``local_workers`` worker processes."""
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler)
        except Exception as exc:
            raise ClusterStartError(
                f"cannot connect to the Dask scheduler at {scheduler}: {exc}") from exc
        try:
            yield client, None
        finally:
            client.close()
        return
    n = max(1, int(local_workers or 1))
    threads = max(1, (os.cpu_count() or 1) // n)
    try:
        # Ctrl-C at a terminal reaches every process of its group: worker processes started
        # with SIGINT ignored keep it ignored (Python installs no KeyboardInterrupt handler
        # then), so only this process stops, saves what finished and shuts the cluster down,
        # instead of each worker printing its own tracebacks
        with _sigint_ignored():
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
    except Exception as exc:
        raise ClusterStartError(
            f"the local Dask cluster of {n} worker process(es) did not start ({exc}). From a "
            "Python script, call run_sweep under `if __name__ == \"__main__\":` (each worker "
            "process imports the script again)") from exc
    try:
        client = Client(cluster)
    except BaseException:
        cluster.close()
        raise
    try:
        yield client, threads
    finally:
        client.close()
        cluster.close()


def worker_slots(client: Any) -> int:
    """Total Dask threads of the cluster's workers (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def play_tasks(setups: dict[int, CellSetup], tasks: list[tuple[int, int, int]], seed: int,
               handle: Callable[[tuple[int, int, int], np.ndarray], list[tuple[int, int, int]]],
               scheduler: str | None, dask_local: int | None,
               connected: tuple[Any, int | None] | None = None) -> int:
    """Play ``tasks`` (a heap of (setup, first playout, count)) on a Dask cluster, at most two
    per worker thread in flight, lower setups first; ``handle(task, records)`` is called in
    this process as each one arrives and returns any further tasks to play.  Sweeps and the
    balance tools (sensitivity, tune) play their chunks through this.  ``connected``: a
    (client, threads) from :func:`dask_client` kept open by the caller across calls (a
    search plays a few chunks at a time); otherwise one is opened for this call.  Returns
    the number of worker threads."""
    if connected is None:
        with dask_client(scheduler, dask_local) as (client, threads):
            if scheduler:
                client.wait_for_workers(1, timeout=120)
            return play_tasks(setups, tasks, seed, handle, scheduler, dask_local,
                              (client, threads))
    import heapq

    from distributed import as_completed

    client, threads = connected
    slots = worker_slots(client)
    limit = max(2, 2 * slots)
    futures: dict[Any, tuple[int, int, int]] = {}
    ac = as_completed()

    def submit() -> None:
        while tasks and len(futures) < limit:
            t = heapq.heappop(tasks)
            f = client.submit(play_chunk, setups[t[0]], seed, t[1], t[2], threads,
                              pure=False, priority=-t[0])
            futures[f] = t
            ac.add(f)

    submit()
    try:
        for f in ac:
            t = futures.pop(f)
            recs = f.result()
            for new in handle(t, recs):
                heapq.heappush(tasks, new)
            submit()
    finally:
        for f in futures:
            f.cancel()
    return slots
