"""The shared search scheduler (sim/sched.py, ``sched_*``): the loop the games' search bots
(Balam, Batam) drive by ask/tell.  Checked against the loops the games wrote themselves
before it (copied here as references: same asks, same draws on the stream, same choice),
and on its own: the halving budget is spent as halving_rest / halving_even say, the cut
breaks ties on stream k, UCB1 tries every candidate first, a dropped candidate is never
asked for again, and the stopping rules end the search early.  The games' own use of it is
checked bit for bit by the behaviour fixtures (tests/test_behaviour_fixtures.py)."""
import numpy as np
from numba import njit

from sim.rng import rand_int, seed_streams
from sim.sched import (SC_SIZE, SC_SPENT, SCHED_DONE, SCHED_HALVE_EVEN, SCHED_HALVE_RANKED,
                       SCHED_HALVE_REST, SCHED_UCB, SCHED_WORLD_END, halve_ranked, sched_best,
                       sched_drop, sched_next, sched_start, sched_stop_clear, sched_stop_paired,
                       sched_tell)
from sim.search import (best_alive, best_mean, clear_best, clear_best_paired, halve, halving_even,
                        halving_phases, halving_rest, order_desc, ucb_pick)


@njit(cache=True)
def _value(w, i, spread):
    """A synthetic rollout value of candidate i on world w in [0, 1]: candidate i's level
    (higher i: better by ``spread[0]``) plus ``spread[1]`` times a pseudo-random part of
    the world and the candidate (0: every candidate exactly its level)."""
    h = (w * 2654435761 + i * 40503 + 12345) % 1000003
    return min(1.0, max(0.0, 0.2 + spread[0] * i + spread[1] * (h % 1000) / 1000.0))


@njit(cache=True)
def _old_halving(seed, n, iters, drop, z, tol, spread, alive0):
    """Balam's paired_halving as it was written before the scheduler (the reference): a
    world is a number w drawn on stream 2; candidate ``drop`` cannot be played on a world
    with w % 3 == 2."""
    rs = np.zeros(3, np.uint64)
    seed_streams(rs, np.uint64(seed), 0)
    tot = np.zeros(n)
    cnt = np.zeros(n)
    alive = alive0.copy()
    val = np.zeros(n)
    wx = np.zeros((n, n))
    log = np.full(4 * max(iters, n) + 64, -9, np.int64)
    nl = 0
    m = np.int64(0)
    for j in range(n):
        if alive[j] != 0:
            m += 1
    phases = halving_phases(m)
    spent = np.int64(0)
    nw = np.int64(0)
    wmin = np.int64(0)
    for ph in range(phases):
        worlds = halving_rest(iters, spent, phases, ph, m)
        spent += worlds * m
        if ph == 0:
            wmin = worlds
        for _ in range(worlds):
            w = rand_int(rs, 2, 1000)
            log[nl] = -1
            nl += 1
            for i in range(n):
                if alive[i] == 0:
                    continue
                log[nl] = i
                nl += 1
                if i == drop and w % 3 == 2:
                    alive[i] = 0
                    m -= 1
                    continue
                v = _value(w, i, spread)
                tot[i] += v
                cnt[i] += 1.0
                val[i] = v
            if z > 0.0:
                nw += 1
                for i in range(n):
                    if alive[i] != 0:
                        for j in range(n):
                            if alive[j] != 0:
                                wx[i, j] += val[i] * val[j]
                if nw >= wmin:
                    lead = clear_best_paired(tot, cnt, wx, alive, n, z)
                    if lead >= 0:
                        return lead, log, rs, spent
        m = halve(rs, 1, tot, cnt, alive, n, m, ph == phases - 1, tol)
    return best_alive(rs, 1, tot, cnt, alive, n, False, tol), log, rs, spent


@njit(cache=True)
def _old_ucb(seed, n, iters, c, z, tol, spread):
    """Batam's ucb_search as it was (the reference), its ``stop`` with clear_best."""
    rs = np.zeros(3, np.uint64)
    seed_streams(rs, np.uint64(seed), 0)
    tot = np.zeros(n)
    cnt = np.zeros(n, np.int64)
    log = np.full(4 * max(iters, n) + 64, -9, np.int64)
    nl = 0
    iters = max(iters, n)
    done = 0
    for t in range(iters):
        k = ucb_pick(rs, 1, tot, cnt, n, t, c, tol)
        w = rand_int(rs, 2, 1000)
        log[nl] = -1
        log[nl + 1] = k
        nl += 2
        tot[k] += _value(w, k, spread)
        cnt[k] += 1
        done += 1
        if z > 0.0 and done >= 2 * n and clear_best(tot, cnt, n, z) >= 0:
            break
    return best_mean(rs, 1, tot, cnt, n, tol), log, rs, done


@njit(cache=True)
def _sched(seed, kind, n, iters, drop, c, z, tol, spread, alive0):
    """The same searches driven through the scheduler: (choice, the log of asks, -1 before
    each new world, the streams, samples spent, asks per candidate, the asks of the
    dropped candidate after its drop)."""
    rs = np.zeros(3, np.uint64)
    seed_streams(rs, np.uint64(seed), 0)
    tot = np.zeros(n)
    cnt = np.zeros(n)
    alive = alive0.copy()
    val = np.zeros(n)
    wx = np.zeros((n, n))
    log = np.full(4 * max(iters, n) + 64, -9, np.int64)
    asks = np.zeros(n, np.int64)
    after = 0
    dropped = False
    nl = 0
    S = np.zeros(SC_SIZE, np.int64)
    sched_start(S, kind, n, iters, alive, z > 0.0)
    w = 0
    while True:
        i, fresh = sched_next(S, rs, 1, tot, cnt, alive, c, tol)
        if i == SCHED_DONE:
            break
        if i == SCHED_WORLD_END:
            if kind == SCHED_UCB:
                sched_stop_clear(S, tot, cnt, z)
            else:
                sched_stop_paired(S, tot, cnt, alive, val, wx, z)
            continue
        if fresh:
            w = rand_int(rs, 2, 1000)
            log[nl] = -1
            nl += 1
        log[nl] = i
        nl += 1
        asks[i] += 1
        if dropped and i == drop:
            after += 1
        if i == drop and w % 3 == 2:
            sched_drop(S, tot, cnt, alive, i)
            dropped = True
            continue
        v = _value(w, i, spread)
        sched_tell(S, tot, cnt, i, v)
        val[i] = v
    return sched_best(S, rs, 1, tot, cnt, alive, tol), log, rs, S[SC_SPENT], asks, after


def _ones(n):
    return np.ones(n)


def _sp(level, noise):
    """``_value``'s spread: candidate i's level ``level * i``, plus ``noise`` times a
    pseudo-random part."""
    return np.array([level, noise])


def test_halving_asks_draws_and_choice_are_the_old_loops():
    for seed in range(40):
        for n, iters, drop, z, spread, alive in (
                (5, 40, -1, 0.0, _sp(0.02, 0.5), _ones(5)),
                (9, 100, 3, 0.0, _sp(0.01, 0.5), _ones(9)),
                (6, 25, 0, 2.0, _sp(0.1, 0.5), _ones(6)),
                (7, 60, 2, 1.5, _sp(0.0, 0.5), _ones(7)),
                (5, 40, -1, 0.0, _sp(0.0, 0.0), _ones(5)),         # every cut a tie
                (4, 3, -1, 0.0, _sp(0.0, 0.0), _ones(4)),
                (6, 30, 1, 0.0, _sp(0.05, 0.5), np.array([1.0, 1.0, 0.0, 1.0, 0.0, 1.0])),
                (3, 30, -1, 0.0, _sp(0.0, 0.5), np.array([0.0, 1.0, 0.0]))):
            b0, log0, rs0, spent0 = _old_halving(seed, n, iters, drop, z, 1e-9, spread, alive)
            b1, log1, rs1, spent1, _, _ = _sched(seed, SCHED_HALVE_REST, n, iters, drop, 0.0, z,
                                                 1e-9, spread, alive)
            assert b0 == b1 and spent0 == spent1
            assert np.array_equal(log0, log1) and np.array_equal(rs0, rs1)


def test_ucb_asks_draws_and_choice_are_the_old_loop():
    for seed in range(40):
        for n, iters, c, z, spread in ((5, 40, 0.7, 0.0, _sp(0.02, 0.5)),
                                       (8, 200, 1.0, 2.0, _sp(0.1, 0.5)),
                                       (4, 2, 0.5, 0.0, _sp(0.0, 0.0)),
                                       (5, 30, 0.0, 0.0, _sp(0.0, 0.0)),    # every pick a tie
                                       (6, 120, 0.3, 1.0, _sp(0.0, 0.5))):
            b0, log0, rs0, done0 = _old_ucb(seed, n, iters, c, z, 0.0, spread)
            b1, log1, rs1, done1, _, _ = _sched(seed, SCHED_UCB, n, iters, -1, c, z, 0.0,
                                                spread, _ones(n))
            assert b0 == b1 and done0 == done1
            assert np.array_equal(log0, log1) and np.array_equal(rs0, rs1)


def test_the_halving_budget_is_spent_as_its_schedule_says():
    for n in range(2, 10):
        for iters in (1, 7, 25, 100, 400):
            phases = halving_phases(n)
            # halving_rest: an even share of what is left, so the whole budget is spent
            _, log, _, spent, asks, _ = _sched(3, SCHED_HALVE_REST, n, iters, -1, 0.0, 0.0, 0.0,
                                               _sp(0.05, 0.5), _ones(n))
            assert spent == asks.sum() == (log >= 0).sum()
            m, worlds, expect = n, 0, 0
            for ph in range(phases):
                w = halving_rest(iters, expect, phases, ph, m)
                expect += w * m
                worlds += w
                m = (m + 1) // 2
            assert spent == expect and (log == -1).sum() == worlds
            if iters >= 4 * n:
                assert iters - n < spent <= iters
            # halving_even: the same share of the whole in every phase
            _, log, _, spent, asks, _ = _sched(3, SCHED_HALVE_EVEN, n, iters, -1, 0.0, 0.0, 0.0,
                                               _sp(0.05, 0.5), _ones(n))
            m, expect = n, 0
            for ph in range(phases):
                expect += halving_even(iters, phases, m) * m
                m = (m + 1) // 2
            assert spent == expect == asks.sum()


def test_the_cut_draws_ties_on_stream_k_and_only_there():
    # equal values everywhere: every cut is decided by draws on stream 1 (the search's k);
    # stream 0 is never read, and the winner varies with the seed, each candidate winning
    wins = np.zeros(4, np.int64)
    for seed in range(400):
        b, _, rs, _, _, _ = _sched(seed, SCHED_HALVE_REST, 4, 16, -1, 0.0, 0.0, 0.0,
                                   _sp(0.0, 0.0), _ones(4))
        ref = np.zeros(3, np.uint64)
        seed_streams(ref, np.uint64(seed), 0)
        assert rs[0] == ref[0] and rs[1] != ref[1]
        wins[b] += 1
    assert wins.min() > 60, wins
    # a clear order: no tie, no draw on stream 1, the best survives whatever the seed
    for seed in range(20):
        b, _, rs, _, _, _ = _sched(seed, SCHED_HALVE_REST, 5, 50, -1, 0.0, 0.0, 0.0,
                                   _sp(0.2, 0.0), _ones(5))
        ref = np.zeros(3, np.uint64)
        seed_streams(ref, np.uint64(seed), 0)
        assert b == 4 and rs[1] == ref[1]


def test_ucb_tries_every_candidate_first():
    for n in (2, 5, 9):
        _, log, _, _, asks, _ = _sched(1, SCHED_UCB, n, 10 * n, -1, 0.7, 0.0, 0.0,
                                       _sp(0.0, 0.5), _ones(n))
        assert list(log[log >= 0][:n]) == list(range(n))
        # each ask on a world of its own
        assert (log == -1).sum() == (log >= 0).sum() == 10 * n
        assert asks.sum() == 10 * n


def test_a_dropped_candidate_is_never_asked_for_again():
    for kind in (SCHED_HALVE_REST, SCHED_HALVE_EVEN, SCHED_UCB):
        for seed in range(30):
            for drop in (0, 2, 4):
                _, _, _, _, asks, after = _sched(seed, kind, 5, 80, drop, 0.7, 0.0, 0.0,
                                                 _sp(0.05, 0.5), _ones(5))
                assert asks[drop] >= 1 and after == 0


def test_the_stopping_rules_end_the_search_early_on_a_clear_best():
    # one candidate far ahead: the paired stop ends halving long before its budget
    b, _, _, _, asks, _ = _sched(2, SCHED_HALVE_REST, 6, 600, -1, 0.0, 3.0, 0.0,
                                 _sp(0.12, 0.2), _ones(6))
    assert b == 5 and asks.sum() < 300
    b, _, _, spent, asks, _ = _sched(2, SCHED_HALVE_REST, 6, 600, -1, 0.0, 0.0, 0.0,
                                     _sp(0.12, 0.2), _ones(6))
    assert b == 5 and asks.sum() == spent > 590
    # UCB's stop (clear_best): fewer iterations than the budget, the same choice
    b, _, _, done, _, _ = _sched(2, SCHED_UCB, 3, 600, -1, 2.0, 2.0, 0.0, _sp(0.4, 0.1),
                                 _ones(3))
    assert b == 2 and 6 <= done < 600
    # candidates all equal: never clear, the whole budget is spent
    _, _, _, done, _, _ = _sched(2, SCHED_UCB, 3, 90, -1, 0.7, 2.0, 0.0, _sp(0.0, 0.0),
                                 _ones(3))
    assert done == 90


@njit(cache=True)
def _ivalue(w, c, levels):
    """A small integer value of original candidate c on world w (many ties)."""
    h = (w * 2654435761 + c * 40503 + 977) % 1000003
    return levels[c] + h % 3


@njit(cache=True)
def _old_ranked(n, iters, levels):
    """Maya's halving as it was written before the scheduler (the reference): the
    candidates in an array, a stable sort by summed values after each round, the better
    half kept; returns (the choice, the plays)."""
    cand = np.arange(n)
    sums = np.zeros(n, np.int64)
    rounds = halving_phases(n)
    alive = n
    w = 0
    plays = 0
    while alive > 1:
        per = halving_even(iters, rounds, alive)
        for _ in range(per):
            for i in range(alive):
                sums[i] += _ivalue(w, cand[i], levels)
                plays += 1
            w += 1
        order_desc(cand, sums, alive)
        alive = (alive + 1) // 2
    return cand[0], plays


@njit(cache=True)
def _new_ranked(n, iters, levels):
    """The same search on the scheduler (SCHED_HALVE_RANKED, int64 arrays as Maya's
    scratch rows): (the choice, the plays, stream 1 untouched)."""
    rs = np.zeros(2, np.uint64)
    seed_streams(rs, np.uint64(7), 0)
    r0 = rs[1]
    tot = np.zeros(n, np.int64)
    cnt = np.zeros(n, np.int64)
    alive = np.ones(n, np.int64)
    S = np.zeros(SC_SIZE, np.int64)
    sched_start(S, SCHED_HALVE_RANKED, n, iters, alive, True)
    w = -1
    plays = 0
    while True:
        i, fresh = sched_next(S, rs, 1, tot, cnt, alive, 0.0, 0.0)
        if i == SCHED_DONE:
            break
        if i == SCHED_WORLD_END:
            continue
        if fresh:
            w += 1
        sched_tell(S, tot, cnt, i, _ivalue(w, i, levels))
        plays += 1
    return sched_best(S, rs, 1, tot, cnt, alive, 0.0), plays, rs[1] == r0


def test_ranked_halving_plays_as_a_stable_sort_by_sums_and_draws_nothing():
    rng = np.random.default_rng(3)
    for n in range(1, 12):
        for iters in (1, 4, 16, 33, 64):
            for _ in range(6):
                levels = rng.integers(0, 3, n).astype(np.int64)
                if n == 1:
                    continue
                b0, p0 = _old_ranked(n, iters, levels)
                b1, p1, untouched = _new_ranked(n, iters, levels)
                assert (b0, p0) == (b1, p1) and untouched


def test_halve_ranked_keeps_the_best_half_with_equal_means_in_their_old_rank():
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(2, 10))
        tot = rng.integers(0, 4, n).astype(np.float64)
        cnt = np.ones(n)
        alive = np.zeros(n)
        ins = np.flatnonzero(rng.random(n) < 0.8)
        if len(ins) < 2:
            continue
        old = rng.permutation(len(ins)) + 1
        alive[ins] = old
        m = len(ins)
        want = sorted(ins, key=lambda j: (-tot[j], alive[j]))[:(m + 1) // 2]
        left = halve_ranked(tot, cnt, alive, n, m, False)
        assert left == len(want)
        assert [j for j in np.argsort(alive, kind="stable") if alive[j] > 0] == want
        assert sorted(alive[alive > 0]) == list(range(1, left + 1))
