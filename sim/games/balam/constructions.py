"""2 - Constructions: paying for buildings and building them (the random bot's loop and a
planned build)."""
from __future__ import annotations

from ...jit import helper
from ...rng import rand_int
from ...record import rec
from .state import (XF_HV, XI_OPTS)
from .state import EV_BUILD, EV_PAY, GS_SUP, ONE, P_HAND, R_CANY, R_CKIND, R_CN, ZERO
from .board import can_build, place_building
from .bots.values import cheapest_held

# ======================================================================= building turns
@helper
def pay_any_random(pl, gs, rs, p, n, buf):
    """Random bot: pay n riches of choice, each uniformly among the held types (each
    payment recorded in ``buf``)."""
    for _ in range(n):
        k = 0
        for t in range(6):
            if pl[p, P_HAND + t] > 0:
                k += 1
        r = rand_int(rs, 1 + p, k)
        for t in range(6):
            if pl[p, P_HAND + t] > 0:
                if r == 0:
                    pl[p, P_HAND + t] -= 1
                    gs[GS_SUP + t] += 1
                    rec(buf, EV_PAY, p, t, 1, 0, 0, 0, 0)
                    break
                r -= 1


@helper
def pay_building(pl, gs, rs, R, p, code, is_random, hv, buf):
    b = code - 1
    kind = R[R_CKIND + b]
    if kind >= 0:
        pl[p, P_HAND + kind] -= R[R_CN + b]
        gs[GS_SUP + kind] += R[R_CN + b]
        rec(buf, EV_PAY, p, kind, R[R_CN + b], 0, 0, 0, 0)
        return
    if is_random == 1:
        pay_any_random(pl, gs, rs, p, R[R_CANY + b], buf)
        return
    for _ in range(R[R_CANY + b]):
        t = cheapest_held(pl[p, P_HAND:P_HAND + 6], hv)
        pl[p, P_HAND + t] -= 1
        gs[GS_SUP + t] += 1
        rec(buf, EV_PAY, p, t, 1, 0, 0, 0, 0)


@helper
def random_build_loop(st, ru, sc, p, s, must):
    """Random bot builds on site s: each step picks uniformly among the buildable codes
    (plus 'stop' unless a first building is required)."""
    own, bld, sm, pl, gs, rs = st.own, st.bld, st.sm, st.pl, st.gs, st.rs
    R, nbr, nnb, info = ru.R, ru.nbr, ru.nnb, ru.info
    opts, hv = sc.xi[XI_OPTS], sc.xf[XF_HV]
    first = True
    while True:
        n = 0
        if not (first and must == 1):
            opts[n] = 0
            n += 1
        for code in range(1, 9):
            if can_build(own, bld, pl, gs, R, nnb, info, p, s, code, pl[p, P_HAND:P_HAND + 6]):
                opts[n] = code
                n += 1
        if n == 0:
            return
        c = opts[rand_int(rs, 1 + p, n)]
        if c == 0:
            return
        pay_building(pl, gs, rs, R, p, c, ONE, hv, sc.rec)
        place_building(own, bld, sm, pl, gs, nbr, nnb, info, p, s, c)
        rec(sc.rec, EV_BUILD, p, s, c, 0, 0, 0, 0)
        first = False


@helper
def build_plan(st, ru, sc, p, s, plan, n):
    """Build plan[0..n-1] on site s, paying as the heuristic pays, while it can."""
    own, bld, sm, pl, gs, rs = st.own, st.bld, st.sm, st.pl, st.gs, st.rs
    R, nbr, nnb, info = ru.R, ru.nbr, ru.nnb, ru.info
    hv = sc.xf[XF_HV]
    for i in range(n):
        c = plan[i]
        if not can_build(own, bld, pl, gs, R, nnb, info, p, s, c, pl[p, P_HAND:P_HAND + 6]):
            break
        pay_building(pl, gs, rs, R, p, c, ZERO, hv, sc.rec)
        place_building(own, bld, sm, pl, gs, nbr, nnb, info, p, s, c)
        rec(sc.rec, EV_BUILD, p, s, c, 0, 0, 0, 0)
