"""The heuristic's card option: a pass over the board, each card type's worth, and the card it turns
(``card_choice``, called by ``heuristic.heuristic_turn``)."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_fused
from ..state import (XF_CV, XF_HV, XF_PV, XI_CNT, XI_CVT, XI_ONB, XI_PER, XI_UNSEEN)
from ..state import (BALLCOURT, BW_EXPAND, BW_HAND, BW_PRES, BW_RISK, CACAO, GS_KNOWN, GS_NSLOT, GS_SEEN, GS_SLOT,
                     GS_SUP, I_CENOTE, I_COLOUR, I_FOREST, I_SEA, I_VOLC, K_BALL, K_CACAO,
                     K_CENOTE, K_DECAD, K_DROUGHT, K_ECLIPSE, K_EXC, K_EXPED, K_FAV, K_MARRY,
                     K_PROS, K_TIDAL, K_VOLCANO, MAIZE, NK, OBSERV, R_CENF, R_FOREST, R_KCNT, R_NEUTRAL,
                     R_NP, R_PTS, VILLAGE)
from ..ties import take
from ..bots.values import Outlook, gain_worths
from ..bots.insure import insure, prosperous_on_top
from ..katun import cat_spec, gain_value, per_value, rank_award


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

