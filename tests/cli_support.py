"""Running the ``cthulhu-sim`` command line in tests, through typer's CliRunner."""

from typer.testing import CliRunner

from experiments.cli import app

runner = CliRunner()


def invoke(*args):
    """Run ``cthulhu-sim`` with ``args`` (any value, turned into text); the typer result."""
    return runner.invoke(app, [str(a) for a in args])
