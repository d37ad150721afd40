"""1. Cast the lots: how many of the lots land marked side up gives the move.

Chance (``sim/rng.py``): the casts come from the game's DICE substream (index 0) in
``state.streams[CASTS]``; each cast takes the next ``ceil(lots / 4)`` draws, so cast *k*
of game *i* is a function of (seed, i, k) alone, whatever the bots do.
``state.streams[1 + s]`` is seat *s*'s bot stream: the random bot's choices and every
bot's tie-breaks (``tie_wins``: exact ties are uniform over the tied moves, never decided
by the order of the move list).
"""
from __future__ import annotations

import numpy as np

from ...jit import helper_inline
from ...rng import DICE, game_base, next_u64, open_substream, seed_streams
from .state import CASTS


@helper_inline
def seed_game(state, seed, g):
    """The streams of game ``g``: ``streams[CASTS]`` at the start of its DICE substream
    (index 0), ``streams[1 + s]`` at the start of seat s's bot stream."""
    seed_streams(state.streams, seed, g)
    open_substream(state.streams, CASTS, game_base(seed, g), DICE, 0)


@helper_inline
def throw_lots(state, R):
    """Cast the lots; returns how many landed marked.  Each lot takes 16 bits of a draw from
    the casts' substream (four lots a draw, low bits first) and is marked when they fall
    below ``R.lot_threshold`` (= lot_p * 65536).  The spaces moved are
    ``table.spaces[marked]``."""
    marked = 0
    x = np.uint64(0)
    for k in range(R.lots):
        if k % 4 == 0:
            x = next_u64(state.streams, CASTS)
        marked += np.int64(np.int64(x & np.uint64(0xFFFF)) < R.lot_threshold)  # branch-free
        x = x >> np.uint64(16)
    return marked
