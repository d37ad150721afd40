"""The random bot's turn: uniform over the turn's options and every later choice."""
from __future__ import annotations

from ....jit import helper
from ....rng import rand_int
from ....record import rec
from ..state import (XI_HAND, XI_OPTS)
from ..state import (EV_PASS, EV_PAY, GARRISON, GS_NSLOT, GS_SLOT, GS_SUP, MARKET, OBSID, ONE, P_HAND, P_LARGE,
                     P_SMALL, T_PASS, ZERO)
from ..board import afford_mask, fit_mask, hand_total, site_buildable, site_code_count, tile_mask
from ..constructions import pay_any_random, random_build_loop
from ..wars import resolve_attack
from ..katun import turn_card

@helper
def random_turn(st, ru, sc, p):
    """Uniform over the turn's options: turn a card; pay and pass; pay and build on a
    site (one option per site); pay and attack (one option per own city and enemy
    neighbour).  Details are then drawn uniformly too (see RULES.md, Bots)."""
    own, bld, tok, pl, gs, rs = st.own, st.bld, st.tok, st.pl, st.gs, st.rs
    R, nbr, nnb, info = ru.R, ru.nbr, ru.nnb, ru.info
    queue, opts, hand = sc.queue, sc.xi[XI_OPTS], sc.xi[XI_HAND]
    S = own.shape[0]
    tot = hand_total(pl, p)
    acts = queue  # reuse: codes 0 card, 1 pass, 2+s build, 1000+a*64+b attack
    n = 0
    acts[n] = 0
    n += 1
    if tot >= 1:
        acts[n] = 1
        n += 1
        for t in range(6):
            hand[t] = pl[p, P_HAND + t]
        # codes affordable after paying the tax with some held type (a bit mask)
        amask = 0
        for t in range(6):
            if hand[t] > 0:
                hand[t] -= 1
                amask |= afford_mask(hand, R)
                hand[t] += 1
        if amask != 0:
            # a free site takes any building whose tiles are left (market: pyramids too)
            free_m = 0
            if pl[p, P_LARGE] > 0:
                free_m = tile_mask(gs) & amask
            for s in range(S):
                if own[s] == -1:
                    m = free_m
                    if pl[p, P_SMALL] < 1 + nnb[s]:
                        m &= ~(1 << MARKET)
                    if m:
                        acts[n] = 2 + s
                        n += 1
                elif own[s] == p:
                    if fit_mask(own, bld, pl, gs, nnb, info, p, s) & amask:
                        acts[n] = 2 + s
                        n += 1
        for a in range(S):
            if own[a] != p or site_code_count(bld, a, GARRISON) == 0:
                continue
            for j in range(nnb[a]):
                b = nbr[a, j]
                if own[b] >= 0 and own[b] != p:
                    acts[n] = 1000 + a * 64 + b
                    n += 1
    act = acts[rand_int(rs, 1 + p, n)]
    if act == 0:
        m = 0
        for k in range(gs[GS_NSLOT]):
            if gs[GS_SLOT + k] >= 0:
                opts[m] = k
                m += 1
        slot = opts[rand_int(rs, 1 + p, m)]
        turn_card(st, ru, sc, p, slot)
        return
    if act == 1:
        pay_any_random(pl, gs, rs, p, ONE, sc.rec)
        pl[p, T_PASS] += 1
        rec(sc.rec, EV_PASS, p, 0, 0, 0, 0, 0, 0)
        return
    if act < 1000:
        s = act - 2
        # the tax: uniformly among the held types that still leave a building possible
        m = 0
        for t in range(6):
            if pl[p, P_HAND + t] > 0:
                for u in range(6):
                    hand[u] = pl[p, P_HAND + u]
                hand[t] -= 1
                if site_buildable(own, bld, pl, gs, R, nnb, info, p, s, hand):
                    opts[m] = t
                    m += 1
        t = opts[rand_int(rs, 1 + p, m)]
        pl[p, P_HAND + t] -= 1
        gs[GS_SUP + t] += 1
        rec(sc.rec, EV_PAY, p, t, 1, 0, 0, 0, 0)
        random_build_loop(st, ru, sc, p, s, ONE)
        return
    a = (act - 1000) // 64
    b = (act - 1000) % 64
    pay_any_random(pl, gs, rs, p, ONE, sc.rec)
    g = site_code_count(bld, a, GARRISON)
    k = 1 + rand_int(rs, 1 + p, g)
    ob = 0
    for kk in range(4):
        if bld[a, kk] == GARRISON and tok[a, kk] == OBSID:
            ob += 1
    omax = min(k, ob)
    o = rand_int(rs, 1 + p, omax + 1)
    resolve_attack(st, ru, sc, p, a, b, k, o)
    if own[b] == -1:
        random_build_loop(st, ru, sc, p, b, ZERO)
