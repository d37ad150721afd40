"""The replay refuses a record the rules or the streams do not allow: an illegal exchange,
an exchange by the wrong seat, a board chance did not draw, a missing decision."""
import dataclasses

import pytest

from sim.games.maya import GAME
from sim.record import record_run
from tests.reference import maya_ref as ref

CODE = {a.name: a.code for a in GAME.actions}


def _tampered(rec, change):
    ev = rec.events.copy()
    change(ev)
    return dataclasses.replace(rec, events=ev)


def _first(rec, name):
    return next(i for i, e in enumerate(rec.events) if e[0] == CODE[name])


@pytest.fixture(scope="module")
def rec():
    return record_run("maya", [0], bots="greedy,random", players=2, rules={"horizon": 20})[0]


def test_the_untouched_record_replays(rec):
    assert ref.replay(rec)["exchanges"] == rec.columns["exchanges"]


def test_an_exchange_at_a_level_the_rules_forbid_is_refused(rec):
    i = _first(rec, "exchange")

    def bottom(ev):
        ev[i, 3] = 1          # level 1: the foundations never move
    with pytest.raises(ref.IllegalAction):
        ref.replay(_tampered(rec, bottom))


def test_an_exchange_by_the_wrong_seat_is_refused(rec):
    i = _first(rec, "exchange")

    def other(ev):
        ev[i, 1] = 1 - ev[i, 1]
    with pytest.raises(ref.IllegalAction):
        ref.replay(_tampered(rec, other))


def test_a_board_chance_did_not_draw_is_refused(rec):
    i = _first(rec, "board")

    def swap(ev):
        ev[i, 3] ^= 0x11      # two levels' colours changed
    with pytest.raises(ref.IllegalAction):
        ref.replay(_tampered(rec, swap))


def test_a_record_cut_short_is_refused(rec):
    with pytest.raises(ref.IllegalAction):
        ref.replay(dataclasses.replace(rec, events=rec.events[:-1]))
