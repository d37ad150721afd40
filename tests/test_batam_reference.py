"""The kernel's games, replayed by the plain-Python reference engine on the same streams.

For each rule set and bot line-up, ``run_chunk`` plays a block of games and
``tests/reference/batam_ref.py`` (written from the rules, not from the kernel)
plays the same game indices from the same master seed; every recorded column must
agree, game by game.  The sweep covers 2, 3 and 4 players, all three compass modes,
both bonus windows, both pirate charges, both bank modes, occupied-space costs, the
per-opponent limit, small horizons (capped games and both horizon results), changed
money values, every bot style next to the random bot, and neutral tiles and cards (card
impact).  Both engines draw chance from the same substreams by purpose and break the
heuristic's ties from the seat's own stream, so a replay checks those too.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.batam import GAME
from tests.reference import batam_ref as ref

COLUMNS = ("winner", "end_reason", "capped", "first_player", "rounds", "ender", "bank", "bank_short",
           "win", "lead_changes", "lead_settled") + ref.SEAT_FIELDS


def row(out, j):
    r = {}
    for c in COLUMNS:
        v = out[c][j]
        if c == "win":
            r[c] = tuple(float(x) for x in v)
        elif np.ndim(v):
            r[c] = tuple(int(x) for x in v)
        else:
            r[c] = bool(v) if c == "capped" else int(v)
    return r


def replay(players, bots, count, seed=21, start=0, **rules):
    resolved = GAME.resolve_rules(rules)
    ctx = GAME.prepare(resolved, players)
    choices = GAME.choose_bots(bots, players)
    ids, par = GAME.bot_arrays(choices)
    out = GAME.run_chunk(ctx, players, seed, start, count, ids, par)
    ref_bots = [(c.bot.name, dict(c.settings)) for c in choices]
    for j in range(count):
        mine = ref.play(seed, start + j, resolved, ref_bots)
        theirs = row(out, j)
        for c in COLUMNS:
            a, b = mine[c], theirs[c]
            if c == "win":
                ok = np.allclose(a, b, atol=1e-6)
            else:
                ok = a == b
            if not ok:
                pytest.fail(f"game {start + j} (seed {seed}, {players}p, bots {bots}, rules {rules}): "
                            f"column {c!r} kernel {b} reference {a}\nkernel {theirs}\nreference {mine}")
    return out


SWEEP = [
    (4, "random", 40, dict(horizon=12)),
    (4, "heuristic", 40, {}),
    (4, "heuristic", 30, dict(compass="cards")),
    (4, "random,heuristic,gambler,spiteful", 30, dict(compass="cards", bonus_window="after")),
    (4, "miser,plodder,heuristic,random", 30, dict(pirate_charge="once", horizon=10)),
    (4, "modest,heuristic,gambler,heuristic:outbid=3", 30, dict(compass="cards")),
    (3, "heuristic:give_up=0,heuristic:captain=7;give_up=1,miser", 30, {}),
    (4, "hunter,heuristic,hunter,plodder", 40, {}),
    (3, "heuristic", 30, dict(compass="none", occupied_cost=2)),
    (3, "random", 30, dict(horizon=6, horizon_result="draw", opp_limit=1)),
    (3, "gambler,spiteful,plodder", 30, dict(occupied_harbour=False, reroll_cost=1, reroll_step=2)),
    (4, "gambler,random,gambler,random", 30, dict(reroll_pricing="rising")),
    (4, "random", 60, dict(tradewind_limit="each")),
    (2, "heuristic", 30, dict(compass="cards", pirate_fee=5)),
    (2, "random,heuristic", 30, dict(horizon=15)),
    (4, "heuristic", 30, dict(sale=150, bank_empty="short", payout=20)),
    (4, "gambler", 30, dict(sale=150, bank_empty="unlimited", return_bonus=40, compass="cards")),
    (4, "heuristic:spite=2;avoid=0,heuristic:captain=9;reroll_low=3;reroll_max=4,random,miser", 30,
     dict(compass="tiles")),
    (4, "hunter,plodder,random,heuristic", 40,
     dict(neutral="pirate_0,tradewind_4,sunken_treasure_10,treasure_map_sugi_6", horizon=15)),
    (3, "random,plodder,heuristic", 30,
     dict(compass="cards", neutral="pirate_1,tradewind_2,treasure_map_citlim_5,sunken_treasure_3")),
    (2, "miser,hunter", 30, dict(compass="none")),
    (3, "modest,spiteful,hunter", 30, dict(compass="cards")),
]


@pytest.mark.parametrize("players,bots,count,rules", SWEEP)
def test_reference_replays_kernel(players, bots, count, rules):
    replay(players, bots, count, **rules)


def test_reference_sweep_has_capped_and_finished_games():
    out = replay(4, "heuristic", 60, seed=5, horizon=4)
    assert out["capped"].any() and (~out["capped"]).any()


CROWDED = '''
name = "crowded test strait"
start = "B"
grid = """
#B#R#S#
~~~~~~~
~*~*~*~
~~*~*~~
~~~*~~~
#C#G#L#
~~~*~~~
"""
[islands]
B = "Batam"
R = "Rempang"
S = "Sugi"
C = "Citlim"
G = "Galang"
L = "Lingga"
'''


@pytest.mark.parametrize("players,bots,rules", [
    (4, "random", dict(horizon=30)),
    (4, "heuristic,random,plodder,gambler", dict(compass="cards")),
    (3, "heuristic", dict(occupied_cost=3)),
    (4, "spiteful,miser,random,heuristic", dict(compass="tiles", pirate_charge="once")),
    (4, "random", dict(compass="tiles", tradewind_limit="each")),
    (4, "heuristic,random,plodder,gambler", dict(compass="cards", neutral="pirate_1,treasure_map_lingga_7")),
    (4, "hunter,random,plodder,hunter",
     dict(compass="tiles", neutral="treasure_map_rempang_6,pirate_0,tradewind_2")),
])
def test_reference_replays_a_crowded_custom_board(tmp_path, players, bots, rules):
    """A small strait where ships meet all the time: occupied spaces, stranding checks,
    pirates next to harbours; the tiles and cards files name islands of this board."""
    board = tmp_path / "crowded.toml"
    board.write_text(CROWDED)
    cards = tmp_path / "cards.toml"
    cards.write_text('[[card]]\nkind = "pirate"\nvalue = 1\ncount = 4\n'
                     '[[card]]\nkind = "tradewind"\nvalue = 2\ncount = 4\n'
                     '[[card]]\nkind = "treasure_map"\nisland = "Lingga"\nvalue = 7\ncount = 2\n'
                     '[[card]]\nkind = "sunken_treasure"\nvalue = 3\ncount = 2\n')
    replay(players, bots, 40, seed=4, board=str(board), cards=str(cards), **rules)


def test_reference_replays_custom_dice_and_components(tmp_path):
    """Other dice (two seasick faces, even numbers), more money, three goods each."""
    dice = tmp_path / "dice.toml"
    dice.write_text('faces = ["seasick", "seasick", 2, 4, 6]\n')
    comp = tmp_path / "components.toml"
    comp.write_text('start_coins = 30\ngoods_per_player = 3\n[bank]\n1 = 50\n5 = 40\n25 = 10\n')
    for players, bots in ((4, "heuristic,random,gambler,miser"), (3, "heuristic"), (2, "random")):
        out = replay(players, bots, 30, seed=6, dice=str(dice), components=str(comp), horizon=20)
        assert (out["goods_sold"] <= 3).all()
        assert (out["coins"].astype(int).sum(1) + out["bank"] == 50 + 200 + 250).all()
