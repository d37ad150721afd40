"""The reference engine replays the kernel's games of the heuristic Balam bots.

tests/reference/balam_ref.py ports the kernel's heuristic decision code (heuristic_turn
with its card values, building screen and plans, attack scan; heuristic_build; the
heuristic distribution's exact assignment; the catastrophe, cenote, card and
defender choices) with the same floating-point operations in the same order.  Here it
replays kernel games of every heuristic bot (builder, warlord, merchant, priest), alone
and mixed with the random bot, with 2, 3 and 4 players and under the rule variants
that change what the bots see (catastrophes for all, forest villages, summed control,
eclipse jitter, the small board, a longer game, plans=2, random piles, neutralised card
types, the fixed layout of versions before 5 and the random one), and must reproduce
every recorded column of every game (the layout identifier included), with every tie the
bots break on their own streams.
"""
import numpy as np
import pytest

from sim.games.balam import GAME
from tests.reference import balam_ref

MIXES = [
    (2, "merchant", {}, 150),
    (2, "builder,warlord", {}, 150),
    (2, "priest", {}, 60),
    (3, "builder,warlord,random", {}, 60),
    (4, "merchant,priest,builder,random", {}, 60),
    (3, "random,merchant:plans=2,warlord:plans=2", {}, 60),
    (4, "warlord", {"catastrophes": "all"}, 60),
    (2, "merchant,warlord", {"catastrophes": "all", "village_production": "forest",
                             "control": "sum", "eclipse_jitter": 3}, 60),
    (3, "warlord,builder,priest", {"board": "small"}, 60),
    (2, "warlord,priest", {"ball_games": 5}, 40),
    (3, "merchant,random,warlord", {"neutral_cards": "9,13,7", "piles": "random"}, 40),
    (2, "merchant", {"layout": "fixed"}, 80),
    (4, "builder,warlord,merchant,priest", {"layout": "fixed", "catastrophes": "all"}, 30),
    (3, "priest,merchant,builder", {"layout": "random", "board": "small"}, 40),
]


def run(players, bots, rules, n, seed):
    r = GAME.resolve_rules(rules)
    ctx = GAME.prepare(r, players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return r, GAME.run_chunk(ctx, players, seed, 0, n, ids, par)


@pytest.mark.parametrize("players,bots,rules,n", MIXES)
def test_reference_engine_replays_the_heuristic_bots(players, bots, rules, n):
    seed = 13
    r, out = run(players, bots, rules, n, seed)
    for g in range(n):
        ref = balam_ref.replay_random(r, players, seed, g, bots=bots)
        assert set(ref) <= set(out)
        for name, v in ref.items():
            got = out[name][g]
            got = got.tolist() if hasattr(got, "tolist") else got
            assert got == v, f"{bots} game {g}: column {name}: kernel {got} reference {v}"


def test_the_replayed_games_exercise_the_heuristic_choices():
    """The mixes above reach the heuristic's wars, prisoners, catastrophes paid and
    suffered, cenote sacrifices, divination and passes (so the replay checks them)."""
    tot = {}
    for players, bots, rules, n in [(2, "builder,warlord", {}, 80),
                                    (3, "warlord,builder,priest", {"board": "small"}, 60)]:
        _, out = run(players, bots, rules, n, 13)
        for c in ("wars", "prisoners", "garrisons_lost", "catastrophes_paid",
                  "catastrophes_suffered", "pp_cenote", "cards_divined", "passes",
                  "buildings_built", "pp_ceremony"):
            tot[c] = tot.get(c, 0) + int(np.asarray(out[c]).sum())
    assert all(v > 0 for v in tot.values()), tot
