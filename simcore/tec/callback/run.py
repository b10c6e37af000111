"""Play the frozen callback engine on a configuration of the step engine's rules data."""

from __future__ import annotations

import numpy as np

from simcore.engine import run_callback_batch, with_threads_chunked
from simcore.tec.callback import state as S
from simcore.tec.callback.loader import compile_params
from simcore.tec.callback.playout import CHUNK, play_block
from simcore.tec.callback.strategy import HEURISTIC_DEFAULTS, heuristic, random_choice

NO_FLOATS = np.zeros(1, dtype=np.float64)
STRATEGIES = {"heuristic": (heuristic, HEURISTIC_DEFAULTS),
              "random": (random_choice, np.zeros(1, dtype=np.float64))}


def callback_params(rules) -> np.ndarray:
    """The callback engine's ``ip`` for a configuration's rules data."""
    return compile_params(rules).ip


def run(ip: np.ndarray, strategy: str, seed: int, start: int, count: int) -> np.ndarray:
    """Records (the callback layout, ``S.RECORD_FIELDS``) of playouts start .. start+count-1."""
    fn, values = STRATEGIES[strategy]
    out = np.zeros((count, S.R_SIZE), dtype=np.int64)
    with_threads_chunked(run_callback_batch, play_block, ip, NO_FLOATS, fn, values, int(seed),
                         int(start), out, CHUNK, chunks=4)
    return out
