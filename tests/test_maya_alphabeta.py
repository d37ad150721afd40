"""The two-player search bot's alpha-beta (``bots/search.py``): its shortcuts are exact.

* ``exchange_gain`` (the move ordering's key, and the leaves' values one exchange above
  them) is the change of ``eval2`` that making the exchange brings, and ``has_move_after``
  is ``has_move`` after it, on every legal exchange of positions from recorded games, for
  both seats, at rules that run the ladder and priest supplies out and without the Raven.
* ``frontier_value`` is the best leaf value, or a lower bound of at least beta when the
  best reaches beta.
* ``order_moves`` sorts by gain, highest first, equal gains in list order.
* ``search2`` plays the first move, in its shuffled root order, of the best value that a
  plain minimax (no pruning, no ordering, every exchange made) gives.

The rows of every search table are checked bit for bit in tests/test_behaviour_fixtures.py.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.maya import GAME
from sim.games.maya import exchange, scoring, setup, state
from sim.games.maya.bots import greedy, search
from sim.record import record_run

RULES = [{}, {"ladders": 3, "priests": 1}, {"raven": False}, {"ladder_spaces": "1,1,1,1,1,1,1,1,1"}]


def _positions(rules, games=2, every=3):
    """Two-player positions (every ``every`` exchanges and the last ones) of recorded games."""
    out = []
    for r in record_run("maya", range(games), rules=rules, bots="search:depth=1,greedy", players=2, seed=3):
        snaps = r.snapshots
        idx = sorted(set(range(1, len(snaps), every)) | set(range(max(1, len(snaps) - 4), len(snaps))))
        out += [state.state_from_snapshot(snaps[i]) for i in idx]
    return out


def _after(st, R, m, p):
    s = state.new_state()
    state.copy_state(s, st)
    exchange.apply_exchange(s, R, m, p)
    return s


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_gain_and_mobility_match_the_exchange_made(rules):
    R = GAME.prepare(GAME.resolve_rules(rules), 2)
    mv = np.zeros(512, np.int64)
    gains, stuck, checked = set(), 0, 0
    for st in _positions(rules):
        k = exchange.gen_moves(st, R, mv)
        for m in mv[:k]:
            for p in (0, 1):
                s = _after(st, R, m, p)
                g = int(search.exchange_gain(st, R, m, p))
                assert g == greedy.eval2(s, 9, p) - greedy.eval2(st, 9, p), (rules, int(m), p)
                assert bool(search.has_move_after(st, R, m)) == bool(exchange.has_move(s, R)), (rules, int(m))
                gains.add(g)
                stuck += not exchange.has_move(s, R)
                checked += 1
    # the cases are really met: joins with and without a priest, exchanges leaving no move
    assert checked > 300 and len(gains) >= 3 and stuck > 0, (checked, sorted(gains), stuck)


def test_frontier_value_is_the_best_leaf_or_a_bound_above_beta():
    R = GAME.prepare(GAME.resolve_rules({}), 2)
    mv = np.zeros(512, np.int64)
    s = state.new_state()
    cut = 0
    for st in _positions({}):
        k = exchange.gen_moves(st, R, mv)
        for p in (0, 1):
            if k == 0:
                continue
            leaves = [-greedy.leaf2(_after(st, R, m, p), R, 1 - p) for m in mv[:k]]
            best = max(leaves)
            stats = np.zeros(4, np.int64)
            assert search.frontier_value(st, R, p, mv, k, -state.NEG, s, stats) == best
            assert stats[state.S_NODES] == k
            for beta in (best, best - 1, best + 1, min(leaves)):
                v = search.frontier_value(st, R, p, mv, k, beta, s, np.zeros(4, np.int64))
                if best >= beta:
                    assert beta <= v <= best
                    cut += v < best or beta < best
                else:
                    assert v == best
    assert cut > 0


def test_order_moves_sorts_by_gain_keeping_list_order():
    R = GAME.prepare(GAME.resolve_rules({}), 2)
    mv = np.zeros(512, np.int64)
    moved = 0
    for st in _positions({}):
        k = exchange.gen_moves(st, R, mv)
        for p in (0, 1):
            before = [int(m) for m in mv[:k]]
            got = mv.copy()
            search.order_moves(st, R, got, k, p)
            want = sorted(before, key=lambda m: (-search.exchange_gain(st, R, m, p), before.index(m)))
            assert [int(m) for m in got[:k]] == want
            moved += want != before
    assert moved > 0


def _negamax(st, R, p, depth):
    """Plain negamax: every exchange made, leaves valued by ``leaf2``."""
    mv = np.zeros(512, np.int64)
    k = exchange.gen_moves(st, R, mv)
    if k == 0:
        return scoring.result2(st, 9, p)
    if depth == 0:
        return greedy.leaf2(st, R, p)
    return max(-_negamax(_after(st, R, m, p), R, 1 - p, depth - 1) for m in mv[:k])


@pytest.mark.parametrize("depth", [2, 3])
def test_search_plays_the_first_best_move_of_plain_minimax(depth):
    R = GAME.prepare(GAME.resolve_rules({"ladders": 6}), 2)
    picked = set()
    for i, st in enumerate(_positions({"ladders": 6}, games=1, every=25 if depth == 3 else 8)):
        p = i % 2
        rs = np.zeros(3, np.uint64)
        setup.seed_game(rs, np.uint64(5), np.int64(i))
        sc = state.new_scratch(9)
        X = sc.x
        root = X[state.X_MV]
        m = int(search.search2(st, R, p, depth, sc, rs.copy()))
        k = exchange.gen_moves(st, R, root)
        if k < 2:
            continue
        search.shuffle_root(st, R, p, X, rs)          # the search's root order, drawn again
        vals = [-_negamax(_after(st, R, r, p), R, 1 - p, depth - 1) for r in root[:k]]
        assert m == int(root[vals.index(max(vals))]), (i, depth)
        picked.add(len(set(vals)) > 1)
    assert True in picked   # positions where the moves differ in value
