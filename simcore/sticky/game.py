"""Sticky Cthulhu behind the common game interface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.game import Config, Game, GameKind, Mean, Ratio, Shortcut
from simcore.rules_data import RulesData
from simcore.sticky import state as S
from simcore.sticky.loader import StickyParams, compile_params

TRACE_ROWS = 200_000
PARALLEL_CHUNKS = 1  # prange iterations (of playout.CHUNK playouts) a thread takes at a time


class Sticky(Game):
    name = "sticky"
    title = "Sticky Cthulhu"
    # a real-time race has no decision point worth searching: callback style for good
    kind = GameKind(cooperative=False, perfect_information=False, searchable=False,
                    has_checker=False, style="callback")
    rules_file = Path(__file__).with_name("rules.toml")
    outcomes = S.OUTCOMES
    record_fields = S.RECORD_FIELDS
    default_strategy = "honest"
    first_compile_s = 13.0  # bench --compile, cold CPU seconds (simcore/tec/NOTES.md)
    shortcuts = {"players": Shortcut("players", "N", "Players (2-6).")}
    # words for reports and summaries: what ended the game (STK-E-1)
    outcome_text = {
        "win": "a player collected the tokens needed to win (tokens_to_win) first and won at "
               "once",
        "cap": "turn cap reached (max_turns): the game was stopped unfinished, nobody won",
    }

    def compile_params(self, rules: RulesData) -> StickyParams:
        return compile_params(rules)

    def seats(self, rules: RulesData) -> int:
        return int(rules["players"])

    def _kernel(self, config: Config, seed: int, start: int, count: int) -> np.ndarray:
        from simcore.engine import callback_runner, with_threads_chunked
        from simcore.sticky.playout import CHUNK, play_block

        p = config.params
        out = np.empty((count, S.R_SIZE), dtype=np.int64)  # every row is written in full
        # threads take blocks of playouts as they free up (rather than equal shares decided
        # in advance), so a thread slowed by other work on its core does not hold up the batch
        with_threads_chunked(callback_runner(), play_block, p.ip, p.packed, config.strategy.fn,
                             config.strategy.values, int(seed), int(start), out, CHUNK,
                             chunks=PARALLEL_CHUNKS)
        return out

    def compile_parts(self, config: Config) -> int:
        return 2  # the playout (play_block) and the strategy: they meet as a function value

    def compile_part(self, config: Config, part: int) -> None:
        from simcore.engine import DECIDE_VIEW, callback_runner, compile_for

        if part == 0:
            import simcore.sticky.playout  # noqa: F401  (play_block compiles as it loads)

            callback_runner()
        else:
            compile_for(config.strategy.fn, DECIDE_VIEW.signature)

    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        return {
            "game_minutes_mean": Mean(df["game_ms"].to_numpy() / 60000.0),
            "mishaps_per_game": Mean(df["mishaps"].to_numpy()),
            "investigator_hits_per_game": Mean(df["investigator_hits"].to_numpy()),
            "investigator_contacts_per_game": Mean(df["investigator_contacts"].to_numpy()),
            "tangles_per_game": Mean(df["tangles"].to_numpy()),
            "curse_cheats_per_game": Mean(df["curse_cheats"].to_numpy()),
            "curse_penalties_per_game": Mean(df["curse_penalties"].to_numpy()),
            "void_turns_per_game": Mean(df["void_turns"].to_numpy()),
            # pooled over all turns: a mean of per-game shares would weigh a short game's
            # turns more, and short games are those where one seat kept winning (and rolling)
            "roller_wins_share_of_turns": Ratio(df["roller_wins"].to_numpy(),
                                                df["turns"].to_numpy()),
        }

    def _trace_run(self, config: Config, seed: int, index: int) -> tuple[np.ndarray, np.ndarray]:
        from simcore.engine import ready
        from simcore.sticky.playout import TRACE_SIG, trace_game

        p = config.params
        rec = np.zeros(S.R_SIZE, dtype=np.int64)
        ev = np.zeros((TRACE_ROWS, S.EV_WIDTH), dtype=np.int64)
        n = ready(trace_game, TRACE_SIG)(p.fp, p.ip, p.skill, p.curse, p.phit, config.strategy.fn,
                       config.strategy.values, int(seed), int(index), rec, ev)
        return ev[:n], rec

    def trace_record(self, config: Config, seed: int, index: int = 0) -> np.ndarray:
        return self._trace_run(config, seed, index)[1]

    def trace(self, config: Config, seed: int, index: int = 0, check: bool = False) -> str:
        from simcore.sticky.trace import format_events

        ev, rec = self._trace_run(config, seed, index)
        return format_events(ev, rec, config.params, seed, index, config.strategy.name)


GAME = Sticky()
