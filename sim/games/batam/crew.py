"""Phase 2: Place Crew, the rules: crew boards (dice kept in descending order), who may
place where, re-roll prices; and Phase 4: Collect Wages."""
from __future__ import annotations

from ...jit import helper, helper_inline
from ...record import rec
from .state import (
    E_PAID,
    MAXP,
    O_BO,
    O_BV,
    O_COINS,
    O_LASTCAP,
    O_NB,
    O_OFFER,
    O_TAL,
    R_OPPLIM,
    R_P,
    R_RR_FIRST,
    R_RR_PRICING,
    R_RR_STEP,
    RR_RISING,
    T_WEARN,
    T_WPAID,
)


@helper_inline
def slot_for(st, b, v):
    """Slot where a die of value v lands on b's board: after every die worth more,
    before (to the left of) the dice worth the same."""
    k = 0
    for j in range(st[O_NB + b]):
        if st[O_BV + 3 * b + j] > v:
            k += 1
    return k


@helper
def place_die(st, b, v, owner):
    """Put a die of value v owned by ``owner`` on b's board; returns its slot."""
    n = st[O_NB + b]
    k = slot_for(st, b, v)
    for j in range(n, k, -1):
        st[O_BV + 3 * b + j] = st[O_BV + 3 * b + j - 1]
        st[O_BO + 3 * b + j] = st[O_BO + 3 * b + j - 1]
    st[O_BV + 3 * b + k] = v
    st[O_BO + 3 * b + k] = owner
    st[O_NB + b] = n + 1
    return k


@helper_inline
def own_dice_on(st, b, p):
    c = 0
    for j in range(st[O_NB + b]):
        if st[O_BO + 3 * b + j] == p:
            c += 1
    return c


@helper_inline
def can_place(st, R, p, b):
    """May seat p put one more die on b's board?"""
    return b != p and st[O_NB + b] < 3 and own_dice_on(st, b, p) < R[R_OPPLIM]


@helper_inline
def board_total(st, p):
    t = 0
    for j in range(st[O_NB + p]):
        t += st[O_BV + 3 * p + j]
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
            w = st[O_OFFER + 2 * b + k]
            if k < st[O_NB + b]:
                o = st[O_BO + 3 * b + k]
                st[O_COINS + o] += w
                st[O_TAL + T_WEARN * MAXP + o] += w
                st[O_TAL + T_WPAID * MAXP + b] += w
                rec(buf, E_PAID, o, b, k, w, 0, 0, 0)
            else:
                st[O_COINS + b] += w
            if k == 0:
                st[O_LASTCAP + b] = w
            st[O_OFFER + 2 * b + k] = 0
        for k in range(3):
            st[O_BV + 3 * b + k] = -1
            st[O_BO + 3 * b + k] = -1
        st[O_NB + b] = 0
