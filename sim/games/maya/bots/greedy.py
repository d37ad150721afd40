"""The greedy bot.  Two players: the best immediate value (points, then priests, then
ladders lead; a move that ends the game counts as its result), ties broken by blocking
the opponent's best reply, then by a uniform draw; as black, the start that leaves white
the least.  Three/four players: the task bot, playing towards its own task colours and
declaring when its points beat what it can see.  Exact ties are uniform over the tied
options, drawn on the seat's own stream."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_inline
from ....rng import rand_int
from ..exchange import apply_exchange, gen_moves, has_move
from ..scoring import can_declare, colour_points, result2
from ..state import (MA, MB, NEG, RAV, R_BONUS, R_CENTRE, R_E, R_EA, R_EB, R_L, R_N, R_P, R_PTS,
                     R_RAVEN, W_S1, W_S2, WIN, X_CARDS, X_CP, X_MOVES, X_REP, X_TIES, X_VALS, at,
                     copy_state, copy_work, nib)


@helper_inline
def draw_tie(ties, nt, rs, p):
    """One of the nt tied choices in ``ties``: the only one without a draw, else uniform
    on seat p's stream."""
    if nt > 1:
        return ties[rand_int(rs, 1 + p, nt)]
    return ties[0]


# ------------------------------------------------------------------ two players
@helper_inline
def eval2(st, n, p):
    """Static value for seat p: 100 x points lead + 10 x priests lead + ladders lead."""
    v = 0
    for t in range(n):
        pr = st.pr[t]
        if pr >= 0:
            v += 110 if pr == p else -110
        lp = st.lad[t, p]
        lq = st.lad[t, 1 - p]
        v += lp - lq
        if lp > lq:
            v += 100
        elif lq > lp:
            v -= 100
    return v


@helper
def leaf2(st, R, p):
    """Value for seat p, which is to move: the result if it cannot move, else eval2."""
    if not has_move(st, R):
        return result2(st, R[R_N], p)
    return eval2(st, R[R_N], p)


@helper_inline
def best_reply_value(st, R, m, p, sc):
    """Minus the best immediate value the opponent has after seat p's exchange m (the
    blocking tie-break); a move that leaves the opponent stuck is worth WIN + 1."""
    q = 1 - p
    s1 = at(sc.ws, W_S1)
    s2 = at(sc.ws, W_S2)
    rep = sc.x[X_REP]
    copy_state(s1, st)
    apply_exchange(s1, R, m, p)
    nr = gen_moves(s1, R, rep)
    worst = NEG
    if nr == 0:
        worst = -WIN - 1
    for r in range(nr):
        copy_work(sc, W_S2, W_S1)
        apply_exchange(s2, R, rep[r], q)
        w = -leaf2(s2, R, p)
        if w > worst:
            worst = w
    return -worst


@helper
def greedy2(st, R, p, nm, sc, rs):
    """Best immediate value among the nm moves in ``sc.x[X_MOVES]`` (eval2 after the move,
    or the result if the opponent is then stuck); among equals, the move leaving the
    opponent the smallest best immediate value (blocking); among equals, one uniform draw."""
    q = 1 - p
    X = sc.x
    moves = X[X_MOVES]
    s1 = at(sc.ws, W_S1)
    ties = X[X_TIES]
    vals = X[X_VALS]
    best = NEG
    nt = 0
    for k in range(nm):
        copy_state(s1, st)
        apply_exchange(s1, R, moves[k], p)
        v = -leaf2(s1, R, q)
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
            v = best_reply_value(st, R, moves[k], p, sc)
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


@helper_inline
def start_choice_value(st, R, white, sc):
    """White's best immediate value (greedy's first stage) from a starting position."""
    rep = sc.x[X_REP]
    s1 = at(sc.ws, W_S1)
    nr = gen_moves(st, R, rep)
    if nr == 0:
        return result2(st, R[R_N], white)
    best = NEG
    for r in range(nr):
        copy_state(s1, st)
        apply_exchange(s1, R, rep[r], white)
        w = -leaf2(s1, R, 1 - white)
        if w > best:
            best = w
    return best


@helper
def greedy_start(st, R, first, sc, rs):
    """Black's start (greedy and search): the option o (the Monolith on edge ``o // L``
    and the Raven at level ``o % L``; without the Raven: edge o) leaving White the
    smallest best immediate value, ties by one uniform draw on black's stream.  Leaves
    the Monolith and the Raven set as the last option tried: the caller places them."""
    L = R[R_L]
    ties = sc.x[X_TIES]
    nopt = R[R_E] * L if R[R_RAVEN] else R[R_E]
    best = -NEG
    nt = 0
    for o in range(nopt):
        if R[R_RAVEN]:
            e = o // L
            st.pcs[RAV] = o % L
        else:
            e = o
        st.pcs[MA] = R[R_EA + e]
        st.pcs[MB] = R[R_EB + e]
        v = start_choice_value(st, R, first, sc)
        if v < best:
            best = v
            nt = 0
        if v == best:
            ties[nt] = o
            nt += 1
    return draw_tie(ties, nt, rs, 1 - first)


# ------------------------------------------------------------------ three/four players
@helper
def wants_to_declare(st, R, cards, p, bonus, cp):
    """Task bots: declare when own points (with the bonus) are at least what the unknown
    colours suggest the rivals hold: three players, the two best unknown colours; four
    players, two thirds of the unknown colours' points (the partner's third counts for us)."""
    n = R[R_N]
    colour_points(st, n, R[R_L], R[R_PTS:], cp)
    c1 = cards[2 * p]
    c2 = cards[2 * p + 1]
    mine = cp[c1] + cp[c2] + bonus
    centre_colour = st.tw[R[R_CENTRE]] & 15
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


@helper_inline
def task_value(st, R, cards, p, cp):
    """Task bots' position value: 1000 x own task points + a gathering potential
    (per own colour: sum over towers of (blocks of it in the tower)^2, plus 2 per block
    already in the tower standing on that colour)."""
    n = R[R_N]
    L = R[R_L]
    colour_points(st, n, L, R[R_PTS:], cp)
    v = 0
    for j in range(2):
        c = cards[2 * p + j]
        v += 1000 * cp[c]
        for t in range(n):
            x = st.tw[t]
            cnt = 0
            for l in range(L):
                cnt += np.int64(nib(x, l) == c)
            v += cnt * cnt
            if (x & 15) == c:
                v += 2 * cnt
    return v


@helper
def task_step_value(st, R, cards, p, m, s, X, centre_open):
    """task_value after exchange m (into ``s``), counting the centre bonus when the move
    completes the centre tower and lets seat p declare (task cards ``cards``: the real
    deal, or the search's sampled one)."""
    copy_state(s, st)
    apply_exchange(s, R, m, p)
    v = task_value(s, R, cards, p, X[X_CP])
    if centre_open and s.cut[R[R_CENTRE]] == 0 and can_declare(s, R, cards, p):
        v += 1000 * R[R_BONUS]
    return v


@helper
def task_pick(st, R, cards, p, nm, sc, rs, slot):
    """Task bots' exchange for seat p with task cards ``cards`` among the nm moves in
    ``sc.x[X_MOVES]``: the best task_value after the move, counting the centre bonus when the
    move completes the centre tower and lets it declare; ties: one uniform draw on the
    stream of seat ``slot`` (p itself; the searching seat in the search's play-outs)."""
    X = sc.x
    moves = X[X_MOVES]
    ties = X[X_TIES]
    s1 = at(sc.ws, W_S1)
    centre_open = st.cut[R[R_CENTRE]] != 0
    best = NEG
    nt = 0
    for k in range(nm):
        v = task_step_value(st, R, cards, p, moves[k], s1, X, centre_open)
        if v > best:
            best = v
            nt = 0
        if v == best:
            ties[nt] = k
            nt += 1
    return moves[draw_tie(ties, nt, rs, slot)]


@helper_inline
def greedy_task(st, R, p, nm, sc, rs):
    """Task bots' exchange (``task_pick`` with the seat's own cards and stream)."""
    return task_pick(st, R, sc.x[X_CARDS], p, nm, sc, rs, p)
