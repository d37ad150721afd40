"""2. Move: deploy, advance or carry off, by exactly the cast; capture by landing on top.

Moves are coded ``0..T-1`` (the pile on that index) and ``T`` (deploy).  A
destination is an index, ``T`` for "off the board" (carried off) or -1 when the
move is illegal.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import helper
from .state import (DRAG_REVERSE, ENTRY_SPACE, EXIT_PILE, G_CAPT, G_DEEP, G_KILLS, G_RESC,
                    R_DRAG, R_ENTRY, R_EXIT, R_STACK, R_T, STACK_PILES, index_of, progress)


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


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array([
    0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6], dtype=np.int64)


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` (x > 0), by a de Bruijn multiply."""
    low = np.uint64(x & -x)
    return _DEBRUIJN_INDEX[np.int64((low * _DEBRUIJN) >> np.uint64(58))]


@njit(cache=True, inline="always")
def legal_mask(st, R, p, cast):
    """(1 if deploying is legal else 0, bit mask of the legal piles in ``p``'s progress
    coordinates: bit k = the pile k spaces from its entry), branch-free on bit masks."""
    T = R[R_T]
    M = np.int64(0)  # spaces p commands
    H = np.int64(0)  # ... holding prisoners (height > 1)
    for k in range(T):
        i = k if p == 0 else T - 1 - k
        c = np.int64(st[i] == p)
        h = np.int64(st[T + i] + st[2 * T + i] > 1)
        M |= c << k
        H |= (c & h) << k
    full = (np.int64(1) << T) - 1
    block = M & ~H if R[R_STACK] == STACK_PILES else M
    if R[R_DRAG] == DRAG_REVERSE:
        fw = M & ~H
        bw = M & H
    else:
        fw = M
        bw = np.int64(0)
    legal = fw & ~(block >> cast)                       # forward, landing or carried off
    legal |= bw & ~((block << cast) & full)             # backward (drag=reverse piles)
    if R[R_EXIT] == EXIT_PILE:                          # lone warriors may not leave
        off_f = full & ~((np.int64(1) << max(T - cast, 0)) - 1)
        off_b = (np.int64(1) << min(cast, T)) - 1
        legal &= ~(((fw & off_f) | (bw & off_b)) & ~H)
    dep = 0
    if st[3 * T + p] > 0:
        if R[R_ENTRY] == ENTRY_SPACE:
            d = 0
        else:
            d = cast - 1
        if d < T and ((block >> d) & 1) == 0:
            dep = 1
    return dep, legal


@njit(cache=True, inline="always")
def legal_moves(st, R, p, cast, out):
    """Fill ``out`` with the distinct legal moves (deploy first, then piles from the entry on).

    Same answers as testing :func:`destination` on every move (see :func:`legal_mask`).
    ``out`` needs room for T + 1 entries.
    """
    T = R[R_T]
    dep, legal = legal_mask(st, R, p, cast)
    n = 0
    if dep:
        out[0] = T
        n = 1
    while legal != 0:
        k = lowest_bit(legal)
        out[n] = k if p == 0 else T - 1 - k
        n += 1
        legal &= legal - 1
    return n


@njit(cache=True, inline="always")
def apply_move(st, R, p, mv, cast, tally):
    """Play a legal move; update ``tally`` (kills, captures, rescues, deepest pile)."""
    T = R[R_T]
    q = 1 - p
    if mv == T:  # deploy
        st[3 * T + p] -= 1
        m0 = 1 - p
        m1 = p
        if R[R_ENTRY] == ENTRY_SPACE:
            dest = index_of(p, 0, T)
        else:
            dest = index_of(p, cast - 1, T)
    else:
        m0 = st[T + mv]
        m1 = st[2 * T + mv]
        st[mv] = -1
        st[T + mv] = 0
        st[2 * T + mv] = 0
        prog = progress(p, mv, T)
        if R[R_DRAG] == DRAG_REVERSE and m0 + m1 > 1:
            np_ = prog - cast
        else:
            np_ = prog + cast
        dest = T if (np_ >= T or np_ < 0) else index_of(p, np_, T)
    if dest == T:  # carried off: enemies die, own warriors go home
        mine = m0 if p == 0 else m1
        theirs = m1 if p == 0 else m0
        st[3 * T + 2 + q] += theirs
        st[3 * T + p] += mine
        tally[G_KILLS + p] += theirs
    else:
        d0 = st[T + dest]
        d1 = st[2 * T + dest]
        if st[dest] == q:
            tally[G_CAPT + p] += 1
            tally[G_RESC + p] += d0 if p == 0 else d1
        st[T + dest] = d0 + m0
        st[2 * T + dest] = d1 + m1
        st[dest] = p
        h = d0 + m0 + d1 + m1
        if h > tally[G_DEEP]:
            tally[G_DEEP] = h
