"""The game loop: cast, let the seat's bot choose, move, until a side has killed every enemy
warrior or the horizon is reached; ``run_games`` plays a chunk of games into the result
columns and ``run_chunk`` is the runner's entry point."""
from __future__ import annotations

from collections import namedtuple
from typing import NamedTuple

import numpy as np

from ...howplays import (CX_SIZE, EV_NAMES, EV_SIZE, EV_THRESHOLD, MAX_SIDES, choice, cx_finish, cx_start, ev_finish,
                         ev_start, ev_step)
from ...jit import helper, helper_inline, kernel
from ...playcols import evaluation_columns, trace_of
from ...record import NO_RECORD, NO_SNAPS, recording
from ...value import value_eval, work_size
from .actions import record_cast, record_snapshot
from .bots.greedy import greedy_choice
from .bots.random import random_move
from .bots.search import search_choice
from .cast import throw_lots
from .features import features
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
    decisions: np.ndarray
    forced: np.ndarray
    decision_share: np.ndarray
    branching: np.ndarray
    decision_factor: np.ndarray
    options_max: np.ndarray


@helper_inline
def choose_move(state, R, table, bot_ids, bot_par, p, cast, casts_left, scratch):
    """(the move seat ``p``'s bot plays with ``cast``, -1 when none is legal (a forfeit); the
    number of legal moves it chose among)."""
    b = bot_ids[p]
    if b == BOT_RANDOM:
        return random_move(state, R, p, cast)
    moves = scratch.moves
    n = np.int64(legal_moves(state, R, p, cast, moves))
    if n == 0:
        return np.int64(-1), n
    if b == BOT_GREEDY:
        return np.int64(greedy_choice(state, R, p, cast, moves, n)), n
    return np.int64(search_choice(state, R, table, p, cast, moves, n, np.int64(bot_par[p, 0]),
                                  casts_left, scratch)), n


@helper_inline
def evaluate_position(state, R, casts_left, hw):
    """How it plays: both sides' chances of winning at a cast's start (``casts_left`` in the
    turn, this one included) by the learned model, each from its own end of the track, into
    the running figures (``hw``: ``HowWork``)."""
    for s in range(2):
        features(state, R, s, casts_left, hw.fx)
        hw.pv[s] = value_eval(hw.mp, hw.ms, hw.fx, hw.h0, hw.h1)
    ev_step(hw.ev, hw.pv, 2, EV_THRESHOLD)


@helper
def play_game(g, seed, R, table, bot_ids, bot_par, states, scratches, buf, snaps, cx, hw):
    """Play game ``g`` of ``seed`` in ``states[0]``; returns (winner, end_reason).  With a
    record buffer (``sim/record.py``) every cast, move and forfeit is appended to ``buf``
    and the state after every cast to ``snaps``; with ``NO_RECORD`` nothing is.  How it
    plays: every move chosen among the legal ones is counted in ``cx`` (``sim/howplays.py``;
    a forfeit is no choice), and with a model in ``hw`` both sides' chances are followed at
    every round's start, the first side to cast (``evaluate_position``)."""
    state = states[0]
    scratch = scratches[0]
    start_game(state, R, seed, g)
    W = R.warriors
    cpt = R.casts_per_turn
    on = hw.ms.shape[0] > 0
    p = state.first
    while True:
        state.turn = p
        for k in range(cpt):
            if on and k == 0 and p == state.first:
                # once a round, at the first side's turn: a side's chance with the lots in its
                # hand and without them differ, and every cast would zig-zag with the turn
                evaluate_position(state, R, cpt, hw)
            marked = throw_lots(state, R)
            cast = table.spaces[marked]
            state.casts += 1
            mv, n = choose_move(state, R, table, bot_ids, bot_par, p, cast, cpt - 1 - k, scratch)
            if n > 0:
                choice(cx, p, n)
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
def run_games(seed, start, count, R, table, bot_ids, bot_par, out, buf, snaps, evo, hw):
    """Play games ``start .. start + count - 1`` of ``seed`` into the :class:`Columns` ``out``
    (recording into ``buf`` and ``snaps``: see :func:`play_game`; the complexity columns from
    each game's choices, ``cx_finish``) and, with a model in ``hw``, each game's figures into
    ``evo[j]`` (``ev_finish``); returns the search bot's decisions searched and replies
    scored (``Scratch.stats`` and every level's below it)."""
    states = np.zeros(1, STATE_DTYPE)
    scratches = np.zeros(1, SCRATCH_DTYPE)
    cx = np.zeros(CX_SIZE, np.int64)
    on = hw.ms.shape[0] > 0
    for j in range(count):
        cx_start(cx)
        if on:
            ev_start(hw.ev)
        w, e = play_game(start + j, seed, R, table, bot_ids, bot_par, states, scratches, buf, snaps,
                         cx, hw)
        if on:
            ev_finish(hw.ev, 2, w, evo[j])
        cx_finish(cx, 2, j, out.decisions, out.forced, out.decision_share, out.branching,
                  out.decision_factor, out.options_max)
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
    R, table = ctx[0], ctx[1]
    buf, snaps = (NO_RECORD, NO_SNAPS) if record is None else record
    out = allocate(GAME, players, count)
    del out["capped"], out["win"]
    on = isinstance(ctx, ModelCtx)
    evo = np.zeros((count if on else 0, len(EV_NAMES)))
    hw = how_work(*ctx[2:4]) if on else how_work()
    decisions, replies = run_games(np.uint64(seed), np.int64(start), np.int64(count), R, table, bot_ids,
                                   bot_params, Columns(*(out[f] for f in Columns._fields)), buf, snaps,
                                   evo, hw)
    SEARCH_STATS[0] += int(decisions)
    SEARCH_STATS[1] += int(replies)
    out.update(evaluation_columns(evo if on else None, count))
    return out

#: the rules context with the learned model, for how it plays (``features.attach_model`` with
#: ``evaluate``): ``prepare``'s (R, table) and the model's arrays
ModelCtx = namedtuple("ModelCtx", ("R", "table", "mp", "ms"))
#: how it plays' arrays (``how_work``): the model (empty: not evaluated), its work arrays,
#: both sides' chances and the running figures
HowWork = namedtuple("HowWork", ("mp", "ms", "fx", "h0", "h1", "pv", "ev"))


def how_work(mp=None, ms=None, trace=0) -> HowWork:
    """The arrays ``run_games`` follows the chances with (no model: nothing is followed);
    ``trace``: keep the chances at the first ``trace`` positions (``win_trace``)."""
    from .features import n_features
    if mp is None:
        mp, ms, wide = np.zeros(0), np.zeros(0, np.int64), 1
    else:
        mp, ms = np.ascontiguousarray(mp, np.float64), np.ascontiguousarray(ms, np.int64)
        wide = work_size(ms)
    return HowWork(mp, ms, np.zeros(n_features(2)), np.zeros(wide), np.zeros(wide), np.zeros(2),
                   np.zeros(EV_SIZE + MAX_SIDES * int(trace)))


def win_trace(ctx, players, seed, index, bot_ids, bot_par, most=2000):
    """Game ``index`` of ``seed`` played again with the model's chances followed (``ctx``
    carries the model: ``features.attach_model(..., evaluate=True)``): (positions, 2) each
    side's chance of winning at each round's start (at most ``most``), and the game's columns."""
    from . import GAME
    from ...results import allocate
    if not isinstance(ctx, ModelCtx):
        raise ValueError("puluc: a win-probability trace needs the learned model in the context")
    out = allocate(GAME, 2, 1)
    hw = how_work(ctx.mp, ctx.ms, most)
    run_games(np.uint64(seed), np.int64(index), np.int64(1), ctx.R, ctx.table, bot_ids, bot_par,
              Columns(*(out[f] for f in Columns._fields)), NO_RECORD, NO_SNAPS, np.zeros((1, len(EV_NAMES))), hw)
    return trace_of(hw.ev, 2), {k: v[0] for k, v in out.items() if k in Columns._fields}


def record_shape(rules: dict, players: int) -> tuple[int, int]:
    """(snapshot width, snapshot rows) of a recorded game: one row per cast, up to 4096."""
    return snapshot_width(int(rules["track"])), min(int(rules["horizon"]), 4096)
