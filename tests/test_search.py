"""Search strategies (strategies/search.py), seat tables, ladders and tournaments.

Search must never cheat (its answer depends only on what the deciding seat may see and on its
own stream), must leave the real game untouched, and must keep every game reproducible from
its seed; tables must seat each strategy where they say.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import engine as E
from simcore.registry import game_names, get_game
from strategies import registry

SEARCHABLE = [n for n in game_names() if get_game(n).kind.searchable]
SMALL = {"strategy.iterations": 24, "strategy.depth": 6}


def small_search(name: str, strategy: str = "mcts", **extra):
    return get_game(name).configure({**SMALL, **extra}, strategy)


def decide_with_search(g, config, st, qseed: int = 5) -> int:
    """The search's answer at the decision ``st`` is at, called as the driver calls it."""
    from simcore.kernels import RNG_WORDS

    ip, fp = config.params.ip, config.params.fp
    pols, sps, seat_pol, search, rpol, rsp, qp, wi, wf = E.strategy_parts(config.strategy, ip)
    mask = np.zeros(ip[E.P_MASK_SIZE], dtype=np.uint8)
    g.functions()[1](ip, fp, st.s, st.h, mask)
    view = np.zeros(max(ip[E.P_VIEW_SIZE], 1), dtype=np.int64)
    g.functions()[3](ip, fp, st.s, st.h, st.seat, view)
    qrng = np.empty(RNG_WORDS, dtype=np.uint64)
    E.rng_seed_stream(qrng, 1, 0, E.STREAM_SEARCH, qseed)
    ev = np.zeros((0, E.EV_WIDTH), dtype=np.int64)
    a = E.search_runner()(search, g.functions(), ip, fp, st.s, view, mask, rpol, rsp, qp, qrng,
                          np.zeros(max(wi, 1), dtype=np.int64), np.zeros(max(wf, 1)), ev,
                          np.zeros(1, dtype=np.int64))
    assert mask[a] == 1
    return int(a)


def a_midgame_state(g, config, seed: int = 4, moves: int = 40):
    rng = np.random.default_rng(seed)
    st = g.new_state(config, seed, 0)
    for _ in range(moves):
        legal = g.legal_actions(config, st)
        if not st.playing:
            break
        g.apply(config, st, int(rng.choice(legal)))
    while st.playing and len(g.legal_actions(config, st)) < 2:
        g.apply(config, st, int(g.legal_actions(config, st)[0]))
    assert st.playing
    return st


@pytest.mark.parametrize("name", SEARCHABLE)
@pytest.mark.parametrize("strategy", ["mcts", "flat_mc", "improve"])
def test_search_never_sees_future_dice_or_hidden_cards(name, strategy):
    """Same visible state, different game stream (future dice) and a different hidden state
    drawn for the deciding seat: the same answer, and the real state untouched."""
    g = get_game(name)
    config = small_search(name, strategy)
    st = a_midgame_state(g, config)
    before = st.copy()
    a1 = decide_with_search(g, config, st)
    assert st.same_as(before), "search changed the real game"
    other = st.copy()
    other.rng[:] = np.array([7, 8, 9, 10], dtype=np.uint64)  # other future dice
    if other.h.size > 1:  # another deal of what the seat cannot see
        ip, fp = config.params.ip, config.params.fp
        view = np.zeros(max(ip[E.P_VIEW_SIZE], 1), dtype=np.int64)
        g.functions()[3](ip, fp, other.s, other.h, other.seat, view)
        from simcore.kernels import new_rng

        g.functions()[4](ip, fp, other.s, view, other.seat, new_rng(99, 1), other.h)
    assert decide_with_search(g, config, other) == a1
    # a different search stream may choose otherwise, but always legally
    decide_with_search(g, config, st, qseed=6)


@pytest.mark.parametrize("name", SEARCHABLE)
def test_games_with_search_are_reproducible_and_trace_equals_batch(name, restore_threads):
    import numba

    g = get_game(name)
    config = small_search(name)
    numba.set_num_threads(1)
    one = g.run_batch(config, 3, 0, 4)
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    two = g.run_batch(config, 3, 0, 4)
    assert np.array_equal(one, two)
    assert (one["searches"] > 0).all() and (one["illegal_answers"] == 0).all()
    assert np.array_equal(g.trace_record(config, 3, 2), one.view(np.int64).reshape(4, -1)[2])
    tail = g.run_batch(config, 3, 2, 2)
    assert np.array_equal(tail, one[2:])


@pytest.mark.parametrize("name", SEARCHABLE)
def test_search_parameters_by_name_and_the_rollout_players(name):
    g = get_game(name)
    config = g.configure({"strategy.iterations": 50, "strategy.rollout": "random",
                          "strategy.c": 1.5}, "mcts")
    params = config.strategy.param_dict()
    assert params["iterations"] == 50 and params["rollout"] == "random" and params["c"] == 1.5
    qp, ints, floats = config.strategy.search_setup(config.params.ip)
    from strategies import search as S

    assert qp[S.Q_ITERATIONS] == 50 and qp[S.Q_C] == 1.5
    assert qp[E.Q_SEATS] == (1 << int(config.params.ip[E.P_SEATS])) - 1  # every seat
    assert ints > 50 * S.NODE_INTS and floats > 50
    assert config.changed()["strategy.rollout"] == "random"
    from simcore.rules_data import RulesError

    with pytest.raises(RulesError, match="strategy.rollout"):
        g.configure({"strategy.rollout": "nobody"}, "mcts")
    with pytest.raises(RulesError, match="strategy.rollout.nonsense"):
        g.configure({"strategy.rollout": "heuristic", "strategy.rollout.nonsense": 1}, "mcts")


def _moves(text: str) -> list[str]:
    """A trace's moves: without its heading (which names the strategy) and the searches'
    accounts (a search's line and the actions it tried under it)."""
    import re

    lines = text.splitlines()[1:]
    return [re.sub(r", searches=\d+", "", ln) for ln in lines
            if " searches (" not in ln and ": tried " not in ln]


@pytest.mark.parametrize("strategy", ["mcts", "flat_mc"])
def test_a_tie_goes_to_the_rollout_players_choice_not_the_first_legal_action(strategy):
    """Stalls: where every action scores alike the search must keep its rollout player's own
    choice.  With a turn cap of one or two turns every hex playout ends as a stalemate (worth
    0 to both sides), so all actions tie at every decision, and the searching game must be the
    rollout player's (the heuristic without its random tie noise, so that its choice does not
    depend on which stream it draws from) move for move, even with a budget below the number of
    legal actions; a tie that fell to the lowest action number (a wait, or the board's first
    hex) played another game and, as search against search, stalled."""
    from dataclasses import replace

    g = get_game("hex")
    quiet = {"strategy.setup_noise": 0.0, "strategy.tie_noise": 0.0}
    for turns in (1, 2):
        plain = g.configure({"max_turns": turns, **quiet}, "heuristic")
        searching = g.configure({"max_turns": turns, "strategy.iterations": 12,
                                 "strategy.rollout": "heuristic"}, strategy)
        searching = replace(searching, strategy=replace(
            searching.strategy, rollout=plain.strategy))
        for seed in (3, 4):
            text = g.trace(searching, seed, 0)
            assert " searches (12 iterations)" in text
            assert _moves(text) == _moves(g.trace(plain, seed, 0))


def test_the_trace_shows_what_the_search_considered():
    g = get_game("hex")
    config = g.configure({**SMALL, "strategy.seats": 0, "strategy.show": 2}, "mcts")
    text = g.trace(config, 2, 0)
    assert "Good searches (24 iterations) on place an Artefact:" in text
    assert "tried" in text and "mean result" in text
    assert "Bad searches" not in text  # Bad plays the rollout strategy (seats = 0)


def test_a_table_seats_each_strategy_where_it_says():
    g = get_game("hex")
    good_random = g.run_batch(g.configure({"strategy.seat_0": "random",
                                           "strategy.seat_1": "heuristic"}, "table"), 1, 0, 60)
    bad_random = g.run_batch(g.configure({"strategy.seat_0": "heuristic",
                                          "strategy.seat_1": "random"}, "table"), 1, 0, 60)
    assert (good_random["winner"] == 1).mean() > 0.9  # the random side never wins
    assert (bad_random["winner"] == 0).mean() > 0.9
    # a seat's own parameters reach it, and the table prints what changed
    cfg = g.configure({"strategy.seat_0": "heuristic", "strategy.seat_0.caution": 0.0,
                       "strategy.seat_1": "rusher"}, "table")
    assert cfg.changed() == {"strategy.seat_1": "rusher", "strategy.seat_0.caution": 0.0}
    plain = g.configure({"strategy.seat_0": "heuristic", "strategy.seat_1": "heuristic"},
                        "table")
    assert np.array_equal(g.run_batch(plain, 4, 0, 30), g.run_batch(g.configure(), 4, 0, 30))


def test_a_table_with_a_search_seat_searches_there_only():
    g = get_game("hex")
    cfg = g.configure({"strategy.seat_0": "heuristic", "strategy.seat_1": "mcts",
                       "strategy.seat_1.iterations": 16, "strategy.seat_1.depth": 4}, "table")
    pols, sps, seat_pol, search, rpol, rsp, qp, wi, wf = E.strategy_parts(cfg.strategy,
                                                                          cfg.params.ip)
    assert qp[E.Q_SEATS] == 2  # seat 1 only
    rec = g.run_batch(cfg, 2, 0, 3)
    assert (rec["searches"] > 0).all()


def _seat_config(g, seat: int, strategy: str, params: dict, over: dict):
    """A table with ``strategy`` (and its ``params``) at ``seat`` and the heuristic elsewhere:
    one search strategy, the engine's plain path."""
    seats = int(g.configure(over).params.ip[E.P_SEATS])
    table = {**over, **{f"strategy.seat_{k}": "heuristic" for k in range(seats)}}
    table[f"strategy.seat_{seat}"] = strategy
    table.update({f"strategy.seat_{seat}.{k}": v for k, v in params.items()})
    return g.configure(table, "table")


def _search_answer(g, config, st, seed: int, index: int) -> int:
    """The answer of ``config``'s one search at ``st``, from the stream the driver gives
    decision ``st.s[DECISIONS]`` of playout ``index`` of run ``seed``."""
    from simcore.kernels import RNG_WORDS

    ip, fp = config.params.ip, config.params.fp
    pols, sps, seat_pol, search, rpol, rsp, qp, wi, wf = E.strategy_parts(config.strategy, ip)
    mask = np.zeros(ip[E.P_MASK_SIZE], dtype=np.uint8)
    g.functions()[1](ip, fp, st.s, st.h, mask)
    view = np.zeros(max(ip[E.P_VIEW_SIZE], 1), dtype=np.int64)
    g.functions()[3](ip, fp, st.s, st.h, st.seat, view)
    qrng = np.empty(RNG_WORDS, dtype=np.uint64)
    E.rng_seed_stream(qrng, seed, index, E.STREAM_SEARCH, int(st.s[E.DECISIONS]))
    ev = np.zeros((0, E.EV_WIDTH), dtype=np.int64)
    return int(E.search_runner()(search, g.functions(), ip, fp, st.s, view, mask, rpol, rsp,
                                 qp, qrng, np.zeros(max(wi, 1), dtype=np.int64),
                                 np.zeros(max(wf, 1)), ev, np.zeros(1, dtype=np.int64)))


# two different searches at one table: (game, settings, seat 0's, seat 1's)
TWO_SEARCHES = [
    ("hex", {}, ("mcts", {"iterations": 8, "depth": 4}),
     ("flat_mc", {"iterations": 12, "depth": 4})),
    ("wakeup", {"players": 2}, ("mcts", {"iterations": 8, "depth": 4}),
     ("mcts", {"iterations": 20, "depth": 4})),
    # the same search and budget, rolling out with different parameters of the heuristic
    ("hex", {}, ("mcts", {"iterations": 8, "depth": 4, "rollout.aggression": 1.0}),
     ("mcts", {"iterations": 8, "depth": 4})),
]


@pytest.mark.parametrize("name,over,first,second", TWO_SEARCHES,
                         ids=["hex-mcts-flat_mc", "wakeup-mcts-8-20", "hex-rollout-params"])
def test_two_different_searches_at_one_table_each_search_their_own_seat(
        name, over, first, second, restore_threads):
    """Every searched decision of the table's games is the answer the deciding seat's own
    search gives alone (its algorithm, budget, rollout parameters and stream): a seat handed
    the other member's block, parameters or workspace would answer otherwise somewhere."""
    import numba

    g = get_game(name)
    table = {**over, "strategy.seat_0": first[0], "strategy.seat_1": second[0]}
    for seat, (_, params) in enumerate((first, second)):
        table.update({f"strategy.seat_{seat}.{k}": v for k, v in params.items()})
    cfg = g.configure(table, "table")
    parts = E.strategy_parts(cfg.strategy, cfg.params.ip)
    from strategies import search as S

    assert parts[3] is S.table_search and parts[6][E.Q_SEATS] == 3
    alone = [_seat_config(g, seat, s, p, over) for seat, (s, p) in enumerate((first, second))]
    seed = 5
    checked = {0: 0, 1: 0}
    for index in range(2):
        events, rec = g.trace_events(cfg, seed, index)
        st = g.new_state(cfg, seed, index)
        for row in events[events[:, 0] == E.EV_DECIDE]:
            seat, action, searched = int(row[1]), int(row[3]), int(row[6])
            if searched:
                assert _search_answer(g, alone[seat], st, seed, index) == action, (
                    f"playout {index}, decision {int(st.s[E.DECISIONS])}, seat {seat}")
                checked[seat] += 1
            g.apply(cfg, st, action)
        assert not st.playing and rec[list(g.record_fields).index("illegal_answers")] == 0
    assert min(checked.values()) > 3, checked
    # each search's own rows in the trace carry its budget (and hex's trace says it)
    events, _ = g.trace_events(cfg, seed, 0)
    budget_of: dict[int, set[int]] = {0: set(), 1: set()}
    pending = []
    for row in events:
        if row[0] == E.EV_SEARCH:
            pending.append(int(row[5]))
        elif row[0] == E.EV_DECIDE:
            budget_of[int(row[1])].update(pending)
            pending = []
    assert budget_of == {0: {first[1]["iterations"]}, 1: {second[1]["iterations"]}}
    if name == "hex":
        text = g.trace(cfg, seed, 0)
        assert f"Good searches ({first[1]['iterations']} iterations)" in text
        assert f"Bad searches ({second[1]['iterations']} iterations)" in text
    # reproducible across thread counts, and the trace plays the batch's game
    numba.set_num_threads(1)
    one = g.run_batch(cfg, seed, 0, 4)
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    assert np.array_equal(one, g.run_batch(cfg, seed, 0, 4))
    assert np.array_equal(g.trace_record(cfg, seed, 1), one.view(np.int64).reshape(4, -1)[1])


def test_searches_that_roll_out_with_different_players_are_refused_at_one_table():
    g = get_game("hex")
    cfg = g.configure({"strategy.seat_0": "mcts", "strategy.seat_0.rollout": "random",
                       "strategy.seat_1": "mcts", "strategy.seat_1.iterations": 50}, "table")
    with pytest.raises(ValueError, match="share one rollout player") as info:
        E.strategy_parts(cfg.strategy, cfg.params.ip)
    assert "random" in str(info.value) and "\n" not in str(info.value)


def test_the_ladder_pairs_its_rungs_and_writes_its_report(tmp_path):
    from experiments.analysis.ladder import run_ladder

    result = run_ladder("hex", None, games=30, seed=2, budgets=(8,),
                        search_params={"depth": 4})
    labels = [r.rung.label for r in result.rungs]
    assert labels[0] == "random" and labels[-1] == "mcts 8" and "heuristic" in labels
    summary = result.summary()
    assert summary["metric"] == "Good win rate against heuristic"
    assert all("ci95" in r for r in summary["rungs"])
    assert "diff_to_previous" not in summary["rungs"][0]
    assert "diff_to_previous" in summary["rungs"][1]
    paths = result.write(tmp_path / "ladder")
    assert {p.name for p in paths} >= {"ladder.json", "chart-ladder.png", "report.md"}
    assert "strength ladder" in result.format()


def test_a_seat_known_by_its_number_reads_seat_n_in_the_ladder():
    from experiments.analysis.ladder import LadderResult

    numbered = LadderResult("wakeup", "Wake Up, Cthulhu!", False, 0, "heuristic", 10, 1, {}, [],
                            seat_name="0")
    assert numbered.metric == "seat 0 win rate against heuristic"
    named = LadderResult("hex", "hex", False, 1, "heuristic", 10, 1, {}, [], seat_name="Bad")
    assert named.metric == "Bad win rate against heuristic"


def test_a_cooperative_ladder_reports_the_skill_gap():
    from experiments.analysis.ladder import LadderResult, Rung, RungResult
    from experiments.stats import wilson

    hits_low = np.zeros(100, dtype=bool)
    hits_low[:10] = True
    hits_high = np.zeros(100, dtype=bool)
    hits_high[:60] = True
    rungs = [RungResult(Rung("random", "random"), wilson(10, 100), 20.0, hits_low),
             RungResult(Rung("mcts 100", "mcts", {}, 100), wilson(60, 100), 20.0, hits_high)]
    result = LadderResult("tec", "Tiny Epic Cthulhu", True, 0, "", 100, 1, {}, rungs)
    gap = result.summary()["skill_gap"]
    assert gap["mcts 100 - random"]["diff"] == pytest.approx(0.5)
    lo, hi = gap["mcts 100 - random"]["ci95"]
    assert lo > 0.3 and hi < 0.65


def test_the_tournament_rates_and_rotates_every_seating(tmp_path):
    from experiments.analysis.tournament import run_tournament

    out = tmp_path / "tour"
    result = run_tournament("hex", ["heuristic", "random"], games=40, seed=3, out=out)
    table = result.tables
    assert len(table) == 4  # every seating, both strategies at both seats
    s = result.summary()
    assert [r["strategy"] for r in s["ratings"]] == ["heuristic", "random"]
    assert s["win_matrix"]["heuristic"]["random"]["rate"] > 0.9
    lo, hi = s["ratings"][0]["ci95"]
    assert lo <= s["ratings"][0]["rating"] <= hi
    assert (out / "tournament.json").exists() and (out / "chart-ratings.png").exists()
    again = run_tournament("hex", ["heuristic", "random"], games=40, seed=3, out=out,
                           resume=True)  # every table already played
    assert np.allclose(again.ratings, result.ratings)


def test_tournament_and_ladder_refuse_what_they_cannot_do():
    from experiments.analysis.ladder import run_ladder
    from experiments.analysis.tournament import tournament_spec
    from simcore.rules_data import RulesError

    with pytest.raises(RulesError, match="cooperative"):
        tournament_spec("tec", ["heuristic", "random"], 10, 1)
    with pytest.raises(RulesError, match="twice"):
        tournament_spec("hex", ["heuristic", "heuristic"], 10, 1)
    with pytest.raises(RulesError, match="cannot take a seat"):
        tournament_spec("hex", ["heuristic", "nobody"], 10, 1)
    with pytest.raises(RulesError, match="not a search strategy"):
        run_ladder("hex", None, games=5, search="heuristic")
    assert "mcts" in registry.names("hex") and "table" in registry.names("hex")


def test_search_strategies_as_a_sweep_axis_with_their_own_settings(tmp_path):
    """A strategy axis of search strategies with shared settings of theirs (the game's
    default strategy lacks them: they are each strategy's, checked with it)."""
    from experiments import run_sweep

    spec = {"game": "hex", "seed": 1, "strategy": ["flat_mc", "mcts"],
            "settings": {"strategy.iterations": 6, "strategy.depth": 3},
            "games": {"per_cell": 3}}
    result = run_sweep(spec, tmp_path / "s", report=False)
    assert list(result.results["strategy"]) == ["flat_mc", "mcts"]
    assert (result.results["mean_searches"] > 0).all()
    from experiments.running.spec import SpecError

    with pytest.raises(SpecError, match="iterations"):
        run_sweep({**spec, "strategy": ["heuristic", "mcts"]}, tmp_path / "t", report=False)
