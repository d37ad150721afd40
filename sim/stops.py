"""How a run stops early and says why: Ctrl-C and SIGTERM (held while a chunk is recorded, so
the files always agree), a full disk, a worker that died, a Dask cluster lost."""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

from .faults import DaskLost
from .io import DiskFull, is_disk_full


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into a clean stop like Ctrl-C (the command exits with status 143)."""


class Stop:
    """Why a run stopped before its last chunk (None: it did not)."""
    INTERRUPTED = "interrupted"     # Ctrl-C
    TERMINATED = "terminated"       # SIGTERM
    WORKER = "worker died"          # a worker process was killed (or ran out of memory)
    DISK = "disk full"              # writing a chunk's files failed: no space left
    CLUSTER = "dask cluster lost"   # the Dask scheduler, or every worker, is gone (sim.faults)


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


_terminated = threading.Event()


def note_terminated() -> None:
    """Remember that this process was asked to stop by SIGTERM (exit status 143)."""
    _terminated.set()


def terminated_seen() -> bool:
    return _terminated.is_set()


def _is_worker_death(e: BaseException) -> bool:
    """A worker process died under us: loky's TerminatedWorkerError / a broken pool, or
    Dask giving up on a task whose workers kept dying."""
    names = {c.__name__ for c in type(e).__mro__}
    return bool(names & {"TerminatedWorkerError", "BrokenProcessPool", "KilledWorker",
                         "BrokenExecutor"})
