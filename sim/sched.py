"""The search scheduler the games' Monte Carlo search bots share (Balam, Batam, Maya with
three or four players): their loop, written once as ask/tell.

The game keeps a small int64 state array (``new_sched``) beside its arrays ``tot``/``cnt``/
``alive`` and asks ``sched_next`` which candidate to play next and whether a new sampled
world is due first; it plays that candidate on the world, says what it was worth
(``sched_tell``) or that it could not be played (``sched_drop``), and asks again until the
scheduler says ``SCHED_DONE``; ``sched_best`` is the choice.  The schedules (``kind``):

- ``SCHED_UCB``: UCB1 for max(iters, n) iterations, each a world of its own;
- ``SCHED_HALVE_REST`` / ``SCHED_HALVE_EVEN``: sequential halving on common worlds (every
  candidate still in plays each world of a phase; ``halving_rest`` or ``halving_even``
  worlds per phase); at a phase's end the scheduler makes the cut (``halve``, ties on
  stream k);
- ``SCHED_HALVE_RANKED``: sequential halving with ``halving_even`` worlds whose cut draws
  nothing (``halve_ranked``): the candidates are ranked by mean, equal means keeping their
  rank before the cut (at the start, the caller's index order: put the heuristic's
  favourite first); ``alive[j]`` holds candidate j's rank (1: the best) while it is in.
  Maya's search ranks its candidates so (a stable sort by the play-outs' sums).

A scheduler started with ``ends`` also answers ``SCHED_WORLD_END`` once each world is
played (before a cut), where a game may apply a stopping rule: ``sched_stop_clear``
(UCB's ``clear_best`` once every candidate has two samples on average) or
``sched_stop_paired`` (halving's ``clear_best_paired`` after the first phase's worlds).

The selection rules it applies (``ucb_pick``, ``halve``, ``best_mean``, ...) are
``sim/search.py``'s; every draw is from the stream ``k`` passed in (a seat's bot stream).
These helpers are inlined into the games' search loops (``helper_inline``).
"""
from __future__ import annotations

import numpy as np

from .jit import helper_inline
from .search import (best_alive, best_mean, clear_best, clear_best_paired, halve, halving_even,
                     halving_phases, halving_rest, ucb_pick)


#: schedules (``sched_start``'s kind)
SCHED_UCB, SCHED_HALVE_REST, SCHED_HALVE_EVEN, SCHED_HALVE_RANKED = 0, 1, 2, 3
#: ``sched_next``'s answers other than a candidate: the search is over; (with ``ends``) a
#: world has been played by every candidate still in
SCHED_DONE, SCHED_WORLD_END = -1, -2
#: the state array's fields: kind, candidates, budget, ``ends``, finished, the stopping
#: rule's choice (-1: none), samples spent (UCB: iterations asked; halving: each phase's
#: worlds times its candidates, at its start), UCB's iteration, phases, this phase,
#: candidates alive, this phase's worlds (-1: not started), worlds started in it, inside a
#: world, the next candidate index in it, a new world due, worlds played, the first
#: phase's worlds
(SC_KIND, SC_N, SC_ITERS, SC_ENDS, SC_DONE, SC_BEST, SC_SPENT, SC_T, SC_PHASES, SC_PH, SC_M,
 SC_WORLDS, SC_W, SC_IN, SC_I, SC_FRESH, SC_NW, SC_WMIN) = range(18)
SC_SIZE = 18
#: a UCB candidate that could not be played: a sum and a count that keep it last
DROP_TOT, DROP_CNT = -1e12, 1e6


def new_sched():
    """A scheduler's state array (``sched_start`` fills it; made once, outside the kernels'
    helpers, which allocate nothing: a kernel makes it with ``np.zeros(SC_SIZE, np.int64)``)."""
    return np.zeros(SC_SIZE, np.int64)


@helper_inline
def halve_ranked(tot, cnt, alive, n, m, last):
    """``SCHED_HALVE_RANKED``'s cut, which draws nothing: rank the m candidates alive by
    mean (a candidate not yet played counts 0), equal means in their rank before the cut
    (``alive[j]``), keep the best (m + 1) // 2, or 1 after the ``last`` phase, with their
    new ranks in ``alive``; returns how many are left.  (The new rank is gathered above the
    old one, ``alive[j] + (n + 1) r``, so every comparison reads the old ranks.)"""
    keep = np.int64(1) if last else (m + 1) // 2
    big = n + 1
    for j in range(n):
        if alive[j] == 0:
            continue
        vj = tot[j] / cnt[j] if cnt[j] > 0 else 0.0
        oj = alive[j] % big
        r = 1
        for i in range(n):
            if i == j or alive[i] == 0:
                continue
            vi = tot[i] / cnt[i] if cnt[i] > 0 else 0.0
            if vi > vj or (vi == vj and alive[i] % big < oj):
                r += 1
        alive[j] += big * r
    for j in range(n):
        if alive[j] != 0:
            r = alive[j] // big
            alive[j] = r if r <= keep else 0
    return keep if m > keep else m


@helper_inline
def sched_start(S, kind, n, iters, alive, ends):
    """Start a search over n candidates with a budget of ``iters`` samples (UCB1: max(iters,
    n) iterations; halving: spent as ``kind`` says, the candidates with ``alive[j]`` zero
    already out, so its phases are those of the ones left); ``ends``: also answer
    SCHED_WORLD_END after each world.  ``tot``/``cnt``/``alive`` are the caller's (zero,
    zero, one to start)."""
    S[SC_KIND] = kind
    S[SC_N] = n
    S[SC_ENDS] = 1 if ends else 0
    S[SC_DONE] = 0
    S[SC_BEST] = -1
    S[SC_SPENT] = 0
    S[SC_T] = 0
    m = np.int64(0)
    for j in range(n):
        if alive[j] != 0:
            m += 1
            if kind == SCHED_HALVE_RANKED:
                alive[j] = m
    S[SC_M] = m
    if kind == SCHED_UCB:
        S[SC_ITERS] = max(iters, n)
        S[SC_PHASES] = 0
    else:
        S[SC_ITERS] = iters
        S[SC_PHASES] = halving_phases(m)
    S[SC_PH] = 0
    S[SC_WORLDS] = -1
    S[SC_W] = 0
    S[SC_IN] = 0
    S[SC_I] = 0
    S[SC_FRESH] = 0
    S[SC_NW] = 0
    S[SC_WMIN] = 0


@helper_inline
def sched_next(S, rs, k, tot, cnt, alive, c, tol):
    """The next step: (the candidate to play, whether a new sampled world is due before
    it), or (SCHED_DONE, False), or with ``ends`` (SCHED_WORLD_END, False) once a world is
    played.  UCB1 (exploration ``c``): ``ucb_pick``, a new world every iteration.  Halving:
    the candidates still in, in index order, on each of the phase's worlds; at a phase's end
    the cut (``halve``: the worse half out, equal means uniformly on stream k, ``tol`` as
    in ``take``)."""
    if S[SC_DONE] != 0:
        return np.int64(SCHED_DONE), False
    n = S[SC_N]
    if S[SC_KIND] == SCHED_UCB:
        if S[SC_IN] != 0:
            S[SC_IN] = 0
            S[SC_NW] += 1
            if S[SC_ENDS] != 0:
                return np.int64(SCHED_WORLD_END), False
        if S[SC_T] >= S[SC_ITERS]:
            S[SC_DONE] = 1
            return np.int64(SCHED_DONE), False
        i = ucb_pick(rs, k, tot, cnt, n, S[SC_T], c, tol)
        S[SC_T] += 1
        S[SC_SPENT] += 1
        S[SC_IN] = 1
        return i, True
    while True:
        if S[SC_IN] != 0:
            i = S[SC_I]
            while i < n and alive[i] == 0:
                i += 1
            if i < n:
                S[SC_I] = i + 1
                fresh = S[SC_FRESH] != 0
                S[SC_FRESH] = 0
                return i, fresh
            S[SC_IN] = 0
            S[SC_NW] += 1
            if S[SC_ENDS] != 0:
                return np.int64(SCHED_WORLD_END), False
        ph = S[SC_PH]
        phases = S[SC_PHASES]
        if ph >= phases:
            S[SC_DONE] = 1
            return np.int64(SCHED_DONE), False
        m = S[SC_M]
        if S[SC_WORLDS] < 0:
            if S[SC_KIND] == SCHED_HALVE_REST:
                worlds = halving_rest(S[SC_ITERS], S[SC_SPENT], phases, ph, m)
            else:
                worlds = halving_even(S[SC_ITERS], phases, m)
            S[SC_SPENT] += worlds * m
            if ph == 0:
                S[SC_WMIN] = worlds
            S[SC_WORLDS] = worlds
            S[SC_W] = 0
        if S[SC_W] < S[SC_WORLDS]:
            S[SC_W] += 1
            S[SC_IN] = 1
            S[SC_I] = 0
            S[SC_FRESH] = 1
            continue
        if S[SC_KIND] == SCHED_HALVE_RANKED:
            S[SC_M] = halve_ranked(tot, cnt, alive, n, m, ph == phases - 1)
        else:
            S[SC_M] = halve(rs, k, tot, cnt, alive, n, m, ph == phases - 1, tol)
        S[SC_PH] = ph + 1
        S[SC_WORLDS] = -1


@helper_inline
def sched_tell(S, tot, cnt, i, v):
    """Candidate i, as asked, was worth v on its world."""
    tot[i] += v
    cnt[i] += 1


@helper_inline
def sched_drop(S, tot, cnt, alive, i):
    """Candidate i, as asked, could not be played: it is out (halving: one fewer alive for
    the cut; UCB: a sum and count, DROP_TOT / DROP_CNT, under which it is never the best
    bound nor the best mean again while any other can be played)."""
    alive[i] = 0
    if S[SC_KIND] == SCHED_UCB:
        tot[i] = DROP_TOT
        cnt[i] = DROP_CNT
    else:
        S[SC_M] -= 1


@helper_inline
def sched_finish(S, best):
    """End the search now; ``best`` (>= 0) is its choice, -1: let ``sched_best`` choose."""
    S[SC_DONE] = 1
    S[SC_BEST] = best


@helper_inline
def sched_stop_clear(S, tot, cnt, z):
    """UCB's stopping rule at a world's end: once every candidate has had two samples on
    average and one is clear by ``z`` standard errors (``clear_best``), the search ends
    (``sched_best`` then takes the best mean).  True when it ended."""
    n = S[SC_N]
    if z > 0.0 and S[SC_T] >= 2 * n and clear_best(tot, cnt, n, z) >= 0:
        sched_finish(S, np.int64(-1))
        return True
    return False


@helper_inline
def sched_stop_paired(S, tot, cnt, alive, val, cross, z):
    """Halving's stopping rule at a world's end (``z`` > 0): ``val[j]`` is what candidate j
    was worth on it; ``cross`` (zero to start) gathers the sums of the products of two
    candidates' values over their common worlds; once the first phase's worlds are played
    and the leader beats every other candidate still in by ``z`` standard errors of their
    paired difference (``clear_best_paired``), the search ends with it.  True when it
    ended."""
    n = S[SC_N]
    for i in range(n):
        if alive[i] != 0:
            for j in range(n):
                if alive[j] != 0:
                    cross[i, j] += val[i] * val[j]
    if S[SC_NW] >= S[SC_WMIN]:
        lead = clear_best_paired(tot, cnt, cross, alive, n, z)
        if lead >= 0:
            sched_finish(S, lead)
            return True
    return False


@helper_inline
def sched_best(S, rs, k, tot, cnt, alive, tol):
    """The search's choice: a stopping rule's, else the best mean (UCB1: over every
    candidate, ``best_mean``; halving: over those still in, ``best_alive``), equal means
    uniformly on stream k (ranked halving: the best rank, no draw)."""
    if S[SC_BEST] >= 0:
        return S[SC_BEST]
    if S[SC_KIND] == SCHED_UCB:
        return best_mean(rs, k, tot, cnt, S[SC_N], tol)
    if S[SC_KIND] == SCHED_HALVE_RANKED:
        best = np.int64(-1)
        for j in range(S[SC_N]):
            if alive[j] != 0 and (best < 0 or alive[j] < alive[best]):
                best = np.int64(j)
        return best
    return best_alive(rs, k, tot, cnt, alive, S[SC_N], False, tol)
