"""Invariants over many random Puluc games.

* Conservation: every warrior is on the track, at home or dead, after every cast
  (the kernel's recorded snapshots, and the reference engine replaying recorded games).
* The records ``run_chunk`` writes are consistent: kills equal the enemy's dead,
  the winner killed every enemy warrior, captures and rescues only move together
  as the rules say, casts never pass the cap, casts = moves + forfeits.

State layout: ``sim/games/puluc/state.py`` (``commander``, ``count[side]``, ``home``,
``dead`` and the tallies).
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.puluc import GAME
from sim.games.puluc.actions import EV_CAST, EV_FORFEIT
from sim.games.puluc.play import END_HORIZON, END_KILLED
from sim.games.puluc.state import unpack_snapshot
from sim.record import record_run
from tests.reference import puluc_ref as ref

TALLIES = ("kills", "captures", "rescues", "forfeits")


# --------------------------------------------------------------------------- the kernel, one cast at a time
def kernel_counts(st, T):
    """(per space (commander, Jade, Cinnabar), home [J, C], dead [J, C]) as Python ints."""
    piles = [(int(st["commander"][i]), int(st["count"][0, i]), int(st["count"][1, i]))
             for i in range(T)]
    return piles, [int(x) for x in st["home"]], [int(x) for x in st["dead"]]


def as_state(snap: dict) -> dict:
    """An unpacked snapshot as the state's named fields (numpy arrays, as in a State)."""
    st = {"commander": np.array(snap["commander"]), "count": np.array(snap["count"]),
          "home": np.array(snap["home"]), "dead": np.array(snap["dead"])}
    for k in TALLIES:
        st[k] = np.array([snap[f"{k}_0"], snap[f"{k}_1"]])
    for k in ("moves", "deepest", "casts", "turn"):
        st[k] = snap[k]
    return st


def start_state(T: int, W: int) -> dict:
    return {"commander": np.full(T, -1), "count": np.zeros((2, T), int), "home": np.array([W, W]),
            "dead": np.zeros(2, int), **{k: np.zeros(2, int) for k in TALLIES},
            "moves": 0, "deepest": 0, "casts": 0, "turn": 0}


def kernel_steps(seed, g, rules: dict, bots: str):
    """The kernel's game ``g``, recorded (``sim.record.record_run``), one cast at a time: side,
    cast, move (None for a forfeit), the state after the cast (board and tallies, from the
    recorded snapshot), casts so far and, on the last cast, ``end`` = (winner, end_reason)."""
    (r,) = record_run("puluc", [g], rules=rules, bots=bots, seed=seed)
    T = r.rules["track"]
    casts = [ev for ev in r.events if ev[0] == EV_CAST]
    actions = [ev for ev in r.events if ev[0] != EV_CAST]
    assert len(casts) == len(actions) == len(r.snapshots) == r.columns["casts"]
    for k, (cast, act, row) in enumerate(zip(casts, actions, r.snapshots)):
        last = k == len(casts) - 1
        yield {"side": int(cast[2]), "cast": int(cast[4]),
               "move": None if act[0] == EV_FORFEIT else int(act[2]),
               "st": as_state(unpack_snapshot(row, T)), "casts": k + 1,
               "first": r.columns["first_player"],
               "end": (r.columns["winner"], r.columns["end_reason"]) if last else None}


def check_board(st, T, W, where=""):
    """Every warrior on the track, at home or dead; piles well formed."""
    for s in (0, 1):
        on_track = int(st["count"][s, :T].sum())
        home, dead = int(st["home"][s]), int(st["dead"][s])
        assert home >= 0 and dead >= 0, where
        assert on_track + home + dead == W, f"{where}: side {s} has {on_track}+{home}+{dead} != {W}"
    for i in range(T):
        c, nj, nc = int(st["commander"][i]), int(st["count"][0, i]), int(st["count"][1, i])
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
    out = GAME.play_chunk(ctx, 2, 5, 0, n_games, ids, par)
    T, W, cap = resolved["track"], resolved["warriors"], resolved["horizon"]
    for g in range(n_games):
        prev = start_state(T, W)
        last = None
        for s in kernel_steps(5, g, rules, bots):
            where = f"game {g} cast {s['casts']}"
            st, p, q = s["st"], s["side"], 1 - s["side"]
            check_board(st, T, W, where)
            # kills are exactly the enemy's dead
            assert st["kills"][p] == st["dead"][q], where
            assert st["kills"][q] == st["dead"][p], where
            d = {k: [int(st[k][x]) - int(prev[k][x]) for x in (0, 1)] for k in TALLIES}
            moved = int(st["moves"]) - int(prev["moves"])
            # only the side that cast scores anything; a capture is one landing
            assert d["kills"][q] == d["captures"][q] == d["rescues"][q] == d["forfeits"][q] == 0, where
            assert d["captures"][p] in (0, 1), where
            if d["rescues"][p] > 0:
                assert d["captures"][p] == 1, f"{where}: a rescue without a capture"
            if s["move"] is None:  # forfeit: nothing moved
                assert d["forfeits"][p] == 1 and moved == 0, where
                assert kernel_counts(st, T) == kernel_counts(prev, T), where
            else:
                assert d["forfeits"][p] == 0 and moved == 1, where
                # own warriors never die; the mover's kills are its new enemy dead
                assert st["dead"][p] == prev["dead"][p], where
                # a rescue frees own warriors that were prisoners before the move
                own_prisoners_before = sum(int(prev["count"][p, i]) for i in range(T)
                                           if prev["commander"][i] == q)
                assert d["rescues"][p] <= own_prisoners_before, where
            assert st["moves"] + st["forfeits"][0] + st["forfeits"][1] == s["casts"], where
            heights = st["count"][0, :T].astype(int) + st["count"][1, :T]
            assert st["deepest"] >= heights.max(), where
            assert s["casts"] <= cap, where
            prev, last = st, s
        winner, reason = last["end"]
        st = last["st"]
        if reason == END_KILLED:
            assert st["dead"][1 - winner] == W  # the winner killed them all
            assert st["dead"][winner] < W
        else:
            assert last["casts"] == cap and winner == -1
        # the stepwise game is the kernel's game: same record as run_chunk
        assert (winner, reason, last["first"], last["casts"]) == (
            out["winner"][g], out["end_reason"][g], out["first_player"][g], out["casts"][g])
        assert st["moves"] == out["moves"][g] and st["deepest"] == out["deepest_pile"][g]
        for side in (0, 1):
            assert tuple(int(st[k][side]) for k in TALLIES) == tuple(
                int(out[k][g, side]) for k in TALLIES)


# --------------------------------------------------------------------------- the reference's trace
@pytest.mark.parametrize("rules", [
    {}, {"track": 9}, {"drag": "reverse", "exit": "pile"}, {"entry": "cast", "stack_own": "piles"},
    {"warriors": 2, "casts_per_turn": 3, "cast_table": "9,1,2,3,4"},
])
def test_reference_trace_conservation(rules):
    """The reference's board, replaying recorded games, keeps every warrior too."""
    resolved = GAME.resolve_rules(rules)
    W = resolved["warriors"]
    for r in record_run("puluc", range(60), rules=rules, bots="random,greedy", seed=11):
        trace: list = []
        cols = ref.replay(r, trace)
        for side_, cast_no, state in trace:
            for side in (0, 1):
                assert ref.snapshot_census(state, side) == W, (r.index, cast_no)
            track, home, dead = state
            for pile in track:
                if len(pile) > 1:
                    assert set(pile) == {0, 1}, (r.index, cast_no, pile)
        assert len(trace) == cols["casts"]
        final_dead = trace[-1][2][2]
        assert (cols["kills_0"], cols["kills_1"]) == (final_dead[1], final_dead[0])


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
    o = GAME.play_chunk(ctx, 2, 99, start, n, ids, par)
    W, cap = resolved["warriors"], resolved["horizon"]
    won = o["winner"] >= 0
    kills = o["kills"].astype(int)
    # a win is all enemies killed, and only then; the loser did not finish the job
    assert (o["end_reason"][won] == END_KILLED).all()
    assert (o["end_reason"][~won] == END_HORIZON).all()
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
