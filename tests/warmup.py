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
a kernel of its own, included here.

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
    return out


def warm(task: tuple[str, str]) -> tuple[str, str, float, int]:
    """Compile one task's kernels: a game or two per table, or a recorded game."""
    from sim.games import get
    from sim.record import record_run
    from sim.runner import execute, make_spec

    name, kind = task
    t0 = time.perf_counter()
    game = get(name)
    n = 0
    if kind == "record":
        record_run(game, [0], players=game.players[0])
        return name, kind, time.perf_counter() - t0, 1
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
    # the longest compiles first (every game's tables, then the recorders)
    todo = sorted((t for g in names for t in tasks(g)),
                  key=lambda t: (("tables", "record").index(t[1]), ORDER.index(t[0])))
    workers = max(1, min(2, os.cpu_count() or 1, len(todo)))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name, kind, sec, n in pool.map(warm, todo):
            print(f"warmup: {name} ({kind}): {n} table{'s' if n != 1 else ''} ready in {sec:.1f} s", flush=True)
    print(f"warmup: every kernel ready in {time.perf_counter() - t0:.1f} s on {workers} processes", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
