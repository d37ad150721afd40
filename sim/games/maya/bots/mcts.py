"""The search bot with three/four players: flat Monte Carlo search over the legal
exchanges, determinized.

A seat sees the board and its own two task cards; the other seats' cards (and, with
three players, the two left face down) are hidden.  Every play-out first draws a deal
(``sample_deal``): the searching seat's own cards, and the colours it has not seen
(every colour but its own two and the centre's, face up) shuffled on its own stream and
dealt to the other seats.  The play-out then makes the candidate exchange and lets the
task bot (``task_pick``, ``wants_to_declare``, with the sampled cards) play every seat
for at most ``playout`` exchanges, or to the end; it is worth the task-point margin of
the searching seat's side over the best other side (four players: partnerships), plus
``LEAD`` for leading alone (minus for trailing), with the drawn cards (``side_value``).

The candidates are the legal exchanges shuffled on the seat's stream and ordered by
the task bot's value, the best ``width`` kept; sequential halving spends ``iters``
play-outs on them: each round gives every surviving candidate the same number of
play-outs and keeps the better half.  Within a round all candidates see the same
samples (common random numbers): sample j draws one 64-bit seed from the seat's stream
and every candidate's play-out j restarts the stream there, so they share the deal and
every tie draw until they part.  Equal sums keep the task bot's order (then the shuffle):
the shared scheduler's ranked halving (``sim/sched.py``, ``SCHED_HALVE_RANKED``), whose
cut draws nothing.

The end: when the seat may declare, ``search_declare`` compares, over ``iters`` drawn
deals, the margin of ending now with the margin of a play-out that plays on.

Everything is drawn from the seat's own stream (``rs[1 + p]``), which the search leaves
advanced: the results depend on the seed, the game and the settings alone.  Play-outs
run the task bot only, never this module (numba compiles no call cycles).  The halving
schedule is the shared scheduler's (``sim/sched.py``), the ordering and the shuffles the
search layer's (``sim/search.py``).
"""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_inline
from ....rng import next_u64, rand_int
from ....sched import SCHED_DONE, SCHED_HALVE_RANKED, SCHED_WORLD_END, sched_best, sched_next, sched_start, sched_tell
from ....search import model_at_leaf, order_desc, shuffle
from ..exchange import apply_exchange, gen_moves, has_move
from ..features import LEAF_MODEL, NO_MODEL, model_value, side_share
from ..scoring import can_declare, colour_points
from ..state import (HRESULT_DRAW, NEG, R_BONUS, R_CENTRE, R_HORIZON, R_HRESULT, R_L, R_N, R_P,
                     R_PTS, S_DECISIONS, S_NODES, S_STEPS, W_PLAY, W_ROOT, W_S1, X_ALIVE, X_CAND, X_CARDS,
                     X_CCNT, X_CP, X_CSUM, X_DEAL, X_HVAL, X_MOVES, X_SCHED, X_STATS, at, copy_state,
                     copy_work)
from .greedy import task_pick, task_step_value, wants_to_declare

LEAD = 10        # a play-out's value for leading alone (trailing: -LEAD), on top of the margin
#: a probability's weight in the search's integer sums (``leaf=model``)
SCALE = 1_000_000
UNSEEN = 16      # sc.x[X_DEAL, UNSEEN:]: the unseen colours while they are shuffled


@helper
def sample_deal(st, R, p, X, rs):
    """``X[X_DEAL]`` (``X``: the scratch rows): a deal seat p cannot tell from the real
    one: its own two cards, the colours it has not seen shuffled (Fisher-Yates on its
    stream) and dealt two per other seat in seat order (three players: the last two stay
    face down)."""
    n = R[R_N]
    cards = X[X_CARDS]
    deal = X[X_DEAL]
    c1 = cards[2 * p]
    c2 = cards[2 * p + 1]
    centre_colour = st.tw[R[R_CENTRE]] & 15
    u = 0
    for c in range(n):
        if c != c1 and c != c2 and c != centre_colour:
            deal[UNSEEN + u] = c
            u += 1
    shuffle(deal, UNSEEN, u, rs, 1 + p)
    k = 0
    for s in range(R[R_P]):
        if s == p:
            deal[2 * s] = c1
            deal[2 * s + 1] = c2
        else:
            deal[2 * s] = deal[UNSEEN + k]
            deal[2 * s + 1] = deal[UNSEEN + k + 1]
            k += 2


@helper
def side_value(st, R, cards, p, bseat, bonus, cp):
    """Seat p's side's task points (with the bonus to ``bseat``) minus the best other
    side's, plus LEAD if it leads alone, minus LEAD if it trails."""
    P = R[R_P]
    colour_points(st, R[R_N], R[R_L], R[R_PTS:], cp)
    own = 0
    other = NEG
    for side in range(2 if P == 4 else P):
        v = 0
        for s in range(P):
            if (s % 2 if P == 4 else s) == side:
                v += cp[cards[2 * s]] + cp[cards[2 * s + 1]] + (bonus if s == bseat else 0)
        if side == (p % 2 if P == 4 else p):
            own = v
        elif v > other:
            other = v
    d = own - other
    if d > 0:
        return d + LEAD
    if d < 0:
        return d - LEAD
    return 0


@helper_inline
def scaled(v):
    """A probability as the search's integer sums take it (``SCALE`` x v)."""
    return np.int64(np.round(SCALE * v))


@helper
def end_value(s, R, cards, p, bseat, bonus, cp, model):
    """The value of a play-out's end for seat p: ``side_value``, or with the learned value
    (``model``) the side's share of the victory (``features.side_share``) x ``SCALE``."""
    if model:
        return scaled(side_share(s, R, cards, p, bseat, bonus, cp))
    return side_value(s, R, cards, p, bseat, bonus, cp)


@helper
def rollout(s, R, cards, p, q, ex, steps, skip, sc, rs, vm, model):
    """Play on from state ``s`` (changed), seat q to move after ``ex`` exchanges, with
    deal ``cards``: the task bot for every seat (its ties on seat p's stream) for at most
    ``steps`` exchanges, or to the end; ``skip``: q does not consider declaring before
    its first exchange (it has just chosen to play on).  Returns ``side_value`` for p;
    with the learned value (``model``: ``leaf=model``) the share of the victory at an end
    and, where the play-out is cut with a move left, the model's probability that p's side
    wins (p's view: its own cards), x ``SCALE``."""
    P = R[R_P]
    ctr = R[R_CENTRE]
    cp = sc.x[X_CP]
    moves = sc.x[X_MOVES]
    bseat = -1
    bonus = 0
    cut = True
    for _ in range(steps):
        nm = gen_moves(s, R, moves)
        if nm == 0:
            cut = False
            break
        if ex >= R[R_HORIZON]:
            if R[R_HRESULT] == HRESULT_DRAW:
                return scaled(1.0 / (2 if P == 4 else P)) if model else 0
            cut = False
            break
        if not skip and can_declare(s, R, cards, q) and wants_to_declare(s, R, cards, q, 0, cp):
            cut = False
            break
        skip = False
        m = task_pick(s, R, cards, q, nm, sc, rs, p)
        centre_open = s.cut[ctr] != 0
        apply_exchange(s, R, m, q)
        sc.x[X_STATS, S_STEPS] += 1
        ex += 1
        if can_declare(s, R, cards, q):
            b = R[R_BONUS] if (centre_open and s.cut[ctr] == 0) else 0
            if wants_to_declare(s, R, cards, q, b, cp):
                bseat = q
                bonus = b
                cut = False
                break
        q = (q + 1) % P
    if model and cut and ex < R[R_HORIZON] and has_move(s, R):
        return scaled(model_value(s, R, cards, p, q, ex, vm))
    return end_value(s, R, cards, p, bseat, bonus, cp, model)


@helper_inline
def play_out(R, p, m, ex, steps, sc, rs, vm, model):
    """One play-out of seat p's exchange m from the work state ``W_ROOT``: a fresh deal,
    the exchange, p's declaration as the task bot would make it, then ``rollout``."""
    X = sc.x
    s = at(sc.ws, W_PLAY)
    copy_work(sc, W_PLAY, W_ROOT)
    sample_deal(s, R, p, X, rs)
    deal = X[X_DEAL]
    ctr = R[R_CENTRE]
    centre_open = s.cut[ctr] != 0
    apply_exchange(s, R, m, p)
    if can_declare(s, R, deal, p):
        b = R[R_BONUS] if (centre_open and s.cut[ctr] == 0) else 0
        if wants_to_declare(s, R, deal, p, b, X[X_CP]):
            return end_value(s, R, deal, p, p, b, X[X_CP], model)
    return rollout(s, R, deal, p, (p + 1) % R[R_P], ex + 1, steps, False, sc, rs, vm, model)


@helper
def candidates(st, R, p, nm, width, sc, rs):
    """The nm legal moves of ``sc.x[X_MOVES]`` into ``sc.x[X_CAND]``, shuffled on seat p's
    stream, then ordered by the task bot's value (equals keep the shuffled order);
    returns how many are kept (at most ``width``)."""
    X = sc.x
    moves = X[X_MOVES]
    cand = X[X_CAND]
    hv = X[X_HVAL]
    for k in range(nm):
        cand[k] = moves[k]
    shuffle(cand, 0, nm, rs, 1 + p)
    centre_open = st.cut[R[R_CENTRE]] != 0
    s1 = at(sc.ws, W_S1)
    for k in range(nm):
        hv[k] = task_step_value(st, R, X[X_CARDS], p, cand[k], s1, X, centre_open)
    order_desc(cand, hv, nm)
    return min(nm, max(1, width))


@helper_inline
def uses_model(par, vm):
    """Whether the settings ``par`` ask for ``leaf=model`` and the model ``vm`` is there."""
    return par.shape[0] > 4 and model_at_leaf(np.int64(par[4]) == LEAF_MODEL, vm.ms)


def search_task(st, R, p, nm, par, ex, sc, rs):
    """``search_task_v`` without a model, from Python."""
    return search_task_v(st, R, p, nm, par, ex, sc, rs, NO_MODEL)


def search_declare(st, R, p, bonus, when, par, ex, sc, rs):
    """``search_declare_v`` without a model, from Python."""
    return search_declare_v(st, R, p, bonus, when, par, ex, sc, rs, NO_MODEL)


@helper
def search_task_v(st, R, p, nm, par, ex, sc, rs, vm):
    """The search bot's exchange for seat p (three/four players) among the nm legal ones
    in ``sc.x[X_MOVES]``; ``par``: its settings (depth, iters, width, playout, leaf);
    ``ex``: exchanges made so far (the horizon); ``vm``: the learned value (``leaf=model``)."""
    model = uses_model(par, vm)
    iters = int(par[1])
    steps = int(par[3])
    X = sc.x
    k = candidates(st, R, p, nm, int(par[2]), sc, rs)
    cand = X[X_CAND]
    if k == 1 or iters < 1:
        return cand[0]
    copy_state(at(sc.ws, W_ROOT), st)
    X[X_STATS, S_DECISIONS] += 1
    tot = X[X_CSUM]
    cnt = X[X_CCNT]
    alive = X[X_ALIVE]
    for i in range(k):
        tot[i] = 0
        cnt[i] = 0
        alive[i] = 1
    S = X[X_SCHED]
    sched_start(S, SCHED_HALVE_RANKED, k, iters, alive, True)
    seed = np.uint64(0)
    keep = rs[1 + p]
    while True:
        i, fresh = sched_next(S, rs, 1 + p, tot, cnt, alive, 0.0, 0.0)
        if i == SCHED_DONE:
            break
        if i == SCHED_WORLD_END:
            rs[1 + p] = keep
            continue
        if fresh:
            seed = next_u64(rs, 1 + p)
            keep = rs[1 + p]
        rs[1 + p] = seed
        sched_tell(S, tot, cnt, i, play_out(R, p, cand[i], ex, steps, sc, rs, vm, model))
        X[X_STATS, S_NODES] += 1
    return cand[sched_best(S, rs, 1 + p, tot, cnt, alive, 0.0)]


@helper
def search_declare_v(st, R, p, bonus, when, par, ex, sc, rs, vm):
    """Seat p, which may declare (``when``: 0 before its exchange, 1 after; ``bonus``
    the centre bonus it would take): over ``iters`` drawn deals, the margin of ending now
    against a play-out that plays on (before its exchange: p moves first, without
    declaring); declares when ending sums at least as much (equal sums: one draw).  With
    ``leaf=model`` both sides are shares of the victory (``rollout``)."""
    model = uses_model(par, vm)
    iters = max(1, int(par[1]))
    steps = int(par[3])
    X = sc.x
    deal = X[X_DEAL]
    s = at(sc.ws, W_PLAY)
    d = 0
    X[X_STATS, S_DECISIONS] += 1
    X[X_STATS, S_NODES] += iters
    for _ in range(iters):
        sample_deal(st, R, p, X, rs)
        d += end_value(st, R, deal, p, p, bonus, X[X_CP], model)
        copy_state(s, st)
        if when == 0:
            d -= rollout(s, R, deal, p, p, ex, steps, True, sc, rs, vm, model)
        else:
            d -= rollout(s, R, deal, p, (p + 1) % R[R_P], ex, steps, False, sc, rs, vm, model)
    if d == 0:
        return rand_int(rs, 1 + p, 2) == 1
    return d > 0
