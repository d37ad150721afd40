"""Puluc's board state and rule slots: the layout every other module reads.

Board state is one flat int64 array ``st`` of length ``3*T + 4`` (T = track length):

* ``st[i]``          commander of the pile on space index i (0-based), -1 when empty;
* ``st[T + i]``      Jade warriors in that pile;
* ``st[2*T + i]``    Cinnabar warriors in that pile;
* ``st[3*T + s]``    warriors of side s at home (reserve);
* ``st[3*T + 2 + s]`` warriors of side s killed.

A pile never splits, and every capture puts the mover on top, so the commander
and the two counts are all a pile needs.  Side 0 (Jade) enters at index 0 and
runs up; side 1 (Cinnabar) enters at index T-1 and runs down.  A side's
*progress* on index i is ``i`` for Jade and ``T-1-i`` for Cinnabar.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import helper, kernel

# rule array slots
R_T, R_W, R_LOTS, R_CPT, R_ENTRY, R_EXIT, R_DRAG, R_HORIZON, R_FIRST, R_STACK = range(10)
N_RULES = 10
ENTRY_SPACE, ENTRY_CAST = 0, 1
EXIT_ANY, EXIT_PILE = 0, 1
DRAG_FORWARD, DRAG_REVERSE = 0, 1
FIRST_ALTERNATE, FIRST_JADE, FIRST_CINNABAR = 0, 1, 2
STACK_NEVER, STACK_PILES = 0, 1

# per-game tallies
G_KILLS, G_CAPT, G_RESC, G_FORF = 0, 2, 4, 6
G_MOVES, G_DEEP = 8, 9
N_TALLY = 10


@kernel
def new_state(T, W):
    st = np.zeros(3 * T + 4, dtype=np.int64)
    reset_state(st, T, W)
    return st


@helper
def reset_state(st, T, W):
    for i in range(T):
        st[i] = -1
        st[T + i] = 0
        st[2 * T + i] = 0
    st[3 * T] = W
    st[3 * T + 1] = W
    st[3 * T + 2] = 0
    st[3 * T + 3] = 0


@njit(cache=True, inline="always")
def progress(p, i, T):
    return i if p == 0 else T - 1 - i


@njit(cache=True, inline="always")
def index_of(p, prog, T):
    return prog if p == 0 else T - 1 - prog


@helper
def destination(st, R, p, mv, cast):
    """Where move ``mv`` of side ``p`` with ``cast`` ends: index, T (off), or -1 (illegal)."""
    T = R[R_T]
    if mv == T:  # deploy
        if st[3 * T + p] == 0:
            return -1
        if R[R_ENTRY] == ENTRY_SPACE:
            dest = index_of(p, 0, T)
        else:
            if cast > T:
                return -1
            dest = index_of(p, cast - 1, T)
        height = 0
    else:
        if st[mv] != p:
            return -1
        height = st[T + mv] + st[2 * T + mv]
        prog = progress(p, mv, T)
        if R[R_DRAG] == DRAG_REVERSE and height > 1:
            np_ = prog - cast  # a pile with prisoners runs back to its own home
        else:
            np_ = prog + cast
        if np_ >= T or np_ < 0:
            if R[R_EXIT] == EXIT_PILE and height < 2:
                return -1
            return T
        dest = index_of(p, np_, T)
    if st[dest] == p:
        if R[R_STACK] == STACK_PILES and st[T + dest] + st[2 * T + dest] > 1:
            return dest
        return -1
    return dest
