"""Four facts numba cannot see in the project's jitted code, told to its compiler, and two
slow parts of numba's own Python made quick.

The first two were measured on Tiny Epic Cthulhu, whose games the step engine plays through
one large compiled function (``simcore/tec/NOTES.md``, "The step engine"), the others on Wake
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

A helper that only jitted code calls needs no machine code of its own
------------------------------------------------------------------------
numba compiles each jitted function into a code library of its own and makes it ready to be
called from Python: a CPython wrapper and a C wrapper are built around it, the library is
optimised with its callees' libraries linked in and turned into machine code, and that is
written to the cache.  A caller links the callee's optimised module in and optimises and
emits it again in its own machine code, so for a helper only jitted code calls (nearly all of
the rules: ``run_reveal``, ``place_token``, ``frame_set`` ...) the wrappers, the machine code
and the cache entry are thrown-away work: in a cold Wake Up run 150 of 169 libraries, a third
of LLVM's time.  A project function compiled because a project function calls it is
compiled for jitted callers only: no wrappers, no machine code (its callers' libraries link
its module in, as before, and emit it), and it is cached as that module (bitcode),
so another process compiling another caller (the other warm-up child, the test process)
loads it instead of compiling it again.  Its dispatcher's entry is a ``JitOnlyEntry``, never
put in the table Python calls through, so a call from Python, or the function taken as a
value (a policy handed to the engine), compiles it again whole, as numba would have (a
jit-only cache entry is never loaded for that); a function compiled first from Python is
compiled whole and serves jitted callers as before.  A cold Wake Up run compiled in 0.75-0.84
of the CPU time, Tiny Epic Cthulhu's in-process 0.73 (simcore/tec/NOTES.md, "Compiling",
step 8).

A jit-only helper's module is linked, not optimised as a whole: numba's ``finalize``
optimises a library's module with all its callees linked in (LLVM's module passes, the
inliner among them), so in a chain of helpers each level optimised again the code of every
level below it, and the library made into machine code then optimised all of it once more.
Each function still goes through LLVM's function passes once, when numba adds it; the
module passes run once, over everything, in the library that becomes machine code (the
driver, a policy), where LLVM's inliner works through the call graph from the leaves up as
the levels did one by one.  In Wake Up's driver those intermediate optimisations were 110 of
the 155 module optimisations and 8 of its 34 CPU seconds of compiling (simcore/tec/NOTES.md,
"Compiling", step 11).

Comparing compiler flags
------------------------
Each call numba types through an ``@overload`` template (numpy's functions, array methods,
many operators) looks its implementation up in a cache keyed on the compiler flags in force,
and numba's flags compare by building a dictionary of all 22 options through a property per
option; their hash is the same for every set of flags, so each look-up compares against every
cached entry of the same argument types.  A cold Wake Up run made about 240,000 such
comparisons at about 15 us each, 3.5 of its 40 CPU seconds (simcore/tec/NOTES.md,
"Compiling", step 10).  ``TargetConfig.__eq__`` is replaced by an equal one that compares the
options set with the defaults filled in, without the dictionaries (0.6 s): the same answers
for every pair of flags (``tests/test_codegen.py``).  The hash is that of the values of the
options of plain types (bool, int, str), the defaults filled in: flags that compare equal
hash equal, and flags that differ there (a jit-only compile's, ``nrt``, ``forceinline`` ...)
no longer share a bucket (step 11).  Nothing compiled differs.

Call types found once
---------------------
numba types every call of one of its own functions (an operator, ``np.empty``, ``min`` ...)
by trying the function's templates in turn, and a template that does not match builds an
error first; nothing remembers the answer, so the same question, ``int64 + int64`` or an
array indexed by an ``int64``, is worked out again at every call site of every function: a
cold Wake Up run asked about 11,000 times, of which about 550 different questions, and the
repeats cost about 3 CPU s.  ``BaseFunction.get_call_type`` now keeps each answer found,
keyed on everything it reads (the function type, the typing context, the argument types, the
keywords and the compiler flags in force), with the implementation key the answer sets for
lowering, which a repeat sets again; a question that fails is not kept, so it raises each
time as before (``tests/test_codegen.py``).  The code compiled is the same, instruction for
instruction (simcore/tec/NOTES.md, "Compiling", step 11).

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
_installed = {
    "indices": False, "noalias": False, "one_version": False, "jit_only": False,
    "flags_eq": False, "call_types": False,
}


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


class JitOnlyEntry:
    """Stands in for the Python entry point of a function compiled for jitted callers only.

    It is never put in the dispatcher's table of what Python can call, so a call from Python
    (or the function taken as a value) compiles the function again, whole."""

    __slots__ = ("qualname", "__weakref__")

    def __init__(self, qualname: str):
        self.qualname = qualname

    def __call__(self, *args, **kws):  # pragma: no cover - the dispatcher never calls it
        raise RuntimeError(f"{self.qualname} was compiled for jitted callers only")

    def __repr__(self) -> str:
        return f"<jit-only {self.qualname}>"


# the dispatcher whose next compile a jitted caller's typing asked for, and, for each compile
# in progress (innermost last), the Python function compiled for jitted callers only (None
# for one compiled whole)
_jit_request: list[object] = [None]
_jit_modes: list[object] = []


def _jit_only_now(fndesc=None) -> bool:
    """Whether the innermost compile is jit-only; with ``fndesc``, whether that function is
    the one it compiles (not a kernel numba compiles on the way, such as a ``prange`` body's)."""
    if not _jit_modes or _jit_modes[-1] is None:
        return False
    if fndesc is None:
        return True
    fn = _jit_modes[-1]
    return fndesc.qualname == fn.__qualname__ and fndesc.modname == fn.__module__


def _jit_only_entry(cres) -> bool:
    return isinstance(getattr(cres, "entry_point", None), JitOnlyEntry)


def _link_module(library):
    """A jit-only library's module for linking into its callers: its own functions (each
    through LLVM's function passes, as numba adds them) with its callees' modules linked in,
    but not optimised as a whole (the library that is made into machine code optimises
    everything it links in, once), no machine code (its callers emit it) and no wrappers
    (none was made)."""
    import llvmlite.binding as ll

    mod = library._final_module.clone()
    seen = set()
    for other in library._linking_libraries:
        if other not in seen:
            seen.add(other)
            library._reload_init.update(other._reload_init)
            mod.link_in(other._get_module_for_linking(), preserve=True)
    mod.verify()
    for fn in mod.functions:
        if not fn.is_declaration and fn.linkage == ll.Linkage.external:
            fn.linkage = "linkonce_odr"
    return mod


_KIND = "cthulhu-sim jit-only"  # how a jit-only library is written to the cache


def _install_jit_only() -> bool:
    import llvmlite.binding as ll
    from numba.core import caching, codegen, cpu, dispatcher, environment, sigutils
    from numba.core.compiler_lock import global_compiler_lock

    disp = getattr(dispatcher, "Dispatcher", None)
    fcomp = getattr(dispatcher, "_FunctionCompiler", None)
    lib = getattr(codegen, "JITCodeLibrary", None)
    jitgen = getattr(codegen, "JITCPUCodegen", None)
    ctx = getattr(cpu, "CPUContext", None)
    cache = getattr(caching, "Cache", None)
    parts = [(disp, "compile"), (disp, "add_overload"), (disp, "get_call_template"),
             (disp, "get_compile_result"), (fcomp, "_customize_flags"),
             (ctx, "get_executable"), (lib, "add_linking_library"),
             (lib, "_get_module_for_linking"), (lib, "serialize_using_object_code"),
             (lib, "_unserialize"), (jitgen, "set_env"), (cache, "load_overload"),
             (lib, "has_dynamic_globals"), (environment, "lookup_environment")]
    if any(getattr(c, name, None) is None for c, name in parts):  # pragma: no cover
        return False  # another numba: every function compiled whole, as numba does
    numba_compile = disp.compile
    numba_add_overload = disp.add_overload
    numba_compile_result = disp.get_compile_result
    template = disp.get_call_template  # one_version's, when it is installed
    numba_flags = fcomp._customize_flags
    numba_executable = ctx.get_executable
    numba_add_linking = lib.add_linking_library
    numba_linking_module = lib._get_module_for_linking
    numba_serialize = lib.serialize_using_object_code
    numba_unserialize = lib._unserialize.__func__
    numba_set_env = jitgen.set_env
    numba_load = cache.load_overload
    numba_dynamic = lib.has_dynamic_globals

    def jit_only_library(library) -> bool:
        return getattr(library, "_cthulhu_jit_only", False) and not library._finalized

    def get_call_template(self, args, kws):
        if self._can_compile and _own_module(getattr(self.py_func, "__module__", None)):
            _jit_request[0] = self
        try:
            return template(self, args, kws)
        finally:
            _jit_request[0] = None

    def compile(self, sig):
        with global_compiler_lock:
            jit_only = _jit_request[0] is self
            _jit_request[0] = None
            args, _ = sigutils.normalize_signature(sig)
            existing = self.overloads.get(tuple(args))
            if not jit_only and existing is not None and _jit_only_entry(existing):
                del self.overloads[tuple(args)]  # wanted from Python now: compiled whole
            _jit_modes.append(self.py_func if jit_only else None)
            try:
                return numba_compile(self, sig)
            finally:
                _jit_modes.pop()

    def get_compile_result(self, sig):
        existing = self.overloads.get(tuple(sig.args))
        if existing is not None and _jit_only_entry(existing):  # taken as a value now
            with global_compiler_lock:
                compile(self, sig)
        return numba_compile_result(self, sig)

    def add_overload(self, cres):
        if _jit_only_entry(cres):  # not callable from Python: left out of the table
            self.overloads[tuple(cres.signature.args)] = cres
            return
        numba_add_overload(self, cres)

    def customize_flags(self, flags):
        flags = numba_flags(self, flags)
        if _jit_only_now():
            flags.no_cpython_wrapper = True
            flags.no_cfunc_wrapper = True
        return flags

    def get_executable(self, library, fndesc, env):
        if _jit_only_now(fndesc) or jit_only_library(library):
            library._cthulhu_jit_only = True
            return JitOnlyEntry(fndesc.qualname)
        cfunc = numba_executable(self, library, fndesc, env)
        # the environments of the jit-only functions linked in, as numba sets those of a
        # cached library's (none of them has machine code of its own to hold one)
        for gv in library._final_module.global_variables:
            if gv.name.startswith("_ZN08NumbaEnv") and gv.name != fndesc.env_name:
                other = environment.lookup_environment(gv.name)
                if other is not None:
                    library.codegen.set_env(gv.name, other)
        return cfunc

    def add_linking_library(self, library):
        if jit_only_library(library):
            self._linking_libraries.append(library)
            return
        numba_add_linking(self, library)

    def get_module_for_linking(self):
        if jit_only_library(self):
            if self._shared_module is None:
                self._shared_module = _link_module(self)
            return self._shared_module
        return numba_linking_module(self)

    def serialize_using_object_code(self):
        if jit_only_library(self):  # its module for linking: there is no machine code
            return (self.name, _KIND, self._get_module_for_linking().as_bitcode())
        return numba_serialize(self)

    def unserialize(cls, codegen_, state):
        name, kind, data = state
        if kind != _KIND:
            return numba_unserialize(cls, codegen_, state)
        self = codegen_.create_library(name)
        self._cthulhu_jit_only = True
        self._shared_module = ll.parse_bitcode(data)
        return self

    def has_dynamic_globals(self):  # asked before caching: a jit-only library's module
        if jit_only_library(self):
            return any(gv.name.startswith("numba.dynamic.globals")
                       for gv in self._get_module_for_linking().global_variables)
        return numba_dynamic.fget(self)

    def set_env(self, env_name, env):
        if self._engine.is_symbol_defined(env_name):  # not a jit-only library's: no code
            numba_set_env(self, env_name, env)

    def load_overload(self, sig, target_context):
        cres = numba_load(self, sig, target_context)
        if cres is not None and _jit_only_entry(cres) and not _jit_only_now():
            return None  # wanted from Python: compiled whole (and written over this one)
        return cres

    for c, name, fn in ((disp, "compile", compile), (disp, "add_overload", add_overload),
                        (disp, "get_call_template", get_call_template),
                        (disp, "get_compile_result", get_compile_result),
                        (fcomp, "_customize_flags", customize_flags),
                        (ctx, "get_executable", get_executable),
                        (lib, "add_linking_library", add_linking_library),
                        (lib, "_get_module_for_linking", get_module_for_linking),
                        (lib, "serialize_using_object_code", serialize_using_object_code),
                        (jitgen, "set_env", set_env), (cache, "load_overload", load_overload)):
        fn.__wrapped__ = getattr(c, name)
        setattr(c, name, fn)
    has_dynamic_globals.__wrapped__ = numba_dynamic.fget
    lib.has_dynamic_globals = property(has_dynamic_globals)
    unserialize.__wrapped__ = numba_unserialize
    lib._unserialize = classmethod(unserialize)
    return True


def _install_flags_eq() -> bool:
    from numba.core import targetconfig

    config = getattr(targetconfig, "TargetConfig", None)
    if config is None or not hasattr(config, "options"):  # pragma: no cover - another numba
        return False
    numba_eq = config.__eq__

    def flags_eq(self, other):
        if self is other:
            return True
        if type(self) is not type(other):
            return numba_eq(self, other)  # numba's own answer (NotImplemented for others)
        mine, theirs = self._values, other._values
        if mine == theirs:
            return True
        options = self.options
        for name in mine.keys() | theirs.keys():
            default = options[name].default
            if mine.get(name, default) != theirs.get(name, default):
                return False
        return True

    numba_hash = config.__hash__
    plain: dict[type, tuple] = {}

    def flags_hash(self):
        # numba's hash is that of the sorted option names, the same for every set of flags
        # of a class, so a look-up compared with every cached entry of the same argument
        # types; this one is that of the options of plain types (bool, int, str: equal
        # values hash equal) with the defaults filled in, so flags that compare equal hash
        # equal and most that differ (jit-only or whole, nrt, inline ...) do not collide
        cls = type(self)
        names = plain.get(cls)
        if names is None:
            names = plain[cls] = tuple(
                (name, opt.default) for name, opt in sorted(self.options.items())
                if opt.type in (bool, int, str))
        values = self._values
        return hash(tuple(values.get(name, default) for name, default in names))

    flags_eq.__wrapped__ = numba_eq
    flags_hash.__wrapped__ = numba_hash
    config.__eq__ = flags_eq
    config.__hash__ = flags_hash
    return True


def _install_call_types() -> bool:
    from numba.core import targetconfig
    from numba.core.types import functions

    base = getattr(functions, "BaseFunction", None)
    numba_call_type = getattr(base, "get_call_type", None)
    if numba_call_type is None or not hasattr(targetconfig, "ConfigStack"):  # pragma: no cover
        return False
    top_flags = targetconfig.ConfigStack.top_or_none
    memo: dict[tuple, tuple] = {}

    def get_call_type(self, context, args, kws):
        try:
            key = (self, context, tuple(args), tuple(kws.items()), top_flags())
            found = memo.get(key)
        except TypeError:  # an argument type that does not hash: resolved as numba does
            return numba_call_type(self, context, args, kws)
        if found is not None:
            sig, impl_key = found
            self._impl_keys[sig.args] = impl_key  # what the template found sets, as before
            return sig
        sig = numba_call_type(self, context, args, kws)  # a failure raises: never kept
        if sig is not None and sig.args in self._impl_keys:  # (numba sets it with the answer)
            memo[key] = (sig, self._impl_keys[sig.args])
        return sig

    get_call_type.__wrapped__ = numba_call_type
    get_call_type.memo = memo
    base.get_call_type = get_call_type
    return True


def install() -> dict[str, bool]:
    """Put all five in place (idempotent); returns which are."""
    if not _installed["indices"]:
        _installed["indices"] = _install_indices()
    if not _installed["noalias"]:
        _installed["noalias"] = _install_noalias()
    if not _installed["one_version"]:
        _installed["one_version"] = _install_one_version()
    if not _installed["jit_only"]:
        _installed["jit_only"] = _install_jit_only()
    if not _installed["flags_eq"]:
        _installed["flags_eq"] = _install_flags_eq()
    if not _installed["call_types"]:
        _installed["call_types"] = _install_call_types()
    return dict(_installed)


def installed() -> dict[str, bool]:
    return dict(_installed)
