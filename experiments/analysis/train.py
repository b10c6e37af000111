"""Trained players (``cthulhu-sim train GAME``): a strategy's numeric parameters searched for
the best result in given settings.

**What is searched.**  Every parameter of the strategy that is a number with a range (not a
choice, not a search budget): Optuna's sampler (TPE, or CMA-ES where the ``cmaes`` package is
installed), seeded with the run's seed, proposes values; the starting values (the
strategy's, or a player file's) are the first trial, so the best found is never worse than
the start on the trials' playouts.

**What is maximised.**  A cooperative game: the team's win rate.  A competitive game: one
seat's win rate against a field, trained in rounds: seat 0 against the current best of the
other seats, then seat 1 against the new seat 0, and so on (``rounds``, by default one for
each seat), so no seat is fitted to one fixed opponent that then moves.

**Common random numbers.**  Every trial plays the same playouts (``0 .. n-1`` of the seed),
so two trials differ only where their choices differ.

**Confirmation.**  The winner is played again on fresh playouts the search never saw (indices
from 2**40 of the same seed) beside the starting parameters, and its gain is the paired
difference with its 95% interval: Newcombe's for a rate (cooperative; each seat of a
competitive game, against the trained field), and for a competitive game as a whole the mean
over seats of each playout's gain, with a t interval.  The budget is games in all: a quarter
goes to the confirmation, the rest to the trials.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from experiments.reporting.text import settings_text
from experiments.running.runner import check_memory
from experiments.stats import (
    Difference,
    fmt_diff,
    paired_difference,
    paired_rate_difference,
)
from experiments.storage import outdir
from simcore.game import Config, Game
from simcore.registry import get_game
from simcore.rules_data import RulesError, parse_overrides

CONFIRM_START = 2**40  # the confirmation's playouts: never played by a trial
CONFIRM_SHARE = 0.25  # of the budget
# budgets and display, not play; and varied play (issue 26: a heuristic's noise makes games
# differ), kept at its value: trained to 0 it would play one game again
NOT_TRAINED = ("iterations", "show", "seats", "setup_noise", "tie_noise", "noise")
KIND = "train"
PLAYER = "player.toml"  # the trained player in a training's folder
SAMPLERS = ("tpe", "cmaes")
assert PLAYER in outdir.LAYOUTS[KIND]  # the folder's layout is in experiments/storage/outdir


@dataclass
class Trial:
    round: int
    seat: int | None  # the seat trained (None: cooperative)
    number: int
    params: dict[str, float]
    value: float


@dataclass
class TrainResult:
    game: str
    title: str
    cooperative: bool
    strategy: str
    start_from: str  # the strategy or player file the search started from
    names: list[str]  # the parameters searched
    seats: int
    seat_names: list[str]
    start: dict[int, dict[str, Any]]  # seat (-1: every seat, cooperative) -> parameters
    best: dict[int, dict[str, Any]]
    trials: list[Trial]
    rounds: int
    games_per_trial: int
    confirm_games: int
    budget: int
    seed: int
    sampler: str
    settings: dict[str, Any]
    gain: Difference
    seat_gains: list[Difference] = field(default_factory=list)
    trained_rates: list[float] = field(default_factory=list)  # confirm: the trained table
    start_value: float = float("nan")  # the training objective at the start (last round)
    best_value: float = float("nan")
    seconds: float = 0.0

    @property
    def metric(self) -> str:
        return "team win rate" if self.cooperative else \
            "seat win rate against the others' trained parameters (mean over seats)"

    @property
    def field_text(self) -> str:
        if self.cooperative:
            return "every seat the same player (cooperative)"
        return (f"seat by seat in {self.rounds} rounds, each seat against the other seats' "
                "best so far")

    def best_json(self) -> dict[str, Any]:
        if self.cooperative:
            return dict(self.best[-1])
        return {str(s): dict(p) for s, p in sorted(self.best.items())}

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "title": self.title, "cooperative": self.cooperative,
            "strategy": self.strategy, "start_from": self.start_from, "searched": self.names,
            "metric": self.metric, "settings": self.settings, "seed": self.seed,
            "sampler": self.sampler, "budget": self.budget, "rounds": self.rounds,
            "trials": len(self.trials), "games_per_trial": self.games_per_trial,
            "confirm_games": self.confirm_games, "confirm_start": CONFIRM_START,
            "start": (dict(self.start[-1]) if self.cooperative else
                      {str(s): dict(p) for s, p in sorted(self.start.items())}),
            "best": self.best_json(),
            "gain": {"value": self.gain.mean, "ci95": [self.gain.lo, self.gain.hi],
                     "games": self.gain.n},
            "trial_log": [{"round": t.round, "seat": t.seat, "number": t.number,
                           "params": t.params, "value": t.value} for t in self.trials],
            "seconds": self.seconds,
        }
        if not self.cooperative:
            out["seat_gains"] = [
                {"seat": s, "name": self.seat_names[s], "value": d.mean, "ci95": [d.lo, d.hi]}
                for s, d in enumerate(self.seat_gains)]
            out["trained_seat_win_rates"] = self.trained_rates
        return out

    def player_file(self) -> dict[str, Any]:
        """The player file's content (:func:`strategies.playerfile.write`)."""
        data: dict[str, Any] = {"game": self.game, "strategy": self.strategy}
        if self.cooperative:
            data["parameters"] = dict(self.best[-1])
        else:
            data["seats"] = {str(s): dict(p) for s, p in sorted(self.best.items())}
        data["trained"] = {
            "settings": {k: v for k, v in self.settings.items()},
            "field": self.field_text, "start_from": self.start_from,
            "objective": self.metric, "searched": self.names, "sampler": self.sampler,
            "seed": self.seed, "budget": self.budget, "trials": len(self.trials),
            "rounds": self.rounds, "games_per_trial": self.games_per_trial}
        data["gain"] = {"value": self.gain.mean, "ci95": [self.gain.lo, self.gain.hi],
                        "games": self.confirm_games, "against": "the starting parameters",
                        "playouts": f"fresh: indices from 2**40 of seed {self.seed}"}
        if not self.cooperative:
            data["gain"]["seats"] = [d.mean for d in self.seat_gains]
            data["gain"]["seats_ci95"] = [[d.lo, d.hi] for d in self.seat_gains]
        return data

    def format(self) -> str:
        lines = [f"{self.title} - trained {self.strategy} (from {self.start_from}): "
                 f"{len(self.trials)} trials of {self.games_per_trial:,} games on the same "
                 f"playouts (seed {self.seed}, Optuna {self.sampler}), "
                 f"confirmed on {self.confirm_games:,} fresh playouts",
                 "  settings: " + (settings_text(self.settings) or "defaults"),
                 f"  trained: {self.field_text}"]
        width = max(len(n) for n in self.names)
        who = [-1] if self.cooperative else sorted(self.best)
        for s in who:
            if s >= 0:
                lines.append(f"  seat {s} {self.seat_names[s]}:")
            for n in self.names:
                lines.append(f"    {n:<{width}}  {_num(self.start[s].get(n))} -> "
                             f"{_num(self.best[s].get(n))}")
        lines.append(f"  on the trials' playouts (last round): {100 * self.start_value:.1f}% "
                     f"at the start, {100 * self.best_value:.1f}% at the best")
        if not self.cooperative:
            for s, d in enumerate(self.seat_gains):
                lines.append(f"  seat {s} {self.seat_names[s]} gain against the trained field: "
                             f"{fmt_diff(d, 1)}")
            lines.append("  trained seats' win rates: " + " / ".join(
                f"{100 * r:.1f}%" for r in self.trained_rates))
        lines.append(f"  confirmed gain ({self.metric}): {fmt_diff(self.gain, 1)} "
                     "(paired 95% CI, fresh playouts)")
        return "\n".join(lines)


    def write(self, out: str | Path) -> list[Path]:
        """A training's folder (claimed by :func:`train`'s session): the player file, its
        summary (train.json) and a short report; the manifest last, marked complete.  Written
        whole or not at all (a full disk leaves the plays and the unfinished manifest, for
        ``--resume``; see :func:`experiments.storage.outdir.staged`)."""
        from experiments.storage.outdir import staged

        final = Path(out)
        with staged(final, KIND) as stage:
            paths = self._write_files(stage, final)
        return [final / p.relative_to(stage) for p in paths]

    def _write_files(self, out: Path, final: Path) -> list[Path]:
        from experiments.reporting.report import Doc
        from experiments.running.plays import finish_folder
        from experiments.storage.jsonout import json_text
        from experiments.storage.store import write_text
        from strategies import playerfile

        player = out / PLAYER
        playerfile.write(player, self.player_file())
        paths = [player, write_text(out / "train.json", json_text(self.summary()) + "\n")]
        doc = Doc()
        doc.h(1, f"{self.title}: trained {self.strategy}")
        doc.code(self.format())
        doc.p(f"The trained player: {PLAYER} (use it wherever a strategy is taken: "
              f"--strategy {final / PLAYER}).")
        paths.append(write_text(out / "report.md", doc.markdown()))
        finish_folder(final, into=out, seed=self.seed, budget=self.budget, trials=len(self.trials),
                      gain={"value": self.gain.mean, "ci95": [self.gain.lo, self.gain.hi]})
        return paths


def _num(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def trainable(game: str, strategy: str) -> dict[str, Any]:
    """The parameters of ``strategy`` that training searches: numbers with a range."""
    from strategies import registry

    spec = registry.specs(game).get(strategy)
    if spec is None:
        registry.get(game, strategy)  # the registry's own error naming the known ones
    if spec.table:
        raise RulesError(f"strategy {strategy!r} seats other strategies; train one of them")
    params = {k: p for k, p in spec.params.items()
              if not p.choices and p.hi > p.lo and k not in NOT_TRAINED}
    if not params:
        raise RulesError(f"strategy {strategy!r} of {game} has no numeric parameters to train")
    return params


@dataclass
class _Setup:
    g: Game
    strategy: str
    start_from: str
    names: list[str]
    bounds: dict[str, tuple[float, float]]
    start: dict[int, dict[str, Any]]
    rule_over: dict[str, Any]
    rules_path: str | None
    seats: int
    settings: dict[str, Any]

    def strategy_overrides(self, params: Mapping[int, Mapping[str, Any]]
                           ) -> tuple[dict[str, Any], str]:
        """(the strategy's overrides, the strategy played): cooperative, every seat plays
        ``params[-1]``; competitive, seat k plays ``params[k]`` (a table of the strategy)."""
        if self.g.cooperative:
            return {f"strategy.{k}": v for k, v in params[-1].items()}, self.strategy
        over: dict[str, Any] = {}
        for k in range(self.seats):
            over[f"strategy.seat_{k}"] = self.strategy
            for key, v in params[k].items():
                over[f"strategy.seat_{k}.{key}"] = v
        return over, "table"

    def config(self, params: Mapping[int, Mapping[str, Any]]) -> Config:
        over, strategy = self.strategy_overrides(params)
        return self.g.configure({**self.rule_over, **over}, strategy, self.rules_path)

    def point(self, params: Mapping[int, Mapping[str, Any]], seed: int) -> Any:
        """The plays' point of these parameters (:mod:`experiments.running.plays`)."""
        from experiments.running.plays import make_point

        over, strategy = self.strategy_overrides(params)
        return make_point(self.g, self.rule_over, over, strategy, self.rules_path, seed)


def prepare(game: str, strategy: str | None = None,
            overrides: Iterable[str] | Mapping[str, Any] | None = None,
            rules_path: str | None = None) -> _Setup:
    """Everything checked before anything is played (a RulesError otherwise)."""
    from strategies import playerfile, registry

    g = get_game(game)
    flat = parse_overrides(overrides)
    strat_over = {k[9:]: v for k, v in flat.items() if k.startswith("strategy.")}
    rule_over = {k: v for k, v in flat.items() if not k.startswith("strategy.")}
    base = g.configure(rule_over, None, rules_path)  # the settings are valid
    seats = 0 if g.cooperative else g.seats(base.rules)
    name = strategy or g.default_strategy
    pf = None
    if playerfile.is_player_file(name):
        pf = playerfile.load(name, g.name)
        base_name = pf.strategy
    else:
        base_name = registry.canonical_name(registry.specs(g.name), name)
    params = trainable(g.name, base_name)
    if not g.cooperative and "table" not in registry.names(g.name):
        raise RulesError(f"{g.name} cannot seat a strategy per seat, so cannot be trained "
                         "seat by seat")
    start: dict[int, dict[str, Any]] = {}
    for s in ([-1] if g.cooperative else range(seats)):
        given = {} if pf is None else (pf.parameters if s < 0 else pf.seat_parameters(s))
        strat = registry.get(g.name, base_name, {**given, **strat_over})
        start[s] = {k: v for k, v in strat.param_dict().items() if k in params}
    setup = _Setup(g, base_name, name, list(params),
                   {k: (p.lo, p.hi) for k, p in params.items()}, start, rule_over,
                   rules_path, seats,
                   {k: v for k, v in base.changed().items() if not k.startswith("strategy.")})
    setup.config(start)  # the table (or the strategy) with these settings is accepted
    return setup


def _hits(g: Game, frame: Any, seat: int | None) -> np.ndarray:
    """A frame's or structured records' wins (the team's, or ``seat``'s)."""
    if seat is None or g.cooperative:
        return np.asarray(frame["outcome"]) == 0
    return np.asarray(frame["winner"]) == seat


def _sampler(name: str, seed: int) -> Any:
    import optuna

    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed % (2**32))
    if name == "cmaes":
        try:
            import cmaes  # noqa: F401 - Optuna's CMA-ES sampler needs it
        except ImportError:
            raise RulesError("--sampler cmaes needs the cmaes package (pip install cmaes); "
                             "--sampler tpe needs nothing more") from None
        return optuna.samplers.CmaEsSampler(seed=seed % (2**32), warn_independent_sampling=False)
    raise RulesError(f"--sampler {name!r}: allowed: {', '.join(SAMPLERS)}")


def plan(budget: int, trials: int, rounds: int, confirm_runs: int) -> tuple[int, int, int]:
    """(trials per round, games a trial, games of each confirmation run) for ``budget``
    games in all; a RulesError when it is too small."""
    if trials < 2 * rounds:
        raise RulesError(f"--trials {trials}: give at least 2 a round ({2 * rounds} for "
                         f"{rounds} round{'s' if rounds > 1 else ''})")
    per_round = trials // rounds
    confirm = int(budget * CONFIRM_SHARE) // confirm_runs
    n = (budget - confirm * confirm_runs) // (per_round * rounds)
    if n < 1 or confirm < 1:
        least = math.ceil(per_round * rounds / (1 - CONFIRM_SHARE)) + 4 * confirm_runs
        raise RulesError(f"--budget {budget:,}: too few games for {per_round * rounds} trials "
                         f"and the confirmation; give at least {least:,} or fewer --trials")
    return per_round, n, confirm


def train_request(st: _Setup, budget: int, trials: int, rounds: int, seed: int,
                  sampler: str) -> dict[str, Any]:
    """What decides a training's plays and answer (a folder's manifest; ``--resume``
    refuses a folder of another): the settings, the start (a player file's content
    included), the budget, trials, rounds, seed and sampler."""
    import hashlib
    from pathlib import Path

    from experiments.running.plays import Setting
    from strategies import playerfile

    req = {k: v for k, v in Setting.of(st.g, st.rule_over, None, st.rules_path).request().items()
           if k != "strategy"}
    start_sha = (hashlib.sha256(Path(st.start_from).read_bytes()).hexdigest()
                 if playerfile.is_player_file(st.start_from) else None)
    return {"command": KIND, **req, "strategy": st.strategy, "start_from": st.start_from,
            "start_sha256": start_sha,
            "start": {str(s): _plain(p) for s, p in sorted(st.start.items())},
            "budget": int(budget), "trials": int(trials), "rounds": int(rounds),
            "seed": int(seed), "sampler": sampler}


def _plain(v: Any) -> Any:
    from experiments.reporting.text import python_scalars

    return python_scalars(v)


def train(game: str, strategy: str | None = None,
          overrides: Iterable[str] | Mapping[str, Any] | None = None,
          budget: int = 2000, trials: int = 20, rounds: int | None = None, seed: int = 1,
          sampler: str = "tpe", rules_path: str | None = None, threads: int | None = None,
          on_trial: Callable[[Trial], None] | None = None,
          setup: _Setup | None = None, out: str | Path | None = None, resume: bool = False,
          overwrite: bool = False, on_chunk: Callable[[str, int, int], None] | None = None,
          check_only: bool = False) -> TrainResult | None:
    """Search, then confirm; the Python twin of ``cthulhu-sim train``.

    Every trial's games are played through :mod:`experiments.running.plays` (as
    ``sensitivity`` and ``tune`` play theirs): with ``out`` (a folder) they are kept there
    trial by trial, so a run stopped part way finishes with ``resume`` to the same answer
    (the seeded sampler proposes the same trials again, and each finds its games played).
    Everything is checked before a folder is touched; ``check_only`` stops there."""
    import time

    import optuna

    from experiments.running.plays import Setting, check_folder, session

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    t0 = time.perf_counter()
    st = setup or prepare(game, strategy, overrides, rules_path)
    g = st.g
    rounds = 1 if g.cooperative else (rounds or st.seats)
    if rounds < 1:
        raise RulesError(f"--rounds {rounds}: give at least 1")
    per_round, n, m = plan(budget, trials, rounds, 2 if g.cooperative else st.seats + 1)
    _sampler(sampler, seed)  # (checked before any game)
    check_memory(g, max(n, m), what="a trial")
    request = train_request(st, budget, trials, rounds, seed, sampler)
    if out is not None:
        check_folder(out, KIND, request, resume=resume, overwrite=overwrite)
    if check_only:
        return None
    setting = Setting.of(g, st.rule_over, None, st.rules_path)
    title = f"{g.title}: trained {st.strategy} (from {st.start_from})"
    with session(setting, out, KIND, request, resume=resume, overwrite=overwrite, title=title,
                 seed=seed, threads=threads, on_chunk=on_chunk) as plays:
        result = _train(st, plays, rounds, per_round, n, m, budget, seed, sampler, on_trial)
        result.seconds = time.perf_counter() - t0
        if out is not None:
            result.write(out)
    return result


def _train(st: _Setup, plays: Any, rounds: int, per_round: int, n: int, m: int, budget: int,
           seed: int, sampler: str, on_trial: Callable[[Trial], None] | None) -> TrainResult:
    import optuna

    g = st.g
    best = {s: dict(p) for s, p in st.start.items()}
    log: list[Trial] = []
    start_value = best_value = float("nan")
    for r in range(rounds):
        seat = None if g.cooperative else r % st.seats
        key = -1 if seat is None else seat
        study = optuna.create_study(direction="maximize", sampler=_sampler(sampler, seed + r))
        study.enqueue_trial({k: float(best[key][k]) for k in st.names})
        values: list[tuple[float, int, dict[str, float]]] = []

        def objective(trial: Any, key: int = key, seat: int | None = seat,
                      values: list = values, r: int = r) -> float:
            p = {k: trial.suggest_float(k, *st.bounds[k]) for k in st.names}
            recs = plays.records(st.point({**best, key: {**best[key], **p}}, seed), n)
            v = float(_hits(g, recs, seat).mean())
            values.append((v, trial.number, p))
            t = Trial(r, seat, trial.number, p, v)
            log.append(t)
            if on_trial is not None:
                on_trial(t)
            return v

        study.optimize(objective, n_trials=per_round, gc_after_trial=False)
        top = max(values, key=lambda x: (x[0], -x[1]))  # ties: the earlier (the start first)
        start_value, best_value = values[0][0], top[0]
        best[key] = {**best[key], **top[2]}
    # confirmation on fresh playouts
    trained = plays.records(st.point(best, seed), m, start=CONFIRM_START)
    seat_gains: list[Difference] = []
    rates: list[float] = []
    if g.cooperative:
        base = plays.records(st.point(st.start, seed), m, start=CONFIRM_START)
        gain = paired_rate_difference(_hits(g, trained, None), _hits(g, base, None))
    else:
        a = np.zeros(m)
        b = np.zeros(m)
        for s in range(st.seats):
            base = plays.records(st.point({**best, s: st.start[s]}, seed), m,
                                 start=CONFIRM_START)
            ht, hb = _hits(g, trained, s), _hits(g, base, s)
            seat_gains.append(paired_rate_difference(ht, hb))
            rates.append(float(ht.mean()))
            a += ht
            b += hb
        gain = paired_difference(a / st.seats, b / st.seats)
    names = g.seat_names(st.config(st.start).rules) if not g.cooperative else []
    return TrainResult(g.name, g.title, g.cooperative, st.strategy, st.start_from, st.names,
                       st.seats, names, st.start, best, log, rounds, n, m, budget, seed,
                       sampler, st.settings, gain, seat_gains, rates, start_value,
                       best_value, 0.0)
