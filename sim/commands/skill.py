"""``sim skill`` (a round robin of bots, or ``--ladder``: balance by skill) and ``sim strength``
(a search budget climbed until the verdict for strong play settles)."""
from __future__ import annotations

import sys

import click

from ..games import get as get_game
from ..params import UsageError
from ..api_common import _guard, _ladder_plays, _skill_plays
from ..api_study import _check_strength
from ..validate import safe
from .common import (
    _assignments, _check_experiment, _cleanup_on_refusal, _common_experiment_options, _experiment_dir,
    _experiment_manifest, _experiment_status, _kept_chunks, _sigterm_stops_cleanly)
from .compare import YES


@click.command("skill")
@click.argument("game")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="rule parameter; repeatable")
@click.option("--ladder", default=None, metavar="BOTS",
              help="balance by skill: bots from the weakest to the strongest (e.g. "
                   "random,heuristic,search:iters=100); each plays with every seat equal and "
                   "against its neighbours (Elo), and the report draws the seat and turn-order "
                   "shares and the game length against strength")
@YES
@_common_experiment_options
def skill_cmd(game, sets, ladder, yes, games, bots, players, seed, jobs, chunk_size, backend, scheduler,
              out, quiet):
    """Round robin of bots in every seat on the same seeds: win matrix and ratings; with
    --ladder, the edges and the length against playing strength.

    Example: sim skill puluc --bots random,greedy,search --games 2e4

    Example: sim skill batam --ladder random,heuristic,search --games 2e3
    """
    from analysis.experiment_report import skill_text, write_skill_report
    from analysis.skill_runs import skill
    from ..spec import make_spec
    g = get_game(game)
    from ..game import _split_bots
    if ladder is not None and bots is not None:
        raise UsageError("sim skill: give --bots (a round robin) or --ladder (balance by skill), "
                         "not both")
    # the bot-spec parser of a run: "merchant:plans=2,w_war=3,random" is two bots
    spec_text = ladder if ladder is not None else bots
    if ladder is not None and not ladder.strip():
        raise UsageError("sim skill --ladder needs bots, weakest first, e.g. random,greedy,search")
    names = [b.strip() for b in (_split_bots(spec_text) if spec_text else [b.name for b in g.bots])]
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, None, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    rules = _assignments(game, sets)
    p = g.check_players(players)
    if len(names) < 2:
        raise UsageError("sim skill needs at least two bots")
    for b in names:
        g.choose_bots(b, p)  # names and settings
    spec = make_spec(g, n, rules, None, p, seed_v)  # rules and data files
    if ladder is not None:
        from analysis.ladder import check_ladder
        check_ladder(g, names, players)
        _guard("ladder", spec, _ladder_plays(g, names, p, n), jobs, yes, backend, ask=True, progress=not quiet)
        return _ladder(game, names, games, players, seed_v, rules, jobs, chunk_size, backend,
                       scheduler, out, quiet)
    if len(set(names)) != len(names):
        raise UsageError("sim skill: every bot must differ: " + ", ".join(names))
    _guard("round robin", spec, _skill_plays(g, names, p, n), jobs, yes, backend, ask=True, progress=not quiet)
    out_dir, top = _experiment_dir(out, game, "skill")
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = skill(game, names, games, players=players, seed=seed_v, rules=rules,
                    jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                    progress=(not quiet) and sys.stderr.isatty())
        path = write_skill_report(res, out_dir)
        _experiment_manifest(out_dir, "skill", g, p, seed_v, rules, names, n, res.get("partial"))
    if not quiet:
        click.echo(skill_text(res))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(bool(res.get("partial")), out_dir)


def _ladder(game, names, games, players, seed_v, rules, jobs, chunk_size, backend, scheduler, out,
            quiet):
    """``sim skill --ladder``: play the ladder, write its report, print its table."""
    from analysis.ladder import check_ladder, ladder_text, skill_ladder
    from analysis.ladder_report import write_ladder_report
    check_ladder(get_game(game), names, players)
    out_dir, top = _experiment_dir(out, game, "ladder")
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = skill_ladder(game, names, games, players=players, seed=seed_v, rules=rules,
                           jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                           progress=(not quiet) and sys.stderr.isatty())
        path = write_ladder_report(res, out_dir)
        _experiment_manifest(out_dir, "ladder", res.game, res.players, seed_v, rules, names,
                             res.rungs[0].n if res.rungs else 0, res.partial)
    if not quiet:
        click.echo(ladder_text(res))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.partial, out_dir)


@click.command("strength")
@click.argument("game")
@click.option("--bot", "bot", default="search", show_default=True,
              help="the first rung: a search bot with its settings (search:iters=50)")
@click.option("--param", "param", default=None, metavar="NAME",
              help="the bot's budget parameter to climb (default: its iters)")
@click.option("--factor", type=float, default=4.0, show_default=True, help="budget multiplier per rung")
@click.option("--add", type=float, default=None, help="add this to the budget per rung instead (a search depth)")
@click.option("--rungs", type=int, default=4, show_default=True, help="at most this many rungs")
@click.option("--tol", type=float, default=2.0, show_default=True,
              help="tolerance of a share between two rungs, in percentage points")
@click.option("--length-tol", type=float, default=5.0, show_default=True,
              help="tolerance of the mean length, in percent of it")
@click.option("--minutes", type=float, default=None, help="wall-time budget: no rung starts that would overrun it")
@click.option("--pair-games", "pair_games", default=None, metavar="N",
              help="games of each head-to-head seating between neighbouring rungs (the Elo gain of a "
                   "step; default --games, at most 4,000: the verdict rests on the rungs' games)")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="rule parameter; repeatable")
@YES
@_common_experiment_options
def strength_cmd(game, bot, param, factor, add, rungs, tol, length_tol, minutes, pair_games, sets, yes, games, bots,
                 players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Climb a search bot's budget until the verdict for strong play settles.

    Each rung multiplies the budget by --factor and plays every seat the same bot, and the
    rung below it head to head (the Elo gain of each step); the climb stops when the two
    strongest rungs agree on every headline within the tolerance (95% intervals), or says
    it has not settled.  Example: sim strength batam --bot search:iters=50 --games 4000
    """
    from analysis.converge import climb, strength_text, write_strength_report
    if bots:
        raise UsageError("sim strength plays one bot in every seat: give it with --bot")
    g = get_game(game)
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, None, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    rules = _assignments(game, sets)
    g.resolve_rules(rules)
    n_pair = _check_strength(g, bot, param, factor, add, rungs, tol, length_tol, minutes, players, rules, n, seed_v,
                             jobs, yes, backend, ask=True, progress=not quiet, pair_games=pair_games)
    out_dir, top = _experiment_dir(out, game, "strength")
    echo = None if quiet else (lambda line: click.echo(line, err=True))
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = climb(game, bot, n, param=param, factor=factor, add=add, rungs=rungs, tol=tol / 100,
                    length_tol=length_tol, minutes=minutes, pair_games=n_pair, players=players, seed=seed_v,
                    rules=rules, jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                    progress=(not quiet) and sys.stderr.isatty(), echo=echo)
        path = write_strength_report(res, out_dir)
        _experiment_manifest(out_dir, "strength", res.ladder.game, res.ladder.players, seed_v, rules,
                             [r.bot for r in res.ladder.rungs], n, res.ladder.partial, res.extra.get("model"))
    if not quiet:
        click.echo(strength_text(res))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.ladder.partial, out_dir)
