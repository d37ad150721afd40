"""How Balam plays (issue #47): every turn is a choice among its options, counted the same for
every bot (sim/games/balam/howplays.py; the reference replay, tests/test_replay.py, recomputes
the counts from the rules at every turn); following the model's chances before every round
changes no other column and gives every game its figures."""
import numpy as np
import pytest

from sim.games import get
from sim.games.balam import features as F
from sim.playcols import COMPLEXITY, EVALUATION
from sim.value import pack

G = get("balam")
EV = [c.name for c in EVALUATION]


def play(ctx, players, bots, n, seed=3):
    ids, par = G.bot_arrays(G.choose_bots(bots, players))
    return G.play_chunk(ctx, players, seed, 0, n, ids, par)


def model(players, seed=7):
    f = F.n_features(players)
    rng = np.random.default_rng(seed)
    return pack(rng.normal(size=f), np.full(f, 10.0),
                [(rng.normal(size=(f, 4)), np.zeros(4)), (rng.normal(size=(4, 1)), [0.0])])


@pytest.mark.parametrize("players,bots,n", [(2, "random", 60), (3, "merchant,random,priest", 30),
                                            (4, "warlord,builder,merchant,random", 20),
                                            (2, "search:iters=4,merchant", 3)])
def test_following_the_models_chances_changes_no_other_column(players, bots, n):
    ctx = G.prepare(G.resolve_rules({}), players)
    mp, ms = model(players)
    plain = play(ctx, players, bots, n)
    with_model = F.attach_model(ctx, mp, ms)
    assert not isinstance(with_model, F.Evaluating)         # leaf=model alone follows nothing
    evaluating = F.attach_model(ctx, mp, ms, evaluate=True)
    assert isinstance(F.attach_model(evaluating, mp, ms), F.Evaluating)
    ev = play(evaluating, players, bots, n)
    for k in plain:
        if k in EV:
            assert (plain[k] == -1).all(), k
            assert (play(with_model, players, bots, 2)[k] == -1).all(), k
        else:
            assert np.array_equal(plain[k], ev[k]), k
    won = ev["winner"] >= 0
    for k in ("ev_changes", "ev_stability", "ev_uncertainty"):
        assert (ev[k] >= 0).all(), k
    assert (ev["ev_uncertainty"] <= 1000).all()
    for k in ("ev_drama", "ev_drama_max", "ev_decided", "ev_decided_thr"):
        assert ((ev[k] >= 0) == won).all(), k
    assert (ev["ev_drama"][won] <= ev["ev_drama_max"][won]).all()
    # a lead change needs two rounds evaluated at least: never more changes than rounds - 1
    assert (ev["ev_changes"] <= np.maximum(ev["rounds"] - 1, 0)).all()


@pytest.mark.parametrize("players,bots", [(2, "random"), (2, "merchant"),
                                          (4, "random,merchant,builder,priest")])
def test_every_turn_is_one_choice(players, bots):
    ctx = G.prepare(G.resolve_rules({}), players)
    out = play(ctx, players, bots, 80)
    assert set(c.name for c in COMPLEXITY) <= set(out)
    # every turn counted once, for the seat that played it (no safety-valve turn here)
    assert np.array_equal(out["decisions"] + out["forced"], out["turns_taken"])
    d = out["decisions"].sum(axis=1)
    f = out["forced"].sum(axis=1)
    assert np.array_equal(out["decision_share"], np.rint(1000 * d / (d + f)).astype(int))
    # a turn has a card to turn: at least one option, and the branching factor is at least 1
    assert (out["options_max"] >= 1).all() and (out["branching"] >= 100).all()
    assert ((out["decision_factor"] >= 200) | (d == 0)).all()
    assert (out["branching"] <= 100 * out["options_max"]).all()


def test_the_count_does_not_depend_on_the_bot_that_moves():
    """The same positions counted for every bot: a hand-built turn (kernel.turn_options) and
    the random bot's draw from the very options counted."""
    from sim.games.balam import state
    from sim.games.balam.howplays import card_options
    gs = np.zeros(state.NG, np.int64)
    gs[state.GS_NSLOT] = 4
    gs[state.GS_SLOT:state.GS_SLOT + 4] = (5, -1, 7, 9)      # three face down, the second turned
    gs[state.GS_KNOWN + 0] = 0b0101                      # seat 0 saw slots 0 and 2
    gs[state.GS_KNOWN + 1] = 0b0010                      # seat 1 saw only the turned one
    assert card_options(gs, 0) == 3                  # two seen, one unseen
    assert card_options(gs, 1) == 1                  # nothing seen: one option
    gs[state.GS_KNOWN + 0] = 0b1101
    assert card_options(gs, 0) == 3                  # all three seen


def test_the_taxed_mask_is_the_union_over_the_tax_paid():
    """howplays.taxed_afford_mask (one pass) against board.afford_mask of the hand less one
    riches of each held type in turn, on random hands."""
    from sim.games.balam.board import afford_mask
    from sim.games.balam.howplays import taxed_afford_mask
    R = G.prepare(G.resolve_rules({}), 2)[0]
    rng = np.random.default_rng(5)
    for _ in range(400):
        hand = rng.integers(0, 4, 6) * (rng.random(6) < 0.5)
        if hand.sum() == 0:
            continue
        want = 0
        for t in range(6):
            if hand[t] > 0:
                h = hand.copy()
                h[t] -= 1
                want |= afford_mask(h, R)
        assert taxed_afford_mask(hand.astype(np.int64), R) == want, hand
