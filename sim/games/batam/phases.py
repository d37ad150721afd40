"""The Game Round's four phases for one seat, as the rules run them: each asks the seat's bot
(``bots/``) for its decisions (the random bot or a heuristic style) and applies them.

Phase 1 ``offer_wages``; Phase 2 ``reroll_phase`` then ``place_phase``; Phase 3 ``sail``
(effects of the spaces entered: ``enter_harbour``, ``enter_tile``, ``enter_card``); Phase 4
is ``crew.collect_wages``.  A neutral tile or card (card impact, ``R_NEU``) triggers and is
counted as usual but has no effect."""
from __future__ import annotations

from ...jit import helper, helper_inline
from ...record import rec
from ...rng import DICE, open_substream
from .bots.heuristic import heuristic_step, place_choice, place_prepare, plan_target
from .bots.heuristic import pays_pirate as heuristic_pays_pirate
from .bots.heuristic import reroll_mask as heuristic_reroll_mask
from .bots.heuristic import wages as heuristic_wages
from .bots.random import pays_pirate as random_pays_pirate
from .bots.random import pick as random_pick
from .bots.random import reroll_mask as random_reroll_mask
from .bots.random import step as random_step
from .bots.random import wages as random_wages
from .howplays import count
from .crew import board_total, can_place, place_die, reroll_price
from .money import bank_pays, is_neutral, pays_bank
from .sailing import discard, draw_card, enter_cost, legal_end, safe_step, sell
from .setup import roll
from .state import (
    BOT_RANDOM,
    BOT_SEARCH,
    B_AVOID,
    CHARGE_EACH,
    COMPASS,
    DONE,
    E_CARD,
    E_EFFECT,
    E_PLACE,
    E_RANSOM,
    E_REROLL,
    E_ROLL,
    E_STEP,
    E_STOP,
    E_WAGES,
    FX_CASH,
    FX_MAP,
    FX_PIRATE,
    FX_SUNKEN,
    FX_TRADEWIND,
    G_ENDED,
    G_ENDER,
    G_PIRC,
    HARBOUR,
    MAP,
    MAXP,
    MODE_NONE,
    MODE_TILES,
    NEED,
    RF_PCH,
    RF_RET,
    RF_RETA,
    RF_TW,
    RS_BASE,
    RS_DIE,
    R_CHARGE,
    R_GOODS,
    R_MODE,
    R_P,
    R_PFEE,
    R_TWLIMIT,
    SUNKEN,
    TRADEWIND,
    TW_ANY,
    T_DIST,
    T_MAP,
    T_PIR,
    T_PIRC,
    T_RR,
    T_RRC,
    T_SUNK,
    T_TREAS,
    T_TW,
)


# ------------------------------------------------------------ phase 1
@helper
def offer_wages(st, R, p, bot, bp, rs, buf):
    """Phase 1 for seat p: move the captain's and sailor's wages onto its board (with one coin
    only the captain's, with none nothing: no decision)."""
    c = st.coins[p]
    if c >= 2:
        if bot == BOT_RANDOM:
            cap, sal = random_wages(rs, p, c)
        else:
            cap, sal = heuristic_wages(st, R, p, bp, c)
    elif c == 1:
        cap = 1
        sal = 0
    else:
        cap = 0
        sal = 0
    set_wages(st, p, cap, sal, c, buf)


@helper_inline
def set_wages(st, p, cap, sal, c, buf):
    """Seat p (c coins) moves its captain's and sailor's wages onto its board."""
    rec(buf, E_WAGES, p, cap, sal, c, 0, 0, 0)
    st.coins[p] -= cap + sal
    st.offer[p, 0] = cap
    st.offer[p, 1] = sal


# ------------------------------------------------------------ phase 2
@helper
def reroll_phase(st, R, faces, p, bot, bp, rs, rnd, buf):
    """Phase 2, first part: roll the three dice and pay for re-rolls (``roll_dice``, then
    ``reroll_steps`` deciding every re-roll; not for the search bot)."""
    roll_dice(st, faces, p, rs, rnd, buf)
    reroll_steps(st, R, faces, p, bot, bp, rs, 0, -1, R[:0], buf)  # R[:0]: count nothing


@helper
def roll_dice(st, faces, p, rs, rnd, buf):
    """Roll seat p's three dice.  Die i of seat p in round rnd (0-based) draws from its own
    substream (DICE, (rnd * MAXP + p) * 3 + i): its roll, then each of its re-rolls."""
    base = rs[RS_BASE]
    for i in range(3):
        open_substream(rs, RS_DIE + i, base, DICE, (rnd * MAXP + p) * 3 + i)
        st.dv[p, i] = roll(rs, RS_DIE + i, faces)
        rec(buf, E_ROLL, -1, p, i, st.dv[p, i], 0, 0, 0)


@helper
def reroll_steps(st, R, faces, p, bot, bp, rs, n, forced, cx, buf):
    """Pay for re-rolls, n of them paid already this turn: while the next is affordable the
    bot decides (``forced`` >= 0: that mask for the first decision, the search bot's choice;
    ``cx``: every decision counted, ``howplays.count``).  Returns (re-rolls paid, NEED when
    a search seat must decide now, else DONE)."""
    while True:
        cost = reroll_price(R, n)
        if st.coins[p] < cost:
            break
        if forced >= 0:
            mask = forced
            forced = -1
        elif bot == BOT_SEARCH:
            return n, NEED
        elif bot == BOT_RANDOM:
            mask = random_reroll_mask(rs, p)
        else:
            mask = heuristic_reroll_mask(st, R, p, bp, n, cost)
        count(cx, p, 8)
        rec(buf, E_REROLL, p, mask, cost, 0, 0, 0, 0)
        if mask == 0:
            break
        pays_bank(st, p, cost)
        st.tal[T_RR, p] += 1
        st.tal[T_RRC, p] += cost
        for i in range(3):
            if (mask >> i) & 1:
                st.dv[p, i] = roll(rs, RS_DIE + i, faces)
                rec(buf, E_ROLL, -1, p, i, st.dv[p, i], n + 1, 0, 0)
        n += 1
    return n, DONE


@helper_inline
def place_options(st, R, p, opts):
    """The legal placements of seat p's numbered dice: ``4 * die + board`` into ``opts``, die
    by die, the opponents' boards clockwise from the placer; returns how many."""
    P = R[R_P]
    no = 0
    for i in range(3):
        if st.dv[p, i] <= 0:
            continue
        for k in range(1, P):
            b = (p + k) % P
            if can_place(st, R, p, b):
                opts[no] = 4 * i + b
                no += 1
    return no


@helper
def place_phase(st, R, p, bot, bp, rs, opts, th, buf):
    """Phase 2, second part: place numbered dice one at a time while any can go somewhere."""
    place_steps(st, R, p, bot, bp, rs, opts, th, -1, R[:0], buf)  # R[:0]: count nothing


@helper
def place_steps(st, R, p, bot, bp, rs, opts, th, forced, cx, buf):
    """Place seat p's numbered dice one at a time while any can go somewhere (``forced`` >= 0:
    the option index of the first placement, the search bot's choice; ``cx``: every
    placement counted, ``howplays.count``).  Resumable: the dice
    placed are marked in the state.  Returns NEED when a search seat must decide now."""
    if bot != BOT_RANDOM:
        place_prepare(st, R, p, th)
    while True:
        no = place_options(st, R, p, opts)
        if no == 0:
            return DONE
        if forced >= 0:
            k = forced
            forced = -1
        elif bot == BOT_SEARCH:
            return NEED
        elif bot == BOT_RANDOM:
            k = random_pick(rs, p, no)
        else:
            k = place_choice(st, R, p, bp, rs, opts, no, th)
        count(cx, p, no)
        i = opts[k] // 4
        b = opts[k] % 4
        slot = place_die(st, b, st.dv[p, i], p)
        rec(buf, E_PLACE, p, i, st.dv[p, i], b, slot, 0, 0)
        st.dv[p, i] = -1


# ------------------------------------------------------------ phase 3
@helper_inline
def legal_steps(st, R, board, fc, p, cur, r, opts):
    """The spaces next to ``cur`` that seat p may step into with r points left, into
    ``opts``; returns how many."""
    kind = board.kind
    comp = board.comp
    nbr = board.nbr
    deg = board.deg
    no = 0
    for j in range(deg[cur]):
        n = nbr[cur, j]
        if safe_step(st, R, kind, comp, nbr, deg, fc, p, n, r) >= 0:
            opts[no] = n
            no += 1
    return no


@helper_inline
def pirate_neighbour(st, R, padj, p, n, nd, buf):
    """Entering a space next to the pirate tile: its fee per die on the board (each time, or
    once a round: ``R_CHARGE``)."""
    pc = st.g[G_PIRC]
    if pc >= 0 and padj[pc, n] != 0:
        if R[R_CHARGE] == CHARGE_EACH or st.rflags[RF_PCH, p] == 0:
            st.rflags[RF_PCH, p] = 1
            st.tal[T_PIR, p] += 1
            neu = is_neutral(R, st.tile[pc])
            fee = 0
            if not neu:
                fee = pays_bank(st, p, R[R_PFEE] * nd)
                st.tal[T_PIRC, p] += fee
            rec(buf, E_EFFECT, p, FX_PIRATE, fee, 0, st.tile[pc], neu, pc)


@helper_inline
def enter_harbour(st, R, island, p, n, buf):
    """A harbour: sell a goods cube there (once per island), cash the maps held for it.
    Returns True when something changed (the bot re-plans)."""
    changed = False
    isl = island[n]
    if isl != 0 and st.goods[p] < R[R_GOODS] and st.cube[isl, p] == 0:
        sell(st, R, p, isl, buf)
        changed = True
    mv = st.mapv[p, isl]
    if mv > 0:
        got = bank_pays(st, R, p, mv)
        st.tal[T_TREAS, p] += got
        st.mapv[p, isl] = 0
        rec(buf, E_EFFECT, p, FX_CASH, got, 0, isl, 0, 0)
        changed = True
    return changed


@helper_inline
def enter_tile(st, R, compass, c, p, buf):
    """Tiles mode, compass space c: tradewind (extra movement, once a round: ``R_TWLIMIT``),
    sunken treasure (coins, tile taken), treasure map (coins later, tile taken).  Returns
    (extra movement, something changed)."""
    tk = compass.tk
    tv = compass.tv
    ti = compass.ti
    t = st.tile[c]
    if t < 0:
        return 0, False
    neu = is_neutral(R, t)
    extra = 0
    changed = False
    if tk[t] == TRADEWIND:
        if (st.rflags[RF_TW, p] == 0 if R[R_TWLIMIT] == TW_ANY else (st.rflags[RF_TW, p] >> c) & 1 == 0):
            if not neu:
                st.rflags[RF_TW, p] |= 1 << c
                extra = tv[t]
            st.tal[T_TW, p] += 1
            changed = True
            rec(buf, E_EFFECT, p, FX_TRADEWIND, extra, 0, t, neu, c)
    elif tk[t] == SUNKEN:
        st.tal[T_SUNK, p] += 1
        got = 0
        if not neu:
            got = bank_pays(st, R, p, tv[t])
            st.tal[T_TREAS, p] += got
        st.tile[c] = -1
        changed = True
        rec(buf, E_EFFECT, p, FX_SUNKEN, got, 0, t, neu, c)
    elif tk[t] == MAP:
        st.tal[T_MAP, p] += 1
        if not neu:
            st.mapv[p, ti[t]] += tv[t]
        st.tile[c] = -1
        changed = True
        rec(buf, E_EFFECT, p, FX_MAP, 0 if neu else tv[t], 0, t, neu, ti[t])
    return extra, changed


@helper_inline
def enter_card(st, R, compass, p, bot, bp, rs, r, nd, cx, buf):
    """Cards mode: draw a compass card.  Tradewind (extra movement), sunken treasure (coins),
    treasure map (kept: coins later), pirate (pay the ransom per die, the bot decides, or stop;
    the decision counted in ``cx``).  Returns (extra movement, something changed, stop)."""
    ck = compass.ck
    cv = compass.cv
    ci = compass.ci
    k = draw_card(st, rs, compass.cid, buf)
    if k < 0:
        return 0, False, False
    kk = ck[k]
    neu = is_neutral(R, k)
    rec(buf, E_CARD, -1, k, kk, cv[k], p, 0, 0)
    extra = 0
    changed = False
    stop = False
    if kk == TRADEWIND:
        st.tal[T_TW, p] += 1
        if not neu:
            extra = cv[k]
        discard(st, k)
        changed = True
        rec(buf, E_EFFECT, p, FX_TRADEWIND, extra, 1, k, neu, 0)
    elif kk == SUNKEN:
        st.tal[T_SUNK, p] += 1
        got = 0
        if not neu:
            got = bank_pays(st, R, p, cv[k])
            st.tal[T_TREAS, p] += got
        discard(st, k)
        rec(buf, E_EFFECT, p, FX_SUNKEN, got, 1, k, neu, 0)
    elif kk == MAP:
        st.tal[T_MAP, p] += 1
        if not neu:
            st.mapv[p, ci[k]] += cv[k]
        changed = True
        rec(buf, E_EFFECT, p, FX_MAP, 0 if neu else cv[k], 1, k, neu, ci[k])
    else:
        st.tal[T_PIR, p] += 1
        cost = cv[k] * nd
        pay = False
        if st.coins[p] >= cost:
            if bot == BOT_RANDOM:
                pay = random_pays_pirate(rs, p)
            else:
                pay = heuristic_pays_pirate(bp, r, cost)
            count(cx, p, 2)
            rec(buf, E_RANSOM, p, k, cost, 1 if pay else 0, 0, 0, 0)
        fee = 0
        if neu:
            pass  # the decision is made (and drawn) as usual, to no effect
        elif pay:
            fee = pays_bank(st, p, cost)
            st.tal[T_PIRC, p] += fee
        else:
            stop = True
        rec(buf, E_EFFECT, p, FX_PIRATE, fee, 1, k, neu, 1 if stop else 0)
        discard(st, k)
    return extra, changed, stop


@helper_inline
def back_in_batam(st, R, p):
    """A ship that ends its move in Batam: it returned this round (and at or after the end
    was triggered); with every good sold it triggers the end."""
    st.rflags[RF_RET, p] = 1
    if st.g[G_ENDED] != 0:
        st.rflags[RF_RETA, p] = 1
    elif st.goods[p] >= R[R_GOODS]:
        st.g[G_ENDED] = 1
        st.g[G_ENDER] = p
        st.rflags[RF_RETA, p] = 1


@helper
def sail(st, rules, p, bot, bp, rs, sc, buf):
    """Phase 3 for seat p: move step by step, applying every space's effects on entry."""
    sail_to(st, rules, p, bot, bp, rs, sc, -2, buf)


@helper
def sail_to(st, rules, p, bot, bp, rs, sc, first, buf):
    """Phase 3 for seat p (``sail``); ``first`` >= -1: the heuristic's first route target (a
    special space, -1 to stay), the search bot's choice; -2: its own plan.  A pirate card's
    ransom is counted in ``sc.cx`` (``howplays.count``); the steps are not (``howplays``)."""
    R = rules.R
    board = rules.board
    kind = board.kind
    island = board.island
    routes = rules.routes
    opts = sc.opts
    cur = st.pos[p]
    r = board_total(st, p)
    nd = st.nb[p]
    moved = False
    mode = R[R_MODE]
    avoid = bot != BOT_RANDOM and bp[B_AVOID] > 0
    Wt = routes.WS if avoid else routes.DS
    Lt = routes.LS if avoid else routes.DS
    Lss = routes.LSS if avoid else routes.DSS
    tgt = -1
    tnode = -1
    replan = True
    while True:
        can_stop = (not moved) or legal_end(st, R, kind, p, cur)
        if bot == BOT_RANDOM:
            no = legal_steps(st, R, board, sc.fc, p, cur, r, opts)
            if no == 0:
                rec(buf, E_STOP, p, cur, r, 0, 0, 0, 0)
                break
            k = random_step(rs, p, no, can_stop)
            if k < 0:
                rec(buf, E_STOP, p, cur, r, 0, 0, 0, 0)
                break
            n = opts[k]
        else:
            if replan and first >= -1:
                tgt = first
                tnode = board.special[tgt] if tgt >= 0 else -1
                replan = False
                first = -2
            elif replan:
                tgt = plan_target(st, R, board, rules.compass, Lt, Lss, p, cur, r, bp, sc, rs)
                tnode = board.special[tgt] if tgt >= 0 else -1
                replan = False
            n = heuristic_step(st, R, board, Wt, sc.fc, p, cur, tgt, tnode, r, can_stop, avoid,
                               rs)
            if n < 0:
                rec(buf, E_STOP, p, cur, r, 0, 0, 0, 0)
                break
        # ---- enter n
        r -= enter_cost(st, R, kind, p, n)
        rec(buf, E_STEP, p, cur, n, r, 0, 0, 0)
        cur = n
        st.pos[p] = n
        moved = True
        st.tal[T_DIST, p] += 1
        stop_now = False
        pirate_neighbour(st, R, board.padj, p, n, nd, buf)
        if kind[n] == HARBOUR:
            if enter_harbour(st, R, island, p, n, buf):
                replan = True
        elif kind[n] == COMPASS and mode != MODE_NONE:
            if mode == MODE_TILES:
                extra, changed = enter_tile(st, R, rules.compass, board.comp[n], p, buf)
            else:
                extra, changed, stop_now = enter_card(st, R, rules.compass, p, bot, bp, rs, r, nd,
                                                      sc.cx, buf)
            r += extra
            if changed:
                replan = True
        if stop_now or r <= 0:
            break
        if cur == tnode:
            replan = True
    if moved and kind[cur] == HARBOUR and island[cur] == 0:
        back_in_batam(st, R, p)
