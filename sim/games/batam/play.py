"""The game loop: a round's phases in crew-row order, the end of the game, and the
chunk of games the runner asks for (``run_chunk``, the kernel contract of ``sim.game``)."""
from __future__ import annotations

import numpy as np

from ...drama import drama
from ...jit import helper, helper_inline, kernel
from ...record import NO_RECORD, NO_SNAPS, rec, rec_snapshot
from .crew import collect_wages
from .ending import final_ranking, return_bonuses, round_leader
from .phases import offer_wages, place_phase, reroll_phase, sail
from .setup import setup, start_streams
from .state import (
    E_END,
    E_ROUND,
    END_HORIZON,
    END_RETURN,
    HRES_DRAW,
    MAXC,
    MAXI,
    MAXK,
    MAXP,
    N_BOTPAR,
    N_RS,
    N_ST,
    N_TAL,
    O_BANK,
    O_COINS,
    O_DV,
    O_ENDED,
    O_ENDER,
    O_GOODS,
    O_PCH,
    O_RET,
    O_RETA,
    O_SHORT,
    O_TAL,
    O_TW,
    R_HORIZON,
    R_HRES,
    R_P,
    SEAT_DTYPES,
    SEAT_FIELDS,
    Out,
    Scratch,
)


@helper_inline
def crew_seat(first, rnd, i, P):
    """Seat at position i of the crew row in round rnd (0-based): the first player's board
    starts the row, the others follow clockwise, and after every round the leftmost board
    moves to the right end."""
    return (first + rnd + i) % P


@helper
def play_game(g, seed, rules, bot_ids, bot_par, st, rs, sc, buf, snaps):
    """Play game g; returns (winner, end_reason, first, rounds).  Its state is left in ``st``
    (tallies included), the win shares in ``sc.win``, the leader at the end of each round in
    ``sc.leaders``.  ``rs`` has N_RS slots.  Events go to ``buf`` and the state after every
    voyage to ``snaps`` when recording (``sim.record``; else NO_RECORD)."""
    R = rules.R
    P = R[R_P]
    start_streams(rs, seed, g, P)
    first = setup(st, rules, rs, sc.order, buf)
    rounds = 0
    for rnd in range(R[R_HORIZON]):
        rounds = rnd + 1
        lead = crew_seat(first, rnd, 0, P)
        rec(buf, E_ROUND, -1, rnd + 1, lead, 0, 0, 0, 0)
        for p in range(P):
            st[O_TW + p] = 0
            st[O_RET + p] = 0
            st[O_RETA + p] = 0
            st[O_PCH + p] = 0
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            offer_wages(st, R, p, bot_ids[p], bot_par[p], rs, buf)
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            reroll_phase(st, R, rules.faces, p, bot_ids[p], bot_par[p], rs, rnd, buf)
            place_phase(st, R, p, bot_ids[p], bot_par[p], rs, sc.opts, buf)
            for j in range(3):
                st[O_DV + 3 * p + j] = -1
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            sail(st, rules, p, bot_ids[p], bot_par[p], rs, sc, buf)
            rec_snapshot(buf, snaps, st, N_ST)
        if st[O_ENDED] != 0:
            return_bonuses(st, R, lead, buf)
        collect_wages(st, R, buf)
        sc.leaders[rnd] = round_leader(st, P)
        if st[O_ENDED] != 0:
            w = final_ranking(st, R, sc.win)
            rec(buf, E_END, -1, END_RETURN, w, rounds, st[O_ENDER], 0, 0)
            return w, END_RETURN, first, rounds
    w = final_ranking(st, R, sc.win)
    if R[R_HRES] == HRES_DRAW:
        for p in range(P):
            sc.win[p] = 1.0 / P
        w = -1
    rec(buf, E_END, -1, END_HORIZON, w, rounds, -1, 0, 0)
    return w, END_HORIZON, first, rounds


@kernel
def run_games(seed, start, count, rules, bot_ids, bot_par, out, sc, buf, snaps):
    """Play games ``start .. start + count - 1`` into ``out`` (an ``Out``); ``sc`` a ``Scratch``;
    ``buf, snaps`` the record buffers (``sim.record``: NO_RECORD, NO_SNAPS when not recording)."""
    P = rules.R[R_P]
    st = np.zeros(N_ST, np.int64)
    rs = np.zeros(N_RS, np.uint64)
    for j in range(count):
        w, e, f, rd = play_game(start + j, seed, rules, bot_ids, bot_par, st, rs, sc, buf, snaps)
        out.winner[j] = w
        out.end_reason[j] = e
        out.first_player[j] = f
        out.rounds[j] = rd
        out.ender[j] = st[O_ENDER]
        out.bank[j] = st[O_BANK]
        out.bank_short[j] = st[O_SHORT]
        out.lead_changes[j], out.lead_settled[j] = drama(sc.leaders, rd, w)
        for s in range(P):
            out.win[j, s] = sc.win[s]
            out.seat[j, s, 0] = st[O_COINS + s]
            out.seat[j, s, 1] = st[O_GOODS + s]
            out.seat[j, s, 2] = (s - f) % P
            for k in range(N_TAL):
                out.seat[j, s, 3 + k] = st[O_TAL + k * MAXP + s]


def new_state() -> np.ndarray:
    """A game's state (see ``state``; ``setup`` fills it): copy one with ``st.copy()``."""
    return np.zeros(N_ST, np.int64)


def new_scratch(rules) -> Scratch:
    return Scratch(opts=np.zeros(64, np.int64), order=np.zeros(MAXK, np.int64),
                   cand=np.zeros(MAXI + MAXC, np.int64), candv=np.zeros(MAXI + MAXC, np.float64),
                   win=np.zeros(MAXP, np.float64), leaders=np.zeros(rules.R[R_HORIZON], np.int64))


def run_chunk(rules, players, seed, start, count, bot_ids, bot_params, record=None):
    """The kernel contract (``sim.game``): play ``count`` games from game index ``start``;
    ``record=(buf, snaps)`` records them (``sim.record``: count 1)."""
    buf, snaps = (NO_RECORD, NO_SNAPS) if record is None else record
    if record is not None and count != 1:
        raise ValueError("a record holds one game: record with count 1")
    P = players
    bot_ids = np.ascontiguousarray(bot_ids, dtype=np.int64)
    bp = np.zeros((P, N_BOTPAR), np.float64)
    w = min(N_BOTPAR, bot_params.shape[1])
    bp[:, :w] = bot_params[:, :w]
    out = Out(winner=np.empty(count, np.int8), end_reason=np.empty(count, np.int8),
              first_player=np.empty(count, np.int8), rounds=np.empty(count, np.int16),
              ender=np.empty(count, np.int8), bank=np.empty(count, np.int32),
              bank_short=np.empty(count, np.int32), win=np.empty((count, P), np.float32),
              seat=np.empty((count, P, len(SEAT_FIELDS)), np.int64),
              lead_changes=np.empty(count, np.int16), lead_settled=np.empty(count, np.int8))
    run_games(np.uint64(seed), np.int64(start), np.int64(count), rules, bot_ids, bp, out,
              new_scratch(rules), buf, snaps)
    cols = out._asdict()
    seat = cols.pop("seat")
    for k, f in enumerate(SEAT_FIELDS):
        cols[f] = seat[:, :, k].astype(SEAT_DTYPES[f])
    cols["capped"] = cols["end_reason"] == END_HORIZON
    return cols
