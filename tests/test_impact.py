"""sim impact: every card in one run, the game's default mode, length changes said in words,
the observational table for the card asked about, score rows, the terminal table."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analysis.impact import impact_table, impact_text, write_impact_report
from sim.cli import cli
from analysis.experiment_runs import impact
from sim.games import get
from sim.params import UsageError


def test_event_of_card_maps_card_names_to_event_columns():
    b = get("batam")
    assert b.event_of_card("pirate_0") == "compass_pirate"
    assert b.event_of_card("sunken_treasure_10") == "compass_sunken"
    assert b.event_of_card("treasure_map_sugi_6") == "compass_map"
    assert b.event_of_card("tradewind_2") == "compass_tradewind"
    assert b.event_of_card("compass_map") == "compass_map"
    g = get("balam")
    assert g.event_of_card("drought") == "katun_drought"
    assert g.event_of_card("cacao_festival") == "katun_cacao_festival"
    assert g.event_of_card("nothing") is None


@pytest.fixture(scope="module")
def batam_all(tmp_path_factory):
    work = tmp_path_factory.mktemp("all")
    return impact("batam", "all", None, 600, workdir=work, seed=4, jobs=1), work


def test_card_all_plays_every_card_on_the_same_seeds(batam_all):
    res, work = batam_all
    g = get("batam")
    cards = g.card_names(g.resolve_rules({}))
    assert res.manifest["impact"]["cards"] == cards and res.manifest["impact"]["mode"] == "remove"
    assert [v for v, _ in res.variants] == ["base"] + [f"{c} removed" for c in cards]
    # one run: every arm played the same game indices, so the base arm is the one game set
    assert all(S.n == 600 for S in res.summaries)
    it = impact_table(res)
    assert sorted(it["card"]) == sorted(cards)          # every card once, ranked by |effect|
    assert (np.diff(it["diff"].abs().to_numpy()) <= 0).all()
    assert it["event"].tolist() == [g.event_of_card(c) for c in it["card"]]
    assert ((it["lo"] <= it["diff"]) & (it["diff"] <= it["hi"])).all()
    assert it["same outcome"].between(0, 1).all() and (it["variance reduction"] > 0).all()


def test_card_all_report_ranks_the_cards_and_rebuilds(batam_all, tmp_path):
    res, _ = batam_all
    page = write_impact_report(res.game, res, tmp_path).read_text()
    assert "impact_ranking.png" in page and (tmp_path / "impact_ranking.png").is_file()
    assert "same outcome" in page and "variance reduction" in page and "depend on the bots" in page
    assert (tmp_path / "impact.csv").is_file()
    text = impact_text(res)
    lines = [line for line in text.splitlines() if line.split(" ")[0] in res.manifest["impact"]["cards"]]
    diffs = [float(line.split()[1]) for line in lines]           # "+6.16 pts": points, signed
    assert all(line.split()[2] == "pts" for line in lines)
    assert len(lines) == len(res.manifest["impact"]["cards"])
    assert [abs(d) for d in diffs] == sorted((abs(d) for d in diffs), reverse=True)
    # every card is a comparison with the full deck: their number is counted (Holm)
    counted = [x for x in text.splitlines() if "cards are each compared with the full deck" in x]
    assert len(counted) == 1 and ("Holm's correction" in counted[0] or "even on its own" in counted[0])
    assert "cards are each compared with the full deck" in page
    before = (tmp_path / "index.html").read_text()
    (tmp_path / "index.html").unlink()
    r = CliRunner().invoke(cli, ["report", str(tmp_path)])
    assert r.exit_code == 0, r.output
    def strip(h):
        return [x for x in h.splitlines() if "Manifest" not in x and "seconds" not in x]
    assert strip((tmp_path / "index.html").read_text()) == strip(before)


def test_one_card_report_has_score_rows_and_its_observational_rows(tmp_path):
    res = impact("batam", "pirate_0", None, 500, workdir=tmp_path, seed=3, jobs=1)
    page = write_impact_report(res.game, res, tmp_path / "r", "pirate_0").read_text()
    # the game's score column (coins), not a highlight named 'score'
    assert "coins per game, Red" in page
    # the observational table shows the event that counts the card, not an empty table
    assert "compass_pirate</td>" in page and "is counted in <code>compass_pirate</code>" in page
    obs_rows = page.split("Observational association")[1].count("<tr>") - 1
    assert obs_rows == res.summaries[0].players


def test_default_mode_is_the_games_and_a_length_change_is_said(tmp_path):
    assert get("balam").impact_default_mode == "neutral"
    neutral = impact("balam", "drought", None, 150, workdir=tmp_path, seed=2, jobs=1)
    assert neutral.manifest["impact"]["mode"] == "neutral"
    assert neutral.variants[1][0] == "drought neutral"
    it = impact_table(neutral)
    assert it["length changed"][0] == 0.0
    assert "changes the length" not in impact_text(neutral)
    removed = impact("balam", "drought", "remove", 150, workdir=tmp_path, seed=2, jobs=1)
    it = impact_table(removed)
    assert it["length changed"][0] > 0.5 and it["length diff"][0] < 0
    text = impact_text(removed)
    assert "Removing drought changes the length of" in text and "--mode neutral" in text
    page = write_impact_report(removed.game, removed, tmp_path / "r").read_text()
    assert "changes the length of" in page


def test_card_all_skips_cards_the_mode_cannot_change(tmp_path):
    res = impact("balam", "all", "remove", 60, workdir=tmp_path, seed=2, jobs=1)
    skipped = dict(res.manifest["impact"]["skipped"])
    assert "ball_game" in skipped and "ball_game" not in res.manifest["impact"]["cards"]
    assert "skipped ball_game" in impact_text(res)


def test_impact_errors():
    with pytest.raises(UsageError, match="did you mean 'pirate_0'"):
        impact("batam", "pirat", None, 10, jobs=1)
    with pytest.raises(UsageError, match="--metric must be one of"):
        impact("batam", "pirate_0", None, 10, metric="nonsense", jobs=1)


def test_cli_impact_prints_the_table_for_one_card(tmp_path):
    r = CliRunner().invoke(cli, ["impact", "batam", "--card", "pirate_0", "--games", "200",
                                 "--jobs", "1", "--metric", "win 0", "--out", str(tmp_path / "i")])
    assert r.exit_code == 0, r.output
    assert "pirate_0" in r.output and "95% interval" in r.output and "win rate, Red" in r.output
    data = json.loads((tmp_path / "i" / "experiment.json").read_text())
    assert data["manifest"]["headline"] == "win 0"
    assert np.asarray(data["stats"]["same"]).shape == (2,)


@pytest.mark.parametrize("d, lo, hi, key, drawn, want", [
    # neutralising the card lowers the first player's score: in play the card favours them
    (-0.042, -0.062, -0.022, "first player score", 10,
     "a medium fall of 4.2 points for the first player with the card made neutral; in play the "
     "card favours the first player"),
    (0.062, 0.040, 0.084, "first player score", 10,
     "a medium rise of 6.2 points for the first player with the card made neutral; in play the "
     "card works against the first player"),
    # too small to matter: still which way, and the caveat after the direction
    (-0.008, -0.015, -0.001, "first player score", 10,
     "a real but small fall of 0.8 points for the first player with the card made neutral: too "
     "small to matter in play; in play the card favours the first player"),
    # an interval across zero: no direction claimed for the card
    (-0.010, -0.023, 0.002, "first player score", 10,
     "no effect this run can detect, but it cannot rule one out (95% interval -2.3 to +0.2 points): "
     "about 870 games in all (1.45 times these) would tell"),
    # exactly zero: why
    (0.0, 0.0, 0.0, "first player score", 0,
     "no effect to measure: the card was never turned in these 600 games (it cannot come up in this "
     "setup, or too rarely to be seen)"),
    (0.0, 0.0, 0.0, "first player score", 4612,
     "no effect: the card was turned 4,612 times but changed no game's outcome with these bots"),
    (0.0, 0.0, 0.0, "first player score", None,
     "no effect: with the card made neutral, no game's outcome changed with these bots"),
])
def test_a_card_effect_says_which_way_how_big_and_why_zero(d, lo, hi, key, drawn, want):
    from analysis.impact import effect_words
    assert effect_words(d, lo, hi, key, "first-player score", "neutral", drawn, 600) == want


def test_the_ranking_says_when_its_leaders_cannot_be_told_apart():
    import pandas as pd

    from analysis.impact import _rank_notes
    # +6.2 [4.0, 8.4] and -4.2 [-6.2, -2.2]: sizes 4.0..8.4 and 2.2..6.2 overlap
    it = pd.DataFrame({"card": ["a", "b", "c"], "diff": [0.062, -0.042, 0.001],
                       "lo": [0.040, -0.062, -0.002], "hi": [0.084, -0.022, 0.004]})
    assert _rank_notes(it) == ["the leading 2 cards (a, b) have overlapping intervals with the largest: "
                               "their order is not settled at this number of games"]
    clear = it.assign(lo=[0.07, -0.062, -0.002], hi=[0.09, -0.022, 0.004])
    assert _rank_notes(clear) == ["a has the largest effect, and its interval clears the next card's"]


@pytest.mark.parametrize("x, n, want", [(0.0, 4000, "0%"), (3 / 20000, 20000, "0.015% (3 games)"),
                                        (0.25, 4000, "25.00%"), (50 / 4000, 4000, "1.2% (50 games)"),
                                        (float("nan"), 10, "")])
def test_a_share_of_a_few_games_is_not_printed_as_zero(x, n, want):
    from analysis.impact import _share
    assert _share(x, n) == want


def test_the_tables_read_the_same_way_as_the_ranking_figure(batam_all, tmp_path):
    """The ranking figure plots what a card does (in play minus changed); the terminal and page
    tables once showed the opposite sign (changed minus in play) beside it."""
    res, _ = batam_all
    it = impact_table(res)
    assert np.allclose(it["does"], -it["diff"]) and (it["does lo"] <= it["does"]).all()
    text = impact_text(res)
    assert "with the card in play minus with it removed" in text
    lines = {line.split(" ")[0]: line for line in text.splitlines()
             if line.split(" ")[0] in res.manifest["impact"]["cards"]}
    for _, r in it.iterrows():
        shown = float(lines[r["card"]].split()[1])
        assert shown == pytest.approx(100 * r["does"], abs=0.006)
    page = write_impact_report(res.game, res, tmp_path).read_text()
    assert "(in play minus removed)" in page
