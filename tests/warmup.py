"""Compile every game's kernels once, before the test suite's workers start.

``make test`` runs the suite in two pytest-xdist workers.  On a cold numba cache both
would compile the same kernel when their first tests of a game meet (numba has no lock
between processes), and a game's first test would wait for its compile while the other
worker idles.  This script compiles each game's kernels once, as separate tasks spread
over the cores (a game's plain and search kernels, one task; its recorder's; longest first),
so the suite then loads them from the cache.  On a warm cache it takes a few seconds.

What it compiles, for each game: a short run with every bot (all seats equal) at every
player count, a table mixing the bots, and a recorded game (``sim show``, the replay
tests): the kernels the suite and the default runs use.  A search bot's table compiles
a kernel of its own, included here.  A game that learns its value (``Game.learn``) has its
sampler compiled too (the training games of ``sim learn`` and ``leaf=model``).  Last, in
whichever process is free by then (the other one is still compiling Balam's kernels), the
jitted functions that Batam's and Puluc's tests call from Python rather than through a
kernel (``DIRECT``).

    python tests/warmup.py            # every game, on as many processes as cores (at most 2)
    python tests/warmup.py puluc maya
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: the order the games are started in: the longest compile first (CPU seconds, cold)
ORDER = ("balam", "batam", "maya", "puluc")


def tables(game) -> list[tuple[int, str]]:
    """(players, bots) for every bot at every player count, and one mixed table."""
    out = [(p, b.name) for p in game.players for b in game.bots]
    if len(game.bots) > 1:
        p = game.players[0]
        out.append((p, ",".join(game.bots[s % len(game.bots)].name for s in range(p))))
    return out


def tasks(name: str) -> list[tuple[str, str]]:
    """A game's compiles as separate tasks, so that two processes can share the games: its
    tables (its plain kernel, then, in the same process, its search bot's kernel) and a
    recorded game (the recorder's kernel).  The search kernel is not a task of its own: it
    reuses the functions the plain kernel typed in its process (Balam's: 38 s after the
    plain kernel there, 41 s in another process once the plain kernel is cached, 89 s in a
    fresh one, single runs), and as its own task it went to whichever process freed first
    (the other games' plain kernels ended within a second of Balam's), so the schedule
    changed from run to run; now it does not."""
    from sim.games import get
    game = get(name)
    out = [(name, "tables")]
    if game.actions:
        out.append((name, "record"))
    if game.learn:
        out.append((name, "learn"))
    if name in DIRECT:
        out.append((name, "direct"))
    return out


def direct_batam() -> int:
    """Batam's game loops as the rules and search tests call them, from Python: a game
    (``play.play_game``) and the loop that stops at a search seat's decision
    (``play.play_from``)."""
    import numpy as np

    from sim.record import NO_RECORD, NO_SNAPS
    from sim.games.batam import play
    from tests.test_batam_search import setup_game
    ctx, ids, bp, st, rs, sc, _ = setup_game(2, "heuristic")
    play.play_game(0, np.uint64(5), ctx, ids, bp, st, rs, sc, NO_RECORD, NO_SNAPS)
    ctx, ids, bp, st, rs, sc, srch = setup_game(2, "search:iters=4,heuristic")
    play.play_from(st, ctx, ids, srch.ppar, rs, sc, NO_RECORD, NO_SNAPS)
    return 2


def direct_puluc() -> int:
    """Puluc's search as its tests call it, from Python: a move's choice
    (``search_choice``) and a position's value below the first ply (``deep_value``)."""
    import numpy as np

    from sim.games.puluc import GAME
    from sim.games.puluc import move as M
    from sim.games.puluc import state as S
    from sim.games.puluc.bots import search as SB
    R, table = GAME.prepare(GAME.resolve_rules({}), 2)
    st = S.new_states(R)[0]
    moves = np.zeros(S.MAX_TRACK + 2, np.int64)
    n = M.legal_moves(st, R, 0, 3, moves)
    scratch = S.new_scratch()[0]
    SB.search_choice(st, R, table, 0, 3, moves, n, 2, 0, scratch)
    S.copy_state(scratch.levels[0].after, st)
    SB.deep_value(R, table, 0, 1, 0, scratch.levels, 0, 3)
    return 2


#: the jitted functions that tests call from Python rather than through a kernel (each
#: compiled on its own, 5-6 s of CPU a game on a cold cache), compiled where a process
#: is free once the kernels are: the other process still compiles Balam's
DIRECT = {"batam": direct_batam, "puluc": direct_puluc}


def warm(task: tuple[str, str]) -> tuple[str, str, float, int]:
    """Compile one task's kernels: a game or two per table, a recorded game, or the
    functions the tests call directly (``DIRECT``)."""
    from sim.games import get
    from sim.record import record_run
    from sim.runner import execute
    from sim.spec import make_spec

    name, kind = task
    t0 = time.perf_counter()
    game = get(name)
    n = 0
    if kind == "record":
        record_run(game, [0], players=game.players[0])
        return name, kind, time.perf_counter() - t0, 1
    if kind == "direct":
        n = DIRECT[name]()
        return name, kind, time.perf_counter() - t0, n
    if kind == "learn":  # the sampler that plays a value model's training games (sim/learn.py)
        import importlib
        mod = importlib.import_module(game.learn)
        for players in game.players:
            spec = make_spec(name, 2, None, mod.TRAIN_BOTS, players)
            ids, par = game.bot_arrays(spec.bots)
            mod.sample(spec.ctx, spec.players, spec.seed, 0, 2, ids, par, 2)
            n += 1
        return name, kind, time.perf_counter() - t0, n
    for players, bots in sorted(tables(game), key=lambda t: "search" in t[1]):   # plain first
        spec = make_spec(name, 2, None, bots, players)
        execute(spec, jobs=1, progress=False, rows="memory")
        n += 1
    return name, kind, time.perf_counter() - t0, n


def main(argv: list[str]) -> int:
    names = [g for g in ORDER if not argv or g in argv]
    unknown = sorted(set(argv) - set(ORDER))
    if unknown:
        print(f"warmup: unknown games {', '.join(unknown)} (known: {', '.join(ORDER)})", file=sys.stderr)
        return 2
    # the longest compiles first (every game's tables, then the recorders, then DIRECT)
    todo = sorted((t for g in names for t in tasks(g)),
                  key=lambda t: (("tables", "record", "learn", "direct").index(t[1]), ORDER.index(t[0])))
    workers = max(1, min(2, os.cpu_count() or 1, len(todo)))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name, kind, sec, n in pool.map(warm, todo):
            what = {"direct": "function", "learn": "sampler"}.get(kind, "table")
            print(f"warmup: {name} ({kind}): {n} {what}{'s' if n != 1 else ''} ready in {sec:.1f} s", flush=True)
    print(f"warmup: every kernel ready in {time.perf_counter() - t0:.1f} s on {workers} processes", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
