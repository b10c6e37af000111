"""Reports a designer reads without help: outcomes explained in words, what never happens
said plainly, each caption printed once, settings as the rulebook writes them, game length
in turns and rounds, a Findings paragraph drawn from the results, small multiples for the
differences from the baseline, and results.csv beside results.parquet."""

import io

import matplotlib.figure
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from experiments import run_sweep
from experiments.reporting.report import findings
from tests.cli_support import invoke

TEC_SPEC = {"title": "small tec", "game": "tec", "seed": 1, "strategy": "heuristic",
            "axes": {"goo": ["yog-sothoth", "cthulhu"], "difficulty": ["normal", "madness"],
                     "players": [1, 2, 4]},
            "games": {"per_cell": 150}, "report": {"baseline": {"difficulty": "normal"},
                                                   "heatmap": ["goo", "difficulty"],
                                                   "x": "players"}}


@pytest.fixture(scope="module")
def tec_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("tec") / "sweep"
    return run_sweep(TEC_SPEC, out)


@pytest.fixture(scope="module")
def md(tec_sweep):
    return (tec_sweep.root / "report.md").read_text()


def test_every_outcome_is_explained_in_words(md):
    assert "the Great Old One reached full strength" in md
    assert "turn cap reached" in md and "an investigator went mad" in md
    assert "`strength`: the Great Old One reached full strength" in md


def test_an_outcome_that_never_or_hardly_happens_is_a_finding(md, tec_sweep):
    df = tec_sweep.results
    found = md.split("## Findings")[1].split("\n## ")[0]
    for o in ("madness", "cap"):
        if int(df[f"n_{o}"].sum()) == 0:
            assert f"Never happens: `{o}`" in found
        elif df[f"p_{o}"].max() <= 0.01:
            assert f"Rare in every cell: `{o}`" in found


def test_findings_name_the_hardest_and_easiest_cells_and_the_largest_differences(md,
                                                                                tec_sweep):
    found = md.split("## Findings")[1].split("\n## ")[0]
    assert "Hardest cell: " in found and "easiest: " in found
    df = tec_sweep.results
    worst = df.loc[df["win_rate"].idxmin()]
    assert f"{100 * worst['win_rate']:.1f}%" in found.split("easiest")[0]
    assert "Largest paired differences from the baseline (Normal Mode)" in found
    # one player plays the same games as two (one person, two characters, one plan)
    assert "players 1 and 2 give identical results in all 4 cell pairs" in found
    assert md.index("## Findings") < md.index("## Overview")


def test_settings_read_as_the_rulebook_writes_them(md):
    assert "Yog-Sothoth" in md and "Cthulhu" in md and "Madness Mode" in md
    assert "| Great Old One | difficulty | players 1 |" in md  # overview headers
    assert "goo=yog-sothoth" not in md.split("## Reproduce")[0].split("## Every cell")[0]


def test_game_length_is_defined_and_shown_in_rounds(md, tec_sweep):
    assert "a turn is one character's turn" in md
    df = tec_sweep.results
    assert {"turns_per_round", "rounds_mean"} <= set(df)
    for _, row in df.iterrows():
        chars = 2 if row["players"] == 1 else row["players"]
        assert row["turns_per_round"] == chars
        assert row["rounds_mean"] == pytest.approx(row["turns_mean"] / chars)
    assert "rounds mean" in md


def test_each_caption_is_printed_once_under_its_chart_not_inside_it(tmp_path, monkeypatch):
    texts = []
    real = matplotlib.figure.Figure.text

    def spy(self, x, y, s, *args, **kwargs):
        texts.append(str(s))
        return real(self, x, y, s, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "text", spy)
    res = run_sweep(dict(TEC_SPEC, games={"per_cell": 60}), tmp_path / "c")
    md = (res.root / "report.md").read_text()
    caption_start = "Tiny Epic Cthulhu, strategy heuristic. Settings: defaults."
    assert md.count(caption_start) == len(list(res.root.glob("chart-*.png")))
    assert not any(caption_start in t.replace("\n", " ") for t in texts)


def test_the_baseline_chart_is_small_multiples(tmp_path, monkeypatch):
    """Sixteen differences (four Great Old Ones, two difficulties, two player counts) are drawn
    as one panel per Great Old One, not as sixteen rows of one chart."""
    grids = []
    real = plt.subplots

    def spy(nrows=1, ncols=1, **kwargs):
        grids.append((nrows, ncols))
        return real(nrows, ncols, **kwargs)

    from experiments.reporting import charts

    monkeypatch.setattr(charts.plt, "subplots", spy)
    spec = dict(TEC_SPEC, axes={"goo": ["nyarlathotep", "yog-sothoth", "yig", "cthulhu"],
                                "difficulty": ["normal", "hard", "madness"],
                                "players": [2, 3]}, games={"per_cell": 40})
    res = run_sweep(spec, tmp_path / "m")
    comps = pd.read_parquet(res.root / "comparisons.parquet")
    assert len(comps) == 16
    assert grids[-1] == (2, 2)  # the baseline chart is drawn last: 4 panels


def test_results_csv_is_beside_results_parquet_and_report_csv_prints_it(tec_sweep):
    root = tec_sweep.root
    csv = pd.read_csv(root / "results.csv")
    parquet = pd.read_parquet(root / "results.parquet")
    assert list(csv.columns) == list(parquet.columns) and len(csv) == len(parquet)
    assert (csv["win_rate"] == parquet["win_rate"]).all()
    r = invoke("report", root, "--csv")
    assert r.exit_code == 0, r.output
    printed = pd.read_csv(io.StringIO(r.stdout))
    assert (printed["games"] == parquet["games"]).all()


def test_report_rebuilds_the_same_files(tec_sweep):
    root = tec_sweep.root
    files = ["report.md", "report.html", "results.csv", "manifest.json",
             *sorted(p.name for p in root.glob("chart-*.png"))]
    before = {f: (root / f).read_bytes() for f in files}
    r = invoke("report", root)
    assert r.exit_code == 0, r.output
    assert {f: (root / f).read_bytes() for f in files} == before


def test_findings_of_a_competitive_sweep(tmp_path):
    res = run_sweep({"game": "sticky", "seed": 2, "axes": {"players": [2, 4],
                                                           "curses": [False, True]},
                     "games": {"per_cell": 300}, "report": {"baseline": {"curses": False}}},
                    tmp_path / "s")
    text = " ".join(findings(res, []))
    assert "Lowest seat 0 win rate: " in text and "highest: " in text
    assert "Curses on" in text or "Curses off" in text
    assert "Never happens: `cap`" in text


def test_a_competitive_sweep_shows_every_way_the_game_ends(tmp_path):
    """Wake Up, Cthulhu! ends next to Cthulhu (its first outcome) or on the Red Candle: the
    table of every cell has a column for each, the first included (a cooperative game's first
    outcome is its team win, the headline, and has no column of its own)."""
    spec = {"title": "small wakeup", "game": "wakeup", "seed": 1, "strategy": "heuristic",
            "axes": {"players": [2, 3]}, "games": {"per_cell": 60}}
    result = run_sweep(spec, tmp_path / "sweep")
    md = (result.root / "report.md").read_text()
    table = md.split("## Every cell")[1].split("\n## ")[0]
    header = next(line for line in table.splitlines() if line.startswith("|"))
    for outcome in ("next_to_cthulhu", "red_candle", "turn_cap"):
        assert outcome in header, header
    assert "`next_to_cthulhu`:" in table
