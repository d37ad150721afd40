"""1. Making Exchanges, 2. Moving the Monolith and the Raven, 3. Placing Ladders and Priests.

An exchange of level ``l`` between adjacent towers ``a`` and ``b`` is legal when bit ``l``
is set in both cut masks, neither tower touches the Monolith, and (two players) ``l`` is
not the Raven's level.

Moves are coded ``16 * edge + level``; edges are the orthogonally adjacent pairs in the
board's edge list (``R[R_EA + e] < R[R_EB + e]``), listed in the order that
``board_edges`` in ``__init__.py`` builds them.  The legal moves are listed edge by
edge, levels ascending within an edge: the random bot picks uniformly from that list.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_inline, popcount
from .state import (LSUP, MA, MB, PSUP, R_E, R_EA, R_EB, R_EBITS, R_HMASK, R_L, R_LADDERS, R_LP,
                    R_N, R_RAVEN, R_SPACES, RAV, cut_mask, nib)


@helper_inline
def blocked(st):
    """(the bits of the two towers the Monolith stands between, 0 where it stands on none:
    an edge touching either is blocked; the Raven's level bit)."""
    blk = np.int64(0)
    if st.pcs[MA] >= 0:
        blk = (np.int64(1) << st.pcs[MA]) | (np.int64(1) << st.pcs[MB])
    return blk, np.int64(1) << st.pcs[RAV]


@helper
def gen_moves(st, R, out):
    """Legal exchanges, edge by edge, levels ascending; returns how many."""
    blk, rbit = blocked(st)
    L = R[R_L]
    cnt = 0
    for e in range(R[R_E]):
        if R[R_EBITS + e] & blk:
            continue
        m = st.cut[R[R_EA + e]] & st.cut[R[R_EB + e]] & ~rbit
        if m:
            for l in range(1, L):
                out[cnt] = 16 * e + l
                cnt += (m >> l) & 1
    return cnt


@helper_inline
def edge_masks(st, R, pc, emask):
    """``emask[e]``: the legal levels on edge e (bit mask); returns the number of legal
    exchanges (the length of ``gen_moves``' list, without writing it)."""
    blk, rbit = blocked(st)
    cnt = 0
    for e in range(R[R_E]):
        m = st.cut[R[R_EA + e]] & st.cut[R[R_EB + e]] & ~rbit
        m = m if (R[R_EBITS + e] & blk) == 0 else 0
        emask[e] = m
        cnt += pc[m]
    return cnt


@helper_inline
def pick_move(emask, E, r, pc):
    """Move number ``r`` of the list ``gen_moves`` would write, from ``edge_masks``."""
    for e in range(E):
        k = pc[emask[e]]
        if r < k:
            m = emask[e]
            for _ in range(r):
                m &= m - 1
            low = m & -m
            return 16 * e + pc[low - 1]
        r -= k
    return -1


@helper_inline
def has_move(st, R):
    blk, rbit = blocked(st)
    for e in range(R[R_E]):
        if ((R[R_EBITS + e] & blk) == 0
                and (st.cut[R[R_EA + e]] & st.cut[R[R_EB + e]] & ~rbit) != 0):
            return True
    return False


@helper_inline
def count_legal(st, R):
    """The number of legal exchanges (``gen_moves``' count, without listing them)."""
    blk, rbit = blocked(st)
    cnt = 0
    for e in range(R[R_E]):
        if (R[R_EBITS + e] & blk) == 0:
            cnt += popcount(st.cut[R[R_EA + e]] & st.cut[R[R_EB + e]] & ~rbit)
    return cnt


@helper_inline
def place_on(st, R, t, p, full):
    """A join in tower t by seat p: a ladder beside it when there is room and p has one
    left; a priest on it when the join completed it (``full``) and p has one left."""
    if st.ls[t] < R[R_SPACES + t] and st.pcs[LSUP + p] > 0:
        st.lad[t, p] += 1
        st.ls[t] += 1
        st.pcs[LSUP + p] -= 1
    if full and st.pcs[PSUP + p] > 0:
        st.pr[t] = p
        st.pcs[PSUP + p] -= 1


@helper
def apply_exchange(st, R, mv, p):
    """Exchange, move the Monolith and the Raven, place ladders and priests (two players).

    Returns flags: bit 0/1 a join at the cut in tower a/b, bit 2/3 tower a/b complete."""
    e = mv >> 4
    l = mv & 15
    a = R[R_EA + e]
    b = R[R_EB + e]
    hm = R[R_HMASK + l]
    xa = st.tw[a]
    xb = st.tw[b]
    st.tw[a] = (xa & ~hm) | (xb & hm)
    st.tw[b] = (xb & ~hm) | (xa & hm)
    L = R[R_L]
    ca = cut_mask(st.tw[a], L)
    cb = cut_mask(st.tw[b], L)
    st.cut[a] = ca
    st.cut[b] = cb
    st.pcs[MA] = a
    st.pcs[MB] = b
    if R[R_RAVEN]:
        st.pcs[RAV] = l
    ja = 1 - ((ca >> l) & 1)
    jb = 1 - ((cb >> l) & 1)
    fa = np.int64(ca == 0)
    fb = np.int64(cb == 0)
    if R[R_LP]:
        if ja:
            place_on(st, R, a, p, fa)
        if jb:
            place_on(st, R, b, p, fb)
    return ja | (jb << 1) | (fa << 2) | (fb << 3)


@helper
def check_invariants(st, R, before):
    """Violations: a level missing a colour, a stale cut mask, a complete tower changed."""
    n = R[R_N]
    L = R[R_L]
    full = (1 << n) - 1
    bad = 0
    for l in range(L):
        seen = 0
        for t in range(n):
            seen |= np.int64(1) << nib(st.tw[t], l)
        if seen != full:
            bad += 1
    for t in range(n):
        if st.cut[t] != cut_mask(st.tw[t], L):
            bad += 1
        if before.cut[t] == 0 and before.tw[t] != st.tw[t]:
            bad += 1
    if R[R_LP]:
        tot = 0
        for t in range(n):
            if st.ls[t] != st.lad[t, 0] + st.lad[t, 1]:
                bad += 1
            tot += st.ls[t]
        if tot + st.pcs[LSUP] + st.pcs[LSUP + 1] != 2 * R[R_LADDERS]:
            bad += 1
    return bad
