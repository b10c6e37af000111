"""The ``cthulhu-sim`` console script (also ``python -m experiments``).

Kept free of heavy imports: numpy, pandas, numba and typer load inside ``main``, where a
Ctrl-C during their import (about half a second) ends the program with one line instead of a
traceback.  A Ctrl-C inside a command ends it with exit status 130 (typer does that itself;
sweeps first say how to resume).
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
    except KeyboardInterrupt:  # (one outside typer's own handling)
        _interrupted()


if __name__ == "__main__":
    main()
