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
        assert f"{NAMES[s]} ({NAMES[s][0].lower()}) {int(last[S.SNAP_COINS + s])} coins" in rows[-1]
    board = "\n".join(rows[:-1])
    assert sum(board.count(c) for c in "rbg") + sum(int(c) for c in board if c.isdigit()) == 3
    # one snapshot per voyage: every seat sails once a round
    assert len(r.snapshots) == 3 * r.columns["rounds"]
    assert np.all(r.snapshots[:, S.SNAP_POS:S.SNAP_POS + 3] >= 0)


# ------------------------------------------------------------------ sim show: numbering, the page's SVG
@pytest.mark.parametrize("players,rules", [(3, {}), (4, {"compass": "cards"})])
def test_the_page_draws_the_map_after_each_voyage_as_svg_and_numbers_the_rounds(players, rules, tmp_path):
    """`sim show batam --html`: one SVG per voyage (each snapshot), each well-formed, every
    seat's ship once on the space the snapshot holds, the coins and goods of each seat and
    (compass tiles) a hollow ring where a tile was taken; the rounds numbered as the
    narration numbers them (the set-up and the result are not numbered)."""
    import re
    import xml.etree.ElementTree as ET

    from analysis.show import show_game, show_text, write_show_page
    s = show_game(get("batam"), 5, 1, rules=rules, players=players)
    rec = s.record
    path = tmp_path / "b.html"
    write_show_page(s, path)
    html = path.read_text()
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    assert len(svgs) == len(rec.snapshots) == players * rec.columns["rounds"]
    b = show._load(rec)["board"]
    ns = "{http://www.w3.org/2000/svg}"
    comp = [v for v in range(len(b.kind)) if int(b.kind[v]) == show.DATA.COMPASS]
    for row, svg_text in zip(rec.snapshots, svgs):
        assert svg_text == show.svg(row, rec)
        root = ET.fromstring(svg_text)
        ships = [c for c in root.iter(f"{ns}circle") if (c.get("class") or "").startswith("ship ")]
        assert sorted(c.get("class") for c in ships) == [f"ship s{p}" for p in range(players)]
        cs = 18
        for c in ships:
            p = int(c.get("class")[6:])
            cell = (int(float(c.get("cy"))) // cs, int(float(c.get("cx"))) // cs)
            assert cell == tuple(b.cells[int(row[S.SNAP_POS + p])]), (p, cell)
        for p in range(players):
            assert (f">{NAMES[p]} {int(row[S.SNAP_COINS + p])} coins, {int(row[S.SNAP_GOODS + p])} goods<"
                    in svg_text)
        taken = [c for c in root.iter(f"{ns}circle") if c.get("class") == "compass taken"]
        want = sum(int(row[S.SNAP_TILE + k]) < 0 for k in range(len(comp))) if rules.get("compass") != "cards" else 0
        assert len(taken) == want
        assert len([c for c in root.iter(f"{ns}circle") if (c.get("class") or "").startswith("compass")]) == len(comp)
    n = rec.columns["rounds"]
    numbered = re.findall(r"^ *(\d+)\. (.*)$", show_text(s), re.M)
    assert [int(k) for k, _ in numbered] == list(range(1, n + 1))
    assert all(line.startswith(f"Round {k} (crew row: ") for k, line in numbered)
    heads = re.findall(r'<section class="turn" id="turn-(\d+)">\s*<h3>(.*?)</h3>', html)
    assert heads == [(str(k), f"Round {k}") for k in range(1, n + 1)]
    intro = re.search(r'<section class="intro" id="intro">(.*?)</section>', html, re.S).group(1)
    assert "Setup: " in intro and "Round 1" not in intro
    result = re.search(r'<section class="result" id="result">(.*?)</section>', html, re.S).group(1)
    assert "The game ends after " in result and ("Winner: " in result or "No single winner" in result)
