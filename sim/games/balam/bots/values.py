"""What the heuristic bots value: riches in hand, buildings, costs and payment orders."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ....jit import helper, helper_fused, helper_inline
from ....rng import rand_int
from ..state import (GS_TILE, BALLCOURT, BW_BALL, BW_BUILD, BW_HAND, BW_MARKET, BW_PALACE, BW_PRES, BW_RES,
                     BW_RISK, BW_TEMPLE, BW_WAR, CACAO, GARRISON, GS_BALLS, GS_DPOS, GS_LEFT,
                     I_COLOUR, I_FOREST, MAIZE, MARKET, OBSERV, PALACE, PRIS, RESERVE, R_BALLS,
                     P_HAND, R_CANY, R_CKIND, R_CN, R_FOREST, R_NP, R_POSB, R_PTS, SHELL, TEMPLE, VILLAGE)
from ..ties import cmp_tie
from ..board import count_code, site_code_count

#: What a heuristic turn knows of its king and the game, worked out once per turn: the
#: seat, its weights row (``Rules.bot_par[p]``), rounds left, whether this is the last
#: round, the rivals' best ball courts and observatories, and the insurance a kept maize
#: buys (bots.insure: the losses averted per maize, the maize the catastrophes still to
#: come are expected to take, the maize he keeps on reserves and garrisons now).
Outlook = namedtuple("Outlook", ("p", "W", "rl", "last", "riv_bc", "riv_ob", "ins_rate",
                                 "ins_need", "ins_have"))


# ======================================================================= bot values
@helper_inline
def rounds_left(gs, R):
    """Expected end-of-round phases still to come, this round's included."""
    if gs[GS_BALLS] >= R[R_BALLS]:
        return 1.0
    d = R[R_POSB] + 1 - gs[GS_DPOS] + gs[GS_LEFT]
    if d < 0:
        d = 0
    return 1.0 + d / (R[R_NP] + 1.0)


@helper_inline
def hand_value(W, last, t):
    """Value of one riches of type t in the king's hand (heuristic bots); on the last round
    only the end bonus is left."""
    if last:
        return 0.5 * W[BW_PRES]
    wh = W[BW_HAND]
    if t == MAIZE:
        return 0.9 * wh
    if t == CACAO:
        return 1.15 * wh
    if t == SHELL:
        return 1.05 * wh
    if t == PRIS:
        return 1.1 * wh
    return 1.0 * wh   # jade, obsidian


@helper_inline
def hand_values(W, R, gs, hv):
    """hv[t]: value of one riches of each type in the king's hand (heuristic bots)."""
    last = gs[GS_BALLS] >= R[R_BALLS]
    for t in range(6):
        hv[t] = hand_value(W, last, t)


@helper
def pay_orders(W, off):
    """W[off + 12 * last + i]: the riches types sorted by hand value (insertion sort,
    equal values in type order), W[off + 12 * last + 6 + i] = 1 where position i starts a
    run of equal values (cmp_tie against the run's first); for last = 0 and 1.  Filled with
    the bots' weights (site_terms): pay_sequence then only shuffles the runs."""
    for last in range(2):
        b = off + 12 * last
        for i in range(6):
            v = hand_value(W, last == 1, i)
            j = i - 1
            while j >= 0 and cmp_tie(hand_value(W, last == 1, np.int64(W[b + j])), v) > 0:
                W[b + j + 1] = W[b + j]
                j -= 1
            W[b + j + 1] = i
        start = 0
        for i in range(6):
            W[b + 6 + i] = 0.0
            if i == 0 or cmp_tie(hand_value(W, last == 1, np.int64(W[b + i])),
                                 hand_value(W, last == 1, np.int64(W[b + start]))) != 0:
                W[b + 6 + i] = 1.0
                start = i


@helper_fused
def pay_sequence(rs, k, hv, W, off, last):
    """hv[6:12]: the six riches types in the order the heuristic pays with them this turn
    (so that its plans and its payments agree): the lowest value in hand first; types of
    equal value (jade and obsidian; every type on the last round) in a uniformly random
    order, drawn on stream k (Fisher-Yates within each run of equal values).  The sorted
    order and its runs come from pay_orders (W[off:])."""
    b = off + (12 if last else 0)
    for i in range(6):
        hv[6 + i] = W[b + i]
    i = 0
    while i < 6:
        e = i + 1
        while e < 6 and W[b + 6 + e] == 0.0:
            e += 1
        for a in range(e - 1, i, -1):
            j = i + rand_int(rs, k, a - i + 1)
            x = hv[6 + a]
            hv[6 + a] = hv[6 + j]
            hv[6 + j] = x
        i = e


@helper_inline
def cheapest_held(hand, hv):
    """The held riches type the heuristic pays with: the first held in this turn's payment
    order (hv[6:12], pay_sequence)."""
    for i in range(6):
        t = np.int64(hv[6 + i])
        if hand[t] > 0:
            return t
    return np.int64(-1)


@helper_inline
def econ(vc, nT, nP, nR, R, W, last):
    """Per-round value of a production mix ``vc`` (5 colours) routed to temples, palaces
    and reserves (heuristic estimate, ignores transport)."""
    pts_nm = 0.0
    nm = 0
    for c in range(1, 5):
        nm += vc[c]
        pts_nm += vc[c] * R[R_PTS + c]
    mz = vc[0]
    tcap = 2 * nT
    avg_nm = pts_nm / nm if nm > 0 else 2.0
    a = min(nm, tcap)
    b = min(mz, tcap - a)
    v = W[BW_PRES] * (a * avg_nm + b * R[R_PTS + MAIZE])
    r = nm + mz - a - b
    pc = min(r, 2 * nP)
    hvv = 0.5 * W[BW_PRES] if last else W[BW_HAND]
    v += hvv * pc
    r -= pc
    if not last:
        rc = min(r, nR)
        v += 0.5 * W[BW_RES] * rc
        r -= rc
        v += 0.35 * W[BW_HAND] * r  # unrouted production still has some promise
    return v


@helper
def player_counts(own, bld, info, R, p, cnt):
    """cnt[0..4] villages by colour (producing ones), cnt[5+code] buildings by code,
    cnt[15] cities."""
    cnt[:] = 0
    for s in range(own.shape[0]):
        if own[s] != p:
            continue
        cnt[15] += 1
        for k in range(4):
            c = bld[s, k]
            if c == VILLAGE:
                if R[R_FOREST] == 0 or info[s, I_FOREST] == 1:
                    cnt[info[s, I_COLOUR]] += 1
            if c >= 1 and c <= 8:
                cnt[5 + c] += 1


@helper_inline
def divined(mine, other, NJ):
    """Cards a king with ``mine`` observatories sees against a best rival with ``other``
    (the heuristic's estimate: a tie is two kings, a king behind is the sole second)."""
    if mine == 0:
        return 0
    return NJ if mine > other else 1


@helper_fused
def building_value(st, ru, ol, s, code, cnt, base):
    """Heuristic value of adding ``code`` on site s, given the counts ``cnt``; ``base`` is
    econ() of those counts (the caller computes it once for all codes)."""
    own, bld = st.own, st.bld
    R, nbr, nnb, info = ru.R, ru.nbr, ru.nnb, ru.info
    p, W, rl, last, riv_bc, riv_ob = ol.p, ol.W, ol.rl, ol.last, ol.riv_bc, ol.riv_ob
    vc = cnt[0:5]
    nT = cnt[5 + TEMPLE]
    nP = cnt[5 + PALACE]
    nR = cnt[5 + RESERVE]
    v = 0.0
    if code == VILLAGE:
        if R[R_FOREST] == 1 and info[s, I_FOREST] == 0:
            return -1.0
        c = info[s, I_COLOUR]
        vc[c] += 1
        v = (econ(vc, nT, nP, nR, R, W, last) - base) * rl
        vc[c] -= 1
    elif code == TEMPLE:
        v = (econ(vc, nT + 1, nP, nR, R, W, last) - base) * rl * W[BW_TEMPLE]
    elif code == PALACE:
        v = (econ(vc, nT, nP + 1, nR, R, W, last) - base) * rl * W[BW_PALACE]
    elif code == RESERVE:
        if last:
            return 0.0
        v = (econ(vc, nT, nP, nR + 1, R, W, last) - base) * rl
        # the catastrophes it wards off: one more maize kept, while the reserves and the
        # maize already kept fall short of what the catastrophes still to come take
        have = max(ol.ins_have, nR + 0.0)
        v += W[BW_RES] * (ol.ins_rate * min(1.0, max(0.0, ol.ins_need - have))
                          + (0.25 if nR < 2 else 0.1))
    elif code == GARRISON:
        if last:
            return 0.0
        threat = 0
        enemies = 0
        for j in range(nnb[s]):
            x = nbr[s, j]
            if own[x] >= 0 and own[x] != p:
                enemies += 1
                threat += site_code_count(bld, x, GARRISON)
        mydef = site_code_count(bld, s, GARRISON)
        if enemies > 0:
            v = W[BW_WAR] * (0.6 + 0.5 * max(0, min(threat + 1 - mydef, 3)))
        else:
            v = 0.15 * W[BW_WAR]
    elif code == MARKET:
        if last:
            return 0.0
        inf = 0
        for j in range(nnb[s]):
            x = nbr[s, j]
            if own[x] >= 0:
                inf += 1
        v = W[BW_MARKET] * (0.5 + 0.35 * inf) * min(rl, 3.0) * 0.5
    elif code == BALLCOURT:
        mine = cnt[5 + BALLCOURT]
        bl = min(rl / 3.0, R[R_BALLS] + 0.0)  # rough count of ball games still to come
        if mine + 1 > riv_bc:
            gainf = 0.2 if mine > riv_bc else (0.6 if mine == riv_bc else 1.0)
        else:
            gainf = 0.1
        v = W[BW_BALL] * W[BW_PRES] * gainf * (cnt[15] + 1) * bl * 0.6
    elif code == OBSERV:
        if last:
            return 0.0
        mine = cnt[5 + OBSERV]
        if mine > riv_ob:
            f = 0.1   # already the leader: only insurance
        else:
            # divination gained: cards p sees with one more observatory, plus half the
            # cards the leading rival stops seeing (per card of the NJ a leader sees)
            NJ = R[R_NP]
            gain = (divined(mine + 1, riv_ob, NJ) - divined(mine, riv_ob, NJ)
                    + 0.5 * (divined(riv_ob, mine, NJ) - divined(riv_ob, mine + 1, NJ)))
            f = 6.0 * gain / NJ if gain > 0 else 0.2
        v = 0.25 * W[BW_RISK] * f * rl
    return v * W[BW_BUILD]


@helper_inline
def cost_value(hand, hv, R, code, spend):
    """Value of the riches the heuristic pays for ``code`` (recorded in ``spend``)."""
    b = code - 1
    spend[:] = 0
    kind = R[R_CKIND + b]
    if kind >= 0:
        spend[kind] = R[R_CN + b]
        return hv[kind] * R[R_CN + b]
    v = 0.0
    for _ in range(R[R_CANY + b]):
        t = cheapest_held_after(hand, spend, hv)
        if t < 0:
            break   # cannot pay (the caller only uses the values of affordable buildings)
        spend[t] += 1
        v += hv[t]
    return v


@helper_fused
def cheapest_held_after(hand, spend, hv):
    for i in range(6):
        t = np.int64(hv[6 + i])
        if hand[t] - spend[t] > 0:
            return t
    return np.int64(-1)


@helper
def enables(st, ru, ol, cnt, hv, t, have):
    """What one more riches of type t is worth beyond its hand value hv[t] to king ol.p
    holding ``have`` of it: half the net worth (building_value less its price) of the
    best building whose cost names t and which this riches completes (observatory: jade,
    ball court: shell, as the components file says), while its tiles last; 0 when none.
    So a king without an observatory values the jade that gives him one (version 6)."""
    R = ru.R
    best = 0.0
    for code in (OBSERV, BALLCOURT):
        b = code - 1
        if R[R_CKIND + b] != t or R[R_CN + b] != have + 1 or st.gs[GS_TILE + b // 2] <= 0:
            continue
        v = building_value(st, ru, ol, 0, code, cnt, 0.0) - hv[t] * R[R_CN + b]
        if v > best:
            best = v
    return 0.5 * best


@helper
def gain_worths(st, ru, ol, cnt, hv):
    """hv[12 + t]: what gaining one riches of type t is worth to king ol.p (a card's
    gain, an Expedition, a marriage): its hand value plus what it enables (``enables``);
    ``cnt`` holds his counts (player_counts)."""
    pl = st.pl
    for t in range(6):
        hv[12 + t] = hv[t] + enables(st, ru, ol, cnt, hv, t, pl[ol.p, P_HAND + t])


@helper
def card_outlook(st, ru, cnt, hv, p):
    """Outside his turn (choosing a card's gain): king p's Outlook (no insurance terms),
    his counts in ``cnt`` and his gain worths in hv[12:18] (hv[0:6] already filled)."""
    own, bld, gs = st.own, st.bld, st.gs
    R = ru.R
    player_counts(own, bld, ru.info, R, p, cnt)
    riv_bc = np.int64(0)
    riv_ob = np.int64(0)
    for q in range(R[R_NP]):
        if q != p:
            riv_bc = max(riv_bc, count_code(own, bld, q, BALLCOURT))
            riv_ob = max(riv_ob, count_code(own, bld, q, OBSERV))
    ol = Outlook(p, ru.bot_par[p], rounds_left(gs, R), gs[GS_BALLS] >= R[R_BALLS], riv_bc,
                 riv_ob, 0.0, 0.0, 0.0)
    gain_worths(st, ru, ol, cnt, hv)
    return ol
