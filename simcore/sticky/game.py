"""Sticky Cthulhu behind the common game interface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from simcore.game import Config, Game
from simcore.rules_data import RulesData
from simcore.sticky import state as S
from simcore.sticky.loader import StickyParams, compile_params

TRACE_ROWS = 200_000
PARALLEL_CHUNKS = 8  # prange iterations (of playout.CHUNK playouts) a thread takes at a time


class Sticky(Game):
    name = "sticky"
    title = "Sticky Cthulhu"
    cooperative = False
    rules_file = Path(__file__).with_name("rules.toml")
    outcomes = S.OUTCOMES
    record_fields = S.RECORD_FIELDS
    default_strategy = "honest"
    shortcuts = {"players": "players"}

    def compile_params(self, rules: RulesData) -> StickyParams:
        return compile_params(rules)

    def seats(self, rules: RulesData) -> int:
        return int(rules["players"])

    def _kernel(self, config: Config, seed: int, start: int, count: int) -> np.ndarray:
        from simcore.sticky.playout import run_batch

        p = config.params
        out = np.zeros((count, S.R_SIZE), dtype=np.int64)
        # threads take blocks of playouts as they free up (rather than equal shares decided
        # in advance), so a thread slowed by other work on its core does not hold up the batch
        with numba.parallel_chunksize(PARALLEL_CHUNKS):
            run_batch(p.fp, p.ip, p.skill, p.curse, p.phit, config.strategy.fn,
                      config.strategy.values, int(seed), int(start), out)
        return out

    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        # pooled over all turns: a mean of per-game shares would weigh a short game's turns
        # more, and short games are those where one seat kept winning (and rolling)
        turns = max(int(df["turns"].sum()), 1)
        return {
            "game_minutes_mean": float(df["game_ms"].mean() / 60000.0),
            "mishaps_per_game": float(df["mishaps"].mean()),
            "investigator_hits_per_game": float(df["investigator_hits"].mean()),
            "curse_cheats_per_game": float(df["curse_cheats"].mean()),
            "curse_penalties_per_game": float(df["curse_penalties"].mean()),
            "void_turns_per_game": float(df["void_turns"].mean()),
            "roller_wins_share_of_turns": float(df["roller_wins"].sum() / turns),
        }

    def trace(self, config: Config, seed: int, index: int = 0, check: bool = False) -> str:
        from simcore.sticky.playout import trace_game
        from simcore.sticky.trace import format_events

        p = config.params
        rec = np.zeros(S.R_SIZE, dtype=np.int64)
        ev = np.zeros((TRACE_ROWS, S.EV_WIDTH), dtype=np.int64)
        n = trace_game(p.fp, p.ip, p.skill, p.curse, p.phit, config.strategy.fn,
                       config.strategy.values, int(seed), int(index), rec, ev)
        return format_events(ev[:n], rec, p, seed, index, config.strategy.name)


GAME = Sticky()
