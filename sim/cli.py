"""The ``sim`` command: the group, its one-line errors, and where each command lives.

    sim puluc --games 1e6 --set track=9 --bots greedy,random
    sim rules puluc
    sim report reports/puluc-base-20261129-120000

One module per command in ``sim/commands/`` (``run`` for ``sim GAME``, one per experiment,
``info`` for games/rules/show, ``report``), shared helpers in ``sim.commands.common``; a
command's module is imported when the command is looked up (``LazyGroup``), and each
imports the heavy libraries inside its function only, so ``sim --help`` stays fast.

Exit status: 0 done; 2 bad input (one line, nothing written); 130 stopped by Ctrl-C and
143 by SIGTERM (finished chunks kept, a partial report); 1 a run that could not finish
(a worker process died, the disk is full: finished chunks kept, the line says how to
resume).
"""
from __future__ import annotations

import atexit
import gc
import importlib
import sys

import click

from . import __version__
from .commands.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USAGE
from .games import REGISTRY
from .params import UsageError
from .validate import safe

#: command name -> "module:function" under sim.commands (``sim GAME``: sim.commands.run)
COMMANDS = {
    "compare": "compare:compare_cmd", "sweep": "compare:sweep_cmd",
    "skill": "skill:skill_cmd", "strength": "skill:strength_cmd",
    "impact": "impact:impact_cmd", "tune": "tune:tune_cmd", "robust": "robust:robust_cmd",
    "games": "info:games_cmd", "rules": "info:rules_cmd", "show": "info:show_cmd",
    "report": "report:report_cmd", "learn": "learn:learn_cmd",
}


class OneLineErrors(click.Group):
    """Bad input: one line on stderr and exit status 2, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from .parallel import log_progress  # a log (stderr not a terminal) gets progress lines
        argv = sys.argv[1:] if args is None else list(args)
        log_progress(not ({"-q", "--quiet"} & set(map(str, argv))))
        try:
            return self._main(args, prog_name, complete_var, standalone_mode, **extra)
        finally:
            log_progress(False)  # the Python API in the same process draws progress only when asked

    def _main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from .faults import DaskLost
        from .mplconfig import ensure
        from .stops import Terminated
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
        except (click.Abort, KeyboardInterrupt) as e:
            term = isinstance(e.__cause__, Terminated)  # click turns a SIGTERM's stop into Abort
            click.echo("sim: terminated" if term else "sim: aborted", err=True)
            if standalone_mode:
                sys.exit(EXIT_TERMINATED if term else EXIT_INTERRUPTED)
            raise
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv

    def list_commands(self, ctx):
        return sorted(set(self.commands) | set(COMMANDS) | set(REGISTRY))

    def get_command(self, ctx, name):
        if name in self.commands:  # added by hand (the tests' toy game)
            return self.commands[name]
        if name in COMMANDS:
            mod, _, fn = COMMANDS[name].partition(":")
            return getattr(importlib.import_module(f"sim.commands.{mod}"), fn)
        if name in REGISTRY:
            from .commands.run import _run_command
            return _run_command(name)
        return None


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sim")
def cli():
    """Monte Carlo balance analysis for board games.

    Run `sim GAME --games N` to simulate, `sim rules GAME` to see the rule
    parameters, `sim games` for the list of games.
    """


def main():  # console-script entry point
    atexit.register(gc.freeze)  # the exit need not collect numba's objects (a second, once a kernel is loaded)
    try:
        cli()
    except SystemExit as e:
        if e.code in (EXIT_INTERRUPTED, EXIT_TERMINATED):  # stopped: a second Ctrl-C while the process
            import signal                                  # ends (its threads finishing) is not a traceback
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise


if __name__ == "__main__":  # pragma: no cover
    main()
