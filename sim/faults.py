"""A Dask cluster lost under a run: its scheduler gone, or every worker gone for good.

Either stops the run cleanly, as a worker death does on the local backend: the finished
chunks are kept (each was recorded whole as it arrived), and the command says in one line
what was lost and how to finish the run (``--resume``).  Without this, a lost scheduler
ends in Dask's tracebacks and a run whose last worker died waits for one forever.

:func:`watching` wraps the run's wait for results: a thread asks the scheduler every
:data:`POLL` seconds how many workers it has, and when it has none for
:data:`NO_WORKERS_WAIT` seconds (a nanny restarting its worker takes a few), or cannot be
reached for as long, it closes the client, which wakes the wait; the errors Dask raises
for a lost scheduler are turned into :class:`DaskLost` too.
"""
from __future__ import annotations

import logging
import re
import threading
import time
from contextlib import contextmanager

#: seconds a cluster may have no worker (or its scheduler not answer) before a run stops
NO_WORKERS_WAIT = 30.0
#: seconds between two questions to the scheduler
POLL = 1.0


class DaskLost(Exception):
    """The Dask cluster a run plays on is gone: ``what`` is ``"scheduler"`` or ``"workers"``."""

    def __init__(self, what: str, address: str | None, seconds: float | None = None):
        self.what = what
        self.address = address  # None: the local cluster the run started
        self.seconds = NO_WORKERS_WAIT if seconds is None else seconds
        super().__init__(self.describe())

    def describe(self) -> str:
        from .validate import safe
        where = f"the Dask scheduler at {safe(self.address)}" if self.address else \
            "the local Dask cluster's scheduler"
        if self.what == "scheduler":
            return f"lost {where}"
        return f"{where} has had no worker for {self.seconds:g} s"


def lost_from(e: BaseException, address: str | None) -> DaskLost | None:
    """The :class:`DaskLost` behind an error Dask (or joblib's Dask backend) raised, else None."""
    if isinstance(e, DaskLost):
        return e
    names = {c.__name__ for c in type(e).__mro__}
    reason = getattr(e, "reason", "") or ""
    text = str(e)
    if "FutureCancelledError" in names and reason == "scheduler-connection-lost":
        return DaskLost("scheduler", address)
    if names & {"CommClosedError", "StreamClosedError"} or "lost the connection to the scheduler" in text:
        return DaskLost("scheduler", address)
    m = re.search(r"has no worker after ([0-9.]+) seconds", text)
    if isinstance(e, TimeoutError) and m:  # joblib, before the first chunk
        return DaskLost("workers", address, float(m.group(1)))
    return None


def quiet_dask() -> None:
    """Silence Dask's own loggers in this process (the client's): its reconnect attempts and
    the tracebacks of cancelled callbacks are not for the user, the run says what happened
    in one line.  Dask sets levels on some child loggers (``distributed.client``), so each
    one is set, not only the parent."""
    names = ["distributed", "tornado", "asyncio"]
    names += [n for n in list(logging.root.manager.loggerDict)
              if n.startswith(("distributed.", "tornado."))]
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class _Watch(threading.Thread):
    """Asks the scheduler for its workers until stopped; closes the client when the cluster
    is lost (no worker, or no answer, for :data:`NO_WORKERS_WAIT` seconds)."""

    def __init__(self, client, address):
        super().__init__(name="sim-dask-watch", daemon=True)
        self.client, self.address = client, address
        self.lost: DaskLost | None = None
        self.done = threading.Event()

    def run(self):
        since = {"workers": None, "scheduler": None}
        while not self.done.wait(POLL):
            try:
                n = len(self.client.nthreads(callback_timeout=max(POLL, 5.0)))
                since["scheduler"] = None
                what = None if n else "workers"
            except Exception:  # noqa: BLE001 - any failure to get an answer is "no answer"
                what = "scheduler"
            if what is None:
                since["workers"] = None
                continue
            now = time.monotonic()
            since[what] = since[what] or now
            if now - since[what] >= NO_WORKERS_WAIT and not self.done.is_set():
                self.lost = DaskLost(what, self.address)
                quiet_dask()
                try:
                    self.client.close(timeout=5)  # the run's wait for results wakes up
                except Exception:  # noqa: BLE001 - the cluster is gone already
                    pass
                return


@contextmanager
def watching(client, address: str | None):
    """Wrap the wait for a Dask run's results: a lost scheduler, or a cluster left without
    workers, raises :class:`DaskLost` here (and Dask's loggers are silenced)."""
    # "couldn't gather keys, rescheduling" when a worker dies: Dask recovers, results unchanged
    log = logging.getLogger("distributed.client")
    log.setLevel(max(log.getEffectiveLevel(), logging.ERROR))
    watch = _Watch(client, address)
    watch.start()
    try:
        yield watch
    except Exception as e:
        lost = watch.lost or lost_from(e, address)
        if lost is None:
            raise
        quiet_dask()
        raise lost from None
    finally:
        watch.done.set()
