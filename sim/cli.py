"""The ``sim`` command.

    sim puluc --games 1e6 --set track=9 --bots greedy,random
    sim rules puluc
    sim report reports/puluc-base-20261129-120000

Exit status: 0 done; 2 bad input (one line, nothing written); 130 stopped by Ctrl-C and
143 by SIGTERM (finished chunks kept, a partial report); 1 a run that could not finish
(a worker process died, the disk is full: finished chunks kept, the line says how to
resume).
"""
from __future__ import annotations

import atexit
import gc
import shlex
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import click

from . import __version__
from .games import REGISTRY
from .games import get as get_game
from .params import UsageError, parse_assignments
from .validate import safe

EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 1, 2, 130, 143


class OneLineErrors(click.Group):
    """Bad input: one line on stderr and exit status 2, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from .faults import DaskLost
        from .mplconfig import ensure
        from .runner import Terminated
        ensure()  # before matplotlib is imported: a writable config folder, or no warning
        try:
            rv = super().main(args=args, prog_name=prog_name or "sim", complete_var=complete_var,
                              standalone_mode=False, **extra)
        except (click.UsageError, UsageError) as e:
            msg = e.format_message() if isinstance(e, click.UsageError) else str(e)
            click.echo(f"sim: error: {safe(msg)}", err=True)
            if standalone_mode:
                sys.exit(EXIT_USAGE)
            raise
        except DaskLost as e:  # an experiment's cluster (a run says so itself, with its report)
            again = getattr(e, "again", None)
            tail = f"; the finished chunks are kept. Finish it with the same command into the same " \
                   f"folder: {safe(again)}" if again else ""
            click.echo(f"sim: error: {e}{tail}", err=True)
            if standalone_mode:
                sys.exit(EXIT_FAILED)
            raise
        except Terminated:
            click.echo("sim: terminated", err=True)
            if standalone_mode:
                sys.exit(EXIT_TERMINATED)
            raise
        except (click.Abort, KeyboardInterrupt):
            click.echo("sim: aborted", err=True)
            if standalone_mode:
                sys.exit(EXIT_INTERRUPTED)
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


def _note(text: str) -> None:
    click.echo(f"sim: {safe(text)}", err=True)


def _raise_terminated(signum, frame):
    from .runner import Terminated, note_terminated
    note_terminated()
    raise Terminated()


@contextmanager
def _sigterm_stops_cleanly():
    """SIGTERM stops a command like Ctrl-C (finished chunks kept, a partial report), with
    exit status 143."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextmanager
def _cleanup_on_refusal(top):
    """A folder this command created is removed again if the command then refuses its input
    (nothing written on bad input)."""
    try:
        yield
    except UsageError:
        if top is not None:
            import shutil
            shutil.rmtree(top, ignore_errors=True)
        raise


def _given(name: str) -> bool:
    """Whether the user typed option ``name`` (not its default)."""
    ctx = click.get_current_context()
    src = ctx.get_parameter_source(name)
    return src is not None and src not in (click.core.ParameterSource.DEFAULT,
                                           click.core.ParameterSource.DEFAULT_MAP)


def _check_run_options(jobs, chunk_size, backend, scheduler):
    """The checks every command shares (runs, compare, sweep, skill, impact): the API's."""
    from .api import _check_run
    return _check_run(jobs, chunk_size, backend, scheduler, _note)


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
    @click.option("--jobs", "-j", type=int, default=0,
                  help="parallel jobs (0: all cores; at most the cores available)")
    @click.option("--chunk-size", type=int, default=None,
                  help="games per chunk (results do not depend on it); each chunk is a file (two with "
                       "rows): at least 100, and at most 100,000 chunks")
    @click.option("--backend", default=None,
                  help="threading (threads of this process: the default with more than one job), loky "
                       "(worker processes), dask (a Dask cluster), sequential")
    @click.option("--scheduler", default=None, metavar="ADDRESS",
                  help="Dask scheduler, e.g. tcp://host:8786 (with --backend dask; "
                       "without it a local cluster is started)")
    @click.option("--out", "-o", default=None, help="run directory (default: reports/<game>-<params>-<time>)")
    @click.option("--resume", default=None, metavar="DIR",
                  help="finish an interrupted run in DIR (its parameters are read from DIR; only "
                       "--jobs, --backend, --scheduler, --csv and --quiet may be added)")
    @click.option("--raw/--no-raw", default=None,
                  help=f"write one row per game (default: yes up to {RAW_AUTO_MAX:.0e} games); "
                       "without rows only merged statistics are kept")
    @click.option("--csv", is_flag=True, help="also write the per-game results as CSV")
    @click.option("--quiet", "-q", is_flag=True, help="no progress bar and no summary table")
    @click.option("--record", default=None, metavar="GAMES",
                  help="also record these games (e.g. 0..99 or 3,17) into records.npz of the run "
                       "directory: every action and chance outcome (see `sim show`)")
    @click.option("--yes", "-y", is_flag=True,
                  help="start a run expected to take more than 2 hours without asking (without a "
                       "terminal it is refused otherwise)")
    def cmd(games, sets, bots, players, seed, jobs, chunk_size, backend, scheduler, out, resume, raw,
            csv, quiet, record, yes):
        from .lock import RunLock
        from .output import default_run_dir, save_run
        from .runner import Stop, check_disk, check_memory, make_spec, plan_chunks, release_workers
        from .validate import check_chunk_count, check_out_dir, create_out_dir
        jobs, chunk_size = _check_run_options(jobs, chunk_size, backend, scheduler)
        if resume is not None:
            if not resume.strip():
                raise UsageError("--resume: the path is empty")
            spec, rows, meta = _spec_from_run_dir(name, resume)
            _check_resume_options(name, resume, spec, rows, meta, games=games, sets=sets, bots=bots,
                                  players=players, seed=seed, out=out, raw=raw,
                                  chunk_size=chunk_size)
            out = resume
        else:
            spec = make_spec(name, games, _assignments(name, sets), bots, players, seed)
            keep = raw if raw is not None else spec.games <= RAW_AUTO_MAX
            rows = "disk" if keep else "none"
        if csv and rows == "none":
            raise UsageError("--csv needs the per-game rows: add --raw")
        recorded = _check_record(spec, record, resume)
        out_dir = Path(out) if out is not None else default_run_dir(spec)
        if out is not None and not out.strip():
            raise UsageError("--out: the path is empty")
        check_out_dir(out_dir, "run")
        if rows == "memory":  # pragma: no cover - the command keeps rows on disk or none
            check_memory(spec)
        from .store import ChunkStore
        saved = ChunkStore(out_dir).check(spec, rows) if out_dir.is_dir() else None  # another run?
        if not saved:
            check_chunk_count(spec.games, chunk_size)
        plan = plan_chunks(spec.games, saved or chunk_size, jobs)
        check_disk(spec, out_dir, rows, len(plan), csv)
        progress = (not quiet) and sys.stderr.isatty()
        rate = None  # one core's games/s, where the long-run check (or a worker) measured it
        warm = None
        if not saved and backend != "dask":
            from .longrun import check_long_run
            from .prestart import prestart
            try:
                warm = prestart(spec, jobs, backend)  # the workers start now
                if warm is not None:
                    from .runner import _compile_notice
                    with _compile_notice(spec.game, progress):
                        rate = warm.rate()
                rate = check_long_run(spec, plan, jobs, rows, yes, progress, rate=rate)
            except KeyboardInterrupt:  # while the kernel loads for the estimate
                click.echo("sim: interrupted before the run started; nothing was written", err=True)
                return EXIT_INTERRUPTED
            except BaseException:
                if warm is not None:
                    warm.cancel()
                raise
        # everything is checked: now, and only now, the directory is created and locked
        out_dir, top = create_out_dir(out_dir)
        command = _command_line()
        resume_hint = f"sim {name} --resume {shlex.quote(str(out_dir))}"
        with _cleanup_on_refusal(top), RunLock(out_dir), _sigterm_stops_cleanly():
            result = execute_cli(spec, jobs=jobs, chunk_size=chunk_size, backend=backend,
                                 progress=progress, command=command, rows=rows, out_dir=out_dir,
                                 scheduler=scheduler, note=_note, rate=rate,
                                 warmed=warm is not None and rate is not None,
                                 after_first=_during_games(warm, spec))
            release_workers()  # the games are over: the workers end while the report is written
            if recorded and not result.partial:
                from .record import RECORDS, record_run, save_records
                save_records(out_dir / RECORDS, record_run(spec.game, recorded, spec=spec))
                result.manifest["recorded_games"] = {"file": RECORDS, "games": len(recorded)}
            return _finish_run(name, result, out_dir, csv, quiet, resume_hint, save_run, Stop)
    return cmd


def _during_games(warm, spec):
    """What the main process loads once the first chunk is in, while the workers play on:
    the report's modules, and the kernel where only the workers loaded it (sim.prestart)."""
    from .preload import importer
    steps = [importer("analysis.report")]
    if warm is not None:
        steps.append(warm.load_here(spec))
    return lambda: [step() for step in steps]


def _check_record(spec, record, resume) -> list[int]:
    """The game indices of --record, checked before anything runs."""
    if record is None:
        return []
    from .record import parse_indices
    if resume is not None:
        raise UsageError("--record cannot be added to a --resume: record the games with a new run "
                         "or `sim show`")
    if not spec.game.actions:
        raise UsageError(f"{spec.game.name} cannot record its games yet (its kernel records no actions)")
    return parse_indices(record, spec.games)


def _assignments(game: str, sets, what: str = "--set") -> dict:
    """``--set`` values as a dict, refusing a parameter set twice (under any of its names)."""
    out = parse_assignments(sets, what)
    g = get_game(game)
    seen = {}
    for a in sets:
        key = a.split("=", 1)[0].strip().lower().replace("-", "_")
        name = next((p.name for p in g.params if key == p.name or key in p.aliases), key)
        if name in seen:
            raise UsageError(f"{what} {safe(name)} is given twice ({safe(seen[name])!r} and "
                             f"{safe(a)!r}); give each parameter once")
        seen[name] = a
    return out


def _over(g, base: dict, rules: dict) -> dict:
    """A variant's rules over the ``--set`` ones every variant shares (its own value wins,
    whichever name of the parameter either uses)."""
    def canon(k):
        k = str(k).strip().lower().replace("-", "_")
        return next((p.name for p in g.params if k == p.name or k in p.aliases), k)
    own = {canon(k) for k in rules}
    return {**{k: v for k, v in base.items() if canon(k) not in own}, **rules}


def execute_cli(spec, **kw):
    from .runner import execute
    return execute(spec, **kw)


def _finish_run(name, result, out_dir, csv, quiet, resume_hint, save_run, Stop):
    """Save what the run finished and say how it ended (and how to finish it)."""
    from .io import is_disk_full
    from .runner import REPORT_BYTES, Terminated, _size
    spec = result.spec
    done = result.manifest["games_completed"]
    status = {None: 0, Stop.INTERRUPTED: EXIT_INTERRUPTED, Stop.TERMINATED: EXIT_TERMINATED,
              Stop.WORKER: EXIT_FAILED, Stop.DISK: EXIT_FAILED, Stop.CLUSTER: EXIT_FAILED}[result.stopped]
    status = EXIT_INTERRUPTED if result.partial and status == 0 else status
    shown = safe(str(out_dir))
    hint = safe(resume_hint)

    def disk_full_line(e=None):
        need = result.disk_needed or 0
        need_text = f"about {_size(need)} more" if need else "more space"
        click.echo(f"sim: error: the disk holding {shown} is full: the run needs {need_text}; "
                   f"the {result.manifest['chunks_done']:,} finished chunks ({done:,} games) "
                   f"are kept. Free some space, then finish it with: {hint}",
                   err=True)
        return EXIT_FAILED

    if done == 0 and result.partial:
        why = {Stop.WORKER: "a worker process died", Stop.TERMINATED: "terminated",
               Stop.DISK: "the disk is full",
               Stop.CLUSTER: str(result.failure)}.get(result.stopped, "interrupted")
        if result.stopped == Stop.DISK:
            return disk_full_line()
        click.echo(f"sim: {why} before any game finished: nothing to report. "
                   f"Start it again with: {hint}", err=True)
        return status
    try:
        from analysis.report import write_run_report
        paths = save_run(result, out_dir, csv=csv, report=write_run_report)
    except KeyboardInterrupt as e:
        code = EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED
        click.echo(f"sim: stopped while writing the report; the {done:,} finished games are kept. "
                   f"Write it with: {hint}", err=True)
        return code
    except OSError as e:
        if is_disk_full(e):
            result.disk_needed = result.disk_needed or REPORT_BYTES
            return disk_full_line(e)
        click.echo(f"sim: error: cannot write the report into {shown}: "
                   f"{safe(e.strerror or str(e))}; the finished games are kept. "
                   f"Write it with: {hint}", err=True)
        return EXIT_FAILED
    if not quiet:
        from analysis.report import summarize, text_summary
        click.echo(text_summary(summarize(result.summary, result.manifest, spec.game), result.manifest, spec.game))
    if result.manifest.get("chunks_resumed"):
        click.echo(f"Resumed: {result.manifest['chunks_resumed']} finished chunks were reused.", err=True)
    if result.stopped == Stop.DISK:
        disk_full_line()
    elif result.stopped == Stop.WORKER:
        click.echo(f"sim: error: a worker process died (killed, or out of memory); kept "
                   f"{done:,} finished games of {spec.games:,} and wrote a partial report. "
                   f"Finish it with: {hint}", err=True)
    elif result.stopped == Stop.CLUSTER:
        click.echo(f"sim: error: {result.failure}; kept {done:,} finished games of {spec.games:,} "
                   f"and wrote a partial report. Finish it with: {hint} (here, or with --backend dask "
                   "--scheduler ADDRESS on a cluster)", err=True)
    elif result.partial:
        how = "Terminated" if result.stopped == Stop.TERMINATED else "Interrupted"
        click.echo(f"{how}: kept {done:,} finished games of {spec.games:,}; the report says it is partial. "
                   f"Finish it with: {hint}", err=True)
    click.echo(f"report: {safe(str(paths['report']))}")
    return status


def _spec_from_run_dir(name: str, run_dir):
    """The spec of the run recorded in ``run_dir/run.json`` (for --resume), with the record."""
    from .runner import make_spec
    from .store import read_run_record
    d = Path(run_dir)
    if not d.is_dir():
        raise UsageError(f"--resume {safe(str(run_dir))}: no such run directory, so nothing to resume")
    if not (d / "run.json").exists():
        raise UsageError(f"--resume {safe(str(run_dir))}: no run.json there, so nothing to resume")
    meta = read_run_record(d)
    fp = meta["fingerprint"]
    if fp["game"] != name:
        raise UsageError(f"--resume {safe(str(run_dir))}: that is a {safe(fp['game'])} run, not {name}")
    spec = make_spec(name, fp["games"], fp["rules"], fp["bots"], fp["players"], fp["seed"])
    return spec, meta.get("rows", "none"), meta


def _check_resume_options(name, run_dir, spec, rows, meta, **given):
    """``--resume DIR`` continues the run saved in DIR: an option that would change its
    results (or where they go) and disagrees with the saved run is refused."""
    from .runner import make_spec, parse_games, parse_seed
    saved = meta["fingerprint"]
    problems = []

    def differs(opt, shown_given, shown_saved):
        problems.append(f"{opt} {shown_given} (the run has {shown_saved})")

    if _given("games") and parse_games(given["games"]) != saved["games"]:
        differs("--games", safe(given["games"]), f"{saved['games']:,}")
    if _given("seed") and parse_seed(given["seed"]) != saved["seed"]:
        differs("--seed", safe(given["seed"]), saved["seed"])
    if _given("players") and given["players"] != saved["players"]:
        differs("--players", given["players"], saved["players"])
    if _given("sets"):
        wanted = spec.game.resolve_rules(parse_assignments(given["sets"]))
        for a in given["sets"]:
            k = _canon(spec, a)
            if k in wanted and wanted[k] != spec.rules[k]:
                differs("--set", f"{k}={safe(a.split('=', 1)[1].strip())}", f"{k}={spec.rules[k]}")
    if _given("bots"):
        other = make_spec(name, saved["games"], saved["rules"], given["bots"], saved["players"],
                          saved["seed"])
        if [c.label for c in other.bots] != saved["bots"]:
            differs("--bots", safe(given["bots"]), ",".join(saved["bots"]))
    if _given("raw") and ("disk" if given["raw"] else "none") != rows:
        differs("--raw" if given["raw"] else "--no-raw", "", "rows " + ("kept" if rows == "disk" else "not kept"))
    if _given("out") and given["out"] is not None and \
            Path(given["out"]).resolve() != Path(run_dir).resolve():
        differs("--out", safe(given["out"]), safe(str(run_dir)))
    if _given("chunk_size") and given["chunk_size"] != meta["chunk_size"]:
        differs("--chunk-size", given["chunk_size"], meta["chunk_size"])
    if problems:
        raise UsageError(f"--resume {safe(str(run_dir))} continues the run saved there, which "
                         f"{'; '.join(problems)} disagrees: drop the option (only --jobs, --backend, "
                         "--scheduler, --csv and --quiet may be added), or start a new run")


def _canon(spec, assignment: str) -> str:
    """The declared name of the parameter an assignment ``NAME=VALUE`` sets (aliases too)."""
    key = assignment.split("=", 1)[0].strip().lower().replace("-", "_")
    for p in spec.game.params:
        if key == p.name or key in p.aliases:
            return p.name
    return key


for _name in REGISTRY:
    cli.add_command(_run_command(_name))


def _common_experiment_options(f):
    opts = [
        click.option("--games", "-n", default="1e5", show_default=True, help="games per variant"),
        click.option("--bots", default=None, help="bots per seat, as for a run"),
        click.option("--players", "-p", type=int, default=None, help="number of players"),
        click.option("--seed", default="1", show_default=True, help="master seed (shared by every variant)"),
        click.option("--jobs", "-j", type=int, default=0,
                     help="parallel jobs (0: all cores; at most the cores available)"),
        click.option("--chunk-size", type=int, default=None,
                     help="games per chunk (at least 100, at most 100,000 chunks: a file each)"),
        click.option("--backend", default=None, help="threading (default for 2+ jobs), loky, dask, sequential"),
        click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler (with --backend dask)"),
        click.option("--out", "-o", default=None, help="report directory (default: reports/<game>-<kind>-<time>)"),
        click.option("--quiet", "-q", is_flag=True, help="no progress bar and no summary table"),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def _experiment_dir(out, game, kind):
    """The report folder of an experiment, checked (not a user's folder, not a run) and
    created; returns it and the topmost folder created (removed again on a refusal)."""
    from datetime import datetime
    from .validate import check_out_dir, create_out_dir
    if out is not None:
        if not out.strip():
            raise UsageError("--out: the path is empty")
        path = Path(out)
    else:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = Path("reports") / f"{game}-{kind}-{stamp}"
        k = 1
        while path.exists():
            k += 1
            path = Path("reports") / f"{game}-{kind}-{stamp}-{k}"
    check_out_dir(path, "experiment")
    return create_out_dir(path)


def _seed(seed):
    from .runner import parse_seed
    return parse_seed(seed)


def _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler):
    """The options every experiment shares, checked as a run checks them (the API's)."""
    from .api import _check_experiment as checked
    return checked(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler, _note)[:4]


def _check_arms(g, variants, bots, players, seed, n, labels=True):
    """Every variant's rules, data files and bots, before any folder is created; names the
    user gave (``labels``) must be safe labels."""
    from analysis.experiment_runs import build_arms
    from .validate import check_variant_name
    for name, _ in variants:
        check_variant_name(name, label=labels)
    return build_arms(g, variants, bots, players, seed, n)


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
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="a rule every variant plays with (a variant's own value wins); repeatable")
@_common_experiment_options
def compare_cmd(game, variants, variants_file, sprt, sprt_d, sprt_metric, alpha, beta, robust_, sets, games,
                bots, players, seed, jobs, chunk_size, backend, scheduler, out, quiet):
    """Compare rule variants on the same seeds (paired differences, seat-swapped pairs).

    Example: sim compare puluc --games 2e5 --variant base: --variant nine:track=9
    """
    import math

    from analysis.experiment_report import compare_text, write_compare_report
    from . import toml as TOML
    from analysis.experiment_runs import compare, load_variants_file, metric_names, parse_variant
    from .validate import GRID_MAX
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
                       backend, scheduler, out, quiet)
    if len(vs) < 2:
        raise UsageError("sim compare needs at least two --variant (the first is the reference)")
    if len(vs) > GRID_MAX:  # the memory and the time grow with every variant
        raise UsageError(f"{len(vs):,} variants: a comparison plays at most {GRID_MAX:,}, as a sweep "
                         f"does (split them over several)")
    if not 0 < alpha < 0.5 or not 0 < beta < 0.5:
        raise UsageError("--alpha and --beta must be between 0 and 0.5")
    built = _check_arms(g, vs, bots, players, seed_v, n)
    arms = built[0]
    if sprt:
        if sprt_metric not in metric_names(g, arms[0].spec.players):
            raise UsageError(f"--sprt-metric must be one of: "
                             f"{', '.join(metric_names(g, arms[0].spec.players))}")
        if not (math.isfinite(sprt_d) and 0 < sprt_d < 1e6):
            raise UsageError("--sprt-d must be a positive difference")
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


@contextmanager
def _kept_chunks(out_dir):
    """Experiments keep their finished chunks in ``out_dir/.chunks`` (analysis.checkpoints):
    the same command again into the same folder plays only the rest (and says so; a lost
    Dask cluster is told that command)."""
    from analysis.checkpoints import checkpoints
    from .faults import DaskLost
    with checkpoints(out_dir) as kept:
        try:
            yield kept
        except DaskLost as e:
            e.again = _same_command(out_dir)
            raise
    if kept.reused:
        click.echo(f"sim: resumed: {kept.reused:,} finished chunks of an earlier try were reused", err=True)


def _same_command(out_dir) -> str:
    """This command again, into ``out_dir``."""
    args = list(sys.argv[1:])
    if not any(a in ("-o", "--out") or a.startswith("--out=") for a in args):
        args += ["-o", str(out_dir)]
    return "sim " + " ".join(shlex.quote(a) for a in args)


def _experiment_status(partial: bool, out_dir=None) -> int:
    """Exit status of an experiment; a finished one drops its kept chunks, a stopped one
    says how to finish it."""
    from .runner import terminated_seen
    if out_dir is not None:
        from analysis.checkpoints import FOLDER
        kept = Path(out_dir) / FOLDER
        if not partial:
            import shutil
            shutil.rmtree(kept, ignore_errors=True)
        elif kept.is_dir():
            again = _same_command(out_dir)
            click.echo(f"sim: stopped; the finished chunks are kept in {safe(str(kept))}. "
                       f"Finish it with the same command into the same folder: {safe(again)}",
                       err=True)
    if not partial:
        return 0
    return EXIT_TERMINATED if terminated_seen() else EXIT_INTERRUPTED


def _sweep_rate(g, grid, bots, players, seed) -> float:
    """One core's games/s on the sweep's first variant (to say how long a sweep takes)."""
    from .runner import make_spec, measure_rate
    spec = make_spec(g, 1, {k: v[0] for k, v in grid}, bots, players, seed)
    ids, par = g.bot_arrays(spec.bots)
    g.run_chunk(spec.ctx, spec.players, spec.seed, 0, 0, ids, par)  # compile (or load)
    return measure_rate(g, spec.ctx, spec.players, spec.seed, ids, par)


@cli.command("sweep")
@click.argument("game")
@click.option("--param", "params", multiple=True, metavar="NAME=LO..HI[:STEP] | NAME=V1,V2",
              help="a parameter to sweep; several make a grid")
@click.option("--yes", "-y", is_flag=True,
              help="run a grid of more than 50 variants (the command says how long it takes)")
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
    from .runner import _duration
    from .validate import GRID_ASK, GRID_MAX, grid_size, parse_sweep
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
        what = (f"a grid of {size:,} variants of {n:,} games each (about {_duration(sec)} "
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
    _check_arms(g, variants, bots, players, seed_v, n, labels=False)
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


@cli.command("skill")
@click.argument("game")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="rule parameter; repeatable")
@click.option("--ladder", default=None, metavar="BOTS",
              help="balance by skill: bots from the weakest to the strongest (e.g. "
                   "random,heuristic,search:iters=100); each plays with every seat equal and "
                   "against its neighbours (Elo), and the report draws the seat and turn-order "
                   "shares and the game length against strength")
@_common_experiment_options
def skill_cmd(game, sets, ladder, games, bots, players, seed, jobs, chunk_size, backend, scheduler,
              out, quiet):
    """Round robin of bots in every seat on the same seeds: win matrix and ratings; with
    --ladder, the edges and the length against playing strength.

    Example: sim skill puluc --bots random,greedy,search --games 2e4

    Example: sim skill batam --ladder random,heuristic,search --games 2e3
    """
    from analysis.experiment_report import skill_text, write_skill_report
    from analysis.experiment_runs import skill
    from .runner import make_spec
    g = get_game(game)
    from .game import _split_bots
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
    make_spec(g, n, rules, None, p, seed_v)  # rules and data files
    if ladder is not None:
        return _ladder(game, names, games, players, seed_v, rules, jobs, chunk_size, backend,
                       scheduler, out, quiet)
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
    from analysis.ladder import ladder_text, skill_ladder
    from analysis.ladder_report import write_ladder_report
    if len(names) < 2:
        raise UsageError("sim skill --ladder needs at least two bots, weakest first")
    if len(set(names)) != len(names):
        raise UsageError("sim skill --ladder: every rung must differ: " + ", ".join(names))
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


@cli.command("strength")
@click.argument("game")
@click.option("--bot", "bot", default="search", show_default=True,
              help="the first rung: a search bot with its settings (search:iters=50)")
@click.option("--param", "param", default=None, metavar="NAME",
              help="the bot's budget parameter to climb (default: its iters)")
@click.option("--factor", type=float, default=4.0, show_default=True, help="budget multiplier per rung")
@click.option("--rungs", type=int, default=4, show_default=True, help="at most this many rungs")
@click.option("--tol", type=float, default=2.0, show_default=True,
              help="tolerance of a share between two rungs, in percentage points")
@click.option("--length-tol", type=float, default=5.0, show_default=True,
              help="tolerance of the mean length, in percent of it")
@click.option("--minutes", type=float, default=None, help="wall-time budget: no rung starts that would overrun it")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="rule parameter; repeatable")
@_common_experiment_options
def strength_cmd(game, bot, param, factor, rungs, tol, length_tol, minutes, sets, games, bots, players, seed,
                 jobs, chunk_size, backend, scheduler, out, quiet):
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
    if minutes is not None and not minutes > 0:
        raise UsageError("--minutes must be positive")
    out_dir, top = _experiment_dir(out, game, "strength")
    echo = None if quiet else (lambda line: click.echo(line, err=True))
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = climb(game, bot, n, param=param, factor=factor, rungs=rungs, tol=tol / 100,
                    length_tol=length_tol, minutes=minutes, players=players, seed=seed_v, rules=rules,
                    jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                    progress=(not quiet) and sys.stderr.isatty(), echo=echo)
        path = write_strength_report(res, out_dir)
        _experiment_manifest(out_dir, "strength", res.ladder.game, res.ladder.players, seed_v, rules,
                             [r.bot for r in res.ladder.rungs], n, res.ladder.partial)
    if not quiet:
        click.echo(strength_text(res))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.ladder.partial, out_dir)


def _command_line() -> str | None:
    """The command as typed, for a manifest (``sim`` and its quoted arguments)."""
    return "sim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None


def _experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial):
    from .output import write_experiment_manifest
    files = sorted(f.name for f in Path(out_dir).iterdir() if f.is_file() and f.name != "manifest.json")
    write_experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, files,
                              _command_line())


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
    from analysis.experiment_runs import impact
    from .params import _suggest
    from .runner import make_spec
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


@cli.command("tune")
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
    from analysis.tune import parse_params, parse_targets, tune, tune_text
    from analysis.tune_report import write_tune_report
    from .runner import make_spec, parse_games
    g = get_game(game)
    jobs, _ = _check_run_options(jobs, None, backend, None)
    if backend == "dask":
        raise UsageError("sim tune runs on loky, threading or sequential, not dask")
    seed_v = _seed(seed)
    p = g.check_players(players)
    g.choose_bots(bots, p)
    def games_of(text, option):
        try:
            return parse_games(text)
        except UsageError as e:
            raise UsageError(str(e).replace("--games", option)) from None
    n = games_of(budget, "--budget")
    fn = games_of(final_games, "--final") if final_games is not None else None
    spaces = parse_params(list(params), g)
    tg = parse_targets(list(targets), g, p)
    fixed = {next((q.name for q in g.params if k.lower().replace("-", "_") in (q.name, *q.aliases)), k): v
             for k, v in _assignments(game, sets).items()}
    held = [k for k in fixed if k in {s.name for s in spaces}]
    if held:
        raise UsageError(f"--set {held[0]} and --param {held[0]}: a parameter is either tuned or held")
    for s in spaces:  # both ends of every range (and every listed value) with the fixed rules
        ends = s.choices if s.kind == "choice" else (s.lo, s.hi)
        for v in ends:
            make_spec(g, 1, {**fixed, s.name: int(v) if s.kind == "int" else v}, bots, p, seed_v)
    out_dir, top = _experiment_dir(out, game, "tune")
    echo = None if quiet else (lambda line: click.echo(line, err=True))
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = tune(game, spaces, tg, budget=n, players=p, bots=bots, seed=seed_v, jobs=jobs,
                   backend=backend, final_games=fn, fixed=fixed, echo=echo)
        path = write_tune_report(res, out_dir)
    if not quiet:
        click.echo(tune_text(res))
    click.echo(f"variants: {safe(str(out_dir / 'variants.toml'))}")
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(res.manifest["partial"], out_dir)


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
    from analysis.experiment_runs import load_variants_file, parse_variant
    from . import toml as TOML
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
                   chunk_size, backend, scheduler, out, quiet)


def _robust(game, variants, sets, metric, early_stop, combine, games, bots, players, seed, jobs,
            chunk_size, backend, scheduler, out, quiet):
    """sim robust (and sim compare --robust): play, write the report, print the verdicts."""
    from analysis.robust import robust_text, write_robust_report
    from analysis.robust_runs import robust
    from .runner import make_spec
    g = get_game(game)
    jobs, chunk_size, n, seed_v = _check_experiment(g, games, bots, players, seed, jobs,
                                                    chunk_size, backend, scheduler)
    rules = _assignments(game, sets)
    make_spec(g, n, rules, bots, players, seed_v)  # rules, data files, bots
    if variants:
        _check_arms(g, [(k, {**rules, **v}) for k, v in variants], bots, players, seed_v, n)
    out_dir, top = _experiment_dir(out, game, "robust-compare" if variants else "robust")
    command = _command_line()
    with _cleanup_on_refusal(top), _sigterm_stops_cleanly(), _kept_chunks(out_dir):
        res = robust(game, games, rules=rules, bots=bots, players=players, seed=seed_v,
                     variants=variants, metric=metric, jobs=jobs, chunk_size=chunk_size,
                     backend=backend, scheduler=scheduler,
                     progress=(not quiet) and sys.stderr.isatty(), early_stop=early_stop,
                     combine=combine, command=command)
        path = write_robust_report(res, out_dir)
    if not quiet:
        click.echo(robust_text(res))
    click.echo(f"report: {safe(str(path))}")
    return _experiment_status(bool(res.manifest.get("partial")), out_dir)


@cli.command("games")
def games_cmd():
    """List the games."""
    for name in REGISTRY:
        g = get_game(name)
        counts = "/".join(str(p) for p in g.players)
        click.echo(f"{name:<10} {g.title} ({counts} players, version {g.version})")


@cli.command("rules")
@click.argument("game")
@click.option("--brief", is_flag=True, help="one line per parameter and bot: name, default, allowed values")
def rules_cmd(game, brief):
    """Every rule parameter of GAME with its default, allowed values and meaning.

    Example: sim rules batam --brief
    """
    g = get_game(game)
    from .seeds import seeds_dir
    doc = seeds_dir(g.name) / "RULES.md"  # where it is, in a checkout or an installed package
    click.echo(f"{g.title} (version {g.version}), {'/'.join(map(str, g.players))} players. "
               f"Rules as implemented: {doc if doc.is_file() else g.rules_doc}")
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
        width = max(len(p.name) for p in ps)
        for p in ps:
            default = ",".join(map(str, p.default)) if isinstance(p.default, tuple) else p.default
            if brief:
                click.echo(f"  {p.name:<{width}}  = {str(default):<12} {p.allowed()}")
                continue
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
    if brief:
        width = max(len(b.name) for b in g.bots)
        for b in g.bots:
            first = b.help.split(". ")[0].rstrip(".")
            click.echo(f"  {b.name:<{width}}  {first[:96] + ('...' if len(first) > 96 else '')}")
        click.echo("")
        click.echo(f"Meanings, rulebook sections and bot options: sim rules {g.name}")
        return
    for b in g.bots:
        click.echo(f"  {b.name}: {b.help}")
        for p in b.params:
            click.echo(f"      {b.name}:{p.name}=VALUE  (default {p.default}; {p.allowed()}) {p.help}")


@cli.command("show")
@click.argument("game")
@click.option("--seed", default="1", show_default=True, help="the master seed of the run")
@click.option("--game", "index", default="0", show_default=True,
              help="the index of the game in the run (0, 1, 2, ...)")
@click.option("--players", "-p", type=int, default=None, help="number of players, as the run had")
@click.option("--bots", default=None, help="bots per seat, as the run had")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="a rule parameter, as the run had")
@click.option("--html", default=None, metavar="FILE", help="also write a page with the board after each turn")
def show_cmd(game, seed, index, players, bots, sets, html):
    """Play one game of a run again, recorded, and tell it turn by turn.

    Example: sim show maya --seed 1 --game 17 --players 4 --html game17.html"""
    from analysis.show import show_game, show_text, write_show_page
    from .runner import MAX_GAMES
    g = get_game(game)
    if not g.actions:
        raise UsageError(f"{g.name} cannot record its games yet, so sim show cannot tell one")
    try:
        i = int(str(index).strip())
    except ValueError:
        raise UsageError(f"--game must be a game index such as 0 or 17, not {safe(repr(index))}") from None
    if not 0 <= i < MAX_GAMES:
        raise UsageError(f"--game must be between 0 and {MAX_GAMES - 1:.0f}, not "
                         f"{i if len(str(i)) < 30 else f'a number of {len(str(i))} digits'}")
    if html is not None:
        target = Path(html)
        if not html.strip() or target.is_dir() or not target.parent.is_dir():
            raise UsageError(f"--html {safe(html)}: not a file in an existing folder")
    shown = show_game(g, _seed(seed), i, _assignments(game, sets), bots, players)
    click.echo(show_text(shown))
    if html is not None:
        try:
            path = write_show_page(shown, Path(html))
        except OSError as e:
            raise UsageError(f"cannot write --html {safe(html)}: {safe(e.strerror or str(e))}") from None
        click.echo(f"page: {safe(str(path))}")


@cli.command("report")
@click.argument("run_dir")
def report_cmd(run_dir):
    """Rebuild the report of a saved run, comparison, sweep, impact or skill table,
    without simulating again."""
    import json

    from .lock import RunLock
    d = Path(run_dir)
    shown = safe(str(run_dir))
    if not d.is_dir():
        raise UsageError(f"{shown} is not a finished run directory (no such directory)")

    def load_json(name):
        try:
            data = json.loads((d / name).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
            why = "not valid JSON" if isinstance(e, ValueError) else getattr(e, "strerror", None) or e
            raise UsageError(f"{shown}/{name} is damaged ({safe(why)})") from None
        if not isinstance(data, dict):
            raise UsageError(f"{shown}/{name} is damaged (not a JSON object)")
        return data

    def parsed(name, parse):
        """(the JSON object of ``name``, what ``parse`` builds from it): one line if damaged."""
        data = load_json(name)
        try:
            return data, parse(data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise UsageError(f"{shown}/{name} is damaged "
                             f"({safe(type(e).__name__)}: {safe(e)})") from None

    # read and check everything first: a folder that is not a saved result is left untouched
    if (d / "robust.json").is_file():
        from analysis.robust import write_robust_report
        from analysis.robust_runs import RobustResult
        _, rres = parsed("robust.json", RobustResult.from_dict)

        def write():
            return write_robust_report(rres, d)
    elif (d / "experiment.json").is_file():
        from analysis.experiment_report import load_experiment, write_compare_report
        from analysis.impact import write_impact_report
        data, res = parsed("experiment.json", load_experiment)
        if res.kind == "impact":
            def write():
                return write_impact_report(res.game, res, d, data.get("card"))
        else:
            def write():
                return write_compare_report(res, d)
    elif (d / "skill.json").is_file():
        from analysis.experiment_report import load_skill, write_skill_report
        _, res = parsed("skill.json", load_skill)

        def write():
            return write_skill_report(res, d)
    elif (d / "strength.json").is_file():
        from analysis.converge import from_json as strength_back, write_strength_report
        _, sres = parsed("strength.json", strength_back)

        def write():
            return write_strength_report(sres, d)
    elif (d / "ladder.json").is_file():
        from analysis.ladder import from_json
        from analysis.ladder_report import write_ladder_report
        _, res = parsed("ladder.json", from_json)

        def write():
            return write_ladder_report(res, d)
    else:
        from analysis.report import write_report
        from .output import load_run
        summary, manifest = load_run(d)
        game = get_game(manifest["game"])

        def write():
            return write_report(summary, manifest, game, d)
    try:
        with RunLock(d):
            path = write()
    except OSError as e:
        from .io import is_disk_full
        if is_disk_full(e):
            raise UsageError(f"cannot write the report into {shown}: the disk is full") from None
        raise UsageError(f"cannot write the report into {shown}: "
                         f"{safe(e.strerror or str(e))}") from None
    click.echo(f"report: {safe(str(path))}")


def main():  # console-script entry point
    atexit.register(gc.freeze)  # the exit need not collect numba's objects (a second, once a kernel is loaded)
    cli()


if __name__ == "__main__":  # pragma: no cover
    main()
