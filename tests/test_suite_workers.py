"""The suite's own guard under pytest-xdist: a cached function compiled for a dispatcher
argument in a worker's process still fails the whole run (tests/conftest.py)."""

from types import SimpleNamespace

import pytest

from tests import conftest


@pytest.fixture
def found(monkeypatch):
    """What the process's own check finds; the controller's gathered names reset after."""
    names: list[str] = []
    monkeypatch.setattr(conftest, "dispatcher_keyed_overloads", lambda: list(names))
    yield names
    conftest._WORKERS_FOUND.clear()


def test_a_worker_hands_its_finding_to_the_controller_and_the_controller_fails(found, capsys):
    found.append("simcore.engine.run_some")
    worker = SimpleNamespace(config=SimpleNamespace(workeroutput={}), exitstatus=0)
    conftest.pytest_sessionfinish(worker, 0)
    assert worker.config.workeroutput == {
        "dispatcher_keyed": ["simcore.engine.run_some"]}
    assert worker.exitstatus == 0  # a worker's status does not reach the run: the controller's does

    found.clear()  # the controller runs no test: its own check finds nothing
    conftest.pytest_testnodedown(SimpleNamespace(workeroutput=worker.config.workeroutput), None)
    controller = SimpleNamespace(config=SimpleNamespace(), exitstatus=0)
    conftest.pytest_sessionfinish(controller, 0)
    assert controller.exitstatus == 1
    assert "simcore.engine.run_some" in capsys.readouterr().err


def test_a_clean_run_stays_clean(found):
    worker = SimpleNamespace(config=SimpleNamespace(workeroutput={}), exitstatus=0)
    conftest.pytest_sessionfinish(worker, 0)
    conftest.pytest_testnodedown(SimpleNamespace(workeroutput=worker.config.workeroutput), None)
    conftest.pytest_testnodedown(SimpleNamespace(), "worker crashed")  # no output at all
    controller = SimpleNamespace(config=SimpleNamespace(), exitstatus=0)
    conftest.pytest_sessionfinish(controller, 0)
    assert controller.exitstatus == 0


def test_auto_asks_for_a_worker_a_core_and_at_most_four(monkeypatch):
    import os

    for cores, workers in ((1, 1), (2, 2), (16, 4)):
        monkeypatch.setattr(os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)))
        assert conftest.pytest_xdist_auto_num_workers(None) == workers
