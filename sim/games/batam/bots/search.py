"""The search bot (RULES.md, Bots): determinized Monte Carlo search with UCB1 at the seat's
real decisions, the heuristic (default parameters) as the rollout policy for every seat.

Searched decisions (the loop stops there: ``loop.play_from`` returns NEED): the wage offer,
every re-roll decision (stop, or which dice), every die placement, and the route of a voyage
(the first target, or staying put; once under way the heuristic steers, re-plans after a
sale or a card, and decides pirate ransoms).  At a decision with more than one candidate,
each iteration picks a candidate by UCB1, copies the game into the ``Search`` scratch,
re-samples everything the seat cannot know from its own stream (``determinize``: every
bot stream, the game's chance base, so all future dice, re-rolls and deck reshuffles are
fresh; the order of the undrawn compass cards), applies the candidate and plays the game
to its end with the heuristic in every seat.  The candidate with the best mean win share is
played (the heuristic's own choice, candidate 0, unless another beats it by a margin:
``keep``); equal means are broken with the seat's own stream.  ``horizon`` cuts the rollouts
short, valued by the coin margin (``leaf=formula``) or by the learned value of the seat's
features there (``leaf=model``, issue #46: ``features.py``; the model travels in the rules,
``Rules.mp``/``ms``, and a cut at the end of the current round with ``horizon=0``).  The
schedule (the scheduler ``sched_*``, ``sim/sched.py``: UCB1 or sequential halving, the
stopping rule), the argmax with ties, the keep rule and the shuffle are the shared search
layer's (``sim/search.py``).

Compile: ``search`` (it was ``halving_search`` and ``ucb_search``) is inlined into ``decide``
(``helper_inline``): compiled on their own, each linked and optimised again the code below
it (the search kernel's cold compile after the plain one 29.6 -> 25.0 s of CPU, its games the
same and as fast: 16 games of ``search:iters=400``, alternated, before 1.39-1.41, after
1.36-1.38 CPU-s).  ``decide`` itself inlined into the game loop compiled slower (26.8 s)."""
from __future__ import annotations

import numpy as np

from ....jit import copy_into, helper, helper_inline
from ....rng import next_u64
from ....sched import (SC_SPENT, SCHED_DONE, SCHED_HALVE_REST, SCHED_UCB, SCHED_WORLD_END, sched_best,
                       sched_next, sched_start, sched_stop_clear, sched_tell)
from ....search import keeps_default, model_at_leaf, shuffle, sort_ascending
from ....value import value_eval
from ..crew import board_total, reroll_price
from ..features import features
from ..loop import play_from
from ..phases import place_options
from ..state import (
    B_AVOID,
    C_ER,
    C_N,
    C_PH,
    C_RND,
    C_ROUNDS,
    END_HORIZON,
    G_DECKN,
    G_ENDED,
    G_PIRC,
    HARBOUR,
    INF,
    LEAF_MODEL,
    MAXP,
    MODE_CARDS,
    N_CUR,
    N_RS,
    PH_PLACE,
    PH_REROLL,
    PH_WAGES,
    PL_A,
    PL_B,
    PL_SEAT,
    PL_SET,
    RS_BASE,
    RS_DIE,
    R_GOODS,
    R_HORIZON,
    R_MODE,
    R_P,
    S_EXPLORE,
    S_HORIZON,
    S_ITERS,
    S_KEEP,
    S_LEAF,
    S_PAIRED,
    S_SCALE,
    S_STOP,
    S_TOPK,
    copy_state_into,
)
from .heuristic import place_choice, plan_target
from .heuristic import reroll_mask as heuristic_reroll_mask
from .heuristic import wages as heuristic_wages


@helper_inline
def add_cand(cand, n, a, b):
    """Append candidate (a, b) unless it is listed already; returns the new count."""
    for k in range(n):
        if cand[k, 0] == a and cand[k, 1] == b:
            return n
    cand[n, 0] = a
    cand[n, 1] = b
    return n + 1


@helper
def wage_cands(st, R, p, hp, cand):
    """Wage offers: the heuristic's (captain c, sailor s), captain 1, c - 1, c + 1, c + 2
    with sailor s or s + 1, within the coins (each wage at least 1)."""
    coins = st.coins[p]
    hc, hs = heuristic_wages(st, R, p, hp, coins)
    n = add_cand(cand, 0, hc, hs)
    for j in range(5):
        c = hc if j == 0 else 1 if j == 1 else hc - 1 if j == 2 else hc + j - 2
        for s in range(hs, hs + 2):
            if c >= 1 and c + s <= coins:
                n = add_cand(cand, n, c, s)
    return n


@helper
def reroll_cands(st, R, p, hp, n_paid, cand):
    """Re-roll decisions: the heuristic's mask first, then every other (0 stops)."""
    h = heuristic_reroll_mask(st, R, p, hp, n_paid, reroll_price(R, n_paid))
    n = add_cand(cand, 0, h, 0)
    for m in range(8):
        n = add_cand(cand, n, m, 0)
    return n


@helper
def place_cands(st, R, p, hp, rs, opts, th, cand):
    """Placements: the heuristic's first, then every legal (die, board) option, a die equal to
    an earlier one skipped."""
    no = place_options(st, R, p, opts)
    n = add_cand(cand, 0, place_choice(st, R, p, hp, rs, opts, no, th), 0)
    for k in range(no):
        i = opts[k] // 4
        dup = False
        for j in range(i):
            if st.dv[p, j] == st.dv[p, i]:
                dup = True
        if not dup:
            n = add_cand(cand, n, k, 0)
    return n


@helper
def route_cands(st, rules, p, hp, rs, sc, topk, cand):
    """Voyage targets: the heuristic planner's choice, staying put (-1), and the nearest
    ``topk`` harbours where p can still sell or cash a map (Batam when p has sold everything
    or the end is triggered), by the planner's route lengths."""
    R = rules.R
    board = rules.board
    routes = rules.routes
    Lt = routes.LS if hp[B_AVOID] > 0 else routes.DS
    Lss = routes.LSS if hp[B_AVOID] > 0 else routes.DSS
    cur = st.pos[p]
    r = board_total(st, p)
    h = plan_target(st, R, board, rules.compass, Lt, Lss, p, cur, r, hp, sc, rs)
    n = add_cand(cand, 0, h, 0)
    n = add_cand(cand, n, -1, 0)
    var = st.g[G_PIRC] + 1
    done = st.goods[p] >= R[R_GOODS]
    ended = st.g[G_ENDED] != 0
    hn = board.harb_nodes
    for _ in range(topk):
        best = -1
        bl = INF
        for a in range(hn.shape[0]):
            node = hn[a]
            if node == cur or board.kind[node] != HARBOUR:
                continue
            isl = board.island[node]
            if isl == 0:
                ok = done or ended
            else:
                ok = not done and (st.cube[isl, p] == 0
                                   or st.mapv[p, isl] > 0)
            if not ok:
                continue
            seen = False
            for k in range(n):
                if cand[k, 0] == a:
                    seen = True
            ln = Lt[var, a, cur]
            if not seen and ln < bl:
                bl = ln
                best = a
        if best < 0:
            break
        n = add_cand(cand, n, best, 0)
    return n


@helper
def candidates(st, rules, p, rs, sc, srch, topk):
    """The candidates of the decision at the cursor into ``srch.cand``; returns how many."""
    R = rules.R
    hp = srch.par[p]
    ph = sc.cur[C_PH]
    if ph == PH_WAGES:
        return wage_cands(st, R, p, hp, srch.cand)
    if ph == PH_REROLL:
        return reroll_cands(st, R, p, hp, sc.cur[C_N], srch.cand)
    if ph == PH_PLACE:
        return place_cands(st, R, p, hp, rs, sc.opts, sc.th, srch.cand)
    return route_cands(st, rules, p, hp, rs, sc, topk, srch.cand)


@helper
def determinize(R, p, rs, gst, grs):
    """The game copy ``gst, grs`` re-sampled from seat p's stream: every bot stream, the
    chance base and the dice substreams in use are fresh draws; the undrawn compass cards (a
    set the seat knows, in an order it does not) are put in order of identity, then shuffled.
    Nothing of ``rs`` but seat p's own stream is read."""
    for k in range(N_RS):
        grs[k] = 0
    for q in range(MAXP):
        grs[1 + q] = next_u64(rs, 1 + p)
    grs[RS_BASE] = next_u64(rs, 1 + p)
    for i in range(3):
        grs[RS_DIE + i] = next_u64(rs, 1 + p)
    if R[R_MODE] == MODE_CARDS:
        sort_ascending(gst.deck, 0, gst.g[G_DECKN])
        shuffle(gst.deck, 0, gst.g[G_DECKN], rs, 1 + p)


@helper
def play_candidate(rules, p, sc, srch, k, h, scale, leaf):
    """Candidate k played on the sampled world in ``srch.st`` / ``srch.rs``, the heuristic in
    every seat after it, to the end, or (``h`` > 0) to the end of the h-th round after this
    one; returns seat p's win share, or where the rollout was cut short a logistic of p's
    coin margin over the best other seat (``scale`` coins: odds e : 1).  With ``leaf`` =
    LEAF_MODEL (and a model in ``rules``) the cut comes ``h`` rounds after this one, at the
    end of this very round for ``h`` = 0, and the learned value of p's features there
    (``features.features``, ``sim.value.value_eval``) replaces the logistic."""
    gsc = srch.sc
    ru = srch.ru
    for c in range(N_CUR):
        gsc.cur[c] = sc.cur[c]
    gsc.plan[PL_SET] = 1
    gsc.plan[PL_SEAT] = p
    gsc.plan[PL_A] = srch.cand[k, 0]
    gsc.plan[PL_B] = srch.cand[k, 1]
    model = model_at_leaf(leaf == LEAF_MODEL, rules.ms)
    cut = rules.R[R_HORIZON]
    if (h > 0 or model) and sc.cur[C_RND] + 1 + h < cut:
        cut = sc.cur[C_RND] + 1 + h
    ru.R[R_HORIZON] = cut
    play_from(srch.st, ru, srch.ids, srch.par, srch.rs, gsc, srch.buf, srch.snaps)
    srch.stats[2] += gsc.cur[C_ROUNDS] - sc.cur[C_RND]
    if cut < rules.R[R_HORIZON] and gsc.cur[C_ER] == END_HORIZON:
        if model:
            features(srch.st, rules, gsc.cur, p, srch.x)
            return value_eval(rules.mp, rules.ms, srch.x, srch.h0, srch.h1)
        best = np.int64(-1 << 40)
        for q in range(rules.R[R_P]):
            if q != p and srch.st.coins[q] > best:
                best = srch.st.coins[q]
        return 1.0 / (1.0 + np.exp(-(srch.st.coins[p] - best) / scale))
    return gsc.win[p]


@helper_inline
def search(st, rules, p, sp, rs, sc, srch, n):
    """The search over the n candidates, scheduled by the shared search layer
    (``sim.search.sched_*``); returns the chosen candidate's index.

    ``paired`` 1: sequential halving on common worlds (``SCHED_HALVE_REST``, a budget of
    max(iters, n)): every candidate still in is played from the same sampled world (one
    determinization into ``srch.wst``/``wrs``, then each candidate from a copy of it, with
    the same streams: the dice after the move are shared until the games part), and the
    worse half is dropped by mean at each phase's end (equal means uniformly on p's stream).
    Otherwise UCB1 (``SCHED_UCB``, each candidate tried once first, max(iters, n)
    iterations, each a world of its own; ``stop`` > 0 ends it once every candidate has had
    two on average and one is clearly best: ``sim.search.sched_stop_clear``).  The best mean
    is chosen (ties broken with seat p's stream), but the heuristic's choice (candidate 0)
    stands unless it beats it by ``keep`` standard errors (``sim.search.keeps_default``)."""
    tot = srch.tot
    cnt = srch.cnt
    alive = srch.alive
    for k in range(n):
        tot[k] = 0.0
        cnt[k] = 0
        alive[k] = 1
    iters = np.int64(sp[S_ITERS])
    ce = sp[S_EXPLORE]
    z = sp[S_STOP]
    h = np.int64(sp[S_HORIZON])
    scale = sp[S_SCALE]
    leaf = np.int64(sp[S_LEAF])
    paired = sp[S_PAIRED] >= 1.0
    S = srch.sched
    if paired:
        sched_start(S, SCHED_HALVE_REST, n, max(iters, np.int64(n)), alive, False)
    else:
        sched_start(S, SCHED_UCB, n, iters, alive, z > 0.0)
    while True:
        k, fresh = sched_next(S, rs, 1 + p, tot, cnt, alive, ce, 0.0)
        if k == SCHED_DONE:
            break
        if k == SCHED_WORLD_END:
            sched_stop_clear(S, tot, cnt, z)
            continue
        if paired:
            if fresh:
                copy_state_into(srch.wst, st)
                determinize(rules.R, p, rs, srch.wst, srch.wrs)
            copy_state_into(srch.st, srch.wst)
            copy_into(srch.rs, srch.wrs)
        else:
            copy_state_into(srch.st, st)
            determinize(rules.R, p, rs, srch.st, srch.rs)
        sched_tell(S, tot, cnt, k, play_candidate(rules, p, sc, srch, k, h, scale, leaf))
    srch.stats[1] += S[SC_SPENT]
    best = sched_best(S, rs, 1 + p, tot, cnt, alive, 0.0)
    if keeps_default(tot, cnt, best, sp[S_KEEP]):
        best = 0
    return best


@helper
def decide(st, rules, p, sp, rs, sc, srch):
    """Seat p (the search bot, parameters ``sp``) decides at the cursor ``sc.cur``: the
    choice goes to ``sc.plan`` for the loop to apply."""
    topk = np.int64(sp[S_TOPK])
    n = candidates(st, rules, p, rs, sc, srch, topk)
    k = 0
    if n > 1:
        srch.stats[0] += 1
        k = search(st, rules, p, sp, rs, sc, srch, n)
    sc.plan[PL_SET] = 1
    sc.plan[PL_SEAT] = p
    sc.plan[PL_A] = srch.cand[k, 0]
    sc.plan[PL_B] = srch.cand[k, 1]
