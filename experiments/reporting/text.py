"""Small text helpers shared by the runner, comparisons, sweeps and reports: values as a user
writes them (in a spec, after ``--set key=``) and settings as ``key=value`` pairs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def python_scalars(v: Any) -> Any:
    """``v`` with every numpy scalar (``np.int64(3)``, ``np.True_`` ...) inside dicts and lists
    made the Python value it stands for: values from Python code often come out of numpy or
    pandas, and specs and results are written out as JSON and TOML."""
    if isinstance(v, dict):
        return {k: python_scalars(x) for k, x in v.items()}
    if isinstance(v, list):
        return [python_scalars(x) for x in v]
    if type(v).__module__ == "numpy" and getattr(v, "ndim", None) == 0 and hasattr(v, "item"):
        return v.item()
    return v


def fmt_value(v: Any) -> str:
    """A value as a short word: ``true``, ``3``, ``0.5``, ``[expert,beginner]``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return "[" + ",".join(fmt_value(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def set_text(value: Any) -> str:
    """``value`` as ``--set key=VALUE`` reads it back: ``true``, ``0.5``, ``expert,beginner``,
    a TOML-quoted string or list where a bare one would read differently."""
    from simcore.replay import set_value_text

    return set_value_text(python_scalars(value))


def settings_text(settings: Mapping[str, Any]) -> str:
    """Settings as ``key=value`` pairs in ``--set`` syntax."""
    return ", ".join(f"{k}={set_text(v)}" for k, v in settings.items())


def count_text(n: int, word: str, plural: str | None = None) -> str:
    """``1 cell``, ``3 cells``."""
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"
