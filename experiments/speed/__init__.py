"""How fast the simulator plays, for ``cthulhu-sim bench``: a game's random-number floor
(``rng_floor``: the draws a playout makes, counted by a counting build, against the
generator's own rate) and the split of a playout's time between its strategy and the engine
(``strategy_cost``).  Nothing here writes results; it measures."""
