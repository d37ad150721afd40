"""Batam invariants over many random and heuristic games (2-4 players, every compass mode)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.batam import GAME, SEAT_FIELDS
from sim.record import NO_RECORD, NO_SNAPS
from sim.games.batam import play, state
from tests.test_batam_rules import make_ctx, tallies

BANK = 628


def run(players, bots, count, seed=3, start=0, **rules):
    ctx = GAME.prepare(GAME.resolve_rules(rules), players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return GAME.play_chunk(ctx, players, seed, start, count, ids, par)


CASES = [(p, b, m) for p in (2, 3, 4) for b in ("random", "heuristic", "random,heuristic")
         for m in ("tiles", "cards", "none")]


@pytest.mark.parametrize("players,bots,mode", CASES)
def test_money_goods_and_end_invariants(players, bots, mode):
    if bots == "random,heuristic":
        bots = ",".join(["random", "heuristic", "gambler", "spiteful"][:players])
    n = 60 if "random" == bots else 150
    out = run(players, bots, n, compass=mode, horizon=25)
    coins = out["coins"].astype(np.int64)
    # money is conserved between players and the bank; the bank never pays what it lacks
    assert (coins.sum(1) + out["bank"] == BANK).all()
    assert (out["bank"] >= 0).all() and (coins >= 0).all()
    # goods: at most four each; the ender sold all four; a finished game has an ender
    assert ((out["goods_sold"] >= 0) & (out["goods_sold"] <= 4)).all()
    fin = ~out["capped"]
    assert (out["ender"][fin] >= 0).all() and (out["ender"][out["capped"]] == -1).all()
    rows = np.flatnonzero(fin)
    assert (out["goods_sold"][rows, out["ender"][rows]] == 4).all()
    assert (out["return_bonus"][rows, out["ender"][rows]] == 10).all()
    assert (out["return_bonus"][out["capped"]] == 0).all()
    assert np.isin(out["return_bonus"], (0, 10)).all()
    assert (out["rounds"][out["capped"]] == 25).all() and (out["rounds"] <= 25).all()
    assert (out["end_reason"] == out["capped"].astype(np.int8)).all()
    # wages: what was paid is what was earned
    assert (out["wages_paid"].sum(1) == out["wages_earned"].sum(1)).all()
    # re-rolls: 2 coins for a turn's first, 1 for each further one (the rulebook's totals)
    rr, rc = out["rerolls"], out["reroll_coins"]
    assert ((rc >= rr + (rr > 0)) & (rc <= 2 * rr)).all()
    # compass effects only where the mode has them; tiles: two sunken treasures, two maps
    ev = ("compass_tradewind", "compass_sunken", "compass_map", "compass_pirate")
    if mode == "none":
        assert all((out[e] == 0).all() for e in ev)
        assert (out["treasure_coins"] == 0).all() and (out["pirate_coins"] == 0).all()
    if mode == "tiles":
        assert (out["compass_sunken"].sum(1) <= 2).all() and (out["compass_map"].sum(1) <= 2).all()
        assert (out["compass_tradewind"] <= out["rounds"][:, None]).all()
    if mode == "cards":
        assert (out["compass_map"].sum(1) <= 3).all()
    # the crew row starts at the first player
    fp = out["first_player"].astype(np.int64)
    assert (out["crew_pos"][np.arange(n), fp] == 0).all()
    assert (np.sort(out["crew_pos"], 1) == np.arange(players)).all()
    # winners: most coins, then most goods
    for i in range(n):
        best = max(zip(coins[i], out["goods_sold"][i]))
        tops = [s for s in range(players) if (coins[i, s], out["goods_sold"][i, s]) == best]
        assert out["winner"][i] == (tops[0] if len(tops) == 1 else -1)
        assert np.allclose(out["win"][i][tops], 1 / len(tops))


def test_cubes_and_money_conserved_inside_the_state():
    """Play games with the kernel's own loop and look at the final state arrays."""
    for players in (2, 3, 4):
        ctx = make_ctx(players, compass="cards")
        ids, par = GAME.bot_arrays(GAME.choose_bots("heuristic", players))
        bp = np.zeros((players, state.N_BOTPAR))
        bp[:, :par.shape[1]] = par
        st = state.new_state()
        rs = np.zeros(state.N_RS, np.uint64)
        tal = tallies(st)
        for g in range(40):
            play.play_game(g, np.uint64(5), ctx, ids, bp, st, rs, play.new_scratch(ctx), NO_RECORD, NO_SNAPS)
            cubes = st.cube
            assert cubes.sum() == st.goods[:players].sum()
            assert (cubes.sum(1) == st.ncube[:state.MAXI]).all()
            assert (cubes[0] == 0).all()                    # nothing is sold on Batam
            assert (cubes.sum(0)[:players] == st.goods[:players]).all()
            assert st.g[state.G_BANK] + st.coins[:players].sum() == BANK
            assert st.offer.sum() == 0 and st.nb[:4].sum() == 0
            # the compass deck: every card is in the deck, the discards or was a map
            n_cards = st.g[state.G_DECKN] + st.g[state.G_DISCN] + tal[state.T_MAP].sum()
            assert n_cards == ctx.R[state.R_NK]


def test_unlimited_bank_conserves_money_too():
    out = run(4, "heuristic", 100, sale=200, bank_empty="unlimited")
    assert (out["coins"].astype(np.int64).sum(1) + out["bank"] == BANK).all()
    assert (out["bank_short"] > 0).any() and (out["bank"] < 0).any()
    short = run(4, "heuristic", 100, sale=200)
    assert (short["bank"] >= 0).all() and (short["bank_short"] > 0).any()


def test_heuristic_beats_random_clearly():
    for players in (2, 4):
        bots = ",".join(["heuristic"] + ["random"] * (players - 1))
        out = run(players, bots, 300, seed=11)
        assert out["win"][:, 0].mean() > 0.8
        rev = ",".join(["random"] * (players - 1) + ["heuristic"])
        out = run(players, rev, 300, seed=11)
        assert out["win"][:, players - 1].mean() > 0.8


def test_styles_differ_and_the_default_is_not_beaten_by_the_extremes():
    """One style against three default heuristic bots, every seat in turn (deterministic
    for the seed): the cheap and the lavish wage policies both lose ground."""
    for style in ("miser", "gambler"):
        wins = []
        for seat in range(4):
            bots = ["heuristic"] * 4
            bots[seat] = style
            out = run(4, ",".join(bots), 400, seed=13)
            wins.append(out["win"][:, seat].mean())
        assert np.mean(wins) < 0.23, style


def test_game_length_is_a_handful_of_rounds():
    for players in (2, 3, 4):
        out = run(players, "heuristic", 300)
        assert not out["capped"].any()
        assert 3 <= out["rounds"].mean() <= 8


def test_chunking_and_bot_streams():
    whole = run(3, "random,heuristic,random", 30, seed=8)
    a = run(3, "random,heuristic,random", 12, seed=8)
    b = run(3, "random,heuristic,random", 18, seed=8, start=12)
    for k in whole:
        assert np.array_equal(whole[k], np.concatenate([a[k], b[k]])), k
    # the first player and the compass set-up depend on the chance stream only
    other = run(3, "heuristic,heuristic,heuristic", 30, seed=8)
    assert np.array_equal(whole["first_player"], other["first_player"])


def test_horizon_results():
    out = run(4, "random", 30, horizon=3)
    assert out["capped"].all() and (out["rounds"] == 3).all()
    assert (out["winner"] >= -1).all()
    draw = run(4, "random", 30, horizon=3, horizon_result="draw")
    assert (draw["winner"] == -1).all() and np.allclose(draw["win"], 0.25)


def test_columns_listed_for_card_impact():
    for e in GAME.events:
        assert e in SEAT_FIELDS and e.startswith("compass_")
