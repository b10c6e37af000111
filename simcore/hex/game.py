"""Cthulhu Boardgame (BookRanger's hex wargame) behind the common game interface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.engine import StepGame
from simcore.game import Config, GameKind, Mean, Share, Shortcut
from simcore.hex import state as S
from simcore.hex.loader import HexParams, compile_params
from simcore.rules_data import RulesData


class HexWargame(StepGame):
    name = "hex"
    title = "Cthulhu Boardgame (BookRanger)"
    kind = GameKind(cooperative=False, perfect_information=True, searchable=True,
                    has_checker=True, style="step")
    rules_file = Path(__file__).with_name("rules.toml")
    rules_module = "simcore.hex.rules"
    outcomes = S.OUTCOMES
    game_record_fields = S.RECORD_FIELDS
    event_fields = ("first_pickup_turn",)
    cap_outcome = "stalemate"
    default_strategy = "heuristic"
    first_compile_s = 20.0  # bench --compile, cold CPU seconds (simcore/tec/NOTES.md)
    shortcuts = {
        "first": Shortcut("first_side", "SIDE", "Who plays the first turn: good or bad."),
    }

    # words for reports and traces (the experiments layer uses them where a game offers them)
    outcome_text = {
        "good_win": "Good brought all three Artefacts to its base line",
        "bad_win": "Bad brought all three Artefacts to its base line",
        "stalemate": "turn cap reached with no winner (a stalemate)",
    }
    setting_names = {
        "strategy.seat_0": "Good's strategy", "strategy.seat_1": "Bad's strategy",
        "strategy.good": "Good's strategy", "strategy.bad": "Bad's strategy",
        "bad.cultist.count": "Cultists", "first_side": "first side",
    }
    turn_text = "a turn is one player's turn; a round is Good's turn and Bad's"

    def turns_per_round(self, config: Config) -> int:
        return 2

    def compile_params(self, rules: RulesData) -> HexParams:
        return compile_params(rules)

    def seats(self, rules: RulesData) -> int:
        return 2

    def seat_names(self, rules: RulesData) -> list[str]:
        return list(S.SIDE_NAMES)

    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        n = len(df)
        rounds = df["turns"].to_numpy() / 2.0
        picked = (df["first_pickup_turn"] >= 0).to_numpy()
        return {
            "stalemate_rate": Share(int((df["outcome"] == S.O_STALEMATE).sum()), n),
            "game_rounds_mean": Mean(rounds),
            "counters_lost_per_game": {
                "good": Mean(df["good_lost"].to_numpy()),
                "bad": Mean(df["bad_lost"].to_numpy())},
            "artefact_pickups_per_game": {
                "good": Mean(df["good_pickups"].to_numpy()),
                "bad": Mean(df["bad_pickups"].to_numpy())},
            "carriers_per_game": {
                "good": Mean(df["good_carriers"].to_numpy()),
                "bad": Mean(df["bad_carriers"].to_numpy())},
            "artefacts_home_at_end": {
                "good": Mean(df["good_home"].to_numpy()),
                "bad": Mean(df["bad_home"].to_numpy())},
            "first_pickup_turn_mean": Mean(df["first_pickup_turn"].to_numpy()[picked]),
            "leader_killed_rate": Share(int(df["leader_killed"].sum()), n),
            "monster_killed_rate": Share(int(df["monster_killed"].sum()), n),
        }

    def format_trace(self, config: Config, seed: int, index: int, events: np.ndarray,
                     rec: np.ndarray) -> str:
        from simcore.hex.trace import format_events

        return format_events(self, config, seed, index, events, rec)


GAME = HexWargame()
