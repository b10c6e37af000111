"""The console script's entry point: a Ctrl-C at any moment ends it with one line."""

from __future__ import annotations

import builtins
import subprocess
import sys

import pytest

import experiments.__main__ as entry


def test_ctrl_c_while_modules_import_is_one_line(monkeypatch, capsys):
    real_import = builtins.__import__

    def interrupted_import(name, *args, **kwargs):
        if name == "experiments.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted_import)
    with pytest.raises(SystemExit) as exc:
        entry.main()
    assert exc.value.code == 130
    assert capsys.readouterr().err.strip() == "interrupted"


def test_ctrl_c_outside_typers_own_handling_is_one_line(monkeypatch, capsys):
    """(Inside a command typer itself ends with exit status 130.)"""
    import experiments.cli

    def interrupted_app():
        raise KeyboardInterrupt

    monkeypatch.setattr(experiments.cli, "app", interrupted_app)
    with pytest.raises(SystemExit) as exc:
        entry.main()
    assert exc.value.code == 130
    assert capsys.readouterr().err.strip() == "interrupted"


def test_python_m_experiments_is_the_cli():
    r = subprocess.run([sys.executable, "-m", "experiments", "--version"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("cthulhu-sim")
