"""Tiny Epic Cthulhu behind the common game interface."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.game import DEFAULT_BATCH, Config, Game, GameKind, Mean, Share, Shortcut
from simcore.replay import replay_command
from simcore.rules_data import RulesData
from simcore.tec import state as S
from simcore.tec.loader import TecParams, compile_params

TRACE_ROWS = 500_000
PARALLEL_CHUNKS = 4  # prange iterations (of playout.CHUNK playouts) a thread takes at a time
NO_FLOATS = np.zeros(1, dtype=np.float64)  # the game has no float parameters


class TinyEpicCthulhu(Game):
    name = "tec"
    title = "Tiny Epic Cthulhu"
    kind = GameKind(cooperative=True, perfect_information=False, searchable=False,
                    has_checker=True, style="callback")
    rules_file = Path(__file__).with_name("rules.toml")
    outcomes = S.OUTCOMES
    record_fields = S.RECORD_FIELDS
    event_fields = ("phase2_turn",)
    default_strategy = "heuristic"
    shortcuts = {
        "players": Shortcut("players", "N", "Players (1 = solo: two characters)."),
        "goo": Shortcut("goo", "NAME", "Great Old One: " + ", ".join(S.GOOS) + "."),
        "difficulty": Shortcut("difficulty", "LEVEL", ", ".join(S.DIFFICULTIES) + "."),
    }

    # words for reports and traces (the experiments layer uses them where a game offers them)
    outcome_text = {
        "win": "the investigators sealed every portal",
        "strength": "the Great Old One reached full strength",
        "madness": "an investigator went mad (a Brain token reached the top of a Delirium "
                   "Track)",
        "cap": "turn cap reached: the game was stopped unfinished",
    }
    value_labels = {  # as the rulebook writes them (each reads on its own in a list)
        "goo": {"nyarlathotep": "Nyarlathotep", "yog-sothoth": "Yog-Sothoth", "yig": "Yig",
                "cthulhu": "Cthulhu"},
        "difficulty": {"normal": "Normal Mode", "hard": "Hard Mode", "madness": "Madness Mode"},
    }
    setting_names = {"goo": "Great Old One", "difficulty": "difficulty", "players": "players"}
    turn_text = ("a turn is one character's turn; a round is every character's turn once "
                 "(solo: two characters)")

    def turns_per_round(self, config: Config) -> int:
        """Turns in a round: one per character (two in solo, TEC-M-2)."""
        return int(config.params.ip[S.I_CHARS])

    def compile_params(self, rules: RulesData) -> TecParams:
        return compile_params(rules)

    def seats(self, rules: RulesData) -> int:
        return 0

    def _kernel(self, config: Config, seed: int, start: int, count: int) -> np.ndarray:
        return self._run(config.params.ip, config, seed, start, count)

    def _run(self, ip: np.ndarray, config: Config, seed: int, start: int,
             count: int) -> np.ndarray:
        from simcore.engine import run_callback_batch, with_threads_chunked
        from simcore.tec.playout import CHUNK, play_block

        out = np.zeros((count, S.R_SIZE), dtype=np.int64)
        # threads take blocks of playouts as they free up (games differ in length), so one
        # thread with long games or a busy core does not hold up the batch
        with_threads_chunked(run_callback_batch, play_block, ip, NO_FLOATS, config.strategy.fn,
                             config.strategy.values, int(seed), int(start), out, CHUNK,
                             chunks=PARALLEL_CHUNKS)
        return out

    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        reached = (df["phase2_turn"] >= 0).to_numpy()
        lost = df["outcome"][df["outcome"].isin([S.O_STRENGTH, S.O_MADNESS])].to_numpy()
        return {
            "phase_two_rate": Share(int(reached.sum()), len(df)),
            "phase_two_turn_mean": Mean(df["phase2_turn"].to_numpy()[reached]),
            "pages_translated_mean": Mean(df["pages_translated"].to_numpy()),
            "page_tokens_placed_mean": Mean(df["page_tokens_placed"].to_numpy()),
            "portals_sealed_mean": Mean(df["portals_sealed"].to_numpy()),
            "shamblers_banished_mean": Mean(df["shamblers_banished"].to_numpy()),
            "accursed_per_game": {k: Mean(df[f"acc_{k}"].to_numpy()) for k in S.ACC_NAMES},
            # the share of the lost games lost each way
            "loss_causes": {name: Share(int((lost == i).sum()), len(lost))
                            for i, name in enumerate(S.OUTCOMES)
                            if i in (S.O_STRENGTH, S.O_MADNESS)},
            "chaos_actions_mean": Mean(df["chaos_actions"].to_numpy()),
            "seal_attempts_mean": Mean(df["seal_attempts"].to_numpy()),
            "games_counted": int(max(len(df), 1)),
        }

    def _trace_run(self, config: Config, seed: int, index: int,
                   check: bool) -> tuple[np.ndarray, np.ndarray]:
        from simcore.tec.playout import trace_game

        rec = np.zeros(S.R_SIZE, dtype=np.int64)
        ev = np.zeros((TRACE_ROWS, S.EV_WIDTH), dtype=np.int64)
        ip = config.params.ip
        if check:  # the checker only observes: the game played is the same
            ip = ip.copy()
            ip[S.I_CHECK] = 1
        n = trace_game(ip, config.strategy.fn, config.strategy.values, int(seed),
                       int(index), rec, ev)
        return ev[:n], rec

    def trace_record(self, config: Config, seed: int, index: int = 0) -> np.ndarray:
        return self._trace_run(config, seed, index, False)[1]

    def trace(self, config: Config, seed: int, index: int = 0, check: bool = False) -> str:
        from simcore.tec.trace import format_events

        ev, rec = self._trace_run(config, seed, index, check)
        return format_events(ev, rec, config, seed, index)

    def check(self, config: Config, games: int, seed: int,
              progress: Callable[[int], None] | None = None,
              batch: int = DEFAULT_BATCH) -> dict[str, Any]:
        """Checking mode: play ``games`` playouts asserting conservation of every piece after
        every step; a game that reaches the turn cap counts as stuck."""
        ip = config.params.ip.copy()
        ip[S.I_CHECK] = 1
        violations = 0
        stuck = 0
        first = None
        done = 0
        while done < games:
            n = min(batch, games - done)
            recs = self._run(ip, config, seed, done, n)
            bad = np.nonzero(recs[:, S.R_VIOLATIONS] > 0)[0]
            capped = np.nonzero(recs[:, S.R_OUTCOME] == S.O_CAP)[0]
            violations += int(recs[:, S.R_VIOLATIONS].sum())
            stuck += int(capped.size)
            if first is None and (bad.size or capped.size):
                idx = int(min(bad.min() if bad.size else n, capped.min() if capped.size else n))
                first = (f"playout {done + idx} "
                         f"(replay: {replay_command(config, seed, done + idx, check=True)})")
            done += n
            if progress is not None:
                progress(n)
        return {"games": games, "seed": seed, "violations": violations, "stuck": stuck,
                "first_violation": first}


GAME = TinyEpicCthulhu()
