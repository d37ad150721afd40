"""Dash's learned value (the contract of sim/learn.py, in plain Python: a real game's
``features`` is jitted).  Every cell is public, so a seat's view is the whole position."""
from __future__ import annotations

import numpy as np

FEATURES_VERSION = 1
#: the training games' bots: the random bot, whose games reach every kind of position
TRAIN_BOTS = "random"
TRAIN_GAMES = 400
PER_GAME = 4
#: the second generation (leaf=model2): the games of the bot that reads the first
ITERATE_BOTS = "careful:leaf=model"
ITERATE_GAMES = 300


def n_features(players: int) -> int:
    return 4


def features(out, track, horizon, players, turn, to_move, seat, cells):
    """Seat ``seat``'s view into ``out``: its cell and the best other cell (shares of the
    track), the share of the horizon played, and whether it moves next."""
    best = max(cells[s] for s in range(players) if s != seat)
    out[0] = cells[seat] / track
    out[1] = best / track
    out[2] = turn / horizon
    out[3] = 1.0 if to_move == seat else 0.0
    return out


def baseline(track, players, seat, cells) -> float:
    """A hand-written evaluation: a logistic curve of the lead over the best other seat."""
    best = max(cells[s] for s in range(players) if s != seat)
    return float(1.0 / (1.0 + np.exp(-4.0 * (cells[seat] - best) / track))) * 2.0 / players


def choose(model, track, horizon, players, turn, seat, cells, roll) -> int:
    """The move (RUN 0 or WALK 1) whose position the model values higher for ``seat``."""
    from sim.value import value_np
    X = np.zeros((2, 4))
    for how, steps in ((0, roll), (1, 1)):
        after = list(cells)
        after[seat] = min(track, after[seat] + steps)
        features(X[how], track, horizon, players, turn + 1, (seat + 1) % players, seat, after)
    v = value_np(model[0], model[1], X)
    return 0 if v[0] >= v[1] else 1


def attach_model(ctx, mp, ms):
    """The context with the model's arrays in place of the empty ones (a new tuple)."""
    return (ctx[0], ctx[1], np.asarray(mp, np.float64), np.asarray(ms, np.int64))


def sample(ctx, players, seed, start, n, bot_ids, bot_par, per_game) -> dict:
    """Games ``start .. start + n - 1`` as run_chunk plays them; at most ``per_game``
    decision points of each game (chosen from a stream of their own), each from every seat's
    view (so up to ``per_game * players`` rows a game)."""
    from . import play
    track, horizon = ctx[0], ctx[1]
    rows = {k: [] for k in ("X", "seat", "game", "progress", "outcome", "baseline")}
    buf, snaps = np.zeros((1, 8), np.int32), np.zeros((0, 1), np.int64)
    for i in range(start, start + n):
        seen = []
        w, first, turns, cells, _, _ = play(track, horizon, players, int(seed), i, bot_ids, buf, snaps,
                                            bot_par, (ctx[2], ctx[3]),
                                            visit=lambda t, s, c: seen.append((t, s, c)))
        pick = np.random.default_rng([int(seed), i, 7]).permutation(len(seen))[:per_game]
        for j in sorted(pick):
            t, to_move, c = seen[j]
            for s in range(players):
                rows["X"].append(features(np.zeros(4), track, horizon, players, t, to_move, s, c))
                rows["seat"].append(s)
                rows["game"].append(i)
                rows["progress"].append(t / max(turns, 1))
                rows["outcome"].append(1.0 / players if w < 0 else float(w == s))
                rows["baseline"].append(baseline(track, players, s, c))
    return {"X": np.array(rows["X"], np.float32).reshape(-1, 4), "seat": np.array(rows["seat"], np.int16),
            "game": np.array(rows["game"], np.int64), "progress": np.array(rows["progress"], np.float32),
            "outcome": np.array(rows["outcome"], np.float32), "baseline": np.array(rows["baseline"], np.float32)}
