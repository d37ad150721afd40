"""The search bot: expectiminimax over its move, every cast of the next caster and that
side's best reply (depth 2; at depth 3 that reply is valued, for its side, at depth 2, at
depth 4 at depth 3), scored by a material-and-progress evaluation."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_inline
from ....rng import tie_wins
from ..move import apply_move, legal_bits, legal_moves, lowest_bit
from ..state import DRAG_REVERSE, ENTRY_SPACE, copy_board, index_of, progress

WIN_VALUE = 1.0e9
#: two search values closer than this (relative, at least 1 absolute) are an exact tie
TIE_REL = 1e-9


@helper_inline
def pile_worth(held, prog, dist, T):
    """What a pile is worth to its commander: ``held`` prisoners weighted by how close
    (``dist``) they are to dying, plus a little progress (``prog``)."""
    return held * (200.0 + 400.0 * (T + 1 - dist) / (T + 1)) + 5.0 * prog


@helper_inline
def pile_worth_from(factor, held, prog, dist):
    """:func:`pile_worth` with the weight of ``dist`` read from ``factor`` (filled by
    :func:`fill_factor`: the same floating-point value, without the division)."""
    return held * factor[dist] + 5.0 * prog


@helper_inline
def fill_factor(scratch, T):
    """``scratch.factor[d]`` = the prisoners' weight at ``d`` spaces from death, as
    :func:`pile_worth` computes it (once per track length: ``scratch.factor_track``)."""
    if scratch.factor_track != T:
        for d in range(T + 1):
            scratch.factor[d] = 200.0 + 400.0 * (T + 1 - d) / (T + 1)
        scratch.factor_track = T


@helper_inline
def pile_dist(R, prog, h):
    """Spaces the pile (``h`` warriors, ``prog`` from its commander's entry) still runs to
    kill its prisoners: back home under drag=reverse, else off the far end."""
    if R.drag == DRAG_REVERSE and h > 1:
        return prog + 1
    return R.track - prog


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
        worth = pile_worth(held, prog, pile_dist(R, prog, h), T)
        if o == p:
            v += worth
        else:
            v -= worth
    return v


@helper_inline
def same_value(a, b):
    """``a`` and ``b`` (search values) are an exact tie: |a - b| <= 1e-9 max(1, |b|)."""
    return abs(a - b) <= TIE_REL * max(1.0, abs(b))


@helper_inline
def best_reply(after, R, s, cast, M, H, term, pre, factor):
    """The best :func:`evaluate` for ``s`` over ``s``'s legal replies with ``cast`` in
    ``after`` (``-inf`` when there is none), and the replies scored.

    Bit for bit the maximum of ``evaluate`` on a copy of ``after`` with each reply applied,
    without the copies.  :func:`evaluate` adds a term per occupied space to the value of
    the dead, in the order of the spaces; ``term[i]`` is space i's, signed for ``s`` (0.0 on
    an empty space: adding it changes nothing, the sum is never -0.0), and ``pre[i]`` the
    sum before space i.  A reply changes at most two spaces (the one it leaves, the one it
    lands on) and the dead: its value is ``pre`` at the first space it changes (the dead
    unchanged) and the same additions from there with its two terms, the same
    floating-point operations.  ``M``, ``H``: ``s``'s masks (``side_masks``).  A winning
    reply (the maximum value) ends the scan."""
    T = R.track
    W = R.warriors
    q = 1 - s
    dep, legal = legal_bits(R, M, H, after.home[s] > 0, cast)
    dq = np.int64(after.dead[q])
    ds = np.int64(after.dead[s])
    bv = -np.inf
    k = -1
    if dep == 0:
        if legal == 0:
            return bv, 0
        k = lowest_bit(legal)
        legal &= legal - 1
    if dq >= W:  # (not in play: the game would be over) evaluate's order of the two ends
        return WIN_VALUE, 1
    scored = 0
    while True:
        scored += 1
        if k < 0:  # deploy: one warrior of s, from s's entry space
            src = -1
            ms = np.int64(1)
            mq = np.int64(0)
            np_ = 0 if R.entry == ENTRY_SPACE else cast - 1
        else:
            src = index_of(s, k, T)
            ms = np.int64(after.count[s, src])
            mq = np.int64(after.count[q, src])
            if R.drag == DRAG_REVERSE and ms + mq > 1:
                np_ = k - cast
            else:
                np_ = k + cast
        if np_ >= T or np_ < 0:  # carried off: its prisoners die
            if dq + mq >= W:
                return WIN_VALUE, scored
            if mq > 0:
                a = 0
                v = 1000.0 * (dq + mq - ds)
            else:
                a = src
                v = pre[src]
            keep = term[src]
            term[src] = 0.0
            for i in range(a, T):
                v += term[i]
            term[src] = keep
        else:
            dest = index_of(s, np_, T)
            hq = np.int64(after.count[q, dest]) + mq
            h = np.int64(after.count[s, dest]) + ms + hq
            a = dest
            keep_d = term[dest]
            term[dest] = pile_worth_from(factor, hq, np_, pile_dist(R, np_, h))
            if src >= 0:
                if src < a:
                    a = src
                keep = term[src]
                term[src] = 0.0
            v = pre[a]
            for i in range(a, T):
                v += term[i]
            if src >= 0:
                term[src] = keep
            term[dest] = keep_d
        if ds >= W:  # (not in play, as above)
            v = -WIN_VALUE
        if v > bv:
            bv = v
        if legal == 0:
            return bv, scored
        k = lowest_bit(legal)
        legal &= legal - 1


@helper_inline
def board_terms(board, R, s, factor, term):
    """``term[i]``: space i's term of :func:`evaluate` on ``board``, signed for ``s`` (0.0
    on an empty space); returns ``s``'s masks (``side_masks``), from the same loop."""
    T = R.track
    M = np.int64(0)
    H = np.int64(0)
    for i in range(T):
        o = board.commander[i]
        t = 0.0
        if o >= 0:
            h = np.int64(board.count[0, i]) + np.int64(board.count[1, i])
            held = np.int64(board.count[1 - o, i])
            prog = progress(o, i, T)
            t = pile_worth_from(factor, held, prog, pile_dist(R, prog, h))
            if o == s:
                M |= np.int64(1) << prog
                if h > 1:
                    H |= np.int64(1) << prog
            else:
                t = -t
        term[i] = t
    return M, H


@helper_inline
def moved_terms(state, R, p, mv, cast, s, scratch, M, H):
    """:func:`board_terms` of ``scratch.after`` (``state`` with ``p``'s move ``mv`` played)
    for ``s`` into ``scratch.term``, from ``state``'s (``scratch.before``; ``M``, ``H`` its
    masks): the move changes the space it leaves and the one it lands on, no other."""
    T = R.track
    term = scratch.term
    before = scratch.before
    after = scratch.after
    one = np.int64(1)
    for i in range(T):
        term[i] = before[i]
    if mv == T:  # deploy
        dest = index_of(p, 0 if R.entry == ENTRY_SPACE else cast - 1, T)
    else:
        term[mv] = 0.0
        if p == s:
            kb = progress(s, mv, T)
            M &= ~(one << kb)
            H &= ~(one << kb)
        prog = progress(p, mv, T)
        if R.drag == DRAG_REVERSE and np.int64(state.count[0, mv]) + np.int64(state.count[1, mv]) > 1:
            np_ = prog - cast
        else:
            np_ = prog + cast
        if np_ >= T or np_ < 0:  # carried off
            return M, H
        dest = index_of(p, np_, T)
    h = np.int64(after.count[0, dest]) + np.int64(after.count[1, dest])
    prog = progress(p, dest, T)
    w = pile_worth_from(scratch.factor, np.int64(after.count[1 - p, dest]), prog, pile_dist(R, prog, h))
    kb = progress(s, dest, T)
    if p == s:
        term[dest] = w
        M |= one << kb
        if h > 1:
            H |= one << kb
    else:  # p commands it now (a pile of s there was captured)
        term[dest] = -w
        M &= ~(one << kb)
        H &= ~(one << kb)
    return M, H


@helper_inline
def expectation(R, table, p, nxt, scratch, M, H):
    """The depth-2 value for ``p`` of ``scratch.after`` from its terms (``scratch.term``,
    signed for ``nxt``) and ``nxt``'s masks: over every cast of ``nxt``, in the cast table's
    order, the probability times the value after ``nxt``'s best reply (:func:`best_reply`)."""
    after = scratch.after
    T = R.track
    term = scratch.term
    pre = scratch.pre
    factor = scratch.factor
    s = nxt
    v = 1000.0 * (np.int64(after.dead[1 - s]) - np.int64(after.dead[s]))
    for i in range(T):  # evaluate's sum before each space
        pre[i] = v
        v += term[i]
    v = 0.0
    stay = 0.0   # evaluate(after, p), when some cast leaves nxt no move
    have_stay = False
    scored = 0
    for c in range(table.values.shape[0]):
        bv, sc = best_reply(after, R, s, table.values[c], M, H, term, pre, factor)
        scored += sc
        if sc == 0:
            if not have_stay:
                stay = evaluate(after, R, p)
                have_stay = True
                scored += 1
            v += table.probs[c] * stay
            continue
        v += table.probs[c] * (bv if nxt == p else -bv)
    scratch.stats[1] += scored
    return v


@helper
def move_value(R, table, p, depth, nxt, scratch):
    """The value for ``p`` of the position ``scratch.after`` (our move played): its
    evaluation at depth 1; at depth 2 the expectation over every cast of ``nxt`` (who casts
    next) of the value after that side's best reply (zero-sum, :func:`best_reply`)."""
    after = scratch.after
    if depth <= 1:
        scratch.stats[1] += 1
        return evaluate(after, R, p)
    fill_factor(scratch, R.track)
    M, H = board_terms(after, R, nxt, scratch.factor, scratch.term)
    return expectation(R, table, p, nxt, scratch, M, H)


@helper
def move_value_after(state, R, table, p, mv, cast, nxt, scratch, M, H):
    """:func:`move_value` at depth 2 of ``scratch.after`` = ``state`` with ``p``'s move
    ``mv`` played, from ``state``'s terms (``scratch.before``, ``M``, ``H``: :func:`board_terms`
    for ``nxt``, the factor table filled): the same value, without a loop over the board."""
    M, H = moved_terms(state, R, p, mv, cast, nxt, scratch, M, H)
    return expectation(R, table, p, nxt, scratch, M, H)


@helper
def deep_value(R, table, p, nxt, nxt_left, levels, k, depth):
    """The value for ``p`` at ``depth`` (3 or more) of ``levels[k].after``: over every cast
    of ``nxt`` (who casts next, with ``nxt_left`` casts of its turn left after this one), in
    the cast table's order, the probability times the value of ``nxt``'s best reply (played
    in ``levels[k + 1]``), each reply valued for ``nxt`` one depth less (at depth 2 by
    :func:`move_value`, the value ``nxt``'s own depth-2 search gives it) and a winning reply
    at ``WIN_VALUE``.  A cast that leaves ``nxt`` no move passes to the caster after it: the
    position's value for ``p`` one depth less.  Recursive with one signature (numba caches a
    self-recursive function whose calls keep their types)."""
    after = levels[k].after
    below = levels[k + 1]
    W = R.warriors
    T = R.track
    nn = nxt if nxt_left > 0 else 1 - nxt   # who casts after nxt, and its casts left after
    nn_left = nxt_left - 1 if nxt_left > 0 else R.casts_per_turn - 1
    v = 0.0
    stay = 0.0
    have_stay = False
    for c in range(table.values.shape[0]):
        cast = table.values[c]
        n = legal_moves(after, R, nxt, cast, below.moves)
        if n == 0:
            if not have_stay:
                copy_board(below.after, after, T)
                if depth <= 3:
                    stay = move_value(R, table, p, 2, nn, below)
                else:
                    stay = deep_value(R, table, p, nn, nn_left, levels, k + 1, depth - 1)
                have_stay = True
            v += table.probs[c] * stay
            continue
        bv = -np.inf
        for m in range(n):
            copy_board(below.after, after, T)
            apply_move(below.after, R, nxt, below.moves[m], cast)
            if below.after.dead[1 - nxt] >= W:
                bv = WIN_VALUE
                break
            if depth <= 3:
                r = move_value(R, table, nxt, 2, nn, below)
            else:
                r = deep_value(R, table, nxt, nn, nn_left, levels, k + 1, depth - 1)
            if r > bv:
                bv = r
        v += table.probs[c] * (bv if nxt == p else -bv)
    return v


@helper
def search_choice(state, R, table, p, cast, moves, n, depth, casts_left_in_turn, scratch):
    """The move of ``moves[:n]`` with the best :func:`move_value` (``depth`` 1 or 2) or
    :func:`deep_value` (``depth`` 3 or 4; ``casts_left_in_turn``: casts ``p`` still makes
    this turn, so who casts next).

    A winning move is played at once: there is at most one (all the enemy's living warriors
    would have to be in the pile it carries off).  Moves whose values are an exact tie
    (:func:`same_value` with the best value found first) are equally likely, drawn on
    seat ``p``'s stream only when there is a tie.  A lone legal move is played without
    a search (it would draw nothing)."""
    if n == 1:
        return moves[0]
    scratch.stats[0] += 1
    W = R.warriors
    T = R.track
    after = scratch.after
    nxt = p if casts_left_in_turn > 0 else 1 - p
    M = np.int64(0)
    H = np.int64(0)
    if depth == 2:
        fill_factor(scratch, T)
        M, H = board_terms(state, R, nxt, scratch.factor, scratch.before)
    best = moves[0]
    best_v = 0.0
    ties = 0
    for k in range(n):
        copy_board(after, state, T)
        apply_move(after, R, p, moves[k], cast)
        if after.dead[1 - p] >= W:
            return moves[k]
        if depth >= 3:
            nxt_left = casts_left_in_turn - 1 if nxt == p else R.casts_per_turn - 1
            copy_board(scratch.levels[0].after, after, T)
            v = deep_value(R, table, p, nxt, nxt_left, scratch.levels, 0, depth)
        elif depth == 2:
            v = move_value_after(state, R, table, p, moves[k], cast, nxt, scratch, M, H)
        else:
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
