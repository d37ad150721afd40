"""The random bot's turn: uniform over the turn's options and every later choice."""
from __future__ import annotations

from ....jit import helper
from ....rng import rand_int
from ....record import rec
from ..state import (XI_HAND, XI_OPTS)
from ..state import (EV_PASS, EV_PAY, GARRISON, GS_NSLOT, GS_SLOT, GS_SUP, OBSID, ONE, P_HAND, T_PASS,
                     ZERO)
from ..board import site_buildable, site_code_count
from ..constructions import pay_any_random, random_build_loop
from ..wars import resolve_attack
from ..katun import turn_card

@helper
def random_turn(st, ru, sc, p, acts, n):
    """Uniform over the turn's ``n`` options ``acts`` (``howplays.turn_options``: turn a
    card; pay and pass; pay and build on a site, one option per site; pay and attack, one
    option per own city and enemy neighbour).  Details are then drawn uniformly too (see
    RULES.md, Bots)."""
    own, bld, tok, pl, gs, rs = st.own, st.bld, st.tok, st.pl, st.gs, st.rs
    R, nnb, info = ru.R, ru.nnb, ru.info
    opts, hand = sc.xi[XI_OPTS], sc.xi[XI_HAND]
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
