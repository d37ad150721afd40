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


# ------------------------------------------------------------------ sim show: numbering, the page's SVG
def _svgs(html: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", html, re.S)


def _piles(svg_text: str) -> dict:
    """space -> (commander, [side of each disc, bottom up], label) from a Puluc SVG."""
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(svg_text)
    out = {}
    for g in root.iter(f"{ns}g"):
        if g.get("class") != "pile":
            continue
        discs = sorted(g.iter(f"{ns}circle"), key=lambda c: -int(c.get("cy")))     # bottom up
        label = [t.text for t in g.iter(f"{ns}text") if t.text and t.text[0].isdigit()]
        out[int(g.get("data-space"))] = (int(g.get("data-commander")),
                                         [int(c.get("class")[1:]) for c in discs], label)
    return out


@pytest.fixture(scope="module")
def shown_page(tmp_path_factory):
    from analysis.show import show_game, show_text, write_show_page
    s = show_game(GAME, 1, 0)                       # sim show puluc --seed 1 --game 0
    path = tmp_path_factory.mktemp("show") / "p.html"
    write_show_page(s, path)
    return s, show_text(s), path.read_text()


def test_the_casts_are_numbered_as_the_game_numbers_them(shown_page):
    """The introduction and the result are not numbered: cast k is step k, in the terminal
    and on the page (the introduction once took "Turn 1", so "Cast 1" was "Turn 2")."""
    s, text, html = shown_page
    casts = int(s.record.columns["casts"])
    numbered = re.findall(r"^ *(\d+)\. (.*)$", text, re.M)
    assert [int(k) for k, _ in numbered] == list(range(1, casts + 1))
    assert all(line.startswith(f"Cast {k}: ") for k, line in numbered)
    lines = text.splitlines()
    assert lines[3].startswith("      Puluc game 0 (seed 1): Jade")           # the introduction, no number
    assert lines[4].startswith("   1. Cast 1: Jade casts the lots")
    assert any(line == "      " + s.turns[-1].text for line in lines)       # the result, no number
    assert s.turns[-1].text.startswith("Jade wins") and s.turns[-1].step is None
    # the page: one section per cast, "Cast k" heading the section of cast k (anchor turn-k)
    sections = re.findall(r'<section class="turn" id="turn-(\d+)">\s*<h3>(.*?)</h3>\s*<p>(.*?)</p>', html)
    assert [int(k) for k, _, _ in sections] == list(range(1, casts + 1))
    assert all(h == f"Cast {k}" and p.startswith(f"Cast {k}: ") for k, h, p in sections)
    assert "Turn 1" not in html and "Turn " not in re.sub(r"<[^>]+>", "", html)
    intro = re.search(r'<section class="intro" id="intro">(.*?)</section>', html, re.S).group(1)
    assert "Puluc game 0 (seed 1)" in intro and "<svg" not in intro
    result = re.search(r'<section class="result" id="result">(.*?)</section>', html, re.S).group(1)
    assert "Jade wins: all 5 Cinnabar warriors killed" in result
    assert f"step 1 of {casts}" in html
    assert show.steps(show.narrate(s.record, NAMES)) == [None] + list(range(1, casts + 1)) + [None]


def test_the_page_draws_the_track_after_each_cast_as_svg(shown_page):
    """One SVG per cast, each well-formed XML, in the section of its cast, with its text
    board beside it "as text"; without a script every turn is visible (none hidden)."""
    import xml.etree.ElementTree as ET
    s, _, html = shown_page
    casts = int(s.record.columns["casts"])
    svgs = _svgs(html)
    assert len(svgs) == casts == len(s.record.snapshots)
    for k, (body, svg_text) in enumerate(zip(re.split(r'<section class="turn" id="turn-\d+">', html)[1:], svgs), 1):
        assert body.count("<svg") == 1 and svg_text in body
        root = ET.fromstring(svg_text)
        assert root.get("viewBox") and root.find("{http://www.w3.org/2000/svg}title").text.startswith(
            f"After cast {k} (")
        assert "<script" not in svg_text and "href" not in svg_text
        assert "<details><summary>as text</summary><pre class=\"board\">" in body
        assert f"After cast {k} (" in body.split("<details>")[1]
    assert 'class="turn off"' not in html                     # hidden only by the page's script
    assert re.search(r'<nav class="steps" id="steps" hidden', html)


def test_a_hand_read_svg_track():
    """Seed 1, game 0, after cast 30 (Cinnabar advanced from space 9 to 6), as the text board
    reads: space 1 one Jade warrior; space 5 a Jade commander with 3 Jade warriors over 3
    Cinnabar prisoners; space 6 one Cinnabar warrior (landed on); space 11 a Cinnabar
    warrior over a Jade prisoner; every home and dead count 0."""
    (r,) = record_run("puluc", [0], bots="random,random", seed=1)
    row = r.snapshots[29]
    text = show.draw(row, r)
    assert " J  .  .  .  C  C  .  .  .  .  J" in text.splitlines()      # the record is the hand-read one
    svg_text = show.svg(row, r)
    piles = _piles(svg_text)
    assert piles == {1: (0, [0], ["1J"]), 5: (0, [1, 1, 1, 0, 0, 0], ["3J+3C"]), 6: (1, [1], ["1C"]),
                     11: (1, [0, 1], ["1C+1J"])}
    assert svg_text.count('class="s0"') == 5 and svg_text.count('class="s1"') == 5
    assert re.findall(r'<rect class="landed" data-space="(\d+)"', svg_text) == ["6"]
    assert ">home 0</text>" in svg_text and ">dead 0</text>" in svg_text
    assert "After cast 30 (Cinnabar cast)" in svg_text


def test_every_svg_track_holds_the_snapshot(games):
    """Every snapshot of every recorded game: each pile's discs (bottom up: prisoners, then
    the commander's own), no pile where the space is empty, the landed space, homes, dead."""
    import xml.etree.ElementTree as ET
    for r in games:
        T = r.rules["track"]
        actions = [ev for ev in r.events if ev[0] != EV_CAST]
        for row in r.snapshots:
            s = unpack_snapshot(row, T)
            svg_text = show.svg(row, r)
            ET.fromstring(svg_text)
            piles = _piles(svg_text)
            want = {}
            for i in range(T):
                c = s["commander"][i]
                if c >= 0:
                    want[i + 1] = (c, [1 - c] * s["count"][1 - c][i] + [c] * s["count"][c][i])
            assert {k: v[:2] for k, v in piles.items()} == want
            act = actions[s["casts"] - 1]
            landed = re.findall(r'class="landed" data-space="(\d+)"', svg_text)
            assert landed == ([str(int(act[3]) + 1)] if act[0] == EV_MOVE and act[3] < T else [])
            for side, name in enumerate(NAMES):
                home = re.search(rf'<g class="home s{side}".*?</g>', svg_text).group(0)
                assert f">{name}<" in home and f">home {s['home'][side]}<" in home
                assert f">dead {s['dead'][side]}<" in home
