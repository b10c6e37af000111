"""cthulhu-sim's numba core: shared kernels, rules data, and one folder per game."""

from simcore._cache import configure_numba_cache
from simcore._codegen import install as install_codegen

# Before any jitted function is defined: compiled code is cached per version of the sources,
# and four facts numba cannot see are told to its compiler (simcore._codegen).
configure_numba_cache()
install_codegen()

from simcore.registry import game_names, get_game  # noqa: E402

__all__ = ["game_names", "get_game"]
