"""Sticky Cthulhu as a model: symmetry between equal players, skill ordering, and the
direction of the Curse and roller-advantage effects.  Fixed seeds, so deterministic."""

import numpy as np
import pytest
from scipy import stats

from experiments.stats import Z95, wilson


def seat_counts(recs, players):
    return np.bincount(recs["winner"][recs["winner"] >= 0], minlength=players)[:players]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_equal_skills_give_every_seat_an_equal_chance(sticky, players):
    """Every seat's Wilson interval holds 1/players, and a chi-square test over the seats
    finds no difference.  The intervals are simultaneous (Bonferroni: each at 1 - 0.001 /
    players), so a symmetric game fails the check at about one seed in a thousand; a plain
    95% interval per seat fails somewhere for about 1 - 0.95^k of seeds (at seed 1, 6
    players, seat 0 has 17.23%, 16.71-17.76).  A million games at seed 1 put every seat
    within 0.1 point of 1/players at 3, 4 and 6 players."""
    config = sticky.configure({"players": players})
    n = 20_000
    recs = sticky.run_batch(config, 1, 0, n)
    assert (recs["outcome"] == 0).all()
    counts = seat_counts(recs, players)
    assert counts.sum() == n
    z = stats.norm.isf(0.001 / players / 2)
    for seat in range(players):
        r = wilson(int(counts[seat]), n, z=z)
        assert r.lo <= 1 / players <= r.hi, f"seat {seat}: {r}"
    assert stats.chisquare(counts).pvalue > 0.001


@pytest.mark.parametrize("players", [3, 5])
def test_first_player_has_no_edge_without_roller_advantage(sticky, players):
    """The last seat rolls first, but with roller_advantage_s = 0 rolling gives nothing.  A
    99.9% interval (a 95% one fails for one seed in twenty: at seed 102, 3 players, the first
    roller has 32.48%, 31.83-33.13; a million games give 33.40% at 3 players and 20.04% at
    5)."""
    config = sticky.configure({"players": players, "first_player": players - 1})
    n = 20_000
    counts = seat_counts(sticky.run_batch(config, 102, 0, n), players)
    r = wilson(int(counts[players - 1]), n, z=3.29)
    assert r.lo <= 1 / players <= r.hi


@pytest.mark.parametrize("curses", [False, True])
def test_expert_beats_three_beginners_more_than_a_quarter_of_the_time(sticky, curses):
    config = sticky.configure({"seats": ["expert", "beginner", "beginner", "beginner"],
                               "curses": curses})
    n = 8_000
    counts = seat_counts(sticky.run_batch(config, 103, 0, n), 4)
    expert = wilson(int(counts[0]), n)
    assert expert.lo > 0.25
    for seat in (1, 2, 3):
        assert wilson(int(counts[seat]), n).hi < 0.25
    # the ordering holds seat by seat: the expert is not seat 0 by accident
    config = sticky.configure({"seats": ["beginner", "beginner", "expert", "beginner"],
                               "curses": curses})
    counts = seat_counts(sticky.run_batch(config, 104, 0, n), 4)
    assert wilson(int(counts[2]), n).lo > 0.25


def test_skill_ladder(sticky):
    """Expert > average > beginner, head to head."""
    n = 8_000
    for strong, weak in (("expert", "average"), ("average", "beginner")):
        config = sticky.configure({"players": 2, "seats": [strong, weak]})
        counts = seat_counts(sticky.run_batch(config, 105, 0, n), 2)
        assert wilson(int(counts[0]), n).lo > 0.5, (strong, weak)


def test_curses_lengthen_games(sticky):
    n = 10_000
    plain = sticky.run_batch(sticky.configure({"curses": False}), 106, 0, n)["turns"]
    cursed = sticky.run_batch(sticky.configure({"curses": True}), 106, 0, n)["turns"]
    diff = cursed.mean() - plain.mean()
    se = np.sqrt(cursed.var(ddof=1) / n + plain.var(ddof=1) / n)
    assert diff - Z95 * se > 0
    # and in playing time, not only in turns
    plain_ms = sticky.run_batch(sticky.configure({"curses": False}), 106, 0, n)["game_ms"]
    cursed_ms = sticky.run_batch(sticky.configure({"curses": True}), 106, 0, n)["game_ms"]
    assert cursed_ms.mean() > plain_ms.mean()


def roller_share(sticky, advantage, n=6_000):
    recs = sticky.run_batch(sticky.configure({"turn.roller_advantage_s": advantage}), 107, 0, n)
    played = int(recs["turns"].sum() - recs["void_turns"].sum())
    # a 99.9% interval: a 95% one would fail for one seed in twenty with no effect at all
    return wilson(int(recs["roller_wins"].sum()), played, z=3.29)


def test_roller_advantage_raises_roller_wins(sticky):
    none = roller_share(sticky, 0.0)
    assert none.lo <= 0.25 <= none.hi  # with no head start the roller is any of four seats
    some = roller_share(sticky, 0.5)
    more = roller_share(sticky, 2.0)
    assert some.lo > none.hi
    assert more.lo > some.hi


# ---- by_seat: one table, several strategies ---------------------------------------------------
def test_by_seat_with_every_seat_honest_plays_the_honest_games(sticky):
    """by_seat hands each decision to the seat's own strategy: all honest is honest."""
    honest = sticky.run_batch(sticky.configure({"curses": True}, "honest"), 4, 0, 300)
    mixed = sticky.run_batch(sticky.configure({"curses": True}, "by_seat"), 4, 0, 300)
    assert np.array_equal(honest, mixed)


def test_by_seat_gives_each_seat_its_strategy(sticky):
    """With seat 2 a cheater (ignores every Curse it can) and the rest honest, only seat 2
    ever ignores a Curse, and a spoiler in seat 1 is the only one to detach on purpose."""
    from simcore.sticky import state as S
    from simcore.sticky.playout import trace_game

    config = sticky.configure({"curses": True, "strategy.seat_2": "cheater",
                               "strategy.max_catch_p": 1.0, "strategy.seat_1": "spoiler",
                               "strategy.block_at": 100, "components.investigators": 10,
                               "profiles.average.notice_p": 1.0}, "by_seat")
    assert config.strategy.param_dict()["seat_2"] == "cheater"
    p = config.params
    ignored, blocked = set(), set()
    for index in range(40):
        rec = np.zeros(S.R_SIZE, dtype=np.int64)
        ev = np.zeros((50_000, S.EV_WIDTH), dtype=np.int64)
        n = trace_game(p.fp, p.ip, p.skill, p.curse, p.phit, config.strategy.fn,
                       config.strategy.values, 8, index, rec, ev)
        for e in ev[:n]:
            if e[0] == S.EV_CURSE_CHOICE and e[3] == 1:
                ignored.add(int(e[1]))
            if e[0] == S.EV_DETACH and e[3] == 0:  # detached with an Investigator, noticed
                blocked.add(int(e[1]))
    assert ignored == {2}
    assert blocked == {1}


def test_by_seat_one_cheater_at_an_honest_table(sticky):
    """A paired question by_seat answers: does ignoring Curses pay for one seat?  With the
    default catch chances it does not (the seat loses tokens when caught)."""
    base = sticky.configure({"curses": True}, "by_seat")
    cheat = sticky.configure({"curses": True, "strategy.seat_0": "cheater",
                              "strategy.max_catch_p": 1.0}, "by_seat")
    n = 6000
    a = sticky.run_batch(base, 1, 0, n)
    b = sticky.run_batch(cheat, 1, 0, n)
    assert b["curse_cheats"].sum() > 0 and a["curse_cheats"].sum() == 0
    assert (b["winner"] == 0).mean() < (a["winner"] == 0).mean()
