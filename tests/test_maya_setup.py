"""Board set-up: the uniform sampler is exactly uniform over valid boards (checked by
counting on boards small enough to enumerate), its rejection bounds are true maxima,
and both set-ups only ever build valid boards."""
import itertools

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from sim.games.maya import EXACT_ROW_MAX, EXACT_ROW_MIN, GAME, level_bounds
from sim.games.maya import setup, state
from sim.params import ParamError
from sim.record import NO_RECORD


@njit(cache=False)  # it calls kernel functions: a cached copy would not see their changes
def _boards(R, bot_ids, seed, count, turns, out, buf, st, X):
    n = R[state.R_N]
    L = R[state.R_L]
    rs = np.zeros(1 + R[state.R_P], np.uint64)
    att = 0
    for g in range(count):
        setup.seed_game(rs, seed, g)
        if turns:
            P = R[state.R_P]
            first = g % P if (R[state.R_FIRST] == state.FIRST_ROTATE and P > 2) else 0
            setup.setup_turns(st, R, rs, first, bot_ids, X, buf)
        else:
            att += setup.setup_uniform(st, R, rs, X)
        for t in range(n):
            for lev in range(L):
                out[g, t, lev] = state.nib(st.tw[t], lev)
    return att


def boards(players=2, count=1000, seed=5, turns=False, bots="random", **rules):
    R = GAME.prepare(GAME.resolve_rules(rules), players)
    ids, _ = GAME.bot_arrays(GAME.choose_bots(bots, players))
    out = np.zeros((count, R[state.R_N], R[state.R_L]), np.int64)
    att = _boards(R, ids, seed, count, turns, out, NO_RECORD, state.new_state(),
                  state.new_scratch(int(R[state.R_N])).x)
    return out, att / count


def valid(b):
    n, L = b.shape[-2:]
    levels_ok = (np.sort(b, axis=-2) == np.arange(n)[:, None]).all(axis=(-2, -1))
    towers_ok = np.array([[len(set(t)) == L for t in bb] for bb in b]).all(axis=1)
    return levels_ok & towers_ok


def latin_rectangles(n, L):
    rows = list(itertools.permutations(range(n)))
    out = [()]
    for _ in range(L):
        out = [r + (row,) for r in out for row in rows
               if all(all(row[t] != prev[t] for t in range(n)) for prev in r)]
    return out


@pytest.fixture
def small_board(tmp_path):
    def make(rows, cols, levels):
        p = tmp_path / f"b{rows}{cols}{levels}.toml"
        names = ", ".join(f'"c{i}"' for i in range(rows * cols))
        p.write_text(f"rows = {rows}\ncols = {cols}\nlevels = {levels}\ncolours = [{names}]\n")
        return str(p)
    return make


@pytest.mark.parametrize("rows,cols,levels,count", [(1, 3, 3, 6000), (2, 2, 3, 20000),
                                                    (1, 4, 4, 20000)])
def test_uniform_setup_is_uniform_on_enumerable_boards(small_board, rows, cols, levels, count):
    path = small_board(rows, cols, levels)
    b, _ = boards(count=count, board=path)
    assert valid(b).all()
    n = rows * cols
    every = latin_rectangles(n, levels)
    index = {r: i for i, r in enumerate(every)}
    seen = np.zeros(len(every))
    for bb in b:
        seen[index[tuple(tuple(int(bb[t, lev]) for t in range(n)) for lev in range(levels))]] += 1
    assert (seen > 0).all()
    assert chisquare(seen).pvalue > 1e-4


def test_standard_boards_are_valid_and_attempts_are_few():
    b, attempts = boards(count=3000)
    assert valid(b).all()
    assert attempts < 2.5
    # every colour shows up at the bottom of tower 0 about equally often
    counts = np.bincount(b[:, 0, 0], minlength=9)
    assert chisquare(counts).pvalue > 1e-4
    # a joined pair can never be on the board at the start
    assert not (b[:, :, 1:] == b[:, :, :-1]).any()


def test_turn_setup_builds_valid_boards():
    for players in (2, 3, 4):
        for bots in ("random", "greedy"):
            b, _ = boards(players=players, count=300, turns=True, setup="turns", bots=bots)
            assert valid(b).all()


EDGES = [(0, 1), (0, 3), (1, 2), (1, 4), (2, 5), (3, 4), (3, 6), (4, 5), (4, 7), (5, 8),
         (6, 7), (7, 8)]


def first_exchange_joins(b):
    """Exchanges on the finished board that would join colours at once."""
    count = 0
    for a, c in EDGES:
        for lev in range(1, b.shape[1]):
            count += (b[a, lev - 1] == b[c, lev]) + (b[c, lev - 1] == b[a, lev])
    return count


def test_turn_setup_bots_steer_the_join_chances():
    # White (seat 0 here) greedy adds join chances for the first exchanges, Black greedy
    # removes them (every chance on the finished board is decided by exactly one placement)
    def mean(bots):
        b, _ = boards(count=400, turns=True, setup="turns", bots=bots, first="seat0")
        return np.mean([first_exchange_joins(x) for x in b])
    both_random = mean("random")
    assert mean("greedy,random") > both_random + 3
    assert mean("random,greedy") < both_random - 3


def test_bounds_are_true_maxima_for_two_levels():
    # Every 2-level prefix is, up to renaming colours and towers, the identity and a
    # derangement of some cycle type; the number of valid third rows depends on that type only.
    n = 9

    def parts(m, lo=2):
        if m == 0:
            yield []
        for p in range(lo, m + 1):
            for rest in parts(m - p, p):
                yield [p] + rest

    counts = []
    dp = np.zeros(1 << n, np.int64)
    pc = np.array([bin(m).count("1") for m in range(1 << n)], np.int64)
    for part in parts(n):
        r1, s = [], 0
        for p in part:
            r1 += [s + (i + 1) % p for i in range(p)]
            s += p
        allowed = np.array([(1 << n) - 1 & ~((1 << t) | (1 << r1[t])) for t in range(n)]
                           + [0] * 7, np.int64)
        counts.append(setup.count_assignments(allowed, n, dp, pc))
    assert max(counts) == EXACT_ROW_MAX[9][2] == level_bounds(9, 5)[0, 2]
    assert min(counts) == EXACT_ROW_MIN[9][2]
    R = GAME.prepare(GAME.resolve_rules({}), 2)
    table = dict(R[state.R_CYC:state.R_CYC + 2 * R[state.R_NCYC]].reshape(-1, 2).tolist())
    assert sorted(table.values()) == sorted(counts)
    b = level_bounds(9, 5)
    assert b[0, 3] == EXACT_ROW_MAX[9][3] and b[0, 4] == 5529   # Bregman: ceil(120^(9/5))
    assert b[1, 3] == EXACT_ROW_MIN[9][3] and b[1, 4] == 1829   # 9! (5/9)^9, rounded down


@njit(cache=False)  # it calls kernel functions: a cached copy would not see their changes
def _max_fourth_rows(r1, n, dp, pc, allowed):
    """Largest and smallest numbers of valid fourth rows over every third row, the first
    two fixed."""
    full = (1 << n) - 1
    best = 0
    worst = 1 << 60
    row = np.zeros(n, np.int64)
    nxt = np.zeros(n + 1, np.int64)
    t = 0
    used = 0
    nxt[0] = 0
    while t >= 0:
        c = nxt[t]
        while c < n and ((used >> c) & 1 or c == t or c == r1[t]):
            c += 1
        if c >= n:
            t -= 1
            if t >= 0:
                used ^= 1 << row[t]
                nxt[t] = row[t] + 1
            continue
        row[t] = c
        used |= 1 << c
        if t == n - 1:
            for u in range(n):
                allowed[u] = full & ~((1 << u) | (1 << r1[u]) | (1 << row[u]))
            v = setup.count_assignments(allowed, n, dp, pc)
            best = max(best, v)
            worst = min(worst, v)
            used ^= 1 << c
            nxt[t] = c + 1
        else:
            t += 1
            nxt[t] = 0
    return best, worst


def test_bounds_are_true_maxima_for_three_levels():
    n = 9
    dp = np.zeros(1 << n, np.int64)
    pc = np.array([bin(m).count("1") for m in range(1 << n)], np.int64)
    allowed = np.zeros(16, np.int64)
    best, worst = 0, 1 << 60
    for part in ([9], [7, 2], [6, 3], [5, 4], [5, 2, 2], [4, 3, 2], [3, 3, 3], [3, 2, 2, 2]):
        r1, s = [], 0
        for p in part:
            r1 += [s + (i + 1) % p for i in range(p)]
            s += p
        hi, lo = _max_fourth_rows(np.array(r1, np.int64), n, dp, pc, allowed)
        best, worst = max(best, hi), min(worst, lo)
    assert (best, worst) == (EXACT_ROW_MAX[9][3], EXACT_ROW_MIN[9][3])


def test_bad_board_files_are_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('rows = 3\ncols = 3\nlevels = 5\ncolours = ["a", "b"]\n')
    with pytest.raises(ParamError, match="colours"):
        GAME.prepare(GAME.resolve_rules({"board": str(bad)}), 2)
    with pytest.raises(ParamError, match="does not exist"):
        GAME.prepare(GAME.resolve_rules({"board": str(tmp_path / "none.toml")}), 2)
    with pytest.raises(ParamError, match="points"):
        GAME.prepare(GAME.resolve_rules({"points": "1,2"}), 3)
    with pytest.raises(ParamError, match="ladder_spaces"):
        GAME.prepare(GAME.resolve_rules({"ladder_spaces": "1,2"}), 2)


def test_every_count_met_lies_within_the_bounds():
    """The sampler's shortcuts rely on lower <= N_k <= upper for every prefix it meets."""
    b, _ = boards(count=400, seed=8)
    low_up = level_bounds(9, 5)
    dp = np.zeros(512, np.int64)
    pc = np.array([bin(m).count("1") for m in range(512)], np.int64)
    for bb in b:
        for k in range(2, 5):
            allowed = np.zeros(16, np.int64)
            for t in range(9):
                allowed[t] = 511 & ~sum(1 << int(c) for c in bb[t, :k])
            N = setup.count_assignments(allowed, 9, dp, pc)
            assert low_up[1, k] <= N <= low_up[0, k]


def test_uniform_setup_on_a_board_using_every_shortcut(small_board):
    # 1 x 5 towers, 4 levels: level 4 has a positive lower bound, so its row is sometimes
    # dealt without counting.  Renaming the colours so that level 1 reads 0 1 2 3 4, the
    # other three levels must be uniform over the 1,344 normalised 4 x 5 Latin rectangles.
    path = small_board(1, 5, 4)
    assert level_bounds(5, 4)[1, 3] >= 1
    b, _ = boards(count=40000, board=path)
    assert valid(b).all()
    rows = list(itertools.permutations(range(5)))
    every = [((0, 1, 2, 3, 4),)]
    for _ in range(3):
        every = [r + (row,) for r in every for row in rows
                 if all(all(row[t] != prev[t] for t in range(5)) for prev in r)]
    assert len(every) == 1344
    index = {r[1:]: i for i, r in enumerate(every)}
    seen = np.zeros(len(every))
    for bb in b:
        rename = {int(bb[t, 0]): t for t in range(5)}
        key = tuple(tuple(rename[int(bb[t, lev])] for t in range(5)) for lev in range(1, 4))
        seen[index[key]] += 1
    assert (seen > 0).all()
    assert chisquare(seen).pvalue > 1e-4
