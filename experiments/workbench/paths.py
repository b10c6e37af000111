"""Names inside the results folder: the only paths the workbench reads or writes.

Every path a page or a form gives is a name relative to the results folder, made of plain
segments (letters, digits, ``.``, ``_``, ``-``; no ``..``, no leading ``/`` or ``~``, no
drive); it is resolved and must still lie inside the results folder (a link pointing out of
it is refused too).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from experiments.workbench.errors import FormError

SEGMENT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$")


def check_name(name: str, field: str = "name") -> str:
    """A new folder's name (one segment); a FormError in the CLI's style otherwise."""
    name = (name or "").strip()
    if not SEGMENT.match(name) or ".." in name:
        raise FormError(f"{field} {name!r}: give a plain folder name inside the results folder "
                        "(letters, digits, '.', '_' and '-'; no '/', no '..')", field)
    return name


def inside(root: Path, rel: str, field: str = "path") -> Path:
    """The path ``rel`` (segments joined by ``/``) inside ``root``; FormError when it is not
    a plain relative name or would lead out of ``root``."""
    rel = (rel or "").strip()
    if rel in ("", "."):
        return root.resolve()
    parts = rel.split("/")
    if rel.startswith(("/", "~", "\\")) or any(not SEGMENT.match(p) or ".." in p for p in parts):
        raise FormError(f"{field} {rel!r}: not a name inside the results folder", field)
    base = root.resolve()
    target = (base / Path(*parts)).resolve()
    if target != base and base not in target.parents:
        raise FormError(f"{field} {rel!r}: leads out of the results folder", field)
    return target


def relative(root: Path, path: Path) -> str:
    return Path(path).resolve().relative_to(root.resolve()).as_posix()


def fresh_name(root: Path, kind: str, game: str, wanted: str = "") -> str:
    """``wanted`` (checked, and refused when taken), or ``KIND-GAME-YYYYmmdd-HHMMSS`` made
    unique."""
    if wanted.strip():
        name = check_name(wanted, "save_as")
        if (root / name).exists():
            raise FormError(f"save_as {name!r}: already taken in the results folder; give "
                            "another name", "save_as")
        return name
    stem = f"{kind}-{game}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    name, k = stem, 1
    while (root / name).exists():
        k += 1
        name = f"{stem}-{k}"
    return name
