"""simcore._codegen: what the project tells numba's code generator, and that it stays within
the project's own functions (the reasons and measurements are in simcore/_codegen.py)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types
from numba.core.funcdesc import default_mangler

import simcore
from simcore import _codegen


def test_all_three_are_installed_by_importing_simcore():
    assert simcore._codegen.installed() == {"indices": True, "noalias": True, "one_version": True}
    assert _codegen.install() == {"indices": True, "noalias": True,
                                "one_version": True}  # idempotent


@pytest.mark.parametrize("qualname, own, driver", [
    ("simcore.tec.rules.play_one", True, True),
    ("simcore.hex.rules.play_one", True, True),
    ("simcore.wakeup.rules.play_one", True, True),
    ("simcore.tec.rules.step", True, False),
    ("simcore.engine.run_batch", True, False),
    ("strategies.tec.heuristic", True, False),
    ("experiments.speed.rng_floor.count", False, False),
    ("numba.np.arraymath.sort", False, False),
    ("mystrategies.tec.play_one", False, False),
    ("simcorex.rules.play_one", False, False),
])
def test_which_functions_are_the_projects_and_which_are_drivers(qualname, own, driver):
    for tags in ((), ("v1223",)):  # compiled functions carry an ABI tag after the name
        name = default_mangler(qualname, [types.int64[::1]], abi_tags=tags)
        assert _codegen.own_function(name) is own
        assert _codegen.driver_function(name) is driver


def _reader(module):
    def read(a, i):
        return a[i]
    read.__module__ = module
    return njit(boundscheck=True)(read)


def _last(module):
    def last(a):
        return a[-1]
    last.__module__ = module
    return njit(boundscheck=True)(last)


def test_a_negative_index_is_an_error_in_the_projects_code_only():
    """With the wraparound gone, bounds checking (NUMBA_BOUNDSCHECK=1 for the whole suite)
    catches a negative index in the project's functions; elsewhere numba's Python semantics
    stay, and a constant index counts from the end everywhere."""
    a = np.arange(5, dtype=np.int64)
    own = _reader("simcore._codegen_probe")
    assert own(a, 3) == 3
    with pytest.raises(IndexError):
        own(a, -1)
    assert _reader("tests.test_codegen")(a, -1) == 4
    assert _last("simcore._codegen_probe")(a) == 4


def _helper_and_caller(module):
    """A helper and a caller passing it constants, compiled as if from ``module``."""
    def add(a, i, v):
        a[i] += v

    add.__module__ = module
    helper = njit(add)

    def calling(a):
        helper(a, 0, 1)
        helper(a, 1, 2)
        helper(a, 2, -3)
        return a.sum()
    calling.__module__ = module
    return helper, njit(calling)


def test_a_helper_called_with_constants_compiles_once_in_the_projects_code():
    """Constants passed to a project helper are typed as plain integers: one version of it,
    not one per mix of constants; elsewhere numba's literal versions stay."""
    a = np.zeros(3, dtype=np.int64)
    helper, caller = _helper_and_caller("simcore._codegen_probe")
    assert caller(a) == 0 and list(a) == [1, 2, -3]
    assert len(helper.signatures) == 1
    assert all(not isinstance(t, types.Literal) for t in helper.signatures[0])
    other_helper, other = _helper_and_caller("tests.test_codegen")
    assert other(np.zeros(3, dtype=np.int64)) == 0
    assert len(other_helper.signatures) == 3  # numba's own way: a version per constant


def test_a_helper_that_needs_its_constant_still_gets_it():
    """A helper that can only be typed with the constant (indexing a tuple of mixed types
    by its argument) is compiled as numba does."""
    def pick(t, i):
        return t[i]

    pick.__module__ = "simcore._codegen_probe"
    pick_jit = njit(pick)

    def using(x):
        t = (x, 2.5)
        return pick_jit(t, 0) + pick_jit(t, 1)
    using.__module__ = "simcore._codegen_probe"
    assert njit(using)(1) == 3.5
