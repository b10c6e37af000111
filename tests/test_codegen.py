"""simcore._codegen: what the project tells numba's code generator, and that it stays within
the project's own functions (the reasons and measurements are in simcore/_codegen.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit, types
from numba.core.funcdesc import default_mangler

import simcore
from simcore import _codegen


def test_all_six_are_installed_by_importing_simcore():
    every = {"indices": True, "noalias": True, "one_version": True, "jit_only": True,
             "flags_eq": True, "call_types": True}
    assert simcore._codegen.installed() == every
    assert _codegen.install() == every  # idempotent


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


_PROBE = """
from numba import njit


@njit(cache=True)
def helper(a, i):
    if i < 0:
        raise ValueError("negative")
    a[i] += 1
    return a[i]


@njit(cache=True)
def caller(a, i):
    return helper(a, i) + helper(a, i)


@njit(cache=True)
def other_caller(a):
    return helper(a, 0) * 10
"""


def _probe_module(tmp_path, name, source=_PROBE):
    """The probe's functions (``source``) from a file of their own (so numba can cache
    them), under the module name ``name``."""
    import importlib.util
    import sys

    src = tmp_path / (name.replace(".", "_") + ".py")
    src.write_text(source)
    spec = importlib.util.spec_from_file_location(name, src)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # numba finds a function's globals through it
    spec.loader.exec_module(mod)
    return mod


def _cached(dispatcher, what):
    """Whether numba's cache folder holds an index for the probe's function ``what``."""
    import os
    from pathlib import Path

    stem = Path(dispatcher.py_func.__code__.co_filename).stem
    return any(f.startswith(f"{stem}.{what}-") and f.endswith(".nbi")
               for f in os.listdir(dispatcher._cache._cache_path))


def test_a_helper_only_jitted_code_calls_gets_no_entry_point_of_its_own(tmp_path):
    """A project helper compiled for a jitted caller: no Python entry point and no machine
    code of its own (its callers' code holds it); the caller works, raises the helper's
    exceptions, and both are cached (the helper as the module its callers link in)."""
    mod = _probe_module(tmp_path, "simcore._codegen_probe_jit_only")
    a = np.zeros(2, dtype=np.int64)
    assert mod.caller(a, 1) == 3 and list(a) == [0, 2]
    (cres,) = mod.helper.overloads.values()
    assert isinstance(cres.entry_point, _codegen.JitOnlyEntry)
    assert not cres.library._finalized  # no machine code of its own
    assert mod.other_caller(a) == 10  # a second caller links the same module
    with pytest.raises(ValueError, match="negative"):
        mod.caller(a, -1)
    assert _cached(mod.caller, "caller") and _cached(mod.helper, "helper")


def test_a_jit_only_helper_called_from_python_is_compiled_whole(tmp_path):
    mod = _probe_module(tmp_path, "simcore._codegen_probe_realise")
    a = np.zeros(2, dtype=np.int64)
    mod.caller(a, 0)
    assert isinstance(mod.helper.overloads[mod.helper.signatures[0]].entry_point,
                      _codegen.JitOnlyEntry)
    assert mod.helper(a, 0) == 3  # from Python now
    (cres,) = mod.helper.overloads.values()
    assert not isinstance(cres.entry_point, _codegen.JitOnlyEntry)
    assert mod.helper(a, 0) == 4 and mod.caller(a, 0) == 11  # and jitted callers still work


def test_a_jit_only_helper_taken_as_a_function_value_is_compiled_whole(tmp_path):
    """A policy handed to the engine is a first-class function value: it needs the wrapper
    a jit-only compile leaves out, so it is compiled again, whole."""
    mod = _probe_module(tmp_path, "simcore._codegen_probe_value")
    a = np.zeros(2, dtype=np.int64)
    mod.caller(a, 0)
    fn_type = types.FunctionType(types.int64(types.int64[::1], types.int64))

    @njit(types.int64(fn_type, types.int64[::1]))
    def apply(fn, arr):
        return fn(arr, 1)

    assert apply(mod.helper, a) == 1
    (cres,) = mod.helper.overloads.values()
    assert not isinstance(cres.entry_point, _codegen.JitOnlyEntry)


_PROCESS = """
import importlib.util
import sys

import numpy as np

import simcore  # noqa: F401  (what the project tells numba)
from simcore import _codegen

spec = importlib.util.spec_from_file_location("simcore._codegen_probe_processes", {file!r})
mod = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = mod
spec.loader.exec_module(mod)
a = np.zeros(2, dtype=np.int64)
out = getattr(mod, {first!r})(a, 0) if {first!r} != "other_caller" else mod.other_caller(a)
(cres,) = mod.helper.overloads.values()
print(out, isinstance(cres.entry_point, _codegen.JitOnlyEntry),
      sum(mod.helper.stats.cache_hits.values()))
"""


def test_a_jit_only_helper_in_the_cache_serves_jitted_callers_of_other_processes(tmp_path):
    """Process 1 compiles the helper for its caller and caches it as jit-only; process 2
    compiles another caller and loads the helper from the cache instead of compiling it;
    process 3 calls the helper from Python: the jit-only entry is not used for that, the
    helper is compiled whole (and cached: process 4 loads it)."""
    import subprocess
    import sys

    src = tmp_path / "probe_processes.py"
    src.write_text(_PROBE)

    def run(first):
        code = _PROCESS.format(file=str(src), first=first)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout.split()

    assert run("caller") == ["3", "True", "0"]
    assert run("other_caller") == ["10", "True", "1"]
    assert run("helper") == ["1", "False", "0"]
    assert run("helper") == ["1", "False", "1"]


def test_functions_outside_the_project_are_compiled_as_numba_does(tmp_path):
    mod = _probe_module(tmp_path, "tests._codegen_probe_elsewhere")
    mod.caller(np.zeros(2, dtype=np.int64), 0)
    (cres,) = mod.helper.overloads.values()
    assert not isinstance(cres.entry_point, _codegen.JitOnlyEntry)
    assert _cached(mod.helper, "helper")


def test_a_jit_only_helper_that_prints_finds_its_environment(tmp_path, capfd):
    """``print`` in jitted code reads the function's environment; a jit-only helper has no
    machine code of its own to hold one, so its caller's sets it (as numba does for cached
    code)."""
    src = tmp_path / "probe_print.py"
    src.write_text("from numba import njit\n\n\n@njit\ndef helper(a):\n"
                   "    print('helper says', a[0], a.sum())\n    return a[0]\n\n\n"
                   "@njit\ndef caller(a):\n    return helper(a) + 1\n")
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("simcore._codegen_probe_print", src)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    assert mod.caller(np.arange(3, dtype=np.int64)) == 1
    (cres,) = mod.helper.overloads.values()
    assert isinstance(cres.entry_point, _codegen.JitOnlyEntry)
    assert "helper says 0 3" in capfd.readouterr().out


def test_a_jit_only_helper_with_a_parallel_loop(tmp_path):
    """numba compiles a ``prange`` body as a kernel of its own while it compiles the helper:
    that kernel is compiled whole (it is not the jit-only function)."""
    src = tmp_path / "probe_parallel.py"
    src.write_text("import numpy as np\nfrom numba import njit, prange\n\n\n"
                   "@njit(parallel=True)\ndef helper(a):\n    t = 0\n"
                   "    for i in prange(a.shape[0]):\n        t += a[i]\n    return t\n\n\n"
                   "@njit\ndef caller(a):\n    return helper(a) * 2\n")
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("simcore._codegen_probe_parallel", src)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    assert mod.caller(np.arange(100, dtype=np.int64)) == 9900
    (cres,) = mod.helper.overloads.values()
    assert isinstance(cres.entry_point, _codegen.JitOnlyEntry)


_CHAIN = """
from numba import njit


@njit(cache=True)
def leaf(a, i):
    a[i] += 1
    return a[i]


@njit(cache=True)
def middle(a, i):
    return leaf(a, i) * 2


@njit(cache=True)
def top(a):
    return middle(a, 0) + middle(a, 1)
"""


def test_a_chain_of_jit_only_helpers_is_optimised_once_in_the_library_made_into_code(
        tmp_path, monkeypatch):
    """LLVM's module passes run once, in the library that becomes machine code (``top``),
    over everything it links in; the jit-only helpers below it (``middle``, ``leaf``) are
    linked, not optimised as a whole at each level (simcore/_codegen.py), and a helper's
    module for linking still holds what it calls, so the cache can serve it alone."""
    from numba.core import codegen

    optimised = []
    numba_optimise = codegen.CPUCodeLibrary._optimize_final_module

    def counting(self):
        optimised.append(self.name)
        return numba_optimise(self)

    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module", counting)
    mod = _probe_module(tmp_path, "simcore._codegen_probe_chain", _CHAIN)
    a = np.zeros(2, dtype=np.int64)
    assert mod.top(a) == 4 and list(a) == [1, 1]
    for helper in (mod.middle, mod.leaf):
        (cres,) = helper.overloads.values()
        assert isinstance(cres.entry_point, _codegen.JitOnlyEntry)
    assert optimised == ["top"]  # not middle's nor leaf's
    (middle,) = mod.middle.overloads.values()
    defined = [f.name for f in middle.library._get_module_for_linking().functions
               if not f.is_declaration]
    assert any("leaf" in n for n in defined) and any("middle" in n for n in defined)


# the options of numba's compiler flags that compiles here set, each with its default first
_FLAG_VALUES = {
    "nrt": [False, True], "no_cpython_wrapper": [False, True], "boundscheck": [False, True],
    "forceinline": [False, True], "enable_ssa": [True, False], "no_rewrites": [False, True],
    "error_model": ["python", "numpy"], "fastmath": [set(), {"nnan"}, True],
    "inline": ["never", "always"], "debuginfo": [False, True],
}


_SOME_FLAGS = st.lists(st.tuples(st.sampled_from(sorted(_FLAG_VALUES)), st.integers(0, 2)),
                       max_size=6)


@settings(max_examples=300, deadline=None)
@given(_SOME_FLAGS, _SOME_FLAGS)
def test_compiler_flags_compare_as_numba_compares_them(set_a, set_b):
    """The quick ``TargetConfig.__eq__`` gives numba's own answer for every pair of flags,
    an option set to its default included (simcore/_codegen.py, "Comparing compiler flags")."""
    from numba.core.compiler import Flags
    from numba.core.targetconfig import TargetConfig

    assert TargetConfig.__eq__ is not TargetConfig.__eq__.__wrapped__  # installed
    flags = []
    for chosen in (set_a, set_b):
        f = Flags()
        for name, i in chosen:
            values = _FLAG_VALUES[name]
            setattr(f, name, values[i % len(values)])
        flags.append(f)
    a, b = flags
    numba_eq = TargetConfig.__eq__.__wrapped__
    assert (a == b) is numba_eq(a, b) is (b == a)
    assert a == Flags(a)
    assert (a == 1) is False and a.__eq__(1) is NotImplemented


def test_a_call_type_found_once_is_numbas_answer_again():
    """The memo of call types (simcore/_codegen.py, "Call types found once") answers a
    repeated question as numba's own resolution does, sets the implementation key lowering
    reads as that resolution does, and keeps no failure: a call that does not type raises
    every time."""
    import operator

    from numba.core import errors
    from numba.core.registry import cpu_target
    from numba.core.types import functions

    memo_call_type = functions.BaseFunction.get_call_type
    numba_call_type = memo_call_type.__wrapped__
    context = cpu_target.typing_context
    context.refresh()
    add = context.resolve_value_type(operator.add)
    empty = context.resolve_value_type(np.empty)
    questions = [(add, (types.int64, types.int64)), (add, (types.float64, types.int64)),
                 (add, (types.Array(types.int64, 1, "C"), types.int64)),
                 (empty, (types.int64, types.NumberClass(types.uint8))),
                 (add, (types.literal(2), types.int64))]
    for fnty, args in questions:
        first = memo_call_type(fnty, context, args, {})
        key = fnty._impl_keys[first.args]
        fnty._impl_keys[first.args] = "clobbered"
        again = memo_call_type(fnty, context, args, {})  # from the memo
        assert again == first == numba_call_type(fnty, context, args, {})
        assert fnty._impl_keys[again.args] == key
    bad = (types.unicode_type, types.Array(types.int64, 1, "C"))
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            memo_call_type(add, context, bad, {})
    assert not any(k[0] is add and k[2] == bad for k in memo_call_type.memo)


@settings(max_examples=200, deadline=None)
@given(_SOME_FLAGS, _SOME_FLAGS)
def test_flags_that_compare_equal_hash_equal(set_a, set_b):
    """The flags' hash (the plain options' values, defaults filled in) agrees with their
    equality: equal flags hash equal, whatever options were set to their defaults."""
    from numba.core.compiler import Flags

    a, b = Flags(), Flags()
    for flags, chosen in ((a, set_a), (b, set_b)):
        for name, k in chosen:
            values = _FLAG_VALUES[name]
            setattr(flags, name, values[k % len(values)])
    if a == b:
        assert hash(a) == hash(b)
    assert hash(a) == hash(Flags(a))
