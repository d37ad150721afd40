"""Maya (2012) rules kernel and bots, jitted with numba.

Board
-----
``n`` towers stand on a grid (3 x 3); every tower has ``L`` levels (5), level 0 at
the bottom.  A tower is packed into one int64: the colour of level ``l`` sits in
bits ``4l .. 4l+3``.  Exchanging from level ``l`` upwards is then two masked
swaps.  Blocks never change level: an exchange moves blocks between towers, each
staying at its own height.

A tower's *cut mask* has bit ``l`` (1 <= l < L) set when the blocks at levels
``l-1`` and ``l`` differ in colour, i.e. when an exchange starting at level ``l``
would not split joined colours.  Bit 0 is never set: the bottom never moves.  An
exchange of level ``l`` between adjacent towers ``a`` and ``b`` is legal when bit
``l`` is set in both cut masks, neither tower touches the Monolith, and (two
players) ``l`` is not the Raven's level.  A tower is complete exactly when its
cut mask is 0.

The state is one flat int64 array ``st`` (layout below) so that the search bot
can copy a position with one slice assignment.

Moves are coded ``16 * edge + level``; edges are the orthogonally adjacent pairs
in the board's edge list (``ea[e] < eb[e]``), listed in the order that
``board_edges`` in ``__init__.py`` builds them.  The legal moves are listed edge by
edge, levels ascending within an edge: the random bot picks uniformly from that
list.

Chance and tie-breaks (``sim/rng.py``)
---------------------------------------
Each purpose of chance has its own substream of the game, so that a change in one never
moves the draws of another: the board set-up (uniform rejection sampling, or the
Alternative Setup's drawn blocks) reads (SETUP, ``SUB_BOARD``), the random Monolith/Raven
start (``start=random``) (SETUP, ``SUB_START``), and the task cards are dealt in the
order of keys drawn per colour (``item_key(base, DECK, colour)``, a keyed shuffle: the
colour set aside at the centre takes no other colour's place with it).  The substream
being read sits in slot ``CH`` of the streams array; slot ``1 + s`` is seat s's bot
stream, for the random bot's choices and every bot's tie-breaks: exact ties (integer
values, equality) are uniform over the tied options, never decided by their order.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import copy_into, helper, kernel, popcount
from ...rng import (DECK, GOLDEN, SETUP, game_base, keyed_shuffle, mix64, open_substream,
                    rand_int, seed_streams)

# ------------------------------------------------------------------ layout
NMAX = 16
TW = 0            # packed towers
CUT = 16          # cut masks
LAD = 32          # ladders: LAD + 2 * tower + seat (two players only)
LS = 64           # ladders around each tower
PR = 80           # priest on each tower: seat, -1 none
MA = 96           # Monolith: tower a (-1: not on the board)
MB = 97           # Monolith: tower b
RAV = 98          # Raven's level (0: restricts nothing, the bottom never moves)
LSUP = 99         # ladders left per seat (two seats)
PSUP = 101        # priests left per seat
SZ = 104

# rule array slots
(R_N, R_L, R_E, R_P, R_RAVEN, R_START, R_SETUP, R_HORIZON, R_HRESULT, R_FIRST, R_LADDERS,
 R_PRIESTS, R_BONUS, R_CENTRE, R_CHECK, R_LP) = range(16)
N_RULES = 16

START_BOT, START_RANDOM = 0, 1
SETUP_UNIFORM, SETUP_TURNS = 0, 1
HRESULT_SCORE, HRESULT_DRAW = 0, 1   # horizon_result
FIRST_ROTATE, FIRST_SEAT0 = 0, 1

BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2

END_NO_EXCHANGE, END_DECLARED, END_HORIZON = 0, 1, 2

# tiebreak codes
TB_SCORE, TB_PRIESTS, TB_LADDERS, TB_TIED = 0, 1, 2, 3

# per-game tally slots (per-seat blocks of 4)
T_SCORE = 0
T_PRIESTS = 4
T_LADDERS = 8
T_PPTS = 12
T_LPTS = 16
T_COMPL = 20
T_BONUS = 24
T_JOINS = 28
T_TEAM = 32
T_EX = 36
T_END = 37
T_WINNER = 38
T_FIRST = 39
T_TIEBRK = 40
T_DECL = 41
T_TCOMP = 42
T_TEAMW = 43
T_MSTART = 44
T_RSTART = 45
T_ATTEMPTS = 46
T_VIOL = 47
T_BOARD = 48      # the starting board's key (board_key)
N_TALLY = 49

CH = 0            # slot of the chance substream being read
SUB_BOARD = 0     # SETUP substream index: the board set-up
SUB_START = 1     # SETUP substream index: the random Monolith/Raven start

WIN = 1_000_000
NEG = -(1 << 60)

MAXM = 16 * 32  # room for the move list of any board this kernel accepts


# ------------------------------------------------------------------ board helpers
@njit(cache=True, inline="always")
def nib(x, l):
    return (x >> (4 * l)) & 15


@njit(cache=True, inline="always")
def cut_mask(x, L):
    d = x ^ (x >> 4)
    c = 0
    for i in range(L - 1):
        c |= np.int64(((d >> (4 * i)) & 15) != 0) << (i + 1)
    return c


@helper
def clear_state(st, R):
    st[:] = 0
    for t in range(NMAX):
        st[PR + t] = -1
    st[MA] = -1
    st[MB] = -1
    st[RAV] = 0
    st[LSUP] = R[R_LADDERS]
    st[LSUP + 1] = R[R_LADDERS]
    st[PSUP] = R[R_PRIESTS]
    st[PSUP + 1] = R[R_PRIESTS]


@helper
def refresh_cuts(st, R):
    for t in range(R[R_N]):
        st[CUT + t] = cut_mask(st[TW + t], R[R_L])


# ------------------------------------------------------------------ set-up
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


@helper
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
def setup_uniform(st, R, rs, bounds, cyc, dp, pc, used, allowed, col, rem):
    """Uniform random valid board (a Latin rectangle: levels x towers, colours as symbols).

    Levels 0 and 1 are dealt uniformly by rejection (every level-0 row leaves the same
    number of level-1 rows).  From level 2 on, let N_k be the number of valid level-k rows
    given the levels below.  One draw u < bounds[0, k] (an upper bound on every N_k):
    u >= N_k starts the whole board again from level 0, otherwise the row is drawn
    uniformly among the N_k.  A board's probability per attempt is then
    1 / (n! D(n) prod_k bounds[0, k]) whatever the board: uniform.

    N_k is only counted when needed: for level 2 it depends only on the cycle type of the
    permutation from level-0 to level-1 colours and is looked up in ``cyc`` (rows
    (cycle code, N)); for higher levels u < bounds[1, k] (a lower bound on every N_k)
    accepts without counting.  Rows are dealt by rejection unless the count was made
    (a permanent, ``count_assignments``), in which case its table gives the row.
    Returns the number of attempts.
    """
    n = R[R_N]
    L = R[R_L]
    full = (1 << n) - 1
    attempts = 0
    while True:
        attempts += 1
        for t in range(n):
            used[t] = 0
            st[TW + t] = 0
        ok = True
        for k in range(L):
            if k < 2:
                sample_row_by_rejection(n, used, rs, rem, col)
                if k == 0:
                    for t in range(n):
                        allowed[t] = col[t]      # level-0 colours, for the cycle type
            elif k == 2 and cyc.shape[0] > 0:
                code = cycle_code(allowed, col, n, rem)
                N = 0
                for i in range(cyc.shape[0]):
                    if cyc[i, 0] == code:
                        N = cyc[i, 1]
                if rand_int(rs, CH, bounds[0, k]) >= N:
                    ok = False
                    break
                sample_row_by_rejection(n, used, rs, rem, col)
            else:
                u = rand_int(rs, CH, bounds[0, k])
                if u < bounds[1, k]:
                    sample_row_by_rejection(n, used, rs, rem, col)
                else:
                    for t in range(n):
                        allowed[t] = full & ~used[t]
                    N = count_assignments(allowed, n, dp, pc)
                    if u >= N:
                        ok = False
                        break
                    sample_assignment(allowed, n, dp, rs, col)
            for t in range(n):
                used[t] |= 1 << col[t]
                st[TW + t] |= col[t] << (4 * k)
        if ok:
            break
    refresh_cuts(st, R)
    return attempts


@helper
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


@helper
def join_chances(st, R, ea, eb, t, k, c):
    """Exchanges of level k that would join colours and that putting colour c at level k of
    tower t decides: neighbours u whose level-(k-1) block is c (exchanging level k between
    t and u joins in u).  The other chances at this level (u's level-k block against t's
    level-(k-1) block) were decided when u's block was placed."""
    if k == 0:
        return 0
    v = 0
    for e in range(R[R_E]):
        if ea[e] == t:
            v += np.int64(nib(st[TW + eb[e]], k - 1) == c)
        elif eb[e] == t:
            v += np.int64(nib(st[TW + ea[e]], k - 1) == c)
    return v


@helper
def setup_turns(st, R, rs, first, bot_ids, ea, eb, used, legal):
    """The rulebook's Alternative Setup: level by level from the bottom, players in turn
    (from the first player) place a block drawn at random from that level's remaining
    blocks on a tower whose level is still empty, where the colour is new to the tower
    and the rest of the level can still be placed.  The random bot picks uniformly among
    those towers.  Two players, greedy and search: White (the first player, who makes the
    first exchange) picks the towers with the most ``join_chances``, Black those with the
    fewest; with three/four players (task cards are dealt after the set-up) they pick
    uniformly too.  One draw for the block, one (own stream) among the chosen towers, always."""
    n = R[R_N]
    L = R[R_L]
    P = R[R_P]
    full = (1 << n) - 1
    for t in range(n):
        used[t] = 0
        st[TW + t] = 0
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
            nl = 0
            for t in range(n):
                if (towers >> t) & 1 and not (used[t] >> c) & 1:
                    used[t] |= 1 << c
                    if level_completable(colours, towers ^ (1 << t), used):
                        legal[nl] = t
                        nl += 1
                    used[t] ^= 1 << c
            if P == 2 and bot_ids[placer] != BOT_RANDOM:
                sign = 1 if placer == first else -1
                best = NEG
                nb = 0
                for i in range(nl):
                    v = sign * join_chances(st, R, ea, eb, legal[i], k, c)
                    if v > best:
                        best = v
                        nb = 0
                    if v == best:
                        legal[nb] = legal[i]
                        nb += 1
                nl = nb
            t = legal[rand_int(rs, 1 + placer, nl)]
            towers ^= 1 << t
            used[t] |= 1 << c
            st[TW + t] |= c << (4 * k)
    refresh_cuts(st, R)


# ------------------------------------------------------------------ moves
@helper
def gen_moves(st, R, ea, eb, ebits, out):
    """Legal exchanges, edge by edge, levels ascending; returns how many."""
    blk = 0
    if st[MA] >= 0:
        blk = (np.int64(1) << st[MA]) | (np.int64(1) << st[MB])
    rbit = np.int64(1) << st[RAV]
    L = R[R_L]
    cnt = 0
    for e in range(R[R_E]):
        if ebits[e] & blk:
            continue
        m = st[CUT + ea[e]] & st[CUT + eb[e]] & ~rbit
        if m:
            for l in range(1, L):
                out[cnt] = 16 * e + l
                cnt += (m >> l) & 1
    return cnt


@njit(cache=True, inline="always")
def edge_masks(st, R, ea, eb, ebits, pc, emask):
    """``emask[e]``: the legal levels on edge e (bit mask); returns the number of legal
    exchanges (the length of ``gen_moves``' list, without writing it)."""
    blk = 0
    if st[MA] >= 0:
        blk = (np.int64(1) << st[MA]) | (np.int64(1) << st[MB])
    rbit = np.int64(1) << st[RAV]
    cnt = 0
    for e in range(R[R_E]):
        m = st[CUT + ea[e]] & st[CUT + eb[e]] & ~rbit
        m = m if (ebits[e] & blk) == 0 else 0
        emask[e] = m
        cnt += pc[m]
    return cnt


@njit(cache=True, inline="always")
def pick_move(emask, E, r, pc):
    """Move number ``r`` of the list ``gen_moves`` would write, from ``edge_masks``."""
    for e in range(E):
        k = pc[emask[e]]
        if r < k:
            m = emask[e]
            for _ in range(r):
                m &= m - 1
            low = m & -m
            return 16 * e + pc[low - 1]
        r -= k
    return -1


@helper
def has_move(st, R, ea, eb, ebits):
    blk = 0
    if st[MA] >= 0:
        blk = (np.int64(1) << st[MA]) | (np.int64(1) << st[MB])
    rbit = np.int64(1) << st[RAV]
    for e in range(R[R_E]):
        if (ebits[e] & blk) == 0 and (st[CUT + ea[e]] & st[CUT + eb[e]] & ~rbit) != 0:
            return True
    return False


@helper
def apply_exchange(st, R, mv, p, ea, eb, hmask, spaces):
    """Exchange, move the Monolith and the Raven, place ladders and priests (two players).

    Returns flags: bit 0/1 a join at the cut in tower a/b, bit 2/3 tower a/b complete."""
    e = mv >> 4
    l = mv & 15
    a = ea[e]
    b = eb[e]
    hm = hmask[l]
    xa = st[TW + a]
    xb = st[TW + b]
    st[TW + a] = (xa & ~hm) | (xb & hm)
    st[TW + b] = (xb & ~hm) | (xa & hm)
    L = R[R_L]
    ca = cut_mask(st[TW + a], L)
    cb = cut_mask(st[TW + b], L)
    st[CUT + a] = ca
    st[CUT + b] = cb
    st[MA] = a
    st[MB] = b
    if R[R_RAVEN]:
        st[RAV] = l
    ja = 1 - ((ca >> l) & 1)
    jb = 1 - ((cb >> l) & 1)
    fa = np.int64(ca == 0)
    fb = np.int64(cb == 0)
    if R[R_LP]:
        if ja:
            if st[LS + a] < spaces[a] and st[LSUP + p] > 0:
                st[LAD + 2 * a + p] += 1
                st[LS + a] += 1
                st[LSUP + p] -= 1
            if fa and st[PSUP + p] > 0:
                st[PR + a] = p
                st[PSUP + p] -= 1
        if jb:
            if st[LS + b] < spaces[b] and st[LSUP + p] > 0:
                st[LAD + 2 * b + p] += 1
                st[LS + b] += 1
                st[LSUP + p] -= 1
            if fb and st[PSUP + p] > 0:
                st[PR + b] = p
                st[PSUP + p] -= 1
    return ja | (jb << 1) | (fa << 2) | (fb << 3)


# ------------------------------------------------------------------ two-player scoring
@helper
def score2(st, n, out):
    """out[s]: victory points, out[2+s]: priests, out[4+s]: ladders, out[6+s]: ladder points."""
    for k in range(8):
        out[k] = 0
    for t in range(n):
        pr = st[PR + t]
        if pr >= 0:
            out[pr] += 1
            out[2 + pr] += 1
        l0 = st[LAD + 2 * t]
        l1 = st[LAD + 2 * t + 1]
        out[4] += l0
        out[5] += l1
        if l0 > l1:
            out[0] += 1
            out[6] += 1
        elif l1 > l0:
            out[1] += 1
            out[7] += 1


@helper
def eval2(st, n, p):
    """Static value for seat p: 100 x points lead + 10 x priests lead + ladders lead."""
    v = 0
    for t in range(n):
        pr = st[PR + t]
        if pr >= 0:
            v += 110 if pr == p else -110
        lp = st[LAD + 2 * t + p]
        lq = st[LAD + 2 * t + 1 - p]
        v += lp - lq
        if lp > lq:
            v += 100
        elif lq > lp:
            v -= 100
    return v


@helper
def result2(st, n, p):
    """Final result for seat p: WIN, -WIN or 0, with the rulebook's tie-breaks."""
    vp = 0
    pr = 0
    ld = 0
    for t in range(n):
        o = st[PR + t]
        if o >= 0:
            d = 1 if o == p else -1
            vp += d
            pr += d
        lp = st[LAD + 2 * t + p]
        lq = st[LAD + 2 * t + 1 - p]
        ld += lp - lq
        if lp > lq:
            vp += 1
        elif lq > lp:
            vp -= 1
    v = vp
    if v == 0:
        v = pr
    if v == 0:
        v = ld
    if v > 0:
        return WIN
    if v < 0:
        return -WIN
    return 0


@helper
def leaf2(st, R, n, p, ea, eb, ebits):
    """Value for seat p, which is to move: the result if it cannot move, else eval2."""
    if not has_move(st, R, ea, eb, ebits):
        return result2(st, n, p)
    return eval2(st, n, p)


# ------------------------------------------------------------------ two-player bots
@helper
def greedy2(st, R, p, moves, nm, ea, eb, ebits, hmask, spaces, s1, s2, rep, ties, vals, rs):
    """Best immediate value (eval2 after the move, or the result if the opponent is then
    stuck); among equals, the move leaving the opponent the smallest best immediate
    value (blocking); among equals, one uniform draw."""
    n = R[R_N]
    q = 1 - p
    best = NEG
    nt = 0
    for k in range(nm):
        copy_into(s1, st)
        apply_exchange(s1, R, moves[k], p, ea, eb, hmask, spaces)
        v = -leaf2(s1, R, n, q, ea, eb, ebits)
        if v > best:
            best = v
            nt = 0
        if v == best:
            ties[nt] = k
            nt += 1
    if nt > 1:
        best = NEG
        n2 = 0
        for i in range(nt):
            k = ties[i]
            copy_into(s1, st)
            apply_exchange(s1, R, moves[k], p, ea, eb, hmask, spaces)
            nr = gen_moves(s1, R, ea, eb, ebits, rep)
            worst = NEG
            if nr == 0:
                worst = -WIN - 1
            for r in range(nr):
                copy_into(s2, s1)
                apply_exchange(s2, R, rep[r], q, ea, eb, hmask, spaces)
                w = -leaf2(s2, R, n, p, ea, eb, ebits)
                if w > worst:
                    worst = w
            v = -worst
            if v > best:
                best = v
                n2 = 0
            if v == best:
                vals[n2] = k
                n2 += 1
        k = vals[0]
        if n2 > 1:
            k = vals[rand_int(rs, 1 + p, n2)]
        return moves[k]
    return moves[ties[0]]


@helper
def search2(st, R, p, depth, ea, eb, ebits, hmask, spaces, ss, mv, nmv, idx, al, be, bv, rs):
    """Alpha-beta (negamax) to ``depth`` exchanges, leaves valued by ``leaf2``; the root
    moves are shuffled with one Fisher-Yates pass (own stream) and the first move with
    the best value is played."""
    n = R[R_N]
    n0 = gen_moves(st, R, ea, eb, ebits, mv[0])
    for i in range(n0 - 1, 0, -1):
        j = rand_int(rs, 1 + p, i + 1)
        tmp = mv[0, i]
        mv[0, i] = mv[0, j]
        mv[0, j] = tmp
    if n0 == 1 or depth < 1:
        return mv[0, 0]
    copy_into(ss[0], st)
    nmv[0] = n0
    idx[0] = 0
    al[0] = NEG
    be[0] = -NEG
    bv[0] = NEG
    bestmove = mv[0, 0]
    ply = 0
    while True:
        if idx[ply] < nmv[ply] and al[ply] < be[ply]:
            m = mv[ply, idx[ply]]
            idx[ply] += 1
            c = ply + 1
            side = p if ply % 2 == 0 else 1 - p  # the side moving at node ``ply``
            copy_into(ss[c], ss[ply])
            apply_exchange(ss[c], R, m, side, ea, eb, hmask, spaces)
            other = 1 - side
            if c == depth:
                val = -leaf2(ss[c], R, n, other, ea, eb, ebits)
            else:
                k = gen_moves(ss[c], R, ea, eb, ebits, mv[c])
                if k == 0:
                    val = -result2(ss[c], n, other)
                else:
                    nmv[c] = k
                    idx[c] = 0
                    al[c] = -be[ply]
                    be[c] = -al[ply]
                    bv[c] = NEG
                    ply = c
                    continue
        else:
            if ply == 0:
                break
            val = -bv[ply]
            ply -= 1
            m = mv[ply, idx[ply] - 1]
        if val > bv[ply]:
            bv[ply] = val
            if ply == 0:
                bestmove = m
        if val > al[ply]:
            al[ply] = val
    return bestmove


@helper
def start_choice_value(st, R, white, ea, eb, ebits, hmask, spaces, s1, rep):
    """White's best immediate value (greedy's first stage) from a starting position."""
    n = R[R_N]
    nr = gen_moves(st, R, ea, eb, ebits, rep)
    if nr == 0:
        return result2(st, n, white)
    best = NEG
    for r in range(nr):
        copy_into(s1, st)
        apply_exchange(s1, R, rep[r], white, ea, eb, hmask, spaces)
        w = -leaf2(s1, R, n, 1 - white, ea, eb, ebits)
        if w > best:
            best = w
    return best


# ------------------------------------------------------------------ three/four players
@helper
def colour_points(st, n, L, pts, out):
    """out[c]: task points of colour c on the whole board (each maximal run of c inside a
    tower scores pts[run length]; pts[0] = pts[1] = 0)."""
    for c in range(n):
        out[c] = 0
    for t in range(n):
        x = st[TW + t]
        run = 1
        prev = x & 15
        for l in range(1, L):
            c = nib(x, l)
            if c == prev:
                run += 1
            else:
                out[prev] += pts[run]
                run = 1
                prev = c
        out[prev] += pts[run]


@helper
def can_declare(st, R, cards, p):
    """Seat p may declare: the centre tower and a tower of one of p's task colours are complete."""
    ctr = R[R_CENTRE]
    if st[CUT + ctr] != 0:
        return False
    for t in range(R[R_N]):
        if st[CUT + t] == 0:
            c = st[TW + t] & 15
            if c == cards[2 * p] or c == cards[2 * p + 1]:
                return True
    return False


@helper
def wants_to_declare(st, R, cards, p, bonus, pts, cp):
    """Task bots: declare when own points (with the bonus) are at least what the unknown
    colours suggest the rivals hold: three players, the two best unknown colours; four
    players, two thirds of the unknown colours' points (the partner's third counts for us)."""
    n = R[R_N]
    colour_points(st, n, R[R_L], pts, cp)
    c1 = cards[2 * p]
    c2 = cards[2 * p + 1]
    mine = cp[c1] + cp[c2] + bonus
    centre_colour = st[TW + R[R_CENTRE]] & 15
    top1 = 0
    top2 = 0
    tot = 0
    for c in range(n):
        if c == c1 or c == c2 or c == centre_colour:
            continue
        v = cp[c]
        tot += v
        if v > top1:
            top2 = top1
            top1 = v
        elif v > top2:
            top2 = v
    if R[R_P] == 3:
        return mine >= top1 + top2
    return 3 * mine >= tot


@helper
def task_value(st, R, cards, p, pts, cp):
    """Task bots' position value: 1000 x own task points + a gathering potential
    (per own colour: sum over towers of (blocks of it in the tower)^2, plus 2 per block
    already in the tower standing on that colour)."""
    n = R[R_N]
    L = R[R_L]
    colour_points(st, n, L, pts, cp)
    v = 0
    for j in range(2):
        c = cards[2 * p + j]
        v += 1000 * cp[c]
        for t in range(n):
            x = st[TW + t]
            cnt = 0
            for l in range(L):
                cnt += np.int64(nib(x, l) == c)
            v += cnt * cnt
            if (x & 15) == c:
                v += 2 * cnt
    return v


@helper
def greedy_task(st, R, p, cards, moves, nm, ea, eb, ebits, hmask, spaces, pts, s1, ties, cp, rs):
    """Task bots' exchange: the best task_value after the move, counting the centre bonus
    when the move completes the centre tower and lets it declare; ties: one uniform draw."""
    ctr = R[R_CENTRE]
    centre_open = st[CUT + ctr] != 0
    best = NEG
    nt = 0
    for k in range(nm):
        v = task_step_value(st, R, p, cards, moves[k], ea, eb, hmask, spaces, pts, s1, cp,
                            centre_open)
        if v > best:
            best = v
            nt = 0
        if v == best:
            ties[nt] = k
            nt += 1
    return moves[draw_tie(ties, nt, rs, p)]


@njit(cache=True, inline="always")
def draw_tie(ties, nt, rs, p):
    """One of the nt tied choices in ``ties``: the only one without a draw, else uniform
    on seat p's stream."""
    if nt > 1:
        return ties[rand_int(rs, 1 + p, nt)]
    return ties[0]


@helper
def task_step_value(st, R, p, cards, m, ea, eb, hmask, spaces, pts, s, cp, centre_open):
    """task_value after exchange m (into ``s``), with the centre bonus as in greedy_task."""
    ctr = R[R_CENTRE]
    copy_into(s, st)
    apply_exchange(s, R, m, p, ea, eb, hmask, spaces)
    v = task_value(s, R, cards, p, pts, cp)
    if centre_open and s[CUT + ctr] == 0 and can_declare(s, R, cards, p):
        v += 1000 * R[R_BONUS]
    return v


@helper
def lookahead_task(st, R, p, cards, moves, nm, ea, eb, ebits, hmask, spaces, pts, s1, s2,
                   rep, ties, cp, rs):
    """Search bot with three/four players: each exchange is worth twice its task_value
    plus the best task_value of a second own exchange from there (the others assumed to
    leave the board alone, the Monolith gone); ties: one uniform draw."""
    ctr = R[R_CENTRE]
    centre_open = st[CUT + ctr] != 0
    best = NEG
    nt = 0
    for k in range(nm):
        v = 2 * task_step_value(st, R, p, cards, moves[k], ea, eb, hmask, spaces, pts, s1, cp,
                                centre_open)
        s1[MA] = -1
        s1[MB] = -1
        nr = gen_moves(s1, R, ea, eb, ebits, rep)
        open2 = s1[CUT + ctr] != 0
        b2 = task_value(s1, R, cards, p, pts, cp)
        for r in range(nr):
            w = task_step_value(s1, R, p, cards, rep[r], ea, eb, hmask, spaces, pts, s2, cp, open2)
            if w > b2:
                b2 = w
        v += b2
        if v > best:
            best = v
            nt = 0
        if v == best:
            ties[nt] = k
            nt += 1
    return moves[draw_tie(ties, nt, rs, p)]


# ------------------------------------------------------------------ a game
@helper
def random_pair(st, R, ea, eb, ebits, hmask, spaces, pc, emask, rs, first, tally):
    """The two-player game between two random bots: the same exchanges and draws as the
    general loop in ``play_game``, in a tight loop.  Returns (exchanges, end reason)."""
    E = R[R_E]
    horizon = R[R_HORIZON]
    p = first
    ex = 0
    while True:
        nm = edge_masks(st, R, ea, eb, ebits, pc, emask)
        if nm == 0:
            return ex, END_NO_EXCHANGE
        if ex >= horizon:
            return ex, END_HORIZON
        m = pick_move(emask, E, rand_int(rs, 1 + p, nm), pc)
        f = apply_exchange(st, R, m, p, ea, eb, hmask, spaces)
        ex += 1
        tally[T_JOINS + p] += (f & 1) + ((f >> 1) & 1)
        tally[T_COMPL + p] += ((f >> 2) & 1) + ((f >> 3) & 1)
        p = 1 - p


@helper
def check_invariants(st, R, before):
    """Violations: a level missing a colour, a stale cut mask, a complete tower changed."""
    n = R[R_N]
    L = R[R_L]
    full = (1 << n) - 1
    bad = 0
    for l in range(L):
        seen = 0
        for t in range(n):
            seen |= np.int64(1) << nib(st[TW + t], l)
        if seen != full:
            bad += 1
    for t in range(n):
        if st[CUT + t] != cut_mask(st[TW + t], L):
            bad += 1
        if before[CUT + t] == 0 and before[TW + t] != st[TW + t]:
            bad += 1
    if R[R_LP]:
        tot = 0
        for t in range(n):
            if st[LS + t] != st[LAD + 2 * t] + st[LAD + 2 * t + 1]:
                bad += 1
            tot += st[LS + t]
        if tot + st[LSUP] + st[LSUP + 1] != 2 * R[R_LADDERS]:
            bad += 1
    return bad


@helper
def final_scores(st, R, pts, cards, tally, cp, sc):
    """Scores, tie-breaks and the winner into ``tally``; returns the winning side (seat,
    team in four-player games) or -1."""
    n = R[R_N]
    P = R[R_P]
    if P == 2:
        score2(st, n, sc)
        for s in range(2):
            tally[T_SCORE + s] = sc[s]
            tally[T_PRIESTS + s] = sc[2 + s]
            tally[T_LADDERS + s] = sc[4 + s]
            tally[T_LPTS + s] = sc[6 + s]
            tally[T_PPTS + s] = sc[2 + s]
            tally[T_TEAM + s] = sc[s]
        tb = TB_SCORE
        d = sc[0] - sc[1]
        if d == 0:
            tb = TB_PRIESTS
            d = sc[2] - sc[3]
        if d == 0:
            tb = TB_LADDERS
            d = sc[4] - sc[5]
        if d == 0:
            tb = TB_TIED
        tally[T_TIEBRK] = tb
        if d > 0:
            return 0
        if d < 0:
            return 1
        return -1
    colour_points(st, n, R[R_L], pts, cp)
    for s in range(P):
        tally[T_SCORE + s] = cp[cards[2 * s]] + cp[cards[2 * s + 1]] + tally[T_BONUS + s]
    if P == 4:
        for s in range(4):
            tally[T_TEAM + s] = tally[T_SCORE + s] + tally[T_SCORE + (s + 2) % 4]
        sides = 2
    else:
        for s in range(P):
            tally[T_TEAM + s] = tally[T_SCORE + s]
        sides = P
    best = NEG
    nb = 0
    who = -1
    for s in range(sides):
        v = tally[T_TEAM + s]
        if v > best:
            best = v
            nb = 0
        if v == best:
            nb += 1
            who = s
    if nb > 1:
        tally[T_TIEBRK] = TB_TIED
        return -1
    tally[T_TIEBRK] = TB_SCORE
    return who


@helper
def start_choice(st, R, first, bot_ids, ea, eb, ebits, hmask, spaces, s1, rep, ties, rs, base):
    """Two players: the option o the black player (the second to move) starts with, the
    Monolith on edge ``o // L`` and the Raven at level ``o % L`` (without the Raven: edge
    o).  ``start=random``: one draw on the (SETUP, SUB_START) substream; a random bot: one
    draw on its own stream; greedy and search: the options leaving White the smallest best
    immediate value, ties by one uniform draw on the bot's stream.  Leaves the Monolith
    and the Raven set as the last option tried: the caller places them."""
    L = R[R_L]
    black = 1 - first
    nopt = R[R_E] * L if R[R_RAVEN] else R[R_E]
    if R[R_START] == START_RANDOM:
        open_substream(rs, CH, base, SETUP, SUB_START)
        return rand_int(rs, CH, nopt)
    if bot_ids[black] == BOT_RANDOM:
        return rand_int(rs, 1 + black, nopt)
    best = -NEG
    nt = 0
    for o in range(nopt):
        if R[R_RAVEN]:
            e = o // L
            st[RAV] = o % L
        else:
            e = o
        st[MA] = ea[e]
        st[MB] = eb[e]
        v = start_choice_value(st, R, first, ea, eb, ebits, hmask, spaces, s1, rep)
        if v < best:
            best = v
            nt = 0
        if v == best:
            ties[nt] = o
            nt += 1
    return draw_tie(ties, nt, rs, black)


@helper
def deal_tasks(st, R, base, cards, deck, ids, keys):
    """Three/four players: the card of the centre tower's bottom colour lies face up; the
    others are shuffled by keys drawn per colour (``item_key(base, DECK, colour)``) and
    dealt two per seat from the top, in seat order."""
    n = R[R_N]
    centre_colour = st[TW + R[R_CENTRE]] & 15
    k = 0
    for c in range(n):
        if c != centre_colour:
            deck[k] = c
            ids[k] = c
            k += 1
    keyed_shuffle(deck, ids, keys, k, base, DECK)
    for i in range(2 * R[R_P]):
        cards[i] = deck[i]


@njit(cache=True, inline="always")
def board_key(st, n):
    """The towers' colours as one 64-bit key (a hash: equal boards, equal keys), as int64."""
    h = np.uint64(n)
    for t in range(n):
        h = mix64(h + np.uint64(st[TW + t]) + GOLDEN)
    return np.int64(h)


@helper
def seed_game(rs, seed, g):
    """The streams of game ``g``: ``rs[1 + s]`` seat s's bot; ``rs[CH]`` at the start of
    the board set-up's substream (SETUP, SUB_BOARD)."""
    seed_streams(rs, seed, g)
    open_substream(rs, CH, game_base(seed, g), SETUP, SUB_BOARD)


@helper
def play_game(g, seed, R, ea, eb, ebits, hmask, spaces, pts, bounds, cyc, bot_ids, bot_par,
              st, rs, moves, rep, ties, vals, s1, s2, ss, mv, nmv, idx, al, be, bv,
              dp, pc, used, allowed, col, rem, cards, cp, sc, before, emask, keys, tally):
    n = R[R_N]
    L = R[R_L]
    P = R[R_P]
    base = game_base(seed, g)
    seed_game(rs, seed, g)
    tally[:] = 0
    clear_state(st, R)
    # two players: White (seat 0) moves first, as the rulebook says; three/four: rotated
    first = g % P if (R[R_FIRST] == FIRST_ROTATE and P > 2) else 0
    tally[T_FIRST] = first
    if R[R_SETUP] == SETUP_UNIFORM:
        tally[T_ATTEMPTS] = setup_uniform(st, R, rs, bounds, cyc, dp, pc, used, allowed, col, rem)
    else:
        setup_turns(st, R, rs, first, bot_ids, ea, eb, used, ties)
        tally[T_ATTEMPTS] = 1
    tally[T_BOARD] = board_key(st, n)
    tally[T_DECL] = -1
    tally[T_MSTART] = -1
    tally[T_RSTART] = -1
    if P == 2:
        o = start_choice(st, R, first, bot_ids, ea, eb, ebits, hmask, spaces, s1, rep, ties,
                         rs, base)
        if R[R_RAVEN]:
            e = o // L
            st[RAV] = o % L
            tally[T_RSTART] = o % L + 1
        else:
            e = o
            st[RAV] = 0
        st[MA] = ea[e]
        st[MB] = eb[e]
        tally[T_MSTART] = e
    else:
        deal_tasks(st, R, base, cards, col, rem, keys)
    ctr = R[R_CENTRE]
    horizon = R[R_HORIZON]
    check = R[R_CHECK]
    p = first
    ex = 0
    end = END_NO_EXCHANGE
    fast = P == 2 and bot_ids[0] == BOT_RANDOM and bot_ids[1] == BOT_RANDOM and check == 0
    if fast:
        ex, end = random_pair(st, R, ea, eb, ebits, hmask, spaces, pc, emask, rs, first, tally)
    while not fast:
        b = bot_ids[p]
        if b == BOT_RANDOM:
            nm = edge_masks(st, R, ea, eb, ebits, pc, emask)
        else:
            nm = gen_moves(st, R, ea, eb, ebits, moves)
        if nm == 0:
            end = END_NO_EXCHANGE
            break
        if ex >= horizon:
            end = END_HORIZON
            break
        if P > 2 and can_declare(st, R, cards, p):
            if b == BOT_RANDOM:
                dec = rand_int(rs, 1 + p, 2) == 0
            else:
                dec = wants_to_declare(st, R, cards, p, 0, pts, cp)
            if dec:
                end = END_DECLARED
                tally[T_DECL] = p
                break
        if b == BOT_RANDOM:
            m = pick_move(emask, R[R_E], rand_int(rs, 1 + p, nm), pc)
        elif P == 2:
            if b == BOT_GREEDY:
                m = greedy2(st, R, p, moves, nm, ea, eb, ebits, hmask, spaces, s1, s2, rep,
                            ties, vals, rs)
            else:
                m = search2(st, R, p, np.int64(bot_par[p, 0]), ea, eb, ebits, hmask, spaces,
                            ss, mv, nmv, idx, al, be, bv, rs)
        elif b == BOT_GREEDY:
            m = greedy_task(st, R, p, cards, moves, nm, ea, eb, ebits, hmask, spaces, pts,
                            s1, ties, cp, rs)
        else:
            m = lookahead_task(st, R, p, cards, moves, nm, ea, eb, ebits, hmask, spaces, pts,
                               s1, s2, rep, ties, cp, rs)
        if check:
            copy_into(before, st)
        centre_open = st[CUT + ctr] != 0
        f = apply_exchange(st, R, m, p, ea, eb, hmask, spaces)
        ex += 1
        tally[T_JOINS + p] += (f & 1) + ((f >> 1) & 1)
        tally[T_COMPL + p] += ((f >> 2) & 1) + ((f >> 3) & 1)
        if check:
            tally[T_VIOL] += check_invariants(st, R, before)
        if P > 2 and can_declare(st, R, cards, p):
            bonus = R[R_BONUS] if (centre_open and st[CUT + ctr] == 0) else 0
            if b == BOT_RANDOM:
                dec = rand_int(rs, 1 + p, 2) == 0
            else:
                dec = wants_to_declare(st, R, cards, p, bonus, pts, cp)
            if dec:
                end = END_DECLARED
                tally[T_DECL] = p
                tally[T_BONUS + p] = bonus
                break
        p = (p + 1) % P
    tally[T_EX] = ex
    tally[T_END] = end
    tc = 0
    for t in range(n):
        tc += np.int64(st[CUT + t] == 0)
    tally[T_TCOMP] = tc
    side = final_scores(st, R, pts, cards, tally, cp, sc)
    if end == END_HORIZON and R[R_HRESULT] == HRESULT_DRAW:
        side = -1
    tally[T_TEAMW] = side
    if P == 4:
        tally[T_WINNER] = -1
    else:
        tally[T_WINNER] = side


@kernel
def run_games(seed, start, count, R, ea, eb, ebits, hmask, spaces, pts, bounds, cyc, bot_ids,
              bot_par, out):
    """Play games start..start+count-1; ``out[j]`` receives game j's tally."""
    n = R[R_N]
    st = np.zeros(SZ, dtype=np.int64)
    rs = np.zeros(1 + R[R_P], dtype=np.uint64)
    moves = np.zeros(MAXM, dtype=np.int64)
    rep = np.zeros(MAXM, dtype=np.int64)
    ties = np.zeros(MAXM, dtype=np.int64)
    vals = np.zeros(MAXM, dtype=np.int64)
    s1 = np.zeros(SZ, dtype=np.int64)
    s2 = np.zeros(SZ, dtype=np.int64)
    D = 8
    ss = np.zeros((D + 1, SZ), dtype=np.int64)
    mv = np.zeros((D + 1, MAXM), dtype=np.int64)
    nmv = np.zeros(D + 1, dtype=np.int64)
    idx = np.zeros(D + 1, dtype=np.int64)
    al = np.zeros(D + 1, dtype=np.int64)
    be = np.zeros(D + 1, dtype=np.int64)
    bv = np.zeros(D + 1, dtype=np.int64)
    dp = np.zeros(1 << n, dtype=np.int64)
    pc = np.zeros(1 << n, dtype=np.int64)
    for m in range(1, 1 << n):
        pc[m] = pc[m >> 1] + (m & 1)
    rem = np.zeros(NMAX, dtype=np.int64)
    emask = np.zeros(64, dtype=np.int64)
    used = np.zeros(NMAX, dtype=np.int64)
    allowed = np.zeros(NMAX, dtype=np.int64)
    col = np.zeros(NMAX, dtype=np.int64)
    cards = np.zeros(8, dtype=np.int64)
    cp = np.zeros(NMAX, dtype=np.int64)
    sc = np.zeros(8, dtype=np.int64)
    before = np.zeros(SZ, dtype=np.int64)
    keys = np.zeros(NMAX, dtype=np.uint64)
    for j in range(count):
        play_game(start + j, seed, R, ea, eb, ebits, hmask, spaces, pts, bounds, cyc, bot_ids,
                  bot_par, st, rs, moves, rep, ties, vals, s1, s2, ss, mv, nmv, idx, al, be,
                  bv, dp, pc, used, allowed, col, rem, cards, cp, sc, before, emask, keys,
                  out[j])
