"""Rules data files: every component value and model parameter of a game, with its source.

A rules data file is TOML.  Each value is a small table::

    players = { value = 4, min = 2, max = 6, source = "rulebook", note = "2 to 6 players" }

``source`` is ``rulebook`` (quote the sentence in ``note``), ``public`` (name the source) or
``assumed`` (say why it is plausible).  ``min``/``max`` bound numbers (and the items of a
list), ``choices`` lists the allowed strings (or list items), ``min_len``/``max_len`` bound a
list's length (a list keeps its default length otherwise).  Nested tables group values; a
value's key is its dotted path (``table.width_cm``).

An ``assumed`` (or ``public``) number may say how far a reader could plausibly put it:
``plausible = [lo, hi]`` (with the reason in its note), inside its bounds and around its value;
for a list, two lists of its length, the lowest and the highest plausible versions of it
(``cthulhu-sim uncertainty`` moves the whole list between them at once).  A number that gives
none is taken as plausible one step each way (an int: 1; a float: a fifth of its value), clipped
to its bounds: ``Entry.plausible_range()``.

Overrides (from the CLI's ``--set key=value`` or from Python) are checked against the same
bounds, so a bad value is reported with the file, the key and the allowed values instead of
failing somewhere inside jitted code.

A rules data file given by the user (``--rules PATH``, a sweep spec's ``rules =``) is loaded
against the game's bundled file (``RulesData.load(path, reference=...)``): it must hold the same
keys, each of the same kind (an int where a float is expected is taken as that float), and a
bound, ``choices`` or list length it leaves out is the bundled one.  The one freedom is a new
item in a collection (a group whose items all have the same keys, like Sticky's
``[profiles.*]``): a new ``[profiles.mine]`` must give every key the others have.
"""

from __future__ import annotations

import copy
import difflib
import math
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SOURCES = ("rulebook", "public", "assumed")
INT64_MIN = -(2**63)  # the engines hold integers in int64 arrays
INT64_MAX = 2**63 - 1
_ENTRY_FIELDS = {"value", "source", "note", "min", "max", "choices", "min_len", "max_len",
                 "plausible"}
PLAUSIBLE_FLOAT_STEP = 0.2  # a float with no plausible range given: its value +-20%


class RulesError(ValueError):
    """A rules data file or an override is invalid; the message names file, key and reason."""


@dataclass
class Entry:
    key: str
    value: Any
    source: str
    note: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple | None = None
    min_len: int | None = None
    max_len: int | None = None
    kind: str = field(default="")  # bool, int, float, str, list[int], list[float], list[str]
    plausible: tuple | None = None  # (lo, hi) as given in the file (lists: two lists)

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "float", "list[int]", "list[float]")

    def plausible_range(self) -> tuple[Any, Any] | None:
        """(lowest, highest) plausible value: the file's ``plausible``, or one step each way
        from the current value within the bounds; None for a value that is not a number.  A
        list's two ends are lists of its length."""
        if not self.numeric:
            return None
        if self.plausible is not None:
            return self.plausible
        def step(v):
            if self.kind in ("int", "list[int]"):
                lo, hi = v - 1, v + 1
            else:
                d = abs(v) * PLAUSIBLE_FLOAT_STEP
                lo, hi = v - d, v + d
            if self.min is not None:
                lo = max(lo, self.min)
            if self.max is not None:
                hi = min(hi, self.max)
            return lo, hi
        if self.kind.startswith("list"):
            ends = [step(v) for v in self.value]
            return [e[0] for e in ends], [e[1] for e in ends]
        return step(self.value)

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        parts = []
        if self.kind.startswith("list"):
            lo = self.min_len if self.min_len is not None else None
            hi = self.max_len if self.max_len is not None else None
            if lo == hi and lo is not None:
                parts.append(f"a list of exactly {lo} items")
            else:
                most = hi if hi else "any"
                parts.append(f"a list of {lo if lo is not None else 0}..{most} items")
            item = self.kind[5:-1]
            parts.append(f"each {item}")
        else:
            parts.append(f"{'an' if self.kind[0] in 'aeiou' else 'a'} {self.kind}")
        if self.choices is not None:
            parts.append("one of " + ", ".join(map(str, self.choices)))
        if self.min is not None and self.max is not None:
            parts.append(f"between {self.min} and {self.max}")
        elif self.min is not None:
            parts.append(f">= {self.min}")
        elif self.max is not None:
            parts.append(f"<= {self.max}")
        return ", ".join(parts)


def _kind_of(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        inner = {_kind_of(v) for v in value}
        if inner == {"int", "float"}:
            inner = {"float"}
        if len(inner) == 1:
            (k,) = inner
            if k in ("int", "float", "str", "bool"):
                return f"list[{k}]"
        if not value:
            return "list[float]"
    return None


def _is_entry(node: Any) -> bool:
    return isinstance(node, dict) and "value" in node and "source" in node


class RulesData:
    """The validated values of one rules data file, plus any overrides applied to it."""

    def __init__(self, path: Path, game: str, entries: dict[str, Entry], meta: dict):
        self.path = Path(path)
        self.game = game
        self.entries = entries
        self.meta = meta
        self.overridden: dict[str, Any] = {}

    # ---- loading -------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, reference: RulesData | None = None) -> RulesData:
        """Read and check the file at ``path``; with ``reference`` (the game's bundled rules
        data) also check that it holds the same keys, each of the same kind."""
        path = Path(path)
        text = ""
        try:
            text = read_toml_text(path)
            raw = tomllib.loads(text)
        except FileNotFoundError:
            raise RulesError(f"{path}: rules data file not found") from None
        except IsADirectoryError:
            raise RulesError(f"{path}: is a folder, not a rules data file (a TOML file)") from None
        except UnicodeDecodeError as exc:
            raise RulesError(f"{path}: {not_utf8(exc)}") from None
        except OSError as exc:
            raise RulesError(f"{path}: rules data file cannot be read: "
                             f"{exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"{path}: {toml_problem(text, exc)}") from None
        meta = raw.pop("meta", {})
        if not isinstance(meta, dict):
            raise RulesError(f"{path}: key 'meta': not a table (give [meta] with game = ...)")
        game = meta.get("game")
        if not isinstance(game, str):
            raise RulesError(f"{path}: key 'meta.game': missing (the game's short name)")
        if reference is not None and game != reference.game:
            raise RulesError(f"{path}: key 'meta.game': {game!r} is not {reference.game!r} "
                             f"(this rules data must be for {reference.game})")
        entries: dict[str, Entry] = {}
        shape = _Shape(reference) if reference is not None else None
        cls._walk(path, raw, "", entries, shape)
        if shape is not None:
            shape.check_complete(path, entries)
        return cls(path, game, entries, meta)

    @classmethod
    def _walk(cls, path: Path, node: dict, prefix: str, out: dict[str, Entry],
              shape: _Shape | None = None) -> None:
        for name, sub in node.items():
            key = f"{prefix}{name}"
            if _is_entry(sub):
                ref = shape.entry_for(path, key) if shape is not None else None
                out[key] = cls._make_entry(path, key, sub, ref)
            elif (isinstance(sub, dict) and ("value" in sub or "source" in sub)
                  and not any(isinstance(v, dict) for v in sub.values())):
                # an entry missing 'value' or 'source' (not a group of entries)
                missing = "source" if "value" in sub else "value"
                allowed = f"; allowed: {', '.join(SOURCES)}" if missing == "source" else ""
                raise RulesError(f"{path}: key '{key}': field '{missing}' is missing{allowed}")
            elif isinstance(sub, dict):
                cls._walk(path, sub, key + ".", out, shape)
            else:
                raise RulesError(
                    f"{path}: key '{key}': every value must be a table "
                    "{ value = ..., source = \"rulebook|public|assumed\", note = \"...\" }"
                )

    @staticmethod
    def _make_entry(path: Path, key: str, raw: dict, ref: Entry | None = None) -> Entry:
        """The entry ``raw`` of the file; with ``ref`` (the bundled entry) its kind is the
        bundled one and the bounds, choices and lengths it leaves out are the bundled ones."""
        unknown = set(raw) - _ENTRY_FIELDS
        if unknown:
            raise RulesError(
                f"{path}: key '{key}': unknown field(s) {sorted(unknown)}; "
                f"allowed: {sorted(_ENTRY_FIELDS)}"
            )
        source = raw["source"]
        if not isinstance(source, str) or source not in SOURCES:
            raise RulesError(
                f"{path}: key '{key}': source {source!r} is not one of {', '.join(SOURCES)}"
            )
        note = raw.get("note", "")
        if not isinstance(note, str) or not note.strip():
            raise RulesError(
                f"{path}: key '{key}': a note is required (quote the rulebook, name the public "
                "source, or say why the assumption is plausible)"
            )
        reason = _check_fields(raw)
        if reason:
            raise RulesError(f"{path}: key '{key}': {reason}")
        value = raw["value"]
        if ref is not None:
            kind = ref.kind
        else:
            kind = _kind_of(value)
            if kind is None:
                raise RulesError(f"{path}: key '{key}': unsupported value {value!r}; allowed: a "
                                 "bool, int, float or string, or a list of items of one of "
                                 "those kinds")
        choices = raw.get("choices")
        entry = Entry(
            key=key,
            value=value,
            source=source,
            note=note.strip(),
            min=raw.get("min"),
            max=raw.get("max"),
            choices=tuple(choices) if choices is not None else None,
            min_len=raw.get("min_len"),
            max_len=raw.get("max_len"),
            kind=kind,
        )
        if ref is not None:
            for name in ("min", "max", "choices", "min_len", "max_len", "plausible"):
                if name not in raw:
                    setattr(entry, name, getattr(ref, name))
            if choices is not None and ref.choices is not None:
                extra = [c for c in choices if c not in ref.choices]
                if extra:
                    raise RulesError(
                        f"{path}: key '{key}': choices {', '.join(map(str, extra))} are not "
                        f"ones the simulator knows; allowed: {', '.join(map(str, ref.choices))}")
            value = _as_kind(kind, value)
            entry.value = value
        else:
            if kind.startswith("list"):
                if entry.min_len is None:
                    entry.min_len = len(value)
                if entry.max_len is None and raw.get("min_len") is None:
                    entry.max_len = len(value)
            if kind == "list[int]" and isinstance(entry.min, float):
                entry.kind = "list[float]"
        err = check_value(entry, value)
        if err:
            raise RulesError(f"{path}: key '{key}': {err}")
        if entry.kind == "float":
            entry.value = float(value)
        if "plausible" in raw:
            entry.plausible = None
            err = _check_plausible(entry, raw["plausible"])
            if err:
                raise RulesError(f"{path}: key '{key}': plausible {raw['plausible']!r}: {err}")
            lo, hi = raw["plausible"]
            if entry.kind == "float":
                lo, hi = float(lo), float(hi)
            elif entry.kind == "list[float]":
                lo, hi = [float(v) for v in lo], [float(v) for v in hi]
            entry.plausible = (lo, hi)
        elif entry.plausible is not None and _check_plausible(entry, list(entry.plausible)):
            entry.plausible = None  # the bundled range does not fit this file's value
        return entry

    # ---- access --------------------------------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        try:
            return self.entries[key].value
        except KeyError:
            raise RulesError(self._unknown(key)) from None

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def get(self, key: str, default: Any = None) -> Any:
        entry = self.entries.get(key)
        return default if entry is None else entry.value

    def keys_under(self, prefix: str) -> list[str]:
        return [k for k in self.entries if k.startswith(prefix)]

    def resolved(self) -> dict[str, Any]:
        """Every key with its current value (defaults plus overrides)."""
        return {k: copy.deepcopy(e.value) for k, e in self.entries.items()}

    def source_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(SOURCES, 0)
        for e in self.entries.values():
            counts[e.source] += 1
        return counts

    def fail(self, key: str, reason: str) -> RulesError:
        """An error about ``key`` for cross-field checks in a game's loader.  It blames the
        override when ``key`` was overridden, else the file; an override named in ``reason``
        (or, failing that, every override in effect) is mentioned, since it may be the cause."""
        if key in self.overridden:
            where = "override"
        else:
            where = str(self.path)
        named = [k for k in self.overridden if k != key and _mentions(reason, k)]
        if named:
            many = "s" if len(named) > 1 else ""
            tail = f" (with the override{many} {_fmt_overrides(self.overridden, named)})"
        elif self.overridden and key not in self.overridden:
            tail = f" (overrides in effect: {_fmt_overrides(self.overridden)})"
        else:
            tail = ""
        return RulesError(f"{where}: key '{key}': {reason}{tail}")

    def _unknown(self, key: str) -> str:
        close = difflib.get_close_matches(key, list(self.entries), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return f"{self.path}: unknown key '{key}'{hint} (run `cthulhu-sim games` to list keys)"

    def _unknown_override(self, key: str) -> str:
        close = difflib.get_close_matches(key, list(self.entries), n=3, cutoff=0.5)
        if close:
            hint = f"did you mean {', '.join(close)}?"
        else:
            hint = f"allowed keys: {self.key_summary()}"
        return (f"override: key '{key}': unknown override key; {hint} (an override names a key "
                f"of the {self.game} rules data, {self.path}; `cthulhu-sim games {self.game}` "
                "lists every key with its allowed values)")

    def key_summary(self) -> str:
        """The top-level keys, and each group as ``group.*`` with its number of keys."""
        parts: list[str] = []
        groups: dict[str, int] = {}
        for k in self.entries:
            if "." in k:
                g = k.split(".", 1)[0]
                if g not in groups:
                    parts.append(g)
                groups[g] = groups.get(g, 0) + 1
            else:
                parts.append(k)
        return ", ".join(f"{p}.* ({groups[p]} keys)" if p in groups else p for p in parts)

    # ---- overrides -----------------------------------------------------------------------
    def with_overrides(self, overrides: Mapping[str, Any] | Iterable[str] | None) -> RulesData:
        """A copy with ``overrides`` applied: a mapping, or ``key=value`` strings."""
        out = RulesData(self.path, self.game, copy.deepcopy(self.entries), dict(self.meta))
        out.overridden = dict(self.overridden)
        for key, value in parse_overrides(overrides).items():
            entry = out.entries.get(key)
            if entry is None:
                raise RulesError(self._unknown_override(key))
            value = coerce(entry, value)
            out.entries[key].value = value
            out.overridden[key] = value
        return out


def _mentions(text: str, key: str) -> bool:
    """Whether ``text`` names ``key`` (as a whole dotted key)."""
    return re.search(rf"(?<![\w.]){re.escape(key)}(?![\w])", text) is not None


def _fmt_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return ",".join(_fmt_value(x) for x in v)
    return str(v)


def _fmt_overrides(overridden: Mapping[str, Any], keys: Iterable[str] | None = None) -> str:
    keys = list(overridden) if keys is None else list(keys)
    return ", ".join(f"{k}={_fmt_value(overridden[k])}" for k in keys)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _check_fields(raw: dict) -> str | None:
    """The reason an entry's bounds, choices or lengths are malformed, or None."""
    for name in ("min", "max"):
        if name in raw and not _is_number(raw[name]):
            return f"field '{name}': {raw[name]!r} is not a number"
    if "min" in raw and "max" in raw and raw["min"] > raw["max"]:
        return f"field 'min' ({raw['min']!r}) is above field 'max' ({raw['max']!r})"
    if "choices" in raw:
        ch = raw["choices"]
        if (not isinstance(ch, list) or not ch
                or not all(isinstance(c, str | int | float) for c in ch)):
            return f"field 'choices': {ch!r} is not a list of allowed values"
    for name in ("min_len", "max_len"):
        if name in raw:
            v = raw[name]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                return f"field '{name}': {v!r} is not a non-negative integer"
    return None


def _check_plausible(entry: Entry, given: Any) -> str | None:
    """Why ``plausible = given`` does not fit ``entry`` (None when it does)."""
    if entry.source == "rulebook":
        return "a rulebook value is given by the text, not assumed (only assumed or public " \
               "values have a plausible range)"
    if not entry.numeric:
        return f"only a number or a list of numbers has a plausible range, not a {entry.kind}"
    if not isinstance(given, list) or len(given) != 2:
        return "give [lowest, highest]" + (" (two lists of the value's length)"
                                          if entry.kind.startswith("list") else "")
    lo, hi = given
    if entry.kind.startswith("list"):
        n = len(entry.value)
        if not (isinstance(lo, list) and isinstance(hi, list) and len(lo) == n
                and len(hi) == n and all(map(_is_number, lo + hi))):
            return f"give two lists of {n} numbers, the lowest and the highest plausible lists"
        pairs = list(zip(lo, hi, entry.value, strict=True))
    else:
        if not (_is_number(lo) and _is_number(hi)):
            return "give two numbers, the lowest and the highest plausible value"
        pairs = [(lo, hi, entry.value)]
    for a, b, v in pairs:
        if entry.kind in ("int", "list[int]") and not (float(a).is_integer()
                                                       and float(b).is_integer()):
            return "an int's plausible range is two ints"
        if not a <= v <= b:
            return f"the value {v} must lie within its plausible range ({a} to {b})"
        if entry.min is not None and a < entry.min:
            return f"{a} is below the minimum {entry.min}"
        if entry.max is not None and b > entry.max:
            return f"{b} is above the maximum {entry.max}"
    return None


def _as_kind(kind: str, v: Any) -> Any:
    """``v`` with ints taken as floats where ``kind`` expects floats (nothing else changes)."""
    if kind == "float" and _is_number(v):
        return float(v)
    if kind == "list[float]" and isinstance(v, list):
        return [float(x) if _is_number(x) else x for x in v]
    return v


class _Shape:
    """The keys of a game's bundled rules data, against which a user's file is checked.

    A *collection* is a group whose items (two or more sub-tables) all have the same keys and
    that holds no value of its own, e.g. Sticky's ``profiles`` or ``curse``: a user file may
    add items to it, each with every key its siblings have."""

    def __init__(self, reference: RulesData):
        self.ref = reference
        self.collections: dict[str, tuple[str, set[str]]] = {}  # group -> (first item, leaves)
        items: dict[str, dict[str, set[str]]] = {}
        direct: set[str] = set()
        for k in reference.entries:
            parts = k.split(".")
            for i in range(1, len(parts) - 1):
                group = ".".join(parts[:i])
                items.setdefault(group, {}).setdefault(parts[i], set()).add(
                    ".".join(parts[i + 1:]))
            if len(parts) > 1:
                direct.add(".".join(parts[:-1]))  # a group holding a value of its own
        for group, members in items.items():
            leaves = list(members.values())
            if (group not in direct and len(members) >= 2
                    and all(x == leaves[0] for x in leaves)):
                self.collections[group] = (next(iter(members)), leaves[0])
        self.new_items: dict[str, str] = {}  # "group.item" -> group

    def _split(self, key: str) -> tuple[str, str, str] | None:
        """(group, item, leaf) when ``key`` lies in a collection."""
        parts = key.split(".")
        for i in range(1, len(parts) - 1):
            group = ".".join(parts[:i])
            if group in self.collections:
                return group, parts[i], ".".join(parts[i + 1:])
        return None

    def entry_for(self, path: Path, key: str) -> Entry:
        ref = self.ref.entries.get(key)
        if ref is not None:
            return ref
        split = self._split(key)
        if split is not None:
            group, item, leaf = split
            first, leaves = self.collections[group]
            if leaf in leaves:
                self.new_items[f"{group}.{item}"] = group
                return self.ref.entries[f"{group}.{first}.{leaf}"]
        close = difflib.get_close_matches(key, list(self.ref.entries), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise RulesError(f"{path}: key '{key}': unknown key (the {self.ref.game} rules data, "
                         f"{self.ref.path}, has no such key){hint}")

    def check_complete(self, path: Path, entries: Mapping[str, Entry]) -> None:
        missing = [k for k in self.ref.entries if k not in entries]
        for prefix, group in self.new_items.items():
            _, leaves = self.collections[group]
            missing += [f"{prefix}.{leaf}" for leaf in sorted(leaves)
                        if f"{prefix}.{leaf}" not in entries]
        if not missing:
            return
        first = missing[0]
        split = self._split(first)
        if split is not None and f"{split[0]}.{split[1]}" in self.new_items:
            group, item, _ = split
            why = (f"a new [{group}.{item}] needs every key the other [{group}.*] tables have "
                   f"({', '.join(sorted(self.collections[group][1]))})")
        else:
            why = f"every key of the {self.ref.game} rules data, {self.ref.path}, is needed"
        more = ""
        if len(missing) > 1:
            shown = ", ".join(missing[1:6])
            rest = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
            more = f"; also missing: {shown}{rest}"
        raise RulesError(f"{path}: key '{first}': missing ({why}){more}")


def read_toml_text(path: str | Path) -> str:
    """A TOML file's text: UTF-8, with a byte-order mark (which some editors write) dropped."""
    return Path(path).read_bytes().decode("utf-8-sig")


def toml_problem(text: str, exc: Exception) -> str:
    """A TOML parser's error in words: a key or table given twice is named (tomllib says only
    "Cannot overwrite a value (at line 4, column 12)"); anything else as the parser put it."""
    import re

    msg = str(exc)
    m = re.search(r"\(at line (\d+), column \d+\)", msg)
    twice = "Cannot overwrite a value" in msg or re.search(r"Cannot declare .* twice", msg)
    lines = text.splitlines()
    if not (m and twice) or not 1 <= int(m[1]) <= len(lines):
        return f"not valid TOML: {msg}"
    n = int(m[1])
    line = lines[n - 1].strip()
    header = re.fullmatch(r"\[\[?\s*(.+?)\s*\]\]?(\s*#.*)?", line)
    if header:
        return f"not valid TOML: table [{header[1]}] is given twice (line {n})"
    key = line.split("=", 1)[0].strip()
    table = next((h[1] for h in (re.fullmatch(r"\[\[?\s*(.+?)\s*\]\]?(\s*#.*)?", x.strip())
                                 for x in reversed(lines[:n - 1])) if h), None)
    full = f"{table}.{key}" if table else key
    return f"not valid TOML: key '{full.replace(chr(34), '')}' is given twice (line {n})"


def not_utf8(exc: UnicodeDecodeError) -> str:
    """Why a file could not be read as text, in words."""
    data = exc.object if isinstance(exc.object, bytes) else b""
    what = "a binary file" if b"\x00" in data[:4096] else "not UTF-8 text"
    where = f" (byte {exc.start} is 0x{data[exc.start]:02x})" if exc.start < len(data) else ""
    return f"{what}{where}; save it as UTF-8 text"


def parse_overrides(overrides: Mapping[str, Any] | Iterable[str] | None) -> dict[str, Any]:
    """``key=value`` strings (values parsed as TOML where possible) or a mapping, as a dict."""
    if overrides is None:
        return {}
    if isinstance(overrides, Mapping):
        return dict(overrides)
    out: dict[str, Any] = {}
    for item in overrides:
        if "=" not in item:
            raise RulesError(f"override {item!r}: expected key=value")
        key, text = item.split("=", 1)
        out[key.strip()] = parse_text_value(text.strip())
    return out


def parse_text_value(text: str) -> Any:
    """Parse a command-line value: a TOML literal (number, bool, list, string) or a bare word."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        word = bool_word(text)
        if word is not None:
            return word
        if "," in text and not text.startswith("["):
            return [parse_text_value(t.strip()) for t in text.split(",")]
        return text


TRUE_WORDS = ("true", "yes", "on")
FALSE_WORDS = ("false", "no", "off")
_DECIMAL = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")
_PREFIXED = re.compile(r"[+-]?0(?:x[0-9a-f]+|o[0-7]+|b[01]+)(?:_[0-9a-f]+)*", re.I)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:_[0-9]+)*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def bool_word(text: str) -> bool | None:
    """``true``/``yes``/``on`` and ``false``/``no``/``off`` in any case, else None."""
    t = text.strip().lower()
    return True if t in TRUE_WORDS else False if t in FALSE_WORDS else None


def from_text(kind: str, v: Any, choices: tuple | None = None) -> Any:
    """A scalar given as text (a command-line word, a quoted value in a spec) read as
    ``kind`` the one way every input is read: booleans as true/yes/on or false/no/off in any
    case, integers in decimal (leading zeros allowed) or as TOML writes them in another base
    (``0x3``), numbers in decimal or e-notation, and names among ``choices`` in any case (as
    the rules data spells them).  Anything else is returned as it is, for the check to
    refuse."""
    if not isinstance(v, str):
        return v
    t = v.strip()
    if kind == "bool":
        word = bool_word(t)
        return v if word is None else word
    if kind == "int" and _DECIMAL.fullmatch(t):
        return int(t)
    if kind == "int" and _PREFIXED.fullmatch(t):
        return int(t, 0)
    if kind == "float" and _NUMBER.fullmatch(t):
        return float(t.replace("_", ""))
    if choices is not None:
        for c in choices:
            if isinstance(c, str) and c.lower() == t.lower():
                return c
    return v


def _plain(value: Any) -> Any:
    """``value`` with numpy scalars as Python ones and tuples as lists (values from Python
    code often come out of numpy or pandas)."""
    if isinstance(value, tuple | list):
        return [_plain(x) for x in value]
    item = getattr(value, "item", None)
    if item is not None and type(value).__module__ == "numpy" and getattr(value, "ndim", 1) == 0:
        return item()
    return value


def coerce(entry: Entry, value: Any) -> Any:
    """``value`` converted to ``entry``'s kind, or a RulesError naming the key."""
    kind = entry.kind
    v = _plain(value)
    if kind.startswith("list") and isinstance(v, list):
        v = [from_text(kind[5:-1], x, entry.choices) for x in v]
    elif not kind.startswith("list"):
        v = from_text(kind, v, entry.choices)
    elif isinstance(v, str):
        v = from_text(kind[5:-1], v, entry.choices)
    if kind == "float" and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)
    if kind == "list[float]" and isinstance(v, list):
        v = [float(x) if isinstance(x, int) and not isinstance(x, bool) else x for x in v]
    if kind == "str" and not isinstance(v, str) and entry.choices is not None:
        v = str(v)
    if kind.startswith("list") and not isinstance(v, list):
        v = [v]
    err = check_value(entry, v)
    if err:
        raise RulesError(f"override: key '{entry.key}': {err}")
    return v


def _check_scalar(entry: Entry, kind: str, v: Any) -> str | None:
    if kind == "bool":
        if not isinstance(v, bool):
            return f"{v!r} is not a bool (true or false)"
        return None
    if kind == "int" and (not isinstance(v, int) or isinstance(v, bool)):
        return f"{v!r} is not an integer"
    if kind == "float" and (not isinstance(v, (int, float)) or isinstance(v, bool)):
        return f"{v!r} is not a number"
    if kind == "str" and not isinstance(v, str):
        return f"{v!r} is not a string"
    if entry.choices is not None and v not in entry.choices:
        return f"{v!r} is not allowed"
    if kind in ("int", "float"):
        if v != v:  # NaN
            return "NaN is not allowed"
        if v in (math.inf, -math.inf):
            return f"{v!r} is not allowed (values must be finite)"
        if kind == "int" and not INT64_MIN <= v <= INT64_MAX:
            return f"{v!r} does not fit the simulator's 64-bit integers"
        if entry.min is not None and v < entry.min:
            return f"{v!r} is below the minimum"
        if entry.max is not None and v > entry.max:
            return f"{v!r} is above the maximum"
    return None


def check_value(entry: Entry, v: Any) -> str | None:
    """None when ``v`` is allowed for ``entry``, else the reason with the allowed values."""
    kind = entry.kind
    if kind.startswith("list"):
        if not isinstance(v, list):
            reason = f"{v!r} is not a list"
        elif entry.min_len is not None and len(v) < entry.min_len:
            reason = f"has {len(v)} items, too few"
        elif entry.max_len is not None and len(v) > entry.max_len:
            reason = f"has {len(v)} items, too many"
        else:
            reason = None
            for i, item in enumerate(v):
                r = _check_scalar(entry, kind[5:-1], item)
                if r:
                    reason = f"item {i}: {r}"
                    break
    else:
        reason = _check_scalar(entry, kind, v)
    if reason is None:
        return None
    return f"{reason}; allowed: {entry.allowed()}"


# ---- engine limits ------------------------------------------------------------------------
Limit = tuple[str, float | None, float | None, int | None, int | None]


def limit_keys(rules: RulesData, pattern: str) -> list[str]:
    """The keys a limit pattern names: the key itself, or each key matching one '*'."""
    if "*" not in pattern:
        return [pattern] if pattern in rules else []
    head, tail = pattern.split("*")
    return [k for k in rules.keys_under(head)
            if k.endswith(tail) and "." not in k[len(head):len(k) - len(tail)]]


def check_limits(rules: RulesData, limits: tuple[Limit, ...]) -> None:
    """Refuse values a game's compiled engine cannot hold, naming the key.  A rules file
    declares its own bounds (a user may edit or widen them), so a loader checks its engine's
    limits with this as well: ``limits`` holds (key or "prefix.*.suffix", lowest, highest,
    fewest entries, most entries), None meaning no limit."""
    for pattern, lo, hi, fewest, most in limits:
        for key in limit_keys(rules, pattern):
            value = rules[key]
            values = value if isinstance(value, list) else [value]
            if isinstance(value, list):
                n = len(value)
                if fewest is not None and most is not None and fewest == most and n != most:
                    raise rules.fail(key, f"needs exactly {most} values, has {n} (the "
                                     "simulator's limit)")
                if fewest is not None and n < fewest:
                    raise rules.fail(key, f"needs at least {fewest} values, has {n} (the "
                                     "simulator's limit)")
                if most is not None and n > most:
                    raise rules.fail(key, f"holds at most {most} values, has {n} (the "
                                     "simulator's limit)")
            for i, x in enumerate(values):
                if isinstance(x, (str, bool)):
                    continue
                if (lo is not None and x < lo) or (hi is not None and x > hi):
                    where = f"entry {i}: " if isinstance(value, list) else ""
                    span = (f"{lo} to {hi}" if lo is not None and hi is not None
                            else f"at least {lo}" if lo is not None else f"at most {hi}")
                    raise rules.fail(key, f"{where}{x} is beyond what the simulator supports "
                                     f"({span})")
