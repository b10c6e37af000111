"""Player files: a strategy with its parameters, kept in a TOML file (``cthulhu-sim train
--out FILE`` writes them).

Wherever a strategy name is accepted, a name ending in ``.toml`` is read as a player file
(:func:`strategies.registry.get` hands it here): its strategy with its parameters, each
seat's own for a competitive game trained seat by seat.  The strategy is named by the path as
given, so two player files of one strategy are two strategies to ``compare``; its parameters'
defaults are the file's, so a ``--set strategy.X=...`` still moves one of them within its
bounds.  A file that cannot be used is one :class:`RulesError` naming the file and what is
wrong with it.

The file::

    format = "cthulhu-sim player 1"
    game = "hex"
    strategy = "heuristic"

    [parameters]            # every seat's (cooperative games; the seats' common ones)
    caution = 0.31

    [seats.1]               # competitive games: one seat's own parameters
    aggression = 0.72

    [trained]               # how it was made (read by people, not by the loader)
    ...
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcore.rules_data import RulesError

FORMAT = "cthulhu-sim player 1"
HEADER = "# A player file written by `cthulhu-sim train`; `--strategy THIS_FILE` plays it.\n"
KNOWN_KEYS = {"format", "game", "strategy", "parameters", "seats", "trained", "gain"}


def is_player_file(name: Any) -> bool:
    return isinstance(name, str) and name.strip().lower().endswith(".toml")


@dataclass
class PlayerFile:
    path: str
    game: str
    strategy: str
    parameters: dict[str, float | str] = field(default_factory=dict)
    seats: dict[int, dict[str, float | str]] = field(default_factory=dict)
    trained: dict[str, Any] = field(default_factory=dict)
    gain: dict[str, Any] = field(default_factory=dict)

    def seat_parameters(self, seat: int) -> dict[str, float | str]:
        """Seat ``seat``'s parameters: the common ones, then the seat's own (a seat beyond
        those trained plays the last trained seat's)."""
        own: dict[str, float | str] = {}
        if self.seats:
            own = self.seats.get(seat, self.seats[max(self.seats)])
        return {**self.parameters, **own}


def _bad(path: str | Path, what: str) -> RulesError:
    return RulesError(f"player file {path}: {what}")


def _values(path: str, where: str, table: Any) -> dict[str, float | str]:
    if not isinstance(table, Mapping):
        raise _bad(path, f"[{where}] must be a table of parameter = value")
    out: dict[str, float | str] = {}
    for k, v in table.items():
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            raise _bad(path, f"{where}.{k} = {v!r} is not a number or a name")
        if isinstance(v, float) and not math.isfinite(v):
            raise _bad(path, f"{where}.{k} = {v!r} is not a finite number")
        out[str(k)] = float(v) if isinstance(v, int) else v
    return out


def load(path: str | Path, game: str | None = None) -> PlayerFile:
    """Read and check a player file (for ``game`` when given)."""
    shown = str(path)
    p = Path(shown.strip()).expanduser()
    if not p.is_file():
        raise _bad(shown, "no such file" if not p.exists() else "is not a file")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise _bad(shown, f"cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise _bad(shown, f"is not valid TOML: {exc}") from None
    if data.get("format") != FORMAT:
        raise _bad(shown, f"is not a player file (its format key must be {FORMAT!r}; "
                          "`cthulhu-sim train --out FILE` writes them)")
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise _bad(shown, f"unknown key {unknown[0]!r}; allowed: {', '.join(sorted(KNOWN_KEYS))}")
    for key in ("game", "strategy"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise _bad(shown, f"needs {key} = \"...\" (a name)")
    if game is not None and data["game"] != game:
        raise _bad(shown, f"is a player of {data['game']}, not of {game}")
    if is_player_file(data["strategy"]):
        raise _bad(shown, "its strategy must be a strategy name, not another player file")
    seats_raw = data.get("seats", {})
    if not isinstance(seats_raw, Mapping):
        raise _bad(shown, "[seats] must hold one table a seat ([seats.0], [seats.1] ...)")
    seats: dict[int, dict[str, float | str]] = {}
    for k, table in seats_raw.items():
        if not str(k).isdigit():
            raise _bad(shown, f"seats.{k}: a seat is a number from 0")
        seats[int(k)] = _values(shown, f"seats.{k}", table)
    return PlayerFile(shown, data["game"], data["strategy"].strip(),
                      _values(shown, "parameters", data.get("parameters", {})), seats,
                      dict(data.get("trained", {})) if isinstance(data.get("trained"), Mapping)
                      else {}, dict(data.get("gain", {})) if isinstance(data.get("gain"), Mapping)
                      else {})


def strategy_of(game: str, name: str, overrides: Mapping[str, Any] | None,
                lookup: Callable[..., Any]) -> Any:
    """The strategy a player file names, with its parameters (and ``overrides`` on top),
    named by the file's path; a ``RulesError`` naming the file for anything wrong.
    ``lookup`` is :func:`strategies.registry.get` (handed in: the registry imports this)."""
    pf = load(name, game)
    overrides = dict(overrides or {})
    try:
        if pf.seats:
            return _seat_table(game, pf, overrides, lookup)
        base = lookup(game, pf.strategy, pf.parameters)
        strat = lookup(game, pf.strategy, {**pf.parameters, **overrides})
    except RulesError as exc:
        raise _bad(name, str(exc)) from None
    if getattr(base.spec, "table", False):
        return dataclasses.replace(strat, spec=dataclasses.replace(strat.spec, name=name))
    strat = _with_defaults(strat, base)
    return dataclasses.replace(strat, spec=dataclasses.replace(strat.spec, name=name))


def _seat_table(game: str, pf: PlayerFile, overrides: dict[str, Any],
                lookup: Callable[..., Any]) -> Any:
    """A competitive player trained seat by seat: the game's table of strategies, every seat
    the file's strategy with that seat's parameters."""
    try:
        seats = len(lookup(game, "table", {}).seats)
    except RulesError:
        raise RulesError(f"{game} cannot seat a strategy per seat") from None
    over: dict[str, Any] = {}
    for k in range(seats):
        over[f"seat_{k}"] = pf.strategy
        for key, v in pf.seat_parameters(k).items():
            over[f"seat_{k}.{key}"] = v
    base = lookup(game, "table", over)
    table = lookup(game, "table", {**over, **overrides})
    seats = [_with_defaults(s, b) for s, b in zip(table.seats, base.seats, strict=True)]
    return dataclasses.replace(table, spec=dataclasses.replace(table.spec, name=pf.path),
                               seats=seats)


def _with_defaults(strat: Any, base: Any) -> Any:
    """``strat`` with its parameters' defaults at ``base``'s values (the file's), so what a
    run reports as changed is what was set beyond the file."""
    params = {k: dataclasses.replace(p, default=float(base.values[i]))
              for i, (k, p) in enumerate(base.spec.params.items())}
    return dataclasses.replace(strat, spec=dataclasses.replace(strat.spec, params=params))


# ---- writing --------------------------------------------------------------------------------
def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else '"nan"'
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    return _toml_value(str(v))


def _key(k: Any) -> str:
    k = str(k)
    return k if k.replace("_", "").replace("-", "").isalnum() else _toml_value(k)


def toml_text(data: Mapping[str, Any]) -> str:
    """A small TOML writer for the player file's shape: scalars first, then tables (one
    level of sub-tables)."""
    lines = [HEADER]
    tables = []
    for k, v in data.items():
        if isinstance(v, Mapping):
            tables.append((k, v))
        else:
            lines.append(f"{_key(k)} = {_toml_value(v)}")
    for k, v in tables:
        subs = [(a, b) for a, b in v.items() if isinstance(b, Mapping) and k == "seats"]
        plain = {a: b for a, b in v.items() if not (isinstance(b, Mapping) and k == "seats")}
        if plain or not subs:
            lines.append(f"\n[{_key(k)}]")
            lines.extend(f"{_key(a)} = {_toml_value(b)}" for a, b in plain.items())
        for a, b in subs:
            lines.append(f"\n[{_key(k)}.{_key(a)}]")
            lines.extend(f"{_key(x)} = {_toml_value(y)}" for x, y in b.items())
    return "\n".join(lines) + "\n"


def check_writable(path: str | Path) -> None:
    """Refuse, before any work, a path holding something this tool did not write."""
    p = Path(path)
    if p.is_dir():
        raise _bad(path, "is a folder; give a file name ending in .toml")
    if not str(path).lower().endswith(".toml"):
        raise _bad(path, "a player file's name must end in .toml")
    if p.exists():
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            data = {}
        if data.get("format") != FORMAT:
            raise _bad(path, "exists and was not written by this tool; it is left alone "
                             "(give another name, or remove it yourself)")


def write(path: str | Path, data: Mapping[str, Any]) -> Path:
    """Write a player file (replacing only a player file), atomically."""
    import os
    import tempfile

    check_writable(path)
    text = toml_text({"format": FORMAT, **data})
    tomllib.loads(text)  # what is written reads back
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p
