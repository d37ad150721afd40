"""2. Move: deploy, advance or carry off, by exactly the cast; capture by landing on top.

Moves are coded ``0..T-1`` (the pile on that index) and ``T`` (deploy).  A
destination is an index, ``T`` for "off the board" (carried off) or -1 when the
move is illegal.  Every function reads a :data:`~.state.STATE_DTYPE` record ``state``
and the :class:`~.state.Rules` ``R``; ``p`` is the side moving, ``cast`` the spaces cast.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_inline
from .state import DRAG_REVERSE, ENTRY_SPACE, EXIT_PILE, STACK_PILES, index_of, progress


@helper
def destination(state, R, p, mv, cast):
    """Where move ``mv`` of side ``p`` with ``cast`` ends: index, T (off), or -1 (illegal)."""
    T = R.track
    if mv == T:  # deploy
        if state.home[p] == 0:
            return -1
        if R.entry == ENTRY_SPACE:
            dest = index_of(p, 0, T)
        else:
            if cast > T:
                return -1
            dest = index_of(p, cast - 1, T)
        height = 0
    else:
        if state.commander[mv] != p:
            return -1
        height = state.count[0, mv] + state.count[1, mv]
        prog = progress(p, mv, T)
        if R.drag == DRAG_REVERSE and height > 1:
            np_ = prog - cast  # a pile with prisoners runs back to its own home
        else:
            np_ = prog + cast
        if np_ >= T or np_ < 0:
            if R.exit == EXIT_PILE and height < 2:
                return -1
            return T
        dest = index_of(p, np_, T)
    if state.commander[dest] == p:
        if R.stack_own == STACK_PILES and state.count[0, dest] + state.count[1, dest] > 1:
            return dest
        return -1
    return dest


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array([
    0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6], dtype=np.int64)


@helper_inline
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` (x > 0), by a de Bruijn multiply."""
    low = np.uint64(x & -x)
    return _DEBRUIJN_INDEX[np.int64((low * _DEBRUIJN) >> np.uint64(58))]


@helper_inline
def side_masks(state, R, p):
    """(spaces ``p`` commands, those holding prisoners), bit masks in ``p``'s progress
    coordinates (bit k = the space k spaces from its entry): what :func:`legal_bits` reads."""
    T = R.track
    M = np.int64(0)  # spaces p commands
    H = np.int64(0)  # ... holding prisoners (height > 1)
    for k in range(T):
        i = k if p == 0 else T - 1 - k
        c = np.int64(state.commander[i] == p)
        h = np.int64(state.count[0, i] + state.count[1, i] > 1)
        M |= c << k
        H |= (c & h) << k
    return M, H


@helper_inline
def legal_bits(R, M, H, at_home, cast):
    """:func:`legal_mask` from the masks of :func:`side_masks` (``at_home``: the side has a
    warrior at home): branch-free bit operations, so one pair of masks serves every cast."""
    T = R.track
    full = (np.int64(1) << T) - 1
    block = M & ~H if R.stack_own == STACK_PILES else M
    if R.drag == DRAG_REVERSE:
        fw = M & ~H
        bw = M & H
    else:
        fw = M
        bw = np.int64(0)
    legal = fw & ~(block >> cast)                       # forward, landing or carried off
    legal |= bw & ~((block << cast) & full)             # backward (drag=reverse piles)
    if R.exit == EXIT_PILE:                             # lone warriors may not leave
        off_f = full & ~((np.int64(1) << max(T - cast, 0)) - 1)
        off_b = (np.int64(1) << min(cast, T)) - 1
        legal &= ~(((fw & off_f) | (bw & off_b)) & ~H)
    dep = 0
    if at_home:
        if R.entry == ENTRY_SPACE:
            d = 0
        else:
            d = cast - 1
        if d < T and ((block >> d) & 1) == 0:
            dep = 1
    return dep, legal


@helper_inline
def legal_mask(state, R, p, cast):
    """(1 if deploying is legal else 0, bit mask of the legal piles in ``p``'s progress
    coordinates: bit k = the pile k spaces from its entry), branch-free on bit masks."""
    M, H = side_masks(state, R, p)
    return legal_bits(R, M, H, state.home[p] > 0, cast)


@helper_inline
def legal_moves(state, R, p, cast, out):
    """Fill ``out`` with the distinct legal moves (deploy first, then piles from the entry on);
    returns how many.

    Same answers as testing :func:`destination` on every move (see :func:`legal_mask`).
    ``out`` needs room for T + 1 entries.
    """
    T = R.track
    dep, legal = legal_mask(state, R, p, cast)
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


@helper_inline
def apply_move(state, R, p, mv, cast):
    """Play a legal move; update the state's tallies (kills, captures, rescues, deepest pile)."""
    T = R.track
    q = 1 - p
    if mv == T:  # deploy
        state.home[p] -= 1
        m0 = 1 - p
        m1 = p
        if R.entry == ENTRY_SPACE:
            dest = index_of(p, 0, T)
        else:
            dest = index_of(p, cast - 1, T)
    else:
        m0 = np.int64(state.count[0, mv])
        m1 = np.int64(state.count[1, mv])
        state.commander[mv] = -1
        state.count[0, mv] = 0
        state.count[1, mv] = 0
        prog = progress(p, mv, T)
        if R.drag == DRAG_REVERSE and m0 + m1 > 1:
            np_ = prog - cast
        else:
            np_ = prog + cast
        dest = T if (np_ >= T or np_ < 0) else index_of(p, np_, T)
    if dest == T:  # carried off: enemies die, own warriors go home
        mine = m0 if p == 0 else m1
        theirs = m1 if p == 0 else m0
        state.dead[q] += theirs
        state.home[p] += mine
        state.kills[p] += theirs
    else:
        d0 = np.int64(state.count[0, dest])
        d1 = np.int64(state.count[1, dest])
        if state.commander[dest] == q:
            state.captures[p] += 1
            state.rescues[p] += d0 if p == 0 else d1
        state.count[0, dest] = d0 + m0
        state.count[1, dest] = d1 + m1
        state.commander[dest] = p
        h = d0 + m0 + d1 + m1
        if h > state.deepest:
            state.deepest = h
