"""Balam rules kernel and bots, jitted with numba.

State (allocated once per chunk, reset per game):

* ``own[S]``      owner of each site (-1: no one);
* ``bld[S, 4]``   building code on each space (0 empty, 1..8 buildings, 9 = the second
                  space of a palace or temple);
* ``tok[S, 4]``   riches token on the building of that space (-1 none, 0..5 riches);
* ``sm[S, 4]``    small pyramids (commercial control) of each player on each site;
* ``pl[P, NPL]``  per player: hand (personal riches), pyramids left, prestige and its
                  sources, tallies;
* ``gs[NG]``      global: supply, tiles left, eclipse, ball games, deck position,
                  round, the face-down Katun slots, what each player has seen.

Static data: ``R`` (rules and components, see the R_* slots), ``nbr/nnb`` (paths),
``info[S, 6]`` (spaces, colour, forest, seashore, volcano, cenote) and the card table
``ctype/cgain/cnopt/cid``.  The site tiles are placed per game: ``tinfo`` holds the
tiles as the board file prints them and ``info`` the tile on each cell in this game's
layout (``draw_layout``).

Random numbers (``rs``, one uint64 counter per slot): slot 1+p is the bot of seat p
(its choices and every tie it breaks); chance comes from substreams keyed on
(seed, game, purpose, index) (``sim.rng``), opened in slot ``SL_CH`` when needed:
the layout (``P_LAYOUT``), the deck's shuffle keys (``DECK``, one key per card
identity ``cid``), the piles (``P_PILES``), the Eclipse's place (``P_ECLIPSE``), the
first player (``SETUP``) and each war's dice (``DICE``, index = the war's number in the
game).  Slot ``SL_BASE`` holds the game's base; slot 0 (the old single chance stream)
is not used.
"""
from __future__ import annotations

import numpy as np

from ...drama import drama
from ...jit import helper, helper_inline, kernel
from ...rng import (DECK, DICE, GAME_PURPOSES, GOLDEN, SETUP, game_base, keyed_shuffle, mix64,
                   open_substream, rand_int, tie_wins)

# riches
MAIZE, CACAO, SHELL, JADE, OBSID, PRIS = 0, 1, 2, 3, 4, 5
# buildings (code = index in data.BUILDINGS + 1)
EMPTY, VILLAGE, GARRISON, PALACE, TEMPLE, MARKET, RESERVE, BALLCOURT, OBSERV, CONT = range(10)
# Katun card types
K_PROS, K_FAV, K_EXC, K_EXPED, K_CACAO, K_MARRY, K_CENOTE, K_BALL, K_ECLIPSE = range(9)
K_DROUGHT, K_INSURR, K_QUAKE, K_POCHT, K_TOLTEC, K_DECAD, K_VOLCANO, K_TIDAL = range(9, 17)
NK = 17
# site info columns
I_SPACES, I_COLOUR, I_FOREST, I_SEA, I_VOLC, I_CENOTE = range(6)

# rules array
(R_NP, R_BALLS, R_MAXR, R_START, R_CHAAK, R_HIT, R_FOREST, R_CTRL, R_ECLJ, R_LARGE, R_SMALL,
 R_CENF, R_NFACES, R_POSB, R_S, R_NCARDS, R_MAXTURN, R_NEUTRAL, R_PILES, R_LAYOUT) = range(20)
R_SUP0 = 20
R_TILE0 = 26
R_CANY = 30
R_CKIND = 38
R_CN = 46
R_PTS = 54
R_FACE = 60
R_KCNT = 80     # 17 slots: cards of each Katun type in the deck (static)
R_EXPED = 97    # riches types an Expedition return may bring: 6 (any) or 5 (produced only)
N_R = 98
HIT_DRAWER, HIT_ALL = 0, 1
CTRL_EACH, CTRL_SUM = 0, 1
PILES_LARGER_FIRST, PILES_RANDOM = 0, 1
LAYOUT_FIXED, LAYOUT_RANDOM = 0, 1

# random number slots (rs): 1 + seat = that seat's bot; chance substreams are opened in
# SL_CH; SL_BASE holds the game's base (not a stream)
SL_CH, SL_BASE, NRS = 5, 6, 7
# Balam's own chance purposes (sim.rng numbers game purposes from GAME_PURPOSES up)
P_LAYOUT = GAME_PURPOSES       # the permutation of the site tiles over the land cells
P_PILES = GAME_PURPOSES + 1    # which piles are the larger ones (piles=random)
P_ECLIPSE = GAME_PURPOSES + 2  # the Eclipse's offset from the middle (eclipse_jitter)

# global state
GS_SUP = 0
GS_TILE = 6
GS_ECL, GS_BALLS, GS_DPOS, GS_ROUND, GS_TURNS, GS_NSLOT, GS_LEFT = 10, 11, 12, 13, 14, 15, 16
GS_SLOT = 17      # 5 slots: card index or -1 once turned
GS_KNOWN = 22     # per player: bit mask of slots seen by divination
GS_SEEN = 26      # per type: cards turned so far (public)
GS_RFIRST = 43
GS_DEADLOCK = 44
GS_AUDIT = 45
GS_WARNO = 46     # wars (attacks) so far this game: the index of the next war's dice
NG = 48
MAXSLOT = 5

# per-player row
P_HAND = 0
P_LARGE, P_SMALL = 6, 7
P_PRES, P_CER, P_CEN, P_BALL, P_PROS, P_BONUS = 8, 9, 10, 11, 12, 13
T_WARS, T_DEF, T_BLOST, T_BDEST, T_GLOST, T_CPAID, T_CSUFF, T_KLOST, T_PRIS, T_BUILT, T_DIV = range(14, 25)
T_TURNS, T_PASS, P_AUDIT = 25, 26, 27
P_KAT = 28
NPL = P_KAT + NK

END_BALLS, END_DECK, END_CAP = 0, 1, 2

BOT_RANDOM = 0
# heuristic weights (bot_params columns; every heuristic style shares them)
(BW_PRES, BW_HAND, BW_RES, BW_BUILD, BW_EXPAND, BW_WAR, BW_MARKET, BW_BALL, BW_RISK,
 BW_TEMPLE, BW_PALACE, BW_PLANS) = range(12)
NBW = 12

# distribution sinks
DK_TEMPLE, DK_PALACE, DK_GARR, DK_RESERVE, DK_LOSE = range(5)


NEG = -1
ONE = 1
ZERO = 0
for _n, _v in list(globals().items()):
    if _n.isupper() and type(_v) is int:
        globals()[_n] = np.int64(_v)
del _n, _v


# ======================================================================= helpers
@kernel
def new_state(S, P):
    own = -np.ones(S, np.int64)
    bld = np.zeros((S, 4), np.int64)
    tok = -np.ones((S, 4), np.int64)
    sm = np.zeros((S, 4), np.int64)
    pl = np.zeros((P, NPL), np.int64)
    gs = np.zeros(NG, np.int64)
    return own, bld, tok, sm, pl, gs


@helper
def reset_state(own, bld, tok, sm, pl, gs, R):
    own[:] = -1
    bld[:] = 0
    tok[:] = -1
    sm[:] = 0
    pl[:] = 0
    gs[:] = 0
    for t in range(6):
        gs[GS_SUP + t] = R[R_SUP0 + t]
    for i in range(4):
        gs[GS_TILE + i] = R[R_TILE0 + i]
    for p in range(pl.shape[0]):
        pl[p, P_LARGE] = R[R_LARGE]
        pl[p, P_SMALL] = R[R_SMALL]
    for k in range(MAXSLOT):
        gs[GS_SLOT + k] = -1


# ======================================================================= ties
# A heuristic bot never breaks a tie by site number, card slot or option order: two
# values within 1e-9 (relative) of each other are equal, and equal options are chosen
# uniformly on the bot's own stream (slot 1 + seat), by the reservoir rule of
# sim.rng.tie_wins (the k-th option found equal to the best so far replaces it with
# probability 1/k), which draws nothing when there is no tie.
@helper_inline
def cmp_tie(v, best):
    """1 when ``v`` beats ``best``, 0 when they are equal (|v - best| <= 1e-9 max(1, |best|)),
    -1 when it is worse."""
    tol = 1e-9 * max(1.0, abs(best))
    if v > best + tol:
        return 1
    if v >= best - tol:
        return 0
    return -1


@helper_inline
def take(rs, k, v, best, ties):
    """One step of an argmax with uniform ties on stream k: (take this option, the best
    value, the number of options tied for it).  Start with best = -1e18, ties = 0."""
    d = cmp_tie(v, best)
    if d > 0:
        return True, v, np.int64(1)
    if d == 0:
        ties += 1
        return tie_wins(rs, k, ties), best, ties
    return False, best, ties


@helper_inline
def pick(rs, k, n):
    """A uniform index in [0, n) from stream k; draws nothing when n == 1."""
    if n <= 1:
        return np.int64(0)
    return rand_int(rs, k, n)


@helper_inline
def choose_subset(rs, k, opts, m, n):
    """Move a uniformly chosen n of opts[0:m] to opts[0:n] (partial Fisher-Yates on stream
    k); draws nothing when all m are taken."""
    if n >= m:
        return
    for i in range(n):
        j = i + pick(rs, k, m - i)
        x = opts[i]
        opts[i] = opts[j]
        opts[j] = x


@helper
def gain(pl, gs, p, t, n):
    """King p takes up to n riches of type t from the supply; returns how many he got."""
    g = min(n, gs[GS_SUP + t])
    if g < 0:
        g = 0
    gs[GS_SUP + t] -= g
    pl[p, P_HAND + t] += g
    return g


@helper
def prestige_leader(pl, NP):
    """The king with the most prestige, or -1 when the most is shared."""
    best = np.int64(-1)
    bp = np.int64(-1)
    tie = False
    for q in range(NP):
        v = pl[q, P_PRES]
        if v > bp:
            bp = v
            best = q
            tie = False
        elif v == bp:
            tie = True
    return -1 if tie else best


@helper
def hand_total(pl, p):
    s = 0
    for t in range(6):
        s += pl[p, P_HAND + t]
    return s


@helper
def add_prestige(pl, p, src, n):
    pl[p, P_PRES] += n
    pl[p, src] += n


@helper_inline
def width(code):
    return 2 if code == PALACE or code == TEMPLE else 1


@helper_inline
def find_space(bld, info, s, code):
    """First space of site s where ``code`` fits (two adjacent empty spaces for a
    palace/temple), or -1."""
    n = info[s, I_SPACES]
    if width(code) == 1:
        for k in range(n):
            if bld[s, k] == EMPTY:
                return k
        return -1
    for k in range(n - 1):
        if bld[s, k] == EMPTY and bld[s, k + 1] == EMPTY:
            return k
    return -1


@helper_inline
def count_code(own, bld, p, code):
    c = 0
    for s in range(own.shape[0]):
        if own[s] == p:
            for k in range(4):
                if bld[s, k] == code:
                    c += 1
    return c


@helper_inline
def count_cities(own, p):
    c = 0
    for s in range(own.shape[0]):
        if own[s] == p:
            c += 1
    return c


@helper_inline
def site_code_count(bld, s, code):
    c = 0
    for k in range(4):
        if bld[s, k] == code:
            c += 1
    return c


@helper_inline
def site_empty(bld, s):
    for k in range(4):
        if bld[s, k] != EMPTY:
            return False
    return True


@helper_inline
def can_afford(hand, R, code):
    """hand: 6 counts.  True when the cost of building ``code`` can be paid from it."""
    b = code - 1
    kind = R[R_CKIND + b]
    if kind >= 0:
        return hand[kind] >= R[R_CN + b]
    tot = 0
    for t in range(6):
        tot += hand[t]
    return tot >= R[R_CANY + b]


@helper_inline
def can_build(own, bld, pl, gs, R, nnb, info, p, s, code, hand):
    """King p may put ``code`` on site s now, paying from ``hand``."""
    if own[s] != p and own[s] != -1:
        return False
    if gs[GS_TILE + (code - 1) // 2] <= 0:
        return False
    if own[s] == -1 and pl[p, P_LARGE] <= 0:
        return False
    if code == MARKET and pl[p, P_SMALL] < 1 + nnb[s]:
        return False
    if find_space(bld, info, s, code) < 0:
        return False
    return can_afford(hand, R, code)


@helper
def place_building(own, bld, sm, pl, gs, nbr, nnb, info, p, s, code):
    """Put ``code`` on the first space where it fits (costs are paid elsewhere)."""
    k = find_space(bld, info, s, code)
    if own[s] == -1:
        own[s] = p
        pl[p, P_LARGE] -= 1
    bld[s, k] = code
    if width(code) == 2:
        bld[s, k + 1] = CONT
    gs[GS_TILE + (code - 1) // 2] -= 1
    if code == MARKET:
        sm[s, p] += 1
        for j in range(nnb[s]):
            sm[nbr[s, j], p] += 1
        pl[p, P_SMALL] -= 1 + nnb[s]
    pl[p, T_BUILT] += 1
    return k


@helper
def remove_building(own, bld, tok, sm, pl, gs, nbr, nnb, s, k):
    """Discard the building on space k of site s with its riches and market controls;
    a site left empty belongs to no one again.  Returns the building code."""
    code = bld[s, k]
    p = own[s]
    bld[s, k] = EMPTY
    if width(code) == 2:
        bld[s, k + 1] = EMPTY
    if tok[s, k] >= 0:
        gs[GS_SUP + tok[s, k]] += 1
        tok[s, k] = -1
    gs[GS_TILE + (code - 1) // 2] += 1
    if code == MARKET:
        sm[s, p] -= 1
        for j in range(nnb[s]):
            sm[nbr[s, j], p] -= 1
        pl[p, P_SMALL] += 1 + nnb[s]
    if site_empty(bld, s):
        own[s] = -1
        pl[p, P_LARGE] += 1
    return code


@helper
def destroy_city(own, bld, tok, sm, pl, gs, nbr, nnb, s):
    n = 0
    for k in range(4):
        c = bld[s, k]
        if c != EMPTY and c != CONT:
            remove_building(own, bld, tok, sm, pl, gs, nbr, nnb, s, k)
            n += 1
    return n


# ======================================================================= transport
@helper_inline
def passable(own, sm, R, s, p):
    """May riches of king p pass through, leave or enter site s (commercial control)?"""
    mine = sm[s, p]
    o = own[s]
    NP = R[R_NP]
    if R[R_CTRL] == CTRL_SUM:
        e = 0
        for q in range(NP):
            if q != p:
                e += sm[s, q]
        if e > mine:
            return False
        if e == mine and o >= 0 and o != p:
            return False
        return True
    for q in range(NP):
        if q != p and sm[s, q] > mine:
            return False
    if o >= 0 and o != p and sm[s, o] >= mine:
        return False
    return True


@helper
def components(own, sm, R, nbr, nnb, p, comp, queue):
    """comp[s]: transport group of site s for king p.  Passable sites joined by paths
    share a label (< S); a blocked site is alone (label S + s)."""
    S = own.shape[0]
    for s in range(S):
        comp[s] = -1 if passable(own, sm, R, s, p) else S + s
    lab = 0
    for s0 in range(S):
        if comp[s0] != -1:
            continue
        comp[s0] = lab
        h = 0
        t = 1
        queue[0] = s0
        while h < t:
            x = queue[h]
            h += 1
            for j in range(nnb[x]):
                y = nbr[x, j]
                if comp[y] == -1:
                    comp[y] = lab
                    queue[t] = y
                    t += 1
        lab += 1


# ======================================================================= deck
@helper
def build_deck(rs, base, ctype, cid, R, deck, tmp, ids, keys):
    """The rulebook's deck: the other cards shuffled into (ball games + 1) piles with a
    ball game between each two, the shuffled Prosperous Katuns on top, the Eclipse in
    the middle.  deck[0] is the top card.  Returns the deck size.

    Both shuffles sort the cards by a key drawn for each card's identity ``cid`` (type *
    64 + copy; ``sim.rng.keyed_shuffle``, purpose DECK), so a deck without some cards
    keeps the others in the same relative order.  Which piles are the larger ones
    (``piles=random``) and the Eclipse's offset (``eclipse_jitter``) come from
    substreams of their own.  ``tmp``, ``ids`` (int64) and ``keys`` (uint64) are scratch."""
    N = ctype.shape[0]
    n = 0
    for c in range(N):  # the other cards
        t = ctype[c]
        if t != K_PROS and t != K_BALL and t != K_ECLIPSE:
            tmp[n] = c
            ids[n] = cid[c]
            n += 1
    keyed_shuffle(tmp, ids, keys, n, base, DECK)
    npros = 0
    for c in range(N):
        if ctype[c] == K_PROS:
            deck[npros] = c
            ids[npros] = cid[c]
            npros += 1
    keyed_shuffle(deck, ids, keys, npros, base, DECK)
    nb = 0
    for c in range(N):
        if ctype[c] == K_BALL:
            nb += 1
    npiles = nb + 1
    pos = npros
    src = 0
    bi = 0
    need = n % npiles   # piles one card larger than the others
    if R[R_PILES] == PILES_RANDOM:
        open_substream(rs, SL_CH, base, P_PILES, 0)
    for k in range(npiles):
        big = 0
        if R[R_PILES] == PILES_RANDOM:
            # which piles are the larger ones: a uniform choice (selection sampling)
            left = npiles - k
            if need > 0 and (need == left or rand_int(rs, SL_CH, left) < need):
                big = 1
                need -= 1
        elif k < need:
            big = 1
        size = n // npiles + big
        for _ in range(size):
            deck[pos] = tmp[src]
            pos += 1
            src += 1
        if k < nb:
            while ctype[bi] != K_BALL:
                bi += 1
            deck[pos] = bi
            bi += 1
            pos += 1
    ecl = -1
    for c in range(N):
        if ctype[c] == K_ECLIPSE:
            ecl = c
    if ecl >= 0:
        mid = pos // 2
        j = R[R_ECLJ]
        if j > 0:
            open_substream(rs, SL_CH, base, P_ECLIPSE, 0)
            mid += rand_int(rs, SL_CH, 2 * j + 1) - j
            mid = min(max(mid, 0), pos)
        for i in range(pos, mid, -1):
            deck[i] = deck[i - 1]
        deck[mid] = ecl
        pos += 1
    return pos


@helper
def draw_layout(rs, base, R, tinfo, info, perm):
    """This game's board: perm[s] is the tile (index in the board file's printed order)
    on land cell s and info[s] its contents.  ``layout=random``: a uniform permutation of
    the file's land tiles over its land cells (Fisher-Yates on the P_LAYOUT substream);
    ``fixed``: the file as printed.  Cells keep their paths; sea cells are not tiles."""
    S = tinfo.shape[0]
    for s in range(S):
        perm[s] = s
    if R[R_LAYOUT] == LAYOUT_RANDOM:
        open_substream(rs, SL_CH, base, P_LAYOUT, 0)
        for i in range(S - 1, 0, -1):
            j = rand_int(rs, SL_CH, i + 1)
            x = perm[i]
            perm[i] = perm[j]
            perm[j] = x
    for s in range(S):
        for f in range(6):
            info[s, f] = tinfo[perm[s], f]


@helper
def layout_hash(info):
    """A 63-bit identifier of the layout: a hash of the tile on each cell, in cell order,
    by its contents (so layouts that differ only by swapping tiles alike are one layout,
    and the same cells with another board file's tiles are another)."""
    h = np.uint64(0)
    for s in range(info.shape[0]):
        code = (info[s, 0] + 8 * info[s, 1] + 64 * info[s, 2] + 128 * info[s, 3]
                + 256 * info[s, 4] + 512 * info[s, 5])
        h = mix64(h + np.uint64(code) + GOLDEN)
    return np.int64(h >> np.uint64(1))


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


@helper_inline
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


@helper_inline
def building_value(own, bld, R, W, nbr, nnb, info, p, s, code, cnt, rl, last, riv_bc, riv_ob,
                   base):
    """Heuristic value of adding ``code`` on site s, given the counts ``cnt``; ``base`` is
    econ() of those counts (the caller computes it once for all codes)."""
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
        v += W[BW_RES] * (0.9 if nR < 2 else 0.25)
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


@helper_inline
def cheapest_held_after(hand, spend, hv):
    for i in range(6):
        t = np.int64(hv[6 + i])
        if hand[t] - spend[t] > 0:
            return t
    return np.int64(-1)


# ======================================================================= building turns
@helper
def pay_any_random(pl, gs, rs, p, n):
    """Random bot: pay n riches of choice, each uniformly among the held types."""
    for _ in range(n):
        k = 0
        for t in range(6):
            if pl[p, P_HAND + t] > 0:
                k += 1
        r = rand_int(rs, 1 + p, k)
        for t in range(6):
            if pl[p, P_HAND + t] > 0:
                if r == 0:
                    pl[p, P_HAND + t] -= 1
                    gs[GS_SUP + t] += 1
                    break
                r -= 1


@helper
def pay_building(pl, gs, rs, R, p, code, is_random, hv):
    b = code - 1
    kind = R[R_CKIND + b]
    if kind >= 0:
        pl[p, P_HAND + kind] -= R[R_CN + b]
        gs[GS_SUP + kind] += R[R_CN + b]
        return
    if is_random == 1:
        pay_any_random(pl, gs, rs, p, R[R_CANY + b])
        return
    for _ in range(R[R_CANY + b]):
        t = cheapest_held(pl[p, P_HAND:P_HAND + 6], hv)
        pl[p, P_HAND + t] -= 1
        gs[GS_SUP + t] += 1


@helper
def random_build_loop(own, bld, sm, pl, gs, rs, R, nbr, nnb, info, p, s, must, opts, hv):
    """Random bot builds on site s: each step picks uniformly among the buildable codes
    (plus 'stop' unless a first building is required)."""
    first = True
    while True:
        n = 0
        if not (first and must == 1):
            opts[n] = 0
            n += 1
        for code in range(1, 9):
            if can_build(own, bld, pl, gs, R, nnb, info, p, s, code, pl[p, P_HAND:P_HAND + 6]):
                opts[n] = code
                n += 1
        if n == 0:
            return
        c = opts[rand_int(rs, 1 + p, n)]
        if c == 0:
            return
        pay_building(pl, gs, rs, R, p, c, ONE, hv)
        place_building(own, bld, sm, pl, gs, nbr, nnb, info, p, s, c)
        first = False


@helper
def plan_site(own, bld, pl, gs, rs, R, W, nbr, nnb, info, p, s, hand, cnt, hv, rl, last,
              riv_bc, riv_ob, plan, spend):
    """Heuristic: greedy building plan on site s with ``hand`` (already taxed).  Fills
    plan[0..n-1] with codes; returns (value, n).  hand and cnt are scratch (restored).
    Each step takes the building of highest value above 0.05 (equal values: uniformly,
    on the bot's stream)."""
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
            v = building_value(own, bld, R, W, nbr, nnb, info, p, s, code, cnt, rl, last,
                               riv_bc, riv_ob, base)
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
def spend_defence_obsidian(own, bld, tok, gs, rs, nbr, nnb, b, n, opts):
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


@helper
def resolve_attack(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par,
                   p, a, b, k, o, opts, hv):
    """King p attacks city b from city a with k garrisons, spending o obsidian of them.
    Returns buildings destroyed."""
    q = own[b]
    pl[p, T_WARS] += 1
    pl[q, T_DEF] += 1
    # attacker's obsidian (from garrisons holding it, first spaces first)
    left = o
    for kk in range(4):
        if left > 0 and bld[a, kk] == GARRISON and tok[a, kk] == OBSID:
            tok[a, kk] = -1
            gs[GS_SUP + OBSID] += 1
            left -= 1
    # the defender decides on his obsidian before the dice
    avail = defence_obsidian(own, bld, tok, nbr, nnb, b)
    base = defence_base(own, bld, nbr, nnb, b)
    if avail > 0:
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
        spend_defence_obsidian(own, bld, tok, gs, rs, nbr, nnb, b, od, opts)
    else:
        od = 0
    # the dice of this war: a substream of its own, indexed by the war's number in the game
    open_substream(rs, SL_CH, rs[SL_BASE], DICE, gs[GS_WARNO])
    gs[GS_WARNO] += 1
    succ = 0
    skulls = 0
    for _ in range(k):
        f = R[R_FACE + rand_int(rs, SL_CH, R[R_NFACES])]
        if f < 0:
            skulls += 1
        else:
            succ += f
    # skulls: the attacker loses garrisons of his choice in the attacking city
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
        pl[p, T_GLOST] += 1
    pts = succ + o - (base + od)
    destroyed = 0
    if pts > 0:
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
                    placed = True
                    break
            if not placed:
                break
    return destroyed


PRIORITY = np.array([0, 2, 7, 5, 6, 8, 1, 4, 3, 0], np.int64)


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
def take_tokens(own, bld, tok, gs, rs, p, t, n, opts):
    """King p pays n riches of type t from his reserves and garrisons: which tokens,
    uniformly among those holding it (his bot's stream)."""
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
def lose_buildings(own, bld, tok, sm, pl, gs, rs, nbr, nnb, p, code, n, is_random, opts):
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
def catastrophe(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par, p, kt, opts):
    """King p faces catastrophe kt: pay from his Mayas' reserves/garrisons, or suffer."""
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
    if pay:
        take_tokens(own, bld, tok, gs, rs, p, pt, pn, opts)
        pl[p, T_CPAID] += 1
        return
    pl[p, T_CSUFF] += 1
    is_random = np.int64(1) if bot_ids[p] == BOT_RANDOM else np.int64(0)
    if kt == K_VOLCANO or kt == K_TIDAL:
        col = I_VOLC if kt == K_VOLCANO else I_SEA
        for s in range(own.shape[0]):
            if own[s] == p and info[s, col] == 1:
                pl[p, T_KLOST] += destroy_city(own, bld, tok, sm, pl, gs, nbr, nnb, s)
    elif kt == K_DECAD:
        pl[p, T_KLOST] += lose_buildings(own, bld, tok, sm, pl, gs, rs, nbr, nnb, p, BALLCOURT, ONE,
                                         is_random, opts)
        pl[p, T_KLOST] += lose_buildings(own, bld, tok, sm, pl, gs, rs, nbr, nnb, p, OBSERV, ONE,
                                         is_random, opts)
    else:
        pl[p, T_KLOST] += lose_buildings(own, bld, tok, sm, pl, gs, rs, nbr, nnb, p, code, cnt,
                                         is_random, opts)


# ======================================================================= other Katuns
@helper
def rank_award(counts, NP, first_pts, second_pts, award):
    """The ranking rule shared by divination and ball games.  counts[p] >= 1 to rank.
    award[p] = first_pts[p] for a sole first, first_pts[p] // 2 for each of two tied
    firsts (no second place then), second_pts[p] for a sole second; 0 otherwise."""
    for q in range(NP):
        award[q] = 0
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
                award[q] = first_pts[q]
            elif n2 == 1 and counts[q] == m2:
                award[q] = second_pts[q]
    elif n1 == 2:
        for q in range(NP):
            if counts[q] == m1:
                award[q] = first_pts[q] // 2


@helper
def ball_game(own, bld, pl, R, tmp):
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


@helper
def divination(own, bld, pl, gs, R, rfirst, tmp):
    """Observatories: a sole leader sees NJ of the face-down cards, a sole second one;
    two tied leaders see one each; other ties see nothing."""
    NP = R[R_NP]
    counts = tmp[0:4]
    for q in range(NP):
        counts[q] = count_code(own, bld, q, OBSERV)
        gs[GS_KNOWN + q] = 0
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
    ns = gs[GS_NSLOT]
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
                for k in range(min(NP, ns)):
                    gs[GS_KNOWN + q] |= 1 << k
                pl[q, T_DIV] += min(NP, ns)
            elif n2 == 1 and counts[q] == m2:
                gs[GS_KNOWN + q] |= 1 << (ns - 1)
                pl[q, T_DIV] += 1
    elif n1 == 2:
        j = 0
        for i in range(NP):
            q = (rfirst + i) % NP
            if counts[q] == m1:
                kk = min(j, ns - 1)
                gs[GS_KNOWN + q] |= 1 << kk
                pl[q, T_DIV] += 1
                j += 1


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
def cenote_cult(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par, p,
                comp, queue, opts):
    """King p's Mayas bring one riches from their reserves/garrisons to each cenote the
    transport rules let it reach; each scores cenote_factor times its temple points."""
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


@helper
def turn_card(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain, cnopt,
              bot_ids, bot_par, p, slot, comp, queue, opts, tmp, hv):
    """King p turns the face-down card in ``slot`` and applies it."""
    c = gs[GS_SLOT + slot]
    gs[GS_SLOT + slot] = -1
    gs[GS_LEFT] -= 1
    kt = ctype[c]
    gs[GS_SEEN + kt] += 1
    pl[p, P_KAT + kt] += 1
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
                bv = -1e18
                ties = np.int64(0)
                for i in range(no):
                    v = gain_value(cgain[c, i], hv, bot_par[p])
                    for t in range(6):  # what the supply cannot give is worth nothing
                        if cgain[c, i, t] > gs[GS_SUP + t]:
                            v -= (cgain[c, i, t] - gs[GS_SUP + t]) * hv[t]
                    ok, bv, ties = take(rs, 1 + p, v, bv, ties)
                    if ok:
                        j = i
        apply_gain(pl, gs, p, cgain[c, j])
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
                t = opts[0]
                bv = -1e18
                ties = np.int64(0)
                for i in range(n):
                    ok, bv, ties = take(rs, 1 + p, hv[opts[i]], bv, ties)
                    if ok:
                        t = opts[i]
            gain(pl, gs, p, t, ONE)
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
                x = opts[0]
                bv = -1e18
                ties = np.int64(0)
                for i in range(n):
                    q = opts[i] // 8
                    v = hv[opts[i] % 8] + 0.01 * pl[q, P_PRES]
                    ok, bv, ties = take(rs, 1 + p, v, bv, ties)
                    if ok:
                        x = opts[i]
            q = x // 8
            t = x % 8
            pl[q, P_HAND + t] -= 1
            pl[p, P_HAND + t] += 1
    elif kt == K_CENOTE:
        cenote_cult(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par, p,
                    comp, queue, opts)
    elif kt == K_BALL:
        gs[GS_BALLS] += 1
        ball_game(own, bld, pl, R, tmp)
    elif kt == K_ECLIPSE:
        gs[GS_ECL] = gs[GS_ROUND]
    else:
        if R[R_HIT] == HIT_ALL and kt != K_VOLCANO:   # the Volcano's own text: drawer only
            for i in range(NP):
                catastrophe(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par,
                            (p + i) % NP, kt, opts)
        else:
            catastrophe(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par,
                        p, kt, opts)


# ======================================================================= end of round
@helper
def production(own, bld, tok, gs, R, info, rfirst):
    NP = R[R_NP]
    for i in range(NP):
        p = (rfirst + i) % NP
        for s in range(own.shape[0]):
            if own[s] != p:
                continue
            if R[R_FOREST] == 1 and info[s, I_FOREST] == 0:
                continue
            c = info[s, I_COLOUR]
            for k in range(4):
                if bld[s, k] == VILLAGE and gs[GS_SUP + c] > 0:
                    tok[s, k] = c
                    gs[GS_SUP + c] -= 1


@helper_inline
def dist_values(W, R, gs, own, bld, nbr, nnb, p, val, last, hv):
    """val[t, kind]: heuristic worth of routing one riches of type t to each sink kind."""
    hand_values(W, R, gs, hv)
    for t in range(6):
        val[t, DK_TEMPLE] = W[BW_PRES] * R[R_PTS + t]
        val[t, DK_PALACE] = hv[t] * (1.0 if last else W[BW_PALACE])
        val[t, DK_GARR] = -1.0
        if last:
            val[t, DK_RESERVE] = 0.0
        else:
            ins = 1.0 if (t == MAIZE or t == PRIS) else 0.6
            val[t, DK_RESERVE] = W[BW_RES] * ins + 0.2 * max(R[R_PTS + t], hv[t])
        val[t, DK_LOSE] = 0.0
    val[OBSID, DK_GARR] = 0.0 if last else 0.9 * W[BW_WAR] + 0.2


@helper
def solve_assignment(cnt, cap, val, x, isc, fsc):
    """Route cnt[t] riches of each type t to sink kinds with capacities cap[kind]
    (cap[LOSE] unbounded), maximising sum val[t, kind] * x[t, kind] (val < 0: not
    allowed).  Exact: successive shortest paths (Bellman-Ford) on the tiny
    type -> kind network, i.e. a min-cost flow (path costs within 1e-12 are equal: float
    rounding).  Among routings of equal value the lower type index is served first
    (solve_group breaks those ties at random)."""
    x[:, :] = 0
    left = isc[0:6]
    free = isc[6:11]
    one = -1
    for t in range(6):
        left[t] = cnt[t]
        if cnt[t] > 0:
            one = t if one == -1 else 6
    for k in range(5):
        free[k] = cap[k]
    if one >= 0 and one < 6:
        # one riches type: the shortest paths are its kinds by value, so fill them best
        # first (the same choices, ties to the lower kind, and the same x as below)
        t = one
        while left[t] > 0:
            bk = -1
            bd = 1e17
            for k in range(5):
                if free[k] > 0 and val[t, k] >= 0.0 and -val[t, k] < bd - 1e-12:
                    bd = -val[t, k]
                    bk = k
            if bk < 0:
                break
            m = min(free[bk], left[t])
            x[t, bk] += m
            free[bk] -= m
            left[t] -= m
        return
    dt = fsc[0:6]
    dk = fsc[6:11]
    pt = isc[11:17]   # predecessor kind of a type (-1: from the source)
    pk = isc[17:22]   # predecessor type of a kind
    while True:
        for t in range(6):
            dt[t] = 0.0 if left[t] > 0 else 1e18
            pt[t] = -1
        for k in range(5):
            dk[k] = 1e18
            pk[k] = -1
        for _ in range(12):
            changed = False
            for t in range(6):
                if dt[t] >= 1e17:
                    continue
                for k in range(5):
                    if val[t, k] < 0.0:
                        continue
                    d = dt[t] - val[t, k]
                    if d < dk[k] - 1e-12:
                        dk[k] = d
                        pk[k] = t
                        changed = True
            for k in range(5):
                if dk[k] >= 1e17:
                    continue
                for t in range(6):
                    if x[t, k] > 0:
                        d = dk[k] + val[t, k]
                        if d < dt[t] - 1e-12:
                            dt[t] = d
                            pt[t] = k
                            changed = True
            if not changed:
                break
        bk = -1
        bd = 1e17
        for k in range(5):
            if free[k] > 0 and dk[k] < bd - 1e-12:
                bd = dk[k]
                bk = k
        if bk < 0:
            break
        # bottleneck along the path sink <- bk <- t <- k' <- t' ... <- source
        m = free[bk]
        k = bk
        while True:
            t = pk[k]
            if pt[t] < 0:
                if left[t] < m:
                    m = left[t]
                break
            k = pt[t]
            if x[t, k] < m:
                m = x[t, k]
        free[bk] -= m
        k = bk
        while True:
            t = pk[k]
            x[t, k] += m
            if pt[t] < 0:
                left[t] -= m
                break
            k = pt[t]
            x[t, k] -= m


@helper_inline
def same_row(val, cap, t, u):
    """Riches types t and u are worth the same on every sink kind with room."""
    for k in range(5):
        if cap[k] > 0 and cmp_tie(val[u, k], val[t, k]) != 0:
            return False
    return True


@helper
def solve_group(cnt, cap, val, x, isc, fsc, rs, k, scr):
    """solve_assignment with the ties between riches types broken uniformly on stream k.
    The solver serves the lower type index first among routings of equal value; types of
    the group that are worth the same on every kind with room are interchangeable to it,
    so each such class is renumbered in a random order for the solve (slot i holds type
    order[i]).  Draws nothing when no two types of the group are alike.  ``scr`` (int64,
    54) and fsc[32:62] are scratch."""
    order = scr[0:6]
    memb = scr[6:12]
    shuf = scr[12:18]
    xs = scr[18:48]
    cs = scr[48:54]
    present = 0
    for t in range(6):
        order[t] = t
        if cnt[t] > 0:
            present += 1
    if present < 2:
        solve_assignment(cnt, cap, val, x, isc, fsc[0:16])
        return
    done = 0
    moved = False
    for t in range(6):
        if cnt[t] == 0 or (done >> t) & 1:
            continue
        m = 0
        for u in range(t, 6):
            if cnt[u] > 0 and (done >> u) & 1 == 0 and same_row(val, cap, t, u):
                memb[m] = u
                shuf[m] = u
                m += 1
                done |= 1 << u
        for a in range(m - 1, 0, -1):
            j = rand_int(rs, k, a + 1)
            y = shuf[a]
            shuf[a] = shuf[j]
            shuf[j] = y
        for i in range(m):
            order[memb[i]] = shuf[i]
            if shuf[i] != memb[i]:
                moved = True
    if not moved:
        solve_assignment(cnt, cap, val, x, isc, fsc[0:16])
        return
    vt = fsc[32:62]
    for t in range(6):
        for kk in range(5):
            vt[t * 5 + kk] = val[t, kk]
    for i in range(6):
        cs[i] = cnt[order[i]]
        for kk in range(5):
            val[i, kk] = vt[order[i] * 5 + kk]
    solve_assignment(cs, cap, val, x, isc, fsc[0:16])
    for i in range(6):
        for kk in range(5):
            xs[order[i] * 5 + kk] = x[i, kk]
    for t in range(6):
        for kk in range(5):
            val[t, kk] = vt[t * 5 + kk]
            x[t, kk] = xs[t * 5 + kk]


@helper
def distribute(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, bot_ids, bot_par, p, last,
               comp, queue, items, sinks, fsc, val, x):
    """King p routes every riches on his buildings (6 - DISTRIBUTION).  Items are taken
    site by site, space by space; sinks are the spaces of temples (2 each), palaces (2),
    garrisons (1, obsidian only) and reserves (1) his transport groups reach."""
    S = own.shape[0]
    components(own, sm, R, nbr, nnb, p, comp, queue)
    ni = 0
    ns = 0
    for s in range(S):
        if own[s] != p:
            continue
        for k in range(4):
            c = bld[s, k]
            if tok[s, k] >= 0:
                items[ni, 0] = tok[s, k]
                items[ni, 1] = comp[s]
                ni += 1
                tok[s, k] = -1
            if c == TEMPLE or c == PALACE or c == GARRISON or c == RESERVE:
                sinks[ns, 0] = s
                sinks[ns, 1] = k
                sinks[ns, 2] = comp[s]
                if c == TEMPLE:
                    sinks[ns, 3] = DK_TEMPLE
                    sinks[ns, 4] = 2
                elif c == PALACE:
                    sinks[ns, 3] = DK_PALACE
                    sinks[ns, 4] = 2
                elif c == GARRISON:
                    sinks[ns, 3] = DK_GARR
                    sinks[ns, 4] = 1
                else:
                    sinks[ns, 3] = DK_RESERVE
                    sinks[ns, 4] = 1
                ns += 1
    if ni == 0:
        return
    if bot_ids[p] == BOT_RANDOM:
        opts = queue[S:S + 8]
        for i in range(ni):
            t = items[i, 0]
            g = items[i, 1]
            n = 1
            opts[0] = DK_LOSE
            for kind in range(4):
                if kind == DK_GARR and t != OBSID:
                    continue
                for j in range(ns):
                    if sinks[j, 2] == g and sinks[j, 3] == kind and sinks[j, 4] > 0:
                        opts[n] = kind
                        n += 1
                        break
            kind = opts[rand_int(rs, 1 + p, n)]
            route(own, tok, pl, gs, rs, R, p, t, g, kind, sinks, ns)
        return
    dist_values(bot_par[p], R, gs, own, bld, nbr, nnb, p, val, last, fsc[20:26])
    cnt = queue[S + 16:S + 22]
    cap = queue[S + 24:S + 29]
    isc = queue[S + 32:S + 56]
    scr = queue[S + 56:S + 110]
    for i in range(ni):
        g = items[i, 1]
        if g < 0:
            continue  # group already done
        cnt[:] = 0
        cap[:] = 0
        cap[DK_LOSE] = 1 << 30
        for j in range(i, ni):
            if items[j, 1] == g:
                cnt[items[j, 0]] += 1
        room = 0
        for j in range(ns):
            if sinks[j, 2] == g:
                cap[sinks[j, 3]] += sinks[j, 4]
                room += sinks[j, 4]
        if room == 0:
            # nowhere to go: every riches of the group is lost (what the solver gives)
            x[:, :] = 0
            for t in range(6):
                x[t, DK_LOSE] = cnt[t]
        else:
            solve_group(cnt, cap, val, x, isc, fsc, rs, 1 + p, scr)
        for j in range(i, ni):
            if items[j, 1] == g:
                t = items[j, 0]
                for kind in range(5):
                    if x[t, kind] > 0:
                        x[t, kind] -= 1
                        route(own, tok, pl, gs, rs, R, p, t, g, kind, sinks, ns)
                        break
                items[j, 1] = -1


@helper_inline
def route(own, tok, pl, gs, rs, R, p, t, g, kind, sinks, ns):
    """One riches of type t of group g to a sink of ``kind``.  A temple or palace: the
    first with room (where the riches is used changes nothing).  A reserve or garrison,
    where the token stays: uniformly among those of the group with room (king p's
    stream; no draw when there is one)."""
    if kind == DK_LOSE:
        gs[GS_SUP + t] += 1
        return
    j0 = 0
    if kind == DK_RESERVE or kind == DK_GARR:
        m = 0
        for j in range(ns):
            if sinks[j, 2] == g and sinks[j, 3] == kind and sinks[j, 4] > 0:
                m += 1
        j0 = pick(rs, 1 + p, m)
    for j in range(ns):
        if sinks[j, 2] == g and sinks[j, 3] == kind and sinks[j, 4] > 0:
            if j0 > 0:
                j0 -= 1
                continue
            sinks[j, 4] -= 1
            if kind == DK_TEMPLE:
                add_prestige(pl, p, P_CER, R[R_PTS + t])
                gs[GS_SUP + t] += 1
            elif kind == DK_PALACE:
                pl[p, P_HAND + t] += 1
            else:
                tok[sinks[j, 0], sinks[j, 1]] = t
            return


# ======================================================================= heuristic turn
@helper_inline
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


@helper_inline
def card_values(R, W, p, hv, rl, cnt, per, onb, scan, tmp, cv):
    """cv[kt]: heuristic worth to king p of turning a card of each type now, from the
    board scan (``cnt``, ``per``, ``onb`` and ``scan`` = scan_board's result)."""
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
        if hit == 0:
            cv[kt] = 0.0
            continue
        if onb[pt] >= pn:
            keep = pn * (1.0 + 0.1 * R[R_PTS + pt])
            if keep < loss:
                loss = keep
        cv[kt] = -loss * W[BW_RISK]


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
def heuristic_turn(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain, cnopt,
                   bot_ids, bot_par, p, comp, queue, opts, tmp, hv, cnt, plan, spend, hand, fsc):
    """Heuristic bot: compare turning a card, building (best greedy plan over the
    candidate sites), attacking and passing; play the best.  Every choice among equal
    values (card slots, sites, buildings, the turn's options, payment types) is uniform
    on the bot's own stream (slot 1 + p)."""
    W = bot_par[p]
    NP = R[R_NP]
    S = own.shape[0]
    bs = 1 + p
    hand_values(W, R, gs, hv)
    rl = rounds_left(gs, R)
    last = gs[GS_BALLS] >= R[R_BALLS]
    # --- card
    unseen = 0
    known = gs[GS_KNOWN + p]
    for kt in range(NK):
        tmp[16 + kt] = R[R_KCNT + kt] - gs[GS_SEEN + kt]
    for k in range(gs[GS_NSLOT]):
        c = gs[GS_SLOT + k]
        if c >= 0 and (known >> k) & 1:
            tmp[16 + ctype[c]] -= 1
    cv = fsc[0:NK]
    per = tmp[0:12]
    scan = scan_board(own, bld, tok, info, R, W, p, rl, cnt, per, tmp[56:62], fsc[40:50])
    card_values(R, W, p, hv, rl, cnt, per, tmp[56:62], scan, tmp[40:48], cv)
    ev = 0.0
    for kt in range(NK):
        if tmp[16 + kt] > 0:
            ev += tmp[16 + kt] * cv[kt]
            unseen += tmp[16 + kt]
    ev = ev / unseen if unseen > 0 else 0.0
    card_slot = np.int64(-1)
    card_v = -1e18
    ties = np.int64(0)
    for k in range(gs[GS_NSLOT]):
        c = gs[GS_SLOT + k]
        if c < 0:
            continue
        if (known >> k) & 1:
            v = cv[ctype[c]]
        else:
            v = ev
        ok, card_v, ties = take(rs, bs, v, card_v, ties)
        if ok:
            card_slot = k
    tot = hand_total(pl, p)
    if tot == 0:
        turn_card(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain, cnopt,
                  bot_ids, bot_par, p, card_slot, comp, queue, opts, tmp, hv)
        return
    # --- the turn's options, one argmax with uniform ties: card, pass, plans, attacks
    pay_sequence(rs, bs, hv, W, NBW + 2 * S, last)   # the order of payment, ties drawn
    for t in range(6):
        hand[t] = pl[p, P_HAND + t]
    tax_t = cheapest_held(hand, hv)
    tax_v = hv[tax_t]
    best_kind = 0  # 0 card, 1 pass, 2 build, 3 attack
    best_v = card_v
    ties = np.int64(1)
    ok, best_v, ties = take(rs, bs, -tax_v, best_v, ties)
    if ok:
        best_kind = 1
    # --- building
    hand[tax_t] -= 1
    # cnt still holds p's counts and per every king's (scan_board above): rivals' best
    riv_bc = np.int64(0)
    riv_ob = np.int64(0)
    for q in range(NP):
        if q != p and per[q] > riv_bc:
            riv_bc = per[q]
        if q != p and per[4 + q] > riv_ob:
            riv_ob = per[4 + q]
    bplan = opts[40:44]
    nbplan = 0
    best_site = np.int64(-1)
    amask = afford_mask(hand, R) if tot >= 2 else 0
    if amask != 0:
        # first-building values that do not depend on the site, once per turn
        fv = fsc[20:29]
        base = econ(cnt[0:5], cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], R, W, last)
        for code in range(1, 9):
            fv[code] = -cost_value(hand, hv, R, code, spend)
            if code != VILLAGE and code != GARRISON and code != MARKET:
                fv[code] += building_value(own, bld, R, W, nbr, nnb, info, p, 0, code, cnt, rl,
                                           last, riv_bc, riv_ob, base)
        vill = fsc[30:35]
        for c in range(5):
            cnt[c] += 1
            vill[c] = (econ(cnt[0:5], cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], R, W,
                            last) - base) * rl * W[BW_BUILD]
            cnt[c] -= 1
        # screen every site on its best first building (sv[s]), plan fully on the best
        # (and the second best with plans=2)
        sv = fsc[64:64 + S]
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
                        v = fv[code] + building_value(own, bld, R, W, nbr, nnb, info, p, s, code,
                                                      cnt, rl, last, riv_bc, riv_ob, 0.0)
                    else:
                        v = fv[code]
                    if v > bvs:
                        bvs = v
            sv[s] = bvs
            if bvs > -1e18:   # the best site so far (top_site's scan, done in this pass)
                ok, v1, t1 = take(rs, bs, bvs, v1, t1)
                if ok:
                    s1 = np.int64(s)
        s2 = top_site(sv, s1, rs, bs) if W[BW_PLANS] >= 2.0 and s1 >= 0 else np.int64(-1)
        for i in range(2 if W[BW_PLANS] >= 2.0 else 1):
            s = s1 if i == 0 else s2
            if s < 0:
                continue
            v, n = plan_site(own, bld, pl, gs, rs, R, W, nbr, nnb, info, p, np.int64(s), hand,
                             cnt, hv, rl, last, riv_bc, riv_ob, plan, spend)
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
    mean, psk = die_stats(R)
    ba = np.int64(-1)
    bb = np.int64(-1)
    bo = np.int64(0)
    bk = np.int64(0)
    for a in range(S if cnt[5 + GARRISON] > 0 else 0):   # no garrison, no attack
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
                best_kind = 3
                ba = a
                bb = b
                bk = g
                bo = oa
    if best_kind == 0:
        turn_card(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain, cnopt,
                  bot_ids, bot_par, p, card_slot, comp, queue, opts, tmp, hv)
        return
    pl[p, P_HAND + tax_t] -= 1
    gs[GS_SUP + tax_t] += 1
    if best_kind == 1:
        pl[p, T_PASS] += 1
        return
    if best_kind == 2:
        # the plan found above (the tax is paid as assumed)
        build_plan(own, bld, sm, pl, gs, rs, R, nbr, nnb, info, p, best_site, bplan, nbplan, hv)
        return
    resolve_attack(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par,
                   p, ba, bb, bk, bo, opts, hv)
    if own[bb] == -1:
        heuristic_build(own, bld, pl, gs, rs, R, W, nbr, nnb, info, p, bb, sm, cnt, hv,
                        rl, last, riv_bc, riv_ob, plan, spend, hand)


@helper
def heuristic_build(own, bld, pl, gs, rs, R, W, nbr, nnb, info, p, s, sm, cnt, hv, rl, last,
                    riv_bc, riv_ob, plan, spend, hand):
    for t in range(6):
        hand[t] = pl[p, P_HAND + t]
    player_counts(own, bld, info, R, p, cnt)
    v, n = plan_site(own, bld, pl, gs, rs, R, W, nbr, nnb, info, p, s, hand, cnt, hv, rl, last,
                     riv_bc, riv_ob, plan, spend)
    build_plan(own, bld, sm, pl, gs, rs, R, nbr, nnb, info, p, s, plan, n, hv)


@helper
def build_plan(own, bld, sm, pl, gs, rs, R, nbr, nnb, info, p, s, plan, n, hv):
    """Build plan[0..n-1] on site s, paying as the heuristic pays, while it can."""
    for i in range(n):
        c = plan[i]
        if not can_build(own, bld, pl, gs, R, nnb, info, p, s, c, pl[p, P_HAND:P_HAND + 6]):
            break
        pay_building(pl, gs, rs, R, p, c, ZERO, hv)
        place_building(own, bld, sm, pl, gs, nbr, nnb, info, p, s, c)


# ======================================================================= random turn
@helper_inline
def afford_mask(hand, R):
    """Bit mask (bit = code) of the buildings whose cost ``hand`` covers."""
    m = 0
    for code in range(1, 9):
        if can_afford(hand, R, code):
            m |= 1 << code
    return m


@helper_inline
def tile_mask(gs):
    """Bit mask (bit = code) of the buildings whose tile stack is not empty."""
    m = 0
    for i in range(4):   # tile stack i holds codes 2i+1 and 2i+2
        if gs[GS_TILE + i] > 0:
            m |= 3 << (2 * i + 1)
    return m


@helper_inline
def fit_mask(own, bld, pl, gs, nnb, info, p, s):
    """Bit mask of the buildings king p may put on site s now, costs aside."""
    if own[s] != p and own[s] != -1:
        return 0
    if own[s] == -1 and pl[p, P_LARGE] <= 0:
        return 0
    one = True
    two = True   # a free site is empty and has at least two spaces
    if own[s] == p:
        n = info[s, I_SPACES]
        one = False
        two = False
        for k in range(n):
            if bld[s, k] == EMPTY:
                one = True
                if k + 1 < n and bld[s, k + 1] == EMPTY:
                    two = True
        if not one:
            return 0
    m = tile_mask(gs)
    if not two:
        m &= ~((1 << PALACE) | (1 << TEMPLE))
    if pl[p, P_SMALL] < 1 + nnb[s]:
        m &= ~(1 << MARKET)
    return m


@helper
def site_buildable(own, bld, pl, gs, R, nnb, info, p, s, hand):
    return (fit_mask(own, bld, pl, gs, nnb, info, p, s) & afford_mask(hand, R)) != 0


@helper
def random_turn(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain, cnopt,
                bot_ids, bot_par, p, comp, queue, opts, tmp, hv, hand):
    """Uniform over the turn's options: turn a card; pay and pass; pay and build on a
    site (one option per site); pay and attack (one option per own city and enemy
    neighbour).  Details are then drawn uniformly too (see RULES.md, Bots)."""
    S = own.shape[0]
    tot = hand_total(pl, p)
    acts = queue  # reuse: codes 0 card, 1 pass, 2+s build, 1000+a*64+b attack
    n = 0
    acts[n] = 0
    n += 1
    if tot >= 1:
        acts[n] = 1
        n += 1
        for t in range(6):
            hand[t] = pl[p, P_HAND + t]
        # codes affordable after paying the tax with some held type (a bit mask)
        amask = 0
        for t in range(6):
            if hand[t] > 0:
                hand[t] -= 1
                amask |= afford_mask(hand, R)
                hand[t] += 1
        if amask != 0:
            # a free site takes any building whose tiles are left (market: pyramids too)
            free_m = 0
            if pl[p, P_LARGE] > 0:
                free_m = tile_mask(gs) & amask
            for s in range(S):
                if own[s] == -1:
                    m = free_m
                    if pl[p, P_SMALL] < 1 + nnb[s]:
                        m &= ~(1 << MARKET)
                    if m:
                        acts[n] = 2 + s
                        n += 1
                elif own[s] == p:
                    if fit_mask(own, bld, pl, gs, nnb, info, p, s) & amask:
                        acts[n] = 2 + s
                        n += 1
        for a in range(S):
            if own[a] != p or site_code_count(bld, a, GARRISON) == 0:
                continue
            for j in range(nnb[a]):
                b = nbr[a, j]
                if own[b] >= 0 and own[b] != p:
                    acts[n] = 1000 + a * 64 + b
                    n += 1
    act = acts[rand_int(rs, 1 + p, n)]
    if act == 0:
        m = 0
        for k in range(gs[GS_NSLOT]):
            if gs[GS_SLOT + k] >= 0:
                opts[m] = k
                m += 1
        slot = opts[rand_int(rs, 1 + p, m)]
        turn_card(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, ctype, cgain, cnopt,
                  bot_ids, bot_par, p, slot, comp, queue, opts, tmp, hv)
        return
    if act == 1:
        pay_any_random(pl, gs, rs, p, ONE)
        pl[p, T_PASS] += 1
        return
    if act < 1000:
        s = act - 2
        # the tax: uniformly among the held types that still leave a building possible
        m = 0
        for t in range(6):
            if pl[p, P_HAND + t] > 0:
                for u in range(6):
                    hand[u] = pl[p, P_HAND + u]
                hand[t] -= 1
                if site_buildable(own, bld, pl, gs, R, nnb, info, p, s, hand):
                    opts[m] = t
                    m += 1
        t = opts[rand_int(rs, 1 + p, m)]
        pl[p, P_HAND + t] -= 1
        gs[GS_SUP + t] += 1
        random_build_loop(own, bld, sm, pl, gs, rs, R, nbr, nnb, info, p, s, ONE, opts, hv)
        return
    a = (act - 1000) // 64
    b = (act - 1000) % 64
    pay_any_random(pl, gs, rs, p, ONE)
    g = site_code_count(bld, a, GARRISON)
    k = 1 + rand_int(rs, 1 + p, g)
    ob = 0
    for kk in range(4):
        if bld[a, kk] == GARRISON and tok[a, kk] == OBSID:
            ob += 1
    omax = min(k, ob)
    o = rand_int(rs, 1 + p, omax + 1)
    resolve_attack(own, bld, tok, sm, pl, gs, rs, R, nbr, nnb, info, bot_ids, bot_par,
                   p, a, b, k, o, opts, hv)
    if own[b] == -1:
        random_build_loop(own, bld, sm, pl, gs, rs, R, nbr, nnb, info, p, b, ZERO, opts, hv)


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
