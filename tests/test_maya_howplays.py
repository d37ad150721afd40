"""How Maya plays (issue #47): the complexity counts of the fast two-random-bots loop equal
the general loop's (the reference replay, tests/test_replay.py, checks the general loop's
against the legal exchanges it recomputes); following a model's chances changes no other
column and gives every game its figures; the report's section and the API summary carry
them; a game that cannot follow a win probability is refused in one line."""
import numpy as np
import pytest

from analysis.play_report import figures, section
from sim.games import get
from sim.games.maya import features as F
from sim.params import UsageError
from sim.playcols import COMPLEXITY, EVALUATION
from sim.record import record_run
from sim.spec import make_spec
from sim.summary import Summary
from sim.value import pack

G = get("maya")
CX = [c.name for c in COMPLEXITY]
EV = [c.name for c in EVALUATION]


def play(ctx, players, bots, n, seed=4):
    ids, par = G.bot_arrays(G.choose_bots(bots, players))
    return G.play_chunk(ctx, players, seed, 0, n, ids, par)


def test_the_fast_random_loop_counts_choices_as_the_general_loop_does():
    R = G.prepare(G.resolve_rules({}), 2)
    fast = play(R, 2, "random", 12)
    for r in record_run("maya", range(12), bots="random", players=2, seed=4):
        for c in COMPLEXITY:
            want = fast[c.name][r.index]
            got = [r.columns[f"{c.name}_{s}"] for s in range(2)] if c.per_seat else r.columns[c.name]
            assert np.array_equal(np.asarray(got), np.asarray(want)), (c.name, r.index)
    assert (fast["decisions"].sum(axis=1) > 0).all() and (fast["options_max"] > 1).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_following_the_models_chances_changes_no_other_column(players):
    R = G.prepare(G.resolve_rules({}), players)
    f = F.n_features(players)
    rng = np.random.default_rng(players)
    mp, ms = pack(rng.normal(size=f), np.ones(f),
                  [(rng.normal(size=(f, 4)), np.zeros(4)), (rng.normal(size=(4, 1)), [0.0])])
    plain = play(F.attach_model(R, mp, ms), players, "greedy", 25)
    ev = play(F.attach_model(R, mp, ms, evaluate=True), players, "greedy", 25)
    for k in plain:
        if k not in EV:
            assert np.array_equal(plain[k], ev[k]), k
        else:
            assert (plain[k] == -1).all(), k
    for k in ("ev_changes", "ev_stability", "ev_uncertainty"):
        assert (ev[k] >= 0).all(), k
    won = ev["team_winner"] >= 0
    for k in ("ev_drama", "ev_drama_max", "ev_decided", "ev_decided_thr"):
        assert ((ev[k] >= 0) == won).all(), k
    assert (ev["ev_drama"][won] <= ev["ev_drama_max"][won]).all()
    assert (ev["ev_decided"][won] <= 100).all() and (ev["ev_uncertainty"] <= 1000).all()


def test_the_report_section_and_the_api_summary_carry_the_figures():
    R = G.prepare(G.resolve_rules({}), 2)
    f = F.n_features(2)
    mp, ms = pack(np.zeros(f), np.ones(f), [(np.random.default_rng(1).normal(size=(f, 1)), [0.0])])
    cols = play(F.attach_model(R, mp, ms, evaluate=True), 2, "greedy", 40)
    S = Summary.from_columns(G, 2, cols)
    man = {"seats": ["White", "Black"], "model": {"kind": "logistic", "games": 10, "log_loss": 0.5,
                                                   "log_loss_base": 0.69}}
    sec = section(S, G, man)
    labels = [r[0] for r in sec["rows"]]
    assert "branching factor" in labels and "lead changes" in labels and "drama" in labels
    assert "learned value model (logistic" in sec["evaluation"]
    fig = figures(S, G)
    assert fig["branching_lo"] <= fig["branching"] <= fig["branching_hi"]
    assert 0 <= fig["ev_uncertainty"] <= 100
    # not evaluated: no state-evaluation rows, and the section says how to get them
    S0 = Summary.from_columns(G, 2, play(R, 2, "greedy", 40))
    sec0 = section(S0, G, man)
    assert "lead changes" not in [r[0] for r in sec0["rows"]] and "--evaluate" in sec0["evaluation"]


def test_a_game_that_cannot_follow_a_win_probability_is_refused_in_one_line():
    import dataclasses
    cannot = dataclasses.replace(get("puluc"), evaluates=False)
    with pytest.raises(UsageError) as e:
        make_spec(cannot, 10, evaluate=True)
    assert "\n" not in str(e.value) and "maya" in str(e.value) and "puluc cannot" in str(e.value)
