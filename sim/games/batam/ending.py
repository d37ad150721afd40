"""Ending the Game: the return bonus, the final ranking, and who leads after a round."""
from __future__ import annotations

from ...jit import helper
from ...record import rec
from .money import bank_pays
from .state import (
    E_BONUS,
    RF_RET,
    RF_RETA,
    R_BONUS,
    R_P,
    R_WINDOW,
    T_BONUS,
    WINDOW_ROUND,
)


@helper
def return_bonuses(st, R, lead, buf):
    """End of the final round's sailing: the return bonus, in crew-row order, to every ship
    that returned to Batam this round (window 'round') or at/after the trigger ('after')."""
    P = R[R_P]
    for i in range(P):
        p = (lead + i) % P
        got = st.rflags[RF_RET, p] if R[R_WINDOW] == WINDOW_ROUND else st.rflags[RF_RETA, p]
        if got != 0:
            paid = bank_pays(st, R, p, R[R_BONUS])
            st.tal[T_BONUS, p] += paid
            rec(buf, E_BONUS, p, paid, 0, 0, 0, 0, 0)


@helper
def final_ranking(st, R, win):
    """Fill ``win`` (1 sole winner, 1/k shared); returns the winner seat or -1."""
    P = R[R_P]
    bc = -1
    bg = -1
    for p in range(P):
        c = st.coins[p]
        g = st.goods[p]
        if c > bc or (c == bc and g > bg):
            bc = c
            bg = g
    k = 0
    w = -1
    for p in range(P):
        if st.coins[p] == bc and st.goods[p] == bg:
            k += 1
            w = p
    for p in range(P):
        win[p] = 1.0 / k if (st.coins[p] == bc and st.goods[p] == bg) else 0.0
    return w if k == 1 else -1


@helper
def round_leader(st, P):
    """The seat that would win if the game ended now (coins, then goods sold), -1 on a tie."""
    best = -1
    bc = -1
    bg = -1
    tie = False
    for p in range(P):
        c = st.coins[p]
        gd = st.goods[p]
        if c > bc or (c == bc and gd > bg):
            best, bc, bg, tie = p, c, gd, False
        elif c == bc and gd == bg:
            tie = True
    return -1 if tie else best
