"""``sim report DIR``: rebuild the report of any saved result without simulating again."""
from __future__ import annotations

from pathlib import Path

import click

from ..games import get as get_game
from ..params import UsageError
from ..validate import safe


@click.command("report")
@click.argument("run_dir")
def report_cmd(run_dir):
    """Rebuild the report of a saved run, comparison, sweep, impact, skill table, ladder,
    strength climb, robustness check or tune search, without simulating again."""
    import json

    from ..lock import RunLock
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
    from analysis.kinds import kind_of
    kind = kind_of(d)
    if kind is not None:
        data, res = parsed(kind.file, kind.load)
        from ..validate import check_result_folder
        check_result_folder(d, kind.file)  # not a page over the files of two experiments

        def write():
            return kind.write(res, data, d)
    else:
        from analysis.report import write_report
        from ..output import load_run
        summary, manifest = load_run(d)
        game = get_game(manifest["game"])

        def write():
            return write_report(summary, manifest, game, d)
    try:
        with RunLock(d):
            path = write()
    except OSError as e:
        from ..io import is_disk_full
        if is_disk_full(e):
            raise UsageError(f"cannot write the report into {shown}: the disk is full") from None
        raise UsageError(f"cannot write the report into {shown}: "
                         f"{safe(e.strerror or str(e))}") from None
    click.echo(f"report: {safe(str(path))}")
