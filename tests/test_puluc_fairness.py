"""Verdicts a designer can trust: the bots break exact ties on their own streams, the casts
come from the game's own DICE substream, and the parameters carry one name per concept.

* Ties: on hand-built positions with two equally good moves, each bot plays each of them
  in roughly half of the games (the tie-break stream is the bot's, ``1 + seat``), one
  draw per tie.  Before version 2 the first move of
  the list always won.
* Chance: the casts of game *i* are the DICE substream (seed, i) read lot by lot,
  whatever the bots do, and a shorter horizon changes no game that ended before it.
* Names: ``horizon`` (old name ``cap`` still accepted), readings and variants tagged.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.puluc import GAME
from sim.games.puluc.bots import greedy as G
from sim.games.puluc.bots import search as SB
from sim.games.puluc.cast import seed_game
from sim.games.puluc.actions import EV_CAST
from sim.params import ParamError
from sim.record import record_run
from sim.rng import DICE, Stream
from tests.reference import puluc_ref as ref
from tests.test_puluc_invariants import kernel_steps
from tests.test_puluc_rules import J, _choose, board, legal, rules

GAMES = 400  # tie-break seeds per test: a fair coin gives 200 +- 10


def _both_ways(picks, a, b):
    """Every pick is one of the two tied moves, each about half the time (within 5 sd)."""
    assert set(picks) <= {a, b}, set(picks)
    k = picks.count(a)
    assert abs(k - len(picks) / 2) < 5 * (len(picks) / 4) ** 0.5, (k, len(picks))


# --------------------------------------------------------------------------- ties
def test_greedy_breaks_an_exact_tie_on_its_own_stream():
    R = rules(track=20)
    # space: 1 2   3  4 ... 11 12  13  ...
    #        J .  JCC .  ... J  .  JJC ...     cast 2
    # the warrior on 1 takes a pile of 2 Cinnabar + 1 Jade prisoner: 1 + 200 + 90 = 291;
    # the warrior on 11 takes a pile of 1 Cinnabar + 2 Jade prisoners: 11 + 100 + 180 = 291
    st = board("J . JCC . . . . . . . J . JJC . . . . . . .")
    assert legal(st, R, J, 2) == [0, 10]
    assert G.greedy_score(st, R, J, 0, 2) == G.greedy_score(st, R, J, 10, 2) == 291
    picks = [_choose(st, R, J, 2, "greedy", game=g) for g in range(GAMES)]
    _both_ways(picks, 0, 10)
    # one draw (a uniform choice of 2), on the bot's own stream and no other
    moves = np.array([0, 10, 0], np.int64)
    for g in range(40):
        stream = Stream(0, g, 1 + J)
        assert [0, 10][1 - stream.rand_int(2)] == picks[g]  # the 2nd tied move wins on a 0
        seed_game(st, np.uint64(0), np.int64(g))
        G.greedy_choice(st, R, J, 2, moves, 2)
        assert int(st["streams"][1 + J]) == stream.state   # one draw, on the bot's own stream
    # no tie, no draw: a strictly better move is played whatever the stream
    st2 = board("J . JCC . . . . . . . J . JC . . . . . . .")     # 291 against 201
    assert {_choose(st2, R, J, 2, "greedy", game=g) for g in range(50)} == {0}


@pytest.mark.parametrize("depth", [1, 2])
def test_search_breaks_an_exact_tie_on_its_own_stream(depth):
    R = rules()
    # . J . J . . . . . . .   cast 1, Cinnabar all at home: advancing either warrior gains
    # the same progress and leaves Cinnabar the same replies (a deployment on space 11);
    # deploying gains less
    st = board(". J . J . . . . . . .")
    assert legal(st, R, J, 1) == [11, 1, 3]
    picks = [_choose(st, R, J, 1, "search", depth, game=g) for g in range(GAMES)]
    _both_ways(picks, 1, 3)


def test_search_tie_tolerance():
    # exact ties: |a - b| <= 1e-9 max(1, |b|)
    cases = [(1000.0, 1000.0 + 5e-7, True), (1000.0, 1000.0 + 2e-6, False),
             (0.0, 5e-10, True), (0.0, 2e-9, False), (-3e9, -3e9 + 2.0, True),
             (-3e9, -3e9 + 4.0, False), (7.25, 7.25, True)]
    for a, b, tie in cases:
        assert bool(SB.same_value(a, b)) == tie, (a, b)


def test_greedy_three_way_tie_is_uniform():
    """Three moves of equal score: each played in about a third of 900 games (the reservoir
    tie-break: the k-th equal move replaces the pick with probability 1/k)."""
    R = rules(track=30, warriors=9)
    # Jade warriors on 1, 11 and 21, cast 2, onto Cinnabar piles holding 1, 2 and 3 Jade
    # prisoners under 3, 2 and 1 Cinnabar warriors: 1 + 390 = 11 + 380 = 21 + 370
    cells = ["."] * 30
    cells[0], cells[10], cells[20] = "J", "J", "J"
    cells[2], cells[12], cells[22] = "JCCC", "JJCC", "JJJC"
    st = board(" ".join(cells), warriors=9)
    assert legal(st, R, J, 2) == [0, 10, 20]
    assert {int(G.greedy_score(st, R, J, m, 2)) for m in (0, 10, 20)} == {391}
    n = 900
    picks = [_choose(st, R, J, 2, "greedy", seed=4, game=g) for g in range(n)]
    for m in (0, 10, 20):
        assert abs(picks.count(m) - n / 3) < 5 * (n * 2 / 9) ** 0.5, (m, picks.count(m))


# --------------------------------------------------------------------------- chance
def _casts_from_substream(seed, g, resolved, n):
    chance = Stream.substream(seed, g, DICE, 0)
    rr = ref.Rules(resolved)
    return [ref.cast_lots(chance, rr) for _ in range(n)]


@pytest.mark.parametrize("rules_kw", [{}, {"lots": 6, "lot_p": 0.4}, {"casts_per_turn": 2}])
def test_casts_are_the_dice_substream_whatever_the_bots(rules_kw):
    resolved = GAME.resolve_rules(rules_kw)
    for g in (0, 1, 7, 10**9 + 3):
        seqs = []
        for bots in ("random,random", "greedy,search", "search:depth=1,random"):
            (r,) = record_run("puluc", [g], rules=rules_kw, bots=bots, seed=11)
            seqs.append([int(ev[4]) for ev in r.events if ev[0] == EV_CAST])
        # the kernel, one cast at a time, reads the same substream
        seqs.append([s["cast"] for s in kernel_steps(11, g, rules_kw, "greedy,random")])
        want = _casts_from_substream(11, g, resolved, max(len(s) for s in seqs))
        for s in seqs:
            assert s == want[:len(s)]
        assert len({len(s) for s in seqs}) > 1      # the games differ, the casts do not


def test_a_shorter_horizon_changes_no_game_that_ended_before_it():
    def run(horizon, bots, count):
        ctx = GAME.prepare(GAME.resolve_rules({"horizon": horizon}), 2)
        ids, par = GAME.bot_arrays(GAME.choose_bots(bots, 2))
        return GAME.play_chunk(ctx, 2, 21, 0, count, ids, par)

    for bots, count in (("random,random", 3000), ("greedy,search:depth=1", 300),
                        ("search,greedy", 60)):
        long, short = run(240, bots, count), run(60, bots, count)
        ended = ~short["capped"]
        assert 0 < ended.sum() < count
        for c in long:
            assert np.array_equal(np.asarray(long[c])[ended], np.asarray(short[c])[ended]), (bots, c)
        assert (short["casts"][~ended] == 60).all() and (long["casts"][~ended] >= 60).all()


# --------------------------------------------------------------------------- names
def test_horizon_is_the_name_and_cap_an_alias():
    assert GAME.resolve_rules({"cap": 77})["horizon"] == 77
    assert GAME.resolve_rules({"horizon": 77}) == GAME.resolve_rules({"cap": 77})
    with pytest.raises(ParamError):
        GAME.resolve_rules({"cap": 77, "horizon": 77})
    p = {q.name: q for q in GAME.params}
    assert p["horizon"].role == "horizon"
    assert {n for n, q in p.items() if q.role == "reading"} == {"lot_p", "entry", "exit", "stack_own"}
    assert {n for n, q in p.items() if q.role == "variant"} == {"track", "drag"}
    assert p["lot_p"].other_readings() == (0.45, 0.55)
    assert GAME.version == 2
