"""Puluc's training positions (``features.sample``, the contract of ``sim/learn.py``): games
played exactly as ``play.run_games`` plays them, a few positions of each kept with the
outcome, each from both sides' view (``features.features``)."""
from __future__ import annotations

import numpy as np

from ...jit import kernel
from ...rng import game_base, reservoir_slot, substream_start
from .bots.search import evaluate
from .cast import throw_lots
from .features import BASELINE_SCALE, SAMPLE_PURPOSE, features
from .move import apply_move
from .play import choose_move
from .setup import start_game
from .state import SCRATCH_DTYPE, STATE_DTYPE, copy_state


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
                mv, _ = choose_move(state, R, table, bot_ids, bot_par, p, cast, cpt - 1 - k, scratch)
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
