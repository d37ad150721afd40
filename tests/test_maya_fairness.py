"""Verdicts a designer can trust: every bot choice with equal best options is a uniform
draw on the bot's own stream, each purpose of chance has its own substream, and the
names are the rulebook's.

* Ties, on a hand-built board with two symmetric best exchanges (two pairs of towers,
  each one exchange from completing both towers): the two-player greedy and search bots
  and the three/four-player task bots (greedy, Monte Carlo search) play each in about
  half of 400 bot seeds; black's Monolith/Raven choice is uniform over its tied options; the
  Alternative Setup's placements are uniform over the tied towers.  The tie takes one
  draw on the bot's own stream, and nothing else (the three/four-player search draws
  more, all on its own stream).
* Chance: the board of game i is the same whatever the start rule, the Raven, the bots,
  the horizon, its scoring or (3-4 players) the points; the random start is the same
  whichever set-up built the board; the task deal is one key per colour, so the colour
  set aside at the centre moves no other card.  The second and third fail with one chance
  stream per game.
* Names: seats White and Black with two players (White moves first), horizon_result
  (old name capped), roles.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.maya import GAME
from sim.games.maya import exchange, play, setup as maya_setup, state as maya_state
from sim.games.maya.bots import greedy, mcts, search
from sim.params import ParamError
from sim.rng import DECK, SETUP, Stream, py_game_base, py_keyed_order
from tests.test_maya_rules import EDGES, state

N = 400  # bot seeds per tie test: a fair coin gives 200 +- 10


def _uniform(picks, options):
    """Every pick is one of ``options``, each about equally often (within 5 sd)."""
    assert set(picks) <= set(options), set(picks) - set(options)
    n, k = len(picks), len(options)
    sd = (n * (1 / k) * (1 - 1 / k)) ** 0.5
    for o in options:
        assert abs(picks.count(o) - n / k) < 5 * sd, (o, picks.count(o), n / k)


# Towers 0+1 (top row) and 6+7 (bottom row) have swapped their top two blocks; every other
# tower is complete.  The only exchanges: level 4 between 0 and 1 or between 6 and 7, each
# completing two towers (a corner and an edge tower: the same ladder spaces).
TOWERS = [[t] * 5 for t in range(9)]
TOWERS[0], TOWERS[1] = [0, 0, 0, 1, 1], [1, 1, 1, 0, 0]
TOWERS[6], TOWERS[7] = [6, 6, 6, 7, 7], [7, 7, 7, 6, 6]
MOVE_A, MOVE_B = 16 * EDGES.index((0, 1)) + 3, 16 * EDGES.index((6, 7)) + 3


def _ctx(players):
    return GAME.prepare(GAME.resolve_rules({}), players)


def kernel_pick(bot, players, g, seed=0, p=0, cards=None):
    """The move ``bot`` (seat p) plays on TOWERS with the tie-break stream of game g."""
    R = _ctx(players)
    st = state(TOWERS, R)
    rs = np.zeros(1 + players, np.uint64)
    maya_setup.seed_game(rs, np.uint64(seed), np.int64(g))
    sc = maya_state.new_scratch(9)
    moves = sc.x[maya_state.X_MOVES]
    nm = exchange.gen_moves(st, R, moves)
    assert sorted(moves[:nm]) == [MOVE_A, MOVE_B]
    if cards is not None:
        sc.x[maya_state.X_CARDS, :len(cards)] = cards
    if players == 2 and bot == "greedy":
        m = greedy.greedy2(st, R, p, nm, sc, rs)
    elif players == 2:
        m = search.search2(st, R, p, 3, sc, rs)
    elif bot == "greedy":
        m = greedy.greedy_task(st, R, p, nm, sc, rs)
    else:
        par = np.array([3, 16, 8, 6], np.float64)   # depth, iters, width, playout
        m = mcts.search_task(st, R, p, nm, par, 0, sc, rs)
    return int(m), int(rs[1 + p])


def _expected_pick(bot, g):
    """The tied pick the bot's own stream gives: one draw among [MOVE_A, MOVE_B] (listed in
    board order); the search bot shuffles the two root moves (one Fisher-Yates draw) and
    plays the first of the equal best."""
    stream = Stream(0, g, 1)
    j = stream.rand_int(2)
    if bot == "search":
        pick = MOVE_B if j == 0 else MOVE_A
    else:
        pick = (MOVE_A, MOVE_B)[j]
    return pick, stream.state


@pytest.mark.parametrize("bot", ["greedy", "search"])
def test_two_player_bots_break_an_exact_tie_on_their_own_stream(bot):
    picks = [kernel_pick(bot, 2, g)[0] for g in range(N)]
    _uniform(picks, [MOVE_A, MOVE_B])
    # one draw on the bot's own stream decides, nothing else is drawn
    for g in range(30):
        assert kernel_pick(bot, 2, g) == _expected_pick(bot, g)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("bot", ["greedy", "search"])
def test_task_bots_break_an_exact_tie_on_their_own_stream(bot, players):
    # seat 0's task colours are 0 and 6: completing towers 0+1 or towers 6+7 is worth the
    # same; the centre tower (4) is already complete, so no bonus decides
    cards = np.array([0, 6, 2, 3, 5, 8, 1, 7], np.int64)
    picks = [kernel_pick(bot, players, g, cards=cards)[0] for g in range(N)]
    _uniform(picks, [MOVE_A, MOVE_B])
    if bot == "greedy":
        for g in range(30):
            assert kernel_pick(bot, players, g, cards=cards) == _expected_pick("greedy", g)
    # the search (three/four players) draws its deals and play-outs from the same stream:
    # the two mirror-image exchanges are equally likely, but not by one draw


def test_black_start_choice_is_uniform_over_its_tied_options():
    # with the Raven on level 4 White has no exchange (a 0 for White); every other option
    # leaves White a completing exchange: black's twelve best options tie
    R = _ctx(2)
    ids = np.array([maya_state.BOT_GREEDY, maya_state.BOT_GREEDY], np.int64)
    sc = maya_state.new_scratch(9)
    rs = np.zeros(3, np.uint64)
    picks = []
    for g in range(1200):
        st = state(TOWERS, R)
        maya_setup.seed_game(rs, np.uint64(1), np.int64(g))
        picks.append(int(play.start_choice(st, R, 0, ids, sc, rs, np.uint64(0))))
    L = 5
    _uniform(picks, [e * L + 3 for e in range(12)])


def test_alternative_setup_first_block_goes_to_a_uniform_tower():
    """The first block of the Alternative Setup: every tower is as good (no join chance
    yet at the bottom level) for White's greedy bot, so its tower is uniform over the
    nine (a tie broken by tower number would always pick tower 0)."""
    from tests.test_maya_setup import boards
    n = 900
    b, _ = boards(count=n, seed=3, turns=True, setup="turns", bots="greedy,greedy")
    towers = []
    for g in range(n):
        first_colour = Stream.substream(3, g, SETUP, 0).rand_int(9)   # the first block drawn
        towers.append(int(np.flatnonzero(b[g, :, 0] == first_colour)[0]))
    _uniform(towers, list(range(9)))


# --------------------------------------------------------------------------- chance
def run(players, bots, count, seed=5, first_game=0, **rules):
    ctx = GAME.prepare(GAME.resolve_rules(rules), players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return GAME.play_chunk(ctx, players, seed, first_game, count, ids, par)


@pytest.mark.parametrize("setup", ["uniform", "turns"])
def test_the_board_is_the_same_in_every_arm(setup):
    """The board of game i does not move when the start rule, the Raven, the bots (uniform
    set-up: the Alternative Setup's placements are the bots' own), the horizon or its
    scoring change, nor (3-4 players) the points and the bonus."""
    base = run(2, "random", 300, setup=setup)["board_key"]
    assert len(set(base.tolist())) == 300            # a different board every game
    arms = [dict(start="random"), dict(raven=False), dict(horizon=20),
            dict(horizon_result="draw", horizon=40), dict(ladders=3, priests=1)]
    for arm in arms:
        assert (run(2, "random", 300, setup=setup, **arm)["board_key"] == base).all(), arm
    if setup == "uniform":
        assert (run(2, "greedy,search:depth=1", 40, horizon=30)["board_key"] == base[:40]).all()
        assert (run(2, "random,greedy", 40, horizon=30)["board_key"] == base[:40]).all()
    for players in (3, 4):
        base = run(players, "random", 200, setup=setup)["board_key"]
        for arm in (dict(points="2,4,8,20"), dict(centre_bonus=0), dict(horizon=25)):
            assert (run(players, "random", 200, setup=setup, **arm)["board_key"] == base).all()
        if setup == "uniform":
            assert (run(players, "greedy", 20, horizon=20)["board_key"] == base[:20]).all()


def test_the_random_start_does_not_depend_on_the_set_up():
    """start=random draws the Monolith and the Raven from their own substream: the same
    start whichever set-up built the board (the uniform set-up's rejection sampling uses a
    varying number of draws, so with one chance stream the starts would differ), and
    whatever the bots."""
    a = run(2, "random", 400, start="random")
    b = run(2, "random", 400, start="random", setup="turns")
    c = run(2, "greedy,random", 60, start="random", horizon=10)
    d = run(2, "random", 400, start="random", raven=False)
    assert (a["board_key"] != b["board_key"]).all()
    for col in ("monolith_start", "raven_start"):
        assert (a[col] == b[col]).all()
        assert (a[col][:60] == c[col]).all()
    # the draw itself: one uniform option of the 60 (12 edges x 5 Raven levels) on the
    # game's (SETUP, 1) substream
    for g in range(400):
        o = Stream.substream(5, g, SETUP, 1).rand_int(60)
        assert (a["monolith_start"][g], a["raven_start"][g]) == (o // 5, o % 5 + 1)
        assert d["monolith_start"][g] == Stream.substream(5, g, SETUP, 1).rand_int(12)
    assert len(set(a["monolith_start"].tolist())) == 12


@pytest.mark.parametrize("players", [3, 4])
def test_task_deal_is_one_key_per_colour(players):
    """The deal of game i: the colours other than the centre's, in the order of their keys
    (item_key(base, DECK, colour)), two per seat.  So whichever colour the board puts at the
    centre, the other colours keep their order: changing the board moves at most the cards
    around the colour set aside."""
    R = _ctx(players)
    X = maya_state.new_scratch(9).x
    cards = X[maya_state.X_CARDS]
    keys = np.zeros(16, np.uint64)
    seen = set()
    for g in range(50):
        order = py_keyed_order(py_game_base(9, g), DECK, list(range(9)))
        for centre in range(9):
            towers = [[(t + lev) % 9 for lev in range(5)] for t in range(9)]
            towers = [towers[(t - 4 + centre) % 9] for t in range(9)]   # centre bottom = centre
            st = state(towers, R)
            assert maya_state.nib(st.tw[4], 0) == centre
            maya_setup.deal_tasks(st, R, np.uint64(py_game_base(9, g)), X, keys)
            want = [x for x in order if x != centre][:2 * players]
            assert cards[:2 * players].tolist() == want
        seen.add(tuple(order[:2]))
    assert len(seen) > 30                                  # the deal varies with the game


# --------------------------------------------------------------------------- names
def test_names():
    assert GAME.seat_names(2) == ["White", "Black"]
    assert GAME.seat_names(4) == ["North", "East", "South", "West"]
    assert GAME.resolve_rules({"capped": "draw"})["horizon_result"] == "draw"
    with pytest.raises(ParamError):
        GAME.resolve_rules({"capped": "draw", "horizon_result": "score"})
    p = {q.name: q for q in GAME.params}
    assert p["horizon"].role == "horizon" and p["board"].role == "data"
    assert p["setup"].role == "variant"
    assert {n for n, q in p.items() if q.role == "reading"} == {
        "horizon_result", "start", "ladder_spaces", "ladders", "priests"}
    assert GAME.version == 7   # 7: the three/four-player search bot is Monte Carlo search


def test_white_moves_first_in_every_two_player_game():
    a = run(2, "random", 50, horizon=1)
    assert (a["first_player"] == 0).all()
    # three/four players still rotate the first seat by game
    for players in (3, 4):
        b = run(players, "random", 50, first_game=7, horizon=1)
        assert (b["first_player"] == (np.arange(7, 57) % players)).all()
        assert (run(players, "random", 20, horizon=1, first="seat0")["first_player"] == 0).all()
