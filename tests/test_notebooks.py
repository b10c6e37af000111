"""The notebooks run, at small sizes, so they never go stale."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


def test_there_is_a_notebook():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path, tmp_path, monkeypatch):
    monkeypatch.setenv("NB_GAMES", "1500")
    monkeypatch.setenv("NB_OUT", str(tmp_path / "sweep"))
    monkeypatch.delenv("NB_SWEEP", raising=False)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs) or any(
        "Figure" in str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert (tmp_path / "sweep" / "results.parquet").exists()
