"""sim skill --ladder: balance by skill (equal bots per rung, neighbours for Elo)."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analysis.ladder import LadderResult, Rung, edge_trend, from_json, skill_ladder, to_json, verdict
from sim.cli import cli
from sim.games import get
from sim.params import UsageError
from sim.runner import simulate


def test_puluc_ladder_rungs_match_plain_runs_and_rank_the_bots():
    """Each rung is the run with every seat that bot (same seed, same games); greedy beats
    random by far, so it rates well above it; the shares of a two-sided game add up."""
    bots = ["random", "greedy"]
    res = skill_ladder("puluc", bots, 1500, seed=7, jobs=1)
    assert [r.bot for r in res.rungs] == bots
    assert res.elo[0] == 0.0
    assert res.elo[1] > 150 and res.elo_lo[1] > 0
    for r in res.rungs:
        df = simulate("puluc", 1500, bots=r.bot, seed=7, jobs=1)
        # the first side's score: the mover-first's win share, a game without a winner counting 1/2
        first = df["first_player"].to_numpy()
        win = df[["win_0", "win_1"]].to_numpy() if "win_0" in df else np.stack(df["win"].to_numpy())
        first_win = win[np.arange(len(df)), first]
        nowin = win.sum(axis=1) == 0
        assert r.first_share == pytest.approx((first_win.sum() + 0.5 * nowin.sum()) / len(df))
        assert sum(r.side_share) + r.no_winner == pytest.approx(1.0)
        assert r.n == 1500
        assert r.first_lo < r.first_share < r.first_hi
        assert r.length == pytest.approx(df["casts"].mean())
    (i, j, score, games), = res.pairs
    assert (i, j, games) == (0, 1, 3000)  # the lower rung on each side in turn
    assert score < 0.3  # random scores little against greedy


def test_ladder_does_not_depend_on_jobs_and_round_trips(tmp_path):
    a = skill_ladder("puluc", ["random", "greedy"], 600, seed=3, jobs=1)
    b = skill_ladder("puluc", ["random", "greedy"], 600, seed=3, jobs=2, chunk_size=100)
    assert to_json(a) == to_json(b)
    back = from_json(json.loads(json.dumps(to_json(a))))
    assert to_json(back) == to_json(a)
    assert verdict(back) == verdict(a)


def _fake(first_a, first_b, n=10_000):
    game = get("puluc")

    def rung(bot, f):
        return Rung(bot, n, f, f - 0.01, f + 0.01, [f, 1 - f], [f - .01, .99 - f], [f + .01, 1.01 - f],
                    0.0, 0.0, 60.0, 5.0)
    return LadderResult(game, 2, [rung("random", first_a), rung("search", first_b)],
                        np.array([0.0, 300.0]), np.array([0.0, 250.0]), np.array([0.0, 350.0]),
                        [(0, 1, 0.2, 2 * n)], {}, 1)


def test_verdict_words_follow_the_interval():
    grows = verdict(_fake(0.52, 0.60))
    assert any("rises with playing strength" in s and "the edge grows" in s for s in grows)
    shrinks = verdict(_fake(0.60, 0.52))
    assert any("falls" in s and "the edge shrinks" in s for s in shrinks)
    flips = verdict(_fake(0.45, 0.56))
    assert any("changes sides" in s for s in flips)
    appears = verdict(_fake(0.495, 0.56))  # the weakest rung's interval holds the fair share
    assert any("an edge appears with strength" in s for s in appears)
    vanishes = verdict(_fake(0.56, 0.505))
    assert any("the edge vanishes with strength" in s for s in vanishes)
    holds = verdict(_fake(0.55, 0.552))
    assert any("does not move measurably" in s for s in holds)
    d, lo, hi = edge_trend(_fake(0.52, 0.60))
    assert d == pytest.approx(0.08) and lo < d < hi
    # a rung that lost to the one below it is named as out of order
    bad = _fake(0.5, 0.5)
    bad.elo = np.array([0.0, -50.0])
    assert any("not in order of strength" in s for s in verdict(bad))


def test_team_game_rungs_are_per_side():
    """Four-player Maya is two teams: a rung's shares are the two sides'."""
    res = skill_ladder("maya", ["random", "greedy"], 200, players=4, seed=2, jobs=1)
    for r in res.rungs:
        assert len(r.side_share) == 2
        assert sum(r.side_share) + r.no_winner == pytest.approx(1.0)
    assert res.pairs[0][3] == 400


def test_ladder_refuses_bad_input():
    with pytest.raises(UsageError, match="at least two"):
        skill_ladder("puluc", ["random"], 100)
    with pytest.raises(UsageError, match="must differ"):
        skill_ladder("puluc", ["random", "random"], 100)
    with pytest.raises(UsageError):
        skill_ladder("puluc", ["random", "nosuchbot"], 100)


def test_cli_ladder_writes_report_and_rebuilds(tmp_path):
    out = tmp_path / "lad"
    r = CliRunner().invoke(cli, ["skill", "puluc", "--ladder", "random,greedy", "--games", "300",
                                 "--jobs", "1", "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "first side" in r.output and "report:" in r.output
    assert (out / "index.html").is_file() and (out / "ladder.png").is_file()
    page = (out / "index.html").read_text()
    assert "balance by skill" in page and "greedy" in page
    data = json.loads((out / "ladder.json").read_text())
    assert data["kind"] == "ladder" and len(data["rungs"]) == 2
    man = json.loads((out / "manifest.json").read_text())
    assert (man["kind"], man["game"], man["bots"], man["games_each"]) == ("ladder", "puluc", ["random", "greedy"], 300)
    assert "ladder.json" in man["files"] and man["seed"] is not None and not man["partial"]
    (out / "index.html").unlink()
    r = CliRunner().invoke(cli, ["report", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert (out / "index.html").is_file()


@pytest.mark.parametrize("args, msg", [
    (["--ladder", "random,greedy", "--bots", "random,greedy"], "not both"),
    (["--ladder", "random"], "at least two"),
    (["--ladder", " "], "needs bots"),
    (["--ladder", "random,random"], "must differ"),
    (["--ladder", "random,wizard"], "wizard"),
])
def test_cli_ladder_refusals_are_one_line(tmp_path, args, msg):
    out = tmp_path / "x"
    r = CliRunner().invoke(cli, ["skill", "puluc", "--games", "100", "-o", str(out)] + args)
    assert r.exit_code == 2
    assert msg in r.output
    assert not out.exists()


def test_reports_say_at_which_strength_they_were_measured():
    from analysis.pages import strength_sentence
    from sim.games import names
    for n in names():
        ladder = get(n).strength_ladder()
        assert len(ladder) >= 2, n
        top = strength_sentence({"game": n, "bots": [ladder[-1]]})
        assert "is the top of" in top and f"--ladder {','.join(ladder)}" in top
        bottom = strength_sentence({"game": n, "bots": [ladder[0]] * 2})
        assert "is the bottom of" in bottom
    # the strongest bot of the run counts; settings do not hide a bot's name
    mixed = strength_sentence({"game": "puluc", "bots": ["search:depth=1", "random"]})
    assert "the strongest bot here, search, is the top" in mixed
    off = strength_sentence({"game": "batam", "bots": ["miser"] * 4})
    assert "not on batam's ladder" in off


def test_a_rung_that_never_wins_has_no_rating_and_the_scale_starts_above_it():
    """Random Batam never beats the heuristic (its games run to the horizon): it has no
    finite rating, the next rung is the scale's 0, and the order check ignores it.  (With
    two players the heuristic's styles tie the heuristic exactly: dice and seat decide.)"""
    res = skill_ladder("batam", ["random", "heuristic", "search:iters=40"], 100, players=2, seed=4,
                       jobs=1)
    assert res.unbounded.get(0) == "never won"
    assert np.isnan(res.elo[0]) and res.elo[1] == 0.0 and res.elo[2] > 0
    text = " ".join(verdict(res))
    assert "random (never won)" in text and "not in order" not in text


def _three(weak, mid, strong):
    """A fake ladder random, greedy, search whose first side scores ``weak``, ``mid``, ``strong``."""
    res = _fake(weak, strong)
    res.rungs.insert(1, Rung("greedy", 10_000, mid, mid - .01, mid + .01, [mid, 1 - mid],
                             [mid - .01, .99 - mid], [mid + .01, 1.01 - mid], 0.0, 0.0, 60.0, 5.0))
    res.elo = np.array([0.0, 150.0, 300.0])
    return res


def test_three_rungs_also_compare_the_two_strongest():
    text = verdict(_three(0.50, 0.62, 0.40))
    top = [s for s in text if s.startswith("Between the two strongest rungs")]
    assert top and "greedy 62.0%" in top[0] and "falls by 22.0 points" in top[0]
    assert "changes sides" in top[0]


def test_ends_that_agree_with_a_top_pair_that_moves_make_one_verdict_not_two():
    """The weakest and strongest rungs agree, the two strongest do not: the ladder says the
    verdict for strong play has not settled, never "does not move" beside "rises"."""
    text = verdict(_three(0.50, 0.47, 0.505))
    assert not any("does not move measurably with playing strength" in s for s in text)
    assert any("has not settled" in s for s in text)
    top = next(s for s in text if s.startswith("Between the two strongest rungs"))
    assert "rises by 3.5 points" in top and "stronger play may move it further" in top


def test_rungs_with_identical_figures_are_named_and_the_terminal_shows_elo_intervals():
    from analysis.ladder import ladder_text
    same = _fake(0.55, 0.55)
    same.rungs[1].bot = "miser"
    text = verdict(same)
    assert any(s.startswith("random and miser gave identical results on every figure") for s in text)
    assert not any("identical" in s for s in verdict(_fake(0.55, 0.552)))
    table = ladder_text(_fake(0.52, 0.60))
    assert "Elo [95%]" in table and "300 [250,350]" in table
