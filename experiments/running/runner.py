"""Run one configuration of one game and summarise it (the ``cthulhu-sim run`` command)."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from experiments.reporting.labels import GENERIC_OUTCOMES
from experiments.stats import (
    count_interval,
    diff_text,
    length_summary,
    rate_text,
    resolve_figures,
    seat_differences,
    seat_win_rates,
    share_keys,
    wilson,
)
from simcore.game import DEFAULT_BATCH, Config, Game
from simcore.registry import get_game

# Bytes a played game holds in memory beyond its record while a run is summarised (a float
# copy of one column at a time, percentile work arrays): measured peak about record + 40.
SUMMARY_BYTES_PER_GAME = 64
MEMORY_SHARE = 0.8  # of the memory available when the run starts


class TooManyGamesError(ValueError):
    """A run whose records would not fit in this machine's memory."""


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; ``result`` holds the games finished before it (playouts
    ``start .. start + result.games - 1``), or is None when none was."""

    def __init__(self, result: RunResult | None, asked: int):
        super().__init__("interrupted")
        self.result = result
        self.asked = asked


def searching(strategy: Any) -> bool:
    """Does the strategy (or any seat of a table of strategies) search at each decision?  A
    searching game takes seconds, so such runs are played in small batches: Ctrl-C, which
    takes effect between batches, then stops within about a game."""
    if getattr(strategy, "search_fn", None) is not None:
        return True
    return any(searching(s) for s in getattr(strategy, "seats", None) or ())


def search_batch() -> int:
    """The batch of a searching run: a game for each worker thread."""
    import numba

    return max(int(numba.get_num_threads()), 1)


def _read_int(path: str) -> int | None:
    try:
        with open(path) as fh:
            text = fh.read().strip()
        return int(text) if text.isdigit() else None  # (cgroup v2 writes "max": no limit)
    except (OSError, ValueError):
        return None


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def available_memory() -> int | None:
    """Bytes of memory a new allocation can have: the machine's MemAvailable, or less where a
    container (cgroup) limit leaves less.  None where neither can be read (not Linux)."""
    found = []
    machine = _meminfo_available()
    if machine is not None:
        found.append(machine)
    for limit_path, usage_path in (
            ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),  # cgroup v2
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes",  # cgroup v1
             "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        limit = _read_int(limit_path)
        usage = _read_int(usage_path)
        if limit is not None and usage is not None and limit < 1 << 60:  # v1: huge = none
            found.append(max(limit - usage, 0))
    return min(found) if found else None


def check_memory(game: Game, games: int, runs: int = 1, what: str = "a run",
                 advice: str = "several runs with different seeds can be pooled") -> None:
    """Refuse, before playing, a request whose records would not fit in memory: every game's
    record is kept for the summary (and for pairing, in a comparison), so a run asked for far
    more games than fit would otherwise play for minutes and then be killed."""
    avail = available_memory()
    if avail is None:
        return
    per_game = runs * game.record_dtype.itemsize + SUMMARY_BYTES_PER_GAME
    need = games * per_game
    room = int(MEMORY_SHARE * avail)
    if need > room:
        fit = max(room // per_game, 0)
        raise TooManyGamesError(
            f"games: {games:,} games in {what} keep about {need / 1e9:.1f} GB of records in "
            f"memory ({per_game} bytes a game), more than the {room / 1e9:.1f} GB this machine "
            f"can spare now; ask for at most about {fit:,} ({advice})")


@dataclass
class RunResult:
    config: Config
    games: int
    seed: int
    frame: pd.DataFrame = field(repr=False)
    seconds: float

    @property
    def game(self) -> Game:
        return self.config.game

    @property
    def playouts_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")

    def summary(self) -> dict[str, Any]:
        return summarize(self.config, self.frame, self.seed, self.playouts_per_s)


def set_threads(threads: int | None, say: bool = False) -> None:
    """Use ``threads`` worker threads, at most as many as numba has here (its thread pool is
    one per core unless NUMBA_NUM_THREADS says otherwise); ``say``: tell on stderr when the
    request is clamped."""
    if threads:
        import numba

        most = numba.config.NUMBA_NUM_THREADS
        if say and int(threads) > most:
            print(f"note: --threads {threads} is more than the {most} this machine runs at "
                  f"once; clamped: using {most}", file=sys.stderr, flush=True)
        numba.set_num_threads(max(1, min(int(threads), most)))


def progress_bar(total: int, quiet: bool, desc: str, short: bool = False):
    """A tqdm bar on stderr (None when quiet or for runs too short to need one; ``short``:
    a bar however few the games, games that take seconds each)."""
    if quiet or (total <= DEFAULT_BATCH and not short):
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="game", unit_scale=True, file=sys.stderr,
                leave=False, dynamic_ncols=True)


def announce_compile(what: str, *configs: Config) -> None:
    """One line on stderr before numba compiles (or loads compiled code): a first run
    compiles for up to a minute or two, which would otherwise look like a hang.  The games of
    ``configs`` that have no compiled code yet (a fresh clone, an edit to their files) are
    compiled first, on every core (``running.warmup``); the line says how long to expect."""
    from experiments.running import warmup

    items = list(dict.fromkeys((c.game.name, c.strategy.name) for c in configs))
    todo = warmup.cold(items)
    if not todo:
        print(f"{what}: compiling (or loading compiled code) ...", file=sys.stderr, flush=True)
        return
    games = list(dict.fromkeys(g for g, _ in todo))
    seconds = sum(get_game(g).first_compile_s for g in games)
    print(f"{what}: compiling {', '.join(games)} for this machine, once: about "
          f"{_about(seconds)} (later runs load it in seconds) ...", file=sys.stderr, flush=True)
    try:
        warmup.warm(todo, here=True)  # this process compiles the driver meanwhile
    except Exception:  # noqa: BLE001 - the run then compiles what is missing itself
        pass


def _about(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} minutes"


def run(
    game: str | Game,
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    strategy: str | None = None,
    games: int = 10_000,
    seed: int = 1,
    threads: int | None = None,
    quiet: bool = True,
    rules_path: str | None = None,
    batch: int = DEFAULT_BATCH,
    announce: bool = False,
) -> RunResult:
    """Play ``games`` playouts of one configuration; the Python twin of ``cthulhu-sim run``.
    ``announce`` prints a line on stderr before compiling."""
    g = get_game(game) if isinstance(game, str) else game
    config = g.configure(overrides, strategy, rules_path)
    return run_config(config, games, seed, threads=threads, quiet=quiet, batch=batch,
                      announce=announce)


def run_config(config: Config, games: int, seed: int, threads: int | None = None,
               quiet: bool = True, batch: int = DEFAULT_BATCH, start: int = 0,
               announce: bool | str = False) -> RunResult:
    """``announce``: print a line on stderr before compiling (a string names what compiles;
    the game's name otherwise)."""
    from experiments.running.limits import MAX_SEED

    if games < 1:
        raise ValueError("games must be at least 1")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be from 0 to {MAX_SEED} (2**63 - 1)")
    if start < 0 or start + games - 1 > MAX_SEED:
        raise ValueError(f"playout indices must be from 0 to {MAX_SEED} (2**63 - 1)")
    g = config.game
    check_memory(g, games)
    set_threads(threads)
    if announce:
        announce_compile(announce if isinstance(announce, str) else g.name, config)
    g.warm_up(config)  # compile (or load from cache) before the clock starts
    search = searching(config.strategy)
    bar = progress_bar(games, quiet, f"{g.name} {config.strategy.name}", short=search)
    t0 = time.perf_counter()
    try:
        if search:
            frame = _play_searching(config, games, seed, start, min(batch, search_batch()),
                                    bar, t0)
        else:
            frame = g.play(config, games, seed, start=start, batch=batch,
                           progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    return RunResult(config, games, seed, frame, seconds)


def _play_searching(config: Config, games: int, seed: int, start: int, batch: int, bar: Any,
                    t0: float) -> pd.DataFrame:
    """``Game.play`` for a searching strategy, batch by batch (the same games: results do
    not depend on the batch size), so that Ctrl-C stops it within about a game and the games
    finished are kept (:class:`RunInterrupted`)."""
    g = config.game
    parts: list[np.ndarray] = []
    done = 0
    try:
        while done < games:
            n = min(batch, games - done)
            parts.append(g.run_batch(config, seed, start + done, n))
            done += n
            if bar is not None:
                bar.update(n)
    except KeyboardInterrupt:
        kept = None
        if done:
            frame = g.to_frame(np.concatenate(parts))
            kept = RunResult(config, done, seed, frame, time.perf_counter() - t0)
        raise RunInterrupted(kept, games) from None
    return g.to_frame(np.concatenate(parts)) if parts else g.play(config, 0, seed)


def summarize(config: Config, df: pd.DataFrame, seed: int, playouts_per_s: float) -> dict:
    """The JSON summary shared by every game (see the README for the schema)."""
    g = config.game
    n = len(df)
    out: dict[str, Any] = {
        "game": g.name,
        "title": g.title,
        "config": config.resolved(),
        "settings": config.changed(),
        "rules_file": str(config.rules.path),
        "strategy": config.strategy.name,
        "games": n,
        "seed": seed,
    }
    outcome_counts = np.bincount(df["outcome"].to_numpy(), minlength=len(g.outcomes))
    out["outcome_rates"] = {name: float(outcome_counts[i] / n) if n else float("nan")
                            for i, name in enumerate(g.outcomes)}
    out["outcome_ci95"] = {name: [wilson(int(outcome_counts[i]), n).lo,
                                  wilson(int(outcome_counts[i]), n).hi]
                           for i, name in enumerate(g.outcomes)}
    if g.kind.cooperative:
        wins = int(outcome_counts[0])
        r = wilson(wins, n)
        out["win_rate"] = r.rate
        out["ci95"] = [r.lo, r.hi]
    else:
        seats = g.seats(config.rules)
        winners = df["winner"].to_numpy()
        names = g.seat_names(config.rules)
        out["seat_win_rates"] = [{"seat": s, "name": names[s], "rate": r.rate,
                                  "ci95": [r.lo, r.hi]}
                                 for s, r in enumerate(seat_win_rates(winners, seats))]
        out["seat_differences"] = [
            {"seats": [s, t], "diff": d.mean, "ci95": [d.lo, d.hi]}
            for s, t, d in seat_differences(winners, seats)]
    # the outcomes these rules can end in (solitaire has its own), each with what it means
    words = getattr(g, "outcome_text", None) or {}
    out["outcome_words"] = {name: str(words.get(name) or GENERIC_OUTCOMES.get(name)
                                      or name.replace("_", " "))
                            for name in g.possible_outcomes(config.rules)}
    out["turns"] = length_summary(df["turns"].to_numpy())
    _, lo, hi = count_interval(df["turns"].to_numpy())
    out["turns"]["mean_ci95"] = [lo, hi]
    out["playouts_per_s"] = playouts_per_s
    figures = g.summarize_extra(df, config)
    out["extra"], out["extra_ci95"] = resolve_figures(figures)
    out["extra_shares"] = share_keys(figures)
    counts = config.rules.source_counts()
    out["rules_sources"] = counts
    out["assumed_values"] = counts.get("assumed", 0)
    return out


def format_summary(summary: dict) -> str:
    """A readable table of a run summary."""
    seed = summary["seed"]
    seeds = (f"seeds {', '.join(str(s) for s in seed)}" if isinstance(seed, list)
             else f"seed {seed}")
    lines = [
        f"{summary['title']} - strategy {summary['strategy']}, {summary['games']:,} games, "
        f"{seeds}",
    ]
    if "settings" in summary:  # what was run, so a pasted result says it
        from experiments.reporting.text import settings_text

        lines.append("  settings: " + (settings_text(summary["settings"]) or "defaults")
                     + f"  (rules data: {summary['rules_file']})")
    if "win_rate" in summary:
        lines.append(f"  team win rate  {rate_text(summary['win_rate'], *summary['ci95'])}")
    if "seat_win_rates" in summary:
        width = max([4] + [len(f"{r['seat']} {r['name']}") for r in summary["seat_win_rates"]
                           if r.get("name", str(r["seat"])) != str(r["seat"])])
        lines.append(f"  {'seat':<{width}}  win rate [95% CI]")
        for row in summary["seat_win_rates"]:
            name = row.get("name", str(row["seat"]))
            shown = (f"{row['seat']:>{width}}" if name == str(row["seat"])
                     else f"{row['seat']} {name}".ljust(width))
            lines.append(f"  {shown}  {rate_text(row['rate'], *row['ci95'])}")
    if summary.get("seat_differences"):
        lines.append("  seat against seat (win rate difference, paired 95% CI)")
        for row in summary["seat_differences"]:
            s, t = row["seats"]
            lines.append(f"  {s:>4} - {t}  {diff_text(row['diff'], *row['ci95'])}")
    # every outcome these rules can end in, with its rate and what ended the game
    listed = summary.get("outcome_words") or {k: k for k in summary["outcome_rates"]}
    cis = summary.get("outcome_ci95", {})
    rates = {k: rate_text(summary["outcome_rates"].get(k, float("nan")), *cis.get(k, (None,) * 2))
             for k in listed}
    lines.append("  outcomes (what ended the game):")
    nw = max(len(k) for k in listed) if listed else 0
    rw = max(len(v) for v in rates.values()) if rates else 0
    for k, text in listed.items():
        lines.append(f"    {k:<{nw}}  {rates[k]:<{rw}}  " + (text if text != k else ""))
    t = summary["turns"]
    ci = t.get("mean_ci95")
    lines.append(f"  game length (turns): mean {t['mean']:.2f}"
                 + (f" [{max(ci[0], 0):.2f}, {ci[1]:.2f}]" if ci else "")
                 + f", median {t['p50']:.0f}, 90th percentile {t['p90']:.0f}")
    intervals = summary.get("extra_ci95", {})

    shares = set(summary.get("extra_shares", ()))

    def shown(v: Any, ci: Any, digits: int, key: str = "") -> str:
        if not isinstance(v, float):
            return str(v)
        if key in shares:  # a share is a rate, written as every rate is
            return rate_text(v, *(ci if isinstance(ci, list) and len(ci) == 2 else (None,) * 2))
        text = f"{v:.{digits}g}"
        if isinstance(ci, list) and len(ci) == 2 and ci[0] == ci[0] and v == v:
            text += f" [{ci[0]:.{digits}g}, {ci[1]:.{digits}g}]"
        return text

    for k, v in summary.get("extra", {}).items():
        if isinstance(v, dict):
            sub = intervals.get(k, {})
            lines.append(f"  {k.replace('_', ' ')}: " + ", ".join(
                f"{a} {shown(b, sub.get(a), 3, f'{k}.{a}')}" for a, b in v.items()))
        else:
            lines.append(f"  {k.replace('_', ' ')}: {shown(v, intervals.get(k), 4, k)}")
    if intervals:
        lines.append("  (figures in brackets: 95% intervals)")
    lines.append(f"  rules data: {summary['assumed_values']} of "
                 f"{sum(summary['rules_sources'].values())} values are assumed")
    pps = summary.get("playouts_per_s")
    if isinstance(pps, int | float) and math.isfinite(pps):  # (a pool has no one speed)
        lines.append(f"  speed: {pps:,.0f} playouts/s")
    return "\n".join(lines)
