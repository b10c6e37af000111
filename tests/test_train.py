"""``cthulhu-sim train`` and player files, on hex with tiny budgets."""

from __future__ import annotations

import json

import numpy as np
import pytest

from experiments.analysis.train import CONFIRM_START, plan, prepare, train
from experiments.running.runner import run_config
from experiments.stats import paired_difference, paired_rate_difference
from simcore.registry import get_game
from simcore.rules_data import RulesError
from strategies import playerfile, registry
from tests.cli_support import invoke

BUDGET, TRIALS, SEED = 160, 4, 5


@pytest.fixture(scope="module")
def trained():
    return train("hex", budget=BUDGET, trials=TRIALS, seed=SEED)


def test_seeded_optuna_is_reproducible(trained):
    again = train("hex", budget=BUDGET, trials=TRIALS, seed=SEED)
    assert again.best == trained.best
    assert [t.value for t in again.trials] == [t.value for t in trained.trials]
    assert again.gain == trained.gain


def test_each_round_keeps_the_start_or_something_better(trained):
    st = prepare("hex")
    for r in range(trained.rounds):
        log = [t for t in trained.trials if t.round == r]
        assert log[0].params == {k: float(v) for k, v in st.start[log[0].seat].items()}
        top = max(log, key=lambda t: (t.value, -t.number))
        assert trained.best[log[0].seat] == top.params
        assert top.value >= log[0].value


def test_the_confirmed_gain_is_the_paired_difference_on_fresh_playouts(trained):
    """Recomputed here from plays of its own: the reported gain and interval are those of
    the trained seats against the starting ones on playouts the trials never played."""
    st = prepare("hex")
    m = trained.confirm_games
    assert trained.games_per_trial < CONFIRM_START  # the trials play indices 0 .. n-1
    best = run_config(st.config(trained.best), m, SEED, start=CONFIRM_START).frame
    a, b = np.zeros(m), np.zeros(m)
    for s in range(st.seats):
        base = run_config(st.config({**trained.best, s: st.start[s]}), m, SEED,
                          start=CONFIRM_START).frame
        ht, hb = best["winner"].to_numpy() == s, base["winner"].to_numpy() == s
        assert trained.seat_gains[s] == paired_rate_difference(ht, hb)
        a += ht
        b += hb
    want = paired_difference(a / 2, b / 2)
    assert trained.gain == want
    assert want.lo <= want.mean <= want.hi


def test_player_file_round_trip_plays_the_trained_seats(trained, tmp_path):
    path = tmp_path / "good.toml"
    playerfile.write(path, trained.player_file())
    pf = playerfile.load(path, "hex")
    assert pf.strategy == "heuristic" and pf.seats[0] == trained.best[0]
    assert pf.gain["ci95"] == [trained.gain.lo, trained.gain.hi]
    g = get_game("hex")
    via_file = g.configure(None, str(path))
    assert via_file.strategy.name == str(path)
    assert via_file.changed() == {}  # the file's values are its defaults
    direct = prepare("hex").config(trained.best)
    for k in range(2):
        assert via_file.strategy.seats[k].param_dict() == direct.strategy.seats[k].param_dict()
    fa = run_config(via_file, 30, 3).frame
    fb = run_config(direct, 30, 3).frame
    assert (fa["winner"].to_numpy() == fb["winner"].to_numpy()).all()
    # a file of a cooperative-style single parameter set, with an override on top
    single = tmp_path / "one.toml"
    playerfile.write(single, {"game": "hex", "strategy": "heuristic",
                              "parameters": {"caution": 1.5}})
    s = registry.get("hex", str(single), {"aggression": 0.2})
    assert s.param_dict()["caution"] == 1.5 and s.param_dict()["aggression"] == 0.2
    assert s.spec.params["caution"].default == 1.5


@pytest.mark.parametrize("text, words", [
    ("x = 1\n", "is not a player file"),
    ("format = [\n", "is not valid TOML"),
    ('format = "cthulhu-sim player 1"\ngame = "wakeup"\nstrategy = "heuristic"\n',
     "is a player of wakeup, not of hex"),
    ('format = "cthulhu-sim player 1"\ngame = "hex"\nstrategy = "nope"\n',
     "strategy 'nope' is not known"),
    ('format = "cthulhu-sim player 1"\ngame = "hex"\nstrategy = "heuristic"\n'
     '[parameters]\ncaution = 99.0\n', "out of range"),
    ('format = "cthulhu-sim player 1"\ngame = "hex"\nstrategy = "heuristic"\nextra = 1\n',
     "unknown key 'extra'"),
    ('format = "cthulhu-sim player 1"\ngame = "hex"\n', "needs strategy"),
])
def test_bad_player_files_are_one_line_naming_the_file(tmp_path, text, words):
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(RulesError) as info:
        registry.get("hex", str(path))
    msg = str(info.value)
    assert msg.startswith(f"player file {path}:") and words in msg and "\n" not in msg


def test_missing_player_file(tmp_path):
    with pytest.raises(RulesError, match="no such file"):
        registry.get("hex", str(tmp_path / "none.toml"))


def test_a_file_the_tool_did_not_write_is_never_replaced(tmp_path):
    path = tmp_path / "notes.toml"
    path.write_text("mine = true\n")
    with pytest.raises(RulesError, match="not written by this tool"):
        playerfile.write(path, {"game": "hex", "strategy": "heuristic"})
    assert path.read_text() == "mine = true\n"
    res = invoke("train", "hex", "--budget", 100, "--trials", 2, "--out", path)
    assert res.exit_code == 2 and "not written by this tool" in res.output
    assert path.read_text() == "mine = true\n"


def test_budget_plan():
    per_round, n, m = plan(1000, 10, 2, 3)
    assert per_round == 5 and m == 83 and n * 10 + 3 * m <= 1000
    with pytest.raises(RulesError, match="too few games"):
        plan(10, 10, 2, 3)
    with pytest.raises(RulesError, match="at least 2 a round"):
        plan(1000, 3, 2, 3)


def test_train_cli_json_and_player_file_in_run_and_compare(tmp_path):
    path = tmp_path / "p.toml"
    res = invoke("train", "hex", "--budget", 120, "--trials", 4, "--seed", 2, "--json",
                 "--out", path)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out["best"]) == {"0", "1"} and set(out["gain"]) >= {"value", "ci95"}
    assert path.exists()
    again = invoke("train", "hex", "--budget", 120, "--trials", 4, "--seed", 2, "--json",
                   "--out", path)  # its own file: replaced
    assert again.exit_code == 0 and json.loads(again.stdout)["best"] == out["best"]
    run = invoke("run", "hex", "--strategy", path, "--games", 20, "--json", "-q")
    assert run.exit_code == 0 and json.loads(run.stdout)["strategy"] == str(path)
    cmp = invoke("compare", "hex", "--strategies", f"heuristic,{path}", "--games", 20, "-q")
    assert cmp.exit_code == 0 and str(path) in cmp.stdout


@pytest.mark.parametrize("args, words", [
    (["--strategy", "nope"], "strategy 'nope' is not known"),
    (["--strategy", "random"], "no numeric parameters to train"),
    (["--strategy", "table"], "seats other strategies"),
    (["--budget", 10], "too few games"),
    (["--sampler", "grid"], "--sampler 'grid'"),
    (["--set", "nope=1"], "nope"),
])
def test_bad_train_input_is_one_line(args, words):
    res = invoke("train", "hex", "--trials", 4, *args)
    assert res.exit_code == 2
    lines = [x for x in res.output.splitlines() if x.startswith("error:")]
    assert len(lines) == 1 and words in lines[0], res.output


def test_varied_play_is_not_trained():
    """A heuristic's noise makes games differ (issue 26); trained to 0 it would play one
    game again, so it keeps its value."""
    from experiments.analysis.train import trainable

    assert not {"setup_noise", "tie_noise"} & set(trainable("hex", "heuristic"))
    assert "caution" in trainable("hex", "heuristic")
    assert "noise" not in trainable("wakeup", "heuristic")


def _same_training(a, b):
    def strip(s):
        s = json.loads(json.dumps(s))
        s.pop("seconds")
        return s
    return strip(a.summary()) == strip(b.summary())


def test_a_stopped_training_resumes_to_the_same_answer(trained, tmp_path):
    from experiments.storage.outdir import OutDirError

    out = tmp_path / "t"
    kw = dict(budget=BUDGET, trials=TRIALS, seed=SEED, out=out)
    played = []

    def boom(pid, start, n):
        played.append((pid, start))
        if len(played) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train("hex", on_chunk=boom, **kw)
    assert not (out / "player.toml").exists() and (out / "plays").is_dir()
    with pytest.raises(OutDirError, match="--resume"):  # never started afresh by accident
        train("hex", **kw)
    replayed = []
    got = train("hex", resume=True, on_chunk=lambda pid, s, n: replayed.append((pid, s)),
                **kw)
    assert replayed and not set(replayed) & set(played)  # the finished trials were kept
    assert got.best == trained.best and got.gain == trained.gain
    assert [t.value for t in got.trials] == [t.value for t in trained.trials]
    assert _same_training(got, trained)
    pf = playerfile.load(out / "player.toml", "hex")
    assert pf.seats[0] == trained.best[0] and pf.seats[1] == trained.best[1]
    saved = json.loads((out / "train.json").read_text())
    assert saved["best"] == json.loads(json.dumps(trained.summary()))["best"]
    assert json.loads((out / "manifest.json").read_text())["complete"]


def test_train_cli_folder_resume_and_refusals_in_one_line(tmp_path):
    out = tmp_path / "t"
    base = ["train", "hex", "--budget", 120, "--trials", 4, "--seed", 2]
    first = invoke(*base, "--out", out, "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["player_file"] == str(out / "player.toml")
    again = invoke(*base, "--out", out, "--resume", "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["best"] == data["best"]
    run = invoke("run", "hex", "--strategy", out / "player.toml", "--games", 10, "-q")
    assert run.exit_code == 0, run.output
    skill_dir = tmp_path / "s"
    made = invoke("skill", "hex", "--levels", "random", "--games", 4, "--out", skill_dir)
    assert made.exit_code == 0, made.output
    for args, words in [
        ([*base, "--resume"], "give --out DIR"),
        ([*base, "--resume", "--overwrite", "--out", out], "give one"),
        ([*base, "--resume", "--out", tmp_path / "p.toml"], "applies to a folder"),
        ([*base, "--out", out], "already holds a training"),
        (["train", "hex", "--budget", 130, "--trials", 4, "--seed", 2, "--out", out,
          "--resume"], "another request"),
        (["train", "hex", "--budget", 120, "--trials", 4, "--seed", 3, "--out", out,
          "--resume"], "another request"),
        ([*base, "--set", "max_turns=100", "--out", out, "--resume"], "another request"),
        ([*base, "--out", skill_dir, "--resume"], "not a training"),
    ]:
        res = invoke(*args)
        lines = [x for x in res.output.splitlines() if x.startswith("error:")]
        assert res.exit_code == 2 and len(lines) == 1 and words in lines[0], (args, res.output)
