"""How Puluc plays (issue #47): the complexity columns the kernel writes (``cx_finish``) are
``sim.playcols.complexity_columns`` of the same counts (the reference replay,
tests/test_replay.py, recomputes them from the legal moves at every cast); following a
model's chances changes no other column and gives every game its figures."""
import numpy as np

from sim.games import get
from sim.games.puluc import features as F
from sim.playcols import EVALUATION
from sim.value import pack

G = get("puluc")
EV = [c.name for c in EVALUATION]


def play(ctx, bots, n, seed=3):
    ids, par = G.bot_arrays(G.choose_bots(bots, 2))
    return G.play_chunk(ctx, 2, seed, 0, n, ids, par)


def test_following_the_models_chances_changes_no_other_column():
    ctx = G.prepare(G.resolve_rules({}), 2)
    f = F.n_features(2)
    rng = np.random.default_rng(7)
    mp, ms = pack(rng.normal(size=f), np.ones(f),
                  [(rng.normal(size=(f, 4)), np.zeros(4)), (rng.normal(size=(4, 1)), [0.0])])
    for bots in ("random", "greedy,search"):
        plain = play(ctx, bots, 60)
        assert F.attach_model(ctx, mp, ms) is ctx          # the bots read no model
        ev = play(F.attach_model(ctx, mp, ms, evaluate=True), bots, 60)
        for k in plain:
            if k in EV:
                assert (plain[k] == -1).all(), k
            else:
                assert np.array_equal(plain[k], ev[k]), k
        won = ev["winner"] >= 0
        for k in ("ev_changes", "ev_stability", "ev_uncertainty"):
            assert (ev[k] >= 0).all(), k
        for k in ("ev_drama", "ev_drama_max", "ev_decided", "ev_decided_thr"):
            assert ((ev[k] >= 0) == won).all(), k
        assert (ev["ev_drama"][won] <= ev["ev_drama_max"][won]).all()
        # every cast with a legal move is a choice: decisions and forced moves add up to the moves
        assert np.array_equal(plain["decisions"].sum(axis=1) + plain["forced"].sum(axis=1), plain["moves"])
        assert ((plain["options_max"] >= 1) | (plain["moves"] == 0)).all()
