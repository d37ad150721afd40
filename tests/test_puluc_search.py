"""Puluc's search bot is stronger than the bots below it: a strength regression that can
fail.  Both seatings on the same seeds, so the seat's own edge cancels out.

Measured when written (seed 3): depth 2 against greedy 82.8% over 4,000 games a seating
(83.4% over the test's 400), depth 1 against greedy 44.0%, depth 2 against depth 1 83.8%
over the test's 400 a seating.  Both run in under a second: they are not marked slow.
The bars sit far below the measured shares and far above what a bot no better than its
opponent reaches: at 400 games a seating a share of 0.5 has a standard error of 0.018, so
0.70 is 11 of them above it and 0.60 is 5.6."""
import numpy as np

from sim.games import get

GAME = get("puluc")


def _share(bot: str, other: str, games: int, seed: int = 3) -> float:
    """``bot``'s share of the wins over ``games`` games in each seating (same seeds)."""
    ctx = GAME.prepare(GAME.resolve_rules(None), 2)
    won = 0
    for seat, bots in ((0, f"{bot},{other}"), (1, f"{other},{bot}")):
        ids, par = GAME.bot_arrays(GAME.choose_bots(bots, 2))
        r = GAME.run_chunk(ctx, 2, seed, 0, games, ids, par)
        assert not np.asarray(r["capped"]).any()     # every game decided by the rules
        won += int(np.asarray(r["win"])[:, seat].sum())
    return won / (2 * games)


def test_search_beats_greedy_clearly():
    assert _share("search", "greedy", 400) > 0.70


def test_depth_two_beats_depth_one():
    # the climb's two rungs (sim strength puluc --bot search:depth=1): the second is stronger
    assert _share("search", "search:depth=1", 400) > 0.60
