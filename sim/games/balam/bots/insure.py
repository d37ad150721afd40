"""What the heuristic bots expect the rest of the deck to cost them: the worth of a riches
kept against the catastrophes still to come (reserves), and what the deck's structure
tells a king about a face-down card."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_fused, helper_inline
from ..state import (BALLCOURT, BW_EXPAND, GARRISON, GS_DPOS, GS_NSLOT, GS_SEEN, HIT_ALL, I_SEA,
                     I_VOLC, K_DECAD, K_DROUGHT, K_PROS, K_TIDAL, K_VOLCANO, MAIZE, NK, OBSERV,
                     PRIS, RESERVE, R_HIT, R_KCNT, R_NEUTRAL, R_NP, R_PTS)
from ..katun import cat_spec, per_value

#: the share of a kept riches' expected worth the heuristic counts: it must still be
#: produced, routed to a reserve and be there when the catastrophe comes
INSURE_DISCOUNT = 0.6


@helper_inline
def insure(R, rl, loss, unseen):
    """(rate, need) for maize and for prisoners kept on a king's reserves or garrisons:
    each catastrophe type still unseen (``unseen[kt]`` cards) that he would rather pay
    than suffer (``loss[kt]``, the heuristic worth of what it destroys, above what paying
    costs) hits him about unseen x (cards still to come / cards unseen) times, divided
    among the kings unless every king is hit (catastrophes=all); ``need`` is the riches
    those hits take, ``rate`` the losses averted per riches (times INSURE_DISCOUNT).
    Returns (rate_maize, need_maize, rate_prisoner, need_prisoner)."""
    NP = R[R_NP]
    nun = 0
    for kt in range(NK):
        nun += unseen[kt]
    come = (rl - 1.0) * (NP + 1)
    if nun <= 0 or come <= 0.0:
        return 0.0, 0.0, 0.0, 0.0
    frac = min(1.0, come / nun)
    vm = 0.0
    vp = 0.0
    nm = 0.0
    npr = 0.0
    for kt in range(K_DROUGHT, NK):
        if unseen[kt] <= 0 or (R[R_NEUTRAL] >> kt) & 1:
            continue
        pt, pn, code, n = cat_spec(kt)
        gain = loss[kt] - pn * (1.0 + 0.1 * R[R_PTS + pt])
        if gain <= 0.0:
            continue
        share = 1.0 if (R[R_HIT] == HIT_ALL and kt != K_VOLCANO) else 1.0 / NP
        hits = unseen[kt] * frac * share
        if pt == MAIZE:
            vm += hits * gain
            nm += hits * pn
        else:
            vp += hits * gain
            npr += hits * pn
    rm = INSURE_DISCOUNT * vm / nm if nm > 0.0 else 0.0
    rp = INSURE_DISCOUNT * vp / npr if npr > 0.0 else 0.0
    return rm, nm, rp, npr


@helper_fused
def cover(rate, need, have):
    """Worth of one more kept riches: ``rate`` while the ``have`` already kept fall short
    of the expected ``need`` (the last one by the fraction still uncovered)."""
    return rate * min(1.0, max(0.0, need - have))


@helper
def insurance(st, ru, W, p, rl, loss, unseen):
    """(worth of one more maize, of one more prisoner kept) for king p, from the board
    (what each catastrophe would destroy, the maize and prisoners on his reserves and
    garrisons) and the cards not yet turned (public: the distribution comes after every
    card of the round is turned); ``loss`` and ``unseen`` are work rows (float, int)."""
    own, bld, tok, gs = st.own, st.bld, st.tok, st.gs
    R, info = ru.R, ru.info
    from_gs_unseen(R, gs, unseen)
    # one pass over the board (what katun.loss_value adds up, in the same order):
    # p's buildings by code in loss[48:57], his cities by a volcano and on the sea
    cnt = loss[48:58]
    cnt[:] = 0.0
    volc = 0.0
    sea = 0.0
    hm = 0
    hp = 0
    for s in range(own.shape[0]):
        if own[s] != p:
            continue
        if info[s, I_VOLC] == 1:
            volc += 1.0 * W[BW_EXPAND]
            for k in range(4):
                volc += per_value(bld[s, k], rl, W)
        if info[s, I_SEA] == 1:
            sea += 1.0 * W[BW_EXPAND]
            for k in range(4):
                sea += per_value(bld[s, k], rl, W)
        for k in range(4):
            c = bld[s, k]
            cnt[c] += 1.0
            if c == RESERVE or c == GARRISON:
                if tok[s, k] == MAIZE:
                    hm += 1
                elif tok[s, k] == PRIS:
                    hp += 1
    for kt in range(K_DROUGHT, NK):
        pt, pn, code, n = cat_spec(kt)
        if unseen[kt] <= 0:
            loss[kt] = 0.0
        elif kt == K_VOLCANO:
            loss[kt] = volc
        elif kt == K_TIDAL:
            loss[kt] = sea
        elif kt == K_DECAD:
            v = 0.0
            if cnt[BALLCOURT] > 0:
                v += per_value(BALLCOURT, rl, W)
            if cnt[OBSERV] > 0:
                v += per_value(OBSERV, rl, W)
            loss[kt] = v
        else:
            loss[kt] = per_value(code, rl, W) * min(n, np.int64(cnt[code]))
    rm, nm, rp, npr = insure(R, rl, loss, unseen)
    return cover(rm, nm, hm + 0.0), cover(rp, npr, hp + 0.0)


@helper_fused
def from_gs_unseen(R, gs, unseen):
    """unseen[kt]: cards of each type not yet turned (public counts)."""
    for kt in range(NK):
        unseen[kt] = R[R_KCNT + kt] - gs[GS_SEEN + kt]


@helper_fused
def prosperous_on_top(R, gs, k):
    """Whether face-down slot k certainly holds a Prosperous Katun: the rulebook puts the
    shuffled Prosperous cards on top of the deck, so every card dealt from the first
    (their number) positions is one (public: the deck's set-up and the cards dealt)."""
    return gs[GS_DPOS] - gs[GS_NSLOT] + k < R[R_KCNT + K_PROS]
