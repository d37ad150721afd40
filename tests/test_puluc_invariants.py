"""Invariants over many random Puluc games.

* Conservation: every warrior is on the track, at home or dead, after every cast
  (the kernel driven one cast at a time through its jitted functions, and the
  reference engine's trace).
* The records ``run_chunk`` writes are consistent: kills equal the enemy's dead,
  the winner killed every enemy warrior, captures and rescues only move together
  as the rules say, casts never pass the cap, casts = moves + forfeits.

Board layout (see the top of ``sim/games/puluc/kernel.py``): ``st[i]`` commander
of space i (-1 empty), ``st[T+i]`` Jade count, ``st[2T+i]`` Cinnabar count,
``st[3T+s]`` home, ``st[3T+2+s]`` dead.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.puluc import GAME
from sim.games.puluc import kernel as K
from sim.rng import rand_int
from tests.reference import puluc_ref as ref


# --------------------------------------------------------------------------- the kernel, one cast at a time
def kernel_counts(st, T):
    """(per space (commander, Jade, Cinnabar), home [J, C], dead [J, C]) as Python ints."""
    piles = [(int(st[i]), int(st[T + i]), int(st[2 * T + i])) for i in range(T)]
    return piles, [int(st[3 * T]), int(st[3 * T + 1])], [int(st[3 * T + 2]), int(st[3 * T + 3])]


def kernel_steps(seed, g, rules: dict, bots: str):
    """Play game ``g`` like ``kernel.play_game`` but one jitted call at a time, yielding after
    every cast: side, cast, move (None for a forfeit), a copy of the board and the tallies,
    casts so far and, on the last cast, ``end`` = (winner, end_reason)."""
    resolved = GAME.resolve_rules(rules)
    R, tab, thresh, vals, probs = GAME.prepare(resolved, 2)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, 2))
    T, W = int(R[K.R_T]), int(R[K.R_W])
    rs = np.zeros(3, np.uint64)
    K.seed_game(rs, np.uint64(seed), np.int64(g))
    st = K.new_state(T, W)
    moves = np.zeros(T + 2, np.int64)
    scratch = np.zeros((3, 3 * T + 4), np.int64)
    tally = np.zeros(K.N_TALLY, np.int64)
    dummy = np.zeros(K.N_TALLY, np.int64)
    first = {K.FIRST_ALTERNATE: g % 2, K.FIRST_JADE: 0, K.FIRST_CINNABAR: 1}[int(R[K.R_FIRST])]
    p = first
    casts = 0
    cpt, horizon = int(R[K.R_CPT]), int(R[K.R_HORIZON])
    thresh = np.int64(thresh)
    while True:
        for k in range(cpt):
            cast = int(K.cast_lots(rs, R, tab, thresh))
            casts += 1
            n = int(K.legal_moves(st, R, p, cast, moves))
            mv = None
            end = None
            if n == 0:
                tally[K.G_FORF + p] += 1
            else:
                if ids[p] == K.BOT_RANDOM:
                    mv = int(moves[rand_int(rs, 1 + p, n)])
                elif ids[p] == K.BOT_GREEDY:
                    mv = int(K.greedy_choice(st, R, p, cast, moves, n, rs))
                else:
                    mv = int(K.search_choice(st, R, p, cast, moves, n, int(par[p, 0]), cpt - 1 - k,
                                             vals, probs, scratch, dummy, rs))
                K.apply_move(st, R, p, mv, cast, tally)
                tally[K.G_MOVES] += 1
                if st[3 * T + 2 + (1 - p)] >= W:
                    end = (p, K.END_KILLED)
            if end is None and casts >= horizon:
                end = (-1, K.END_HORIZON)
            yield {"side": p, "cast": cast, "n": n, "move": mv, "st": st.copy(),
                   "tally": tally.copy(), "casts": casts, "first": first, "end": end}
            if end is not None:
                return
        p = 1 - p


def check_board(st, T, W, where=""):
    """Every warrior on the track, at home or dead; piles well formed."""
    for s in (0, 1):
        on_track = int(st[T + s * T: 2 * T + s * T].sum())
        home, dead = int(st[3 * T + s]), int(st[3 * T + 2 + s])
        assert home >= 0 and dead >= 0, where
        assert on_track + home + dead == W, f"{where}: side {s} has {on_track}+{home}+{dead} != {W}"
    for i in range(T):
        c, nj, nc = int(st[i]), int(st[T + i]), int(st[2 * T + i])
        assert nj >= 0 and nc >= 0, where
        if c == -1:
            assert nj == 0 and nc == 0, f"{where}: empty space {i} holds warriors"
        else:
            assert c in (0, 1) and (nj if c == 0 else nc) >= 1, f"{where}: commander missing at {i}"
            if nj + nc > 1:  # a pile always holds a prisoner of the other side
                assert nj >= 1 and nc >= 1, f"{where}: pile at {i} without a prisoner"


PARAM_SETS = [
    ({}, "random,random", 150),
    ({"track": 9, "exit": "pile"}, "random,greedy", 80),
    ({"drag": "reverse", "stack_own": "piles"}, "greedy,random", 80),
    ({"entry": "cast", "casts_per_turn": 2, "warriors": 3, "lots": 3}, "random,random", 80),
    ({"track": 5, "warriors": 6, "horizon": 50, "cast_table": "2,1,1,3,6"}, "random,random", 80),
    ({"track": 40, "warriors": 2, "exit": "pile", "drag": "reverse"}, "random,random", 30),
    ({"lots": 6, "lot_p": 0.3, "first": "cinnabar"}, "search:depth=1,random", 20),
    ({}, "search,greedy", 5),
]


@pytest.mark.parametrize("rules,bots,n_games", PARAM_SETS)
def test_kernel_stepwise_conservation(rules, bots, n_games):
    resolved = GAME.resolve_rules(rules)
    ctx = GAME.prepare(resolved, 2)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, 2))
    out = GAME.run_chunk(ctx, 2, 5, 0, n_games, ids, par)
    T, W, cap = resolved["track"], resolved["warriors"], resolved["horizon"]
    for g in range(n_games):
        prev_st = K.new_state(T, W)
        prev_tally = np.zeros(K.N_TALLY, np.int64)
        last = None
        for s in kernel_steps(5, g, rules, bots):
            where = f"game {g} cast {s['casts']}"
            st, tally, p, q = s["st"], s["tally"], s["side"], 1 - s["side"]
            check_board(st, T, W, where)
            # kills are exactly the enemy's dead
            assert tally[K.G_KILLS + p] == st[3 * T + 2 + q], where
            assert tally[K.G_KILLS + q] == st[3 * T + 2 + p], where
            d = tally - prev_tally
            # only the side that cast scores anything; a capture is one landing
            assert d[K.G_KILLS + q] == d[K.G_CAPT + q] == d[K.G_RESC + q] == d[K.G_FORF + q] == 0, where
            assert d[K.G_CAPT + p] in (0, 1), where
            if d[K.G_RESC + p] > 0:
                assert d[K.G_CAPT + p] == 1, f"{where}: a rescue without a capture"
            if s["move"] is None:  # forfeit: nothing moved
                assert d[K.G_FORF + p] == 1 and d[K.G_MOVES] == 0, where
                assert (st == prev_st).all(), where
            else:
                assert d[K.G_FORF + p] == 0 and d[K.G_MOVES] == 1, where
                # own warriors never die; the mover's kills are its new enemy dead
                assert st[3 * T + 2 + p] == prev_st[3 * T + 2 + p], where
                # a rescue frees own warriors that were prisoners before the move
                own_prisoners_before = sum(int(prev_st[(1 + p) * T + i]) for i in range(T)
                                           if prev_st[i] == q)
                assert d[K.G_RESC + p] <= own_prisoners_before, where
            assert tally[K.G_MOVES] + tally[K.G_FORF] + tally[K.G_FORF + 1] == s["casts"], where
            heights = st[T:2 * T] + st[2 * T:3 * T]
            assert tally[K.G_DEEP] >= heights.max(), where
            assert s["casts"] <= cap, where
            prev_st, prev_tally, last = st, tally, s
        winner, reason = last["end"]
        if reason == K.END_KILLED:
            assert last["st"][3 * T + 2 + (1 - winner)] == W  # the winner killed them all
            assert last["st"][3 * T + 2 + winner] < W
        else:
            assert last["casts"] == cap and winner == -1
        # the stepwise game is the kernel's game: same record as run_chunk
        assert (winner, reason, last["first"], last["casts"]) == (
            out["winner"][g], out["end_reason"][g], out["first_player"][g], out["casts"][g])
        t = last["tally"]
        assert t[K.G_MOVES] == out["moves"][g] and t[K.G_DEEP] == out["deepest_pile"][g]
        for side in (0, 1):
            assert (t[K.G_KILLS + side], t[K.G_CAPT + side], t[K.G_RESC + side],
                    t[K.G_FORF + side]) == (out["kills"][g, side], out["captures"][g, side],
                                            out["rescues"][g, side], out["forfeits"][g, side])


# --------------------------------------------------------------------------- the reference's trace
@pytest.mark.parametrize("rules", [
    {}, {"track": 9}, {"drag": "reverse", "exit": "pile"}, {"entry": "cast", "stack_own": "piles"},
    {"warriors": 2, "casts_per_turn": 3, "cast_table": "9,1,2,3,4"},
])
def test_reference_trace_conservation(rules):
    resolved = GAME.resolve_rules(rules)
    W = resolved["warriors"]
    for g in range(60):
        record, trace = ref.play_trace(11, g, resolved, ("random", "greedy"))
        for t in trace:
            for side in (0, 1):
                assert ref.snapshot_census(t["state"], side) == W, (g, t["cast_no"])
            track, home, dead = t["state"]
            for pile in track:
                if len(pile) > 1:
                    assert set(pile) == {0, 1}, (g, t["cast_no"], pile)
        assert len(trace) == record["casts"]
        assert sum(t["move"] is not None for t in trace) == record["moves"]
        final_dead = trace[-1]["state"][2]
        assert record["kills"] == (final_dead[1], final_dead[0])


# --------------------------------------------------------------------------- the records of many games
RECORD_SETS = [
    {}, {"track": 9}, {"track": 5, "warriors": 1}, {"exit": "pile"}, {"drag": "reverse"},
    {"entry": "cast"}, {"stack_own": "piles"}, {"casts_per_turn": 2, "horizon": 60},
    {"lots": 2, "cast_table": "3,1,2"}, {"warriors": 6, "lot_p": 0.7, "first": "jade"},
    {"track": 40, "horizon": 100},
]


@pytest.mark.parametrize("rules", RECORD_SETS)
@pytest.mark.parametrize("bots", ["random,random", "greedy,random"])
def test_record_invariants(rules, bots):
    resolved = GAME.resolve_rules(rules)
    ctx = GAME.prepare(resolved, 2)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, 2))
    n = 4000
    start = 123
    o = GAME.run_chunk(ctx, 2, 99, start, n, ids, par)
    W, cap = resolved["warriors"], resolved["horizon"]
    won = o["winner"] >= 0
    kills = o["kills"].astype(int)
    # a win is all enemies killed, and only then; the loser did not finish the job
    assert (o["end_reason"][won] == K.END_KILLED).all()
    assert (o["end_reason"][~won] == K.END_HORIZON).all()
    assert (o["capped"] == ~won).all()
    w = o["winner"][won].astype(int)
    assert (kills[won, w] == W).all()
    assert (kills[won, 1 - w] < W).all()
    assert (kills[~won] < W).all()
    assert (o["casts"] <= cap).all() and (o["casts"][~won] == cap).all() and (o["casts"] >= 1).all()
    assert (o["casts"] == o["moves"] + o["forfeits"].sum(axis=1)).all()
    assert (o["forfeits"] >= 0).all() and (o["captures"] >= 0).all() and (o["rescues"] >= 0).all()
    # a capture frees at most the warriors a side has (all but the capturing one)
    assert (o["rescues"] <= (W - 1) * o["captures"]).all()
    assert (o["deepest_pile"] <= 2 * W).all()
    assert ((o["deepest_pile"] >= 1) == (o["moves"] >= 1)).all()
    # a pile deeper than one needs a capture
    assert ((o["deepest_pile"] > 1) <= (o["captures"].sum(axis=1) > 0)).all()
    # to kill you must have captured first
    assert ((kills > 0) <= (o["captures"] > 0)).all()
    if resolved["first"] == "alternate":
        assert (o["first_player"] == (np.arange(start, start + n) % 2)).all()
    np.testing.assert_array_equal(o["win"][:, 0], o["winner"] == 0)
    np.testing.assert_array_equal(o["win"][:, 1], o["winner"] == 1)
