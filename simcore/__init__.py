"""cthulhu-sim's numba core: shared kernels, rules data, and one folder per game."""

from simcore.registry import game_names, get_game

__all__ = ["game_names", "get_game"]
