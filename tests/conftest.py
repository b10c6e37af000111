"""Shared fixtures: small game counts everywhere; large runs belong in benchmarks."""

import pytest

from simcore.registry import get_game


@pytest.fixture(scope="session")
def sticky():
    return get_game("sticky")
