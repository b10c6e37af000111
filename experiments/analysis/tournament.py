"""Tournaments for competitive games (``cthulhu-sim tournament GAME --strategies a,b,c``).

Every seating of the strategies is one cell of a sweep: with ``k`` strategies and ``n`` seats,
all ``k ** n`` tables, so every strategy sits at every seat equally often against every mix of
the others (no strategy keeps the first seat), on the same playouts (common random numbers).
Being a sweep, a tournament shows progress, resumes where it was stopped, runs on Dask and
keeps its results in Parquet; the seating is the step engine's ``table`` strategy (or a
callback game's ``by_seat``).

From the results: a win matrix (how often ``a`` beat ``b`` in the games one of them won, with
a Wilson interval), and Bradley-Terry ratings fitted by the ``choix`` library (each table
read as its winner beating every other strategy seated there), with 95% intervals from a
parametric bootstrap over each table's outcomes (fixed seed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.reporting.text import set_text, settings_text
from experiments.running.entrants import Entrant
from experiments.running.spec import SweepSpec
from experiments.stats import fmt_rate, rate_text, wilson
from simcore.registry import get_game
from simcore.rules_data import RulesError

MAX_CELLS = 1296  # 6 strategies at 4 seats
BOOTSTRAP = 400
ALPHA = 0.01  # choix's regularisation: keeps a strategy that never wins finite


@dataclass
class TournamentResult:
    game: str
    title: str
    strategies: list[str]
    seats: int
    games: int
    seed: int
    settings: dict[str, Any]
    wins: np.ndarray  # wins[i, j]: games strategy i won with strategy j at the table
    ratings: np.ndarray
    ratings_ci: np.ndarray  # (k, 2)
    sweep_dir: Path | None = None
    tables: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    rules_path: str | None = None

    def unbounded(self) -> list[str | None]:
        return unbounded(self.wins)

    @property
    def n_tables(self) -> int:
        """Tables played: every seating, but those that would seat searches rolling out
        with different players (the step engine's searches at a table share one)."""
        return int(len(self.tables)) if len(self.tables) else int(
            len(self.strategies) ** self.seats)

    def cell_text(self, a: str, b: str, digits: int = 1, interval: bool = True) -> str:
        """One cell of the win matrix in words."""
        c = self.matrix()[a][b]
        if not c["decided"]:
            return "not played" if self.never_met(a, b) else "none decided"
        return rate_text(c["rate"], *(c["ci95"] if interval else (None, None)), digits=digits)

    def never_met(self, a: str, b: str) -> bool:
        """True when no table seated ``a`` with ``b`` (searches with different rollouts)."""
        t = self.tables
        if not len(t):
            return False
        cols = [f"strategy.seat_{k}" for k in range(self.seats)]
        seated = t[cols].to_numpy()
        return not any(a in row and b in row for row in seated.tolist())

    def notes(self) -> list[str]:
        """In words, each rating the games do not bound on one side."""
        out = []
        for s, side in zip(self.strategies, self.unbounded(), strict=True):
            if side == "above":
                out.append(f"{s} lost no game it decided against another entrant: its rating "
                           "has no upper bound in these games (the interval's top is set by "
                           "the prior and the regularisation, not by the games).")
            elif side == "below":
                out.append(f"{s} won no game against another entrant: its rating has no lower "
                           "bound in these games (the interval's bottom is set by the prior "
                           "and the regularisation, not by the games).")
        return out

    def command(self) -> str:
        """The command line that plays this tournament again."""
        import shlex

        parts = ["cthulhu-sim", "tournament", self.game, "--strategies",
                 shlex.quote(",".join(self.strategies)), "--games", str(self.games),
                 "--seed", str(self.seed)]
        for k, v in self.settings.items():
            parts += ["--set", shlex.quote(f"{k}={set_text(v)}")]
        if self.rules_path:
            parts += ["--rules", shlex.quote(str(self.rules_path))]
        return " ".join(parts)

    def matrix(self) -> dict[str, dict[str, dict[str, Any]]]:
        """a's share of the games a or b won, seated together (a != b)."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for i, a in enumerate(self.strategies):
            out[a] = {}
            for j, b in enumerate(self.strategies):
                if i == j:
                    continue
                n = int(self.wins[i, j] + self.wins[j, i])
                r = wilson(int(self.wins[i, j]), n)
                out[a][b] = {"rate": r.rate, "ci95": [r.lo, r.hi], "decided": n}
        return out

    def summary(self) -> dict[str, Any]:
        order = np.argsort(-self.ratings)
        return {
            "game": self.game, "title": self.title, "strategies": self.strategies,
            "seats": self.seats, "games_per_table": self.games,
            "tables": self.n_tables, "seed": self.seed,
            "settings": self.settings,
            "ratings": [{"strategy": self.strategies[i], "rating": float(self.ratings[i]),
                         "ci95": [float(self.ratings_ci[i, 0]), float(self.ratings_ci[i, 1])],
                         "unbounded": self.unbounded()[i]}
                        for i in order],
            "rating_scale": "Bradley-Terry log-strength (choix), mean 0: a difference d means "
                            "odds of exp(d) to 1 in a game one of the two wins",
            "win_matrix": self.matrix(),
        }

    def format(self) -> str:
        k = len(self.strategies)
        every = k ** self.seats
        which = ("every seating" if self.n_tables == every else f"of {every} seatings: the "
                 "engine's searches at one table share one rollout player")
        lines = [f"{self.title} - tournament of {', '.join(self.strategies)}: {self.n_tables} "
                 f"tables ({which}), {self.games:,} games each, seed {self.seed}",
                 "  settings: " + (settings_text(self.settings) or "defaults"),
                 "  Bradley-Terry rating (log-strength, mean 0) [95% CI]:"]
        width = max(len(s) for s in self.strategies)
        for row in self.summary()["ratings"]:
            lines.append(f"    {row['strategy']:<{width}}  {row['rating']:+.2f} "
                         f"{interval_text(row)}")
        lines += [f"    note: {n}" for n in self.notes()]
        lines.append("  win matrix: row's share of the games row or column won, seated together")
        texts = {a: {b: "-" if a == b else self.cell_text(a, b) for b in self.strategies}
                 for a in self.strategies}
        ws = [max(len(s), *(len(texts[a][s]) for a in self.strategies))
              for s in self.strategies]  # each column as wide as its name and its cells
        lines.append("    " + " " * width + "  " + "  ".join(
            f"{s:>{w}}" for s, w in zip(self.strategies, ws, strict=True)))
        for a in self.strategies:
            cells = [f"{texts[a][b]:>{w}}" for b, w in zip(self.strategies, ws, strict=True)]
            lines.append(f"    {a:<{width}}  " + "  ".join(cells))
        return "\n".join(lines)


def seat_mixer(game: str) -> str:
    from strategies import registry

    names = registry.names(game)
    if "table" in names:
        return "table"
    if "by_seat" in names:
        return "by_seat"
    raise RulesError(f"{game} cannot seat different strategies at one table")


def tournament_entrants(game: str, strategies: Sequence[str | Entrant] | str,
                        option: str = "--strategies") -> list[Entrant]:
    """The entrants of a tournament of ``game``, each checked (experiments.running.entrants):
    at least two, none twice, each one that can take a seat (with parameters only where the
    game's table takes a seat's parameters)."""
    from experiments.running.entrants import parse_entrants, split_entrants
    from strategies import registry

    items = split_entrants(strategies, option) if isinstance(strategies, str) \
        else list(strategies)
    if len(items) < 2:
        raise RulesError(f"{option}: name at least two strategies, comma-separated")
    mixer = seat_mixer(game)
    choices = registry.specs(game)[mixer].params["seat_0"].choices
    entrants = parse_entrants(game, items, option, allowed=choices,
                              where=f"cannot take a seat in {game}")
    if not registry.specs(game)[mixer].table:
        for e in entrants:
            if not e.plain:
                raise RulesError(f"{option} {e.label!r}: {game} seats strategies with its "
                                 f"{mixer}, which takes no parameters of a seat's strategy; "
                                 "give names only")
    return entrants


def tournament_spec(game: str, strategies: Sequence[str | Entrant] | str, games: int,
                    seed: int, overrides: Iterable[str] | Mapping[str, Any] | None = None,
                    rules_path: str | None = None) -> dict[str, Any]:
    """The sweep a tournament plays: one cell per seating, each seat's axis valued by the
    entrants' labels (``mcts:1000``); :class:`TournamentSpec` gives each cell the entrants'
    parameters."""
    from simcore.rules_data import parse_overrides

    g = get_game(game)
    if g.cooperative:
        raise RulesError(f"{game} is cooperative: a tournament needs a competitive game (a "
                         "strength ladder compares a cooperative game's strategies)")
    base = parse_overrides(overrides)
    strat = sorted(k for k in base if k.startswith("strategy"))
    if strat:
        raise RulesError(f"--set {strat[0]}: a tournament's strategies take their settings "
                         "in the entrant syntax, each its own, e.g. --strategies "
                         "'heuristic,mcts:1000{depth=5}'")
    entrants = tournament_entrants(game, strategies)
    labels = [e.label for e in entrants]
    seats = g.seats(g.configure(base, None, rules_path).rules)
    if seats < 2:
        raise RulesError(f"{game} has one seat here (a solitaire game): a tournament seats "
                         "strategies against each other; compare a one-seat game's strategies "
                         f"with `cthulhu-sim compare {game}` or `cthulhu-sim ladder {game}`")
    cells = len(labels) ** seats
    if cells > MAX_CELLS:
        raise RulesError(f"--strategies: {len(labels)} strategies at {seats} seats make "
                         f"{cells:,} tables; at most {MAX_CELLS:,} (name fewer strategies)")
    tables = playable(_seatings(entrants, seats), game)
    apart = unrated_groups(entrants, tables)
    if apart:
        raise RulesError(f"--strategies: {' and '.join(apart)} never meet, directly or "
                         "through others (searches at one table share one rollout player, and "
                         f"{rollout_text(game, entrants)}); add an entrant that does not search "
                         "(e.g. heuristic), or give the searches the same rollout")
    played = len(tables)
    skipped = cells - played
    description = (f"Every seating of {', '.join(labels)} at the {seats} seats "
                   f"({cells} tables), {games:,} games each on the same seed.")
    if skipped:
        description = (f"Every seating of {', '.join(labels)} at the {seats} seats that the "
                       f"step engine can play ({played} of {cells} tables: the searches at one "
                       f"table share one rollout player, and {rollout_text(game, entrants)}, so "
                       "those meet each other only through the others), "
                       f"{games:,} games each on the same seed.")
    spec: dict[str, Any] = {
        "title": f"{g.title}: tournament of {', '.join(labels)}",
        "description": description,
        "game": game, "seed": int(seed), "strategy": seat_mixer(game),
        "axes": {f"strategy.seat_{k}": list(labels) for k in range(seats)},
        "games": {"per_cell": int(games)},
    }
    if base:
        spec["settings"] = {k: v for k, v in base.items()}
    if rules_path:
        spec["rules"] = str(Path(rules_path).resolve())
    return spec


def searchers(game: str, entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants that search."""
    from strategies import registry

    specs = registry.specs(game)
    return [e for e in entrants if specs[e.name].search is not None]


def rollout_of(game: str, entrant: Entrant) -> str | None:
    """The strategy a search entrant plays positions out with (None: it does not search).
    The searches at one table of the step engine share one rollout player (their rollout
    parameters may differ)."""
    from strategies import registry

    spec = registry.specs(game)[entrant.name]
    if spec.search is None:
        return None
    given = dict(entrant.params).get("rollout")
    return str(given) if given is not None else str(
        spec.params["rollout"].shown(spec.params["rollout"].default))


def rollout_text(game: str, entrants: Sequence[Entrant]) -> str:
    """Which search entrant rolls out with which player, in words."""
    return ", ".join(f"{e.label} rolls out with {rollout_of(game, e)}"
                     for e in searchers(game, entrants))


def unrated_groups(entrants: Sequence[Entrant], tables: Sequence[Sequence[Entrant]]
                   ) -> list[str]:
    """Empty when every entrant is linked to every other by the tables played (directly or
    through others), else the labels of the first group cut off from the rest and of the
    rest: no rating could compare them."""
    labels = [e.label for e in entrants]
    link = {a: {a} for a in labels}
    for seating in tables:
        seated = {e.label for e in seating}
        for a in seated:
            link[a] |= seated
    group = {labels[0]}
    grew = True
    while grew:
        more = set().union(*(link[a] for a in group))
        grew = more != group
        group = more
    if len(group) == len(labels):
        return []
    rest = [a for a in labels if a not in group]
    return [", ".join(a for a in labels if a in group), ", ".join(rest)]


def _seatings(entrants: Sequence[Entrant], seats: int) -> list[tuple[Entrant, ...]]:
    import itertools

    return list(itertools.product(entrants, repeat=seats))


def playable(seatings: Sequence[Sequence[Entrant]], game: str) -> list[Sequence[Entrant]]:
    """The seatings a table can play: its search entrants (any number, each with its own
    budget and parameters) roll out with one player, the one rollout policy the step engine's
    driver holds (``engine.strategy_parts``)."""
    out = []
    for seating in seatings:
        rollouts = {rollout_of(game, e) for e in seating} - {None}
        if len(rollouts) <= 1:
            out.append(seating)
    return out


class TournamentSpec(SweepSpec):
    """A tournament's sweep: each seat's axis value is an entrant's label, and each cell's
    overrides seat that entrant with its own parameters (``strategy.seat_K.iterations``)."""

    entrants: dict[str, Entrant]

    def cells(self):
        if self._cells is None:
            from experiments.running.spec import Cell

            every = super().cells()
            keep = []
            for c in every:
                seating = [self.entrants[label] for label in c.values.values()]
                if not playable([seating], self.game):
                    continue  # searches with different rollout players: not one table
                over = dict(c.overrides)
                for key, label in c.values.items():
                    over.update(self.entrants[label].seat_overrides(key,
                                                                    int(key.rsplit("_", 1)[1])))
                keep.append(Cell(len(keep), c.values, over, c.strategy, c.label))
            self._cells = keep
        return self._cells


def make_spec(raw: Mapping[str, Any], entrants: Sequence[Entrant]) -> TournamentSpec:
    """The sweep of a tournament, every table configured (so a bad setting stops it before
    anything is played or written)."""
    spec = TournamentSpec.from_dict(raw, source="the tournament", validate=False)
    spec.entrants = {e.label: e for e in entrants}
    for cell in spec.cells():
        try:
            spec.configure(cell)
        except RulesError as exc:
            raise RulesError(f"the table {cell.label}: {exc}") from None
    return spec


def ratings_from_wins(wins: np.ndarray) -> np.ndarray:
    import choix

    return np.asarray(choix.ilsr_pairwise_dense(wins.astype(float), alpha=ALPHA))


def analyse(frame: pd.DataFrame, strategies: list[str], seats: int, seed: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(wins matrix, ratings, their 95% intervals) from a tournament sweep's results.

    The intervals come from a bootstrap over each table's outcomes whose probabilities are
    drawn from their posterior under Jeffreys' prior (Dirichlet(n + 1/2)), not fixed at the
    observed shares: a table one side won every game of still varies from one draw to the
    next, so a separable result (one side wins every game) gets an interval of honest width
    rather than none (choix's ``alpha`` keeps every rating finite)."""
    k = len(strategies)
    index = {s: i for i, s in enumerate(strategies)}
    tables = []
    for _, row in frame.iterrows():
        seated = [index[row[f"strategy.seat_{s}"]] for s in range(seats)]
        won = [int(row[f"seat{s}_wins"]) for s in range(seats)]
        tables.append((seated, won, int(row["games"])))

    def matrix(tab) -> np.ndarray:
        w = np.zeros((k, k))
        for seated, won, _ in tab:
            for s, n in enumerate(won):
                for t in range(seats):
                    if t != s and seated[t] != seated[s]:
                        w[seated[s], seated[t]] += n
        return w

    wins = matrix(tables)
    ratings = ratings_from_wins(wins)
    rng = np.random.default_rng([int(seed), 0x70AB])
    boots = np.empty((BOOTSTRAP, k))
    for b in range(BOOTSTRAP):
        sample = []
        for seated, won, n in tables:
            counts = np.array(won + [max(n - sum(won), 0)], dtype=float)
            p = rng.dirichlet(counts + 0.5)
            draw = rng.multinomial(n, p / p.sum())
            sample.append((seated, list(draw[:seats]), n))
        boots[b] = ratings_from_wins(matrix(sample))
    ci = np.percentile(boots, [2.5, 97.5], axis=0).T
    return wins, ratings, ci


def unbounded(wins: np.ndarray) -> list[str | None]:
    """For each strategy: ``"above"`` when it lost no game it decided against another (the
    data set no upper bound on its rating: the interval's top is the prior's), ``"below"``
    when it won none, else None."""
    out: list[str | None] = []
    for i in range(len(wins)):
        won, lost = wins[i].sum() - wins[i, i], wins[:, i].sum() - wins[i, i]
        out.append("above" if won > 0 and lost == 0 else
                   "below" if lost > 0 and won == 0 else None)
    return out


def run_tournament(game: str, strategies: Sequence[str | Entrant] | str, games: int = 2000,
                   seed: int = 1, overrides: Iterable[str] | Mapping[str, Any] | None = None,
                   out: str | Path | None = None, rules_path: str | None = None,
                   resume: bool = False, overwrite: bool = False, scheduler: str | None = None,
                   dask_local: int | None = None, threads: int | None = None,
                   progress: bool = False) -> TournamentResult:
    """Play every seating as a sweep into ``out`` (a temporary folder when None) and rate
    the entrants (names, ``name:budget`` or ``name{key=value}``: experiments.running.entrants);
    the Python twin of ``cthulhu-sim tournament``."""
    import tempfile

    from experiments.running.sweep import run_sweep

    raw = tournament_spec(game, strategies, games, seed, overrides, rules_path)
    entrants = tournament_entrants(game, strategies)
    spec = make_spec(raw, entrants)
    labels = [e.label for e in entrants]
    g = get_game(game)
    seats = len(raw["axes"])
    tmp = None
    if out is None:
        tmp = tempfile.TemporaryDirectory(prefix="cthulhu-sim-tournament-")
        out = tmp.name
    try:
        sweep = run_sweep(spec, out, resume=resume, overwrite=overwrite, scheduler=scheduler,
                          dask_local=dask_local, threads=threads, progress=progress,
                          report=False)
        wins, ratings, ci = analyse(sweep.results, labels, seats, seed)
        settings = dict(raw.get("settings", {}))
        result = TournamentResult(g.name, g.title, labels, seats, games, seed, settings,
                                  wins, ratings, ci, None if tmp else Path(out),
                                  sweep.results, rules_path=rules_path)
        if tmp is None:
            write_extras(result, Path(out))
        return result
    finally:
        if tmp is not None:
            tmp.cleanup()


def load_tournament(folder: str | Path) -> TournamentResult:
    """A tournament's result again from its folder (its manifest and stored results, as
    ``tournament --out`` wrote them): the same ratings, since the bootstrap is seeded by the
    tournament's seed; ``cthulhu-sim report`` rebuilds its report from it.  A folder whose
    tables are not all played is refused (ValueError), naming how to finish it."""
    import json

    from experiments.running.sweep import load_sweep
    from experiments.storage.store import RULES_COPY

    sweep = load_sweep(folder)
    m = sweep.manifest
    axes = m.get("axes") or {}
    seats = len(axes)
    first = axes.get("strategy.seat_0")
    if not seats or not isinstance(first, list) or not all(
            k == f"strategy.seat_{i}" for i, k in enumerate(axes)):
        raise ValueError(f"{folder}: not a tournament's folder (its sweep is not of the "
                         "seats' strategies)")
    labels = [str(x) for x in (m.get("tournament") or {}).get("entrants") or first]
    done, cells = len(sweep.results), len(m.get("cells") or [])
    if done == 0 or done < cells:
        raise ValueError(f"{folder}: the tournament is unfinished ({done} of {cells} tables "
                         "played); run the same tournament command with --resume to finish it")
    try:
        stored = json.loads((Path(folder) / "tournament.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = {}
    stored = stored if isinstance(stored, dict) else {}
    games = int(stored.get("games_per_table") or m["spec"]["games"]["per_cell"])
    settings = stored.get("settings")
    settings = dict(settings) if isinstance(settings, dict) else dict(m.get("settings") or {})
    seed = int(m["seed"])
    wins, ratings, ci = analyse(sweep.results, labels, seats, seed)
    rules = Path(folder) / RULES_COPY
    g = get_game(m["game"])
    return TournamentResult(g.name, g.title, labels, seats, games, seed, settings, wins,
                            ratings, ci, Path(folder), sweep.results,
                            rules_path=str(rules) if rules.is_file() else None)


def write_extras(result: TournamentResult, out: Path) -> list[Path]:
    """tournament.json, the ratings chart, the win-matrix heatmap and the tournament's report
    (report.md, report.html) beside the sweep's own files; the manifest marks the folder a
    tournament's and lists the charts.  Written whole or not at all: a full disk leaves the
    folder as it was, its tables played (see :func:`experiments.storage.outdir.staged`)."""
    from experiments.storage.outdir import staged

    out = Path(out)
    with staged(out, "sweep") as stage:
        paths = _write_extras(result, stage, out)
    return [out / p.relative_to(stage) for p in paths]


def _write_extras(result: TournamentResult, out: Path, final: Path) -> list[Path]:
    from experiments.storage.jsonout import json_text
    from experiments.storage.outdir import read_manifest
    from experiments.storage.store import write_json, write_text

    paths = [write_text(out / "tournament.json", json_text(result.summary()) + "\n")]
    charts = [ratings_chart(result, out / "chart-ratings.png"),
              wins_heatmap(result, out / "chart-wins.png")]
    doc = report_doc(result, charts)
    title = f"{result.title}: tournament"
    paths.append(write_text(out / "report.md", doc.markdown()))
    paths.append(write_text(out / "report.html", doc.html(
        title, {c.name: c.read_bytes() for c in charts})))
    m = read_manifest(final)
    if m is not None:
        m["charts"] = [c.name for c in charts]
        m["tournament"] = {"entrants": result.strategies, "command": result.command()}
        write_json(out / "manifest.json", m)
    return paths + charts


def ratings_chart(result: TournamentResult, path: Path) -> Path:
    """Each entrant's rating with its 95% interval, strongest at the top; an end the data do
    not bound is drawn as an arrow."""
    from experiments.reporting.charts import _save, plt

    order = np.argsort(result.ratings)
    free = result.unbounded()
    fig, ax = plt.subplots(figsize=(6.4, 0.9 + 0.45 * len(order)), constrained_layout=True)
    y = np.arange(len(order))
    r = result.ratings[order]
    lo, hi = result.ratings_ci[order, 0], result.ratings_ci[order, 1]
    ax.errorbar(r, y, xerr=[r - lo, hi - r], fmt="o", capsize=4, color="C0")
    span = max(float(hi.max() - lo.min()), 1.0)
    for row, i in enumerate(order):
        if free[i] == "above":
            ax.annotate("", xy=(hi[row] + 0.12 * span, row), xytext=(hi[row], row),
                        arrowprops={"arrowstyle": "->", "color": "C3"})
        elif free[i] == "below":
            ax.annotate("", xy=(lo[row] - 0.12 * span, row), xytext=(lo[row], row),
                        arrowprops={"arrowstyle": "->", "color": "C3"})
    ax.set_xlim(lo.min() - 0.2 * span, hi.max() + 0.2 * span)
    ax.set_yticks(y, [result.strategies[i] for i in order])
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("Bradley-Terry rating (log-strength, mean 0), 95% interval")
    ax.set_title(f"{result.title}: tournament ratings", fontsize=10)
    ax.grid(alpha=0.3, axis="x")
    _save(fig, path)
    return path


def wins_heatmap(result: TournamentResult, path: Path) -> Path:
    """The win matrix: the row's share of the games row or column won, seated together."""
    from experiments.reporting.charts import _save, plt

    k = len(result.strategies)
    order = list(np.argsort(-result.ratings))
    names = [result.strategies[i] for i in order]
    m = result.matrix()
    grid = np.full((k, k), np.nan)
    for a, i in enumerate(order):
        for b, j in enumerate(order):
            if i != j and m[names[a]][names[b]]["decided"]:
                grid[a, b] = 100 * m[names[a]][names[b]]["rate"]
    size = 1.0 + 1.0 * k
    fig, ax = plt.subplots(figsize=(size + 1.6, size), constrained_layout=True)
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=100)
    for a in range(k):
        for b in range(k):
            if a == b:
                ax.text(b, a, "-", ha="center", va="center", color="grey")
                continue
            cell = m[names[a]][names[b]]
            if not cell["decided"]:
                ax.text(b, a, result.cell_text(names[a], names[b]).replace(" ", "\n"),
                        ha="center", va="center", fontsize=7, color="grey")
                continue
            v = grid[a, b]
            lo, hi = (100 * x for x in cell["ci95"])
            ax.text(b, a, f"{v:.0f}%\n[{lo:.0f}, {hi:.0f}]", ha="center", va="center",
                    fontsize=7.5, color="black" if 20 < v < 80 else "white")
    ax.set_xticks(range(k), names, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(k), names, fontsize=8)
    ax.set_xlabel("against (column)")
    ax.set_ylabel("strategy (row)")
    cb = fig.colorbar(im, ax=ax, shrink=0.8)
    cb.set_label("row's share of the games row or column won (%)")
    ax.set_title(f"{result.title}: win matrix", fontsize=10)
    _save(fig, path)
    return path


def report_doc(result: TournamentResult, charts: list[Path]):
    from experiments.reporting.report import Doc

    k = len(result.strategies)
    doc = Doc()
    title = f"{result.title}: tournament of {', '.join(result.strategies)}"
    doc.h(1, title)
    n = result.n_tables
    skipped = k ** result.seats - n
    doc.p(f"Every seating of the {k} entrants at the {result.seats} seats ({n} tables, so no "
          "entrant keeps the first seat" + (
              f"; the {skipped} seatings of search entrants that roll out with different "
              "players are not played, because the searches at one table of the step engine "
              "share one rollout player, so those are rated against each other through the "
              "others"
              if skipped else "") +
          f"), {result.games:,} games a table on the same seed ({result.seed}), "
          f"{result.games * n:,} games in all. "
          f"Settings: {settings_text(result.settings) or 'defaults'}. An entrant is written "
          "`name`, `name:budget` (a search's iterations per decision) or `name{key=value}` "
          "(its parameters).")
    doc.h(2, "Ratings")
    rows = []
    for row in result.summary()["ratings"]:
        rows.append([f"`{row['strategy']}`", f"{row['rating']:+.2f}", interval_text(row),
                     _record(result, row["strategy"])])
    doc.table(["entrant", "rating", "95% interval", "games won / decided against others"],
              rows, right={1, 2, 3})
    cap = ("Bradley-Terry ratings (log-strength, mean 0; fitted by choix with a small "
           f"regularisation, alpha = {ALPHA}): a difference d means odds of exp(d) to 1 in a "
           "game one of the two wins. Bars are 95% intervals from a bootstrap over each "
           "table's outcomes (drawn from their posterior under Jeffreys' prior); an arrow "
           "marks an end the games do not bound (an entrant that lost, or won, no game).")
    doc.img(charts[0].name, "Ratings", cap, "Ratings of the entrants with 95% intervals")
    notes = [n for n in result.notes()]
    if notes:
        doc.ul(notes)
    doc.h(2, "Win matrix")
    order = [result.strategies[i] for i in np.argsort(-result.ratings)]
    doc.table(["row against column"] + [f"`{s}`" for s in order],
              [[f"`{a}`"] + ["-" if a == b else result.cell_text(a, b) for b in order]
               for a in order], right=set(range(1, k + 1)))
    doc.img(charts[1].name, "Win matrix",
            "The row's share of the games the row or the column won when seated together, "
            "with 95% Wilson intervals; green: the row wins, red: the column wins.",
            "Heatmap of the win matrix")
    doc.h(2, "Seats")
    doc.p(seat_text(result))
    doc.h(2, "Reproduce")
    doc.code(result.command())
    return doc


def _record(result: TournamentResult, label: str) -> str:
    i = result.strategies.index(label)
    won = result.wins[i].sum() - result.wins[i, i]
    lost = result.wins[:, i].sum() - result.wins[i, i]
    return f"{int(won):,} / {int(won + lost):,}"


def interval_text(row: Mapping[str, Any]) -> str:
    lo, hi = row["ci95"]
    if row.get("unbounded") == "above":
        return f"[{lo:+.2f}, no upper bound]"
    if row.get("unbounded") == "below":
        return f"[no lower bound, {hi:+.2f}]"
    return f"[{lo:+.2f}, {hi:+.2f}]"


def seat_text(result: TournamentResult) -> str:
    t = result.tables
    if not len(t):
        return "No table finished."
    total = int(t["games"].sum())
    parts = []
    for s in range(result.seats):
        r = wilson(int(t[f"seat{s}_wins"].sum()), total)
        parts.append(f"seat {s} {fmt_rate(r)}")
    return ("Over every table (each entrant at each seat equally often), the seats won: "
            + "; ".join(parts) + ".")



