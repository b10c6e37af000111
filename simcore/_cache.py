"""Where numba caches compiled code.

numba's own cache (cache=True) is keyed on each function's source file, so editing a helper in
one file can leave stale machine code cached for its callers in another.  We key the whole
cache on a hash of every source file of the jitted packages instead: any edit gives a fresh
cache directory, and an unchanged tree reuses its compiled code across processes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("simcore", "strategies")


def source_hash() -> str:
    h = hashlib.sha256()
    for pkg in _PACKAGES:
        for path in sorted((_ROOT / pkg).rglob("*.py")):
            h.update(path.relative_to(_ROOT).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def configure_numba_cache() -> None:
    """Point numba at a cache directory for this exact version of the sources, unless the
    user chose one (NUMBA_CACHE_DIR)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = os.environ.get("CTHULHU_SIM_CACHE")
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        base = os.path.join(xdg, "cthulhu-sim")
    target = os.path.join(base, "numba-" + source_hash())
    try:
        os.makedirs(target, exist_ok=True)
    except OSError:
        return  # unwritable: numba falls back to its default locations
    os.environ["NUMBA_CACHE_DIR"] = target
    import numba

    numba.config.CACHE_DIR = target
