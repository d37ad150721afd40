"""One core's games per second on a run's first games: the timing the runner, its workers
(``sim/worker.py``), the long-run checks and the experiments' chunk plans share (below the
runner, so a worker never imports the runner back)."""
from __future__ import annotations

import time


def measure_rate(game, ctx, players: int, seed: int, bot_ids, bot_par,
                 budget: float = 0.05, fast: float | None = None) -> float:
    """Games per second of one core on this run (its first games, timed: one, then twice as
    many until they take ``budget`` seconds; a slow bot's game is timed once).  ``fast``: stop
    as soon as a game is known to take less than that many seconds (precise enough to size
    the chunks, about a millisecond for a fast game)."""
    n = 1
    while True:
        t0 = time.perf_counter()
        game.play_chunk(ctx, players, seed, 0, n, bot_ids, bot_par)
        dt = time.perf_counter() - t0
        if dt >= budget or n >= 1 << 14 or (fast is not None and dt < fast * n):
            return n / max(dt, 1e-9)
        n *= 2
