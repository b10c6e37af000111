"""The games this simulator knows, imported lazily so a run compiles only what it plays."""

from __future__ import annotations

import importlib

from simcore.game import Game

# CLI name -> module holding GAME
GAME_MODULES = {
    "sticky": "simcore.sticky.game",
    "tec": "simcore.tec.game",
    "hex": "simcore.hex.game",
    "wakeup": "simcore.wakeup.game",
}

_cache: dict[str, Game] = {}


def game_names() -> list[str]:
    return list(GAME_MODULES)


def get_game(name: str) -> Game:
    """The game called ``name`` (e.g. ``sticky``, ``tec``)."""
    key = name.lower()
    if key not in GAME_MODULES:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(GAME_MODULES)}")
    if key not in _cache:
        _cache[key] = importlib.import_module(GAME_MODULES[key]).GAME
    return _cache[key]
