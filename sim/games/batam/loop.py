"""The game loop: a round's phases in crew-row order, resumable from any decision of a
search seat (``play_from`` and the cursor ``Scratch.cur``); the real game (``play``) and the
search bot's rollouts (``bots/search``) both run it."""
from __future__ import annotations

from ...jit import helper_inline
from ...record import H_SNAPS, rec, recording
from .crew import collect_wages
from .ending import final_ranking, return_bonuses, round_leader
from .howplays import EW_ON, count, evaluate, wage_options
from .phases import offer_wages, place_steps, reroll_steps, roll_dice, sail_to, set_wages
from .state import (
    BOT_SEARCH,
    C_ER,
    C_FIRST,
    C_I,
    C_N,
    C_PH,
    C_RND,
    C_ROUNDS,
    C_W,
    DONE,
    END_HORIZON,
    END_RETURN,
    E_END,
    E_ROUND,
    G_BANK,
    G_ENDED,
    G_ENDER,
    HRES_DRAW,
    NEED,
    PH_END,
    PH_PLACE,
    PH_REROLL,
    PH_ROLL,
    PH_SAIL,
    PH_START,
    PH_WAGES,
    PL_A,
    PL_B,
    PL_SEAT,
    PL_SET,
    RF_PCH,
    RF_RET,
    RF_RETA,
    RF_TW,
    SNAP_BANK,
    SNAP_COINS,
    SNAP_GOODS,
    SNAP_POS,
    SNAP_TILE,
    MAXC,
    MAXP,
    R_HORIZON,
    R_HRES,
    R_P,
)


@helper_inline
def crew_seat(first, rnd, i, P):
    """Seat at position i of the crew row in round rnd (0-based): the first player's board
    starts the row, the others follow clockwise, and after every round the leftmost board
    moves to the right end."""
    return (first + rnd + i) % P


@helper_inline
def play_from(st, rules, bot_ids, bot_par, rs, sc, buf, snaps):
    """Play on from where the game stands (``sc.cur``: round, phase, crew-row position)
    until it ends (returns DONE: winner, end reason and rounds in ``sc.cur``, win shares in
    ``sc.win``) or a search seat must decide (returns NEED, the cursor at that decision; the
    caller puts the choice in ``sc.plan`` and calls again).  The real game and the search
    bot's rollouts both run this loop; it never calls the search bot.  How it plays
    (``howplays``): every seat's choices are counted in ``sc.cx`` and, with ``sc.evw[EW_ON]``,
    every round start that begins a round is evaluated."""
    R = rules.R
    P = R[R_P]
    cur = sc.cur
    plan = sc.plan
    first = cur[C_FIRST]
    while True:
        rnd = cur[C_RND]
        ph = cur[C_PH]
        i = cur[C_I]
        p = crew_seat(first, rnd, i, P)
        bot = bot_ids[p]
        forced = plan[PL_SET] != 0 and plan[PL_SEAT] == p
        if ph == PH_START:
            if rnd >= R[R_HORIZON]:
                horizon_end(st, R, sc, buf)
                return DONE
            if sc.evw[EW_ON] != 0.0:
                evaluate(st, rules, sc)
            cur[C_ROUNDS] = rnd + 1
            rec(buf, E_ROUND, -1, rnd + 1, p, 0, 0, 0, 0)
            for q in range(P):
                st.rflags[RF_TW, q] = 0
                st.rflags[RF_RET, q] = 0
                st.rflags[RF_RETA, q] = 0
                st.rflags[RF_PCH, q] = 0
            cur[C_PH] = PH_WAGES
            cur[C_I] = 0
            continue
        if ph == PH_WAGES:
            if not forced and bot == BOT_SEARCH and st.coins[p] >= 2:
                return NEED
            count(sc.cx, p, wage_options(st.coins[p]))
            if forced:
                set_wages(st, p, plan[PL_A], plan[PL_B], st.coins[p], buf)
                plan[PL_SET] = 0
            else:
                offer_wages(st, R, p, bot, bot_par[p], rs, buf)
            next_seat(cur, P, PH_ROLL)
        elif ph == PH_ROLL:
            roll_dice(st, rules.faces, p, rs, rnd, buf)
            cur[C_PH] = PH_REROLL
            cur[C_N] = 0
        elif ph == PH_REROLL:
            n, res = reroll_steps(st, R, rules.faces, p, bot, bot_par[p], rs, cur[C_N],
                                  plan[PL_A] if forced else -1, sc.cx, buf)
            plan[PL_SET] = 0
            cur[C_N] = n
            if res == NEED:
                return NEED
            cur[C_PH] = PH_PLACE
        elif ph == PH_PLACE:
            res = place_steps(st, R, p, bot, bot_par[p], rs, sc.opts, sc.th,
                              plan[PL_A] if forced else -1, sc.cx, buf)
            plan[PL_SET] = 0
            if res == NEED:
                return NEED
            for j in range(3):
                st.dv[p, j] = -1
            cur[C_PH] = PH_ROLL
            next_seat(cur, P, PH_SAIL)
        elif ph == PH_SAIL:
            if not forced and bot == BOT_SEARCH:
                return NEED
            sail_to(st, rules, p, bot, bot_par[p], rs, sc, plan[PL_A] if forced else -2, buf)
            plan[PL_SET] = 0
            snapshot(st, buf, snaps)
            next_seat(cur, P, PH_END)
        else:
            if round_end(st, R, sc, buf):
                return DONE


@helper_inline
def snapshot(st, buf, snaps):
    """When recording: the ships, coins, goods, compass tiles and bank after a voyage, as the
    next snapshot row (layout: ``state.SNAP_*``), while there is room."""
    k = buf[0, H_SNAPS]
    if not recording(buf) or k >= snaps.shape[0]:
        return
    row = snaps[k]
    for s in range(MAXP):
        row[SNAP_COINS + s] = st.coins[s]
        row[SNAP_GOODS + s] = st.goods[s]
        row[SNAP_POS + s] = st.pos[s]
    for c in range(MAXC):
        row[SNAP_TILE + c] = st.tile[c]
    row[SNAP_BANK] = st.g[G_BANK]
    buf[0, H_SNAPS] = k + 1


@helper_inline
def next_seat(cur, P, after):
    """The cursor to the next seat of the crew row, or to phase ``after`` past the last."""
    if cur[C_I] + 1 < P:
        cur[C_I] += 1
    else:
        cur[C_I] = 0
        cur[C_PH] = after


@helper_inline
def round_end(st, R, sc, buf):
    """The end of round cur[C_RND]: return bonuses when the end was triggered, Phase 4, the
    leader; True when the game is over (its result in ``sc``), else the cursor moves on."""
    P = R[R_P]
    cur = sc.cur
    rnd = cur[C_RND]
    if st.g[G_ENDED] != 0:
        return_bonuses(st, R, crew_seat(cur[C_FIRST], rnd, 0, P), buf)
    collect_wages(st, R, buf)
    sc.leaders[rnd] = round_leader(st, P)
    if st.g[G_ENDED] != 0:
        w = final_ranking(st, R, sc.win)
        rec(buf, E_END, -1, END_RETURN, w, rnd + 1, st.g[G_ENDER], 0, 0)
        cur[C_W] = w
        cur[C_ER] = END_RETURN
        cur[C_ROUNDS] = rnd + 1
        return True
    cur[C_RND] = rnd + 1
    cur[C_PH] = PH_START
    cur[C_I] = 0
    return False


@helper_inline
def horizon_end(st, R, sc, buf):
    """The round horizon is reached: rank the seats (or call it a draw: R_HRES)."""
    P = R[R_P]
    w = final_ranking(st, R, sc.win)
    if R[R_HRES] == HRES_DRAW:
        for p in range(P):
            sc.win[p] = 1.0 / P
        w = -1
    rec(buf, E_END, -1, END_HORIZON, w, R[R_HORIZON], -1, 0, 0)
    sc.cur[C_W] = w
    sc.cur[C_ER] = END_HORIZON
    sc.cur[C_ROUNDS] = R[R_HORIZON]
