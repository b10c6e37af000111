"""A rules data file with some values changed (what ``cthulhu-sim tune`` writes next to its
report): the file the setting was played with, each changed key's line rewritten with its new
value, marked ``assumed`` (a tuned number is a design choice, not the rulebook's) and a note
saying what it was and why it changed; every other line, comment included, as it was.  The
result is checked by loading it as the game loads a ``--rules`` file; a file laid out so that
a key's line cannot be found for sure is written afresh from the rules data instead (every
key, its bounds, source and note; the comments are lost)."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simcore.rules_data import Entry, RulesData, RulesError, read_toml_text

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")


def _lit(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(float(v))
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_lit(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def entry_line(leaf: str, e: Entry, value: Any, source: str, note: str) -> str:
    parts = [f"value = {_lit(value)}"]
    for name in ("min", "max"):
        if getattr(e, name) is not None:
            parts.append(f"{name} = {_lit(getattr(e, name))}")
    if e.choices is not None:
        parts.append(f"choices = {_lit(list(e.choices))}")
    if e.kind.startswith("list"):
        for name in ("min_len", "max_len"):
            if getattr(e, name) is not None:
                parts.append(f"{name} = {getattr(e, name)}")
    parts += [f"source = {_lit(source)}", f"note = {_lit(note)}"]
    return f"{_key(leaf)} = {{ " + ", ".join(parts) + " }"


def changed_note(e: Entry, why: str) -> str:
    was = e.value
    return (f"{why} Was {_lit(was)} ({e.source}: {' '.join(e.note.split())})").strip()


def with_values(rules: RulesData, values: Mapping[str, Any], why: str) -> str:
    """The text of ``rules``' file with ``values`` (key -> new value) in place, each such
    key marked assumed with ``why`` and its old value and note in its note."""
    text = read_toml_text(rules.path)
    try:
        new = _edit(text, rules, values, why)
        _check(new, rules, values)
        return new
    except (RulesError, ValueError, KeyError):
        new = _fresh(rules, values, why)
        _check(new, rules, values)
        return new


def _edit(text: str, rules: RulesData, values: Mapping[str, Any], why: str) -> str:
    lines = text.splitlines(keepends=True)
    table = ""
    found: dict[str, int] = {}
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if m:
            table = ".".join(p.strip().strip('"') for p in m[1].split("."))
            continue
        m = re.match(r"^\s*(\"[^\"]+\"|[A-Za-z0-9_-]+)\s*=\s*\{", line)
        if not m:
            continue
        leaf = m[1].strip('"')
        key = f"{table}.{leaf}" if table else leaf
        if key in values:
            if key in found or line.count("{") != line.count("}"):
                raise ValueError(f"{key}: not on one line")
            found[key] = i
    missing = [k for k in values if k not in found]
    if missing:
        raise ValueError(f"{missing[0]}: line not found")
    for key, i in found.items():
        e = rules.entries[key]
        leaf = key.rsplit(".", 1)[-1] if "." in key else key
        indent = re.match(r"^\s*", lines[i])[0]
        end = "\n" if lines[i].endswith("\n") else ""
        lines[i] = indent + entry_line(leaf, e, values[key], "assumed",
                                       changed_note(e, why)) + end
    return "".join(lines)


def _fresh(rules: RulesData, values: Mapping[str, Any], why: str) -> str:
    out = [f"# {rules.meta.get('title', rules.game)}: rules data written by cthulhu-sim tune "
           f"from {rules.path.name} (its comments are not kept)."]
    groups: dict[str, list[str]] = {}
    top: list[str] = []
    for key, e in rules.entries.items():
        value = values.get(key, e.value)
        source = "assumed" if key in values else e.source
        note = changed_note(e, why) if key in values else e.note
        if "." in key:
            table, leaf = key.rsplit(".", 1)
            groups.setdefault(table, []).append(entry_line(leaf, e, value, source, note))
        else:
            top.append(entry_line(key, e, value, source, note))
    out += top
    out.append("\n[meta]")
    out += [f"{_key(k)} = {_lit(v)}" for k, v in rules.meta.items() if not isinstance(v, dict)]
    for table, entries in groups.items():
        out.append("\n[" + ".".join(_key(p) for p in table.split(".")) + "]")
        out += entries
    return "\n".join(out) + "\n"


def _check(text: str, rules: RulesData, values: Mapping[str, Any]) -> None:
    """Load ``text`` as a user's rules file against the bundled one and compare values."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rules.toml"
        path.write_text(text, encoding="utf-8")
        loaded = RulesData.load(path, reference=rules)
    for key, e in rules.entries.items():
        want = values.get(key, e.value)
        if loaded[key] != want:
            raise ValueError(f"{key}: reads back as {loaded[key]!r}, not {want!r}")
