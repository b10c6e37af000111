"""Strict JSON for every JSON the command line prints or writes.

Python's ``json`` writes a float NaN or infinity as the bare words ``NaN`` and ``Infinity``,
which are not JSON (strict parsers, ``jq`` and browsers reject them).  Here they become
``null``: a mean over no games, for example, has no value.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


def finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinite float (numpy's too) replaced by None, numpy scalars
    and arrays as Python numbers and lists, tuples as lists and paths as strings."""
    import numpy as np

    if isinstance(obj, bool | np.bool_):
        return bool(obj)
    if isinstance(obj, float | np.floating):
        x = float(obj)
        return x if math.isfinite(x) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return finite(obj.tolist())
    if isinstance(obj, Path):
        return str(obj)
    return obj


def json_text(obj: Any, indent: int | None = 2, **kwargs: Any) -> str:
    """``obj`` as strict JSON: NaN and infinities are ``null``; anything else json cannot
    write is written as its ``str``."""
    return json.dumps(finite(obj), indent=indent, allow_nan=False, default=str, **kwargs)
