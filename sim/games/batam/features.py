"""Batam's learned value (issue #46): what one seat may know of a position, as a fixed row of
numbers, and the sampler that plays training games and takes positions from them.

The contract of ``sim.learn`` (``FEATURES_VERSION``, ``n_features``, ``TRAIN_BOTS``,
``features``, ``sample``, ``attach_model``).  A position is taken at the start of a round
(the phase ``PH_START``, before the horizon check): that is exactly where the search bot's
rollouts are cut (``bots/search.play_candidate``), so the model is fitted on the positions
it values.  At a round start no die is on a board and no wage is offered: what is left to
know is open to every seat (coins, goods sold, ships, cubes on the islands, treasure maps
held, the tiles on the board, the crew row's order, last round's captain wages); never the
compass deck's order, future dice or another seat's stream.

The row, from seat ``p``'s view: one block per seat, ``p`` first and then its rivals in turn
order (``p + 1``, ``p + 2``, ... clockwise), so one model serves every seat; then the
position as a whole.  Per seat (``SEAT_F`` values):

0. coins (in hand plus wages on its board; none at a round start);
1. goods sold;
2. the route planner's length (``Routes.LS``: pirate neighbours avoided, the pirate's space
   blocked) from its ship to its next goal (the nearest island where it can still sell, or
   Batam once it has sold everything);
3. a tour's length: from its ship through the nearest unsold islands, one for each good
   left (nearest first), then back to Batam;
4. what those sales bring: the sale less the payouts to the cubes already there;
5. payouts it may still receive: the payout for every rival that has not sold where it has;
6. coins of the treasure maps it holds;
7. its place in the next round's crew row (0 moves first);
8. its captain wage last round (-1 in round 1);
9. projected coins: 0 + 4 + 5 + 6.

Then (``GLOBAL_F`` values): rounds played, rounds left before the horizon (at most 20),
sunken treasure still on the board, and p's margins over the best rival: coins, projected
coins, goods sold, and (the other way round, shorter is better) the tour's length.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_inline
from ...params import UsageError
from ...record import NO_RECORD, NO_SNAPS
from ...rng import GAME_PURPOSES
from ...value import check, sample_buffers, sampled
from .state import (
    BOT_SEARCH,
    C_FIRST,
    C_RND,
    G_PIRC,
    INF,
    MAXI,
    MODE_TILES,
    N_BOTPAR,
    R_GOODS,
    R_HORIZON,
    R_MODE,
    R_NC,
    R_P,
    R_PAYOUT,
    R_SALE,
    SUNKEN,
)

#: bumped whenever the row changes (a model keyed on an older row is trained again)
FEATURES_VERSION = 1
#: the training games' bots: the search's rollout policy (the heuristic, default settings)
TRAIN_BOTS = "heuristic"
#: the default training (``sim.learn``): games and round starts sampled per game (each from
#: every seat's view).  The games are cheap (about 50,000 two-player games a second on one core)
TRAIN_GAMES = 100_000
PER_GAME = 4
#: the models the training fits (sim.learn.candidates): a logistic regression only.  The MLP the
#: shared candidates choose by log loss (0.350 against 0.375 held out, two players) plays weaker
#: in this search (iters=300;leaf=model;keep=0 against search:iters=1600: 47.5% over 300 games,
#: against 53.3% [50.5, 56.1] over 1,200 with the logistic one) and costs more per leaf
FIT_CANDIDATES = (("logistic", {"C": 1.0}),)
SEAT_F = 10
GLOBAL_F = 7
#: the sampler's own stream: (seed, game, P_SAMPLE, 0); the game never draws from it
P_SAMPLE = GAME_PURPOSES + 1
#: a length where a goal cannot be reached (a guard: the map checks make every harbour reachable)
FAR = 100


def n_features(players: int) -> int:
    """Length of a seat's row with ``players`` seats."""
    return SEAT_F * int(players) + GLOBAL_F


@helper_inline
def _leg(d):
    return FAR if d >= INF else d


@helper
def seat_block(st, rules, q, pos_in_row, x, o):
    """Seat q's values (``SEAT_F`` of them) into ``x[o:]``; returns its tour length and
    projected coins."""
    R = rules.R
    board = rules.board
    routes = rules.routes
    P = R[R_P]
    G = R[R_GOODS]
    var = st.g[G_PIRC] + 1
    LS = routes.LS
    LSS = routes.LSS
    hn = board.harb_nodes
    isl_of = board.island
    nh = hn.shape[0]
    here = st.pos[q]
    need = G - st.goods[q]
    if need < 0:
        need = 0
    # the nearest unsold islands, nearest first (a greedy tour), then Batam
    tour = 0
    first = -1
    sales = 0.0
    prev = -1
    batam = -1
    for a in range(nh):
        if isl_of[hn[a]] == 0:
            batam = a
    chosen = np.int64(0)   # bit a: harbour a is on the tour already
    for _ in range(need):
        best = -1
        bl = INF
        for a in range(nh):
            isl = isl_of[hn[a]]
            if isl == 0 or st.cube[isl, q] != 0 or (chosen >> a) & 1:
                continue
            d = LS[var, a, here] if prev < 0 else LSS[var, a, prev]
            if d < bl:
                bl = d
                best = a
        if best < 0:
            break
        chosen |= np.int64(1) << best
        leg = _leg(bl)
        if first < 0:
            first = leg
        tour += leg
        isl = isl_of[hn[best]]
        sales += R[R_SALE] - R[R_PAYOUT] * st.ncube[isl]
        prev = best
    if batam >= 0:
        if prev >= 0:
            back = _leg(LSS[var, batam, prev])
        elif hn[batam] == here:
            back = 0
        else:
            back = _leg(LS[var, batam, here])
        tour += back
        if first < 0:
            first = back
    if first < 0:
        first = 0
    pay = 0.0
    for i in range(1, MAXI):
        if st.cube[i, q] == 0:
            continue
        for r in range(P):
            if r != q and st.cube[i, r] == 0 and st.goods[r] < G:
                pay += R[R_PAYOUT]
    maps = 0.0
    for i in range(MAXI):
        maps += st.mapv[q, i]
    coins = st.coins[q] + st.offer[q, 0] + st.offer[q, 1] + 0.0
    proj = coins + sales + pay + maps
    x[o] = coins
    x[o + 1] = st.goods[q]
    x[o + 2] = first
    x[o + 3] = tour
    x[o + 4] = sales
    x[o + 5] = pay
    x[o + 6] = maps
    x[o + 7] = pos_in_row
    x[o + 8] = st.lastcap[q]
    x[o + 9] = proj
    return tour, proj


@helper
def features(st, rules, cur, p, x):
    """Seat p's view of the position ``st`` (the game's cursor ``cur``: round, first player)
    into ``x[:n_features(P)]`` (the module docstring lists the values).  Reads the open
    state only."""
    R = rules.R
    P = R[R_P]
    rnd = cur[C_RND]
    first = cur[C_FIRST]
    my_tour = 0.0
    my_proj = 0.0
    best_coins = -1e18
    best_proj = -1e18
    best_goods = -1e18
    best_tour = 1e18
    for k in range(P):
        q = (p + k) % P
        t, pr = seat_block(st, rules, q, (q - first - rnd) % P, x, k * SEAT_F)
        if k == 0:
            my_tour = t
            my_proj = pr
        else:
            c = st.coins[q] + st.offer[q, 0] + st.offer[q, 1] + 0.0
            if c > best_coins:
                best_coins = c
            if pr > best_proj:
                best_proj = pr
            if st.goods[q] > best_goods:
                best_goods = st.goods[q] + 0.0
            if t < best_tour:
                best_tour = t
    o = SEAT_F * P
    left = R[R_HORIZON] - rnd
    if left > 20:
        left = 20
    treasure = 0.0
    if R[R_MODE] == MODE_TILES:
        for c in range(R[R_NC]):
            t = st.tile[c]
            if t >= 0 and rules.compass.tk[t] == SUNKEN:
                treasure += rules.compass.tv[t]
    x[o] = rnd
    x[o + 1] = left
    x[o + 2] = treasure
    x[o + 3] = x[0] - best_coins
    x[o + 4] = my_proj - best_proj
    x[o + 5] = x[1] - best_goods
    x[o + 6] = best_tour - my_tour


@helper_inline
def coin_value(st, P, p, scale):
    """The search's hand-written value of a cut rollout: a logistic of p's coin margin over
    the best other seat (``scale`` coins: odds e : 1)."""
    best = np.int64(-1 << 40)
    for q in range(P):
        if q != p and st.coins[q] > best:
            best = st.coins[q]
    return 1.0 / (1.0 + np.exp(-(st.coins[p] - best) / scale))


def sample(ctx, players, seed, start, n, bot_ids, bot_par, per_game=4) -> dict:
    """Play games ``start .. start + n - 1`` exactly as ``run_chunk`` does (game i draws from
    (seed, i) alone) and sample up to ``per_game`` round starts of each game (in all, chosen
    uniformly on a stream of their own: the games are unchanged), each taken from every seat's
    view: one row per (position, seat).  Returns ``X`` (float32, rows x ``n_features``),
    ``seat``, ``game``, ``progress`` (the round / the rounds the game lasted), ``outcome``
    (the seat's win share: 1, 1/k shared, 0; a game stopped by the horizon 1/players) and
    ``baseline`` (the search's value of a cut rollout, a logistic of the coin margin at its
    default scale, 5 coins)."""
    P = int(players)
    ids = np.ascontiguousarray(bot_ids, dtype=np.int64)
    if (ids == BOT_SEARCH).any():
        raise UsageError("batam learns its value from the heuristic's or the random bot's games only "
                         "(its sampler plays no search bot; the heuristic's are the default)")
    bp = np.zeros((P, N_BOTPAR), np.float64)
    w = min(N_BOTPAR, np.asarray(bot_par).shape[1])
    bp[:, :w] = np.asarray(bot_par)[:, :w]
    per_game = max(1, int(per_game))
    buf = sample_buffers(n * per_game * P, n_features(P))
    ru = ctx._replace(R=ctx.R.copy())
    from .sampling import new_play, new_scratch, sample_games
    sc = new_scratch(ctx)
    m = int(sample_games(np.uint64(seed), np.int64(start), np.int64(n), ctx, ru, ids, bp,
                         np.int64(per_game), new_play(), sc, np.zeros(1, np.uint64),
                         np.zeros(per_game, np.int64), *buf, NO_RECORD, NO_SNAPS))
    return sampled(buf, m)


def attach_model(ctx, mp, ms, evaluate=False):
    """The rules context with the model ``(mp, ms)`` for the search's ``leaf=model``;
    ``evaluate``: the real game also follows each seat's chance of winning by the model at
    every round start (how it plays, issue #47: ``howplays.evaluate``)."""
    mp = np.ascontiguousarray(mp, dtype=np.float64)
    ms = np.ascontiguousarray(ms, dtype=np.int64)
    check(mp, ms)
    if int(ms[0]) != n_features(int(ctx.R[R_P])):
        raise ValueError(f"batam: the model reads {int(ms[0])} features, the position has "
                         f"{n_features(int(ctx.R[R_P]))}")
    return ctx._replace(mp=mp, ms=ms, evaluate=bool(evaluate) or bool(ctx.evaluate))


def empty_model():
    """The arrays of no model (``prepare``'s): the kernels' types are the same with one."""
    return np.zeros(0, np.float64), np.zeros(0, np.int64)
