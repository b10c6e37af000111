"""The README's layout section against the tree: every path it names exists, and every module
of the three floors (``simcore``, ``strategies``, ``experiments``) is named there, so the
section cannot fall behind a new module again.

The section is one code block, a tree: an entry is a line whose name starts within the first
few columns (a folder ends in ``/``), its words after two or more spaces; a line indented to
the words' column goes on the words of the entry above it.  An entry's folder is the nearest
folder entry above it with a smaller indent.  ``<game>/`` stands for every game folder under
``simcore/``: what it lists must be in each of them.  Modules named ``__init__``, ``__main__``
or starting with ``_`` need not be listed (they are checked when they are).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ("simcore", "strategies", "experiments")
NAME_COLUMNS = 12  # an entry's name starts before this column; words continue after it
GAME = "<game>"


def layout_block() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"^```\n(.*?)^```$", section, re.S | re.M)
    assert match, "the README's layout section has no code block"
    return match.group(1).splitlines()


def layout_entries() -> list[str]:
    """The paths the layout names, relative to the repository (folders end in ``/``)."""
    entries: list[str] = []
    folders: list[tuple[int, str]] = []  # (indent, path) of the folders open above
    for line in layout_block():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent >= NAME_COLUMNS:
            continue  # the words of the entry above, continued
        name = line.split()[0]
        while folders and folders[-1][0] >= indent:
            folders.pop()
        path = (folders[-1][1] if folders else "") + name
        entries.append(path)
        if name.endswith("/"):
            folders.append((indent, path))
    return entries


def game_folders() -> list[str]:
    return sorted(f"simcore/{p.name}/" for p in (ROOT / "simcore").iterdir()
                  if (p / "__init__.py").is_file())


def expanded(path: str) -> list[str]:
    if f"/{GAME}/" in path:
        return [path.replace(f"simcore/{GAME}/", folder) for folder in game_folders()]
    return [path]


def test_layout_parses_as_a_tree():
    entries = layout_entries()
    assert "simcore/kernels.py" in entries
    assert "experiments/cli/common.py" in entries
    assert f"simcore/{GAME}/rules.py" in entries


def test_every_path_the_layout_names_exists():
    missing = [p for entry in layout_entries() for p in expanded(entry)
               if not (ROOT / p).exists() or (p.endswith("/") and not (ROOT / p).is_dir())]
    assert not missing, f"README's layout names paths that do not exist: {missing}"


def test_every_module_is_in_the_layout():
    listed = {p for entry in layout_entries() for p in expanded(entry)}
    modules = [p.relative_to(ROOT).as_posix() for floor in FLOORS
               for p in sorted((ROOT / floor).rglob("*.py"))]
    unlisted = [m for m in modules
                if not Path(m).name.startswith("_") and m not in listed]
    assert not unlisted, f"modules missing from README's layout section: {unlisted}"
