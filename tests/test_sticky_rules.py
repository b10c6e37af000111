"""Sticky Cthulhu, one test per rule clause of tests/clauses/sticky.md.

Where a clause can be checked on a hand-made table, the tests call the njit rule functions of
simcore/sticky/rules.py directly (a seat with ``aim_sd_cm = 0`` always hits the centre of its
target, so a race's outcome is forced).  Clauses only visible over a whole game are checked on
the trace events (``EV_*``) of replayed playouts, or on the records of small runs.
"""
# ruff: noqa: N802  (test names carry the clause IDs, e.g. test_STK_T_5_...)

import re
from collections import Counter, deque
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest
from numba import njit
from scipy import stats

from experiments.stats import wilson
from simcore.kernels import new_rng, rng_load, rng_seed
from simcore.rules_data import RulesError
from simcore.sticky.loader import curse_names
from simcore.sticky.playout import rank_seats, tangle_first_throws, trace_game
from simcore.sticky.rules import (
    INF,
    OFF,
    RACE_GAVE_UP,
    RACE_LOST,
    RACE_MISHAP,
    RACE_SCORED,
    ZIG_F,
    ZIG_K,
    ZIG_R,
    ZIG_W,
    bit,
    caught_ignoring,
    creature_index,
    draw_curse,
    exponential_zig_v,
    first_throw_time,
    investigator_gap2,
    kind_of,
    n_tokens,
    place_token,
    race,
    roll_dice,
    setup_table,
    shake_off,
    stuck_mask,
)
from simcore.sticky.state import (
    A_DETACH,
    CU_AIM,
    CU_CATCH,
    CU_DELAY,
    CU_EXTRA,
    CU_TIME,
    D_INVESTIGATOR,
    EV_CURSE_CHOICE,
    EV_CURSE_DRAW,
    EV_CURSE_FREE,
    EV_DETACH,
    EV_GIVE_UP,
    EV_NOTICE,
    EV_PENALTY,
    EV_PUT_BACK,
    EV_ROLL,
    EV_SETUP,
    EV_SHAKE,
    EV_TANGLE,
    EV_THROW,
    EV_TIE,
    EV_TOKEN,
    EV_VOID,
    EV_WIDTH,
    EV_WIN,
    F_CENTRE,
    F_DEPTH,
    F_REACH,
    F_RETHROW_LO,
    F_RETHROW_SPAN,
    F_ROLL_S,
    F_SHAKE_S,
    F_TANGLE_P,
    F_TANGLE_S,
    F_TANGLE_WINDOW,
    F_TOKEN_R,
    F_WIDTH,
    I_INVESTIGATORS,
    I_MAX_THROWS,
    I_TANGLES,
    LEGAL_SIZE,
    MAX_SEATS,
    MAX_TOKENS,
    NO_CURSE,
    O_CAP,
    O_WIN,
    R_CONTACTS,
    R_GAME_MS,
    R_INV_HITS,
    R_OUTCOME,
    R_SHAKES,
    R_SIZE,
    R_TANGLES,
    R_TURNS,
    R_VOID,
    SK_AIM,
    SK_DETACH,
    V_KIND,
    V_SIZE,
)
from strategies.sticky import honest

RULEBOOK = Path(__file__).resolve().parent.parent / "docs" / "rulebooks" / "sticky-cthulhu.txt"
EV_ROWS = 50_000
ALPHA = 1e-3


# ---- helpers ----------------------------------------------------------------------------------
@njit(cache=True)
def always_detach(view, legal, params, rng):
    """Detaches at once with an Investigator aboard; the first choice otherwise."""
    if int(view[V_KIND]) == D_INVESTIGATOR:
        return A_DETACH
    return 0


def configure(sticky, overrides=None, strategy=None):
    return sticky.configure(overrides, strategy)


class Board:
    """A hand-made table: every token off the table unless put somewhere."""

    def __init__(self, params):
        self.params = params
        self.px = np.full(MAX_TOKENS, OFF)
        self.py = np.full(MAX_TOKENS, OFF)

    def put(self, token, x, y):
        self.px[token] = x
        self.py[token] = y
        return token

    @classmethod
    def random(cls, params, seed):
        b = cls(params)
        setup_table(new_rng(seed, 0), b.px, b.py, params.fp, params.ip)
        return b


class RaceOut(NamedTuple):
    t: float
    result: int
    caught: int
    inv_hits: int
    shakes: int
    events: np.ndarray
    contacts: int = 0


def run_race(config, board, target, seat=0, t=0.0, cursed=NO_CURSE, best=INF, decide=honest,
             seed=0, index=0, any_kind=-1, max_throws=None, tokens=None):
    """One seat's race on ``board``, with its own stream (seed, index)."""
    p = config.params
    view = np.zeros(V_SIZE)
    legal = np.zeros(LEGAL_SIZE, dtype=np.uint8)
    if tokens is None:
        tokens = np.zeros(MAX_SEATS, dtype=np.int64)
    curse_of = np.full(MAX_SEATS, NO_CURSE, dtype=np.int64)
    counters = np.zeros(3, dtype=np.int64)
    ev = np.zeros((4096, EV_WIDTH), dtype=np.int64)
    evn = np.zeros(1, dtype=np.int64)
    if max_throws is None:
        max_throws = int(p.ip[I_MAX_THROWS])
    gap2 = float(investigator_gap2(board.px, board.py, int(target), p.fp, p.ip))
    t_end, res, caught = race(
        new_rng(seed, index), decide, config.strategy.values, view, legal, board.px, board.py,
        int(target), int(any_kind), int(seat), float(t), int(cursed), tokens, curse_of, p.skill,
        p.curse, p.phit, float(best), gap2, counters, ev, evn, p.fp, p.ip, int(max_throws))
    return RaceOut(t_end, res, caught, int(counters[0]), int(counters[1]), ev[:evn[0]].copy(),
                   int(counters[2]))


def replay(config, seed, index):
    """Playout ``index`` of run ``seed`` with its trace events."""
    p = config.params
    rec = np.zeros(R_SIZE, dtype=np.int64)
    ev = np.zeros((EV_ROWS, EV_WIDTH), dtype=np.int64)
    n = trace_game(p.fp, p.ip, p.skill, p.curse, p.phit, config.strategy.fn,
                   config.strategy.values, int(seed), int(index), rec, ev)
    assert n < EV_ROWS, "trace buffer full"
    return rec, ev[:n]


def split_turns(ev):
    """[(roll event, [events of the turn])] in order."""
    turns = []
    for row in ev:
        if row[0] == EV_ROLL:
            turns.append((row, []))
        elif turns:
            turns[-1][1].append(row)
    return turns


def turn_winner(events):
    """(seat, scored) of the seat that ended the turn, or None for a void turn.  Seats are
    raced one after another and a detach is logged only when it does not lose to the best so
    far, so the last detach logged is the winner's, unless several tied (EV_TIE names the
    seat the tie went to)."""
    detaches = [e for e in events if e[0] == EV_DETACH]
    if not detaches:
        return None
    ties = [e for e in events if e[0] == EV_TIE]
    if ties:
        seat = int(ties[-1][1])
        mine = [e for e in detaches if e[1] == seat and e[2] == detaches[-1][2]]
        return seat, int(mine[-1][3])
    return int(detaches[-1][1]), int(detaches[-1][3])


def distances(px, py, n):
    d = np.hypot(px[:n, None] - px[None, :n], py[:n, None] - py[None, :n])
    return d[np.triu_indices(n, 1)]


# ---- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize("overrides", [None, {"table.width_cm": 40.0, "table.depth_cm": 30.0}])
def test_STK_S_1_setup_no_overlap_and_investigators_one_per_strip(sticky, overrides):
    """STK-S-1: every token on the table, none overlapping; Investigators spread evenly (one
    in each vertical strip), Creatures anywhere."""
    p = configure(sticky, overrides).params
    n_inv = int(p.ip[I_INVESTIGATORS])
    n_tok = n_tokens(p.ip)
    assert (n_inv, n_tok) == (5, 35)
    r, width, depth = p.fp[F_TOKEN_R], p.fp[F_WIDTH], p.fp[F_DEPTH]
    strip = width / n_inv
    creature_x = []
    for seed in range(150):
        b = Board.random(p, seed)
        px, py = b.px[:n_tok], b.py[:n_tok]
        assert distances(px, py, n_tok).min() >= 2 * r - 1e-9
        assert (px >= r - 1e-9).all() and (px <= width - r + 1e-9).all()
        assert (py >= r - 1e-9).all() and (py <= depth - r + 1e-9).all()
        for j in range(n_inv):
            assert j * strip + r - 1e-9 <= px[j] <= (j + 1) * strip - r + 1e-9
        creature_x.extend(px[n_inv:])
        assert (b.px[n_tok:] == OFF).all()  # rows beyond the tokens are untouched
    # Creatures are not confined to strips: they cover the whole width
    hist = np.histogram(creature_x, bins=5, range=(0, width))[0]
    assert hist.min() > 0.12 * len(creature_x)


def test_STK_S_1_setup_is_random(sticky):
    """STK-S-1: 'at random' - different playouts get different tables."""
    p = configure(sticky).params
    a, b = Board.random(p, 1), Board.random(p, 2)
    assert not np.allclose(a.px[:35], b.px[:35])
    c = Board.random(p, 1)
    assert np.array_equal(a.px, c.px) and np.array_equal(a.py, c.py)


def test_STK_S_2_curse_pile_shuffled_each_playout(sticky):
    """STK-S-2: with the optional rule the 12 Curse cards form a shuffled pile: the first
    draws of a game are distinct cards, and the top card varies from game to game."""
    config = configure(sticky, {"curses": True, "players": 6})
    n_cards = len(config.params.curse_names)
    assert n_cards == 12
    tops = []
    orders = set()
    for index in range(240):
        _, ev = replay(config, 3, index)
        drawn = [int(e[2]) for e in ev if e[0] == EV_CURSE_DRAW]
        returned = [int(e[3]) for e in ev if e[0] == EV_CURSE_DRAW]
        assert drawn, "every game awards tokens, so Curses are drawn"
        # until a returned card comes back round, every draw is a new card of the pile
        fresh = drawn[:n_cards]
        assert len(set(fresh)) == len(fresh)
        tops.append(drawn[0])
        orders.add(tuple(drawn[:3]))
        assert all(c == NO_CURSE or 0 <= c < n_cards for c in returned)
    counts = np.bincount(tops, minlength=n_cards)
    assert stats.chisquare(counts).pvalue > ALPHA
    assert len(orders) > 200
    # without the optional rule nobody draws a Curse
    _, ev = replay(configure(sticky, {"players": 6}), 3, 0)
    assert not (ev[:, 0] == EV_CURSE_DRAW).any()


def test_STK_S_3_one_tentacle_per_player(sticky):
    """STK-S-3: each player needs a sticky tentacle (8 in the box); every seat races with its
    own tentacle, and seats beyond the player count hold nothing."""
    with pytest.raises(RulesError, match="players.*tentacles"):
        configure(sticky, {"players": 6, "components.tentacles": 5})
    config = configure(sticky, {"players": 5, "components.tentacles": 5})
    recs = sticky.run_batch(config, 1, 0, 300)
    assert set(np.unique(recs["winner"])) == set(range(5))
    for s in range(5, MAX_SEATS):
        assert (recs[f"tokens_{s}"] == 0).all()


@pytest.mark.parametrize("first", [0, 2])
def test_STK_S_4_first_player_holds_the_dice(sticky, first):
    """STK-S-4: the first player rolls the first turn."""
    config = configure(sticky, {"first_player": first})
    for index in range(20):
        _, ev = replay(config, 5, index)
        rolls = ev[ev[:, 0] == EV_ROLL]
        assert rolls[0, 1] == 1 and rolls[0, 2] == first
    with pytest.raises(RulesError, match="first_player"):
        configure(sticky, {"first_player": 4})


# ---- turn -------------------------------------------------------------------------------------
@njit(cache=True)
def roll_many(rng, ip, n):
    out = np.empty((n, 4), dtype=np.int64)
    for i in range(n):
        kind, colour, rerolls, face = roll_dice(rng, ip)
        out[i, 0] = kind
        out[i, 1] = colour
        out[i, 2] = rerolls
        out[i, 3] = face
    return out


def test_STK_T_1_dice_designate_exactly_one_creature(sticky):
    """STK-T-1: the Creature die names the kind, the Colour die the colour; exactly one token
    matches.  The Colour die has six faces for five colours, blue on two (the default,
    public reading): blue Creatures are designated twice as often as each other colour."""
    config = configure(sticky)
    p = config.params
    assert config.rules["sixth_colour_face"] == "colour"
    assert config.rules.entries["sixth_colour_face"].source == "public"
    assert config.rules["components.sixth_face_colour"] == "blue"
    blue = config.rules["components.colour_names"].index("blue")
    n = 120_000
    rolls = roll_many(new_rng(61, 0), p.ip, n)
    kinds, colours, rerolls, faces = rolls.T
    assert stats.chisquare(np.bincount(kinds, minlength=6)).pvalue > ALPHA
    assert stats.chisquare(np.bincount(faces, minlength=6)).pvalue > ALPHA
    assert kinds.max() == 5 and faces.max() == 5 and (rerolls == 0).all()
    assert (colours[faces < 5] == faces[faces < 5]).all() and (colours[faces == 5] == blue).all()
    expected = np.full(5, 1 / 6)
    expected[blue] = 2 / 6
    assert stats.chisquare(np.bincount(colours, minlength=5), expected * n).pvalue > ALPHA
    # each (kind, colour) is exactly one Creature token, and every Creature is reachable
    tokens = {creature_index(k, c, p.ip) for k in range(6) for c in range(5)}
    assert tokens == set(range(5, 35))
    assert all(kind_of(creature_index(k, c, p.ip), p.ip) == k
               for k in range(6) for c in range(5))
    assert kind_of(0, p.ip) == -1 and kind_of(4, p.ip) == -1  # Investigators
    # the doubled colour is the rules data's: another name, another colour
    red = configure(sticky, {"components.sixth_face_colour": "red"}).params
    rolls = roll_many(new_rng(61, 0), red.ip, 6000)
    assert (rolls[rolls[:, 3] == 5, 1] == 2).all()
    with pytest.raises(RulesError, match="sixth_face_colour.*'teal' names none of the 5 colours"):
        configure(sticky, {"components.sixth_face_colour": "teal"})


def test_STK_T_1_sixth_face_rolled_again_reading(sticky):
    """STK-T-1, the 'reroll' reading of the Colour die's sixth face (the one before the
    published review): rolled again, so each colour is equally likely."""
    p = configure(sticky, {"sixth_colour_face": "reroll"}).params
    n = 120_000
    rolls = roll_many(new_rng(61, 0), p.ip, n)
    colours, rerolls = rolls[:, 1], rolls[:, 2]
    assert colours.min() == 0 and colours.max() == 4 and (rolls[:, 3] < 5).all()
    assert stats.chisquare(np.bincount(colours, minlength=5)).pvalue > ALPHA
    # rerolls of the sixth face: geometric, P(k) = (1/6)^k * 5/6
    obs = np.bincount(rerolls, minlength=4)[:4].astype(float)
    obs[3] += (rerolls >= 4).sum()
    probs = np.array([5 / 6, 5 / 36, 5 / 216, 1 / 216])
    assert stats.chisquare(obs, probs * n).pvalue > ALPHA


def test_STK_T_1_sixth_face_any_colour_reading(sticky):
    """STK-T-1, the 'any' reading of the Colour die's sixth face: any colour of the kind."""
    p = configure(sticky, {"sixth_colour_face": "any"}).params
    n = 60_000
    rolls = roll_many(new_rng(61, 1), p.ip, n)
    assert (rolls[:, 2] == 0).all()
    assert set(np.unique(rolls[:, 1])) == {-1, 0, 1, 2, 3, 4}
    assert ((rolls[:, 1] == -1) == (rolls[:, 3] == 5)).all()
    assert stats.binomtest(int((rolls[:, 1] == -1).sum()), n, 1 / 6).pvalue > ALPHA


def roll_trace(config, rolls):
    """The trace lines of hand-made Roll events (turn, roller, kind, colour, rerolls[,
    Colour die face])."""
    from simcore.sticky.trace import format_events

    ev = np.zeros((len(rolls) + 1, EV_WIDTH), dtype=np.int64)
    for i, roll in enumerate(rolls):
        ev[i, :1 + len(roll)] = (EV_ROLL, *roll)
    ev[-1, :3] = (EV_WIN, 0, len(rolls))
    rec = np.zeros(R_SIZE, dtype=np.int64)
    rec[R_TURNS] = len(rolls)
    text = format_events(ev, rec, config.params, 1, 0, "honest")
    return [line for line in text.splitlines() if line.startswith("Turn ")]


def test_STK_T_1_trace_names_colours_and_the_sixth_face(sticky):
    """STK-T-1 in a trace: colours and Creature kinds by their names in the rules data
    (``components.colour_names``, ``components.creature_names``), and the Colour die's
    sixth face as its reading (sixth_colour_face) has it."""
    config = configure(sticky)
    assert config.rules["components.colour_names"] == ["green", "blue", "red", "yellow",
                                                       "purple"]
    lines = roll_trace(config, [(1, 0, 1, 2, 0, 2), (2, 1, 5, 0, 1, 0), (3, 2, 0, 4, 3, 4),
                                (4, 3, 2, -1, 0, 5), (5, 0, 1, 1, 0, 5)])
    assert lines[0] == "Turn 1: seat 0 rolls the red Mi-Go."
    assert lines[1] == ("Turn 2: seat 1 rolls the green Cat of Ulthar (the Colour die showed "
                        "the sixth face once and was rolled again).")
    assert lines[2] == ("Turn 3: seat 2 rolls the purple Nightgaunt (the Colour die showed "
                        "the sixth face 3 times and was rolled again).")
    assert lines[3] == ("Turn 4: seat 3 rolls Spawn of Shub-Niggurath and the Colour die shows "
                        "the sixth face: any Spawn of Shub-Niggurath counts.")
    assert lines[4] == ("Turn 5: seat 0 rolls the blue Mi-Go (the Colour die's sixth face, "
                        "also blue).")
    # other names, and a colour beyond the list shown by number
    config = configure(sticky, {"components.creature_colours": 6, "sixth_colour_face": "reroll",
                                "components.colour_die_faces": 8,
                                "components.colour_names": ["ink", "bone"],
                                "components.creature_names": ["Shoggoth", "Byakhee"]})
    lines = roll_trace(config, [(1, 0, 1, 1, 2), (2, 0, 1, 5, 0), (3, 0, 4, 0, 0)])
    assert lines[0] == ("Turn 1: seat 0 rolls the bone Byakhee (the Colour die showed a face "
                        "with no colour 2 times and was rolled again).")
    assert lines[1] == "Turn 2: seat 0 rolls the colour 6 Byakhee."
    assert lines[2] == "Turn 3: seat 0 rolls the ink Creature kind 5."  # beyond the names
    # a real game's trace uses the names too
    text = sticky.trace(configure(sticky), 7, 0)
    rolled = re.findall(r"^Turn \d+: seat \d rolls the (\w+) ", text, re.M)
    assert rolled and set(rolled) <= {"green", "blue", "red", "yellow", "purple"}
    assert "colour 1" not in text

def test_STK_T_2_sequential_races_pick_the_same_winner_as_simultaneous_ones(sticky):
    """STK-T-2: all players try at once.  Seats are simulated one after another in order of
    their first throw, each cut short once it cannot beat the best finish so far; that must
    give the same winner and finish time as racing every seat to the end."""
    config = configure(sticky, {"players": 4})
    p = config.params
    board = Board.random(p, 8)
    checked_cut = 0
    for trial in range(40):
        target = creature_index(trial % 6, (trial // 6) % 5, p.ip)
        starts = [first_throw_time(new_rng(trial, 100 + s), s, s == 0, NO_CURSE, p.skill,
                                   p.curse, p.fp) for s in range(4)]
        alone = [run_race(config, board, target, seat=s, t=starts[s], seed=trial,
                          index=s).t for s in range(4)]
        best, winner = INF, -1
        for s in sorted(range(4), key=starts.__getitem__):
            if starts[s] >= best:
                checked_cut += 1
                break
            out = run_race(config, board, target, seat=s, t=starts[s], best=best, seed=trial,
                           index=s)
            if out.t < best:
                best, winner = out.t, s
            else:
                assert out.result == RACE_LOST and out.t == INF
                checked_cut += 1
        assert winner == int(np.argmin(alone))
        assert best == min(alone)
    assert checked_cut > 0


def test_STK_T_2_every_player_throws_in_the_same_turn(sticky):
    """STK-T-2: throws of several seats interleave within one turn; the turn goes to the
    seat that finished first, whoever rolled."""
    config = configure(sticky, {"players": 4})
    multi = 0
    n_turns = 0
    winners_not_roller = 0
    for index in range(20):
        _, ev = replay(config, 9, index)
        for roll, events in split_turns(ev):
            n_turns += 1
            seats = {int(e[1]) for e in events if e[0] == EV_THROW}
            multi += len(seats) > 1
            w = turn_winner(events)
            detaches = [int(e[2]) for e in events if e[0] == EV_DETACH]
            assert w is not None
            assert detaches[-1] == min(detaches)
            winners_not_roller += w[0] != roll[2]
    assert multi > 0.8 * n_turns
    assert winners_not_roller > 0.5 * n_turns


def test_STK_T_2_roller_head_start(sticky):
    """STK-T-2 with turn.roller_advantage_s: only the roller's reaction time is shortened."""
    p = configure(sticky, {"turn.roller_advantage_s": 0.5}).params
    for i in range(50):
        plain = first_throw_time(new_rng(i, 0), 1, False, NO_CURSE, p.skill, p.curse, p.fp)
        roller = first_throw_time(new_rng(i, 0), 1, True, NO_CURSE, p.skill, p.curse, p.fp)
        assert roller == pytest.approx(max(plain - 0.5, 0.0), abs=1e-12)
        assert plain >= p.skill[1, 0]  # never below the profile's minimum reaction time


def test_STK_T_2_the_first_to_finish_wins_whatever_the_seat_order(sticky):
    """STK-T-2: all players throw at once, so the turn goes to whoever finishes first,
    whatever the order of the seats from the roller.  Constant times and sure hits: seat 0
    (the first roller) throws at 0.5 s and detaches by 1.4 s, seat 1 throws at 2 s, seat 2
    at 0.6 s and detaches by 0.7 s.  Seat 2 ends every turn and wins 5-0, including the
    first, which seat 0 rolls (racing seats in the roller's order would stop at seat 1,
    which cannot beat 1.4 s, and give the turn to seat 0)."""
    profile = {"beginner": (2.0, 0.9), "average": (0.6, 0.1), "expert": (0.5, 0.9)}
    over = {"players": 3, "seats": ["expert", "beginner", "average"], "first_player": 0,
            "components.investigators": 0, "tangles": False}
    for name, (react, detach) in profile.items():
        over.update({f"profiles.{name}.reaction_min_s": react,
                     f"profiles.{name}.reaction_mean_s": react,
                     f"profiles.{name}.detach_s": detach, f"profiles.{name}.aim_sd_cm": 0.0})
    config = configure(sticky, over)
    recs = sticky.run_batch(config, 1, 0, 50)
    assert (recs["winner"] == 2).all() and (recs["turns"] == 5).all()
    assert (recs["tokens_2"] == 5).all() and (recs["tokens_0"] == 0).all()
    assert (recs["roller_wins"] == 4).all()  # every turn but the first, which seat 0 rolled
    rec, ev = replay(config, 1, 0)
    first = split_turns(ev)[0]
    assert first[0][2] == 0 and turn_winner(first[1]) == (2, 1)


@njit(cache=True)
def zig_sample(seed, n, mean):
    rng = np.empty(4, dtype=np.uint64)
    rng_seed(rng, seed, 0)
    st = rng_load(rng)
    out = np.empty(n)
    for i in range(n):
        out[i], st = exponential_zig_v(st, mean)
    return out


def test_STK_T_2_reaction_time_tails_are_exponential(sticky):
    """STK-T-2: a reaction time is reaction_min_s plus an exponential tail of mean
    reaction_mean_s - reaction_min_s, drawn by the ziggurat (exponential_zig_v): the law is
    the exponential's (KS, mean, variance, the tail beyond the ziggurat's base layer and a
    middle quantile), the mean scales it exactly, and first throws use it."""
    n = 2_000_000
    x = zig_sample(5, n, 1.0)
    assert (x >= 0).all()
    assert stats.kstest(x[:500_000], "expon").pvalue > ALPHA
    assert abs(x.mean() - 1.0) < 4 / np.sqrt(n)
    assert abs(x.var() - 1.0) < 4 * np.sqrt(8 / n)  # var of (X - 1)^2 is 8
    for cut in (ZIG_R, 3.0, 0.5):
        assert stats.binomtest(int((x > cut).sum()), n, np.exp(-cut)).pvalue > ALPHA
    assert np.array_equal(zig_sample(5, 1000, 2.5), 2.5 * x[:1000])
    # the tables: layers narrowing towards the tail, the densities of their edges
    assert ZIG_K[1] == 0 and (np.diff(ZIG_F[1:]) < 0).all() and (np.diff(ZIG_W[1:]) > 0).all()
    # a first throw: the minimum plus that tail, for each profile's numbers
    p = configure(sticky).params
    lo, mean = p.skill[1, 0], p.skill[1, 1]
    tails = [first_throw_time(new_rng(i, 9), 1, False, NO_CURSE, p.skill, p.curse, p.fp) - lo
             for i in range(4000)]
    assert stats.kstest(np.array(tails) / (mean - lo), "expon").pvalue > ALPHA


@pytest.mark.parametrize("players", [2, 4])
def test_STK_T_2_exact_ties_go_to_a_tied_seat_at_random(sticky, players):
    """STK-T-2: with constant reaction times and every throw hitting, all seats finish at the
    same instant every turn.  The rules favour no one, so the tie goes to a tied seat at
    random (logged as EV_TIE), not to the roller or the first seat raced."""
    config = configure(sticky, {
        "players": players, "profiles.average.reaction_mean_s": 0.45,
        "profiles.average.aim_sd_cm": 0.0, "components.investigators": 0, "tangles": False})
    recs = sticky.run_batch(config, 3, 0, 600)
    turns = int(recs["turns"].sum())
    roller = wilson(int(recs["roller_wins"].sum()), turns, z=3.29)
    assert roller.lo <= 1 / players <= roller.hi
    seat_wins = [int((recs["winner"] == s).sum()) for s in range(players)]
    assert stats.chisquare(seat_wins).pvalue > ALPHA
    rec, ev = replay(config, 3, 0)
    for _, events in split_turns(ev):
        ties = [e for e in events if e[0] == EV_TIE]
        assert len(ties) == 1 and ties[0][2] == players  # every seat tied
        seat, _ = turn_winner(events)
        assert seat == ties[0][1]
        got = [e for e in events if e[0] == EV_TOKEN]
        assert all(e[1] == seat for e in got)
    assert "finish at the same instant" in sticky.trace(config, 3, 0)


def test_STK_T_3_shake_off_investigators(sticky):
    """STK-T-3: stuck Investigators may only be shaken off (each shake drops each stuck token,
    the target too, with chance shake_drop_p), never removed by hand."""
    view = np.zeros(V_SIZE)
    legal = np.zeros(LEGAL_SIZE, dtype=np.uint8)
    tokens = np.zeros(MAX_SEATS, dtype=np.int64)
    curse_of = np.full(MAX_SEATS, NO_CURSE, dtype=np.int64)
    ev = np.zeros((1000, EV_WIDTH), dtype=np.int64)

    target = 20  # a Creature; Investigators are tokens 0-4, other Creatures from 5

    def shake(config, decide, n_inv, n_oth, extra=False, t=2.0, tf=1.0, seed=0, best=INF):
        evn = np.zeros(1, dtype=np.int64)
        aboard = np.uint64(0)
        for j in list(range(n_inv)) + list(range(5, 5 + n_oth)):
            aboard |= bit(j)
        t, held, left, shakes = shake_off(
            new_rng(seed, 0), decide, config.strategy.values, view, legal, 0, tokens, curse_of,
            aboard | bit(target), target, extra, t, tf, best, ev, evn, config.params.fp,
            config.params.ip)
        assert bool(left & bit(target)) == held  # the target is aboard when held
        n_left = int(bin(int(left) & 0b11111).count("1"))
        return (t, held, n_left, shakes), ev[:evn[0]].copy()

    # every shake drops everything: one shake, the target is gone
    sure = configure(sticky, {"turn.shake_drop_p": 1.0})
    (t, held, left, shakes), events = shake(sure, honest, 2, 1, tf=1.5)
    assert (held, left, shakes) == (False, 0, 1)
    assert t == pytest.approx(2.0 + 1.5 * sure.params.fp[F_SHAKE_S])
    assert [e[0] for e in events] == [EV_SHAKE]
    # detaching anyway costs no time and keeps the Investigators aboard
    (t, held, left, shakes), events = shake(sure, always_detach, 2, 1)
    assert (t, held, left, shakes) == (2.0, True, 2, 0) and len(events) == 0
    # nothing ever falls: the player gives up shaking after max_throws shakes (finite)
    never = configure(sticky, {"turn.shake_drop_p": 0.0, "max_throws": 7})
    (t, held, left, shakes), events = shake(never, honest, 1, 0)
    assert (held, left, shakes) == (False, 1, 7) and len(events) == 7
    # only the shakes begun before the turn ended (``best``) are counted: 2.0, 2.8, 3.6, 4.4
    shake_s = never.params.fp[F_SHAKE_S]
    (t, held, left, shakes), events = shake(never, honest, 1, 0, best=2.0 + 3.5 * shake_s)
    assert (held, left, shakes) == (False, 1, 4) and len(events) == 7
    # drop chance p, one Investigator: success = target kept while the Investigator falls
    p = 0.6
    config = configure(sticky, {"turn.shake_drop_p": p})
    wins = 0
    n = 3000
    for seed in range(n):
        (t, held, left, shakes), events = shake(config, honest, 1, 0, seed=seed)
        assert t == pytest.approx(2.0 + shakes * config.params.fp[F_SHAKE_S])
        assert len(events) == shakes >= 1
        if held:
            assert left == 0 and events[-1][3] == 1  # target kept
            wins += 1
        else:
            assert events[-1][3] == 0  # the target fell
    expected = (1 - p) * p / (1 - (1 - p) ** 2)
    assert stats.binomtest(wins, n, expected).pvalue > ALPHA


def test_STK_T_3_an_investigator_caught_on_a_miss_stays_on_the_tentacle(sticky):
    """STK-T-3/T-5: an Investigator picked up by a miss stays on the tentacle until it is
    shaken off.  Here it lies 8 cm from the target: only a miss can reach it (a hit lands
    within 3.5 cm of the target).  With nothing ever falling off and a player who never
    notices, every such Investigator comes home with the target (a mishap); with the
    rethrow's shake dropping everything, none does."""
    over = {"turn.shake_drop_p": 0.0, "profiles.average.notice_p": 0.0,
            "profiles.average.aim_sd_cm": 4.0}
    config = configure(sticky, over)
    p = config.params
    b = Board(p)
    target = b.put(creature_index(1, 2, p.ip), 30.0, 25.0)
    b.put(2, 38.0, 25.0)
    carried = clean = 0
    for seed in range(300):
        out = run_race(config, b, target, seed=seed)
        throws = [e for e in out.events if e[0] == EV_THROW]
        picked = [k for k, e in enumerate(throws) if e[5] > 0]
        assert all(throws[k][3] == 0 for k in picked)  # only misses reach it
        if picked:
            carried += 1
            # it stays: every later throw has it on the tentacle, and the target comes home
            # with it (an unnoticed Investigator: a mishap)
            assert all(e[7] == 1 for e in throws[picked[0]:])
            assert out.result == RACE_MISHAP and out.inv_hits == 1 and out.contacts == 1
        else:
            clean += 1
            assert out.result == RACE_SCORED and out.inv_hits == 0
    assert carried > 30 and clean > 30
    # the pull-back's shake drops it every time: the target comes home clean
    config = configure(sticky, {**over, "turn.shake_drop_p": 1.0})
    contacts = 0
    for seed in range(300):
        out = run_race(config, b, target, seed=seed)
        contacts += out.contacts
        assert out.result == RACE_SCORED and out.inv_hits == 0
        for k, e in enumerate(out.events):
            if e[0] == EV_THROW and e[5] > 0:
                assert list(out.events[k + 1][[0, 3, 4, 6]]) == [EV_SHAKE, -1, 0, 1]
    assert contacts > 30


def test_STK_T_3_a_noticed_investigator_from_a_miss_is_shaken_off_before_the_next_throw(
        sticky):
    """STK-T-3: an Investigator left after the rethrow's shake, when the player notices it
    (notice_p), is shaken off (turn.shake_s a shake, counted) before the next throw; one not
    noticed is thrown with."""
    config = configure(sticky, {"profiles.average.aim_sd_cm": 4.0, "turn.shake_drop_p": 0.5,
                                "profiles.average.notice_p": 0.5})
    p = config.params
    shake_ms = int(round(1000 * p.fp[F_SHAKE_S]))
    b = Board(p)
    target = b.put(creature_index(1, 2, p.ip), 30.0, 25.0)
    b.put(2, 38.0, 25.0)
    noticed = ignored = 0
    for seed in range(800):
        out = run_race(config, b, target, seed=seed)
        ev = out.events
        for k, e in enumerate(ev):
            if e[0] != EV_NOTICE:
                continue
            assert ev[k - 1][0] == EV_SHAKE and ev[k - 1][6] == 1 and ev[k - 1][4] == 1
            rest = ev[k + 1:]
            nxt = next(x for x in rest if x[0] == EV_THROW)
            if e[3]:  # noticed: shakes until it falls, then a throw with nothing aboard
                noticed += 1
                shakes = [x for x in rest[:list(rest[:, 0]).index(EV_THROW)]]
                assert shakes and all(x[0] == EV_SHAKE and x[6] == 0 for x in shakes)
                assert [x[4] for x in shakes][-1] == 0 and nxt[7] == nxt[5]
                assert abs(shakes[0][2] - e[2] - shake_ms) <= 1  # (whole milliseconds)
            else:  # thrown with it
                ignored += 1
                assert ev[k + 1][0] == EV_THROW and nxt[7] >= 1
        assert out.shakes == sum(1 for e in ev if e[0] == EV_SHAKE and e[6] == 0)
    assert noticed > 20 and ignored > 20


def test_STK_T_3_investigators_left_after_the_target_fell_stay_on_the_tentacle(sticky):
    """STK-T-3: a shake that drops the target leaves the Investigators that did not fall on
    the tentacle; the next throw carries them (the player throws at the target again with
    them aboard)."""
    config = configure(sticky, {"profiles.average.aim_sd_cm": 1.0, "turn.shake_drop_p": 0.5,
                                "profiles.average.notice_p": 1.0})
    p = config.params
    b = Board(p)
    target = b.put(creature_index(0, 0, p.ip), 20.0, 20.0)
    b.put(0, 24.2, 20.0)  # picked up by a hit that lands 0.7 cm or more towards it
    checked = 0
    for seed in range(400):
        out = run_race(config, b, target, seed=seed)
        ev = out.events
        for k, e in enumerate(ev):
            if e[0] == EV_SHAKE and e[3] == 0 and e[4] > 0:  # target fell, Investigator left
                nxt = next(x for x in ev[k + 1:] if x[0] == EV_THROW)
                assert nxt[7] >= e[4]  # still on the tentacle at the next throw
                checked += 1
    assert checked > 20


def test_STK_T_3_games_shake_or_detach_by_strategy(sticky):
    """STK-T-3 in whole games: honest players shake the target's Investigators off, 'detach
    at once' players never do (both shake off an Investigator caught on a miss, which needs
    no choice); a table where nothing ever falls off a shaken tentacle still ends."""
    honest_recs = sticky.run_batch(configure(sticky), 1, 0, 400)
    assert honest_recs["shakes"].sum() > 0
    spoil = configure(sticky, {"strategy.block_at": 100}, "spoiler")
    recs = sticky.run_batch(spoil, 1, 0, 400)
    assert recs["investigator_hits"].sum() > 0

    def shakes_with_target(config):
        n = 0
        for index in range(60):
            _, ev = replay(config, 1, index)
            n += sum(1 for e in ev if e[0] == EV_SHAKE and e[3] != -1)
        return n

    assert shakes_with_target(spoil) == 0 < shakes_with_target(configure(sticky))
    stuck = sticky.run_batch(configure(sticky, {"turn.shake_drop_p": 0.0}), 1, 0, 100)
    assert (stuck["outcome"] == O_WIN).all()


def test_STK_T_4_opponent_may_still_catch_it_from_another_tentacle(sticky):
    """STK-T-4: a Creature stuck on one tentacle stays catchable until it is put back: seat 0
    catches it first but is slow to detach; seat 1 catches it later and wins the turn."""
    config = configure(sticky, {
        "players": 2, "seats": ["expert", "beginner"],
        "profiles.expert.aim_sd_cm": 0.0, "profiles.expert.detach_s": 10.0,
        "profiles.beginner.aim_sd_cm": 0.0, "profiles.beginner.detach_s": 0.1,
    })
    b = Board(config.params)
    target = b.put(creature_index(2, 3, config.params.ip), 30.0, 20.0)
    px0, py0 = b.px.copy(), b.py.copy()
    first = run_race(config, b, target, seat=0, t=1.0)
    assert first.result == RACE_SCORED and first.t == pytest.approx(11.0)
    assert len([e for e in first.events if e[0] == EV_THROW]) == 1
    second = run_race(config, b, target, seat=1, t=2.0, best=first.t)
    assert second.result == RACE_SCORED and second.t == pytest.approx(2.1)
    assert second.caught == target
    assert np.array_equal(b.px, px0) and np.array_equal(b.py, py0)  # nothing was moved
    # the slow seat raced second cannot beat the fast one's finish
    late = run_race(config, b, target, seat=0, t=1.0, best=second.t)
    assert late.result == RACE_LOST and late.t == INF


@pytest.mark.parametrize("gap,expected", [(3.0, RACE_MISHAP), (3.6, RACE_SCORED)])
def test_STK_T_5_investigator_on_tentacle_cancels_token(sticky, gap, expected):
    """STK-T-5: detaching the target with an Investigator aboard ends the turn with no token.
    A dead-centre throw picks up tokens whose centres lie within reach + radius (3.5 cm)."""
    config = configure(sticky, {"profiles.average.aim_sd_cm": 0.0})
    p = config.params
    assert p.fp[F_REACH] + p.fp[F_TOKEN_R] == pytest.approx(3.5)
    b = Board(p)
    target = b.put(creature_index(0, 0, p.ip), 20.0, 20.0)
    b.put(0, 20.0 + gap, 20.0)  # an Investigator
    out = run_race(config, b, target, t=1.5, decide=always_detach)
    assert out.result == expected
    assert out.t == pytest.approx(1.5 + p.skill[0, SK_DETACH])
    assert out.inv_hits == (1 if expected == RACE_MISHAP else 0)
    detach = [e for e in out.events if e[0] == EV_DETACH]
    assert len(detach) == 1 and detach[0][3] == (0 if expected == RACE_MISHAP else 1)


@pytest.mark.parametrize("notice", [0.0, 1.0])
def test_STK_T_5_an_unnoticed_investigator_comes_off_with_the_creature(sticky, notice):
    """STK-T-5 with the skill profile's notice_p: a player who does not notice the
    Investigator stuck with the target detaches both (a mishap, whatever the strategy); one
    who notices it asks the strategy (honest shakes it off)."""
    config = configure(sticky, {"profiles.average.aim_sd_cm": 0.0,
                                "profiles.average.notice_p": notice, "turn.shake_drop_p": 0.0,
                                "max_throws": 3})
    p = config.params
    b = Board(p)
    target = b.put(creature_index(0, 0, p.ip), 20.0, 20.0)
    b.put(0, 23.0, 20.0)  # an Investigator within reach of a dead-centre throw
    out = run_race(config, b, target, t=1.5)
    assert out.inv_hits >= 1
    if notice == 0.0:
        assert out.result == RACE_MISHAP and out.shakes == 0
        detach = [e for e in out.events if e[0] == EV_DETACH]
        assert len(detach) == 1 and detach[0][3] == 0 and detach[0][4] == 1  # unnoticed
        assert out.t == pytest.approx(1.5 + p.skill[0, SK_DETACH])
    else:  # shaken until max_throws (nothing falls at drop 0), never detached with it
        assert out.result == RACE_GAVE_UP and out.shakes > 0
        assert not any(e[0] == EV_DETACH for e in out.events)


def test_STK_T_5_mishaps_happen_at_the_defaults(sticky):
    """STK-T-5 at the defaults: honest players shake off every Investigator they notice, yet
    the ones they miss make mishaps, fewer for players who notice more."""
    recs = sticky.run_batch(configure(sticky), 1, 0, 2000)
    assert recs["mishaps"].sum() > 0
    sharp = sticky.run_batch(configure(sticky, {"profiles.average.notice_p": 1.0}), 1, 0, 2000)
    assert sharp["mishaps"].sum() == 0
    assert recs["mishaps"].mean() > 0.02


def test_STK_T_3_investigator_hits_and_shakes_counted_only_before_the_turn_ends(sticky):
    """STK-T-3/T-5 records: seats are raced one after another, so one raced early may throw
    (in the simulation) after another seat has already ended the turn.  Investigator hits and
    shakes are counted only up to the turn's end, what happened at the table."""
    config = configure(sticky, {"components.investigators": 10})
    shake_ms = round(1000 * config.params.fp[F_SHAKE_S])
    hits_seen = shakes_seen = contacts_seen = 0
    for index in range(40):
        rec, ev = replay(config, 5, index)
        hits = shakes = contacts = 0
        for _, events in split_turns(ev):
            end = min((e[2] for e in events if e[0] == EV_DETACH), default=None)
            if end is None:
                continue
            # a throw that caught the target with an Investigator on the tentacle (picked up
            # then, e[5], or carried from an earlier throw, e[7])
            hits += sum(1 for e in events
                        if e[0] == EV_THROW and e[3] == 1 and e[7] > 0 and e[2] <= end)
            contacts += sum(1 for e in events if e[0] == EV_THROW and e[5] > 0 and e[2] <= end)
            # a shake is logged when it ends; it counts if it began before the turn ended (the
            # shake a rethrow includes, e[6] = 1, is part of the rethrow and not counted)
            shakes += sum(1 for e in events
                          if e[0] == EV_SHAKE and e[6] == 0 and e[2] - shake_ms < end)
        assert rec[R_INV_HITS] == hits
        assert rec[R_SHAKES] == shakes
        assert rec[R_CONTACTS] == contacts
        hits_seen += hits
        shakes_seen += shakes
        contacts_seen += contacts
    assert hits_seen > 20 and shakes_seen > 20 and contacts_seen > hits_seen


def test_STK_T_5_mishap_turns_award_no_token(sticky):
    """STK-T-5 over whole games: every turn ends with a token, a mishap, or nobody."""
    config = configure(sticky, {"components.investigators": 10, "strategy.block_at": 100},
                       "spoiler")
    recs = sticky.run_batch(config, 2, 0, 500)
    tokens = sum(recs[f"tokens_{s}"] for s in range(4))
    assert (tokens + recs["mishaps"] + recs["void_turns"] == recs["turns"]).all()
    assert recs["mishaps"].sum() > 100
    for index in range(10):
        rec, ev = replay(config, 2, index)
        for _, events in split_turns(ev):
            seat, scored = turn_winner(events)
            got = [e for e in events if e[0] == EV_TOKEN]
            if scored:
                assert len(got) == 1 and got[0][1] == seat
            else:
                assert not got


def test_STK_T_6_investigator_without_the_target_costs_nothing(sticky):
    """STK-T-6: a throw that catches only an Investigator is a miss that costs no token: it is
    not an Investigator hit (though a contact), no detach follows, and the seat pulls back
    (with the shake a rethrow includes) and throws again."""
    config = configure(sticky, {"sixth_colour_face": "any", "profiles.average.aim_sd_cm": 2.0,
                                "profiles.average.notice_p": 1.0})
    p = config.params
    b = Board(p)
    kind = 1
    target = b.put(creature_index(kind, 0, p.ip), 20.0, 20.0)
    b.put(0, 23.0, 20.0)  # an Investigator 3 cm away
    b.put(1, 17.0, 20.0)  # another one on the other side
    inv_only = 0
    for seed in range(80):
        tokens = np.zeros(MAX_SEATS, dtype=np.int64)
        tokens[0] = 2
        out = run_race(config, b, target, seed=seed, any_kind=kind, tokens=tokens)
        assert tokens[0] == 2
        throws = [e for e in out.events if e[0] == EV_THROW]
        assert out.inv_hits == sum(1 for e in throws if e[3] == 1 and e[7] > 0)
        assert out.contacts == sum(1 for e in throws if e[5] > 0)
        for k, e in enumerate(out.events):
            if e[0] == EV_THROW and e[3] == 0 and e[5] > 0:
                inv_only += 1
                after = out.events[k + 1]
                assert after[0] == EV_SHAKE and after[3] == -1 and after[6] == 1
        assert out.result in (RACE_SCORED, RACE_LOST)
        assert not any(e[0] == EV_DETACH and e[3] == 0 for e in out.events)
    assert inv_only > 10


def test_STK_T_6_tokens_at_the_edge_of_the_reach_are_flagged_for_the_library_sin_cos(sticky):
    """STK-T-6 (which tokens a throw picks up): a token whose squared distance from the landing
    point lies within the guard band of the reach is flagged, and the throw's landing point is
    then computed again with the C library's sin and cos (the inline ones may differ from them
    in the last bit), so what sticks is exactly what the library gives."""
    p = configure(sticky).params
    reach = float(p.fp[F_REACH] + p.fp[F_TOKEN_R])
    b = Board(p)
    b.put(7, 10.0, 14.0)  # a Creature well beyond the reach
    b.put(0, 10.0 + reach, 10.0)  # an Investigator exactly at the reach: sticks, flagged
    assert stuck_mask(b.px, b.py, 8, 10.0, 10.0, reach * reach) == (1, True)
    b.put(0, 10.0 + reach + 1e-7, 10.0)  # just beyond it, within the guard band: flagged
    assert stuck_mask(b.px, b.py, 8, 10.0, 10.0, reach * reach) == (0, True)
    b.put(0, 10.0 + reach + 1e-4, 10.0)  # beyond the band: does not stick, not flagged
    assert stuck_mask(b.px, b.py, 8, 10.0, 10.0, reach * reach) == (0, False)
    b.put(0, 10.0 + reach - 1e-4, 10.0)  # within the reach, beyond the band
    assert stuck_mask(b.px, b.py, 8, 10.0, 10.0, reach * reach) == (1, False)
    # the band widens with the landing radius (r^2 = 1e4 here: 100 cm from the target)
    assert stuck_mask(b.px, b.py, 8, 10.0, 10.0, reach * reach, 1e4) == (1, True)
    b.put(7, 10.0, 10.0 + reach - 1e-3)  # the Creature within reach too: bit 7
    assert stuck_mask(b.px, b.py, 8, 10.0, 10.0, reach * reach) == (1 | 1 << 7, False)


def test_STK_T_7_turn_goes_on_until_someone_puts_the_creature_back(sticky):
    """STK-T-7: misses and a target fallen off the tentacle do not end the turn; a player
    gives up only after max_throws throws."""
    config = configure(sticky, {"profiles.average.aim_sd_cm": 100.0})
    p = config.params
    b = Board(p)
    target = b.put(creature_index(3, 1, p.ip), 20.0, 20.0)
    out = run_race(config, b, target, max_throws=5)
    assert (out.result, out.caught) == (RACE_GAVE_UP, -1)
    codes = [e[0] for e in out.events]
    assert codes == [EV_THROW] * 5 + [EV_GIVE_UP]
    assert int(out.t * 1000.0) == out.events[-1][2] > out.events[-2][2]  # when it stopped
    # the target falls off at every shake: the seat keeps throwing after each fall
    config = configure(sticky, {"profiles.average.aim_sd_cm": 0.0, "turn.shake_drop_p": 1.0,
                                "profiles.average.notice_p": 1.0})
    b = Board(config.params)
    target = b.put(creature_index(3, 1, config.params.ip), 20.0, 20.0)
    b.put(2, 23.0, 20.0)
    out = run_race(config, b, target, max_throws=4)
    assert out.result == RACE_GAVE_UP
    codes = [e[0] for e in out.events]
    assert codes == [EV_THROW, EV_SHAKE] * 4 + [EV_GIVE_UP]
    # with half the tokens falling per shake, the seat eventually scores
    config = configure(sticky, {"profiles.average.aim_sd_cm": 0.0, "turn.shake_drop_p": 0.5,
                                "profiles.average.notice_p": 1.0})
    fell_then_scored = 0
    for seed in range(30):
        out = run_race(config, b, target, seed=seed)
        assert out.result == RACE_SCORED
        fell_then_scored += any(e[0] == EV_SHAKE and e[3] == 0 for e in out.events)
    assert fell_then_scored > 0



@pytest.mark.parametrize("spread", [None, 0.0, 0.2, 1.0])
def test_STK_T_7_rethrow_time_follows_turn_rethrow_spread(sticky, spread):
    """STK-T-7: after a miss the next throw comes rethrow_s x a factor uniform in
    [1 - turn.rethrow_spread, 1 + turn.rethrow_spread] later (0.5 by default, rules data)."""
    over = {"profiles.average.aim_sd_cm": 100.0}
    if spread is not None:
        over["turn.rethrow_spread"] = spread
    config = configure(sticky, over)
    p = config.params
    s = 0.5 if spread is None else spread
    assert config.rules["turn.rethrow_spread"] == s
    assert config.rules.entries["turn.rethrow_spread"].source == "assumed"
    # the default gives exactly the factor 0.5 + 1.0 x u the model was written with
    assert (p.fp[F_RETHROW_LO], p.fp[F_RETHROW_SPAN]) == (1.0 - s, 2.0 * s)
    rethrow = config.rules["profiles.average.rethrow_s"]
    b = Board(p)
    target = b.put(creature_index(3, 1, p.ip), 20.0, 20.0)
    gaps = []
    for seed in range(20):
        out = run_race(config, b, target, seed=seed, max_throws=12)
        # every throw but the last missed (a rare hit ends the race early)
        times = [int(e[2]) for e in out.events if e[0] == EV_THROW]
        assert len(times) >= 2
        gaps += list(np.diff(times))
    gaps = np.array(gaps) / 1000.0
    assert gaps.min() >= rethrow * (1 - s) - 0.002
    assert gaps.max() <= rethrow * (1 + s) + 0.002
    if s > 0:  # spread over the whole range, centred on rethrow_s
        assert gaps.max() - gaps.min() > 1.6 * rethrow * s
        assert abs(gaps.mean() - rethrow) < 0.2 * rethrow * s

def test_STK_T_7_turn_nobody_ends_is_void(sticky):
    """STK-T-7 made finite: when every player gives up, the turn is void and the dice stay."""
    config = configure(sticky, {"profiles.average.aim_sd_cm": 60.0, "max_throws": 2,
                                "max_turns": 30})
    recs = sticky.run_batch(config, 4, 0, 50)
    assert recs["void_turns"].sum() > 0
    voids = 0
    for index in range(5):
        rec, ev = replay(config, 4, index)
        turns = split_turns(ev)
        assert sum(1 for e in ev if e[0] == EV_VOID) == rec[R_VOID]
        for k, (roll, events) in enumerate(turns):
            if any(e[0] == EV_VOID for e in events):
                voids += 1
                assert turn_winner(events) is None
                assert not any(e[0] == EV_TOKEN for e in events)
                if k + 1 < len(turns):
                    assert turns[k + 1][0][2] == roll[2]  # same roller
    assert voids > 0


def test_STK_T_7_a_void_turn_takes_time_and_sees_curse_catches(sticky):
    """STK-T-7 / STK-C-3: a void turn lasts until the last player gave up (it counts in the
    game's length), and a player who ignored a Curse during it can still be caught."""
    config = configure(sticky, {
        "players": 3, "seats": ["expert", "beginner", "beginner"], "max_throws": 2,
        "profiles.beginner.aim_sd_cm": 60.0, "curses": True, "turn.curse_catch_scale": 10.0,
        "strategy.ignore_p": 1.0, "strategy.max_catch_p": 1.0}, "cheater")
    roll_ms = 1000 * config.params.fp[F_ROLL_S]
    void_penalties = voids = 0
    for index in range(12):
        rec, ev = replay(config, 2, index)
        total = 0.0
        for _, events in split_turns(ev):
            if any(e[0] == EV_VOID for e in events):
                voids += 1
                total += roll_ms + max(e[2] for e in events if e[0] == EV_GIVE_UP)
                void_penalties += sum(1 for e in events if e[0] == EV_PENALTY)
            elif any(e[0] == EV_DETACH for e in events):
                total += roll_ms + min(e[2] for e in events if e[0] == EV_DETACH)
        # (times are logged in whole milliseconds)
        assert abs(rec[R_GAME_MS] - total) <= 2 * len(split_turns(ev))
    assert voids > 20 and void_penalties > 0


def test_STK_T_8_turn_winner_takes_the_dice(sticky):
    """STK-T-8: whoever ended the turn rolls next, with or without a token."""
    config = configure(sticky, {"components.investigators": 10, "strategy.block_at": 100},
                       "spoiler")
    seen = Counter()
    for index in range(30):
        _, ev = replay(config, 6, index)
        turns = split_turns(ev)
        for k in range(len(turns) - 1):
            w = turn_winner(turns[k][1])
            if w is None:
                continue
            assert turns[k + 1][0][2] == w[0]
            seen[w[1]] += 1
    assert seen[0] > 0 and seen[1] > 0  # both mishap and scoring turns were checked


@pytest.mark.parametrize("clear", [False, True])
@pytest.mark.parametrize("spot", ["centre", "random"])
def test_STK_T_9_caught_creature_goes_back_on_the_table(sticky, spot, clear):
    """STK-T-9: the caught Creature returns to a new spot on the table; nothing else moves.
    With return_spot = "centre" (the text: "put back in the center of the table") the spot
    is in the central square of side table.centre_cm; with "random", anywhere on the table.
    It lies where it is dropped, maybe touching a token (the rules ask for no overlap only at
    setup); with table.put_back_clear it touches none."""
    config = configure(sticky, {"return_spot": spot, "table.put_back_clear": clear})
    assert config.rules.entries["return_spot"].source == "rulebook"
    assert config.rules.entries["table.put_back_clear"].source == "assumed"
    p = config.params
    b = Board.random(p, 12)
    rng = new_rng(12, 1)
    r, width, depth = p.fp[F_TOKEN_R], p.fp[F_WIDTH], p.fp[F_DEPTH]
    spots = []
    touching = 0
    for i in range(300):
        idx = 5 + i % 30
        px0, py0 = b.px.copy(), b.py.copy()
        place_token(rng, b.px, b.py, idx, p.fp, p.ip)
        others = np.arange(MAX_TOKENS) != idx
        assert np.array_equal(b.px[others], px0[others])
        assert np.array_equal(b.py[others], py0[others])
        assert r <= b.px[idx] <= width - r and r <= b.py[idx] <= depth - r
        gap = np.hypot(b.px[:35] - b.px[idx], b.py[:35] - b.py[idx])[others[:35]].min()
        if clear:
            assert gap >= 2 * r - 1e-9
        touching += gap < 2 * r
        assert (b.px[idx], b.py[idx]) != (px0[idx], py0[idx])
        spots.append((b.px[idx], b.py[idx]))
    if not clear:
        assert touching > 10
    x, y = np.array(spots).T
    if spot == "random":  # uniform over the table, as at setup
        assert stats.kstest((x - r) / (width - 2 * r), "uniform").pvalue > ALPHA
        assert stats.kstest((y - r) / (depth - 2 * r), "uniform").pvalue > ALPHA
        return
    side = config.rules["table.centre_cm"]
    assert p.fp[F_CENTRE] == side == 30.0
    assert config.rules.entries["table.centre_cm"].source == "assumed"
    # within the central square, centred on the table's centre
    assert (abs(x - width / 2) <= side / 2 + 1e-9).all()
    assert (abs(y - depth / 2) <= side / 2 + 1e-9).all()
    assert abs(x.mean() - width / 2) < 0.12 * side and abs(y.mean() - depth / 2) < 0.12 * side
    # on an empty table, uniform over the square (KS against it)
    empty = Board(p)
    rng = new_rng(13, 1)
    xs, ys = [], []
    for _ in range(2000):
        place_token(rng, empty.px, empty.py, 7, p.fp, p.ip)
        xs.append(empty.px[7])
        ys.append(empty.py[7])
    assert stats.kstest((np.array(xs) - width / 2) / side + 0.5, "uniform").pvalue > ALPHA
    assert stats.kstest((np.array(ys) - depth / 2) / side + 0.5, "uniform").pvalue > ALPHA
    # a square wider than the table keeps every spot on it
    wide = configure(sticky, {"table.centre_cm": 400.0}).params
    for _ in range(200):
        place_token(rng, empty.px, empty.py, 7, wide.fp, wide.ip)
        assert r <= empty.px[7] <= width - r and r <= empty.py[7] <= depth - r


@pytest.mark.parametrize("clear", [False, True])
def test_STK_T_9_a_game_puts_the_caught_creature_back(sticky, clear):
    """STK-T-9 in whole games: after each turn won (token or mishap) the caught Creature is put
    back at a new spot (logged as EV_PUT_BACK, read from the table the next turn plays on),
    in the centre: Creatures end a game nearer the centre than setup put them.  With
    table.put_back_clear it touches no token."""
    config = configure(sticky, {"components.investigators": 10, "strategy.block_at": 100,
                                "table.put_back_clear": clear}, "spoiler")
    r = config.params.fp[F_TOKEN_R]
    width, depth = config.params.fp[F_WIDTH], config.params.fp[F_DEPTH]
    n_tok = n_tokens(config.params.ip)
    before, after = [], []
    put_back = mishaps = 0
    for index in range(40):
        rec, ev = replay(config, 14, index)
        at = {int(e[1]): (int(e[2]), int(e[3])) for e in ev if e[0] == EV_SETUP}
        assert len(at) == n_tok
        before += [np.hypot(x / 10 - width / 2, y / 10 - depth / 2)
                   for j, (x, y) in at.items() if j >= 10]
        turns = split_turns(ev)
        for k, (_, events) in enumerate(turns):
            w = turn_winner(events)
            backs = [e for e in events if e[0] == EV_PUT_BACK]
            if w is None or k == len(turns) - 1 and rec[R_OUTCOME] == O_WIN:
                assert not backs  # a void turn, or the game is over
                continue
            assert len(backs) == 1
            token, x, y = (int(v) for v in backs[0][1:4])
            assert token >= 10  # a Creature (the Investigators are tokens 0-9)
            assert (x, y) != at[token], "the caught Creature was not moved"
            at[token] = (x, y)
            put_back += 1
            mishaps += w[1] == 0
            # touching no other token (positions logged in whole millimetres)
            gaps = [np.hypot((x - ox) / 10, (y - oy) / 10) for j, (ox, oy) in at.items()
                    if j != token]
            assert not clear or min(gaps) >= 2 * r - 0.15
        after += [np.hypot(x / 10 - width / 2, y / 10 - depth / 2)
                  for j, (x, y) in at.items() if j >= 10]
    assert put_back > 300 and mishaps > 20
    assert np.mean(after) < np.mean(before) - 1.0


@njit(cache=True)
def tangle_pass(seed, start_t, aim_at, roller, players, fp):
    """tangle_first_throws on hand-made first-throw times: (tangles, start times after,
    order after, times of the tangles, events)."""
    rng = np.empty(4, dtype=np.uint64)
    rng_seed(rng, seed, 0)
    start_t = start_t.copy()
    start_k = np.zeros(MAX_SEATS)
    for k in range(players):
        start_k[k] = start_t[(roller + k) % players]
    order = np.zeros(MAX_SEATS, dtype=np.int64)
    rank_at = np.zeros(MAX_SEATS, dtype=np.int64)
    rank_seats(start_k, order, rank_at, roller, players)
    tangled = np.zeros(MAX_SEATS, dtype=np.int64)
    tangle_t = np.zeros(MAX_SEATS)
    ev = np.zeros((16, EV_WIDTH), dtype=np.int64)
    evn = np.zeros(1, dtype=np.int64)
    n, st = tangle_first_throws(rng_load(rng), start_t, start_k, order, rank_at, aim_at,
                                tangled, tangle_t, roller, players, fp, ev, evn)
    return n, start_t, order, tangle_t, ev[:evn[0]].copy()


def test_STK_T_10_first_throws_close_in_time_at_one_creature_tangle(sticky):
    """STK-T-10 "take care not to tangle your tentacles": in order of time, a first throw at
    the same Creature as the one just before it, landing within turn.tangle_window_s of it,
    tangles with it with chance turn.tangle_p; both players then throw again turn.tangle_s
    after the later throw, and the seats are raced in their new order.  A tentacle tangles
    once a turn."""
    config = configure(sticky, {"turn.tangle_p": 1.0})
    assert config.rules["tangles"] is True
    assert config.rules.entries["tangles"].source == "rulebook"
    for key in ("tangle_window_s", "tangle_p", "tangle_s"):
        assert config.rules.entries[f"turn.{key}"].source == "assumed"
    fp = config.params.fp
    window, cost = fp[F_TANGLE_WINDOW], fp[F_TANGLE_S]
    assert (window, cost) == (0.25, 1.5)
    aim = np.full(MAX_SEATS, 20, dtype=np.int64)
    start = np.zeros(MAX_SEATS)
    start[:4] = (1.0, 1.2, 3.0, 1.1)  # seat 3 throws 0.1 s after seat 0, seat 1 0.1 s later
    n, after, order, when, ev = tangle_pass(1, start, aim, 0, 4, fp)
    assert n == 1 and when[0] == 1.1
    assert list(after[:4]) == [1.1 + cost, 1.2, 3.0, 1.1 + cost]
    assert list(order[:4]) == [1, 0, 3, 2]  # a tie in order from the roller
    assert [list(e[:5]) for e in ev] == [[EV_TANGLE, 0, 3, 1100, int((1.1 + cost) * 1000)]]
    # seat 1 is close to seat 3 too, but seat 3's tentacle is tangled already; seat 2 alone
    # other aims (the "any" face) never tangle, and a throw tangles only with the one just
    # before it: with seat 3 aiming elsewhere, seats 0 and 1 (not neighbours) do not
    other = aim.copy()
    other[3] = 21
    n, after, _, _, _ = tangle_pass(1, start, other, 0, 4, fp)
    assert n == 0 and list(after[:4]) == [1.0, 1.2, 3.0, 1.1]
    pair = start.copy()
    pair[:4] = (1.0, 1.1, 1.2, 1.3)  # all close: 0 with 1, then 2 with 3
    n, after, _, when, _ = tangle_pass(1, pair, aim, 0, 4, fp)
    assert n == 2 and list(when[:2]) == [1.1, 1.3]
    assert list(after[:4]) == [1.1 + cost, 1.1 + cost, 1.3 + cost, 1.3 + cost]
    apart = start.copy()
    apart[:4] = (1.0, 1.26, 1.52, 1.78)
    assert tangle_pass(1, apart, aim, 0, 4, fp)[0] == 0
    # with chance tangle_p for a pair that close
    fp = configure(sticky).params.fp
    p = fp[F_TANGLE_P]
    pair = np.zeros(MAX_SEATS)
    pair[:2] = (2.0, 2.1)
    n = 4000
    tangled = sum(tangle_pass(seed, pair, aim, 1, 2, fp)[0] for seed in range(n))
    assert stats.binomtest(tangled, n, p).pvalue > ALPHA


def test_STK_T_10_tangles_in_games_and_the_switch(sticky):
    """STK-T-10 in whole games: tangles happen (about one turn in five at four players),
    cost time, are counted when the turn was still on at the later throw, and the tangled
    seats throw again at the time logged; `tangles = false` turns them off."""
    config = configure(sticky)
    off = configure(sticky, {"tangles": False})
    assert config.params.ip[I_TANGLES] == 1 and off.params.ip[I_TANGLES] == 0
    n = 6000
    on_recs = sticky.run_batch(config, 15, 0, n)
    off_recs = sticky.run_batch(off, 15, 0, n)
    assert (off_recs["tangles"] == 0).all()
    share = on_recs["tangles"].sum() / on_recs["turns"].sum()
    assert 0.12 < share < 0.25
    # a tangle costs both players time: with every first throw tangled, games last longer
    always = configure(sticky, {"turn.tangle_p": 1.0, "turn.tangle_window_s": 10.0})
    a = sticky.run_batch(always, 15, 0, 2000)
    assert (a["tangles"] >= a["turns"]).all()  # two pairs a turn at four players
    t_on = a["game_ms"] / a["turns"]
    t_off = off_recs["game_ms"][:2000] / off_recs["turns"][:2000]
    assert stats.ttest_ind(t_on, t_off).pvalue < 1e-6 and t_on.mean() > t_off.mean() + 500
    counted = 0
    for index in range(30):
        rec, ev = replay(config, 15, index)
        seen = 0
        for _, events in split_turns(ev):
            end = min((e[2] for e in events if e[0] == EV_DETACH), default=None)
            for e in (e for e in events if e[0] == EV_TANGLE):
                seen += end is None or e[3] <= end
                for seat in (e[1], e[2]):
                    first = min((x[2] for x in events if x[0] == EV_THROW and x[1] == seat),
                                default=None)
                    assert first is None or first == e[4]  # its first throw is the retry
        assert rec[R_TANGLES] == seen
        counted += seen
        _, ev_off = replay(off, 15, index)
        assert not (ev_off[:, 0] == EV_TANGLE).any()
    assert counted > 20
    assert "tangle their tentacles" in sticky.trace(config, 15, 0) + "".join(
        sticky.trace(config, 15, i) for i in range(1, 4))


# ---- end --------------------------------------------------------------------------------------
@pytest.mark.parametrize("to_win,players", [(5, 4), (3, 3)])
def test_STK_E_1_first_to_five_tokens_wins_at_once(sticky, to_win, players):
    """STK-E-1: the game ends the moment a player gains their last token; that player wins."""
    config = configure(sticky, {"components.tokens_to_win": to_win, "players": players,
                                "curses": True})
    recs = sticky.run_batch(config, 8, 0, 1000)
    assert (recs["outcome"] == O_WIN).all()
    tokens = np.stack([recs[f"tokens_{s}"] for s in range(players)], axis=1)
    assert (tokens[np.arange(len(recs)), recs["winner"]] == to_win).all()
    assert ((tokens >= to_win).sum(axis=1) == 1).all()
    for index in range(10):
        rec, ev = replay(config, 8, index)
        assert ev[-1][0] == EV_WIN  # nothing happens after the winning token
        assert ev[-2][0] == EV_TOKEN and ev[-2][2] == to_win and ev[-2][1] == ev[-1][1]
        assert ev[-1][2] == rec[R_TURNS]


def test_STK_E_1_turn_cap_ends_without_winner(sticky):
    """STK-E-1 with the max_turns safety cap: a game cut short has no winner."""
    recs = sticky.run_batch(configure(sticky, {"max_turns": 3}), 1, 0, 200)
    assert (recs["outcome"] == O_CAP).all()
    assert (recs["winner"] == -1).all() and (recs["turns"] == 3).all()


# ---- curses -----------------------------------------------------------------------------------
def test_STK_C_1_a_token_draws_a_curse(sticky):
    """STK-C-1: every token gained (but the winning one) draws a Curse; in later turns the
    holder plays under it while holding a token, and is free of it with none."""
    config = configure(sticky, {"curses": True, "turn.curse_catch_scale": 3.0,
                                "strategy.max_catch_p": 1.0, "strategy.ignore_p": 0.3},
                       "cheater")
    free = choice = 0
    for index in range(40):
        _, ev = replay(config, 10, index)
        held = Counter()
        curse = {}
        for k, e in enumerate(ev):
            code, seat = int(e[0]), int(e[1])
            if code == EV_TOKEN:
                held[seat] = int(e[2])
                if ev[k + 1][0] != EV_WIN:
                    assert ev[k + 1][0] == EV_CURSE_DRAW and ev[k + 1][1] == seat
            elif code == EV_CURSE_DRAW:
                assert ev[k - 1][0] == EV_TOKEN
                assert int(e[3]) == curse.get(seat, NO_CURSE)
                curse[seat] = int(e[2])
            elif code == EV_PENALTY:
                held[seat] = int(e[3])
            elif code == EV_CURSE_CHOICE:
                choice += 1
                assert held[seat] > 0 and curse[seat] == e[2]
            elif code == EV_CURSE_FREE:
                free += 1
                assert held[seat] == 0 and curse[seat] == e[2]
        rolls = [k for k, e in enumerate(ev) if e[0] == EV_ROLL]
        for k in rolls:
            j = k + 1
            asked = set()
            while j < len(ev) and ev[j][0] in (EV_CURSE_CHOICE, EV_CURSE_FREE):
                asked.add(int(ev[j][1]))
                j += 1
            assert asked <= set(curse)
    assert choice > 0 and free > 0


def _second_token_goes_elsewhere(sticky, overrides, strategy=None, games=150):
    """Share of 2-player games whose second token goes to the seat without the first."""
    config = configure(sticky, {"players": 2, **overrides}, strategy)
    other = 0
    for index in range(games):
        _, ev = replay(config, 11, index)
        got = [int(e[1]) for e in ev if e[0] == EV_TOKEN]
        other += got[1] != got[0]
    return other / games


def test_STK_C_1_curse_binds_the_following_turns(sticky):
    """STK-C-1: the Curse applies from the next turn on.  With a 30 s ritual on every card,
    the first scorer cannot win again until the other seat also holds a token."""
    names = curse_names(sticky.default_rules())
    slow = {f"curse.{n}.delay_s": 30.0 for n in names}
    assert _second_token_goes_elsewhere(sticky, {"curses": True, **slow}) == 1.0
    # without the optional rule, the first scorer often scores again
    assert _second_token_goes_elsewhere(sticky, {"curses": False, **slow}) < 0.7
    # a player who ignores the Curse (never caught) escapes its effect (STK-C-3)
    cheat = {"curses": True, "turn.curse_catch_scale": 0.0, **slow}
    assert _second_token_goes_elsewhere(sticky, cheat, "cheater") < 0.7


def test_STK_C_1_no_token_no_obligation_in_the_race(sticky):
    """STK-C-1 "If you have no Deep One token, you are not obliged to respect your Curse": a
    Curse holder left with no token (caught ignoring it) races free of it.  Every card here
    delays the first throw by 20 s, so a bound seat could not throw before then."""
    names = curse_names(sticky.default_rules())
    config = configure(sticky, {
        "curses": True, "turn.curse_catch_scale": 10.0,  # an ignored Curse is always caught
        "strategy.ignore_p": 1.0, "strategy.max_catch_p": 1.0,
        **{f"curse.{n}.delay_s": 20.0 for n in names}}, "cheater")
    free_turns = 0
    for index in range(30):
        rec, ev = replay(config, 6, index)
        for _, events in split_turns(ev):
            for e in events:
                if e[0] == EV_CURSE_FREE:
                    seat = e[1]
                    first = min((x[2] for x in events if x[0] == EV_THROW and x[1] == seat),
                                default=None)  # (none when it could not beat the winner)
                    if first is not None:
                        free_turns += 1
                        assert first < 20_000
    assert free_turns > 20


def test_STK_C_2_new_curse_sends_the_old_one_under_the_pile(sticky):
    """STK-C-2: the pile is a queue: draws come off the top, old Curses go underneath."""
    rng = np.random.default_rng(5)
    n = 12
    order = rng.permutation(n)
    deck = order.astype(np.int64)
    deck_state = np.array([0, n], dtype=np.int64)
    curse_of = np.full(MAX_SEATS, NO_CURSE, dtype=np.int64)
    ev = np.zeros((1000, EV_WIDTH), dtype=np.int64)
    evn = np.zeros(1, dtype=np.int64)
    pile = deque(int(c) for c in order)
    held = {}
    for step in range(300):
        seat = int(rng.integers(0, 6))
        draw_curse(deck, deck_state, seat, curse_of, ev, evn)
        card = pile.popleft()
        if seat in held:
            pile.append(held[seat])
        old = held.get(seat, NO_CURSE)
        held[seat] = card
        assert curse_of[seat] == card, f"step {step}"
        assert deck_state[1] == len(pile)
        row = ev[evn[0] - 1]
        assert (row[0], row[1], row[2], row[3]) == (EV_CURSE_DRAW, seat, card, old)
        top = [int(deck[(deck_state[0] + k) % n]) for k in range(deck_state[1])]
        assert top == list(pile)
    # cards are conserved: in the pile or in a hand, each exactly once
    assert sorted(list(pile) + list(held.values())) == list(range(n))


def test_STK_C_2_empty_pile_draws_nothing():
    """STK-C-2 edge: with no card left in the pile, drawing changes nothing."""
    deck = np.array([0, 1], dtype=np.int64)
    deck_state = np.array([0, 2], dtype=np.int64)
    curse_of = np.full(MAX_SEATS, NO_CURSE, dtype=np.int64)
    ev = np.zeros((10, EV_WIDTH), dtype=np.int64)
    evn = np.zeros(1, dtype=np.int64)
    draw_curse(deck, deck_state, 0, curse_of, ev, evn)
    draw_curse(deck, deck_state, 1, curse_of, ev, evn)
    assert list(curse_of[:2]) == [0, 1] and deck_state[1] == 0
    draw_curse(deck, deck_state, 2, curse_of, ev, evn)
    assert curse_of[2] == NO_CURSE and evn[0] == 2
    draw_curse(deck, deck_state, 0, curse_of, ev, evn)  # a holder still keeps its card
    assert curse_of[0] == 0 and deck_state[1] == 0


@njit(cache=True)
def count_caught(rng, card, curse, fp, n):
    k = 0
    for _ in range(n):
        if caught_ignoring(rng, card, curse, fp):
            k += 1
    return k


def test_STK_C_3_caught_ignoring_a_curse_costs_a_token(sticky):
    """STK-C-3: a player ignoring the Curse is caught with chance catch_p x catch scale
    (capped at 1) and loses a token; with none, nothing is lost."""
    p = configure(sticky, {"curses": True}).params
    n = 40_000
    for card in (0, 1, 11):
        catch = p.curse[card, CU_CATCH]
        k = count_caught(new_rng(71, card), card, p.curse, p.fp, n)
        assert stats.binomtest(k, n, catch).pvalue > ALPHA
    sure = configure(sticky, {"curses": True, "turn.curse_catch_scale": 10.0}).params
    never = configure(sticky, {"curses": True, "turn.curse_catch_scale": 0.0}).params
    assert count_caught(new_rng(72, 0), 0, sure.curse, sure.fp, 2000) == 2000
    assert count_caught(new_rng(72, 1), 0, never.curse, never.fp, 2000) == 0
    # whole games: every cheat is caught and costs exactly one token
    config = configure(sticky, {"curses": True, "turn.curse_catch_scale": 10.0,
                                "strategy.max_catch_p": 1.0}, "cheater")
    recs = sticky.run_batch(config, 13, 0, 300)
    assert recs["curse_cheats"].sum() > 100
    assert (recs["curse_penalties"] == recs["curse_cheats"]).all()
    assert (recs["void_turns"] == 0).all()
    tokens = sum(recs[f"tokens_{s}"] for s in range(4))
    # tokens held = tokens gained - penalties; gained = turns - mishaps
    assert (tokens == recs["turns"] - recs["mishaps"] - recs["curse_penalties"]).all()
    for index in range(10):
        _, ev = replay(config, 13, index)
        held = Counter()
        for _, events in split_turns(ev):
            ignored = {int(e[1]) for e in events if e[0] == EV_CURSE_CHOICE and e[3] == 1}
            penalised = [e for e in events if e[0] == EV_PENALTY]
            assert {int(e[1]) for e in penalised} == ignored
            for e in penalised:
                assert held[int(e[1])] > 0  # only a holder is asked, so a token is there
                held[int(e[1])] -= 1
                assert e[3] == held[int(e[1])]
            codes = [int(e[0]) for e in events]
            for e in events:
                if e[0] == EV_TOKEN:
                    held[int(e[1])] += 1
                    assert e[2] == held[int(e[1])]
            if EV_PENALTY in codes and EV_TOKEN in codes:
                # the catch is resolved before the turn's token is awarded
                assert max(k for k, c in enumerate(codes) if c == EV_PENALTY) < codes.index(
                    EV_TOKEN)
    # a cheater nobody watches is never penalised
    recs = sticky.run_batch(configure(sticky, {"curses": True, "turn.curse_catch_scale": 0.0},
                                      "cheater"), 13, 0, 300)
    assert recs["curse_cheats"].sum() > 100 and recs["curse_penalties"].sum() == 0


CURSE_CLAUSES = [
    ("STK-C-4", "one_eye", "Play with one eye closed."),
    ("STK-C-5", "singing", "Play while singing."),
    ("STK-C-6", "one_leg", "Play standing on one leg."),
    ("STK-C-7", "two_tentacles", "Play with two tentacles in the same hand."),
    ("STK-C-8", "step_back", "Step back from the table."),
    ("STK-C-9", "extra_creature", "You must have at least one additional Creature on your "
                                  "tentacle to be able to win a Deep One token."),
    ("STK-C-10", "wrong_hand", "Play with your wrong hand."),
    ("STK-C-11", "no_speaking", "Play without speaking."),
    ("STK-C-12", "upside_down", "Play holding your tentacle upside down."),
    ("STK-C-13", "resting_start", "Start each turn with your tentacle resting on the table."),
    ("STK-C-14", "spin_tentacle", "Spin your tentacle above your head before your first "
                                  "tentacle throw."),
    ("STK-C-15", "spin_around", "Spin around once before your first tentacle throw."),
]


def test_STK_C_4_to_15_cover_the_rulebook_cards(sticky):
    """STK-C-4..15: the rules data holds exactly the rulebook's 12 Curse cards, in order."""
    config = configure(sticky, {"curses": True})
    assert list(config.params.curse_names) == [c[1] for c in CURSE_CLAUSES]
    assert list(config.params.curse_texts) == [c[2] for c in CURSE_CLAUSES]
    book = RULEBOOK.read_text(encoding="utf-8")
    for _, _, text in CURSE_CLAUSES:
        assert "- " + text.rstrip(".") in book


@pytest.mark.parametrize("clause,card,text", [pytest.param(*c, id=c[0]) for c in CURSE_CLAUSES])
def test_STK_C_4_to_15_curse_card_effect(sticky, clause, card, text):
    """STK-C-4 .. STK-C-15: each Curse card changes its holder's race as its rules data
    says: time_factor scales reaction and rethrow times, delay_s comes before the first throw,
    aim_factor widens the aim error, extra_creature makes the target alone not score."""
    rules = sticky.default_rules()
    config = configure(sticky, {"curses": True})
    p = config.params
    c = list(p.curse_names).index(card)
    tf, af, delay, extra = (rules[f"curse.{card}.{k}"] for k in
                            ("time_factor", "aim_factor", "delay_s", "extra_creature"))
    assert tuple(p.curse[c, [CU_TIME, CU_AIM, CU_DELAY, CU_EXTRA]]) == (tf, af, delay, extra)
    assert tf != 1.0 or af != 1.0 or delay > 0.0 or extra  # every card does something
    seat = 1

    # speed: the first throw comes delay_s + time_factor x the reaction time
    for i in range(30):
        plain = first_throw_time(new_rng(i, 5), seat, False, NO_CURSE, p.skill, p.curse, p.fp)
        cursed = first_throw_time(new_rng(i, 5), seat, False, c, p.skill, p.curse, p.fp)
        assert cursed == pytest.approx(delay + tf * plain, rel=1e-12)

    # accuracy: the chance a throw hits uses aim_sd x aim_factor
    reach = p.fp[F_REACH] + p.fp[F_TOKEN_R]
    aim = p.skill[seat, SK_AIM]
    assert p.phit[seat, 0] == pytest.approx(-np.expm1(-reach**2 / (2 * aim**2)))
    assert p.phit[seat, 1 + c] == pytest.approx(-np.expm1(-reach**2 / (2 * (aim * af) ** 2)))

    # the race on a target with no token within reach, with the same stream, cursed versus
    # not; the nearest other Creature lies 10 cm away
    b = Board(p)
    target = b.put(creature_index(4, 2, p.ip), 30.0, 25.0)
    mate = b.put(creature_index(0, 0, p.ip), 40.0, 25.0)
    more_throws = 0
    for seed in range(40):
        free = run_race(config, b, target, seat=seat, t=1.0, seed=seed)
        under = run_race(config, b, target, seat=seat, t=1.0, cursed=c, seed=seed)
        n_free = sum(1 for e in free.events if e[0] == EV_THROW)
        n_under = sum(1 for e in under.events if e[0] == EV_THROW)
        assert free.result == RACE_SCORED
        if extra:  # the target alone does not score: after hitting it the seat throws at
            # the nearest other Creature, and scores once that one comes along too (every
            # landing point is computed then, so the streams of the two races part)
            assert under.result == RACE_SCORED and under.caught == target
            throws = [e for e in under.events if e[0] == EV_THROW]
            aimed = [e[6] for e in throws]
            first_hit = next(k for k, e in enumerate(throws) if e[3] == 1)
            assert set(aimed[:first_hit + 1]) == {target}
            if any(e[4] > 0 for e in throws[:first_hit + 1]):
                # a throw at the target (a miss landing by the other Creature, or the hit)
                # brought company along: it scores at once
                assert first_hit == len(throws) - 1
            else:
                assert set(aimed[first_hit + 1:]) == {mate} and n_under >= 2
            continue
        assert under.result == RACE_SCORED
        assert n_under >= n_free  # a wider aim never hits sooner on the same stream
        more_throws += n_under > n_free
        if n_under == n_free:  # same throws: every interval is scaled by time_factor
            assert under.t - 1.0 == pytest.approx(tf * (free.t - 1.0), rel=1e-9)
    if af > 1.0 and not extra:
        assert more_throws > 0
    elif not extra:
        assert more_throws == 0

    # forced hits (aim 0): the finish is the start plus time_factor x the detach time;
    # extra_creature scores once another Creature sticks along with the target
    forced = configure(sticky, {"curses": True, "profiles.average.aim_sd_cm": 0.0})
    fp_ = forced.params
    b = Board(fp_)
    target = b.put(creature_index(4, 2, fp_.ip), 30.0, 25.0)
    b.put(creature_index(1, 1, fp_.ip), 33.2, 25.0)  # within 3.5 cm: sticks on every hit
    out = run_race(forced, b, target, seat=seat, t=2.0, cursed=c)
    assert out.result == RACE_SCORED
    assert out.t == pytest.approx(2.0 + tf * fp_.skill[seat, SK_DETACH])


def test_STK_C_9_extra_creature_needs_company_on_the_tentacle(sticky):
    """STK-C-9 (extra_creature): with the target alone on a forced hit, the cursed seat keeps
    it on the tentacle and throws at the nearest other Creature; it scores (the designated
    Creature) once that one sticks too.  With no other Creature on the table it cannot score
    this turn.  An uncursed seat scores at once."""
    config = configure(sticky, {"curses": True, "profiles.average.aim_sd_cm": 0.0,
                                "max_throws": 6, "profiles.average.notice_p": 1.0})
    p = config.params
    c = list(p.curse_names).index("extra_creature")
    detach = p.skill[0, SK_DETACH]
    rethrow = config.rules["profiles.average.rethrow_s"]
    b = Board(p)
    target = b.put(creature_index(0, 4, p.ip), 10.0, 10.0)
    plain = run_race(config, b, target, t=1.0)
    assert plain.result == RACE_SCORED and plain.t == pytest.approx(1.0 + detach)
    # no other Creature anywhere: the turn cannot be scored, so the seat stops at once
    alone = run_race(config, b, target, t=1.0, cursed=c)
    assert alone.result == RACE_GAVE_UP
    assert [e[0] for e in alone.events] == [EV_THROW, EV_GIVE_UP]
    # the nearest of two other Creatures is thrown at next (aim 0: every throw hits)
    near = b.put(creature_index(2, 1, p.ip), 16.0, 10.0)
    b.put(creature_index(3, 3, p.ip), 10.0, 30.0)
    for seed in range(10):
        out = run_race(config, b, target, t=1.0, cursed=c, seed=seed)
        throws = [e for e in out.events if e[0] == EV_THROW]
        assert out.result == RACE_SCORED and out.caught == target
        assert [(e[3], e[6]) for e in throws] == [(1, target), (1, near)]
        gap = throws[1][2] / 1000.0 - 1.0
        assert rethrow * 0.5 - 1e-3 <= gap <= rethrow * 1.5 + 1e-3
        assert out.t == pytest.approx(1.0 + gap + detach, abs=2e-3)
    # what comes along with the second Creature counts too: an Investigator beside it
    b.put(0, 19.0, 10.0)
    out = run_race(config, b, target, t=1.0, cursed=c, decide=always_detach)
    assert out.result == RACE_MISHAP and out.inv_hits == 1


def test_STK_C_9_an_investigator_hit_counts_at_the_throw_even_when_the_turn_ends_first(sticky):
    """STK-C-9 / STK-T-5 records: a throw that catches the target with an Investigator is an
    Investigator hit when it is thrown, with or without the extra_creature Curse, even if the
    turn ends (``best``) before the cursed player's throw for company."""
    config = configure(sticky, {"curses": True, "profiles.average.aim_sd_cm": 0.0,
                                "profiles.average.notice_p": 1.0})
    p = config.params
    c = list(p.curse_names).index("extra_creature")
    b = Board(p)
    target = b.put(creature_index(0, 4, p.ip), 10.0, 10.0)
    b.put(0, 13.0, 10.0)  # an Investigator picked up by a dead-centre throw
    b.put(creature_index(2, 1, p.ip), 40.0, 40.0)  # the only other Creature, far away
    for cursed in (NO_CURSE, c):
        # the turn ends 0.3 s after the throw: before the cursed player's throw for company
        # (the other begins a shake then, which counts)
        out = run_race(config, b, target, t=1.0, cursed=cursed, best=1.3)
        assert out.result == RACE_LOST
        assert (out.inv_hits, out.contacts) == (1, 1)
        assert out.shakes == (1 if cursed == NO_CURSE else 0)
        throws = [e for e in out.events if e[0] == EV_THROW]
        assert len(throws) == 1 and throws[0][3] == 1 and throws[0][5] == 1


def test_STK_C_9_company_picked_up_by_a_miss_is_company(sticky):
    """STK-C-9: holding the target, a throw at the nearest other Creature that misses it but
    picks up another Creature brings company all the same: the player detaches and scores."""
    config = configure(sticky, {"curses": True, "profiles.average.aim_sd_cm": 4.0,
                                "components.investigators": 0})
    p = config.params
    c = list(p.curse_names).index("extra_creature")
    b = Board(p)
    target = b.put(creature_index(0, 4, p.ip), 10.0, 10.0)
    mate = b.put(creature_index(2, 1, p.ip), 20.0, 10.0)
    b.put(creature_index(3, 3, p.ip), 20.0, 15.0)  # 5 cm beyond the mate: reached by misses
    seen = 0
    for seed in range(400):
        out = run_race(config, b, target, t=1.0, cursed=c, seed=seed)
        assert out.result == RACE_SCORED and out.caught == target
        ev = [e for e in out.events if e[0] in (EV_THROW, EV_DETACH)]
        for k, e in enumerate(ev):
            if e[0] == EV_THROW and e[6] == mate and e[3] == 0 and e[4] > 0:
                seen += 1
                assert ev[k + 1][0] == EV_DETACH and ev[k + 1][3] == 1  # scores at once
    assert seen > 5


def test_STK_C_9_the_creature_on_the_tentacle_is_not_picked_up_again(sticky):
    """STK-C-9: the designated Creature, already on the tentacle, is not among the tokens a
    throw at the second Creature picks up, however close that throw lands to it."""
    config = configure(sticky, {"curses": True, "profiles.average.aim_sd_cm": 2.5})
    p = config.params
    c = list(p.curse_names).index("extra_creature")
    b = Board(p)
    target = b.put(creature_index(0, 4, p.ip), 10.0, 10.0)
    mate = b.put(creature_index(2, 1, p.ip), 14.0, 10.0)  # 4 cm away: within a throw's reach
    with_mate = at_mate = 0
    for seed in range(200):
        out = run_race(config, b, target, t=1.0, cursed=c, seed=seed)
        for e in out.events:
            if e[0] == EV_THROW and e[6] == target and e[3] == 1:
                with_mate += e[4]  # the mate came along with the target: company at once
            if e[0] == EV_THROW and e[6] == mate:
                at_mate += 1
                assert e[4] == 0  # the only other Creature is the target, already aboard
    assert with_mate > 10 and at_mate > 50


def test_STK_C_9_an_investigator_already_aboard_is_not_counted_twice(sticky):
    """STK-C-9: an Investigator the first throw brought along with the target is on the
    tentacle already; the throw at the second Creature, within reach of it too, does not pick
    it up again (one Investigator to shake off, not two)."""
    config = configure(sticky, {"curses": True, "profiles.average.aim_sd_cm": 0.0,
                                "profiles.average.notice_p": 1.0, "turn.shake_drop_p": 0.0,
                                "max_throws": 4})
    p = config.params
    c = list(p.curse_names).index("extra_creature")
    b = Board(p)
    target = b.put(creature_index(0, 4, p.ip), 10.0, 10.0)
    b.put(0, 13.0, 10.0)  # an Investigator between the two Creatures, 3 cm from each
    mate = b.put(creature_index(2, 1, p.ip), 16.0, 10.0)
    out = run_race(config, b, target, t=1.0, cursed=c)
    throws = [e for e in out.events if e[0] == EV_THROW]
    # the second throw picks up nothing new: the Investigator is aboard from the first
    assert [(e[3], e[5], e[6]) for e in throws[:2]] == [(1, 1, target), (1, 0, mate)]
    shakes = [e for e in out.events if e[0] == EV_SHAKE]
    assert shakes and all(e[4] == 1 for e in shakes)  # one Investigator left, never two
