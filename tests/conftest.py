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


@pytest.fixture(scope="session")
def sticky():
    return get_game("sticky")


@pytest.fixture
def restore_threads():
    """Put numba's thread count back after a test that changes it."""
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)
