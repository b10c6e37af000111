"""Shared fixtures: small game counts everywhere; large runs belong in benchmarks."""

import numba
import pytest

import strategies  # noqa: F401  (registers the strategies Game.configure looks up)
from simcore.registry import get_game


def pytest_sessionstart(session):
    """A cold cache (a fresh clone, CI, an edit to a game): compile every game's default run
    in parallel processes first, on every core, instead of one test after another on one."""
    import os
    import sys

    if os.environ.get("PYTEST_XDIST_WORKER") or os.environ.get("CTHULHU_SIM_NO_WARM"):
        return
    from experiments.running.warmup import cold, warm
    from simcore.registry import game_names

    todo = cold([(name, None) for name in game_names()])
    if not todo:
        return
    names = ", ".join(g for g, _ in todo)
    print(f"\ncompiling {names} in parallel first (a cold cache) ...", file=sys.stderr,
          flush=True)
    seconds = warm(todo)
    print(f"compiled in {seconds:.0f} s", file=sys.stderr, flush=True)


def dispatcher_keyed_overloads() -> list[str]:
    """The project's cached jitted functions compiled in this process with a dispatcher as an
    argument (not a function value).  Such a version is keyed on the dispatcher object, so it
    is never loaded again; each run adds one to the cache index until numba can no longer save
    it (``search_once`` shows the way: a runner ``ready`` for function values)."""
    import sys

    from numba.core import types
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    def holds_dispatcher(t) -> bool:
        if isinstance(t, types.Dispatcher):
            return True
        return isinstance(t, types.BaseTuple) and any(holds_dispatcher(u) for u in t.types)

    found = set()
    for name, module in list(sys.modules.items()):
        # the step engine and search, whose cached functions take the games' functions
        # (a callback game's rules take its strategy's dispatcher by design, e.g. sticky)
        if name not in ("simcore.engine", "strategies.search"):
            continue
        for fn in list(vars(module).values()):
            if not isinstance(fn, CPUDispatcher) or isinstance(fn._cache, NullCache):
                continue
            for sig in fn.signatures:
                if any(holds_dispatcher(t) for t in sig):
                    found.add(f"{fn.py_func.__module__}.{fn.py_func.__name__}")
    return sorted(found)


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (the suite's default): a worker a core, at most 4 (each holds its own
    compiled code, about 0.5 GB; past 4 the suite's longest files set the time anyway)."""
    import os

    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))


_WORKERS_FOUND: set[str] = set()


def pytest_testnodedown(node, error):
    """The controller of an ``-n`` run gathers what each worker's check found."""
    _WORKERS_FOUND.update(getattr(node, "workeroutput", {}).get("dispatcher_keyed", ()))


def pytest_sessionfinish(session, exitstatus):
    """A run that compiled a cached function for a dispatcher argument fails: see
    ``dispatcher_keyed_overloads``.  Under pytest-xdist each worker checks its own process and
    hands the names to the controller, which fails the run."""
    import sys

    bad = sorted(set(dispatcher_keyed_overloads()) | _WORKERS_FOUND)
    worker_output = getattr(session.config, "workeroutput", None)
    if worker_output is not None:
        worker_output["dispatcher_keyed"] = bad
        return
    if bad:
        print(f"\ncompiled for a dispatcher argument (never loadable, fills the cache index): "
              f"{', '.join(bad)}; call it through a runner made ready for function values",
              file=sys.stderr)
        session.exitstatus = 1


@pytest.fixture(scope="session")
def sticky():
    return get_game("sticky")


@pytest.fixture
def restore_threads():
    """Put numba's thread count back after a test that changes it."""
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)
