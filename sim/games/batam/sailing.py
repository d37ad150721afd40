"""Phase 3: Sail Ships, the rules: where a ship may go and end, what entering a space
costs, selling goods in harbours, the compass deck."""
from __future__ import annotations

from ...jit import helper, helper_inline
from ...record import rec
from .money import bank_pays, pays_player
from .setup import key_deck
from .state import (
    E_SELL,
    E_SHUFFLE,
    G_DECKN,
    G_DISCN,
    G_NSHUF,
    G_PIRC,
    HARBOUR,
    INF,
    R_OCC,
    R_OCCH,
    R_P,
    R_PAYOUT,
    R_SALE,
    T_PAYR,
)


@helper_inline
def occupied(st, R, p, v):
    for q in range(R[R_P]):
        if q != p and st.pos[q] == v:
            return True
    return False


@helper_inline
def legal_end(st, R, kind, p, v):
    return kind[v] == HARBOUR or not occupied(st, R, p, v)


@helper_inline
def enter_cost(st, R, kind, p, v):
    if occupied(st, R, p, v) and (kind[v] != HARBOUR or R[R_OCCH] != 0):
        return 1 + R[R_OCC]
    return 1


@helper_inline
def is_blocked(st, comp, v):
    pc = st.g[G_PIRC]
    return pc >= 0 and comp[v] == pc


@helper
def finish_cost(st, R, kind, comp, nbr, deg, fc, p, v):
    """Least movement from v to a space where p may end its move (0 if v is one); ``fc``
    (``Scratch.fc``) its work rows."""
    if legal_end(st, R, kind, p, v):
        return 0
    # v is a sea/compass space holding another ship; only such spaces are not ends
    P = R[R_P]
    cl = fc[0]
    cd = fc[1]
    nc = 0
    for q in range(P):
        u = st.pos[q]
        if q == p or kind[u] == HARBOUR:
            continue
        dup = False
        for i in range(nc):
            if cl[i] == u:
                dup = True
        if not dup:
            cl[nc] = u
            cd[nc] = INF
            nc += 1
    for i in range(nc):
        if cl[i] == v:
            cd[i] = 0
    best = INF
    for it in range(nc):
        for i in range(nc):
            if cd[i] >= INF:
                continue
            x = cl[i]
            for j in range(deg[x]):
                u = nbr[x, j]
                if is_blocked(st, comp, u):
                    continue
                c = cd[i] + enter_cost(st, R, kind, p, u)
                inside = -1
                for m in range(nc):
                    if cl[m] == u:
                        inside = m
                if inside >= 0:
                    if c < cd[inside]:
                        cd[inside] = c
                elif c < best:
                    best = c
    return best


@helper_inline
def safe_step(st, R, kind, comp, nbr, deg, fc, p, n, r):
    """Movement cost of stepping into n with r points left, or -1 when the step is not
    allowed (blocked, too dear, or no legal place to end afterwards)."""
    if is_blocked(st, comp, n):
        return -1
    occ = occupied(st, R, p, n)
    harb = kind[n] == HARBOUR
    c = 1
    if occ and (not harb or R[R_OCCH] != 0):
        c = 1 + R[R_OCC]
    if c > r:
        return -1
    if harb or not occ:  # n is a legal end
        return c
    if c + finish_cost(st, R, kind, comp, nbr, deg, fc, p, n) > r:
        return -1
    return c


@helper
def sell(st, R, p, isl, buf):
    """Sell a cube on island isl: the sale price from the bank, the payout to each earlier cube."""
    got = bank_pays(st, R, p, R[R_SALE])
    paid_all = 0
    for q in range(R[R_P]):
        if q != p and st.cube[isl, q] != 0:
            paid = pays_player(st, p, q, R[R_PAYOUT])
            st.tal[T_PAYR, q] += paid
            paid_all += paid
    rec(buf, E_SELL, p, isl, got, paid_all, 0, 0, 0)
    st.cube[isl, p] = 1
    st.ncube[isl] += 1
    st.goods[p] += 1


@helper
def draw_card(st, rs, cid, buf):
    """Top card of the compass deck (reshuffling the discards when empty), -1 if none."""
    if st.g[G_DECKN] == 0:
        nd = st.g[G_DISCN]
        if nd == 0:
            return -1
        for i in range(nd):
            st.deck[i] = st.disc[i]
        st.g[G_DECKN] = nd
        st.g[G_DISCN] = 0
        st.g[G_NSHUF] += 1
        key_deck(st, cid, rs, st.g[G_NSHUF], nd)
        rec(buf, E_SHUFFLE, -1, st.g[G_NSHUF], nd, 0, 0, 0, 0)
    st.g[G_DECKN] -= 1
    return st.deck[st.g[G_DECKN]]


@helper_inline
def discard(st, k):
    st.disc[st.g[G_DISCN]] = k
    st.g[G_DISCN] += 1
