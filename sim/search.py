"""The search layer the games' Monte Carlo search bots share (Batam, Balam, Maya with three
or four players).

Each of those bots is a determinized Monte Carlo search over the candidates of one
decision.  What is the game's own stays in the game's ``bots/search.py`` (Maya:
``bots/mcts.py``): which candidates a decision has, how a world the seat cannot tell
from the real one is sampled (the information-set re-sampling hook, each game's
``determinize`` or ``sample_deal``), how a candidate is played out and what the result
is worth.  What they all do the same way lives here, once:

- **argmax with uniform ties on the seat's own stream** (``take``, ``best_mean``,
  ``best_alive``): never by seat or candidate number.  ``tol`` is the relative tolerance
  under which two values count as equal (0: exact equality, Batam and Maya; Balam's
  values are sums of floats and use ``1e-9``);
- **bandit selection**: UCB1 (``ucb_pick``), each candidate tried once first;
- **sequential halving**: the number of phases (``halving_phases``) and the share of the
  budget a phase spends, either an even share of the whole (``halving_even``) or a share
  of what is left so the whole is spent (``halving_rest``); the worse half of the
  candidates is dropped after each phase (``best_alive`` with ``worst``, or
  ``order_desc`` by sums);
- **keeping the default**: a candidate that only beats the heuristic's own choice
  within noise does not replace it (``keeps_default``);
- **stopping early**: a decision whose best candidate is already clear by a margin of
  standard errors needs no more of its budget (``clear_best``; on common worlds, by the
  paired difference's own standard error: ``clear_best_paired``);
- **sampling**: a Fisher-Yates shuffle on one stream (``shuffle``), and the canonical
  order a re-sampling starts from (``sort_ascending``), so that the sampled world depends
  on which items are unseen and never on their real order.

The loop itself is written once too, as an ask/tell **scheduler** (``sched_*``): the game
keeps a small int64 state array (``new_sched``) beside its float arrays ``tot``/``cnt``/
``alive`` and asks ``sched_next`` which candidate to play next and whether a new sampled
world is due first; it plays that candidate on the world, says what it was worth
(``sched_tell``) or that it could not be played (``sched_drop``), and asks again until the
scheduler says ``SCHED_DONE``; ``sched_best`` is the choice.  The schedules (``kind``):

- ``SCHED_UCB``: UCB1 for max(iters, n) iterations, each a world of its own;
- ``SCHED_HALVE_REST`` / ``SCHED_HALVE_EVEN``: sequential halving on common worlds (every
  candidate still in plays each world of a phase; ``halving_rest`` or ``halving_even``
  worlds per phase); at a phase's end the scheduler makes the cut (``halve``, ties on
  stream k).

A scheduler started with ``ends`` also answers ``SCHED_WORLD_END`` once each world is
played (before a cut), where a game may apply a stopping rule: ``sched_stop_clear``
(UCB's ``clear_best`` once every candidate has two samples on average) or
``sched_stop_paired`` (halving's ``clear_best_paired`` after the first phase's worlds).

Every draw is from the stream ``k`` passed in (a seat's bot stream): a search never
reads another seat's stream, the game's chance or the real order of hidden things.
These helpers are inlined into the games' search loops (``helper_inline``), so the games
play bit for bit as they did with their own copies (the behaviour fixtures check it).
"""
from __future__ import annotations

import numpy as np

from .jit import helper_inline
from .rng import rand_int, tie_wins


@helper_inline
def cmp_value(v, best, tol):
    """1 when ``v`` beats ``best``, 0 when they are equal (|v - best| <= tol max(1, |best|);
    tol 0: exactly equal), -1 when it is worse."""
    t = tol * max(1.0, abs(best))
    if v > best + t:
        return 1
    if v >= best - t:
        return 0
    return -1


@helper_inline
def take(rs, k, v, best, ties, tol):
    """One step of an argmax with uniform ties on stream k: (take this option, the best
    value, the number of options tied for it).  Start with best = -1e18, ties = 0; draws
    only when there is a tie."""
    d = cmp_value(v, best, tol)
    if d > 0:
        return True, v, np.int64(1)
    if d == 0:
        ties += 1
        return tie_wins(rs, k, ties), best, ties
    return False, best, ties


@helper_inline
def best_mean(rs, k, tot, cnt, n, tol):
    """The candidate of best mean ``tot / cnt`` among the first n (every count positive);
    equal means uniformly on stream k."""
    best = np.int64(0)
    bv = -1e18
    ties = np.int64(0)
    for j in range(n):
        ok, bv, ties = take(rs, k, tot[j] / cnt[j], bv, ties, tol)
        if ok:
            best = np.int64(j)
    return best


@helper_inline
def best_alive(rs, k, tot, cnt, alive, n, worst, tol):
    """The alive candidate (``alive[j]`` nonzero) of best mean, or of worst with
    ``worst`` (a candidate not yet played counts 0); equal means uniformly on stream k;
    -1 when none is alive."""
    best = np.int64(-1)
    bv = -1e18
    ties = np.int64(0)
    for j in range(n):
        if alive[j] == 0:
            continue
        v = tot[j] / cnt[j] if cnt[j] > 0 else 0.0
        ok, bv, ties = take(rs, k, -v if worst else v, bv, ties, tol)
        if ok:
            best = np.int64(j)
    return best


@helper_inline
def ucb_pick(rs, k, tot, cnt, n, t, c, tol):
    """UCB1's candidate at iteration t (from 0): each of the n candidates once first,
    then the highest ``mean + c sqrt(ln t / count)``, equal bounds uniformly on stream k."""
    if t < n:
        return np.int64(t)
    lt = np.log(t + 0.0)
    best = np.int64(0)
    bv = -1e18
    ties = np.int64(0)
    for j in range(n):
        u = tot[j] / cnt[j] + c * np.sqrt(lt / cnt[j])
        ok, bv, ties = take(rs, k, u, bv, ties, tol)
        if ok:
            best = np.int64(j)
    return best


@helper_inline
def halving_phases(n):
    """Sequential halving's number of phases for n candidates: ceil(log2 n)."""
    phases = np.int64(0)
    while (np.int64(1) << phases) < n:
        phases += 1
    return phases


@helper_inline
def halving_rest(iters, spent, phases, ph, m):
    """Samples per candidate in phase ``ph`` (of ``phases``) with m candidates left, when
    ``spent`` of the ``iters`` budget is gone: an even share of what is left, so that the
    whole budget is spent (to within one sample of the last phase); at least 1."""
    return max(np.int64(1), (iters - spent) // ((phases - ph) * m))


@helper_inline
def halve(rs, k, tot, cnt, alive, n, m, last, tol):
    """Sequential halving's cut: of the m candidates alive, drop the worst by mean
    (``best_alive`` with ``worst``, equal means uniformly on stream k) until (m + 1) // 2
    are left, or 1 after the ``last`` phase; returns how many are left."""
    keep = np.int64(1) if last else (m + 1) // 2
    while m > keep:
        alive[best_alive(rs, k, tot, cnt, alive, n, True, tol)] = 0
        m -= 1
    return m


@helper_inline
def halving_even(iters, phases, m):
    """Samples per candidate in a phase with m candidates left: the same share of the
    whole budget in every phase; at least 1."""
    return max(np.int64(1), iters // (m * phases))


@helper_inline
def keeps_default(tot, cnt, best, keep):
    """True when the default candidate (0: the heuristic's own choice) stands against the
    best one: ``best`` is 0, or its mean win share beats the default's by no more than
    ``keep`` standard errors (a win share's standard deviation is at most 1/2)."""
    if best == 0:
        return True
    d = tot[best] / cnt[best] - tot[0] / cnt[0]
    return d <= keep * 0.5 * np.sqrt(1.0 / cnt[best] + 1.0 / cnt[0])


@helper_inline
def shuffle(a, lo, n, rs, k):
    """Fisher-Yates shuffle of ``a[lo:lo + n]`` in place on stream k (n - 1 draws)."""
    for i in range(n - 1, 0, -1):
        j = rand_int(rs, k, i + 1)
        t = a[lo + i]
        a[lo + i] = a[lo + j]
        a[lo + j] = t


@helper_inline
def sort_ascending(a, lo, n):
    """Sort ``a[lo:lo + n]`` ascending in place (insertion sort: n is small); a shuffle
    that starts from it depends on which items are there, never on their order."""
    for i in range(lo + 1, lo + n):
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@helper_inline
def order_desc(cand, val, k):
    """Sort the first k candidates by value, highest first, keeping the order of equals
    (insertion sort: k is small)."""
    for i in range(1, k):
        m = cand[i]
        v = val[i]
        j = i - 1
        while j >= 0 and val[j] < v:
            cand[j + 1] = cand[j]
            val[j + 1] = val[j]
            j -= 1
        cand[j + 1] = m
        val[j + 1] = v


@helper_inline
def clear_best(tot, cnt, n, z):
    """The candidate whose mean beats every other's by more than ``z`` standard errors of
    the difference (rewards in [0, 1]: a standard deviation of at most 1/2), or -1 when
    none does yet (every candidate needs a count).  Deterministic: draws nothing."""
    lead = np.int64(0)
    for j in range(1, n):
        if tot[j] / cnt[j] > tot[lead] / cnt[lead]:
            lead = np.int64(j)
    ml = tot[lead] / cnt[lead]
    for j in range(n):
        if j == lead:
            continue
        if ml - tot[j] / cnt[j] <= z * 0.5 * np.sqrt(1.0 / cnt[lead] + 1.0 / cnt[j]):
            return np.int64(-1)
    return lead


@helper_inline
def clear_best_paired(tot, cnt, cross, alive, n, z):
    """Sequential halving's early stop on common worlds: the alive candidate (``alive[j]``
    nonzero) of highest mean when it beats every other alive one by more than ``z``
    standard errors of their paired difference, else -1.  The alive candidates have
    played the same worlds (``cnt`` equal, at least 2); ``cross[i, j]`` is the sum over
    those worlds of the product of i's and j's values, so the difference's sample
    variance is (cross[l, l] + cross[j, j] - 2 cross[l, j] - W d^2) / (W - 1).  A
    candidate equal in every world to the leader (variance 0, difference 0) keeps it from
    being clear.  Deterministic: draws nothing (equal means: the first, and not clear)."""
    lead = np.int64(-1)
    for j in range(n):
        if alive[j] != 0 and (lead < 0 or tot[j] / cnt[j] > tot[lead] / cnt[lead]):
            lead = np.int64(j)
    if lead < 0:
        return lead
    w = cnt[lead]
    if w < 2.0:
        return np.int64(-1)
    ml = tot[lead] / w
    for j in range(n):
        if j == lead or alive[j] == 0:
            continue
        d = ml - tot[j] / cnt[j]
        if d <= 0.0:
            return np.int64(-1)
        var = (cross[lead, lead] + cross[j, j] - 2.0 * cross[lead, j] - w * d * d) / (w - 1.0)
        if d * d <= z * z * max(var, 0.0) / w:
            return np.int64(-1)
    return lead


# ======================================================================= the scheduler
#: schedules (``sched_start``'s kind)
SCHED_UCB, SCHED_HALVE_REST, SCHED_HALVE_EVEN = 0, 1, 2
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
    uniformly on stream k."""
    if S[SC_BEST] >= 0:
        return S[SC_BEST]
    if S[SC_KIND] == SCHED_UCB:
        return best_mean(rs, k, tot, cnt, S[SC_N], tol)
    return best_alive(rs, k, tot, cnt, alive, S[SC_N], False, tol)


@helper_inline
def model_at_leaf(want, ms):
    """Whether a rollout cut short is valued by the learned model: the bot asks for it
    (``leaf=model``: ``want``) and the rules carry one (``ms``, its shape array, not empty;
    without one the game's own formula values the cut)."""
    return want and ms.shape[0] > 0
