"""Starting a run's local workers while the main process is still getting the run ready.

A run's workers each start an interpreter, import the package and load the kernel from
numba's cache (about 0.7 s for Puluc); the main process loaded the kernel too (0.4 s),
to time a few games for the run's estimate, before any worker started.  Now, for a new
run on the local process pool (``--backend loky``; the default, threads of the main
process, has no workers to start), the workers start first, each loads the kernel, and one
of them times the games the estimate needs (:func:`sim.worker._warm`): the main process
does not load the kernel before the games (it loads it once the first chunk is in, for the
exemplar replays: :meth:`Prestart.load_here`), and the run's chunks go to workers that are ready
(joblib's pool is reusable: the run's ``Parallel`` finds it with the same settings,
``sim.parallel.loky_config`` and ``PARALLEL_KW``).

On a cold cache every worker compiles the same kernel at once (one signature: numba
writes its cache files by atomic rename, and each writes the same entry).  Where the
warm-up fails (a worker that died, a kernel that raises), :meth:`Prestart.rate` gives
None and the run goes the old way: the main process loads the kernel and says the error.
"""
from __future__ import annotations

import os
import threading


class Prestart:
    """The local pool of ``jobs`` workers, started in a thread, each loading the kernel of
    ``spec``; :meth:`rate` waits for them."""

    def __init__(self, spec, jobs: int):
        self.jobs = jobs
        self._rate = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._start, args=(spec,), name="sim-prestart",
                                        daemon=True)
        self._thread.start()

    def _start(self, spec) -> None:
        from joblib import Parallel, delayed, parallel_config

        from .parallel import PARALLEL_KW, _quiet_cancellations, loky_config
        from .worker import _warm
        try:
            _quiet_cancellations()
            ids, par = spec.game.bot_arrays(spec.bots)
            args = (spec.game.name, spec.ctx, spec.players, spec.seed, ids, par)
            with parallel_config(backend="loky", n_jobs=self.jobs, **loky_config()):
                rates = Parallel(**PARALLEL_KW)(delayed(_warm)(*args, i == 0)
                                                for i in range(self.jobs))
            self._rate = next((r for r in rates if r is not None), None)
        except BaseException as e:  # noqa: BLE001 - the run then loads the kernel itself
            self.error = e

    def rate(self) -> float | None:
        """One core's games/s on this run, measured in a worker (None: the warm-up failed).
        Waits for the workers; a Ctrl-C while waiting stops the pool and propagates."""
        try:
            while self._thread.is_alive():
                self._thread.join(0.05)
        except BaseException:
            self.cancel()
            raise
        return self._rate

    def load_here(self, spec):
        """A function that loads the kernel in this process too (the run's exemplar games are
        replayed here after the games): the runner calls it with the report's imports once
        the first chunk is in (``execute(after_first=...)``), while the workers play on, so
        its cost is not paid after the games."""
        def load():
            try:
                ids, par = spec.game.bot_arrays(spec.bots)
                spec.game.play_chunk(spec.ctx, spec.players, spec.seed, 0, 0, ids, par)
            except Exception:  # noqa: BLE001 - said where the kernel is needed (the replay)
                pass
        return load

    def cancel(self) -> None:
        """Let the workers go (a run refused or interrupted before it started)."""
        from . import scratch
        from .worker import release_workers
        release_workers()
        scratch.remove()


def prestart(spec, jobs: int, backend: str | None) -> Prestart | None:
    """Start the workers of a run that will use the local process pool (``backend`` loky
    and more than one job); None for any other run (threads need no start)."""
    if os.environ.get("SIM_NO_PRESTART"):
        return None
    if backend != "loky" or jobs < 2:
        return None
    return Prestart(spec, jobs)
