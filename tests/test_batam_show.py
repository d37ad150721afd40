"""``sim show batam``: a recorded game told in the rulebook's words and drawn on the map."""
from __future__ import annotations

import numpy as np
import pytest

from sim.games import get
from sim.games.batam import show
from sim.games.batam import state as S
from sim.record import record_run

NAMES = ["Red", "Blue", "Green", "Yellow"]


def in_order(lines, needles):
    """Each needle is found in a later line than the one before (or the same)."""
    i = 0
    for n in needles:
        while i < len(lines) and n not in lines[i]:
            i += 1
        assert i < len(lines), f"{n!r} missing (or out of order) in the narration"
    return True


@pytest.mark.parametrize("rules,bots", [({}, "heuristic,random,hunter,gambler"),
                                        ({"compass": "cards"}, "random,heuristic,plodder,miser")])
def test_narration_follows_the_record_and_names_the_winner(rules, bots):
    game = get("batam")
    for r in record_run("batam", range(3), rules=rules, bots=bots, players=4, seed=11):
        lines = show.narrate(r, NAMES)
        ev = r.events
        wanted = []
        for e in ev:
            k, a, f = int(e[0]), int(e[1]), [int(x) for x in e[2:]]
            if k == S.E_ROUND:
                wanted.append(f"Round {f[0]} ")
            elif k == S.E_WAGES:
                wanted.append(f"{NAMES[a]} offers wages: {f[0]} for the captain, {f[1]} for the sailor")
            elif k == S.E_PLACE:
                wanted.append(f"{NAMES[a]} places a {f[1]} on {NAMES[f[2]]}'s board")
            elif k == S.E_SELL:
                wanted.append(f"{NAMES[a]} sells a goods cube on ")
            elif k == S.E_CARD:
                wanted.append(f"{NAMES[f[3]]} draws a compass card")
        assert in_order(lines, wanted)
        assert sum("sails" in x for x in lines) >= 1
        w = r.columns["winner"]
        assert lines[-1].startswith(f"Winner: {NAMES[w]}" if w >= 0 else "No single winner")
        assert f"{NAMES[0]} {r.columns['coins_0']} coins" in lines[-1]
        assert len({a.code for a in game.actions}) == len(game.actions)


def test_board_drawing_shows_the_ships_and_the_money():
    r = record_run("batam", [2], bots="heuristic", players=3, seed=5)[0]
    assert r.snapshots is not None and len(r.snapshots) > 3
    last = r.snapshots[-1]
    text = show.draw(last, r)
    rows = text.splitlines()
    for s in range(3):
        assert f"{NAMES[s]} ({NAMES[s][0].lower()}) {int(last[S.O_COINS + s])} coins" in rows[-1]
    board = "\n".join(rows[:-1])
    assert sum(board.count(c) for c in "rbg") + sum(int(c) for c in board if c.isdigit()) == 3
    # one snapshot per voyage: every seat sails once a round
    assert len(r.snapshots) == 3 * r.columns["rounds"]
    assert np.all(r.snapshots[:, S.O_POS:S.O_POS + 3] >= 0)
