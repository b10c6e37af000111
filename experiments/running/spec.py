"""Sweep specifications: a TOML file naming a game, base settings, axes, strategies, a seed and
how many games to play per cell.  Everything is validated before a single game is played.

::

    title = "Sticky Cthulhu: does the Curse rule help the beginners?"
    game = "sticky"
    seed = 1
    strategy = "honest"                 # or a list: each strategy becomes a value of an axis
    # rules = "my-rules.toml"           # optional rules data file, relative to this spec
    # records = true                    # also keep every playout's full record (Parquet)

    [settings]                          # base overrides, any rules-data key (or strategy.X)
    seats = ["expert", "beginner"]

    [axes]                              # the sweep: every combination is one cell
    players = [2, 3, 4]
    curses = [false, true]

    [games]
    per_cell = 20000                    # a fixed number of games per cell, or:
    # precision = 0.5                   # play until every 95% interval is within +-0.5 points
    # max_per_cell = 262144             #   ... or this many games (the cap)
    # round = 8192                      #   ... adding this many games per round

    [report]
    baseline = { curses = false }       # paired differences against these axis values
    # heatmap = ["goo", "difficulty"]   # the two axes of the win-rate heatmap
    # x = "players"                     # the axis along the x of line charts

Cells are numbered in the order of the Cartesian product of the axes (first axis slowest).
Every cell plays playouts ``0, 1, 2 ...`` of the same seed, so cells share their random
streams (common random numbers) and differences between cells are paired.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.reporting.text import fmt_value, python_scalars
from experiments.running.limits import MAX_GAMES, MAX_SEED
from simcore.rules_data import RulesError

_python_scalars = python_scalars  # (the name other modules used)

TOP_KEYS = ("title", "description", "game", "seed", "strategy", "rules", "records", "settings",
            "axes", "games", "report")
GAMES_KEYS = ("per_cell", "precision", "max_per_cell", "round", "metric")
REPORT_KEYS = ("baseline", "heatmap", "x")
METRICS = ("win", "all")
DEFAULT_ROUND = 8192
DEFAULT_CAP = 1 << 20
# result columns an axis may not shadow
RESERVED = {"cell", "label", "games", "seed", "halfwidth", "n_seats", "win_rate", "win_lo",
            "win_hi", "assumed_values", "rules_values"}


class SpecError(ValueError):
    """A sweep specification is invalid; the message names the file, the key and the reason
    (for a spec with several problems, one line each, all at once: ``problems``)."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]


class Problems:
    """The problems found in one spec, gathered so that all are reported at once."""

    def __init__(self, source: str):
        self.source = source
        self.lines: list[str] = []

    def add(self, key: str, reason: str) -> None:
        """A problem with ``key``."""
        self.add_line(f"key '{key}': {reason}")

    def add_line(self, text: str) -> None:
        if text not in self.lines:
            self.lines.append(text)

    def raise_any(self) -> None:
        if not self.lines:
            return
        if len(self.lines) == 1:
            raise SpecError(f"{self.source}: {self.lines[0]}")
        raise SpecError(f"{self.source}: {len(self.lines)} problems:\n"
                        + "\n".join(f"  {line}" for line in self.lines),
                        [f"{self.source}: {line}" for line in self.lines])


@dataclass(frozen=True)
class Axis:
    key: str
    values: tuple


@dataclass
class Cell:
    """One combination of axis values."""

    index: int
    values: dict[str, Any]  # axis key -> value
    overrides: dict[str, Any]  # settings plus axis values (strategy excluded)
    strategy: str | None
    label: str

    @property
    def name(self) -> str:
        return f"c{self.index:04d}"


@dataclass
class SweepSpec:
    source: str  # the file (or "<dict>") named in error messages
    game: str
    seed: int
    axes: list[Axis]
    settings: dict[str, Any] = field(default_factory=dict)
    strategy: str | None = None
    rules_path: Path | None = None
    rules_text: str | None = None
    records: bool = False
    per_cell: int | None = None
    precision: float | None = None  # how far a 95% interval may reach from the rate, in points
    max_per_cell: int = DEFAULT_CAP
    round: int = DEFAULT_ROUND
    metric: str = "win"
    title: str = ""
    description: str = ""
    baseline: dict[str, Any] | None = None
    heatmap: tuple[str, str] | None = None
    x: str | None = None
    text: str | None = None  # the TOML text it was read from
    strategy_list: bool = False  # the strategy axis came from a top-level list of strategies
    _cells: list[Cell] | None = field(default=None, repr=False)
    _configs: dict[int, Any] = field(default_factory=dict, repr=False)

    # ---- loading -------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, validate: bool = True) -> SweepSpec:
        from simcore.rules_data import not_utf8, read_toml_text, toml_problem

        path = Path(path)
        try:
            text = read_toml_text(path)
        except FileNotFoundError:
            raise SpecError(f"{path}: sweep spec not found") from None
        except IsADirectoryError:
            raise SpecError(f"{path}: is a folder, not a sweep spec (a TOML file; see "
                            "experiments/specs/)") from None
        except UnicodeDecodeError as exc:
            raise SpecError(f"{path}: {not_utf8(exc)}") from None
        except OSError as exc:
            raise SpecError(f"{path}: cannot be read: {exc.strerror or exc}") from None
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SpecError(f"{path}: {toml_problem(text, exc)}") from None
        spec = cls.from_dict(raw, source=str(path), base_dir=path.parent, validate=validate,
                             text=text)
        return spec

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], source: str = "<dict>",
                  base_dir: str | Path | None = None, validate: bool = True,
                  text: str | None = None) -> SweepSpec:
        """A spec from a mapping shaped like the TOML file (the Python API's entry point).
        Every problem found is reported at once (see :class:`SpecError`)."""
        raw = python_scalars(dict(raw))
        problems = Problems(source)
        err = problems.add

        for key in raw:
            if key not in TOP_KEYS:
                err(key, f"unknown key; allowed: {', '.join(TOP_KEYS)}")
        from simcore.registry import game_names

        game = raw.get("game")
        if not isinstance(game, str) or not game:
            err("game", "missing or not a string (the game's CLI name, e.g. \"sticky\")")
            game = None
        elif game.strip().lower() not in game_names():
            err("game", f"unknown game {game!r}; known games: {', '.join(game_names())}")
            game = None
        else:
            game = game.strip().lower()
        seed = raw.get("seed", 1)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            err("seed", f"{seed!r} is not an integer from 0 to {MAX_SEED:,} (2**63 - 1, the "
                "largest seed a playout stream takes)")
            seed = 1

        settings = _flatten(_table(raw.get("settings", {}), "settings", err), "")
        axes_raw = _flatten(_table(raw.get("axes", {}), "axes", err), "", leaf_lists=True)
        axes: list[Axis] = []
        for key, values in axes_raw.items():
            if not isinstance(values, list):
                err(f"axes.{key}", f"{values!r} is not a list of values")
            elif not values:
                err(f"axes.{key}", "empty axis; give at least one value")
            elif len({_canon(v) for v in values}) != len(values):
                err(f"axes.{key}", "repeated value")
            elif key in RESERVED:
                err(f"axes.{key}", f"{key!r} is reserved for a result column")
            elif key in settings:
                err(f"axes.{key}", "also set in [settings]; keep it in one place")
            else:
                axes.append(Axis(key, tuple(values)))

        strategy = raw.get("strategy")
        if isinstance(strategy, list):
            if any(a.key == "strategy" for a in axes):
                err("strategy", "a list of strategies and an axes.strategy; give one")
            elif not strategy:
                err("strategy", "empty list; give at least one strategy")
            else:
                axes.append(Axis("strategy", tuple(strategy)))
            strategy = None
        if strategy is not None and (not isinstance(strategy, str) or not strategy.strip()):
            err("strategy", f"{strategy!r} is not a strategy name or a list of them (leave "
                "the key out for the game's default strategy)")
            strategy = None
        for a in axes:
            if a.key == "strategy" and not all(isinstance(v, str) and v.strip()
                                               for v in a.values):
                err("axes.strategy", "every value must be a strategy name")

        rules_path = None
        rules_text = None
        if raw.get("rules") is not None:
            if not isinstance(raw["rules"], str):
                err("rules", "not a file name")
            else:
                rules_path = Path(raw["rules"])
                if not rules_path.is_absolute() and base_dir is not None:
                    rules_path = Path(base_dir) / rules_path
                from simcore.rules_data import not_utf8, read_toml_text

                try:
                    rules_text = read_toml_text(rules_path)
                except IsADirectoryError:
                    err("rules", f"{str(rules_path)!r} is a folder, not a rules data file")
                    rules_path = None
                except UnicodeDecodeError as exc:
                    err("rules", f"rules data file {str(rules_path)!r}: {not_utf8(exc)}")
                    rules_path = None
                except OSError:
                    err("rules", f"rules data file {str(rules_path)!r} not found")
                    rules_path = None
        records = raw.get("records", False)
        if not isinstance(records, bool):
            err("records", f"{records!r} is not true or false")
            records = False

        spec = cls(source=source, game=game or "", seed=seed, axes=axes, settings=settings,
                   strategy=strategy, rules_path=rules_path, rules_text=rules_text,
                   records=records, title=str(raw.get("title", "")),
                   description=str(raw.get("description", "")),
                   strategy_list=isinstance(raw.get("strategy"), list), text=text)
        spec._read_games(raw.get("games"), err)
        spec._read_report(raw.get("report", {}), err)
        if validate and game is not None:
            spec._check_values(problems)
        problems.raise_any()
        return spec

    def _read_games(self, games: Any, err) -> None:
        if games is None:
            err("games", "missing; give games.per_cell (a number of games per cell) or "
                "games.precision (how far a 95% interval may reach from the rate, in "
                "percentage points)")
            return
        if isinstance(games, int) and not isinstance(games, bool):
            games = {"per_cell": games}
        if not isinstance(games, dict):
            err("games", "a table with per_cell or precision, or a number of games")
            return
        for key in games:
            if key not in GAMES_KEYS:
                err(f"games.{key}", f"unknown key; allowed: {', '.join(GAMES_KEYS)}")
        has_n = "per_cell" in games
        has_p = "precision" in games
        if has_n == has_p:
            err("games", "give exactly one of per_cell (games per cell) and precision "
                "(how far a 95% interval may reach from the rate, in percentage points)")
            return

        def posint(key: str, default: int, lo: int = 1) -> int:
            v = games[key]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= MAX_GAMES:
                err(f"games.{key}", f"{v!r} is not an integer from {lo} to {MAX_GAMES:,} (the "
                    "most games a cell plays)")
                return default
            return v

        if has_n:
            self.per_cell = posint("per_cell", 1)
            for key in ("max_per_cell", "round", "metric"):
                if key in games:
                    err(f"games.{key}", "only applies with games.precision")
            return
        p = games["precision"]
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p < 50:
            err("games.precision", f"{p!r} is not a margin in percentage points "
                "(a number above 0 and below 50, e.g. 0.5 for +-0.5 points)")
            p = 1.0
        self.precision = float(p)
        if "round" in games:
            self.round = posint("round", DEFAULT_ROUND)
        if "max_per_cell" in games:
            self.max_per_cell = posint("max_per_cell", DEFAULT_CAP)
        if self.max_per_cell < self.round:
            if "round" in games and "max_per_cell" in games:
                err("games.max_per_cell", f"{self.max_per_cell:,} is below games.round "
                    f"({self.round:,}): a cell would stop before its first round is played; "
                    "give a max_per_cell of at least the round, or a smaller round")
            self.round = self.max_per_cell
        metric = games.get("metric", "win")
        if metric not in METRICS:
            err("games.metric", f"{metric!r} is not one of {', '.join(METRICS)} (win: the "
                "win rate, or every seat's; all: every outcome share as well)")
            metric = "win"
        self.metric = metric

    def _read_report(self, report: Any, err) -> None:
        if not isinstance(report, dict):
            err("report", "not a table")
            return
        for key in report:
            if key not in REPORT_KEYS:
                err(f"report.{key}", f"unknown key; allowed: {', '.join(REPORT_KEYS)}")
        axes = {a.key: a for a in self.axes}
        if "baseline" in report:
            base = report["baseline"]
            if not isinstance(base, dict) or not base:
                err("report.baseline", "a table of axis = value, e.g. { players = 2 }")
            else:
                ok = True
                for k, v in base.items():
                    if k not in axes:
                        err(f"report.baseline.{k}", f"not an axis; axes: {', '.join(axes)}")
                        ok = False
                    elif _canon(v) not in {_canon(x) for x in axes[k].values}:
                        err(f"report.baseline.{k}", f"{v!r} is not a value of the axis")
                        ok = False
                if ok:
                    self.baseline = dict(base)
        if "heatmap" in report:
            hm = report["heatmap"]
            if (not isinstance(hm, list) or len(hm) != 2 or hm[0] == hm[1]
                    or any(h not in axes for h in hm)):
                err("report.heatmap", f"{hm!r} is not a list of two different axes")
            else:
                self.heatmap = (hm[0], hm[1])
        if "x" in report:
            if report["x"] not in axes:
                err("report.x", f"{report['x']!r} is not an axis")
            else:
                self.x = report["x"]

    # ---- cells ---------------------------------------------------------------------------
    @property
    def axis_keys(self) -> list[str]:
        return [a.key for a in self.axes]

    def cells(self) -> list[Cell]:
        if self._cells is None:
            out = []
            combos = itertools.product(*[a.values for a in self.axes]) if self.axes else [()]
            for i, combo in enumerate(combos):
                values = dict(zip(self.axis_keys, combo, strict=True))
                over = dict(self.settings)
                over.update({k: v for k, v in values.items() if k != "strategy"})
                strat = values.get("strategy", self.strategy)
                label = ", ".join(f"{k}={fmt_value(v)}" for k, v in values.items()) or "all"
                out.append(Cell(i, values, over, strat, label))
            self._cells = out
        return self._cells

    def configure(self, cell: Cell):
        """The game's Config for ``cell`` (cached)."""
        if cell.index not in self._configs:
            from simcore.registry import get_game

            g = get_game(self.game)
            self._configs[cell.index] = g.configure(cell.overrides, cell.strategy,
                                                    self.rules_path)
        return self._configs[cell.index]

    def validate(self) -> None:
        """Check every value of every axis on its own (type, range, choices), then configure
        every cell (constraints between keys), so a bad value is reported by key before
        anything runs; every problem found is reported at once."""
        problems = Problems(self.source)
        self._check_values(problems)
        problems.raise_any()

    def _check_values(self, problems: Problems) -> None:
        from simcore.registry import get_game
        from strategies import registry

        err = problems.add
        g = get_game(self.game)
        rules = g.default_rules()
        if self.rules_path is not None:
            try:
                rules = g.load_rules(self.rules_path)
            except RulesError as exc:
                err("rules", str(exc))
                return
        if self.strategy is not None:
            try:
                registry.get(g.name, self.strategy)
            except RulesError as exc:
                err("strategy", str(exc))
                return
        # with strategies as an axis, settings' strategy.* keys are each strategy's, checked
        # with it below (the game's default strategy need not have them)
        strategy_axis = any(a.key == "strategy" for a in self.axes)
        base_settings = {k: v for k, v in self.settings.items()
                         if not (strategy_axis and k.startswith("strategy."))}
        try:
            base = g.configure(base_settings, self.strategy, self.rules_path)
        except RulesError as exc:
            where = "settings" if self.settings or self.rules_path is None else "rules"
            err(where, _short(exc))
            base = None
        strat_over = {k[9:]: v for k, v in self.settings.items() if k.startswith("strategy.")}
        bad_axis = False
        for a in self.axes:
            for v in a.values:
                try:
                    if a.key == "strategy":
                        registry.get(g.name, v, strat_over)
                    elif a.key.startswith("strategy."):
                        if base is None:
                            continue
                        registry.get(g.name, base.strategy.name, {**strat_over, a.key[9:]: v})
                    else:
                        rules.with_overrides({a.key: v})
                except RulesError as exc:
                    if a.key.startswith("strategy.") and any(
                            x.key == "strategy" for x in self.axes):
                        continue  # checked with each strategy of the axis, per cell below
                    where = ("strategy" if a.key == "strategy" and self.strategy_list
                             else f"axes.{a.key}")
                    problems.add_line(f"key '{where}' value {fmt_value(v)}: {_short(exc)}")
                    bad_axis = True
        if base is None or bad_axis:
            return  # each cell would repeat the problems above
        for cell in self.cells():
            try:
                self.configure(cell)
            except RulesError as exc:
                problems.add_line(f"cell {cell.label}: {_short(exc)}")

    # ---- identity ------------------------------------------------------------------------
    def normalized(self) -> dict[str, Any]:
        """What decides the results (no titles or report options), as plain JSON data."""
        games: dict[str, Any]
        if self.per_cell is not None:
            games = {"per_cell": self.per_cell}
        else:
            games = {"precision": self.precision, "max_per_cell": self.max_per_cell,
                     "round": self.round, "metric": self.metric}
        return {
            "game": self.game,
            "seed": self.seed,
            "strategy": self.strategy,
            "settings": self.settings,
            "axes": {a.key: list(a.values) for a in self.axes},
            "games": games,
            "records": self.records,
            "rules_sha256": (hashlib.sha256(self.rules_text.encode()).hexdigest()
                             if self.rules_text is not None else None),
        }

    def hash(self) -> str:
        """A digest of the normalized spec, every cell's resolved configuration and the
        simulator's source code, so results of a different spec, of edited rules data or of
        another version of the engine or strategies are never mixed on --resume."""
        from simcore._cache import source_hash

        configs = [self.configure(c).resolved() for c in self.cells()]
        payload = json.dumps({"spec": self.normalized(), "configs": configs,
                              "engine": source_hash()}, sort_keys=True, default=repr)
        return hashlib.sha256(payload.encode()).hexdigest()

    def to_toml(self) -> str:
        """The spec as a TOML file (for specs given as a mapping from Python)."""
        lines = []
        for key in ("title", "description"):
            if getattr(self, key):
                lines.append(f"{key} = {_toml(getattr(self, key))}")
        lines.append(f"game = {_toml(self.game)}")
        lines.append(f"seed = {self.seed}")
        if self.strategy is not None:
            lines.append(f"strategy = {_toml(self.strategy)}")
        if self.rules_path is not None:
            lines.append(f"rules = {_toml(str(self.rules_path))}")
        if self.records:
            lines.append("records = true")
        tables: dict[str, dict[str, Any]] = {
            "settings": self.settings,
            "axes": {a.key: list(a.values) for a in self.axes},
            "games": ({"per_cell": self.per_cell} if self.per_cell is not None else
                      {"precision": self.precision, "round": self.round,
                       "max_per_cell": self.max_per_cell, "metric": self.metric}),
            "report": {k: v for k, v in (("baseline", self.baseline),
                                         ("heatmap", list(self.heatmap or []) or None),
                                         ("x", self.x)) if v is not None},
        }
        for name, table in tables.items():
            if table:
                lines.append(f"\n[{name}]")
                lines += [f"{_toml_key(k)} = {_toml(v)}" for k, v in table.items()]
        return "\n".join(lines) + "\n"

    def saved_toml(self, rules_name: str | None = None) -> str:
        """The spec's TOML text to keep beside its results: the text it was read from (or
        ``to_toml()``), with ``rules`` naming ``rules_name`` (the copy of the rules data file
        kept beside it), so the saved spec runs from wherever the folder is."""
        text = self.text if self.text is not None else self.to_toml()
        if self.rules_path is not None and rules_name is not None:
            text = _retarget_rules(text, rules_name)
        if text is not None:
            # ``records`` turned on by --records (or off from Python) belongs to the sweep too
            text = _with_records(text, self.records)
        if text is not None:
            return text
        old = self.rules_path
        if old is not None and rules_name is not None:
            self.rules_path = Path(rules_name)
        try:
            return self.to_toml()
        finally:
            self.rules_path = old

    def games_text(self) -> str:
        if self.per_cell is not None:
            return f"{self.per_cell:,} games per cell"
        return (f"until every cell's 95% interval is within ±{self.precision:g} points "
                f"(rounds of {self.round:,} games, at most {self.max_per_cell:,} per cell)")

    def settings_text(self) -> str:
        parts = [f"{k}={fmt_value(v)}" for k, v in self.settings.items()]
        if self.rules_path is not None:
            parts.append(f"rules={self.rules_path.name}")
        return ", ".join(parts) or "defaults"


def _with_records(text: str, records: bool) -> str | None:
    """``text`` with its top-level ``records`` equal to ``records``: unchanged when it is,
    with a line added when the key is absent, None when it says otherwise (rewrite it)."""
    raw = tomllib.loads(text)
    if bool(raw.get("records", False)) == records:
        return text
    if "records" in raw:
        return None
    return f"records = {str(records).lower()}  # set by --records\n" + text


def load_spec(spec: str | Path | Mapping[str, Any] | SweepSpec) -> SweepSpec:
    """A validated SweepSpec from a TOML path, a mapping or a SweepSpec."""
    if isinstance(spec, SweepSpec):
        return spec
    if isinstance(spec, Mapping):
        return SweepSpec.from_dict(spec)
    return SweepSpec.load(spec)


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} as TOML")


def _retarget_rules(text: str, name: str) -> str | None:
    """``text`` (a spec's TOML) with its top-level ``rules = "..."`` naming ``name``, keeping
    every other line as written; None when that line cannot be found for sure."""
    header = re.search(r"^\s*\[", text, re.M)
    top = text[:header.start()] if header else text
    pattern = re.compile(r"""^(\s*rules\s*=\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*')""", re.M)
    found = list(pattern.finditer(top))
    if len(found) != 1:
        return None
    m = found[0]
    new = text[:m.start(2)] + json.dumps(name) + text[m.end(2):]
    try:
        if tomllib.loads(new) != {**tomllib.loads(text), "rules": name}:
            return None
    except tomllib.TOMLDecodeError:
        return None
    return new


def _canon(v: Any) -> str:
    return json.dumps(python_scalars(v), sort_keys=True)


def _short(exc: Exception) -> str:
    """A RulesError message without a leading 'override: ' (the spec names the key)."""
    msg = str(exc)
    return re.sub(r"^override: ", "", msg)


def _table(v: Any, key: str, err) -> dict:
    if not isinstance(v, dict):
        err(key, "not a table")
        return {}
    return v


def _flatten(d: dict, prefix: str, leaf_lists: bool = False) -> dict[str, Any]:
    """Nested TOML tables (``table.width_cm = ...``) as dotted keys."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, key + ".", leaf_lists))
        else:
            out[key] = v
    return out
