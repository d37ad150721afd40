"""Recorded Maya games: the record plays the same game as a normal run, and ``show.py``
tells it in order (every placement, start, deal, exchange and declaration) and names the
winner the columns name."""
import re

import numpy as np
import pytest

from sim.games.maya import GAME, show
from sim.record import record_run
from sim.results import seat_column


def test_a_recorded_game_is_the_same_game_as_in_a_normal_run():
    # two random bots take a faster loop when nothing is recorded: the same games
    for bots, rules in (("random", {}), ("greedy,random", {"horizon": 20}),
                        ("random", {"setup": "turns", "start": "random"})):
        recs = record_run("maya", range(6), rules=rules, bots=bots, players=2, seed=4)
        r = GAME.resolve_rules(rules)
        ids, par = GAME.bot_arrays(GAME.choose_bots(bots, 2))
        cols = GAME.run_chunk(GAME.prepare(r, 2), 2, 4, 0, 6, ids, par)
        for rec in recs:
            for c in GAME.all_columns():
                v = np.asarray(cols[c.name])[rec.index]
                if c.per_seat:
                    for s in range(2):
                        assert rec.columns[seat_column(c.name, s)] == v[s].item(), c.name
                else:
                    assert rec.columns[c.name] == v.item(), c.name
        # one snapshot at the start and one after each exchange
        assert all(len(rec.snapshots) == rec.columns["exchanges"] + 1 for rec in recs)


def _kinds(rec):
    names = {a.code: a.name for a in GAME.actions}
    return [names[int(e[0])] for e in rec.events]


@pytest.mark.parametrize("players,bots,rules", [
    (2, "greedy,random", {"horizon": 40}),
    (2, "random,greedy", {"setup": "turns", "horizon": 12}),
    (3, "greedy,random,random", {}),
    (4, "random", {"horizon": 60}),
])
def test_narrate_tells_every_action_in_order_and_names_the_winner(players, bots, rules):
    names = GAME.seat_names(players)
    for rec in record_run("maya", range(3), rules=rules, bots=bots, players=players, seed=7):
        lines = show.narrate(rec, names)
        text = "\n".join(lines)
        # every exchange, in order, by the seat that made it
        pos = 0
        kinds = _kinds(rec)
        ex = [e for e, kind in zip(rec.events, kinds) if kind == "exchange"]
        for k, e in enumerate(ex, 1):
            want = (f"Turn {k}: {names[int(e[1])]} exchanges the blocks of towers "
                    f"{show.tower_name(e[4])} and {show.tower_name(e[5])} from level {int(e[3])} up")
            at = text.find(want, pos)
            assert at >= 0, want
            pos = at
        assert text.count("puts it on tower") == kinds.count("place")
        assert text.count("places the Monolith") == kinds.count("start") == (players == 2)
        assert text.count("is dealt the task cards") == kinds.count("deal")
        assert text.count("declares the end") == kinds.count("declare")
        assert text.count("could declare the end and plays on") == kinds.count("play_on")
        assert lines[-3].startswith(f"The game ends after {rec.columns['exchanges']} exchanges")
        side = rec.columns["team_winner"]
        if side >= 0 and players < 4:
            assert lines[-1].startswith(f"{names[side]} wins")
        elif side >= 0:
            assert lines[-1].startswith(f"{names[side]} and {names[side + 2]} win")
        else:
            assert "no winner" in lines[-1] or "shared" in lines[-1] or "share" in lines[-1]


def test_draw_shows_the_towers_as_the_snapshot_holds_them():
    rec = record_run("maya", [0], bots="greedy,random", players=2, rules={"horizon": 10})[0]
    colours = show._colours(rec)
    last = show.draw(rec.snapshots[-1], rec)
    for t in range(9):
        assert show.tower_name(t) in last
    st = rec.snapshots[-1]
    top = [colours[(int(st[t]) >> 16) & 15] for t in range(3)]   # level 5 of towers A-C
    row = [line for line in last.splitlines() if line.startswith("5 ")][0]
    assert re.findall(r"5 (\w+)", row) == top
    assert "Monolith between towers" in last
