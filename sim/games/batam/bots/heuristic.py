"""The heuristic bot and its styles (RULES.md, Bots): wage policy, seasick re-rolls,
wage-first placement with spite, and a shortest-path route planner.  The styles differ only
in their parameters (``bp``, slots ``B_*``).  Equal best options are broken uniformly with the
seat's own stream (``sim.search.take``: the k-th equal option replaces the best with
probability 1/k)."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_fused, helper_inline
from ....search import take
from ..crew import slot_for
from ..sailing import safe_step
from ..state import (
    B_ADAPT,
    B_BUMP,
    B_CAPTAIN,
    B_DISTW,
    B_GIVEUP,
    B_OUTBID,
    B_PIRPAY,
    B_RESERVE,
    B_RRLOW,
    B_RRMAX,
    B_SAILOR,
    B_SHARE,
    B_SPITE,
    B_TREASW,
    B_URGENCY,
    G_ENDED,
    G_PIRC,
    HARBOUR,
    INF,
    MAP,
    MODE_TILES,
    PIRATE_PENALTY,
    R_BONUS,
    R_GOODS,
    R_MODE,
    R_NC,
    R_P,
    R_PAYOUT,
    R_SALE,
    SUNKEN,
    TIE_REL,
)


@helper
def standing(st, R, q):
    return st.coins[q] + st.offer[q, 0] + st.offer[q, 1] + 20 * st.goods[q]


@helper_inline
def wages(st, R, p, bp, c):
    """Phase 1 with c >= 2 coins: (captain, sailor) wages.  With two players 1 and 1 (the only
    opponent must crew you anyway); else the base wages, more the further the seat is behind
    the leader in goods, capped near last round's best captain wage (``B_ADAPT``), raised above
    the best captain wage offered before it this round (``B_OUTBID``), at most ``B_SHARE`` of
    its coins each."""
    P = R[R_P]
    if P == 2:
        return 1, 1
    mx = 0
    for q in range(P):
        if q != p and st.goods[q] > mx:
            mx = st.goods[q]
    need = mx - st.goods[p]
    if need < 0:
        need = 0
    if need > 2:
        need = 2
    capf = bp[B_CAPTAIN] + bp[B_URGENCY] * need
    salf = bp[B_SAILOR] + 0.5 * bp[B_URGENCY] * need
    if bp[B_ADAPT] > 0 and st.lastcap[p] >= 0:
        # no more than a step above what the others paid last round
        prev = 0
        for q in range(P):
            if q != p and st.lastcap[q] > prev:
                prev = st.lastcap[q]
        step = bp[B_OUTBID] if bp[B_OUTBID] > 1 else 1.0
        if prev + step < capf:
            capf = prev + step
        elif bp[B_GIVEUP] > 0 and prev + step > capf + bp[B_GIVEUP]:
            capf = 1.0  # outbidding them costs too much: do not compete
    if bp[B_OUTBID] > 0:
        # earlier players in the crew row have offered already: beat the best
        hi = 0
        for q in range(P):
            if q != p and st.offer[q, 0] > hi:
                hi = st.offer[q, 0]
        if hi + bp[B_OUTBID] > capf:
            capf = hi + bp[B_OUTBID]
    lim = bp[B_SHARE] * c
    if capf > lim:
        capf = lim
    if salf > lim:
        salf = lim
    cap = np.int64(capf + 0.5)
    sal = np.int64(salf + 0.5)
    if cap < 1:
        cap = 1
    if sal < 1:
        sal = 1
    if cap + sal > c:
        cap = c - 1
        sal = 1
    return cap, sal


@helper_inline
def reroll_mask(st, R, p, bp, n, cost):
    """Phase 2, before re-roll n (0 the first) costing ``cost``: which dice to re-roll (bit i =
    die i), 0 to stop.  Never with two players, at most ``B_RRMAX`` times, keeping ``B_RESERVE``
    coins; the dice showing ``B_RRLOW`` or less."""
    if R[R_P] == 2 or n >= bp[B_RRMAX] or st.coins[p] - cost < bp[B_RESERVE]:
        return 0
    mask = 0
    for i in range(3):
        if st.dv[p, i] <= bp[B_RRLOW]:
            mask |= 1 << i
    return mask


@helper
def place_prepare(st, R, p, th):
    """Before placing: how far each seat leads p (in standing points) into ``th``
    (``Scratch.th``), for the spite term."""
    P = R[R_P]
    mine = standing(st, R, p)
    for b in range(P):
        th[b] = standing(st, R, b) - mine


@helper
def place_score(st, R, p, b, v, bp, th):
    """Heuristic value of putting a die of value v on b's board (``th``: place_prepare's)."""
    k = slot_for(st, b, v)
    wage = st.offer[b, k] + 0.0 if k < 2 else 0.0
    loss = 0.0
    nb = st.nb[b]
    for j in range(k, 2):
        if j >= nb:
            break
        nxt = st.offer[b, j + 1] if j + 1 < 2 else 0
        d = st.offer[b, j] - nxt
        if st.bo[b, j] == p:
            wage -= d
        else:
            loss += d
    if nb + 1 < 3:
        wage *= 0.5 + 0.1 * v  # a later, higher die may still push it right
    lead = th[b] / 20.0
    if lead < 0:
        lead = 0.0
    return wage + bp[B_BUMP] * loss - bp[B_SPITE] * v * (1.0 + lead)


@helper_inline
def place_choice(st, R, p, bp, rs, opts, no, th):
    """Phase 2: index of the placement to make among the ``no`` legal ones in ``opts`` (4 * die
    + board).  Each (value, board) is scored once: a die equal to an earlier die is the same
    option."""
    bk = -1
    bs = -1e18
    ties = 0
    for k in range(no):
        i = opts[k] // 4
        b = opts[k] % 4
        v = st.dv[p, i]
        dup = False
        for j in range(i):
            if st.dv[p, j] == v:
                dup = True
        if dup:
            continue
        s = place_score(st, R, p, b, v, bp, th)
        ok, bs, ties = take(rs, 1 + p, s, bs, ties, TIE_REL)
        if ok:
            bk = k
    return bk


@helper_fused
def plan_target(st, R, board, compass, Lt, Lss, p, cur, r, bp, sc, rs):
    """Heuristic route planner: the special space (harbour or compass, as a special index)
    to head for, -1 for none.

    Candidates: harbours of islands where p can still sell (worth the sale minus the
    payouts, plus maps held for it), tiles-mode treasure (sunken treasure, maps), and
    Batam when p has sold everything or the end has been triggered.  A candidate reachable
    this round scores above any that is not, plus the best second candidate reachable
    after it; unreachable ones score value - distance weight * spaces.  Equal best scores
    are broken uniformly with the seat's own stream (``sim.search.take``).  ``Lt, Lss``: the
    length tables to plan with (``Routes``: LS, LSS avoiding the pirate, else DS, DSS)."""
    kind = board.kind
    island = board.island
    comp_nodes = board.comp_nodes
    harb_nodes = board.harb_nodes
    tk = compass.tk
    tv = compass.tv
    cn = sc.cand
    cv = sc.candv
    var = st.g[G_PIRC] + 1
    G = R[R_GOODS]
    done = st.goods[p] >= G
    ended = st.g[G_ENDED] != 0
    if ended and island[cur] == 0 and kind[cur] == HARBOUR:
        return -1
    nh = harb_nodes.shape[0]
    nc = 0
    for a in range(nh):
        h = harb_nodes[a]
        if h == cur:
            continue
        isl = island[h]
        if isl == 0:
            if done or ended:
                cn[nc] = a
                cv[nc] = R[R_BONUS] + (1000.0 if done else 0.0)
                nc += 1
            continue
        if done:
            continue
        val = 0.0
        if st.cube[isl, p] == 0:
            val = R[R_SALE] - R[R_PAYOUT] * st.ncube[isl] + 0.0
        val += st.mapv[p, isl]
        if val > 0:
            cn[nc] = a
            cv[nc] = val
            nc += 1
    if R[R_MODE] == MODE_TILES and not done and bp[B_TREASW] > 0:
        for c in range(R[R_NC]):
            t = st.tile[c]
            if t < 0 or comp_nodes[c] == cur:
                continue
            if tk[t] == SUNKEN:
                cn[nc] = nh + c
                cv[nc] = tv[t] * bp[B_TREASW]
                nc += 1
            elif tk[t] == MAP:
                cn[nc] = nh + c
                cv[nc] = 0.5 * tv[t] * bp[B_TREASW]
                nc += 1
    best = -1
    bs = -1e18
    ties = 0
    dw = bp[B_DISTW]
    for a in range(nc):
        t1 = cn[a]
        l1 = Lt[var, t1, cur]
        if l1 >= INF:
            continue
        if t1 >= nh:
            # treasure: only as a stop this round, worth its value less the detour it adds
            # to the way to the nearest harbour target
            if l1 > r:
                continue
            det = INF
            for b in range(nc):
                t2 = cn[b]
                if t2 < nh:
                    d = l1 + Lss[var, t2, t1] - Lt[var, t2, cur]
                    if d < det:
                        det = d
            if det >= INF:
                det = 0
            s = cv[a] - dw * det
        elif l1 <= r:
            s = 1000.0 + cv[a] - 0.01 * l1
        else:
            s = cv[a] - dw * l1
        if l1 <= r:
            b2 = 0.0
            for b in range(nc):
                if b == a:
                    continue
                t2 = cn[b]
                if t1 < nh and t2 < nh and island[harb_nodes[t1]] == island[harb_nodes[t2]]:
                    continue
                if l1 + Lss[var, t2, t1] <= r:
                    v2 = cv[b] + (1000.0 if t2 < nh else 0.0)
                    if v2 > b2:
                        b2 = v2
            s += b2
        ok, bs, ties = take(rs, 1 + p, s, bs, ties, TIE_REL)
        if ok:
            best = t1
    return best


@helper_inline
def heuristic_step(st, R, board, Wt, fc, p, cur, tgt, tnode, r, can_stop, avoid, rs):
    """Next space for the heuristic bot, -1 to stop: the safe neighbour that goes down the
    weighted distance to the target, dearer entries (occupied spaces, pirate neighbours)
    breaking ties; neighbours still equal are chosen uniformly (the seat's own stream)."""
    kind = board.kind
    comp = board.comp
    nbr = board.nbr
    deg = board.deg
    padj = board.padj
    var = st.g[G_PIRC] + 1
    best = -1
    bw = -INF * 4.0  # the best so far, negated: take keeps the largest
    ties = 0
    pc = st.g[G_PIRC]
    if tgt >= 0 and tnode != cur:
        here = Wt[var, tgt, cur]
        for j in range(deg[cur]):
            n = nbr[cur, j]
            w = Wt[var, tgt, n]
            if w >= here:
                continue
            c = safe_step(st, R, kind, comp, nbr, deg, fc, p, n, r)
            if c < 0:
                continue
            e = w * 4 + c
            if avoid and pc >= 0 and padj[pc, n] != 0:
                e += 4 * PIRATE_PENALTY
            ok, bw, ties = take(rs, 1 + p, -1.0 * e, bw, ties, 0.0)
            if ok:
                best = n
    if best >= 0 or can_stop:
        return best
    # must move on (ending here is illegal): the cheapest safe step
    for j in range(deg[cur]):
        n = nbr[cur, j]
        c = safe_step(st, R, kind, comp, nbr, deg, fc, p, n, r)
        if c < 0:
            continue
        e = c * 4 + (Wt[var, tgt, n] if tgt >= 0 else 0)
        ok, bw, ties = take(rs, 1 + p, -1.0 * e, bw, ties, 0.0)
        if ok:
            best = n
    return best


@helper_inline
def pays_pirate(bp, r, cost):
    """A pirate card: pay a ransom of at most ``B_PIRPAY`` while movement is left, else stop."""
    return r > 0 and cost <= bp[B_PIRPAY]

