"""The heuristic bots' turn: value every card, site and attack, then turn, build, attack or pass."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_fused
from ....record import rec
from ..state import (XF_CV, XF_FV, XF_HV, XF_PV, XF_SV, XF_VILL, XI_BPLAN, XI_CNT, XI_CVT, XI_HAND,
                     XI_ONB, XI_PER, XI_PLAN, XI_SPEND, XI_UNSEEN)
from ..state import (EV_PASS, EV_PAY, BALLCOURT, BW_BUILD, BW_EXPAND, BW_HAND, BW_PLANS, BW_PRES, BW_RISK, BW_WAR,
                     CACAO, CONT, EMPTY, GARRISON, GS_BALLS, GS_KNOWN, GS_NSLOT, GS_SEEN, GS_SLOT,
                     GS_SUP, I_CENOTE, I_COLOUR, I_FOREST, I_SEA, I_VOLC, K_BALL, K_CACAO,
                     K_CENOTE, K_DECAD, K_DROUGHT, K_ECLIPSE, K_EXC, K_EXPED, K_FAV, K_MARRY,
                     K_PROS, K_TIDAL, K_VOLCANO, MAIZE, MARKET, NBW, NK, OBSERV, OBSID, PALACE,
                     P_HAND, P_LARGE, RESERVE, R_BALLS, R_CENF, R_FOREST, R_KCNT, R_NEUTRAL,
                     R_NP, R_PTS, TEMPLE, T_PASS, VILLAGE)
from ..ties import take
from ..board import (afford_mask, find_space, fit_mask, hand_total, site_code_count, tile_mask,
                     width)
from ..bots.values import (Outlook, building_value, cheapest_held, cost_value, econ, enables,
                           gain_worths, hand_values, pay_sequence, player_counts, rounds_left)
from ..bots.insure import insure, prosperous_on_top
from ..constructions import build_plan
from ..wars import defence_base, defence_obsidian, die_stats, resolve_attack
from ..katun import cat_spec, gain_value, per_value, rank_award, turn_card

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


# ======================================================================= heuristic turn
@helper_fused
def scan_board(own, bld, tok, info, R, W, p, rl, cnt, per, onb, pv):
    """One pass over the board for a heuristic turn.  Fills ``cnt`` as player_counts
    does for king p, per[q] / per[4 + q] / per[8 + q] with each king's ball courts,
    observatories and cities, and onb[t] with the riches on p's buildings; returns
    (cenotes on the board, worth and number of p's cities next to a volcano, the same
    on the seashore)."""
    cnt[:] = 0
    for i in range(12):
        per[i] = 0
    for c in range(10):
        pv[c] = per_value(c, rl, W)
    for t in range(6):
        onb[t] = 0
    volc = 0.0
    sea = 0.0
    nvolc = 0
    nsea = 0
    nc = 0
    forest = R[R_FOREST]
    for s in range(own.shape[0]):
        nc += info[s, I_CENOTE]
        q = own[s]
        if q < 0:
            continue
        per[8 + q] += 1
        if q != p:
            for k in range(4):
                c = bld[s, k]
                if c == BALLCOURT:
                    per[q] += 1
                elif c == OBSERV:
                    per[4 + q] += 1
            continue
        cnt[15] += 1
        cityv = W[BW_EXPAND]
        for k in range(4):
            c = bld[s, k]
            if c == VILLAGE:
                if forest == 0 or info[s, I_FOREST] == 1:
                    cnt[info[s, I_COLOUR]] += 1
            if c >= 1 and c <= 8:
                cnt[5 + c] += 1
            cityv += pv[c]
            if tok[s, k] >= 0:
                onb[tok[s, k]] += 1
        if info[s, I_VOLC] == 1:
            volc += cityv
            nvolc += 1
        if info[s, I_SEA] == 1:
            sea += cityv
            nsea += 1
    per[p] = cnt[5 + BALLCOURT]
    per[4 + p] = cnt[5 + OBSERV]
    return nc, volc, nvolc, sea, nsea


@helper_fused
def card_values(R, W, p, hv, rl, cnt, per, onb, scan, tmp, cv):
    """cv[kt]: heuristic worth to king p of turning a card of each type now, from the
    board scan (``cnt``, ``per``, ``onb`` and ``scan`` = scan_board's result); for each
    catastrophe, cv[NK + kt]: the worth of what it would destroy."""
    NP = R[R_NP]
    nc, volc, nvolc, sea, nsea = scan
    ntok = 0
    for t in range(6):
        ntok += onb[t]
    cv[K_PROS] = 1.6 * W[BW_PRES]
    cv[K_FAV] = 1.5 * W[BW_HAND]
    cv[K_EXC] = 2.0 * hv[MAIZE]
    cv[K_EXPED] = 1.1 * W[BW_HAND]
    cv[K_CACAO] = hv[CACAO] * 0.5
    cv[K_MARRY] = 1.5 * W[BW_HAND]
    cv[K_CENOTE] = W[BW_PRES] * R[R_CENF] * 1.5 * min(ntok, nc) * 0.7
    counts = per[0:4]
    fp = per[8:12]
    sp = tmp[0:4]
    aw = tmp[4:8]
    for q in range(NP):
        sp[q] = fp[q] // 2
    rank_award(counts, NP, fp, sp, aw)
    best_other = 0
    for q in range(NP):
        if q != p and aw[q] > best_other:
            best_other = aw[q]
    cv[K_BALL] = W[BW_PRES] * (aw[p] - 0.5 * best_other)
    cv[K_ECLIPSE] = -0.3
    for kt in range(K_DROUGHT, NK):
        pt, pn, code, n = cat_spec(kt)
        if kt == K_VOLCANO:
            loss = volc
            hit = nvolc
        elif kt == K_TIDAL:
            loss = sea
            hit = nsea
        elif kt == K_DECAD:
            hit = min(1, cnt[5 + BALLCOURT]) + min(1, cnt[5 + OBSERV])
            loss = (per_value(BALLCOURT, rl, W) * min(1, cnt[5 + BALLCOURT])
                    + per_value(OBSERV, rl, W) * min(1, cnt[5 + OBSERV]))
        else:
            hit = min(n, cnt[5 + code])
            loss = per_value(code, rl, W) * hit
        cv[NK + kt] = loss   # what it would destroy (bots.insure)
        if hit == 0:
            cv[kt] = 0.0
            continue
        if onb[pt] >= pn:
            keep = pn * (1.0 + 0.1 * R[R_PTS + pt])
            if keep < loss:
                loss = keep
        cv[kt] = -loss * W[BW_RISK]


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


@helper
def pros_worth(ru, gs, hg, W):
    """A Prosperous Katun's worth to the heuristic: over the deck's Prosperous cards, the
    mean of the best option's worth (riches at their gain worths ``hg``, what the supply
    cannot give worth nothing)."""
    ctype, cgain, cnopt = ru.ctype, ru.cgain, ru.cnopt
    if (ru.R[R_NEUTRAL] >> K_PROS) & 1:
        return 0.0
    tot = 0.0
    n = 0
    for c in range(ctype.shape[0]):
        if ctype[c] != K_PROS:
            continue
        best = 0.0
        for i in range(cnopt[c]):
            v = gain_value(cgain[c, i], hg, W)
            for t in range(6):
                if cgain[c, i, t] > gs[GS_SUP + t]:
                    v -= (cgain[c, i, t] - gs[GS_SUP + t]) * hg[t]
            best = max(best, v)
        tot += best
        n += 1
    return tot / n if n > 0 else 0.0


@helper_fused
def card_choice(st, ru, sc, p, W, rl, last):
    """The card option.  Each card type's worth (cv; a Prosperous Katun by its best
    option at the gain worths); a face-down card's worth: exact for a divined one, a
    Prosperous Katun for one dealt from the top of the deck (the rulebook's set-up puts
    them there), else the mean over the unseen cards that can lie deeper (no Prosperous).
    Returns (slot of the best card (equal worths uniformly on the bot's stream), the
    card option's worth against passing or building, the turn's Outlook).  Turning now
    rather than later changes which of the round's cards fall to this king: with n
    face-down cards and NP kings turning in turn, he turns ceil(n/NP) of them from now
    (this one, then the mean of the rest) but n // NP if he lets the next king turn
    first (the mean of all); the difference is added to the best card's worth.  Leaves
    ``cnt`` and ``per`` filled (scan_board) and the gain worths in hv[12:18]."""
    own, bld, tok, gs, rs = st.own, st.bld, st.tok, st.gs, st.rs
    R, info, ctype = ru.R, ru.info, ru.ctype
    hv, cnt, per, unseen = sc.xf[XF_HV], sc.xi[XI_CNT], sc.xi[XI_PER], sc.xi[XI_UNSEEN]
    onb, cvt, cv, pv = sc.xi[XI_ONB], sc.xi[XI_CVT], sc.xf[XF_CV], sc.xf[XF_PV]
    NP = R[R_NP]
    bs = 1 + p
    known = gs[GS_KNOWN + p]
    for kt in range(NK):
        unseen[kt] = R[R_KCNT + kt] - gs[GS_SEEN + kt]
    for k in range(gs[GS_NSLOT]):
        c = gs[GS_SLOT + k]
        if c >= 0 and (known >> k) & 1:
            unseen[ctype[c]] -= 1
    scan = scan_board(own, bld, tok, info, R, W, p, rl, cnt, per, onb, pv)
    card_values(R, W, p, hv, rl, cnt, per, onb, scan, cvt, cv)
    riv_bc = np.int64(0)
    riv_ob = np.int64(0)
    for q in range(NP):
        if q != p and per[q] > riv_bc:
            riv_bc = per[q]
        if q != p and per[4 + q] > riv_ob:
            riv_ob = per[4 + q]
    rm, nm, rp, npr = insure(R, rl, cv[NK:2 * NK], unseen)
    ol = Outlook(p, W, rl, last, riv_bc, riv_ob, rm, nm, onb[MAIZE] + 0.0)
    gain_worths(st, ru, ol, cnt, hv)
    if unseen[K_PROS] > 0:
        cv[K_PROS] = pros_worth(ru, gs, hv[12:18], W)
    # a face-down card dealt from deeper than the Prosperous Katuns: the unseen others
    ev = 0.0
    nunseen = 0
    for kt in range(NK):
        if unseen[kt] > 0 and kt != K_PROS:
            ev += unseen[kt] * cv[kt]
            nunseen += unseen[kt]
    ev = ev / nunseen if nunseen > 0 else cv[K_PROS]
    card_slot = np.int64(-1)
    card_v = -1e18
    ties = np.int64(0)
    nleft = 0
    vsum = 0.0
    for k in range(gs[GS_NSLOT]):
        c = gs[GS_SLOT + k]
        if c < 0:
            continue
        if (known >> k) & 1:
            v = cv[ctype[c]]
        elif prosperous_on_top(R, gs, k):
            v = cv[K_PROS]
        else:
            v = ev
        nleft += 1
        vsum += v
        ok, card_v, ties = take(rs, bs, v, card_v, ties)
        if ok:
            card_slot = k
    if nleft > 1:
        now = (nleft + NP - 1) // NP - 1   # more cards he turns after this one
        later = nleft // NP                # cards he turns if the next king turns first
        card_v += now * (vsum - card_v) / (nleft - 1) - later * vsum / nleft
    return card_slot, card_v, ol


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
