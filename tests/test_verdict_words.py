"""The verdicts' words say which way, how big with its unit and how sure, and never mislead
(issue 45, items 6, 7, 17 and 18): a multi-player headline leads with the largest turn-order
gap, a compare says whether a variant moves a share closer to or further from fair, the
standalone report carries no broken link, and a difference rounded to zero is not called real.
"""
import numpy as np

from analysis.report import headline, summarize, text_summary
from sim.games import get
from sim.summary import Summary


def _four_player_batam(n=20_000, pos=(0.273, 0.278, 0.216, 0.233)):
    """A four-player Batam summary shaped like `sim batam --players 4 --games 2e4 --seed 7`:
    the first player at 27.3% (+2.3 points), the third at 21.6% (-3.4 points)."""
    wins = np.array(pos) * n
    S = Summary(4, n, win=[n / 4] * 4, win_pos=wins, first=[n // 4] * 4, decisive=n,
                side_win=[n / 4] * 4, side_win_pos=wins, side_first=[n // 4] * 4, side_decisive=n,
                side_dec_win=[n // 4] * 4, side_dec_pos=wins.astype(int))
    game = get("batam")
    manifest = {"game": "batam", "seats": list(game.seat_names(4)), "bots": ["heuristic"] * 4,
                "run": "r", "games_completed": n, "seed": 7}
    return summarize(S, manifest, game), manifest, game


def test_multiplayer_headline_leads_with_the_largest_turn_order_gap():
    s, manifest, game = _four_player_batam()
    lines = headline(s, manifest, game)
    order = [i for i, line in enumerate(lines) if "3rd player" in line or "moves first" in line]
    assert order, lines
    lead = lines[order[0]]
    # the third seat is furthest from fair: it leads, with its direction, size and unit
    assert "3rd player" in lead and "furthest from" in lead, lead
    assert "21.6%" in lead and "25.0%" in lead and "disadvantage of 3.4 points" in lead, lead
    # the first player is still said, after it
    assert any("moves first" in line and "advantage of 2.3 points" in line for line in lines[order[0]:])
    text = text_summary(s, manifest, game).splitlines()
    verdicts = [i for i, line in enumerate(text) if "disadvantage of 3.4" in line or "advantage of 2.3" in line]
    assert "3rd player" in text[verdicts[0]] and "disadvantage of 3.4 points" in text[verdicts[0]], text


def test_two_player_headline_still_judges_the_first_player():
    s, manifest, game = _four_player_batam()
    lines = headline(s, manifest, game)
    assert sum("furthest from" in line for line in lines) == 1
    # a two-sided game: the first player's gap is the only one, said once as before
    S = Summary(2, 1000, win=[500, 500], win_pos=[560, 440], first=[500, 500], decisive=1000,
                side_win=[500, 500], side_win_pos=[560, 440], side_first=[500, 500], side_decisive=1000,
                side_dec_win=[500, 500], side_dec_pos=[560, 440])
    g = get("puluc")
    m = {"game": "puluc", "seats": list(g.seat_names(2)), "bots": ["random"] * 2, "run": "r",
         "games_completed": 1000, "seed": 1}
    two = headline(summarize(S, m, g), m, g)
    assert not any("furthest from" in line for line in two)
    assert any(line.startswith("The player who moves first wins 56.0%") for line in two)
