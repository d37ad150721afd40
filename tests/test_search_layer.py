"""The search layer the games' search bots share (sim/search.py): ties are broken
uniformly on the stream passed in and nowhere else, the halving schedules spend what
they say, the default candidate stands within noise, and the shuffles are uniform
permutations.  The games' own use of it is checked bit for bit by the behaviour
fixtures (tests/test_behaviour_fixtures.py)."""
from collections import Counter

import numpy as np
from numba import njit

from sim.rng import seed_streams
from sim.search import (best_alive, best_mean, clear_best, cmp_value, halving_even, halving_phases,
                        halving_rest, keeps_default, order_desc, shuffle, sort_ascending,
                        ucb_pick)


@njit(cache=True)
def _best_means(tot, cnt, alive, worst, tol, seeds, which):
    out = np.zeros(seeds, np.int64)
    rs = np.zeros(2, np.uint64)
    for s in range(seeds):
        seed_streams(rs, np.uint64(s), 0)
        before = rs[1]
        if which == 0:
            out[s] = best_mean(rs, 1, tot, cnt, tot.shape[0], tol)
        else:
            out[s] = best_alive(rs, 1, tot, cnt, alive, tot.shape[0], worst, tol)
        if rs[1] == before:
            out[s] += 1000       # marks "drew nothing" (checked where no tie exists)
    return out


@njit(cache=True)
def _ucb(tot, cnt, t, c, seeds):
    out = np.zeros(seeds, np.int64)
    rs = np.zeros(2, np.uint64)
    for s in range(seeds):
        seed_streams(rs, np.uint64(s), 0)
        out[s] = ucb_pick(rs, 1, tot, cnt, tot.shape[0], t, c, 0.0)
    return out


@njit(cache=True)
def _shuffles(n, seeds):
    out = np.zeros((seeds, n), np.int64)
    rs = np.zeros(2, np.uint64)
    for s in range(seeds):
        seed_streams(rs, np.uint64(s), 0)
        a = np.arange(n + 2)
        shuffle(a, 1, n, rs, 1)
        for i in range(n):
            out[s, i] = a[1 + i]
        if a[0] != 0 or a[n + 1] != n + 1:    # only the span moves
            out[s, 0] = -1
    return out


@njit(cache=True)
def _schedule(iters, n):
    """Sequential halving with halving_rest: (samples spent, phases)."""
    phases = halving_phases(n)
    m = n
    spent = 0
    for ph in range(phases):
        w = halving_rest(iters, spent, phases, ph, m)
        spent += w * m
        m = (m + 1) // 2 if ph < phases - 1 else 1
    return spent, phases


@njit(cache=True)
def _cmp(v, best, tol):
    return cmp_value(v, best, tol)


@njit(cache=True)
def _even(iters, phases, m):
    return halving_even(iters, phases, m)


@njit(cache=True)
def _keeps(tot, cnt, best, keep):
    return keeps_default(tot, cnt, best, keep)


@njit(cache=True)
def _clear(tot, cnt, z):
    return clear_best(tot, cnt, tot.shape[0], z)


@njit(cache=True)
def _sorts(a, lo, n, cand, val, k):
    sort_ascending(a, lo, n)
    order_desc(cand, val, k)


def test_equal_means_are_broken_uniformly_on_the_stream():
    tot = np.array([0.5, 2.0, 2.0, 2.0])
    cnt = np.array([1.0, 4.0, 4.0, 4.0])   # means 0.5, 0.5, 0.5, 0.5
    got = Counter(_best_means(tot, cnt, np.ones(4), False, 0.0, 8000, 0).tolist())
    assert set(got) == {0, 1, 2, 3}
    assert all(abs(v / 8000 - 0.25) < 0.025 for v in got.values()), got


def test_a_clear_best_draws_nothing_and_is_chosen():
    tot = np.array([1.0, 3.0, 2.0])
    cnt = np.ones(3)
    got = _best_means(tot, cnt, np.ones(3), False, 0.0, 50, 0)
    assert set(got.tolist()) == {1001}      # candidate 1, stream untouched


def test_alive_and_worst():
    tot = np.array([5.0, 1.0, 3.0, 0.0])
    cnt = np.array([1.0, 1.0, 1.0, 0.0])     # candidate 3 never played: counts 0
    alive = np.array([1.0, 1.0, 1.0, 0.0])
    assert set(_best_means(tot, cnt, alive, False, 0.0, 20, 1).tolist()) == {1000}
    assert set(_best_means(tot, cnt, alive, True, 0.0, 20, 1).tolist()) == {1001}
    alive[1] = 0.0
    assert set(_best_means(tot, cnt, alive, True, 0.0, 20, 1).tolist()) == {1002}
    assert set(_best_means(tot, cnt, np.zeros(4), False, 0.0, 5, 1).tolist()) == {999}  # none alive


def test_tolerance_makes_near_values_equal_and_zero_is_exact():
    assert _cmp(1.0 + 1e-12, 1.0, 1e-9) == 0
    assert _cmp(1.0 + 1e-6, 1.0, 1e-9) == 1
    assert _cmp(1.0 - 1e-6, 1.0, 1e-9) == -1
    assert _cmp(1.0 + 1e-12, 1.0, 0.0) == 1
    assert _cmp(1.0, 1.0, 0.0) == 0
    assert _cmp(1e12 + 1.0, 1e12, 1e-9) == 0   # relative to the best's size


def test_ucb_tries_each_once_then_takes_the_highest_bound():
    tot = np.array([3.0, 1.0])
    cnt = np.array([4.0, 1.0])
    assert set(_ucb(tot, cnt, 1, 1.0, 5).tolist()) == {1}      # t < n: candidate t
    # means 0.75 and 1.0: with no exploration the higher mean, with much the rarer one
    assert set(_ucb(np.array([3.0, 1.0]), np.array([4.0, 2.0]), 6, 0.0, 5).tolist()) == {0}
    assert set(_ucb(np.array([3.0, 0.4]), np.array([40.0, 1.0]), 41, 5.0, 5).tolist()) == {1}
    tied = Counter(_ucb(np.array([1.0, 1.0]), np.array([2.0, 2.0]), 4, 1.0, 4000).tolist())
    assert abs(tied[0] / 4000 - 0.5) < 0.04, tied


def test_halving_phases_and_schedules():
    assert [halving_phases(n) for n in (1, 2, 3, 4, 5, 8, 9)] == [0, 1, 2, 2, 3, 3, 4]
    for iters in (10, 100, 400, 1600):
        for n in (2, 3, 5, 9):
            spent, phases = _schedule(iters, n)
            assert phases == halving_phases(n)
            least = sum(_alive_per_phase(n))      # one sample per candidate per phase
            assert spent <= max(iters, least), (iters, n, spent)
            if iters >= 2 * least:                # the whole budget, to within the last phase's
                assert spent > iters - n, (iters, n, spent)
    assert _even(100, 2, 5) == 10 and _even(3, 2, 5) == 1


def _alive_per_phase(n):
    out, m = [], n
    for _ in range(halving_phases(n)):
        out.append(m)
        m = (m + 1) // 2
    return out


def test_the_default_stands_within_noise():
    tot = np.array([50.0, 53.0])
    cnt = np.array([100.0, 100.0])
    # 0.03 better, the standard error bound 0.5 sqrt(2/100) = 0.071
    assert _keeps(tot, cnt, 1, 1.0)
    assert not _keeps(tot, cnt, 1, 0.3)
    assert _keeps(tot, cnt, 0, 0.0)
    assert not _keeps(np.array([10.0, 90.0]), cnt, 1, 1.0)


def test_shuffles_are_uniform_permutations_of_the_span():
    got = _shuffles(3, 6000)
    assert all(sorted(r) == [1, 2, 3] for r in got.tolist())
    perms = Counter(tuple(r) for r in got.tolist())
    assert len(perms) == 6
    assert all(abs(v / 6000 - 1 / 6) < 0.025 for v in perms.values()), perms


def test_sorts():
    a = np.array([9, 4, 3, 1, 2, 7])
    cand = np.array([10, 11, 12, 13])
    val = np.array([1.0, 3.0, 1.0, 3.0])
    _sorts(a, 1, 4, cand, val, 4)
    assert a.tolist() == [9, 1, 2, 3, 4, 7]
    assert cand.tolist() == [11, 13, 10, 12] and val.tolist() == [3.0, 3.0, 1.0, 1.0]


def test_a_clear_best_needs_its_margin_in_standard_errors():
    cnt = np.array([100.0, 100.0, 100.0])
    # means 0.8, 0.5, 0.45: the lead 0.3 against a standard error of 0.5 sqrt(2/100) = 0.071
    tot = np.array([80.0, 50.0, 45.0])
    assert _clear(tot, cnt, 2.0) == 0
    assert _clear(tot, cnt, 5.0) == -1          # 0.3 is 4.2 standard errors
    assert _clear(np.array([50.0, 80.0, 45.0]), cnt, 2.0) == 1
    assert _clear(np.array([80.0, 80.0, 45.0]), cnt, 0.0) == -1   # a tie is never clear
