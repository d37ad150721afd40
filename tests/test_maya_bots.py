"""Bot strength: greedy beats random, the search bot beats greedy clearly (two players;
three/four players: tests/test_maya_search.py), and the three/four-player task bots beat
random players; every bot plays only legal exchanges
(checked by the reference replay, tests/test_replay.py)."""
import pytest

from sim.games.maya import GAME


def play(players, bots, count, seed=99, **rules):
    ctx = GAME.prepare(GAME.resolve_rules(rules), players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return GAME.play_chunk(ctx, players, seed, 0, count, ids, par)


def test_greedy_beats_random_from_either_seat():
    a = play(2, "greedy,random", 100)
    b = play(2, "random,greedy", 100)
    assert a["win"][:, 0].mean() > 0.9 and b["win"][:, 1].mean() > 0.9


@pytest.mark.slow   # a strength regression (make test; not test-fast)
def test_search_beats_greedy_clearly():
    a = play(2, "search,greedy", 60)
    b = play(2, "greedy,search", 60)
    share = (a["win"][:, 0].sum() + b["win"][:, 1].sum()) / 120
    assert share > 0.7, share


def test_search_depth_one_is_no_better_than_greedy():
    # depth 1 = the greedy value without the blocking tie-break
    a = play(2, "search:depth=1,greedy", 60)
    b = play(2, "greedy,search:depth=1", 60)
    share = (a["win"][:, 0].sum() + b["win"][:, 1].sum()) / 120
    assert share < 0.6, share


def test_task_bots_beat_random_players():
    three = play(3, "greedy,random,random", 200)
    assert three["win"][:, 0].mean() > 0.55
    assert three["score"][:, 0].mean() > 1.5 * three["score"][:, 1:].mean()
    four = play(4, "greedy,random,greedy,random", 150)
    assert four["win"][:, 0].mean() > 0.75


# the three/four-player search bot's strength: tests/test_maya_search.py


def test_black_bot_places_the_monolith_to_limit_white():
    # a greedy black picks the Monolith/Raven start; white (random) then gets less than
    # against a random start
    bot = play(2, "random,greedy", 200, first="seat0")
    rnd = play(2, "random,greedy", 200, first="seat0", start="random")
    assert bot["monolith_start"].std() > 0
    assert bot["score"][:, 0].mean() <= rnd["score"][:, 0].mean() + 0.3
