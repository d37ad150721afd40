"""The random bot: a uniform draw over the distinct legal moves (deploy is one move, each
pile the side commands is one); a forfeit draws nothing."""
from __future__ import annotations

import numpy as np

from ....jit import helper_inline, popcount
from ....rng import rand_int
from ..move import legal_mask, lowest_bit


@helper_inline
def random_move(state, R, p, cast):
    """(the move at a uniform index of :func:`~..move.legal_moves`' list, without writing the
    list (same draw on seat ``p``'s stream, same move), the number of legal moves); (-1, 0),
    drawing nothing, when no move is legal."""
    T = R.track
    dep, legal = legal_mask(state, R, p, cast)
    n = np.int64(dep + popcount(legal))
    if n == 0:
        return np.int64(-1), n
    r = rand_int(state.streams, 1 + p, n)
    if dep:
        if r == 0:
            return np.int64(T), n
        r -= 1
    for _ in range(r):
        legal &= legal - 1
    k = lowest_bit(legal)
    return np.int64(k if p == 0 else T - 1 - k), n
