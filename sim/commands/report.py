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
    elif (d / "tune.json").is_file():
        from analysis.tune_report import tune_from_json, write_tune_report
        _, tres = parsed("tune.json", tune_from_json)

        def write():
            return write_tune_report(tres, d)
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
