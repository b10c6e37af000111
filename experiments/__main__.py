"""The ``cthulhu-sim`` console script (also ``python -m experiments``).

Kept free of heavy imports: numpy, pandas, numba and typer load inside ``main``, where a
Ctrl-C during their import (about half a second) ends the program with one line instead of a
traceback.
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
    except BrokenPipeError:  # output piped into `head` and the like
        sys.exit(0)
    except KeyboardInterrupt:  # (sweeps catch it themselves, to say how to resume)
        _interrupted()


if __name__ == "__main__":
    main()
