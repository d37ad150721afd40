"""Game Setup: the board (uniform, or the rulebook's Alternative Setup) and the task cards.

Chance (``sim/rng.py``): the board set-up (uniform rejection sampling, or the
Alternative Setup's drawn blocks) reads the substream (SETUP, ``SUB_BOARD``), held in
slot ``CH`` of the streams array; the task cards are dealt in the order of keys drawn per
colour (``item_key(base, DECK, colour)``, a keyed shuffle: the colour set aside at the
centre takes no other colour's place with it).  Slot ``1 + s`` is seat s's bot stream.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_inline, popcount
from ...record import rec
from ...rng import DECK, SETUP, game_base, keyed_shuffle, open_substream, rand_int, seed_streams
from .state import (BOT_RANDOM, CH, EV_BLOCK, EV_BOARD, EV_PLACE, NEG, R_BHI, R_BLO, R_CENTRE,
                    R_CYC, R_E, R_EA, R_EB, R_L, R_N, R_NCYC, R_P, SUB_BOARD,
                    X_ALLOWED, X_CARDS, X_COL, X_DP, X_PC, X_REM, X_TIES,
                    X_USED, nib, refresh_cuts)


@helper_inline
def seed_game(rs, seed, g):
    """The streams of game ``g``: ``rs[1 + s]`` seat s's bot; ``rs[CH]`` at the start of
    the board set-up's substream (SETUP, SUB_BOARD)."""
    seed_streams(rs, seed, g)
    open_substream(rs, CH, game_base(seed, g), SETUP, SUB_BOARD)


# ------------------------------------------------------------------ uniform set-up
@helper
def count_assignments(allowed, n, dp, pc):
    """Ways to give towers 0..n-1 distinct colours, tower i from ``allowed[i]`` (a bit mask).

    ``dp[mask]`` = ways to give the colours of ``mask`` to towers 0..|mask|-1 (``pc``:
    popcount table); the count (a permanent) is ``dp[full]``.  ``sample_assignment``
    reads the table back.
    """
    dp[0] = 1
    for mask in range(1, 1 << n):
        m = mask & allowed[pc[mask] - 1]
        s = 0
        for c in range(n):  # branch-free: a fixed trip count predicts well
            s += dp[mask ^ (1 << c)] * ((m >> c) & 1)
        dp[mask] = s
    return dp[(1 << n) - 1]


@helper_inline
def sample_assignment(allowed, n, dp, rs, out):
    """Uniform draw among the assignments counted by ``count_assignments`` (chance stream):
    tower n-1 first, down to tower 0; one draw per tower, colours scanned ascending."""
    mask = (1 << n) - 1
    for i in range(n - 1, -1, -1):
        r = rand_int(rs, CH, dp[mask])
        m = mask & allowed[i]
        chosen = -1
        for c in range(n):
            if (m >> c) & 1:
                w = dp[mask ^ (1 << c)]
                if r < w:
                    chosen = c
                    break
                r -= w
        out[i] = chosen
        mask ^= 1 << chosen


@helper
def sample_row_by_rejection(n, used, rs, rem, out):
    """Uniform row avoiding ``used[t]`` in tower t: deal a uniform permutation tower by
    tower (tower t takes rem[j], j uniform below n - t, and rem[j] is replaced by the
    last remaining colour); start the row again as soon as a tower gets a colour it holds."""
    while True:
        for c in range(n):
            rem[c] = c
        ok = True
        for t in range(n):
            j = rand_int(rs, CH, n - t)
            c = rem[j]
            rem[j] = rem[n - t - 1]
            if (used[t] >> c) & 1:
                ok = False
                break
            out[t] = c
        if ok:
            return


@helper
def cycle_code(used0, col1, n, seen):
    """Cycle type of the permutation taking each tower's level-1 colour to its level-2
    colour, as a histogram of cycle lengths in nibbles (length l counts at bits 4l)."""
    for c in range(n):
        seen[c] = 0
    code = 0
    for t in range(n):
        c = used0[t]
        if seen[c]:
            continue
        length = 0
        while not seen[c]:
            seen[c] = 1
            length += 1
            # the tower whose level-1 colour is c holds colour col1[that tower] at level 2
            nxt = -1
            for u in range(n):
                if used0[u] == c:
                    nxt = col1[u]
                    break
            c = nxt
        code += np.int64(1) << (4 * length)
    return code


@helper
def uniform_row(R, rs, X, k):
    """Level k's row of the uniform set-up into ``X[X_COL]`` (see ``setup_uniform``);
    False when the draw rejects the board (start again from level 0)."""
    n = R[R_N]
    used = X[X_USED]
    allowed = X[X_ALLOWED]
    col = X[X_COL]
    rem = X[X_REM]
    if k < 2:
        sample_row_by_rejection(n, used, rs, rem, col)
        if k == 0:
            for t in range(n):
                allowed[t] = col[t]      # level-0 colours, for the cycle type
    elif k == 2 and R[R_NCYC] > 0:
        code = cycle_code(allowed, col, n, rem)
        N = 0
        for i in range(R[R_NCYC]):
            if R[R_CYC + 2 * i] == code:
                N = R[R_CYC + 2 * i + 1]
        if rand_int(rs, CH, R[R_BHI + k]) >= N:
            return False
        sample_row_by_rejection(n, used, rs, rem, col)
    else:
        u = rand_int(rs, CH, R[R_BHI + k])
        if u < R[R_BLO + k]:
            sample_row_by_rejection(n, used, rs, rem, col)
        else:
            full = (1 << n) - 1
            for t in range(n):
                allowed[t] = full & ~used[t]
            N = count_assignments(allowed, n, X[X_DP], X[X_PC])
            if u >= N:
                return False
            sample_assignment(allowed, n, X[X_DP], rs, col)
    return True


@helper
def setup_uniform(st, R, rs, X):
    """Uniform random valid board (a Latin rectangle: levels x towers, colours as symbols).

    Levels 0 and 1 are dealt uniformly by rejection (every level-0 row leaves the same
    number of level-1 rows).  From level 2 on, let N_k be the number of valid level-k rows
    given the levels below.  One draw u < R[R_BHI + k] (an upper bound on every N_k):
    u >= N_k starts the whole board again from level 0, otherwise the row is drawn
    uniformly among the N_k.  A board's probability per attempt is then
    1 / (n! D(n) prod_k R[R_BHI + k]) whatever the board: uniform.

    N_k is only counted when needed: for level 2 it depends only on the cycle type of the
    permutation from level-0 to level-1 colours and is looked up in the table at
    ``R_CYC`` (pairs (cycle code, N)); for higher levels u < R[R_BLO + k] (a lower bound
    on every N_k) accepts without counting.  Rows are dealt by rejection unless the count
    was made (a permanent, ``count_assignments``), in which case its table gives the row.
    Returns the number of attempts.  ``record_board`` records the board it built.
    """
    n = R[R_N]
    L = R[R_L]
    used = X[X_USED]
    col = X[X_COL]
    attempts = 0
    while True:
        attempts += 1
        for t in range(n):
            used[t] = 0
            st.tw[t] = 0
        ok = True
        for k in range(L):
            if not uniform_row(R, rs, X, k):
                ok = False
                break
            for t in range(n):
                used[t] |= 1 << col[t]
                st.tw[t] |= col[t] << (4 * k)
        if ok:
            break
    refresh_cuts(st, R)
    return attempts


# ------------------------------------------------------------------ Alternative Setup
@helper_inline
def level_completable(colours, towers, used):
    """Hall's condition: the colours in mask ``colours`` can go one each to the towers in
    mask ``towers`` without repeating a colour in a tower (``used[t]``: colours in t)."""
    sub = towers
    while sub:
        reach = 0
        k = 0
        s = sub
        while s:
            low = s & -s
            t = popcount(low - 1)
            reach |= colours & ~used[t]
            k += 1
            s ^= low
        if popcount(reach) < k:
            return False
        sub = (sub - 1) & towers
    return True


@helper_inline
def join_chances(st, R, t, k, c):
    """Exchanges of level k that would join colours and that putting colour c at level k of
    tower t decides: neighbours u whose level-(k-1) block is c (exchanging level k between
    t and u joins in u).  The other chances at this level (u's level-k block against t's
    level-(k-1) block) were decided when u's block was placed."""
    if k == 0:
        return 0
    v = 0
    for e in range(R[R_E]):
        if R[R_EA + e] == t:
            v += np.int64(nib(st.tw[R[R_EB + e]], k - 1) == c)
        elif R[R_EB + e] == t:
            v += np.int64(nib(st.tw[R[R_EA + e]], k - 1) == c)
    return v


@helper_inline
def placement_options(colours, towers, c, n, used, legal):
    """Towers of mask ``towers`` that may take colour c (new to the tower, and the rest of
    the level can still be placed) into ``legal``; returns how many."""
    nl = 0
    for t in range(n):
        if (towers >> t) & 1 and not (used[t] >> c) & 1:
            used[t] |= 1 << c
            if level_completable(colours, towers ^ (1 << t), used):
                legal[nl] = t
                nl += 1
            used[t] ^= 1 << c
    return nl


@helper_inline
def steer_joins(st, R, legal, nl, k, c, sign):
    """Two-player greedy and search placers: keep the options with the most (White,
    sign 1) or fewest (Black, sign -1) ``join_chances``; returns how many."""
    best = NEG
    nb = 0
    for i in range(nl):
        v = sign * join_chances(st, R, legal[i], k, c)
        if v > best:
            best = v
            nb = 0
        if v == best:
            legal[nb] = legal[i]
            nb += 1
    return nb


@helper
def setup_turns(st, R, rs, first, bot_ids, X, buf):
    """The rulebook's Alternative Setup: level by level from the bottom, players in turn
    (from the first player) place a block drawn at random from that level's remaining
    blocks on a tower whose level is still empty, where the colour is new to the tower
    and the rest of the level can still be placed.  The random bot picks uniformly among
    those towers.  Two players, greedy and search: White (the first player, who makes the
    first exchange) picks the towers with the most ``join_chances``, Black those with the
    fewest; with three/four players (task cards are dealt after the set-up) they pick
    uniformly too.  One draw for the block, one (own stream) among the chosen towers, always.
    Records each block drawn and each placement."""
    n = R[R_N]
    L = R[R_L]
    P = R[R_P]
    used = X[X_USED]
    legal = X[X_TIES]
    full = (1 << n) - 1
    for t in range(n):
        used[t] = 0
        st.tw[t] = 0
    k_total = 0
    for k in range(L):
        colours = full
        towers = full
        for j in range(n):
            placer = (first + k_total) % P
            k_total += 1
            r = rand_int(rs, CH, popcount(colours))
            c = -1
            for cc in range(n):
                if (colours >> cc) & 1:
                    if r == 0:
                        c = cc
                        break
                    r -= 1
            colours ^= 1 << c
            rec(buf, EV_BLOCK, -1, k + 1, c, 0, 0, 0, 0)
            nl = placement_options(colours, towers, c, n, used, legal)
            if P == 2 and bot_ids[placer] != BOT_RANDOM:
                nl = steer_joins(st, R, legal, nl, k, c, 1 if placer == first else -1)
            t = legal[rand_int(rs, 1 + placer, nl)]
            rec(buf, EV_PLACE, placer, k + 1, c, t, 0, 0, 0)
            towers ^= 1 << t
            used[t] |= 1 << c
            st.tw[t] |= c << (4 * k)
    refresh_cuts(st, R)


# ------------------------------------------------------------------ task cards
@helper_inline
def deal_tasks(st, R, base, X, keys):
    """Three/four players: the card of the centre tower's bottom colour lies face up; the
    others are shuffled by keys drawn per colour (``item_key(base, DECK, colour)``) and
    dealt two per seat from the top, in seat order, into ``X[X_CARDS]``."""
    n = R[R_N]
    deck = X[X_COL]
    ids = X[X_REM]
    cards = X[X_CARDS]
    centre_colour = st.tw[R[R_CENTRE]] & 15
    k = 0
    for c in range(n):
        if c != centre_colour:
            deck[k] = c
            ids[k] = c
            k += 1
    keyed_shuffle(deck, ids, keys, k, base, DECK)
    for i in range(2 * R[R_P]):
        cards[i] = deck[i]


@helper_inline
def record_board(st, R, attempts, buf):
    """The uniform set-up's board, one event per tower (levels 1-7 and 8-12 packed)."""
    for t in range(R[R_N]):
        x = st.tw[t]
        rec(buf, EV_BOARD, -1, t, x & ((1 << 28) - 1), x >> 28, attempts, 0, 0)
