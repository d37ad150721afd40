"""What every command shares: the one-line notes, SIGTERM as Ctrl-C, a refused command's folder
removed again, the options every experiment takes and their checks, the experiment's folder
(its record and writer lock: one experiment per folder, one process at a time), its exit
status and manifest."""
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
    from ..stops import Terminated, note_terminated
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
    (nothing written on bad input); not where another process holds it (it may have created
    it at the same moment, and writes there)."""
    from ..lock import Busy
    try:
        yield
    except UsageError as e:
        if top is not None and not isinstance(e, Busy):
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


#: options that say how an experiment is played, not what it plays (its figures do not depend
#: on them): a stopped experiment may be finished with others
_HOW = frozenset({"jobs", "chunk_size", "backend", "scheduler", "out", "quiet", "yes", "minutes"})
#: the record each experiment folder was checked against (by _experiment_dir), for _kept_chunks
_wanted: dict = {}


def _canonical(name: str, value):
    """An option's value as the record keeps it: numbers of games and seeds as numbers (1e5 and
    100000 are the same), a game by its name, repeated options as lists (``--set`` sorted)."""
    from ..games import REGISTRY
    from ..spec import parse_seed
    from ..spec import parse_games
    try:
        if name in ("games", "budget", "final_games") and isinstance(value, str):
            return parse_games(value)
        if name == "seed" and value is not None:
            return parse_seed(value)
    except UsageError:
        return value
    if name in ("game", "what") and isinstance(value, str) and value in REGISTRY:
        return get_game(value).name
    if isinstance(value, (tuple, list)):
        return sorted(map(str, value)) if name == "sets" else [str(v) for v in value]
    return value


def _record(game, kind) -> dict:
    """What an experiment folder is to hold: the kind, the game and every option that its
    figures depend on (as typed, numbers of games and seeds as numbers)."""
    import json
    ctx = click.get_current_context(silent=True)
    settings = {}
    if ctx is not None:
        settings = {k: _canonical(k, v) for k, v in sorted(ctx.params.items()) if k not in _HOW}
    return json.loads(json.dumps({"tool": "sim", "format": 1, "kind": kind, "game": get_game(game).name,
                                  "command": _command_line(), "settings": settings, "finished": False},
                                 default=str))


def _option(name: str) -> str:
    """How the user types option ``name`` of the current command (``--games``)."""
    ctx = click.get_current_context(silent=True)
    for p in (ctx.command.params if ctx is not None else ()):
        if p.name == name:
            return next((o for o in p.opts if o.startswith("--")), p.opts[0] if p.opts else name)
    return name


def _shown(value) -> str:
    text = "(none)" if value in (None, [], False) else " ".join(map(str, value)) if isinstance(value, list) \
        else "yes" if value is True else str(value)
    return safe(text if len(text) <= 60 else text[:57] + "...")


def _differences(have: dict, want: dict) -> str:
    """The settings in which the folder's experiment differs from this one, in words."""
    said = []
    if have.get("game") != want["game"]:
        said.append(f"game {safe(want['game'])} here, {safe(str(have.get('game')))} there")
    a, b = have.get("settings") or {}, want["settings"]
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            said.append(f"{safe(_option(k))} {_shown(b.get(k))} here, {_shown(a.get(k))} there")
    return "; ".join(said[:3]) + (f"; {len(said) - 3} more" if len(said) > 3 else "")


def _check_record(path, want: dict) -> bool:
    """Check the folder ``path`` against the experiment about to be played there (``want``,
    from :func:`_record`), without writing anything.  True: it holds this same experiment,
    stopped, to be finished (its kept chunks are reused); False: it holds nothing yet.
    Refused: an experiment of another kind, game or settings, this one finished, or one of
    an earlier sim (no record) that is not a stopped experiment of the same kind."""
    from ..validate import _family, _json_obj, dir_kind, held_kind, kind_words, read_record
    p = Path(path)
    shown = safe(str(path))
    if dir_kind(p) in ("missing", "empty"):
        return False
    what = kind_words(want["kind"])
    have = read_record(p)
    if have is None:
        kind = held_kind(p)
        if kind is not None and _family(kind) != _family(want["kind"]):
            raise UsageError(f"--out {shown} holds a {kind_words(kind)} of sim; a {what} goes into a folder "
                             "of its own: choose another --out")
        man = _json_obj(p / "manifest.json")
        if (p / ".chunks").is_dir() and (man is None or man.get("partial")):
            return True  # a stopped experiment of an earlier sim: resumed as before
        raise UsageError(f"--out {shown} already holds a {kind_words(kind or want['kind'])} of sim, without a "
                         "record of its settings (an earlier sim's, or the Python API's): choose another --out")
    if have["kind"] != want["kind"]:
        raise UsageError(f"--out {shown} holds a {kind_words(have['kind'])} of sim; a {what} goes into a "
                         "folder of its own: choose another --out")
    diff = _differences(have, want)
    if diff:
        again = "" if have.get("finished") else " (or finish it: give the same settings)"
        raise UsageError(f"--out {shown} holds a {what} of sim with other settings ({diff}): choose another "
                         f"--out{again}")
    if have.get("finished"):
        raise UsageError(f"--out {shown} already holds this {what}, finished (its page: "
                         f"{safe(str(p / 'index.html'))}); to play it again choose another --out "
                         f"(sim report {shown} rebuilds its page)")
    return True


def _key(out_dir) -> str:
    import os
    return os.path.abspath(str(out_dir))


def _experiment_dir(out, game, kind):
    """The report folder of an experiment, checked (not a user's folder, not a run, not
    another experiment: :func:`_check_record`) and created; returns it and the topmost folder
    created (removed again on a refusal)."""
    from ..validate import check_out_dir, create_out_dir
    if out is not None:
        if not out.strip():
            raise UsageError("--out: the path is empty")
        path = Path(out)
    else:
        path = stamped_dir(game, kind)
    check_out_dir(path, "experiment")
    want = _record(game, kind)
    _check_record(path, want)  # before anything is created (again under the lock: _kept_chunks)
    made = create_out_dir(path)
    _wanted[_key(made[0])] = want
    return made


def stamped_dir(game: str, kind: str) -> Path:
    """The default report folder of a command: ``reports/<game>-<kind>-<time>``, with a count
    after the time where that folder exists already."""
    from datetime import datetime
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = Path("reports") / f"{game}-{kind}-{stamp}"
    k = 1
    while path.exists():
        k += 1
        path = Path("reports") / f"{game}-{kind}-{stamp}-{k}"
    return path


def _seed(seed):
    from ..spec import parse_seed
    return parse_seed(seed)


def _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler):
    """The options every experiment shares, checked as a run checks them (the API's)."""
    from ..api import _check_experiment as checked
    return checked(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler, _note)[:4]


@contextmanager
def _kept_chunks(out_dir):
    """An experiment's work in its folder: the folder's writer lock (``sim.lock``: a second
    process into it is refused) held until the command ends, the folder's record checked
    again under it and written (:func:`_check_record`), and the finished chunks kept in
    ``out_dir/.chunks`` (analysis.checkpoints): the same command again into the same folder
    plays only the rest (and says so; a lost Dask cluster is told that command).  Stopped
    (Ctrl-C, SIGTERM) where the command does not catch it, while it writes its report say, it
    removes the report begun, keeps the chunks and says how to finish, with the exit status
    of a stopped run (130, or 143 for SIGTERM)."""
    from analysis.checkpoints import checkpoints
    from ..faults import DaskLost
    from ..lock import RunLock
    from ..validate import RECORD
    lock = RunLock(out_dir).acquire()
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(lock.release)  # held until the command has said how it ended
    new = False
    try:
        want = _wanted.pop(_key(out_dir), None)
        if want is not None and not _check_record(out_dir, want):
            from ..io import write_json
            write_json(Path(out_dir) / RECORD, want)
            new = True
        before = _files(out_dir)
        with checkpoints(out_dir) as kept:
            try:
                yield kept
            except DaskLost as e:
                e.again = _same_command(out_dir)
                raise
            except UsageError:
                if new:
                    _drop_record(out_dir)
                raise
            except KeyboardInterrupt as e:
                _stopped(out_dir, e, before, new)
    finally:
        if ctx is None:
            lock.release()
    _sigint_held(ctx)
    if kept.reused:
        click.echo(f"sim: resumed: {kept.reused:,} finished chunks of an earlier try were reused", err=True)


def _sigint_held(ctx) -> None:
    """The report is written: a Ctrl-C now (a second one, say, after the first stopped the games)
    waits until the command has said how it ended and how to finish it."""
    import signal
    if ctx is None or threading.current_thread() is not threading.main_thread():
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    ctx.call_on_close(lambda: signal.signal(signal.SIGINT, signal.SIG_DFL if old is None else old))


def _files(out_dir) -> dict:
    """The files of a folder (not its hidden ones) and when each was last written."""
    try:
        return {f.name: f.stat().st_mtime_ns for f in Path(out_dir).iterdir()
                if f.is_file() and not f.name.startswith(".")}
    except OSError:
        return {}


def _drop_record(out_dir) -> None:
    from ..validate import RECORD
    try:
        (Path(out_dir) / RECORD).unlink()
    except OSError:
        pass


def _stopped(out_dir, e, before: dict, new: bool):
    """Ctrl-C or SIGTERM came through the experiment (while it wrote its report, say): the
    report begun is removed (a page, or a lone figure, beside the kept chunks would not be
    this experiment's), the finished chunks are kept, and the line says how to finish it;
    exit status 130, or 143 for SIGTERM."""
    import signal

    from ..stops import Terminated, terminated_seen
    code = EXIT_TERMINATED if isinstance(e, Terminated) or terminated_seen() else EXIT_INTERRUPTED
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None  # another Ctrl-C: the same stop
    try:
        _say_stopped(out_dir, code, before, new)
    finally:
        if main and old is not None:
            signal.signal(signal.SIGINT, old)
    raise click.exceptions.Exit(code) from None


def _say_stopped(out_dir, code: int, before: dict, new: bool) -> None:
    from analysis.checkpoints import FOLDER
    why = "terminated" if code == EXIT_TERMINATED else "interrupted"
    now = _files(out_dir)
    begun = [n for n, t in now.items() if before.get(n) != t]
    if begun:  # the report of this try was begun: none of the folder's pages and figures hold
        for n in now:
            try:
                (Path(out_dir) / n).unlink()
            except OSError:
                pass
    kept = Path(out_dir) / FOLDER
    try:
        chunks = kept.is_dir() and any(kept.rglob("*.json"))
    except OSError:
        chunks = False
    again = safe(_same_command(out_dir))
    gone = "; the report it had begun is removed" if begun else ""
    if chunks:
        click.echo(f"sim: {why}{gone}; the finished chunks are kept in {safe(str(kept))}. Finish it with the "
                   f"same command into the same folder: {again}", err=True)
    else:
        if new:
            _drop_record(out_dir)
        click.echo(f"sim: {why} before a chunk finished{gone}: nothing to keep. Start it again with: {again}",
                   err=True)


def _same_command(out_dir) -> str:
    """This command again, into ``out_dir``."""
    args = list(sys.argv[1:])
    if not any(a in ("-o", "--out") or a.startswith("--out=") for a in args):
        args += ["-o", str(out_dir)]
    return "sim " + " ".join(shlex.quote(a) for a in args)


def _experiment_status(partial: bool, out_dir=None) -> int:
    """Exit status of an experiment; a finished one drops its kept chunks, a stopped one
    says how to finish it."""
    from ..stops import terminated_seen
    if out_dir is not None:
        from analysis.checkpoints import FOLDER
        kept = Path(out_dir) / FOLDER
        if not partial:
            import shutil
            shutil.rmtree(kept, ignore_errors=True)
            _finished(out_dir)
        elif kept.is_dir():
            again = _same_command(out_dir)
            click.echo(f"sim: stopped; the finished chunks are kept in {safe(str(kept))}. "
                       f"Finish it with the same command into the same folder: {safe(again)}",
                       err=True)
    if not partial:
        return 0
    return EXIT_TERMINATED if terminated_seen() else EXIT_INTERRUPTED


def _finished(out_dir) -> None:
    """Mark the folder's record finished: the same command again is then refused, not
    played over it."""
    from ..io import write_json
    from ..validate import RECORD, read_record
    rec = read_record(out_dir)
    if rec is not None and not rec.get("finished"):
        write_json(Path(out_dir) / RECORD, {**rec, "finished": True})


def _command_line() -> str | None:
    """The command as typed, for a manifest (``sim`` and its quoted arguments)."""
    return "sim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None


def _experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, model=None):
    from ..output import write_experiment_manifest
    files = sorted(f.name for f in Path(out_dir).iterdir()
                   if f.is_file() and f.name != "manifest.json" and not f.name.startswith("."))
    write_experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, files,
                              _command_line(), model)
