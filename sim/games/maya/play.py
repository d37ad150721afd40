"""A game of Maya from set-up to scoring, and ``run_games``, the chunk's entry point.

Two players: White (seat 0) moves first, as the rulebook says, after Black placed the
Monolith and the Raven; three/four players: the first player rotates (``first``), the
task cards are dealt after the set-up, and a player may declare the end before and after
each of their exchanges.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_inline
from ...record import NO_RECORD, NO_SNAPS, rec, recording
from ...rng import SETUP, game_base, open_substream, rand_int
from .bots.greedy import greedy2, greedy_start, greedy_task, wants_to_declare
from .bots.random import random_declare, random_move, random_pair
from .bots.mcts import search_declare_v, search_task_v
from .bots.search import alphabeta
from ...howplays import CX_SIZE, EV_SIZE, EV_THRESHOLD, MAX_SIDES, choice, ev_finish, ev_start, ev_step
from ...playcols import complexity_columns, evaluation_columns, trace_of
from .features import LEAF_MODEL, model_value, split_ctx, value_model
from .exchange import apply_exchange, check_invariants, edge_masks, gen_moves
from .scoring import can_declare, final_scores
from .setup import deal_tasks, record_board, seed_game, setup_turns, setup_uniform
from . import state as S
from .state import (BOT_GREEDY, BOT_RANDOM, BOT_SEARCH, CH, END_DECLARED, END_HORIZON, EV_DEAL,
                    EV_DECLARE, EV_EXCHANGE, EV_PLAY_ON, EV_START, END_NO_EXCHANGE, FIRST_ROTATE,
                    HRESULT_DRAW, MA, MB, NMAX, R_BONUS, R_CENTRE, R_CHECK, R_E, R_EA, R_EB,
                    R_FIRST, R_HORIZON, R_HRESULT, R_L, R_N, R_P, R_RAVEN, R_SETUP, R_START, RAV,
                    SETUP_UNIFORM, START_RANDOM, SUB_START, T_ATTEMPTS, T_BOARD, T_BONUS, T_COMPL,
                    T_CX, T_DECL, T_END, T_EV, T_EX, T_FIRST, T_JOINS, T_MSTART, T_RSTART, T_TCOMP,
                    T_TEAMW, T_VIOL, T_WINNER, EV_NONE, EV_UNIT, W_BEFORE, X_CARDS, X_CP, X_EMASK, X_MOVES, X_PC, at,
                    board_key, clear_state, copy_state, new_scratch, new_state, snapshot)


@helper_inline
def start_choice(st, R, first, bot_ids, sc, rs, base):
    """Two players: the option o the black player (the second to move) starts with, the
    Monolith on edge ``o // L`` and the Raven at level ``o % L`` (without the Raven: edge
    o).  ``start=random``: one draw on the (SETUP, SUB_START) substream; a random bot: one
    draw on its own stream; greedy and search: ``greedy_start``."""
    black = 1 - first
    nopt = R[R_E] * R[R_L] if R[R_RAVEN] else R[R_E]
    if R[R_START] == START_RANDOM:
        open_substream(rs, CH, base, SETUP, SUB_START)
        return rand_int(rs, CH, nopt)
    if bot_ids[black] == BOT_RANDOM:
        return rand_int(rs, 1 + black, nopt)
    return greedy_start(st, R, first, sc, rs)


@helper_inline
def place_start(st, R, o, first, tally, buf):
    """Put the Monolith and the Raven where start option o says (Black's choice, or
    chance's with start=random: so it is recorded)."""
    raven = 0
    if R[R_RAVEN]:
        e = o // R[R_L]
        st.pcs[RAV] = o % R[R_L]
        raven = o % R[R_L] + 1
        tally[T_RSTART] = raven
    else:
        e = o
        st.pcs[RAV] = 0
    st.pcs[MA] = R[R_EA + e]
    st.pcs[MB] = R[R_EB + e]
    tally[T_MSTART] = e
    actor = -1 if R[R_START] == START_RANDOM else 1 - first
    rec(buf, EV_START, actor, e, st.pcs[MA], st.pcs[MB], raven, 0, 0)


@helper
def set_up(g, seed, R, bot_ids, st, rs, sc, keys, tally, buf):
    """Seed the game's streams, build the board, place the Monolith and the Raven (two
    players) or deal the task cards, recording each; returns the first player."""
    P = R[R_P]
    X = sc.x
    base = game_base(seed, g)
    seed_game(rs, seed, g)
    tally[:] = 0
    clear_state(st, R)
    # two players: White (seat 0) moves first, as the rulebook says; three/four: rotated
    first = g % P if (R[R_FIRST] == FIRST_ROTATE and P > 2) else 0
    tally[T_FIRST] = first
    if R[R_SETUP] == SETUP_UNIFORM:
        tally[T_ATTEMPTS] = setup_uniform(st, R, rs, X)
        record_board(st, R, tally[T_ATTEMPTS], buf)
    else:
        setup_turns(st, R, rs, first, bot_ids, X, buf)
        tally[T_ATTEMPTS] = 1
    tally[T_BOARD] = board_key(st, R[R_N])
    tally[T_DECL] = -1
    tally[T_MSTART] = -1
    tally[T_RSTART] = -1
    if P == 2:
        place_start(st, R, start_choice(st, R, first, bot_ids, sc, rs, base), first, tally, buf)
    else:
        deal_tasks(st, R, base, X, keys)
        cards = X[X_CARDS]
        for s in range(P):
            rec(buf, EV_DEAL, -1, s, cards[2 * s], cards[2 * s + 1], 0, 0, 0)
    return first


@helper_inline
def declares(st, R, p, b, bonus, when, ex, bot_par, sc, rs, buf, vm):
    """Three/four players: seat p (bot b), which may declare the end (``can_declare``;
    ``when``: 0 before its exchange, 1 after; ``ex`` exchanges made), does; records the
    decision; ``vm``: the learned value (``features.ValueModel``; empty: none)."""
    if b == BOT_RANDOM:
        dec = random_declare(p, rs)
    elif b == BOT_SEARCH:
        dec = search_declare_v(st, R, p, bonus, when, bot_par[p], ex, sc, rs, vm)
    else:
        dec = wants_to_declare(st, R, sc.x[X_CARDS], p, bonus, sc.x[X_CP])
    rec(buf, EV_DECLARE if dec else EV_PLAY_ON, p, bonus if dec else when, 0, 0, 0, 0, 0)
    return dec


@helper_inline
def choose_exchange(st, R, p, b, nm, ex, bot_par, sc, rs, vm):
    """The exchange bot b (greedy or search) chooses for seat p among the nm legal ones
    in ``sc.x[X_MOVES]`` after ``ex`` exchanges (the random bot's choice is made in
    ``play_turns``)."""
    if R[R_P] == 2:
        if b == BOT_GREEDY:
            return greedy2(st, R, p, nm, sc, rs)
        return alphabeta(st, R, p, np.int64(bot_par[p, 0]), ex, sc, rs, vm, np.int64(bot_par[p, 4]))
    if b == BOT_GREEDY:
        return greedy_task(st, R, p, nm, sc, rs)
    return search_task_v(st, R, p, nm, bot_par[p], ex, sc, rs, vm)


#: evw's layout (``chunk_work``): the sides' chances, the flag and the threshold, ev_finish's
#: figures, then ev (sim/howplays.py; last, so that a trace may follow it)
EW_P = 0
EW_ON = EW_P + MAX_SIDES
EW_THR = EW_ON + 1
EW_OUT = EW_THR + 1
EW_EV = EW_OUT + 7
EW_SIZE = EW_EV + EV_SIZE


@helper_inline
def evaluate(st, R, cards, q, ex, vm, evw):
    """How it plays: each side's chance of winning at this position (q to move, ``ex``
    exchanges made; ``play_turns`` asks at every round's start) by the learned model, from
    each seat's own view (a partnership: the sum of its two seats'; ``ev_step`` normalises),
    into the running figures."""
    P = R[R_P]
    k = 2 if P == 4 else P
    for s in range(k):
        evw[EW_P + s] = 0.0
    for s in range(P):
        evw[EW_P + (s % 2 if P == 4 else s)] += model_value(st, R, cards, s, q, ex, vm)
    ev_step(evw[EW_EV:], evw[EW_P:EW_P + k], k, evw[EW_THR])


@helper_inline
def play_turns(R, bot_ids, bot_par, st, rs, sc, first, tally, buf, snaps, vm, evw):
    """The exchanges, seat by seat from ``first``, until no exchange is legal, the
    horizon, or a declared end; returns (exchanges, end reason).  Records every
    decision, and a snapshot of the state after each exchange."""
    P = R[R_P]
    ctr = R[R_CENTRE]
    check = R[R_CHECK]
    X = sc.x
    before = at(sc.ws, W_BEFORE)
    cards = X[X_CARDS]
    cx = tally[T_CX:T_CX + CX_SIZE]
    p = first
    ex = 0
    while True:
        b = bot_ids[p]
        if b == BOT_RANDOM:
            nm = edge_masks(st, R, X[X_PC], X[X_EMASK])
        else:
            nm = gen_moves(st, R, X[X_MOVES])
        if nm == 0:
            return ex, END_NO_EXCHANGE
        if ex >= R[R_HORIZON]:
            return ex, END_HORIZON
        if evw[EW_ON] != 0.0 and p == first:
            # once a round, the first seat to move: a seat's chance with the move and without
            # it differ, and every position would zig-zag with the turn
            evaluate(st, R, cards, p, ex, vm, evw)
        if (P > 2 and can_declare(st, R, cards, p)
                and declares(st, R, p, b, 0, 0, ex, bot_par, sc, rs, buf, vm)):
            tally[T_DECL] = p
            return ex, END_DECLARED
        choice(cx, p, nm)
        if b == BOT_RANDOM:
            m = random_move(R, p, nm, X, rs)
        else:
            m = choose_exchange(st, R, p, b, nm, ex, bot_par, sc, rs, vm)
        if check:
            copy_state(before, st)
        centre_open = st.cut[ctr] != 0
        f = apply_exchange(st, R, m, p)
        ex += 1
        tally[T_JOINS + p] += (f & 1) + ((f >> 1) & 1)
        tally[T_COMPL + p] += ((f >> 2) & 1) + ((f >> 3) & 1)
        e = m >> 4
        rec(buf, EV_EXCHANGE, p, e, (m & 15) + 1, R[R_EA + e], R[R_EB + e], f & 3, f >> 2)
        snapshot(buf, snaps, st)
        if check:
            tally[T_VIOL] += check_invariants(st, R, before)
        if P > 2 and can_declare(st, R, cards, p):
            bonus = R[R_BONUS] if (centre_open and st.cut[ctr] == 0) else 0
            if declares(st, R, p, b, bonus, 1, ex, bot_par, sc, rs, buf, vm):
                tally[T_DECL] = p
                tally[T_BONUS + p] = bonus
                return ex, END_DECLARED
        p = (p + 1) % P


@helper_inline
def play_game(g, seed, R, bot_ids, bot_par, st, rs, sc, keys, tally, buf, snaps, vm, evw):
    """Game ``g`` of the run ``seed`` into ``tally`` (layout ``T_*``); ``buf`` and
    ``snaps``: the record (``sim/record.py``; ``NO_RECORD`` records nothing); ``evw``: how
    it plays (``EW_*``: with ``evw[EW_ON]`` the model's chances at every position)."""
    P = R[R_P]
    first = set_up(g, seed, R, bot_ids, st, rs, sc, keys, tally, buf)
    snapshot(buf, snaps, st)
    on = evw[EW_ON] != 0.0
    if on:
        ev_start(evw[EW_EV:])
    if (P == 2 and bot_ids[0] == BOT_RANDOM and bot_ids[1] == BOT_RANDOM and R[R_CHECK] == 0
            and not recording(buf) and not on):
        ex, end = random_pair(st, R, sc.x, rs, first, tally)
    else:
        ex, end = play_turns(R, bot_ids, bot_par, st, rs, sc, first, tally, buf, snaps, vm, evw)
    tally[T_EX] = ex
    tally[T_END] = end
    tc = 0
    for t in range(R[R_N]):
        tc += np.int64(st.cut[t] == 0)
    tally[T_TCOMP] = tc
    side = final_scores(st, R, tally, sc.x)
    if end == END_HORIZON and R[R_HRESULT] == HRESULT_DRAW:
        side = -1
    tally[T_TEAMW] = side
    if on:
        out = evw[EW_OUT:EW_OUT + 7]
        ev_finish(evw[EW_EV:], 2 if P == 4 else P, side, out)
        for i in range(7):
            tally[T_EV + i] = EV_NONE if np.isnan(out[i]) else np.int64(np.round(out[i] * EV_UNIT))
    else:
        for i in range(7):
            tally[T_EV + i] = EV_NONE
    if P == 4:
        tally[T_WINNER] = -1
    else:
        tally[T_WINNER] = side


@helper
def run_games(seed, start, count, R, bot_ids, bot_par, out, work, buf, snaps):
    """Play games start..start+count-1; ``out[j]`` receives game j's tally; ``work`` the
    chunk's arrays (``chunk_work``); ``buf`` and ``snaps`` the record of the game when
    recording (count 1).

    The chunk's entry point is a ``helper`` called from Python with arrays chunk_work
    made, not a kernel: a kernel counts references to every array it touches, and the
    exchange loop is inlined here (play_game, play_turns, choose_exchange, declares).
    Those are inlined rather than compiled on their own: numba optimises and emits
    again, for every jitted function, the machine code of everything it calls, so each
    layer between the entry point and the bots cost the whole game's code once more."""
    st, rs, keys, sc, vm, evw = work
    for j in range(count):
        play_game(start + j, seed, R, bot_ids, bot_par, st, rs, sc, keys, out[j], buf, snaps, vm, evw)


def chunk_work(R, mp=None, ms=None, evaluate=False, trace=0):
    """run_games' work arrays for a chunk: the state (``new_state``), the streams, the deal
    keys, the scratch (``new_scratch``), the learned value the search's ``leaf=model``
    reads (``features.value_model``: ``(mp, ms)`` and its work arrays; none by default) and
    how it plays' (``EW_*``; ``evaluate``: follow the model's chances at every position, and
    keep those of the first ``trace`` positions: ``win_trace``)."""
    evw = np.zeros(EW_SIZE + MAX_SIDES * int(trace))
    evw[EW_ON] = 1.0 if evaluate else 0.0
    evw[EW_THR] = EV_THRESHOLD
    return (new_state(), np.zeros(1 + int(R[R_P]), dtype=np.uint64),
            np.zeros(NMAX, dtype=np.uint64), new_scratch(int(R[R_N])), value_model(mp, ms), evw)


def win_trace(ctx, players, seed, index, bot_ids, bot_par, most=2000):
    """Game ``index`` of ``seed`` played again with the model's chances followed (``ctx``
    carries the model: ``features.attach_model``): (positions, sides) each side's chance of
    winning at each round's start (at most ``most``), and the game's columns."""
    from .state import N_TALLY
    R, mp, ms = split_ctx(ctx)
    if mp is None:
        raise ValueError("maya: a win-probability trace needs the learned model in the context")
    work = chunk_work(R, mp, ms, True, most)
    tal = np.zeros((1, N_TALLY), np.int64)
    run_games(np.uint64(seed), np.int64(index), np.int64(1), R, np.asarray(bot_ids, np.int64),
              np.asarray(bot_par, np.float64), tal, work, NO_RECORD, NO_SNAPS)
    return trace_of(work[5][EW_EV:], 2 if int(players) == 4 else int(players)), tal[0]


#: the search bot's counters in this process (``state.S_*``): decisions searched, positions
#: reached (two players: exchanges made in the alpha-beta tree; three/four: play-outs) and
#: exchanges played in the play-outs; bench/strong.py reads them as the cost per game
SEARCH_STATS = [0, 0, 0]


def run_chunk(ctx, players, seed, start, count, bot_ids, bot_params, record=None):
    """``ctx``: the rules array ``R`` that ``prepare`` builds (layout in ``state.py``), or
    with the learned value ``features.ModelRules`` (``attach_model``);
    ``record``: ``(buf, snaps)`` to record the game (count 1, ``sim/record.py``)."""
    R, mp, ms = split_ctx(ctx)
    evaluate = bool(getattr(ctx, "evaluate", False))
    ids = np.asarray(bot_ids, np.int64)
    par = np.asarray(bot_params, np.float64)
    if mp is None and par.shape[1] > 4 and ((ids == S.BOT_SEARCH) & (par[:, 4] == LEAF_MODEL)).any():
        raise ValueError("a search bot with leaf=model needs a value model in the rules context "
                         "(sim.games.maya.features.attach_model; make_spec attaches it)")
    buf, snaps = record if record is not None else (NO_RECORD, NO_SNAPS)
    tal = np.zeros((count, S.N_TALLY), dtype=np.int64)
    # a chunk of no games still calls the kernel: that is how every caller compiles (or loads)
    # it before timing or running games (a cold cache once made the first timed game include
    # the compile: `sim maya --games 1e6` was refused as "about 1,086 days")
    work = chunk_work(R, mp, ms, evaluate)
    run_games(np.uint64(seed), np.int64(start), np.int64(count), R, ids, par, tal, work, buf, snaps)
    for i, v in enumerate(work[3].x[S.X_STATS, :len(SEARCH_STATS)]):
        SEARCH_STATS[i] += int(v)
    return columns_from_tally(tal, players, int(R[S.R_HRESULT]))


def columns_from_tally(tal, players, horizon_result=S.HRESULT_SCORE):
    P = players

    def seat(off, dt):
        return tal[:, off:off + P].astype(dt)

    out = {
        "winner": tal[:, S.T_WINNER].astype(np.int8),
        "end_reason": tal[:, S.T_END].astype(np.int8),
        "capped": tal[:, S.T_END] == S.END_HORIZON,
        "first_player": tal[:, S.T_FIRST].astype(np.int8),
        "exchanges": tal[:, S.T_EX].astype(np.int32),
        "score": seat(S.T_SCORE, np.int16),
        "team_score": seat(S.T_TEAM, np.int16),
        "priests": seat(S.T_PRIESTS, np.int8),
        "ladders": seat(S.T_LADDERS, np.int8),
        "priest_points": seat(S.T_PPTS, np.int8),
        "ladder_points": seat(S.T_LPTS, np.int8),
        "completed": seat(S.T_COMPL, np.int8),
        "joins": seat(S.T_JOINS, np.int16),
        "bonus": seat(S.T_BONUS, np.int8),
        "tiebreak": tal[:, S.T_TIEBRK].astype(np.int8),
        "declarer": tal[:, S.T_DECL].astype(np.int8),
        "towers_complete": tal[:, S.T_TCOMP].astype(np.int8),
        "team_winner": tal[:, S.T_TEAMW].astype(np.int8),
        "monolith_start": tal[:, S.T_MSTART].astype(np.int8),
        "raven_start": tal[:, S.T_RSTART].astype(np.int8),
        "setup_attempts": np.minimum(tal[:, S.T_ATTEMPTS], 32767).astype(np.int16),
        "board_key": tal[:, S.T_BOARD].copy(),
    }
    out.update(complexity_columns(tal[:, T_CX:T_CX + CX_SIZE], P))
    ev = tal[:, T_EV:T_EV + 7]
    out.update(evaluation_columns(np.where(ev == EV_NONE, np.nan, ev / EV_UNIT), len(tal)))
    out["win"] = win_shares(tal, P, horizon_result)
    return out


def win_shares(tal, P, horizon_result):
    """1 to the sole winning side's seats.  No winner (a two-player tie after every
    tie-break, the rulebook's "there is no winner"; a capped game under
    ``horizon_result=draw``): 0 to everyone.  A three/four-player tie: the victory is shared,
    1/k to each of the k tied sides' seats."""
    side_of = np.arange(P) % 2 if P == 4 else np.arange(P)
    sides = 2 if P == 4 else P
    w = tal[:, S.T_TEAMW]
    team = tal[:, S.T_TEAM:S.T_TEAM + P]
    tied = team == team.max(axis=1, keepdims=True)
    if P == 2:
        tied[:] = False
    if horizon_result == S.HRESULT_DRAW:
        tied[tal[:, S.T_END] == S.END_HORIZON] = False
    k = tied.sum(axis=1, keepdims=True) * sides / P  # tied sides (4p: seats come in pairs)
    shared = tied / np.maximum(k, 1)
    sole = (side_of[None, :] == w[:, None]).astype(np.float64)
    return np.where((w >= 0)[:, None], sole, shared).astype(np.float32)


# what the kernel records (sim/record.py): levels 1 (bottom) to L, towers numbered row by
# row from 0 (``show.py`` names them A, B, ...), seats by number
