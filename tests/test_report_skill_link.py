"""`report DIR --skill SKILLDIR`: a balance report says which players made it and, with a skill
curve linked, what the figure is with every seat at stronger levels (issue 26 §5)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.cli_support import invoke

GAMES = 16


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    from experiments.analysis.skill import run_skill
    from experiments.running.sweep import run_sweep

    root = tmp_path_factory.mktemp("skill-link")
    sweep, skill = root / "hex-balance", root / "hex-skill"
    run_sweep({"game": "hex", "axes": {"bad.cultist.count": [7, 8]},
               "games": {"per_cell": GAMES}}, sweep)
    run_skill("hex", "random,heuristic", games=GAMES, seed=3, out=skill)
    return sweep, skill


def _findings(root):
    text = (root / "report.md").read_text()
    return text.split("## Findings", 1)[1].split("\n\n")[1].splitlines()


def _players(root):
    (line,) = [x for x in (root / "report.md").read_text().splitlines()
               if x.startswith("- **Players:**")]
    return line


def test_a_balance_report_names_its_players_and_carries_the_skill_curve(folders):
    sweep, skill = folders
    assert invoke("report", sweep).exit_code == 0
    players = _players(sweep)
    assert "every seat plays `heuristic` (scripted)" in players
    assert "not measured in this report" in players and "--skill SKILLDIR" in players

    r = invoke("report", sweep, "--skill", skill)
    assert r.exit_code == 0, r.output
    data = json.loads((skill / "skill.json").read_text())
    first, second = _findings(sweep)[:2]
    assert first.startswith("- At rising levels of play ([the skill curve](../hex-skill/"
                            f"report.md): every seat at the same level, {GAMES} games a level")
    heur = data["levels"][1]
    good = f"Good {100 * heur['rates'][0]:.1f}% [{100 * heur['ci95'][0][0]:.1f}%, " \
           f"{100 * heur['ci95'][0][1]:.1f}%]"
    assert good in first and "with `heuristic`" in first
    assert first.index("with `random`") < first.index("with `heuristic`")
    assert "The strongest level measured is `heuristic`." in first
    assert second.startswith("- Under stronger play: ")
    assert data["claims"][0]["text"].rstrip(".") in second
    assert "the skill curve in the findings" in _players(sweep)
    assert json.loads((sweep / "manifest.json").read_text())["skill"] == "../hex-skill"
    reproduce = (sweep / "report.md").read_text().split("## Reproduce", 1)[1]
    assert "cthulhu-sim report ../hex-balance-reproduced --skill ../hex-skill" in reproduce
    assert '<a href="../hex-skill/report.html">' in (sweep / "report.html").read_text()

    assert invoke("report", sweep).exit_code == 0  # the link is remembered
    assert _findings(sweep)[0] == first
    assert invoke("report", sweep, "--skill", "none").exit_code == 0
    assert "At rising levels of play" not in (sweep / "report.md").read_text()
    assert "skill" not in json.loads((sweep / "manifest.json").read_text())


def test_the_players_line_names_each_seats_swept_strategies():
    from experiments.reporting.report import players_text

    m = {"game": "hex", "strategy": "table",
         "axes": {"strategy.seat_0": ["heuristic", "flat_mc"], "strategy.seat_1": ["random"],
                  "bad.cultist.count": [7]}}
    assert players_text(m) == ("seat 0 one of `heuristic` (scripted), `flat_mc` (a search); "
                               "seat 1 one of `random` (uniformly random legal play)")
    m = {"game": "hex", "strategy": "reports/players/hex-heuristic-trained.toml", "axes": {}}
    assert players_text(m) == ("every seat plays `reports/players/hex-heuristic-trained.toml` "
                               "(a player file)")


@pytest.mark.parametrize("which, culprit", [
    ("missing", "no such folder"),
    ("sweep", "not a skill curve (the folder holds a sweep)"),
    ("tec", "a skill curve of tec, not of hex"),
    ("broken", "its skill.json is unreadable"),
])
def test_report_skill_bad_input_is_one_line(folders, tmp_path, which, culprit):
    sweep, skill = folders
    assert invoke("report", sweep, "--skill", "none").exit_code == 0
    before = (sweep / "manifest.json").read_text()
    target = {"missing": tmp_path / "nope", "sweep": sweep}.get(which, tmp_path / which)
    if which in ("tec", "broken"):
        shutil.copytree(skill, target)
        data = json.loads((target / "skill.json").read_text())
        if which == "tec":
            data["game"] = "tec"
        else:
            del data["levels"][0]["stalemate"]
        (target / "skill.json").write_text(json.dumps(data))
    r = invoke("report", sweep, "--skill", target)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error:"), r.output
    assert culprit in lines[0], lines[0]
    assert (sweep / "manifest.json").read_text() == before  # nothing written


def test_a_skill_or_training_folder_is_known_without_importing_its_module(folders):
    """The CLI's `report` and `list` read a folder's kind before importing any analysis: the
    layouts of every kind live in experiments/storage/outdir."""
    import subprocess
    import sys

    _, skill = folders
    code = ("import sys; from experiments.storage.outdir import folder_kind, KIND_WORDS; "
            "assert 'experiments.analysis.skill' not in sys.modules; "
            f"print(folder_kind({str(skill)!r}), KIND_WORDS['train'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "skill a training"


def test_the_skill_findings_give_an_order_at_the_strongest_level_and_number_the_seats():
    from experiments.reporting.report import skill_findings

    lv = {"stalemate": {"rate": 0.0}}
    coop = {"cooperative": True, "games": 150, "settings": {"players": 2},
            "levels": [{**lv, "level": "heuristic", "rates": 0.5, "ci95": [0.4, 0.6]},
                       {**lv, "level": "improve:100", "rates": 0.9, "ci95": [0.84, 0.94],
                        "orders": [{"axis": "goo", "values": ["nyarlathotep", "cthulhu"],
                                    "rates": [0.9, 0.387], "ci95": [[0.84, 0.94],
                                                                    [0.31, 0.47]]}]}],
            "claims": [{"text": "settled at the top: still moving"}]}
    first, second = skill_findings(coop)
    assert "team win rate 50.0% [40.0%, 60.0%] with `heuristic`; 90.0%" in first
    assert first.endswith("At `improve:100`, by goo: nyarlathotep 90.0% [84.0%, 94.0%], "
                          "cthulhu 38.7% [31.0%, 47.0%].")
    assert second == "Under stronger play: settled at the top: still moving."
    comp = {"cooperative": False, "games": 10, "seat_names": ["0", "1"],
            "levels": [{"level": "mcts:50", "rates": [0.6, 0.4], "ci95": [[0.3, 0.8],
                                                                          [0.2, 0.7]],
                        "stalemate": {"rate": 0.1}}], "claims": []}
    (only,) = skill_findings(comp)
    assert "seat 0 60.0% [30.0%, 80.0%] / seat 1 40.0% [20.0%, 70.0%] with `mcts:50` " \
        "(10.0% stalemates)" in only
