"""``sim impact``: what each card, tile or event does to the game (paired runs without it)."""
from __future__ import annotations

import sys

import click

from ..games import get as get_game
from ..params import UsageError
from ..validate import safe
from .common import (
    _assignments, _check_experiment, _cleanup_on_refusal, _common_experiment_options, _experiment_dir,
    _experiment_status, _kept_chunks, _sigterm_stops_cleanly)


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
@_common_experiment_options
def impact_cmd(game, card, mode, metric, sets, games, bots, players, seed, jobs, chunk_size, backend,
               scheduler, out, quiet):
    """Card impact: observational for every card, causal for --card (or --card all) on the
    same seeds.

    Example: sim impact balam --card drought --games 1e5
    """
    from analysis.impact import impact_text, write_impact_report
    from analysis.experiment_runs import impact
    from ..params import _suggest
    from ..runner import make_spec
    g = get_game(game)
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, bots, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    rules = _assignments(game, sets)
    spec = make_spec(g, n, rules, bots, players, seed_v)  # rules, data files, bots
    if not g.events:
        raise UsageError(f"{g.name} records no card or event draws, so it has no card impact")
    if card is not None:
        if g.card_rules is None:
            raise UsageError(f"{g.name} cannot remove cards from its deck (no card_rules)")
        known = list(g.card_names(spec.rules)) if g.card_names else []
        if known and card != "all" and card not in known:
            raise UsageError(f"unknown card '{safe(card)}' for {g.name}{_suggest(card, known)}; "
                             f"known: all, {', '.join(known)}")
    if mode is not None and mode not in ("remove", "neutral"):
        raise UsageError(f"--mode must be remove or neutral, not {safe(repr(mode))}")
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
