"""The game loop: a round's phases in crew-row order, the end of the game, and the
chunk of games the runner asks for (``run_chunk``, the kernel contract of ``sim.game``)."""
from __future__ import annotations

import numpy as np

from ...drama import drama
from ...jit import helper, helper_inline, kernel
from .crew import collect_wages
from .ending import final_ranking, return_bonuses, round_leader
from .phases import offer_wages, place_phase, reroll_phase, sail
from .setup import setup, start_streams
from .state import (END_HORIZON, END_RETURN, HRES_DRAW, MAXC, MAXI, MAXK, MAXP, N_BOTPAR, N_RS, N_ST,
                    N_TAL, O_BANK, O_COINS, O_DV, O_ENDED, O_ENDER, O_GOODS, O_PCH, O_RET, O_RETA,
                    O_SHORT, O_TW, R_HORIZON, R_HRES, R_P, SEAT_DTYPES, SEAT_FIELDS)


@helper_inline
def crew_seat(first, rnd, i, P):
    """Seat at position i of the crew row in round rnd (0-based): the first player's board
    starts the row, the others follow clockwise, and after every round the leftmost board
    moves to the right end."""
    return (first + rnd + i) % P


@helper
def play_game(g, seed, R, faces, kind, island, comp, comp_nodes, nbr, deg, padj, harb_nodes,
              special, DS, WS, LS, DSS, LSS, tk, tv, ti, ck, cv, ci, cid, tid, bot_ids, bot_par, st,
              rs, tal, opts, scratch, win, cand, candv, leaders):
    """Play game g; returns (winner, end_reason, first, rounds); tallies in ``tal``; the
    leader at the end of each round in ``leaders``.  ``rs`` has N_RS slots."""
    P = R[R_P]
    start_streams(rs, seed, g, P)
    tal[:] = 0
    first = setup(st, R, faces, tk, tid, cid, rs, scratch)
    rounds = 0
    for rnd in range(R[R_HORIZON]):
        rounds = rnd + 1
        lead = crew_seat(first, rnd, 0, P)
        for p in range(P):
            st[O_TW + p] = 0
            st[O_RET + p] = 0
            st[O_RETA + p] = 0
            st[O_PCH + p] = 0
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            offer_wages(st, R, p, bot_ids[p], bot_par[p], rs)
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            reroll_phase(st, R, faces, p, bot_ids[p], bot_par[p], rs, tal, rnd)
            place_phase(st, R, p, bot_ids[p], bot_par[p], rs, opts)
            for j in range(3):
                st[O_DV + 3 * p + j] = -1
        for i in range(P):
            p = crew_seat(first, rnd, i, P)
            sail(st, R, kind, island, comp, comp_nodes, nbr, deg, padj, harb_nodes, special, DS, WS,
                 LS, DSS, LSS, tk, tv, ti, ck, cv, ci, cid, p, bot_ids[p], bot_par[p], rs, tal, opts,
                 cand, candv)
        if st[O_ENDED] != 0:
            return_bonuses(st, R, lead, tal)
        collect_wages(st, R, tal)
        leaders[rnd] = round_leader(st, P)
        if st[O_ENDED] != 0:
            w = final_ranking(st, R, win)
            return w, END_RETURN, first, rounds
    w = final_ranking(st, R, win)
    if R[R_HRES] == HRES_DRAW:
        for p in range(P):
            win[p] = 1.0 / P
        w = -1
    return w, END_HORIZON, first, rounds


@kernel
def run_games(seed, start, count, R, faces, kind, island, comp, comp_nodes, nbr, deg, padj,
              harb_nodes, special, DS, WS, LS, DSS, LSS, tk, tv, ti, ck, cv, ci, cid, tid, bot_ids,
              bot_par, winner, end_reason, first_player, rounds, ender, bank, bank_short, win, seat_out,
              lead_changes, lead_settled):
    """Play ``count`` games; ``seat_out[j, s, k]``: coins, goods, crew position, then the
    N_TAL tallies of seat s in game j."""
    P = R[R_P]
    st = np.zeros(N_ST, np.int64)
    rs = np.zeros(N_RS, np.uint64)
    tal = np.zeros(N_TAL * MAXP, np.int64)
    opts = np.zeros(64, np.int64)
    scratch = np.zeros(MAXK, np.int64)
    w1 = np.zeros(MAXP, np.float64)
    cand = np.zeros(MAXI + MAXC, np.int64)
    candv = np.zeros(MAXI + MAXC, np.float64)
    leaders = np.zeros(R[R_HORIZON], np.int64)
    for j in range(count):
        w, e, f, rd = play_game(start + j, seed, R, faces, kind, island, comp, comp_nodes, nbr, deg,
                                padj, harb_nodes, special, DS, WS, LS, DSS, LSS, tk, tv, ti, ck, cv,
                                ci, cid, tid, bot_ids, bot_par, st, rs, tal, opts, scratch, w1, cand,
                                candv, leaders)
        winner[j] = w
        end_reason[j] = e
        first_player[j] = f
        rounds[j] = rd
        ender[j] = st[O_ENDER]
        bank[j] = st[O_BANK]
        bank_short[j] = st[O_SHORT]
        lead_changes[j], lead_settled[j] = drama(leaders, rd, w)
        for s in range(P):
            win[j, s] = w1[s]
            seat_out[j, s, 0] = st[O_COINS + s]
            seat_out[j, s, 1] = st[O_GOODS + s]
            seat_out[j, s, 2] = (s - f) % P
            for k in range(N_TAL):
                seat_out[j, s, 3 + k] = tal[k * MAXP + s]


def run_chunk(ctx, players, seed, start, count, bot_ids, bot_params):
    P = players
    bot_ids = np.ascontiguousarray(bot_ids, dtype=np.int64)
    bp = np.zeros((P, N_BOTPAR), np.float64)
    w = min(N_BOTPAR, bot_params.shape[1])
    bp[:, :w] = bot_params[:, :w]
    out = {
        "winner": np.empty(count, np.int8),
        "end_reason": np.empty(count, np.int8),
        "first_player": np.empty(count, np.int8),
        "rounds": np.empty(count, np.int16),
        "ender": np.empty(count, np.int8),
        "bank": np.empty(count, np.int32),
        "bank_short": np.empty(count, np.int32),
        "win": np.empty((count, P), np.float32),
        "lead_changes": np.empty(count, np.int16),
        "lead_settled": np.empty(count, np.int8),
    }
    seat = np.empty((count, P, len(SEAT_FIELDS)), np.int64)
    run_games(np.uint64(seed), np.int64(start), np.int64(count), *ctx, bot_ids, bp,
                out["winner"], out["end_reason"], out["first_player"], out["rounds"], out["ender"],
                out["bank"], out["bank_short"], out["win"], seat, out["lead_changes"],
                out["lead_settled"])
    for k, f in enumerate(SEAT_FIELDS):
        out[f] = seat[:, :, k].astype(SEAT_DTYPES[f])
    out["capped"] = out["end_reason"] == END_HORIZON
    return out
