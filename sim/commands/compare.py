"""``sim compare`` (rule variants on the same seeds) and ``sim sweep`` (a grid of parameter values,
measured from the rulebook's)."""
from __future__ import annotations

import sys

import click

from ..games import get as get_game
from ..params import UsageError
from ..api_common import _arm_plays, _guard
from ..validate import safe
from .common import (
    _assignments, _check_arms, _check_experiment, _cleanup_on_refusal, _common_experiment_options,
    _experiment_dir, _experiment_status, _kept_chunks, _note, _over, _sigterm_stops_cleanly)
from .robust import _robust

#: ``--yes``: start an experiment expected to take more than two hours (refused otherwise, or
#: asked on a terminal: :func:`sim.longrun.check_long_experiment`)
YES = click.option("--yes", "-y", is_flag=True,
                   help="start an experiment expected to take more than 2 hours (else refused, or asked on a terminal)")


@click.command("compare")
@click.argument("game")
@click.option("--variant", "variants", multiple=True, metavar="NAME:PARAM=VALUE,...",
              help="a named rule variant; the first is the reference (NAME: for the rulebook rules)")
@click.option("--variants", "variants_file", default=None, metavar="FILE",
              help="TOML file of named variants ([variants.NAME] tables)")
@click.option("--sprt", is_flag=True, help="stop as soon as a sequential test decides")
@click.option("--sprt-d", type=float, default=0.02, show_default=True,
              help="the difference that matters (0.02 = 2 percentage points of a rate)")
@click.option("--sprt-metric", default="first player score", show_default=True,
              help="metric the SPRT watches ('first player score' counts a game without a winner "
                   "as the fair share, so draws do not move it; 'first player wins' counts them as losses)")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT false-alarm rate")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT miss rate")
@click.option("--robust", "robust_", is_flag=True,
              help="judge the variant's effect under every bot, reading and setup (sim robust compare)")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="a rule every variant plays with (a variant's own value wins); repeatable")
@click.option("--evaluate", is_flag=True,
              help="how it plays: each variant follows each side's learned chance of winning at every "
                   "position (lead changes, drama, ...; its own model, trained first where none is kept)")
@YES
@_common_experiment_options
def compare_cmd(game, variants, variants_file, sprt, sprt_d, sprt_metric, alpha, beta, robust_, sets, evaluate,
                yes, games, bots, players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Compare rule variants on the same seeds (paired differences, seat-swapped pairs).

    Example: sim compare puluc --games 2e5 --variant base: --variant nine:track=9
    """
    from analysis.experiment_report import compare_text, write_compare_report
    from analysis.experiment_runs import compare, load_variants_file, parse_variant

    from .. import toml as TOML
    g = get_game(game)
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, bots, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    vs = [parse_variant(v) for v in variants]
    if variants_file:
        TOML.load(variants_file, "--variants")  # a regular, small, UTF-8, sane TOML file
        vs += load_variants_file(variants_file)
    base = _assignments(game, sets)
    if base:
        vs = [(name, _over(g, base, rules)) for name, rules in vs]
    if robust_:
        return _robust(game, vs, (), None, True, True, games, bots, players, seed, jobs, chunk_size,
                       backend, scheduler, out, quiet, yes)
    from ..api import check_compare
    built = check_compare(g, vs, bots, players, seed_v, n, sprt, sprt_d, sprt_metric, alpha, beta, evaluate)
    _guard("comparison", built[0][0].spec, _arm_plays(built[0], n), jobs, yes, backend, ask=True, progress=not quiet)
    out_dir, top = _experiment_dir(out, game, "compare")
    echo = None if quiet else (lambda line: click.echo(line, err=True))
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = compare(game, vs, games, bots=bots, players=players, seed=seed_v, jobs=jobs,
                      chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                      progress=(not quiet) and sys.stderr.isatty() and not sprt,
                      sprt_d=sprt_d if sprt else None, sprt_metric=sprt_metric, alpha=alpha,
                      beta=beta, echo=echo if sprt else None, built=built)
        path = write_compare_report(res, out_dir)
    if not quiet:
        click.echo(compare_text(res))
        if sprt:
            stop = "stopped by the SPRT" if res.manifest["stopped_by_sprt"] else "no decision: fixed-size result"
            click.echo(f"games needed: {res.manifest['games_completed']:,} ({stop})")
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.partial, out_dir)


def _sweep_rate(g, grid, bots, players, seed) -> float:
    """One core's games/s on the sweep's first variant (to say how long a sweep takes)."""
    from ..rates import measure_rate
    from ..spec import make_spec
    spec = make_spec(g, 1, {k: v[0] for k, v in grid}, bots, players, seed)
    ids, par = g.bot_arrays(spec.bots)
    g.play_chunk(spec.ctx, spec.players, spec.seed, 0, 0, ids, par)  # compile (or load)
    return measure_rate(g, spec.ctx, spec.players, spec.seed, ids, par)


@click.command("sweep")
@click.argument("game")
@click.option("--param", "params", multiple=True, metavar="NAME=LO..HI[:STEP] | NAME=V1,V2",
              help="a parameter to sweep; several make a grid")
@click.option("--yes", "-y", is_flag=True,
              help="run a grid of more than 50 variants, or one expected to take more than 2 hours")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="a rule held fixed in every variant; repeatable")
@_common_experiment_options
def sweep_cmd(game, params, yes, sets, games, bots, players, seed, jobs, chunk_size, backend, scheduler,
              out, quiet):
    """Sweep rule parameters: every metric against the parameter, with confidence bands.

    Example: sim sweep puluc --param track=7..15 --games 1e5
    """
    from analysis.experiment_report import compare_text, write_compare_report
    from analysis.experiment_runs import _fmt, sweep, sweep_variants
    from ..parallel import duration
    from ..validate import GRID_ASK, GRID_MAX, grid_size, parse_sweep
    g = get_game(game)
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, bots, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    grid = parse_sweep(list(params), g)  # ranges checked before anything is expanded
    size = grid_size(grid)
    if size > GRID_MAX:
        raise UsageError(f"--param gives a grid of {size:,} variants; a sweep runs at most "
                         f"{GRID_MAX:,} (sweep fewer values, or fewer parameters at once)")
    if size > GRID_ASK:
        sec = size * n / (_sweep_rate(g, grid, bots, players, seed_v) * jobs)
        what = (f"a grid of {size:,} variants of {n:,} games each (about {duration(sec)} "
                f"on {jobs} workers here)")
        if not yes:
            raise UsageError(f"--param gives {what}; add --yes to run a sweep of more than "
                             f"{GRID_ASK} variants")
        _note(f"sweeping {what}")
    base = _assignments(game, sets)
    variants, ref = sweep_variants(g, grid, base)
    if ref["added"]:
        _note(f"the range does not hold the rulebook's {ref['label']}: it is played too, as the "
              "reference every difference is measured from")
    arms, _ = _check_arms(g, variants, bots, players, seed_v, n, labels=False)
    if size <= GRID_ASK:  # a larger grid was asked about already (with its duration)
        _guard("sweep", arms[0].spec, _arm_plays(arms, n), jobs, yes, backend, ask=True, progress=not quiet)
    # the checked grid, as value lists (no range is expanded again)
    canonical = [f"{k}=" + ",".join(_fmt(v) for v in vals) for k, vals in grid]
    out_dir, top = _experiment_dir(out, game, "sweep")
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = sweep(game, canonical, games, base=base, bots=bots, players=players, seed=seed_v, jobs=jobs,
                    chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                    progress=(not quiet) and sys.stderr.isatty())
        path = write_compare_report(res, out_dir)
    if not quiet:
        click.echo(compare_text(res, keys=["first player score", "no winner", "capped"]))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.partial, out_dir)
