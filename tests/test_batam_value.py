"""Batam's learned value (issue #46): a seat's features read only what it may know, the
sampler plays the kernel's own games, and the search's ``leaf=model`` plays legal games and
is stronger with a trained model than with one that knows nothing."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sim.games.batam import GAME
from sim.games.batam import features as F
from sim.record import NO_RECORD, NO_SNAPS
from sim.games.batam import loop, state
from sim.value import pack
from tests.test_batam_search import setup_game


def ctx_bots(players, bots, **rules):
    ctx = GAME.prepare(GAME.resolve_rules(rules), players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return ctx, ids, par


def round_starts(players, bots, seed, game, **rules):
    """The round starts of one game of ``bots`` (state and cursor copies), played as the
    kernel plays it, one round at a time."""
    ctx, ids, bp, st, rs, sc, _ = setup_game(players, bots, seed, game, **rules)
    ru = ctx._replace(R=ctx.R.copy())
    out = []
    for rnd in range(int(ctx.R[state.R_HORIZON])):
        out.append((state.copy_state(st), rs.copy(), sc.cur.copy()))
        ru.R[state.R_HORIZON] = rnd + 1
        loop.play_from(st, ru, ids, bp, rs, sc, NO_RECORD, NO_SNAPS)
        if sc.cur[state.C_ER] != state.END_HORIZON:
            break
    return out


def row(st, ctx, cur, p, players):
    x = np.full(F.n_features(players), np.nan)
    F.features(st, ctx, cur, p, x)
    return x


@pytest.mark.parametrize("players,compass", [(2, "cards"), (3, "tiles"), (4, "cards")])
def test_a_seats_features_read_only_what_it_may_know(players, compass):
    """Every round start of a few games: changing the compass deck's order, the chance base,
    the dice substreams and every bot stream changes no seat's row; the rows are finite, and
    seat p's block k is seat (p + k)'s own block (own first, then the rivals in turn order)."""
    ctx, _, _ = ctx_bots(players, "heuristic", compass=compass)
    rng = np.random.default_rng(7)
    n = F.n_features(players)
    seen = 0
    for game in range(4):
        for st, rs, cur in round_starts(players, "heuristic", 13, game, compass=compass):
            hidden = state.copy_state(st)
            k = hidden.g[state.G_DECKN]
            hidden.deck[:k] = rng.permutation(hidden.deck[:k])
            rows = [row(st, ctx, cur, p, players) for p in range(players)]
            for p in range(players):
                assert np.isfinite(rows[p]).all() and rows[p].shape == (n,)
                assert np.array_equal(rows[p], row(hidden, ctx, cur, p, players))
                for b in range(players):
                    q = (p + b) % players
                    blk = slice(b * F.SEAT_F, (b + 1) * F.SEAT_F)
                    assert np.array_equal(rows[p][blk], rows[q][:F.SEAT_F])
            seen += 1
    assert seen >= 12
    # and what it may know does change it: a coin more
    st, _, cur = round_starts(players, "heuristic", 13, 0, compass=compass)[-1]
    more = state.copy_state(st)
    more.coins[0] += 1
    assert row(more, ctx, cur, 0, players)[0] == row(st, ctx, cur, 0, players)[0] + 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sample_plays_the_kernels_games_and_keeps_its_shapes(players):
    """sample() plays the games run_chunk plays (each game's outcomes are its win shares),
    returns one row per (position, seat) with consistent shapes, at most per_game positions a
    game, and is the same whether the games are sampled at once or in two parts."""
    ctx, ids, par = ctx_bots(players, F.TRAIN_BOTS)
    d = F.sample(ctx, players, 11, 5, 40, ids, par, 3)
    m = len(d["X"])
    assert d["X"].dtype == np.float32 and d["X"].shape == (m, F.n_features(players))
    for k, dt in (("seat", np.int16), ("game", np.int64), ("progress", np.float32),
                  ("outcome", np.float32), ("baseline", np.float32)):
        assert d[k].shape == (m,) and d[k].dtype == dt, k
    assert set(np.unique(d["game"])) == set(range(5, 45))
    assert np.bincount(d["game"] - 5).max() <= 3 * players
    assert np.all((d["progress"] >= 0) & (d["progress"] <= 1))
    assert np.all((d["baseline"] > 0) & (d["baseline"] < 1))
    cols = GAME.play_chunk(ctx, players, 11, 5, 40, ids, par)
    win = cols["win"][d["game"] - 5, d["seat"]]
    capped = cols["end_reason"][d["game"] - 5] == 1
    assert np.allclose(d["outcome"], np.where(capped, 1 / players, win))
    # every position's shares add up to 1
    assert np.allclose(np.add.reduceat(d["outcome"], np.arange(0, m, players)), 1.0)
    a = F.sample(ctx, players, 11, 5, 15, ids, par, 3)
    b = F.sample(ctx, players, 11, 20, 25, ids, par, 3)
    for k in d:
        assert np.array_equal(d[k], np.concatenate([a[k], b[k]])), k


def test_a_game_stopped_by_the_horizon_counts_the_fair_share():
    ctx, ids, par = ctx_bots(3, "random", horizon=2)
    d = F.sample(ctx, 3, 1, 0, 20, ids, par, 2)
    cols = GAME.play_chunk(ctx, 3, 1, 0, 20, ids, par)
    capped = np.flatnonzero(cols["end_reason"] == 1)
    assert capped.size > 0
    assert np.allclose(d["outcome"][np.isin(d["game"], capped)], 1 / 3)


def tiny_model(players, games=3000):
    """A logistic regression fitted on ``games`` heuristic games (scikit-learn)."""
    from sklearn.linear_model import LogisticRegression
    ctx, ids, par = ctx_bots(players, F.TRAIN_BOTS)
    d = F.sample(ctx, players, 101, 0, games, ids, par, 4)
    X = d["X"].astype(np.float64)
    y = d["outcome"].astype(np.float64)
    X2, y2, w2 = np.vstack([X, X]), np.r_[np.ones(len(y)), np.zeros(len(y))], np.r_[y, 1 - y]
    mean, scale = X.mean(0), X.std(0)
    scale[scale < 1e-9] = 1.0
    lr = LogisticRegression(C=1.0, max_iter=1000).fit((X2 - mean) / scale, y2, sample_weight=w2)
    return pack(mean, scale, [(lr.coef_.T, lr.intercept_)])


def test_attach_model_checks_and_prepare_has_none():
    ctx, _, _ = ctx_bots(2, "heuristic")
    assert ctx.mp.shape == (0,) and ctx.ms.shape == (0,)
    mp, ms = pack(np.zeros(F.n_features(2)), np.ones(F.n_features(2)), [(np.zeros((F.n_features(2), 1)), [0.0])])
    assert F.attach_model(ctx, mp, ms).ms[0] == F.n_features(2)
    with pytest.raises(ValueError, match="features"):
        F.attach_model(GAME.prepare(GAME.resolve_rules({}), 3), mp, ms)


def test_leaf_model_plays_legal_games():
    """Games with leaf=model seats (cut at the end of the round, and one round later),
    recorded and replayed by the reference engine: every decision legal, every column the
    same."""
    from sim.record import record_games
    from tests.reference import batam_ref as ref
    from tests.test_replay import compare_columns
    mp, ms = tiny_model(3, 400)
    for players, bots, compass in ((3, "search:iters=6;leaf=model;keep=0,heuristic,search:iters=4;leaf=model;horizon=1",
                                    "cards"),):
        ctx, ids, par = ctx_bots(players, bots, compass=compass)
        ctx = F.attach_model(ctx, mp, ms)
        rules = GAME.resolve_rules(dict(compass=compass))
        labels = [c.label for c in GAME.choose_bots(bots, players)]
        width, rows = GAME.record_shape(rules, players)
        recs = record_games(GAME, ctx, players, 21, list(range(4)), ids, par, rules, labels, 200_000,
                            width, rows)
        for r in recs:
            compare_columns(r.columns, ref.replay(r), f"game {r.index} ({bots})")


def score(ctx, a, b, games, seed):
    """a's mean win share against b, two players, both seatings on the same seeds."""
    s = []
    for seat in (0, 1):
        spec = [b, b]
        spec[seat] = a
        ids, par = GAME.bot_arrays(GAME.choose_bots(",".join(spec), 2))
        s.append(GAME.play_chunk(ctx, 2, seed, 0, games, ids, par)["win"][:, seat])
    return np.concatenate(s)


def test_a_trained_model_plays_stronger_than_one_that_knows_nothing():
    """search:iters=24;leaf=model;keep=0 against the heuristic, 200 games in both seatings:
    with a model fitted on 3,000 heuristic games it wins clearly more than with a model of
    zero weights (every position worth 1/2: its searched choices are ties broken at random)."""
    base, ids, par = ctx_bots(2, "heuristic")
    mp, ms = tiny_model(2)
    zero = pack(mp[:F.n_features(2)], mp[F.n_features(2):2 * F.n_features(2)],
                [(np.zeros((F.n_features(2), 1)), [0.0])])
    bot = "search:iters=24;leaf=model;keep=0"
    trained = score(F.attach_model(base, mp, ms), bot, "heuristic", 100, 5)
    blind = score(F.attach_model(base, *zero), bot, "heuristic", 100, 5)
    d = trained - blind
    half = 1.96 * d.std() / math.sqrt(d.size)
    assert trained.mean() > 0.6 and d.mean() - half > 0.1, (trained.mean(), blind.mean(), half)


def test_leaf_model_without_a_model_is_refused():
    """A search seat at leaf=model with no model in the rules context (a caller of play_chunk
    that skipped make_spec, as bench/strong.py's cost rows do) played the formula's search
    silently: a measure of another bot.  It is refused, as Balam refuses it."""
    ctx = GAME.prepare(GAME.resolve_rules({}), 2)
    ids, par = GAME.bot_arrays(GAME.choose_bots("search:iters=4;leaf=model,heuristic", 2))
    with pytest.raises(ValueError, match="value model"):
        GAME.play_chunk(ctx, 2, 1, 0, 1, ids, par)
    ids, par = GAME.bot_arrays(GAME.choose_bots("search:iters=4,heuristic", 2))
    assert GAME.play_chunk(ctx, 2, 1, 0, 2, ids, par)["winner"].shape == (2,)


def test_training_on_the_search_bots_games_is_refused_in_one_line(tmp_path, monkeypatch):
    """Batam's sampler plays no search bot: a training with it (sim learn --bots search) is a
    user's error, said in one line, exit 2, nothing written (it was a traceback)."""
    from click.testing import CliRunner
    from sim.cli import cli
    from sim.learn import ENV_DIR
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ENV_DIR, str(tmp_path / "models"))
    r = CliRunner().invoke(cli, ["learn", "batam", "--bots", "search:iters=2", "--games", "40"])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == ["sim: error: batam learns its value from the heuristic's or the "
                                             "random bot's games only (its sampler plays no search bot; "
                                             "the heuristic's are the default)"]
    assert list(tmp_path.iterdir()) == []
