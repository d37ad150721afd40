"""Every kind of saved result, in one table: the file a result folder is known by, how it is
read back, and how its report is written (``sim report DIR`` rebuilds any of them; each
command writes that file through the same writer).  A run (``summary.json``, ``run.json``)
is the last entry: a folder that holds none of the others is read as a run."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Kind:
    name: str
    file: str                                  # the JSON that marks and rebuilds the folder
    load: Callable[[dict], object]             # its object, from the file's JSON
    write: Callable[[object, dict, object], object]   # (object, JSON, folder) -> index.html


def _robust():
    from .robust import write_robust_report
    from .robust_runs import RobustResult
    return RobustResult.from_dict, lambda res, data, d: write_robust_report(res, d)


def _experiment():
    from .experiment_report import load_experiment, write_compare_report
    from .impact import write_impact_report

    def write(res, data, d):
        if res.kind == "impact":
            return write_impact_report(res.game, res, d, data.get("card"))
        return write_compare_report(res, d)
    return load_experiment, write


def _skill():
    from .experiment_report import load_skill, write_skill_report
    return load_skill, lambda res, data, d: write_skill_report(res, d)


def _tune():
    from .tune_report import tune_from_json, write_tune_report
    return tune_from_json, lambda res, data, d: write_tune_report(res, d)


def _strength():
    from .converge import from_json, write_strength_report
    return from_json, lambda res, data, d: write_strength_report(res, d)


def _ladder():
    from .ladder import from_json
    from .ladder_report import write_ladder_report
    return from_json, lambda res, data, d: write_ladder_report(res, d)


def _lazy(make, which: int):
    """The loader (0) or the writer (1) of a kind, imported when first called."""
    return lambda *a: make()[which](*a)


#: in the order a folder is tried: robust folders also hold an experiment's files
KINDS = tuple(Kind(name, file, _lazy(make, 0), _lazy(make, 1)) for name, file, make in (
    ("robust", "robust.json", _robust),
    ("compare, sweep or impact", "experiment.json", _experiment),
    ("skill", "skill.json", _skill),
    ("tune", "tune.json", _tune),
    ("strength", "strength.json", _strength),
    ("ladder", "ladder.json", _ladder),
))


def kind_of(folder) -> Kind | None:
    """The kind of the result saved in ``folder`` (None: a run, or nothing saved)."""
    from pathlib import Path
    return next((k for k in KINDS if (Path(folder) / k.file).is_file()), None)
