"""Heavy work of the workbench, one job at a time per core budget.

A job (a run, a comparison, a sweep, a trace) is queued and played by a worker thread; the
pages read its state (queued, running, done, failed, cancelled), its progress and its result.
Numba's parallel kernels already use every core, so by default one job plays at a time and
the others wait in line and say so.  Cancelling a running job stops it at its next progress
report (a batch of games, a chunk, a cell): the work functions call :meth:`Job.tick`, which
raises :class:`Cancelled` once a cancel was asked for.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED = (DONE, FAILED, CANCELLED)
KEEP = 200  # finished jobs remembered (the pages of older ones say they are gone)


class Cancelled(Exception):  # noqa: N818 - a request, not a fault
    """Raised inside a job's work when its cancel was asked for."""


@dataclass
class Job:
    id: str
    kind: str  # run, compare, sweep, trace
    game: str
    title: str
    work: Callable[[Job], Any] = field(repr=False)
    state: str = QUEUED
    done: int = 0
    total: int = 0
    unit: str = "games"
    stage: str = ""  # what it is doing now, in words ("compiling", "defaults", ...)
    result: Any = None
    error: str = ""
    folder: str = ""  # where its results are kept, relative to the results folder
    form: dict = field(default_factory=dict)  # what was asked (to show it again)
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    version: int = 0  # bumped on every change, for the pages that wait for one
    _cancel: threading.Event = field(default_factory=threading.Event, repr=False)

    # ---- called by the work ------------------------------------------------------------
    def tick(self, n: int = 0, stage: str | None = None) -> None:
        """Progress: ``n`` more units done; raises :class:`Cancelled` when asked to stop."""
        if self._cancel.is_set():
            raise Cancelled()
        self.done += int(n)
        if stage is not None:
            self.stage = stage
        self.version += 1

    def expect(self, total: int, unit: str | None = None) -> None:
        self.total = int(total)
        if unit:
            self.unit = unit
        self.version += 1

    # ---- read by the pages -------------------------------------------------------------
    @property
    def finished_state(self) -> bool:
        return self.state in FINISHED

    @property
    def fraction(self) -> float:
        return min(self.done / self.total, 1.0) if self.total else 0.0

    @property
    def seconds(self) -> float | None:
        if self.started is None:
            return None
        return (self.finished or time.time()) - self.started

    @property
    def cancel_asked(self) -> bool:
        return self._cancel.is_set()


class JobQueue:
    """Jobs played by ``slots`` worker threads in the order they were asked for."""

    def __init__(self, slots: int = 1):
        self.slots = max(1, int(slots))
        self.jobs: dict[str, Job] = {}
        self._waiting: deque[Job] = deque()
        self._lock = threading.Condition()
        self._ids = itertools.count(1)
        self._stopping = False
        self._threads = [threading.Thread(target=self._worker, name=f"workbench-job-{i}",
                                          daemon=True) for i in range(self.slots)]
        for t in self._threads:
            t.start()

    def submit(self, kind: str, game: str, title: str, work: Callable[[Job], Any],
               form: dict | None = None, folder: str = "") -> Job:
        with self._lock:
            job = Job(f"{next(self._ids)}", kind, game, title, work, form=dict(form or {}),
                      folder=folder)
            self.jobs[job.id] = job
            self._waiting.append(job)
            self._forget_old()
            self._lock.notify()
        return job

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def position(self, job: Job) -> int:
        """How many jobs are ahead of a queued one (running ones included); 0 when not
        waiting."""
        with self._lock:
            if job.state != QUEUED:
                return 0
            ahead = list(self._waiting).index(job) if job in self._waiting else 0
            return ahead + sum(1 for j in self.jobs.values() if j.state == RUNNING)

    def cancel(self, job: Job) -> None:
        with self._lock:
            job._cancel.set()
            if job.state == QUEUED:
                if job in self._waiting:
                    self._waiting.remove(job)
                job.state = CANCELLED
                job.finished = time.time()
            job.version += 1

    def busy(self) -> list[Job]:
        return [j for j in self.jobs.values() if not j.finished_state]

    def stop(self) -> None:
        """Cancel every job (the server is stopping)."""
        with self._lock:
            self._stopping = True
            for job in list(self.jobs.values()):
                if not job.finished_state:
                    job._cancel.set()
                    if job.state == QUEUED:
                        job.state = CANCELLED
            self._waiting.clear()
            self._lock.notify_all()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        end = time.time() + timeout
        while time.time() < end:
            if not any(j.state == RUNNING for j in self.jobs.values()):
                return True
            time.sleep(0.05)
        return False

    def _forget_old(self) -> None:
        done = [j for j in self.jobs.values() if j.finished_state]
        for j in done[:-KEEP] if len(done) > KEEP else []:
            del self.jobs[j.id]

    def _worker(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._stopping:
                    self._lock.wait()
                if self._stopping:
                    return
                job = self._waiting.popleft()
                job.state = RUNNING
                job.started = time.time()
                job.version += 1
            try:
                job.tick(0)
                job.result = job.work(job)
                job.state = DONE
            except Cancelled:
                job.state = CANCELLED
            except Exception as exc:  # every failure of a job is its page's one line
                from experiments.workbench.errors import one_line

                job.error = one_line(exc)
                job.state = FAILED
            finally:
                job.finished = time.time()
                job.version += 1
