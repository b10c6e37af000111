"""Sweep reports: ``report.md`` with PNG charts beside it, and ``report.html``, one
self-contained file (charts embedded) that a person can open or mail."""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.reporting.labels import (
    cell_text,
    outcome_text,
    setting_name,
    setting_text,
    value_label,
    words_of,
)
from experiments.stats import (
    Rate,
    diff_text,
    fmt_rate,
    headline_hits,
    paired_difference,
    paired_rate_difference,
    rate_text,
    wilson,
)
from experiments.stats import headline as stats_headline
from experiments.storage.store import RULES_COPY, write_csv, write_json, write_parquet, write_text


# ---- a tiny document model, rendered as Markdown and as HTML ----------------------------
@dataclass
class Doc:
    blocks: list[tuple] = field(default_factory=list)

    def h(self, level: int, text: str) -> None:
        self.blocks.append(("h", level, text))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def ul(self, items: list[str]) -> None:
        self.blocks.append(("ul", items))

    def table(self, headers: list[str], rows: list[list[str]], right: set[int] | None = None,
              ) -> None:
        self.blocks.append(("table", headers, rows, right or set()))

    def img(self, file: str, title: str, caption: str, alt: str) -> None:
        self.blocks.append(("img", file, title, caption, alt))

    def code(self, text: str) -> None:
        self.blocks.append(("code", text))

    # ---- Markdown ------------------------------------------------------------------------
    def markdown(self) -> str:
        out: list[str] = []
        for b in self.blocks:
            kind = b[0]
            if kind == "h":
                out.append("#" * b[1] + " " + b[2])
            elif kind == "p":
                out.append(b[1])
            elif kind == "ul":
                out.append("\n".join(f"- {item}" for item in b[1]))
            elif kind == "table":
                headers, rows, right = b[1], b[2], b[3]
                out.append("| " + " | ".join(headers) + " |")
                out.append("|" + "|".join("---:" if i in right else "---"
                                          for i in range(len(headers))) + "|")
                out.extend("| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows)
            elif kind == "img":
                _, file, title, caption, alt = b
                out.append(f"![{alt}]({file})\n\n*{caption}*")
            elif kind == "code":
                out.append("```\n" + b[1] + "\n```")
            out.append("")
        return "\n".join(out)

    # ---- HTML ----------------------------------------------------------------------------
    def html(self, title: str, images: dict[str, bytes]) -> str:
        body: list[str] = []
        for b in self.blocks:
            kind = b[0]
            if kind == "h":
                body.append(f"<h{b[1]}>{_inline(b[2])}</h{b[1]}>")
            elif kind == "p":
                body.append(f"<p>{_inline(b[1])}</p>")
            elif kind == "ul":
                body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b[1]) + "</ul>")
            elif kind == "table":
                headers, rows, right = b[1], b[2], b[3]
                head = "".join(f"<th>{_inline(h)}</th>" for h in headers)
                trs = []
                for r in rows:
                    tds = "".join(
                        f"<td class=\"num\">{_inline(c)}</td>" if i in right
                        else f"<td>{_inline(c)}</td>" for i, c in enumerate(r))
                    trs.append(f"<tr>{tds}</tr>")
                body.append(f"<div class=\"tw\"><table><thead><tr>{head}</tr></thead>"
                            f"<tbody>{''.join(trs)}</tbody></table></div>")
            elif kind == "img":
                _, file, t, caption, alt = b
                data = base64.b64encode(images[file]).decode("ascii")
                body.append(f"<figure><img alt=\"{html.escape(alt)}\" "
                            f"src=\"data:image/png;base64,{data}\">"
                            f"<figcaption>{_inline(caption)}</figcaption></figure>")
            elif kind == "code":
                body.append(f"<pre><code>{html.escape(b[1])}</code></pre>")
        return (
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<style>{CSS}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
        )


CSS = (
    "body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;"
    "margin:2em auto;padding:0 1em;color:#222;line-height:1.45}"
    "h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}"
    "table{border-collapse:collapse;font-size:.85em;margin:.6em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;white-space:nowrap}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}"
    ".tw{overflow-x:auto}figure{margin:1.2em 0}img{max-width:100%;height:auto}"
    "figcaption{font-size:.85em;color:#555}code{background:#f3f3f3;padding:0 .2em}"
    "pre{background:#f6f6f6;padding:.6em;overflow-x:auto}"
)


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def _inline(text: str) -> str:
    t = html.escape(str(text))
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", t)
    # a link (an HTML report links to the other report's HTML page)
    t = re.sub(r"\[([^\]]+)\]\(([^()\s]+?)(report\.md)?\)",
               lambda m: f'<a href="{m[2]}{"report.html" if m[3] else ""}">{m[1]}</a>', t)
    return t


# ---- numbers for the report -------------------------------------------------------------
def _rate(row: pd.Series, prefix: str) -> Rate:
    n = int(row["games"])
    r = float(row[f"{prefix}_rate"] if f"{prefix}_rate" in row else row[prefix])
    return Rate(int(round(r * n)), n, r, float(row[f"{prefix}_lo"]), float(row[f"{prefix}_hi"]))


def headline(manifest: dict) -> tuple[str, str]:
    """The column prefix and the name of the rate every chart and table leads with."""
    from experiments.reporting.labels import headline_name, words_of

    prefix, name = stats_headline(manifest["cooperative"])
    return prefix, headline_name(words_of(manifest), name)


def headline_indicator(manifest: dict, playouts: pd.DataFrame) -> np.ndarray:
    return headline_hits(manifest["cooperative"], playouts["outcome"].to_numpy(),
                         playouts["winner"].to_numpy())


def baseline_comparisons(result) -> list[dict[str, Any]]:
    """Paired differences of every cell from its baseline cell (the cell with the baseline's
    axis values and the same other values), over their common playout indices."""
    m = result.manifest
    base = (m.get("report") or {}).get("baseline")
    if not base or result.results.empty:
        return []
    finished = set(result.results["cell"].astype(int))
    saved = result.root / "comparisons.parquet"
    # rows computed before, for pairs whose playouts are gone (a copy without playouts/)
    kept = ({int(r["cell"]): r for r in pd.read_parquet(saved).to_dict("records")}
            if saved.exists() else {})
    by_values = {json.dumps(c["values"], sort_keys=True): c for c in m["cells"]}
    out = []
    for c in m["cells"]:
        if c["index"] not in finished:
            continue
        if all(json.dumps(c["values"].get(k)) == json.dumps(v) for k, v in base.items()):
            continue
        b = by_values.get(json.dumps({**c["values"], **base}, sort_keys=True))
        if b is None or b["index"] not in finished:
            continue
        if not (result.dir.playouts_path(c["name"]).exists()
                and result.dir.playouts_path(b["name"]).exists()):
            if c["index"] in kept:
                out.append(kept[c["index"]])
            continue
        pa = result.playouts(c["index"], ["outcome", "winner", "turns"])  # (checked: a
        pb = result.playouts(b["index"], ["outcome", "winner", "turns"])  # damaged one is named)
        n = min(len(pa), len(pb))
        ia = headline_indicator(m, pa)[:n]
        ib = headline_indicator(m, pb)[:n]
        d = paired_rate_difference(ia, ib)
        t = paired_difference(pa["turns"].to_numpy()[:n], pb["turns"].to_numpy()[:n])
        out.append({"cell": c["index"], "label": c["label"], "baseline_cell": b["index"],
                    "baseline": b["label"], "n": n, "diff": d.mean, "lo": d.lo, "hi": d.hi,
                    "turns_diff": t.mean, "turns_lo": t.lo, "turns_hi": t.hi})
    return out


def overview(result) -> tuple[list[str], list[list[str]]]:
    """The headline rate of every cell, pivoted: one column per value of the x axis (player
    count for most sweeps), one row per combination of the other swept axes."""
    from experiments.reporting.charts import ChartData

    m = result.manifest
    words = words_of(m)
    data = ChartData(m, result.results)
    prefix, _ = headline(m)
    x = data.roles.x
    others = [k for k, v in data.axes.items() if len(v) > 1 and k != x]
    if x is None:
        headers = ([setting_name(words, k) for k in others] or ["cell"]) + ["games",
                                                                            "rate [95% CI]"]
        rows = []
        for combo in data.combos(others):
            row = data.one(**combo)
            if row is None:
                continue
            r = _rate(row, prefix)
            key = ([value_label(words, k, v) for k, v in combo.items()] if others
                   else [row["label"]])
            rows.append(key + [f"{int(row['games']):,}", fmt_rate(r)])
        return headers, rows
    headers = [setting_name(words, k) for k in others] + [
        f"{setting_name(words, x)} {value_label(words, x, v)}" for v in data.axes[x]]
    rows = []
    for combo in data.combos(others):
        cells = []
        for xv in data.axes[x]:
            row = data.one(**combo, **{x: xv})
            if row is None:
                cells.append("-")
            else:
                cells.append(fmt_rate(_rate(row, prefix)))
        rows.append([value_label(words, k, v) for k, v in combo.items()] + cells)
    return headers, rows


def format_overview(result) -> str:
    """The overview as an aligned text table (the terminal summary of a sweep)."""
    headers, rows = overview(result)
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
              for i, h in enumerate(headers)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)))
    return "\n".join(lines)


def format_sweep(result) -> str:
    """A terminal summary: what was swept, the overview table, and where the report is."""
    m = result.manifest
    _, name = headline(m)
    df = result.results
    total = int(df["games"].sum()) if len(df) else 0
    lines = [f"{m['title']}: {len(df)} of {len(m['cells'])} cells, {total:,} games, "
             f"seed {m['seed']}",
             f"{name}, in percent with its 95% interval:",
             format_overview(result)]
    if len(df):
        lines.append(f"widest 95% interval: ±{100 * df['halfwidth'].max():.2f} points; "
                     f"rules data: {int(df['assumed_values'].iloc[0])} of "
                     f"{int(df['rules_values'].iloc[0])} values are assumed")
    info = result.run_info
    if info.get("seconds") is not None:
        pps = info.get("playouts_per_s") or 0
        lines.append(f"this run: {info['games_played']:,} games in {info['seconds']:.1f} s "
                     f"({pps:,.0f} games/s, {info['backend']})")
    if result.report_md.exists():
        lines.append(f"report: {result.report_md}  {result.report_html}")
    return "\n".join(lines)


# ---- the report -------------------------------------------------------------------------
def reproduce_command(root: Path) -> str:
    """The command that plays the sweep in ``root`` again, run from ``root`` itself (its
    ``spec.toml`` names the copy of any rules data file kept beside it), into a new folder
    beside ``root``."""
    name = Path(root).resolve().name or "sweep"
    return f"cthulhu-sim sweep spec.toml --out ../{name}-reproduced"


def reproduce_note(root: Path) -> str:
    rules = (Path(root) / RULES_COPY).exists()
    return ("From the folder that holds this report, which keeps the spec (`spec.toml`)"
            + (" and a copy of its rules data file (`rules.toml`)" if rules else "")
            + ", this plays every cell again into a new folder beside it; its "
            "`results.parquet` has the same results:")


UNCERTAINTY_KEY = "uncertainty"  # the manifest's link to an uncertainty folder of the game


def _read_summary(root: str | Path, kind: str, words: tuple[str, str, str], file: str,
                  game: str | None, what: str, check: Any) -> dict[str, Any]:
    """The summary ``file`` of the ``kind`` folder at ``root`` (``check`` raises on one it
    cannot use); a missing folder, another kind, an unreadable summary or another game than
    ``game`` is an ``OutDirError`` naming the folder and what to give instead."""
    from experiments.storage.outdir import KIND_WORDS, OutDirError, folder_kind

    name, short, redo = words  # "an uncertainty analysis", "an analysis", "run the analysis"
    root = Path(root)
    if not root.is_dir():
        raise OutDirError(f"{what} {root}: no such folder (give the --out folder of "
                          f"`cthulhu-sim {kind}`)")
    found = folder_kind(root)
    if found != kind:
        held = (f"holds {KIND_WORDS.get(found, found)}" if found else
                "was not written by cthulhu-sim")
        raise OutDirError(f"{what} {root}: not {name} (the folder {held}); give the --out "
                          f"folder of `cthulhu-sim {kind}`")
    try:
        data = json.loads((root / file).read_text(encoding="utf-8"))
        check(data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        why = "missing" if isinstance(exc, FileNotFoundError) else "unreadable"
        raise OutDirError(f"{what} {root}: its {file} is {why}; {redo} again with --resume "
                          "to finish it") from None
    if game is not None and data.get("game") != game:
        raise OutDirError(f"{what} {root}: {short} of {data.get('game')}, not of {game}, "
                          "the sweep's game")
    return data


def read_band(root: str | Path, game: str | None = None, what: str = "--uncertainty"
              ) -> dict[str, Any]:
    """The summary (``uncertainty.json``) of the uncertainty folder at ``root``: the headline
    figure at the defaults, its band over the assumptions and its drivers."""
    def check(data: dict) -> None:
        band, default = data["band"], data["default"]
        float(band["p5"]), float(band["p95"]), float(band["median"]), float(default["value"])

    return _read_summary(root, "uncertainty", ("an uncertainty analysis", "an analysis",
                                               "run the analysis"), "uncertainty.json",
                         game, what, check)


SKILL_KEY = "skill"  # the manifest's link to a skill-curve folder of the game


def read_skill(root: str | Path, game: str | None = None, what: str = "--skill"
               ) -> dict[str, Any]:
    """The summary (``skill.json``) of the skill-curve folder at ``root``: the balance figure
    at each level of play, every seat at that level."""
    def check(data: dict) -> None:
        for lv in data["levels"]:
            str(lv["level"]), lv["rates"], lv["ci95"], float(lv["stalemate"]["rate"])
        if not data["levels"]:
            raise ValueError("no level")

    return _read_summary(root, "skill", ("a skill curve", "a skill curve",
                                         "play the skill curve"), "skill.json", game, what,
                         check)


def _count(n: Any) -> str:
    return f"{n:,}" if isinstance(n, int) else "?"


def band_findings(data: dict[str, Any], cooperative: bool, link: str | None = None
                  ) -> list[str]:
    """Two sentences for a report: the headline figure's band over the assumed values (from
    an uncertainty analysis's summary, ``data``), and what it allows one to say about
    balance: a figure whose 5-95% band crosses the line a verdict rests on (a fair share of
    1/seats for a competitive game, half the games for a cooperative one) has no verdict
    that holds whatever the assumed values are."""
    from experiments.reporting.text import settings_text

    label = data.get("label") or "the headline figure"
    d, b = data["default"], data["band"]
    lo, hi = d.get("ci95") or [d["value"], d["value"]]
    lead = [x["key"] for x in (data.get("drivers") or [])[:3] if abs(x.get("score", 0)) >= 0.2]
    where = settings_text(data.get("settings") or {}) or "defaults"
    n_keys = len(data.get("keys") or [])
    what = (f"{_count(data.get('samples'))} samples of {n_keys} assumed values over their "
            f"plausible ranges, {_count(data.get('games_per_sample'))} games each; settings "
            f"{where}; strategy {data.get('strategy', '?')}")
    src = f"[the uncertainty analysis]({link})" if link else "the uncertainty analysis"
    first = (f"Over the assumed values ({src}: {what}): {label} {_pct(d['value'])} "
             f"[{_pct(lo)}, {_pct(hi)}] at the assumed values; {_pct(b['p5'])} to "
             f"{_pct(b['p95'])} (median {_pct(b['median'])}) over their plausible ranges"
             + ("; driven most by " + ", ".join(f"`{k}`" for k in lead) if lead else "") + ".")
    if cooperative:
        line, line_text = 0.5, "50% (half the games)"
        above, below = ("the team wins more often than not", "the team wins less often than not")
    else:
        seats = 1 + len(data.get("seats") or [])
        line = 1 / seats
        line_text = f"a fair share ({_pct(line)}, 1 in {seats})"
        above, below = (f"the {label} is above {line_text}", f"the {label} is below {line_text}")
    if b["p5"] <= line <= b["p95"]:
        second = (f"Verdict: it depends on the assumed values. The 5-95% band crosses "
                  f"{line_text}, so whether "
                  + ("the team wins more often than not" if cooperative else
                     "the game favours seat 0 or "
                     + ("the other seat" if not cooperative and seats == 2 else "the others")
                     + ", or is fair,")
                  + " is not settled by these results: it rests on values the text does not "
                  "give.")
    else:
        side = above if b["p5"] > line else below
        second = (f"Verdict: over the plausible values {side} in at least 95% of the samples, "
                  "so that much holds whatever the assumed values are within their ranges "
                  "(how far it is from the line still depends on them).")
    return [first, second]


def players_text(m: dict) -> str:
    """Which players made a sweep's figures: the strategy (or the strategies swept), each
    said to be scripted or a search, and the player file's name where one plays."""
    from strategies.registry import specs

    try:
        known = specs(m["game"])
    except Exception:  # a game no longer registered: name the strategies alone
        known = {}

    def kind(name: Any) -> str:
        text = str(name)
        base = text.split("{", 1)[0].split(":", 1)[0]
        if text.endswith(".toml"):
            return f"`{text}` (a player file)"
        spec = known.get(base)
        if spec is None:
            return f"`{text}`"
        what = "a search" if spec.search is not None else (
            "uniformly random legal play" if base == "random" else "scripted")
        return f"`{text}` ({what})"

    swept = {k: v for k, v in m["axes"].items() if k == "strategy" or k.startswith("strategy.")}
    if not swept:
        who = f"every seat plays {kind(m['strategy'])}"
    else:
        parts = []
        for k, vals in swept.items():
            seat = "every seat" if k == "strategy" else f"seat {k.split('_')[-1]}"
            parts.append(f"{seat} one of " + ", ".join(kind(v) for v in vals))
        who = "; ".join(parts)
    return who


def skill_findings(data: dict[str, Any], link: str | None = None) -> list[str]:
    """Two sentences for a report: the balance figure at each level of play of a skill curve
    (``data``: a ``skill.json``), the strongest level last, and the curve's claims (who is
    favoured, an order, whether the figure has settled) with the levels where they flip."""
    from experiments.reporting.text import settings_text

    src = f"[the skill curve]({link})" if link else "the skill curve"
    where = settings_text(data.get("settings") or {}) or "defaults"
    games = _count(data.get("games"))
    levels = data["levels"]
    coop = bool(data.get("cooperative"))
    names = data.get("seat_names") or []

    def seat_word(s: int) -> str:
        name = str(names[s]) if s < len(names) else str(s)
        return f"seat {name}" if name.isdigit() else name

    def at(lv: dict) -> str:
        if coop:
            lo, hi = lv["ci95"]
            fig = f"{_pct(lv['rates'])} [{_pct(lo)}, {_pct(hi)}]"
        else:
            fig = " / ".join(f"{seat_word(s)} {_pct(r)} "
                             f"[{_pct(ci[0])}, {_pct(ci[1])}]"
                             for s, (r, ci) in enumerate(zip(lv["rates"], lv["ci95"], strict=True)))
        stale = float(lv["stalemate"]["rate"])
        return f"{fig} with `{lv['level']}`" + (f" ({_pct(stale)} stalemates)" if stale else "")

    label = "team win rate" if coop else "win rates"
    first = (f"At rising levels of play ({src}: every seat at the same level, {games} games a "
             f"level on the same playouts, settings {where}): {label} "
             + "; ".join(at(lv) for lv in levels)
             + f". The strongest level measured is `{levels[-1]['level']}`.")
    top = levels[-1]
    for o in top.get("orders") or []:  # an order claim's figures at the strongest level
        first += (f" At `{top['level']}`, by {o['axis']}: "
                  + ", ".join(f"{v} {_pct(r)} [{_pct(ci[0])}, {_pct(ci[1])}]"
                              for v, r, ci in zip(o["values"], o["rates"], o["ci95"],
                                                  strict=True)) + ".")
    claims = [c.get("text") for c in data.get("claims") or [] if c.get("text")]
    if not claims:
        return [first]
    return [first, "Under stronger play: " + "; ".join(c.rstrip(".") for c in claims) + "."]


RARE = 0.01  # an outcome at most this common in every cell is a finding of its own


def _cell_values(m: dict, cell: int) -> dict[str, Any]:
    """The swept values of cell ``cell`` that vary across the sweep."""
    multi = {k for k, v in m["axes"].items() if len(v) > 1}
    values = m["cells"][cell]["values"]
    return {k: v for k, v in values.items() if k in multi}


def _pct(x: float) -> str:
    return rate_text(x)


def _span(lo: float, hi: float) -> str:
    """A range of shares, ``0.0-0.1%``, or one share when both ends agree."""
    a, b = f"{100 * lo:.1f}", f"{100 * hi:.1f}"
    return f"{a}%" if a == b else f"{a}-{b}%"


def outcome_findings(m: dict, df: pd.DataFrame) -> list[str]:
    """What the outcomes say across the sweep: those that never happen, those that stay
    rare in every cell."""
    words = words_of(m)
    out = []
    n_cells = len(df)
    games = int(df["games"].sum())
    for o in m["outcomes"][1:] if m["cooperative"] else m["outcomes"]:
        col = f"p_{o}"
        if col not in df or (not m["cooperative"] and o == m["outcomes"][0]):
            continue
        shares = df[col].astype(float)
        counts = df[f"n_{o}"].astype(int) if f"n_{o}" in df else None
        what = f"`{o}` — {outcome_text(words, o)} —"
        if counts is not None and int(counts.sum()) == 0:
            out.append(f"Never happens: {what} in none of the {games:,} games of the "
                       f"{n_cells} cells.")
        elif float(shares.max()) <= RARE and counts is not None:
            seen = int((counts > 0).sum())
            out.append(f"Rare in every cell: {what} {_span(shares.min(), shares.max())} of "
                       f"games ({int(counts.sum()):,} of {games:,} in all; in {seen} of "
                       f"{n_cells} cells it happens at all). A rule that almost never "
                       "decides a game is worth a look.")
    return out


def identical_findings(m: dict, df: pd.DataFrame) -> list[str]:
    """Axis values that play exactly the same games (every cell's outcome counts and mean
    length equal), e.g. a solo game whose two characters play like the 2-player game."""
    words = words_of(m)
    axes = {k: v for k, v in m["axes"].items() if len(v) > 1}
    by_values = {json.dumps(_cell_values(m, int(c)), sort_keys=True): row
                 for c, (_, row) in zip(df["cell"], df.iterrows(), strict=True)}
    keys = [f"n_{o}" for o in m["outcomes"] if f"n_{o}" in df] + ["games", "turns_mean"]
    out = []
    for key, values in axes.items():
        for i, a in enumerate(values):
            for b in values[i + 1:]:
                pairs = 0
                same = True
                for _, row in df.iterrows():
                    v = _cell_values(m, int(row["cell"]))
                    if v.get(key) != a:
                        continue
                    other = by_values.get(json.dumps({**v, key: b}, sort_keys=True))
                    if other is None:
                        continue
                    pairs += 1
                    if any(row[k] != other[k] for k in keys):
                        same = False
                        break
                if same and pairs:
                    out.append(f"{setting_name(words, key)} {value_label(words, key, a)} and "
                               f"{value_label(words, key, b)} give identical results in all "
                               f"{pairs} cell pairs (the same games are played).")
    return out


def findings(result, comps: list[dict[str, Any]]) -> list[str]:
    """A few sentences drawn from the results: the hardest and easiest cells, how much each
    swept setting moves the headline rate, the largest paired differences, outcomes that
    never (or hardly ever) happen, and settings that change nothing."""
    m = result.manifest
    df = result.results
    words = words_of(m)
    prefix, name = headline(m)
    rate_col = f"{prefix}_rate" if f"{prefix}_rate" in df else prefix
    out = []
    if len(df) > 1:
        rates = df[rate_col].astype(float)
        lo_row = df.loc[rates.idxmin()]
        hi_row = df.loc[rates.idxmax()]

        def where(row: pd.Series) -> str:
            return cell_text(words, _cell_values(m, int(row["cell"])))

        def rate(row: pd.Series) -> str:
            return f"{fmt_rate(_rate(row, prefix), 1)}"

        if m["cooperative"]:
            out.append(f"Hardest cell: {where(lo_row)} ({name} {rate(lo_row)}); easiest: "
                       f"{where(hi_row)} ({rate(hi_row)}).")
        else:
            out.append(f"Lowest {name}: {where(lo_row)} ({rate(lo_row)}); highest: "
                       f"{where(hi_row)} ({rate(hi_row)}).")
        spans = []
        for key, values in m["axes"].items():
            if len(values) < 2:
                continue
            means = []
            for v in values:
                sel = [float(r[rate_col]) for _, r in df.iterrows()
                       if json.dumps(m["cells"][int(r["cell"])]["values"].get(key))
                       == json.dumps(v)]
                if sel:
                    means.append((float(np.mean(sel)), v))
            if len(means) > 1:
                (a, va), (b, vb) = min(means, key=lambda t: t[0]), max(means, key=lambda t: t[0])
                spans.append((b - a, f"by {setting_name(words, key)} from {_pct(a)} "
                              f"({setting_text(words, key, va)}) to {_pct(b)} "
                              f"({setting_text(words, key, vb)})"))
        if spans:
            spans.sort(key=lambda t: -t[0])
            out.append(f"Averaged over the other settings, the {name} ranges "
                       + "; ".join(text for _, text in spans) + " (largest range first).")
    if comps:
        base = ", ".join(setting_text(words, k, v)
                         for k, v in m["report"]["baseline"].items())
        top = sorted(comps, key=lambda c: -abs(c["diff"]))[:3]
        parts = [f"{cell_text(words, _cell_values(m, int(c['cell'])))}: "
                 f"{100 * c['diff']:+.1f} points [{100 * c['lo']:+.1f}, {100 * c['hi']:+.1f}]"
                 for c in top]
        unclear = sum(1 for c in comps if c["lo"] <= 0 <= c["hi"])
        out.append(f"Largest paired differences from the baseline ({base}): "
                   + "; ".join(parts) + "."
                   + (f" {unclear} of {len(comps)} differences are too small to tell from no "
                      "difference (their interval holds 0)." if unclear else
                      f" Every one of the {len(comps)} differences is clear of 0."))
    out += outcome_findings(m, df)
    out += identical_findings(m, df)
    if "rounds_mean" in df and len(df):
        out.append(f"Games last {df['turns_mean'].min():.1f} to {df['turns_mean'].max():.1f} "
                   f"turns on average ({df['rounds_mean'].min():.1f} to "
                   f"{df['rounds_mean'].max():.1f} rounds).")
    return out


def build_report(result) -> list[Path]:
    """Write ``report.md``, ``report.html``, the charts and ``results.csv`` into the sweep's
    folder, whole or not at all: they are drawn in a staging folder and moved in together
    (see :func:`experiments.storage.outdir.staged`), so a full disk leaves the previous
    report as it was; what the new one no longer draws is removed after."""
    from experiments.storage.outdir import staged

    root = Path(result.root)
    if len(result.results) == 0:
        raise ValueError(f"no cell of the sweep in {root} has finished yet: finish it with "
                         "--resume before building its report")
    with staged(root, "sweep") as stage:
        paths, stale = _write_report(result, root, stage)
    for old in stale:
        old.unlink(missing_ok=True)
    return [root / p.relative_to(stage) for p in paths]


def _write_report(result, root: Path, out: Path) -> tuple[list[Path], list[Path]]:
    """The report of the sweep in ``root`` written into ``out`` (its staging folder); and the
    files of ``root`` it replaces with nothing (charts no longer drawn, comparisons)."""
    from experiments.reporting.charts import all_charts

    m = result.manifest
    df = result.results
    words = words_of(m)
    comps = baseline_comparisons(result)
    stale = []
    if comps:
        write_parquet(out / "comparisons.parquet", pd.DataFrame(comps))
    else:  # a previous report's comparisons (the spec's baseline was since removed)
        stale.append(root / "comparisons.parquet")
    write_csv(out / "results.csv", df)
    charts = all_charts(m, df, out, comps)
    drawn = [c.file for c in charts]
    # charts this sweep drew before and draws no more (only the tool's own: those its
    # manifest lists, or any chart-*.png of a sweep from before manifests listed them)
    before = m.get("charts")
    if isinstance(before, list):
        old_charts = [root / f for f in before if isinstance(f, str) and "/" not in f]
    elif "tool" in m:  # a sweep begun (or begun afresh) since manifests list charts: none yet
        old_charts = []
    else:  # a sweep from before: every chart-*.png beside it is its own
        old_charts = list(root.glob("chart-*.png"))
    stale += [old for old in old_charts if old.name not in drawn
              and old.name.startswith("chart-")]
    if m.get("charts") != drawn and (root / "manifest.json").exists():
        m["charts"] = drawn
        write_json(out / "manifest.json", m)
    prefix, name = headline(m)
    doc = Doc()
    doc.h(1, m["title"])
    if m.get("description"):
        doc.p(m["description"])
    found = findings(result, comps)
    link = m.get(UNCERTAINTY_KEY)
    if link:
        import os

        udir = (root / link).resolve()
        data = read_band(udir, m["game"], what="the uncertainty folder its manifest names,")
        rel = os.path.relpath(udir / "report.md", root.resolve()).replace(os.sep, "/")
        found = band_findings(data, bool(m["cooperative"]), rel) + found
    skill_link = m.get(SKILL_KEY)
    if skill_link:
        import os

        sdir = (root / skill_link).resolve()
        sdata = read_skill(sdir, m["game"], what="the skill-curve folder its manifest names,")
        rel = os.path.relpath(sdir / "report.md", root.resolve()).replace(os.sep, "/")
        found = skill_findings(sdata, rel) + found
    if found:
        doc.h(2, "Findings")
        doc.ul(found)
    total = int(df["games"].sum()) if len(df) else 0
    axes_text = "; ".join(f"{setting_name(words, k)}"
                          + (f" (`{k}`)" if setting_name(words, k) != k else "") + " = "
                          + ", ".join(value_label(words, k, v) for v in vals)
                          for k, vals in m["axes"].items()) or "nothing (one cell)"
    src = m["rules_sources"]
    n_values = sum(src.values())
    assumed = src.get("assumed", 0)
    set_assumed = m.get("assumed_set_by_sweep") or []
    strat = m["strategy"] if "strategy" not in m["axes"] else "see the strategy axis"
    items = [
        f"**Game:** {m['game_title']} (`{m['game']}`), "
        f"{'cooperative' if m['cooperative'] else 'competitive'}; strategy: {strat}",
        f"**Settings:** {m['settings_text']}",
        f"**Swept:** {axes_text} ({len(m['cells'])} cells)",
        f"**Games:** {m['games_text']}; {total:,} games played in all, seed {m['seed']}"
        + (f"; the widest 95% interval is ±{100 * df['halfwidth'].max():.2f} points"
           if len(df) else ""),
        "**Outcomes:** " + "; ".join(f"`{o}`: {outcome_text(words, o)}"
                                     for o in m["outcomes"]),
    ]
    items.append(
        f"**Players:** {players_text(m)}; "
        + ("the skill curve in the findings gives the figure with every seat at stronger "
           "levels" if skill_link else
           "how the figures move under stronger players is not measured in this report "
           f"(`cthulhu-sim skill {m['game']}` measures it; `cthulhu-sim report DIR --skill "
           "SKILLDIR` adds it here)"))
    if words.get("turn"):
        items.append(f"**Game length:** in turns: {words['turn']}")
    items.append(
        f"**Rules data:** {assumed} of the {n_values} rules-data values behind these results "
        f"are `assumed` ({src.get('rulebook', 0)} from the rulebook, {src.get('public', 0)} "
        "public)" + (f"; the sweep itself sets {len(set_assumed)} assumed value(s): "
                     + ", ".join(f"`{k}`" for k in set_assumed) if set_assumed else ""))
    if len(df) < len(m["cells"]):
        items.append(f"**Incomplete:** {len(df)} of {len(m['cells'])} cells are finished; "
                     "run the sweep again with `--resume`")
    doc.ul(items)

    doc.h(2, "Overview")
    doc.p(f"{name.capitalize()} in percent, with its 95% Wilson interval.")
    headers, rows = overview(result)
    n_keys = len(headers) - _figure_columns(rows) if rows else 0
    doc.table(headers, rows, right=set(range(n_keys, len(headers))))

    if charts:
        doc.h(2, "Charts")
        for c in charts:
            doc.h(3, c.title)
            doc.img(c.file, c.title, c.caption, c.alt)

    if comps:
        base = ", ".join(setting_text(words, k, v)
                         for k, v in m["report"]["baseline"].items())
        doc.h(2, f"Differences from the baseline ({base})")
        doc.p(f"Paired over the same playouts: each cell against the cell with {base} and "
              "the same other settings. Differences in percentage points and turns, with "
              "95% intervals; an interval that excludes 0 is a real difference.")
        doc.table(["cell", "baseline", "games", f"{name} difference", "length difference"],
                  [[cell_text(words, _cell_values(m, int(c["cell"]))),
                    cell_text(words, _cell_values(m, int(c["baseline_cell"]))), f"{c['n']:,}",
                    diff_text(c["diff"], c["lo"], c["hi"]),
                    diff_text(c["turns_diff"], c["turns_lo"], c["turns_hi"], 2, "turns", 1.0)]
                   for c in comps], right={2, 3, 4})

    doc.h(2, "Every cell")
    outcomes = m["outcomes"]
    # a cooperative game's first outcome is the team's win, the headline already; a
    # competitive game's outcomes are the ways it ends (Wake Up's next_to_cthulhu or
    # red_candle), every one of them worth its column
    shown = list(outcomes[1:] if m["cooperative"] else outcomes)
    axes_multi = [k for k, v in m["axes"].items() if len(v) > 1]
    rounds = "rounds_mean" in df
    head = [setting_name(words, k) for k in axes_multi] + ["games", f"{name} [95% CI]"]
    if m["cooperative"]:
        head += [f"{o}" for o in outcomes[1:]]
    else:
        max_seats = int(df["n_seats"].max()) if len(df) else 0
        head += [f"seat {s}" for s in range(1, max_seats)]
        head += shown
    head += ["turns mean", "p50", "p90"] + (["rounds mean"] if rounds else [])
    rows = []
    for _, row in df.iterrows():
        r = [value_label(words, k, row[k]) for k in axes_multi]
        r += [f"{int(row['games']):,}", fmt_rate(_rate(row, prefix))]
        if m["cooperative"]:
            r += [_outcome_cell(row, o) for o in outcomes[1:]]
        else:
            for s in range(1, max_seats):
                v = row.get(f"seat{s}_rate")
                r.append("-" if v is None or v != v else fmt_rate(_rate(row, f"seat{s}")))
            r += [_outcome_cell(row, o) for o in shown]
        r += [f"{row['turns_mean']:.1f}", f"{row['turns_p50']:.0f}", f"{row['turns_p90']:.0f}"]
        if rounds:
            r.append(f"{row['rounds_mean']:.1f}")
        rows.append(r)
    doc.table(head, rows, right=set(range(len(axes_multi), len(head))))
    doc.p("Outcome columns are shares of all games: " + "; ".join(
        f"`{o}`: {outcome_text(words, o)}" for o in shown) + "."
        + (" They are the ways the game is lost." if m["cooperative"] else "")
        + (f" Turns: {words['turn']}." if words.get("turn") else ""))

    doc.h(2, "Method")
    doc.p("Every cell plays playouts 0, 1, 2 ... of the same seed, and playout i draws its "
          "random numbers from stream (seed, i) alone, so the cells share their randomness "
          "(common random numbers) and differences between cells are paired. Rates carry 95% "
          "Wilson score intervals; paired differences in win rate carry Newcombe's score "
          "interval for paired proportions, which stays honest when only a few playouts "
          "differ, and paired differences in length a Student's t interval on the "
          "per-playout differences. Each "
          "interval is 95% on its own, not jointly over the table. A difference from the "
          "baseline is over the playouts both cells played, so it can differ slightly from the "
          "difference of the two rates in the overview. Results do not depend on thread count, "
          "chunk size or the machines used.")
    doc.h(2, "Reproduce")
    doc.p(reproduce_note(root))
    doc.code(reproduce_command(root))
    if link:
        name = root.resolve().name or "sweep"
        doc.p("The band over the assumed values heading the findings is the uncertainty "
              f"analysis in `{link}` (its report says how to play it again); this adds it to "
              "the new folder's report (the new folder beside this one, so the same path):")
        doc.code(f"cthulhu-sim report ../{name}-reproduced --uncertainty {link}")
    if skill_link:
        name = root.resolve().name or "sweep"
        doc.p("The skill curve in the findings is the one in "
              f"`{skill_link}` (its report says how to play it again); this adds it to the "
              "new folder's report:")
        doc.code(f"cthulhu-sim report ../{name}-reproduced --skill {skill_link}")

    paths = [write_text(out / "report.md", doc.markdown())]
    images = {c.file: (out / c.file).read_bytes() for c in charts}
    paths.append(write_text(out / "report.html", doc.html(m["title"], images)))
    paths += [out / c.file for c in charts]
    return paths, stale


def _outcome_cell(row: Any, o: str) -> str:
    """One outcome's share of a cell's games, as every rate is written (with its interval
    where the cell kept the count)."""
    n = row.get(f"n_{o}")
    if n is not None and n == n:
        return fmt_rate(wilson(int(n), int(row["games"])))
    return rate_text(float(row[f"p_{o}"]))


def _figure_columns(rows: list[list[str]]) -> int:
    """How many trailing columns of the overview hold figures (everything after the keys)."""
    first = rows[0]
    n = 0
    for cell in reversed(first):
        if cell == "-" or re.fullmatch(r"[\d.,]+%?( \[[\d.]+, [\d.]+\])?", str(cell)):
            n += 1
        else:
            break
    return n
