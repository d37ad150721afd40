"""The heuristic bots' turn: value every card, site and attack, then turn, build, attack or pass."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_fused
from ....record import rec
from ..state import (XF_FV, XF_HV, XF_SV, XF_VILL, XI_BPLAN, XI_CNT, XI_HAND,
                     XI_PLAN, XI_SPEND)
from ..state import (EV_PASS, EV_PAY, BW_BUILD, BW_PLANS, BW_PRES, BW_WAR,
                     CONT, EMPTY, GARRISON, GS_BALLS, GS_SUP, I_COLOUR, I_FOREST, MARKET, NBW, OBSID, PALACE,
                     P_HAND, P_LARGE, RESERVE, R_BALLS, R_FOREST, TEMPLE, T_PASS, VILLAGE)
from ..ties import take
from ..board import (afford_mask, find_space, fit_mask, hand_total, site_code_count, tile_mask,
                     width)
from ..bots.values import (building_value, cheapest_held, cost_value, econ, enables,
                           hand_values, pay_sequence, player_counts, rounds_left)
from ..constructions import build_plan
from ..wars import defence_base, defence_obsidian, die_stats, resolve_attack
from ..katun import turn_card
from .cards import card_choice


@helper
def plan_site(st, ru, sc, ol, s):
    """Heuristic: greedy building plan on site s with ``hand`` (already taxed).  Fills
    plan[0..n-1] with codes; returns (value, n).  hand and cnt are scratch (restored).
    Each step takes the building of highest value above 0.05 (equal values: uniformly,
    on the bot's stream)."""
    own, bld, pl, gs, rs = st.own, st.bld, st.pl, st.gs, st.rs
    R, nnb, info = ru.R, ru.nnb, ru.info
    hv, cnt, plan, spend, hand = (sc.xf[XF_HV], sc.xi[XI_CNT], sc.xi[XI_PLAN], sc.xi[XI_SPEND],
                                  sc.xi[XI_HAND])
    p, W, last = ol.p, ol.W, ol.last
    sb0 = bld[s, 0]
    sb1 = bld[s, 1]
    sb2 = bld[s, 2]
    sb3 = bld[s, 3]
    h0 = hand[0]
    h1 = hand[1]
    h2 = hand[2]
    h3 = hand[3]
    h4 = hand[4]
    h5 = hand[5]
    total = 0.0
    n = 0
    owner0 = own[s]
    large0 = pl[p, P_LARGE]
    bs = 1 + p
    while n < 4:
        best = np.int64(-1)
        bv = -1e18
        bval = 0.0
        ties = np.int64(0)
        fm = fit_mask(own, bld, pl, gs, nnb, info, p, s) & afford_mask(hand, R)
        base = 0.0
        if fm & ((1 << VILLAGE) | (1 << TEMPLE) | (1 << PALACE) | (1 << RESERVE)):
            base = econ(cnt[0:5], cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], R, W, last)
        for code in range(1, 9):
            if (fm >> code) & 1 == 0:
                continue
            v = building_value(st, ru, ol, s, code, cnt, base)
            v -= cost_value(hand, hv, R, code, spend)
            if own[s] == -1:
                # a new city: a pyramid out, one more city for ball games, exposure
                v += W[NBW + s]
                v -= W[NBW + own.shape[0] + s]
            if v <= 0.05:
                continue
            ok, bv, ties = take(rs, bs, v, bv, ties)
            if ok:
                best = code
                bval = v
        if best < 0:
            break
        cost_value(hand, hv, R, best, spend)
        for t in range(6):
            hand[t] -= spend[t]
        k = find_space(bld, info, s, best)
        bld[s, k] = best
        if width(best) == 2:
            bld[s, k + 1] = CONT
        if own[s] == -1:
            own[s] = p
            pl[p, P_LARGE] -= 1
            cnt[15] += 1
        if best == VILLAGE:
            if R[R_FOREST] == 0 or info[s, I_FOREST] == 1:
                cnt[info[s, I_COLOUR]] += 1
        cnt[5 + best] += 1
        plan[n] = best
        n += 1
        total += bval
    # restore
    for i in range(n):
        c = plan[i]
        if c == VILLAGE:
            if R[R_FOREST] == 0 or info[s, I_FOREST] == 1:
                cnt[info[s, I_COLOUR]] -= 1
        cnt[5 + c] -= 1
    hand[0] = h0
    hand[1] = h1
    hand[2] = h2
    hand[3] = h3
    hand[4] = h4
    hand[5] = h5
    bld[s, 0] = sb0
    bld[s, 1] = sb1
    bld[s, 2] = sb2
    bld[s, 3] = sb3
    if own[s] != owner0:
        own[s] = owner0
        pl[p, P_LARGE] = large0
        cnt[15] -= 1
    return total, n


@helper
def keep_last(st, ru, ol, cnt, hv, hand):
    """Move to the end of this turn's payment order (hv[6:12]) the riches types the king
    holds for a building they complete (``enables``: the jade of his first observatory),
    so that he pays a turn or a building of choice with them last (hv[18:24]: scratch)."""
    keep = 0
    for t in range(6):
        if hand[t] > 0 and enables(st, ru, ol, cnt, hv, t, hand[t] - 1) > 0.0:
            keep |= 1 << t
    if keep == 0:
        return
    for i in range(6):
        hv[18 + i] = hv[6 + i]
    j = 6
    for last in range(2):
        for i in range(6):
            t = np.int64(hv[18 + i])
            if ((keep >> t) & 1) == last:
                hv[j] = t
                j += 1


@helper
def top_site(sv, skip, rs, k):
    """The site of highest screen value sv[s] (sites at -1e18 or below are not
    candidates; ``skip`` is left out), equal values uniformly on stream k; -1: none."""
    best = np.int64(-1)
    bv = -1e18
    ties = np.int64(0)
    for s in range(sv.shape[0]):
        if s == skip or sv[s] <= -1e18:
            continue
        ok, bv, ties = take(rs, k, sv[s], bv, ties)
        if ok:
            best = s
    return best



@helper_fused
def screen_sites(st, ru, sc, ol, amask):
    """Screen every site on its best first building (sv[s]) with the taxed ``hand``;
    returns the best site (equal values uniformly on the bot's stream; -1: none)."""
    own, bld, pl, gs, rs = st.own, st.bld, st.pl, st.gs, st.rs
    R, nnb, info = ru.R, ru.nnb, ru.info
    hv, cnt, spend, hand = sc.xf[XF_HV], sc.xi[XI_CNT], sc.xi[XI_SPEND], sc.xi[XI_HAND]
    fv, vill, sv = sc.xf[XF_FV], sc.xf[XF_VILL], sc.xf[XF_SV]
    p, W, rl, last = ol.p, ol.W, ol.rl, ol.last
    S = own.shape[0]
    bs = 1 + p
    # first-building values that do not depend on the site, once per turn
    base = econ(cnt[0:5], cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], R, W, last)
    for code in range(1, 9):
        fv[code] = -cost_value(hand, hv, R, code, spend)
        if code != VILLAGE and code != GARRISON and code != MARKET:
            fv[code] += building_value(st, ru, ol, 0, code, cnt, base)
    for c in range(5):
        cnt[c] += 1
        vill[c] = (econ(cnt[0:5], cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], R, W,
                        last) - base) * rl * W[BW_BUILD]
        cnt[c] -= 1
    tiles = tile_mask(gs)
    # best first building on a free site, garrisons and markets aside (they need
    # neighbours to be worth anything; the full plan still considers them)
    free_nv = -1e18
    for code in range(2, 9):
        if code != GARRISON and code != MARKET and (tiles & amask) >> code & 1:
            if fv[code] > free_nv:
                free_nv = fv[code]
    can_found = pl[p, P_LARGE] > 0
    s1 = np.int64(-1)
    v1 = -1e18
    t1 = np.int64(0)
    for s in range(S):
        sv[s] = -1e300
        if own[s] == -1:
            if not can_found:
                continue
            bvs = free_nv
            if (tiles & amask) >> VILLAGE & 1:
                if R[R_FOREST] == 0 or info[s, I_FOREST] == 1:
                    vv = fv[VILLAGE] + vill[info[s, I_COLOUR]]
                    if vv > bvs:
                        bvs = vv
            bvs += W[NBW + s]
            bvs -= W[NBW + S + s]
        else:
            fm = fit_mask(own, bld, pl, gs, nnb, info, p, s) & amask
            if fm == 0:
                continue
            bvs = -1e18
            for code in range(1, 9):
                if (fm >> code) & 1 == 0:
                    continue
                if code == VILLAGE:
                    if R[R_FOREST] == 1 and info[s, I_FOREST] == 0:
                        continue
                    v = fv[code] + vill[info[s, I_COLOUR]]
                elif code == GARRISON or code == MARKET:
                    v = fv[code] + building_value(st, ru, ol, s, code, cnt, 0.0)
                else:
                    v = fv[code]
                if v > bvs:
                    bvs = v
        sv[s] = bvs
        if bvs > -1e18:   # the best site so far (top_site's scan, done in this pass)
            ok, v1, t1 = take(rs, bs, bvs, v1, t1)
            if ok:
                s1 = np.int64(s)
    return s1


@helper_fused
def best_attack(st, ru, sc, ol, tax_v, best_v, ties):
    """The attacks: each (own city with garrisons, enemy neighbour) is worth its expected
    damage (minus the tax) and joins the turn's argmax (``best_v``, ``ties``).  Returns
    (an attack won the argmax, best_v, ties, from, to, garrisons, obsidian)."""
    own, bld, tok, rs = st.own, st.bld, st.tok, st.rs
    R, nbr, nnb = ru.R, ru.nbr, ru.nnb
    p, W, rl = ol.p, ol.W, ol.rl
    S = own.shape[0]
    bs = 1 + p
    mean, psk = die_stats(R)
    found = False
    ba = np.int64(-1)
    bb = np.int64(-1)
    bo = np.int64(0)
    bk = np.int64(0)
    for a in range(S if sc.xi[XI_CNT][5 + GARRISON] > 0 else 0):   # no garrison, no attack
        if own[a] != p:
            continue
        g = site_code_count(bld, a, GARRISON)
        if g == 0:
            continue
        oa = 0
        for k in range(4):
            if bld[a, k] == GARRISON and tok[a, k] == OBSID:
                oa += 1
        for j in range(nnb[a]):
            b = nbr[a, j]
            q = own[b]
            if q < 0 or q == p:
                continue
            d = defence_base(own, bld, nbr, nnb, b) + defence_obsidian(own, bld, tok, nbr, nnb, b)
            exp_pts = g * mean + oa - d
            if exp_pts <= 0.3:
                continue
            nb = 0
            for k in range(4):
                if bld[b, k] != EMPTY and bld[b, k] != CONT:
                    nb += 1
            dmg = min(exp_pts, nb + 0.0)
            v = W[BW_WAR] * dmg * (0.8 * rl + 1.5 * W[BW_PRES]) - psk * g * 1.0 - 0.8 * oa
            v -= tax_v
            ok, best_v, ties = take(rs, bs, v, best_v, ties)
            if ok:
                found = True
                ba = a
                bb = b
                bk = g
                bo = oa
    return found, best_v, ties, ba, bb, bk, bo


@helper
def heuristic_turn(st, ru, sc, p):
    """Heuristic bot: compare turning a card, building (best greedy plan over the
    candidate sites), attacking and passing; play the best.  Every choice among equal
    values (card slots, sites, buildings, the turn's options, payment types) is uniform
    on the bot's own stream (slot 1 + p)."""
    own, pl, gs, rs = st.own, st.pl, st.gs, st.rs
    R = ru.R
    hv, plan, hand, bplan = sc.xf[XF_HV], sc.xi[XI_PLAN], sc.xi[XI_HAND], sc.xi[XI_BPLAN]
    W = ru.bot_par[p]
    S = own.shape[0]
    bs = 1 + p
    hand_values(W, R, gs, hv)
    rl = rounds_left(gs, R)
    last = gs[GS_BALLS] >= R[R_BALLS]
    # --- card
    card_slot, card_v, ol = card_choice(st, ru, sc, p, W, rl, last)
    tot = hand_total(pl, p)
    if tot == 0:
        turn_card(st, ru, sc, p, card_slot)
        return
    # --- the turn's options, one argmax with uniform ties: card, pass, plans, attacks
    pay_sequence(rs, bs, hv, W, NBW + 2 * S, last)   # the order of payment, ties drawn
    for t in range(6):
        hand[t] = pl[p, P_HAND + t]
    keep_last(st, ru, ol, sc.xi[XI_CNT], hv, hand)
    tax_t = cheapest_held(hand, hv)
    tax_v = hv[tax_t] + enables(st, ru, ol, sc.xi[XI_CNT], hv, tax_t, hand[tax_t] - 1)
    best_kind = 0  # 0 card, 1 pass, 2 build, 3 attack
    best_v = card_v
    ties = np.int64(1)
    ok, best_v, ties = take(rs, bs, -tax_v, best_v, ties)
    if ok:
        best_kind = 1
    # --- building
    hand[tax_t] -= 1
    # cnt still holds p's counts (scan_board in card_choice)
    nbplan = 0
    best_site = np.int64(-1)
    amask = afford_mask(hand, R) if tot >= 2 else 0
    if amask != 0:
        # screen every site on its best first building, plan fully on the best (and the
        # second best with plans=2)
        s1 = screen_sites(st, ru, sc, ol, amask)
        s2 = (top_site(sc.xf[XF_SV, :S], s1, rs, bs) if W[BW_PLANS] >= 2.0 and s1 >= 0
              else np.int64(-1))
        for i in range(2 if W[BW_PLANS] >= 2.0 else 1):
            s = s1 if i == 0 else s2
            if s < 0:
                continue
            v, n = plan_site(st, ru, sc, ol, np.int64(s))
            if n == 0:
                continue
            ok, best_v, ties = take(rs, bs, v - tax_v, best_v, ties)
            if ok:
                best_kind = 2
                best_site = np.int64(s)
                for i2 in range(n):
                    bplan[i2] = plan[i2]
                nbplan = n
    hand[tax_t] += 1
    # --- attack
    found, best_v, ties, ba, bb, bk, bo = best_attack(st, ru, sc, ol, tax_v, best_v, ties)
    if found:
        best_kind = 3
    if best_kind == 0:
        turn_card(st, ru, sc, p, card_slot)
        return
    pl[p, P_HAND + tax_t] -= 1
    gs[GS_SUP + tax_t] += 1
    rec(sc.rec, EV_PAY, p, tax_t, 1, 0, 0, 0, 0)
    if best_kind == 1:
        pl[p, T_PASS] += 1
        rec(sc.rec, EV_PASS, p, 0, 0, 0, 0, 0, 0)
        return
    if best_kind == 2:
        # the plan found above (the tax is paid as assumed)
        build_plan(st, ru, sc, p, best_site, bplan, nbplan)
        return
    resolve_attack(st, ru, sc, p, ba, bb, bk, bo)
    if own[bb] == -1:
        heuristic_build(st, ru, sc, ol, bb)


@helper
def heuristic_build(st, ru, sc, ol, s):
    """After an attack emptied site s: found a city there with the best plan."""
    own, bld, pl = st.own, st.bld, st.pl
    R, info = ru.R, ru.info
    cnt, plan, hand = sc.xi[XI_CNT], sc.xi[XI_PLAN], sc.xi[XI_HAND]
    p = ol.p
    for t in range(6):
        hand[t] = pl[p, P_HAND + t]
    player_counts(own, bld, info, R, p, cnt)
    v, n = plan_site(st, ru, sc, ol, s)
    build_plan(st, ru, sc, p, s, plan, n)
