"""Batam's training sampler (``features.sample``): games played one round at a time as the
kernel plays them, with round starts taken from them on a stream of their own."""
from __future__ import annotations

from ...jit import helper
from ...rng import game_base, open_substream, reservoir_slot
from .features import P_SAMPLE, coin_value, features
from .loop import play_from
from .play import new_game, new_play, new_scratch  # noqa: F401 (features.sample's)
from .state import C_ER, C_RND, END_HORIZON, R_HORIZON, R_P


@helper
def sample_games(seed, start, count, rules, ru, bot_ids, bot_par, per_game, pg, sc, srs, resr,
                 X, seat, game, progress, outcome, baseline, buf, snaps):
    """Play games ``start .. start + count - 1`` as ``run_games`` does, one round at a time
    (``ru``: the rules with a moving round horizon; the game is the same, as the horizon's end
    draws nothing), keeping up to ``per_game`` round starts of each (reservoir sampling on
    the stream (seed, game, P_SAMPLE)), every seat's row; returns the rows written."""
    st, rs = pg.st, pg.rs
    P = rules.R[R_P]
    H = rules.R[R_HORIZON]
    m = 0
    for j in range(count):
        g = start + j
        new_game(g, seed, rules, st, rs, sc, buf)
        open_substream(srs, 0, game_base(seed, g), P_SAMPLE, 0)
        rnd = 0
        while True:
            # the round start rnd: take it (reservoir), then play the round
            slot = reservoir_slot(srs, 0, rnd, per_game)
            if slot >= 0:
                for s in range(P):
                    features(st, rules, sc.cur, s, X[m + slot * P + s])
                    resr[slot] = rnd
                    baseline[m + slot * P + s] = coin_value(st, P, s, 5.0)
            if rnd >= H:
                break
            ru.R[R_HORIZON] = rnd + 1
            play_from(st, ru, bot_ids, bot_par, rs, sc, buf, snaps)
            if sc.cur[C_ER] != END_HORIZON or sc.cur[C_RND] < rnd + 1:
                break   # the game ended in round rnd
            rnd += 1
        kept = min(rnd + 1, per_game)   # round starts 0 .. rnd were seen
        ended = sc.cur[C_ER] != END_HORIZON
        if not ended:
            # the real horizon: the contract's fair share
            for s in range(P):
                sc.win[s] = 1.0 / P
        for k in range(kept):
            for s in range(P):
                i = m + k * P + s
                seat[i] = s
                game[i] = g
                progress[i] = resr[k] / (rnd + 1.0)
                outcome[i] = sc.win[s]
        m += kept * P
    return m
