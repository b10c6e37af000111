"""Ceilings on what a command may be asked for, so a mistyped number is refused in one line
instead of running for ever or overflowing the engine's 64-bit integers."""

from __future__ import annotations

MAX_SEED = 2**63 - 1  # seeds and playout indices are int64 in the engines
MAX_INDEX = 2**63 - 1
# the most games one command plays: a check of 10^9 Tiny Epic Cthulhu games takes hours;
# for more, pool runs of different seeds (``cthulhu-sim pool``)
MAX_GAMES = 10**9
MAX_BENCH_SECONDS = 3600.0  # of play per game and strategy
MAX_DASK_LOCAL = 64  # local worker processes
