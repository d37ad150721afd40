"""5 - Production and 6 - Distribution: what villages produce and how each king routes it
(transport, garrisons, storage, ceremonies), with the heuristic's assignment search.
"""
from __future__ import annotations

from ...jit import helper, helper_fused, helper_inline
from ...rng import rand_int
from ...record import rec, recording
from .state import (XF_CV, XF_DHV, XF_FSC, XI_COMP, XI_DCAP, XI_DCNT, XI_ISC, XI_OPTS, XI_SCR,
                    XI_UNSEEN)
from .state import (EV_ROUTE, BOT_RANDOM, BW_PALACE, BW_PRES, BW_RES, BW_WAR, DK_GARR, DK_LOSE, DK_PALACE,
                    DK_RESERVE, DK_TEMPLE, GARRISON, GS_SUP, I_COLOUR, I_FOREST, MAIZE, OBSID,
                    PALACE, PRIS, P_CER, P_HAND, RESERVE, R_FOREST, R_NP, R_PTS, TEMPLE, VILLAGE)
from .ties import cmp_tie, pick
from .board import add_prestige, components
from .bots.values import hand_values, rounds_left
from .bots.insure import insurance

# ======================================================================= end of round
@helper
def production(own, bld, tok, gs, R, info, rfirst):
    NP = R[R_NP]
    for i in range(NP):
        p = (rfirst + i) % NP
        for s in range(own.shape[0]):
            if own[s] != p:
                continue
            if R[R_FOREST] == 1 and info[s, I_FOREST] == 0:
                continue
            c = info[s, I_COLOUR]
            for k in range(4):
                if bld[s, k] == VILLAGE and gs[GS_SUP + c] > 0:
                    tok[s, k] = c
                    gs[GS_SUP + c] -= 1


@helper_fused
def dist_values(W, R, gs, own, bld, nbr, nnb, p, val, last, hv):
    """val[t, kind]: heuristic worth of routing one riches of type t to each sink kind;
    hv[20], hv[21] (not on the last round): the worth of one more maize, prisoner kept
    against the catastrophes to come (bots.insure.insurance)."""
    hand_values(W, R, gs, hv)
    for t in range(6):
        val[t, DK_TEMPLE] = W[BW_PRES] * R[R_PTS + t]
        val[t, DK_PALACE] = hv[t] * (1.0 if last else W[BW_PALACE])
        val[t, DK_GARR] = -1.0
        if last:
            val[t, DK_RESERVE] = 0.0
        else:
            ins = 0.6
            if t == MAIZE:
                ins = 0.3 + hv[20]
            elif t == PRIS:
                ins = 0.3 + hv[21]
            val[t, DK_RESERVE] = W[BW_RES] * ins + 0.2 * max(R[R_PTS + t], hv[t])
        val[t, DK_LOSE] = 0.0
    val[OBSID, DK_GARR] = 0.0 if last else 0.9 * W[BW_WAR] + 0.2


@helper
def solve_assignment(cnt, cap, val, x, isc, fsc):
    """Route cnt[t] riches of each type t to sink kinds with capacities cap[kind]
    (cap[LOSE] unbounded), maximising sum val[t, kind] * x[t, kind] (val < 0: not
    allowed).  Exact: successive shortest paths (Bellman-Ford) on the tiny
    type -> kind network, i.e. a min-cost flow (path costs within 1e-12 are equal: float
    rounding).  Among routings of equal value the lower type index is served first
    (solve_group breaks those ties at random)."""
    x[:, :] = 0
    left = isc[0:6]
    free = isc[6:11]
    one = -1
    for t in range(6):
        left[t] = cnt[t]
        if cnt[t] > 0:
            one = t if one == -1 else 6
    for k in range(5):
        free[k] = cap[k]
    if one >= 0 and one < 6:
        # one riches type: the shortest paths are its kinds by value, so fill them best
        # first (the same choices, ties to the lower kind, and the same x as below)
        t = one
        while left[t] > 0:
            bk = -1
            bd = 1e17
            for k in range(5):
                if free[k] > 0 and val[t, k] >= 0.0 and -val[t, k] < bd - 1e-12:
                    bd = -val[t, k]
                    bk = k
            if bk < 0:
                break
            m = min(free[bk], left[t])
            x[t, bk] += m
            free[bk] -= m
            left[t] -= m
        return
    dt = fsc[0:6]
    dk = fsc[6:11]
    pt = isc[11:17]   # predecessor kind of a type (-1: from the source)
    pk = isc[17:22]   # predecessor type of a kind
    while True:
        for t in range(6):
            dt[t] = 0.0 if left[t] > 0 else 1e18
            pt[t] = -1
        for k in range(5):
            dk[k] = 1e18
            pk[k] = -1
        for _ in range(12):
            changed = False
            for t in range(6):
                if dt[t] >= 1e17:
                    continue
                for k in range(5):
                    if val[t, k] < 0.0:
                        continue
                    d = dt[t] - val[t, k]
                    if d < dk[k] - 1e-12:
                        dk[k] = d
                        pk[k] = t
                        changed = True
            for k in range(5):
                if dk[k] >= 1e17:
                    continue
                for t in range(6):
                    if x[t, k] > 0:
                        d = dk[k] + val[t, k]
                        if d < dt[t] - 1e-12:
                            dt[t] = d
                            pt[t] = k
                            changed = True
            if not changed:
                break
        bk = -1
        bd = 1e17
        for k in range(5):
            if free[k] > 0 and dk[k] < bd - 1e-12:
                bd = dk[k]
                bk = k
        if bk < 0:
            break
        # bottleneck along the path sink <- bk <- t <- k' <- t' ... <- source
        m = free[bk]
        k = bk
        while True:
            t = pk[k]
            if pt[t] < 0:
                if left[t] < m:
                    m = left[t]
                break
            k = pt[t]
            if x[t, k] < m:
                m = x[t, k]
        free[bk] -= m
        k = bk
        while True:
            t = pk[k]
            x[t, k] += m
            if pt[t] < 0:
                left[t] -= m
                break
            k = pt[t]
            x[t, k] -= m


@helper_fused
def same_row(val, cap, t, u):
    """Riches types t and u are worth the same on every sink kind with room."""
    for k in range(5):
        if cap[k] > 0 and cmp_tie(val[u, k], val[t, k]) != 0:
            return False
    return True


@helper
def solve_group(cnt, cap, val, x, isc, fsc, rs, k, scr):
    """solve_assignment with the ties between riches types broken uniformly on stream k.
    The solver serves the lower type index first among routings of equal value; types of
    the group that are worth the same on every kind with room are interchangeable to it,
    so each such class is renumbered in a random order for the solve (slot i holds type
    order[i]).  Draws nothing when no two types of the group are alike.  ``scr`` (int64,
    54) and fsc[32:62] are scratch."""
    order = scr[0:6]
    memb = scr[6:12]
    shuf = scr[12:18]
    xs = scr[18:48]
    cs = scr[48:54]
    present = 0
    for t in range(6):
        order[t] = t
        if cnt[t] > 0:
            present += 1
    if present < 2:
        solve_assignment(cnt, cap, val, x, isc, fsc[0:16])
        return
    done = 0
    moved = False
    for t in range(6):
        if cnt[t] == 0 or (done >> t) & 1:
            continue
        m = 0
        for u in range(t, 6):
            if cnt[u] > 0 and (done >> u) & 1 == 0 and same_row(val, cap, t, u):
                memb[m] = u
                shuf[m] = u
                m += 1
                done |= 1 << u
        for a in range(m - 1, 0, -1):
            j = rand_int(rs, k, a + 1)
            y = shuf[a]
            shuf[a] = shuf[j]
            shuf[j] = y
        for i in range(m):
            order[memb[i]] = shuf[i]
            if shuf[i] != memb[i]:
                moved = True
    if not moved:
        solve_assignment(cnt, cap, val, x, isc, fsc[0:16])
        return
    vt = fsc[32:62]
    for t in range(6):
        for kk in range(5):
            vt[t * 5 + kk] = val[t, kk]
    for i in range(6):
        cs[i] = cnt[order[i]]
        for kk in range(5):
            val[i, kk] = vt[order[i] * 5 + kk]
    solve_assignment(cs, cap, val, x, isc, fsc[0:16])
    for i in range(6):
        for kk in range(5):
            xs[order[i] * 5 + kk] = x[i, kk]
    for t in range(6):
        for kk in range(5):
            val[t, kk] = vt[t * 5 + kk]
            x[t, kk] = xs[t * 5 + kk]


@helper
def distribute(st, ru, sc, p, last):
    """King p routes every riches on his buildings (6 - DISTRIBUTION).  Items are taken
    site by site, space by space; sinks are the spaces of temples (2 each), palaces (2),
    garrisons (1, obsidian only) and reserves (1) his transport groups reach."""
    own, bld, tok, sm, pl, gs, rs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs, st.rs
    R, nbr, nnb, bot_ids, bot_par = ru.R, ru.nbr, ru.nnb, ru.bot_ids, ru.bot_par
    comp, queue, items, sinks = sc.xi[XI_COMP], sc.queue, sc.items, sc.sinks
    fsc, val, x = sc.xf[XF_FSC], sc.dval, sc.dx
    S = own.shape[0]
    components(own, sm, R, nbr, nnb, p, comp, queue)
    ni = 0
    ns = 0
    for s in range(S):
        if own[s] != p:
            continue
        for k in range(4):
            c = bld[s, k]
            if tok[s, k] >= 0:
                items[ni, 0] = tok[s, k]
                items[ni, 1] = comp[s]
                ni += 1
                tok[s, k] = -1
            if c == TEMPLE or c == PALACE or c == GARRISON or c == RESERVE:
                sinks[ns, 0] = s
                sinks[ns, 1] = k
                sinks[ns, 2] = comp[s]
                if c == TEMPLE:
                    sinks[ns, 3] = DK_TEMPLE
                    sinks[ns, 4] = 2
                elif c == PALACE:
                    sinks[ns, 3] = DK_PALACE
                    sinks[ns, 4] = 2
                elif c == GARRISON:
                    sinks[ns, 3] = DK_GARR
                    sinks[ns, 4] = 1
                else:
                    sinks[ns, 3] = DK_RESERVE
                    sinks[ns, 4] = 1
                ns += 1
    if ni == 0:
        return
    if bot_ids[p] == BOT_RANDOM:
        opts = sc.xi[XI_OPTS]
        for i in range(ni):
            t = items[i, 0]
            g = items[i, 1]
            n = 1
            opts[0] = DK_LOSE
            for kind in range(4):
                if kind == DK_GARR and t != OBSID:
                    continue
                for j in range(ns):
                    if sinks[j, 2] == g and sinks[j, 3] == kind and sinks[j, 4] > 0:
                        opts[n] = kind
                        n += 1
                        break
            kind = opts[rand_int(rs, 1 + p, n)]
            js = route(own, tok, pl, gs, rs, R, p, t, g, kind, sinks, ns)
            rec_route(sc.rec, p, t, kind, sinks, js)
        return
    dhv = sc.xf[XF_DHV]
    if not last:   # the worth of a maize or prisoner kept against catastrophes (bots.insure)
        wm, wp = insurance(st, ru, bot_par[p], p, rounds_left(gs, R), sc.xf[XF_CV],
                           sc.xi[XI_UNSEEN])
        dhv[20] = wm
        dhv[21] = wp
    dist_values(bot_par[p], R, gs, own, bld, nbr, nnb, p, val, last, dhv)
    cnt, cap, isc, scr = sc.xi[XI_DCNT], sc.xi[XI_DCAP], sc.xi[XI_ISC], sc.xi[XI_SCR]
    for i in range(ni):
        g = items[i, 1]
        if g < 0:
            continue  # group already done
        cnt[:] = 0
        cap[:] = 0
        cap[DK_LOSE] = 1 << 30
        for j in range(i, ni):
            if items[j, 1] == g:
                cnt[items[j, 0]] += 1
        room = 0
        for j in range(ns):
            if sinks[j, 2] == g:
                cap[sinks[j, 3]] += sinks[j, 4]
                room += sinks[j, 4]
        if room == 0:
            # nowhere to go: every riches of the group is lost (what the solver gives)
            x[:, :] = 0
            for t in range(6):
                x[t, DK_LOSE] = cnt[t]
        else:
            solve_group(cnt, cap, val, x, isc, fsc, rs, 1 + p, scr)
        for j in range(i, ni):
            if items[j, 1] == g:
                t = items[j, 0]
                for kind in range(5):
                    if x[t, kind] > 0:
                        x[t, kind] -= 1
                        js = route(own, tok, pl, gs, rs, R, p, t, g, kind, sinks, ns)
                        rec_route(sc.rec, p, t, kind, sinks, js)
                        break
                items[j, 1] = -1


@helper_inline
def rec_route(buf, p, t, kind, sinks, j):
    """Record one riches routed (site and space of its sink; -1 when lost)."""
    if recording(buf):
        if j >= 0:
            rec(buf, EV_ROUTE, p, t, kind, sinks[j, 0], sinks[j, 1], 0, 0)
        else:
            rec(buf, EV_ROUTE, p, t, kind, -1, -1, 0, 0)


@helper_inline
def route(own, tok, pl, gs, rs, R, p, t, g, kind, sinks, ns):
    """One riches of type t of group g to a sink of ``kind``.  A temple or palace: the
    first with room (where the riches is used changes nothing).  A reserve or garrison,
    where the token stays: uniformly among those of the group with room (king p's
    stream; no draw when there is one).  Returns the sink's row (-1: lost)."""
    if kind == DK_LOSE:
        gs[GS_SUP + t] += 1
        return -1
    j0 = 0
    if kind == DK_RESERVE or kind == DK_GARR:
        m = 0
        for j in range(ns):
            if sinks[j, 2] == g and sinks[j, 3] == kind and sinks[j, 4] > 0:
                m += 1
        j0 = pick(rs, 1 + p, m)
    for j in range(ns):
        if sinks[j, 2] == g and sinks[j, 3] == kind and sinks[j, 4] > 0:
            if j0 > 0:
                j0 -= 1
                continue
            sinks[j, 4] -= 1
            if kind == DK_TEMPLE:
                add_prestige(pl, p, P_CER, R[R_PTS + t])
                gs[GS_SUP + t] += 1
            elif kind == DK_PALACE:
                pl[p, P_HAND + t] += 1
            else:
                tok[sinks[j, 0], sinks[j, 1]] = t
            return j
    return -1
