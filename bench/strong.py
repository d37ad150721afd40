"""The cost and the strength of strong play: a search bot in every seat, at a budget of
the strong-play climbs (docs/FINDINGS.md), with and without a cheaper setting.

For each row: the games per second on one core (the game's own kernel entry, compile
excluded), and where the game counts them (Batam, Balam, Maya, Puluc) the searched
decisions and the iterations per game (rollouts or play-outs; Maya with two players:
positions searched; Puluc: replies scored), and where counted the steps those play
(Balam: the turns its rollouts play; Maya 3p: the exchanges of its play-outs).  For each pair
(a cheaper setting against the setting it replaces): the paired head-to-head (``sim
skill``: both seatings, the same seeds), the cheaper one's score with its 95% interval
and in Elo, so that "cheaper at equal strength" is a measurement, not a hope.

    python bench/strong.py                      # every row, 60 games each, pairs of 600
    python bench/strong.py batam --games 100 --paired 1000

Writes one JSON line per measurement to bench/results/strong-<date>.jsonl and prints a
table.  Takes minutes: every row is a table of search bots.
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.games import get  # noqa: E402

#: (game, players, a climb's budget, the cheaper settings, the counter)
BATAM_STATS = "sim.games.batam.play:SEARCH_STATS"
#: Balam's also counts the turns its rollouts play (a rollout's length: ``horizon``)
BALAM_STATS = "sim.games.balam.play:SEARCH_STATS"
MAYA_STATS = "sim.games.maya.play:SEARCH_STATS"   # decisions searched, positions (2p) or play-outs (3p)
ROWS = [
    ("batam", 2, "search:iters=400", ["search:iters=130;paired=1", "search:iters=400;paired=1",
                                      "search:iters=400;horizon=2", "search:iters=400;stop=2"], BATAM_STATS),
    # the strongest rung climbed, against rollouts cut after the next round at half the budget
    ("batam", 2, "search:iters=1600", ["search:iters=800;horizon=1", "search:iters=300;leaf=model;keep=0"],
     BATAM_STATS),
    # Balam: cheaper settings measured 2026-12-06, none as strong at a third of the cost;
    # 2026-12-07: the learned value at a rollout's end, 7.2x cheaper and +61 Elo (docs/BENCH.md)
    ("balam", 2, "search:iters=100", ["search:iters=50;horizon=1", "search:iters=70;horizon=1;prune=1;stop=2",
                                       "search:iters=40;horizon=-1;leaf=model"], BALAM_STATS),
    # Maya 2p: the alpha-beta with its moves ordered (bit-identical to the unordered one, so
    # no head-to-head); 3p: shorter play-outs at the strongest rung, and at half its budget
    ("maya", 2, "search:depth=5", ["search:depth=4;leaf=model"], MAYA_STATS),
    ("maya", 3, "search:iters=64", ["search:iters=64;playout=4", "search:iters=32;playout=6",
                                    "search:iters=32;playout=4", "search:iters=32;playout=3",
                                    "search:iters=32;playout=3;leaf=model"], MAYA_STATS),
    # depth=2 is the strongest setting there is; since 2026-12-06 it plays the very same games
    # (rows bit-identical) at 3.8-4.0x the speed (docs/BENCH.md): no cheaper setting needed
    ("puluc", 2, "search:depth=2", [], "sim.games.puluc.play:SEARCH_STATS"),
]


def cost(game, players: int, bots: str, games: int, counter_name) -> dict:
    """One core: games/s (the faster of two turns), and the counter's decisions and
    iterations (and, where counted, play-out exchanges) per game (the same in both turns:
    a machine-independent cost)."""
    from sim.spec import make_spec
    spec = make_spec(game, games, None, bots, players)   # leaf=model: the rules' model attached
    ctx = spec.ctx
    ids, par = game.bot_arrays(spec.bots)
    game.play_chunk(ctx, players, 1, 0, 2, ids, par)  # compile / load the cache
    counter = None
    if counter_name:
        mod, _, name = counter_name.partition(":")
        counter = getattr(importlib.import_module(mod), name)
    dt = None
    for _ in range(2):   # the faster of two turns (a shared machine)
        before = list(counter) if counter is not None else None
        t = time.perf_counter()
        game.play_chunk(ctx, players, 1, 0, games, ids, par)
        dt = min(dt or 1e18, time.perf_counter() - t)
    row = {"game": game.name, "players": players, "bots": bots, "games": games,
           "seconds": round(dt, 3), "games_per_s": games / dt}
    if counter is not None:
        row["decisions_per_game"] = (counter[0] - before[0]) / games
        row["iterations_per_game"] = (counter[1] - before[1]) / games
        row["iterations_per_s"] = (counter[1] - before[1]) / dt
        if len(counter) > 2:   # Balam: the turns its rollouts play; Maya 3p: play-out exchanges
            row["steps_per_game"] = (counter[2] - before[2]) / games
    return row


def paired(name: str, players: int, new: str, old: str, games: int, jobs: int = 0) -> dict:
    """``new`` against ``old`` head to head, both seatings on the same seeds: new's score
    (wins, half a draw) with a 95% interval, and in Elo."""
    from analysis.stats import elo_from_score
    from sim.api_study import skill
    res = skill(name, [new, old], games=games, players=players, jobs=jobs)
    s = float(res.matrix.loc[new, old])
    n = int(res.result["games"][0].sum())
    half = 1.96 * math.sqrt(max(s * (1 - s), 1e-12) / n)
    return {"game": name, "players": players, "new": new, "old": old, "games": n, "score": s,
            "lo": s - half, "hi": s + half, "elo": elo_from_score(s),
            "elo_lo": elo_from_score(max(s - half, 1e-6)), "elo_hi": elo_from_score(min(s + half, 1 - 1e-6))}


def say(name, players, row) -> None:
    extra = (f", {row['decisions_per_game']:.1f} decisions and {row['iterations_per_game']:,.0f} "
             f"iterations a game ({row['iterations_per_s']:,.0f}/s)" if "iterations_per_s" in row else "")
    if row.get("steps_per_game"):
        what = "rollout turns" if name == "balam" else "play-out exchanges"
        extra += f", {row['steps_per_game']:,.0f} {what} a game"
    print(f"{name} {players}p {row['bots']}: {row['games_per_s']:.3f} games/s on one core{extra}", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games_", nargs="*", metavar="GAME")
    ap.add_argument("--games", type=int, default=60, help="games per cost row")
    ap.add_argument("--paired", type=int, default=600, help="games per head-to-head (0: none)")
    ap.add_argument("--jobs", type=int, default=0, help="cores for the head-to-heads (0: all)")
    a = ap.parse_args(argv)
    todo = a.games_ or sorted({r[0] for r in ROWS})
    out = ROOT / "bench" / "results" / f"strong-{datetime.now(timezone.utc):%Y%m%d-%H%M}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, players, base, cheap, counter in ROWS:
        if name not in todo:
            continue
        game = get(name)
        r0 = cost(game, players, base, a.games, counter)
        lines.append(r0)
        say(name, players, r0)
        for c in cheap:
            r1 = cost(game, players, c, a.games, counter)
            lines.append(r1)
            say(name, players, r1)
            print(f"  {r0['seconds'] / r1['seconds']:.2f}x cheaper than {base}", flush=True)
            if a.paired:
                p = paired(name, players, c, base, a.paired, a.jobs)
                lines.append(p)
                print(f"  head to head, {p['games']:,} games: {c} scores {100 * p['score']:.1f}% "
                      f"[{100 * p['lo']:.1f}, {100 * p['hi']:.1f}] against {base}, "
                      f"{p['elo']:+.0f} Elo [{p['elo_lo']:+.0f}, {p['elo_hi']:+.0f}]", flush=True)
    with out.open("a") as f:
        for row in lines:
            f.write(json.dumps(row) + "\n")
    print(f"-> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
