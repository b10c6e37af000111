"""A sweep on a local Dask cluster of two worker processes gives bit-identical results to the
single-machine run, chunks arriving in any order."""

import pandas as pd
import pytest

from experiments import run_sweep

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
