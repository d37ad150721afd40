"""``sim/games/puluc/show.py`` on recorded games: the narration names every cast in order
with its value, every move, capture, kill and forfeit the record holds, and ends with the
result the columns give; the text board shows every warrior of every snapshot."""
from __future__ import annotations

import re

import pytest

from sim.games.puluc import GAME, show
from sim.games.puluc.actions import EV_CAST, EV_FORFEIT, EV_MOVE
from sim.games.puluc.state import unpack_snapshot
from sim.record import record_run

NAMES = ["Jade", "Cinnabar"]
MOVE_WORDS = ("deploys", "advances", "drags", "carries", "leaves the track")


@pytest.fixture(scope="module")
def games():
    out = record_run("puluc", range(6), bots="greedy,random", seed=5)
    out += record_run("puluc", range(3), rules={"drag": "reverse", "entry": "cast"},
                      bots="search:depth=1,greedy", seed=2)
    out += record_run("puluc", [0], rules={"horizon": 15}, seed=1)     # stopped by the horizon
    return out


def test_narration_follows_the_record(games):
    for r in games:
        lines = show.narrate(r, NAMES)
        cols = r.columns
        assert "Jade (" in lines[0] and "Cinnabar (" in lines[0]
        body = lines[1:-1]
        casts = [ev for ev in r.events if ev[0] == EV_CAST]
        actions = [ev for ev in r.events if ev[0] != EV_CAST]
        assert len(body) == len(casts) == len(actions) == cols["casts"]
        for k, (line, cast, act) in enumerate(zip(body, casts, actions), start=1):
            m = re.match(r"Cast (\d+): (Jade|Cinnabar) casts the lots, .*?: (\d+) spaces?\. ", line)
            assert m, line
            assert int(m.group(1)) == k and m.group(2) == NAMES[int(cast[2])]
            assert int(m.group(3)) == int(cast[4])
            if act[0] == EV_FORFEIT:
                assert "forfeited" in line and NAMES[int(act[1])] in line
            else:
                assert act[0] == EV_MOVE
                assert any(w in line for w in MOVE_WORDS), line
                assert line.split(". ", 1)[1].startswith(NAMES[int(act[1])]), line
                if act[4]:   # captured
                    assert f"captures {act[4]} {NAMES[1 - int(act[1])]} warrior" in line, line
                if act[6]:   # killed
                    assert f"{act[6]} {NAMES[1 - int(act[1])]} warrior" in line and "killed" in line
        # the kills the narration tells add up to the kills column
        for s in (0, 1):
            told = sum(int(m.group(1)) for line in body if line.split(". ", 1)[1].startswith(NAMES[s])
                       for m in [re.search(r": (\d+) \w+ warriors? killed", line)] if m)
            assert told == cols[f"kills_{s}"]
        w = cols["winner"]
        if w >= 0:
            assert lines[-1].startswith(f"{NAMES[w]} wins") and f"after {cols['casts']} casts" in lines[-1]
        else:
            assert lines[-1].startswith("Draw") and cols["capped"]
    assert any(r.columns["winner"] < 0 for r in games) and any(r.columns["winner"] >= 0 for r in games)


def test_the_board_shows_every_warrior(games):
    numbers_of = {}
    for r in games:
        T = r.rules["track"]
        numbers_of[T] = [str(i) for i in range(1, T + 1)]
        lines_of = dict(enumerate(show.narrate(r, NAMES)))
        actions = [ev for ev in r.events if ev[0] != EV_CAST]
        for row in r.snapshots:
            s = unpack_snapshot(row, T)
            lines = show.draw(row, r, with_text=True).splitlines()
            header, told = lines[0], lines[1]
            assert f"After cast {s['casts']} " in header
            assert f"Jade home {s['home'][0]}, dead {s['dead'][0]}" in header
            assert f"Cinnabar home {s['home'][1]}, dead {s['dead'][1]}" in header
            assert told == lines_of[s["casts"]]          # the narration's line of that cast
            at = next(k for k, line in enumerate(lines) if line.split() == numbers_of[T])
            piles = lines[2:at]
            body = "".join(piles)
            assert body.count("J") == sum(s["count"][0]) and body.count("C") == sum(s["count"][1])
            # each column: the commander on top
            for i in range(T):
                col = "".join(line[3 * i + 1] if len(line) > 3 * i + 1 else " " for line in piles)
                c = s["commander"][i]
                assert col.strip(" ")[:1] == ("." if c < 0 else "JC"[c]), (i, lines)
            # a marker under the space the move landed on
            act = actions[s["casts"] - 1]
            if act[0] == EV_MOVE and act[3] < T:
                assert lines[at + 1] == " " * (3 * int(act[3]) + 1) + "^"
            else:
                assert "^" not in lines[at + 1]
        w = r.columns["winner"]
        if w >= 0:   # the last board: the loser's army is all dead
            W = r.rules["warriors"]
            assert f"{NAMES[1 - w]} home 0, dead {W}" in show.draw(r.snapshots[-1], r)


def test_a_hand_read_game_start():
    (r,) = record_run("puluc", [0], bots="random,random", seed=1)
    lines = show.narrate(r, GAME.seat_names(2))
    first = NAMES[r.columns["first_player"]]
    assert f"{first} casts first" in lines[0]
    # the first cast of a game can only deploy: nothing is on the track yet
    assert f"{first} deploys a warrior onto space {1 if first == 'Jade' else r.rules['track']}" in lines[1]
    assert show.draw(r.snapshots[0], r).startswith(f"After cast 1 ({first} cast)")


def test_sim_show_pairs_each_cast_with_the_board_after_it(games):
    """``turns``: the line of cast k is followed by the track after cast k (snapshot k - 1);
    the introduction and the result have no board."""
    for r in games[:3]:
        pairs = show.turns(r, NAMES)
        assert pairs[0][1] is None and pairs[-1][1] is None
        for text, k in pairs[1:-1]:
            s = unpack_snapshot(r.snapshots[k], r.rules["track"])
            assert text.startswith(f"Cast {s['casts']}:")
        assert [t for t, _ in pairs] == show.narrate(r, NAMES)
