"""Wake Up, Cthulhu! behind the common game interface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.engine import StepGame
from simcore.game import Config, GameKind, Shortcut
from simcore.rules_data import RulesData
from simcore.wakeup import state as S
from simcore.wakeup.loader import WakeupParams, compile_params


class WakeUpCthulhu(StepGame):
    name = "wakeup"
    title = "Wake Up, Cthulhu!"
    kind = GameKind(cooperative=False, perfect_information=False, searchable=True,
                    has_checker=True, style="step")
    rules_file = Path(__file__).with_name("rules.toml")
    rules_module = "simcore.wakeup.rules"
    outcomes = S.OUTCOMES
    game_record_fields = S.RECORD_FIELDS
    cap_outcome = "turn_cap"
    default_strategy = "heuristic"
    shortcuts = {"players": Shortcut("players", "N", "Players: 2-4, or 1 for the solitaire "
                                     "game.")}

    def compile_params(self, rules: RulesData) -> WakeupParams:
        return compile_params(rules)

    def seats(self, rules: RulesData) -> int:
        return max(int(rules["players"]), 1)

    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        return {}

    def format_trace(self, config: Config, seed: int, index: int, events: np.ndarray,
                     rec: np.ndarray) -> str:
        from simcore.wakeup.trace import format_events

        return format_events(self, config, seed, index, events, rec)


GAME = WakeUpCthulhu()
