"""A run expected to take hours starts only when asked to (``sim GAME --yes``).

``sim GAME --games 1e10`` said "this run will take about 10 hours" and started.  Now a
new run whose estimate is over :data:`ASK_AFTER` is refused in one line (exit status 2,
nothing written) unless ``--yes`` is given; on a terminal it is asked instead.  The estimate
is the one a run announces (:func:`sim.runner.estimate`: one core's rate on the run's
first games, on the local workers), made before the run's folder is created (so the kernel
is loaded before it; a Ctrl-C then leaves nothing).  ``--yes``, a resume (the run was
started already) and a Dask run (the cluster's size is not known here) skip it.
"""
from __future__ import annotations

import sys

from .params import UsageError

#: seconds: a run expected to take longer than this needs --yes (or a yes on a terminal)
ASK_AFTER = 2 * 3600.0


def check_long_run(spec, chunks, jobs: int, rows: str, yes: bool, progress: bool,
                   rate: float | None = None) -> float | None:
    """Refuse (or, on a terminal, ask about) a run of ``chunks`` expected to take more than
    :data:`ASK_AFTER` seconds on ``jobs`` workers, unless ``yes``.  Returns the one-core rate
    (the run's own estimate uses it: ``execute(rate=...)``): ``rate`` where a worker measured
    it already (``sim.prestart``), else measured here; None with ``yes`` and no ``rate``."""
    from .runner import _compile_notice, _duration, estimate, measure_rate
    if yes:
        return rate
    game = spec.game
    if rate is None:
        bot_ids, bot_par = game.bot_arrays(spec.bots)
        with _compile_notice(game, progress):  # compile (or load) the kernel, as the run would
            game.play_chunk(spec.ctx, spec.players, spec.seed, 0, 0, bot_ids, bot_par)
        rate = measure_rate(game, spec.ctx, spec.players, spec.seed, bot_ids, bot_par)
    sec, _ = estimate(spec, chunks, rate, jobs, rows)
    if sec <= ASK_AFTER:
        return rate
    what = (f"this run would take about {_duration(sec)} ({len(chunks):,} chunks on {jobs} workers at "
            f"about {rate:,.0f} games/s each)")
    if _terminal():
        import click
        if click.confirm(f"sim: {what}. Start it?", default=False, err=True):
            return rate
        raise UsageError("not started (--yes starts it without asking)")
    raise UsageError(f"{what}; add --yes to start a run expected to take more than {ASK_AFTER / 3600:g} hours")


def _terminal() -> bool:
    """Whether someone at a terminal can answer."""
    return sys.stdin.isatty() and sys.stderr.isatty()
