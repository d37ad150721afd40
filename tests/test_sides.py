"""Team games: fair shares, first-side advantage, decisive games and scores per side.

A side is a team (Maya with four players: seats 0 + 2 against 1 + 3) or, in every game
that declares no ``side_of``, a seat.  Synthetic columns check each statistic by hand; a
small four-player Maya run checks the report speaks of teams; a Puluc run checks that a
game without sides gets exactly its per-seat figures.
"""
import json

import numpy as np
import pytest

from analysis import metrics
from analysis.report import headline, summarize, text_summary, write_report
from sim.game import Column, Game
from sim.runner import execute
from sim.spec import make_spec
from sim.summary import Hist, Summary


def _team_game(side_of=lambda p: [s % 2 for s in range(p)]):
    return Game(name="teams", title="Teams", version=1, players=(4,), default_players=4,
                params=(), bots=(), default_bots=(),
                columns=(Column("turns", "int32", "turns"), Column("pts", "int16", "points", per_seat=True)),
                end_reasons=("done", "horizon"), length="turns", length_unit="turns",
                seat_names=lambda p: ["N", "E", "S", "W"][:p], prepare=None, run_chunk=None,
                side_of=side_of, score="pts")


def _cols(win, first, pts, turns=None):
    win = np.asarray(win, np.float32)
    n = win.shape[0]
    turns = np.arange(n) + 10 if turns is None else turns
    return {"win": win, "first_player": np.asarray(first, np.int8),
            "winner": np.full(n, -1, np.int8),
            "capped": np.zeros(n, bool), "end_reason": np.zeros(n, np.int8),
            "turns": np.asarray(turns, np.int32), "pts": np.asarray(pts, np.int16)}


# five games of a 4-seat, two-team game: team 0 = seats 0 + 2, team 1 = seats 1 + 3
WIN = [[1, 0, 1, 0],        # team 0 won, seat 0 moved first (team 0 first)
       [0, 1, 0, 1],        # team 1 won, seat 1 moved first (team 1 first)
       [0, 1, 0, 1],        # team 1 won, seat 2 moved first (team 0 first)
       [.5, .5, .5, .5],    # shared between the teams, seat 3 first (team 1 first)
       [0, 0, 0, 0]]        # nobody won, seat 0 first
FIRST = [0, 1, 2, 3, 0]
PTS = [[5, 1, 4, 2], [0, 3, 1, 3], [2, 2, 2, 2], [3, 3, 3, 3], [1, 0, 0, 0]]


def test_side_statistics_by_hand():
    S = Summary.from_columns(_team_game(), 4, _cols(WIN, FIRST, PTS))
    assert S.side_of == [0, 1, 0, 1] and S.n_sides == 2 and S.teams
    assert S.side_win.tolist() == [1.5, 2.5]
    # by turn order of the sides: game 0 team 0 first won; game 1 team 1 first won;
    # game 2 team 0 first, team 1 (second) won; game 3 shared; game 4 nobody
    assert S.side_win_pos.tolist() == [2.5, 1.5]
    assert S.side_first.tolist() == [3, 2]
    assert S.side_decisive == 3 and S.no_winner == 1
    assert S.side_dec_win.tolist() == [1, 2]
    assert S.side_dec_pos.tolist() == [2, 1]
    assert S.decisive == 0                        # no single seat ever won
    # team scores are the partners' sums; the margin is between the two teams
    assert S.side_hist("pts", 0).counts.sum() == 5
    team0 = [9, 1, 4, 6, 1]
    team1 = [3, 6, 4, 6, 0]
    assert np.array_equal(S.side_hist("pts", 0).counts, Hist.of(np.array(team0)).counts)
    assert np.array_equal(S.side_hist("pts", 1).counts, Hist.of(np.array(team1)).counts)
    margin = np.abs(np.array(team0) - np.array(team1))
    assert np.array_equal(S.hists["margin"].counts, Hist.of(margin).counts)
    assert S.hists["margin"].lo == 0
    # the figures: fair share 1/2, first-team advantage, decisive games per team
    f = metrics.first_player_advantage(S)
    assert f["fair"] == 0.5 and f["rate"] == pytest.approx(2.5 / 5)
    oc = metrics.outcome_counts(S)
    assert (oc["decisive"], oc["no_winner"], oc["shared"]) == (3, 1, 1)
    dp = metrics.decisive_position_rates(S)
    assert dp["rate"].tolist() == pytest.approx([2 / 3, 1 / 3])
    assert list(metrics.position_win_rates(S)["label"]) == ["1st team", "2nd team"]


def test_side_statistics_merge_serialise_and_equal_the_whole():
    g = _team_game()
    whole = Summary.from_columns(g, 4, _cols(WIN, FIRST, PTS))
    a = Summary.from_columns(g, 4, _cols(WIN[:2], FIRST[:2], PTS[:2], [10, 11]))
    b = Summary.from_columns(g, 4, _cols(WIN[2:], FIRST[2:], PTS[2:], [12, 13, 14]), start=2)
    merged = Summary.merge_all([a, b], 4)          # starts from an empty Summary(4)
    assert merged.to_dict() == whole.to_dict()
    back = Summary.from_json(whole.to_json())
    assert back.to_dict() == whole.to_dict() and back.side_of == [0, 1, 0, 1]
    assert json.loads(whole.to_json())["end_reasons"] == {"0": "done", "1": "horizon"}
    other = Summary.from_columns(_team_game(lambda p: [0, 0, 1, 1]), 4, _cols(WIN, FIRST, PTS))
    with pytest.raises(ValueError, match="different sides"):
        whole.merge(other)


def test_a_summary_written_before_sides_loads_as_seats():
    d = Summary.from_columns(_team_game(lambda p: list(range(p))), 4, _cols(WIN, FIRST, PTS)).to_dict()
    d.pop("sides")
    d.pop("end_reasons")
    S = Summary.from_dict(d)
    assert S.side_of == [0, 1, 2, 3] and S.side_win.tolist() == S.win.tolist()


def test_a_game_without_sides_gets_its_seat_figures():
    res = execute(make_spec("puluc", 3000, {"cap": 60}, "greedy,random", None, 4), jobs=1,
                  progress=False, rows="memory")
    S = res.summary
    assert not S.teams and S.side_of == [0, 1]
    assert S.side_win.tolist() == S.win.tolist()
    assert S.side_win_pos.tolist() == S.win_pos.tolist()
    assert S.side_decisive == S.decisive == int((res.frame["winner"] >= 0).sum())
    assert S.no_winner > 0                      # a 60-cast cap leaves draws to test with
    first = res.frame["first_player"].to_numpy()
    won = np.where(first == 0, res.frame["winner"] == 0, res.frame["winner"] == 1)
    assert S.side_dec_pos[0] == int(won.sum())


@pytest.fixture(scope="module")
def maya4():
    return execute(make_spec("maya", 2000, None, None, 4, 2), jobs=1, progress=False, rows="memory")


def test_four_player_maya_is_judged_per_team(maya4):
    S, df = maya4.summary, maya4.frame
    assert S.side_of == [0, 1, 0, 1]
    tw = df["team_winner"].to_numpy()
    assert S.side_dec_win.tolist() == [int((tw == 0).sum()), int((tw == 1).sum())]
    assert S.side_decisive == int((tw >= 0).sum()) > 0.9 * S.n
    for k in range(2):
        assert np.array_equal(S.side_hist("score", k).counts, Hist.of(df[f"team_score_{k}"].to_numpy()).counts)
    s = summarize(S, maya4.manifest, maya4.spec.game)
    assert s["first"]["fair"] == 0.5
    assert abs(s["first"]["advantage"]) < 0.05      # each team wins about half
    assert s["outcomes"]["decisive_rate"] > 0.9
    words = " ".join(headline(s, maya4.manifest, maya4.spec.game))
    assert "team North + South won" in words.replace("Team", "team")
    assert "fair share of 50.0%" in words and "fair share of 25.0%" not in words
    assert "real advantage" not in words and "large advantage" not in words
    # Maya 4p games often reach the horizon: the mean length says it counts them at the cap
    length = next(line for line in headline(s, maya4.manifest, maya4.spec.game) if line.startswith("A game lasts"))
    assert s["outcomes"]["capped"] > 0
    assert f"count the {100 * s['outcomes']['capped_rate']:.1f}% of games stopped by the horizon" in length
    text = text_summary(s, maya4.manifest, maya4.spec.game)
    assert "1st team" in text and "team East + West" in text


def test_four_player_maya_report_speaks_of_teams(maya4, tmp_path):
    manifest = dict(maya4.manifest)
    page = write_report(maya4.summary, manifest, maya4.spec.game, tmp_path).read_text()
    assert "A team game" in page and "1st team" in page and "first-team advantage" in page
    assert "exactly one team won" in page
    assert manifest["end_reasons"] == {"0": "no legal exchange", "1": "end declared", "2": "horizon reached"}
    assert (tmp_path / "scores.png").is_file() and (tmp_path / "margin.png").is_file()


def test_four_player_maya_draws_no_empty_per_seat_panels(maya4, tmp_path):
    """Ladders and priests are two-player rules: with four players every seat's count is 0,
    so their panels are left out and the caption says why (they read as broken plots)."""
    from analysis.report import nonzero_seat_means
    s = summarize(maya4.summary, maya4.manifest, maya4.spec.game)
    drawn, zero = nonzero_seat_means(s["seat_means"])
    assert zero == ["ladders", "priests"] and "score" in drawn
    page = write_report(maya4.summary, dict(maya4.manifest), maya4.spec.game, tmp_path).read_text()
    assert "Not drawn: ladders, priests, zero for every seat in every game of this run." in page
    assert (tmp_path / "seat_means.png").is_file()
