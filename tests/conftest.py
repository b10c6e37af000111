"""Shared fixtures: small game counts everywhere; large runs belong in benchmarks."""

import numba
import pytest

import strategies  # noqa: F401  (registers the strategies Game.configure looks up)
from simcore.registry import get_game


@pytest.fixture(scope="session")
def sticky():
    return get_game("sticky")


@pytest.fixture
def restore_threads():
    """Put numba's thread count back after a test that changes it."""
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)
