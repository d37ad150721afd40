"""The search bot with two players: alpha-beta (negamax) over exchanges to a fixed
depth, leaves valued by the greedy bot's ``leaf2``, root moves shuffled on its own stream
so that equal best moves are equally likely.  Three/four players: ``mcts.py``."""
from __future__ import annotations

from ....jit import helper, helper_inline
from ....search import shuffle
from ..exchange import apply_exchange, gen_moves
from ..scoring import result2
from ..state import (NEG, R_N, W_SS, X_AL, X_BE, X_BV, X_IDX, X_MV, X_NMV, at, copy_state,
                     copy_work)
from .greedy import leaf2


@helper_inline
def shuffle_root(st, R, p, X, rs):
    """The root's legal moves into row ``X_MV``, shuffled with one Fisher-Yates pass on
    seat p's stream; returns how many."""
    mv0 = X[X_MV]
    n0 = gen_moves(st, R, mv0)
    shuffle(mv0, 0, n0, rs, 1 + p)
    return n0


@helper
def search2(st, R, p, depth, scratch, rs):
    """Alpha-beta (negamax) to ``depth`` exchanges, leaves valued by ``leaf2``; the root
    moves are shuffled (``shuffle_root``) and the first move with the best value is
    played.  Ply c keeps its state in the work state ``W_SS + c`` and its moves in row
    ``X_MV + c``."""
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
            other = 1 - side
            if c == depth:
                val = -leaf2(sc, R, other)
            else:
                k = gen_moves(sc, R, X[X_MV + c])
                if k == 0:
                    val = -result2(sc, n, other)
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
            m = X[X_MV + ply, idx[ply] - 1]
        if val > bv[ply]:
            bv[ply] = val
            if ply == 0:
                bestmove = m
        if val > al[ply]:
            al[ply] = val
    return bestmove
