"""Balam's board: riches and prestige, sites and their buildings, paths, and what may be
built where."""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_fused, helper_inline
from .state import (CONT, CTRL_SUM, EMPTY, GS_SUP, GS_TILE, I_SPACES, MARKET, PALACE, P_HAND,
                    P_LARGE, P_PRES, P_SMALL, R_CANY, R_CKIND, R_CN, R_CTRL, R_NP, TEMPLE, T_BUILT)

@helper
def gain(pl, gs, p, t, n):
    """King p takes up to n riches of type t from the supply; returns how many he got."""
    g = min(n, gs[GS_SUP + t])
    if g < 0:
        g = 0
    gs[GS_SUP + t] -= g
    pl[p, P_HAND + t] += g
    return g


@helper
def prestige_leader(pl, NP):
    """The king with the most prestige, or -1 when the most is shared."""
    best = np.int64(-1)
    bp = np.int64(-1)
    tie = False
    for q in range(NP):
        v = pl[q, P_PRES]
        if v > bp:
            bp = v
            best = q
            tie = False
        elif v == bp:
            tie = True
    return -1 if tie else best


@helper
def hand_total(pl, p):
    s = 0
    for t in range(6):
        s += pl[p, P_HAND + t]
    return s


@helper
def add_prestige(pl, p, src, n):
    pl[p, P_PRES] += n
    pl[p, src] += n


@helper_inline
def width(code):
    return 2 if code == PALACE or code == TEMPLE else 1


@helper_inline
def find_space(bld, info, s, code):
    """First space of site s where ``code`` fits (two adjacent empty spaces for a
    palace/temple), or -1."""
    n = info[s, I_SPACES]
    if width(code) == 1:
        for k in range(n):
            if bld[s, k] == EMPTY:
                return k
        return -1
    for k in range(n - 1):
        if bld[s, k] == EMPTY and bld[s, k + 1] == EMPTY:
            return k
    return -1


@helper_inline
def count_code(own, bld, p, code):
    c = 0
    for s in range(own.shape[0]):
        if own[s] == p:
            for k in range(4):
                if bld[s, k] == code:
                    c += 1
    return c


@helper_inline
def count_cities(own, p):
    c = 0
    for s in range(own.shape[0]):
        if own[s] == p:
            c += 1
    return c


@helper_inline
def site_code_count(bld, s, code):
    c = 0
    for k in range(4):
        if bld[s, k] == code:
            c += 1
    return c


@helper_inline
def site_empty(bld, s):
    for k in range(4):
        if bld[s, k] != EMPTY:
            return False
    return True


@helper_inline
def can_afford(hand, R, code):
    """hand: 6 counts.  True when the cost of building ``code`` can be paid from it."""
    b = code - 1
    kind = R[R_CKIND + b]
    if kind >= 0:
        return hand[kind] >= R[R_CN + b]
    tot = 0
    for t in range(6):
        tot += hand[t]
    return tot >= R[R_CANY + b]


@helper_inline
def can_build(own, bld, pl, gs, R, nnb, info, p, s, code, hand):
    """King p may put ``code`` on site s now, paying from ``hand``."""
    if own[s] != p and own[s] != -1:
        return False
    if gs[GS_TILE + (code - 1) // 2] <= 0:
        return False
    if own[s] == -1 and pl[p, P_LARGE] <= 0:
        return False
    if code == MARKET and pl[p, P_SMALL] < 1 + nnb[s]:
        return False
    if find_space(bld, info, s, code) < 0:
        return False
    return can_afford(hand, R, code)


@helper
def place_building(own, bld, sm, pl, gs, nbr, nnb, info, p, s, code):
    """Put ``code`` on the first space where it fits (costs are paid elsewhere)."""
    k = find_space(bld, info, s, code)
    if own[s] == -1:
        own[s] = p
        pl[p, P_LARGE] -= 1
    bld[s, k] = code
    if width(code) == 2:
        bld[s, k + 1] = CONT
    gs[GS_TILE + (code - 1) // 2] -= 1
    if code == MARKET:
        sm[s, p] += 1
        for j in range(nnb[s]):
            sm[nbr[s, j], p] += 1
        pl[p, P_SMALL] -= 1 + nnb[s]
    pl[p, T_BUILT] += 1
    return k


@helper
def remove_building(own, bld, tok, sm, pl, gs, nbr, nnb, s, k):
    """Discard the building on space k of site s with its riches and market controls;
    a site left empty belongs to no one again.  Returns the building code."""
    code = bld[s, k]
    p = own[s]
    bld[s, k] = EMPTY
    if width(code) == 2:
        bld[s, k + 1] = EMPTY
    if tok[s, k] >= 0:
        gs[GS_SUP + tok[s, k]] += 1
        tok[s, k] = -1
    gs[GS_TILE + (code - 1) // 2] += 1
    if code == MARKET:
        sm[s, p] -= 1
        for j in range(nnb[s]):
            sm[nbr[s, j], p] -= 1
        pl[p, P_SMALL] += 1 + nnb[s]
    if site_empty(bld, s):
        own[s] = -1
        pl[p, P_LARGE] += 1
    return code


@helper
def destroy_city(own, bld, tok, sm, pl, gs, nbr, nnb, s):
    n = 0
    for k in range(4):
        c = bld[s, k]
        if c != EMPTY and c != CONT:
            remove_building(own, bld, tok, sm, pl, gs, nbr, nnb, s, k)
            n += 1
    return n


# ======================================================================= transport
@helper_fused
def passable(own, sm, R, s, p):
    """May riches of king p pass through, leave or enter site s (commercial control)?"""
    mine = sm[s, p]
    o = own[s]
    NP = R[R_NP]
    if R[R_CTRL] == CTRL_SUM:
        e = 0
        for q in range(NP):
            if q != p:
                e += sm[s, q]
        if e > mine:
            return False
        if e == mine and o >= 0 and o != p:
            return False
        return True
    for q in range(NP):
        if q != p and sm[s, q] > mine:
            return False
    if o >= 0 and o != p and sm[s, o] >= mine:
        return False
    return True


@helper
def components(own, sm, R, nbr, nnb, p, comp, queue):
    """comp[s]: transport group of site s for king p.  Passable sites joined by paths
    share a label (< S); a blocked site is alone (label S + s)."""
    S = own.shape[0]
    for s in range(S):
        comp[s] = -1 if passable(own, sm, R, s, p) else S + s
    lab = 0
    for s0 in range(S):
        if comp[s0] != -1:
            continue
        comp[s0] = lab
        h = 0
        t = 1
        queue[0] = s0
        while h < t:
            x = queue[h]
            h += 1
            for j in range(nnb[x]):
                y = nbr[x, j]
                if comp[y] == -1:
                    comp[y] = lab
                    queue[t] = y
                    t += 1
        lab += 1


# ======================================================================= random turn
@helper_inline
def afford_mask(hand, R):
    """Bit mask (bit = code) of the buildings whose cost ``hand`` covers."""
    m = 0
    for code in range(1, 9):
        if can_afford(hand, R, code):
            m |= 1 << code
    return m


@helper_inline
def tile_mask(gs):
    """Bit mask (bit = code) of the buildings whose tile stack is not empty."""
    m = 0
    for i in range(4):   # tile stack i holds codes 2i+1 and 2i+2
        if gs[GS_TILE + i] > 0:
            m |= 3 << (2 * i + 1)
    return m


@helper_inline
def fit_mask(own, bld, pl, gs, nnb, info, p, s):
    """Bit mask of the buildings king p may put on site s now, costs aside."""
    if own[s] != p and own[s] != -1:
        return 0
    if own[s] == -1 and pl[p, P_LARGE] <= 0:
        return 0
    one = True
    two = True   # a free site is empty and has at least two spaces
    if own[s] == p:
        n = info[s, I_SPACES]
        one = False
        two = False
        for k in range(n):
            if bld[s, k] == EMPTY:
                one = True
                if k + 1 < n and bld[s, k + 1] == EMPTY:
                    two = True
        if not one:
            return 0
    m = tile_mask(gs)
    if not two:
        m &= ~((1 << PALACE) | (1 << TEMPLE))
    if pl[p, P_SMALL] < 1 + nnb[s]:
        m &= ~(1 << MARKET)
    return m


@helper
def site_buildable(own, bld, pl, gs, R, nnb, info, p, s, hand):
    return (fit_mask(own, bld, pl, gs, nnb, info, p, s) & afford_mask(hand, R)) != 0
