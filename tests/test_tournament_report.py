"""Tournaments of entrants: each entrant plays with its own settings (mcts:3 really searches 3
iterations, mcts:17 seventeen), a separable result gets an interval that says so, the report
shows the ratings chart and the win-matrix heatmap, and `list` names the folder a tournament.
Small hex tournaments only (a few games a table)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.cli_support import invoke


def test_each_entrant_plays_its_own_budget_and_parameters():
    from experiments.analysis.tournament import make_spec, tournament_entrants, tournament_spec
    from simcore.registry import get_game

    entrants = tournament_entrants("hex", "MCTS:3{depth=2},mcts:17{depth=2},heuristic"
                                          "{aggression=1}")
    raw = tournament_spec("hex", entrants, 2, 1)
    spec = make_spec(raw, entrants)
    # every seating: the two searches meet at a table too, each with its own budget
    seatings = [tuple(c.values.values()) for c in spec.cells()]
    assert len(seatings) == 9 and ("mcts:3{depth=2}", "mcts:17{depth=2}") in seatings
    assert "(9 tables)" in raw["description"]
    both = next(c for c in spec.cells() if tuple(c.values.values()) == ("mcts:3{depth=2}",
                                                                          "mcts:17{depth=2}"))
    text = get_game("hex").trace(spec.configure(both), 1, 0)
    assert "Good searches (3 iterations)" in text and "Bad searches (17 iterations)" in text
    for budget in (3, 17):
        cell = next(c for c in spec.cells() if c.values == {
            "strategy.seat_0": f"mcts:{budget}{{depth=2}}",
            "strategy.seat_1": "heuristic{aggression=1}"})
        config = spec.configure(cell)
        seats = config.strategy.seats
        assert int(seats[0].values[0]) == budget  # iterations
        assert seats[1].values[list(seats[1].spec.params).index("aggression")] == 1.0
        # and the engine searches so: the trace reports every search's iterations
        text = get_game("hex").trace(config, 1, 0)
        assert f"searches ({budget} iterations)" in text
        other = 20 - budget
        assert f"searches ({other} iterations)" not in text


def test_search_entrants_alone_play_unless_their_rollouts_keep_them_apart():
    from experiments.analysis.tournament import tournament_spec
    from simcore.rules_data import RulesError

    raw = tournament_spec("hex", "mcts:10,flat_mc:10", 2, 1)
    assert "(4 tables)" in raw["description"]
    # searches rolling out with different players never share a table: alone, never met
    with pytest.raises(RulesError, match="never meet") as info:
        tournament_spec("hex", "mcts:10,flat_mc:10{rollout=random}", 2, 1)
    assert "flat_mc:10{rollout=random} rolls out with random" in str(info.value)
    # with an entrant that does not search they meet through it, and the report says so
    raw = tournament_spec("hex", "mcts:10,flat_mc:10{rollout=random},heuristic", 2, 1)
    assert "7 of 9 tables" in raw["description"]


def test_a_tournament_of_two_searches_plays_every_table(tmp_path):
    from experiments.analysis.tournament import run_tournament

    result = run_tournament("hex", "mcts:3{depth=2},flat_mc:4{depth=2}", games=2, seed=1)
    assert len(result.tables) == 4 and result.n_tables == 4
    assert (result.tables["mean_searches"] > 0).all()
    assert "every seating" in result.format()
    assert not result.never_met("mcts:3{depth=2}", "flat_mc:4{depth=2}")


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    root = tmp_path_factory.mktemp("tour")
    out = root / "t"
    r = invoke("tournament", "hex", "--strategies", "heuristic,random,mcts:4{depth=2}",
               "--games", "6", "--seed", "2", "--out", out, "--json", "-q")
    assert r.exit_code == 0, r.output
    return root, out, json.loads(r.stdout)


def test_the_report_shows_ratings_and_the_win_matrix(tour):
    _, out, summary = tour
    assert [r["strategy"] for r in summary["ratings"]][-1] == "random"
    md = (out / "report.md").read_text()
    assert "## Ratings" in md and "## Win matrix" in md
    assert "(chart-ratings.png)" in md and "(chart-wins.png)" in md
    assert "`mcts:4{depth=2}`" in md and "cthulhu-sim tournament hex" in md
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64") == 2
    for chart in ("chart-ratings.png", "chart-wins.png"):
        assert (out / chart).read_bytes()[:4] == b"\x89PNG"
    m = json.loads((out / "manifest.json").read_text())
    assert m["charts"] == ["chart-ratings.png", "chart-wins.png"]
    assert m["tournament"]["entrants"] == ["heuristic", "random", "mcts:4{depth=2}"]


def test_list_names_the_folder_a_tournament(tour):
    root, out, _ = tour
    r = invoke("list", root, "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    rows = rows if isinstance(rows, list) else rows.get("folders", rows)
    assert [row["kind"] for row in rows] == ["tournament"]
    r = invoke("list", root)
    assert "tournament" in r.stdout.splitlines()[1] and "9/9" in r.stdout


def test_resuming_gives_the_same_ratings(tour):
    _, out, summary = tour
    r = invoke("tournament", "hex", "--strategies", "heuristic,random,mcts:4{depth=2}",
               "--games", "6", "--seed", "2", "--out", out, "--json", "-q", "--resume")
    assert r.exit_code == 0, r.output
    again = json.loads(r.stdout)
    assert again["ratings"] == summary["ratings"]


def test_report_rebuilds_a_tournaments_report_from_its_results(tour, tmp_path):
    """`report DIR` on a tournament's folder draws the tournament's report again (ratings,
    win matrix, its charts) from the stored results, not a generic sweep report over it; the
    summary it prints writes every win-matrix cell as a rate with its interval."""
    import re
    import shutil

    _, out, _ = tour
    copy = tmp_path / "t"
    shutil.copytree(out, copy)
    before = (copy / "report.md").read_text()
    for name in ("report.md", "report.html", "chart-ratings.png", "chart-wins.png"):
        (copy / name).unlink()
    r = invoke("report", copy)
    assert r.exit_code == 0, r.output
    assert "tournament of heuristic, random, mcts:4{depth=2}" in r.stdout
    assert "Bradley-Terry rating" in r.stdout and f"report: {copy / 'report.md'}" in r.stdout
    matrix = r.stdout.split("win matrix:")[1].splitlines()[2:]
    cells = re.findall(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", "\n".join(matrix))
    assert len(cells) == 6  # every pair of the three, each way
    md = (copy / "report.md").read_text()
    assert md == before.replace(str(out), str(copy))
    assert "## Overview" not in md and (copy / "chart-wins.png").read_bytes()[:4] == b"\x89PNG"


def test_report_rebuilds_a_ladder_from_its_ladder_json(tmp_path):
    from experiments.analysis.ladder import run_ladder

    out = tmp_path / "ladder"
    result = run_ladder("hex", None, games=6, seed=2, budgets=(3,), search="flat_mc",
                        search_params={"depth": 2})
    result.write(out)
    stored = json.loads((out / "ladder.json").read_text())
    assert [r["wins"] for r in stored["rungs"]] == [r.rate.successes for r in result.rungs]
    command = json.loads((out / "manifest.json").read_text())["command"]
    assert command == (f"cthulhu-sim ladder hex --games 6 --seed 2 --budgets 3 --search "
                       f"'flat_mc{{depth=2}}' --out {out}")
    md = (out / "report.md").read_text()
    assert "## Reproduce" in md and "cthulhu-sim ladder hex --games 6" in md
    for name in ("report.md", "report.html", "chart-ladder.png"):
        (out / name).unlink()
    r = invoke("report", out)
    assert r.exit_code == 0, r.output
    assert (out / "report.md").read_text() == md
    assert (out / "chart-ladder.png").read_bytes()[:4] == b"\x89PNG"
    assert (out / "report.html").read_text().count("data:image/png;base64") == 1
    assert "strength ladder" in r.stdout and "flat_mc 3" in r.stdout
    r = invoke("report", out, "--csv")
    assert r.exit_code != 0 and r.stderr.count("\n") == 1 and "--csv" in r.stderr


def test_report_on_an_old_ladder_or_an_unfinished_tournament_is_refused_in_one_line(
        tour, tmp_path):
    import shutil
    from pathlib import Path

    ladder = tmp_path / "ladder"
    shutil.copytree(Path(__file__).parents[1] / "reports" / "hex-ladder", ladder)
    (ladder / "ladder.json").unlink()  # a ladder written before ladders kept it
    m = json.loads((ladder / "manifest.json").read_text())
    m.pop("command", None)
    (ladder / "manifest.json").write_text(json.dumps(m))
    r = invoke("report", ladder)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1
    assert "has no ladder.json" in r.stderr and "play it again" in r.stderr
    assert "cthulhu-sim ladder hex" in r.stderr and "Traceback" not in r.output
    _, out, _ = tour
    part = tmp_path / "part"
    shutil.copytree(out, part)
    import pandas as pd

    res = pd.read_parquet(part / "results.parquet")
    res.iloc[:4].to_parquet(part / "results.parquet")
    r = invoke("report", part)
    assert r.exit_code != 0 and r.stderr.count("\n") == 1 and "Traceback" not in r.output
    assert "unfinished (4 of 9 tables played)" in r.stderr and "--resume" in r.stderr


def test_a_separable_result_has_an_interval_that_says_so():
    """Every decided game won by one side: the interval has width and an unbounded end in
    words (not [3.454, 3.454])."""
    import pandas as pd

    from experiments.analysis.tournament import TournamentResult, analyse

    rows = []
    for a in ("heuristic", "random"):
        for b in ("heuristic", "random"):
            w0 = 20 if a == "heuristic" else 0
            w1 = 20 if b == "heuristic" and a != "heuristic" else 0
            if a == b:
                w0, w1 = 10, 10
            rows.append({"strategy.seat_0": a, "strategy.seat_1": b, "seat0_wins": w0,
                         "seat1_wins": w1, "games": 20})
    wins, ratings, ci = analyse(pd.DataFrame(rows), ["heuristic", "random"], 2, 1)
    assert wins[0, 1] == 40 and wins[1, 0] == 0
    assert (ci[:, 1] - ci[:, 0] > 0.5).all()
    result = TournamentResult("hex", "Hex", ["heuristic", "random"], 2, 20, 1, {}, wins,
                              ratings, ci)
    assert result.unbounded() == ["above", "below"]
    text = result.format()
    assert "no upper bound" in text and "no lower bound" in text
    assert "lost no game" in text
    rows = {r["strategy"]: r for r in result.summary()["ratings"]}
    assert rows["heuristic"]["unbounded"] == "above"
    assert np.isfinite(rows["heuristic"]["ci95"]).all()


def test_list_names_every_kind_of_committed_folder():
    """The committed reports: sweeps (finished, though their cells/ folder is not kept),
    ladders, a sensitivity analysis, tunings and the hex tournament, each by its own name."""
    from pathlib import Path

    from experiments.analysis.catalog import list_folders

    reports = Path(__file__).resolve().parents[1] / "reports"
    rows = {Path(r["path"]).name: r for r in list_folders(reports)}
    kinds = {name: r["kind"] for name, r in rows.items()}
    assert kinds["hex-balance"] == "sweep" and kinds["hex-ladder"] == "ladder"
    assert kinds["tec-sensitivity-cthulhu-hard"] == "sensitivity"
    assert kinds["tec-tune-ladder-cthulhu"] == "tune"
    if "hex-tournament" in kinds:
        assert kinds["hex-tournament"] == "tournament"
    for r in rows.values():
        if r["kind"] in ("sweep", "tournament"):
            done, total = r["cells"].split("/")
            assert done == total, r  # finished: counted from results.parquet
