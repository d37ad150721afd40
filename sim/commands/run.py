"""``sim GAME``: a run (the options, the long-run and disk checks, resume, the final save and
report), one command per registered game."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from ..params import UsageError, parse_assignments
from ..validate import safe
from .common import (
    EXIT_FAILED, EXIT_INTERRUPTED, EXIT_TERMINATED, _assignments, _check_run_options, _cleanup_on_refusal,
    _command_line, _given, _note, _sigterm_stops_cleanly)

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
    @click.option("--evaluate", is_flag=True,
                  help="how it plays: follow each side's learned chance of winning at every position "
                       "(lead changes, drama, decisiveness, stability, uncertainty; the game's value "
                       "model, trained first where none is kept; slower)")
    def cmd(games, sets, bots, players, seed, jobs, chunk_size, backend, scheduler, out, resume, raw,
            csv, quiet, record, yes, evaluate):
        from ..lock import RunLock
        from ..output import default_run_dir, save_run
        from ..parallel import plan_chunks
        from ..resources import check_disk, check_memory
        from ..spec import make_spec
        from ..stops import Stop
        from ..worker import release_workers
        from ..validate import check_chunk_count, check_out_dir, create_out_dir
        jobs, chunk_size = _check_run_options(jobs, chunk_size, backend, scheduler)
        if resume is not None:
            if not resume.strip():
                raise UsageError("--resume: the path is empty")
            spec, rows, meta = _spec_from_run_dir(name, resume)
            _check_resume_options(name, resume, spec, rows, meta, games=games, sets=sets, bots=bots,
                                  players=players, seed=seed, out=out, raw=raw,
                                  chunk_size=chunk_size, evaluate=evaluate)
            out = resume
        else:
            spec = make_spec(name, games, _assignments(name, sets), bots, players, seed, evaluate=evaluate)
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
        from ..store import ChunkStore
        saved = ChunkStore(out_dir).check(spec, rows) if out_dir.is_dir() else None  # another run?
        if not saved:
            check_chunk_count(spec.games, chunk_size)
        plan = plan_chunks(spec.games, saved or chunk_size, jobs)
        check_disk(spec, out_dir, rows, len(plan), csv)
        progress = (not quiet) and sys.stderr.isatty()
        rate = None  # one core's games/s, where the long-run check (or a worker) measured it
        warm = None
        if not saved and backend != "dask":
            from ..longrun import check_long_run
            from ..prestart import prestart
            try:
                warm = prestart(spec, jobs, backend)  # the workers start now
                if warm is not None:
                    from ..runner import _compile_notice
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
                from ..record import RECORDS, record_run, save_records
                save_records(out_dir / RECORDS, record_run(spec.game, recorded, spec=spec))
                result.manifest["recorded_games"] = {"file": RECORDS, "games": len(recorded)}
            return _finish_run(name, result, out_dir, csv, quiet, resume_hint, save_run, Stop)
    return cmd


def _during_games(warm, spec):
    """What the main process loads once the first chunk is in, while the workers play on:
    the report's modules, and the kernel where only the workers loaded it (sim.prestart)."""
    from ..preload import importer
    steps = [importer("analysis.report")]
    if warm is not None:
        steps.append(warm.load_here(spec))
    return lambda: [step() for step in steps]


def _check_record(spec, record, resume) -> list[int]:
    """The game indices of --record, checked before anything runs."""
    if record is None:
        return []
    from ..record import parse_indices
    if resume is not None:
        raise UsageError("--record cannot be added to a --resume: record the games with a new run "
                         "or `sim show`")
    if not spec.game.actions:
        raise UsageError(f"{spec.game.name} cannot record its games yet (its kernel records no actions)")
    return parse_indices(record, spec.games)


def execute_cli(spec, **kw):
    from ..runner import execute
    return execute(spec, **kw)


def _finish_run(name, result, out_dir, csv, quiet, resume_hint, save_run, Stop):
    """Save what the run finished and say how it ended (and how to finish it)."""
    from ..io import is_disk_full
    from ..resources import REPORT_BYTES, _size
    from ..stops import Terminated
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
    from ..spec import make_spec
    from ..store import read_run_record
    d = Path(run_dir)
    if not d.is_dir():
        raise UsageError(f"--resume {safe(str(run_dir))}: no such run directory, so nothing to resume")
    if not (d / "run.json").exists():
        raise UsageError(f"--resume {safe(str(run_dir))}: no run.json there, so nothing to resume")
    meta = read_run_record(d)
    fp = meta["fingerprint"]
    if fp["game"] != name:
        raise UsageError(f"--resume {safe(str(run_dir))}: that is a {safe(fp['game'])} run, not {name}")
    spec = make_spec(name, fp["games"], fp["rules"], fp["bots"], fp["players"], fp["seed"],
                     evaluate=bool(fp.get("evaluate", False)))
    return spec, meta.get("rows", "none"), meta


def _check_resume_options(name, run_dir, spec, rows, meta, **given):
    """``--resume DIR`` continues the run saved in DIR: an option that would change its
    results (or where they go) and disagrees with the saved run is refused."""
    from ..spec import make_spec, parse_games, parse_seed
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
    if _given("evaluate") and bool(given["evaluate"]) != bool(saved.get("evaluate", False)):
        differs("--evaluate", "", "no evaluation")
    if _given("chunk_size") and given["chunk_size"] != meta["chunk_size"]:
        differs("--chunk-size", given["chunk_size"], meta["chunk_size"])
    if problems:
        raise UsageError(f"--resume {safe(str(run_dir))} continues the run saved there, which "
                         f"{'; '.join(problems)} disagrees: drop the option (only --jobs, --backend, "
                         "--scheduler, --csv and --quiet may be added), or start a new run")


def _canon(spec, assignment: str) -> str:
    """The declared name of the parameter an assignment ``NAME=VALUE`` sets (aliases too)."""
    key = assignment.split("=", 1)[0]
    return spec.game.param_name(key) or key.strip().lower().replace("-", "_")
