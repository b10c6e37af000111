"""Wake Up, Cthulhu! behind the common game interface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.engine import StepGame
from simcore.game import Config, GameKind, Mean, Share, Shortcut
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
    first_compile_s = 26.0  # bench --compile, cold CPU seconds (simcore/tec/NOTES.md)
    shortcuts = {"players": Shortcut("players", "N", "Players: 2-4, or 1 for the solitaire "
                                     "game.")}

    # words for reports and summaries: what ended the game (WUC-E-1 to WUC-E-3, WUC-SO-12)
    outcome_text = {
        "next_to_cthulhu": "Cthulhu stood next to an Arcane Knowledge token during a turn: at "
                           "its end the player with the most tokens on the Summoning Circle "
                           "won (a tie: the tied player whose token stood closest to Cthulhu)",
        "red_candle": "Cthulhu reached the Red Candle with no token next to him: the player "
                      "with the most tokens on the Summoning Circle won (ties as above)",
        "portal_player": "solitaire: the player's figure reached the Portal at the end of "
                         "Path C first: the player won",
        "portal_cthulhu": "solitaire: Cthulhu's figure reached the Portal at the end of Path D "
                          "first: Cthulhu won",
        "turn_cap": "turn cap reached (max_turns): the game was stopped unfinished, nobody won",
    }
    SOLO_OUTCOMES = ("portal_player", "portal_cthulhu", "turn_cap")

    def possible_outcomes(self, rules: RulesData) -> tuple[str, ...]:
        """Solitaire (one player) ends only at a Portal (or the turn cap); the game of two
        to four players only by Cthulhu next to a token, the Red Candle (or the turn cap)."""
        solo = int(rules["players"]) <= 1
        return tuple(o for o in self.outcomes
                     if (o in self.SOLO_OUTCOMES) == solo or o == self.cap_outcome)

    def compile_params(self, rules: RulesData) -> WakeupParams:
        return compile_params(rules)

    def seats(self, rules: RulesData) -> int:
        return max(int(rules["players"]), 1)

    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        n = len(df)

        def mean(col: str) -> Mean:
            return Mean(df[col].to_numpy())

        out: dict[str, Any] = {}
        if config.params.solo:
            out["player_squares_mean"] = mean("solo_player_pos")
            out["cthulhu_squares_mean"] = mean("cthulhu_pos")
            out["curse_duels_won_mean"] = mean("solo_duels_won")
        else:
            seats = range(config.params.players)
            outcome = df["outcome"].to_numpy()
            out["game_end"] = {name: Share(int((outcome == k).sum()), n)
                               for k, name in enumerate(S.OUTCOMES)
                               if k in (S.O_ADJACENT, S.O_RED, S.O_CAP)}
            out["rounds_mean"] = mean("rounds")
            out["tie_break_rate"] = Share(int(df["tie_break"].sum()), n)
            out["tokens_on_board"] = {f"seat_{k}": mean(f"tokens_{k}") for k in seats}
            out["auctions_per_game"] = mean("auctions")
            out["auctions_won"] = {f"seat_{k}": mean(f"auctions_won_{k}") for k in seats}
            out["rlyeh_auctions_per_game"] = mean("rlyeh_auctions")
            out["cthulhu_moves_mean"] = mean("cthulhu_moves")
            out["swaps_per_game"] = mean("swaps")
            out["tokens_returned_per_game"] = mean("tokens_returned")
            out["ran_tegoth_tokens_per_game"] = mean("ran_tegoth_tokens")
            out["deadlock_refreshes_per_game"] = mean("deadlock_refreshes")
        out["curses_per_game"] = {k: mean(f"curses_{k}") for k in S.CURSES}
        out["conjured_per_game"] = {k: mean(f"conjured_{k}") for k in S.SPELLS + S.OBJECTS}
        out["advanced_per_game"] = {k: mean(f"advanced_{k}") for k in S.SPELLS}
        out["objects_played_per_game"] = {k: mean(f"played_{k}") for k in S.OBJECTS}
        return out

    def format_trace(self, config: Config, seed: int, index: int, events: np.ndarray,
                     rec: np.ndarray) -> str:
        from simcore.wakeup.trace import format_events

        return format_events(self, config, seed, index, events, rec)


GAME = WakeUpCthulhu()
