"""Puluc rules kernel and bots, jitted with numba.

Board state is one flat int64 array ``st`` of length ``3*T + 4`` (T = track length):

* ``st[i]``          commander of the pile on space index i (0-based), -1 when empty;
* ``st[T + i]``      Jade warriors in that pile;
* ``st[2*T + i]``    Cinnabar warriors in that pile;
* ``st[3*T + s]``    warriors of side s at home (reserve);
* ``st[3*T + 2 + s]`` warriors of side s killed.

A pile never splits, and every capture puts the mover on top, so the commander
and the two counts are all a pile needs.  Side 0 (Jade) enters at index 0 and
runs up; side 1 (Cinnabar) enters at index T-1 and runs down.  A side's
*progress* on index i is ``i`` for Jade and ``T-1-i`` for Cinnabar.

Moves are coded ``0..T-1`` (the pile on that index) and ``T`` (deploy).  A
destination is an index, ``T`` for "off the board" (carried off) or -1 when the
move is illegal.

Chance and tie-breaks (``sim/rng.py``): the casts come from the game's DICE substream
(index 0) in slot ``CASTS`` of the streams array; each cast takes the next
``ceil(lots / 4)`` draws, so cast *k* of game *i* is a function of (seed, i, k) alone,
whatever the bots do.  Slot ``1 + s`` is seat *s*'s bot stream: the random bot's
choices and every bot's tie-breaks (``tie_wins``: exact ties are uniform over the tied
moves, never decided by the order of the move list).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...jit import copy_into, helper, kernel, popcount
from ...rng import DICE, game_base, next_u64, open_substream, rand_int, seed_streams, tie_wins

# rule array slots
R_T, R_W, R_LOTS, R_CPT, R_ENTRY, R_EXIT, R_DRAG, R_HORIZON, R_FIRST, R_STACK = range(10)
N_RULES = 10
ENTRY_SPACE, ENTRY_CAST = 0, 1
EXIT_ANY, EXIT_PILE = 0, 1
DRAG_FORWARD, DRAG_REVERSE = 0, 1
FIRST_ALTERNATE, FIRST_JADE, FIRST_CINNABAR = 0, 1, 2
STACK_NEVER, STACK_PILES = 0, 1

BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2

# per-game tallies
G_KILLS, G_CAPT, G_RESC, G_FORF = 0, 2, 4, 6
G_MOVES, G_DEEP = 8, 9
N_TALLY = 10

END_KILLED, END_HORIZON = 0, 1
WIN_VALUE = 1.0e9
CASTS = 0  # slot of the casts' chance substream in the streams array
#: two search values closer than this (relative, at least 1 absolute) are an exact tie
TIE_REL = 1e-9


@kernel
def new_state(T, W):
    st = np.zeros(3 * T + 4, dtype=np.int64)
    reset_state(st, T, W)
    return st


@helper
def reset_state(st, T, W):
    for i in range(T):
        st[i] = -1
        st[T + i] = 0
        st[2 * T + i] = 0
    st[3 * T] = W
    st[3 * T + 1] = W
    st[3 * T + 2] = 0
    st[3 * T + 3] = 0


@njit(cache=True, inline="always")
def progress(p, i, T):
    return i if p == 0 else T - 1 - i


@njit(cache=True, inline="always")
def index_of(p, prog, T):
    return prog if p == 0 else T - 1 - prog


@helper
def destination(st, R, p, mv, cast):
    """Where move ``mv`` of side ``p`` with ``cast`` ends: index, T (off), or -1 (illegal)."""
    T = R[R_T]
    if mv == T:  # deploy
        if st[3 * T + p] == 0:
            return -1
        if R[R_ENTRY] == ENTRY_SPACE:
            dest = index_of(p, 0, T)
        else:
            if cast > T:
                return -1
            dest = index_of(p, cast - 1, T)
        height = 0
    else:
        if st[mv] != p:
            return -1
        height = st[T + mv] + st[2 * T + mv]
        prog = progress(p, mv, T)
        if R[R_DRAG] == DRAG_REVERSE and height > 1:
            np_ = prog - cast  # a pile with prisoners runs back to its own home
        else:
            np_ = prog + cast
        if np_ >= T or np_ < 0:
            if R[R_EXIT] == EXIT_PILE and height < 2:
                return -1
            return T
        dest = index_of(p, np_, T)
    if st[dest] == p:
        if R[R_STACK] == STACK_PILES and st[T + dest] + st[2 * T + dest] > 1:
            return dest
        return -1
    return dest


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array([
    0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6], dtype=np.int64)


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` (x > 0), by a de Bruijn multiply."""
    low = np.uint64(x & -x)
    return _DEBRUIJN_INDEX[np.int64((low * _DEBRUIJN) >> np.uint64(58))]


@njit(cache=True, inline="always")
def legal_mask(st, R, p, cast):
    """(1 if deploying is legal else 0, bit mask of the legal piles in ``p``'s progress
    coordinates: bit k = the pile k spaces from its entry), branch-free on bit masks."""
    T = R[R_T]
    M = np.int64(0)  # spaces p commands
    H = np.int64(0)  # ... holding prisoners (height > 1)
    for k in range(T):
        i = k if p == 0 else T - 1 - k
        c = np.int64(st[i] == p)
        h = np.int64(st[T + i] + st[2 * T + i] > 1)
        M |= c << k
        H |= (c & h) << k
    full = (np.int64(1) << T) - 1
    block = M & ~H if R[R_STACK] == STACK_PILES else M
    if R[R_DRAG] == DRAG_REVERSE:
        fw = M & ~H
        bw = M & H
    else:
        fw = M
        bw = np.int64(0)
    legal = fw & ~(block >> cast)                       # forward, landing or carried off
    legal |= bw & ~((block << cast) & full)             # backward (drag=reverse piles)
    if R[R_EXIT] == EXIT_PILE:                          # lone warriors may not leave
        off_f = full & ~((np.int64(1) << max(T - cast, 0)) - 1)
        off_b = (np.int64(1) << min(cast, T)) - 1
        legal &= ~(((fw & off_f) | (bw & off_b)) & ~H)
    dep = 0
    if st[3 * T + p] > 0:
        if R[R_ENTRY] == ENTRY_SPACE:
            d = 0
        else:
            d = cast - 1
        if d < T and ((block >> d) & 1) == 0:
            dep = 1
    return dep, legal


@njit(cache=True, inline="always")
def legal_moves(st, R, p, cast, out):
    """Fill ``out`` with the distinct legal moves (deploy first, then piles from the entry on).

    Same answers as testing :func:`destination` on every move (see :func:`legal_mask`).
    ``out`` needs room for T + 1 entries.
    """
    T = R[R_T]
    dep, legal = legal_mask(st, R, p, cast)
    n = 0
    if dep:
        out[0] = T
        n = 1
    while legal != 0:
        k = lowest_bit(legal)
        out[n] = k if p == 0 else T - 1 - k
        n += 1
        legal &= legal - 1
    return n


@njit(cache=True, inline="always")
def random_move(st, R, p, cast, rs):
    """The random bot: the move at a uniform index of :func:`legal_moves`' list, without
    writing the list (same draw, same move); -1, drawing nothing, when no move is legal."""
    T = R[R_T]
    dep, legal = legal_mask(st, R, p, cast)
    n = dep + popcount(legal)
    if n == 0:
        return -1
    r = rand_int(rs, 1 + p, n)
    if dep:
        if r == 0:
            return T
        r -= 1
    for _ in range(r):
        legal &= legal - 1
    k = lowest_bit(legal)
    return k if p == 0 else T - 1 - k


@njit(cache=True, inline="always")
def apply_move(st, R, p, mv, cast, tally):
    """Play a legal move; update ``tally`` (kills, captures, rescues, deepest pile)."""
    T = R[R_T]
    q = 1 - p
    if mv == T:  # deploy
        st[3 * T + p] -= 1
        m0 = 1 - p
        m1 = p
        if R[R_ENTRY] == ENTRY_SPACE:
            dest = index_of(p, 0, T)
        else:
            dest = index_of(p, cast - 1, T)
    else:
        m0 = st[T + mv]
        m1 = st[2 * T + mv]
        st[mv] = -1
        st[T + mv] = 0
        st[2 * T + mv] = 0
        prog = progress(p, mv, T)
        if R[R_DRAG] == DRAG_REVERSE and m0 + m1 > 1:
            np_ = prog - cast
        else:
            np_ = prog + cast
        dest = T if (np_ >= T or np_ < 0) else index_of(p, np_, T)
    if dest == T:  # carried off: enemies die, own warriors go home
        mine = m0 if p == 0 else m1
        theirs = m1 if p == 0 else m0
        st[3 * T + 2 + q] += theirs
        st[3 * T + p] += mine
        tally[G_KILLS + p] += theirs
    else:
        d0 = st[T + dest]
        d1 = st[2 * T + dest]
        if st[dest] == q:
            tally[G_CAPT + p] += 1
            tally[G_RESC + p] += d0 if p == 0 else d1
        st[T + dest] = d0 + m0
        st[2 * T + dest] = d1 + m1
        st[dest] = p
        h = d0 + m0 + d1 + m1
        if h > tally[G_DEEP]:
            tally[G_DEEP] = h


@helper
def greedy_score(st, R, p, mv, cast):
    """One-ply heuristic: carry off enemies, capture the biggest pile, run the leader."""
    T = R[R_T]
    dest = destination(st, R, p, mv, cast)
    if mv == T:
        m_own, m_enemy, lead = 1, 0, 0
    else:
        m_own = st[T + mv] if p == 0 else st[2 * T + mv]
        m_enemy = st[2 * T + mv] if p == 0 else st[T + mv]
        lead = progress(p, mv, T) + 1
    score = lead
    if dest == T:
        score += 1000 * m_enemy + 50 * m_own
    elif st[dest] == 1 - p:
        d_own = st[T + dest] if p == 0 else st[2 * T + dest]
        d_enemy = st[2 * T + dest] if p == 0 else st[T + dest]
        score += 100 * d_enemy + 90 * d_own
    return score


@helper
def evaluate(st, R, p):
    """Zero-sum static value of a position for side ``p``."""
    T = R[R_T]
    W = R[R_W]
    q = 1 - p
    if st[3 * T + 2 + q] >= W:
        return WIN_VALUE
    if st[3 * T + 2 + p] >= W:
        return -WIN_VALUE
    v = 1000.0 * (st[3 * T + 2 + q] - st[3 * T + 2 + p])
    for i in range(T):
        o = st[i]
        if o < 0:
            continue
        h = st[T + i] + st[2 * T + i]
        held = st[2 * T + i] if o == 0 else st[T + i]  # enemies under commander o
        prog = progress(o, i, T)
        if R[R_DRAG] == DRAG_REVERSE and h > 1:
            dist = prog + 1
        else:
            dist = T - prog
        worth = held * (200.0 + 400.0 * (T + 1 - dist) / (T + 1)) + 5.0 * prog
        if o == p:
            v += worth
        else:
            v -= worth
    return v


@helper
def greedy_choice(st, R, p, cast, moves, n, rs):
    """The move with the best :func:`greedy_score`; moves with equal scores (integers) are
    equally likely, drawn on the bot's own stream only when there is a tie."""
    best = moves[0]
    best_s = greedy_score(st, R, p, moves[0], cast)
    ties = 1
    for k in range(1, n):
        s = greedy_score(st, R, p, moves[k], cast)
        if s > best_s:
            best_s = s
            best = moves[k]
            ties = 1
        elif s == best_s:
            ties += 1
            if tie_wins(rs, 1 + p, ties):
                best = moves[k]
    return best


@njit(cache=True, inline="always")
def same_value(a, b):
    """``a`` and ``b`` (search values) are an exact tie: |a - b| <= 1e-9 max(1, |b|)."""
    return abs(a - b) <= TIE_REL * max(1.0, abs(b))


@helper
def search_choice(st, R, p, cast, moves, n, depth, casts_left_in_turn,
                  cast_vals, cast_probs, scratch, dummy, rs):
    """Expectiminimax: our move, then (depth 2) every cast of the next caster and its best reply.

    A winning move is played at once: there is at most one (all the enemy's living warriors
    would have to be in the pile it carries off).  Moves whose values are an exact tie
    (:func:`same_value` with the best value found first) are equally likely, drawn on the
    bot's own stream only when there is a tie."""
    T = R[R_T]
    W = R[R_W]
    s1 = scratch[0]
    s2 = scratch[1]
    rep = scratch[2]
    nxt = p if casts_left_in_turn > 0 else 1 - p
    best = moves[0]
    best_v = 0.0
    ties = 0
    for k in range(n):
        copy_into(s1, st)
        apply_move(s1, R, p, moves[k], cast, dummy)
        if s1[3 * T + 2 + (1 - p)] >= W:
            return moves[k]
        if depth <= 1:
            v = evaluate(s1, R, p)
        else:
            v = 0.0
            for c in range(cast_vals.shape[0]):
                cv = cast_vals[c]
                nr = legal_moves(s1, R, nxt, cv, rep)
                if nr == 0:
                    v += cast_probs[c] * evaluate(s1, R, p)
                    continue
                # the next caster picks the reply best for itself (zero-sum)
                bv = -np.inf
                for r in range(nr):
                    copy_into(s2, s1)
                    apply_move(s2, R, nxt, rep[r], cv, dummy)
                    e = evaluate(s2, R, nxt)
                    if e > bv:
                        bv = e
                v += cast_probs[c] * (bv if nxt == p else -bv)
        if ties == 0 or (v > best_v and not same_value(v, best_v)):
            best_v = v
            best = moves[k]
            ties = 1
        elif same_value(v, best_v):
            ties += 1
            if tie_wins(rs, 1 + p, ties):
                best = moves[k]
    return best


@njit(cache=True, inline="always")
def seed_game(rs, seed, g):
    """The streams of game ``g``: ``rs[CASTS]`` at the start of its DICE substream (index
    0), ``rs[1 + s]`` at the start of seat s's bot stream."""
    seed_streams(rs, seed, g)
    open_substream(rs, CASTS, game_base(seed, g), DICE, 0)


@njit(cache=True, inline="always")
def cast_lots(rs, R, tab, lot_thresh):
    """Cast the lots: each lot takes 16 bits of a draw from the casts' substream (four lots
    a draw) and is marked when they fall below ``lot_thresh`` (= lot_p * 65536)."""
    marked = 0
    x = np.uint64(0)
    for k in range(R[R_LOTS]):
        if k % 4 == 0:
            x = next_u64(rs, CASTS)
        marked += np.int64(np.int64(x & np.uint64(0xFFFF)) < lot_thresh)  # branch-free
        x = x >> np.uint64(16)
    return tab[marked]


@helper
def play_game(g, seed, R, tab, lot_thresh, cast_vals, cast_probs, bot_ids, bot_par,
              st, rs, moves, scratch, tally, dummy):
    """Play game ``g``; returns (winner, end_reason, first, casts); tallies in ``tally``."""
    T = R[R_T]
    W = R[R_W]
    seed_game(rs, seed, g)
    reset_state(st, T, W)
    tally[:] = 0
    fm = R[R_FIRST]
    if fm == FIRST_ALTERNATE:
        first = g % 2
    elif fm == FIRST_JADE:
        first = 0
    else:
        first = 1
    p = first
    casts = 0
    horizon = R[R_HORIZON]
    cpt = R[R_CPT]
    while True:
        for k in range(cpt):
            cast = cast_lots(rs, R, tab, lot_thresh)
            casts += 1
            b = bot_ids[p]
            if b == BOT_RANDOM:
                mv = random_move(st, R, p, cast, rs)
            else:
                n = legal_moves(st, R, p, cast, moves)
                if n == 0:
                    mv = -1
                elif b == BOT_GREEDY:
                    mv = greedy_choice(st, R, p, cast, moves, n, rs)
                else:
                    mv = search_choice(st, R, p, cast, moves, n, np.int64(bot_par[p, 0]),
                                       cpt - 1 - k, cast_vals, cast_probs, scratch, dummy, rs)
            if mv < 0:
                tally[G_FORF + p] += 1
            else:
                apply_move(st, R, p, mv, cast, tally)
                tally[G_MOVES] += 1
                if st[3 * T + 2 + (1 - p)] >= W:
                    return p, END_KILLED, first, casts
            if casts >= horizon:
                return -1, END_HORIZON, first, casts
        p = 1 - p


@kernel
def run_games(seed, start, count, R, tab, lot_thresh, cast_vals, cast_probs, bot_ids, bot_par,
              winner, end_reason, first_player, casts, moves_out, deepest,
              kills, captures, rescues, forfeits):
    T = R[R_T]
    st = new_state(T, R[R_W])
    rs = np.zeros(3, dtype=np.uint64)
    moves = np.zeros(T + 2, dtype=np.int64)
    scratch = np.zeros((3, 3 * T + 4), dtype=np.int64)
    tally = np.zeros(N_TALLY, dtype=np.int64)
    dummy = np.zeros(N_TALLY, dtype=np.int64)
    for j in range(count):
        w, e, f, c = play_game(start + j, seed, R, tab, lot_thresh, cast_vals, cast_probs,
                               bot_ids, bot_par, st, rs, moves, scratch, tally, dummy)
        winner[j] = w
        end_reason[j] = e
        first_player[j] = f
        casts[j] = c
        moves_out[j] = tally[G_MOVES]
        deepest[j] = tally[G_DEEP]
        for s in range(2):
            kills[j, s] = tally[G_KILLS + s]
            captures[j, s] = tally[G_CAPT + s]
            rescues[j, s] = tally[G_RESC + s]
            forfeits[j, s] = tally[G_FORF + s]
