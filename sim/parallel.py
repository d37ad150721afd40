"""Where a run's chunks are played: the chunk plan, the backend (threads by default, loky
worker processes, a Dask cluster, or one after the other) and the joblib loop that collects
the chunks as they finish."""
from __future__ import annotations

import math
import os
import signal
import threading

from .params import UsageError
from .validate import cores
from .worker import _worker_init
from .stops import _signals_deferred, stop_reason


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


# ------------------------------------------------------------- chunks sized by their cost
#: a chunk of default size aims at about this many seconds of one worker: a slow bot's run keeps
#: (and reports) its work every few seconds, not once an hour
CHUNK_TARGET_S = 20.0
#: an experiment expected to take longer than this says how long before it starts
ESTIMATE_AFTER_S = 60.0
#: the most seconds between two progress lines in a log (stderr not a terminal)
PROGRESS_EVERY_S = 20.0


def sized_chunk(seconds_per_game: float, cap: int, target: float = CHUNK_TARGET_S) -> int:
    """Games per chunk where one game (of every arm a chunk plays) costs ``seconds_per_game``
    on one worker: ``cap`` (the chunk the plan would make) where that takes at most ``target``
    seconds, else the largest power of two that does (at least 1).  A power of two: a few
    per cent of noise in the measured cost rarely changes the choice."""
    cap = max(1, int(cap))
    if not seconds_per_game or seconds_per_game <= 0 or cap * seconds_per_game <= target:
        return cap
    fit = max(1, int(target / seconds_per_game))
    return min(cap, 1 << (fit.bit_length() - 1))


def split_chunks(chunks: list[tuple[int, int]], size: int | None) -> list[tuple[int, int]]:
    """Each chunk of ``chunks`` cut into consecutive pieces of at most ``size`` games.  The
    chunks' own boundaries are kept: an experiment decides (a sequential test, an early stop)
    only there, so what it decides does not depend on how finely the games were dealt out."""
    if not size:
        return list(chunks)
    size = max(1, int(size))
    return [(s + k, min(size, c - k)) for s, c in chunks for k in range(0, c, size)]


_LOG_PROGRESS = [False]


def log_progress(on: bool) -> None:
    """Whether progress goes to a log as lines when stderr is not a terminal (the command line
    turns it on, but for ``--quiet``; the Python API draws a bar only when asked)."""
    _LOG_PROGRESS[0] = bool(on)


def logging_progress() -> bool:
    import sys
    return _LOG_PROGRESS[0] and not _isatty(sys.stderr)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def duration(sec: float) -> str:
    if sec < 90:
        return f"{sec:.0f} s"
    if sec < 5400:
        return f"{sec / 60:.0f} min"
    if sec < 2 * 86400:
        return f"{sec / 3600:.1f} hours"
    return f"{sec / 86400:.1f} days"


class LineProgress:
    """Progress for a log: a line on stderr (games done of the total, elapsed, an ETA) when a
    chunk finishes at least ``every`` seconds after the last line (or the start).  Quiet for
    anything faster.  Stands in for the terminal's tqdm bar (``update``, ``total``,
    ``refresh``, ``close``)."""

    def __init__(self, total: int, desc: str, initial: int = 0, every: float | None = None,
                 clock=None, stream=None):
        import sys
        import time
        self.total, self.desc, self.n = int(total), desc, int(initial)
        self.every = PROGRESS_EVERY_S if every is None else every
        self._initial = int(initial)
        self._clock = clock or time.monotonic
        self._stream = stream
        self._start = self._last = self._clock()
        self.lines = 0
        self._sys = sys
        #: seconds left as the caller reckons them (an experiment whose games differ in cost:
        #: sim robust's capped strong conditions), said instead of the games' extrapolation
        self.left: float | None = None

    def update(self, n: int = 1) -> None:
        self.n += int(n)
        now = self._clock()
        if now - self._last >= self.every:
            self._last = now
            self._line(now)

    def _line(self, now: float) -> None:
        el = now - self._start
        done = self.n - self._initial
        total = max(self.total, 1)
        text = f"{self.desc}: {self.n:,}/{self.total:,} games ({100 * self.n / total:.0f}%), {duration(el)} so far"
        if self.left is not None:
            text += f", about {duration(self.left)} left"
        elif done > 0 and self.total > self.n:
            text += f", about {duration(el / done * (self.total - self.n))} left"
        print(text, file=self._stream or self._sys.stderr, flush=True)
        self.lines += 1

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


def estimate_line(what: str, seconds: float, jobs: int, chunks: int, size: int) -> str:
    """The one line said before a long experiment starts."""
    return (f"sim: {what}: about {duration(seconds)} on {jobs} worker{'s' if jobs != 1 else ''} "
            f"({chunks:,} chunk{'s' if chunks != 1 else ''} of up to {size:,} game{'s' if size != 1 else ''}; "
            "Ctrl-C keeps the finished ones)")
