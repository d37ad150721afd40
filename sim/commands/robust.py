"""``sim robust``: does a verdict hold under every bot, reading of the rules and setup?"""
from __future__ import annotations

import sys

import click

from ..games import get as get_game
from ..params import UsageError
from ..validate import safe
from .common import (
    _assignments, _check_arms, _check_experiment, _cleanup_on_refusal, _command_line,
    _common_experiment_options, _experiment_dir, _experiment_status, _kept_chunks, _sigterm_stops_cleanly)


@click.command("robust")
@click.argument("what", metavar="GAME | compare GAME")
@click.argument("game", required=False)
@click.option("--variant", "variants", multiple=True, metavar="NAME:PARAM=VALUE,...",
              help="with compare: the reference (first) and the variant")
@click.option("--variants", "variants_file", default=None, metavar="FILE",
              help="with compare: TOML file of two named variants")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="a rule parameter of the baseline; repeatable")
@click.option("--metric", default=None,
              help="the headline the tornado leads with, early stops follow and the worst-case "
                   "combination is chosen by: edge (default), gap, decisive, length, margin")
@click.option("--early-stop/--no-early-stop", default=True, show_default=True,
              help="stop a condition once its verdict is decided (99.9%), or play --games each")
@click.option("--combine/--no-combine", default=True, show_default=True,
              help="also play the worst-case combination of the two readings that move it most")
@click.option("--yes", "-y", is_flag=True,
              help="start a robust run expected to take more than 2 hours (else refused, or asked on a terminal)")
@click.option("--strong-games", type=click.IntRange(min=1), default=None, metavar="N",
              help="the most games of a condition with the strong bot in a seat (default: the game's "
                   "own cap where its strong play is costly, else --games)")
@_common_experiment_options
def robust_cmd(what, game, variants, variants_file, sets, metric, early_stop, combine, yes, strong_games, games,
               bots, players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Does the verdict hold?  The headline figures under every bot, every reading of a
    silent or ambiguous rule and the setup's randomness, on the same seeds, with a verdict
    per headline: holds, depends on X, or cannot tell.

    Examples: sim robust puluc --games 1e5;
    sim robust compare puluc --variant base: --variant nine:track=9
    """
    from analysis.experiment_runs import load_variants_file, parse_variant
    from .. import toml as TOML
    if what == "compare":
        if not game:
            raise UsageError("sim robust compare needs a game: sim robust compare GAME --variant ...")
        vs = [parse_variant(v) for v in variants]
        if variants_file:
            TOML.load(variants_file, "--variants")
            vs += load_variants_file(variants_file)
        if len(vs) != 2:
            raise UsageError("sim robust compare takes two --variant: the reference first, then the "
                             f"variant (got {len(vs)})")
    else:
        if game:
            raise UsageError(f"sim robust takes one game (or: compare GAME), not {what!r} and {game!r}")
        if variants or variants_file:
            raise UsageError("--variant goes with sim robust compare GAME")
        game, vs = what, None
    get_game(game)
    return _robust(game, vs, sets, metric, early_stop, combine, games, bots, players, seed, jobs,
                   chunk_size, backend, scheduler, out, quiet, yes, strong_games)


def _robust(game, variants, sets, metric, early_stop, combine, games, bots, players, seed, jobs,
            chunk_size, backend, scheduler, out, quiet, yes=False, strong_games=None):
    """sim robust (and sim compare --robust): play, write the report, print the verdicts."""
    from analysis.robust import robust_text, write_robust_report
    from analysis.robust_runs import robust
    from ..spec import make_spec
    g = get_game(game)
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, bots, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    rules = _assignments(game, sets)
    make_spec(g, n, rules, bots, players, seed_v)  # rules, data files, bots
    if variants:
        _check_arms(g, [(k, {**rules, **v}) for k, v in variants], bots, players, seed_v, n)
    from ..api_common import _guard
    from ..api_study import robust_plays
    _guard("robust run", *robust_plays(g, n, rules, bots, players, seed_v, variants, combine, strong_games), jobs,
           yes, backend, ask=True, progress=not quiet)
    out_dir, top = _experiment_dir(out, game, "robust-compare" if variants else "robust")
    command = _command_line()
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = robust(game, games, rules=rules, bots=bots, players=players, seed=seed_v,
                     variants=variants, metric=metric, jobs=jobs, chunk_size=chunk_size,
                     backend=backend, scheduler=scheduler,
                     progress=(not quiet) and sys.stderr.isatty(), early_stop=early_stop,
                     combine=combine, command=command, strong_games=strong_games)
        path = write_robust_report(res, out_dir)
    if not quiet:
        click.echo(robust_text(res))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(bool(res.manifest.get("partial")), out_dir)
