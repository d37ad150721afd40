"""The kernel's games, recorded and replayed by the plain-Python reference engine.

``tests/test_replay.py`` replays the cases of ``tests/reference/batam_ref.py``
(``REPLAY_CASES``: every bot, 2-4 players, the compass modes, every reading, neutral tiles
and cards, a crowded board).  Here: more custom data files (the crowded strait with every
rule mix, other dice and money), and the replay's own checks: a decision the rules do not
allow, or an outcome of chance the streams do not give, is refused.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.record import record_run
from tests.reference import batam_ref as ref
from tests.test_replay import compare_columns

CROWDED = ref.CROWDED.read_text()


def replay_all(players, bots, games, seed=4, **rules):
    records = record_run("batam", range(games), rules=rules, bots=bots, players=players, seed=seed)
    for r in records:
        compare_columns(r.columns, ref.replay(r), f"game {r.index} ({players}p {bots} {rules})")
    return records


@pytest.mark.parametrize("players,bots,rules", [
    (4, "random", dict(horizon=30)),
    (3, "heuristic", dict(occupied_cost=3)),
    (4, "random", dict(compass="tiles", tradewind_limit="each")),
    (4, "heuristic,random,plodder,gambler", dict(compass="cards", neutral="pirate_1,treasure_map_lingga_7")),
    (4, "hunter,random,plodder,hunter",
     dict(compass="tiles", neutral="treasure_map_rempang_6,pirate_0,tradewind_2")),
])
def test_reference_replays_a_crowded_custom_board(players, bots, rules):
    """A small strait where ships meet all the time: occupied spaces, stranding checks,
    pirates next to harbours; the tiles and cards files name islands of this board."""
    replay_all(players, bots, 8, board=str(ref.CROWDED), cards=str(ref.CROWDED_CARDS), **rules)


def test_reference_replays_custom_dice_and_components(tmp_path):
    """Other dice (two seasick faces, even numbers), more money, three goods each."""
    dice = tmp_path / "dice.toml"
    dice.write_text('faces = ["seasick", "seasick", 2, 4, 6]\n')
    comp = tmp_path / "components.toml"
    comp.write_text('start_coins = 30\ngoods_per_player = 3\n[bank]\n1 = 50\n5 = 40\n25 = 10\n')
    for players, bots in ((4, "heuristic,random,gambler,miser"), (3, "heuristic"), (2, "random")):
        for r in replay_all(players, bots, 5, seed=6, dice=str(dice), components=str(comp), horizon=20):
            assert all(r.columns[f"goods_sold_{s}"] <= 3 for s in range(players))


def test_replays_capped_and_finished_games():
    records = replay_all(4, "heuristic", 12, seed=5, horizon=4)
    capped = [r.columns["capped"] for r in records]
    assert any(capped) and not all(capped)


def tampered(record, kind, change):
    """A copy of ``record`` with the first event of ``kind`` changed by ``change(row)``."""
    ev = record.events.copy()
    code = {a.name: a.code for a in ref.GAME.actions}[kind]
    j = int(np.flatnonzero(ev[:, 0] == code)[0])
    change(ev[j])
    out = type(record)(**{**record.__dict__, "events": ev})
    return out


def test_replay_refuses_illegal_decisions_and_wrong_chance():
    r = record_run("batam", [0], bots="random", players=4, seed=3, rules={"horizon": 8})[0]
    ref.replay(r)                                             # the record itself replays

    def too_much(row):                                        # wages beyond the seat's coins
        row[2] = row[4]
    with pytest.raises(ref.IllegalAction):
        ref.replay(tampered(r, "wages", too_much))

    def own_board(row):                                       # a die on the placer's own board
        row[4] = row[1]
    with pytest.raises(ref.IllegalAction):
        ref.replay(tampered(r, "place", own_board))

    def teleport(row):                                        # a step to a space not adjacent
        row[3] = row[2] + 57
    with pytest.raises(ref.IllegalAction):
        ref.replay(tampered(r, "step", teleport))

    def loaded_die(row):                                      # a die the streams did not roll
        row[4] = 7
    with pytest.raises(ref.ReplayMismatch):
        ref.replay(tampered(r, "roll", loaded_die))
    with pytest.raises(ref.ReplayMismatch):                   # a record cut short
        ref.replay(type(r)(**{**r.__dict__, "events": r.events[: len(r.events) // 2]}))
