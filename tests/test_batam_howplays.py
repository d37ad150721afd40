"""How Batam plays (issue #47): the search bot's choices are counted as the reference counts
them (the reference replay, tests/test_replay.py, checks the random and heuristic bots'
counts against the legal options it recomputes); following a model's chances changes no
other column and gives every game its figures; the search's rollouts count nothing; the
report's section carries the figures."""
import numpy as np
import pytest

from analysis.play_report import figures, section
from sim.games import get
from sim.games.batam import features as F
from sim.games.batam import howplays as H
from sim.playcols import COMPLEXITY, EVALUATION
from sim.record import record_run
from sim.summary import Summary
from sim.value import pack
from tests.reference import batam_ref

G = get("batam")
EV = [c.name for c in EVALUATION]


def play(ctx, players, bots, n, seed=4):
    ids, par = G.bot_arrays(G.choose_bots(bots, players))
    return G.play_chunk(ctx, players, seed, 0, n, ids, par)


def model(players, seed=1, hidden=4):
    f = F.n_features(players)
    rng = np.random.default_rng(seed)
    return pack(rng.normal(size=f), np.ones(f) * 50,
                [(rng.normal(size=(f, hidden)), np.zeros(hidden)), (rng.normal(size=(hidden, 1)), [0.0])])


def test_wage_options_count_captain_and_sailor_pairs():
    for c in range(0, 12):
        pairs = sum(1 for cap in range(1, c) for sal in range(1, c - cap + 1))
        assert H.wage_options(c) == max(pairs, 1), c


@pytest.mark.parametrize("players,bots", [(2, "search:iters=8,heuristic"),
                                          (3, "heuristic,search:iters=6,random")])
def test_the_search_bots_choices_are_counted_once_as_the_reference_counts_them(players, bots):
    """The search seat's decisions stop the loop (NEED) and resume it: each is counted once,
    with the rules' options, and its rollouts add nothing to the real game's counts."""
    recs = record_run("batam", range(4), bots=bots, players=players, seed=7)
    for r in recs:
        want = batam_ref.replay(r)
        for c in COMPLEXITY:
            names = [f"{c.name}_{s}" for s in range(players)] if c.per_seat else [c.name]
            for k in names:
                assert int(r.columns[k]) == int(want[k]), (k, r.index)
        assert sum(int(r.columns[f"decisions_{s}"]) for s in range(players)) > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_following_the_models_chances_changes_no_other_column(players):
    R = G.prepare(G.resolve_rules({}), players)
    mp, ms = model(players)
    plain = play(F.attach_model(R, mp, ms), players, "heuristic", 30)
    ev = play(F.attach_model(R, mp, ms, evaluate=True), players, "heuristic", 30)
    for k in plain:
        if k not in EV:
            assert np.array_equal(plain[k], ev[k]), k
        else:
            assert (plain[k] == -1).all(), k
    for k in ("ev_changes", "ev_stability", "ev_uncertainty"):
        assert (ev[k] >= 0).all(), k
    won = ev["winner"] >= 0
    assert won.any()
    for k in ("ev_drama", "ev_drama_max", "ev_decided", "ev_decided_thr"):
        assert ((ev[k] >= 0) == won).all(), k
    assert (ev["ev_drama"][won] <= ev["ev_drama_max"][won]).all()
    assert (ev["ev_decided"][won] <= 100).all() and (ev["ev_decided_thr"][won] <= 100).all()
    assert (ev["ev_uncertainty"] <= 1000).all() and (ev["ev_stability"] <= 10000).all()
    # the complexity columns: every game has choices, the ranges hold
    assert (plain["decisions"].sum(axis=1) > 0).all()
    assert ((plain["decision_share"] >= 0) & (plain["decision_share"] <= 1000)).all()
    assert (plain["branching"] >= 100).all() and (plain["decision_factor"] >= 200).all()
    assert (plain["options_max"] >= 8).all()


def test_lead_changes_stay_within_the_rounds_evaluated():
    """One position per round start: a game of r rounds has at most r - 1 lead changes."""
    R = G.prepare(G.resolve_rules({}), 3)
    mp, ms = model(3, seed=5)
    ev = play(F.attach_model(R, mp, ms, evaluate=True), 3, "random", 40)
    assert (ev["ev_changes"] <= ev["rounds"] - 1).all()
    assert (ev["ev_changes"] > 0).any()


def test_the_search_with_a_model_evaluates_as_the_heuristic_plays():
    """Evaluation with a search seat (its rollouts share the loop): the figures are there,
    and the other columns are those of the plain run."""
    R = G.prepare(G.resolve_rules({}), 2)
    mp, ms = model(2, seed=3)
    bots = "search:iters=6,heuristic"
    plain = play(F.attach_model(R, mp, ms), 2, bots, 4)
    ev = play(F.attach_model(R, mp, ms, evaluate=True), 2, bots, 4)
    for k in plain:
        if k not in EV:
            assert np.array_equal(plain[k], ev[k]), k
    assert (ev["ev_uncertainty"] >= 0).all() and (plain["ev_uncertainty"] == -1).all()


def test_evaluation_without_a_model_is_refused():
    R = G.prepare(G.resolve_rules({}), 2)
    with pytest.raises(ValueError, match="value model"):
        play(R._replace(evaluate=True), 2, "heuristic", 2)


def test_the_report_section_carries_the_figures():
    R = G.prepare(G.resolve_rules({}), 3)
    mp, ms = model(3)
    cols = play(F.attach_model(R, mp, ms, evaluate=True), 3, "heuristic", 40)
    S = Summary.from_columns(G, 3, cols)
    man = {"seats": ["Red", "Blue", "Green"], "model": {"kind": "logistic", "games": 10, "log_loss": 0.5,
                                                        "log_loss_base": 0.69}}
    sec = section(S, G, man)
    labels = [r[0] for r in sec["rows"]]
    assert "branching factor" in labels and "lead changes" in labels and "drama" in labels
    fig = figures(S, G)
    assert fig["branching_lo"] <= fig["branching"] <= fig["branching_hi"]
    assert 0 <= fig["ev_uncertainty"] <= 100
