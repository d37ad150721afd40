"""Puluc's learned value (issue #46; the contract of ``sim/learn.py``): a position as seen by
one side, and the training positions sampled from games played exactly as ``run_chunk``
plays them.

Every piece of Puluc is public (the board, who casts, the casts made), so a side's view is
the whole position, drawn from its own end of the track:

- four planes of ``MAX_TRACK`` spaces, space ``j`` being ``j`` spaces from this side's
  entry (the spaces past the track's length stay 0): in a pile this side commands, its own
  warriors and the enemies held; in a pile the enemy commands, the enemy's warriors and
  this side's warriors held;
- then the warriors at home and killed (this side's, the enemy's: shares of ``warriors``),
  whether this side casts next, the casts made (share of the horizon), the casts left in
  the turn of the side to cast (share of ``casts_per_turn``) and the track's length (share
  of ``MAX_TRACK``).

Puluc's search (expectiminimax) reads no learned value: the model is for the reports (how
the game plays, issue #47), so ``attach_model`` leaves the context as it is.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper, kernel
from ...rng import GAME_PURPOSES, game_base, reservoir_slot, substream_start
from ...value import sample_buffers, sampled
from .bots.search import evaluate
from .cast import throw_lots
from .move import apply_move
from .play import choose_move
from .setup import start_game
from .state import MAX_TRACK, SCRATCH_DTYPE, STATE_DTYPE, copy_state, progress

FEATURES_VERSION = 1
#: the training games' bots: the search at its default depth (its own play, valued by the model)
TRAIN_BOTS = "search"
TRAIN_GAMES = 6000
#: positions sampled per game (each seen by both sides: twice as many rows)
PER_GAME = 6
#: the game's chance substream purpose the sampling draws from (Puluc's casts use DICE only)
SAMPLE_PURPOSE = GAME_PURPOSES + 15
#: the search's evaluation as a probability: logistic of (value / BASELINE_SCALE), one kill
#: (1000) about 73%
BASELINE_SCALE = 1000.0
N_EXTRA = 8


def n_features(players: int) -> int:
    return 4 * MAX_TRACK + N_EXTRA


@helper
def features(state, R, p, casts_left, out):
    """Side ``p``'s view of ``state`` into ``out`` (``n_features`` floats; the module's
    docstring lists them); ``casts_left``: the casts left in the turn of the side to cast,
    this one included."""
    T = R.track
    q = 1 - p
    for j in range(out.shape[0]):
        out[j] = 0.0
    for i in range(T):
        o = state.commander[i]
        if o < 0:
            continue
        j = progress(p, i, T)
        if o == p:
            out[j] = state.count[p, i]
            out[MAX_TRACK + j] = state.count[q, i]
        else:
            out[2 * MAX_TRACK + j] = state.count[q, i]
            out[3 * MAX_TRACK + j] = state.count[p, i]
    b = 4 * MAX_TRACK
    W = float(R.warriors)
    out[b] = state.home[p] / W
    out[b + 1] = state.home[q] / W
    out[b + 2] = state.dead[p] / W
    out[b + 3] = state.dead[q] / W
    out[b + 4] = 1.0 if state.turn == p else 0.0
    out[b + 5] = state.casts / float(R.horizon)
    out[b + 6] = casts_left / float(R.casts_per_turn)
    out[b + 7] = T / float(MAX_TRACK)


@kernel
def sample_games(seed, start, count, R, table, bot_ids, bot_par, per_game, X, seat, game, prog, outcome,
                 baseline):
    """Play games ``start .. start + count - 1`` as ``play.play_game`` does (the same calls in
    the same order: the same games) and keep up to ``per_game`` positions of each, chosen
    uniformly (reservoir sampling) from the starts of its casts, before the lots fall, on a
    substream of the game's own (``SAMPLE_PURPOSE``); each kept position is written from both
    sides' view.  Returns the rows written."""
    states = np.zeros(1, STATE_DTYPE)
    scratches = np.zeros(1, SCRATCH_DTYPE)
    keep = np.zeros(per_game, STATE_DTYPE)
    keep_left = np.zeros(per_game, np.int64)
    samp = np.zeros(1, np.uint64)
    row = 0
    for jg in range(count):
        g = start + jg
        state = states[0]
        scratch = scratches[0]
        start_game(state, R, seed, g)
        samp[0] = substream_start(game_base(seed, g), SAMPLE_PURPOSE, 0)
        W = R.warriors
        cpt = R.casts_per_turn
        p = state.first
        seen = 0
        w = -1
        done = False
        while not done:
            state.turn = p
            for k in range(cpt):
                r = reservoir_slot(samp, 0, seen, per_game)
                if r >= 0:
                    copy_state(keep[r], state)
                    keep_left[r] = cpt - k
                seen += 1
                marked = throw_lots(state, R)
                cast = table.spaces[marked]
                state.casts += 1
                mv = choose_move(state, R, table, bot_ids, bot_par, p, cast, cpt - 1 - k, scratch)
                if mv < 0:
                    state.forfeits[p] += 1
                else:
                    apply_move(state, R, p, mv, cast)
                    state.moves += 1
                if mv >= 0 and state.dead[1 - p] >= W:
                    w = p
                    done = True
                    break
                if state.casts >= R.horizon:
                    done = True
                    break
            if not done:
                p = 1 - p
        total = max(state.casts, 1)
        for r in range(min(seen, per_game)):
            for s in range(2):
                features(keep[r], R, s, keep_left[r], X[row])
                seat[row] = s
                game[row] = g
                prog[row] = keep[r].casts / total
                outcome[row] = 0.5 if w < 0 else (1.0 if w == s else 0.0)
                z = evaluate(keep[r], R, s) / BASELINE_SCALE
                z = min(max(z, -40.0), 40.0)
                baseline[row] = 1.0 / (1.0 + np.exp(-z))
                row += 1
    return row


def sample(ctx, players, seed, start, n, bot_ids, bot_par, per_game) -> dict:
    """The contract's sampler: games ``start .. start + n - 1`` of ``seed``, at most
    ``per_game`` positions of each game in all (each written twice, once per side)."""
    R, table = ctx[0], ctx[1]
    buf = sample_buffers(n * per_game * 2, n_features(players))
    rows = sample_games(np.uint64(seed), np.int64(start), np.int64(n), R, table, bot_ids, bot_par,
                        np.int64(per_game), *buf)
    return sampled(buf, rows)


def attach_model(ctx, mp, ms):
    """Puluc's bots read no learned value (its search is expectiminimax over the casts): the
    context is returned as it is."""
    return ctx
