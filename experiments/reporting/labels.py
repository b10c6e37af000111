"""Words for reports: what each outcome means, setting values as the rulebook writes them
(``Yog-Sothoth``, ``Curses on``), settings by name, and what a turn is.

A game offers these as class attributes (``outcome_text``, ``value_labels``,
``setting_names``, ``turn_text``; all optional); a sweep keeps them in its manifest, so its
report reads the same wherever it is rebuilt.  What a game leaves out gets a plain default.
"""

from __future__ import annotations

from typing import Any

from experiments.reporting.text import fmt_value

# outcomes most games share, in words
GENERIC_OUTCOMES = {
    "win": "the game was won",
    "cap": "turn cap reached: the game was stopped unfinished",
}
GENERIC_WIN = {True: "the team won", False: "a player won"}  # by GameKind.cooperative
GENERIC_SETTINGS = {"players": "players", "strategy": "strategy", "curses": "Curses",
                    "seats": "seat skills", "first_player": "first player"}


def game_words(game: Any) -> dict[str, Any]:
    """The words a sweep's manifest keeps for its report."""
    generic = {**GENERIC_OUTCOMES, "win": GENERIC_WIN[bool(game.kind.cooperative)]}
    outcomes = {name: str((getattr(game, "outcome_text", None) or {}).get(name)
                          or generic.get(name) or name.replace("_", " "))
                for name in game.outcomes}
    values = {key: {str(v): str(label) for v, label in table.items()}
              for key, table in (getattr(game, "value_labels", None) or {}).items()}
    settings = {**GENERIC_SETTINGS, **(getattr(game, "setting_names", None) or {})}
    out = {"outcomes": outcomes, "values": values, "settings": settings,
           "turn": str(getattr(game, "turn_text", "") or "")}
    if not game.kind.cooperative:  # the headline is seat 0's win rate: by its name if it has one
        try:
            seat0 = game.seat_names(game.default_rules())[0]
        except (AttributeError, IndexError, TypeError, ValueError):
            seat0 = "0"
        if seat0 != "0":
            out["headline"] = f"{seat0} (seat 0) win rate"
    return out


def headline_name(words: dict, default: str) -> str:
    """The headline rate's name: the game's words for it, else ``default``."""
    return str(words.get("headline") or default)


def words_of(manifest: dict) -> dict[str, Any]:
    """The manifest's words (a sweep written before they were kept: the game's own, or the
    defaults when the game is not known here)."""
    words = manifest.get("words")
    if isinstance(words, dict):
        return _with_game_outcomes(words, manifest.get("game"))
    try:
        from simcore.registry import get_game

        return game_words(get_game(manifest["game"]))
    except (KeyError, ImportError):
        return {"outcomes": {o: GENERIC_OUTCOMES.get(o, o) for o in manifest.get("outcomes", [])},
                "values": {}, "settings": dict(GENERIC_SETTINGS), "turn": ""}


def _with_game_outcomes(words: dict, game: Any) -> dict:
    """Kept words whose outcomes only repeat their names (a sweep written before its game
    described them, as Wake Up's were): the game's descriptions where it now has them."""
    kept = words.get("outcomes")
    if not isinstance(kept, dict) or not any(str(t) in (o, o.replace("_", " "))
                                             for o, t in kept.items()):
        return words
    try:
        from simcore.registry import get_game

        now = game_words(get_game(str(game)))["outcomes"]
    except (KeyError, ImportError, ValueError):
        return words
    fixed = {o: (now.get(o, t) if str(t) in (o, o.replace("_", " ")) else t)
             for o, t in kept.items()}
    return {**words, "outcomes": fixed}


def setting_name(words: dict, key: str) -> str:
    """A setting by name: ``Great Old One`` for ``goo``."""
    return str(words.get("settings", {}).get(key, key))


def value_label(words: dict, key: str, value: Any) -> str:
    """A setting's value as a reader says it: the rulebook's spelling where the game gives
    one, ``on``/``off`` for a switch, else the value as written."""
    if isinstance(value, bool):
        return "on" if value else "off"
    table = words.get("values", {}).get(key, {})
    return str(table.get(fmt_value(value), fmt_value(value)))


def setting_text(words: dict, key: str, value: Any) -> str:
    """One setting of a cell in words: ``Yog-Sothoth`` (a named value speaks for itself),
    ``Curses on``, ``players 3``."""
    table = words.get("values", {}).get(key, {})
    if not isinstance(value, bool) and fmt_value(value) in table:
        return table[fmt_value(value)]
    return f"{setting_name(words, key)} {value_label(words, key, value)}"


def cell_text(words: dict, values: dict[str, Any]) -> str:
    """A cell in words: ``Yog-Sothoth, Hard, players 3``."""
    return ", ".join(setting_text(words, k, v) for k, v in values.items()) or "all"


def outcome_text(words: dict, name: str) -> str:
    return str(words.get("outcomes", {}).get(name, name))
