"""The random streams: jitted and pure-Python generators agree bit for bit, and
streams depend on (seed, game, stream) alone."""
import numpy as np
from numba import njit

from sim.rng import Stream, next_u64, rand_float, rand_int, seed_streams


@njit(cache=True)
def _draw(seed, game, n_streams, k, count, kind, n):
    rs = np.zeros(n_streams, dtype=np.uint64)
    seed_streams(rs, seed, game)
    out = np.zeros(count, dtype=np.float64)
    for i in range(count):
        if kind == 0:
            out[i] = rand_int(rs, k, n)
        elif kind == 1:
            out[i] = rand_float(rs, k)
        else:
            out[i] = np.float64(next_u64(rs, k) >> np.uint64(40))
    return out


def test_jitted_and_python_streams_agree():
    for seed, game, k in [(0, 0, 0), (1, 7, 1), (2**63 + 5, 123456789, 2), (42, 10**9, 3)]:
        s = Stream(seed, game, k)
        got = _draw(np.uint64(seed), game, 4, k, 50, 0, 6)
        assert got.tolist() == [s.rand_int(6) for _ in range(50)]
        s = Stream(seed, game, k)
        got = _draw(np.uint64(seed), game, 4, k, 50, 1, 0)
        assert got.tolist() == [s.rand_float() for _ in range(50)]
        s = Stream(seed, game, k)
        got = _draw(np.uint64(seed), game, 4, k, 20, 2, 0)
        assert got.tolist() == [float(s.next_u64() >> 40) for _ in range(20)]


def test_stream_values_are_pinned():
    # Changing the generator silently would change every published result.
    s = Stream(1, 0, 0)
    assert [s.next_u64() for _ in range(3)] == [
        1885435462079866292, 4864417438339375175, 14341766508669377829]


def test_streams_differ_by_seed_game_and_stream():
    firsts = {Stream(seed, g, k).next_u64() for seed in range(3) for g in range(50) for k in range(5)}
    assert len(firsts) == 3 * 50 * 5


def test_rand_int_is_uniform_and_in_range():
    x = _draw(np.uint64(9), 3, 1, 0, 60000, 0, 6)
    assert x.min() == 0 and x.max() == 5
    counts = np.bincount(x.astype(int), minlength=6)
    expected = 10000
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 25  # 5 degrees of freedom: p < 1e-4 to fail by chance


def test_rand_float_in_unit_interval():
    x = _draw(np.uint64(4), 0, 1, 0, 20000, 1, 0)
    assert 0.0 <= x.min() and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 0.01


# ------------------------------------------------------------ chance split by purpose
from sim.rng import (DECK, DICE, SETUP, game_base, item_key, keyed_shuffle,  # noqa: E402
                     open_substream, py_game_base, py_item_key, py_keyed_order, tie_wins)


@njit(cache=True)
def _sub_draws(seed, game, purpose, index, count, n):
    rs = np.zeros(2, dtype=np.uint64)
    open_substream(rs, 1, game_base(seed, game), purpose, index)
    out = np.zeros(count, dtype=np.int64)
    for i in range(count):
        out[i] = rand_int(rs, 1, n)
    return out


@njit(cache=True)
def _keyed(seed, game, purpose, ids):
    n = ids.shape[0]
    items = ids * 10
    idc = ids.copy()
    keys = np.zeros(n, dtype=np.uint64)
    keyed_shuffle(items, idc, keys, n, game_base(seed, game), purpose)
    return items, idc


@njit(cache=True)
def _key(seed, game, purpose, item):
    return item_key(game_base(seed, game), purpose, item)


def test_substreams_agree_with_python_and_are_distinct():
    for seed, game, purpose, index in [(1, 0, SETUP, 0), (7, 99, DICE, 12), (2**63, 5, DECK, 3)]:
        s = Stream.substream(seed, game, purpose, index)
        got = _sub_draws(np.uint64(seed), game, purpose, index, 30, 6)
        assert got.tolist() == [s.rand_int(6) for _ in range(30)]
        assert int(_key(np.uint64(seed), game, purpose, index)) == py_item_key(
            py_game_base(seed, game), purpose, index)
    firsts = {Stream.substream(1, g, p, i).next_u64() for g in range(10) for p in range(1, 6)
              for i in range(20)}
    firsts |= {Stream(1, g, k).next_u64() for g in range(10) for k in range(5)}
    assert len(firsts) == 10 * 5 * 20 + 10 * 5


def test_a_substream_does_not_depend_on_draws_from_another():
    # the dice of round 3 are the same whatever was drawn for setup or for round 2
    a = _sub_draws(np.uint64(5), 17, DICE, 3, 10, 6)
    b = _sub_draws(np.uint64(5), 17, DICE, 3, 10, 6)
    assert a.tolist() == b.tolist()
    assert a.tolist() != _sub_draws(np.uint64(5), 17, DICE, 4, 10, 6).tolist()


def test_keyed_shuffle_keeps_the_others_order_when_one_item_is_removed():
    ids = np.arange(40, dtype=np.int64)
    items, order = _keyed(np.uint64(3), 11, DECK, ids)
    assert sorted(order.tolist()) == ids.tolist() and order.tolist() != ids.tolist()
    assert items.tolist() == (order * 10).tolist()
    assert order.tolist() == py_keyed_order(py_game_base(3, 11), DECK, range(40))
    for gone in (0, 17, 39):
        kept = np.array([i for i in range(40) if i != gone], dtype=np.int64)
        _, order2 = _keyed(np.uint64(3), 11, DECK, kept)
        assert order2.tolist() == [i for i in order.tolist() if i != gone]


def test_keyed_shuffle_is_uniform():
    # position of item 0 among 5 over many games: uniform
    counts = np.zeros(5, dtype=np.int64)
    ids = np.arange(5, dtype=np.int64)
    for g in range(20000):
        _, order = _keyed(np.uint64(1), g, DECK, ids)
        counts[int(np.nonzero(order == 0)[0][0])] += 1
    chi2 = ((counts - 4000) ** 2 / 4000).sum()
    assert chi2 < 20  # 4 degrees of freedom


@njit(cache=True)
def _pick_among_ties(values, games):
    counts = np.zeros(values.shape[0], dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    for g in range(games):
        seed_streams(rs, 9, g)
        best = -1e300
        pick = -1
        ties = 0
        for i in range(values.shape[0]):
            v = values[i]
            if v > best:
                best, pick, ties = v, i, 1
            elif v == best:
                ties += 1
                if tie_wins(rs, 0, ties):
                    pick = i
        counts[pick] += 1
    return counts


def test_tie_wins_picks_uniformly_among_the_tied():
    counts = _pick_among_ties(np.array([1.0, 3.0, 2.0, 3.0, 3.0, 0.0]), 30000)
    assert counts[0] == counts[2] == counts[5] == 0
    for i in (1, 3, 4):
        assert abs(counts[i] - 10000) < 400
