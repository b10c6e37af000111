"""Three facts numba cannot see in the project's jitted code, told to its compiler.

The first two were measured on Tiny Epic Cthulhu, whose games the step engine plays through
one large compiled function (``simcore/tec/NOTES.md``, "The step engine"), the third on Wake
Up's compiling; none changes a result (the records of every game were checked bit-identical
with and without them).

No negative indices
-------------------
For every array element read or written with a signed integer index, numba emits Python's
wraparound, ``i + len if i < 0 else i``: the array's length reloaded and a shift, an ``and``
and an add on each load and store, unless LLVM can prove the index is not negative.  The
games' states are flat int64 arrays addressed by offsets worked out at run time (a
character's block, a Town card's block, a seat's row), so LLVM can almost never prove it: the
wraparound was 7-9% of a Tiny Epic Cthulhu game.  The jitted code of ``simcore`` and
``strategies`` never counts an index from the end of an array (an index there is an offset,
a seat, a card: never negative), so the wraparound never changes a result there.  The test
suite passes with numba's bounds checking on (``NUMBA_BOUNDSCHECK=1``), which turns a negative
index into an ``IndexError`` once the wraparound is gone.

``fix_integer_index`` (what numba's lowering calls for each integer index) is wrapped so
that, in functions compiled from the modules of ``simcore`` and ``strategies``, a signed index
that is not a constant is used as it is.  Everything else keeps numba's behaviour: a constant
index (``a[-1]``), and every function of numba itself, of numpy's implementations, of
``experiments`` and of a user's own strategies.  A negative index in this project's jitted
code is a bug, as an index past the end is.

Distinct arrays in a step game's driver
---------------------------------------
A step game's ``play_one`` (``simcore/<game>/rules.py``, where the engine's driver and the
game's rules are inlined into one function) is called only by the engine's runners
(``engine.run_batch``, ``engine.trace_game``), with the rules' parameters and with state,
mask, stream and record arrays each allocated apart.  numba does not know that, so after
every store into the state LLVM reloads what it read from the parameters, the legal mask and
the streams.  Its array arguments are marked ``noalias`` (what C's ``restrict`` says): 1-3%
of a random Tiny Epic Cthulhu game.

One version of a helper, whatever constants its callers pass
-----------------------------------------------------------
When jitted code calls a jitted function with a constant argument (``frame_set(s, 0, 2)``,
``place_token(..., 1, ...)``), numba types that argument as the literal (``Literal[int](2)``)
and compiles the callee again for each mix of constants: Wake Up's ``frame_set`` was compiled
19 times in one run, ``solo_move`` 8 times, 68 extra compiles in all, each one through numba's
whole pipeline and LLVM.  No function here reads its arguments as types (none uses
``literally`` or indexes a tuple of mixed types with an argument), and LLVM still sees the
constant wherever it inlines the call, so a call from a function of ``simcore`` or
``strategies`` to another is typed with its constants as plain numbers: one version of each
(a cold Wake Up run compiled 45 CPU s before, 38 after; simcore/tec/NOTES.md, "Compiling").
Where a callee does not type that way it is compiled as numba would (the literal types).

All must be in place before the first function is compiled (``simcore/__init__.py``
installs them), and they are part of the sources, so the compiled-code cache
(``simcore._cache``) is keyed on them.  With a numba that lacks the functions wrapped here,
the code compiles as numba compiles it: the same results, slower (``installed()`` says
which; ``tests/test_codegen.py`` checks they are on).
"""

from __future__ import annotations

import re

# the mangled names numba gives the functions of these packages (``_ZN7simcore3tec5rules...``)
_OWN = re.compile(r"_ZN(?:7simcore|10strategies)[0-9]")
# a step game's driver: ``simcore.<game>.rules.play_one``
_PLAY_ONE = re.compile(r"_ZN7simcore[0-9]+[A-Za-z_][A-Za-z_0-9]*5rules8play_one[BE]")
_installed = {"indices": False, "noalias": False, "one_version": False}


def own_function(name: str) -> bool:
    """True for the LLVM name of a function compiled from ``simcore`` or ``strategies``."""
    return _OWN.match(name) is not None


def driver_function(name: str) -> bool:
    """True for the LLVM name of a step game's ``play_one``."""
    return _PLAY_ONE.match(name) is not None


def _install_indices() -> bool:
    from llvmlite import ir
    from numba.core import types
    from numba.np import arrayobj

    numba_fix = getattr(arrayobj, "fix_integer_index", None)
    if numba_fix is None:  # pragma: no cover - another numba: compiled as numba does
        return False

    def fix_integer_index(context, builder, idxty, idx, size):
        if (idxty.signed and not isinstance(idx, ir.Constant)
                and own_function(builder.function.name)):
            return context.cast(builder, idx, idxty, types.uintp)
        return numba_fix(context, builder, idxty, idx, size)

    fix_integer_index.__wrapped__ = numba_fix
    arrayobj.fix_integer_index = fix_integer_index
    return True


def _install_noalias() -> bool:
    from numba.core import callconv

    conv = getattr(callconv, "CPUCallConv", None)
    numba_decorate = getattr(conv, "decorate_function", None)
    if numba_decorate is None:  # pragma: no cover - another numba
        return False

    def decorate_function(self, fn, args, fe_argtypes, noalias=False):
        return numba_decorate(self, fn, args, fe_argtypes,
                              noalias or driver_function(fn.name))

    decorate_function.__wrapped__ = numba_decorate
    conv.decorate_function = decorate_function
    return True


def _own_module(module: str | None) -> bool:
    return bool(module) and module.split(".", 1)[0] in ("simcore", "strategies")


def _install_one_version() -> bool:
    from numba.core import dispatcher, errors, types

    disp = getattr(dispatcher, "Dispatcher", None)
    numba_template = getattr(disp, "get_call_template", None)
    if numba_template is None:  # pragma: no cover - another numba
        return False

    def get_call_template(self, args, kws):
        if (not kws and self._can_compile
                and _own_module(getattr(self.py_func, "__module__", None))):
            plain = tuple(types.unliteral(a) for a in args)
            if plain != tuple(args):
                try:
                    return numba_template(self, plain, kws)
                except (errors.TypingError, errors.ForceLiteralArg):
                    pass  # it needs the constants' types: compiled as numba does
        return numba_template(self, args, kws)

    get_call_template.__wrapped__ = numba_template
    disp.get_call_template = get_call_template
    return True


def install() -> dict[str, bool]:
    """Put all three in place (idempotent); returns which are."""
    if not _installed["indices"]:
        _installed["indices"] = _install_indices()
    if not _installed["noalias"]:
        _installed["noalias"] = _install_noalias()
    if not _installed["one_version"]:
        _installed["one_version"] = _install_one_version()
    return dict(_installed)


def installed() -> dict[str, bool]:
    return dict(_installed)
