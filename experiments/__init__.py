"""Experiments: run configurations, sweeps and strategy comparisons; statistics and reports.

The public Python API (each the twin of a CLI command)::

    from experiments import run, run_sweep, load_sweep, compare

    result = run("sticky", {"players": 4}, games=100_000, seed=1)       # cthulhu-sim run
    sweep = run_sweep("experiments/specs/sticky-seats.toml", "out/seats")  # cthulhu-sim sweep
    sweep = load_sweep("out/seats")            # sweep.results: one row per cell (pandas)
    cmp = compare("sticky", ["honest", "cheater"], {"curses": True}, games=50_000)
    save_run(result, "out/run-seed-1")         # cthulhu-sim run --out
    pool_runs(["out/run-seed-1", "out/run-seed-2"], "out/pooled")   # cthulhu-sim pool
    list_folders("out")                        # cthulhu-sim list
    diff_sweeps("out/seats", "out/seats-variant")                  # cthulhu-sim diff
    sens = run_sensitivity("tec", {"goo": "cthulhu", "difficulty": "hard"}, games=10_000)
    tuned = run_tune("tec", {"goo": "cthulhu"}, target="0.5", vary=["setup.bag_eldritch"])

Names are imported lazily so ``import experiments`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

# the experiments layer composes games and strategies: loading the strategy registry (cheap:
# each game's strategies load when first asked for) lets Game.configure find them by name
import strategies  # noqa: F401

_EXPORTS = {
    "run": "experiments.running.runner",
    "run_config": "experiments.running.runner",
    "summarize": "experiments.running.runner",
    "format_summary": "experiments.running.runner",
    "RunResult": "experiments.running.runner",
    "TooManyGamesError": "experiments.running.runner",
    "run_sweep": "experiments.running.sweep",
    "load_sweep": "experiments.running.sweep",
    "SweepResult": "experiments.running.sweep",
    "load_spec": "experiments.running.spec",
    "SweepSpec": "experiments.running.spec",
    "SpecError": "experiments.running.spec",
    "compare": "experiments.running.comparison",
    "Comparison": "experiments.running.comparison",
    "build_report": "experiments.reporting.report",
    "format_sweep": "experiments.reporting.report",
    "baseline_comparisons": "experiments.reporting.report",
    "save_run": "experiments.running.runfolder",
    "pool_runs": "experiments.running.runfolder",
    "list_folders": "experiments.analysis.catalog",
    "diff_sweeps": "experiments.analysis.catalog",
    "run_sensitivity": "experiments.analysis.sensitivity",
    "Sensitivity": "experiments.analysis.sensitivity",
    "run_tune": "experiments.analysis.tune",
    "Tuning": "experiments.analysis.tune",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'experiments' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
