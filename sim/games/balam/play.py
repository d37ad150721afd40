"""The game loop: rounds of turns, production and distribution, the end-of-game bonus and audit."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...drama import drama
from ...howplays import choice, cx_finish, cx_start, ev_finish, ev_start
from ...jit import helper, helper_inline, kernel
from ...rng import game_base, mix64, open_substream, rand_int
from ...record import H_SNAPS, NO_RECORD, NO_SNAPS, rec, recording
from .state import (BOT_RANDOM, BOT_SEARCH, BW_EXPAND, BW_RISK, END_BALLS, END_CAP, END_DECK,
                    EV_BONUS, EV_DECK, EV_END, EV_FIRST, EV_LAYOUT, GARRISON, GS_AUDIT, GS_BALLS,
                    GS_DEADLOCK, GS_DPOS, GS_ECL, GS_LEFT, GS_ROUND, GS_SLOT, GS_SUP, GS_TILE,
                    GS_TURNS, I_CENOTE, I_SEA, I_SPACES, I_VOLC, MAIZE, NBW, NPL, OBSID, PRIS,
                    P_AUDIT, P_BONUS, P_HAND, P_KAT, P_LARGE, P_PRES, P_SMALL, RESERVE, R_LARGE, R_MAXR,
                    R_MAXTURN, R_NP, R_SMALL, R_START, R_SUP0, R_TILE0, SETUP, SL_BASE, SL_CH,
                    T_TURNS, XI_CX, Rules, new_scratch, new_state, reset_state)
from .board import add_prestige, count_cities, gain, hand_total, prestige_leader, site_empty
from .setup import build_deck, draw_layout, layout_hash
from .bots.values import pay_orders
from .katun import turn_card
from .bots.heuristic import heuristic_turn
from .bots.random import random_turn
from .bots.search import LEAF_MODEL, NSP, SP_LEAF, new_search, search_turn
from .bots.worlds import WI_NDECK
from .howplays import card_options, count_options, evaluate_round, how_columns, how_plays, turn_options
from .rounds import close_round, deal_round

@helper
def audit(own, bld, tok, sm, pl, gs, R, nnb):
    """Conservation checks (tests): riches, tiles and pyramids are all accounted for.
    Returns the number of broken checks."""
    S = own.shape[0]
    NP = R[R_NP]
    bad = 0
    for t in range(6):
        n = gs[GS_SUP + t]
        for q in range(NP):
            n += pl[q, P_HAND + t]
        for s in range(S):
            for k in range(4):
                if tok[s, k] == t:
                    n += 1
        if n != R[R_SUP0 + t] or gs[GS_SUP + t] < 0:
            bad += 1
    for i in range(4):
        n = gs[GS_TILE + i]
        for s in range(S):
            for k in range(4):
                c = bld[s, k]
                if c >= 1 and c <= 8 and (c - 1) // 2 == i:
                    n += 1
        if n != R[R_TILE0 + i]:
            bad += 1
    for q in range(NP):
        if pl[q, P_LARGE] + count_cities(own, q) != R[R_LARGE]:
            bad += 1
        n = pl[q, P_SMALL]
        for s in range(S):
            n += sm[s, q]
        if n != R[R_SMALL] or n < 0:
            bad += 1
        for t in range(6):
            if pl[q, P_HAND + t] < 0:
                bad += 1
    for s in range(S):
        if own[s] >= 0 and site_empty(bld, s):
            bad += 1
        if own[s] < 0 and not site_empty(bld, s):
            bad += 1
        for k in range(4):
            if tok[s, k] >= 0 and not (bld[s, k] == RESERVE or bld[s, k] == GARRISON):
                bad += 1
            if bld[s, k] == GARRISON and tok[s, k] >= 0 and tok[s, k] != OBSID and tok[s, k] != PRIS:
                bad += 1
    return bad


# ======================================================================= game
@helper
def site_terms(bot_par, info, out):
    """out[q]: king q's weights, then the heuristic's fixed terms for founding a city on
    each site of this game's layout: out[q, NBW + s] the bonus for expanding there,
    out[q, NBW + S + s] the exposure to volcanoes and the sea (filled once per game rather
    than on every turn).  Its payment orders (out[q, NBW + 2S:]) are pay_orders'."""
    NP = out.shape[0]
    S = info.shape[0]
    for q in range(NP):
        for i in range(NBW):
            out[q, i] = bot_par[q, i]
        for s in range(S):
            out[q, NBW + s] = bot_par[q, BW_EXPAND] * (0.6 + 0.15 * info[s, I_SPACES]
                                                       + 0.1 * info[s, I_CENOTE])
            out[q, NBW + S + s] = bot_par[q, BW_RISK] * 0.3 * (info[s, I_VOLC] + info[s, I_SEA])


@kernel
def with_site_terms(bot_par, info):
    """site_terms and pay_orders into a new array (hand-built positions in the tests)."""
    out = np.zeros((bot_par.shape[0], NBW + 2 * info.shape[0] + 24))
    site_terms(bot_par, info, out)
    for q in range(out.shape[0]):
        pay_orders(out[q], NBW + 2 * info.shape[0])
    return out


#: per seat in a snapshot row: the player row's first fields (hand, pyramids, prestige)
SNAP_SEAT = 9


def snapshot_layout(S: int, players: int) -> dict:
    """Where each part of a snapshot row lies: round at 0, then per site its owner and
    per space (building, token, small pyramids of seat 0..3), then per seat its first
    SNAP_SEAT player-row fields."""
    return {"round": 0, "site": 1, "site_width": 13, "seat": 1 + 13 * S,
            "seat_width": int(SNAP_SEAT), "width": 1 + 13 * S + int(SNAP_SEAT) * players}


#: decisions searched, rollouts played and turns played in them by the search bot in this
#: process (bots/search.py ST_*; run_chunk adds each chunk's; bench/strong.py reads it)
SEARCH_STATS = [0, 0, 0]


#: The per-game result columns run_games fills (row j: the chunk's j-th game); ``seat[j,
#: q, f]`` is seat q's player row at the end, with its cities in column P_LARGE's place
#: and the audit in P_AUDIT.
Results = namedtuple("Results", ("end_reason", "first_player", "rounds", "turns", "ball_games",
                                 "eclipse_round", "cards_turned", "layout", "lead_changes",
                                 "lead_settled", "seat"))


@helper
def snapshot(st, sc):
    """When recording: the board and the kings after a round, as one snapshot row
    (layout: ``snapshot_layout``)."""
    buf, snaps = sc.rec, sc.snaps
    if not recording(buf):
        return
    k = buf[0, H_SNAPS]
    if k >= snaps.shape[0]:
        return
    own, bld, tok, sm, pl, gs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs
    S = own.shape[0]
    row = snaps[k]
    row[0] = gs[GS_ROUND]
    i = 1
    for s in range(S):
        row[i] = own[s]
        i += 1
        for kk in range(4):
            row[i] = bld[s, kk]
            row[i + 1] = tok[s, kk]
            row[i + 2] = sm[s, kk]
            i += 3
    for q in range(pl.shape[0]):
        for f in range(SNAP_SEAT):
            row[i] = pl[q, f]
            i += 1
    buf[0, H_SNAPS] = k + 1


@helper
def setup_game(st, ru, sc, seed, g, tinfo, cid, bot_par, dk, perm):
    """Game g's setup: the bots' streams, the layout (``ru.info``, from the board file's
    tiles ``tinfo``), the site terms (``ru.bot_par``, from the weights ``bot_par``), the
    state, the deck (``dk``: the deck and build_deck's work arrays) and the first king's
    maize.  Returns (the first king, cards in the deck)."""
    rs, pl, gs = st.rs, st.pl, st.gs
    R, info = ru.R, ru.info
    NP = R[R_NP]
    base = game_base(seed, g)
    for q in range(NP):                 # the bots' streams (sim.rng: stream 1 + seat)
        rs[1 + q] = mix64(base + np.uint64(1 + q))
    rs[SL_BASE] = base
    draw_layout(rs, base, R, tinfo, info, perm)
    site_terms(bot_par, info, ru.bot_par)
    reset_state(st, R)
    deck, tmpdeck, ids, keys = dk
    ndeck = build_deck(rs, base, ru.ctype, cid, R, deck, tmpdeck, ids, keys)
    open_substream(rs, SL_CH, base, SETUP, 0)
    first = rand_int(rs, SL_CH, NP)
    for q in range(NP):
        gain(pl, gs, q, MAIZE, R[R_START])
    if recording(sc.rec):
        for s in range(perm.shape[0]):
            rec(sc.rec, EV_LAYOUT, -1, s, perm[s], 0, 0, 0, 0)
        for i in range(ndeck):
            rec(sc.rec, EV_DECK, -1, i, deck[i], ru.ctype[deck[i]], 0, 0, 0)
        rec(sc.rec, EV_FIRST, -1, first, 0, 0, 0, 0, 0)
    return first, ndeck


@helper_inline
def take_turn(st, ru, sc, p, se, deck):
    """King p's turn by his bot, counted as a choice among the turn's options first, the
    same for every bot (howplays.py).  ``se``: the search bot's work, or None at a table
    without it (search_turn compiled for None is empty: such a table never compiles it)."""
    if ru.bot_ids[p] == BOT_RANDOM:
        n = turn_options(st, ru, sc, p, sc.queue)   # (listed: the bot draws among them)
    else:
        n = count_options(st.own, st.bld, st.pl, st.gs, ru.R, ru.nbr, ru.nnb, ru.info, p)
    choice(sc.xi[XI_CX], p, n - 1 + card_options(st.gs, p))
    if ru.bot_ids[p] == BOT_SEARCH:
        search_turn(st, ru, sc, p, se, deck, True)
    elif ru.bot_ids[p] == BOT_RANDOM:
        random_turn(st, ru, sc, p, sc.queue, n)
    else:
        heuristic_turn(st, ru, sc, p)


@helper_inline
def play_round(st, ru, sc, deck, n, cur, se):
    """One round: n cards face down, divination, turns from king ``cur`` on until every
    card is turned, production, distribution and Chaak's clemency (rounds.py).  Returns
    (the next round's first king, whether this was the last round).  ``se``: the search
    bot's work (bots/search.py), None at a table without it (take_turn)."""
    pl, gs = st.pl, st.gs
    R = ru.R
    NP = R[R_NP]
    deal_round(st, ru, sc, deck, n, cur)
    nturn = 0
    while True:
        p = cur
        nturn += 1
        gs[GS_TURNS] += 1
        pl[p, T_TURNS] += 1
        if nturn > R[R_MAXTURN]:
            # safety valve (never reached by the bots here): force a card
            gs[GS_DEADLOCK] += 1
            for k in range(n):
                if gs[GS_SLOT + k] >= 0:
                    turn_card(st, ru, sc, p, k)
                    break
        else:
            take_turn(st, ru, sc, p, se, deck)
        if gs[GS_LEFT] == 0:
            break
        cur = (cur + 1) % NP
    nxt, final = close_round(st, ru, sc, cur)
    snapshot(st, sc)
    return nxt, final


@helper_inline
def play_game(st, ru, sc, deck, ndeck, first, leaders, se, how):
    """Rounds until the last ball game's round ends, the deck runs out or the horizon
    is reached; leaders[r] is the sole prestige leader after round r + 1 (-1: none).
    Returns the end reason.  ``se``: the search bot's work (None: see take_turn); with a
    model in ``how`` (howplays.HowPlays) the kings' chances before every round's deal."""
    gs = st.gs
    R = ru.R
    NP = R[R_NP]
    cur = first
    on = how.ms.shape[0] > 0
    while True:
        if gs[GS_ROUND] >= R[R_MAXR]:
            return END_CAP
        n = min(NP + 1, ndeck - gs[GS_DPOS])
        if n <= 0:
            return END_DECK
        if on:
            evaluate_round(st, ru, cur, how)
        cur, final = play_round(st, ru, sc, deck, n, cur, se)
        leaders[gs[GS_ROUND] - 1] = prestige_leader(st.pl, NP)
        if final:
            return END_BALLS


@helper
def finish_game(st, ru, sc, j, end, first, leaders, res):
    """The riches bonus, the drama columns (after the bonus for the last round), the
    audit, and game j's row of ``res``.  Returns the winner (the sole prestige leader;
    -1: a shared lead or the horizon)."""
    pl, gs = st.pl, st.gs
    R = ru.R
    NP = R[R_NP]
    for q in range(NP):
        b = hand_total(pl, q) // 2
        add_prestige(pl, q, P_BONUS, b)
        rec(sc.rec, EV_BONUS, q, b, pl[q, P_PRES], 0, 0, 0, 0)
    nr = gs[GS_ROUND]
    win = -1
    if nr > 0:
        leaders[nr - 1] = prestige_leader(pl, NP)   # the final standing
        if end != END_CAP:
            win = leaders[nr - 1]
        res.lead_changes[j], res.lead_settled[j] = drama(leaders, nr, win)
    else:
        res.lead_changes[j] = 0
        res.lead_settled[j] = -1
    rec(sc.rec, EV_END, -1, end, gs[GS_ROUND], 0, 0, 0, 0)
    res.end_reason[j] = end
    res.first_player[j] = first
    res.rounds[j] = gs[GS_ROUND]
    res.turns[j] = gs[GS_TURNS]
    res.ball_games[j] = gs[GS_BALLS]
    res.eclipse_round[j] = gs[GS_ECL]
    res.cards_turned[j] = gs[GS_DPOS] - gs[GS_LEFT]
    gs[GS_AUDIT] += audit(st.own, st.bld, st.tok, st.sm, pl, gs, R, ru.nnb)
    seat_out = res.seat
    for q in range(NP):
        for f2 in range(NPL):
            seat_out[j, q, f2] = pl[q, f2]
        seat_out[j, q, P_LARGE] = count_cities(st.own, q)
        seat_out[j, q, P_AUDIT] = gs[GS_AUDIT]
    return win


@kernel
def chunk_arrays(ctx, bot_ids, bot_par, buf, snaps, searching):
    """A chunk's arrays: the state, the rules (with this chunk's per-game layout array
    and each seat's weights row), the scratch recording into ``buf``/``snaps``, the deck
    and build_deck's work arrays, the layout permutation, the leaders and the search
    bot's work (None when ``searching`` is None: numba prunes the other branch, so a
    table without the search bot never compiles it).  ``bot_par``: per seat the weights
    (NBW), then (run_chunk's wide rows) the search parameters and the rollout policy's
    weights (bots/search.py)."""
    R, nbr, ctype = ctx[0], ctx[1], ctx[4]
    NP = R[R_NP]
    S = nbr.shape[0]
    info = np.zeros((S, 6), np.int64)      # this game's tile on each cell
    perm = np.zeros(S, np.int64)
    W = np.zeros((NP, NBW + 2 * S + 24))   # weights, this game's site terms, pay orders
    for q in range(NP):
        for i in range(NBW):
            W[q, i] = bot_par[q, i]
        pay_orders(W[q], NBW + 2 * S)      # they depend on the weights alone
    st = new_state(S, NP)
    ru = Rules(R, nbr, ctx[2], info, ctype, ctx[5], ctx[6], bot_ids, W)
    sc = new_scratch(S, buf, snaps)
    N = ctype.shape[0]
    dk = (np.zeros(N + 1, np.int64), np.zeros(N + 1, np.int64), np.zeros(N + 1, np.int64),
          np.zeros(N + 1, np.uint64))
    leaders = np.zeros(R[R_MAXR] + 1, np.int64)
    if searching is None:
        se = None
    else:
        se = new_search(ctx, info, bot_par)
    return st, ru, sc, dk, perm, leaders, se


@helper
def begin_game(st, ru, sc, seed, g, tinfo, cid, bot_par, dk, perm, se):
    """setup_game, the choices' counts reset, then the search's per-game part (the deck
    size, the rollout policy's site terms).  Returns (the first king, cards in the deck)."""
    first, ndeck = setup_game(st, ru, sc, seed, g, tinfo, cid, bot_par, dk, perm)
    cx_start(sc.xi[XI_CX])
    if se is not None:
        se.wi[WI_NDECK] = ndeck
        site_terms(se.wpar, ru.info, se.ru.bot_par)
    return first, ndeck


@helper
def run_games(seed, start, count, ctx, bot_par, res, ch, how):
    """Play games start .. start + count - 1 of ``seed`` into ``res`` (Results) and the
    complexity columns into ``how`` (howplays.HowPlays; with its model, also each game's
    evaluation figures into ``how.evo[j]``).  ``ctx``:
    what the game's ``prepare`` returns (the rules array, the paths, the board file's
    tiles in printed order, the card table and card identities); ``bot_par``: each seat's
    weights; ``ch``: the chunk's arrays (chunk_arrays: the search work is None at a table
    without the search bot, and search_turn compiled for None is empty, so such a table
    never compiles the search).

    The chunk's entry point is a ``helper`` called from Python with arrays chunk_arrays
    made, not a kernel: a kernel counts references to every array it touches, which in
    the turn loop inlined here would cost about a tenth of the run time.  play_game,
    play_round and take_turn are inlined (``helper_inline``) rather than compiled on
    their own: numba optimises and emits again, for every jitted function, the machine
    code of everything it calls, so each layer between the entry point and the bots
    cost the whole game's code once more (about 10 s each of Balam's cold compile)."""
    tinfo, cid = ctx[3], ctx[7]
    st, ru, sc, dk, perm, leaders, se = ch
    on = how.ms.shape[0] > 0
    NP = ru.R[R_NP]
    for j in range(count):
        first, ndeck = begin_game(st, ru, sc, seed, start + j, tinfo, cid, bot_par, dk, perm, se)
        res.layout[j] = layout_hash(ru.info)
        if on:
            ev_start(how.ev)
        end = play_game(st, ru, sc, dk[0], ndeck, first, leaders, se, how)
        win = finish_game(st, ru, sc, j, end, first, leaders, res)
        cx_finish(sc.xi[XI_CX], NP, j, how.decisions, how.forced, how.decision_share, how.branching,
                  how.decision_factor, how.options_max)
        if on:
            ev_finish(how.ev, NP, win, how.evo[j])


def kernel_par(players, bot_ids, bot_par):
    """The kernel's bot_par: per seat the heuristic weights (a search seat: the merchant's
    defaults, which it uses for every choice outside its turn), the search parameters
    (bots/search.py's SP_*), then the rollout policy's weights (the merchant's defaults)."""
    from . import BOTS
    merchant = next(b for b in BOTS if b.name == "merchant")
    mw = np.array([float(p.default) for p in merchant.params], np.float64)[:NBW]
    par = np.zeros((players, 2 * NBW + NSP), np.float64)
    ids = np.asarray(bot_ids, np.int64)
    for q in range(players):
        if ids[q] == BOT_SEARCH:
            par[q, :len(mw)] = mw
            w = min(bot_par.shape[1], NSP)
            par[q, NBW:NBW + w] = bot_par[q, :w]
        else:
            w = min(bot_par.shape[1], NBW)
            par[q, :w] = bot_par[q, :w]
        par[q, NBW + NSP:NBW + NSP + len(mw)] = mw
    return par


def run_chunk(ctx, players, seed, start, count, bot_ids, bot_par, record=None):
    """Games start .. start + count - 1 as result columns; ``record=(buf, snaps)``
    records the one game played (count 1; sim.record).  Called through ``Game.play_chunk``,
    which casts the columns to their declared dtypes."""
    from . import KATUN_COLS, SEAT_FIELDS
    from .features import Evaluating
    buf, snaps = (NO_RECORD, NO_SNAPS) if record is None else record
    par = kernel_par(players, bot_ids, bot_par)
    res = Results(end_reason=np.empty(count, np.int8), first_player=np.empty(count, np.int8),
                  rounds=np.empty(count, np.int16), turns=np.empty(count, np.int32),
                  ball_games=np.empty(count, np.int8), eclipse_round=np.empty(count, np.int8),
                  cards_turned=np.empty(count, np.int16), layout=np.empty(count, np.int64),
                  lead_changes=np.empty(count, np.int16),
                  lead_settled=np.empty(count, np.int8),
                  seat=np.empty((count, players, NPL), np.int32))
    ids = np.asarray(bot_ids, np.int64)
    evaluating = isinstance(ctx, Evaluating)
    # the search work is made (and compiled) only for a table with the search bot:
    # run_games is compiled once for each (chunk_arrays)
    searching = True if (ids == BOT_SEARCH).any() else None
    ctx = tuple(ctx)
    if searching and (par[ids == BOT_SEARCH, NBW + SP_LEAF] >= LEAF_MODEL).any() \
            and ctx[9].shape[0] < 3:
        raise ValueError("a search bot with leaf=model needs a value model in the rules context "
                         "(sim.games.balam.features.attach_model; make_spec attaches it)")
    ch = chunk_arrays(ctx, ids, par, buf, snaps, searching)
    how = how_plays(count, players, *(ctx[8:10] if evaluating else ()))   # (how it plays)
    run_games(np.uint64(seed), np.int64(start), np.int64(count), ctx, par, res, ch, how)
    if searching:
        for k in range(len(SEARCH_STATS)):
            SEARCH_STATS[k] += int(ch[6].stats[k])
    seat = res.seat
    end = res.end_reason
    out = {name: getattr(res, name) for name in res._fields if name != "seat"}
    out.update(how_columns(how, evaluating))
    for name, f, _, _ in SEAT_FIELDS:
        out[name] = seat[:, :, f]
    out["riches_left"] = seat[:, :, P_HAND:P_HAND + 6].sum(axis=2)
    for t, c in enumerate(KATUN_COLS):
        out[c] = seat[:, :, P_KAT + t]
    capped = end == END_CAP
    out["capped"] = capped
    pres = seat[:, :, P_PRES]
    best = pres.max(axis=1, keepdims=True)
    top = pres == best
    ntop = top.sum(axis=1)
    win = top / ntop[:, None]
    win[capped] = 1.0 / players
    out["win"] = win
    winner = np.where(ntop == 1, top.argmax(axis=1), -1)
    winner[capped] = -1
    out["winner"] = winner
    return out
