"""The balance workbench: every what-if of the CLI in a local web page (``cthulhu-sim serve``).

A small Starlette application (:mod:`experiments.workbench.app`) over the experiments layer:
the pages are rendered on the server with Jinja2 (``templates/``), with no script of their
own; charts are the reports' own matplotlib images.  Heavy work (runs, comparisons, sweeps,
traces) is queued, one job at a time per core budget (:mod:`experiments.workbench.jobs`), and
done by the experiments layer's own functions (:mod:`experiments.workbench.work`); what the
pages read and write lies inside one results folder (:mod:`experiments.workbench.paths`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "serve"]


def create_app(*args: Any, **kwargs: Any):
    from experiments.workbench.app import create_app as make

    return make(*args, **kwargs)


def serve(*args: Any, **kwargs: Any) -> None:
    from experiments.workbench.server import serve as run

    run(*args, **kwargs)
