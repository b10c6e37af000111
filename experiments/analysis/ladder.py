"""Strength ladders (``cthulhu-sim ladder GAME``): how far is each strategy from strong play?

Every rung plays the same playouts (the same seed and playout indices: common random numbers):
``random``, each of the game's own strategies, then search at rising budgets.  The headline
figure is the team win rate for a cooperative game, or for a competitive one the win rate of
the rung's strategy at one seat (``--seat``) against a fixed field on the others
(``--field``, the game's default strategy).  Each rung gets a 95% Wilson interval and the
paired (Newcombe) difference to the rung before it: the answer to "does more thinking still
help?".  For cooperative games the skill gap (the best rung's team win rate minus random's,
and minus the game's default strategy's) is a balance figure of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from experiments.reporting.text import settings_text
from experiments.running.entrants import Entrant
from experiments.running.runner import RunResult, check_memory, run_config
from experiments.stats import (
    Difference,
    Rate,
    fmt_diff,
    fmt_rate,
    paired_rate_difference,
    wilson,
)
from simcore.game import Config, Game
from simcore.registry import get_game
from simcore.rules_data import RulesError

DEFAULT_BUDGETS = (100, 300, 1000)
COMPOSITE = ("table", "pair", "by_seat")  # strategies that seat other strategies


@dataclass(frozen=True)
class Rung:
    label: str
    strategy: str
    params: Mapping[str, Any] = field(default_factory=dict)
    budget: int | None = None  # search iterations, for a search rung


@dataclass
class RungResult:
    rung: Rung
    rate: Rate
    turns: float
    hits: np.ndarray = field(repr=False)
    to_previous: Difference | None = None
    seconds: float = 0.0


def default_rungs(game: str, budgets: Sequence[int] = DEFAULT_BUDGETS,
                  search: str = "mcts", search_params: Mapping[str, Any] | None = None
                  ) -> list[Rung]:
    """random, the game's own strategies, then ``search`` at each budget (searchable games)."""
    from strategies import registry

    specs = registry.specs(game)
    plain = [n for n, s in specs.items()
             if s.search is None and not s.table and n not in COMPOSITE]
    order = (["random"] if "random" in plain else []) + [n for n in plain if n != "random"]
    rungs = [Rung(n, n) for n in order]
    if get_game(game).kind.searchable and budgets:
        if search not in specs or specs[search].search is None:
            searches = [n for n, s in specs.items() if s.search is not None]
            raise RulesError(f"--search {search!r} is not a search strategy of {game}; "
                             f"allowed: {', '.join(searches) or 'none'}")
        for b in budgets:  # (the search's own parameters are in each rung's params)
            rungs.append(Rung(f"{search} {b:,}", search,
                              {**(search_params or {}), "iterations": int(b)}, int(b)))
    return rungs


def rung_config(game: Game, rung: Rung, overrides: Iterable[str] | Mapping[str, Any] | None,
                rules_path: str | None, seat: int, field_strategy: str | Entrant) -> Config:
    """The configuration a rung plays: on its own for a cooperative game; at ``seat`` against
    the field for a competitive one (a table of strategies, or the game's by_seat).  The
    field is an entrant (``heuristic``, ``heuristic{aggression=0.9}``, ``mcts:500``)."""
    from experiments.running.entrants import parse_entrant
    from simcore.rules_data import parse_overrides
    from strategies import registry

    if isinstance(field_strategy, str):
        field_strategy = parse_entrant(game.name, field_strategy, "--field")

    base = parse_overrides(overrides)
    if game.cooperative:
        over = {**base, **{f"strategy.{k}": v for k, v in rung.params.items()}}
        return game.configure(over, rung.strategy, rules_path)
    names = registry.names(game.name)
    mixer = "table" if "table" in names else "by_seat" if "by_seat" in names else None
    if mixer is None:
        raise RulesError(f"{game.name} cannot seat different strategies at one table")
    seats = game.seats(game.configure(base, None, rules_path).rules)
    if not 0 <= seat < seats:
        raise RulesError(f"--seat {seat}: {game.name} has seats 0 to {seats - 1} here")
    from experiments.analysis.tournament import rollout_of

    specs = registry.specs(game.name)
    if specs[rung.strategy].search is not None:
        from experiments.running.entrants import Entrant

        mine = rollout_of(game.name, Entrant(rung.strategy, None, tuple(rung.params.items())))
        theirs = rollout_of(game.name, field_strategy)
        if theirs is not None and theirs != mine:
            raise RulesError(f"--field {field_strategy.label}: it searches rolling out with "
                             f"{theirs}, the rung {rung.label} with {mine}, and the searches at "
                             "one table share one rollout player; give the field the rung's "
                             f"rollout ({{rollout={mine}}}) or a field that does not search")
    over = dict(base)
    for k in range(seats):
        over[f"strategy.seat_{k}"] = rung.strategy if k == seat else field_strategy.name
        if k != seat:
            over.update(field_strategy.overrides(f"strategy.seat_{k}."))
    if mixer == "by_seat" and (rung.params or not field_strategy.plain):
        raise RulesError(f"{game.name}'s by_seat cannot set a rung's parameters (nor the "
                         "field's)")
    for key, value in rung.params.items():
        over[f"strategy.seat_{seat}.{key}"] = value
    return game.configure(over, mixer, rules_path)


@dataclass
class LadderResult:
    game: str
    title: str
    cooperative: bool
    seat: int
    field: str
    games: int
    seed: int
    settings: dict[str, Any]
    rungs: list[RungResult]
    seat_name: str = ""
    rules_path: str | None = None
    # a ladder read back from its ladder.json (``load_ladder``) keeps no playouts: its skill
    # gap is the stored one
    stored_gap: dict[str, Difference] | None = None

    @property
    def metric(self) -> str:
        if self.cooperative:
            return "team win rate"
        # a seat known only by its number reads "seat 0", not "0"
        named = self.seat_name and self.seat_name != str(self.seat)
        who = self.seat_name if named else f"seat {self.seat}"
        return f"{who} win rate against {self.field}"

    def skill_gap(self) -> dict[str, Difference] | None:
        """Cooperative games: the best rung minus random, and minus the default strategy."""
        if self.stored_gap is not None:
            return self.stored_gap
        if not self.cooperative or not self.rungs:
            return None
        best = max(self.rungs, key=lambda r: r.rate.rate)
        out = {}
        for r in self.rungs:
            if r.rung.label in ("random", get_game(self.game).default_strategy) and r is not best:
                out[f"{best.rung.label} - {r.rung.label}"] = paired_rate_difference(best.hits,
                                                                                    r.hits)
        return out

    def summary(self) -> dict[str, Any]:
        rungs = []
        for r in self.rungs:
            row: dict[str, Any] = {"label": r.rung.label, "strategy": r.rung.strategy,
                                   "params": dict(r.rung.params), "budget": r.rung.budget,
                                   "rate": r.rate.rate, "ci95": [r.rate.lo, r.rate.hi],
                                   "wins": r.rate.successes, "games": r.rate.trials,
                                   "mean_turns": r.turns, "seconds": r.seconds}
            if r.to_previous is not None:
                row["diff_to_previous"] = {"diff": r.to_previous.mean,
                                           "ci95": [r.to_previous.lo, r.to_previous.hi],
                                           "n": r.to_previous.n}
            rungs.append(row)
        out: dict[str, Any] = {"game": self.game, "title": self.title, "metric": self.metric,
                               "cooperative": self.cooperative, "games": self.games,
                               "seed": self.seed, "settings": self.settings, "rungs": rungs}
        if not self.cooperative:
            out["seat"] = self.seat
            out["seat_name"] = self.seat_name
            out["field"] = self.field
        gap = self.skill_gap()
        if gap:
            out["skill_gap"] = {k: {"diff": d.mean, "ci95": [d.lo, d.hi], "n": d.n}
                                for k, d in gap.items()}
        if self.rules_path:
            out["rules"] = str(self.rules_path)
        out["command"] = self.command()
        return out

    def command(self, out: str | Path | None = None) -> str:
        """The command line that plays this ladder again (into ``out`` when given)."""
        import shlex

        from experiments.reporting.text import set_text

        parts = ["cthulhu-sim", "ladder", self.game, "--games", str(self.games), "--seed",
                 str(self.seed)]
        search = [r.rung for r in self.rungs if r.rung.budget is not None]
        if search:
            parts += ["--budgets", ",".join(str(r.budget) for r in search)]
            own = tuple((k, v) for k, v in search[0].params.items() if k != "iterations")
            if search[0].strategy != "mcts" or own:
                parts += ["--search", shlex.quote(Entrant(search[0].strategy, None, own).label)]
        if not self.cooperative:
            if self.seat != 0:
                parts += ["--seat", str(self.seat)]
            if self.field != get_game(self.game).default_strategy:
                parts += ["--field", shlex.quote(self.field)]
        for k, v in self.settings.items():
            parts += ["--set", shlex.quote(f"{k}={set_text(v)}")]
        if self.rules_path:
            parts += ["--rules", shlex.quote(str(self.rules_path))]
        if out is not None:
            parts += ["--out", shlex.quote(str(out))]
        return " ".join(parts)

    def format(self) -> str:
        lines = [f"{self.title} - strength ladder, {self.games:,} games a rung on the same "
                 f"seed ({self.seed}); {self.metric}",
                 "  settings: " + (settings_text(self.settings) or "defaults")]
        width = max(len(r.rung.label) for r in self.rungs)
        lines.append(f"  {'rung':<{width}}  {'rate [95% CI]':<22} change from the rung above "
                     "(paired)")
        for r in self.rungs:
            diff = fmt_diff(r.to_previous) if r.to_previous is not None else ""
            lines.append(f"  {r.rung.label:<{width}}  {fmt_rate(r.rate):<22} {diff}")
        for k, d in (self.skill_gap() or {}).items():
            lines.append(f"  skill gap {k}: {fmt_diff(d)}")
        return "\n".join(lines)

    def write(self, out: str | Path, overwrite: bool = False) -> list[Path]:
        """ladder.json (every figure the report shows: ``cthulhu-sim report DIR`` rebuilds
        the report from it), a chart and a small report, in a folder claimed as a
        ladder's and written whole or not at all (see
        :func:`experiments.storage.outdir.staged`)."""
        from experiments.storage.jsonout import json_text
        from experiments.storage.outdir import OutDirError, claim, staged, stamp
        from experiments.storage.store import write_json, write_text

        final = Path(out)
        state = claim(final, "ladder", overwrite)
        if state == "same" and not overwrite:
            raise OutDirError(f"--out {final}: already holds a ladder; give another folder, "
                              "or --overwrite to replace it")
        with staged(final, "ladder", replace=state == "same") as stage:
            paths = [write_text(stage / "ladder.json", json_text(self.summary()) + "\n")]
            paths += self.render(stage)
            write_json(stage / "manifest.json", {  # last: the folder is whole
                **stamp("ladder"), "game": self.game, "title": f"{self.title}: strength ladder",
                "games": self.games, "seed": self.seed, "command": self.command(final),
                "charts": [CHART]})
        return [final / p.name for p in paths]

    def render(self, out: str | Path) -> list[Path]:
        """The ladder's chart and report (report.md, report.html) in ``out``, from its
        figures alone (no playouts): what ``write`` draws, and ``report DIR`` redraws."""
        from experiments.reporting.report import Doc
        from experiments.storage.store import write_text

        out = Path(out)
        chart = out / CHART
        title = f"{self.title}: strength ladder"
        caption = (f"{self.title}. {self.metric}, {self.games:,} games a rung on the same seed "
                   f"({self.seed}); settings: {settings_text(self.settings) or 'defaults'}. "
                   "Search rungs against their budget (log scale); the other strategies as "
                   "lines; shaded bands and bars are 95% Wilson intervals.")
        ladder_chart(self, chart, title)
        doc = Doc()
        doc.h(1, title)
        doc.p(caption)
        doc.table(["rung", f"{self.metric} [95% CI]", "change from the rung above (paired)",
                   "mean turns"],
                  [[r.rung.label, fmt_rate(r.rate),
                    fmt_diff(r.to_previous) if r.to_previous is not None else "",
                    f"{r.turns:.1f}"] for r in self.rungs], right={1, 2, 3})
        gap = self.skill_gap()
        if gap:
            doc.ul([f"skill gap {k}: {fmt_diff(d)}" for k, d in gap.items()])
        doc.img(chart.name, title, caption, "Win rate of each rung of the ladder")
        doc.h(2, "Reproduce")
        doc.code(self.command())
        paths = [write_text(out / "report.md", doc.markdown())]
        paths.append(write_text(out / "report.html", doc.html(title,
                                                              {chart.name: chart.read_bytes()})))
        return paths + [chart]


CHART = "chart-ladder.png"


def load_ladder(folder: str | Path) -> LadderResult:
    """A ladder's result again from the ladder.json that ``ladder --out`` wrote (every
    figure of its report); ``cthulhu-sim report DIR`` redraws the report from it.  A folder
    without one (written before ladders kept it) is refused (OutDirError), naming the command
    that plays it again."""
    import json

    from experiments.storage.outdir import OutDirError, read_manifest

    folder = Path(folder)
    m = read_manifest(folder) or {}
    try:
        data = json.loads((folder / "ladder.json").read_text(encoding="utf-8"))
        result = _ladder_from(data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        command = m.get("command") or (
            f"cthulhu-sim ladder {m.get('game', 'GAME')} --games {m.get('games', 'N')} "
            f"--seed {m.get('seed', 'N')} --out {folder} with the options it was played with")
        why = "has no ladder.json" if isinstance(exc, FileNotFoundError) else (
            "has no complete ladder.json")
        raise OutDirError(f"{folder}: the ladder {why} (written before its report could be "
                          f"rebuilt); play it again: {command}") from None
    return result


def _ladder_from(data: dict) -> LadderResult:
    """A :class:`LadderResult` from ladder.json's figures (``LadderResult.summary``)."""
    games = int(data["games"])
    rungs = []
    for row in data["rungs"]:
        budget = row.get("budget")
        rung = Rung(str(row["label"]), str(row["strategy"]), dict(row.get("params") or {}),
                    int(budget) if budget is not None else None)
        trials = int(row.get("games", games))
        wins = int(row["wins"]) if "wins" in row else int(round(float(row["rate"]) * trials))
        rr = RungResult(rung, wilson(wins, trials), float(row["mean_turns"]),
                        np.zeros(0, dtype=bool), seconds=float(row.get("seconds", 0.0)))
        d = row.get("diff_to_previous")
        if d is not None:
            rr.to_previous = Difference(float(d["diff"]), float(d["ci95"][0]),
                                        float(d["ci95"][1]), int(d.get("n", trials)))
        rungs.append(rr)
    gap = {k: Difference(float(d["diff"]), float(d["ci95"][0]), float(d["ci95"][1]),
                         int(d.get("n", games)))
           for k, d in (data.get("skill_gap") or {}).items()}
    cooperative = bool(data["cooperative"])
    game = get_game(str(data["game"]))
    seat_name = data.get("seat_name")
    if seat_name is None and not cooperative:  # (a ladder.json before it kept the name)
        seat_name = str(data.get("metric", "")).partition(" win rate against ")[0]
    return LadderResult(game.name, str(data.get("title") or game.title), cooperative,
                        int(data.get("seat", 0)), str(data.get("field", "")), games,
                        int(data["seed"]), dict(data.get("settings") or {}), rungs,
                        str(seat_name or ""), data.get("rules"),
                        gap if cooperative else None)


def ladder_chart(result: LadderResult, path: Path, title: str) -> None:
    from experiments.reporting.charts import plt  # the project's matplotlib, set up for files
    from experiments.storage.store import atomic_write

    fig, ax = plt.subplots(figsize=(6.4, 4.0), constrained_layout=True)
    search = [r for r in result.rungs if r.rung.budget is not None]
    others = [r for r in result.rungs if r.rung.budget is None]
    budgets = [r.rung.budget for r in search]
    lo_x, hi_x = (min(budgets) / 2, max(budgets) * 2) if budgets else (1, 10)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, r in enumerate(others):
        c = colours[(i + 1) % len(colours)]
        ax.axhline(100 * r.rate.rate, color=c, lw=1.2, ls="--", label=r.rung.label)
        ax.axhspan(100 * r.rate.lo, 100 * r.rate.hi, color=c, alpha=0.12)
    if search:
        y = np.array([100 * r.rate.rate for r in search])
        lo = np.array([100 * r.rate.lo for r in search])
        hi = np.array([100 * r.rate.hi for r in search])
        ax.errorbar(budgets, y, yerr=[y - lo, hi - y], color=colours[0], marker="o", capsize=4,
                    lw=1.8, label=search[0].rung.strategy)
        ax.set_xscale("log")
        ax.set_xlim(lo_x, hi_x)
        ax.set_xlabel("search iterations per decision (log scale)")
    else:
        ax.set_xticks([])
    ax.set_ylabel(f"{result.metric} (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    atomic_write(path, lambda fh: fig.savefig(fh, dpi=110, format="png"))
    plt.close(fig)


def run_ladder(game: str, overrides: Iterable[str] | Mapping[str, Any] | None = None,
               games: int = 200, seed: int = 1, budgets: Sequence[int] = DEFAULT_BUDGETS,
               search: str = "mcts", search_params: Mapping[str, Any] | None = None,
               seat: int = 0, field_strategy: str | None = None,
               rungs: Sequence[Rung] | None = None, rules_path: str | None = None,
               threads: int | None = None, quiet: bool = True,
               on_rung: Callable[[RungResult], None] | None = None) -> LadderResult:
    """Play every rung on playouts 0 .. games-1 of ``seed``; the Python twin of
    ``cthulhu-sim ladder``."""
    from experiments.running.entrants import parse_entrant

    g = get_game(game)
    field_strategy = field_strategy or g.default_strategy
    if isinstance(field_strategy, str):
        field_strategy = parse_entrant(g.name, field_strategy, "--field")
    rungs = list(rungs) if rungs is not None else default_rungs(game, budgets, search,
                                                                search_params)
    if not rungs:
        raise RulesError(f"{game}: no strategies to put on a ladder")
    configs = [rung_config(g, r, overrides, rules_path, seat, field_strategy) for r in rungs]
    check_memory(g, games, what="a ladder rung")
    results: list[RungResult] = []
    for rung, config in zip(rungs, configs, strict=True):
        res: RunResult = run_config(config, games, seed, threads=threads, quiet=quiet)
        f = res.frame
        hits = (f["outcome"].to_numpy() == 0) if g.cooperative else (
            f["winner"].to_numpy() == seat)
        rr = RungResult(rung, wilson(int(hits.sum()), games), float(f["turns"].mean()), hits,
                        seconds=res.seconds)
        if results:
            rr.to_previous = paired_rate_difference(hits, results[-1].hits)
        results.append(rr)
        if on_rung is not None:
            on_rung(rr)
    base = configs[0]
    settings = {k: v for k, v in base.changed().items() if not k.startswith("strategy.")}
    names = g.seat_names(base.rules) if not g.cooperative else []
    return LadderResult(g.name, g.title, g.cooperative, seat, field_strategy.label, games, seed,
                        settings, results, names[seat] if names else "", rules_path)
