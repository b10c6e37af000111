"""Tiny Epic Cthulhu behind the common game interface (a step game: simcore.engine)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.engine import EV_WIDTH, StepGame
from simcore.game import Config, GameKind, Mean, Share, Shortcut
from simcore.kernels import new_rng
from simcore.rules_data import RulesData, RulesError, parse_overrides
from simcore.tec import state as S
from simcore.tec.loader import TecParams, compile_params


class TinyEpicCthulhu(StepGame):
    name = "tec"
    title = "Tiny Epic Cthulhu"
    kind = GameKind(cooperative=True, perfect_information=False, searchable=True,
                    has_checker=True, style="step")
    rules_file = Path(__file__).with_name("rules.toml")
    rules_module = "simcore.tec.rules"
    outcomes = S.OUTCOMES
    game_record_fields = S.RECORD_FIELDS
    cap_outcome = "cap"
    cap_is_stuck = True  # max_turns lies far beyond any real game: a capped game is stuck
    event_fields = ("phase2_turn",)
    default_strategy = "heuristic"
    first_compile_s = 38.0  # bench --compile, cold CPU seconds (simcore/tec/NOTES.md)
    trace_rows = 500_000
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
        "shamblers": "every Shambler was on the Town cards (switch shambler_loss, a review's "
                     "loss condition)",
    }
    value_labels = {  # as the rulebook writes them (each reads on its own in a list)
        "goo": {"nyarlathotep": "Nyarlathotep", "yog-sothoth": "Yog-Sothoth", "yig": "Yig",
                "cthulhu": "Cthulhu"},
        "difficulty": {"normal": "Normal Mode", "hard": "Hard Mode", "madness": "Madness Mode"},
    }
    setting_names = {"goo": "Great Old One", "difficulty": "difficulty", "players": "players"}

    def possible_outcomes(self, rules: RulesData) -> tuple[str, ...]:
        """Every outcome but the Shambler loss, which only the switch shambler_loss makes."""
        return tuple(o for o in self.outcomes if o != "shamblers" or bool(rules["shambler_loss"]))
    turn_text = ("a turn is one character's turn; a round is every character's turn once "
                 "(solo: two characters)")

    def turns_per_round(self, config: Config) -> int:
        """Turns in a round: one per character (two in solo, TEC-M-2)."""
        return int(config.params.ip[S.I_CHARS])

    def configure(self, overrides: Any = None, strategy: str | None = None,
                  rules_path: str | Path | None = None) -> Config:
        """As every game's, and the switch ``move_exact`` (replaced by ``move_distance``) still
        works as an override: true is "exact", false "up_to"."""
        flat = parse_overrides(overrides)
        if "move_exact" in flat:
            old = flat.pop("move_exact")
            if isinstance(old, str) and old.lower() in ("true", "false"):
                old = old.lower() == "true"
            if not isinstance(old, bool) or "move_distance" in flat:
                raise RulesError(f"override: key 'move_exact': {old!r}: the switch is now "
                                 "move_distance = \"exact\" or \"up_to\" (move_exact=true "
                                 "or false is still read, alone)")
            flat["move_distance"] = "exact" if old else "up_to"
        return super().configure(flat, strategy, rules_path)

    def compile_params(self, rules: RulesData) -> TecParams:
        return compile_params(rules)

    def seats(self, rules: RulesData) -> int:
        """The characters (a cooperative game: they win or lose together)."""
        players = int(rules["players"])
        return 2 if players == 1 else players

    def seat_names(self, rules: RulesData) -> list[str]:
        return list(rules["characters"])[:self.seats(rules)]

    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        reached = (df["phase2_turn"] >= 0).to_numpy()
        lost = df["outcome"][df["outcome"].isin([S.O_STRENGTH, S.O_MADNESS, S.O_SHAMBLERS])
                          ].to_numpy()
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
                            if i in (S.O_STRENGTH, S.O_MADNESS, S.O_SHAMBLERS)},
            "chaos_actions_mean": Mean(df["chaos_actions"].to_numpy()),
            "seal_attempts_mean": Mean(df["seal_attempts"].to_numpy()),
            "games_counted": int(max(len(df), 1)),
        }

    def setup_events(self, config: Config, seed: int, index: int) -> np.ndarray:
        """The events of ``init`` (the setup, and the first turn up to its first question),
        which the engine's ``init`` does not log: replayed from the playout's stream."""
        from simcore.tec.rules import init_logged

        ip = config.params.ip
        s = np.zeros(int(ip[0]), dtype=np.int64)
        h = np.zeros(S.H_SIZE, dtype=np.int64)
        ev = np.zeros((self.trace_rows, EV_WIDTH), dtype=np.int64)
        evn = np.zeros(1, dtype=np.int64)
        init_logged(ip, s, h, new_rng(seed, index), ev, evn)
        return ev[:evn[0]].copy()

    def trace_events(self, config: Config, seed: int, index: int = 0,
                     check: bool = False) -> tuple[np.ndarray, np.ndarray]:
        events, rec = super().trace_events(config, seed, index, check)
        return np.concatenate([self.setup_events(config, seed, index), events]), rec

    def format_trace(self, config: Config, seed: int, index: int, events: np.ndarray,
                     rec: np.ndarray) -> str:
        from simcore.tec.trace import format_events

        return format_events(events, rec, config, seed, index)


GAME = TinyEpicCthulhu()
