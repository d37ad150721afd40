"""Balam whole games: invariants over many games and the bots (the reference engine
replays recorded games: tests/test_replay.py)."""
import numpy as np
import pytest

from sim.games.balam import GAME, KATUN_COLS
from sim.games.balam import howplays, play, state
from sim.record import NO_RECORD, NO_SNAPS


def run(players, bots, rules=None, n=200, seed=1, start=0, raw=False):
    r = GAME.resolve_rules(rules or {})
    ctx = GAME.prepare(r, players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    if raw:  # the kernel's own per-seat rows (audit counter included)
        p2 = np.zeros((players, state.NBW))
        p2[:, :min(par.shape[1], state.NBW)] = par[:, :state.NBW]
        z = [np.zeros(n, dt) for dt in (np.int8, np.int8, np.int16, np.int32, np.int8, np.int8,
                                        np.int16, np.int64, np.int16, np.int8)]
        seat = np.zeros((n, players, state.NPL), np.int32)
        ctx = tuple(ctx)
        ch = play.chunk_arrays(ctx, ids, p2, NO_RECORD, NO_SNAPS, None)
        play.run_games(np.uint64(seed), np.int64(start), np.int64(n), ctx, p2, play.Results(*z, seat),
                    ch, howplays.how_plays(n, players))
        return seat
    return GAME.play_chunk(ctx, players, seed, start, n, ids, par)


@pytest.mark.parametrize("players,bots", [(2, "random"), (3, "builder,warlord,random"),
                                          (4, "merchant,priest,builder,random"), (2, "warlord")])
def test_conservation_of_riches_tiles_and_pyramids(players, bots):
    seat = run(players, bots, n=150, raw=True)
    assert (seat[:, 0, state.P_AUDIT] == 0).all()
    seat = run(players, bots, {"board": "small", "catastrophes": "all"}, n=60, raw=True)
    assert (seat[:, 0, state.P_AUDIT] == 0).all()


@pytest.mark.parametrize("rules", [{}, {"catastrophes": "all", "village_production": "forest",
                                        "control": "sum", "eclipse_jitter": 3},
                                   {"ball_games": 5}, {"board": "small"}])
def test_columns_are_consistent(rules):
    for players, bots in ((2, "builder,random"), (4, "random,warlord,priest,merchant")):
        out = run(players, bots, rules, n=150)
        src = (out["pp_ceremony"] + out["pp_cenote"] + out["pp_ballgame"] + out["pp_prosperous"]
               + out["pp_bonus"])
        assert (out["prestige"] == src).all()           # prestige only from the listed sources
        assert (out["pp_bonus"] == out["riches_left"] // 2).all()
        kat = sum(out[c].astype(int) for c in KATUN_COLS)
        assert (kat.sum(axis=1) == out["cards_turned"]).all()
        assert (out["katun_eclipse"].sum(axis=1) == (out["eclipse_round"] > 0)).all()
        target = rules.get("ball_games", 0) or players
        assert (out["ball_games"] == target).all() and (out["end_reason"] == 0).all()
        assert (out["katun_ball_game"].sum(axis=1) == target).all()
        assert not out["capped"].any()
        assert np.allclose(out["win"].sum(axis=1), 1.0)
        top = out["prestige"].max(axis=1)
        w = out["winner"]
        assert all(out["prestige"][i, w[i]] == top[i] for i in range(len(w)) if w[i] >= 0)
        assert (out["cities"] >= 0).all() and (out["cities"] <= 12).all()
        assert (out["buildings_lost"].sum(axis=1) == out["buildings_destroyed"].sum(axis=1)).all()
        # drama: a settling point exactly when someone won alone; changes fit in the rounds
        assert ((out["lead_settled"] >= 0) == (out["winner"] >= 0)).all()
        assert (out["lead_settled"] <= 100).all() and (out["lead_changes"] >= 0).all()
        assert (out["lead_changes"] <= out["rounds"] - 1).all()


def test_lengthened_balam_is_longer_and_horizon_caps():
    base = run(2, "builder", n=100)
    long = run(2, "builder", {"ball_games": 5}, n=100)
    assert long["rounds"].mean() > base["rounds"].mean() + 5
    capped = run(2, "builder", {"horizon": 3}, n=50)
    assert capped["capped"].all() and (capped["winner"] == -1).all()
    assert np.allclose(capped["win"], 0.5) and (capped["end_reason"] == 2).all()


def test_same_seed_same_games_and_chunking_does_not_matter():
    a = run(3, "random,builder,warlord", n=40)
    b = run(3, "random,builder,warlord", n=20, start=20)
    for c in ("prestige", "rounds", "katun_drought", "wars"):
        assert (a[c][20:] == b[c]).all()


def test_builder_beats_random_clearly():
    out = run(2, "builder,random", n=300)
    out2 = run(2, "random,builder", n=300)
    share = (out["win"][:, 0].mean() + out2["win"][:, 1].mean()) / 2
    assert share > 0.9


def test_card_impact_hooks_remove_and_neutralise(tmp_path):
    r = GAME.resolve_rules({})
    assert GAME.card_names(r)[9] == "drought"
    removed = GAME.card_rules(r, "drought", "remove", tmp_path)
    out = run(2, "merchant", removed, n=60)
    assert (out["katun_drought"] == 0).all() and out["cards_turned"].max() <= 66
    neutral = GAME.card_rules(r, "drought", "neutral", tmp_path)
    assert neutral == {"neutral_cards": "9"}
    quiet = run(2, "random", {"neutral_cards": "9,10,11,12,13,14,15,16"}, n=60)
    assert quiet["katun_drought"].sum() > 0
    assert (quiet["catastrophes_paid"] == 0).all() and (quiet["catastrophes_suffered"] == 0).all()
    ball = run(2, "merchant", {"neutral_cards": "7"}, n=30)
    assert (ball["pp_ballgame"] == 0).all() and (ball["ball_games"] == 2).all()
    with pytest.raises(Exception, match="neutral"):
        GAME.card_rules(r, "ball_game", "remove", tmp_path)
    figs = GAME.report_figures({"rules": r}, tmp_path)
    assert (tmp_path / figs[0][0]).exists()
