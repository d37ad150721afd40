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
        cols = GAME.play_chunk(GAME.prepare(r, 2), 2, 4, 0, 6, ids, par)
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


# ------------------------------------------------------------------ sim show: numbering, the page's SVG
def _blocks(svg_text, rows, cols, L):
    """(tower, level 0..L-1) -> colour name, read back from a Maya SVG's block paths: the
    columns of towers by x, and the rows of blocks by y (top to bottom: row of towers, then
    level L-1 down to 0)."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(svg_text)
    at = []
    for p in root.iter("{http://www.w3.org/2000/svg}path"):
        if p.get("class") == "blocks":
            for x, y in re.findall(r"M(\d+) (\d+)h", p.get("d")):
                at.append((int(x), int(y), p.get("data-colour")))
    xs, ys = sorted({x for x, _, _ in at}), sorted({y for _, y, _ in at})
    assert len(xs) == cols and len(ys) == rows * L
    out = {}
    for x, y, colour in at:
        i = ys.index(y)
        tower = (i // L) * cols + xs.index(x)
        out[(tower, L - 1 - i % L)] = colour
    assert len(out) == len(at) == rows * cols * L
    return out


@pytest.mark.parametrize("players,rules", [(2, {"horizon": 30}), (4, {"horizon": 20})])
def test_the_page_draws_every_board_as_svg_and_numbers_the_turns(players, rules, tmp_path):
    """`sim show maya --html`: one SVG per board (the set-up and after each exchange), each
    well-formed, its blocks the snapshot's colours tower by tower and level by level; the
    turns numbered as the narration numbers them (the set-up is not a turn)."""
    from analysis.show import show_game, show_text, write_show_page
    s = show_game(GAME, 3, 1, rules=rules, players=players)
    rec = s.record
    path = tmp_path / "m.html"
    write_show_page(s, path)
    html = path.read_text()
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    assert len(svgs) == len(rec.snapshots) == rec.columns["exchanges"] + 1
    rows, cols, L = show._shape(rec)
    colours = show._colours(rec)
    for st, svg_text in zip(rec.snapshots, svgs):
        assert svg_text == show.svg(st, rec)
        got = _blocks(svg_text, rows, cols, L)
        assert got == {(t, lev): colours[(int(st[t]) >> (4 * lev)) & 15]
                       for t in range(rows * cols) for lev in range(L)}
        if players == 2:
            assert f"Raven at level {int(st[show.RAV]) + 1}" in svg_text
            ladders = re.findall(r">ladders (\d+)/(\d+)<", svg_text)
            assert ladders == [(str(int(st[show.LAD + 2 * t])), str(int(st[show.LAD + 2 * t + 1])))
                               for t in range(rows * cols)]
            assert svg_text.count('class="priest"') == int(np.sum(st[show.PR:show.PR + rows * cols] >= 0))
        else:
            assert "ladders" not in svg_text and "Raven" not in svg_text
        assert ('class="monolith"' in svg_text) == (st[show.MA] >= 0)
        assert svg_text.count(" done</text>") == int(np.sum(st[show.CUT:show.CUT + rows * cols] == 0))
    # the numbering: turn k is step k, in the terminal and on the page
    n = rec.columns["exchanges"]
    text = show_text(s)
    numbered = re.findall(r"^ *(\d+)\. (.*)$", text, re.M)
    assert [int(k) for k, _ in numbered] == list(range(1, n + 1))
    assert all(line.startswith(f"Turn {k}: ") for k, line in numbered)
    assert "      The towers are built at random" in text
    heads = re.findall(r'<section class="turn" id="turn-(\d+)">\s*<h3>(.*?)</h3>', html)
    assert heads == [(str(k), f"Turn {k}") for k in range(1, n + 1)]
    intro = re.search(r'<section class="intro" id="intro">(.*?)</section>', html, re.S).group(1)
    assert intro.count("<svg") == 1 and "The towers are built at random" in intro   # the board as set up
    result = re.search(r'<section class="result" id="result">(.*?)</section>', html, re.S).group(1)
    assert f"The game ends after {n} exchanges" in result and "<svg" not in result


def test_steps_number_the_exchanges_only():
    lines = ["The towers are built", "  tower A: red", "Black places the Monolith", "Turn 1: White x",
             "Black could declare the end and plays on.", "Turn 2: Black y", "White declares the end of the game.",
             "The game ends after 2 exchanges: a player declared the end.", "Score: White 5, Black 2.",
             "White wins."]
    assert show.steps(lines) == [None, None, None, 1, 0, 2, 0, None, None, None]
