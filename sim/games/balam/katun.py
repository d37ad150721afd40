"""4 - Katun: turning a card, its gains, catastrophes, ball games and the cenote cult."""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_inline
from ...rng import rand_int, tie_wins
from ...record import rec
from .state import (XF_HV, XI_CNT, XI_COMP, XI_OPTS, XI_TMP)
from .state import (EV_BALL, EV_CARD, EV_CATA, EV_CENOTE, EV_GAIN, EV_LOSE, EV_TAKE,
                    EV_TOKEN, BALLCOURT, BOT_RANDOM, BW_EXPAND, BW_PRES, CACAO, CONT, EMPTY, GARRISON,
                    GS_BALLS, GS_ECL, GS_LEFT, GS_ROUND, GS_SEEN, GS_SLOT, GS_SUP, HIT_ALL,
                    I_CENOTE, I_SEA, I_VOLC, K_BALL, K_CACAO, K_CENOTE, K_DECAD, K_DROUGHT,
                    K_ECLIPSE, K_EXC, K_EXPED, K_FAV, K_INSURR, K_MARRY, K_POCHT, K_PROS, K_QUAKE,
                    K_TIDAL, K_TOLTEC, K_VOLCANO, MAIZE, MARKET, OBSERV, ONE, PALACE, PRIS, P_BALL,
                    P_CEN, P_HAND, P_KAT, P_PRES, P_PROS, RESERVE, R_CENF, R_EXPED, R_HIT,
                    R_NEUTRAL, R_NP, R_PTS, TEMPLE, T_CPAID, T_CSUFF, T_KLOST, VILLAGE)
from .ties import choose_subset, cmp_tie, pick, take
from .board import (add_prestige, components, count_cities, count_code, destroy_city, gain,
                    remove_building)
from .bots.values import card_outlook, hand_values, rounds_left

# ======================================================================= catastrophes
@helper
def board_tokens(own, bld, tok, p, t):
    n = 0
    for s in range(own.shape[0]):
        if own[s] == p:
            for k in range(4):
                if tok[s, k] == t and (bld[s, k] == RESERVE or bld[s, k] == GARRISON):
                    n += 1
    return n


@helper
def take_tokens(own, bld, tok, gs, rs, p, t, n, opts, buf):
    """King p pays n riches of type t from his reserves and garrisons: which tokens,
    uniformly among those holding it (his bot's stream; each recorded in ``buf``)."""
    m = 0
    for s in range(own.shape[0]):
        if own[s] == p:
            for k in range(4):
                if tok[s, k] == t and (bld[s, k] == RESERVE or bld[s, k] == GARRISON):
                    opts[m] = s * 4 + k
                    m += 1
    choose_subset(rs, 1 + p, opts, m, n)
    for i in range(n):
        tok[opts[i] // 4, opts[i] % 4] = -1
        gs[GS_SUP + t] += 1
        rec(buf, EV_TOKEN, p, opts[i] // 4, opts[i] % 4, t, 0, 0, 0)


@helper
def cat_spec(kt):
    """(pay type, pay count, building code or 0 for whole cities, how many)."""
    if kt == K_DROUGHT:
        return MAIZE, 1, VILLAGE, 2
    if kt == K_INSURR:
        return MAIZE, 1, PALACE, 1
    if kt == K_QUAKE:
        return PRIS, 1, TEMPLE, 1
    if kt == K_POCHT:
        return PRIS, 1, MARKET, 2
    if kt == K_TOLTEC:
        return PRIS, 1, GARRISON, 2
    if kt == K_DECAD:
        return PRIS, 1, BALLCOURT, 1
    return PRIS, 2, 0, 0


@helper
def cat_targets(own, bld, info, p, kt):
    """How many buildings (or cities) the catastrophe would take from king p."""
    pt, pn, code, cnt = cat_spec(kt)
    if kt == K_VOLCANO or kt == K_TIDAL:
        col = I_VOLC if kt == K_VOLCANO else I_SEA
        n = 0
        for s in range(own.shape[0]):
            if own[s] == p and info[s, col] == 1:
                n += 1
        return n
    if kt == K_DECAD:
        return min(1, count_code(own, bld, p, BALLCOURT)) + min(1, count_code(own, bld, p, OBSERV))
    return min(cnt, count_code(own, bld, p, code))


@helper
def lose_buildings(st, ru, sc, p, code, n, is_random):
    own, bld, tok, sm, pl, gs, rs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs, st.rs
    nbr, nnb = ru.nbr, ru.nnb
    opts = sc.xi[XI_OPTS]
    lost = 0
    for _ in range(n):
        m = 0
        for s in range(own.shape[0]):
            if own[s] == p:
                for k in range(4):
                    if bld[s, k] == code:
                        opts[m] = s * 4 + k
                        m += 1
        if m == 0:
            break
        if is_random == 1:
            x = opts[rand_int(rs, 1 + p, m)]
        else:
            # the heuristic values every building of one code alike (per_value): uniformly
            x = opts[pick(rs, 1 + p, m)]
        remove_building(own, bld, tok, sm, pl, gs, nbr, nnb, x // 4, x % 4)
        rec(sc.rec, EV_LOSE, p, x // 4, x % 4, code, 0, 0, 0)
        lost += 1
    return lost


@helper_inline
def per_value(code, rl, W):
    """Heuristic worth of keeping one building of ``code``."""
    if code == VILLAGE:
        return 0.9 * rl
    if code == PALACE:
        return 1.2 * rl
    if code == TEMPLE:
        return 1.8 * rl
    if code == MARKET or code == BALLCOURT:
        return 1.5
    if code == EMPTY or code == CONT:
        return 0.0
    return 1.0


@helper
def loss_value(own, bld, info, R, W, p, kt, rl):
    """Heuristic value of what the catastrophe would destroy."""
    pt, pn, code, cnt = cat_spec(kt)
    v = 0.0
    if kt == K_VOLCANO or kt == K_TIDAL:
        col = I_VOLC if kt == K_VOLCANO else I_SEA
        for s in range(own.shape[0]):
            if own[s] == p and info[s, col] == 1:
                v += 1.0 * W[BW_EXPAND]
                for k in range(4):
                    v += per_value(bld[s, k], rl, W)
        return v
    if kt == K_DECAD:
        if count_code(own, bld, p, BALLCOURT) > 0:
            v += per_value(BALLCOURT, rl, W)
        if count_code(own, bld, p, OBSERV) > 0:
            v += per_value(OBSERV, rl, W)
        return v
    return per_value(code, rl, W) * min(cnt, count_code(own, bld, p, code))


@helper
def catastrophe(st, ru, sc, p, kt):
    """King p faces catastrophe kt: pay from his Mayas' reserves/garrisons, or suffer."""
    own, bld, tok, sm, pl, gs, rs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs, st.rs
    R, nbr, nnb, info, bot_ids, bot_par = ru.R, ru.nbr, ru.nnb, ru.info, ru.bot_ids, ru.bot_par
    opts = sc.xi[XI_OPTS]
    if cat_targets(own, bld, info, p, kt) == 0:
        return
    pt, pn, code, cnt = cat_spec(kt)
    can_pay = board_tokens(own, bld, tok, p, pt) >= pn
    pay = False
    if can_pay:
        if bot_ids[p] == BOT_RANDOM:
            pay = rand_int(rs, 1 + p, 2) == 1
        else:
            rl = rounds_left(gs, R)
            keep = pn * (1.0 + 0.1 * R[R_PTS + pt])
            d = cmp_tie(loss_value(own, bld, info, R, bot_par[p], p, kt, rl), keep)
            pay = d > 0 or (d == 0 and tie_wins(rs, 1 + p, 2))
    rec(sc.rec, EV_CATA, p, kt, 1 if pay else 0, 0, 0, 0, 0)
    if pay:
        take_tokens(own, bld, tok, gs, rs, p, pt, pn, opts, sc.rec)
        pl[p, T_CPAID] += 1
        return
    pl[p, T_CSUFF] += 1
    is_random = np.int64(1) if bot_ids[p] == BOT_RANDOM else np.int64(0)
    if kt == K_VOLCANO or kt == K_TIDAL:
        col = I_VOLC if kt == K_VOLCANO else I_SEA
        for s in range(own.shape[0]):
            if own[s] == p and info[s, col] == 1:
                lost = destroy_city(own, bld, tok, sm, pl, gs, nbr, nnb, s)
                pl[p, T_KLOST] += lost
                rec(sc.rec, EV_LOSE, p, s, -1, lost, 0, 0, 0)
    elif kt == K_DECAD:
        pl[p, T_KLOST] += lose_buildings(st, ru, sc, p, BALLCOURT, ONE, is_random)
        pl[p, T_KLOST] += lose_buildings(st, ru, sc, p, OBSERV, ONE, is_random)
    else:
        pl[p, T_KLOST] += lose_buildings(st, ru, sc, p, code, cnt, is_random)


# ======================================================================= other Katuns
@helper
def rank_places(counts, NP, place):
    """The ranking rule shared by divination and ball games (counts[q] >= 1 to rank):
    place[q] = 1 for a sole first, 2 for a sole second (only behind a sole first), 3 for each
    of exactly two tied firsts (no second place then); 0 otherwise, and for every seat when
    three or more tie for first or nobody counts."""
    for q in range(NP):
        place[q] = 0
    m1 = 0
    for q in range(NP):
        if counts[q] > m1:
            m1 = counts[q]
    if m1 == 0:
        return
    n1 = 0
    for q in range(NP):
        if counts[q] == m1:
            n1 += 1
    if n1 == 1:
        m2 = 0
        for q in range(NP):
            if counts[q] < m1 and counts[q] > m2:
                m2 = counts[q]
        n2 = 0
        for q in range(NP):
            if m2 > 0 and counts[q] == m2:
                n2 += 1
        for q in range(NP):
            if counts[q] == m1:
                place[q] = 1
            elif n2 == 1 and counts[q] == m2:
                place[q] = 2
    elif n1 == 2:
        for q in range(NP):
            if counts[q] == m1:
                place[q] = 3


@helper
def rank_award(counts, NP, first_pts, second_pts, award):
    """The ranking's prestige (``rank_places``): award[q] = first_pts[q] for a sole first,
    first_pts[q] // 2 for each of two tied firsts, second_pts[q] for a sole second; 0
    otherwise."""
    rank_places(counts, NP, award)
    for q in range(NP):
        place = award[q]
        if place == 1:
            award[q] = first_pts[q]
        elif place == 2:
            award[q] = second_pts[q]
        elif place == 3:
            award[q] = first_pts[q] // 2


@helper
def ball_game(own, bld, pl, R, tmp, buf):
    """The ball game's prestige (each award recorded in ``buf``)."""
    NP = R[R_NP]
    counts = tmp[0:4]
    fp = tmp[4:8]
    sp = tmp[8:12]
    aw = tmp[12:16]
    for q in range(NP):
        counts[q] = count_code(own, bld, q, BALLCOURT)
        fp[q] = count_cities(own, q)
        sp[q] = fp[q] // 2
    rank_award(counts, NP, fp, sp, aw)
    for q in range(NP):
        if aw[q] > 0:
            add_prestige(pl, q, P_BALL, aw[q])
            rec(buf, EV_BALL, q, aw[q], counts[q], 0, 0, 0, 0)


@helper
def gain_value(g, hv, W):
    v = g[6] * W[BW_PRES]
    for t in range(6):
        v += g[t] * hv[t]
    return v


@helper
def apply_gain(pl, gs, p, g):
    for t in range(6):
        if g[t] > 0:
            gain(pl, gs, p, t, g[t])
    if g[6] > 0:
        add_prestige(pl, p, P_PROS, g[6])


@helper
def cenote_cult(st, ru, sc, p):
    """King p's Mayas bring one riches from their reserves/garrisons to each cenote the
    transport rules let it reach; each scores cenote_factor times its temple points."""
    own, bld, tok, sm, pl, gs, rs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs, st.rs
    R, nbr, nnb, info, bot_ids = ru.R, ru.nbr, ru.nnb, ru.info, ru.bot_ids
    comp, queue, opts = sc.xi[XI_COMP], sc.queue, sc.xi[XI_OPTS]
    components(own, sm, R, nbr, nnb, p, comp, queue)
    S = own.shape[0]
    for c in range(S):
        if info[c, I_CENOTE] == 0:
            continue
        n = 0
        for s in range(S):
            if own[s] == p and comp[s] == comp[c]:
                for k in range(4):
                    if tok[s, k] >= 0 and (bld[s, k] == RESERVE or bld[s, k] == GARRISON):
                        opts[n] = s * 4 + k
                        n += 1
        if n == 0:
            continue
        if bot_ids[p] == BOT_RANDOM:
            r = rand_int(rs, 1 + p, n + 1)
            if r == n:
                continue
            x = opts[r]
        else:
            # the riches worth most temple points (none worth a point: keep them); equal
            # points uniformly
            x = np.int64(-1)
            bv = -1e18
            ties = np.int64(0)
            for i in range(n):
                t = tok[opts[i] // 4, opts[i] % 4]
                if R[R_PTS + t] <= 0:
                    continue
                ok, bv, ties = take(rs, 1 + p, R[R_PTS + t] + 0.0, bv, ties)
                if ok:
                    x = opts[i]
            if x < 0:
                continue
        t = tok[x // 4, x % 4]
        tok[x // 4, x % 4] = -1
        gs[GS_SUP + t] += 1
        add_prestige(pl, p, P_CEN, R[R_CENF] * R[R_PTS + t])
        rec(sc.rec, EV_CENOTE, p, c, x // 4, x % 4, t, R[R_CENF] * R[R_PTS + t], 0)


@helper
def turn_card(st, ru, sc, p, slot):
    """King p turns the face-down card in ``slot`` and applies it."""
    own, bld, pl, gs, rs = st.own, st.bld, st.pl, st.gs, st.rs
    R, ctype, cgain, cnopt = ru.R, ru.ctype, ru.cgain, ru.cnopt
    bot_ids, bot_par = ru.bot_ids, ru.bot_par
    opts, tmp, hv = sc.xi[XI_OPTS], sc.xi[XI_TMP], sc.xf[XF_HV]
    c = gs[GS_SLOT + slot]
    gs[GS_SLOT + slot] = -1
    gs[GS_LEFT] -= 1
    kt = ctype[c]
    gs[GS_SEEN + kt] += 1
    pl[p, P_KAT + kt] += 1
    rec(sc.rec, EV_CARD, p, slot, c, kt, 0, 0, 0)
    if (R[R_NEUTRAL] >> kt) & 1:
        # a neutralised card type (card impact): turned and counted, no effect, except
        # that a ball game still counts toward the end of the game
        if kt == K_BALL:
            gs[GS_BALLS] += 1
        return
    NP = R[R_NP]
    rnd = bot_ids[p] == BOT_RANDOM
    if kt == K_PROS or kt == K_FAV or kt == K_EXC:
        no = cnopt[c]
        j = 0
        if no > 1:
            if rnd:
                j = rand_int(rs, 1 + p, no)
            else:
                hand_values(bot_par[p], R, gs, hv)
                card_outlook(st, ru, sc.xi[XI_CNT], hv, p)   # gain worths: hv[12:18]
                hg = hv[12:18]
                bv = -1e18
                ties = np.int64(0)
                for i in range(no):
                    v = gain_value(cgain[c, i], hg, bot_par[p])
                    for t in range(6):  # what the supply cannot give is worth nothing
                        if cgain[c, i, t] > gs[GS_SUP + t]:
                            v -= (cgain[c, i, t] - gs[GS_SUP + t]) * hg[t]
                    ok, bv, ties = take(rs, 1 + p, v, bv, ties)
                    if ok:
                        j = i
        apply_gain(pl, gs, p, cgain[c, j])
        rec(sc.rec, EV_GAIN, p, c, j, -1, 0, 0, 0)
    elif kt == K_EXPED:
        n = 0
        for t in range(R[R_EXPED]):
            if gs[GS_SUP + t] > 0:
                opts[n] = t
                n += 1
        if n > 0:
            if rnd:
                t = opts[rand_int(rs, 1 + p, n)]
            else:
                hand_values(bot_par[p], R, gs, hv)
                card_outlook(st, ru, sc.xi[XI_CNT], hv, p)
                t = opts[0]
                bv = -1e18
                ties = np.int64(0)
                for i in range(n):
                    ok, bv, ties = take(rs, 1 + p, hv[12 + opts[i]], bv, ties)
                    if ok:
                        t = opts[i]
            gain(pl, gs, p, t, ONE)
            rec(sc.rec, EV_GAIN, p, c, -1, t, 0, 0, 0)
    elif kt == K_CACAO:
        for i in range(NP):
            gain(pl, gs, (p + i) % NP, CACAO, ONE)
    elif kt == K_MARRY:
        n = 0
        for i in range(1, NP):
            q = (p + i) % NP
            for t in range(6):
                if pl[q, P_HAND + t] > 0:
                    opts[n] = q * 8 + t
                    n += 1
        if n > 0:
            if rnd:
                x = opts[rand_int(rs, 1 + p, n)]
            else:
                hand_values(bot_par[p], R, gs, hv)
                card_outlook(st, ru, sc.xi[XI_CNT], hv, p)
                x = opts[0]
                bv = -1e18
                ties = np.int64(0)
                for i in range(n):
                    q = opts[i] // 8
                    v = hv[12 + opts[i] % 8] + 0.01 * pl[q, P_PRES]
                    ok, bv, ties = take(rs, 1 + p, v, bv, ties)
                    if ok:
                        x = opts[i]
            q = x // 8
            t = x % 8
            pl[q, P_HAND + t] -= 1
            pl[p, P_HAND + t] += 1
            rec(sc.rec, EV_TAKE, p, q, t, 0, 0, 0, 0)
    elif kt == K_CENOTE:
        cenote_cult(st, ru, sc, p)
    elif kt == K_BALL:
        gs[GS_BALLS] += 1
        ball_game(own, bld, pl, R, tmp, sc.rec)
    elif kt == K_ECLIPSE:
        gs[GS_ECL] = gs[GS_ROUND]
    else:
        if R[R_HIT] == HIT_ALL and kt != K_VOLCANO:   # the Volcano's own text: drawer only
            for i in range(NP):
                catastrophe(st, ru, sc, (p + i) % NP, kt)
        else:
            catastrophe(st, ru, sc, p, kt)
