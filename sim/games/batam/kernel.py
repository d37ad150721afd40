"""Batam rules kernel and bots, jitted with numba.

Everything that changes during a game lives in one flat int64 array ``st``
(offsets ``O_*`` below; four seats are always reserved).  Crew boards hold up to
three dice, kept in descending order: ``st[O_BV + 3*b + k]`` is the value in
slot k of player b's board (0 captain, 1 sailor, 2 ship) and ``st[O_BO + ...]``
its owner.  Per-seat tallies (wages, re-rolls, compass effects ...) live in
``tal[T_* * 4 + seat]``.

Static data (the map and its distance tables, dice, tiles, cards) are arrays
made by ``data.py``; rule values are the int64 array ``R`` (slots ``R_*``).

Distance tables are indexed ``[variant, target, from]``: variant 0 is the open
map, variant ``1 + c`` the map with a pirate tile on compass space c (its space
blocked).  ``D`` counts spaces; ``W`` weighs entering a space next to the
pirate as ``1 + PIRATE_PENALTY``; ``L`` is the number of spaces along the
W-shortest route.  The kernel keeps only the rows of the *special* spaces (the
harbours, then the compass spaces: the only targets the route planner uses):
``DS, WS, LS`` [variant, special, from space] and ``DSS, LSS`` [variant,
special target, special from].
"""
from __future__ import annotations

import numpy as np

from ...drama import drama
from ...jit import helper, helper_inline, kernel
from ...rng import (DECK, DICE, GAME_PURPOSES, SETUP, game_base, item_key, open_substream, rand_int,
                   seed_streams, sort_by_keys, substream_start, tie_wins)

# ----------------------------------------------------------------- constants
MAXP = 4
MAXI = 16
MAXC = 8
MAXK = 64
INF = 30000
PIRATE_PENALTY = 4

SEA, COMPASS, HARBOUR = 0, 1, 2
TRADEWIND, SUNKEN, MAP, PIRATE = 0, 1, 2, 3

MODE_NONE, MODE_TILES, MODE_CARDS = 0, 1, 2
WINDOW_ROUND, WINDOW_AFTER = 0, 1
CHARGE_EACH, CHARGE_ONCE = 0, 1
BANK_SHORT, BANK_UNLIMITED = 0, 1
HRES_RANK, HRES_DRAW = 0, 1

BOT_RANDOM = 0  # every other id is a heuristic style

# bot parameter slots (heuristic styles)
B_CAPTAIN, B_SAILOR, B_URGENCY, B_SHARE, B_SPITE, B_BUMP, B_RRLOW, B_RRMAX, B_RESERVE, \
    B_PIRPAY, B_AVOID, B_DISTW, B_TREASW, B_OUTBID, B_ADAPT, B_GIVEUP = range(16)
N_BOTPAR = 16

# rule slots
(R_P, R_MODE, R_SALE, R_PAYOUT, R_BONUS, R_RR_FIRST, R_RR_STEP, R_PFEE, R_OPPLIM, R_WINDOW,
 R_CHARGE, R_BANKMODE, R_HORIZON, R_HRES, R_OCC, R_OCCH, R_START, R_BANK0, R_GOODS, R_NF,
 R_NT, R_NK, R_STARTNODE, R_N, R_NI, R_NC, R_RR_PRICING, R_TWLIMIT, R_NEU) = range(29)
N_RULES = 29
# R_NEU: card impact's neutral tiles or cards, a bit mask over the indices of the deck in use
# (tiles in tiles mode, cards in cards mode; bit 63 is the sign bit)
TW_ANY, TW_EACH = 0, 1   # tradewind tiles: one bonus per ship and round / each tile once
RR_TOTAL, RR_RISING = 0, 1   # re-roll pricing: later re-rolls cost reroll_step each / one step more each

# state offsets
O_COINS = 0
O_BANK = 4
O_POS = 5
O_GOODS = 9
O_OFFER = 13      # 2 per seat
O_BV = 21         # 3 per seat
O_BO = 33         # 3 per seat
O_NB = 45
O_DV = 49         # the seat's own three dice (value, -1 when placed)
O_TW = 61         # tradewind tiles used this round (bit c: the tile on compass space c)
O_RET = 65        # returned to Batam this round
O_RETA = 69       # ... at or after the end was triggered
O_PCH = 73        # pirate-tile fee charged this round
O_MAPV = 77       # treasure maps held: coins per (seat, island), 16 per seat
O_CUBE = 141      # cube of seat p on island i: O_CUBE + 4*i + p
O_NCUBE = 205     # cubes on island i
O_TILE = 221      # tile on compass space c, -1 none
O_DECK = 229
O_DECKN = 293
O_DISC = 294
O_DISCN = 358
O_ENDED = 359
O_ENDER = 360
O_SHORT = 361
O_PIRC = 362      # compass index of the pirate tile, -1 none
O_FC = 363        # scratch for finish_cost: 4 spaces, 4 costs
O_TH = 371        # scratch for placement: how far each seat leads the placer (x20)
O_LASTCAP = 375   # captain wage each seat offered last round (-1 in round 1)
O_NSHUF = 379     # reshuffles of the compass deck so far (the deck number)
N_ST = 380

# Chance: substreams of sim.rng keyed on (seed, game, purpose, index); nothing draws from
# stream 0.  Slots of the ``rs`` array (uint64): 1 + s the bot of seat s; RS_BASE the game's
# base (not a counter); RS_SETUP the first-player dice; RS_DIE + i crew die i of the seat
# rolling now; RS_KEYS.. scratch for shuffle keys.
P_TILES = GAME_PURPOSES     # tile placement keys: item_key(base, P_TILES, tile identity)
RS_BASE = 1 + MAXP
RS_SETUP = RS_BASE + 1
RS_DIE = RS_SETUP + 1
RS_KEYS = RS_DIE + 3
N_RS = RS_KEYS + MAXK
TIE_REL = 1e-9              # exact ties: |a - b| <= TIE_REL * max(1, |b|)

# per-seat tallies
(T_WPAID, T_WEARN, T_RR, T_RRC, T_DIST, T_BONUS, T_TW, T_SUNK, T_MAP, T_PIR, T_TREAS,
 T_PIRC, T_PAYR) = range(13)
N_TAL = 13

END_RETURN, END_HORIZON = 0, 1


# ------------------------------------------------------------ distance tables
@kernel
def all_pairs(nbr, deg, comp_nodes, padj, pen, D, W, L):
    """Fill ``D, W, L`` [variant, target, from] (see the module docstring)."""
    n = nbr.shape[0]
    V = D.shape[0]
    wd = np.empty(n, np.int64)
    ld = np.empty(n, np.int64)
    done = np.empty(n, np.bool_)
    q = np.empty(n, np.int64)
    for var in range(V):
        blocked = -1 if var == 0 else comp_nodes[var - 1]
        for t in range(n):
            # unit BFS towards t
            for i in range(n):
                wd[i] = INF
            if t != blocked:
                wd[t] = 0
                head = 0
                tail = 0
                q[tail] = t
                tail += 1
                while head < tail:
                    u = q[head]
                    head += 1
                    for j in range(deg[u]):
                        v = nbr[u, j]
                        if v != blocked and wd[v] == INF:
                            wd[v] = wd[u] + 1
                            q[tail] = v
                            tail += 1
            for i in range(n):
                D[var, t, i] = wd[i]
            if var == 0:
                for i in range(n):
                    W[var, t, i] = wd[i]
                    L[var, t, i] = wd[i]
                continue
            # Dijkstra: entering a space costs 1, or 1 + pen next to the pirate
            for i in range(n):
                wd[i] = INF
                ld[i] = INF
                done[i] = False
            if t == blocked:
                for i in range(n):
                    W[var, t, i] = INF
                    L[var, t, i] = INF
                continue
            wd[t] = 0
            ld[t] = 0
            while True:
                u = -1
                for i in range(n):
                    if not done[i] and wd[i] < INF:
                        if u < 0 or wd[i] < wd[u] or (wd[i] == wd[u] and ld[i] < ld[u]):
                            u = i
                if u < 0:
                    break
                done[u] = True
                cu = 1 + pen * padj[var - 1, u]  # cost of entering u
                for j in range(deg[u]):
                    v = nbr[u, j]
                    if v == blocked or done[v]:
                        continue
                    nw = wd[u] + cu
                    nl = ld[u] + 1
                    if nw < wd[v] or (nw == wd[v] and nl < ld[v]):
                        wd[v] = nw
                        ld[v] = nl
            for i in range(n):
                W[var, t, i] = min(wd[i], INF)
                L[var, t, i] = min(ld[i], INF)


# -------------------------------------------------------------- tie-breaks
@helper_inline
def near(a, b):
    """An exact tie between two heuristic scores (floating-point noise aside)."""
    m = abs(b)
    if m < 1.0:
        m = 1.0
    return abs(a - b) <= TIE_REL * m


@helper_inline
def is_neutral(R, k):
    """Is tile or card ``k`` of the deck in use neutral (card impact, R_NEU)?"""
    return (R[R_NEU] >> k) & 1 != 0


# ------------------------------------------------------------------- money
@helper_inline
def bank_pays(st, R, p, amount):
    """The bank pays ``amount`` to seat p (short mode: only what it holds)."""
    b = st[O_BANK]
    avail = b if b > 0 else 0
    if R[R_BANKMODE] == BANK_SHORT:
        pay = amount if amount <= avail else avail
        st[O_SHORT] += amount - pay
    else:
        pay = amount
        if amount > avail:
            st[O_SHORT] += amount - avail
    st[O_BANK] -= pay
    st[O_COINS + p] += pay
    return pay


@helper_inline
def pays_bank(st, p, amount):
    """Seat p pays the bank ``amount``, or all it has."""
    c = st[O_COINS + p]
    pay = amount if amount <= c else c
    st[O_COINS + p] -= pay
    st[O_BANK] += pay
    return pay


@helper_inline
def pays_player(st, a, b, amount):
    c = st[O_COINS + a]
    pay = amount if amount <= c else c
    st[O_COINS + a] -= pay
    st[O_COINS + b] += pay
    return pay


# ------------------------------------------------------------- crew boards
@helper_inline
def slot_for(st, b, v):
    """Slot where a die of value v lands on b's board: after every die worth more,
    before (to the left of) the dice worth the same."""
    k = 0
    for j in range(st[O_NB + b]):
        if st[O_BV + 3 * b + j] > v:
            k += 1
    return k


@helper
def place_die(st, b, v, owner):
    """Put a die of value v owned by ``owner`` on b's board; returns its slot."""
    n = st[O_NB + b]
    k = slot_for(st, b, v)
    for j in range(n, k, -1):
        st[O_BV + 3 * b + j] = st[O_BV + 3 * b + j - 1]
        st[O_BO + 3 * b + j] = st[O_BO + 3 * b + j - 1]
    st[O_BV + 3 * b + k] = v
    st[O_BO + 3 * b + k] = owner
    st[O_NB + b] = n + 1
    return k


@helper_inline
def own_dice_on(st, b, p):
    c = 0
    for j in range(st[O_NB + b]):
        if st[O_BO + 3 * b + j] == p:
            c += 1
    return c


@helper_inline
def can_place(st, R, p, b):
    """May seat p put one more die on b's board?"""
    return b != p and st[O_NB + b] < 3 and own_dice_on(st, b, p) < R[R_OPPLIM]


@helper_inline
def board_total(st, p):
    t = 0
    for j in range(st[O_NB + p]):
        t += st[O_BV + 3 * p + j]
    return t


@helper
def collect_wages(st, R, tal):
    """Phase 4: wages to the dice in the captain and sailor slots, the rest back home."""
    P = R[R_P]
    for b in range(P):
        for k in range(2):
            w = st[O_OFFER + 2 * b + k]
            if k < st[O_NB + b]:
                o = st[O_BO + 3 * b + k]
                st[O_COINS + o] += w
                tal[T_WEARN * MAXP + o] += w
                tal[T_WPAID * MAXP + b] += w
            else:
                st[O_COINS + b] += w
            if k == 0:
                st[O_LASTCAP + b] = w
            st[O_OFFER + 2 * b + k] = 0
        for k in range(3):
            st[O_BV + 3 * b + k] = -1
            st[O_BO + 3 * b + k] = -1
        st[O_NB + b] = 0


# ------------------------------------------------------------------ sailing
@helper_inline
def occupied(st, R, p, v):
    for q in range(R[R_P]):
        if q != p and st[O_POS + q] == v:
            return True
    return False


@helper_inline
def legal_end(st, R, kind, p, v):
    return kind[v] == HARBOUR or not occupied(st, R, p, v)


@helper_inline
def enter_cost(st, R, kind, p, v):
    if occupied(st, R, p, v) and (kind[v] != HARBOUR or R[R_OCCH] != 0):
        return 1 + R[R_OCC]
    return 1


@helper_inline
def is_blocked(st, comp, v):
    pc = st[O_PIRC]
    return pc >= 0 and comp[v] == pc


@helper
def finish_cost(st, R, kind, comp, nbr, deg, p, v):
    """Least movement from v to a space where p may end its move (0 if v is one)."""
    if legal_end(st, R, kind, p, v):
        return 0
    # v is a sea/compass space holding another ship; only such spaces are not ends
    P = R[R_P]
    cl = st[O_FC:O_FC + 4]
    cd = st[O_FC + 4:O_FC + 8]
    nc = 0
    for q in range(P):
        u = st[O_POS + q]
        if q == p or kind[u] == HARBOUR:
            continue
        dup = False
        for i in range(nc):
            if cl[i] == u:
                dup = True
        if not dup:
            cl[nc] = u
            cd[nc] = INF
            nc += 1
    for i in range(nc):
        if cl[i] == v:
            cd[i] = 0
    best = INF
    for it in range(nc):
        for i in range(nc):
            if cd[i] >= INF:
                continue
            x = cl[i]
            for j in range(deg[x]):
                u = nbr[x, j]
                if is_blocked(st, comp, u):
                    continue
                c = cd[i] + enter_cost(st, R, kind, p, u)
                inside = -1
                for m in range(nc):
                    if cl[m] == u:
                        inside = m
                if inside >= 0:
                    if c < cd[inside]:
                        cd[inside] = c
                elif c < best:
                    best = c
    return best


@helper_inline
def safe_step(st, R, kind, comp, nbr, deg, p, n, r):
    """Movement cost of stepping into n with r points left, or -1 when the step is not
    allowed (blocked, too dear, or no legal place to end afterwards)."""
    if is_blocked(st, comp, n):
        return -1
    occ = occupied(st, R, p, n)
    harb = kind[n] == HARBOUR
    c = 1
    if occ and (not harb or R[R_OCCH] != 0):
        c = 1 + R[R_OCC]
    if c > r:
        return -1
    if harb or not occ:  # n is a legal end
        return c
    if c + finish_cost(st, R, kind, comp, nbr, deg, p, n) > r:
        return -1
    return c


@helper
def sell(st, R, p, isl, tal):
    """Sell a cube on island isl: the sale price from the bank, the payout to each earlier cube."""
    bank_pays(st, R, p, R[R_SALE])
    for q in range(R[R_P]):
        if q != p and st[O_CUBE + 4 * isl + q] != 0:
            paid = pays_player(st, p, q, R[R_PAYOUT])
            tal[T_PAYR * MAXP + q] += paid
    st[O_CUBE + 4 * isl + p] = 1
    st[O_NCUBE + isl] += 1
    st[O_GOODS + p] += 1


@helper
def key_deck(st, cid, rs, d, n):
    """Shuffle the n cards in the deck slots: deck number d (0 the first deck, r after r
    reshuffles) sorts them by the keys of their identities, item_key(substream_start(base,
    DECK, d), DECK, identity), ascending; cards are drawn from the end (highest key first).
    Removing a card leaves the others' relative order alone."""
    db = substream_start(rs[RS_BASE], DECK, d)
    keys = rs[RS_KEYS:RS_KEYS + n]
    for i in range(n):
        keys[i] = item_key(db, DECK, cid[st[O_DECK + i]])
    sort_by_keys(st[O_DECK:O_DECK + n], keys, n)


@helper
def draw_card(st, rs, cid):
    """Top card of the compass deck (reshuffling the discards when empty), -1 if none."""
    if st[O_DECKN] == 0:
        nd = st[O_DISCN]
        if nd == 0:
            return -1
        for i in range(nd):
            st[O_DECK + i] = st[O_DISC + i]
        st[O_DECKN] = nd
        st[O_DISCN] = 0
        st[O_NSHUF] += 1
        key_deck(st, cid, rs, st[O_NSHUF], nd)
    st[O_DECKN] -= 1
    return st[O_DECK + st[O_DECKN]]


@helper_inline
def discard(st, k):
    st[O_DISC + st[O_DISCN]] = k
    st[O_DISCN] += 1


# ---------------------------------------------------------------- planning
@helper
def plan_target(st, R, kind, island, comp_nodes, harb_nodes, tk, tv, Lt, Lss, var, p, cur, r, bp, cn, cv,
                rs):
    """Heuristic route planner: the special space (harbour or compass, as a special index)
    to head for, -1 for none.

    Candidates: harbours of islands where p can still sell (worth the sale minus the
    payouts, plus maps held for it), tiles-mode treasure (sunken treasure, maps), and
    Batam when p has sold everything or the end has been triggered.  A candidate reachable
    this round scores above any that is not, plus the best second candidate reachable
    after it; unreachable ones score value - distance weight * spaces.  Equal best scores
    are broken uniformly with the seat's own stream (``tie_wins``)."""
    G = R[R_GOODS]
    done = st[O_GOODS + p] >= G
    ended = st[O_ENDED] != 0
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
        if st[O_CUBE + 4 * isl + p] == 0:
            val = R[R_SALE] - R[R_PAYOUT] * st[O_NCUBE + isl] + 0.0
        val += st[O_MAPV + MAXI * p + isl]
        if val > 0:
            cn[nc] = a
            cv[nc] = val
            nc += 1
    if R[R_MODE] == MODE_TILES and not done and bp[B_TREASW] > 0:
        for c in range(R[R_NC]):
            t = st[O_TILE + c]
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
        if best >= 0 and near(s, bs):
            ties += 1
            if tie_wins(rs, 1 + p, ties):
                best = t1
        elif s > bs:
            bs = s
            best = t1
            ties = 1
    return best


@helper
def heuristic_step(st, R, kind, comp, nbr, deg, padj, Wt, var, p, cur, tgt, tnode, r, can_stop, avoid,
                   rs):
    """Next space for the heuristic bot, -1 to stop: the safe neighbour that goes down the
    weighted distance to the target, dearer entries (occupied spaces, pirate neighbours)
    breaking ties; neighbours still equal are chosen uniformly (the seat's own stream)."""
    best = -1
    bw = INF * 4
    ties = 0
    pc = st[O_PIRC]
    if tgt >= 0 and tnode != cur:
        here = Wt[var, tgt, cur]
        for j in range(deg[cur]):
            n = nbr[cur, j]
            w = Wt[var, tgt, n]
            if w >= here:
                continue
            c = safe_step(st, R, kind, comp, nbr, deg, p, n, r)
            if c < 0:
                continue
            e = w * 4 + c
            if avoid and pc >= 0 and padj[pc, n] != 0:
                e += 4 * PIRATE_PENALTY
            if e < bw:
                bw = e
                best = n
                ties = 1
            elif e == bw:
                ties += 1
                if tie_wins(rs, 1 + p, ties):
                    best = n
    if best >= 0 or can_stop:
        return best
    # must move on (ending here is illegal): the cheapest safe step
    for j in range(deg[cur]):
        n = nbr[cur, j]
        c = safe_step(st, R, kind, comp, nbr, deg, p, n, r)
        if c < 0:
            continue
        e = c * 4 + (Wt[var, tgt, n] if tgt >= 0 else 0)
        if e < bw:
            bw = e
            best = n
            ties = 1
        elif e == bw:
            ties += 1
            if tie_wins(rs, 1 + p, ties):
                best = n
    return best


@helper
def sail(st, R, kind, island, comp, comp_nodes, nbr, deg, padj, harb_nodes, special, DS, WS, LS,
         DSS, LSS, tk, tv, ti, ck, cv, ci, cid, p, bot, bp, rs, tal, opts, cand, candv):
    """Phase 3 for seat p: move step by step, applying every space's effects on entry.
    A neutral tile or card (R_NEU) triggers and is counted as usual but has no effect."""
    cur = st[O_POS + p]
    r = board_total(st, p)
    nd = st[O_NB + p]
    moved = False
    mode = R[R_MODE]
    var = st[O_PIRC] + 1
    avoid = bot != BOT_RANDOM and bp[B_AVOID] > 0
    Wt = WS if avoid else DS
    Lt = LS if avoid else DS
    Lss = LSS if avoid else DSS
    tgt = -1
    tnode = -1
    replan = True
    while True:
        can_stop = (not moved) or legal_end(st, R, kind, p, cur)
        if bot == BOT_RANDOM:
            no = 0
            for j in range(deg[cur]):
                n = nbr[cur, j]
                if safe_step(st, R, kind, comp, nbr, deg, p, n, r) >= 0:
                    opts[no] = n
                    no += 1
            tot = no + (1 if can_stop else 0)
            if no == 0:
                break
            k = 0 if tot == 1 else rand_int(rs, 1 + p, tot)
            if can_stop:
                if k == 0:
                    break
                k -= 1
            n = opts[k]
        else:
            if replan:
                tgt = plan_target(st, R, kind, island, comp_nodes, harb_nodes, tk, tv, Lt, Lss, var,
                                  p, cur, r, bp, cand, candv, rs)
                tnode = special[tgt] if tgt >= 0 else -1
                replan = False
            n = heuristic_step(st, R, kind, comp, nbr, deg, padj, Wt, var, p, cur, tgt, tnode, r,
                               can_stop, avoid, rs)
            if n < 0:
                break
        # ---- enter n
        r -= enter_cost(st, R, kind, p, n)
        cur = n
        st[O_POS + p] = n
        moved = True
        tal[T_DIST * MAXP + p] += 1
        stop_now = False
        pc = st[O_PIRC]
        if pc >= 0 and padj[pc, n] != 0:
            if R[R_CHARGE] == CHARGE_EACH or st[O_PCH + p] == 0:
                st[O_PCH + p] = 1
                tal[T_PIR * MAXP + p] += 1
                if not is_neutral(R, st[O_TILE + pc]):
                    tal[T_PIRC * MAXP + p] += pays_bank(st, p, R[R_PFEE] * nd)
        if kind[n] == HARBOUR:
            isl = island[n]
            if isl != 0 and st[O_GOODS + p] < R[R_GOODS] and st[O_CUBE + 4 * isl + p] == 0:
                sell(st, R, p, isl, tal)
                replan = True
            mv = st[O_MAPV + MAXI * p + isl]
            if mv > 0:
                tal[T_TREAS * MAXP + p] += bank_pays(st, R, p, mv)
                st[O_MAPV + MAXI * p + isl] = 0
                replan = True
        elif kind[n] == COMPASS and mode != MODE_NONE:
            c = comp[n]
            if mode == MODE_TILES:
                t = st[O_TILE + c]
                if t >= 0:
                    neu = is_neutral(R, t)
                    if tk[t] == TRADEWIND:
                        if (st[O_TW + p] == 0 if R[R_TWLIMIT] == TW_ANY
                                else (st[O_TW + p] >> c) & 1 == 0):
                            if not neu:
                                st[O_TW + p] |= 1 << c
                                r += tv[t]
                            tal[T_TW * MAXP + p] += 1
                            replan = True
                    elif tk[t] == SUNKEN:
                        tal[T_SUNK * MAXP + p] += 1
                        if not neu:
                            tal[T_TREAS * MAXP + p] += bank_pays(st, R, p, tv[t])
                        st[O_TILE + c] = -1
                        replan = True
                    elif tk[t] == MAP:
                        tal[T_MAP * MAXP + p] += 1
                        if not neu:
                            st[O_MAPV + MAXI * p + ti[t]] += tv[t]
                        st[O_TILE + c] = -1
                        replan = True
            else:
                k = draw_card(st, rs, cid)
                if k >= 0:
                    kk = ck[k]
                    neu = is_neutral(R, k)
                    if kk == TRADEWIND:
                        tal[T_TW * MAXP + p] += 1
                        if not neu:
                            r += cv[k]
                        discard(st, k)
                        replan = True
                    elif kk == SUNKEN:
                        tal[T_SUNK * MAXP + p] += 1
                        if not neu:
                            tal[T_TREAS * MAXP + p] += bank_pays(st, R, p, cv[k])
                        discard(st, k)
                    elif kk == MAP:
                        tal[T_MAP * MAXP + p] += 1
                        if not neu:
                            st[O_MAPV + MAXI * p + ci[k]] += cv[k]
                        replan = True
                    else:
                        tal[T_PIR * MAXP + p] += 1
                        cost = cv[k] * nd
                        pay = False
                        if st[O_COINS + p] >= cost:
                            if bot == BOT_RANDOM:
                                pay = rand_int(rs, 1 + p, 2) == 0
                            else:
                                pay = r > 0 and cost <= bp[B_PIRPAY]
                        if neu:
                            pass  # the decision is made (and drawn) as usual, to no effect
                        elif pay:
                            tal[T_PIRC * MAXP + p] += pays_bank(st, p, cost)
                        else:
                            stop_now = True
                        discard(st, k)
        if stop_now or r <= 0:
            break
        if cur == tnode:
            replan = True
    if moved and kind[cur] == HARBOUR and island[cur] == 0:
        st[O_RET + p] = 1
        if st[O_ENDED] != 0:
            st[O_RETA + p] = 1
        elif st[O_GOODS + p] >= R[R_GOODS]:
            st[O_ENDED] = 1
            st[O_ENDER] = p
            st[O_RETA + p] = 1


# ------------------------------------------------------------- other phases
@helper_inline
def roll(rs, k, faces):
    """One die from the chance substream in slot k."""
    return faces[rand_int(rs, k, faces.shape[0])]


@helper
def standing(st, R, q):
    return st[O_COINS + q] + st[O_OFFER + 2 * q] + st[O_OFFER + 2 * q + 1] + 20 * st[O_GOODS + q]


@helper
def offer_wages(st, R, p, bot, bp, rs):
    """Phase 1 for seat p: move the captain's and sailor's wages onto its board."""
    c = st[O_COINS + p]
    if c >= 2:
        if bot == BOT_RANDOM:
            cap = 1 + (0 if c - 1 == 1 else rand_int(rs, 1 + p, c - 1))
            left = c - cap
            sal = 1 + (0 if left == 1 else rand_int(rs, 1 + p, left))
        else:
            P = R[R_P]
            if P == 2:
                cap = 1
                sal = 1
            else:
                mx = 0
                for q in range(P):
                    if q != p and st[O_GOODS + q] > mx:
                        mx = st[O_GOODS + q]
                need = mx - st[O_GOODS + p]
                if need < 0:
                    need = 0
                if need > 2:
                    need = 2
                capf = bp[B_CAPTAIN] + bp[B_URGENCY] * need
                salf = bp[B_SAILOR] + 0.5 * bp[B_URGENCY] * need
                if bp[B_ADAPT] > 0 and st[O_LASTCAP + p] >= 0:
                    # no more than a step above what the others paid last round
                    prev = 0
                    for q in range(P):
                        if q != p and st[O_LASTCAP + q] > prev:
                            prev = st[O_LASTCAP + q]
                    step = bp[B_OUTBID] if bp[B_OUTBID] > 1 else 1.0
                    if prev + step < capf:
                        capf = prev + step
                    elif bp[B_GIVEUP] > 0 and prev + step > capf + bp[B_GIVEUP]:
                        capf = 1.0  # outbidding them costs too much: do not compete
                if bp[B_OUTBID] > 0:
                    # earlier players in the crew row have offered already: beat the best
                    hi = 0
                    for q in range(P):
                        if q != p and st[O_OFFER + 2 * q] > hi:
                            hi = st[O_OFFER + 2 * q]
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
    elif c == 1:
        cap = 1
        sal = 0
    else:
        cap = 0
        sal = 0
    st[O_COINS + p] -= cap + sal
    st[O_OFFER + 2 * p] = cap
    st[O_OFFER + 2 * p + 1] = sal


@helper
def reroll_price(R, n):
    """Coins for re-roll n (0 = the first) of a turn: the first costs R_RR_FIRST; each later
    one R_RR_STEP ('total', the rulebook: totals 2, 3, 4, ...) or R_RR_STEP more than the
    one before ('rising': 2, 3, 4, ... each)."""
    if n == 0:
        return R[R_RR_FIRST]
    if R[R_RR_PRICING] == RR_RISING:
        return R[R_RR_FIRST] + R[R_RR_STEP] * n
    return R[R_RR_STEP]


@helper
def reroll_phase(st, R, faces, p, bot, bp, rs, tal, rnd):
    """Phase 2, first part: roll the three dice and pay for re-rolls.  Die i of seat p in
    round rnd (0-based) draws from its own substream (DICE, (rnd * MAXP + p) * 3 + i): its
    roll, then each of its re-rolls."""
    base = rs[RS_BASE]
    for i in range(3):
        open_substream(rs, RS_DIE + i, base, DICE, (rnd * MAXP + p) * 3 + i)
        st[O_DV + 3 * p + i] = roll(rs, RS_DIE + i, faces)
    n = 0
    while True:
        cost = reroll_price(R, n)
        if st[O_COINS + p] < cost:
            break
        if bot == BOT_RANDOM:
            if rand_int(rs, 1 + p, 2) == 0:
                break
            mask = 1 + rand_int(rs, 1 + p, 7)
        else:
            if R[R_P] == 2 or n >= bp[B_RRMAX] or st[O_COINS + p] - cost < bp[B_RESERVE]:
                break
            mask = 0
            for i in range(3):
                if st[O_DV + 3 * p + i] <= bp[B_RRLOW]:
                    mask |= 1 << i
            if mask == 0:
                break
        pays_bank(st, p, cost)
        tal[T_RR * MAXP + p] += 1
        tal[T_RRC * MAXP + p] += cost
        for i in range(3):
            if (mask >> i) & 1:
                st[O_DV + 3 * p + i] = roll(rs, RS_DIE + i, faces)
        n += 1


@helper
def place_score(st, R, p, b, v, bp):
    """Heuristic value of putting a die of value v on b's board."""
    k = slot_for(st, b, v)
    wage = st[O_OFFER + 2 * b + k] + 0.0 if k < 2 else 0.0
    loss = 0.0
    nb = st[O_NB + b]
    for j in range(k, 2):
        if j >= nb:
            break
        nxt = st[O_OFFER + 2 * b + j + 1] if j + 1 < 2 else 0
        d = st[O_OFFER + 2 * b + j] - nxt
        if st[O_BO + 3 * b + j] == p:
            wage -= d
        else:
            loss += d
    if nb + 1 < 3:
        wage *= 0.5 + 0.1 * v  # a later, higher die may still push it right
    th = st[O_TH + b] / 20.0
    if th < 0:
        th = 0.0
    return wage + bp[B_BUMP] * loss - bp[B_SPITE] * v * (1.0 + th)


@helper
def place_phase(st, R, p, bot, bp, rs, opts):
    """Phase 2, second part: place numbered dice one at a time while any can go somewhere.
    The heuristic scores each (value, board) once (a die equal to an earlier one is the same
    option) and breaks equal best scores uniformly with the seat's own stream."""
    P = R[R_P]
    if bot != BOT_RANDOM:
        mine = standing(st, R, p)
        for b in range(P):
            st[O_TH + b] = standing(st, R, b) - mine
    while True:
        no = 0
        bi = -1
        bb = -1
        bs = -1e18
        ties = 0
        for i in range(3):
            v = st[O_DV + 3 * p + i]
            if v <= 0:
                continue
            dup = False
            for j in range(i):
                if st[O_DV + 3 * p + j] == v:
                    dup = True
            for k in range(1, P):  # opponents clockwise from the placer
                b = (p + k) % P
                if not can_place(st, R, p, b):
                    continue
                opts[no] = 4 * i + b
                no += 1
                if bot != BOT_RANDOM and not dup:
                    s = place_score(st, R, p, b, v, bp)
                    if bi >= 0 and near(s, bs):
                        ties += 1
                        if tie_wins(rs, 1 + p, ties):
                            bi = i
                            bb = b
                    elif s > bs:
                        bs = s
                        bi = i
                        bb = b
                        ties = 1
        if no == 0:
            return
        if bot == BOT_RANDOM:
            k = 0 if no == 1 else rand_int(rs, 1 + p, no)
            bi = opts[k] // 4
            bb = opts[k] % 4
        place_die(st, bb, st[O_DV + 3 * p + bi], p)
        st[O_DV + 3 * p + bi] = -1


@helper
def first_by_dice(rs, faces, P, val):
    """Every player rolls two dice (seasick 0); the highest starts; tied leaders re-roll.
    The dice come from the substream in slot RS_SETUP (SETUP, 0)."""
    cont = (1 << P) - 1
    while True:
        best = -1
        for s in range(P):
            if (cont >> s) & 1:
                val[s] = roll(rs, RS_SETUP, faces) + roll(rs, RS_SETUP, faces)
                if val[s] > best:
                    best = val[s]
        nc = 0
        w = -1
        nxt = 0
        for s in range(P):
            if (cont >> s) & 1 and val[s] == best:
                nc += 1
                w = s
                nxt |= 1 << s
        if nc == 1:
            return w
        cont = nxt


@helper
def setup(st, R, faces, tk, tid, cid, rs, scratch):
    """Fresh game: bank, money, ships at Batam, compass tiles or deck; returns the first player.

    Chance (``rs[RS_BASE]`` holds the game's base): the first player from substream (SETUP,
    0); the tiles sorted by item_key(base, P_TILES, identity), the first R_NC to compass
    spaces 0.. in that order, the rest set aside; the card deck keyed as ``key_deck``."""
    P = R[R_P]
    st[:] = 0
    for k in range(O_BV, O_BO + 12):
        st[k] = -1
    for k in range(O_DV, O_DV + 12):
        st[k] = -1
    for k in range(O_TILE, O_TILE + MAXC):
        st[k] = -1
    st[O_PIRC] = -1
    st[O_ENDER] = -1
    for k in range(MAXP):
        st[O_LASTCAP + k] = -1
    st[O_BANK] = R[R_BANK0]
    for p in range(P):
        st[O_POS + p] = R[R_STARTNODE]
        st[O_COINS + p] = R[R_START]
        st[O_BANK] -= R[R_START]
    base = rs[RS_BASE]
    open_substream(rs, RS_SETUP, base, SETUP, 0)
    first = first_by_dice(rs, faces, P, scratch)
    if R[R_MODE] == MODE_TILES:
        nt = R[R_NT]
        keys = rs[RS_KEYS:RS_KEYS + nt]
        for i in range(nt):
            scratch[i] = i
            keys[i] = item_key(base, P_TILES, tid[i])
        sort_by_keys(scratch, keys, nt)
        for c in range(R[R_NC]):
            t = scratch[c]
            st[O_TILE + c] = t
            if tk[t] == PIRATE:
                st[O_PIRC] = c
    elif R[R_MODE] == MODE_CARDS:
        nk = R[R_NK]
        for i in range(nk):
            st[O_DECK + i] = i
        st[O_DECKN] = nk
        key_deck(st, cid, rs, 0, nk)
    return first


@helper
def return_bonuses(st, R, lead, tal):
    """End of the final round's sailing: the return bonus, in crew-row order, to every ship
    that returned to Batam this round (window 'round') or at/after the trigger ('after')."""
    P = R[R_P]
    for i in range(P):
        p = (lead + i) % P
        got = st[O_RET + p] if R[R_WINDOW] == WINDOW_ROUND else st[O_RETA + p]
        if got != 0:
            tal[T_BONUS * MAXP + p] += bank_pays(st, R, p, R[R_BONUS])


@helper
def final_ranking(st, R, win):
    """Fill ``win`` (1 sole winner, 1/k shared); returns the winner seat or -1."""
    P = R[R_P]
    bc = -1
    bg = -1
    for p in range(P):
        c = st[O_COINS + p]
        g = st[O_GOODS + p]
        if c > bc or (c == bc and g > bg):
            bc = c
            bg = g
    k = 0
    w = -1
    for p in range(P):
        if st[O_COINS + p] == bc and st[O_GOODS + p] == bg:
            k += 1
            w = p
    for p in range(P):
        win[p] = 1.0 / k if (st[O_COINS + p] == bc and st[O_GOODS + p] == bg) else 0.0
    return w if k == 1 else -1


@helper_inline
def crew_seat(first, rnd, i, P):
    """Seat at position i of the crew row in round rnd (0-based): the first player's board
    starts the row, the others follow clockwise, and after every round the leftmost board
    moves to the right end."""
    return (first + rnd + i) % P


@helper
def round_leader(st, P):
    """The seat that would win if the game ended now (coins, then goods sold), -1 on a tie."""
    best = -1
    bc = -1
    bg = -1
    tie = False
    for p in range(P):
        c = st[O_COINS + p]
        gd = st[O_GOODS + p]
        if c > bc or (c == bc and gd > bg):
            best, bc, bg, tie = p, c, gd, False
        elif c == bc and gd == bg:
            tie = True
    return -1 if tie else best


@helper
def start_streams(rs, seed, g, P):
    """Game g's streams: the bots' (1 + seat) and the base its chance substreams derive from.
    Slot 0 (the old single chance stream) is set but never drawn from."""
    seed_streams(rs[:1 + P], seed, g)
    rs[RS_BASE] = game_base(seed, g)


@helper
def play_game(g, seed, R, faces, kind, island, comp, comp_nodes, nbr, deg, padj, harb_nodes,
              special, DS, WS, LS, DSS, LSS, tk, tv, ti, ck, cv, ci, cid, tid, bot_ids, bot_par, st,
              rs, tal, opts, scratch, win, cand, candv, leaders):
    """Play game g; returns (winner, end_reason, first, rounds); tallies in ``tal``; the
    leader at the end of each round in ``leaders``.  ``rs`` has N_RS slots."""
    P = R[R_P]
    start_streams(rs, seed, g, P)
    tal[:] = 0
    first = setup(st, R, faces, tk, tid, cid, rs, scratch)
    rounds = 0
    for rnd in range(R[R_HORIZON]):
        rounds = rnd + 1
        lead = crew_seat(first, rnd, 0, P)
        for p in range(P):
            st[O_TW + p] = 0
            st[O_RET + p] = 0
            st[O_RETA + p] = 0
            st[O_PCH + p] = 0
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            offer_wages(st, R, p, bot_ids[p], bot_par[p], rs)
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            reroll_phase(st, R, faces, p, bot_ids[p], bot_par[p], rs, tal, rnd)
            place_phase(st, R, p, bot_ids[p], bot_par[p], rs, opts)
            for j in range(3):
                st[O_DV + 3 * p + j] = -1
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            sail(st, R, kind, island, comp, comp_nodes, nbr, deg, padj, harb_nodes, special, DS, WS,
                 LS, DSS, LSS, tk, tv, ti, ck, cv, ci, cid, p, bot_ids[p], bot_par[p], rs, tal, opts,
                 cand, candv)
        if st[O_ENDED] != 0:
            return_bonuses(st, R, lead, tal)
        collect_wages(st, R, tal)
        leaders[rnd] = round_leader(st, P)
        if st[O_ENDED] != 0:
            w = final_ranking(st, R, win)
            return w, END_RETURN, first, rounds
    w = final_ranking(st, R, win)
    if R[R_HRES] == HRES_DRAW:
        for p in range(P):
            win[p] = 1.0 / P
        w = -1
    return w, END_HORIZON, first, rounds


@kernel
def run_games(seed, start, count, R, faces, kind, island, comp, comp_nodes, nbr, deg, padj,
              harb_nodes, special, DS, WS, LS, DSS, LSS, tk, tv, ti, ck, cv, ci, cid, tid, bot_ids,
              bot_par, winner, end_reason, first_player, rounds, ender, bank, bank_short, win, seat_out,
              lead_changes, lead_settled):
    """Play ``count`` games; ``seat_out[j, s, k]``: coins, goods, crew position, then the
    N_TAL tallies of seat s in game j."""
    P = R[R_P]
    st = np.zeros(N_ST, np.int64)
    rs = np.zeros(N_RS, np.uint64)
    tal = np.zeros(N_TAL * MAXP, np.int64)
    opts = np.zeros(64, np.int64)
    scratch = np.zeros(MAXK, np.int64)
    w1 = np.zeros(MAXP, np.float64)
    cand = np.zeros(MAXI + MAXC, np.int64)
    candv = np.zeros(MAXI + MAXC, np.float64)
    leaders = np.zeros(R[R_HORIZON], np.int64)
    for j in range(count):
        w, e, f, rd = play_game(start + j, seed, R, faces, kind, island, comp, comp_nodes, nbr, deg,
                                padj, harb_nodes, special, DS, WS, LS, DSS, LSS, tk, tv, ti, ck, cv,
                                ci, cid, tid, bot_ids, bot_par, st, rs, tal, opts, scratch, w1, cand,
                                candv, leaders)
        winner[j] = w
        end_reason[j] = e
        first_player[j] = f
        rounds[j] = rd
        ender[j] = st[O_ENDER]
        bank[j] = st[O_BANK]
        bank_short[j] = st[O_SHORT]
        lead_changes[j], lead_settled[j] = drama(leaders, rd, w)
        for s in range(P):
            win[j, s] = w1[s]
            seat_out[j, s, 0] = st[O_COINS + s]
            seat_out[j, s, 1] = st[O_GOODS + s]
            seat_out[j, s, 2] = (s - f) % P
            for k in range(N_TAL):
                seat_out[j, s, 3 + k] = tal[k * MAXP + s]
