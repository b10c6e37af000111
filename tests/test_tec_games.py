"""Tiny Epic Cthulhu over whole games: conservation of every piece (after the setup, after
every step of random games, and broken on purpose), the checking mode for every Great Old One,
difficulty and player count, and the trace command."""

import pytest
from tec_support import (
    F_INIT,
    GAME,
    QUICK,
    R_VIOLATIONS,
    RANDOM,
    Table,
    config,
    params,
    play_game,
    script,
    table,
)
from typer.testing import CliRunner

from experiments.cli import app
from simcore.tec import state as S

DIFFICULTIES = ("normal", "hard", "madness")


def test_conservation_holds_after_setup():
    """The rules checker finds nothing right after the setup, whatever the settings."""
    for goo in S.GOOS:
        for difficulty in DIFFICULTIES:
            for players in (1, 2, 3, 4):
                ip = params({"goo": goo, "difficulty": difficulty, "players": players,
                             "town_sides": "random"})
                for seed in range(3):
                    tb = Table(ip, seed)
                    tb.call(F_INIT, sp=script(then=RANDOM))
                    assert tb.errors() == 0, (goo, difficulty, players, seed)


def test_conservation_holds_through_whole_random_games():
    """In checking mode every step of a whole game keeps every piece: no violation is logged,
    in phase one and (on a one-row Necronomicon) in phase two."""
    for overrides in ({}, {"players": 4, "difficulty": "madness"}, QUICK):
        ip = params(overrides)  # (play_game runs the rules checker after every step)
        phase_two = 0
        for index in range(20):
            g = play_game(ip, seed=11, index=index)
            assert g.rec[R_VIOLATIONS] == 0, (overrides, index)
            assert g.rec[S.R_OUTCOME] in (S.O_WIN, S.O_STRENGTH, S.O_MADNESS)
            phase_two += g.rec[S.R_PHASE2_TURN] >= 0
        if overrides is QUICK:
            assert phase_two > 5


BREAKS = {  # one piece lost (or one too many) in each place conservation watches
    "a Fear from the bag": ("bag.fear", -1),
    "a Rage on a town": ("town1.mad.rage", 1),
    "a Greed on a mat": ("char0.temp.greed", 1),
    "a Chaos from the supply": ("supply.chaos", -1),
    "a Necronomicon Chaos": ("necro.row_chaos.2", -1),
    "an Eldritch on a town": ("town3.eldritch", -1),
    "an Eldritch on the Energy Track": ("energy", 1),
    "a Shambler from the mat": ("smat.sh.green", -1),
    "a Page token": ("page_pile", -1),
    "a Page card": ("deck_left", -1),
}


@pytest.mark.parametrize("name", list(BREAKS))
def test_conservation_catches_a_lost_piece(name):
    """conservation_errors becomes > 0 when a piece is removed (or added) by hand, and 0
    again when it is put back."""
    field, delta = BREAKS[name]
    tb = table()
    assert tb.errors() == 0
    tb[field] += delta
    assert tb.errors() > 0, name
    tb[field] -= delta
    assert tb.errors() == 0


def test_conservation_catches_a_track_over_its_limit():
    """A track beyond its spaces counts as an error even when the totals add up."""
    tb = table()
    tb.move("smat.sh.red", "town2.sh.red", tb["town2.sh_len"] + 1)
    assert tb.errors() > 0
    tb = table()
    tb.move("bag.fear", "char1.temp.fear", 3)
    assert tb.errors() > 0


@pytest.mark.parametrize("goo", S.GOOS)
def test_check_mode_finds_nothing_with_the_random_strategy(goo):
    """GAME.check (every piece conserved after every step, no game stuck at the turn cap)
    with the random strategy, for every difficulty and player count (2,000 games each; the
    million-game check is run separately)."""
    for difficulty in DIFFICULTIES:
        for players in (1, 2, 3, 4):
            cfg = config({"goo": goo, "difficulty": difficulty, "players": players}, "random")
            out = GAME.check(cfg, games=2000, seed=1)
            assert out["games"] == 2000
            assert out["violations"] == 0 and out["stuck"] == 0, (difficulty, players, out)
            assert out["first_violation"] is None


def test_check_mode_reaching_phase_two():
    """The same check on a one-row Necronomicon, where most random games reach phase two and
    try to seal; and with the heuristic strategy on the default rules."""
    for overrides, strategy in ((QUICK, "random"), ({}, "heuristic")):
        cfg = config(overrides, strategy)
        out = GAME.check(cfg, games=2000, seed=1)
        assert out["violations"] == 0 and out["stuck"] == 0, (strategy, out)
    df = GAME.play(config(QUICK, "random"), 1000, seed=2)
    assert (df["phase2_turn"] >= 0).mean() > 0.3
    assert df["seal_attempts"].sum() > 0 and df["portals_sealed"].sum() > 0
    assert set(df["outcome"]) <= {S.O_WIN, S.O_STRENGTH, S.O_MADNESS}


def test_check_mode_reports_stuck_games():
    """The checking mode is not blind: a turn cap of one turn leaves every game stuck, and
    the first one is named for replay."""
    cfg = config({"max_turns": 1}, "random")
    out = GAME.check(cfg, games=50, seed=1)
    assert out["stuck"] == 50 and out["violations"] == 0
    assert out["first_violation"].startswith("playout 0 (replay: cthulhu-sim trace tec")


def test_records_are_consistent():
    """Every record ends with an outcome; phase-two games flipped at a real turn; seals only
    in phase two."""
    df = GAME.play(config(QUICK, "random"), 500, seed=5)
    assert (df["outcome"] != S.O_PLAYING).all()
    two = df["phase2_turn"] >= 0
    assert (df.loc[two, "phase2_turn"] <= df.loc[two, "turns"]).all()
    assert (df.loc[~two, "seal_attempts"] == 0).all()
    assert (df["portals_sealed"] <= df["seal_attempts"]).all()
    assert (df.loc[df["outcome"] == S.O_WIN, "portals_sealed"] == 6).all()
    assert (df.loc[df["outcome"] != S.O_WIN, "portals_sealed"] < 6).all()


def test_trace_command_runs_and_names_the_outcome():
    """`cthulhu-sim trace tec --seed 3` replays a game and names how it ended."""
    r = CliRunner().invoke(app, ["trace", "tec", "--seed", "3"])
    assert r.exit_code == 0, r.output
    rec = GAME.run_batch(config(), 3, 0, 1)[0]  # the same game: default strategy, playout 0
    outcome = S.OUTCOMES[int(rec["outcome"])]
    lines = r.output.strip().splitlines()
    assert len(lines) > 10
    assert outcome in "\n".join(lines[-3:]).lower()  # the end of the trace says how it ended
