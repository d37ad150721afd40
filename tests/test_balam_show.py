"""Balam recorded games: the record holds every turn and chance outcome, recording changes
no result, and ``show`` tells the game in order and draws the board."""
import numpy as np
import pytest

from sim.games.balam import GAME, SEATS
from sim.games.balam import show
from sim.record import record_run
from sim.results import seat_column

CASES = [(2, "merchant", {}), (3, "random,warlord,builder", {"catastrophes": "all"})]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}p-{c[1]}")
def recorded(request):
    players, bots, rules = request.param
    return players, bots, rules, record_run("balam", [0, 3], rules=rules, bots=bots,
                                            players=players, seed=5)


def _names(record):
    kinds = {a.code: a.name for a in GAME.actions}
    return [kinds[int(k)] for k in record.events[:, 0]]


def test_recording_changes_no_result(recorded):
    players, bots, rules, records = recorded
    r = GAME.resolve_rules(rules)
    ctx = GAME.prepare(r, players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    cols = GAME.play_chunk(ctx, players, 5, 0, 4, ids, par)
    for rec in records:
        for c in GAME.all_columns():
            v = np.asarray(cols[c.name])[rec.index]
            if c.per_seat:
                for s in range(players):
                    assert rec.columns[seat_column(c.name, s)] == v[s].item(), c.name
            else:
                assert rec.columns[c.name] == v.item(), c.name


def test_the_record_holds_every_turn_and_chance(recorded):
    players, _, _, records = recorded
    for rec in records:
        names = _names(rec)
        turns = sum(n in ("card", "pass", "build", "attack") for n in names)
        # a build turn may place several buildings: at least as many events as turns
        assert turns >= rec.columns["turns"]
        assert names.count("card") == rec.columns["cards_turned"]
        assert names.count("deal") == rec.columns["rounds"]
        assert names.count("layout") == len(show._board("default").names)
        assert names.count("first") == 1 and names[-1] == "end"
        for s in range(players):
            mine = rec.events[rec.events[:, 1] == s]
            kinds = [GAME.actions[int(k) - 1].name for k in mine[:, 0]]
            assert kinds.count("attack") == rec.columns[seat_column("wars", s)]
            assert kinds.count("pass") == rec.columns[seat_column("passes", s)]
        assert rec.snapshots is not None and len(rec.snapshots) == rec.columns["rounds"]


def test_narration_follows_the_record_in_order(recorded):
    players, _, _, records = recorded
    seats = SEATS[:players]
    for rec in records:
        lines = show.narrate(rec, seats)
        text = "\n".join(lines)
        # every card turned appears, in the record's order
        wanted = [show.CARD_TITLES[int(ev[4])] for ev in rec.events
                  if GAME.actions[int(ev[0]) - 1].name == "card"]
        got = [ln.split(": ", 1)[1].rstrip(".") for ln in lines if " turns the Katun card " in ln]
        assert got == wanted
        builds = [ev for ev in rec.events if GAME.actions[int(ev[0]) - 1].name == "build"]
        assert sum(" builds " in ln for ln in lines) == len(builds)
        assert sum(" attacks " in ln for ln in lines) == sum(
            GAME.actions[int(ev[0]) - 1].name == "attack" for ev in rec.events)
        rounds = [ln for ln in lines if ln.startswith("Round ")]
        assert [int(ln.split()[1].rstrip(":")) for ln in rounds] == list(
            range(1, rec.columns["rounds"] + 1))
        w = rec.columns["winner"]
        assert lines[-1] == (f"{seats[w]} wins." if w >= 0 else "There is no single winner.")
        assert "Final prestige: " + ", ".join(
            f"{seats[p]} {rec.columns[seat_column('prestige', p)]}" for p in range(players)) in text


def test_the_board_is_drawn_after_each_round(recorded):
    players, _, _, records = recorded
    rec = records[0]
    last = show.draw(rec.snapshots[-1], rec)
    assert last.startswith(f"After round {rec.columns['rounds']}:")
    for p, name in enumerate(SEATS[:players]):
        pres = rec.columns[seat_column("prestige", p)] - rec.columns[seat_column("pp_bonus", p)]
        assert f"{name[0]}: prestige {pres};" in last


# ------------------------------------------------------------------ sim show: numbering, the page's SVG
def test_the_page_draws_the_board_after_each_round_as_svg_and_numbers_the_rounds(recorded, tmp_path):
    """`sim show balam --html`: one SVG per round, each well-formed, every site framed in its
    owner's colour, every building and riches token the snapshot holds drawn on its site
    (as many as the text board's letters), each king's prestige; the rounds numbered as the
    narration numbers them (the set-up and the result are not numbered)."""
    import re
    import xml.etree.ElementTree as ET

    from analysis.show import show_game, show_text, write_show_page
    from sim.games.balam.play import snapshot_layout
    players, bots, rules, _ = recorded
    s = show_game(GAME, 5, 3, rules=rules, bots=bots, players=players)
    rec = s.record
    path = tmp_path / "l.html"
    write_show_page(s, path)
    html = path.read_text()
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    n = rec.columns["rounds"]
    assert len(svgs) == len(rec.snapshots) == n
    board = show._board("default")
    S = len(board.names)
    lay = snapshot_layout(S, players)
    ns = "{http://www.w3.org/2000/svg}"
    for row, svg_text in zip(rec.snapshots, svgs):
        assert svg_text == show.svg(row, rec)
        root = ET.fromstring(svg_text)
        sites = [g for g in root.iter(f"{ns}g") if (g.get("class") or "").startswith("site")]
        assert len(sites) == S
        owners = [int(row[lay["site"] + k * lay["site_width"]]) for k in range(S)]
        for q in range(players):
            assert sum(g.get("class") == f"site s{q}" for g in sites) == owners.count(q)
        assert sum(g.get("class") == "site" for g in sites) == owners.count(-1)
        text = show.draw(row, rec).splitlines()
        grid = text[1:1 + 4 * board.rows]
        letters = sum(len(line.replace("~", "").replace(".", "").replace(" ", "").replace("o", ""))
                      for line in grid[1::4])
        tokens = sum(len(line.replace("~", "").replace("-", "").replace(" ", "")) for line in grid[2::4])
        assert len([t for t in root.iter(f"{ns}text") if t.get("class") == "building"]) == letters
        assert len([c for c in root.iter(f"{ns}circle") if c.get("class") == "token"]) == tokens
        for q, name in enumerate(SEATS[:players]):
            base = lay["seat"] + q * lay["seat_width"]
            assert f">{name}: prestige {int(row[base + 8])};" in svg_text
        assert f">After round {int(row[0])}</text>" in svg_text
    numbered = re.findall(r"^ *(\d+)\. (.*)$", show_text(s), re.M)
    assert [int(k) for k, _ in numbered] == list(range(1, n + 1))
    assert all(line.startswith(f"Round {k}: ") for k, line in numbered)
    heads = re.findall(r'<section class="turn" id="turn-(\d+)">\s*<h3>(.*?)</h3>', html)
    assert heads == [(str(k), f"Round {k}") for k in range(1, n + 1)]
    result = re.search(r'<section class="result" id="result">(.*?)</section>', html, re.S).group(1)
    assert "The game ends after round" in result and "Final prestige: " in result
