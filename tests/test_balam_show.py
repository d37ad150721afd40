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
    cols = GAME.run_chunk(ctx, players, 5, 0, 4, ids, par)
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
