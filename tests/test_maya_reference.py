"""The pure-Python reference engine replays the kernel's games on the same streams and
must agree on every recorded column, with the rule parameters swept."""
import numpy as np
import pytest

from sim.games.maya import GAME
from tests.reference import maya_ref as ref

SEED = 20120


def kernel_games(players, bots, rules, start, count, seed=SEED):
    r = GAME.resolve_rules(rules)
    ctx = GAME.prepare(r, players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return r, par, GAME.run_chunk(ctx, players, seed, start, count, ids, par)


def compare(players, bots, rules, count, start=0):
    r, par, cols = kernel_games(players, bots, rules, start, count)
    names = [c.strip().split(":")[0] for c in bots.split(",")]
    if len(names) == 1:
        names = names * players
    depths = [int(par[p, 0]) for p in range(players)]
    for i in range(count):
        want = ref.play(SEED, start + i, r, names, depths)
        for k, v in cols.items():
            got = np.asarray(v[i]).tolist()
            exp = want[k]
            if isinstance(got, list):
                assert got == pytest.approx(exp), (k, i, got, exp)
            else:
                assert got == exp, (k, i, got, exp)


CASES = [
    # players, bots, rules, games
    (2, "random", {}, 120),
    (2, "random", {"raven": False, "start": "random", "first": "seat0"}, 40),
    (2, "random", {"ladders": 3, "priests": 1, "ladder_spaces": "1"}, 40),
    (2, "random", {"horizon": 30, "capped": "draw"}, 40),    # the old name of horizon_result
    (2, "random", {"ladder_spaces": "1,2,3", "horizon": 60}, 30),
    (2, "random", {"setup": "turns", "horizon": 40}, 10),
    (2, "greedy,random", {"setup": "turns", "horizon": 6}, 6),
    (2, "random,search:depth=1", {"setup": "turns", "horizon": 6}, 6),
    (2, "greedy,random", {"horizon": 16}, 8),
    (2, "random,greedy", {"horizon": 16, "start": "bot"}, 8),
    (2, "search:depth=2,greedy", {"horizon": 8}, 4),
    (2, "greedy,search:depth=3", {"horizon": 5}, 3),
    (2, "greedy,random", {"raven": False, "ladder_spaces": "2,2,2,3,1,3,2,2,2", "horizon": 14}, 6),
    (2, "random", {"ladders": 0, "priests": 0, "first": "seat0"}, 20),
    (3, "random", {}, 60),
    (3, "random", {"first": "seat0", "setup": "turns", "horizon": 50}, 10),
    (4, "random", {"horizon_result": "draw", "horizon": 60, "centre_bonus": 0}, 30),
    (3, "random", {"horizon": 40, "horizon_result": "draw", "points": "2,4,8,20", "centre_bonus": 9}, 30),
    (3, "greedy,random,greedy", {"horizon": 30}, 6),
    (4, "random", {}, 60),
    (4, "greedy", {"horizon": 25, "setup": "turns"}, 3),
    (3, "search,greedy,random", {"horizon": 9}, 3),
    (4, "random,search,random,greedy", {"horizon": 10}, 2),
]


@pytest.mark.parametrize("players,bots,rules,count", CASES)
def test_reference_agrees(players, bots, rules, count):
    compare(players, bots, rules, count)
