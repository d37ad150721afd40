"""The search bot with two players: alpha-beta (negamax) over exchanges to a fixed
depth, leaves valued by the greedy bot's ``leaf2`` (or, ``leaf=model``, by the learned value:
``features.py``), root moves shuffled on its own stream
so that equal best moves are equally likely.  Three/four players: ``mcts.py``.

Below the root the moves are searched best first by their static gain (``order_moves``):
that changes which positions alpha-beta visits, never the move it plays.  Alpha-beta's
value of a move is exact when it beats the best value found so far and a bound at or
below it otherwise, so the root, which keeps its shuffled order and plays the first move
with the strictly best value, chooses the same move under any order below it.  One
exchange above the leaves no exchange is made (``frontier_value``): a leaf's ``leaf2`` is
the parent's ``eval2`` plus the exchange's gain unless the opponent is left without a move
(``has_move_after``).  Both are exact (tests/test_maya_alphabeta.py), so the search plays
bit for bit as before; at depth 5 it values 4.3x fewer positions and runs 6-7x faster
(docs/BENCH.md)."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_inline
from ....search import model_at_leaf, shuffle
from ..exchange import apply_exchange, gen_moves, has_move
from ..features import LEAF_FORMULA, LEAF_MODEL, NO_MODEL, model_value
from ..scoring import result2
from ..state import (LSUP, NEG, PSUP, R_E, R_EA, R_EB, R_EBITS, R_HMASK, R_L, R_LP, R_N, R_RAVEN,
                     R_SPACES, RAV, S_DECISIONS, S_NODES, W_SS, X_AL, X_BE, X_BV, X_IDX, X_MV, X_NMV,
                     X_STATS, X_CARDS, at, copy_state, copy_work, nib)
from .greedy import eval2, leaf2


@helper_inline
def shuffle_root(st, R, p, X, rs):
    """The root's legal moves into row ``X_MV``, shuffled with one Fisher-Yates pass on
    seat p's stream; returns how many."""
    mv0 = X[X_MV]
    n0 = gen_moves(st, R, mv0)
    shuffle(mv0, 0, n0, rs, 1 + p)
    return n0


@helper_inline
def ladder_gain(st, t, p, lad):
    """eval2's gain for seat p from one more ladder beside tower t (``lad``: 0 when no
    ladder is placed): one for the ladder, 100 more for each step the majority moves."""
    if lad == 0:
        return 0
    lp = st.lad[t, p]
    lq = st.lad[t, 1 - p]
    return 1 + (100 if lp == lq else 0) + (100 if lp + 1 == lq else 0)


@helper_inline
def exchange_gain(st, R, m, p):
    """eval2's gain for seat p from its exchange m (``apply_exchange``'s ladders and
    priests), computed without making it: every gain is 0 or more, 110 a priest."""
    if R[R_LP] == 0:
        return 0
    e = m >> 4
    l = m & 15
    a = R[R_EA + e]
    b = R[R_EB + e]
    xa = st.tw[a]
    xb = st.tw[b]
    ja = nib(xa, l - 1) == nib(xb, l)
    jb = nib(xb, l - 1) == nib(xa, l)
    if not (ja or jb):
        return 0
    low = (np.int64(1) << (4 * (R[R_L] - 1))) - 1
    lad = st.pcs[LSUP + p]
    pri = st.pcs[PSUP + p]
    g = 0
    if ja:
        na = (xa & ~R[R_HMASK + l]) | (xb & R[R_HMASK + l])
        put = np.int64(st.ls[a] < R[R_SPACES + a] and lad > 0)
        lad -= put
        g += ladder_gain(st, a, p, put)
        if ((na ^ (na >> 4)) & low) == 0 and pri > 0:
            pri -= 1
            g += 110
    if jb:
        nb = (xb & ~R[R_HMASK + l]) | (xa & R[R_HMASK + l])
        put = np.int64(st.ls[b] < R[R_SPACES + b] and lad > 0)
        g += ladder_gain(st, b, p, put)
        if ((nb ^ (nb >> 4)) & low) == 0 and pri > 0:
            g += 110
    return g


@helper_inline
def order_moves(st, R, mv, k, p):
    """The k moves of seat p in ``mv`` sorted by ``exchange_gain``, highest first, equal
    gains in list order (an insertion sort of keys packing gain, position and move:
    the moves are below 512, and most gain nothing, so few keys move)."""
    for i in range(k):
        mv[i] = (exchange_gain(st, R, mv[i], p) << 18) | ((511 - i) << 9) | mv[i]
    for i in range(1, k):
        x = mv[i]
        j = i - 1
        while j >= 0 and mv[j] < x:
            mv[j + 1] = mv[j]
            j -= 1
        mv[j + 1] = x
    for i in range(k):
        mv[i] &= 511


@helper_inline
def has_move_after(st, R, m):
    """``has_move`` after exchange m, read from the state before it: the Monolith then
    blocks every edge at m's two towers (the only cut masks m changes), and the Raven
    (when used) stands at m's level."""
    e = m >> 4
    blk = R[R_EBITS + e]
    rbit = np.int64(1) << ((m & 15) if R[R_RAVEN] else st.pcs[RAV])
    for f in range(R[R_E]):
        if ((R[R_EBITS + f] & blk) == 0
                and (st.cut[R[R_EA + f]] & st.cut[R[R_EB + f]] & ~rbit) != 0):
            return True
    return False


@helper
def frontier_value(st, R, p, mv, k, beta, s, stats):
    """Alpha-beta's value of the position ``st``, seat p to move with the k moves ``mv``,
    one exchange above the leaves, without making the exchanges: a leaf where the
    opponent can move is worth ``eval2`` of ``st`` plus ``exchange_gain`` to p (``leaf2``
    of the leaf, seen from p); one where it cannot is made in ``s`` and scored
    (``result2``).  Stops at the first value of ``beta`` or more (a lower bound, as the
    search's cut-off returns); counts every leaf valued in ``stats``."""
    base = eval2(st, R[R_N], p)
    bv = NEG
    for i in range(k):
        m = mv[i]
        stats[S_NODES] += 1
        if has_move_after(st, R, m):
            v = base + exchange_gain(st, R, m, p)
        else:
            copy_state(s, st)
            apply_exchange(s, R, m, p)
            v = result2(s, R[R_N], p)
        if v > bv:
            bv = v
            if bv >= beta:
                break
    return bv


@helper_inline
def model_leaf(st, R, q, ex, X, vm):
    """``leaf=model``: the value of a leaf for seat q, which is to move after ``ex``
    exchanges: the result (``result2``: +-WIN or 0) if it cannot move, else 1,000 x the
    logit of the model's probability that q wins (well inside +-WIN)."""
    if not has_move(st, R):
        return result2(st, R[R_N], q)
    v = model_value(st, R, X[X_CARDS], q, q, ex, vm)
    v = min(max(v, 1e-9), 1.0 - 1e-9)
    return np.int64(np.round(1000.0 * np.log(v / (1.0 - v))))


def search2(st, R, p, depth, scratch, rs):
    """``alphabeta`` with leaves valued by ``leaf2`` (no model), from Python."""
    return alphabeta(st, R, p, depth, 0, scratch, rs, NO_MODEL, LEAF_FORMULA)


@helper
def alphabeta(st, R, p, depth, ex, scratch, rs, vm, leaf):
    """Alpha-beta (negamax) to ``depth`` exchanges, leaves valued by ``leaf2``
    (``leaf`` LEAF_FORMULA) or by the learned value of the position (LEAF_MODEL,
    ``model_leaf``: the model ``vm``, ``ex`` exchanges made at the root; every node one
    exchange above the leaves is expanded); the root moves are shuffled (``shuffle_root``)
    and the first move with the best value is played.  Ply c keeps its state in the work
    state ``W_SS + c`` and its moves in row ``X_MV + c``, below the root in
    ``order_moves``' order.  Counts the decision and every exchange made in the tree in
    ``X[X_STATS]``."""
    X = scratch.x
    ws = scratch.ws
    n = R[R_N]
    nmv = X[X_NMV]
    idx = X[X_IDX]
    al = X[X_AL]
    be = X[X_BE]
    bv = X[X_BV]
    n0 = shuffle_root(st, R, p, X, rs)
    if n0 == 1 or depth < 1:
        return X[X_MV, 0]
    copy_state(at(ws, W_SS), st)
    nmv[0] = n0
    idx[0] = 0
    al[0] = NEG
    be[0] = -NEG
    bv[0] = NEG
    bestmove = X[X_MV, 0]
    stats = X[X_STATS]
    stats[S_DECISIONS] += 1
    model = model_at_leaf(leaf == LEAF_MODEL, vm.ms)
    ply = 0
    while True:
        if idx[ply] < nmv[ply] and al[ply] < be[ply]:
            m = X[X_MV + ply, idx[ply]]
            idx[ply] += 1
            c = ply + 1
            side = p if ply % 2 == 0 else 1 - p  # the side moving at node ``ply``
            copy_work(scratch, W_SS + c, W_SS + ply)
            sc = at(ws, W_SS + c)
            apply_exchange(sc, R, m, side)
            stats[S_NODES] += 1
            other = 1 - side
            if c == depth:
                if model:
                    val = -model_leaf(sc, R, other, ex + c, X, vm)
                else:
                    val = -leaf2(sc, R, other)
            else:
                k = gen_moves(sc, R, X[X_MV + c])
                if k == 0:
                    val = -result2(sc, n, other)
                elif c + 1 == depth and not model:
                    val = -frontier_value(sc, R, other, X[X_MV + c], k, -al[ply],
                                          at(ws, W_SS + depth), stats)
                else:
                    order_moves(sc, R, X[X_MV + c], k, other)
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
            m = X[X_MV + ply, idx[ply] - 1]
        if val > bv[ply]:
            bv[ply] = val
            if ply == 0:
                bestmove = m
        if val > al[ply]:
            al[ply] = val
    return bestmove
