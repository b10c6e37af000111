"""Entrants (experiments/running/entrants.py): ``name``, ``name:budget``, ``name{key=value}``,
one parser for ``compare``, ``ladder --search/--field`` and ``tournament --strategies``, and the
one-line refusals of the strength commands' options that do not apply.

Nothing here plays a game: every row is refused before a game is compiled or played.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from experiments.running.entrants import (
    Entrant,
    EntrantError,
    parse_entrant,
    parse_entrants,
    split_entrants,
)
from tests.cli_support import invoke


# ---- the parser ----------------------------------------------------------------------------
def test_every_form_of_entrant_and_its_canonical_label():
    got = parse_entrants("hex", "Heuristic,MCTS:1_000,mcts:100{rollout=random,c=1},"
                                "heuristic{aggression=0.9},flat_mc{depth=5}")
    assert [e.label for e in got] == ["heuristic", "mcts:1000", "mcts:100{rollout=random,c=1}",
                                      "heuristic{aggression=0.9}", "flat_mc{depth=5}"]
    assert got[1] == Entrant("mcts", 1000)
    assert got[2].settings() == {"rollout": "random", "c": 1, "iterations": 100}
    assert got[2].overrides("strategy.seat_1.") == {"strategy.seat_1.rollout": "random",
                                                    "strategy.seat_1.c": 1,
                                                    "strategy.seat_1.iterations": 100}
    assert got[0].plain and not got[1].plain
    # a label reads back as the same entrant
    assert [parse_entrant("hex", e.label) for e in got] == got


def test_commas_inside_braces_belong_to_the_entrant():
    assert split_entrants("a{x=1,y=2},b:3,c") == ["a{x=1,y=2}", "b:3", "c"]


def test_the_rollout_players_own_parameters():
    e = parse_entrant("hex", "mcts:50{rollout=heuristic,rollout.aggression=1}")
    from strategies import registry

    s = registry.get("hex", e.name, e.settings())
    assert s.rollout.name == "heuristic"
    assert s.rollout.values[list(s.rollout.spec.params).index("aggression")] == 1.0


BAD = [  # (entrants, words the one-line refusal must hold)
    ("nobody,heuristic", ["'nobody'", "allowed:", "heuristic"]),
    ("heuristic:100,random", ["'heuristic:100'", "does not search", "mcts"]),
    ("mcts:1.5,random", ["'mcts:1.5'", "whole number"]),
    ("mcts:0,random", ["'mcts:0'", "1 to 1,000,000"]),
    ("mcts:lots,random", ["'mcts:lots'", "whole number"]),
    ("mcts{iterations=1.5},random", ["iterations=1.5", "whole number"]),
    ("mcts{depth=2.5},random", ["depth=2.5", "whole number"]),
    ("mcts{nope=1},random", ["'nope'", "allowed:", "iterations"]),
    ("heuristic{aggression=7},random", ["aggression", "out of range"]),
    ("mcts{rollout=zzz},random", ["'zzz'", "allowed:"]),
    ("mcts:100{iterations=5},random", ["budget is given twice"]),
    ("heuristic{caution=1,caution=2},random", ["caution is given twice"]),
    ("heuristic,HEURISTIC", ["repeated strategy 'heuristic'", "named twice"]),
    ("mcts,mcts:200", ["named twice", "plays as mcts"]),
    ("mcts{c=1,random", ["never closed"]),
    ("mcts},random", ["'}'"]),
    ("heuristic,", ["empty name"]),
]


@pytest.mark.parametrize("text,words", BAD, ids=[b[0] for b in BAD])
def test_each_bad_entrant_is_one_line_naming_it(text, words):
    with pytest.raises(EntrantError) as info:
        parse_entrants("hex", text)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith("--strategies")
    for w in words:
        assert w in msg, (w, msg)


def test_a_search_budget_is_refused_where_budgets_come_from_elsewhere():
    with pytest.raises(EntrantError, match="--budgets"):
        parse_entrant("hex", "mcts:100", "--search", budget=False)


# ---- the commands' refusals ---------------------------------------------------------------
HEX2 = ["--strategies", "heuristic,random"]
ROWS = [  # (command line, words of the one-line refusal)
    (["compare", "hex", "--strategies", "mcts:1.5,heuristic"], ["'mcts:1.5'", "whole number"]),
    (["compare", "hex", "--strategies", "rusher:10,heuristic"], ["'rusher:10'",
                                                                 "does not search"]),
    (["compare", "hex", "--strategies", "mcts:10,MCTS:10"], ["named twice"]),
    (["compare", "hex", "--strategies", "mcts{bogus=1},heuristic"], ["'bogus'"]),
    (["tournament", "hex", "--strategies", "heuristic,nobody"], ["'nobody'",
                                                                 "cannot take a seat"]),
    (["tournament", "hex", "--strategies", "heuristic,table"], ["'table'"]),
    (["tournament", "hex", "--strategies", "heuristic,mcts:2.5"], ["whole number"]),
    (["tournament", "hex", "--strategies", "heuristic,brawler{zz=1}"], ["'zz'"]),
    (["tournament", "hex", "--strategies", "mcts:200,mcts"], ["named twice"]),
    (["tournament", "hex", *HEX2, "--set", "strategy.iterations=5"],
     ["--set strategy.iterations", "entrant syntax"]),
    (["tournament", "hex", *HEX2, "--resume"], ["--resume", "--out"]),
    (["tournament", "hex", *HEX2, "--resume", "--overwrite", "--out", "t"],
     ["--resume and --overwrite"]),
    (["tournament", "wakeup", "--players", "1", *HEX2], ["one seat"]),
    (["tournament", "sticky", "--strategies", "honest,cheater{ignore_p=0.5}"],
     ["by_seat", "names only"]),
    (["ladder", "hex", "--budgets", "10,10"], ["--budgets", "twice"]),
    (["ladder", "hex", "--set", "strategy.depth=3"], ["--set strategy.depth", "--search"]),
    (["ladder", "hex", "--search", "mcts{iterations=5}"], ["--search", "--budgets"]),
    (["ladder", "hex", "--search", "heuristic"], ["'heuristic'", "not a search strategy"]),
    (["ladder", "hex", "--search", "mcts:100"], ["--search", "--budgets"]),
    (["ladder", "hex", "--field", "heuristic:50"], ["--field", "does not search"]),
    (["ladder", "hex", "--field", "heuristic{zz=1}"], ["--field", "'zz'"]),
    (["ladder", "tec", "--seat", "1"], ["--seat", "cooperative", "does not apply"]),
    (["ladder", "tec", "--field", "random"], ["--field", "cooperative", "does not apply"]),
    (["ladder", "sticky", "--budgets", "10"], ["--budgets", "no search", "does not apply"]),
    (["ladder", "sticky", "--search", "mcts"], ["--search", "no search", "does not apply"]),
    (["ladder", "hex", "--seat", "5"], ["--seat 5"]),
    (["ladder", "wakeup", "--players", "1", "--field", "random"], ["--field", "one seat"]),
]


def _snapshot(root: Path) -> list[str]:
    return sorted(str(Path(h, n)) for h, ds, fs in os.walk(root) for n in ds + fs)


@pytest.mark.parametrize("args,words", ROWS, ids=[" ".join(r[0]) for r in ROWS])
def test_each_refusal_is_one_line_and_writes_nothing(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke(*args, "--games", "2", "-q")
    assert r.exit_code not in (0, None), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert _snapshot(tmp_path) == []


def test_a_search_field_rolling_out_otherwise_than_the_rungs_is_refused():
    r = invoke("ladder", "hex", "--field", "mcts:50{rollout=random}", "--budgets", "10",
               "--games", "2", "-q")
    assert r.exit_code != 0 and "share one rollout player" in r.stderr, r.output
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_search_field_against_search_rungs_plays():
    from experiments.analysis.ladder import run_ladder

    result = run_ladder("hex", None, games=2, seed=1, budgets=(3,), search_params={"depth": 2},
                        field_strategy="mcts:5{depth=2}")
    assert result.rungs[-1].rung.label == "mcts 3" and result.field == "mcts:5{depth=2}"


def test_entrants_from_a_small_toml_file(tmp_path):
    f = tmp_path / "e.toml"
    f.write_text('entrants = ["Heuristic", "mcts:100"]\n\n[[entrant]]\nname = "mcts"\n'
                 'budget = 1000\nparams = { rollout = "random" }\n', encoding="utf-8")
    got = parse_entrants("hex", f"@{f}")
    assert [e.label for e in got] == ["heuristic", "mcts:100", "mcts:1000{rollout=random}"]
    f.write_text('players = ["heuristic"]\n', encoding="utf-8")
    with pytest.raises(EntrantError, match="unknown key 'players'"):
        parse_entrants("hex", f"@{f}")
    with pytest.raises(EntrantError, match="cannot be read"):
        parse_entrants("hex", f"@{tmp_path / 'none.toml'}")


def test_a_trained_player_takes_a_tournament_seat_with_that_seats_parameters():
    """A player file (``train --out``) is an entrant of a tournament: at each table seat it
    plays its strategy with the parameters trained for that seat."""
    from pathlib import Path

    from experiments.analysis.tournament import make_spec, tournament_entrants, tournament_spec

    path = str(Path(__file__).resolve().parent.parent / "reports" / "players"
               / "hex-heuristic-trained.toml")
    from strategies.playerfile import load

    trained = load(path, "hex")
    raw = tournament_spec("hex", ["random", path], 4, 1)
    entrants = tournament_entrants("hex", ["random", path])
    assert [e.label for e in entrants] == ["random", path]
    spec = make_spec(raw, entrants)
    seated = [c for c in spec.cells() if c.values["strategy.seat_1"] == path]
    assert seated
    over = seated[0].overrides
    assert over["strategy.seat_1"] == trained.strategy
    for key, value in trained.seat_parameters(1).items():
        assert over[f"strategy.seat_1.{key}"] == value
    good = [c for c in spec.cells() if c.values["strategy.seat_0"] == path][0].overrides
    assert good["strategy.seat_0.aggression"] == trained.seat_parameters(0)["aggression"]
    assert trained.seat_parameters(0) != trained.seat_parameters(1)
