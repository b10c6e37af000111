"""The Tiny Epic Cthulhu trace (TEC-A-1, TEC-E-4): a turn that ends with actions unused says
so and how many, and every turn ends with one status line (Strength, Pages, portals, and
each character's tentacles and Delirium) that agrees with the game's record."""

# ruff: noqa: N802  (test names carry the clause IDs, e.g. test_TEC_A_1_...)
import re

import numpy as np
import pytest

from simcore.registry import get_game
from simcore.tec import state as S
from simcore.tec import trace

TEC = get_game("tec")


@pytest.fixture(scope="module")
def config():
    return TEC.configure({"players": 2})


def trace_and_record(config, seed, index):
    text = TEC.trace(config, seed, index)
    rec = TEC.run_batch(config, seed, index, 1)[0]
    return text, rec


def test_TEC_E_4_every_turn_ends_with_a_status_line_that_agrees_with_the_record(config):
    for index in range(3):
        text, rec = trace_and_record(config, 3, index)
        status = re.findall(r"^  status after turn (\d+): (.*)$", text, re.M)
        assert [int(t) for t, _ in status] == list(range(1, int(rec["turns"]) + 1))
        last = status[-1][1]
        assert f"{int(rec['portals_sealed'])} of 6 portals sealed" in last
        assert f"({int(rec['page_tokens_placed'])} of 25 Page tokens placed)" in last
        assert f"{int(rec['pages_translated'])} Page card(s) translated" in last
        for _, line in status:  # every character, with its tentacles and Delirium
            chars = line.split("; ")[1:]
            assert len(chars) == 2
            for c in chars:
                assert re.fullmatch(r"\w+: Fear \d+, Rage \d+, Greed \d+, Chaos \d+, "
                                    r"(no Delirium yet|Delirium space \d+ of \d+)\.?", c), c
            assert re.match(r"Strength \d+ of \d+ \(phase (one|two)\)", line)


def test_TEC_A_1_a_turn_ended_with_actions_left_says_how_many(config):
    """The heuristic sometimes stops with actions to spare: the trace names the character and
    the number, which is what the last action of that turn left (three when it took none)."""
    seen = 0
    for index in range(6):
        text = TEC.trace(config, 3, index)
        turns = re.split(r"^Turn \d+ \(phase \d\): ", text, flags=re.M)[1:]
        for turn in turns:
            who = turn.split(".", 1)[0]
            ended = re.search(r"^  (\w+) ends the turn with (\d) action\(s\) unused", turn,
                              re.M)
            left = re.findall(rf"^  action: {who} - .* \((\d) action\(s\) left\)\.$", turn,
                              re.M)
            if ended is None:
                continue
            seen += 1
            assert ended[1] == who
            assert int(ended[2]) == (int(left[-1]) if left else 3)
            assert int(ended[2]) > 0
    assert seen > 0


# ---- what the trace shows of moves that overflow nothing (issue 15, part 5) ----------------
def town_table(name):
    from tec_support import table

    tb = table({"characters": ["medium", "drifter"]}, goo=0, chars=(2, 4))
    tb.set_town_side(2, name)
    return tb


def moved(tb):
    return [tuple(int(x) for x in e[1:7]) for e in tb.events(S.EV_TOWN_MOVE)]


def test_town_actions_log_what_they_move():
    """gather, vent, exchange, barricade, ward and recruit log each piece they move (the
    trace words them), not just the action's name."""
    from tec_support import script

    tb = town_table("lighthouse")  # gather 1
    tb.move("disc.mad.greed", "town4.mad.greed", 2)
    tb.sp = script([4 * 3 + 2])
    tb.act(S.A_TOWN)
    assert moved(tb) == [(0, S.TA_GATHER, 2, 4, -1, 1)]
    tb = town_table("asylum")  # vent 2
    tb.move("bag.fear", "char0.temp.fear", 2)
    tb.sp = script([0, 0])
    tb.act(S.A_TOWN)
    assert moved(tb) == [(0, S.TA_VENT, 0, -1, -1, 1)] * 2
    tb = town_table("market")  # exchange 2
    tb.move("bag.fear", "char0.temp.fear", 2)
    tb.sp = script([0 * 3 + 1, 0 * 3 + 2])
    tb.act(S.A_TOWN)
    assert moved(tb) == [(0, S.TA_EXCHANGE, 0, -1, 1, 1), (0, S.TA_EXCHANGE, 0, -1, 2, 1)]
    tb = town_table("church")  # barricade 1
    tb.move("smat.sh.red", "town2.sh.red")
    tb.sp = script([1])
    tb.act(S.A_TOWN)
    assert moved(tb) == [(0, S.TA_BARRICADE, 1, 2, -1, 1)]
    tb = town_table("museum")  # ward 1
    tb.move("supply.eldritch", "energy", 2)
    tb.act(S.A_TOWN)
    assert moved(tb) == [(0, S.TA_WARD, S.K_ELDRITCH, -1, -1, 1)]
    tb = town_table("docks")  # recruit 1
    tb.act(S.A_TOWN)
    assert moved(tb) == [(0, S.TA_RECRUIT, S.K_CHAOS, -1, -1, 1)]
    # the medium's ability moves like vent, and says it is the ability
    tb = town_table("docks")
    tb.move("bag.rage", "char0.temp.rage")
    tb.sp = script([1])
    tb.act(S.A_ABILITY)
    assert moved(tb) == [(0, -1, 1, -1, -1, 1)]
    words = [trace.town_move_words(r[1], r[2], r[3], r[4], r[5], "medium", lambda t: f"t{t}")
             for r in ((0, S.TA_GATHER, 2, 4, -1, 1), (0, -1, 1, -1, -1, 1),
                       (0, S.TA_WARD, S.K_ELDRITCH, -1, -1, 1))]
    assert words == ["medium gathers a Greed tentacle from t4.",
                     "medium (the medium's ability) moves a Rage tentacle from its mat to the "
                     "Discard mat.",
                     "medium wards: 1 Eldritch tentacle(s) from the Energy Track back to the "
                     "bag."]


def test_gains_that_overflow_nothing_are_logged():
    """A tentacle placed on a track that is not full is logged with the track's new count
    (before, only an accursed track was)."""
    from tec_support import F_ADD_ENERGY, F_ADD_TEMP, F_ADD_TOWN_MADNESS, F_GIVE_CHAOS

    tb = town_table("docks")
    tb.move("bag.greed", "char0.temp.greed")  # (as a draw takes it from the bag)
    tb["char0.temp.greed"] -= 1
    tb.call(F_ADD_TEMP, 0, 2)
    tb["supply.chaos"] -= 1
    tb.call(F_GIVE_CHAOS, 1)
    tb["supply.eldritch"] -= 1
    tb.call(F_ADD_ENERGY)
    tb["bag.fear"] -= 1
    tb.call(F_ADD_TOWN_MADNESS, 3, 0)
    gains = [tuple(int(x) for x in e[1:6]) for e in tb.events(S.EV_GAIN)]
    cap, chaos_cap = int(tb.ip[S.I_TEMP_CAP]), int(tb.ip[S.I_CHAOS_CAP])
    assert gains == [(S.GAIN_TEMPERAMENT, 0, 2, 1, cap), (S.GAIN_CHAOS, 1, -1, 1, chaos_cap),
                     (S.GAIN_ENERGY, -1, -1, 1, tb["energy_len"]),
                     (S.GAIN_TOWN_MADNESS, 3, 0, 1, tb["town3.mad_len"])]
    assert tb.errors() == 0


def test_TEC_ACC_3_the_eldritch_swap_is_logged():
    """A Town's Shambler Track accursed sends its Eldritch tentacle to the Discard mat and
    takes a fresh one from the supply: the trace says so."""
    from tec_support import F_PLACE_SHAMBLER

    tb = town_table("docks")
    for _ in range(tb["town1.sh_len"]):
        tb.move("smat.sh.blue", "town1.sh.blue")
    tb.call(F_PLACE_SHAMBLER, 1, 0)
    swaps = [tuple(int(x) for x in e[1:4]) for e in tb.events(S.EV_ELDRITCH_SWAP)]
    assert swaps == [(1, 1, 1)]
    assert tb.errors() == 0


def test_a_search_says_what_it_considered_before_each_answer():
    """Played by search, every decision the search made is preceded by a line with its top
    actions (times tried, mean result) and the one chosen; the trace still plays the batch's
    game."""
    searching = TEC.configure({"players": 2, "strategy.iterations": 12, "strategy.depth": 4,
                               "strategy.show": 2}, "mcts")
    text = TEC.trace(searching, 3, 0)
    lines = [line for line in text.splitlines() if line.startswith("  search (")]
    assert lines, text[:2000]
    first = lines[0]
    assert re.match(r"  search \(12 iterations\) for \S+.* on \w+: .+ tried \d+ times, mean "
                    r"result \d\.\d{3}.*; chose .+\.$", first), first
    events, rec = TEC.trace_events(searching, 3, 0)
    assert len(lines) == int(rec[TEC.record_fields.index("searches")])
    assert np.array_equal(rec, TEC.run_batch(searching, 3, 0, 1).view(np.int64))
