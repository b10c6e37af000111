"""The ``cthulhu-sim`` console script (also ``python -m experiments``).

Kept free of heavy imports: numpy, pandas, numba and typer load inside ``main``, where a
Ctrl-C during their import (about half a second) ends the program with one line instead of a
traceback.  Inside a command, typer turns a Ctrl-C into exit status 130 itself (sweeps first
say how to resume); the handler below is for one outside typer's own handling.
"""

from __future__ import annotations

import sys


def _interrupted() -> None:
    sys.stderr.write("\ninterrupted\n")
    sys.exit(130)


def main() -> None:
    try:
        from experiments.cli import app
    except KeyboardInterrupt:
        _interrupted()
    try:
        app()
    except KeyboardInterrupt:
        _interrupted()


if __name__ == "__main__":
    main()
