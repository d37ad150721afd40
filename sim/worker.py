"""What a local worker process runs (the chunk task, the worker's initialiser), and letting
the workers go once a command's games are over.

``sim.runner`` re-exports ``_play_chunk`` and ``_worker_init`` (tests patch them there).
"""
from __future__ import annotations

import os
import signal
import threading
import time

from .games import get as get_game


def _play_chunk(game_name: str, ctx, players: int, seed: int, start: int, count: int,
                bot_ids, bot_par, keep_rows: bool, rows_dir=None):
    """Worker task: play one chunk; returns (start, count, summary, columns or None, seconds,
    part or None).  With ``rows_dir`` (a run directory) the worker writes the chunk's rows
    there itself and returns the part's record instead of the columns."""
    from .summary import Summary
    t0 = time.perf_counter()
    game = get_game(game_name)
    cols = game.play_chunk(ctx, players, seed, start, count, bot_ids, bot_par)
    summary = Summary.from_columns(game, players, cols, start)
    part = None
    if keep_rows and rows_dir is not None:
        from .results import to_columns
        from .store import ChunkStore
        part, cols = ChunkStore(rows_dir).save_rows(start, to_columns(game, players, [(start, cols)])), None
    return start, count, summary, (cols if keep_rows else None), time.perf_counter() - t0, part


def _warm(game_name: str, ctx, players: int, seed: int, bot_ids, bot_par, measure: bool):
    """Worker task before a run's chunks (sim.prestart): load the kernel (from numba's cache,
    or compile it) and, with ``measure``, return one core's games/s on the run's first games."""
    from .rates import measure_rate
    game = get_game(game_name)
    game.play_chunk(ctx, players, seed, 0, 0, bot_ids, bot_par)
    return measure_rate(game, ctx, players, seed, bot_ids, bot_par) if measure else None


def _worker_init(parent: int, poll: float = 0.5) -> None:
    """Worker initialiser: end this worker when the process that started it dies.

    A worker whose parent was killed (``kill -9``, the OOM killer) would otherwise live on,
    blocked writing a result nobody reads.  A daemon thread watches the parent's pid: when
    the worker is re-parented, it exits at once (``os._exit``: nothing to clean, the chunk
    it was playing is not recorded and a resume plays it again).

    The worker also ignores SIGINT: a terminal's Ctrl-C reaches every process of its group,
    and a worker caught between two chunks (loky's memory check, its queue) would print a
    traceback of its own.  The parent takes the Ctrl-C, keeps the finished chunks and
    stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # (not prctl(PR_SET_PDEATHSIG): it fires when the parent *thread* that started the
    # worker ends, and loky may start workers from a thread of its own)
    if os.getppid() != parent:  # orphaned before we started
        os._exit(1)

    def watch():
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="sim-parent-watch", daemon=True).start()


def release_workers() -> None:
    """Let the local worker processes go now, without waiting: a command whose games are over
    keeps none of them, and they end while it writes its report instead of holding up its
    exit (loky's own shutdown at exit waits about a second for them).  The next run, if any,
    starts new ones.  Does nothing where no local pool was started."""
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:  # pragma: no cover - joblib vendors loky
        return
    executor = getattr(reusable_executor, "_executor", None)  # loky's pool, where it made one
    if executor is not None:
        executor.shutdown(wait=False, kill_workers=True)
