"""Phase 2: Place Crew, the rules: crew boards (dice kept in descending order), who may
place where, re-roll prices; and Phase 4: Collect Wages."""
from __future__ import annotations

from ...jit import helper, helper_inline
from ...record import rec
from .state import (
    E_PAID,
    RR_RISING,
    R_OPPLIM,
    R_P,
    R_RR_FIRST,
    R_RR_PRICING,
    R_RR_STEP,
    T_WEARN,
    T_WPAID,
)


@helper_inline
def slot_for(st, b, v):
    """Slot where a die of value v lands on b's board: after every die worth more,
    before (to the left of) the dice worth the same."""
    k = 0
    for j in range(st.nb[b]):
        if st.bv[b, j] > v:
            k += 1
    return k


@helper
def place_die(st, b, v, owner):
    """Put a die of value v owned by ``owner`` on b's board; returns its slot."""
    n = st.nb[b]
    k = slot_for(st, b, v)
    for j in range(n, k, -1):
        st.bv[b, j] = st.bv[b, j - 1]
        st.bo[b, j] = st.bo[b, j - 1]
    st.bv[b, k] = v
    st.bo[b, k] = owner
    st.nb[b] = n + 1
    return k


@helper_inline
def own_dice_on(st, b, p):
    c = 0
    for j in range(st.nb[b]):
        if st.bo[b, j] == p:
            c += 1
    return c


@helper_inline
def can_place(st, R, p, b):
    """May seat p put one more die on b's board?"""
    return b != p and st.nb[b] < 3 and own_dice_on(st, b, p) < R[R_OPPLIM]


@helper_inline
def board_total(st, p):
    t = 0
    for j in range(st.nb[p]):
        t += st.bv[p, j]
    return t


@helper
def reroll_price(R, n):
    """Coins for re-roll n (0 = the first) of a turn: the first costs R_RR_FIRST; each later
    one R_RR_STEP ('total', the rulebook: totals 2, 3, 4, ...) or R_RR_STEP more than the
    one before ('rising': 2, 3, 4, ... each)."""
    if n == 0:
        return R[R_RR_FIRST]
    if R[R_RR_PRICING] == RR_RISING:
        return R[R_RR_FIRST] + R[R_RR_STEP] * n
    return R[R_RR_STEP]


@helper
def collect_wages(st, R, buf):
    """Phase 4: wages to the dice in the captain and sailor slots, the rest back home."""
    P = R[R_P]
    for b in range(P):
        for k in range(2):
            w = st.offer[b, k]
            if k < st.nb[b]:
                o = st.bo[b, k]
                st.coins[o] += w
                st.tal[T_WEARN, o] += w
                st.tal[T_WPAID, b] += w
                rec(buf, E_PAID, o, b, k, w, 0, 0, 0)
            else:
                st.coins[b] += w
            if k == 0:
                st.lastcap[b] = w
            st.offer[b, k] = 0
        for k in range(3):
            st.bv[b, k] = -1
            st.bo[b, k] = -1
        st.nb[b] = 0
