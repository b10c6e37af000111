"""The compiled-code cache is keyed per game (simcore._cache): an edit to one game leaves the
others' compiled code valid, an edit to the shared core compiles every game afresh, and a stale
version is never loaded."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simcore import _cache
from simcore._cache import CORE, cache_folder_of, game_groups, group_files, group_hash, group_of

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("hex", "sticky", "tec", "wakeup")


@pytest.fixture
def tree(tmp_path):
    """A copy of the project's jitted packages to edit."""
    root = tmp_path / "tree"
    for pkg in ("simcore", "strategies"):
        shutil.copytree(ROOT / pkg, root / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def keys(root: Path) -> dict[str, str]:
    return {g: group_hash(g, root) for g in (CORE, *GAMES)}


def touch(path: Path) -> None:
    path.write_text(path.read_text() + "\n# an edit\n")


def test_the_games_are_the_packages_under_simcore():
    assert set(GAMES) <= set(game_groups())


def test_each_file_belongs_to_its_game_or_the_core():
    assert group_of(ROOT / "simcore/hex/rules.py") == "hex"
    assert group_of(ROOT / "strategies/tec.py") == "tec"
    assert group_of(ROOT / "simcore/engine.py") == CORE
    assert group_of(ROOT / "strategies/search.py") == CORE
    assert group_of(ROOT / "experiments/running/runner.py") is None
    assert group_of(ROOT / "tests/test_compile_cache.py") is None


def test_a_games_key_covers_the_core_and_its_own_files_only():
    files = {p.relative_to(ROOT).as_posix() for p in group_files("hex")}
    assert "simcore/engine.py" in files and "strategies/search.py" in files
    assert "simcore/hex/rules.py" in files and "strategies/hex.py" in files
    assert not any(f.startswith(("simcore/tec/", "simcore/wakeup/", "simcore/sticky/"))
                   for f in files)
    assert "strategies/tec.py" not in files
    core = {p.relative_to(ROOT).as_posix() for p in group_files(CORE)}
    assert core < files and not any(f.startswith("simcore/hex/") for f in core)


@pytest.mark.parametrize("edited", ["simcore/hex/rules.py", "strategies/hex.py",
                                    "simcore/hex/state.py"])
def test_an_edit_to_the_hex_game_changes_its_key_only(tree, edited):
    before = keys(tree)
    touch(tree / edited)
    after = keys(tree)
    assert after["hex"] != before["hex"]
    assert {g: after[g] for g in after if g != "hex"} == {g: before[g] for g in before
                                                         if g != "hex"}


@pytest.mark.parametrize("edited", ["simcore/engine.py", "simcore/kernels.py",
                                    "strategies/search.py", "simcore/_codegen.py"])
def test_an_edit_to_the_shared_core_changes_every_key(tree, edited):
    before = keys(tree)
    touch(tree / edited)
    after = keys(tree)
    assert all(after[g] != before[g] for g in after)


def test_a_game_that_imports_another_is_keyed_on_both(tree):
    new = tree / "simcore" / "newgame"
    new.mkdir()
    (new / "__init__.py").write_text("")
    (new / "rules.py").write_text("from simcore.hex import state as S\n")
    before = group_hash("newgame", tree)
    touch(tree / "simcore/hex/state.py")
    with_hex = group_hash("newgame", tree)
    assert with_hex != before
    touch(tree / "simcore/tec/rules.py")  # a game it does not import
    assert group_hash("newgame", tree) == with_hex


def test_the_projects_functions_are_cached_in_their_groups_folders():
    import simcore.engine as engine
    import simcore.hex.rules as hex_rules
    import simcore.kernels as kernels

    hex_folder = cache_folder_of(hex_rules.play_one)
    assert f"hex-{group_hash('hex')}" in hex_folder
    assert f"{CORE}-{group_hash(CORE)}" in cache_folder_of(engine.run_batch)
    assert f"{CORE}-{group_hash(CORE)}" in cache_folder_of(kernels.rng_seed)
    # the folder names no path of the checkout: a second clone of the same sources reuses it
    assert str(ROOT) not in hex_folder.replace(_cache.cache_root(), "")


# ---- a compiled function with an inlined helper from another file, end to end ------------------
HELPER = '''from numba import njit


@njit(cache=True, inline="always")
def helper():
    return {value}
'''
CALLER = '''from numba import njit

from simcore.zz_helper import helper


@njit(cache=True)
def answer():
    return helper()
'''
PROBE = '''import simcore  # the project's cache folders
from simcore.zzgame.rules import answer

print(answer(), answer.stats.cache_hits and 1 or 0)
'''


def compiled_answer(tree: Path, cache: Path) -> tuple[int, int]:
    env = dict(os.environ, CTHULHU_SIM_CACHE=str(cache), PYTHONPATH=str(tree))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, env=env, text=True,
                          capture_output=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    value, hit = done.stdout.split()
    return int(value), int(hit)


def test_a_stale_version_is_never_loaded_and_an_unchanged_one_is(tree, tmp_path):
    """numba stamps a cached function with its own file only: the caller below inlines a core
    helper from another file, which numba's stamp alone would leave stale."""
    game = tree / "simcore" / "zzgame"
    game.mkdir()
    (game / "__init__.py").write_text("")
    (game / "rules.py").write_text(CALLER)
    helper = tree / "simcore" / "zz_helper.py"
    helper.write_text(HELPER.format(value=1))
    cache = tmp_path / "cache"
    assert compiled_answer(tree, cache) == (1, 0)  # compiled
    assert compiled_answer(tree, cache) == (1, 1)  # loaded from the cache
    touch(tree / "simcore/hex/rules.py")  # another game: still valid
    assert compiled_answer(tree, cache) == (1, 1)
    helper.write_text(HELPER.format(value=2))  # the shared core: compiled afresh
    assert compiled_answer(tree, cache) == (2, 0)
    assert compiled_answer(tree, cache) == (2, 1)
    # a second copy of the same sources elsewhere loads what the first compiled
    other = tmp_path / "elsewhere"
    shutil.copytree(tree, other, ignore=shutil.ignore_patterns("__pycache__"))
    assert compiled_answer(other, cache) == (2, 1)
