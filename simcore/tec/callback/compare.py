"""The step engine against the callback engine it replaces: the same games, and the cost.

    python -m simcore.tec.callback.compare records --games N [--strategy heuristic]
    python -m simcore.tec.callback.compare bench [--games N] [--rounds R]

``records`` plays every Great Old One at 1-4 players (normal; hard and madness at 2 players)
with both engines on the same seeds and compares the records field by field (the callback
record's fields are the step record's game fields plus ``violations``), hashing each
setting's records (SHA-256 over the int64 rows, in playout order).  ``bench`` times both
engines on one thread, interleaved round by round, by process CPU time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

import numpy as np

SETTINGS = ([(goo, players, "normal") for goo in ("nyarlathotep", "yog-sothoth", "yig", "cthulhu")
             for players in (1, 2, 3, 4)]
            + [(goo, 2, diff) for goo in ("nyarlathotep", "yog-sothoth", "yig", "cthulhu")
               for diff in ("hard", "madness")])
BATCH = 65_536


def _configs(goo: str, players: int, difficulty: str, strategy: str):
    import strategies  # noqa: F401  (registers the strategies)
    from simcore.registry import get_game
    from simcore.tec.callback.run import callback_params

    g = get_game("tec")
    config = g.configure({"goo": goo, "players": players, "difficulty": difficulty}, strategy)
    return g, config, callback_params(config.rules)


def _common(step_rec: np.ndarray, fields: tuple[str, ...]) -> np.ndarray:
    """The step records' columns in the callback record's layout."""
    from simcore.tec.callback import state as CS

    cols = [fields.index(f) for f in CS.RECORD_FIELDS]
    return step_rec[:, cols]


def records(games: int, strategy: str, seed: int, settings=SETTINGS) -> list[dict]:
    from simcore.tec.callback.run import run

    out = []
    for goo, players, difficulty in settings:
        g, config, cip = _configs(goo, players, difficulty, strategy)
        h_cb = hashlib.sha256()
        h_st = hashlib.sha256()
        differ = 0
        first = None
        wins = 0
        done = 0
        t0 = time.time()
        while done < games:
            n = min(BATCH, games - done)
            a = np.ascontiguousarray(run(cip, strategy, seed, done, n))
            recs = g.run_batch(config, seed, done, n)
            b = np.ascontiguousarray(_common(recs.view(np.int64).reshape(n, -1),
                                             g.record_fields))
            h_cb.update(a.tobytes())
            h_st.update(b.tobytes())
            bad = np.nonzero((a != b).any(axis=1))[0]
            if bad.size and first is None:
                first = done + int(bad[0])
            differ += int(bad.size)
            wins += int((a[:, 0] == 0).sum())
            done += n
        row = {"goo": goo, "players": players, "difficulty": difficulty, "strategy": strategy,
               "seed": seed, "games": games, "differing": differ, "first_differing": first,
               "win_rate": wins / games, "callback_sha256": h_cb.hexdigest(),
               "step_sha256": h_st.hexdigest(), "seconds": round(time.time() - t0, 1)}
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


def bench(games: int, rounds: int, strategy: str, seed: int) -> dict:
    """CPU seconds a game on one thread, both engines in turn for ``rounds`` rounds."""
    import numba

    from simcore.tec.callback.run import run

    numba.set_num_threads(1)
    g, config, cip = _configs("nyarlathotep", 2, "normal", strategy)
    run(cip, strategy, seed, 0, 64)  # compiled and warm
    g.run_batch(config, seed, 0, 64)
    cb, st = [], []
    for r in range(rounds):
        start = r * games
        for which in ((0, 1) if r % 2 == 0 else (1, 0)):
            t = time.process_time()
            if which == 0:
                run(cip, strategy, seed, start, games)
                cb.append(time.process_time() - t)
            else:
                g.run_batch(config, seed, start, games)
                st.append(time.process_time() - t)
    cb_us = [1e6 * x / games for x in cb]
    st_us = [1e6 * x / games for x in st]
    ratio = [b / a for a, b in zip(cb_us, st_us, strict=True)]
    return {"strategy": strategy, "games_per_round": games, "rounds": rounds,
            "callback_us": cb_us, "step_us": st_us,
            "callback_us_median": float(np.median(cb_us)),
            "step_us_median": float(np.median(st_us)),
            "ratio_median": float(np.median(ratio)), "ratios": ratio}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m simcore.tec.callback.compare")
    p.add_argument("what", choices=("records", "bench"))
    p.add_argument("--games", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--strategy", default="heuristic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default="", help="goo:players:difficulty,... (default: all)")
    args = p.parse_args(argv)
    if args.what == "records":
        settings = SETTINGS
        if args.only:
            settings = [(a, int(b), c) for a, b, c in
                        (x.split(":") for x in args.only.split(","))]
        rows = records(args.games, args.strategy, args.seed, settings)
        sys.exit(0 if all(r["differing"] == 0 for r in rows) else 1)
    print(json.dumps(bench(args.games, args.rounds, args.strategy, args.seed)))


if __name__ == "__main__":
    main()
