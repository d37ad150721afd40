"""The shared runner: a run is (game, rules, bots per seat, number of games, seed).

Games are split into chunks of consecutive indices and played in parallel with
joblib.  Game *i* draws every random number from (seed, i) alone, so the result
is the same, bit for bit, whatever the number of jobs, the chunk size or the
backend.  Ctrl-C stops a run cleanly: the chunks already finished are kept and
the result is marked partial.
"""
from __future__ import annotations

import math
import os
import platform
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from . import __version__
from .game import BotChoice, Game
from .games import get as get_game
from .faults import DaskLost
from .io import DiskFull, is_disk_full
from .params import UsageError
from .validate import cores
from .worker import _play_chunk, _worker_init, release_workers  # noqa: F401 (runner.X)

MAX_GAMES = 10_000_000_000
DEFAULT_SEED = 1
#: a run expected to take longer than this (seconds) says how long, and how much disk, first
ANNOUNCE_AFTER = 300.0


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into a clean stop like Ctrl-C (the command exits with status 143)."""


@dataclass
class RunSpec:
    """Everything that determines a run's results."""

    game: Game
    players: int
    rules: dict
    bots: tuple[BotChoice, ...]
    games: int
    seed: int
    #: what ``game.prepare`` built from the rules and data files (prepared once, here)
    ctx: Any = field(default=None, repr=False, compare=False)
    #: the content of the data files: ``{"files": [[name, sha256], ...], "prepared": sha256}``
    data: dict = field(default_factory=dict)

    @property
    def rules_changed(self) -> dict:
        return {p.name: self.rules[p.name] for p in self.game.params
                if self.rules[p.name] != p.default}

    def fingerprint(self) -> dict:
        """What must match for a directory's finished chunks to be reused (resume): the
        game, its version, the rules, the content of every data file, bots, seed, games."""
        return {"game": self.game.name, "game_version": self.game.version, "players": self.players,
                "rules": {k: _show(v) if isinstance(v, tuple) else v for k, v in self.rules.items()},
                "data": self.data,
                "bots": [c.label for c in self.bots], "seed": self.seed, "games": self.games}

    def run_id(self) -> str:
        """sha256 of the fingerprint: every chunk record carries it."""
        import hashlib
        import json
        text = json.dumps(self.fingerprint(), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def describe(self) -> str:
        changed = ",".join(f"{k}={_show(v)}" for k, v in self.rules_changed.items())
        return f"{self.game.name}({changed})" if changed else self.game.name


@dataclass
class RunResult:
    spec: RunSpec
    frame: Any  # pandas.DataFrame, one row per game (None unless rows were kept in memory)
    manifest: dict
    partial: bool = False
    chunks: list = field(default_factory=list)
    summary: Any = None  # sim.summary.Summary of every finished game
    out_dir: Any = None
    stopped: str | None = None   # why the run stopped early (Stop.*), None if it did not
    failure: Any = None          # the error behind a worker death or a full disk
    disk_needed: int | None = None  # bytes the unfinished chunks and the report still need


def _show(v) -> str:
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    return str(v)


def parse_games(value) -> int:
    """``1e6``, ``250000``, ``2.5e5``, ``1_000_000`` -> an integer number of games (>= 1)."""
    from .validate import safe
    raw = value
    if isinstance(value, str):
        value = value.strip().replace("_", "").replace(",", "")
        if not value.isascii():  # float() reads other scripts' digits: not a number typed here
            raise UsageError(f"--games must be a whole number such as 1e6 or 250000, not {safe(repr(raw))}")
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"--games must be a whole number such as 1e6 or 250000, not {safe(repr(raw))}") from None
    if not math.isfinite(f) or f != int(f):
        raise UsageError(f"--games must be a whole number of games, not {safe(repr(raw))}")
    n = int(f)
    if n < 1:
        raise UsageError(f"--games must be at least 1, not {safe(repr(raw))}")
    if n > MAX_GAMES:
        raise UsageError(f"--games {safe(raw)} is more than this tool runs in one go ({MAX_GAMES:.0e})")
    return n


def make_spec(game, games, rules=None, bots=None, players=None, seed=DEFAULT_SEED) -> RunSpec:
    from . import toml as TOML
    g = game if isinstance(game, Game) else get_game(game)
    n = parse_games(games)
    p = g.check_players(players)
    r = g.resolve_rules(rules)
    b = g.choose_bots(bots, p)
    s = parse_seed(seed)
    # checks between parameters and data files fail here, before any output; the data
    # files' content (and what was built from it) becomes part of the run's identity
    key = (g.name, g.version, p, digest(r))
    hit = _PREPARED.get(key)
    if hit is not None and TOML.unchanged(hit[0]):
        ctx, data = hit[1], hit[2]
    else:
        with TOML.recording() as files, TOML.recording_paths() as paths:
            ctx = g.prepare(r, p)
        data = {"files": [list(f) for f in files], "prepared": digest(ctx)}
        if len(_PREPARED) >= 64:
            _PREPARED.pop(next(iter(_PREPARED)))
        _PREPARED[key] = (paths, ctx, data)
    return RunSpec(g, p, r, b, n, s, ctx=ctx, data=data)


#: what ``prepare`` built, per (game, version, players, rules): reused while every data file
#: it read holds the same content (experiments make a spec per arm; Maya's takes ~0.5 s)
_PREPARED: dict = {}


def parse_seed(seed) -> int:
    from .validate import safe
    if isinstance(seed, bool):
        raise UsageError(f"--seed must be an integer, not {seed!r}")
    try:
        text = str(seed).strip().replace("_", "")
        if not isinstance(seed, int) and not text.isascii():
            raise ValueError
        s = int(text) if not isinstance(seed, int) else seed
    except (TypeError, ValueError):
        raise UsageError(f"--seed must be an integer, not {safe(repr(seed))}") from None
    if not 0 <= s < 2 ** 64:
        shown = s if abs(s) < 10**30 else f"a number of {len(str(abs(s)))} digits"
        raise UsageError(f"--seed must be in 0..2**64-1, not {shown}")
    return s


def digest(obj) -> str:
    """sha256 of a prepared context (numpy arrays, numbers, strings, tuples, lists, dicts),
    the same in every process and on every machine."""
    import hashlib
    h = hashlib.sha256()

    def feed(o):
        if isinstance(o, np.ndarray):
            a = np.ascontiguousarray(o)
            h.update(f"A{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
        elif isinstance(o, (bool, int, float, str, type(None), np.generic)):
            h.update(f"S{type(o).__name__}:{o!r};".encode())
        elif isinstance(o, (tuple, list)):
            h.update(f"L{len(o)}(".encode())
            for x in o:
                feed(x)
            h.update(b")")
        elif isinstance(o, dict):
            h.update(f"D{len(o)}(".encode())
            for k in sorted(o, key=repr):
                feed(k)
                feed(o[k])
            h.update(b")")
        else:  # anything else a game may return: its pickle (stable for a given version)
            import pickle
            h.update(b"P" + pickle.dumps(o, protocol=4))

    feed(obj)
    return h.hexdigest()


def bytes_per_game(game: Game, players: int) -> int:
    total = 8  # the game index column
    for c in game.all_columns():
        total += np.dtype(c.dtype).itemsize * (players if c.per_seat else 1)
    return total


def available_memory() -> int:
    """Bytes of memory available to a new process (psutil: MemAvailable on Linux)."""
    import psutil
    try:
        return int(psutil.virtual_memory().available)
    except (OSError, RuntimeError):  # pragma: no cover
        return 8 * 2 ** 30


def check_memory(spec: RunSpec):
    """Refuse runs whose per-game rows cannot fit in memory (rows are built, joined and framed)."""
    need = bytes_per_game(spec.game, spec.players) * spec.games * 3
    have = available_memory()
    if need > 0.8 * have:
        raise UsageError(
            f"--games {spec.games:.3g} needs about {need / 2**30:.1f} GiB for its per-game results "
            f"but only {have / 2**30:.1f} GiB of memory is available; run fewer games")


#: the report (pages, standalone page with embedded figures, PNGs): a generous bound
REPORT_BYTES = 8 * 2 ** 20


def _one_game_files(game: Game, players: int) -> tuple[int, int]:
    """(bytes of a chunk record, bytes of a Parquet part) for a chunk of one game: the fixed
    cost of every chunk on disk (schema, footers, histogram headers)."""
    import io
    import json

    import pyarrow.parquet as pq

    from .results import allocate, to_columns
    from .store import arrow_table
    from .summary import Summary
    cols = {k: np.zeros_like(v) for k, v in allocate(game, players, 1).items()}
    rec = len(json.dumps(Summary.from_columns(game, players, cols).to_dict())) + 400
    buf = io.BytesIO()
    # as the workers write it (sim.store.ChunkStore.save_rows: no pandas, not loaded yet)
    pq.write_table(arrow_table(to_columns(game, players, [(0, cols)])), buf)
    return rec, len(buf.getvalue())


def disk_needed(spec: RunSpec, chunks: int, rows: str, csv: bool = False) -> int:
    """Bytes a run writes: its chunk records, its per-game rows (when kept on disk, with each
    part's own overhead), an optional CSV and the report.  Row bytes are their size in
    memory, an upper bound for Parquet."""
    rec, part = _one_game_files(spec.game, spec.players)
    need = REPORT_BYTES + chunks * int(2.5 * rec)  # a record grows with its histograms
    if rows == "disk":
        need += spec.games * bytes_per_game(spec.game, spec.players) + chunks * part
        if csv:
            need += spec.games * bytes_per_game(spec.game, spec.players) * 3
    return need


def _free_space(out_dir) -> tuple[Path, int]:
    import shutil
    path = Path(out_dir)
    while not path.exists() and path != path.parent:
        path = path.parent
    return path, shutil.disk_usage(path).free


def _size(n: float) -> str:
    for unit, k in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= k:
            return f"{n / k:.1f} {unit}"
    return f"{int(n)} bytes"


def check_disk(spec: RunSpec, out_dir, rows: str = "disk", chunks: int | None = None,
               csv: bool = False) -> int:
    """Refuse a run whose files (rows, records, report) cannot fit on the disk; returns the
    bytes needed."""
    if chunks is None:
        chunks = len(plan_chunks(spec.games, None, cores()))
    need = disk_needed(spec, chunks, rows, csv)
    path, free = _free_space(out_dir)
    if need > free:
        from .validate import safe
        what = "with per-game rows " if rows == "disk" else ""
        hint = "run fewer games or without --raw" if rows == "disk" else "run fewer games"
        raise UsageError(
            f"--games {spec.games:.3g} {what}needs up to {_size(need)} of disk "
            f"({chunks:,} chunks and the report) but {safe(str(path))} has {_size(free)} free; {hint}")
    return need


def plan_chunks(games: int, chunk_size: int | None, jobs: int) -> list[tuple[int, int]]:
    if chunk_size is None:
        chunk_size = max(1000, min(50_000, math.ceil(games / (max(jobs, 1) * 16))))
    chunk_size = max(1, int(chunk_size))
    return [(s, min(chunk_size, games - s)) for s in range(0, games, chunk_size)]


def default_backend(jobs: int) -> str:
    """The backend of a local run when none is named: one job plays in this process
    (``sequential``); more play in threads of this process (``threading``).

    The kernels release the GIL (``sim.jit``: every jitted function is ``nogil``), so the
    threads play their chunks on separate cores, as worker processes would, without what
    processes cost: an interpreter, the package's imports and the kernel's load from
    numba's cache in every worker (about 0.5 s of CPU each for Puluc), and the results
    sent back by pickle.  The chunk's Python work (its statistics, its Parquet part)
    takes the GIL in turn.  ``loky`` (worker processes) stays a choice; a cluster is
    ``dask``.  Results do not depend on the backend (game *i* draws from (seed, *i*))."""
    return "sequential" if jobs == 1 else "threading"


def resolve_jobs(jobs: int | None) -> int:
    """Worker processes: 0 or None = every core, negative = joblib style (-1 = all cores);
    never more than the cores available (more would only add processes and memory)."""
    n = cores()
    if jobs is None or jobs == 0:
        return n
    jobs = int(jobs)
    if jobs < 0:
        return max(1, n + 1 + jobs)
    return min(jobs, n)


_DEFERRED = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _signals_deferred():
    """Hold a Ctrl-C (and a SIGTERM the command turned into a clean stop) until the block is
    done: a chunk is recorded (rows, statistics record, in-memory summary) whole or not at
    all, so the report, the manifest and the files on disk always agree.  Only the main
    thread can take signals; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    old = {}
    for sig in _DEFERRED:
        h = signal.getsignal(sig)
        if sig == signal.SIGINT or callable(h):  # SIGTERM only where a handler was installed
            old[sig] = h
            signal.signal(sig, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)
        if caught:
            if signal.SIGTERM in caught and callable(old.get(signal.SIGTERM)):
                old[signal.SIGTERM](signal.SIGTERM, None)
            raise KeyboardInterrupt


_sigint_deferred = _signals_deferred  # the former name


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
    if not enabled:
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit="games", unit_scale=True, desc=desc,
                dynamic_ncols=True, smoothing=0.1, file=sys.stderr)


ROWS = ("none", "memory", "disk")
#: the fixed cost of a chunk besides its games (dispatch, files, flushes to the disk): seconds
CHUNK_OVERHEAD_S = 0.01


def measure_rate(game: Game, ctx, players: int, seed: int, bot_ids, bot_par,
                 budget: float = 0.05) -> float:
    """Games per second of one core on this run (a few of its first games, timed)."""
    n = 16
    while True:
        t0 = time.perf_counter()
        game.run_chunk(ctx, players, seed, 0, n, bot_ids, bot_par)
        dt = time.perf_counter() - t0
        if dt >= budget or n >= 1 << 14:
            return n / max(dt, 1e-9)
        n *= 2


def _duration(sec: float) -> str:
    if sec < 90:
        return f"{sec:.0f} s"
    if sec < 5400:
        return f"{sec / 60:.0f} minutes"
    if sec < 2 * 86400:
        return f"{sec / 3600:.1f} hours"
    return f"{sec / 86400:.1f} days"


def estimate(spec: RunSpec, todo: list, rate: float, workers: int, rows: str) -> tuple[float, int]:
    """(seconds, bytes on disk) the chunks still to play will take."""
    games = sum(c for _, c in todo)
    sec = games / (rate * max(workers, 1)) + len(todo) * CHUNK_OVERHEAD_S / max(workers, 1)
    sub = RunSpec(spec.game, spec.players, spec.rules, spec.bots, max(games, 1), spec.seed)
    return sec, disk_needed(sub, len(todo), rows) - REPORT_BYTES


class Stop:
    """Why a run stopped before its last chunk (None: it did not)."""
    INTERRUPTED = "interrupted"     # Ctrl-C
    TERMINATED = "terminated"       # SIGTERM
    WORKER = "worker died"          # a worker process was killed (or ran out of memory)
    DISK = "disk full"              # writing a chunk's files failed: no space left
    CLUSTER = "dask cluster lost"   # the Dask scheduler, or every worker, is gone (sim.faults)


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
        ctx = spec.ctx if spec.ctx is not None else game.prepare(spec.rules, spec.players)
        bot_ids, bot_par = game.bot_arrays(spec.bots)
        if not (warmed and backend == "loky" and rate is not None):
            # compile (or load from the cache) once here, before any worker starts
            with _compile_notice(game, progress):
                game.run_chunk(ctx, spec.players, spec.seed, 0, 0, bot_ids, bot_par)
        t_warm = time.perf_counter() - t0
        if todo and note is not None:
            workers = jobs
            if rate is None:
                rate = measure_rate(game, ctx, spec.players, spec.seed, bot_ids, bot_par)
            sec, need = estimate(spec, todo, rate, workers, rows if store is not None else "none")
            if sec > ANNOUNCE_AFTER:
                disk = f" and write about {_size(need)}" if store is not None else ""
                note(f"this run will take about {_duration(sec)} ({len(todo):,} chunks on {workers} "
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


def stop_reason(e: BaseException, out_dir=None):
    """(Stop reason, failure) for an exception that stops a run cleanly, else None: Ctrl-C,
    SIGTERM (:class:`Terminated`), a full disk, a worker process that died, a Dask cluster
    lost (:class:`sim.faults.DaskLost`)."""
    if isinstance(e, Terminated):
        return Stop.TERMINATED, None
    if isinstance(e, KeyboardInterrupt):
        return Stop.INTERRUPTED, None
    if isinstance(e, DiskFull):
        return Stop.DISK, e
    if isinstance(e, DaskLost):
        return Stop.CLUSTER, e
    if isinstance(e, Exception) and is_disk_full(e):
        return Stop.DISK, DiskFull(out_dir or ".")
    if isinstance(e, Exception) and _is_worker_death(e):
        return Stop.WORKER, e
    return None


def run_chunks(task, tasks, jobs: int, backend: str, scheduler, collect, ordered: bool = False,
               out_dir=None) -> tuple:
    """The chunk engine every run and every experiment plays through.

    ``run_tasks(task, tasks, ...)`` plays the chunks on the backend; each finished chunk's
    result goes to ``collect(result)`` whole, with Ctrl-C and SIGTERM held until it returns
    (so what is recorded, in memory or on disk, is a set of whole chunks); ``collect`` returns
    True to stop early (a sequential test that decided).  Ctrl-C, SIGTERM, a full disk and a
    worker that dies stop the chunks cleanly; returns (Stop reason or None, failure or None).
    Any other error propagates.  The workers are stopped on the way out."""
    import warnings
    results = None
    stopped = failure = None
    try:
        results = run_tasks(task, tasks, jobs, backend, scheduler, ordered=ordered)
        for res in results:
            with _signals_deferred():
                done = collect(res)
            if done:
                break
    except BaseException as e:  # noqa: BLE001 - only the stops of stop_reason; the rest propagate
        why = stop_reason(e, out_dir)
        if why is None:
            raise
        stopped, failure = why
    finally:
        if results is not None:
            try:
                with warnings.catch_warnings():  # joblib: "tasks ... cancelled" (an early stop)
                    warnings.simplefilter("ignore", UserWarning)
                    results.close()  # stops the workers of an interrupted run
            except Exception:  # noqa: BLE001 - a broken pool is already being reported
                pass
    return stopped, failure


def _is_worker_death(e: BaseException) -> bool:
    """A worker process died under us: loky's TerminatedWorkerError / a broken pool, or
    Dask giving up on a task whose workers kept dying."""
    names = {c.__name__ for c in type(e).__mro__}
    return bool(names & {"TerminatedWorkerError", "BrokenProcessPool", "KilledWorker",
                         "BrokenExecutor"})


def check_backend(backend: str) -> None:
    from .validate import check_backend as _check
    _check(backend, None)


#: joblib.Parallel's settings for the chunks.  max_nbytes=None: no memory-mapping of the
#: (small) rule arrays, which would reach the kernel as read-only arrays, a type numba
#: compiles anew.  (sim.prestart starts the pool with the same, so the run reuses it.)
PARALLEL_KW = {"batch_size": 1, "max_nbytes": None, "pre_dispatch": "2*n_jobs"}


def loky_config() -> dict:
    """``parallel_config``'s settings for the local pool besides backend and n_jobs: the
    worker initialiser, and joblib's scratch folder: ours, not /dev/shm (sim.scratch)."""
    from . import scratch
    scratch.clean_stale()
    return {"initializer": _worker_init, "initargs": (os.getpid(),), "temp_folder": scratch.folder()}


def run_tasks(func, arg_list, jobs: int, backend: str, scheduler: str | None = None,
              ordered: bool = False):
    """Yield ``func(*args)`` for every ``args`` on the chosen backend: in the order given
    (``ordered``) or as they finish.  Closing the generator stops the remaining tasks and any
    Dask cluster it started.  Local worker processes end themselves if this process dies."""
    check_backend(backend)
    if backend == "sequential":
        for args in arg_list:
            yield func(*args)
        return
    import warnings
    from contextlib import nullcontext

    from joblib import Parallel, delayed, parallel_config

    from . import scratch
    from .faults import watching
    client = cluster = None
    n_jobs = jobs
    extra = {}
    stopped_early = True
    _quiet_cancellations()
    try:
        if backend == "dask":
            client, cluster = _dask_client(scheduler, jobs)
            n_jobs = -1
            # callbacks of futures cancelled by Ctrl-C log tracebacks from the client's event
            # loop; a failing chunk still raises here, with its own error
            import logging
            logging.getLogger("tornado.application").setLevel(logging.CRITICAL + 1)
        elif backend == "loky":
            extra = loky_config()
        # a lost scheduler, or a cluster left without workers, raises DaskLost (sim.faults)
        guard = watching(client, scheduler) if client is not None else nullcontext()
        with parallel_config(backend=backend, n_jobs=n_jobs, **extra), guard:
            par = Parallel(return_as="generator" if ordered else "generator_unordered", **PARALLEL_KW)
            gen = par(delayed(func)(*args) for args in arg_list)
            try:
                yield from gen
                stopped_early = False
            finally:
                if stopped_early:  # joblib warns about the tasks it cancels: we asked it to
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        gen.close()
    finally:
        if backend == "loky":
            scratch.remove()
        if client is not None or cluster is not None:
            if stopped_early:
                _quiet_dask()  # an interrupted cluster's late callbacks log tracebacks
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()


_QUIETED = []


def _quiet_cancellations() -> None:
    """joblib warns that the tasks it cancels on Ctrl-C were wasted: we stopped them."""
    if not _QUIETED:
        import warnings
        warnings.filterwarnings("ignore", message=r".*tasks.*(cancelled|not used)", category=UserWarning)
        _QUIETED.append(True)


def _quiet_dask() -> None:
    """Dask's shutdown after Ctrl-C (cancelled tasks, closed streams) logs warnings and
    tracebacks from its event loop, some after the cluster is closed: not for the user.
    The run itself says what happened in one line."""
    from .faults import quiet_dask
    quiet_dask()


def _dask_client(scheduler: str | None, jobs: int):
    import logging
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - dask is a dependency
        raise UsageError("--backend dask needs dask.distributed (pip install 'dask[distributed]')")
    from .validate import probe_scheduler, safe
    if scheduler:
        probe_scheduler(scheduler)
        try:
            return Client(scheduler, timeout="20s"), None
        except (OSError, TimeoutError) as e:
            raise UsageError(f"cannot reach the Dask scheduler at {safe(scheduler)}: {e}") from None
    # the local cluster's processes ignore Ctrl-C (this process stops them): no tracebacks
    # from every worker and nanny when the terminal's Ctrl-C reaches the whole group
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        import warnings
        with warnings.catch_warnings():  # e.g. "port 8787 in use": nothing the user asked for
            warnings.simplefilter("ignore")
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
    return Client(cluster), cluster


def machine_info() -> dict:
    import numba
    import pandas
    return {
        "platform": platform.platform(),
        "processor": _cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pandas.__version__,
    }


def _cpu_model() -> str:
    # the model name is the one CPU figure psutil does not give
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def build_manifest(spec: RunSpec, *, jobs, backend, chunks, chunks_done, games_done, partial,
                   started, finished, seconds, command=None) -> dict:
    g = spec.game
    sim_s = seconds.get("simulate", 0.0)
    return {
        "tool": "sim",
        "sim_version": __version__,
        "game": g.name,
        "game_title": g.title,
        "game_version": g.version,
        "run": spec.describe(),
        "players": spec.players,
        "seats": g.seat_names(spec.players),
        "rules": {k: _show(v) if isinstance(v, tuple) else v for k, v in spec.rules.items()},
        "rules_changed": {k: _show(v) if isinstance(v, tuple) else v
                          for k, v in spec.rules_changed.items()},
        "bots": [c.label for c in spec.bots],
        "bot_settings": [dict(c.settings) for c in spec.bots],
        "seed": spec.seed,
        "games_requested": spec.games,
        "games_completed": games_done,
        "partial": partial,
        "chunk_size": chunks[0][1] if chunks else 0,
        "chunks_total": len(chunks),
        "chunks_done": chunks_done,
        "jobs": jobs,
        "backend": backend,
        "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"),
        "seconds": seconds,
        "games_per_second": round(games_done / sim_s, 1) if sim_s > 0 else None,
        "machine": machine_info(),
        "command": command,
    }


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


_terminated = threading.Event()


def note_terminated() -> None:
    """Remember that this process was asked to stop by SIGTERM (exit status 143)."""
    _terminated.set()


def terminated_seen() -> bool:
    return _terminated.is_set()
