"""3 - Wars: defence, the attack's dice and what an attack destroys or captures."""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_fused
from ...rng import open_substream, rand_int
from ...record import rec
from .state import (XI_OPTS)
from .state import (EV_ATTACK, EV_DEFEND, EV_DESTROY, EV_DIE, EV_PRISONER, EV_SKULL, EV_TOKEN,
                    BOT_RANDOM, CONT, DICE, EMPTY, GARRISON, GS_SUP, GS_WARNO, OBSID, PRIORITY,
                    PRIS, R_FACE, R_NFACES, SL_BASE, SL_CH, T_BDEST, T_BLOST, T_DEF, T_GLOST,
                    T_PRIS, T_WARS)
from .ties import choose_subset, take
from .board import remove_building, site_code_count, width

# ======================================================================= war
@helper
def defence_base(own, bld, nbr, nnb, b):
    q = own[b]
    d = site_code_count(bld, b, GARRISON)
    for j in range(nnb[b]):
        x = nbr[b, j]
        if own[x] == q:
            d += site_code_count(bld, x, GARRISON)
    return d


@helper
def defence_obsidian(own, bld, tok, nbr, nnb, b):
    q = own[b]
    n = 0
    for k in range(4):
        if bld[b, k] == GARRISON and tok[b, k] == OBSID:
            n += 1
    for j in range(nnb[b]):
        x = nbr[b, j]
        if own[x] == q:
            for k in range(4):
                if bld[x, k] == GARRISON and tok[x, k] == OBSID:
                    n += 1
    return n


@helper
def spend_defence_obsidian(own, bld, tok, gs, rs, nbr, nnb, b, n, opts, buf):
    """Spend n obsidian from the garrisons of city b and of its friendly neighbours: which
    ones, uniformly among them (the defender's stream; none is worth more than another
    to the bots)."""
    q = own[b]
    m = 0
    for k in range(4):
        if bld[b, k] == GARRISON and tok[b, k] == OBSID:
            opts[m] = b * 4 + k
            m += 1
    for j in range(nnb[b]):
        x = nbr[b, j]
        if own[x] == q:
            for k in range(4):
                if bld[x, k] == GARRISON and tok[x, k] == OBSID:
                    opts[m] = x * 4 + k
                    m += 1
    choose_subset(rs, 1 + q, opts, m, n)
    for i in range(n):
        tok[opts[i] // 4, opts[i] % 4] = -1
        gs[GS_SUP + OBSID] += 1
        rec(buf, EV_TOKEN, q, opts[i] // 4, opts[i] % 4, OBSID, 0, 0, 0)


@helper
def die_stats(R):
    m = 0.0
    sk = 0.0
    nf = R[R_NFACES]
    for i in range(nf):
        f = R[R_FACE + i]
        if f < 0:
            sk += 1.0
        else:
            m += f
    return m / nf, sk / nf


@helper_fused
def defend(st, ru, sc, b, k, o, base):
    """The defender of city b decides how much of his obsidian to spend against k
    garrisons with o obsidian (before the dice), and spends it.  Returns the amount."""
    own, bld, tok, gs, rs = st.own, st.bld, st.tok, st.gs, st.rs
    R, nbr, nnb, bot_ids = ru.R, ru.nbr, ru.nnb, ru.bot_ids
    q = own[b]
    avail = defence_obsidian(own, bld, tok, nbr, nnb, b)
    if avail <= 0:
        rec(sc.rec, EV_DEFEND, q, b, base, 0, 0, 0, 0)
        return 0
    if bot_ids[q] == BOT_RANDOM:
        od = rand_int(rs, 1 + q, avail + 1)
    else:
        mean, _ = die_stats(R)
        need = k * mean + o + 1.0 - base
        od = 0
        while od < avail and od < need:
            od += 1
        if k * 3 + o <= base:
            od = 0
    rec(sc.rec, EV_DEFEND, q, b, base, od, 0, 0, 0)
    spend_defence_obsidian(own, bld, tok, gs, rs, nbr, nnb, b, od, sc.xi[XI_OPTS], sc.rec)
    return od


@helper_fused
def roll_dice(st, ru, sc, k):
    """This war's k dice, on a substream of its own indexed by the war's number in the
    game.  Returns (successes, skulls)."""
    gs, rs = st.gs, st.rs
    R = ru.R
    open_substream(rs, SL_CH, rs[SL_BASE], DICE, gs[GS_WARNO])
    gs[GS_WARNO] += 1
    succ = 0
    skulls = 0
    for _ in range(k):
        f = R[R_FACE + rand_int(rs, SL_CH, R[R_NFACES])]
        rec(sc.rec, EV_DIE, -1, gs[GS_WARNO] - 1, f, 0, 0, 0, 0)
        if f < 0:
            skulls += 1
        else:
            succ += f
    return succ, skulls


@helper_fused
def skull_losses(st, ru, sc, p, a, skulls):
    """Each skull: the attacker loses a garrison of his choice in the attacking city a."""
    own, bld, tok, sm, pl, gs, rs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs, st.rs
    nbr, nnb, bot_ids = ru.nbr, ru.nnb, ru.bot_ids
    opts = sc.xi[XI_OPTS]
    for _ in range(skulls):
        n = 0
        for kk in range(4):
            if bld[a, kk] == GARRISON:
                opts[n] = kk
                n += 1
        if n == 0:
            break
        if bot_ids[p] == BOT_RANDOM:
            kk = opts[rand_int(rs, 1 + p, n)]
        else:
            # an empty garrison first; among equals (empty, or none empty), uniformly
            kk = opts[0]
            bv = -1e18
            ties = np.int64(0)
            for i in range(n):
                ok, bv, ties = take(rs, 1 + p, 1.0 if tok[a, opts[i]] < 0 else 0.0, bv, ties)
                if ok:
                    kk = opts[i]
        remove_building(own, bld, tok, sm, pl, gs, nbr, nnb, a, kk)
        rec(sc.rec, EV_SKULL, p, a, kk, 0, 0, 0, 0)
        pl[p, T_GLOST] += 1


@helper_fused
def destroy(st, ru, sc, p, a, b, pts):
    """King p's pts points of damage destroy buildings of city b (his choice; a
    building takes as many points as spaces), then one prisoner per building destroyed
    goes to the empty garrisons of the attacking city a.  Returns buildings destroyed."""
    own, bld, tok, sm, pl, gs, rs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs, st.rs
    nbr, nnb, bot_ids = ru.nbr, ru.nnb, ru.bot_ids
    opts = sc.xi[XI_OPTS]
    q = own[b]
    destroyed = 0
    heur = bot_ids[p] != BOT_RANDOM
    need_all = 0
    for kk in range(4):
        c = bld[b, kk]
        if c != EMPTY and c != CONT:
            need_all += width(c)
    wipe = heur and pts >= need_all
    while pts > 0:
        n = 0
        for kk in range(4):
            c = bld[b, kk]
            if c != EMPTY and c != CONT and width(c) <= pts:
                opts[n] = kk
                n += 1
        if n == 0:
            break
        if not heur:
            kk = opts[rand_int(rs, 1 + p, n)]
        elif wipe:
            kk = opts[0]   # everything goes: the order changes nothing
        else:
            # the most valuable building first (PRIORITY); equals uniformly
            kk = opts[0]
            bv = -1e18
            ties = np.int64(0)
            for i in range(n):
                ok, bv, ties = take(rs, 1 + p, PRIORITY[bld[b, opts[i]]] + 0.0, bv, ties)
                if ok:
                    kk = opts[i]
        c = remove_building(own, bld, tok, sm, pl, gs, nbr, nnb, b, kk)
        rec(sc.rec, EV_DESTROY, p, b, kk, c, q, 0, 0)
        pts -= width(c)
        destroyed += 1
        pl[q, T_BLOST] += 1
        pl[p, T_BDEST] += 1
    # one prisoner per building destroyed, on the empty garrisons of the attacking city
    for _ in range(destroyed):
        if gs[GS_SUP + PRIS] <= 0:
            break
        placed = False
        for kk in range(4):
            if bld[a, kk] == GARRISON and tok[a, kk] < 0:
                tok[a, kk] = PRIS
                gs[GS_SUP + PRIS] -= 1
                pl[p, T_PRIS] += 1
                rec(sc.rec, EV_PRISONER, p, a, kk, 0, 0, 0, 0)
                placed = True
                break
        if not placed:
            break
    return destroyed


@helper
def resolve_attack(st, ru, sc, p, a, b, k, o):
    """King p attacks city b from city a with k garrisons, spending o obsidian of them.
    Returns buildings destroyed."""
    own, bld, tok, pl, gs = st.own, st.bld, st.tok, st.pl, st.gs
    nbr, nnb = ru.nbr, ru.nnb
    q = own[b]
    pl[p, T_WARS] += 1
    pl[q, T_DEF] += 1
    rec(sc.rec, EV_ATTACK, p, a, b, k, o, q, 0)
    # attacker's obsidian (from garrisons holding it, first spaces first)
    left = o
    for kk in range(4):
        if left > 0 and bld[a, kk] == GARRISON and tok[a, kk] == OBSID:
            tok[a, kk] = -1
            gs[GS_SUP + OBSID] += 1
            left -= 1
    # the defender decides on his obsidian before the dice
    base = defence_base(own, bld, nbr, nnb, b)
    od = defend(st, ru, sc, b, k, o, base)
    succ, skulls = roll_dice(st, ru, sc, k)
    skull_losses(st, ru, sc, p, a, skulls)
    pts = succ + o - (base + od)
    if pts > 0:
        return destroy(st, ru, sc, p, a, b, pts)
    return 0
