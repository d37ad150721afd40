"""The search bot: determinized Monte Carlo search over a turn's options, with the
heuristic playing out the rest of the game.

At each of its turns the bot lists its candidate actions (``candidates``): the
heuristic's own move, the heuristic's move with the card option taken away (its best
build, attack or pass), passing, turning a face-down card it has not divined, and
turning each card it has divined.  Each iteration (a rollout) copies the state into a
preallocated one (``state.copy_state_into``), re-samples what the seat cannot know
(``determinize``: the order of the cards it has not seen, within the deck's public
structure, and fresh random streams for every seat and for the dice), applies the
candidate and plays on with the heuristic in every seat (``rollout``: the rest of the
game, or ``horizon`` more rounds), scoring the result for the bot's seat
(``leaf_value``).  The iterations go to the candidates by sequential halving on common
sampled worlds (the default) or by UCB1, as the shared search layer's scheduler
(``sim/sched.py``, ``sched_*``) says; it plays the candidate of best mean.  Everything
random is drawn from its own stream (slot 1 + seat); it never reads the real deck order,
the other seats' streams or the dice.

The rollouts have their own turn loop (``rollout_turns``), which reaches only the
heuristic: numba cannot compile the call cycle search -> game loop -> search.  The
rules between the turns are the game loop's own (``rounds.deal_round``,
``rounds.close_round``).  Sequential halving's schedule and cuts, UCB1 and the stopping rule are the shared
scheduler's (``sim/sched.py``), the argmax with ties and the shuffles the search layer's
(``sim/search.py``);
the sampled worlds and the rollouts are in ``worlds.py``.

Compile: ``search_turn`` is the one compiled layer of the search (it is also the gate that
a table without the search bot compiles empty); ``search_choose``,
``prune_same``, ``counted_rollout`` and ``worlds.rollout`` are inlined into it
(``helper_inline``).  Compiled on their own, each linked and optimised again the code of
everything below it (the heuristic and the rules): the search kernel's cold compile, after
the plain kernel's, went from 49.5 to 34.5-37.6 s of CPU, its games the same (behaviour
fixtures) and as fast (16 games of ``search:iters=100``, alternated: before 4.03-4.05,
after 4.06-4.15 CPU-s).  ``apply_action`` and ``worlds.rollout_turns`` stay compiled on their own:
inlined too (four and two call sites), they made it slower to compile (85 s)."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ....jit import helper, helper_inline, kernel
from ....rng import GOLDEN, mix64, rand_int
from ....sched import (SC_SIZE, SCHED_DONE, SCHED_HALVE_REST, SCHED_UCB, SCHED_WORLD_END, sched_best,
                       sched_drop, sched_next, sched_start, sched_stop_paired, sched_tell)
from ....search import model_at_leaf
from ....record import WIDTH, rec
from ..state import (EV_PASS, EV_PAY, GS_KNOWN, GS_LEFT, GS_NSLOT, GS_SLOT, GS_SUP, GS_TURNS, MAIZE,
                     MAXSLOT, NBW, P_HAND, R_NP, T_PASS, Rules, copy_state_into, new_scratch, new_state)
from ..board import hand_total
from ..ties import TIE_TOL, take
from ..katun import turn_card
from .heuristic import heuristic_turn
from .values import pay_orders
from .worlds import WI_CAND, WI_NDECK, WI_POS, determinize, leaf_value, rollout
from ..features import model_value

#: search parameters: bot_par columns NBW + SP_* (the Bot's params in declared order);
#: the rollout policy's weights follow at NBW + NSP
SP_ITERS, SP_HORIZON, SP_EXPLORE, SP_SCALE, SP_PAIRED, SP_STOP, SP_PRUNE, SP_LEAF = 0, 1, 2, 3, 4, 5, 6, 7
NSP = 8
#: SP_LEAF: how a rollout cut at its horizon is valued (the Bot's choices in order); the
#: kernel reads whichever learned value the context carries (LEAF_MODEL and LEAF_MODEL2 alike:
#: make_spec attaches the generation the bots ask for)
LEAF_FORMULA, LEAF_MODEL, LEAF_MODEL2 = 0, 1, 2
#: se.stats: decisions searched (more than one candidate), rollouts played, turns the
#: rollouts played (the machine-independent cost; play.SEARCH_STATS sums them)
ST_DECISIONS, ST_ROLLOUTS, ST_TURNS = 0, 1, 2
#: candidate codes: the heuristic's move, the same without the card option, pass, a
#: face-down card not divined, divined slot k (C_CARDK + k)
C_H, C_HNC, C_PASS, C_CARDU, C_CARDK = 0, 1, 2, 3, 4
MAXC = C_CARDK + 5
#: the heuristic style the rollouts play (its id only matters as "not random")
BOT_ROLLOUT = 3
for _n, _v in list(globals().items()):
    if _n.isupper() and type(_v) is int:
        globals()[_n] = np.int64(_v)
del _n, _v

#: The search's work: ``ru`` the rollouts' rules (every seat the rollout policy, with
#: this game's site terms), ``st``/``sc``/``deck`` the state, scratch (never
#: recording) and deck an iteration plays on (``wst``: the sampled world the paired
#: search plays every candidate from), ``par[q]`` seat q's search parameters,
#: ``wpar`` the rollout policy's weights, ``wi`` int work (wi[0]: this game's deck size;
#: candidates, positions and cards of the determinization), ``wf`` float work (each
#: candidate's sum, count, alive flag and this world's value), ``wx`` the sums of the
#: products of two candidates' values over their common worlds (``stop``), ``hx`` each
#: candidate's position hash (``prune``), ``stats`` the counts ST_*, ``sched`` the
#: scheduler's state (``sim.search.sched_start``); ``mp``/``ms`` the
#: learned value (from the rules context; empty without one: features.attach_model) and
#: ``fx``, ``h0``, ``h1`` its work arrays (a row of features, a layer's worth twice).
Search = namedtuple("Search", ("ru", "st", "wst", "sc", "deck", "par", "wpar", "wi", "wf",
                               "wx", "hx", "stats", "sched", "mp", "ms", "fx", "h0", "h1"))


@kernel
def new_search(ctx, info, bot_par):
    """The search's work arrays for a chunk (``ctx``: prepare's tuple; ``info``: the
    chunk's per-game layout array, shared with the real game's Rules; ``bot_par``'s wide
    rows: the search parameters and the rollout policy's weights, whose site terms
    play.begin_game fills per game)."""
    R, nbr, nnb, ctype, cgain, cnopt, mp, ms = ctx[0], ctx[1], ctx[2], ctx[4], ctx[5], ctx[6], ctx[8], ctx[9]
    NP = R[R_NP]
    S = nbr.shape[0]
    N = ctype.shape[0]
    nf = np.int64(0)
    wide = np.int64(0)
    if ms.shape[0] > 2:
        nf = ms[0]
        wide = ms[0]
        for i in range(2, ms.shape[0]):
            wide = max(wide, ms[i])
    par = np.zeros((NP, NSP))
    wpar = np.zeros((NP, NBW))
    if bot_par.shape[1] >= 2 * NBW + NSP:   # (narrower: no seat searches)
        for q in range(NP):
            for i in range(NSP):
                par[q, i] = bot_par[q, NBW + i]
            for i in range(NBW):
                wpar[q, i] = bot_par[q, NBW + NSP + i]
    W = np.zeros((NP, NBW + 2 * S + 24))
    for q in range(NP):
        for i in range(NBW):
            W[q, i] = wpar[q, i]
        pay_orders(W[q], NBW + 2 * S)
    ids = np.full(NP, BOT_ROLLOUT, np.int64)
    ru = Rules(R, nbr, nnb, info, ctype, cgain, cnopt, ids, W)
    norec = np.zeros((1, WIDTH), np.int32)
    sc = new_scratch(S, norec, np.zeros((0, 1), np.int64))
    return Search(ru, new_state(S, NP), new_state(S, NP), sc, np.zeros(N + 1, np.int64), par,
                  wpar, np.zeros(WI_POS + 2 * (N + MAXSLOT + 1), np.int64),
                  np.zeros((4, MAXC)), np.zeros((MAXC, MAXC)), np.zeros(MAXC, np.uint64),
                  np.zeros(3, np.int64), np.zeros(SC_SIZE, np.int64), mp, ms, np.zeros(nf),
                  np.zeros(wide), np.zeros(wide))


# ======================================================================= the turn's options
@helper
def candidates(st, p, cand):
    """King p's candidate actions this turn (codes C_*) into cand; returns how many."""
    gs = st.gs
    n = 0
    cand[n] = C_H
    n += 1
    known = gs[GS_KNOWN + p]
    nunk = 0
    for k in range(gs[GS_NSLOT]):
        if gs[GS_SLOT + k] < 0:
            continue
        if (known >> k) & 1:
            cand[n] = C_CARDK + k
            n += 1
        else:
            nunk += 1
    if nunk > 0:
        cand[n] = C_CARDU
        n += 1
    if hand_total(st.pl, p) > 0:
        cand[n] = C_PASS
        n += 1
        cand[n] = C_HNC
        n += 1
    return n


@helper
def pay_pass(st, sc, p):
    """King p pays one riches and passes: maize when he has some, else a riches of the
    type he holds most of (equal counts: uniformly on his stream)."""
    pl, gs, rs = st.pl, st.gs, st.rs
    best = np.int64(-1)
    bv = -1e18
    ties = np.int64(0)
    for t in range(6):
        h = pl[p, P_HAND + t]
        if h <= 0:
            continue
        v = 1e6 if t == MAIZE else h + 0.0
        ok, bv, ties = take(rs, 1 + p, v, bv, ties)
        if ok:
            best = np.int64(t)
    pl[p, P_HAND + best] -= 1
    gs[GS_SUP + best] += 1
    rec(sc.rec, EV_PAY, p, best, 1, 0, 0, 0, 0)
    pl[p, T_PASS] += 1
    rec(sc.rec, EV_PASS, p, 0, 0, 0, 0, 0, 0)


@helper
def apply_action(st, ru, sc, p, code):
    """King p plays candidate ``code``; False when it turned out impossible (the
    heuristic without its card option turned a card: never with the bundled one)."""
    gs = st.gs
    if code == C_H:
        heuristic_turn(st, ru, sc, p)
        return True
    if code == C_HNC:
        # the heuristic's best move other than a card: it sees no face-down card
        s0, s1, s2 = gs[GS_SLOT], gs[GS_SLOT + 1], gs[GS_SLOT + 2]
        s3, s4 = gs[GS_SLOT + 3], gs[GS_SLOT + 4]
        left = gs[GS_LEFT]
        for k in range(MAXSLOT):
            gs[GS_SLOT + k] = -1
        heuristic_turn(st, ru, sc, p)
        ok = gs[GS_LEFT] == left
        gs[GS_SLOT], gs[GS_SLOT + 1], gs[GS_SLOT + 2] = s0, s1, s2
        gs[GS_SLOT + 3], gs[GS_SLOT + 4] = s3, s4
        return ok
    if code == C_PASS:
        pay_pass(st, sc, p)
        return True
    if code == C_CARDU:
        # any face-down card he has not divined: uniformly on his stream
        known = gs[GS_KNOWN + p]
        m = 0
        for k in range(gs[GS_NSLOT]):
            if gs[GS_SLOT + k] >= 0 and (known >> k) & 1 == 0:
                m += 1
        j = rand_int(st.rs, 1 + p, m) if m > 1 else 0
        for k in range(gs[GS_NSLOT]):
            if gs[GS_SLOT + k] >= 0 and (known >> k) & 1 == 0:
                if j == 0:
                    turn_card(st, ru, sc, p, np.int64(k))
                    return True
                j -= 1
        return False
    turn_card(st, ru, sc, p, code - C_CARDK)
    return True


# ======================================================================= the turn
@helper
def position_hash(st):
    """A 64-bit hash of the position (the board, the kings' rows and the game row; not the
    random streams): two moves that leave equal hashes in one world made the same move."""
    h = GOLDEN
    own, bld, tok, sm, pl, gs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs
    for s in range(own.shape[0]):
        h = mix64(h + np.uint64(own[s] + 3))
        for k in range(4):
            h = mix64(h + np.uint64(((bld[s, k] + 3) << 40) + ((tok[s, k] + 3) << 20) + sm[s, k] + 3))
    for q in range(pl.shape[0]):
        for f in range(pl.shape[1]):
            h = mix64(h + np.uint64(pl[q, f] + (1 << 40)))
    for i in range(gs.shape[0]):
        h = mix64(h + np.uint64(gs[i] + (1 << 40)))
    return h


@helper_inline
def prune_same(st, p, se, deck, n):
    """``prune``: play every candidate in one sampled world and drop (alive 0) each whose
    position afterwards is the same as an earlier candidate's (position_hash): the same
    move under another name (the heuristic's move is also a card, passing, or its best
    move other than a card); the earlier one (the heuristic's own first) stays.  A
    candidate that cannot be played is dropped too.  Returns how many are left."""
    cand = se.wi[WI_CAND:WI_CAND + MAXC]
    alive, hx = se.wf[2], se.hx
    determinize(se, se.wst, st, deck, p)
    m = n
    for i in range(n):
        copy_state_into(se.st, se.wst)
        if not apply_action(se.st, se.ru, se.sc, p, cand[i]):
            alive[i] = 0
            m -= 1
            continue
        hx[i] = position_hash(se.st)
        for j in range(i):
            if alive[j] != 0 and hx[j] == hx[i]:
                alive[i] = 0
                m -= 1
                break
    return m


@helper_inline
def counted_rollout(se, ndeck, p, NP, horizon, scale, leaf):
    """One rollout from ``se.st`` (``worlds.rollout``), counted in ``se.stats`` (a rollout
    and the turns it played); returns king p's value of its end (``worlds.leaf_value``;
    ``leaf`` LEAF_MODEL or LEAF_MODEL2: a rollout cut at its horizon is valued by the learned model of
    king p's features there instead, features.model_value)."""
    t0 = se.st.gs[GS_TURNS]
    end, cur = rollout(se.st, se.ru, se.sc, se.deck, ndeck, p, horizon)
    se.stats[ST_ROLLOUTS] += 1
    se.stats[ST_TURNS] += se.st.gs[GS_TURNS] - t0
    if end < 0 and model_at_leaf(leaf >= LEAF_MODEL, se.ms):
        return model_value(se.st, se.ru, p, cur, se.mp, se.ms, se.fx, se.h0, se.h1)
    return leaf_value(se.st.pl, p, NP, end, scale)


@helper_inline
def search_choose(st, ru, p, se, deck):
    """The search (see the module's doc) over king p's candidates (se.wi), scheduled by
    the shared search layer (``sim.search.sched_*``): paired sequential halving
    (``paired`` 1: ``SCHED_HALVE_REST``, every candidate still in played from a copy of
    the same sampled world ``se.wst``, the chance after the move shared; ``iters``
    rollouts spent to within one world of the last phase) or UCB1 (``SCHED_UCB``, a
    world of its own per iteration) for ``iters`` iterations; each candidate's sum and
    count are left in se.wf.  Returns (the number of candidates, the index of the best
    mean; equal means uniformly on his stream).  ``st`` is only read (and his stream
    drawn).

    Two options of the halving, off by default: ``prune`` first drops the candidates that
    make the same move as an earlier one (prune_same; the phases are then those of the
    candidates left), and ``stop`` (z > 0) ends the search as soon as, after at least the
    first phase's worlds, the leader beats every other candidate still in by more than z
    standard errors of their paired difference (``sim.search.sched_stop_paired``).  A
    candidate that cannot be played is dropped (``sim.search.sched_drop``)."""
    rs = st.rs
    NP = ru.R[R_NP]
    bs = 1 + p
    cand = se.wi[WI_CAND:WI_CAND + MAXC]
    n = candidates(st, p, cand)
    if n == 1:
        return n, np.int64(0)
    se.stats[ST_DECISIONS] += 1
    tot, cnt, alive, val = se.wf[0], se.wf[1], se.wf[2], se.wf[3]
    for i in range(n):
        tot[i] = 0.0
        cnt[i] = 0.0
        alive[i] = 1.0
    iters = np.int64(se.par[p, SP_ITERS])
    horizon = np.int64(se.par[p, SP_HORIZON])
    c = se.par[p, SP_EXPLORE]
    scale = se.par[p, SP_SCALE]
    leaf = np.int64(se.par[p, SP_LEAF])
    stop = se.par[p, SP_STOP]
    ndeck = se.wi[WI_NDECK]
    S = se.sched
    paired = se.par[p, SP_PAIRED] >= 1.0
    if paired:
        if se.par[p, SP_PRUNE] >= 1.0:
            prune_same(st, p, se, deck, n)
        if stop > 0.0:
            for i in range(n):
                for j in range(n):
                    se.wx[i, j] = 0.0
        sched_start(S, SCHED_HALVE_REST, n, iters, alive, stop > 0.0)
    else:
        sched_start(S, SCHED_UCB, n, iters, alive, False)
    while True:
        i, fresh = sched_next(S, rs, bs, tot, cnt, alive, c, TIE_TOL)
        if i == SCHED_DONE:
            break
        if i == SCHED_WORLD_END:
            sched_stop_paired(S, tot, cnt, alive, val, se.wx, stop)
            continue
        if paired:
            if fresh:
                determinize(se, se.wst, st, deck, p)
            copy_state_into(se.st, se.wst)
        else:
            determinize(se, se.st, st, deck, p)
        if not apply_action(se.st, se.ru, se.sc, p, cand[i]):
            sched_drop(S, tot, cnt, alive, i)
            continue
        v = counted_rollout(se, ndeck, p, NP, horizon, scale, leaf)
        sched_tell(S, tot, cnt, i, v)
        val[i] = v
    return n, sched_best(S, rs, bs, tot, cnt, alive, TIE_TOL)


@helper
def search_turn(st, ru, sc, p, se, deck, play):
    """The search bot's turn: search_choose, then (``play``) play the chosen candidate;
    returns (the number of candidates, the chosen one's index).  ``play`` False: choose
    only (sampling.search_probe reads the candidates and their means in ``se``: the probe
    then compiles none of the search's inlined layers again).  ``se`` is None at a table
    without the search bot (take_turn): numba prunes the rest for None, so that such a
    kernel never compiles the search."""
    if se is None:
        return np.int64(0), np.int64(0)
    n, best = search_choose(st, ru, p, se, deck)
    if play:
        apply_action(st, ru, sc, p, se.wi[WI_CAND + best])
    return n, best
