"""Recorded Puluc games: the record is complete (the reference replays it to the same
columns, ``tests/test_replay.py``), and a record that breaks the rules is caught.

Each tampered record below changes one thing the kernel recorded; the replay must refuse it
(:class:`tests.reference.puluc_ref.IllegalAction`) rather than compute columns from it.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.puluc import GAME
from sim.games.puluc.actions import EV_CAST, EV_FORFEIT, EV_MOVE
from sim.record import record_run
from tests.reference import puluc_ref as ref
from tests.test_replay import compare_columns


@pytest.fixture(scope="module")
def game():
    (r,) = record_run("puluc", [3], bots="greedy,random", seed=5)
    return r


def _tampered(r, fn):
    t = type(r)(r.game, r.index, r.seed, r.players, r.rules, r.bots, r.events.copy(),
                None if r.snapshots is None else r.snapshots.copy(), dict(r.columns))
    fn(t)
    return t


def test_the_record_holds_every_cast_and_action(game):
    ev = game.events
    kinds = ev[:, 0]
    casts = int(game.columns["casts"])
    assert (kinds == EV_CAST).sum() == casts
    assert (kinds == EV_MOVE).sum() == game.columns["moves"]
    assert (kinds == EV_FORFEIT).sum() == game.columns["forfeits_0"] + game.columns["forfeits_1"]
    assert len(ev) == 2 * casts and (kinds[::2] == EV_CAST).all()
    assert game.snapshots is not None and len(game.snapshots) == casts
    compare_columns(game.columns, ref.replay(game), "game 3")


def test_recording_changes_no_result():
    """The same games, recorded one at a time and played in one chunk without a record."""
    rules = GAME.resolve_rules({"drag": "reverse"})
    ctx = GAME.prepare(rules, 2)
    ids, par = GAME.bot_arrays(GAME.choose_bots("search:depth=1,greedy", 2))
    out = GAME.play_chunk(ctx, 2, 9, 0, 20, ids, par)
    for r in record_run("puluc", range(20), rules={"drag": "reverse"},
                        bots="search:depth=1,greedy", seed=9):
        for c in ("winner", "casts", "moves", "deepest_pile"):
            assert r.columns[c] == out[c][r.index]
        assert r.columns["kills_1"] == out["kills"][r.index, 1]


def _first(r, kind):
    return int(np.flatnonzero(r.events[:, 0] == kind)[0])


def test_an_illegal_move_is_refused(game):
    def bad_pile(t):
        k = _first(t, EV_MOVE)
        side = int(t.events[k, 1])
        T = t.rules["track"]
        # a space the mover does not command: its enemy's entry space is empty at the start
        t.events[k, 2] = T - 1 if side == 0 else 0
    with pytest.raises(ref.IllegalAction):
        ref.replay(_tampered(game, bad_pile))


def test_a_wrong_cast_is_refused(game):
    def other_cast(t):
        k = _first(t, EV_CAST)
        t.events[k, 4] = 1 + t.events[k, 4] % 5
    with pytest.raises(ref.IllegalAction):
        ref.replay(_tampered(game, other_cast))


def test_a_forfeit_with_a_legal_move_is_refused(game):
    def forfeit(t):
        k = _first(t, EV_MOVE)
        spaces = int(t.events[k - 1, 4])
        t.events[k] = [EV_FORFEIT, t.events[k, 1], spaces, 0, 0, 0, 0, 0]
    with pytest.raises(ref.IllegalAction):
        ref.replay(_tampered(game, forfeit))


def test_a_wrong_capture_count_or_snapshot_or_a_short_record_is_refused(game):
    def more_captured(t):
        t.events[_first(t, EV_MOVE), 4] += 1
    def moved_board(t):
        t.snapshots[0, 0] = 1 - t.snapshots[0, 0]
    def cut(t):
        t.events = t.events[:-1]
    for fn in (more_captured, moved_board, cut):
        with pytest.raises(ref.IllegalAction):
            ref.replay(_tampered(game, fn))
