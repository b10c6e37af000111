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

from experiments.reporting.text import settings_text
from experiments.stats import Rate, wilson
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
            "tables": int(len(self.strategies) ** self.seats), "seed": self.seed,
            "settings": self.settings,
            "ratings": [{"strategy": self.strategies[i], "rating": float(self.ratings[i]),
                         "ci95": [float(self.ratings_ci[i, 0]), float(self.ratings_ci[i, 1])]}
                        for i in order],
            "rating_scale": "Bradley-Terry log-strength (choix), mean 0: a difference d means "
                            "odds of exp(d) to 1 in a game one of the two wins",
            "win_matrix": self.matrix(),
        }

    def format(self) -> str:
        k = len(self.strategies)
        lines = [f"{self.title} - tournament of {', '.join(self.strategies)}: {k ** self.seats} "
                 f"tables (every seating), {self.games:,} games each, seed {self.seed}",
                 "  settings: " + (settings_text(self.settings) or "defaults"),
                 "  Bradley-Terry rating (log-strength, mean 0) [95% CI]:"]
        for row in self.summary()["ratings"]:
            lo, hi = row["ci95"]
            lines.append(f"    {row['strategy']:<14} {row['rating']:+.3f} [{lo:+.3f}, {hi:+.3f}]")
        width = max(len(s) for s in self.strategies)
        lines.append("  win matrix: row's share of the games row or column won, seated together")
        lines.append("    " + " " * width + "  " + "  ".join(f"{s:>12}" for s in self.strategies))
        m = self.matrix()
        for a in self.strategies:
            cells = []
            for b in self.strategies:
                cells.append(f"{'-':>12}" if a == b else f"{100 * m[a][b]['rate']:>11.1f}%")
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


def tournament_spec(game: str, strategies: Sequence[str], games: int, seed: int,
                    overrides: Iterable[str] | Mapping[str, Any] | None = None,
                    rules_path: str | None = None) -> dict[str, Any]:
    """The sweep a tournament plays: one cell per seating."""
    from simcore.rules_data import parse_overrides
    from strategies import registry

    g = get_game(game)
    if g.cooperative:
        raise RulesError(f"{game} is cooperative: a tournament needs a competitive game (a "
                         "strength ladder compares a cooperative game's strategies)")
    if len(strategies) < 2:
        raise RulesError("--strategies: name at least two strategies, comma-separated")
    if len(set(strategies)) != len(strategies):
        raise RulesError("--strategies: a strategy is named twice")
    mixer = seat_mixer(game)
    choices = registry.specs(game)[mixer].params["seat_0"].choices
    for s in strategies:
        if s not in choices:
            raise RulesError(f"--strategies: {s!r} cannot take a seat in {game}; allowed: "
                             f"{', '.join(choices)}")
    base = parse_overrides(overrides)
    seats = g.seats(g.configure({k: v for k, v in base.items()
                                 if not k.startswith("strategy.")}, None, rules_path).rules)
    cells = len(strategies) ** seats
    if cells > MAX_CELLS:
        raise RulesError(f"--strategies: {len(strategies)} strategies at {seats} seats make "
                         f"{cells:,} tables; at most {MAX_CELLS:,} (name fewer strategies)")
    spec: dict[str, Any] = {
        "title": f"{g.title}: tournament of {', '.join(strategies)}",
        "description": (f"Every seating of {', '.join(strategies)} at the {seats} seats "
                        f"({cells} tables), {games:,} games each on the same seed."),
        "game": game, "seed": int(seed), "strategy": mixer,
        "axes": {f"strategy.seat_{k}": list(strategies) for k in range(seats)},
        "games": {"per_cell": int(games)},
    }
    if base:
        spec["settings"] = {k: v for k, v in base.items()}
    if rules_path:
        spec["rules"] = str(Path(rules_path).resolve())
    return spec


def ratings_from_wins(wins: np.ndarray) -> np.ndarray:
    import choix

    return np.asarray(choix.ilsr_pairwise_dense(wins.astype(float), alpha=ALPHA))


def analyse(frame: pd.DataFrame, strategies: list[str], seats: int, seed: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(wins matrix, ratings, their 95% intervals) from a tournament sweep's results."""
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
            p = np.array(won + [max(n - sum(won), 0)], dtype=float) / max(n, 1)
            draw = rng.multinomial(n, p / p.sum())
            sample.append((seated, list(draw[:seats]), n))
        boots[b] = ratings_from_wins(matrix(sample))
    ci = np.percentile(boots, [2.5, 97.5], axis=0).T
    return wins, ratings, ci


def run_tournament(game: str, strategies: Sequence[str], games: int = 2000, seed: int = 1,
                   overrides: Iterable[str] | Mapping[str, Any] | None = None,
                   out: str | Path | None = None, rules_path: str | None = None,
                   resume: bool = False, overwrite: bool = False, scheduler: str | None = None,
                   dask_local: int | None = None, threads: int | None = None,
                   progress: bool = False) -> TournamentResult:
    """Play every seating as a sweep into ``out`` (a temporary folder when None) and rate
    the strategies; the Python twin of ``cthulhu-sim tournament``."""
    import tempfile

    from experiments.running.spec import SweepSpec
    from experiments.running.sweep import run_sweep

    strategies = list(strategies)
    raw = tournament_spec(game, strategies, games, seed, overrides, rules_path)
    spec = SweepSpec.from_dict(raw, source="the tournament")
    g = get_game(game)
    seats = len(raw["axes"])
    tmp = None
    if out is None:
        tmp = tempfile.TemporaryDirectory(prefix="cthulhu-sim-tournament-")
        out = tmp.name
    try:
        sweep = run_sweep(spec, out, resume=resume, overwrite=overwrite, scheduler=scheduler,
                          dask_local=dask_local, threads=threads, progress=progress,
                          report=out is not None and tmp is None)
        wins, ratings, ci = analyse(sweep.results, strategies, seats, seed)
        settings = dict(raw.get("settings", {}))
        result = TournamentResult(g.name, g.title, strategies, seats, games, seed, settings,
                                  wins, ratings, ci, None if tmp else Path(out),
                                  sweep.results)
        if tmp is None:
            write_extras(result, Path(out))
        return result
    finally:
        if tmp is not None:
            tmp.cleanup()


def write_extras(result: TournamentResult, out: Path) -> list[Path]:
    """tournament.json and the ratings chart beside the sweep's own files."""
    from experiments.reporting.charts import plt
    from experiments.storage.jsonout import json_text
    from experiments.storage.store import atomic_write, write_text

    paths = [write_text(out / "tournament.json", json_text(result.summary()) + "\n")]
    order = np.argsort(result.ratings)
    fig, ax = plt.subplots(figsize=(6.0, 0.6 + 0.45 * len(order)), constrained_layout=True)
    y = np.arange(len(order))
    r = result.ratings[order]
    lo, hi = result.ratings_ci[order, 0], result.ratings_ci[order, 1]
    ax.errorbar(r, y, xerr=[r - lo, hi - r], fmt="o", capsize=4)
    ax.set_yticks(y, [result.strategies[i] for i in order])
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("Bradley-Terry rating (log-strength, mean 0), 95% bootstrap interval")
    ax.set_title(f"{result.title}: tournament ratings", fontsize=10)
    ax.grid(alpha=0.3, axis="x")
    chart = out / "chart-ratings.png"
    atomic_write(chart, lambda fh: fig.savefig(fh, dpi=110, format="png"))
    plt.close(fig)
    return paths + [chart]


def rate_text(r: Rate) -> str:
    return f"{100 * r.rate:.1f}% [{100 * r.lo:.1f}, {100 * r.hi:.1f}]"
