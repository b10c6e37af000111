"""The balance tools on a real game, as a user runs them: a real kill (SIGKILL) of the CLI
mid-analysis then ``--resume`` (every chunk saved before the kill kept, the answer the same as
an uninterrupted run's), and a local Dask cluster giving bit-identical plays."""

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from experiments.analysis.sensitivity import run_sensitivity
from experiments.analysis.tune import run_tune
from simcore.registry import game_names

STICKY = {"seats": ["expert", "average", "average", "average"]}
KEYS = ["turn.*", "profiles.expert.aim_sd_cm"]


def test_sensitivity_killed_and_resumed_keeps_every_finished_chunk(tmp_path):
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "experiments.cli", "sensitivity", "sticky", "--set",
           "seats=expert,average,average,average", "--keys", ",".join(KEYS), "--games",
           "6000", "--chunk", "250", "--seed", "4", "--out", str(out), "-q"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 240
    plays = out / "plays"
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if plays.is_dir() and len(list(plays.glob("p*.parquet"))) >= 12:
                break
            time.sleep(0.01)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode()[-2000:]
    before = {p.name: p.stat().st_mtime_ns for p in plays.glob("p*.parquet")}
    assert len(before) >= 12
    assert not (out / "sensitivity.json").exists()
    r = run_sensitivity("sticky", STICKY, keys=KEYS, games=6000, chunk=250, seed=4, out=out,
                        resume=True)
    assert len(before) < r.n_points * 24  # (24 chunks of 250 a configuration)
    assert r.games_reused == 250 * len(before)
    for name, mtime in before.items():
        assert (plays / name).stat().st_mtime_ns == mtime
    assert not list(out.rglob(".tmp-*"))
    ref = run_sensitivity("sticky", STICKY, keys=KEYS, games=6000, seed=4)
    assert r.summary()["keys"] == ref.summary()["keys"]
    assert json.loads((out / "manifest.json").read_text())["complete"]


def test_dask_local_cluster_plays_the_same_games(tmp_path):
    pytest.importorskip("distributed")
    keys = ["profiles.expert.aim_sd_cm", "turn.roll_s"]
    local = run_sensitivity("sticky", STICKY, keys=keys, games=900, chunk=300, seed=6,
                            out=tmp_path / "local")
    dist = run_sensitivity("sticky", STICKY, keys=keys, games=900, chunk=200, seed=6,
                           out=tmp_path / "dask", dask_local=2)
    assert dist.backend == "dask local x2"
    assert local.summary()["keys"] == dist.summary()["keys"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "local" / "points.parquet"),
                                  pd.read_parquet(tmp_path / "dask" / "points.parquet"))
    # a tuning over Dask finds the same value along the same path
    kw = dict(target="0.45", vary=["profiles.expert.aim_sd_cm"], games=1000, max_games=4000,
              confirm_games=2000, seed=6)
    a = run_tune("sticky", STICKY, **kw).summary()
    b = run_tune("sticky", STICKY, dask_local=2, **kw).summary()
    assert a["levels"] == b["levels"] and a["best"] == b["best"]


@pytest.mark.parametrize("game", game_names())
def test_every_registered_game_through_the_common_interface(game):
    """Both tools on every game the registry lists, with nothing but its rules data: its
    first integer key a step either way, and tuned to a target (fair for a competitive
    game)."""
    from simcore.registry import get_game

    g = get_game(game)  # (a game added later is tested here with no edit)
    rules = g.default_rules()
    key = next(k for k, e in rules.entries.items()
               if e.kind == "int" and e.min is not None and e.max is not None
               and e.min < e.value < e.max)
    r = run_sensitivity(game, keys=[key], games=200, seed=3)
    assert [e.knob.name for e in r.effects] == [key] and r.base.n == 200
    target = "0.5" if g.kind.cooperative else "fair"
    t = run_tune(game, target=target, vary=[key], games=200, max_games=400,
                 confirm_games=200, seed=3)
    lv = t.levels[0]
    assert rules.entries[key].min <= lv.best[key] <= rules.entries[key].max
    assert lv.confirmed is not None and lv.confirmed.n == 200
