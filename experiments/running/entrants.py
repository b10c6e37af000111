"""Entrants: the players a command pits against each other, written one way everywhere.

``compare --strategies``, ``ladder --field``/``--search`` and ``tournament --strategies``
(and, later, ``skill --levels``) take a comma-separated list of entrants, each one of::

    heuristic                       a strategy by name (any case: Heuristic, HEURISTIC)
    mcts:1000                       a search strategy with its budget (iterations, a whole number)
    heuristic{aggression=0.9}       a strategy with parameters, checked as
                                    ``--set strategy.aggression=0.9`` is
    mcts:1000{rollout=random,c=1}   both (a search's rollout player's own: rollout.NAME=...)

Commas inside braces belong to the entrant.  Every mistake is one line naming the entrant and
what is allowed (:class:`EntrantError`, a :class:`~simcore.rules_data.RulesError`): an
unknown strategy, a budget on a strategy that does not search, a budget that is not a whole
number, an unknown parameter or value, the same entrant twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simcore.rules_data import RulesError, parse_text_value

__all__ = ["Entrant", "EntrantError", "check_distinct", "parse_entrant", "parse_entrants",
           "split_entrants"]

# search parameters that count something: a whole number, never 1.5 played as 1
WHOLE = ("iterations", "depth", "show")
MAX_BUDGET = 1_000_000
_ENTRANT = re.compile(r"^\s*(?P<name>[^:{}\s,]+)\s*(?::\s*(?P<budget>[^{}]*?))?\s*"
                      r"(?:\{(?P<body>[^{}]*)\})?\s*$")


class EntrantError(RulesError):
    """An entrant that cannot play as written; the message is one line naming it."""


@dataclass(frozen=True)
class Entrant:
    """One player: a strategy of the game (its name as the registry spells it), a search
    budget (iterations) or None, and its own parameters (in the order given)."""

    name: str
    budget: int | None = None
    params: tuple[tuple[str, Any], ...] = ()
    # a trained player (``train --out``) seated at a table: its strategy is ``name`` and each
    # seat plays that seat's trained parameters (``seat_overrides``)
    player_file: str | None = None

    @property
    def label(self) -> str:
        """The entrant as written, canonically: ``mcts:1000{rollout=random}``."""
        if self.player_file is not None:
            return self.player_file
        text = self.name + (f":{self.budget}" if self.budget is not None else "")
        if self.params:
            text += "{" + ",".join(f"{k}={_shown(v)}" for k, v in self.params) + "}"
        return text

    @property
    def plain(self) -> bool:
        return self.budget is None and not self.params

    def settings(self) -> dict[str, Any]:
        """Its strategy parameters (the budget as ``iterations``), without ``strategy.``."""
        out = dict(self.params)
        if self.budget is not None:
            out["iterations"] = self.budget
        return out

    def overrides(self, prefix: str = "strategy.") -> dict[str, Any]:
        """Its parameters as override keys (``strategy.iterations`` or, for seat K of a
        table, ``strategy.seat_K.iterations`` with ``prefix="strategy.seat_K."``)."""
        return {prefix + k: v for k, v in self.settings().items()}

    def seat_overrides(self, key: str, seat: int) -> dict[str, Any]:
        """What seats this entrant at table seat ``seat`` (``key`` is
        ``strategy.seat_K``): its strategy and its parameters (a player file's: that seat's)."""
        over: dict[str, Any] = {key: self.name}
        if self.player_file is not None:
            from strategies.playerfile import load

            trained = load(self.player_file).seat_parameters(seat)
            over.update({f"{key}.{k}": v for k, v in trained.items()})
        else:
            over.update(self.overrides(key + "."))
        return over

    def __str__(self) -> str:
        return self.label


def _shown(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def read_entrants_file(path: str, option: str = "--strategies") -> list[str]:
    """The entrants of a small TOML file (``--strategies @entrants.toml``)::

        entrants = ["heuristic", "mcts:1000"]      # entrants as written on the command line
        [[entrant]]                                # or one table each
        name = "heuristic"
        budget = 500                               # (a search's)
        params = { aggression = 0.9 }
    """
    import tomllib

    from simcore.rules_data import read_toml_text

    try:
        data = tomllib.loads(read_toml_text(path))
    except OSError as exc:
        raise EntrantError(f"{option} @{path}: cannot be read ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise EntrantError(f"{option} @{path}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - {"entrants", "entrant"})
    if unknown:
        raise EntrantError(f"{option} @{path}: unknown key {unknown[0]!r}; allowed: entrants "
                           "(a list of entrants as text), [[entrant]] (name, budget, params)")
    items = data.get("entrants", [])
    if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
        raise EntrantError(f"{option} @{path}: entrants must be a list of texts, e.g. "
                           "[\"heuristic\", \"mcts:1000\"]")
    items = list(items)
    for k, t in enumerate(data.get("entrant", [])):
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or set(t) - {
                "name", "budget", "params"} or not isinstance(t.get("params", {}), dict):
            raise EntrantError(f"{option} @{path}: entrant {k + 1} must be a table of name "
                               "(text), budget (a whole number) and params (a table)")
        text = t["name"] + (f":{t['budget']}" if "budget" in t else "")
        if t.get("params"):
            text += "{" + ",".join(f"{key}={_shown(v)}" for key, v in t["params"].items()) + "}"
        items.append(text)
    if not items:
        raise EntrantError(f"{option} @{path}: no entrants in the file")
    return items


def split_entrants(text: str, option: str = "--strategies") -> list[str]:
    """``text`` split at the commas outside braces (or ``@FILE``: the entrants of a TOML
    file, :func:`read_entrants_file`); a RulesError for unbalanced braces or an empty item."""
    if text.strip().startswith("@"):
        return read_entrants_file(text.strip()[1:], option)
    items, depth, cur = [], 0, []
    for ch in text:
        if ch == "{":
            depth += 1
            if depth > 1:
                raise EntrantError(f"{option} {text!r}: braces inside braces; write an "
                                   "entrant's parameters as name{{key=value,...}}")
        elif ch == "}":
            depth -= 1
            if depth < 0:
                raise EntrantError(f"{option} {text!r}: a '}}' with no '{{' before it")
        if ch == "," and depth == 0:
            items.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth:
        raise EntrantError(f"{option} {text!r}: a '{{' that is never closed with '}}'")
    items.append("".join(cur))
    if any(not s.strip() for s in items):
        raise EntrantError(f"{option} {text!r}: an empty name in the list; give entrants "
                           "separated by commas, e.g. heuristic,mcts:1000")
    return [s.strip() for s in items]


def _budget(text: str, item: str, option: str) -> int:
    raw = text.strip().replace("_", "").replace(",", "")
    if not re.fullmatch(r"[0-9]+", raw):
        raise EntrantError(f"{option} {item!r}: budget {text.strip()!r} is not a whole number "
                           f"of search iterations; write e.g. NAME:1000 (1 to {MAX_BUDGET:,})")
    n = int(raw)
    if not 1 <= n <= MAX_BUDGET:
        raise EntrantError(f"{option} {item!r}: budget {n:,} is out of range; allowed: 1 to "
                           f"{MAX_BUDGET:,} iterations")
    return n


def parse_entrant(game: str, text: str, option: str = "--strategies",
                  allowed: Sequence[str] | None = None, budget: bool = True,
                  shared: Mapping[str, Any] | None = None, where: str | None = None
                  ) -> Entrant:
    """One entrant of ``game``, checked: its name among ``allowed`` (default: every strategy
    of the game) in any case, its budget only on a search strategy (and only if ``budget``),
    its parameters as ``registry.get`` checks them (with ``shared`` strategy parameters, as
    ``--set strategy.X`` gives every strategy, under its own)."""
    from strategies import registry

    table = registry.specs(game)
    from strategies.playerfile import is_player_file

    if allowed is None and is_player_file(text) and not text.strip().startswith("@"):
        # a trained player (``train --out``): its strategy and parameters come from the file
        try:
            registry.get(game, text.strip())
        except RulesError as exc:
            raise EntrantError(f"{option} {text!r}: {exc}") from None
        return Entrant(text.strip(), None, ())
    if allowed is not None and is_player_file(text) and not text.strip().startswith("@"):
        # a trained player at a table's seat: its strategy must be one a seat takes
        from strategies.playerfile import load

        try:
            pf = load(text.strip(), game)
        except RulesError as exc:
            raise EntrantError(f"{option} {text!r}: {exc}") from None
        if pf.strategy not in allowed:
            raise EntrantError(f"{option} {text!r}: its strategy {pf.strategy!r} "
                               f"{where or 'cannot take a seat'}; allowed: {', '.join(allowed)}")
        return Entrant(pf.strategy, None, (), player_file=text.strip())
    m = _ENTRANT.match(text)
    if m is None:
        raise EntrantError(f"{option} {text!r}: not an entrant; write NAME, NAME:BUDGET or "
                           "NAME{key=value,...} (e.g. heuristic, mcts:1000, "
                           "mcts:500{rollout=random})")
    names = list(allowed) if allowed is not None else list(table)
    name = registry.canonical_name({n: None for n in names}, m["name"])
    if name not in names:
        where = where or f"is not a strategy of {game}"
        raise EntrantError(f"{option} {text!r}: {m['name']!r} {where}; allowed: "
                           f"{', '.join(names)}")
    spec = table[name]
    searches = [n for n in names if n in table and table[n].search is not None]
    n_budget = None
    if m["budget"] is not None:
        if spec.search is None:
            which = (f"search strategies: {', '.join(searches)}" if searches
                     else f"{game} has no search strategy")
            raise EntrantError(f"{option} {text!r}: {name} does not search, so it takes no "
                               f"budget (:N); {which}")
        if not budget:
            raise EntrantError(f"{option} {text!r}: no budget here (the search's budgets "
                               "are given with --budgets); write it as NAME or NAME{...}")
        n_budget = _budget(m["budget"], text, option)
    params: list[tuple[str, Any]] = []
    body = m["body"]
    if body is not None:
        for part in body.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise EntrantError(f"{option} {text!r}: {part.strip()!r} is not key=value; "
                                   f"allowed keys: {_keys(spec)}")
            key, value = (s.strip() for s in part.split("=", 1))
            key = key.removeprefix("strategy.")
            if any(k == key for k, _ in params):
                raise EntrantError(f"{option} {text!r}: {key} is given twice")
            if key == "iterations" and n_budget is not None:
                raise EntrantError(f"{option} {text!r}: the budget is given twice (:{n_budget} "
                                   "and iterations=); give one")
            params.append((key, parse_text_value(value)))
    for key, value in params:
        head = key.split(".")[0]
        nested = (spec.search is not None and head == "rollout") or spec.table
        if head not in spec.params or ("." in key and not nested):
            raise EntrantError(f"{option} {text!r}: {name} has no parameter {key!r}; allowed: "
                               + _keys(spec) + (", rollout.NAME (the rollout player's)"
                                                if spec.search is not None else ""))
        base = key.rsplit(".", 1)[-1]
        if spec.search is not None and base in WHOLE and not (
                isinstance(value, int) and not isinstance(value, bool)):
            raise EntrantError(f"{option} {text!r}: {key}={_shown(value)} is not a whole "
                               f"number; {key} counts, so write e.g. {key}=100")
    entrant = Entrant(name, n_budget, tuple(params))
    own = entrant.settings()
    try:
        registry.get(game, name, {**{k: v for k, v in (shared or {}).items()
                                     if k.split(".")[0] in spec.params}, **own})
    except RulesError as exc:
        why = str(exc).replace("override: key 'strategy.", "'")
        raise EntrantError(f"{option} {text!r}: {why}") from None
    return entrant


def _keys(spec) -> str:
    return ", ".join(spec.params) or "none (it has no parameters)"


def parse_entrants(game: str, text: str | Iterable[str | Entrant],
                   option: str = "--strategies", allowed: Sequence[str] | None = None,
                   budget: bool = True, shared: Mapping[str, Any] | None = None,
                   distinct: bool = True, where: str | None = None) -> list[Entrant]:
    """A list of entrants (a comma-separated text, or a list of texts and Entrants), each
    checked by :func:`parse_entrant`; with ``distinct`` the same player twice is refused."""
    items = split_entrants(text, option) if isinstance(text, str) else list(text)
    out = []
    for item in items:
        if isinstance(item, Entrant):
            out.append(item)
            continue
        if not str(item).strip():
            raise EntrantError(f"{option}: an empty name in the list; give entrants separated "
                               "by commas, e.g. heuristic,mcts:1000")
        out.append(parse_entrant(game, str(item), option, allowed, budget, shared, where))
    if distinct:
        check_distinct(game, out, option)
    return out


def check_distinct(game: str, entrants: Sequence[Entrant], option: str = "--strategies"
                   ) -> None:
    """The same player named twice (``mcts`` and ``MCTS``, or ``mcts`` and ``mcts:200`` at
    its default budget) is refused: a pairing of a player with itself says nothing."""
    from strategies import registry

    seen: dict[tuple, str] = {}
    for e in entrants:
        s = registry.get(game, e.name, e.settings())
        rollout = getattr(s, "rollout", None)  # (a player file's table has none)
        seats = tuple(tuple(m.values) for m in getattr(s, "seats", ()))
        key = (e.name, tuple(s.values), tuple(rollout.values) if rollout is not None else (),
               seats, e.player_file)  # (a trained player at a seat: its file's parameters)
        if key in seen:
            same = "" if seen[key] == e.label else f" ({e.label} plays as {seen[key]})"
            raise EntrantError(f"{option}: repeated strategy {e.label!r} (named twice{same}); "
                               "give each entrant once")
        seen[key] = e.label
