"""Pluggable strategies: ``strategies/<game>.py`` registers each game's strategies."""

from strategies.registry import Param, Strategy, get, names, register

__all__ = ["Param", "Strategy", "get", "names", "register"]
