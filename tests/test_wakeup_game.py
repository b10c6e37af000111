"""Wake Up, Cthulhu! as a whole: hidden information, determinize, strategies, the rules data, the
checker over every reading, the CLI.  (One test per rule clause is in test_wakeup_rules.py.)"""

import json
import re

import numpy as np
import pytest
from cli_support import invoke
from wakeup_support import GAME, config

from simcore import engine as E
from simcore.rules_data import RulesError
from simcore.wakeup import rules
from simcore.wakeup import state as S
from strategies import registry
from strategies.wakeup import by_seat, heuristic, random_policy


def run_cli(args):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def decisions(cfg, seed, games, every=1):
    """(state copy, true hidden state) at every ``every``-th question of ``games`` playouts
    played by the configured strategy."""
    out = []
    for index in range(games):
        events, _ = GAME.trace_events(cfg, seed, index)
        st = GAME.new_state(cfg, seed, index)
        k = 0
        for e in events:
            if e[0] != E.EV_DECIDE:
                continue
            if st.decision != S.D_NONE and k % every == 0 and \
                    len(GAME.legal_actions(cfg, st)) > 1:
                out.append(st.copy())
            k += 1
            GAME.apply(cfg, st, int(e[3]))
    return out


def view_of(cfg, st, seat):
    view = np.zeros(S.V_SIZE, dtype=np.int64)
    rules.observe(cfg.params.ip, cfg.params.fp, st.s, st.h, seat, view)
    return view


def mask_of(cfg, s, h):
    mask = np.zeros(cfg.params.ip[E.P_MASK_SIZE], dtype=np.uint8)
    rules.legal(cfg.params.ip, cfg.params.fp, s, h, mask)
    return mask


def other_world(cfg, st, seat, sub):
    """A hidden state the seat cannot tell from the true one (determinize from its view)."""
    h = np.full_like(st.h, 77)  # whatever was there before must not matter
    rng = np.empty(4, dtype=np.uint64)
    E.rng_seed_stream(rng, 991, sub, E.STREAM_SEARCH, seat)
    rules.determinize(cfg.params.ip, cfg.params.fp, st.s, view_of(cfg, st, seat), seat, rng, h)
    return h


@pytest.mark.parametrize("players", [2, 4])
def test_decisions_do_not_change_with_what_the_seat_cannot_see(players):
    """Other hands, the deck's order, the face-down piles and the other players' face-down
    bids are redrawn (determinize from the deciding seat's view); the legal choices, the view
    and each strategy's answer stay the same."""
    cfg = config(players, "heuristic")
    fns = [(heuristic, cfg.strategy.values), (random_policy, np.zeros(1)),
           (by_seat, registry.get("wakeup", "by_seat",
                                  {"seat_0": "racer", "seat_1": "hoarder"}).values)]
    changed = 0
    states = decisions(cfg, 4, 4)
    assert len(states) > 100
    for st in states:
        seat = st.seat
        view = view_of(cfg, st, seat)
        mask = mask_of(cfg, st.s, st.h)
        for sub in range(2):
            h2 = other_world(cfg, st, seat, sub)
            changed += not np.array_equal(h2, st.h)
            assert np.array_equal(view_of(cfg, st.__class__(st.s, h2, st.rng), seat), view)
            assert np.array_equal(mask_of(cfg, st.s, h2), mask)
            for fn, params in fns:
                r1 = np.empty(4, dtype=np.uint64)
                E.rng_seed_stream(r1, 5, 0, E.STREAM_STRATEGY, 0)
                r2 = r1.copy()
                a1 = fn(cfg.params.ip, cfg.params.fp, st.s, view, mask, params, r1)
                a2 = fn(cfg.params.ip, cfg.params.fp, st.s, view, mask_of(cfg, st.s, h2),
                        params, r2)
                assert a1 == a2
    assert changed > len(states)  # the hidden state really was redrawn


def test_determinize_is_consistent_with_the_seats_view():
    for players in (1, 3):
        cfg = config(players, "random")
        for st in decisions(cfg, 6, 3, every=3):
            seat = st.seat
            h2 = other_world(cfg, st, seat, 0)
            st2 = st.__class__(st.s.copy(), h2, st.rng.copy())
            assert GAME.check_state(cfg, st2) == 0  # every card and count accounted for
            assert np.array_equal(view_of(cfg, st2, seat), view_of(cfg, st, seat))
            for p in range(cfg.params.ip[E.P_SEATS]):  # the public sizes are kept
                assert h2[S.H_HAND + p * 5:S.H_HAND + p * 5 + 5].sum() == st.s[S.S_HAND_N + p]
                assert h2[S.H_BID + p * 5:S.H_BID + p * 5 + 5].sum() == st.s[S.S_BID_N + p]
            # a game goes on from the made-up state under the rules
            while st2.playing and st2.s[E.DECISIONS] < st.s[E.DECISIONS] + 30:
                GAME.apply(cfg, st2, int(GAME.legal_actions(cfg, st2)[0]))
                assert GAME.check_state(cfg, st2) == 0


def test_determinize_keeps_the_deck_seen_while_searching():
    cfg = config(4, "heuristic")
    seen = 0
    for st in decisions(cfg, 2, 30):
        if st.decision != S.D_SEARCH:
            continue
        view = view_of(cfg, st, st.seat)
        assert view[S.V_DECK_SEEN] == 1
        h2 = other_world(cfg, st, st.seat, 1)
        n = st.s[S.S_DECK_N]
        assert np.array_equal(np.bincount(h2[S.H_DECK:S.H_DECK + n], minlength=5),
                              view[S.V_DECK:S.V_DECK + 5])
        seen += 1
    assert seen > 0


def test_by_seat_plays_each_seats_style():
    cfg = config(4, "heuristic")
    same = GAME.configure({"players": 4}, "by_seat")
    a = GAME.run_batch(cfg, 3, 0, 300)
    b = GAME.run_batch(same, 3, 0, 300)
    assert np.array_equal(a.view(np.int64), b.view(np.int64))  # all heuristic: the same games
    mixed = GAME.configure({"players": 4, "strategy.seat_2": "random",
                            "strategy.seat_0": "racer"}, "by_seat")
    recs = GAME.run_batch(mixed, 3, 0, 2000)
    wins = np.bincount(recs["winner"] + 1, minlength=5)[1:]
    assert wins[2] < 0.05 * len(recs) < wins[0]  # the random seat hardly ever wins
    assert (recs["illegal_answers"] == 0).all()


def test_styles_differ_as_described():
    base = GAME.run_batch(config(4, "heuristic"), 1, 0, 1500)
    racer = GAME.run_batch(config(4, "racer"), 1, 0, 1500)
    hoarder = GAME.run_batch(config(4, "hoarder"), 1, 0, 1500)

    def objects(r):
        return sum(r[f"conjured_{k}"].mean() for k in S.OBJECTS)

    assert objects(racer) < objects(base) < objects(hoarder)
    assert racer["cards_bid"].mean() < base["cards_bid"].mean() < hoarder["cards_bid"].mean()


def test_bad_rules_data_fails_in_one_line_naming_the_key():
    with pytest.raises(RulesError, match=r"key 'spells.picatrix.cost': 'two bones' is not a "
                                         r"cost term"):
        GAME.configure({"spells.picatrix.cost": "two bones"})
    with pytest.raises(RulesError, match=r"key 'objects.ulthar.cost': 'toad' is not an "
                                         r"Ingredient kind"):
        GAME.configure({"objects.ulthar.cost": "1 toad"})
    with pytest.raises(RulesError, match=r"key 'components.ingredients': the Ingredients' "
                                         r"counts add up to 65"):
        GAME.configure({"ingredients.bone.count": 13})
    with pytest.raises(RulesError, match=r"key 'board.red_candle'"):
        GAME.configure({"board.red_candle": 20})
    with pytest.raises(RulesError, match=r"first_player.*seat 3 does not exist"):
        GAME.configure({"players": 2, "first_player": 3})
    cost = GAME.configure({"spells.picatrix.cost": "2X + 1 eye + 2"}).params.costs[S.C_PICATRIX]
    assert cost.kinds == (0, 0, 0, 1) and cost.same == 2 and cost.any == 2


READINGS = [("readings.object_limit", "player"), ("readings.rlyeh_window", "last_call"),
            ("readings.ran_tegoth_window", "after_action"),
            ("readings.end_check", "end_of_turn"), ("readings.line_end", "start"),
            ("readings.close_gaps", "toward_start"), ("readings.stellaris", "higher_limit"),
            ("readings.ulthar_extra_action", True), ("readings.tie_count", "ingredients"),
            ("readings.may_pass", True), ("readings.solo_curse_moves_cthulhu", True),
            ("readings.deadlock", "none"), ("readings.object_order", "turn_order"),
            ("readings.yuggoth_placement", "forced"), ("readings.yuggoth_exchange", "replace"),
            ("readings.solo_ran_tegoth", True)]


@pytest.mark.parametrize("key,value", READINGS, ids=[k.split(".")[1] for k, _ in READINGS])
def test_every_reading_plays_under_the_checker(key, value):
    for players in ((1,) if "solo" in key else (2, 4)):
        for strategy in ("random", "hoarder"):
            cfg = GAME.configure({"players": players, key: value}, strategy)
            result = GAME.check(cfg, games=150, seed=5)
            assert result["violations"] == 0 and result["illegal_answers"] == 0
            assert result["stuck"] == 0


def test_run_reports_seats_endings_and_the_solitaire_win_rate(tmp_path):
    out = run_cli(["run", "wakeup", "--players", "3", "--games", "3000", "--json", "-q"])
    summary = json.loads(out)
    assert len(summary["seat_win_rates"]) == 3 and len(summary["seat_differences"]) == 3
    ends = summary["extra"]["game_end"]
    assert abs(ends["next_to_cthulhu"] + ends["red_candle"] + ends["turn_cap"] - 1) < 1e-9
    assert set(summary["extra"]["tokens_on_board"]) == {"seat_0", "seat_1", "seat_2"}
    assert set(summary["extra"]["curses_per_game"]) == set(S.CURSES)
    solo = json.loads(run_cli(["run", "wakeup", "--players", "1", "--games", "2000",
                               "--json", "-q"]))
    rate = solo["seat_win_rates"][0]["rate"]
    assert 0.3 < rate < 0.7 and rate == pytest.approx(solo["outcome_rates"]["portal_player"])


def _outcome_lines(text: str) -> dict[str, str]:
    """The run summary's outcomes: name -> the rest of its line (rate, interval, words)."""
    block = text.split("outcomes (what ended the game):\n")[1].split("\n  game length")[0]
    return {line.split()[0]: line.split(None, 1)[1] for line in block.splitlines()}


def test_the_solitaire_summary_lists_only_solitaire_outcomes_each_explained():
    solo = _outcome_lines(run_cli(["run", "wakeup", "--players", "1", "--games", "300", "-q"]))
    assert list(solo) == ["portal_player", "portal_cthulhu", "turn_cap"]
    assert "the player won" in solo["portal_player"] and "Path C" in solo["portal_player"]
    assert "Cthulhu won" in solo["portal_cthulhu"] and "Path D" in solo["portal_cthulhu"]
    multi = _outcome_lines(run_cli(["run", "wakeup", "--players", "2", "--games", "300", "-q"]))
    assert list(multi) == ["next_to_cthulhu", "red_candle", "turn_cap"]
    assert "next to an Arcane Knowledge token" in multi["next_to_cthulhu"]
    assert "Red Candle" in multi["red_candle"] and "most tokens" in multi["red_candle"]
    for line in (*solo.values(), *multi.values()):
        assert re.match(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]  +\S", line)  # rate, interval, words
    assert GAME.possible_outcomes(GAME.configure({"players": 1}).rules) == (
        "portal_player", "portal_cthulhu", "turn_cap")


def test_every_outcome_is_described_in_words_by_its_game():
    from simcore.registry import GAME_MODULES, get_game

    for name in GAME_MODULES:
        g = get_game(name)
        for o in g.outcomes:
            text = g.outcome_text.get(o, "")
            if not (g.kind.cooperative and o == "win"):
                assert len(text.split()) >= 4 and text not in (o, o.replace("_", " ")), (name, o)


def test_trace_shows_the_board_hands_bids_and_cthulhu():
    text = run_cli(["trace", "wakeup", "--seed", "2", "--players", "2"])
    assert "square 24 |" in text and "| pit (54)" in text  # the board as a line of text
    assert "Green (seat 0)'s hand:" in text and "bids a card face down" in text
    assert "Cthulhu moves from square 54 to 53" in text and "Result:" in text
    solo = run_cli(["trace", "wakeup", "--seed", "2", "--players", "1"])
    assert "Cthulhu lays" in solo and "Path C: the player on square" in solo


def test_trace_names_a_solitaire_ran_tegoth_move_as_such():
    """With the switch ``solo_ran_tegoth`` the player copies Cthulhu's move: the trace says
    Ran-Tegoth moved the figure so many squares (not a Curse, not tokens)."""
    cfg = GAME.configure({"players": 1, "readings.solo_ran_tegoth": True}, "heuristic")
    for index in range(40):
        text = GAME.trace(cfg, 1, index)
        if "plays Ran-Tegoth" in text:
            break
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if "plays Ran-Tegoth:" in line)
    assert re.search(r"the player plays Ran-Tegoth: the figure moves (\d+) squares, as Cthulhu "
                     r"did\.", lines[k])
    assert lines[k + 1].endswith("(Ran-Tegoth).") and "tokens" not in lines[k]


def test_check_command_finds_nothing():
    out = run_cli(["check", "wakeup", "--games", "2000", "--strategy", "random",
                   "--players", "4"])
    assert "violations: 0" in out and "result: ok" in out


def test_every_assumed_number_plays_at_both_ends_of_its_plausible_range():
    """Each ``assumed`` (or ``public``) number's plausible range (rules.toml ``plausible``, or
    one step each way) is a game the rules accept and play under the checker at either end;
    an Ingredient count moves with another kind's so that the deck keeps its 64 cards."""
    rules = GAME.default_rules()
    counts = [f"ingredients.{k}.count" for k in S.ING_KEYS]
    tried = 0
    for key, entry in rules.entries.items():
        if entry.source == "rulebook" or not entry.numeric or key in ("players", "max_turns"):
            continue
        lo, hi = entry.plausible_range()
        assert lo <= entry.value <= hi
        for end in {lo, hi} - {entry.value}:
            over = {key: end, "players": 1 if key.startswith("solo.") else 4}
            if key in counts:  # the rest of the deck from (or to) another kind
                other = counts[-1] if key != counts[-1] else counts[0]
                over[other] = rules[other] - (end - entry.value)
            result = GAME.check(GAME.configure(over, "heuristic"), games=20, seed=3)
            assert result["violations"] == 0 and result["stuck"] == 0, (key, end)
            tried += 1
    assert tried >= 20
