"""Tiny Epic Cthulhu: the readings that public sources give where they differ from the rulebook
text (issue 15 part 3, COMPONENT-NOTES.md), each a switch in rules.toml with the text's reading
the default: the move's distance (TEC-MV-1), the Page card a move may flip (TEC-MV-4), the
forced move away in phase two (TEC-MV-3 with TEC-SE-5), a third loss when every Shambler is on
the Town cards (nearest clause TEC-E-2), the setup's order and its Page card at the Great Old
One's Town (TEC-S-4, TEC-S-11).  Each test builds a small table by hand (tests/tec_support.py).
"""
# ruff: noqa: N802  (test names carry the clause IDs)

import pytest
from tec_support import (
    F_FLIP,
    F_INIT,
    F_PLACE_SHAMBLER,
    F_PLAY_TURN,
    F_REACHABLE,
    LAST,
    Table,
    config,
    params,
    script,
    table,
)

from simcore.engine import PLAYING
from simcore.registry import get_game
from simcore.rules_data import RulesError
from simcore.tec import state as S

GAME = get_game("tec")
B = 0
NO_FLIP = S.N_TOWNS
NEUTRAL = {"characters": ["medium", "drifter", "collector", "professor"]}
TOWN_NAMES = ("asylum", "hospital", "library", "museum", "docks", "lighthouse", "church",
              "cemetery", "station", "market")


def reachable(tb, c=0):
    tb.call(F_REACHABLE, c)
    return {a - S.A_MOVE for a in tb.legal_set() if S.A_MOVE <= a < S.A_MOVE + S.N_TOWNS}


def calm_spin(tb, town):
    """The next spin only moves a Chaos to the Discard mat and spawns a blue Shambler at
    ``town`` (where the Great Old One then goes); nothing is drawn."""
    return tb.set_bag(fear=9).wheel(S.IC_CHAOS, town=town, colour=B, sh_town=town).set_draws(0)


def error_of(overrides):
    with pytest.raises(RulesError) as info:
        GAME.configure(overrides, None)
    return str(info.value)


# ---- TEC-MV-1: "Move 2 Town Cards" ---------------------------------------------------------
def test_TEC_MV_1_the_text_moves_exactly_the_site_up_to():
    """TEC-MV-1 "1 Fear Tentacle - Move 2 Town Cards": the default (the text read literally)
    moves exactly 1, 2 or 3 cards; ``move_distance = "up_to"`` (the publisher's rules site)
    any number up to them.  The old switch ``move_exact`` still works as an override."""
    assert config().rules["move_distance"] == "exact"
    assert config().rules.entries["move_distance"].source == "rulebook"
    want = {"exact": ({1, 4}, {2, 3}, {2, 3}), "up_to": ({1, 4}, {1, 2, 3, 4}, {1, 2, 3, 4})}
    for reading, by_fear in want.items():
        tb = table({**NEUTRAL, "move_distance": reading}, chars=(0, 0), phase=2)
        for fear in (0, 1, 2):
            tb["char0.temp.fear"] = fear
            assert reachable(tb) == by_fear[fear], (reading, fear)
    # phase one, the Great Old One on position 2: exactly two cards from 0 is 3 only
    tb = table({**NEUTRAL, "move_distance": "exact"}, goo=2, chars=(0, 0))
    tb["char0.temp.fear"] = 1
    assert reachable(tb) == {3}
    tb = table({**NEUTRAL, "move_distance": "up_to"}, goo=2, chars=(0, 0))
    tb["char0.temp.fear"] = 1
    assert reachable(tb) == {1, 3, 4}
    # the old key, as an override
    assert GAME.configure({"move_exact": True}, None).params.ip[S.I_MOVE_EXACT] == 1
    assert GAME.configure({"move_exact": False}, None).params.ip[S.I_MOVE_EXACT] == 0
    assert GAME.configure(["move_exact=false"], None).params.ip[S.I_MOVE_EXACT] == 0
    for bad in ({"move_exact": "often"}, {"move_exact": True, "move_distance": "exact"}):
        msg = error_of(bad)
        assert "\n" not in msg and "move_exact" in msg and "move_distance" in msg


# ---- TEC-MV-4: which Page card a move may flip --------------------------------------------
def test_TEC_MV_4_page_flip_passed_or_only_where_the_move_stops():
    """TEC-MV-4 "one Page Card they either moved past or stopped next to" (default); with
    ``page_flip = "stopped"`` (the publisher's rules site) only the card where the move stops
    may be flipped, and a move that stops beside a face-up card asks nothing."""
    for reading, offered in (("passed_or_stopped", {1, 2, NO_FLIP}), ("stopped", {2, NO_FLIP})):
        tb = table({**NEUTRAL, "page_flip": reading}, goo=4, chars=(0, 0))
        tb.move("bag.fear", "char0.temp.fear")  # two cards: 0 -> 2, passing 1
        tb.sp = script([2])
        tb.act(S.A_MOVE + 2)
        flip = tb.asked()[0]
        assert flip.kind == S.D_FLIP and flip.legal == offered, reading
        assert tb["town2.page_state"] == 1 and tb["town1.page_state"] == 0, reading
        assert tb.errors() == 0
    for reading, asked in (("passed_or_stopped", True), ("stopped", False)):
        tb = table({**NEUTRAL, "page_flip": reading}, goo=4, chars=(0, 0))
        tb.call(F_FLIP, 2)  # the destination's card is face up, the passed one face down
        tb.move("bag.fear", "char0.temp.fear")
        tb.sp = script([1])
        tb.act(S.A_MOVE + 2)
        assert bool(tb.asked()) == asked, reading
        assert tb["town1.page_state"] == (1 if asked else 0), reading


# ---- TEC-MV-3 with TEC-SE-5: the forced move in phase two ----------------------------------
def test_TEC_MV_3_forced_move_away_in_phase_two_only_with_the_switch():
    """TEC-MV-3 "you must use an action to move away" and TEC-SE-5 "In Phase Two ... players
    may now move through and occupy the same location": by default the forced move is phase
    one's only; ``forced_move_phases = "both"`` applies it in phase two too, so a player
    starting on the Great Old One's card (where seals are tried) must first leave it."""
    for reading, forced in (("phase_one", False), ("both", True)):
        tb = table({**NEUTRAL, "forced_move_phases": reading}, goo=2, chars=(2, 4), phase=2)
        for t in range(S.N_TOWNS):
            if tb[f"town{t}.page_state"] == 0:
                tb.call(F_FLIP, t)
        calm_spin(tb, 2)  # the Great Old One stays on position 2
        tb.move("disc.mad.fear", "town2.mad.fear")  # collecting would be legal there
        tb.sp = script(then=LAST)
        tb.call(F_PLAY_TURN)
        first = [a for a in tb.asked() if a.kind == S.D_ACTION][0]
        only_moves = all(S.A_MOVE <= a < S.A_MOVE + S.N_TOWNS for a in first.legal)
        assert only_moves == forced, reading
        assert (S.A_COLLECT in first.legal) != forced, reading
        assert tb.errors() == 0
    # phase one is unchanged by the switch
    tb = table({**NEUTRAL, "forced_move_phases": "both"}, goo=2, chars=(2, 4))
    calm_spin(tb, 2)
    tb.sp = script(then=LAST)
    tb.call(F_PLAY_TURN)
    first = [a for a in tb.asked() if a.kind == S.D_ACTION][0]
    assert first.legal == {S.A_MOVE + 1, S.A_MOVE + 3}


def test_TEC_MV_3_forced_move_first_or_by_the_last_action():
    """TEC-MV-3 does not say when the move away is made: the default makes it the turn's
    first action; ``forced_move_when = "any_action"`` lets the player act on the Great Old
    One's card first (collect, here), refuses ending the turn while the move is owed, and
    offers only the moves once the move is the last action the player can take."""
    for reading in ("first", "any_action"):
        tb = table({**NEUTRAL, "forced_move_when": reading, "turn.actions": 2}, goo=2,
                   chars=(2, 4))
        for t in range(S.N_TOWNS):
            if tb[f"town{t}.page_state"] == 0:
                tb.call(F_FLIP, t)
        tb["actions_left"] = 2
        calm_spin(tb, 2)
        tb.move("disc.mad.fear", "town2.mad.fear")
        tb.sp = script([S.A_COLLECT, B], then=LAST)
        tb.call(F_PLAY_TURN)
        acts = [a for a in tb.asked() if a.kind == S.D_ACTION]
        moves = {S.A_MOVE + 1, S.A_MOVE + 3}
        if reading == "first":
            assert acts[0].legal == moves
            assert tb["char0.temp.fear"] == 0  # the collect answer was refused: moved first
        else:
            assert S.A_COLLECT in acts[0].legal and moves <= acts[0].legal
            assert S.A_END not in acts[0].legal
            # the last action: only the moves away (two cards now, with a Fear tentacle; the
            # medium's free ability costs no action)
            assert acts[1].legal == {S.A_MOVE + d for d in (0, 1, 3, 4)} | {S.A_ABILITY}
            assert tb["char0.temp.fear"] == 1  # collected on the Great Old One's card
        first_move = tb.events(S.EV_MOVE)[0]
        assert first_move[2] == 2 and first_move[3] != 2, reading  # away from position 2
        assert tb["must_move"] == 0 and tb.errors() == 0, reading


# ---- a review's third loss (nearest clause TEC-E-2, the losses) -----------------------------
def _all_but_one_shambler_out(tb):
    """Every Shambler but one blue on the Town cards, none on a full track (position 0 keeps
    one space free)."""
    left = {k: tb[f"smat.sh.{k}"] for k in range(3)}
    for t in range(S.N_TOWNS):
        room = tb[f"town{t}.sh_len"] - (1 if t == 0 else 0)
        for k in (2, 1, 0):
            n = min(room, left[k] - (1 if k == B else 0))
            if n > 0:
                tb.move(f"smat.sh.{k}", f"town{t}.sh.{k}", n)
                left[k] -= n
                room -= n
    assert [tb[f"smat.sh.{k}"] for k in range(3)] == [1, 0, 0]
    return tb


def test_TEC_E_2_all_shamblers_on_the_towns_loses_with_the_switch():
    """A review's third loss, "if all the shamblers are placed in the towns" (switch
    ``shambler_loss``, off by default; nearest clause TEC-E-2): the last Shambler leaving the
    mat for a Town card loses the game; off, the game goes on.  A Shambler that overflows a
    track sends the track's Shamblers back to the mat, which is no loss."""
    assert config().rules["shambler_loss"] is False
    assert config().rules.entries["shambler_loss"].source == "public"
    for on, outcome in ((True, S.O_SHAMBLERS), (False, PLAYING)):
        tb = _all_but_one_shambler_out(table({"shambler_loss": on}))
        assert tb["outcome"] == PLAYING
        assert tb.call(F_PLACE_SHAMBLER, 0, B) == B
        assert tb["outcome"] == outcome, on
        assert sum(tb[f"smat.sh.{k}"] for k in range(3)) == 0
        assert tb.errors() == 0
    tb = _all_but_one_shambler_out(table({"shambler_loss": True}))
    tb.move("smat.sh.0", "town0.sh.0")  # position 0's track is full now ...
    tb.move("town1.sh.2", "smat.sh.2")  # ... and one green waits on the mat
    tb.call(F_PLACE_SHAMBLER, 0, 2)  # accursed: position 0's Shamblers go back
    assert tb["outcome"] == PLAYING and tb["town0.sh.0"] == 0
    assert S.OUTCOMES[S.O_SHAMBLERS] == "shamblers"


# ---- setup: the order of steps 10 and 11, and the Page card at the Great Old One -----------
def test_TEC_S_11_town_eldritch_put_out_after_the_setup_spins():
    """TEC-S-11 and the rulebook's order (step 10 the spins, step 11 the tentacles): a
    Shambler Track accursed by a setup spin finds no Eldritch on its Town card to send to the
    Discard mat; it takes a fresh one from the supply, and step 11 then puts one on each
    other Town card.  The box stays whole: 23 Eldritch, 3 in the bag, 5 on the Town cards."""
    short = {f"town.{n}.shambler_track": 1 for n in TOWN_NAMES}
    found = 0
    for seed in range(200):
        tb = Table(params({**short, "players": 4}), seed)
        tb.call(F_INIT, sp=script())
        accursed = [e for e in tb.events(S.EV_ACCURSED) if e[1] == S.ACC_TOWN_SHAMBLER]
        if not accursed:
            continue
        found += 1
        swaps = tb.events(S.EV_ELDRITCH_SWAP)
        assert len(swaps) == len(accursed)
        assert all(int(e[2]) == 0 and int(e[3]) == 1 for e in swaps)  # none out, one fresh
        assert tb["disc.eldritch"] == 0
        assert [tb[f"town{t}.eldritch"] for t in range(5)] == [1] * 5
        assert tb["supply.eldritch"] == 23 - 3 - 5 and tb.bag()["eldritch"] == 3
        assert tb.errors() == 0
        # the old order (switch setup_order): the Town card's Eldritch was out and went to
        # the Discard mat
        old = Table(params({**short, "players": 4, "setup_order": "tentacles_first"}), seed)
        old.call(F_INIT, sp=script())
        assert old["disc.eldritch"] == len(accursed)
        assert old["supply.eldritch"] == 23 - 3 - 5 - len(accursed)
        assert old.errors() == 0
        if found == 3:
            break
    assert found == 3


def test_TEC_S_4_page_card_at_the_great_old_one_flipped_at_setup_with_the_switch():
    """TEC-S-4 "6A. Draw 5 Page Cards, keeping them face-down" (default); with
    ``setup_goo_page = "flipped"`` (a Dutch review) the Page card at the Great Old One's Town
    is revealed when the setup is done (not counted as a move's flip)."""
    for seed in range(4):
        for reading in ("face_down", "flipped"):
            tb = Table(params({"setup_goo_page": reading}), seed)
            tb.call(F_INIT, sp=script())
            g = tb["goo_town"]
            up = [tb[f"town{t}.page_state"] for t in range(5)]
            want = [1 if (reading == "flipped" and t == g) else 0 for t in range(5)]
            assert up == want, (seed, reading)
            assert tb["cnt_flips"] == 0 and tb.errors() == 0


# ---- bad values --------------------------------------------------------------------------
@pytest.mark.parametrize("key,bad", [
    ("move_distance", "far"), ("page_flip", "all"), ("forced_move_phases", "never"),
    ("setup_goo_page", "up"), ("shambler_loss", "maybe"), ("move_distance", 2),
    ("forced_move_when", "last"), ("setup_order", "later")])
def test_TEC_MV_1_bad_switch_values_give_one_line(key, bad):
    """TEC-MV-1 and the other public-reading switches: a value not allowed is refused in one
    line naming the key (never a traceback)."""
    msg = error_of({key: bad})
    assert "\n" not in msg and key in msg
