"""What every command shares: the one-line notes, SIGTERM as Ctrl-C, a refused command's folder
removed again, the options every experiment takes and their checks, the experiment's folder,
its exit status and manifest."""
from __future__ import annotations

import shlex
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import click

from ..api_common import _check_arms  # noqa: F401 (the commands' check of every variant: the API's)
from ..games import get as get_game
from ..params import UsageError, parse_assignments
from ..validate import safe

EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 1, 2, 130, 143


def _note(text: str) -> None:
    click.echo(f"sim: {safe(text)}", err=True)


def _raise_terminated(signum, frame):
    from ..runner import Terminated, note_terminated
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
    from ..api import _check_run
    return _check_run(jobs, chunk_size, backend, scheduler, _note)


def _assignments(game: str, sets, what: str = "--set") -> dict:
    """``--set`` values as a dict, refusing a parameter set twice (under any of its names)."""
    out = parse_assignments(sets, what)
    g = get_game(game)
    seen = {}
    for a in sets:
        key = a.split("=", 1)[0]
        name = g.param_name(key) or key.strip().lower().replace("-", "_")
        if name in seen:
            raise UsageError(f"{what} {safe(name)} is given twice ({safe(seen[name])!r} and "
                             f"{safe(a)!r}); give each parameter once")
        seen[name] = a
    return out


def _over(g, base: dict, rules: dict) -> dict:
    """A variant's rules over the ``--set`` ones every variant shares (its own value wins,
    whichever name of the parameter either uses)."""
    def canon(k):
        return g.param_name(k) or str(k).strip().lower().replace("-", "_")
    own = {canon(k) for k in rules}
    return {**{k: v for k, v in base.items() if canon(k) not in own}, **rules}


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
    from ..validate import check_out_dir, create_out_dir
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
    from ..runner import parse_seed
    return parse_seed(seed)


def _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler):
    """The options every experiment shares, checked as a run checks them (the API's)."""
    from ..api import _check_experiment as checked
    return checked(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler, _note)[:4]


@contextmanager
def _kept_chunks(out_dir):
    """Experiments keep their finished chunks in ``out_dir/.chunks`` (analysis.checkpoints):
    the same command again into the same folder plays only the rest (and says so; a lost
    Dask cluster is told that command)."""
    from analysis.checkpoints import checkpoints
    from ..faults import DaskLost
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
    from ..runner import terminated_seen
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


def _command_line() -> str | None:
    """The command as typed, for a manifest (``sim`` and its quoted arguments)."""
    return "sim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None


def _experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial):
    from ..output import write_experiment_manifest
    files = sorted(f.name for f in Path(out_dir).iterdir() if f.is_file() and f.name != "manifest.json")
    write_experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, files,
                              _command_line())
