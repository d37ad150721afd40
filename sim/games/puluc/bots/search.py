"""The search bot: expectiminimax over its move, the next cast and the best reply."""
from __future__ import annotations

import numpy as np
from numba import njit

from ....jit import copy_into, helper
from ....rng import tie_wins
from ..move import apply_move, legal_moves
from ..state import DRAG_REVERSE, R_DRAG, R_T, R_W, progress

WIN_VALUE = 1.0e9
#: two search values closer than this (relative, at least 1 absolute) are an exact tie
TIE_REL = 1e-9


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
