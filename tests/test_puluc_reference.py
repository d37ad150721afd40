"""The kernel's games, replayed by the plain-Python reference engine on the same streams.

For each rule set and bot pairing, ``run_chunk`` plays a block of games and
``tests/reference/puluc_ref.py`` (written from the rulebook, not from the kernel)
plays the same game indices from the same master seed; every recorded column
must agree, game by game.  The sweep covers every value of every choice
parameter, several track lengths (4, 5, 9, 11, 17, 40), 1..6 warriors, 1..8
lots, custom cast tables, unfair lots, several casts per turn, caps small
enough to stop games, and every bot pairing (search at depth 1 and 2 on fewer
games).  A second test compares the board after every single cast, driving the
kernel's jitted functions one move at a time.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from sim.games.puluc import GAME
from tests.reference import puluc_ref as ref
from tests.test_puluc_invariants import kernel_steps, kernel_counts

COLUMNS = ("winner", "end_reason", "capped", "first_player", "casts", "moves", "deepest_pile",
           "kills", "captures", "rescues", "forfeits")


def run_kernel(rules: dict, bots: str, seed: int, start: int, count: int):
    resolved = GAME.resolve_rules(rules)
    ctx = GAME.prepare(resolved, 2)
    choices = GAME.choose_bots(bots, 2)
    ids, par = GAME.bot_arrays(choices)
    out = GAME.run_chunk(ctx, 2, seed, start, count, ids, par)
    ref_bots = [(c.bot.name, int(dict(c.settings).get("depth", 2))) for c in choices]
    return resolved, ref_bots, out


def kernel_row(out: dict, j: int) -> dict:
    row = {}
    for c in COLUMNS:
        v = out[c][j]
        row[c] = tuple(int(x) for x in v) if np.ndim(v) else (bool(v) if c == "capped" else int(v))
    return row


def replay(rules: dict, bots: str, seed: int, start: int, count: int) -> list[dict]:
    """Assert the reference reproduces every column of every game; return its records."""
    resolved, ref_bots, out = run_kernel(rules, bots, seed, start, count)
    ref_rules = ref.Rules(resolved)
    records = []
    for j in range(count):
        g = start + j
        mine = ref.play(seed, g, ref_rules, ref_bots)
        theirs = kernel_row(out, j)
        for c in COLUMNS:
            if mine[c] != theirs[c]:
                _, trace = ref.play_trace(seed, g, resolved, ref_bots)
                tail = "\n".join(f"  cast {t['cast_no']} {ref.SIDE_NAMES[t['side']]} cast={t['cast']} "
                                 f"move={t['move']}: {ref.snapshot_drawing(t['state'])}"
                                 for t in trace[-8:])
                pytest.fail(f"game {g} (seed {seed}, rules {rules}, bots {bots}): column {c!r} "
                            f"kernel {theirs[c]} reference {mine[c]}\nkernel row {theirs}\n"
                            f"reference {mine}\nlast casts of the reference game:\n{tail}")
        records.append(mine)
    return records


def totals(records: list[dict]) -> dict:
    return {
        "games": len(records),
        "capped": sum(r["capped"] for r in records),
        "wins": [sum(r["winner"] == s for r in records) for s in (0, 1)],
        "captures": sum(sum(r["captures"]) for r in records),
        "rescues": sum(sum(r["rescues"]) for r in records),
        "forfeits": sum(sum(r["forfeits"]) for r in records),
        "kills": sum(sum(r["kills"]) for r in records),
    }


# --------------------------------------------------------------------------- the rulebook
def test_rulebook_rules_random_vs_random():
    recs = replay({}, "random,random", seed=20260101, start=0, count=1200)
    t = totals(recs)
    # the sweep must actually exercise the rules it checks
    assert t["wins"][0] > 400 and t["wins"][1] > 400
    assert t["captures"] > 5000 and t["rescues"] > 1000 and t["forfeits"] > 1000


def test_far_game_indices_and_big_seed():
    replay({}, "random,random", seed=2**64 - 12345, start=10**12 + 7, count=200)


@pytest.mark.parametrize("bots,count", [
    ("greedy,random", 300), ("random,greedy", 300), ("greedy,greedy", 300),
    ("search:depth=1,random", 150), ("random,search:depth=1", 150),
    ("search:depth=1,greedy", 150), ("greedy,search:depth=1", 150),
    ("search:depth=1,search:depth=1", 100),
    ("search,random", 40), ("random,search", 40), ("search,greedy", 40), ("greedy,search", 40),
    ("search,search", 25), ("search:depth=1,search", 25),
])
def test_bot_pairings(bots, count):
    replay({}, bots, seed=77, start=500, count=count)


# --------------------------------------------------------------------------- choice parameters
CHOICES = [(e, x, d, s) for e in ("space", "cast") for x in ("any", "pile")
           for d in ("forward", "reverse") for s in ("never", "piles")]


@pytest.mark.parametrize("entry,exit_,drag,stack", CHOICES)
def test_every_choice_combination(entry, exit_, drag, stack):
    rules = {"entry": entry, "exit": exit_, "drag": drag, "stack_own": stack}
    recs = replay(rules, "random,random", seed=9, start=0, count=160)
    replay(rules, "greedy,random", seed=10, start=0, count=60)
    replay(rules, "search:depth=1,greedy", seed=11, start=0, count=20)
    replay(rules, "search,random", seed=12, start=0, count=4)
    assert totals(recs)["captures"] > 0


@pytest.mark.parametrize("first", ["alternate", "jade", "cinnabar"])
def test_first_player_values(first):
    recs = replay({"first": first}, "random,greedy", seed=3, start=11, count=150)
    firsts = {r["first_player"] for r in recs}
    assert firsts == ({0, 1} if first == "alternate" else {0 if first == "jade" else 1})


# --------------------------------------------------------------------------- numeric parameters
@pytest.mark.parametrize("track,count", [(4, 300), (5, 300), (7, 200), (9, 300), (13, 150),
                                         (17, 100), (40, 40)])
def test_track_lengths(track, count):
    replay({"track": track}, "random,random", seed=track, start=0, count=count)
    replay({"track": track, "exit": "pile", "drag": "reverse"}, "greedy,random", seed=track,
           start=0, count=count // 3)
    replay({"track": track}, "search:depth=1,random", seed=track, start=0, count=10)


@pytest.mark.parametrize("warriors", [1, 2, 3, 4, 5, 6])
def test_warriors(warriors):
    replay({"warriors": warriors}, "random,random", seed=100 + warriors, start=0, count=200)
    replay({"warriors": warriors, "track": 9, "stack_own": "piles"}, "greedy,search:depth=1",
           seed=warriors, start=0, count=20)


@pytest.mark.parametrize("lots", [1, 2, 3, 4, 5, 6, 7, 8])
def test_lots(lots):
    replay({"lots": lots}, "random,random", seed=200 + lots, start=0, count=150)
    replay({"lots": lots, "lot_p": 0.3}, "greedy,random", seed=lots, start=0, count=50)


@pytest.mark.parametrize("table", [
    "5,1,2,3,4",    # the standard table written out
    "3,1,2,3,3",    # a 1-to-3 reading
    "1,1,2,3,3",
    "2,2,2,2,2",    # every cast the same
    "12,1,1,1,12",  # casts past the whole track
    "7,3,1,4,9",
])
def test_cast_tables(table):
    recs = replay({"cast_table": table}, "random,random", seed=300, start=0, count=150)
    replay({"cast_table": table, "entry": "cast"}, "random,greedy", seed=301, start=0, count=80)
    replay({"cast_table": table}, "search,greedy", seed=302, start=0, count=4)
    if table == "5,1,2,3,4":  # identical to "standard", game for game
        std = replay({}, "random,random", seed=300, start=0, count=150)
        assert recs == std


@pytest.mark.parametrize("lot_p", [0.01, 0.2, 0.37, 0.5, 0.75, 0.99])
def test_lot_probability(lot_p):
    replay({"lot_p": lot_p}, "random,random", seed=400, start=0, count=150)
    replay({"lot_p": lot_p, "lots": 6}, "search:depth=1,random", seed=401, start=0, count=15)


@pytest.mark.parametrize("cpt", [2, 3, 4])
def test_casts_per_turn(cpt):
    replay({"casts_per_turn": cpt}, "random,random", seed=500 + cpt, start=0, count=200)
    replay({"casts_per_turn": cpt}, "greedy,random", seed=cpt, start=0, count=60)
    # the search bot looks at its own next cast when the turn is not over
    replay({"casts_per_turn": cpt}, "search,greedy", seed=cpt, start=0, count=6)


@pytest.mark.parametrize("cap", [1, 2, 3, 10, 40, 80])
def test_small_caps(cap):
    recs = replay({"cap": cap}, "random,random", seed=600, start=0, count=300)
    replay({"cap": cap, "casts_per_turn": 3, "first": "cinnabar"}, "greedy,random", seed=601,
           start=0, count=100)
    t = totals(recs)
    assert t["capped"] > 0
    assert all(r["casts"] <= cap for r in recs)


def test_capped_games_under_exit_pile():
    # lone warriors strand at the far end: many games reach the cap
    recs = replay({"exit": "pile", "track": 9}, "random,random", seed=700, start=0, count=300)
    assert totals(recs)["capped"] >= 5


# --------------------------------------------------------------------------- random rule sets
def random_rules(rng: random.Random) -> dict:
    lots = rng.randint(1, 8)
    rules = {
        "track": rng.choice([4, 5, 6, 9, 11, 12, 15, 20, 40]),
        "warriors": rng.randint(1, 7),
        "lots": lots,
        "lot_p": rng.choice([0.5, 0.25, 0.6, 0.85]),
        "casts_per_turn": rng.choice([1, 1, 2, 3]),
        "entry": rng.choice(["space", "cast"]),
        "exit": rng.choice(["any", "pile"]),
        "drag": rng.choice(["forward", "reverse"]),
        "stack_own": rng.choice(["never", "piles"]),
        "cap": rng.choice([240, 60, 500]),
        "first": rng.choice(["alternate", "jade", "cinnabar"]),
    }
    if rng.random() < 0.5:
        rules["cast_table"] = ",".join(str(rng.randint(1, 10)) for _ in range(lots + 1))
    return rules


@pytest.mark.parametrize("k", range(24))
def test_random_rule_sets(k):
    rng = random.Random(1000 + k)
    rules = random_rules(rng)
    bots = rng.choice(["random,random", "greedy,random", "random,greedy", "greedy,greedy"])
    replay(rules, bots, seed=rng.randrange(2**63), start=rng.randrange(10**9), count=80)
    replay(rules, rng.choice(["search:depth=1,random", "greedy,search:depth=1"]),
           seed=k, start=0, count=10)
    replay(rules, rng.choice(["search,greedy", "random,search"]), seed=k, start=0, count=3)


# --------------------------------------------------------------------------- move by move
@pytest.mark.parametrize("rules,bots", [
    ({}, "random,random"),
    ({"drag": "reverse", "stack_own": "piles", "entry": "cast"}, "greedy,random"),
    ({"track": 9, "exit": "pile", "casts_per_turn": 2}, "random,search:depth=1"),
    ({"lots": 5, "cast_table": "3,1,2,3,3,6", "warriors": 3}, "search,greedy"),
])
def test_board_after_every_cast(rules, bots):
    """The kernel, driven one cast at a time, and the reference's trace show the same board
    (commander and both counts on every space, home, dead) after every cast."""
    resolved, ref_bots, _ = run_kernel(rules, bots, 1, 0, 1)
    n_games = 3 if "search," in bots + "," else 30
    T = resolved["track"]
    for g in range(n_games):
        _, trace = ref.play_trace(42, g, resolved, ref_bots)
        steps = list(kernel_steps(42, g, resolved, bots))
        assert len(steps) == len(trace), f"game {g}: {len(steps)} kernel casts, {len(trace)} reference"
        for t, s in zip(trace, steps):
            where = f"game {g} cast {t['cast_no']}: {ref.snapshot_drawing(t['state'])}"
            assert s["side"] == t["side"] and s["cast"] == t["cast"], where
            move = None if t["move"] is None else (T if t["move"] == ref.DEPLOY else t["move"])
            assert s["move"] == move, where
            assert kernel_counts(s["st"], T) == (ref.pile_counts(t["state"]),
                                                  list(t["state"][1]), list(t["state"][2])), where
