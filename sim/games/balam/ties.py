"""How a heuristic bot breaks ties (uniformly, on its own stream), and the random bot's
uniform picks."""
from __future__ import annotations

import numpy as np

from ...jit import helper_inline
from ...rng import rand_int
from ...search import cmp_value
from ...search import take as search_take

# ======================================================================= ties
# A heuristic bot never breaks a tie by site number, card slot or option order: two
# values within TIE_TOL (relative) of each other are equal, and equal options are chosen
# uniformly on the bot's own stream (slot 1 + seat), by the reservoir rule of
# sim.rng.tie_wins (the k-th option found equal to the best so far replaces it with
# probability 1/k), which draws nothing when there is no tie: the search layer's argmax
# (sim.search.take) with this tolerance.
TIE_TOL = 1e-9


@helper_inline
def cmp_tie(v, best):
    """1 when ``v`` beats ``best``, 0 when they are equal (|v - best| <= 1e-9 max(1, |best|)),
    -1 when it is worse."""
    return cmp_value(v, best, TIE_TOL)


@helper_inline
def take(rs, k, v, best, ties):
    """One step of an argmax with uniform ties on stream k: (take this option, the best
    value, the number of options tied for it).  Start with best = -1e18, ties = 0."""
    return search_take(rs, k, v, best, ties, TIE_TOL)


@helper_inline
def pick(rs, k, n):
    """A uniform index in [0, n) from stream k; draws nothing when n == 1."""
    if n <= 1:
        return np.int64(0)
    return rand_int(rs, k, n)


@helper_inline
def choose_subset(rs, k, opts, m, n):
    """Move a uniformly chosen n of opts[0:m] to opts[0:n] (partial Fisher-Yates on stream
    k); draws nothing when all m are taken."""
    if n >= m:
        return
    for i in range(n):
        j = i + pick(rs, k, m - i)
        x = opts[i]
        opts[i] = opts[j]
        opts[j] = x
