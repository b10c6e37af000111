"""End-to-end smoke: a Sticky Cthulhu run produces sane, reproducible records."""

import numpy as np


def test_sticky_batch_records(sticky):
    config = sticky.configure()
    recs = sticky.run_batch(config, seed=3, start=0, count=200)
    assert recs.dtype.names[:3] == ("outcome", "winner", "turns")
    assert (recs["outcome"] == 0).all()
    tokens = np.stack([recs[f"tokens_{s}"] for s in range(4)], axis=1)
    # STK-E-1: the winner holds exactly tokens_to_win, nobody else reached it
    assert (tokens[np.arange(200), recs["winner"]] == 5).all()
    assert (tokens.max(axis=1) == 5).all()
    assert ((tokens == 5).sum(axis=1) == 1).all()
