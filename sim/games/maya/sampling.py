"""Maya's training sampler (``features.sample``): games played exchange by exchange as the
kernel plays them (``play.play_turns``' steps, for the greedy and random bots), with turn
starts taken from them on a stream of their own."""
from __future__ import annotations

import numpy as np

from ...jit import helper
from ...rng import game_base, open_substream, reservoir_slot
from .bots.greedy import eval2
from .bots.random import random_move
from .exchange import apply_exchange, edge_masks, gen_moves
from .features import P_SAMPLE, features
from .play import choose_exchange, declares, set_up
from .scoring import can_declare, final_scores
from .state import (BOT_RANDOM, END_DECLARED, END_HORIZON, END_NO_EXCHANGE, HRESULT_DRAW, R_BONUS,
                    R_CENTRE, R_HORIZON, R_HRESULT, R_N, R_P, T_BONUS, T_DECL, T_TEAM, X_CARDS, X_EMASK,
                    X_MOVES, X_PC)


@helper
def sample_games(seed, start, count, R, bot_ids, bot_par, per_game, work, srs, resr, tally, buf,
                 X, seat, game, progress, outcome, baseline):
    """Play games ``start .. start + count - 1`` as ``run_games`` does (``work``: its
    ``chunk_work``), keeping up to ``per_game`` turn starts of each (reservoir sampling on
    the stream (seed, game, P_SAMPLE)), every seat's row; returns the rows written."""
    st, rs, keys, sc, vm, _ = work
    P = R[R_P]
    ctr = R[R_CENTRE]
    Xs = sc.x
    cards = Xs[X_CARDS]
    sides = 2 if P == 4 else P
    m = 0
    for j in range(count):
        g = start + j
        first = set_up(g, seed, R, bot_ids, st, rs, sc, keys, tally, buf)
        open_substream(srs, 0, game_base(seed, g), P_SAMPLE, 0)
        seen = 0
        p = first
        ex = 0
        end = END_NO_EXCHANGE
        while True:
            b = bot_ids[p]
            if b == BOT_RANDOM:
                nm = edge_masks(st, R, Xs[X_PC], Xs[X_EMASK])
            else:
                nm = gen_moves(st, R, Xs[X_MOVES])
            if nm == 0:
                end = END_NO_EXCHANGE
                break
            if ex >= R[R_HORIZON]:
                end = END_HORIZON
                break
            # a turn start: take it (reservoir)
            slot = reservoir_slot(srs, 0, seen, per_game)
            seen += 1
            if slot >= 0:
                resr[slot] = ex
                for s in range(P):
                    i = m + slot * P + s
                    features(st, R, cards, s, p, ex, X[i], vm.iw)
                    if P == 2:
                        z = eval2(st, R[R_N], s) / 200.0
                    elif P == 3:
                        z = X[i, 27] / 3.0
                    else:
                        z = X[i, 28] / 9.0
                    baseline[i] = 1.0 / (1.0 + np.exp(-z))
            if (P > 2 and can_declare(st, R, cards, p)
                    and declares(st, R, p, b, 0, 0, ex, bot_par, sc, rs, buf, vm)):
                tally[T_DECL] = p
                end = END_DECLARED
                break
            if b == BOT_RANDOM:
                mv = random_move(R, p, nm, Xs, rs)
            else:
                mv = choose_exchange(st, R, p, b, nm, ex, bot_par, sc, rs, vm)
            centre_open = st.cut[ctr] != 0
            apply_exchange(st, R, mv, p)
            ex += 1
            if P > 2 and can_declare(st, R, cards, p):
                bonus = R[R_BONUS] if (centre_open and st.cut[ctr] == 0) else 0
                if declares(st, R, p, b, bonus, 1, ex, bot_par, sc, rs, buf, vm):
                    tally[T_DECL] = p
                    tally[T_BONUS + p] = bonus
                    end = END_DECLARED
                    break
            p = (p + 1) % P
        side = final_scores(st, R, tally, Xs)
        drawn = end == END_HORIZON and R[R_HRESULT] == HRESULT_DRAW
        best = tally[T_TEAM]
        for s in range(1, P):
            if tally[T_TEAM + s] > best:
                best = tally[T_TEAM + s]
        tied = 0
        for s in range(sides):
            if tally[T_TEAM + s] == best:
                tied += 1
        kept = min(seen, per_game)
        for k in range(kept):
            for s in range(P):
                i = m + k * P + s
                seat[i] = s
                game[i] = g
                progress[i] = resr[k] / max(ex, 1.0)
                if drawn:
                    w = 1.0 / sides
                elif side >= 0:
                    w = 1.0 if (s % 2 if P == 4 else s) == side else 0.0
                elif P == 2:
                    w = 0.5
                else:
                    w = 1.0 / tied if tally[T_TEAM + s] == best else 0.0
                outcome[i] = w
        m += kept * P
    return m
