"""1. Cast the lots: how many of the lots land marked side up gives the move.

Chance (``sim/rng.py``): the casts come from the game's DICE substream (index 0) in
slot ``CASTS`` of the streams array; each cast takes the next ``ceil(lots / 4)`` draws,
so cast *k* of game *i* is a function of (seed, i, k) alone, whatever the bots do.
Slot ``1 + s`` is seat *s*'s bot stream: the random bot's choices and every bot's
tie-breaks.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import DICE, game_base, next_u64, open_substream, seed_streams
from .state import R_LOTS

CASTS = 0  # slot of the casts' chance substream in the streams array


@njit(cache=True, inline="always")
def seed_game(rs, seed, g):
    """The streams of game ``g``: ``rs[CASTS]`` at the start of its DICE substream (index
    0), ``rs[1 + s]`` at the start of seat s's bot stream."""
    seed_streams(rs, seed, g)
    open_substream(rs, CASTS, game_base(seed, g), DICE, 0)


@njit(cache=True, inline="always")
def cast_lots(rs, R, tab, lot_thresh):
    """Cast the lots: each lot takes 16 bits of a draw from the casts' substream (four lots
    a draw) and is marked when they fall below ``lot_thresh`` (= lot_p * 65536)."""
    marked = 0
    x = np.uint64(0)
    for k in range(R[R_LOTS]):
        if k % 4 == 0:
            x = next_u64(rs, CASTS)
        marked += np.int64(np.int64(x & np.uint64(0xFFFF)) < lot_thresh)  # branch-free
        x = x >> np.uint64(16)
    return tab[marked]
