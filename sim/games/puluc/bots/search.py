"""The search bot: expectiminimax over its move, every cast of the next caster and that
side's best reply, scored by a material-and-progress evaluation."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_inline
from ....rng import tie_wins
from ..move import apply_move, legal_moves
from ..state import DRAG_REVERSE, copy_state, progress

WIN_VALUE = 1.0e9
#: two search values closer than this (relative, at least 1 absolute) are an exact tie
TIE_REL = 1e-9


@helper
def evaluate(state, R, p):
    """Zero-sum static value of a position for side ``p``: kills, plus each pile's prisoners
    weighted by how close they are to dying, plus a little progress."""
    T = R.track
    W = R.warriors
    q = 1 - p
    if state.dead[q] >= W:
        return WIN_VALUE
    if state.dead[p] >= W:
        return -WIN_VALUE
    v = 1000.0 * (np.int64(state.dead[q]) - np.int64(state.dead[p]))
    for i in range(T):
        o = state.commander[i]
        if o < 0:
            continue
        h = np.int64(state.count[0, i]) + np.int64(state.count[1, i])
        held = np.int64(state.count[1 - o, i])  # enemies under commander o
        prog = progress(o, i, T)
        if R.drag == DRAG_REVERSE and h > 1:
            dist = prog + 1
        else:
            dist = T - prog
        worth = held * (200.0 + 400.0 * (T + 1 - dist) / (T + 1)) + 5.0 * prog
        if o == p:
            v += worth
        else:
            v -= worth
    return v


@helper_inline
def same_value(a, b):
    """``a`` and ``b`` (search values) are an exact tie: |a - b| <= 1e-9 max(1, |b|)."""
    return abs(a - b) <= TIE_REL * max(1.0, abs(b))


@helper
def move_value(R, table, p, depth, nxt, scratch):
    """The value for ``p`` of the position ``scratch.after`` (our move played): its
    evaluation at depth 1; at depth 2 the expectation over every cast of ``nxt`` (who casts
    next) of the value after that side's best reply (zero-sum)."""
    after = scratch.after
    if depth <= 1:
        return evaluate(after, R, p)
    reply = scratch.reply
    replies = scratch.replies
    v = 0.0
    for c in range(table.values.shape[0]):
        cv = table.values[c]
        nr = legal_moves(after, R, nxt, cv, replies)
        if nr == 0:
            v += table.probs[c] * evaluate(after, R, p)
            continue
        bv = -np.inf
        for r in range(nr):
            copy_state(reply, after)
            apply_move(reply, R, nxt, replies[r], cv)
            e = evaluate(reply, R, nxt)
            if e > bv:
                bv = e
        v += table.probs[c] * (bv if nxt == p else -bv)
    return v


@helper
def search_choice(state, R, table, p, cast, moves, n, depth, casts_left_in_turn, scratch):
    """The move of ``moves[:n]`` with the best :func:`move_value` (``depth`` 1 or 2;
    ``casts_left_in_turn``: casts ``p`` still makes this turn, so who casts next).

    A winning move is played at once: there is at most one (all the enemy's living warriors
    would have to be in the pile it carries off).  Moves whose values are an exact tie
    (:func:`same_value` with the best value found first) are equally likely, drawn on
    seat ``p``'s stream only when there is a tie."""
    W = R.warriors
    after = scratch.after
    nxt = p if casts_left_in_turn > 0 else 1 - p
    best = moves[0]
    best_v = 0.0
    ties = 0
    for k in range(n):
        copy_state(after, state)
        apply_move(after, R, p, moves[k], cast)
        if after.dead[1 - p] >= W:
            return moves[k]
        v = move_value(R, table, p, depth, nxt, scratch)
        if ties == 0 or (v > best_v and not same_value(v, best_v)):
            best_v = v
            best = moves[k]
            ties = 1
        elif same_value(v, best_v):
            ties += 1
            if tie_wins(state.streams, 1 + p, ties):
                best = moves[k]
    return best
