"""Where numba caches compiled code: one folder per game and version of what it is built from.

numba's own cache (cache=True) is keyed on each function's source file, so editing a helper in
one file can leave stale machine code cached for its callers in another (a game's ``play_one``
inlines the engine's driver, its rules inline the engine's frame helpers).  So the project's
compiled code is keyed on a hash of every source file it can be built from, in groups:

- ``core``: the shared files (``simcore/*.py``, and the files of ``strategies/`` that belong to
  no game: search, the registry, the common kernels).  Compiled code of the core never holds a
  game's code: the engine's runners and search take the games' functions as first-class
  function values, called through a pointer.
- one group per game: its folder ``simcore/<game>/`` and its strategies ``strategies/<game>.py``,
  with the core (which its code inlines), and any other group whose modules its files import.

A function compiled from a group's files is cached in ``<root>/<group>-<hash>/``, where the hash
covers exactly the group's files: an edit to the hex rules leaves Tiny Epic Cthulhu's compiled
code valid, an edit to the shared engine compiles every game afresh, and a stale version is
never used (its folder is another).  The folder does not depend on where the checkout lies, so
a second clone of the same sources (a CI check, a worktree) loads what the first compiled.

Functions compiled from anywhere else (``experiments``, the tests, a user's strategy) keep
numba's own locator in ``<root>/numba-<hash of simcore and strategies>``, as before: whatever
of the project they inline, that folder changes with it.

``<root>`` is ``$CTHULHU_SIM_CACHE`` or ``$XDG_CACHE_HOME/cthulhu-sim`` or
``~/.cache/cthulhu-sim``; where ``NUMBA_CACHE_DIR`` is set (a user's choice, or the draw-counting
build of ``experiments.speed.rng_floor``), everything goes inside that folder instead.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("simcore", "strategies")
CORE = "core"
# an import of another project module (``from simcore.hex.rules import ...``)
_IMPORT = re.compile(r"^\s*(?:from|import)\s+(simcore|strategies)\.([A-Za-z_][A-Za-z_0-9]*)",
                     re.MULTILINE)


def _files(root: Path = _ROOT) -> list[Path]:
    return [p for pkg in _PACKAGES for p in sorted((root / pkg).rglob("*.py"))]


@functools.cache
def _game_groups(root: Path) -> tuple[str, ...]:
    return tuple(sorted(p.parent.name for p in (root / "simcore").glob("*/__init__.py")))


def game_groups(root: Path = _ROOT) -> list[str]:
    """The games' groups: the packages under ``simcore/`` (one folder per game)."""
    if root == _ROOT:
        return list(_game_groups(root))
    return sorted(p.parent.name for p in (root / "simcore").glob("*/__init__.py"))


def group_of(path: Path, root: Path = _ROOT) -> str | None:
    """The group a source file belongs to (None for a file outside simcore and strategies)."""
    try:
        rel = Path(path).resolve().relative_to(root.resolve())
    except ValueError:
        return None
    parts = rel.parts
    if len(parts) < 2 or parts[0] not in _PACKAGES or not parts[-1].endswith(".py"):
        return None
    games = game_groups(root)
    if parts[0] == "simcore" and len(parts) > 2 and parts[1] in games:
        return parts[1]
    if parts[0] == "strategies" and len(parts) == 2 and parts[1][:-3] in games:
        return parts[1][:-3]
    return CORE


def group_files(group: str, root: Path = _ROOT) -> list[Path]:
    """Every file the compiled code of ``group`` can be built from: its own, the core's, and
    those of every group its files import (followed to the end)."""
    files = _files(root)
    member = {p: group_of(p, root) for p in files}
    games = set(game_groups(root))
    wanted = {CORE, group}
    todo = [group]
    while todo:
        g = todo.pop()
        for p in files:
            if member[p] != g:
                continue
            for _pkg, name in _IMPORT.findall(p.read_text(encoding="utf-8", errors="replace")):
                other = name if name in games else CORE
                if other not in wanted:
                    wanted.add(other)
                    todo.append(other)
    return [p for p in files if member[p] in wanted]


def _hash(paths: list[Path], root: Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def group_hash(group: str, root: Path = _ROOT) -> str:
    """The version of ``group``'s compiled code: a hash of :func:`group_files`."""
    return _hash(group_files(group, root), root)


def source_hash() -> str:
    """A hash of every source file of simcore and strategies (the version a sweep or a run
    folder records, and the cache key of code compiled outside the project's packages)."""
    return _hash(_files(_ROOT), _ROOT)


@functools.cache
def _group_folder(group: str) -> str:
    return f"{group}-{group_hash(group)}"


def cache_root() -> str:
    base = os.environ.get("CTHULHU_SIM_CACHE")
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        base = os.path.join(xdg, "cthulhu-sim")
    return base


def _install_locator(root: str) -> None:
    """Put the project's locator first in numba's list (once per process)."""
    from numba.core import caching

    class ProjectCacheLocator(caching.UserProvidedCacheLocator):
        """Functions of simcore and strategies, cached in their group's folder."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            group = group_of(Path(py_file))
            rel = Path(py_file).resolve().relative_to(_ROOT).parent.as_posix().replace("/", "_")
            self._cache_path = os.path.join(root, _group_folder(group), rel)

        @classmethod
        def from_function(cls, py_func, py_file):
            if group_of(Path(py_file)) is None:
                return None  # not the project's: numba's own locators
            return caching._SourceFileBackedLocatorMixin.from_function.__func__(
                cls, py_func, py_file)

    classes = caching.CacheImpl._locator_classes
    classes[:] = [c for c in classes if c.__name__ != "ProjectCacheLocator"]
    classes.insert(0, ProjectCacheLocator)


def cache_folder_of(dispatcher) -> str:
    """The folder a jitted function of the project is cached in (for tests and tools)."""
    return dispatcher._cache._cache_path


_state: dict[str, str | None] = {"root": None, "numba_dir_set": None}


WARM_MARK = "compiled"  # a group folder's note that a run's parts were compiled into it


def group_cached(group: str) -> bool:
    """Whether a group's folder holds a whole run's compiled code (``mark_compiled``): False
    in a fresh cache and after an edit to one of the group's files (its folder's name
    changes).  Files alone do not tell: numba makes the folders when a module is imported,
    and the few functions fixed to their signatures compile then."""
    root = _state["root"]
    return root is not None and os.path.isfile(
        os.path.join(root, _group_folder(group), WARM_MARK))


def mark_compiled(group: str) -> None:
    root = _state["root"]
    if root is None:
        return
    folder = os.path.join(root, _group_folder(group))
    try:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, WARM_MARK), "w") as fh:
            fh.write("written by cthulhu-sim once this group's code was compiled\n")
    except OSError:
        pass


def child_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a child process that is to share this process's cache: without
    the NUMBA_CACHE_DIR this module set (the child would take it for the root)."""
    out = dict(os.environ if env is None else env)
    if _state["numba_dir_set"] is not None and out.get("NUMBA_CACHE_DIR") == _state[
            "numba_dir_set"]:
        del out["NUMBA_CACHE_DIR"]
    return out


def configure_numba_cache() -> None:
    """Point numba at the cache folders for this exact version of the sources."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen and chosen != _state["numba_dir_set"]:
        root = chosen
    else:
        root = cache_root()
        target = os.path.join(root, "numba-" + source_hash())
        try:
            os.makedirs(target, exist_ok=True)
        except OSError:
            return  # unwritable: numba falls back to its default locations
        os.environ["NUMBA_CACHE_DIR"] = target
        _state["numba_dir_set"] = target
        import numba

        numba.config.CACHE_DIR = target
    try:
        os.makedirs(root, exist_ok=True)
    except OSError:
        return
    _state["root"] = root
    _install_locator(root)
