"""The numbers a designer can turn: every numeric value of a game's rules data, found through the
common ``Game`` interface (``Game.default_rules()``'s entries, their kind, bounds and source),
with no game-specific code.

A *knob* is one number: a rules-data key of kind ``int`` or ``float`` (``setup.bag_eldritch``),
or one item of a list of numbers, named ``KEY[i]`` (``setup.extra_eldritch[1]``).  The balance
tools (``cthulhu-sim sensitivity`` and ``cthulhu-sim tune``) vary knobs; this module turns what
the user typed (keys, globs such as ``goo.cthulhu.*``, ``KEY=LO:HI`` bounds) into knobs, or
into one error line naming the key and the reason.
"""

from __future__ import annotations

import difflib
import fnmatch
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from simcore.rules_data import Entry, RulesData

NUMERIC = ("int", "float")
NUMERIC_LISTS = ("list[int]", "list[float]")
_ITEM = re.compile(r"^(?P<key>[^\[\]]+)\[(?P<index>[^\[\]]*)\]$")


class KnobError(ValueError):
    """What the user asked to vary cannot be varied; the message names the key and why."""


@dataclass(frozen=True)
class Knob:
    """One number of the rules data, with the range it may take."""

    key: str  # the rules-data key
    index: int | None  # the item of a list of numbers, or None for a scalar key
    kind: str  # "int" or "float"
    value: float  # the value in effect (the rules data's, or as --set / --rules make it)
    lo: float | None  # the range it may take: the key's own bounds, or narrower (--bounds)
    hi: float | None
    source: str  # rulebook, public or assumed
    note: str = ""

    @property
    def name(self) -> str:
        return self.key if self.index is None else f"{self.key}[{self.index}]"

    @property
    def is_int(self) -> bool:
        return self.kind == "int"

    @property
    def assumed(self) -> bool:
        return self.source == "assumed"

    def clip(self, v: float) -> float:
        if self.lo is not None:
            v = max(v, self.lo)
        if self.hi is not None:
            v = min(v, self.hi)
        return v

    def cast(self, v: float) -> int | float:
        """``v`` as the key holds it: an integer rounded to the nearest, a float with the
        noise of binary arithmetic rounded off (12 significant digits)."""
        if self.is_int:
            return int(round(v))
        return float(f"{float(v):.12g}")

    def setting(self, rules: RulesData, v: float) -> dict[str, Any]:
        """The override that gives this knob the value ``v`` (for a list item, the whole
        list as ``rules`` holds it, with the one item changed)."""
        v = self.cast(v)
        if self.index is None:
            return {self.key: v}
        items = list(rules[self.key])
        items[self.index] = v
        return {self.key: items}

    def steps(self, rel: float) -> tuple[float | None, float | None]:
        """The values one step down and one step up (one unit for an integer; ``rel`` times
        the value for a float, or ``rel`` times its range when the value is 0), within the
        knob's range; None where the value already sits on that bound."""
        v = self.value
        if self.is_int:
            step = 1.0
        elif v != 0:
            step = abs(v) * rel
        elif self.lo is not None and self.hi is not None and self.hi > self.lo:
            step = (self.hi - self.lo) * rel
        else:
            step = rel
        down = self.cast(self.clip(v - step))
        up = self.cast(self.clip(v + step))
        return (down if down != v else None), (up if up != v else None)

    def default_range(self, spread: float) -> tuple[float, float]:
        """The range a global method or a search covers when ``--bounds`` does not say: the
        knob's own bounds when it has both, each no further than ``spread`` times the value
        (at least one unit for an integer) from it; for a value of 0, ``spread`` times the
        range, or +-``spread``."""
        v = self.value
        if v != 0:
            half = abs(v) * spread
        elif self.lo is not None and self.hi is not None:
            half = (self.hi - self.lo) * spread
        else:
            half = spread
        if self.is_int:
            half = max(1.0, float(round(half)))
        return self.clip(v - half), self.clip(v + half)


def _entry_of(rules: RulesData, key: str, what: str) -> Entry:
    entry = rules.entries.get(key)
    if entry is None:
        close = difflib.get_close_matches(key, list(rules.entries), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KnobError(f"{what} {key}: unknown key of the {rules.game} rules data{hint} "
                        f"(`cthulhu-sim games {rules.game}` lists every key)")
    return entry


def _not_numeric(entry: Entry, what: str) -> KnobError:
    return KnobError(f"{what} {entry.key}: not a number ({entry.allowed()}); only numbers can "
                     "be varied: integer and float keys, or one item of a list of numbers as "
                     "KEY[i]")


def _knob(rules: RulesData, entry: Entry, index: int | None) -> Knob:
    value = rules[entry.key] if index is None else rules[entry.key][index]
    kind = entry.kind if index is None else entry.kind[5:-1]
    return Knob(entry.key, index, kind, float(value), entry.min, entry.max, entry.source,
                entry.note)


def knob(rules: RulesData, name: str, what: str = "--vary", lists: bool = False) -> Knob:
    """The knob ``name`` names (``KEY`` or ``KEY[i]``) in ``rules`` (the rules in effect).
    A whole list is refused (name one item) unless ``lists``, when its first item stands for
    it (the caller expands it)."""
    name = name.strip()
    m = _ITEM.match(name)
    if m:
        entry = _entry_of(rules, m["key"].strip(), what)
        if entry.kind not in NUMERIC_LISTS:
            if entry.kind.startswith("list"):
                raise _not_numeric(entry, what)
            raise KnobError(f"{what} {name}: {entry.key} is not a list ({entry.allowed()}); "
                            f"name it without [...]")
        n = len(rules[entry.key])
        text = m["index"].strip()
        if not text.isdigit() or int(text) >= n:
            raise KnobError(f"{what} {name}: item {text or '(none)'} of {entry.key}, which has "
                            f"{n} items (0 to {n - 1})")
        return _knob(rules, entry, int(text))
    entry = _entry_of(rules, name, what)
    if entry.kind in NUMERIC:
        return _knob(rules, entry, None)
    if entry.kind in NUMERIC_LISTS:
        if lists:
            return _knob(rules, entry, 0)
        n = len(rules[entry.key])
        raise KnobError(f"{what} {name}: a list of {n} numbers ({entry.allowed()}); name one "
                        f"item, {name}[0] to {name}[{n - 1}]")
    raise _not_numeric(entry, what)


def list_knobs(rules: RulesData, key: str) -> list[Knob]:
    """Every item of the list of numbers ``key``, as knobs."""
    entry = rules.entries[key]
    return [_knob(rules, entry, i) for i in range(len(rules[key]))]


def numeric_keys(rules: RulesData) -> list[str]:
    """Every key of kind int or float, in the rules data's order."""
    return [k for k, e in rules.entries.items() if e.kind in NUMERIC]


def select(rules: RulesData, patterns: Sequence[str] | None, what: str = "--keys") -> list[Knob]:
    """The knobs ``patterns`` name, in the rules data's order, each once: with no patterns,
    every numeric key (lists are left out: name ``KEY`` or ``KEY[*]`` for a list's items).  A
    pattern is a key, ``KEY[i]``, a list key (all its items) or a glob (``goo.cthulhu.*``,
    ``turn.*``; one with ``[`` matches list items, ``setup.extra_eldritch[*]``)."""
    if not patterns:
        return [_knob(rules, rules.entries[k], None) for k in numeric_keys(rules)]
    chosen: dict[str, Knob] = {}
    for raw in _split(patterns):
        if any(c in raw for c in "*?"):
            found = _glob(rules, raw)
            if not found:
                raise KnobError(f"{what} {raw}: matches no number of the {rules.game} rules data "
                                "(a glob matches integer and float keys; with [*], the items "
                                "of lists of numbers)")
        elif _ITEM.match(raw):
            found = [knob(rules, raw, what)]
        else:
            k = knob(rules, raw, what, lists=True)
            found = list_knobs(rules, k.key) if k.index is not None else [k]
        for k in found:
            chosen.setdefault(k.name, k)
    order = {k: i for i, k in enumerate(rules.entries)}
    return sorted(chosen.values(), key=lambda k: (order[k.key], k.index or 0))


def _glob(rules: RulesData, pattern: str) -> list[Knob]:
    out: list[Knob] = []
    items = "[" in pattern
    for key, entry in rules.entries.items():
        if entry.kind in NUMERIC and not items and fnmatch.fnmatchcase(key, pattern):
            out.append(_knob(rules, entry, None))
        elif entry.kind in NUMERIC_LISTS and items:
            out += [k for k in list_knobs(rules, key)
                    if fnmatch.fnmatchcase(k.name, pattern.replace("[", "[[]"))]
    return out


def _split(patterns: Iterable[str]) -> list[str]:
    """Patterns given several to an option (``--keys a,b``) or one per option."""
    out = []
    for p in patterns:
        out += [x.strip() for x in re.split(r",(?![^\[]*\])", p) if x.strip()]
    return out


# ---- bounds -------------------------------------------------------------------------------
def parse_bounds(items: Sequence[str] | None) -> dict[str, tuple[str, str]]:
    """``KEY=LO:HI`` options (either side may be left empty: the key's own bound) as
    name -> (lo text, hi text)."""
    out: dict[str, tuple[str, str]] = {}
    for item in items or []:
        name, eq, span = item.partition("=")
        name = name.strip()
        if not eq or ":" not in span or not name:
            raise KnobError(f"--bounds {item}: expected KEY=LO:HI (e.g. setup.bag_eldritch=1:6; "
                            "leave a side empty for the key's own bound)")
        if name in out:
            raise KnobError(f"--bounds {name} is given twice")
        lo, _, hi = span.partition(":")
        out[name] = (lo.strip(), hi.strip())
    return out


def _number(text: str, k: Knob, item: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise KnobError(f"--bounds {item}: {text!r} is not a number") from None
    if not math.isfinite(v):
        raise KnobError(f"--bounds {item}: {text!r} is not a finite number")
    if k.is_int and v != int(v):
        raise KnobError(f"--bounds {item}: {text} is not an integer ({k.name} is one)")
    return v


def bounded(k: Knob, span: tuple[str, str] | None) -> Knob:
    """``k`` with its range narrowed to ``span`` (texts from :func:`parse_bounds`): within the
    key's own bounds, low below high, and holding the value in effect."""
    if span is None:
        return k
    item = f"{k.name}={span[0]}:{span[1]}"
    lo = _number(span[0], k, item) if span[0] else k.lo
    hi = _number(span[1], k, item) if span[1] else k.hi
    own = _own_range(k)
    if lo is not None and k.lo is not None and lo < k.lo:
        raise KnobError(f"--bounds {item}: {lo:g} is below the key's minimum, {k.lo:g} ({own})")
    if hi is not None and k.hi is not None and hi > k.hi:
        raise KnobError(f"--bounds {item}: {hi:g} is above the key's maximum, {k.hi:g} ({own})")
    if lo is not None and hi is not None and lo >= hi:
        raise KnobError(f"--bounds {item}: the low end must be below the high end")
    if (lo is not None and k.value < lo) or (hi is not None and k.value > hi):
        raise KnobError(f"--bounds {item}: leaves out {k.name}'s value in effect, "
                        f"{k.cast(k.value)} (the rules data's, or as --set makes it); the range "
                        "must hold it")
    return replace(k, lo=lo, hi=hi)


def _own_range(k: Knob) -> str:
    lo = "no minimum" if k.lo is None else f"{k.cast(k.lo)}"
    hi = "no maximum" if k.hi is None else f"{k.cast(k.hi)}"
    return f"{k.name} allows {lo} to {hi}"


def apply_bounds(knobs: list[Knob], spans: dict[str, tuple[str, str]]) -> list[Knob]:
    """Each knob with its ``--bounds``; a bound naming a knob not varied is an error."""
    names = {k.name for k in knobs}
    for name in spans:
        if name not in names:
            varied = ", ".join(sorted(names)[:8]) + (" ..." if len(names) > 8 else "")
            raise KnobError(f"--bounds {name}: not one of the keys varied ({varied})")
    return [bounded(k, spans.get(k.name)) for k in knobs]


def finite_range(k: Knob, what: str) -> tuple[float, float]:
    """``k``'s range, which must be finite and wider than a point."""
    if k.lo is None or k.hi is None:
        side = "minimum" if k.lo is None else "maximum"
        raise KnobError(f"{what} {k.name}: the rules data gives it no {side}; give its range "
                        f"as --bounds {k.name}=LO:HI")
    if k.hi <= k.lo:
        raise KnobError(f"{what} {k.name}: its range is the one value {k.cast(k.lo)} (the rules "
                        "data allows no other), so there is nothing to vary")
    return k.lo, k.hi


def settings_for(knobs: Sequence[Knob], values: Sequence[float], rules: RulesData
                 ) -> dict[str, Any]:
    """The overrides that give each knob its value (items of one list merged into one list,
    the others as ``rules`` holds them)."""
    out: dict[str, Any] = {}
    for k, v in zip(knobs, values, strict=True):
        if k.index is None:
            out[k.key] = k.cast(v)
        else:
            items = out.get(k.key) or list(rules[k.key])
            items[k.index] = k.cast(v)
            out[k.key] = items
    return out


def value_text(k: Knob, v: float | None) -> str:
    if v is None:
        return "-"
    return str(k.cast(v))
