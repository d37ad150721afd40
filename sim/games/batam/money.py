"""Coins: the bank and the players (Components; the bank when it runs short is a reading,
``R_BANKMODE``), and the card-impact switch that makes a tile or card pay nothing."""
from __future__ import annotations

from ...jit import helper_inline
from .state import BANK_SHORT, G_BANK, G_SHORT, R_BANKMODE, R_NEU


@helper_inline
def is_neutral(R, k):
    """Is tile or card ``k`` of the deck in use neutral (card impact, R_NEU)?"""
    return (R[R_NEU] >> k) & 1 != 0


@helper_inline
def bank_pays(st, R, p, amount):
    """The bank pays ``amount`` to seat p (short mode: only what it holds)."""
    b = st.g[G_BANK]
    avail = b if b > 0 else 0
    if R[R_BANKMODE] == BANK_SHORT:
        pay = amount if amount <= avail else avail
        st.g[G_SHORT] += amount - pay
    else:
        pay = amount
        if amount > avail:
            st.g[G_SHORT] += amount - avail
    st.g[G_BANK] -= pay
    st.coins[p] += pay
    return pay


@helper_inline
def pays_bank(st, p, amount):
    """Seat p pays the bank ``amount``, or all it has."""
    c = st.coins[p]
    pay = amount if amount <= c else c
    st.coins[p] -= pay
    st.g[G_BANK] += pay
    return pay


@helper_inline
def pays_player(st, a, b, amount):
    c = st.coins[a]
    pay = amount if amount <= c else c
    st.coins[a] -= pay
    st.coins[b] += pay
    return pay
