"""The ``sim`` command.

    sim puluc --games 1e6 --set track=9 --bots greedy,random
    sim rules puluc
    sim report reports/puluc-base-20261129-120000
"""
from __future__ import annotations

import shlex
import sys

import click

from . import __version__
from .games import REGISTRY
from .games import get as get_game
from .params import UsageError, parse_assignments


class OneLineErrors(click.Group):
    """Bad input: one line on stderr and exit status 2, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name or "sim", complete_var=complete_var,
                              standalone_mode=False, **extra)
        except (click.UsageError, UsageError) as e:
            msg = e.format_message() if isinstance(e, click.UsageError) else str(e)
            click.echo(f"sim: error: {msg}", err=True)
            if standalone_mode:
                sys.exit(2)
            raise
        except click.Abort:
            click.echo("sim: aborted", err=True)
            if standalone_mode:
                sys.exit(130)
            raise
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sim")
def cli():
    """Monte Carlo balance analysis for board games.

    Run `sim GAME --games N` to simulate, `sim rules GAME` to see the rule
    parameters, `sim games` for the list of games.
    """


RAW_AUTO_MAX = 10_000_000


def _run_command(name: str):
    @click.command(name=name, help=f"Simulate {name} games and write a report.\n\n"
                   f"Example: sim {name} --games 1e5 --bots greedy,random --set NAME=VALUE")
    @click.option("--games", "-n", default="1e5", show_default=True,
                  help="number of games: 1e6, 250000, 2.5e5")
    @click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                  help=f"change a rule parameter (see `sim rules {name}`); repeatable")
    @click.option("--bots", default=None, help="bots per seat, e.g. greedy,random or search:depth=1,greedy")
    @click.option("--players", "-p", type=int, default=None, help="number of players")
    @click.option("--seed", default="1", show_default=True, help="master seed")
    @click.option("--jobs", "-j", type=int, default=0, help="worker processes (0: all cores)")
    @click.option("--chunk-size", type=int, default=None, help="games per chunk (results do not depend on it)")
    @click.option("--backend", default=None,
                  help="loky (local processes, default), dask (a Dask cluster), threading, sequential")
    @click.option("--scheduler", default=None, metavar="ADDRESS",
                  help="Dask scheduler, e.g. tcp://host:8786 (with --backend dask; "
                       "without it a local cluster is started)")
    @click.option("--out", "-o", default=None, help="run directory (default: reports/<game>-<params>-<time>)")
    @click.option("--resume", default=None, metavar="DIR",
                  help="finish an interrupted run in DIR (its parameters are read from DIR)")
    @click.option("--raw/--no-raw", default=None,
                  help=f"write one row per game (default: yes up to {RAW_AUTO_MAX:.0e} games); "
                       "without rows only merged statistics are kept")
    @click.option("--csv", is_flag=True, help="also write the per-game results as CSV")
    @click.option("--quiet", "-q", is_flag=True, help="no progress bar and no summary table")
    def cmd(games, sets, bots, players, seed, jobs, chunk_size, backend, scheduler, out, resume, raw,
            csv, quiet):
        from .output import default_run_dir, prepare_out_dir, save_run
        from .runner import execute, make_spec
        if chunk_size is not None and chunk_size < 1:
            raise UsageError(f"--chunk-size must be at least 1, not {chunk_size}")
        if jobs < 0:
            raise UsageError(f"--jobs must be 0 (all cores) or more, not {jobs}")
        if resume:
            spec, rows = _spec_from_run_dir(name, resume)
            out = resume
        else:
            spec = make_spec(name, games, parse_assignments(sets), bots, players, seed)
            keep = raw if raw is not None else spec.games <= RAW_AUTO_MAX
            rows = "disk" if keep else "none"
        if csv and rows == "none":
            raise UsageError("--csv needs the per-game rows: add --raw")
        out_dir = prepare_out_dir(out or default_run_dir(spec))
        command = "sim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None
        progress = (not quiet) and sys.stderr.isatty()
        result = execute(spec, jobs=jobs, chunk_size=chunk_size, backend=backend,
                         progress=progress, command=command, rows=rows, out_dir=out_dir,
                         scheduler=scheduler)
        paths = save_run(result, out_dir, csv=csv)
        if not quiet:
            from analysis.report import summarize, text_summary
            click.echo(text_summary(summarize(result.summary, result.manifest, spec.game),
                                    result.manifest, spec.game))
        if result.manifest.get("chunks_resumed"):
            click.echo(f"Resumed: {result.manifest['chunks_resumed']} finished chunks were reused.",
                       err=True)
        if result.partial:
            click.echo(f"Interrupted: kept {result.manifest['games_completed']:,} finished games "
                       f"of {spec.games:,}; the report says it is partial. "
                       f"Finish it with: sim {name} --resume {out_dir}", err=True)
        click.echo(f"report: {paths['report']}")
        return 130 if result.partial else 0
    return cmd


def _spec_from_run_dir(name: str, run_dir):
    """The spec of the run recorded in ``run_dir/run.json`` (for --resume)."""
    import json
    from pathlib import Path
    from .runner import make_spec
    path = Path(run_dir) / "run.json"
    if not path.is_file():
        raise UsageError(f"--resume {run_dir}: no run.json there, so nothing to resume")
    meta = json.loads(path.read_text())
    fp = meta["fingerprint"]
    if fp["game"] != name:
        raise UsageError(f"--resume {run_dir}: that is a {fp['game']} run, not {name}")
    spec = make_spec(name, fp["games"], fp["rules"], fp["bots"], fp["players"], fp["seed"])
    return spec, meta.get("rows", "none")


for _name in REGISTRY:
    cli.add_command(_run_command(_name))


def _common_experiment_options(f):
    opts = [
        click.option("--games", "-n", default="1e5", show_default=True, help="games per variant"),
        click.option("--bots", default=None, help="bots per seat, as for a run"),
        click.option("--players", "-p", type=int, default=None, help="number of players"),
        click.option("--seed", default="1", show_default=True, help="master seed (shared by every variant)"),
        click.option("--jobs", "-j", type=int, default=0, help="worker processes (0: all cores)"),
        click.option("--chunk-size", type=int, default=None, help="games per chunk"),
        click.option("--backend", default=None, help="loky, dask, threading, sequential"),
        click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler (with --backend dask)"),
        click.option("--out", "-o", default=None, help="report directory (default: reports/<game>-<kind>-<time>)"),
        click.option("--quiet", "-q", is_flag=True, help="no progress bar and no summary table"),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def _experiment_dir(out, game, kind):
    from datetime import datetime
    from pathlib import Path
    from .output import prepare_out_dir
    if out:
        return prepare_out_dir(out)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return prepare_out_dir(Path("reports") / f"{game}-{kind}-{stamp}")


def _seed(seed):
    try:
        return int(seed)
    except ValueError:
        raise UsageError(f"--seed must be an integer, not {seed!r}") from None


@cli.command("compare")
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
@_common_experiment_options
def compare_cmd(game, variants, variants_file, sprt, sprt_d, sprt_metric, alpha, beta, robust_, games,
                bots, players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Compare rule variants on the same seeds (paired differences, seat-swapped pairs).

    Example: sim compare puluc --games 2e5 --variant base: --variant nine:track=9
    """
    from analysis.experiments import compare_text, write_compare_report
    from .experiments import compare, load_variants_file, parse_variant
    get_game(game)
    vs = [parse_variant(v) for v in variants]
    if variants_file:
        vs += load_variants_file(variants_file)
    if robust_:
        return _robust(game, vs, (), None, True, True, games, bots, players, seed, jobs, chunk_size,
                       backend, scheduler, out, quiet)
    if not 0 < alpha < 0.5 or not 0 < beta < 0.5:
        raise UsageError("--alpha and --beta must be between 0 and 0.5")
    out_dir = _experiment_dir(out, game, "compare")
    echo = None if quiet else (lambda line: click.echo(line, err=True))
    res = compare(game, vs, games, bots=bots, players=players, seed=_seed(seed), jobs=jobs,
                  chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                  progress=(not quiet) and sys.stderr.isatty() and not sprt,
                  sprt_d=sprt_d if sprt else None, sprt_metric=sprt_metric, alpha=alpha, beta=beta,
                  echo=echo if sprt else None)
    path = write_compare_report(res, out_dir)
    if not quiet:
        click.echo(compare_text(res))
        if sprt:
            stop = "stopped by the SPRT" if res.manifest["stopped_by_sprt"] else "no decision: fixed-size result"
            click.echo(f"games needed: {res.manifest['games_completed']:,} ({stop})")
    click.echo(f"report: {path}")
    return 130 if res.partial else 0


@cli.command("sweep")
@click.argument("game")
@click.option("--param", "params", multiple=True, metavar="NAME=LO..HI[:STEP] | NAME=V1,V2",
              help="a parameter to sweep; several make a grid")
@_common_experiment_options
def sweep_cmd(game, params, games, bots, players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Sweep rule parameters: every metric against the parameter, with confidence bands.

    Example: sim sweep puluc --param track=7..15 --games 1e5
    """
    from analysis.experiments import compare_text, write_compare_report
    from .experiments import sweep
    get_game(game)
    out_dir = _experiment_dir(out, game, "sweep")
    res = sweep(game, list(params), games, bots=bots, players=players, seed=_seed(seed), jobs=jobs,
                chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                progress=(not quiet) and sys.stderr.isatty())
    path = write_compare_report(res, out_dir)
    if not quiet:
        click.echo(compare_text(res, keys=["first player score", "no winner", "capped"]))
    click.echo(f"report: {path}")
    return 130 if res.partial else 0


@cli.command("skill")
@click.argument("game")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="rule parameter; repeatable")
@_common_experiment_options
def skill_cmd(game, sets, games, bots, players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Round robin of bots in every seat on the same seeds: win matrix and ratings.

    Example: sim skill puluc --bots random,greedy,search --games 2e4
    """
    from analysis.experiments import skill_text, write_skill_report
    from .experiments import skill
    from .game import _split_bots
    g = get_game(game)
    # the bot-spec parser of a run: "merchant:plans=2,w_war=3,random" is two bots
    names = [b.strip() for b in (_split_bots(bots) if bots else [b.name for b in g.bots])]
    out_dir = _experiment_dir(out, game, "skill")
    res = skill(game, names, games, players=players, seed=_seed(seed), rules=parse_assignments(sets),
                jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                progress=(not quiet) and sys.stderr.isatty())
    path = write_skill_report(res, out_dir)
    if not quiet:
        click.echo(skill_text(res))
    click.echo(f"report: {path}")


@cli.command("impact")
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
    from .experiments import impact
    g = get_game(game)
    out_dir = _experiment_dir(out, game, "impact")
    res = impact(game, card, mode, games, rules=parse_assignments(sets), workdir=out_dir, bots=bots,
                 players=players, seed=_seed(seed), jobs=jobs, chunk_size=chunk_size,
                 backend=backend, scheduler=scheduler, progress=(not quiet) and sys.stderr.isatty(),
                 metric=metric)
    path = write_impact_report(g, res, out_dir, card)
    if not quiet:
        click.echo(impact_text(res))
    click.echo(f"report: {path}")
    return 130 if res.partial else 0


@cli.command("robust")
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
@_common_experiment_options
def robust_cmd(what, game, variants, variants_file, sets, metric, early_stop, combine, games, bots,
               players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Does the verdict hold?  The headline figures under every bot, every reading of a
    silent or ambiguous rule and the setup's randomness, on the same seeds, with a verdict
    per headline: holds, depends on X, or cannot tell.

    Examples: sim robust puluc --games 1e5;
    sim robust compare puluc --variant base: --variant nine:track=9
    """
    from .experiments import load_variants_file, parse_variant
    if what == "compare":
        if not game:
            raise UsageError("sim robust compare needs a game: sim robust compare GAME --variant ...")
        vs = [parse_variant(v) for v in variants]
        if variants_file:
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
                   chunk_size, backend, scheduler, out, quiet)


def _robust(game, variants, sets, metric, early_stop, combine, games, bots, players, seed, jobs,
            chunk_size, backend, scheduler, out, quiet):
    """sim robust (and sim compare --robust): play, write the report, print the verdicts."""
    from analysis.robust import robust_text, write_robust_report
    from .robust import robust
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {jobs}")
    if chunk_size is not None and chunk_size < 1:
        raise UsageError(f"--chunk-size must be at least 1, not {chunk_size}")
    out_dir = _experiment_dir(out, game, "robust-compare" if variants else "robust")
    command = "sim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None
    res = robust(game, games, rules=parse_assignments(sets), bots=bots, players=players,
                 seed=_seed(seed), variants=variants, metric=metric, jobs=jobs, chunk_size=chunk_size,
                 backend=backend, scheduler=scheduler, progress=(not quiet) and sys.stderr.isatty(),
                 early_stop=early_stop, combine=combine, command=command)
    path = write_robust_report(res, out_dir)
    if not quiet:
        click.echo(robust_text(res))
    click.echo(f"report: {path}")
    return 130 if res.manifest.get("partial") else 0


@cli.command("games")
def games_cmd():
    """List the games."""
    for name in REGISTRY:
        g = get_game(name)
        counts = "/".join(str(p) for p in g.players)
        click.echo(f"{name:<10} {g.title} ({counts} players, version {g.version})")


@cli.command("rules")
@click.argument("game")
def rules_cmd(game):
    """Every rule parameter of GAME with its default, allowed values and meaning."""
    g = get_game(game)
    click.echo(f"{g.title} (version {g.version}), {'/'.join(map(str, g.players))} players. "
               f"Rules as implemented: {g.rules_doc}")
    click.echo("")
    click.echo("Rule parameters (change with --set NAME=VALUE), grouped by what they are:")
    groups = (("rule", "Rules of the rulebook"), ("variant", "Variants the rulebook offers"),
              ("reading", "Readings: where the rulebook is silent or ambiguous (sim robust "
                          "tries each alternative)"),
              ("horizon", "Horizon (not a rule: every game ends)"),
              ("data", "Data files (contents the rulebook does not print are assumptions)"),
              ("analysis", "Analysis switches (not rules)"))
    for role, title in groups:
        ps = [p for p in g.params if p.role == role]
        if not ps:
            continue
        click.echo("")
        click.echo(f" {title}:")
        for p in ps:
            default = ",".join(map(str, p.default)) if isinstance(p.default, tuple) else p.default
            click.echo(f"  {p.name}  (default {default}; {p.allowed()})")
            click.echo(f"      {p.help}")
            if p.source:
                click.echo(f"      rulebook: {p.source}")
            if role == "reading":
                alts = ", ".join(",".join(map(str, a)) if isinstance(a, tuple) else str(a)
                                 for a in p.other_readings())
                click.echo(f"      other readings: {alts or 'none declared'}")
    click.echo("")
    click.echo(f"Bots (--bots, one per seat; default {','.join(g.default_bots)}):")
    for b in g.bots:
        click.echo(f"  {b.name}: {b.help}")
        for p in b.params:
            click.echo(f"      {b.name}:{p.name}=VALUE  (default {p.default}; {p.allowed()}) {p.help}")


@cli.command("report")
@click.argument("run_dir")
def report_cmd(run_dir):
    """Rebuild the report of a saved run, comparison, sweep, impact or skill table,
    without simulating again."""
    import json
    from pathlib import Path
    d = Path(run_dir)
    if (d / "robust.json").is_file():
        from analysis.robust import write_robust_report
        from .robust import RobustResult
        path = write_robust_report(RobustResult.from_dict(json.loads((d / "robust.json").read_text())), d)
    elif (d / "experiment.json").is_file():
        from analysis.experiments import load_experiment, write_compare_report
        from analysis.impact import write_impact_report
        data = json.loads((d / "experiment.json").read_text())
        res = load_experiment(data)
        if res.kind == "impact":
            path = write_impact_report(res.game, res, d, data.get("card"))
        else:
            path = write_compare_report(res, d)
    elif (d / "skill.json").is_file():
        from analysis.experiments import load_skill, write_skill_report
        path = write_skill_report(load_skill(json.loads((d / "skill.json").read_text())), d)
    else:
        from analysis.report import write_report
        from .output import load_run
        summary, manifest = load_run(d)
        path = write_report(summary, manifest, get_game(manifest["game"]), d)
    click.echo(f"report: {path}")


def main():  # console-script entry point
    cli()


if __name__ == "__main__":  # pragma: no cover
    main()
