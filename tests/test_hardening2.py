"""Bad input, second round (issue 30): each row is a command a demanding new user typed and
the one ``error:`` line it must give (non-zero exit, no traceback, nothing on stdout and
nothing written), in the manner of tests/test_bad_input.py, plus the few cases that need more
than one line of checking (a clamped --threads, an interrupted search run, atomic folders)."""

from __future__ import annotations

import json

import pytest

from tests.cli_support import invoke
from tests.test_bad_input import Row, snapshot

HEX_SWEEP = {"tool": "cthulhu-sim", "kind": "sweep", "title": "hex first side",
             "spec_hash": "0" * 64, "spec": {"game": "hex"}, "cells": []}

FILES = {
    "hexsweep/manifest.json": json.dumps(HEX_SWEEP).encode(),
    "hex-seat2.toml": b'game = "hex"\nstrategy = "table"\n[axes]\n"strategy.seat_2" = '
                      b'["rusher", "brawler"]\n[games]\nper_cell = 5\n',
}
RUN = ["--games", "2", "-q"]


def _rules(game: str, old: str, new: str) -> bytes:
    """The game's own rules file with one line's text replaced (``old`` must be there)."""
    from simcore.registry import get_game

    text = get_game(game).rules_file.read_text(encoding="utf-8")
    assert old in text, (game, old)
    return text.replace(old, new, 1).encode()


STICKY_PLAYERS = "players = { value = 4, min = 2, max = 6"
FILES.update({
    # a negative value with the file's own bounds widened to let it through
    "wakeup-negative.toml": _rules("wakeup", "hand_size = { value = 7, min = 1",
                                   "hand_size = { value = -2, min = -5"),
    "wakeup-negative-solo.toml": _rules("wakeup", "small_move = { value = 3, min = 0",
                                        "small_move = { value = -1, min = -5"),
    "tec-negative-players.toml": _rules("tec", "players = { value = 2, min = 1",
                                        "players = { value = -1, min = -4"),
    "sticky-twice.toml": _rules("sticky", STICKY_PLAYERS,
                                'players = { value = 3, min = 2, max = 6, source = "public" }\n'
                                + STICKY_PLAYERS),
    "sticky-unicode.toml": _rules("sticky", STICKY_PLAYERS,
                                  '"pl\u00e0yers" = { value = 3, min = 2, max = 6, source = '
                                  '"public" }\n' + STICKY_PLAYERS),
    "spec-unknown-setting.toml": b'game = "sticky"\n[settings]\ncolour = 3\n[games]\n'
                                 b'per_cell = 5\n',
    "spec-unknown-strategy-setting.toml": b'game = "sticky"\nstrategy = "honest"\n[settings]'
                                          b'\n"strategy.bogus" = 3\n[games]\nper_cell = 5\n',
    "spec-twice.toml": b'game = "sticky"\n[settings]\nplayers = 3\nplayers = 4\n[games]\n'
                       b'per_cell = 5\n',
    "spec-table-twice.toml": b'game = "sticky"\n[games]\nper_cell = 5\n[axes]\nplayers = [2]'
                             b'\n[games]\nround = 1\n',
    "spec-unicode.toml": 'game = "sticky"\n[settings]\n"pl\u00e0yers" = 3\n[games]\n'
                         'per_cell = 5\n'.encode(),
    "spec-max-below-round.toml": b'game = "sticky"\n[games]\nprecision = 1.0\nround = 5000\n'
                                 b'max_per_cell = 1000\n',
})

ROWS = [
    # 1. main over another sweep (or a folder it did not write)
    Row("main-out-other-sweep", ["main", "-q", "--out", "hexsweep"],
        ["hexsweep", "holds another sweep (hex first side)", "--overwrite"]),
    # 2. seats the game does not have at that player count
    Row("run-hex-seat-2", ["run", "hex", "--strategy", "table", "--set",
                           "strategy.seat_2=rusher", *RUN],
        ["'strategy.seat_2'", "hex has 2 seats", "strategy.seat_0 (Good), strategy.seat_1 (Bad)"]),
    Row("run-wakeup-2p-seat-3", ["run", "wakeup", "--players", "2", "--strategy", "table",
                                 "--set", "strategy.seat_3=random", *RUN],
        ["'strategy.seat_3'", "2 seats at 2 players", "strategy.seat_0, strategy.seat_1"]),
    Row("run-wakeup-1p-seat-1", ["run", "wakeup", "--players", "1", "--strategy", "table",
                                 "--set", "strategy.seat_1=random", *RUN],
        ["'strategy.seat_1'", "one seat at 1 player", "its seats: strategy.seat_0"]),
    Row("run-wakeup-1p-seat-1-param", ["run", "wakeup", "--players", "1", "--strategy", "table",
                                       "--set", "strategy.seat_1.noise=0.1", *RUN],
        ["'strategy.seat_1.noise'", "one seat at 1 player"]),
    Row("run-sticky-4p-seat-7", ["run", "sticky", "--strategy", "by_seat", "--players", "4",
                                 "--set", "strategy.seat_7=cheater", *RUN],
        ["'strategy.seat_7'", "4 seats at 4 players", "strategy.seat_3"]),
    Row("compare-hex-seat-2", ["compare", "hex", "--strategies", "table,random", "--set",
                               "strategy.seat_2=rusher", *RUN], ["'strategy.seat_2'"]),
    Row("sweep-hex-axis-seat-2", ["sweep", "hex-seat2.toml", "--out", "o9"],
        ["'strategy.seat_2'", "hex has 2 seats"]),
    # 3. fair, in a game of one seat
    Row("tune-wakeup-1p-fair", ["tune", "wakeup", "--players", "1", "--target", "fair",
                                "--vary", "hand_size", "--games", "10", "-q"],
        ["--target fair", "wakeup has one seat at 1 player", "no seats to make fair"]),
    # 8. the key at fault, named
    Row("run-sticky-seats-profile", ["run", "sticky", "--set",
                                     "seats=average,nobody,average,average", *RUN],
        ["key 'seats'", "seat 1 uses profile 'nobody'", "allowed: average"]),
    Row("compare-sticky-seats-profile", ["compare", "sticky", "--strategies", "honest,cheater",
                                         "--set", "seats=nobody", *RUN],
        ["key 'seats'", "'nobody'"]),
    Row("rules-negative-widened", ["run", "wakeup", "--rules", "wakeup-negative.toml", *RUN],
        ["wakeup-negative.toml", "key 'hand_size'", "-2 is beyond what the simulator supports"]),
    Row("rules-negative-widened-solo", ["run", "wakeup", "--rules",
                                        "wakeup-negative-solo.toml", *RUN],
        ["key 'solo.small_move'", "-1 is beyond what the simulator supports"]),
    Row("rules-negative-widened-players", ["run", "tec", "--rules",
                                           "tec-negative-players.toml", *RUN],
        ["key 'players'", "-1 is beyond what the simulator supports (1 to 4)"]),
    Row("rules-key-twice", ["run", "sticky", "--rules", "sticky-twice.toml", *RUN],
        ["sticky-twice.toml", "key 'players' is given twice (line"]),
    Row("rules-unicode-key", ["run", "sticky", "--rules", "sticky-unicode.toml", *RUN],
        ["key 'pl\u00e0yers'", "unknown key", "did you mean players"]),
    Row("set-unicode-key", ["run", "sticky", "--set", "pl\u00e0yers=3", *RUN],
        ["key 'pl\u00e0yers'", "did you mean players"]),
    Row("spec-unknown-setting", ["sweep", "spec-unknown-setting.toml", "--out", "o9"],
        ["key 'colour'", "unknown override key"]),
    Row("spec-unknown-strategy-setting", ["sweep", "spec-unknown-strategy-setting.toml",
                                          "--out", "o9"],
        ["key 'strategy.bogus'", "no such parameter"]),
    Row("spec-key-twice", ["sweep", "spec-twice.toml", "--out", "o9"],
        ["key 'settings.players' is given twice (line 4)"]),
    Row("spec-table-twice", ["sweep", "spec-table-twice.toml", "--out", "o9"],
        ["table [games] is given twice (line 6)"]),
    Row("spec-unicode-key", ["sweep", "spec-unicode.toml", "--out", "o9"],
        ["key 'pl\u00e0yers'", "did you mean players"]),
    Row("spec-max-below-round", ["sweep", "spec-max-below-round.toml", "--out", "o9"],
        ["key 'games.max_per_cell'", "1,000 is below games.round (5,000)"]),
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input-2")
    for name, data in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_bad_input_is_one_line_and_writes_nothing(row, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    before = snapshot(workdir)
    r = invoke(*row.args)
    assert r.exit_code not in (0, None), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    assert r.stdout == "", r.stdout
    lines = r.stderr.strip().splitlines()
    assert lines and lines[0].startswith("error: "), r.stderr
    assert len(lines) == 1 or "problems" in lines[0], r.stderr  # one line per problem
    for culprit in row.culprit:
        assert culprit in r.stderr, (culprit, r.stderr)
    assert snapshot(workdir) == before, "something was written"


def _deny(monkeypatch, denied):
    """``os.scandir`` refusing the folders in ``denied`` as an unreadable folder does (the
    tests may run as root, whom a folder's mode does not stop)."""
    import os

    real = os.scandir

    def scandir(path="."):
        if os.path.abspath(os.fspath(path)) in {os.path.abspath(d) for d in denied}:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_list_of_an_unreadable_folder_says_it_cannot_read_it(tmp_path, monkeypatch):
    # cthulhu-sim list DIR, DIR unreadable: "error: cannot read DIR: Permission denied"
    (tmp_path / "locked").mkdir()
    monkeypatch.chdir(tmp_path)
    _deny(monkeypatch, ["locked"])
    r = invoke("list", "locked")
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    assert r.stderr.strip() == "error: cannot read locked: Permission denied"


def test_list_names_an_unreadable_folder_inside(tmp_path, monkeypatch):
    (tmp_path / "results" / "locked").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    _deny(monkeypatch, ["results/locked"])
    r = invoke("list", "results")
    assert r.exit_code == 0, r.output
    assert "note: cannot read results/locked (Permission denied)" in r.stderr


def _interrupt_after(monkeypatch, batches):
    """A searching run (hex's random strategy taken for one, in batches of 4) whose play is
    interrupted, as by Ctrl-C, when batch ``batches + 1`` of the run begins."""
    from experiments.running import runner
    from simcore.game import Game

    monkeypatch.setattr(runner, "searching", lambda strategy: True)
    monkeypatch.setattr(runner, "search_batch", lambda: 4)
    real = Game.run_batch
    calls = []

    def run_batch(self, config, seed, start, count):
        if seed == 1:  # (not the warm-up's)
            calls.append(start)
            if len(calls) > batches:
                raise KeyboardInterrupt
        return real(self, config, seed, start, count)

    monkeypatch.setattr(Game, "run_batch", run_batch)


def test_an_interrupted_search_run_keeps_the_games_it_finished(tmp_path, monkeypatch):
    # cthulhu-sim run hex --strategy mcts --games 50 --out o, Ctrl-C after 12 games:
    # "interrupted after 12 of 50 games; those are kept in o ...", exit 130
    import pandas as pd

    from experiments.running.runner import run

    _interrupt_after(monkeypatch, 3)
    r = invoke("run", "hex", "--strategy", "random", "--games", "50", "-q", "--out",
               tmp_path / "o")
    assert r.exit_code == 130, r.output
    assert "interrupted after 12 of 50 games; those are kept in" in r.stderr
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["games"] == 12
    monkeypatch.undo()
    kept = pd.read_parquet(tmp_path / "o" / "playouts.parquet")
    whole = run("hex", strategy="random", games=12, seed=1).frame
    pd.testing.assert_frame_equal(kept, whole.drop(columns=["outcome_name"]),
                                  check_dtype=False)


def test_an_interrupted_search_run_leaves_no_empty_folder(tmp_path, monkeypatch):
    _interrupt_after(monkeypatch, 0)
    r = invoke("run", "hex", "--strategy", "random", "--games", "50", "-q", "--out",
               tmp_path / "o")
    assert r.exit_code == 130, r.output
    assert "interrupted before any game was finished; nothing kept" in r.stderr
    assert not (tmp_path / "o").exists()
    monkeypatch.undo()
    _interrupt_after(monkeypatch, 1)
    r = invoke("run", "hex", "--strategy", "random", "--games", "50", "-q")
    assert r.exit_code == 130, r.output
    assert "interrupted after 4 of 50 games (nothing kept: give --out DIR" in r.stderr


def _full_disk(monkeypatch, after):
    """Every write past the first ``after`` fails as on a full disk."""
    import errno

    from experiments.reporting import charts
    from experiments.storage import store

    real = store.atomic_write
    count = [0]

    def atomic_write(path, write):
        count[0] += 1
        if count[0] > after:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, write)

    monkeypatch.setattr(store, "atomic_write", atomic_write)
    monkeypatch.setattr(charts, "atomic_write", atomic_write)


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("command", ["run", "compare", "pool", "ladder"])
def test_a_full_disk_leaves_no_half_written_folder(command, tmp_path, monkeypatch):
    # cthulhu-sim pool A B --out C (or compare / run --out C) on a full disk:
    # "error: cannot write ...: No space left on device", and C as it was (a new C gone,
    # an earlier result of the command whole), so the same command with --overwrite works
    monkeypatch.chdir(tmp_path)
    if command == "pool":
        for seed in (1, 2):
            assert invoke("run", "hex", "--strategy", "random", "--games", "4", "-q",
                          "--seed", seed, "--out", f"r{seed}").exit_code == 0
        args = ["pool", "r1", "r2", "--out", "c"]
    elif command == "compare":
        args = ["compare", "hex", "--strategies", "random,heuristic", "--games", "4", "-q",
                "--out", "c"]
    elif command == "ladder":
        args = ["ladder", "hex", "--games", "4", "--budgets", "2", "-q", "--out", "c"]
    else:
        args = ["run", "hex", "--strategy", "random", "--games", "4", "-q", "--out", "c"]
    _full_disk(monkeypatch, 2)
    r = invoke(*args)
    assert r.exit_code == 2 and "No space left on device" in r.stderr, r.output
    assert not (tmp_path / "c").exists()
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    whole = _files(tmp_path / "c")
    before = {p: (tmp_path / "c" / p).read_bytes() for p in whole}
    _full_disk(monkeypatch, 2)
    r = invoke(*args, "--overwrite")
    assert r.exit_code == 2 and "No space left on device" in r.stderr, r.output
    assert _files(tmp_path / "c") == whole  # the earlier result, whole and untouched
    assert {p: (tmp_path / "c" / p).read_bytes() for p in whole} == before
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    r = invoke(*args, "--overwrite")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("args", [
    ["run", "sticky", "--games", "10", "-q", "--threads", "1000"],
    ["compare", "sticky", "--strategies", "honest,cheater", "--games", "10", "-q",
     "--threads", "1000"],
    ["bench", "--game", "sticky", "--seconds", "0.1", "--no-floor", "--threads", "999"],
], ids=["run", "compare", "bench"])
def test_threads_beyond_the_machine_are_clamped_and_said_so(args):
    # cthulhu-sim run ... --threads 1000: "note: --threads 1000 is more than the N this
    # machine runs at once; clamped: using N" on stderr, and the command runs
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    assert (f"note: --threads {args[-1]} is more than the {most} this machine runs at once; "
            f"clamped: using {most}") in r.stderr


def test_bench_floor_line_gives_the_generators_rate_after_a_search_entry(monkeypatch):
    # cthulhu-sim bench --game hex: the floor line after hex's search entries said "the
    # generator gives 0 M/s" (the search's iterations a second had taken the variable's place)
    from experiments.speed import rng_floor
    from simcore.game import Game
    from strategies import registry

    real_configure, real_names = Game.configure, registry.names

    def configure(self, overrides=None, strategy=None, rules_path=None):
        if self.name == "hex" and strategy == "mcts":  # a search that costs next to nothing
            overrides = {**(overrides or {}), "strategy.iterations": 2}
        return real_configure(self, overrides, strategy, rules_path)

    monkeypatch.setattr(Game, "configure", configure)
    monkeypatch.setattr(registry, "names", lambda game: ["random", "mcts"] if game == "hex"
                        else real_names(game))
    monkeypatch.setattr(rng_floor, "count_draws", lambda game: {"draws_per_playout": 100.0})
    monkeypatch.setattr(rng_floor, "generator_rate", lambda: 5e8)
    r = invoke("bench", "--game", "hex", "--seconds", "0.1")
    assert r.exit_code == 0, r.output
    assert "search" in r.stdout and "iterations/s" in r.stdout
    assert "the generator gives 500 M/s" in r.stdout, r.stdout
