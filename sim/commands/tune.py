"""``sim tune``: search a rule parameter's range for a target (optuna)."""
from __future__ import annotations

import click

from ..validate import safe
from .common import (_assignments, _cleanup_on_refusal, _experiment_dir, _experiment_status, _kept_chunks, _note,
                     _sigterm_stops_cleanly)


@click.command("tune")
@click.argument("game")
@click.option("--param", "params", multiple=True, metavar="NAME=LO..HI | NAME=A,B,C",
              help="a rule parameter to tune: whole or decimal range, or a list of values; repeatable")
@click.option("--target", "targets", multiple=True, metavar="METRIC=V | <=V | >=V | =LO..HI | =min | =max",
              help="what is wanted, e.g. first_player=fair, draws<=0.02, length=60..90; repeatable "
                   "(several: a Pareto front)")
@click.option("--budget", default="2e5", show_default=True, help="games the search may spend")
@click.option("--final", "final_games", default=None,
              help="games each best candidate (and the rulebook) is re-played on a fresh seed "
                   "[default: a fifth of the budget]")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="a rule held fixed; repeatable")
@click.option("--bots", default=None, help="bots per seat, as for a run")
@click.option("--players", "-p", type=int, default=None, help="number of players")
@click.option("--seed", default="1", show_default=True, help="master seed (the search's games and optuna)")
@click.option("--jobs", "-j", type=int, default=0, help="parallel jobs (0: all cores)")
@click.option("--backend", default=None, help="threading (default with more than one job), loky, sequential")
@click.option("--out", "-o", default=None, help="report directory (default: reports/<game>-tune-<time>)")
@click.option("--quiet", "-q", is_flag=True, help="no progress lines and no verdict on the terminal")
def tune_cmd(game, params, targets, budget, final_games, sets, bots, players, seed, jobs, backend,
             out, quiet):
    """Search rule parameters toward balance targets (optuna, raced on common random numbers).

    Example: sim tune batam --players 4 --param payout=0..15 --target first_player=fair
    """
    from analysis.tune import tune, tune_text
    from analysis.tune_report import write_tune_report

    from ..api_study import check_tune
    g, jobs, seed_v, p, n, fn, spaces, tg, fixed = check_tune(game, list(params), list(targets), budget,
                                                               final_games, _assignments(game, sets), bots,
                                                               players, seed, jobs, backend, _note)
    out_dir, top = _experiment_dir(out, game, "tune")
    echo = None if quiet else (lambda line: click.echo(line, err=True))
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = tune(game, spaces, tg, budget=n, players=p, bots=bots, seed=seed_v, jobs=jobs,
                   backend=backend, final_games=fn, fixed=fixed, echo=echo)
        path = write_tune_report(res, out_dir)
    if not quiet:
        click.echo(tune_text(res, variants=safe(str(out_dir / "variants.toml"))))
    click.echo(f"variants: {safe(str(out_dir / 'variants.toml'))}")
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.manifest["partial"], out_dir)
