"""``python -m experiments.cli``: the command line, as ``python -m experiments`` (without its
one-line Ctrl-C during the imports)."""

from experiments.cli import app

app()
