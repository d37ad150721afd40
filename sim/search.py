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
  candidates is dropped after each phase (``halve``: ``best_alive`` with ``worst``);
- **keeping the default**: a candidate that only beats the heuristic's own choice
  within noise does not replace it (``keeps_default``);
- **stopping early**: a decision whose best candidate is already clear by a margin of
  standard errors needs no more of its budget (``clear_best``; on common worlds, by the
  paired difference's own standard error: ``clear_best_paired``);
- **sampling**: a Fisher-Yates shuffle on one stream (``shuffle``), and the canonical
  order a re-sampling starts from (``sort_ascending``), so that the sampled world depends
  on which items are unseen and never on their real order.

The loop itself is written once too, as an ask/tell scheduler: ``sim/sched.py``.

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


@helper_inline
def model_at_leaf(want, ms):
    """Whether a rollout cut short is valued by the learned model: the bot asks for it
    (``leaf=model``: ``want``) and the rules carry one (``ms``, its shape array, not empty;
    without one the game's own formula values the cut)."""
    return want and ms.shape[0] > 0
