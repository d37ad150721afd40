"""``sim learn``: a game's learned value (issue #46): the model kept for these rules and
players, or one trained now, and its report (``sim.learn``, which this command calls)."""
from __future__ import annotations

from pathlib import Path

import click

from ..validate import safe
from .common import _assignments, stamped_dir


@click.command("learn")
@click.argument("game")
@click.option("--players", "-p", type=int, default=None, help="number of players")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="rule parameter; repeatable")
@click.option("--bots", default=None, help="the training games' bots (default: the game's TRAIN_BOTS)")
@click.option("--games", "-n", default=None, help="training games (default: the game's TRAIN_GAMES)")
@click.option("--generation", type=int, default=1, show_default=True,
              help="2: the second generation, which leaf=model2 reads (learned from the games of a search "
                   "that reads the first; where --bots is not given)")
@click.option("--seed", default="1", show_default=True, help="the training's seed (part of the model's key)")
@click.option("--jobs", "-j", type=int, default=0, help="threads playing the training games (0: all cores)")
@click.option("--retrain", is_flag=True, help="train again even where a model is kept (and replace it)")
@click.option("--out", "-o", default=None, help="report directory (default: reports/<game>-learn-<time>)")
@click.option("--quiet", "-q", is_flag=True, help="no training lines and no summary, only the report's path")
def learn_cmd(game, players, sets, bots, games, generation, seed, jobs, retrain, out, quiet):
    """Learn the game's value (the win probability of a position from one seat's view) from
    its own games, or find the one kept for these rules, and write its report: held-out log
    loss against the base rate and the game's own evaluation, a reliability diagram and
    accuracy by game progress.

    Example: sim learn puluc --games 4000
    """
    from ..api_study import learn
    from ..learn import note_stderr
    from ..params import UsageError
    if out is not None and not out.strip():
        raise UsageError("--out: the path is empty")
    where = Path(out) if out is not None else stamped_dir(safe(game), "learn")
    res = learn(game, players=players, rules=_assignments(game, sets), bots=bots, games=games, seed=seed,
                jobs=jobs, out=str(where), retrain=retrain, note=None if quiet else note_stderr,
                generation=generation)
    if not quiet:
        click.echo(res.text)
    click.echo(f"report: {safe(str(res.report))}")
    return 0

