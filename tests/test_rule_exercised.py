"""Whether a compared rule came into play (issue #45, item 5): compare, sweep and tune say in
how many paired games the change played out differently at all (same seeds: an identical
game is one the change did nothing to) and, where the game declares events the change bears
on, in how many games one happened; a 'no difference' verdict over rarely exercised rules
says so in words.  Small runs: Batam's heuristic bots, Puluc."""
import numpy as np
from click.testing import CliRunner

from analysis.experiment_report import compare_headline, compare_text
from analysis.experiment_runs import compare
from sim.cli import cli
from sim.games import get
from sim.spec import make_spec


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


COMPASS = [("tiles", {"compass": "tiles"}), ("cards", {"compass": "cards"})]


def _played(game, rules, players, bots, games, seed=1):
    s = make_spec(game, games, rules, bots, players, seed)
    ids, par = game.bot_arrays(s.bots)
    return game.play_chunk(s.ctx, players, seed, 0, games, ids, par)


def test_batam_compass_cards_against_tiles_is_rarely_in_play_and_says_so():
    from analysis.experiment_runs import RARELY, exercise
    g = get("batam")
    res = compare("batam", COMPASS, 600, bots="heuristic", players=3, seed=1, jobs=1, chunk_size=200)
    row = exercise(res)[0]
    # the share of games that played out differently, counted here apart, game by game
    a, b = (_played(g, r, 3, "heuristic", 600) for _, r in COMPASS)
    differ = np.zeros(600, bool)
    for c in g.all_columns():
        differ |= (np.asarray(a[c.name]) != np.asarray(b[c.name])).reshape(600, -1).any(axis=1)
    assert row["differ_games"] == int(differ.sum()) and 0 < row["differ"] < RARELY
    either = np.zeros(600, bool)
    for e in g.events:
        either |= (np.asarray(a[e]).reshape(600, -1).sum(1) > 0) | (np.asarray(b[e]).reshape(600, -1).sum(1) > 0)
    assert row["events"] == list(g.events) and row["event_share"] == either.mean()
    text = compare_text(res)
    assert "the change came into play in" in text and "played out differently" in text
    warning = next(x for x in text.splitlines() if x.startswith("Warning: 'cards' came into play in only"))
    assert "says little about the rule itself" in warning and "played out differently" in warning
    # the 'no difference' verdict of the page names itself beside the warning
    head = compare_headline(res)
    assert any(x.startswith("Warning: 'cards' came into play in only") for x in head)


def test_a_change_in_every_game_gets_no_warning_and_a_change_that_does_nothing_says_so():
    from analysis.experiment_runs import exercise
    res = compare("puluc", [("base", {}), ("nine", {"track": 9}), ("same", {"track": 11})], 400, jobs=1)
    rows = {r["variant"]: r for r in exercise(res)}
    assert rows["nine"]["differ"] > 0.9 and rows["nine"]["events"] == []
    assert rows["same"]["differ_games"] == 0
    text = compare_text(res)
    assert "Warning: 'nine'" not in text
    assert "'same' against 'base': no paired game played out differently" in text


def test_the_events_a_change_bears_on_come_from_the_declarations():
    from analysis.experiment_runs import relevant_events
    batam, balam = get("batam"), get("balam")
    assert relevant_events(batam, {"compass": "cards"}) == list(batam.events)
    assert relevant_events(batam, {"pirate_fee": 3}) == ["compass_pirate"]
    assert relevant_events(batam, {"neutral": ("pirate_0",)}) == ["compass_pirate"]
    assert relevant_events(batam, {"sale": 3}) == []
    assert relevant_events(balam, {"ball_games": 5}) == ["katun_ball_game"]
    assert relevant_events(get("puluc"), {"track": 9}) == []


def test_sweep_prints_how_often_each_value_came_into_play(tmp_path):
    r = run("sweep", "batam", "--players", "3", "--bots", "heuristic", "--param", "pirate_fee=0..2",
            "--games", "400", "-j", "1", "--out", str(tmp_path / "s"))
    assert r.exit_code == 0, r.output
    assert "the change came into play in" in r.output and "compass_pirate" in r.output
    assert "Warning: 'pirate_fee=0' came into play in only" in r.output


def test_tune_says_how_often_the_best_candidate_came_into_play(tmp_path):
    r = run("tune", "batam", "--players", "3", "--bots", "heuristic", "--param", "pirate_fee=0..3",
            "--target", "first_player=fair", "--budget", "2000", "--final", "400", "-j", "1",
            "--out", str(tmp_path / "t"), "-q")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "t" / "tune.txt").read_text()
    best = next(x for x in text.splitlines() if x.startswith("Best, beside the rulebook"))
    assert "played out differently from the rulebook in" in best and "compass_pirate" in best
    assert any("came into play in only" in x for x in text.splitlines() if x.startswith("note:")), text


# --------------------------------------------- sim robust's strong play (issue #45, item 8)
def test_robust_plays_puluc_at_the_depth_its_strength_climb_settled_at():
    """`sim strength puluc` settled at depth 3 on two seeds (docs/FINDINGS.md); robust's strong
    condition was the default search (depth 2), whose length verdict differs from depth 3."""
    from analysis.robust_conditions import build_conditions
    g = get("puluc")
    conds, _ = build_conditions(g, 2, g.resolve_rules({}), ["random", "random"])
    labels = [c.label for c in conds]
    assert labels[0] == "search:depth=3 (all seats)" and conds[0].seatings == [["search:depth=3"] * 2]
    assert "search:depth=3 vs greedy (every seating)" in labels
    assert "settled at depth 3" in conds[0].describe()


def test_every_game_declares_its_strong_play_and_robust_says_which_bot_it_used(tmp_path):
    from analysis.robust_conditions import strong_play
    from sim.games import names
    for n in names():
        g = get(n)
        for p in g.players:
            s = strong_play(g, p)
            assert s["bot"] == g.choose_bots(g.bot_strength(p)[0], p)[0].label
            assert "docs/FINDINGS.md" in s["why"], (n, p)
    r = run("robust", "puluc", "--games", "200", "-j", "1", "--out", str(tmp_path / "r"))
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("strong play:"))
    assert "search:depth=3" in line and "settled at depth 3" in line
    import json
    m = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert m["strong_play"]["bot"] == "search:depth=3"
    assert "search:depth=3 (all seats)" in (tmp_path / "r" / "index.html").read_text()
