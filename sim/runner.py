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
from .params import UsageError

MAX_GAMES = 10_000_000_000
BACKENDS = ("loky", "threading", "sequential", "dask")


@dataclass
class RunSpec:
    """Everything that determines a run's results."""

    game: Game
    players: int
    rules: dict
    bots: tuple[BotChoice, ...]
    games: int
    seed: int

    @property
    def rules_changed(self) -> dict:
        return {p.name: self.rules[p.name] for p in self.game.params
                if self.rules[p.name] != p.default}

    def fingerprint(self) -> dict:
        """What must match for a directory's finished chunks to be reused (resume)."""
        return {"game": self.game.name, "game_version": self.game.version, "players": self.players,
                "rules": {k: _show(v) if isinstance(v, tuple) else v for k, v in self.rules.items()},
                "bots": [c.label for c in self.bots], "seed": self.seed, "games": self.games}

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


def _show(v) -> str:
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    return str(v)


def parse_games(value) -> int:
    """``1e6``, ``250000``, ``2.5e5``, ``1_000_000`` -> an integer number of games (>= 1)."""
    raw = value
    if isinstance(value, str):
        value = value.strip().replace("_", "").replace(",", "")
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"--games must be a whole number such as 1e6 or 250000, not {raw!r}") from None
    if not math.isfinite(f) or f != int(f):
        raise UsageError(f"--games must be a whole number of games, not {raw!r}")
    n = int(f)
    if n < 1:
        raise UsageError(f"--games must be at least 1, not {raw!r}")
    if n > MAX_GAMES:
        raise UsageError(f"--games {raw} is more than this tool runs in one go ({MAX_GAMES:.0e})")
    return n


def make_spec(game, games, rules=None, bots=None, players=None, seed=0) -> RunSpec:
    g = game if isinstance(game, Game) else get_game(game)
    n = parse_games(games)
    p = g.check_players(players)
    r = g.resolve_rules(rules)
    b = g.choose_bots(bots, p)
    try:
        s = int(seed)
    except (TypeError, ValueError):
        raise UsageError(f"--seed must be an integer, not {seed!r}") from None
    if not 0 <= s < 2 ** 64:
        raise UsageError(f"--seed must be in 0..2**64-1, not {seed}")
    g.prepare(r, p)  # checks between parameters and data files fail here, before any output
    return RunSpec(g, p, r, b, n, s)


def bytes_per_game(game: Game, players: int) -> int:
    total = 8  # the game index column
    for c in game.all_columns():
        total += np.dtype(c.dtype).itemsize * (players if c.per_seat else 1)
    return total


def available_memory() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return 8 * 2 ** 30


def check_memory(spec: RunSpec):
    """Refuse runs whose per-game rows cannot fit in memory (rows are built, joined and framed)."""
    need = bytes_per_game(spec.game, spec.players) * spec.games * 3
    have = available_memory()
    if need > 0.8 * have:
        raise UsageError(
            f"--games {spec.games:.3g} needs about {need / 2**30:.1f} GiB for its per-game results "
            f"but only {have / 2**30:.1f} GiB of memory is available; run fewer games")


def check_disk(spec: RunSpec, out_dir):
    """Refuse row-keeping runs whose rows (at most their in-memory size) cannot fit on the disk."""
    import shutil
    need = bytes_per_game(spec.game, spec.players) * spec.games
    path = Path(out_dir)
    while not path.exists() and path != path.parent:
        path = path.parent
    free = shutil.disk_usage(path).free
    if need > free:
        raise UsageError(
            f"--games {spec.games:.3g} with per-game rows needs up to {need / 2**30:.1f} GiB of disk "
            f"but {path} has {free / 2**30:.1f} GiB free; run fewer games or without --raw")


def plan_chunks(games: int, chunk_size: int | None, jobs: int) -> list[tuple[int, int]]:
    if chunk_size is None:
        chunk_size = max(1000, min(50_000, math.ceil(games / (max(jobs, 1) * 16))))
    chunk_size = max(1, int(chunk_size))
    return [(s, min(chunk_size, games - s)) for s in range(0, games, chunk_size)]


def resolve_jobs(jobs: int | None) -> int:
    cores = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return cores
    jobs = int(jobs)
    if jobs < 0:  # joblib style: -1 = all cores
        return max(1, cores + 1 + jobs)
    return jobs


@contextmanager
def _sigint_deferred():
    """Hold a Ctrl-C until the block is done: a chunk is recorded (rows, statistics record,
    in-memory summary) whole or not at all, so the report, the manifest and the files on
    disk always agree.  Only the main thread can take signals; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if caught:
            raise KeyboardInterrupt


def _play_chunk(game_name: str, ctx, players: int, seed: int, start: int, count: int,
                bot_ids, bot_par, keep_rows: bool):
    """Worker task: play one chunk; returns (start, count, summary, columns or None, seconds)."""
    from .summary import Summary
    t0 = time.perf_counter()
    game = get_game(game_name)
    cols = game.run_chunk(ctx, players, seed, start, count, bot_ids, bot_par)
    summary = Summary.from_columns(game, players, cols)
    return start, count, summary, (cols if keep_rows else None), time.perf_counter() - t0


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


def execute(spec: RunSpec, jobs: int | None = None, chunk_size: int | None = None,
            backend: str | None = None, progress: bool | None = None,
            command: str | None = None, rows: str = "memory", out_dir=None,
            scheduler: str | None = None) -> RunResult:
    """Play the run.

    ``rows``: keep one row per game in memory (``"memory"``, the Python API), write them
    chunk by chunk to ``out_dir/results/`` (``"disk"``), or keep only the merged
    statistics (``"none"``: memory does not grow with the number of games).
    ``out_dir``: finished chunks are checkpointed there as they complete; running the
    same spec into the same directory again skips them (resume).
    Ctrl-C keeps the finished chunks and marks the result partial.
    """
    from .results import to_frame
    from .store import ChunkStore
    from .summary import Summary

    if rows not in ROWS:
        raise ValueError(f"rows must be one of {ROWS}")
    if rows == "disk" and out_dir is None:
        raise ValueError("rows='disk' needs an out_dir")
    if rows == "memory":
        check_memory(spec)
    elif rows == "disk":
        check_disk(spec, out_dir)
    jobs = resolve_jobs(jobs)
    backend = backend or ("sequential" if jobs == 1 else "loky")
    check_backend(backend)
    if scheduler and backend != "dask":
        raise UsageError("--scheduler needs --backend dask")
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
        summaries.update(store.finished(chunks, need_rows=(rows == "disk")))
    resumed = len(summaries)
    todo = [(s, c) for s, c in chunks if s not in summaries]
    chunk_seconds = 0.0
    partial = False
    bar = None
    results = None
    keep = rows != "none"

    def collect(res):
        nonlocal chunk_seconds
        s, c, summ, cols, sec = res
        with _sigint_deferred():
            if rows == "disk":
                store.save_rows(s, to_frame(game, spec.players, [(s, cols)]))
            elif rows == "memory":
                frames[s] = cols
            if store is not None:
                store.save_summary(s, c, summ)
            summaries[s] = summ
        chunk_seconds += sec
        if bar is not None:
            bar.update(c)

    try:
        ctx = game.prepare(spec.rules, spec.players)
        bot_ids, bot_par = game.bot_arrays(spec.bots)
        # compile (or load from the cache) once here, before any worker starts
        with _compile_notice(game, progress):
            game.run_chunk(ctx, spec.players, spec.seed, 0, 0, bot_ids, bot_par)
        t_warm = time.perf_counter() - t0
        bar = _progress_bar(spec.games, progress, spec.describe(),
                            initial=sum(c for s, c in chunks if s in summaries))
        t1 = time.perf_counter()
        args = (game.name, ctx, spec.players, spec.seed)
        results = run_tasks(_play_chunk, [(*args, start, count, bot_ids, bot_par, keep)
                                          for start, count in todo],
                            jobs, backend, scheduler, ordered=False)
        for res in results:
            collect(res)
    except KeyboardInterrupt:
        partial = True
    finally:
        if results is not None:
            results.close()  # stops the workers of an interrupted run
        if bar is not None:
            bar.close()
    t_sim = time.perf_counter() - t1

    order = sorted(summaries)
    summary = Summary.merge_all((summaries[s] for s in order), spec.players)
    frame = None
    if rows == "memory":
        frame = to_frame(game, spec.players, [(s, frames[s]) for s in sorted(frames)])
    if summary.n < spec.games:
        partial = True
    finished = datetime.now(timezone.utc)
    manifest = build_manifest(spec, jobs=jobs, backend=backend, chunks=chunks,
                              chunks_done=len(order), games_done=summary.n, partial=partial,
                              started=started, finished=finished,
                              seconds={"warmup": round(t_warm, 3), "simulate": round(t_sim, 3),
                                       "chunk_cpu": round(chunk_seconds, 3)},
                              command=command)
    manifest["chunks_resumed"] = resumed
    manifest["rows"] = rows
    if backend == "dask":
        manifest["scheduler"] = scheduler or "local cluster"
    if frame is not None:
        frame.attrs["manifest"] = manifest
    return RunResult(spec, frame, manifest, partial, chunks, summary, out_dir)


def check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend '{backend}'; known: {', '.join(BACKENDS)}")


def run_tasks(func, arg_list, jobs: int, backend: str, scheduler: str | None = None,
              ordered: bool = False):
    """Yield ``func(*args)`` for every ``args`` on the chosen backend: in the order given
    (``ordered``) or as they finish.  Closing the generator stops the remaining tasks and any
    Dask cluster it started."""
    check_backend(backend)
    if backend == "sequential":
        for args in arg_list:
            yield func(*args)
        return
    from joblib import Parallel, delayed, parallel_config
    client = cluster = None
    n_jobs = jobs
    try:
        if backend == "dask":
            client, cluster = _dask_client(scheduler, jobs)
            n_jobs = -1
        with parallel_config(backend=backend, n_jobs=n_jobs):
            # max_nbytes=None: no memory-mapping of the (small) rule arrays, which would
            # reach the kernel as read-only arrays, a type numba compiles anew
            par = Parallel(return_as="generator" if ordered else "generator_unordered",
                           batch_size=1, max_nbytes=None, pre_dispatch="2*n_jobs")
            yield from par(delayed(func)(*args) for args in arg_list)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def _dask_client(scheduler: str | None, jobs: int):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - dask is a dependency
        raise UsageError("--backend dask needs dask.distributed (pip install 'dask[distributed]')")
    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None
        except OSError as e:
            raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                           dashboard_address=None)
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
             players: int | None = None, seed: int = 0, jobs: int | None = None,
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
