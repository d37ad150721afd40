"""The shared runner: a run is (game, rules, bots per seat, number of games, seed).

Games are split into chunks of consecutive indices and played in parallel with
joblib.  Game *i* draws every random number from (seed, i) alone, so the result
is the same, bit for bit, whatever the number of jobs, the chunk size or the
backend.  Ctrl-C stops a run cleanly: the chunks already finished are kept and
the result is marked partial.
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Sequence

from .game import Game
from .params import UsageError
from . import rates
from .parallel import (CHUNK_TARGET_S, ESTIMATE_AFTER_S, LineProgress, check_backend, default_backend, duration,
                       estimate_line, logging_progress, plan_chunks, resolve_jobs, run_chunks, sized_chunk,
                       split_chunks)
from .provenance import build_manifest
from .resources import REPORT_BYTES, _size, check_disk, check_memory, disk_needed
from .spec import DEFAULT_SEED, RunResult, RunSpec, make_spec
from .stops import Stop, stop_reason
from .worker import _play_chunk

#: a run expected to take longer than this (seconds) says how long, and how much disk, first
ANNOUNCE_AFTER = 300.0


















































@contextmanager
def _compile_notice(game, enabled: bool, after: float = 2.0):
    """Say what is happening when loading the kernel takes more than ``after`` seconds:
    numba compiles it on the first run (Balam: about a minute), then loads it from its
    cache in about a second."""
    timer = None
    if enabled:
        timer = threading.Timer(after, lambda: print(
            f"compiling the {game.title} kernel (first run only: later runs load it from "
            "numba's cache)...", file=sys.stderr, flush=True))
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()


def _progress_bar(total: int, enabled: bool, desc: str, initial: int = 0):
    """The terminal's bar where ``enabled``; else, where the command line writes to a log (stderr
    not a terminal, no ``--quiet``), a line every :data:`PROGRESS_EVERY_S` seconds at most
    (:class:`sim.parallel.LineProgress`); else None."""
    if not enabled:
        return LineProgress(total, desc, initial) if logging_progress() else None
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit="games", unit_scale=True, desc=desc,
                dynamic_ncols=True, smoothing=0.1, file=sys.stderr)


ROWS = ("none", "memory", "disk")
#: the fixed cost of a chunk besides its games (dispatch, files, flushes to the disk): seconds
CHUNK_OVERHEAD_S = 0.01


def seconds_per_game(game: Game, plays, players: int, seed: int, cap: int, total: int = 0,
                     jobs: int = 1) -> float:
    """One worker's seconds to play one game index in every arm of ``plays`` (the sum of
    :func:`arm_seconds`)."""
    return sum(arm_seconds(game, plays, players, seed, cap, total, jobs))


def arm_seconds(game: Game, plays, players: int, seed: int, cap: int, total: int = 0,
                jobs: int = 1) -> list[float]:
    """One worker's seconds to play one game in each arm of ``plays`` ((ctx, bot ids,
    bot parameters) each, kernels loaded already), timed on the first games: precise where it
    decides something (a chunk of ``cap`` games near :data:`CHUNK_TARGET_S` or longer), a
    millisecond's check for a fast game.  That check counts a call's overhead as the game's
    (a Puluc game at 3 us timed alone: 4-5 times its cost), so where ``total`` game indices on
    ``jobs`` workers would take more than :data:`ESTIMATE_AFTER_S` by it (the estimate is then
    printed), the arms it timed are timed again properly."""
    fast = CHUNK_TARGET_S / max(cap, 1) / max(len(plays), 1) / 8
    secs = [1.0 / rates.measure_rate(game, ctx, players, seed, ids, par, fast=fast) for ctx, ids, par in plays]
    if total * sum(secs) / max(jobs, 1) > ESTIMATE_AFTER_S:
        secs = [1.0 / rates.measure_rate(game, ctx, players, seed, ids, par) if s < fast else s
                for s, (ctx, ids, par) in zip(secs, plays)]
    return secs


def plan_by_cost(looks: list, chunk_size, seconds: float, jobs: int, what: str, announce: bool,
                 kept_size: int | None = None) -> tuple[list, int | None]:
    """The chunks an experiment plays: its plan (``looks``, where it decides) cut into pieces of
    about :data:`CHUNK_TARGET_S` seconds where one game index of every arm costs ``seconds``
    (``kept_size``: the size an earlier try of it used, read back from its kept chunks; a
    ``chunk_size`` the user gave is kept as it is).  With ``announce``, an experiment expected
    to take more than :data:`ESTIMATE_AFTER_S` says so in one line first.  Returns (chunks, the
    size they were cut to or None)."""
    size = kept_size
    if size is None and chunk_size is None and looks:
        size = sized_chunk(seconds, max(c for _, c in looks))
    tasks = split_chunks(looks, size)
    games = sum(c for _, c in looks)
    workers = max(1, min(jobs, len(tasks)))
    sec = games * seconds / workers + len(tasks) * CHUNK_OVERHEAD_S / workers
    if announce and sec > ESTIMATE_AFTER_S:
        print(estimate_line(what, sec, workers, len(tasks), max((c for _, c in tasks), default=0)),
              file=sys.stderr, flush=True)
    return tasks, size


def estimate(spec: RunSpec, todo: list, rate: float, workers: int, rows: str) -> tuple[float, int]:
    """(seconds, bytes on disk) the chunks still to play will take."""
    games = sum(c for _, c in todo)
    sec = games / (rate * max(workers, 1)) + len(todo) * CHUNK_OVERHEAD_S / max(workers, 1)
    sub = RunSpec(spec.game, spec.players, spec.rules, spec.bots, max(games, 1), spec.seed)
    return sec, disk_needed(sub, len(todo), rows) - REPORT_BYTES




def _recorded(out_dir) -> bool:
    """Whether ``out_dir`` holds a run already (a resume: its chunk size is recorded there)."""
    if out_dir is None:
        return False
    from .store import ChunkStore
    store = ChunkStore(out_dir)
    return (store.dir / store.SPEC).exists()


def _size_by_cost(spec: RunSpec, jobs: int, progress: bool, rate: float | None, warmed: bool,
                  precise: bool) -> tuple[float | None, int | None]:
    """(one core's games/s, the chunk size) of a run whose chunk size is not given: the plan's
    chunk, or a smaller one of about :data:`CHUNK_TARGET_S` seconds where a game is slow.
    ``rate``: measured already (the long-run check); else measured here (``precise``: with
    the full budget, as the announced estimate needs it)."""
    cap = plan_chunks(spec.games, None, jobs)[0][1]
    if rate is None:
        game = spec.game
        ctx = spec.ctx if spec.ctx is not None else game.prepare(spec.rules, spec.players)
        bot_ids, bot_par = game.bot_arrays(spec.bots)
        if not warmed:
            with _compile_notice(game, progress):
                game.play_chunk(ctx, spec.players, spec.seed, 0, 0, bot_ids, bot_par)
        fast = None if precise else CHUNK_TARGET_S / cap / 8
        r = rates.measure_rate(game, ctx, spec.players, spec.seed, bot_ids, bot_par, fast=fast)
        rate = r if precise else None
    else:
        r = rate
    size = sized_chunk(1.0 / r, cap)
    return rate, (size if size < cap else None)


def execute(spec: RunSpec, jobs: int | None = None, chunk_size: int | None = None,
            backend: str | None = None, progress: bool | None = None,
            command: str | None = None, rows: str = "memory", out_dir=None,
            scheduler: str | None = None, note=None, after_first=None,
            rate: float | None = None, warmed: bool = False) -> RunResult:
    """Play the run.

    ``rate``: one core's games/s on this run where the caller measured it already
    (``sim.longrun``), for the announced estimate; else it is measured here.  ``warmed``: the
    local workers were started and loaded the kernel already (``sim.prestart``), so this
    process does not load it.

    ``after_first``: called once, in this thread, when the first chunk of this call has been
    collected (the CLI imports the report's modules there, while the workers play on).

    ``rows``: keep one row per game in memory (``"memory"``, the Python API), write them
    chunk by chunk to ``out_dir/results/`` (``"disk"``), or keep only the merged
    statistics (``"none"``: memory does not grow with the number of games).
    ``out_dir``: finished chunks are checkpointed there as they complete; running the
    same spec into the same directory again skips them (resume).
    Ctrl-C (and SIGTERM where the caller turned it into :class:`Terminated`), a worker that
    dies and a full disk stop the run cleanly: the finished chunks are kept and the result is
    marked partial, with the reason in ``result.stopped``.  ``note(text)`` is told, before a
    long run starts, how long it will take and how much disk it will use.
    """
    from .results import to_frame
    from .store import ChunkStore
    from .summary import Summary

    if rows not in ROWS:
        raise ValueError(f"rows must be one of {ROWS}")
    if rows == "disk" and out_dir is None:
        raise ValueError("rows='disk' needs an out_dir")
    jobs = resolve_jobs(jobs)
    backend = backend or default_backend(jobs)
    check_backend(backend)
    if scheduler and backend != "dask":
        raise UsageError("--scheduler needs --backend dask")
    if rows == "memory":
        check_memory(spec)
    if out_dir is not None:
        check_disk(spec, out_dir, rows, len(plan_chunks(spec.games, chunk_size, jobs)))
    if progress is None:
        progress = sys.stderr.isatty()
    stop_first = None  # a Ctrl-C while the cost was measured: the run stops as it did before
    if chunk_size is None and not _recorded(out_dir):
        # a slow bot's chunks sized to seconds, not hours (a resume keeps the recorded size)
        try:
            rate, chunk_size = _size_by_cost(spec, jobs, progress, rate, warmed and backend == "loky",
                                             precise=note is not None)
        except BaseException as e:  # noqa: BLE001 - only the stops of stop_reason; the rest propagate
            if stop_reason(e, out_dir) is None:
                raise
            stop_first = e
    store = None
    if out_dir is not None:
        store = ChunkStore(out_dir)
        chunk_size = store.begin(spec, chunk_size or plan_chunks(spec.games, None, jobs)[0][1], rows)
    chunks = plan_chunks(spec.games, chunk_size, jobs)
    game = spec.game
    started = datetime.now(timezone.utc)
    t0 = t1 = time.perf_counter()
    t_warm = 0.0
    summaries: dict[int, Summary] = {}
    frames: dict[int, dict] = {}
    if store is not None:
        summaries.update(store.finished(chunks, need_rows=(rows == "disk"), players=spec.players))
    resumed = len(summaries)
    todo = [(s, c) for s, c in chunks if s not in summaries]
    chunk_seconds = 0.0
    stopped = None
    failure = None
    bar = None
    keep = rows != "none"
    pending_first = [after_first] if after_first is not None else []

    def collect(res):
        nonlocal chunk_seconds
        s, c, summ, cols, sec, part = res
        if rows == "disk" and part is None:  # a Dask worker sent its rows back
            part = store.save_rows(s, to_frame(game, spec.players, [(s, cols)]))
        elif rows == "memory":
            frames[s] = cols
        if store is not None:
            store.save_summary(s, c, summ, part)
        summaries[s] = summ
        chunk_seconds += sec
        if bar is not None:
            bar.update(c)
        if pending_first:
            pending_first.pop()()

    try:
        if stop_first is not None:
            raise stop_first
        ctx = spec.ctx if spec.ctx is not None else game.prepare(spec.rules, spec.players)
        bot_ids, bot_par = game.bot_arrays(spec.bots)
        if not (warmed and backend == "loky" and rate is not None):
            # compile (or load from the cache) once here, before any worker starts
            with _compile_notice(game, progress):
                game.play_chunk(ctx, spec.players, spec.seed, 0, 0, bot_ids, bot_par)
        t_warm = time.perf_counter() - t0
        if todo and note is not None:
            workers = jobs
            if rate is None:
                rate = rates.measure_rate(game, ctx, spec.players, spec.seed, bot_ids, bot_par)
            sec, need = estimate(spec, todo, rate, workers, rows if store is not None else "none")
            if sec > ANNOUNCE_AFTER:
                disk = f" and write about {_size(need)}" if store is not None else ""
                note(f"this run will take about {duration(sec)} ({len(todo):,} chunks on {workers} "
                     f"workers at about {rate:,.0f} games/s each){disk}; Ctrl-C stops it and "
                     "keeps the finished chunks for --resume")
        bar = _progress_bar(spec.games, progress, spec.describe(),
                            initial=sum(c for s, c in chunks if s in summaries))
        t1 = time.perf_counter()
        args = (game.name, ctx, spec.players, spec.seed)
        # the rows are written where they were played, except on a Dask cluster (whose
        # workers may not see this machine's disk)
        here = str(out_dir) if rows == "disk" and backend != "dask" else None
        stopped, failure = run_chunks(_play_chunk, [(*args, start, count, bot_ids, bot_par, keep, here)
                                                    for start, count in todo],
                                      jobs, backend, scheduler, collect, out_dir=out_dir)
    except BaseException as e:  # the compile and the estimate before the chunks, stopped alike
        why = stop_reason(e, out_dir)
        if why is None:
            raise
        stopped, failure = why
    finally:
        if bar is not None:
            bar.close()
    t_sim = time.perf_counter() - t1

    order = sorted(summaries)
    summary = Summary.merge_all((summaries[s] for s in order), spec.players)
    frame = None
    if rows == "memory":
        frame = to_frame(game, spec.players, [(s, frames[s]) for s in sorted(frames)])
    partial = stopped is not None or summary.n < spec.games
    finished = datetime.now(timezone.utc)
    manifest = build_manifest(spec, jobs=jobs, backend=backend, chunks=chunks,
                              chunks_done=len(order), games_done=summary.n, partial=partial,
                              started=started, finished=finished,
                              seconds={"warmup": round(t_warm, 3), "simulate": round(t_sim, 3),
                                       "chunk_cpu": round(chunk_seconds, 3)},
                              command=command)
    manifest["chunks_resumed"] = resumed
    manifest["rows"] = rows
    if stopped is not None:
        manifest["stopped"] = stopped
    if backend == "dask":
        manifest["scheduler"] = scheduler or "local cluster"
    if frame is not None:
        frame.attrs["manifest"] = manifest
    res = RunResult(spec, frame, manifest, partial, chunks, summary, out_dir)
    res.stopped = stopped
    res.failure = failure
    if failure is not None and stopped == Stop.DISK:
        left = [(s, c) for s, c in chunks if s not in summaries]
        sub = RunSpec(spec.game, spec.players, spec.rules, spec.bots,
                      max(1, sum(c for _, c in left)), spec.seed)
        res.disk_needed = disk_needed(sub, len(left), rows)
    return res






























def simulate(game, games, rules: dict | None = None, bots: Sequence[str] | str | None = None,
             players: int | None = None, seed: int = DEFAULT_SEED, jobs: int | None = None,
             chunk_size: int | None = None, backend: str | None = None,
             progress: bool | None = False):
    """Play ``games`` games and return the results as a pandas DataFrame, one row per game.

    >>> df = simulate("puluc", games=100_000, rules={"track": 9}, bots=("greedy", "random"))

    ``rules`` overrides rule parameters (see ``sim rules GAME``); ``bots`` names one bot
    per seat (or one for all seats), optionally with settings (``"search:depth=1"``).
    The run's manifest (versions, parameters, bots, seed, timings) is in
    ``df.attrs["manifest"]``.  Results do not depend on ``jobs``, ``chunk_size`` or
    ``backend``.
    """
    spec = make_spec(game, games, rules, bots, players, seed)
    return execute(spec, jobs=jobs, chunk_size=chunk_size, backend=backend,
                   progress=progress, rows="memory").frame







