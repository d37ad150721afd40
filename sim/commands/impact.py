"""``sim impact``: what each card, tile or event does to the game (paired runs without it)."""
from __future__ import annotations

import sys

import click

from ..games import get as get_game
from ..validate import safe
from .common import (
    _assignments, _check_experiment, _cleanup_on_refusal, _common_experiment_options, _experiment_dir,
    _experiment_status, _kept_chunks, _sigterm_stops_cleanly)
from .compare import YES


@click.command("impact")
@click.argument("game")
@click.option("--card", default=None,
              help="the card to remove (or neutralise) on the same seeds, or 'all' for every card")
@click.option("--mode", default=None,
              help="remove | neutral (default: the game's own, neutral where removing a card "
                   "changes the game's length)")
@click.option("--metric", default=None,
              help="the metric to rank cards by (default 'first player score'; e.g. 'win 0')")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="rule parameter; repeatable")
@YES
@_common_experiment_options
def impact_cmd(game, card, mode, metric, sets, yes, games, bots, players, seed, jobs, chunk_size, backend,
               scheduler, out, quiet):
    """Card impact: observational for every card, causal for --card (or --card all) on the
    same seeds.

    Example: sim impact balam --card drought --games 1e5
    """
    from analysis.impact import impact_text, write_impact_report
    from analysis.experiment_runs import impact

    from ..api_common import _guard
    from ..api_study import check_impact, impact_plays
    from ..spec import make_spec
    g = get_game(game)
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, bots, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    rules = _assignments(game, sets)
    spec = make_spec(g, n, rules, bots, players, seed_v)
    check_impact(g, card, mode, spec)  # rules, data files, bots
    _guard("impact run", spec, impact_plays(g, card, spec, n), jobs, yes, backend, ask=True, progress=not quiet)
    out_dir, top = _experiment_dir(out, game, "impact")
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = impact(game, card, mode, games, rules=rules, workdir=out_dir, bots=bots,
                     players=players, seed=seed_v, jobs=jobs, chunk_size=chunk_size,
                     backend=backend, scheduler=scheduler,
                     progress=(not quiet) and sys.stderr.isatty(), metric=metric)
        path = write_impact_report(g, res, out_dir, card)
    if not quiet:
        click.echo(impact_text(res))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.partial, out_dir)
