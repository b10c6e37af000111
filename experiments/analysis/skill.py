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
- **an order** (``--order AXIS=V1,V2,...``, as ``cthulhu-sim order`` takes it): every level is
  also played at each value of the axis (a rules-data key or a shortcut's), on the same
  playouts, and the headline figure must fall from V1 to V2 and on.  At each level the claim
  *holds* (every neighbouring pair's 95% intervals apart, in order), *flips* (some neighbour
  clearly the other way round) or is *unclear* (in order or overlapping, not proven):
  :func:`experiments.analysis.order.verdict` on the level's steps.

The chunks of games are played here or on a Dask cluster (``scheduler`` / ``dask_local``, as
the balance tools play theirs), with the same records either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from experiments.analysis.order import Claim, OrderError, Pair, claim_axis, split_claim, verdict
from experiments.reporting.text import fmt_value, python_scalars, settings_text
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
from simcore.rules_data import RulesError, coerce, parse_overrides, parse_text_value

KIND = "skill"
TIMING = "timing.json"  # seconds each chunk of plays took, kept for --resume
assert TIMING in outdir.LAYOUTS[KIND]  # the folder's layout is in experiments/storage/outdir


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
class OrderAtLevel:
    """One ``--order`` claim at one level: the headline figure at each of its values (on the
    same playouts), the neighbouring steps and the verdict."""

    claim: Claim
    rates: list[Rate]
    pairs: list[Pair]
    state: str  # holds, flips or unclear
    hits: list[np.ndarray] = field(default_factory=list, repr=False)  # per value


def order_at_level(claim: Claim, label: str, rates: Sequence[Rate],
                   hits: Sequence[np.ndarray] = ()) -> OrderAtLevel:
    pairs = [Pair(claim, (("level", label),), claim.values[i], claim.values[i + 1],
                  a.rate, a.lo, a.hi, b.rate, b.lo, b.hi)
             for i, (a, b) in enumerate(zip(rates, rates[1:], strict=False))]
    return OrderAtLevel(claim, list(rates), pairs, verdict(pairs), list(hits))


def claim_word(claim: Claim) -> str:
    return f"order {claim.text()}"


def claim_request(claim: Claim) -> str:
    """A claim as ``--order`` writes it (canonical values): a folder's request, the report's
    Reproduce line."""
    return f"{claim.axis}=" + ",".join(fmt_value(v) for v in claim.values)


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
    orders: list[OrderAtLevel] = field(default_factory=list)  # one per --order claim

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
    orders: list[Claim] = field(default_factory=list)  # the --order claims

    @property
    def metric(self) -> str:
        return "team win rate" if self.cooperative else "seat win rates"

    @property
    def headline(self) -> str:
        """The one figure a claim of order or of settling is read on."""
        return "team win rate" if self.cooperative else f"{self.seat_names[0]}'s win rate"

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
            if self.orders:
                row["orders"] = [python_scalars({
                    "claim": claim_word(o.claim), "axis": o.claim.axis,
                    "values": list(o.claim.values), "rates": [x.rate for x in o.rates],
                    "ci95": [[x.lo, x.hi] for x in o.rates], "verdict": o.state})
                    for o in r.orders]
            rows.append(row)
        out = {"game": self.game, "title": self.title, "cooperative": self.cooperative,
               "metric": self.metric, "seat_names": self.seat_names, "games": self.games,
               "seed": self.seed, "settings": self.settings, "levels": rows,
               "claims": self.claims}
        if self.orders:
            out["orders"] = [python_scalars({"claim": claim_word(c), "axis": c.axis,
                                             "values": list(c.values),
                                             "metric": self.headline})
                             for c in self.orders]
        return out

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

    def order_table(self, k: int) -> tuple[list[str], list[list[str]]]:
        """The ``k``-th order claim: a row per level, the figure at each value and the
        verdict."""
        claim = self.orders[k]
        head = ["level", *(f"{fmt_value(v)} [95% CI]" for v in claim.values), "verdict"]
        rows = [[r.level.label, *(fmt_rate(x, 1) for x in r.orders[k].rates), r.orders[k].state]
                for r in self.levels]
        return head, rows

    def order_caption(self, k: int) -> str:
        return (f"{claim_word(self.orders[k])}: the {self.headline} at each value of "
                f"{self.orders[k].axis}, every value on the same playouts; holds: every "
                "neighbouring pair's 95% intervals apart, in order; flips: a neighbour clearly "
                "the other way round; unclear: neither")

    def format(self) -> str:
        lines = [f"{self.title} - skill curve: every seat at the same level, {self.games:,} "
                 f"games a level on the same playouts (seed {self.seed})",
                 "  settings: " + (settings_text(self.settings) or "defaults")]
        lines += _text_table(*self.table())
        for k in range(len(self.orders)):
            lines.append(f"  {claim_word(self.orders[k])} ({self.headline} at each value, on "
                         "the same playouts):")
            lines += _text_table(*self.order_table(k), indent="    ")
        lines.append("  claims:")
        lines.extend(f"    {c['text']}" for c in self.claims)
        return "\n".join(lines)

    def write(self, out: str | Path, overwrite: bool = False, claimed: bool = False
              ) -> list[Path]:
        """skill.json, a chart and a report, in a folder claimed as a skill curve's
        (``claimed``: by :func:`run_skill`'s session, whose manifest is finished here),
        written whole or not at all (a full disk leaves the folder as it was: a claimed one
        with its plays, for ``--resume``; see :func:`experiments.storage.outdir.staged`)."""
        from experiments.storage.outdir import OutDirError, claim, staged

        final = Path(out)
        state = "new"
        if not claimed:
            state = claim(final, KIND, overwrite)
            if state == "same" and not overwrite:
                raise OutDirError(f"--out {final}: already holds a skill curve; give another "
                                  "folder, or --overwrite to replace it")
        with staged(final, KIND, replace=state == "same") as stage:
            paths = self._write_files(stage, final, claimed)
        return [final / p.relative_to(stage) for p in paths]

    def _write_files(self, out: Path, final: Path, claimed: bool) -> list[Path]:
        from experiments.reporting.report import Doc
        from experiments.running.plays import finish_folder
        from experiments.storage.jsonout import json_text
        from experiments.storage.outdir import stamp
        from experiments.storage.store import write_json, write_text

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
        for k in range(len(self.orders)):
            doc.h(2, f"Order: {self.orders[k].text()}")
            doc.p(self.order_caption(k) + ".")
            head, rows = self.order_table(k)
            doc.table(head, rows, right=set(range(1, len(head) - 1)))
        doc.h(2, "Claims")
        doc.ul([c["text"] for c in self.claims])
        doc.img(chart.name, title, caption, "The balance figure against the level of play")
        doc.h(2, "Reproduce")
        import shlex

        levels = shlex.quote(",".join(r.level.label for r in self.levels))
        sets = " ".join(f"--set {k}={v}" for k, v in self.settings.items())
        orders = " ".join(f"--order {shlex.quote(claim_request(c))}" for c in self.orders)
        doc.code(f"cthulhu-sim skill {self.game} --levels {levels} --games {self.games} "
                 f"--seed {self.seed}" + (f" {sets}" if sets else "")
                 + (f" {orders}" if orders else "") + " --out DIR")
        paths.append(write_text(out / "report.md", doc.markdown()))
        paths.append(write_text(out / "report.html",
                                doc.html(title, {chart.name: chart.read_bytes()})))
        fields = {"games": self.games, "seed": self.seed,
                  "levels": [r.level.label for r in self.levels], "settings": self.settings,
                  "charts": [chart.name]}
        if self.orders:
            fields["orders"] = [claim_request(c) for c in self.orders]
        if claimed:
            finish_folder(final, into=out, **fields)
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
    orders = [Claim(o["axis"], tuple(o["values"])) for o in data.get("orders") or []]
    levels = []
    for row in data["levels"]:
        lv = Level(row["level"], row["strategy"], row.get("budget"),
                   tuple((row.get("params") or {}).items()))
        at = [order_at_level(c, lv.label, [rate(r, ci, n) for r, ci in
                                             zip(o["rates"], o["ci95"], strict=True)])
              for c, o in zip(orders, row.get("orders") or [], strict=True)]
        st = rate(row["stalemate"]["rate"], row["stalemate"]["ci95"], n)
        turns = (row["turns"]["mean"], *row["turns"]["ci95"])
        secs = row["seconds_per_game"] * n
        if data["cooperative"]:
            levels.append(LevelResult(lv, n, rate(row["rates"], row["ci95"], n), [], None, [],
                                      st, turns, secs, np.zeros(0, dtype=bool), orders=at))
            continue
        pairs = [(p["seats"][0], p["seats"][1], Difference(p["diff"], *p["ci95"], n))
                 for p in row["seat_differences"]]
        gap = row.get("largest_gap")
        levels.append(LevelResult(
            lv, n, None, [rate(r, ci, n) for r, ci in zip(row["rates"], row["ci95"],
                                                          strict=True)],
            (gap["seats"][0], gap["seats"][1], Difference(gap["diff"], *gap["ci95"], n))
            if gap else None, pairs, st, turns, secs, np.zeros(0, dtype=bool),
            _favoured(pairs, len(row["rates"])), at))
    out = SkillResult(data["game"], data["title"], data["cooperative"],
                      list(data["seat_names"]), n, data["seed"], dict(data["settings"]),
                      levels, [], orders)
    kept = [c for c in data["claims"] if c["claim"] == "settled at the top"]
    out.claims = [c for c in claims_of_levels(out) if c["claim"] != "settled at the top"] + kept
    return out


def claims_of_levels(result: SkillResult) -> list[dict[str, Any]]:
    """The claims that need only each level's figures (not its playouts): who is favoured
    (a competitive game) and each order."""
    levels = result.levels
    if not levels:
        return []
    labels = [r.level.label for r in levels]
    out = []
    if not result.cooperative:
        ref = next((i for i, r in enumerate(levels) if r.level.strategy == "heuristic"
                    and r.level.budget is None), 0)
        out.append(favoured_claim(labels, [r.favoured for r in levels], result.seat_names,
                                  ref))
    for k, claim in enumerate(result.orders):
        out.append(order_claim(claim, labels, [r.orders[k] for r in levels], result.headline))
    return out


def order_claim(claim: Claim, labels: Sequence[str], at: Sequence[OrderAtLevel],
                what: str) -> dict[str, Any]:
    """An order claim read at every level: it holds when it holds at each; ``flips_at`` is
    the first level where a neighbour is clearly the other way round."""
    state = {lab: o.state for lab, o in zip(labels, at, strict=True)}
    holds = all(x == "holds" for x in state.values())
    flips = [lab for lab, x in state.items() if x == "flips"]
    unclear = [lab for lab, x in state.items() if x == "unclear"]
    name = claim_word(claim)
    if holds:
        tail = "holds at every level"
    else:
        parts = []
        held = [lab for lab, x in state.items() if x == "holds"]
        if held:
            parts.append(f"holds at {', '.join(held)}")
        for lab, o in zip(labels, at, strict=True):
            if o.state == "flips":
                p = next(p for p in o.pairs if p.reversed)
                parts.append(f"flips at {lab} ({fmt_value(p.lower)} "
                             f"{_pct_ci(p.rate_lower, p.lo_lower, p.hi_lower)} above "
                             f"{fmt_value(p.upper)} "
                             f"{_pct_ci(p.rate_upper, p.lo_upper, p.hi_upper)})")
        if unclear:
            parts.append(f"unclear (not proven: neighbouring intervals overlap) at "
                         f"{', '.join(unclear)}")
        tail = "; ".join(parts)
    return python_scalars({
        "claim": name, "holds": holds, "flips_at": flips[0] if flips else None,
        "axis": claim.axis, "values": list(claim.values), "metric": what, "levels": state,
        "text": f"{name} ({what} falls, 95% intervals apart): {tail}"})


def _pct_ci(r: float, lo: float, hi: float) -> str:
    return f"{100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _text_table(head: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    return [indent + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
            for row in [head, *rows]]


def tick_label(label: str, width: int = 14) -> str:
    """A level's name short enough for a tick: a player file by its file name, and a long
    name (a strategy with its settings) broken at its commas."""
    if label.endswith(".toml"):
        label = Path(label.lstrip("@")).name
    if len(label) <= width:
        return label
    out, line = [], ""
    for part in label.replace(",", ",\x00").replace("-", "-\x00").split("\x00"):
        if line and len(line) + len(part) > width:
            out.append(line)
            line = ""
        line += part
    return "\n".join([*out, line])


def skill_chart(result: SkillResult, path: Path, title: str) -> None:
    from experiments.reporting.charts import plt
    from experiments.storage.store import atomic_write

    panels = 1 + len(result.orders)
    fig, axes = plt.subplots(1, panels, figsize=(6.4 + 5.2 * (panels - 1), 4.0),
                             constrained_layout=True, squeeze=False)
    ax = axes[0][0]
    x = np.arange(len(result.levels))
    labels = [tick_label(r.level.label) for r in result.levels]
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
    ax.set_xticks(x, labels, rotation=20)
    ax.set_xlabel("level of play (every seat)")
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    for k, claim in enumerate(result.orders):  # one line per value of the axis
        ax = axes[0][1 + k]
        for i, v in enumerate(claim.values):
            c = colours[i % len(colours)]
            rates = [r.orders[k].rates[i] for r in result.levels]
            ax.plot(x, [100 * r.rate for r in rates], marker="o", color=c, lw=1.8,
                    label=f"{claim.axis} {fmt_value(v)}")
            ax.fill_between(x, [100 * r.lo for r in rates], [100 * r.hi for r in rates],
                            color=c, alpha=0.15)
        ax.set_xticks(x, [f"{lab}\n({r.orders[k].state})" for lab, r
                          in zip(labels, result.levels, strict=True)], rotation=20)
        ax.set_xlabel("level of play (every seat)")
        ax.set_ylabel(f"{result.headline}, %")
        ax.set_ylim(0, 100)
        ax.set_title(f"{claim_word(claim)}", fontsize=10)
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
        what = result.headline
        claims.append({"claim": "settled at the top", "holds": settled,
                       "flips_at": None if settled else b.level.label,
                       "levels": [a.level.label, b.level.label],
                       "diff": d.mean, "ci95": [d.lo, d.hi],
                       "text": f"settled at the top: {what} {b.level.label} - {a.level.label} "
                               f"{fmt_diff(d, 1)} (paired): "
                               + ("within the interval, it has stopped moving" if settled
                                  else "still moving")})
    return claims


def skill_request(setting: Any, levels: Sequence[Level], games: int, seed: int,
                  orders: Sequence[Claim] = ()) -> dict[str, Any]:
    """What decides a skill curve's playouts (a folder's manifest; ``--resume`` refuses a
    folder of another): the settings, the levels (a player file's content included), the
    games, the seed and the ``--order`` claims (named only when there are some, so a curve
    without them keeps the request it always had)."""
    import hashlib

    from strategies import playerfile

    req = {k: v for k, v in setting.request().items() if k != "strategy"}
    files = {}
    for lv in levels:
        if playerfile.is_player_file(lv.strategy):
            files[lv.label] = hashlib.sha256(Path(lv.strategy).read_bytes()).hexdigest()
    out = {"command": KIND, **req, "levels": [lv.label for lv in levels],
           "player_files_sha256": files, "games": int(games), "seed": int(seed)}
    if orders:
        out["orders"] = [claim_request(c) for c in orders]
    return out


def _same_orders(out: str | Path, request: Mapping[str, Any]) -> None:
    """A ``--resume`` whose request differs from the folder's only in its ``--order`` claims
    is refused naming them (the general refusal would say "another request")."""
    import json

    from experiments.storage.outdir import OutDirError, folder_kind, read_manifest

    out = Path(out)
    if not out.is_dir() or folder_kind(out) != KIND:
        return
    old = (read_manifest(out) or {}).get("request")
    if not isinstance(old, dict):
        return
    new = json.loads(json.dumps(python_scalars(dict(request)), default=repr))
    strip = lambda r: {k: v for k, v in r.items() if k != "orders"}  # noqa: E731
    if strip(old) == strip(new) and old.get("orders") != new.get("orders"):
        def said(r):
            return (" ".join(f"--order {o}" for o in r["orders"]) if r.get("orders")
                    else "no --order")
        raise OutDirError(f"--out {out}: holds a skill curve begun with {said(old)}, not "
                          f"{said(new)}; --resume must be given the same --order (or use "
                          "another --out, or --overwrite to start afresh)")


def run_skill(game: str, levels: Sequence[Level] | str,
              overrides: Iterable[str] | Mapping[str, Any] | None = None, games: int = 200,
              seed: int = 1, rules_path: str | None = None, threads: int | None = None,
              quiet: bool = True, on_level: Callable[[LevelResult], None] | None = None,
              out: str | Path | None = None, resume: bool = False, overwrite: bool = False,
              on_chunk: Callable[[str, int, int], None] | None = None,
              check_only: bool = False, orders: Sequence[str | Claim] | None = None,
              scheduler: str | None = None, dask_local: int | None = None
              ) -> SkillResult | None:
    """Play every level on playouts ``0 .. games-1`` of ``seed``; the Python twin of
    ``cthulhu-sim skill``.  ``orders``: claims of order (``"goo=nyarlathotep,cthulhu"``, as
    ``--order`` takes them), each value of each axis played at every level on the same
    playouts.  With ``out`` the plays are kept there chunk by chunk
    (:mod:`experiments.running.plays`, as ``sensitivity`` and ``tune`` keep theirs), so a run
    stopped part way finishes with ``resume`` to the same curve; everything is checked
    before a folder is touched, and ``check_only`` stops there.  ``scheduler`` /
    ``dask_local``: the chunks played on a Dask cluster (the same records)."""
    import json
    import time

    from experiments.running.plays import Setting, check_folder, session
    from experiments.storage.store import write_json

    if scheduler and dask_local:
        raise ValueError("give scheduler or dask_local, not both")
    g = get_game(game)
    if isinstance(levels, str):
        levels = parse_levels(g.name, levels)
    configs = check_levels(g.name, levels, overrides, rules_path)
    claims = parse_orders(g.name, orders, overrides, rules_path)
    points = level_points(g, levels, claims, overrides, rules_path, seed)
    check_memory(g, games, what="a level")
    setting = Setting.of(g, parse_overrides(overrides), None, rules_path)
    request = skill_request(setting, levels, games, seed, claims)
    if out is not None:
        if resume:
            _same_orders(out, request)
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
                 threads=threads, progress=not quiet, on_chunk=chunk_done,
                 scheduler=scheduler, dask_local=dask_local) as plays:
        if scheduler or dask_local:  # every level's chunks at once, over the cluster
            mark[0] = time.perf_counter()
            plays.ensure([p for base, per in points for p in (base, *_flat(per))], games,
                         desc=f"{g.name} skill")
        for level, config, (base, per) in zip(levels, configs, points, strict=True):
            wanted = [base, *_flat(per)]
            if not all(plays.has(p, games) for p in wanted):
                g.warm_up(config)  # (compiled before the clock starts)
            mark[0] = time.perf_counter()
            plays.ensure(wanted, games, desc=f"{g.name} {level.label}")
            recs = plays.records(base, games)
            seconds = sum(timing.get(base.pid, {}).values())
            lr = _level_result(g, level, recs, games, seats, seconds)
            for claim, pts in zip(claims, per, strict=True):
                hits = [_headline_hits(g, plays.records(p, games)) for p in pts]
                lr.orders.append(order_at_level(
                    claim, level.label, [wilson(int(h.sum()), games) for h in hits], hits))
            results.append(lr)
            if on_level is not None:
                on_level(lr)
        settings = {k: v for k, v in configs[0].changed().items()
                    if not k.startswith("strategy.")}
        result = SkillResult(g.name, g.title, g.cooperative, names, games, seed, settings,
                             results, [], list(claims))
        result.claims = claims_of(result)
        if out is not None:
            result.write(out, claimed=True)
    return result


def _flat(per: Sequence[Sequence[Any]]) -> list[Any]:
    return [p for pts in per for p in pts]


def _headline_hits(g: Game, recs: np.ndarray) -> np.ndarray:
    """The headline event of each playout: the team won (cooperative), seat 0 won."""
    if g.cooperative:
        return np.asarray(recs["outcome"]) == 0
    return np.asarray(recs["winner"]) == 0


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


def parse_orders(game: str, texts: Sequence[str | Claim] | None,
                 overrides: Iterable[str] | Mapping[str, Any] | None = None,
                 rules_path: str | None = None) -> list[Claim]:
    """``--order AXIS=V1,V2,...`` claims (highest rate first), written as ``cthulhu-sim
    order`` takes them (:func:`experiments.analysis.order.split_claim`), against the game:
    the axis a rules-data key or a shortcut (its key), every value one the key allows
    (read as ``--set`` reads it), at least two, none twice, and the axis not also set.  An
    OrderError (a ValueError) of one line otherwise."""
    if not texts:
        return []
    g = get_game(game)
    flat = parse_overrides(overrides)
    rules = g.configure(flat, None, rules_path).rules
    out: list[Claim] = []
    for item in texts or []:
        claim = item if isinstance(item, Claim) else _parse_order(g, rules, str(item), flat)
        if claim in out:
            raise OrderError(f"--order {claim_request(claim)} is given twice")
        out.append(claim)
    return out


def _parse_order(g: Game, rules: Any, text: str, flat: Mapping[str, Any]) -> Claim:
    axis = claim_axis(text)
    if axis.startswith("strategy."):
        raise OrderError(f"--order {text}: each level is its own strategy here; an order "
                         "varies a rules-data key (give the strategies as --levels)")
    key = axis if axis in rules.entries else None
    if key is None:
        sc = next((g.shortcuts[n] for n in (axis, axis.replace("_", "-"),
                                             axis.replace("-", "_")) if n in g.shortcuts),
                  None)
        key = sc.key if sc is not None else None
    if key is None:
        shortcuts = ", ".join(g.shortcuts) or "none"
        raise OrderError(f"--order {text}: '{axis}' is not a key of {g.name}'s rules data or a "
                         f"shortcut of it (its shortcuts: {shortcuts}; `cthulhu-sim games "
                         f"{g.name}` lists the keys)")
    _, words = split_claim(text)
    if key in flat:
        raise OrderError(f"--order {text}: {key} is also given by --set {key}="
                         f"{fmt_value(flat[key])} (or its shortcut); give it in one place")
    entry = rules.entries[key]
    values = []
    for w in words:
        try:
            values.append(coerce(entry, parse_text_value(w)))
        except RulesError as exc:
            raise OrderError(f"--order {text}: {str(exc).removeprefix('override: ')}") from None
    if len({fmt_value(v) for v in values}) < len(values):
        raise OrderError(f"--order {text}: a value is named twice")
    return Claim(key, tuple(values))


def level_points(g: Game, levels: Sequence[Level], claims: Sequence[Claim],
                 overrides: Iterable[str] | Mapping[str, Any] | None, rules_path: str | None,
                 seed: int) -> list[tuple[Any, list[list[Any]]]]:
    """Each level's point (its playouts, keyed by the whole configuration, so a point met
    twice - a value that is the default - is played once) and, per claim, one point per
    value; a combination the rules refuse is an OrderError naming the claim."""
    from experiments.running.plays import Point, point_id

    flat = parse_overrides(overrides)
    out = []
    for lv in levels:
        own = level_overrides(lv)

        def point(change: dict[str, Any], lv: Level = lv, own: dict = own) -> Point:
            over = {**flat, **change, **own}
            config = g.configure(over, lv.strategy, rules_path)
            return Point(point_id(config, seed), over, {**change, **own}, config, lv.strategy)

        base = point({})
        per = []
        for claim in claims:
            pts = []
            for v in claim.values:
                try:
                    pts.append(point({claim.axis: v}))
                except RulesError as exc:
                    raise OrderError(f"--order {claim_request(claim)}: at {claim.axis}="
                                     f"{fmt_value(v)} with level {lv.label}: {exc}") from None
            per.append(pts)
        out.append((base, per))
    return out
