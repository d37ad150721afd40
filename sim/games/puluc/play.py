"""The game loop: cast, let the seat's bot choose, move, until a side has killed every enemy
warrior or the horizon is reached; ``run_games`` plays a chunk of games into the result
columns and ``run_chunk`` is the runner's entry point."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import helper, helper_inline, kernel
from ...record import NO_RECORD, NO_SNAPS, recording
from .actions import record_cast, record_snapshot
from .bots.greedy import greedy_choice
from .bots.random import random_move
from .bots.search import search_choice
from .cast import throw_lots
from .move import apply_move, legal_moves
from .setup import start_game
from .state import SCRATCH_DTYPE, STATE_DTYPE, snapshot_width

BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2
END_KILLED, END_HORIZON = 0, 1


class Columns(NamedTuple):
    """The result columns ``run_games`` writes, one row per game (``(count, 2)`` per seat)."""

    winner: np.ndarray
    end_reason: np.ndarray
    first_player: np.ndarray
    casts: np.ndarray
    moves: np.ndarray
    deepest_pile: np.ndarray
    kills: np.ndarray
    captures: np.ndarray
    rescues: np.ndarray
    forfeits: np.ndarray


@helper_inline
def choose_move(state, R, table, bot_ids, bot_par, p, cast, casts_left, scratch):
    """The move seat ``p``'s bot plays with ``cast`` (-1: none is legal, a forfeit)."""
    b = bot_ids[p]
    if b == BOT_RANDOM:
        return random_move(state, R, p, cast)
    moves = scratch.moves
    n = legal_moves(state, R, p, cast, moves)
    if n == 0:
        return -1
    if b == BOT_GREEDY:
        return greedy_choice(state, R, p, cast, moves, n)
    return search_choice(state, R, table, p, cast, moves, n, np.int64(bot_par[p, 0]),
                         casts_left, scratch)


@helper
def play_game(g, seed, R, table, bot_ids, bot_par, states, scratches, buf, snaps):
    """Play game ``g`` of ``seed`` in ``states[0]``; returns (winner, end_reason).  With a
    record buffer (``sim/record.py``) every cast, move and forfeit is appended to ``buf``
    and the state after every cast to ``snaps``; with ``NO_RECORD`` nothing is."""
    state = states[0]
    scratch = scratches[0]
    start_game(state, R, seed, g)
    W = R.warriors
    cpt = R.casts_per_turn
    p = state.first
    while True:
        state.turn = p
        for k in range(cpt):
            marked = throw_lots(state, R)
            cast = table.spaces[marked]
            state.casts += 1
            mv = choose_move(state, R, table, bot_ids, bot_par, p, cast, cpt - 1 - k, scratch)
            if recording(buf):
                record_cast(buf, state, R, p, marked, cast, mv)
            if mv < 0:
                state.forfeits[p] += 1
            else:
                apply_move(state, R, p, mv, cast)
                state.moves += 1
            if recording(buf):
                record_snapshot(buf, snaps, state, R, scratch)
            if mv >= 0 and state.dead[1 - p] >= W:
                return p, END_KILLED
            if state.casts >= R.horizon:
                return -1, END_HORIZON
        p = 1 - p


@kernel
def run_games(seed, start, count, R, table, bot_ids, bot_par, out, buf, snaps):
    """Play games ``start .. start + count - 1`` of ``seed`` into the :class:`Columns` ``out``
    (recording into ``buf`` and ``snaps``: see :func:`play_game`); returns the search bot's
    decisions searched and replies scored (``Scratch.stats`` and every level's below it)."""
    states = np.zeros(1, STATE_DTYPE)
    scratches = np.zeros(1, SCRATCH_DTYPE)
    for j in range(count):
        w, e = play_game(start + j, seed, R, table, bot_ids, bot_par, states, scratches, buf, snaps)
        st = states[0]
        out.winner[j] = w
        out.end_reason[j] = e
        out.first_player[j] = st.first
        out.casts[j] = st.casts
        out.moves[j] = st.moves
        out.deepest_pile[j] = st.deepest
        for s in range(2):
            out.kills[j, s] = st.kills[s]
            out.captures[j, s] = st.captures[s]
            out.rescues[j, s] = st.rescues[s]
            out.forfeits[j, s] = st.forfeits[s]
    sc = scratches[0]
    replies = sc.stats[1]
    for k in range(sc.levels.shape[0]):
        replies += sc.levels[k].stats[1]
    return sc.stats[0], replies


#: the search bot's decisions searched (a lone legal move is played without a search) and
#: replies scored (positions evaluated) in this process: bench/strong.py's machine-independent cost
SEARCH_STATS = [0, 0]


def run_chunk(ctx, players, seed, start, count, bot_ids, bot_params, record=None):
    """The game's kernel (``Game.play_chunk`` calls it): games ``start .. start + count - 1``
    as result columns, ``capped`` and ``win`` left to the contract (the last end reason is the
    horizon's; one winner at most); ``record=(buf, snaps)`` records the game."""
    from . import GAME
    from ...results import allocate
    R, table = ctx
    buf, snaps = (NO_RECORD, NO_SNAPS) if record is None else record
    out = allocate(GAME, players, count)
    del out["capped"], out["win"]
    decisions, replies = run_games(np.uint64(seed), np.int64(start), np.int64(count), R, table, bot_ids,
                                   bot_params, Columns(*(out[f] for f in Columns._fields)), buf, snaps)
    SEARCH_STATS[0] += int(decisions)
    SEARCH_STATS[1] += int(replies)
    return out


def record_shape(rules: dict, players: int) -> tuple[int, int]:
    """(snapshot width, snapshot rows) of a recorded game: one row per cast, up to 4096."""
    return snapshot_width(int(rules["track"])), min(int(rules["horizon"]), 4096)
