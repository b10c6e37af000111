"""Golden playthroughs: a few whole games per registered game, as ``cthulhu-sim trace``
prints them, kept as text and compared by ``tests/test_playthroughs.py``.  A change that alters
a game's play shows up as a diff here.  After an intended change, regenerate them all with

    make playthroughs        (or: python -m tests.playthroughs)

and read the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

# file name -> (game, seed, playout index, strategy, overrides)
CASES: dict[str, tuple[str, int, int, str, dict]] = {
    "sticky-honest-seed1": ("sticky", 1, 0, "honest", {}),
    "sticky-curses-cheater-seed7-index2": ("sticky", 7, 2, "cheater", {"curses": True}),
    "tec-heuristic-seed1": ("tec", 1, 0, "heuristic", {}),
    "hex-heuristic-seed1": ("hex", 1, 0, "heuristic", {}),
    "hex-random-seed2-short": ("hex", 2, 0, "random", {"max_turns": 12}),
    "wakeup-heuristic-2p-seed1": ("wakeup", 1, 0, "heuristic", {"players": 2}),
    "wakeup-solitaire-seed3": ("wakeup", 3, 0, "heuristic", {"players": 1}),
}


def render(name: str) -> str:
    import strategies  # noqa: F401  (the strategy registry Game.configure looks up)
    from simcore.registry import get_game

    game, seed, index, strategy, overrides = CASES[name]
    g = get_game(game)
    return g.trace(g.configure(overrides, strategy), seed, index) + "\n"


def path(name: str) -> Path:
    return HERE / f"{name}.txt"


def regenerate() -> list[str]:
    """Write every case's trace; returns the names of the files that changed."""
    changed = []
    for name in CASES:
        text = render(name)
        p = path(name)
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")
            changed.append(name)
    for stale in HERE.glob("*.txt"):
        if stale.stem not in CASES:
            stale.unlink()
            changed.append(stale.stem + " (removed)")
    return changed
