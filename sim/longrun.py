"""A run expected to take hours starts only when asked to (``sim GAME --yes``).

``sim GAME --games 1e10`` said "this run will take about 10 hours" and started.  Now a
new run whose estimate is over :data:`ASK_AFTER` is refused in one line (exit status 2,
nothing written) unless ``--yes`` is given; on a terminal it is asked instead.  The estimate
is the one a run announces (:func:`sim.runner.estimate`: one core's rate on the run's
first games, on the local workers), made before the run's folder is created (so the kernel
is loaded before it; a Ctrl-C then leaves nothing).  ``--yes``, a resume (the run was
started already) and a Dask run (the cluster's size is not known here) skip it.

An experiment (``sim compare``, ``sweep``, ``skill``, ``skill --ladder``, ``strength``,
``impact``; ``sim.compare(...)`` and the others in the API) is guarded alike by
:func:`check_long_experiment`: one core's rate measured on its bots, times its arms and games,
over the workers; refused before its folder is created unless ``--yes`` (``yes=True``).
"""
from __future__ import annotations

import sys

from .params import UsageError

#: seconds: a run expected to take longer than this needs --yes (or a yes on a terminal)
ASK_AFTER = 2 * 3600.0


def check_long_run(spec, chunks, jobs: int, rows: str, yes: bool, progress: bool,
                   rate: float | None = None, ask: bool = True) -> float | None:
    """Refuse (or, on a terminal and with ``ask``, ask about) a run of ``chunks`` expected to
    take more than :data:`ASK_AFTER` seconds on ``jobs`` workers, unless ``yes`` (the Python
    API's ``sim.run(yes=True)`` never asks).  Returns the one-core rate
    (the run's own estimate uses it: ``execute(rate=...)``): ``rate`` where a worker measured
    it already (``sim.prestart``), else measured here; None with ``yes`` and no ``rate``."""
    from .parallel import duration
    from .rates import measure_rate
    from .runner import _compile_notice, estimate
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
    what = (f"this run would take about {duration(sec)} ({len(chunks):,} chunks on {jobs} workers at "
            f"about {rate:,.0f} games/s each)")
    if ask and _terminal():
        import click
        if click.confirm(f"sim: {what}. Start it?", default=False, err=True):
            return rate
        raise UsageError("not started (--yes starts it without asking)")
    raise UsageError(f"{what}; add --yes to start a run expected to take more than {ASK_AFTER / 3600:g} hours")


def _terminal() -> bool:
    """Whether someone at a terminal can answer."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def one_core_rate(spec, progress: bool = False, budget: float = 0.05) -> float:
    """Games per second of one core on ``spec`` (its kernel loaded or compiled first): a
    doubling number of its first games, from one, timed until they take ``budget`` seconds
    (a slow bot costs a game or two, not the sixteen of :func:`sim.rates.measure_rate`)."""
    import time

    from .runner import _compile_notice
    game = spec.game
    ids, par = game.bot_arrays(spec.bots)
    with _compile_notice(game, progress):
        game.play_chunk(spec.ctx, spec.players, spec.seed, 0, 0, ids, par)
    n = 1
    while True:
        t0 = time.perf_counter()
        game.play_chunk(spec.ctx, spec.players, spec.seed, 0, n, ids, par)
        dt = time.perf_counter() - t0
        if dt >= budget or n >= 1 << 14:
            return n / max(dt, 1e-9)
        n *= 2


def check_long_experiment(what: str, spec, plays, jobs: int, yes: bool, backend: str | None = None,
                          ask: bool = False, progress: bool = False, limit: float | None = None) -> None:
    """Refuse an experiment expected to take more than :data:`ASK_AFTER` seconds on ``jobs``
    workers, unless ``yes`` (``ask``: on a terminal, the command line asks instead).

    ``spec``: one arm's spec (its game, rules, data and seed); ``plays``: ``(bots, games,
    scale)`` for every arm, ``bots`` one per seat, ``scale`` the arm's cost per game against
    those bots' (a strength rung's budget over the first's; 1 otherwise).  One core's rate is
    measured per bot (every seat that bot, on ``spec``); a game costs the mean over its seats.
    ``limit``: seconds the experiment stops by itself (``sim strength --minutes``).  Skipped
    with ``yes`` and on Dask (the cluster's size is not known here)."""
    import dataclasses

    from .parallel import duration
    from .spec import make_spec, wants_model
    if yes or backend == "dask" or not plays:
        return
    cost = {}  # one bot's seconds per game, every seat that bot
    for bots, _, _ in plays:
        for b in bots:
            if b.label not in cost:
                one = dataclasses.replace(spec, bots=(b,) * spec.players)
                if wants_model(one.bots) and spec.model is None:   # leaf=model: this rule set's model
                    one = make_spec(spec.game, 1, spec.rules, [b.label] * spec.players, spec.players,
                                    spec.seed)
                cost[b.label] = 1.0 / one_core_rate(one, progress)
    games = sum(n for _, n, _ in plays)
    sec = sum(n * s * sum(cost[b.label] for b in bots) / len(bots) for bots, n, s in plays) / max(jobs, 1)
    rate = games / sec / max(jobs, 1)
    if limit is not None:
        sec = min(sec, limit)
    if sec <= ASK_AFTER:
        return
    tell = (f"this {what} would take about {duration(sec)} ({len(plays):,} arms, {games:,} games on {jobs} "
            f"worker{'s' if jobs != 1 else ''} at about {rate:,.0f} games/s each)")
    if ask and _terminal():
        import click
        if click.confirm(f"sim: {tell}. Start it?", default=False, err=True):
            return
        raise UsageError("not started (--yes starts it without asking)")
    raise UsageError(f"{tell}; add --yes to start an experiment expected to take more than "
                     f"{ASK_AFTER / 3600:g} hours")
