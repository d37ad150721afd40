"""The game loop: rounds of turns, production and distribution, the end-of-game bonus and audit."""
from __future__ import annotations

import numpy as np

from ...drama import drama
from ...jit import helper, kernel
from ...rng import game_base, mix64, open_substream, rand_int
from .state import (BOT_RANDOM, BW_EXPAND, BW_RISK, END_BALLS, END_CAP, END_DECK, GARRISON,
                    GS_AUDIT, GS_BALLS, GS_DEADLOCK, GS_DPOS, GS_ECL, GS_LEFT, GS_NSLOT, GS_RFIRST,
                    GS_ROUND, GS_SLOT, GS_SUP, GS_TILE, GS_TURNS, I_CENOTE, I_SEA, I_SPACES,
                    I_VOLC, MAIZE, MAXSLOT, NBW, NPL, NRS, OBSID, PRIS, P_AUDIT, P_BONUS, P_HAND,
                    P_LARGE, P_SMALL, RESERVE, R_BALLS, R_CHAAK, R_LARGE, R_MAXR, R_MAXTURN, R_NP,
                    R_SMALL, R_START, R_SUP0, R_TILE0, SETUP, SL_BASE, SL_CH, T_TURNS, new_state,
                    reset_state)
from .board import add_prestige, count_cities, gain, hand_total, prestige_leader, site_empty
from .setup import build_deck, draw_layout, layout_hash
from .bots.values import pay_orders
from .divination import divination
from .katun import turn_card
from .distribution import distribute, production
from .bots.heuristic import heuristic_turn
from .bots.random import random_turn

@helper
def audit(own, bld, tok, sm, pl, gs, R, nnb):
    """Conservation checks (tests): riches, tiles and pyramids are all accounted for.
    Returns the number of broken checks."""
    S = own.shape[0]
    NP = R[R_NP]
    bad = 0
    for t in range(6):
        n = gs[GS_SUP + t]
        for q in range(NP):
            n += pl[q, P_HAND + t]
        for s in range(S):
            for k in range(4):
                if tok[s, k] == t:
                    n += 1
        if n != R[R_SUP0 + t] or gs[GS_SUP + t] < 0:
            bad += 1
    for i in range(4):
        n = gs[GS_TILE + i]
        for s in range(S):
            for k in range(4):
                c = bld[s, k]
                if c >= 1 and c <= 8 and (c - 1) // 2 == i:
                    n += 1
        if n != R[R_TILE0 + i]:
            bad += 1
    for q in range(NP):
        if pl[q, P_LARGE] + count_cities(own, q) != R[R_LARGE]:
            bad += 1
        n = pl[q, P_SMALL]
        for s in range(S):
            n += sm[s, q]
        if n != R[R_SMALL] or n < 0:
            bad += 1
        for t in range(6):
            if pl[q, P_HAND + t] < 0:
                bad += 1
    for s in range(S):
        if own[s] >= 0 and site_empty(bld, s):
            bad += 1
        if own[s] < 0 and not site_empty(bld, s):
            bad += 1
        for k in range(4):
            if tok[s, k] >= 0 and not (bld[s, k] == RESERVE or bld[s, k] == GARRISON):
                bad += 1
            if bld[s, k] == GARRISON and tok[s, k] >= 0 and tok[s, k] != OBSID and tok[s, k] != PRIS:
                bad += 1
    return bad


# ======================================================================= game
@helper
def site_terms(bot_par, info, out):
    """out[q]: king q's weights, then the heuristic's fixed terms for founding a city on
    each site of this game's layout: out[q, NBW + s] the bonus for expanding there,
    out[q, NBW + S + s] the exposure to volcanoes and the sea (filled once per game rather
    than on every turn).  Its payment orders (out[q, NBW + 2S:]) are pay_orders'."""
    NP = out.shape[0]
    S = info.shape[0]
    for q in range(NP):
        for i in range(NBW):
            out[q, i] = bot_par[q, i]
        for s in range(S):
            out[q, NBW + s] = bot_par[q, BW_EXPAND] * (0.6 + 0.15 * info[s, I_SPACES]
                                                       + 0.1 * info[s, I_CENOTE])
            out[q, NBW + S + s] = bot_par[q, BW_RISK] * 0.3 * (info[s, I_VOLC] + info[s, I_SEA])


@kernel
def with_site_terms(bot_par, info):
    """site_terms and pay_orders into a new array (hand-built positions in the tests)."""
    out = np.zeros((bot_par.shape[0], NBW + 2 * info.shape[0] + 24))
    site_terms(bot_par, info, out)
    for q in range(out.shape[0]):
        pay_orders(out[q], NBW + 2 * info.shape[0])
    return out


@kernel
def run_games(seed, start, count, R, nbr, nnb, tinfo, ctype, cgain, cnopt, cid, bot_ids,
              bot_par, end_reason, first_player, rounds, turns, ball_games, eclipse_round,
              cards_turned, layout, seat_out, lead_changes, lead_settled):
    """seat_out[j, p, f] = pl[p, f] at the end of game j; cities go into column P_LARGE's
    place afterwards (see run_chunk).  The drama columns follow the sole prestige leader
    after each round's end (after the riches bonus for the last round).  ``tinfo``: the
    board file's tiles in printed order; layout[j]: game j's layout_hash."""
    NP = R[R_NP]
    S = nbr.shape[0]
    info = np.zeros((S, 6), np.int64)      # this game's tile on each cell
    perm = np.zeros(S, np.int64)
    W = np.zeros((NP, NBW + 2 * S + 24))   # weights, this game's site terms, pay orders
    for q in range(NP):
        for i in range(NBW):
            W[q, i] = bot_par[q, i]
        pay_orders(W[q], NBW + 2 * S)      # they depend on the weights alone
    own, bld, tok, sm, pl, gs = new_state(S, NP)
    rs = np.zeros(NRS, np.uint64)
    N = ctype.shape[0]
    deck = np.zeros(N + 1, np.int64)
    tmpdeck = np.zeros(N + 1, np.int64)
    ids = np.zeros(N + 1, np.int64)
    keys = np.zeros(N + 1, np.uint64)
    comp = np.zeros(S, np.int64)
    queue = np.zeros(S * 70 + 64, np.int64)
    opts = np.zeros(64, np.int64)
    tmp = np.zeros(64, np.int64)
    hv = np.zeros(12)
    cnt = np.zeros(16, np.int64)
    plan = np.zeros(4, np.int64)
    spend = np.zeros(6, np.int64)
    hand = np.zeros(6, np.int64)
    items = np.zeros((4 * S, 2), np.int64)
    sinks = np.zeros((4 * S, 5), np.int64)
    fsc = np.zeros(128)
    dval = np.zeros((6, 5))
    dx = np.zeros((6, 5), np.int64)
    leaders = np.zeros(R[R_MAXR] + 1, np.int64)
    for j in range(count):
        g = start + j
        base = game_base(seed, g)
        for q in range(NP):                 # the bots' streams (sim.rng: stream 1 + seat)
            rs[1 + q] = mix64(base + np.uint64(1 + q))
        rs[SL_BASE] = base
        draw_layout(rs, base, R, tinfo, info, perm)
        site_terms(bot_par, info, W)
        layout[j] = layout_hash(info)
        reset_state(own, bld, tok, sm, pl, gs, R)
        ndeck = build_deck(rs, base, ctype, cid, R, deck, tmpdeck, ids, keys)
        open_substream(rs, SL_CH, base, SETUP, 0)
        first = rand_int(rs, SL_CH, NP)
        for q in range(NP):
            gain(pl, gs, q, MAIZE, R[R_START])
        cur = first
        end = END_BALLS
        while True:
            if gs[GS_ROUND] >= R[R_MAXR]:
                end = END_CAP
                break
            n = min(NP + 1, ndeck - gs[GS_DPOS])
            if n <= 0:
                end = END_DECK
                break
            gs[GS_ROUND] += 1
            for k in range(MAXSLOT):
                gs[GS_SLOT + k] = -1
            for k in range(n):
                gs[GS_SLOT + k] = deck[gs[GS_DPOS] + k]
            gs[GS_DPOS] += n
            gs[GS_NSLOT] = n
            gs[GS_LEFT] = n
            rfirst = cur
            gs[GS_RFIRST] = rfirst
            divination(own, bld, pl, gs, R, rfirst, tmp)
            nturn = 0
            while True:
                p = cur
                nturn += 1
                gs[GS_TURNS] += 1
                pl[p, T_TURNS] += 1
                if nturn > R[R_MAXTURN]:
                    # safety valve (never reached by the bots here): force a card
                    gs[GS_DEADLOCK] += 1
                    for k in range(n):
                        if gs[GS_SLOT + k] >= 0:
                            turn_card(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain,
                                      cnopt, bot_ids, W, p, k, comp, queue, opts, tmp, hv)
                            break
                elif bot_ids[p] == BOT_RANDOM:
                    random_turn(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain, cnopt,
                                bot_ids, W, p, comp, queue, opts, tmp, hv, hand)
                else:
                    heuristic_turn(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain,
                                   cnopt, bot_ids, W, p, comp, queue, opts, tmp, hv, cnt, plan,
                                   spend, hand, fsc)
                if gs[GS_LEFT] == 0:
                    break
                cur = (cur + 1) % NP
            last_player = cur
            # end of the round
            production(own, bld, tok, gs, R, info, rfirst)
            final = gs[GS_BALLS] >= R[R_BALLS]
            for i in range(NP):
                q = (rfirst + i) % NP
                distribute(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, bot_ids, W, q, final,
                           comp, queue, items, sinks, fsc, dval, dx)
            if gs[GS_ECL] == 0:
                for i in range(NP):
                    gain(pl, gs, (rfirst + i) % NP, MAIZE, R[R_CHAAK])
            cur = (last_player + 1) % NP
            leaders[gs[GS_ROUND] - 1] = prestige_leader(pl, NP)
            if final:
                end = END_BALLS
                break
        # riches bonus
        for q in range(NP):
            b = hand_total(pl, q) // 2
            add_prestige(pl, q, P_BONUS, b)
        nr = gs[GS_ROUND]
        win = -1
        if nr > 0:
            leaders[nr - 1] = prestige_leader(pl, NP)   # the final standing
            if end != END_CAP:
                win = leaders[nr - 1]
            lead_changes[j], lead_settled[j] = drama(leaders, nr, win)
        else:
            lead_changes[j] = 0
            lead_settled[j] = -1
        end_reason[j] = end
        first_player[j] = first
        rounds[j] = gs[GS_ROUND]
        turns[j] = gs[GS_TURNS]
        ball_games[j] = gs[GS_BALLS]
        eclipse_round[j] = gs[GS_ECL]
        cards_turned[j] = gs[GS_DPOS] - gs[GS_LEFT]
        gs[GS_AUDIT] += audit(own, bld, tok, sm, pl, gs, R, nnb)
        for q in range(NP):
            for f2 in range(NPL):
                seat_out[j, q, f2] = pl[q, f2]
            seat_out[j, q, P_LARGE] = count_cities(own, q)
            seat_out[j, q, P_AUDIT] = gs[GS_AUDIT]
