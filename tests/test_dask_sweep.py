"""A sweep on a local Dask cluster of two worker processes gives bit-identical results to the
single-machine run, chunks arriving in any order."""

import pandas as pd
import pytest

from experiments import load_sweep, run_sweep

pytest.importorskip("distributed")

SPEC = {"game": "sticky", "seed": 9, "strategy": "honest",
        "axes": {"players": [2, 3, 5], "curses": [False, True]},
        "games": {"precision": 1.5, "round": 3000, "max_per_cell": 9000},
        "report": {"baseline": {"curses": False}}}


def test_dask_local_cluster_matches_local_run(tmp_path):
    local = run_sweep(SPEC, tmp_path / "local", chunk=1000)
    dist = run_sweep(SPEC, tmp_path / "dask", chunk=700, dask_local=2)
    assert dist.run_info["backend"] == "dask local x2" and dist.run_info["workers"] == 2
    pd.testing.assert_frame_equal(local.results, dist.results, check_exact=True)
    for sub in ("cells", "playouts"):
        a = {p.name: p.read_bytes() for p in (tmp_path / "local" / sub).iterdir()}
        b = {p.name: p.read_bytes() for p in (tmp_path / "dask" / sub).iterdir()}
        assert a == b
    assert (tmp_path / "local/results.parquet").read_bytes() == \
        (tmp_path / "dask/results.parquet").read_bytes()
    assert (tmp_path / "dask/report.html").exists()


def test_cluster_that_fails_to_start_leaves_no_sweep_behind(tmp_path, monkeypatch):
    """A LocalCluster whose workers cannot start (as in a script without an
    ``if __name__ == "__main__":`` guard) leaves the folder free for the next try."""
    import distributed

    from experiments.running.distributed import ClusterStartError
    from tests.cli_support import invoke

    def no_cluster(*args, **kwargs):
        raise RuntimeError("Nanny failed to start worker process")

    monkeypatch.setattr(distributed, "LocalCluster", no_cluster)
    small = {**SPEC, "games": {"per_cell": 200}}
    out = tmp_path / "out"
    with pytest.raises(ClusterStartError, match='if __name__ == "__main__":'):
        run_sweep(small, out, dask_local=2)
    assert not (out / "manifest.json").exists() and not (out / "spec.toml").exists()
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "sticky"\n[axes]\nplayers = [2, 3]\n[games]\nper_cell = 200\n')
    r = invoke("sweep", spec, "--out", out, "--dask-local", 2, "-q")
    assert r.exit_code == 2
    assert r.stderr.startswith("error: the local Dask cluster of 2 worker process(es) did not "
                               "start (Nanny failed to start worker process)")
    assert len(r.stderr.splitlines()) == 1 and not (out / "manifest.json").exists()
    monkeypatch.undo()
    r = invoke("sweep", spec, "--out", out, "-q", "--no-report")  # not "already holds a sweep"
    assert r.exit_code == 0, r.output
    assert load_sweep(out).complete


def test_failed_start_keeps_a_sweep_that_was_there(tmp_path, monkeypatch):
    import distributed

    from experiments.running.distributed import ClusterStartError

    small = {**SPEC, "games": {"per_cell": 200}}
    out = tmp_path / "out"
    run_sweep({**small, "axes": {"players": [2, 3, 5], "curses": [False]}}, out, report=False)
    before = (out / "manifest.json").read_bytes()

    def no_cluster(*args, **kwargs):
        raise RuntimeError("Nanny failed to start worker process")

    monkeypatch.setattr(distributed, "LocalCluster", no_cluster)
    with pytest.raises(ClusterStartError):
        run_sweep({**small, "axes": {"players": [2, 3, 5], "curses": [False]}}, out,
                  resume=True, dask_local=2)
    assert (out / "manifest.json").read_bytes() == before and load_sweep(out).complete


def _sigint_ignored_here():
    import signal

    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_local_workers_leave_ctrl_c_to_the_sweep():
    """Ctrl-C at a terminal signals every process of its group: the local cluster's workers
    ignore it (so they print no tracebacks of their own), this process still gets it."""
    import signal

    from experiments.running.distributed import dask_client

    before = signal.getsignal(signal.SIGINT)
    with dask_client(None, 1) as (client, _threads):
        assert signal.getsignal(signal.SIGINT) == before
        assert all(client.run(_sigint_ignored_here).values())
    assert signal.getsignal(signal.SIGINT) == before
