"""``sim show`` pairs each board with the line it follows: every game's ``turns`` shows each
snapshot once, in order, beside the line the game says (and tells the same story as
``narrate``)."""
import importlib

import pytest

from analysis.show import show_game, show_text
from sim.games import get, names
from sim.record import record_run

CASES = {"puluc": [{}], "maya": [{}, {"players": 3}],
         "batam": [{"players": 2}, {"players": 4}, {"players": 3, "bots": "random"}],
         "balam": [{}, {"players": 3, "bots": "random"}]}


@pytest.mark.parametrize("name", [n for n in names() if n in CASES])
def test_each_snapshot_is_drawn_once_in_order(name):
    game = get(name)
    mod = importlib.import_module(game.show_module)
    for case in CASES[name]:
        for r in record_run(name, range(4), **case):
            seats = list(game.seat_names(r.players))
            pairs = mod.turns(r, seats)
            assert [t for t, _ in pairs] == list(mod.narrate(r, seats))
            shown = [k for _, k in pairs if k is not None]
            assert shown == sorted(shown) and len(set(shown)) == len(shown)
            assert shown == list(range(shown[0], shown[0] + len(shown)))   # none skipped
            assert len(shown) == min(len(r.snapshots), len(shown)) > 0


def test_batam_boards_follow_the_voyages():
    game = get("batam")
    mod = importlib.import_module(game.show_module)
    r = record_run("batam", [1], players=3)[0]
    pairs = mod.turns(r, list(game.seat_names(3)))
    assert sum(k is not None for _, k in pairs) == len(r.snapshots)
    for text, k in pairs:
        if k is not None:   # the line before a board is told of a ship at sea or in harbour
            assert any(w in text for w in ("sails", "stays", "sells", "draws", "pirate", "tradewind",
                                            "treasure", "stops", "ransom", "maps")), text


def test_the_printed_game_has_one_board_per_cast():
    s = show_game(get("puluc"), 1, 2)
    text = show_text(s)
    casts = int(s.record.columns["casts"])
    assert text.count("After cast ") == casts
    assert not s.extra_boards


def test_batam_a_ship_that_stays_is_told_even_right_after_another_ships_voyage():
    """Every stop that does not end the stopping ship's own steps is a "stays at" line (a
    stop by the next seat used to be swallowed as the end of the previous ship's voyage)."""
    from sim.games.batam import state as S
    game = get("batam")
    mod = importlib.import_module(game.show_module)
    for players, bots in ((2, None), (3, "random"), (4, None)):
        for r in record_run("batam", range(4), players=players, bots=bots):
            voyage, stays = None, 0
            for ev in r.events:
                kind, a = int(ev[0]), int(ev[1])
                if kind == S.E_STEP:
                    voyage = a
                elif kind == S.E_STOP:
                    stays += voyage != a
                    voyage = None
                elif kind not in (S.E_CARD, S.E_RANSOM, S.E_SELL, S.E_EFFECT):
                    voyage = None
            lines = mod.narrate(r, list(game.seat_names(players)))
            assert sum(" stays at " in t for t in lines) == stays
