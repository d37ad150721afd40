"""The random bot: a uniform draw over the distinct legal moves."""
from __future__ import annotations

from numba import njit

from ....jit import popcount
from ....rng import rand_int
from ..move import legal_mask, lowest_bit
from ..state import R_T


@njit(cache=True, inline="always")
def random_move(st, R, p, cast, rs):
    """The random bot: the move at a uniform index of :func:`legal_moves`' list, without
    writing the list (same draw, same move); -1, drawing nothing, when no move is legal."""
    T = R[R_T]
    dep, legal = legal_mask(st, R, p, cast)
    n = dep + popcount(legal)
    if n == 0:
        return -1
    r = rand_int(rs, 1 + p, n)
    if dep:
        if r == 0:
            return T
        r -= 1
    for _ in range(r):
        legal &= legal - 1
    k = lowest_bit(legal)
    return k if p == 0 else T - 1 - k
