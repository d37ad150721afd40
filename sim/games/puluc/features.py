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
the game plays, issue #47: ``attach_model(..., evaluate=True)``).  The training positions
are sampled in ``sampling.py``.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper
from ...rng import GAME_PURPOSES
from ...value import sample_buffers, sampled
from .state import MAX_TRACK, progress

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


def sample(ctx, players, seed, start, n, bot_ids, bot_par, per_game) -> dict:
    """The contract's sampler: games ``start .. start + n - 1`` of ``seed``, at most
    ``per_game`` positions of each game in all (each written twice, once per side)."""
    from .sampling import sample_games
    R, table = ctx[0], ctx[1]
    buf = sample_buffers(n * per_game * 2, n_features(players))
    rows = sample_games(np.uint64(seed), np.int64(start), np.int64(n), R, table, bot_ids, bot_par,
                        np.int64(per_game), *buf)
    return sampled(buf, rows)


def attach_model(ctx, mp, ms, evaluate=False):
    """Puluc's bots read no learned value (its search is expectiminimax over the casts): the
    context is returned as it is, unless ``evaluate`` (how it plays, issue #47): then it
    carries the model, whose chances ``play.run_games`` follows at every cast."""
    if not evaluate:
        return ctx
    from ...value import check
    from .play import ModelCtx
    mp = np.ascontiguousarray(mp, dtype=np.float64)
    ms = np.ascontiguousarray(ms, dtype=np.int64)
    check(mp, ms)
    if int(ms[0]) != n_features(2):
        raise ValueError(f"puluc: the model reads {int(ms[0])} features, the position has {n_features(2)}")
    return ModelCtx(ctx[0], ctx[1], mp, ms)
