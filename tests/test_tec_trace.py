"""The Tiny Epic Cthulhu trace (TEC-A-1, TEC-E-4): a turn that ends with actions unused says
so and how many, and every turn ends with one status line (Strength, Pages, portals, and
each character's tentacles and Delirium) that agrees with the game's record."""

# ruff: noqa: N802  (test names carry the clause IDs, e.g. test_TEC_A_1_...)
import re

import pytest

from simcore.registry import get_game

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
