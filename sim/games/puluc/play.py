"""The game loop: cast, let the seat's bot choose, move, until a side is wiped out or the
horizon is reached; ``run_games`` plays a chunk of games into the result columns."""
from __future__ import annotations

import numpy as np

from ...jit import helper, kernel
from .bots.greedy import greedy_choice
from .bots.random import random_move
from .bots.search import search_choice
from .cast import cast_lots, seed_game
from .move import apply_move, legal_moves
from .state import (FIRST_ALTERNATE, FIRST_JADE, G_CAPT, G_DEEP, G_FORF, G_KILLS, G_MOVES, G_RESC,
                    N_TALLY, R_CPT, R_FIRST, R_HORIZON, R_T, R_W, new_state, reset_state)

BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2
END_KILLED, END_HORIZON = 0, 1


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
