"""Tiny Epic Cthulhu on the step engine plays the very games the callback engine it replaced
played: the heuristic's records, on the same seeds, hash to what the callback engine's did.

The callback engine (rules calling the strategy from inside a rule) was compared with the step
engine record for record over a million heuristic games per setting (every Great Old One at 1-4
players, and Hard and Madness at two players: NOTES.md, "The step engine"), then removed.  This
frozen table keeps a small part of that proof: the SHA-256 of the callback engine's records
(its layout: the game's record fields and the violations count, int64, playout order) of the
first 2,000 playouts of seed 1.  The heuristic's later improvements are parameters, so the
heuristic as it stood then is the one played here (``CALLBACK_HEURISTIC``), on the rules data
as it stood then (``CALLBACK_RULES``, a frozen copy: later recalibrations and new defaults of
``simcore/tec/rules.toml`` change the games, not this proof).
"""

import hashlib
from pathlib import Path

import numpy as np
import pytest

from simcore.registry import get_game
from simcore.tec import state as S

GAME = get_game("tec")
GAMES = 2000
SEED = 1
# the heuristic as the callback engine played it (the improvements switched off)
CALLBACK_HEURISTIC = {"strategy.chaos_threshold": 100.0, "strategy.chaos_full_factor": 1.0,
                      "strategy.seal_reach": 0.0, "strategy.leftover_value": 0.0,
                      "strategy.prepare_tokens": 0.0}
CALLBACK_RULES = Path(__file__).parent / "data" / "tec-rules-callback-engine.toml"
CALLBACK_FIELDS = S.RECORD_FIELDS + ("violations",)
FROZEN = {  # (Great Old One, players, difficulty): the callback engine's records
    ("nyarlathotep", 2, "normal"):
        "0e8b10a8d3738f671fdd337b683c91b65cf5dc8ce969517b3ea9a0735e4b1e8e",
    ("cthulhu", 4, "normal"): "050ad8dad149aa862b6441ce1a1d38da900e4b84aa915aeb244d84f61787dc83",
    ("yig", 1, "normal"): "40459a2030a672bbb42071559595010aa6527613913d39f6343a5789fbec0aa6",
    ("yog-sothoth", 3, "normal"):
        "8dc23e60c97c40a9e957f1f7552523c55ba5e3143c702f006790d0866de5868d",
}


@pytest.mark.parametrize("setting", list(FROZEN), ids=lambda s: f"{s[0]}-{s[1]}p-{s[2]}")
def test_step_engine_plays_the_callback_engines_games(setting):
    goo, players, difficulty = setting
    config = GAME.configure({"goo": goo, "players": players, "difficulty": difficulty,
                             **CALLBACK_HEURISTIC}, "heuristic",
                             rules_path=CALLBACK_RULES)
    recs = GAME.run_batch(config, SEED, 0, GAMES)
    rows = recs.view(np.int64).reshape(GAMES, -1)
    cols = [GAME.record_fields.index(f) for f in CALLBACK_FIELDS]
    digest = hashlib.sha256(np.ascontiguousarray(rows[:, cols]).tobytes()).hexdigest()
    assert digest == FROZEN[setting]
