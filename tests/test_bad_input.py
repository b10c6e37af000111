"""Bad input, across every command and every registered game: each row of the table below
must end with a non-zero exit, no traceback, an ``error:`` line on stderr that names the
culprit, nothing on stdout and nothing written.

The table is generated: the rows for commands that take a GAME come from each registered
game's own rules data, strategies and shortcuts (so a game added later is covered with no
edit here), and the rows for the other commands are listed by hand.  A new command gets its
rows by adding them to ``OTHER_ROWS`` (or, for one that takes a GAME, to ``GAME_COMMANDS``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from experiments.cli import SHORTCUTS
from experiments.running.limits import MAX_GAMES, MAX_SEED
from simcore.registry import game_names, get_game
from strategies import registry
from tests.cli_support import invoke

BIG = str(MAX_SEED + 1)  # 2**63


@dataclass
class Row:
    id: str
    args: list[str]
    culprit: list[str]  # every one must appear in the error message
    extra: dict = field(default_factory=dict)


# ---- rows for the commands that take a GAME, from each game's own data -------------------
# per command: the options a valid call needs, and whether it takes --games / --index
GAME_COMMANDS = {
    "run": {"base": ["--games", "10", "-q"], "games": True},
    "trace": {"base": [], "index": True},
    "compare": {"base": ["--games", "10", "-q"], "games": True, "strategies": True},
    "check": {"base": ["--games", "10", "-q"], "games": True, "checker": True},
    "sensitivity": {"base": ["--games", "10", "-q"], "games": True, "balance": True},
    "tune": {"base": ["--games", "10", "-q", "--target", "0.5", "--vary", "{key}"],
             "games": True, "balance": True},
}


def _keys_of_kind(rules, kind: str) -> list:
    """Keys of one kind, top-level ones first (a game whose switches all sit in a table,
    such as Wake Up, Cthulhu!'s `readings.*`, still gets its rows)."""
    entries = [e for e in rules.entries.values() if e.kind == kind]
    return sorted(entries, key=lambda e: "." in e.key)


def game_rows(game: str) -> list[Row]:
    g = get_game(game)
    rules = g.default_rules()
    strategies = registry.names(g.name)
    rows: list[Row] = []
    ints = [e for e in _keys_of_kind(rules, "int") if e.max is not None]
    bools = _keys_of_kind(rules, "bool")
    choices = [e for e in _keys_of_kind(rules, "str") if e.choices]
    other = next(n for n in game_names() if n != game) if len(game_names()) > 1 else None
    for cmd, how in GAME_COMMANDS.items():
        if how.get("checker") and not g.kind.has_checker:
            rows.append(Row(f"{cmd}-{game}-no-checker", [cmd, game, *how["base"]],
                            [f"{g.name} has no rules checker"]))
            continue
        base = [cmd, game, *(a.format(key=ints[0].key) for a in how["base"])]
        if how.get("strategies"):
            base += ["--strategies", ",".join(strategies[:2])]

        def add(name: str, args: list[str], culprit: list[str], base=base, cmd=cmd) -> None:
            rows.append(Row(f"{cmd}-{game}-{name}", base + args, culprit))

        add("unknown-key", ["--set", "no_such_key=1"], ["no_such_key"])
        add("no-equals", ["--set", "no_such_key"], ["key=value"])
        add("twice", ["--set", f"{ints[0].key}=1", "--set", f"{ints[0].key}=2"],
            [f"--set {ints[0].key} is given twice"])
        for e in ints[:2]:
            add(f"above-{e.key}", ["--set", f"{e.key}={int(e.max) + 1}"], [f"'{e.key}'",
                                                                         "above the maximum"])
            add(f"not-int-{e.key}", ["--set", f"{e.key}=1.5"], [f"'{e.key}'", "not an integer"])
            add(f"word-{e.key}", ["--set", f"{e.key}=lots"], [f"'{e.key}'"])
        for e in bools[:1]:
            add(f"bool-{e.key}", ["--set", f"{e.key}=maybe"], [f"'{e.key}'", "not a bool"])
            add(f"bool-number-{e.key}", ["--set", f"{e.key}=1"], [f"'{e.key}'"])
        for e in choices[:2]:
            add(f"choice-{e.key}", ["--set", f"{e.key}=nonsense"], [f"'{e.key}'", "not allowed"])
        if not how.get("strategies"):
            add("strategy-unknown", ["--strategy", "no_such_strategy"], ["no_such_strategy"])
            add("strategy-empty", ["--strategy", ""], ["--strategy", "empty"])
            add("strategy-param", ["--set", "strategy.no_such_param=1"],
                ["strategy.no_such_param"])
        else:
            add("strategies-one", ["--strategies", strategies[0]], ["nothing to compare"])
            add("strategies-repeated", ["--strategies", f"{strategies[0]},{strategies[0]}"],
                ["repeated strategy"])
            add("strategies-empty-item", ["--strategies", f"{strategies[0]},"], ["empty name"])
            add("strategies-unknown", ["--strategies", f"{strategies[0]},no_such_strategy"],
                ["no_such_strategy"])
        add("rules-missing", ["--rules", "missing-rules.toml"], ["missing-rules.toml"])
        add("rules-folder", ["--rules", "adir"], ["adir", "folder"])
        add("rules-latin1", ["--rules", "latin1.toml"], ["latin1.toml", "UTF-8"])
        add("rules-binary", ["--rules", "binary.bin"], ["binary.bin", "binary"])
        add("rules-not-toml", ["--rules", "not-toml.toml"], ["not-toml.toml", "TOML"])
        if other is not None:
            add("rules-other-game", ["--rules", str(get_game(other).rules_file)],
                ["meta.game"])
        for option in SHORTCUTS:
            if option not in g.shortcuts:
                add(f"shortcut-not-{option}", [f"--{option}", "1"],
                    [f"--{option} does not apply to {g.name}"])
        for option, sc in g.shortcuts.items():
            add(f"shortcut-bad-{option}", [f"--{option}", "nonsense!"], [f"'{sc.key}'"])
        add("seed-2**63", ["--seed", BIG], ["--seed", "2**63"])
        add("seed-negative", ["--seed", "-1"], ["--seed"])
        add("seed-word", ["--seed", "one"], ["--seed"])
        if how.get("games"):
            add("games-zero", ["--games", "0"], ["--games"])
            add("games-huge", ["--games", str(MAX_GAMES + 1)], ["--games", f"{MAX_GAMES:,}"])
            add("games-word", ["--games", "many"], ["--games"])
            add("threads-zero", ["--threads", "0"], ["--threads"])
        if how.get("index"):
            add("index-2**63", ["--index", BIG], ["--index", "2**63"])
            add("index-negative", ["--index", "-1"], ["--index"])
        add("unknown-option", ["--no-such-option"], ["--no-such-option"])
    rows += balance_rows(game)
    rows += strength_rows(game)
    rows.append(Row(f"games-{game}-extra", ["games", game, "extra"], ["extra"]))
    return rows


def strength_rows(game: str) -> list[Row]:
    """The strength commands' own mistakes (ladder, tournament), for every game."""
    g = get_game(game)
    rows: list[Row] = []
    lad = ["ladder", game, "--games", "4", "-q", "--budgets", "2"]
    rows += [
        Row(f"ladder-{game}-unknown-key", lad + ["--set", "no_such_key=1"], ["no_such_key"]),
        Row(f"ladder-{game}-budgets-word", lad + ["--budgets", "many"], ["--budgets"]),
        Row(f"ladder-{game}-budgets-zero", lad + ["--budgets", "0"], ["--budgets"]),
        Row(f"ladder-{game}-games-zero", lad + ["--games", "0"], ["--games"]),
        Row(f"ladder-{game}-seed-2**63", lad + ["--seed", BIG], ["--seed", "2**63"]),
    ]
    if g.kind.searchable:
        rows.append(Row(f"ladder-{game}-search-plain", lad + ["--search", "random"],
                        ["'random'", "not a search strategy"]))
    if not g.kind.cooperative:
        rows += [Row(f"ladder-{game}-seat-7", lad + ["--seat", "7"], ["--seat 7"]),
                 Row(f"ladder-{game}-field-unknown", lad + ["--field", "no_such_strategy"],
                     ["no_such_strategy"])]
    names = [n for n in registry.names(g.name) if n not in ("table", "by_seat", "pair")]
    tour = ["tournament", game, "--games", "4", "-q"]
    if g.kind.cooperative:
        rows.append(Row(f"tournament-{game}-cooperative",
                        tour + ["--strategies", ",".join(names[:2])], ["cooperative"]))
        return rows
    rows += [
        Row(f"tournament-{game}-one", tour + ["--strategies", names[0]], ["at least two"]),
        Row(f"tournament-{game}-twice", tour + ["--strategies", f"{names[0]},{names[0]}"],
            ["twice"]),
        Row(f"tournament-{game}-unknown", tour + ["--strategies", f"{names[0]},nobody"],
            ["'nobody'"]),
        Row(f"tournament-{game}-empty-item", tour + ["--strategies", f"{names[0]},"],
            ["empty name"]),
        Row(f"tournament-{game}-two-clusters",
            tour + ["--strategies", ",".join(names[:2]), "--scheduler", "tcp://x:1",
                    "--dask-local", "2"], ["--scheduler or --dask-local"]),
        Row(f"tournament-{game}-unknown-key",
            tour + ["--strategies", ",".join(names[:2]), "--set", "no_such_key=1"],
            ["no_such_key"]),
    ]
    return rows


def balance_rows(game: str) -> list[Row]:
    """The balance tools' own mistakes (sensitivity, tune), from the game's rules data: an
    unknown key, a key that is not a number, a target outside [0, 1], bounds that leave out
    the value in effect, and the rest of their options."""
    g = get_game(game)
    rules = g.default_rules()
    key = next(e for e in _keys_of_kind(rules, "int")
               if e.max is not None and e.value + 1 < e.max)
    word = next(e for e in _keys_of_kind(rules, "str") + _keys_of_kind(rules, "bool"))
    wrong_metric, why = (("seat0", "cooperative") if g.kind.cooperative
                         else ("win", "competitive"))
    outside = f"{key.key}={key.value + 1}:{int(key.max)}"
    s = ["sensitivity", game, "--games", "10", "-q"]
    t = ["tune", game, "--games", "10", "-q"]
    tv = [*t, "--target", "0.5", "--vary", key.key]
    rows = [
        Row(f"sensitivity-{game}-keys-unknown", [*s, "--keys", "no_such_key"],
            ["no_such_key", "unknown key"]),
        Row(f"sensitivity-{game}-keys-not-numeric", [*s, "--keys", word.key],
            [word.key, "not a number"]),
        Row(f"sensitivity-{game}-keys-glob-none", [*s, "--keys", "zz*"],
            ["zz*", "matches no number"]),
        Row(f"sensitivity-{game}-keys-item-beyond", [*s, "--keys", f"{key.key}[0]"],
            [key.key, "not a list"]),
        Row(f"sensitivity-{game}-method", [*s, "--method", "magic"], ["--method magic"]),
        Row(f"sensitivity-{game}-step-zero", [*s, "--step", "0"], ["--step 0"]),
        Row(f"sensitivity-{game}-step-nan", [*s, "--step", "nan"], ["--step"]),
        Row(f"sensitivity-{game}-bounds-oat", [*s, "--bounds", outside], ["--bounds applies"]),
        Row(f"sensitivity-{game}-bounds-exclude-default",
            [*s, "--method", "morris", "--keys", key.key, "--bounds", outside],
            [key.key, "leaves out", str(key.value)]),
        Row(f"sensitivity-{game}-bounds-malformed",
            [*s, "--method", "morris", "--keys", key.key, "--bounds", key.key], ["KEY=LO:HI"]),
        Row(f"sensitivity-{game}-metric-unknown", [*s, "--metric", "luck"], ["--metric luck"]),
        Row(f"sensitivity-{game}-metric-kind", [*s, "--metric", wrong_metric], [why]),
        Row(f"sensitivity-{game}-metric-outcome", [*s, "--metric", "outcome:nope"],
            ["outcome:nope", g.outcomes[0]]),
        Row(f"sensitivity-{game}-sobol-samples", [*s, "--method", "sobol", "--samples", "3",
                                                  "--keys", key.key],
            ["--samples 3", "power of two"]),
        Row(f"sensitivity-{game}-morris-levels", [*s, "--method", "morris", "--levels", "3",
                                                  "--keys", key.key], ["--levels 3"]),
        Row(f"sensitivity-{game}-morris-no-keys", [*s, "--method", "morris"],
            ["--method morris", "--keys"]),
        Row(f"sensitivity-{game}-resume-no-out", [*s, "--resume"], ["--resume", "--out"]),
        Row(f"sensitivity-{game}-resume-and-overwrite",
            [*s, "--out", "o3", "--resume", "--overwrite"], ["--resume or --overwrite"]),
        Row(f"sensitivity-{game}-top-negative", [*s, "--top", "-1"], ["--top"]),
        Row(f"sensitivity-{game}-out-foreign", [*s, "--out", "mine"], ["mine", "not written by"]),
        Row(f"sensitivity-{game}-out-file", [*s, "--out", "a-file.txt"], ["a-file.txt",
                                                                          "is a file"]),
        Row(f"sensitivity-{game}-dask-both", [*s, "--dask-local", "2", "--scheduler",
                                              "tcp://x:1"], ["--scheduler"]),
        Row(f"tune-{game}-vary-unknown", [*t, "--target", "0.5", "--vary", "no_such_key"],
            ["no_such_key", "unknown key"]),
        Row(f"tune-{game}-vary-not-numeric", [*t, "--target", "0.5", "--vary", word.key],
            [word.key, "not a number"]),
        Row(f"tune-{game}-vary-missing", [*t, "--target", "0.5"], ["--vary"]),
        Row(f"tune-{game}-target-missing", [*t, "--vary", key.key], ["--target"]),
        Row(f"tune-{game}-target-above-one", [*t, "--target", "1.5", "--vary", key.key],
            ["--target 1.5", "outside [0, 1]"]),
        Row(f"tune-{game}-target-below-zero", [*t, "--target", "-0.2", "--vary", key.key],
            ["outside [0, 1]"]),
        Row(f"tune-{game}-target-percent", [*t, "--target", "120%", "--vary", key.key],
            ["outside [0, 1]"]),
        Row(f"tune-{game}-target-word", [*t, "--target", "lots", "--vary", key.key],
            ["--target lots", "not a number"]),
        Row(f"tune-{game}-target-levels", [*t, "--target", "nonsense=0.5,other=0.4",
                                           "--vary", key.key], ["not the values of one"]),
        Row(f"tune-{game}-target-metric-kind", [*t, "--target", f"{wrong_metric}=0.5",
                                                "--vary", key.key], [why]),
        Row(f"tune-{game}-bounds-exclude-default", [*tv, "--bounds", outside],
            [key.key, "leaves out", str(key.value)]),
        Row(f"tune-{game}-bounds-above-max",
            [*tv, "--bounds", f"{key.key}={int(key.min)}:{int(key.max) + 1}"],
            [key.key, "above the key's maximum"]),
        Row(f"tune-{game}-bounds-not-varied", [*tv, "--bounds", "no_such_key=1:2"],
            ["no_such_key", "not one of the keys varied"]),
        Row(f"tune-{game}-bounds-not-integer", [*tv, "--bounds", f"{key.key}=0.5:{key.max}"],
            [key.key, "not an integer"]),
        Row(f"tune-{game}-tol-integer", [*tv, "--tol", "0.5"], ["--tol applies to float"]),
        Row(f"tune-{game}-max-games-below", [*tv, "--games", "100", "--max-games", "50"],
            ["--max-games"]),
        Row(f"tune-{game}-penalty-negative", [*tv, "--penalty", "-1"], ["--penalty"]),
        Row(f"tune-{game}-budget-zero", [*tv, "--budget", "0"], ["--budget"]),
        Row(f"tune-{game}-confirm-zero", [*tv, "--confirm", "0"], ["--confirm"]),
        Row(f"tune-{game}-vary-twice", [*tv, "--vary", key.key], ["given twice"]),
        Row(f"tune-{game}-out-foreign", [*tv, "--out", "mine"], ["mine", "not written by"]),
        Row(f"tune-{game}-resume-no-out", [*tv, "--resume"], ["--resume", "--out"]),
    ]
    if g.kind.cooperative:
        rows.append(Row(f"tune-{game}-fair-cooperative", [*t, "--target", "fair", "--vary",
                                                          key.key], ["fair", "cooperative"]))
    return rows


SWEEP_OK = 'game = "{game}"\n[axes]\nplayers = [{players}]\n[games]\nper_cell = 5\n'

FILES = {
    "latin1.toml": "title = \"caf\xe9\"\n".encode("latin-1"),
    "binary.bin": b"\x00\x01\x02\xff\xfe" * 20,
    "not-toml.toml": b"this is = = not toml\n",
    "a-file.txt": b"just a file\n",
    "spec-no-games-bad-axis.toml": b'game = "sticky"\n[axes]\nplayers = [2, 99]\n',
    "spec-seed.toml": f'game = "sticky"\nseed = {MAX_SEED + 1}\n[games]\nper_cell = 5\n'
                      .encode(),
    "spec-unknown-game.toml": b'game = "chess"\n[games]\nper_cell = 5\n',
    "spec-unknown-key.toml": b'game = "sticky"\ncolour = "red"\n[games]\nper_cell = 5\n',
    "spec-per-cell.toml": f'game = "sticky"\n[games]\nper_cell = {MAX_GAMES + 1}\n'.encode(),
    "spec-empty-strategy.toml": b'game = "sticky"\nstrategy = ""\n[games]\nper_cell = 5\n',
    "spec-ok.toml": b'game = "sticky"\n[axes]\nplayers = [2, 3]\n[games]\nper_cell = 5\n',
    "spec-bad-rules.toml": b'game = "sticky"\nrules = "binary.bin"\n[games]\nper_cell = 5\n',
    "spec-latin1.toml": 'title = "caf\xe9"\ngame = "sticky"\n[games]\nper_cell = 5\n'
                        .encode("latin-1"),
    "mine/report.md": b"# my own notes\n",
    "mine/spec.toml": b"# mine\n",
    "otherdir/notes.txt": b"notes\n",
    "adir/.keep": b"",
}

OTHER_ROWS = [
    # the commands of issues 26, 27, 28 and 31
    Row("uncertainty-one-sample", ["uncertainty", "hex", "--samples", "1"],
        ["--samples", "at least two"]),
    Row("train-no-budget", ["train", "hex", "--budget", "0"], ["--budget", "below 1"]),
    Row("skill-unknown-level", ["skill", "hex", "--levels", "nope"],
        ["'nope'", "not a strategy of hex", "player file"]),
    Row("skill-level-bad-parameter", ["skill", "hex", "--levels", "heuristic{bogus=1}"],
        ["--levels", "no parameter 'bogus'"]),
    Row("skill-resume-no-out", ["skill", "hex", "--resume"], ["--resume", "--out DIR"]),
    Row("skill-resume-overwrite", ["skill", "hex", "--resume", "--overwrite", "--out", "o1"],
        ["--resume and --overwrite"]),
    Row("skill-order-unknown-key", ["skill", "hex", "--order", "nope=a,b", "--out", "o1"],
        ["--order nope=a,b", "'nope' is not a key of hex's rules data"]),
    Row("skill-order-bad-value", ["skill", "hex", "--order", "first_side=good,ugly"],
        ["--order first_side=good,ugly", "'ugly' is not allowed", "good, bad"]),
    Row("skill-order-one-value", ["skill", "hex", "--order", "first_side=good"],
        ["--order first_side=good", "at least two values"]),
    Row("skill-order-repeated-value", ["skill", "hex", "--order", "first_side=good,Good"],
        ["--order first_side=good,Good", "a value is named twice"]),
    Row("skill-order-also-set", ["skill", "hex", "--order", "first_side=good,bad", "--set",
                                 "first_side=bad", "--out", "o1"],
        ["--order first_side=good,bad", "also given by --set first_side=bad"]),
    Row("skill-order-also-shortcut", ["skill", "hex", "--order", "first=good,bad", "--first",
                                      "bad"], ["--order first=good,bad", "first_side"]),
    Row("skill-order-no-values", ["skill", "hex", "--order", "first_side"],
        ["--order first_side", "AXIS=V1,V2"]),
    Row("skill-scheduler-and-dask-local", ["skill", "hex", "--scheduler", "tcp://127.0.0.1:9",
                                           "--dask-local", "2"],
        ["--scheduler or --dask-local"]),
    Row("train-resume-no-out", ["train", "hex", "--resume"], ["--resume", "--out DIR"]),
    Row("train-resume-player-file", ["train", "hex", "--resume", "--out", "p.toml"],
        ["--resume", "applies to a folder"]),
    Row("bench-all-without-compile", ["bench", "--all"], ["--all", "--compile"]),
    # sweeps: the spec
    Row("sweep-spec-folder", ["sweep", "adir", "--out", "o1"], ["adir", "folder"]),
    Row("sweep-spec-missing", ["sweep", "nope.toml", "--out", "o1"], ["nope.toml", "not found"]),
    Row("sweep-spec-latin1", ["sweep", "spec-latin1.toml", "--out", "o1"],
        ["spec-latin1.toml", "UTF-8"]),
    Row("sweep-spec-binary", ["sweep", "binary.bin", "--out", "o1"], ["binary.bin", "binary"]),
    Row("sweep-spec-not-toml", ["sweep", "not-toml.toml", "--out", "o1"], ["not valid TOML"]),
    Row("sweep-spec-every-problem", ["sweep", "spec-no-games-bad-axis.toml", "--out", "o1"],
        ["2 problems", "key 'games': missing", "key 'axes.players' value 99"]),
    Row("sweep-spec-seed-2**63", ["sweep", "spec-seed.toml", "--out", "o1"],
        ["key 'seed'", str(MAX_SEED + 1)]),
    Row("sweep-spec-unknown-game", ["sweep", "spec-unknown-game.toml", "--out", "o1"],
        ["'chess'"]),
    Row("sweep-spec-unknown-key", ["sweep", "spec-unknown-key.toml", "--out", "o1"],
        ["key 'colour'"]),
    Row("sweep-spec-per-cell-huge", ["sweep", "spec-per-cell.toml", "--out", "o1"],
        ["games.per_cell"]),
    Row("sweep-spec-empty-strategy", ["sweep", "spec-empty-strategy.toml", "--out", "o1"],
        ["key 'strategy'"]),
    Row("sweep-spec-rules-binary", ["sweep", "spec-bad-rules.toml", "--out", "o1"],
        ["key 'rules'", "binary"]),
    # sweeps: the options and the output folder
    Row("sweep-out-file", ["sweep", "spec-ok.toml", "--out", "a-file.txt"], ["a-file.txt",
                                                                            "is a file"]),
    Row("sweep-out-foreign", ["sweep", "spec-ok.toml", "--out", "mine"], ["mine",
                                                                         "not written by"]),
    Row("sweep-out-foreign-overwrite", ["sweep", "spec-ok.toml", "--out", "mine",
                                        "--overwrite"], ["report.md", "in the way"]),
    Row("sweep-out-foreign-resume", ["sweep", "spec-ok.toml", "--out", "otherdir",
                                     "--resume"], ["otherdir", "not written by"]),
    Row("sweep-resume-and-overwrite", ["sweep", "spec-ok.toml", "--out", "o1", "--resume",
                                       "--overwrite"], ["--resume or --overwrite"]),
    Row("sweep-chunk-zero", ["sweep", "spec-ok.toml", "--out", "o1", "--chunk", "0"],
        ["--chunk"]),
    Row("sweep-dask-local-huge", ["sweep", "spec-ok.toml", "--out", "o1", "--dask-local",
                                  "100000"], ["--dask-local"]),
    Row("sweep-scheduler-and-local", ["sweep", "spec-ok.toml", "--out", "o1", "--dask-local",
                                      "2", "--scheduler", "tcp://x:1"], ["--scheduler"]),
    Row("sweep-threads-zero", ["sweep", "spec-ok.toml", "--out", "o1", "--threads", "0"],
        ["--threads"]),
    Row("sweep-no-spec", ["sweep"], ["SPEC"]),
    Row("main-out-foreign", ["main", "-q", "--out", "mine"], ["mine", "not written by"]),
    # reports, listings, diffs, pools
    Row("report-file", ["report", "a-file.txt"], ["a-file.txt", "is a file"]),
    Row("report-missing", ["report", "nowhere"], ["nowhere"]),
    Row("report-foreign", ["report", "mine"], ["mine", "manifest.json"]),
    Row("report-csv-file", ["report", "a-file.txt", "--csv"], ["a-file.txt"]),
    Row("report-empty-folder", ["report", "adir"], ["adir"]),
    Row("list-missing", ["list", "nowhere"], ["nowhere", "no such folder"]),
    Row("list-file", ["list", "a-file.txt"], ["a-file.txt", "is a file"]),
    Row("diff-missing", ["diff", "nowhere", "mine"], ["nowhere"]),
    Row("diff-file", ["diff", "a-file.txt", "mine"], ["a-file.txt"]),
    Row("diff-foreign", ["diff", "mine", "otherdir"], ["mine"]),
    Row("diff-one", ["diff", "mine"], ["B"]),
    Row("order-missing", ["order", "nowhere", "--order", "players=2,3"], ["nowhere"]),
    Row("order-file", ["order", "a-file.txt", "--order", "players=2,3"], ["a-file.txt"]),
    Row("order-foreign", ["order", "mine", "--order", "players=2,3"], ["mine"]),
    Row("order-no-claim", ["order", "mine"], ["--order"]),
    Row("pool-one", ["pool", "mine", "--out", "o2"], ["mine"]),
    Row("pool-missing", ["pool", "nowhere", "nowhere2", "--out", "o2"], ["nowhere"]),
    Row("pool-foreign", ["pool", "mine", "otherdir", "--out", "o2"], ["mine", "not a run"]),
    Row("pool-file", ["pool", "a-file.txt", "mine", "--out", "o2"], ["a-file.txt"]),
    Row("pool-no-out", ["pool", "mine", "otherdir"], ["--out"]),
    # the rest
    Row("bench-seconds-inf", ["bench", "--seconds", "inf"], ["--seconds", "3600"]),
    Row("bench-seconds-nan", ["bench", "--seconds", "nan"], ["--seconds"]),
    Row("bench-seconds-zero", ["bench", "--seconds", "0"], ["--seconds", "0.1"]),
    Row("bench-seconds-huge", ["bench", "--seconds", "1e9"], ["--seconds", "3600"]),
    Row("bench-game-unknown", ["bench", "--game", "chess"], ["'chess'"]),
    Row("bench-threads-zero", ["bench", "--threads", "0"], ["--threads"]),
    Row("serve-port-huge", ["serve", "--port", "70000"], ["--port", "65,535"]),
    Row("serve-port-word", ["serve", "--port", "http"], ["--port"]),
    Row("games-unknown", ["games", "chess"], ["'chess'"]),
    Row("run-unknown-game", ["run", "chess", "--games", "10"], ["'chess'"]),
    Row("run-no-game", ["run"], ["GAME"]),
    Row("unknown-command", ["simulate"], ["simulate"]),
    Row("unknown-root-option", ["--colour"], ["--colour"]),
]


def all_rows() -> list[Row]:
    rows = [r for game in game_names() for r in game_rows(game)] + OTHER_ROWS
    ids = [r.id for r in rows]
    assert len(ids) == len(set(ids)), "row ids must be unique"
    return rows


ROWS = all_rows()


def test_the_table_is_large_and_covers_every_command_and_game():
    assert len(ROWS) >= 100
    from experiments.cli import app

    commands = {c.name or c.callback.__name__ for c in app.registered_commands}
    covered = {r.args[0] for r in ROWS}
    assert commands <= covered, f"commands with no bad-input row: {commands - covered}"
    for game in game_names():
        assert any(r.args[1:2] == [game] for r in ROWS), game


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``root`` with its size and modification time."""
    out = {}
    for here, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(here) / name
            st = p.stat()
            out[str(p.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input")
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
