"""The skill curve (``cthulhu-sim skill GAME --levels ...``): the balance figure at rising
levels of play, every seat at the same level.

Each level (``random``, ``heuristic``, a player file, ``flat_mc:200`` - a search strategy at
200 iterations a decision, every seat searching) plays the same playouts (``0 .. games-1`` of
the seed: common random numbers).  For each level: the team's win rate (cooperative) or each
seat's win rate, the largest gap between two seats (paired, from the same games) and the
share of stalemates (games the turn cap stopped, or with no winner), with 95% intervals, the
game length and the seconds a game.

Claims, read across the levels:

- **favoured seat** (competitive): the seat ahead at the reference level (``heuristic`` when
  listed, else the first level) with its lead over every other seat clear of 0; at each other
  level it *holds* (the same seat clearly ahead), *flips* (another seat clearly ahead) or is
  *unclear* (within the intervals).
- **settled at the top**: the headline figure (team win rate; seat 0's win rate) of the top
  two levels equal within the paired 95% interval: the figure has stopped moving as the
  players get better.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from experiments.reporting.text import settings_text
from experiments.running.runner import check_memory
from experiments.stats import (
    Difference,
    Rate,
    fmt_diff,
    fmt_rate,
    mean_interval,
    paired_rate_difference,
    seat_differences,
    wilson,
)
from experiments.storage import outdir
from simcore.game import Config, Game
from simcore.registry import get_game
from simcore.rules_data import RulesError, parse_overrides

KIND = "skill"
TIMING = "timing.json"  # seconds each chunk of plays took, kept for --resume
outdir.LAYOUTS.setdefault(KIND, (outdir.MANIFEST, "skill.json", "chart-skill.png", "report.md",
                                 "report.html", TIMING, "plays/p[0-9a-f]*.parquet"))
outdir.KIND_WORDS.setdefault(KIND, "a skill curve")


@dataclass(frozen=True)
class Level:
    label: str
    strategy: str
    budget: int | None = None  # search iterations a decision
    params: tuple[tuple[str, Any], ...] = ()  # the level's own strategy parameters

    def settings(self) -> dict[str, Any]:
        """Its strategy parameters (the budget as ``iterations``), without ``strategy.``."""
        out = dict(self.params)
        if self.budget is not None:
            out["iterations"] = self.budget
        return out


def parse_levels(game: str, text: str) -> list[Level]:
    """The levels, written as every command's entrants are
    (:mod:`experiments.running.entrants`): ``random,heuristic,FILE.toml,flat_mc:200,
    heuristic{caution=0.9}`` or ``@levels.toml``; an EntrantError (a RulesError) of one line
    naming the bad item otherwise."""
    from experiments.running.entrants import EntrantError, parse_entrants
    from strategies import registry

    entrants = parse_entrants(game, str(text), option="--levels",
                              where=f"is not a strategy of {game} or a player file (.toml)")
    specs = registry.specs(game)
    levels = []
    for e in entrants:
        if e.name in specs and specs[e.name].table:
            raise EntrantError(f"--levels {e.label!r}: {e.name} seats other strategies; every "
                               "seat plays one level here")
        levels.append(Level(e.label, e.name, e.budget, e.params))
    return levels


def level_overrides(level: Level) -> dict[str, Any]:
    return {f"strategy.{k}": v for k, v in level.settings().items()}


def level_config(g: Game, level: Level, rule_over: Mapping[str, Any],
                 rules_path: str | None) -> Config:
    return g.configure({**rule_over, **level_overrides(level)}, level.strategy, rules_path)


@dataclass
class LevelResult:
    level: Level
    games: int
    rate: Rate | None  # cooperative: the team's win rate
    seat_rates: list[Rate]
    gap: tuple[int, int, Difference] | None  # the largest seat gap (seats s, t: s - t)
    pairs: list[tuple[int, int, Difference]]
    stalemate: Rate
    turns: tuple[float, float, float]
    seconds: float
    hits: np.ndarray = field(repr=False)  # the headline event, per playout
    favoured: int | None = None  # the seat clearly ahead of every other (None: unclear)

    @property
    def per_game(self) -> float:
        return self.seconds / self.games if self.games else float("nan")


@dataclass
class SkillResult:
    game: str
    title: str
    cooperative: bool
    seat_names: list[str]
    games: int
    seed: int
    settings: dict[str, Any]
    levels: list[LevelResult]
    claims: list[dict[str, Any]]

    @property
    def metric(self) -> str:
        return "team win rate" if self.cooperative else "seat win rates"

    def summary(self) -> dict[str, Any]:
        rows = []
        for r in self.levels:
            row: dict[str, Any] = {
                "level": r.level.label, "strategy": r.level.strategy, "budget": r.level.budget,
                "params": dict(r.level.params),
                "games": r.games,
                "stalemate": {"rate": r.stalemate.rate,
                              "ci95": [r.stalemate.lo, r.stalemate.hi]},
                "turns": {"mean": r.turns[0], "ci95": [r.turns[1], r.turns[2]]},
                "seconds_per_game": r.per_game}
            if self.cooperative:
                row["rates"] = r.rate.rate
                row["ci95"] = [r.rate.lo, r.rate.hi]
            else:
                row["rates"] = [x.rate for x in r.seat_rates]
                row["ci95"] = [[x.lo, x.hi] for x in r.seat_rates]
                row["seat_differences"] = [{"seats": [s, t], "diff": d.mean,
                                            "ci95": [d.lo, d.hi]} for s, t, d in r.pairs]
                if r.gap is not None:
                    s, t, d = r.gap
                    row["largest_gap"] = {"seats": [s, t], "diff": d.mean, "ci95": [d.lo, d.hi]}
                row["favoured"] = r.favoured
            rows.append(row)
        return {"game": self.game, "title": self.title, "cooperative": self.cooperative,
                "metric": self.metric, "seat_names": self.seat_names, "games": self.games,
                "seed": self.seed, "settings": self.settings, "levels": rows,
                "claims": self.claims}

    def table(self) -> tuple[list[str], list[list[str]]]:
        head = ["level"]
        if self.cooperative:
            head.append("team win rate [95% CI]")
        else:
            head += [f"{n} wins [95% CI]" for n in self.seat_names]
            head.append("largest gap (paired)")
        head += ["stalemate / cap", "mean turns", "s a game"]
        rows = []
        for r in self.levels:
            row = [r.level.label]
            if self.cooperative:
                row.append(fmt_rate(r.rate, 1))
            else:
                row += [fmt_rate(x, 1) for x in r.seat_rates]
                if r.gap is not None:
                    s, t, d = r.gap
                    row.append(f"{self.seat_names[s]} - {self.seat_names[t]} {fmt_diff(d, 1)}")
                else:
                    row.append("")
            row += [fmt_rate(r.stalemate, 1), f"{r.turns[0]:.1f}", f"{r.per_game:.2g}"]
            rows.append(row)
        return head, rows

    def format(self) -> str:
        lines = [f"{self.title} - skill curve: every seat at the same level, {self.games:,} "
                 f"games a level on the same playouts (seed {self.seed})",
                 "  settings: " + (settings_text(self.settings) or "defaults")]
        head, rows = self.table()
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
        for row in rows:
            lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
        lines.append("  claims:")
        lines.extend(f"    {c['text']}" for c in self.claims)
        return "\n".join(lines)

    def write(self, out: str | Path, overwrite: bool = False, claimed: bool = False
              ) -> list[Path]:
        """skill.json, a chart and a report, in a folder claimed as a skill curve's
        (``claimed``: by :func:`run_skill`'s session, whose manifest is finished here)."""
        from experiments.reporting.report import Doc
        from experiments.running.plays import finish_folder
        from experiments.storage.jsonout import json_text
        from experiments.storage.outdir import OutDirError, claim, clear, stamp
        from experiments.storage.store import write_json, write_text

        out = Path(out)
        if not claimed and claim(out, KIND, overwrite) == "same":
            if not overwrite:
                raise OutDirError(f"--out {out}: already holds a skill curve; give another "
                                  "folder, or --overwrite to replace it")
            clear(out, KIND)
        out.mkdir(parents=True, exist_ok=True)
        paths = [write_text(out / "skill.json", json_text(self.summary()) + "\n")]
        chart = out / "chart-skill.png"
        title = f"{self.title}: balance at rising levels of play"
        caption = (f"{self.title}. Every seat at the same level; {self.games:,} games a level on "
                   f"the same playouts (seed {self.seed}); settings: "
                   f"{settings_text(self.settings) or 'defaults'}. Shaded bands are 95% Wilson "
                   "intervals; the dashed line is the share of stalemates (turn cap).")
        skill_chart(self, chart, title)
        doc = Doc()
        doc.h(1, title)
        doc.p(caption)
        head, rows = self.table()
        doc.table(head, rows, right=set(range(1, len(head))))
        doc.h(2, "Claims")
        doc.ul([c["text"] for c in self.claims])
        doc.img(chart.name, title, caption, "The balance figure against the level of play")
        doc.h(2, "Reproduce")
        import shlex

        levels = shlex.quote(",".join(r.level.label for r in self.levels))
        sets = " ".join(f"--set {k}={v}" for k, v in self.settings.items())
        doc.code(f"cthulhu-sim skill {self.game} --levels {levels} --games {self.games} "
                 f"--seed {self.seed}" + (f" {sets}" if sets else "") + " --out DIR")
        paths.append(write_text(out / "report.md", doc.markdown()))
        paths.append(write_text(out / "report.html",
                                doc.html(title, {chart.name: chart.read_bytes()})))
        fields = {"games": self.games, "seed": self.seed,
                  "levels": [r.level.label for r in self.levels], "settings": self.settings,
                  "charts": [chart.name]}
        if claimed:
            finish_folder(out, **fields)
        else:
            write_json(out / "manifest.json", {**stamp(KIND), "game": self.game, "title": title,
                                               **fields})
        return paths + [chart]


def from_summary(data: Mapping[str, Any]) -> SkillResult:
    """A skill curve read back from its ``skill.json`` (without the per-playout results):
    enough to write its report again, its favoured-seat claim read afresh."""
    def rate(r: float, ci: Sequence[float], n: int) -> Rate:
        return Rate(round(r * n), n, r, ci[0], ci[1])

    n = int(data["games"])
    levels = []
    for row in data["levels"]:
        lv = Level(row["level"], row["strategy"], row.get("budget"),
                   tuple((row.get("params") or {}).items()))
        st = rate(row["stalemate"]["rate"], row["stalemate"]["ci95"], n)
        turns = (row["turns"]["mean"], *row["turns"]["ci95"])
        secs = row["seconds_per_game"] * n
        if data["cooperative"]:
            levels.append(LevelResult(lv, n, rate(row["rates"], row["ci95"], n), [], None, [],
                                      st, turns, secs, np.zeros(0, dtype=bool)))
            continue
        pairs = [(p["seats"][0], p["seats"][1], Difference(p["diff"], *p["ci95"], n))
                 for p in row["seat_differences"]]
        gap = row.get("largest_gap")
        levels.append(LevelResult(
            lv, n, None, [rate(r, ci, n) for r, ci in zip(row["rates"], row["ci95"],
                                                          strict=True)],
            (gap["seats"][0], gap["seats"][1], Difference(gap["diff"], *gap["ci95"], n))
            if gap else None, pairs, st, turns, secs, np.zeros(0, dtype=bool),
            _favoured(pairs, len(row["rates"]))))
    out = SkillResult(data["game"], data["title"], data["cooperative"],
                      list(data["seat_names"]), n, data["seed"], dict(data["settings"]),
                      levels, [])
    kept = [c for c in data["claims"] if c["claim"] == "settled at the top"]
    out.claims = [c for c in claims_of_levels(out) if c["claim"] != "settled at the top"] + kept
    return out


def claims_of_levels(result: SkillResult) -> list[dict[str, Any]]:
    """The claims that need only each level's figures (not its playouts)."""
    levels = result.levels
    if result.cooperative or not levels:
        return []
    ref = next((i for i, r in enumerate(levels) if r.level.strategy == "heuristic"
                and r.level.budget is None), 0)
    return [favoured_claim([r.level.label for r in levels], [r.favoured for r in levels],
                           result.seat_names, ref)]


def skill_chart(result: SkillResult, path: Path, title: str) -> None:
    from experiments.reporting.charts import plt
    from experiments.storage.store import atomic_write

    fig, ax = plt.subplots(figsize=(6.4, 4.0), constrained_layout=True)
    x = np.arange(len(result.levels))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    series: list[tuple[str, list[Rate]]]
    if result.cooperative:
        series = [("team win rate", [r.rate for r in result.levels])]
    else:
        series = [(f"{name} wins", [r.seat_rates[s] for r in result.levels])
                  for s, name in enumerate(result.seat_names)]
    for i, (label, rates) in enumerate(series):
        c = colours[i % len(colours)]
        ax.plot(x, [100 * r.rate for r in rates], marker="o", color=c, lw=1.8, label=label)
        ax.fill_between(x, [100 * r.lo for r in rates], [100 * r.hi for r in rates], color=c,
                        alpha=0.15)
    st = [r.stalemate for r in result.levels]
    c = "0.4"
    ax.plot(x, [100 * r.rate for r in st], ls="--", marker=".", color=c, lw=1.2,
            label="stalemate / turn cap")
    ax.fill_between(x, [100 * r.lo for r in st], [100 * r.hi for r in st], color=c, alpha=0.1)
    ax.set_xticks(x, [r.level.label for r in result.levels], rotation=20)
    ax.set_xlabel("level of play (every seat)")
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    atomic_write(path, lambda fh: fig.savefig(fh, dpi=110, format="png"))
    plt.close(fig)


def _stalemates(g: Game, frame: Any) -> np.ndarray:
    cap = getattr(g, "cap_outcome", "")
    out = np.zeros(len(frame["outcome"]), dtype=bool)
    if cap and cap in g.outcomes:
        out |= np.asarray(frame["outcome"]) == g.outcomes.index(cap)
    if not g.cooperative:
        out |= np.asarray(frame["winner"]) < 0
    return out


def _favoured(pairs: list[tuple[int, int, Difference]], seats: int) -> int | None:
    for s in range(seats):
        ahead = True
        for a, b, d in pairs:
            if s == a and not d.lo > 0 or s == b and not d.hi < 0:
                ahead = False
        if ahead:
            return s
    return None


def favoured_claim(labels: Sequence[str], favoured: Sequence[int | None],
                   names: Sequence[str], ref: int) -> dict[str, Any]:
    """Who is favoured at level ``ref`` (a seat clearly ahead of every other, or none: even
    within the intervals), and at each level whether that holds, flips (another seat, or
    none, clearly ahead instead) or is unclear (no seat clearly ahead where ``ref`` had one)."""
    fav = favoured[ref]
    state = {}
    for lab, f in zip(labels, favoured, strict=True):
        if f == fav:
            state[lab] = "holds"
        elif f is None:
            state[lab] = "unclear"
        else:
            state[lab] = f"flips to {names[f]}"
    flips = [lab for lab, x in state.items() if x.startswith("flips")]
    unclear = [lab for lab, x in state.items() if x == "unclear"]
    claim = (f"{names[fav]} is favoured" if fav is not None
             else "no seat is clearly favoured")
    holds = not flips and not unclear
    text = (f"{claim} (at {labels[ref]}): "
            + ("holds at every level" if holds else ", ".join(
                [f"holds at {', '.join(k for k, x in state.items() if x == 'holds')}"]
                + [f"{state[k]} at {k}" for k in flips]
                + ([f"unclear (within the intervals) at {', '.join(unclear)}"]
                   if unclear else []))))
    return {"claim": claim, "holds": holds, "flips_at": flips[0] if flips else None,
            "reference": labels[ref], "levels": state, "text": text}


def claims_of(result: SkillResult) -> list[dict[str, Any]]:
    levels = result.levels
    claims = claims_of_levels(result)
    if len(levels) >= 2:
        a, b = levels[-2], levels[-1]
        d = paired_rate_difference(b.hits, a.hits)
        settled = bool(d.lo <= 0 <= d.hi)
        what = "team win rate" if result.cooperative else f"{result.seat_names[0]}'s win rate"
        claims.append({"claim": "settled at the top", "holds": settled,
                       "flips_at": None if settled else b.level.label,
                       "levels": [a.level.label, b.level.label],
                       "diff": d.mean, "ci95": [d.lo, d.hi],
                       "text": f"settled at the top: {what} {b.level.label} - {a.level.label} "
                               f"{fmt_diff(d, 1)} (paired): "
                               + ("within the interval, it has stopped moving" if settled
                                  else "still moving")})
    return claims


def skill_request(setting: Any, levels: Sequence[Level], games: int, seed: int
                  ) -> dict[str, Any]:
    """What decides a skill curve's playouts (a folder's manifest; ``--resume`` refuses a
    folder of another): the settings, the levels (a player file's content included), the
    games and the seed."""
    import hashlib

    from strategies import playerfile

    req = {k: v for k, v in setting.request().items() if k != "strategy"}
    files = {}
    for lv in levels:
        if playerfile.is_player_file(lv.strategy):
            files[lv.label] = hashlib.sha256(Path(lv.strategy).read_bytes()).hexdigest()
    return {"command": KIND, **req, "levels": [lv.label for lv in levels],
            "player_files_sha256": files, "games": int(games), "seed": int(seed)}


def run_skill(game: str, levels: Sequence[Level] | str,
              overrides: Iterable[str] | Mapping[str, Any] | None = None, games: int = 200,
              seed: int = 1, rules_path: str | None = None, threads: int | None = None,
              quiet: bool = True, on_level: Callable[[LevelResult], None] | None = None,
              out: str | Path | None = None, resume: bool = False, overwrite: bool = False,
              on_chunk: Callable[[str, int, int], None] | None = None,
              check_only: bool = False) -> SkillResult | None:
    """Play every level on playouts ``0 .. games-1`` of ``seed``; the Python twin of
    ``cthulhu-sim skill``.  With ``out`` the plays are kept there chunk by chunk
    (:mod:`experiments.running.plays`, as ``sensitivity`` and ``tune`` keep theirs), so a run
    stopped part way finishes with ``resume`` to the same curve; everything is checked
    before a folder is touched, and ``check_only`` stops there."""
    import json
    import time

    from experiments.running.plays import Point, Setting, check_folder, point_id, session
    from experiments.storage.store import write_json

    g = get_game(game)
    if isinstance(levels, str):
        levels = parse_levels(g.name, levels)
    configs = check_levels(g.name, levels, overrides, rules_path)
    check_memory(g, games, what="a level")
    setting = Setting.of(g, parse_overrides(overrides), None, rules_path)
    request = skill_request(setting, levels, games, seed)
    if out is not None:
        check_folder(out, KIND, request, resume=resume, overwrite=overwrite)
    if check_only:
        return None
    seats = 0 if g.cooperative else configs[0].seats
    names = g.seat_names(configs[0].rules) if seats else []
    timing: dict[str, dict[str, float]] = {}
    if out is not None and resume:
        try:
            timing = json.loads((Path(out) / TIMING).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            timing = {}
    mark = [time.perf_counter()]

    def chunk_done(pid: str, start: int, n: int) -> None:
        now = time.perf_counter()
        timing.setdefault(pid, {})[str(start)] = now - mark[0]
        mark[0] = now
        if out is not None:
            write_json(Path(out) / TIMING, timing)
        if on_chunk is not None:
            on_chunk(pid, start, n)

    # small chunks, so that a stopped run of slow (searching) levels loses little
    chunk = min(8192, max(16, -(-games // 8)))
    results = []
    with session(setting, out, KIND, request, resume=resume, overwrite=overwrite,
                 title=f"{g.title}: balance at rising levels of play", seed=seed, chunk=chunk,
                 threads=threads, progress=not quiet, on_chunk=chunk_done) as plays:
        for level, config in zip(levels, configs, strict=True):
            point = Point(point_id(config, seed), {}, level_overrides(level), config)
            if not plays.has(point, games):
                g.warm_up(config)  # (compiled before the clock starts)
            mark[0] = time.perf_counter()
            recs = plays.records(point, games)
            seconds = sum(timing.get(point.pid, {}).values())
            lr = _level_result(g, level, recs, games, seats, seconds)
            results.append(lr)
            if on_level is not None:
                on_level(lr)
        settings = {k: v for k, v in configs[0].changed().items()
                    if not k.startswith("strategy.")}
        result = SkillResult(g.name, g.title, g.cooperative, names, games, seed, settings,
                             results, [])
        result.claims = claims_of(result)
        if out is not None:
            result.write(out, claimed=True)
    return result


def _level_result(g: Game, level: Level, recs: np.ndarray, games: int, seats: int,
                  seconds: float) -> LevelResult:
    f = {name: np.asarray(recs[name]) for name in ("outcome", "winner", "turns")
         if name in recs.dtype.names}
    stale = _stalemates(g, f)
    turns = mean_interval(f["turns"])
    if g.cooperative:
        hits = f["outcome"] == 0
        return LevelResult(level, games, wilson(int(hits.sum()), games), [], None, [],
                           wilson(int(stale.sum()), games), turns, seconds, hits)
    winners = f["winner"]
    rates = [wilson(int((winners == s).sum()), games) for s in range(seats)]
    pairs = seat_differences(winners, seats)
    gap = max(pairs, key=lambda p: abs(p[2].mean)) if pairs else None
    if gap is not None and gap[2].mean < 0:
        s, t, d = gap
        gap = (t, s, Difference(-d.mean, -d.hi, -d.lo, d.n))
    return LevelResult(level, games, None, rates, gap, pairs, wilson(int(stale.sum()), games),
                       turns, seconds, winners == 0, _favoured(pairs, seats))


def check_levels(game: str, levels: Sequence[Level],
                 overrides: Iterable[str] | Mapping[str, Any] | None,
                 rules_path: str | None) -> list[Config]:
    """Every level's configuration, checked before anything is played."""
    g = get_game(game)
    flat = parse_overrides(overrides)
    bad = [k for k in flat if k.startswith("strategy.")]
    if bad:
        raise RulesError(f"--set {bad[0]}: each level is its own strategy here; give a level "
                         "as name:budget or a player file instead")
    if not levels:
        raise RulesError("--levels: give at least one level")
    return [level_config(g, lv, flat, rules_path) for lv in levels]
