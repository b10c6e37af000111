"""The command line that replays one playout of a configuration.

A game that names a playout for the user to look at (``check``'s first violation or stuck
game) gives a ``cthulhu-sim trace`` command that rebuilds the exact configuration: the
strategy, a rules file other than the game's own, every rules-data override and every
strategy parameter that differs from its default, as ``--set key=value``.
"""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from typing import Any

from simcore.rules_data import parse_text_value


def _toml(value: Any) -> str:
    """``value`` as a TOML literal (what ``--set`` accepts whatever the value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def set_value_text(value: Any) -> str:
    """The shortest way to write ``value`` after ``--set key=``: a bare word or number, or a
    comma-separated list, when the command line reads it back as the same value; otherwise
    the TOML literal."""
    if isinstance(value, (list, tuple)):
        text = ",".join(_toml(v) if not isinstance(v, str) else v for v in value)
    elif isinstance(value, str):
        text = value
    else:
        text = _toml(value)
    try:
        same = parse_text_value(text) == (list(value) if isinstance(value, tuple) else value)
    except Exception:  # any doubt: the literal
        same = False
    return text if same and text else _toml(value)


def set_options(config) -> list[str]:
    """``--set key=value`` options for every rules-data override and every strategy
    parameter that is not at its default (values written so they read back the same)."""
    out: list[str] = []
    for key, value in config.changed().items():
        out += ["--set", f"{key}={set_value_text(value)}"]
    return out


def replay_command(config, seed: int, index: int, check: bool = False) -> str:
    """``cthulhu-sim trace GAME --seed S --index I --strategy NAME [--rules F] [--set ...]
    [--check]``: a shell command that replays playout ``index`` of run ``seed`` under
    ``config`` (with the rules checker on when ``check``)."""
    game = config.game
    args = ["cthulhu-sim", "trace", game.name, "--seed", str(int(seed)), "--index",
            str(int(index)), "--strategy", config.strategy.name]
    rules_path = Path(config.rules.path)
    if rules_path.resolve() != Path(game.rules_file).resolve():
        args += ["--rules", str(rules_path)]
    args += set_options(config)
    if check:
        args.append("--check")
    return shlex.join(args)
