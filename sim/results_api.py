"""The typed results of the Python API (:mod:`sim.api`).

Every result has the same four faces:

* ``frame``: a pandas DataFrame (a run's games, one row each; an experiment's table);
* ``summary``: the headline figures (a dict, or a small DataFrame);
* ``verdicts``: the plain-language sentences the command's report prints, as a list;
* ``write_report(path)``: the HTML report the command writes (``index.html`` in ``path``).

and keeps the library's own result object in ``result`` (for everything else).  Nothing here
imports the analysis layer: :mod:`sim.api` builds each result and hands it the function that
writes its report (as ``save_run`` is handed the run report by the command line).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .params import UsageError


@dataclass(repr=False, kw_only=True)
class _Result:
    game: str
    frame: Any
    summary: Any
    verdicts: list
    manifest: dict = field(default_factory=dict)
    partial: bool = False
    result: Any = None
    _write: Callable | None = None
    #: what kind of folder the report goes into (sim.validate.check_out_dir)
    _folder = "experiment"

    def write_report(self, path) -> Path:
        """Write the command's HTML report into the folder ``path`` (created; a folder that
        holds someone else's files is refused, as ``--out`` refuses it); returns the path of
        its ``index.html``."""
        import os

        from .validate import check_out_dir, create_out_dir, safe
        if self._write is None:
            raise UsageError(f"this {type(self).__name__} has no report to write")
        if not isinstance(path, (str, os.PathLike)):
            raise UsageError(f"write_report takes a folder's path (a string or a pathlib.Path), not "
                             f"{safe(repr(path))[:60]}")
        if not str(path).strip():
            raise UsageError("write_report: the path is empty")
        try:
            checked = check_out_dir(Path(path), self._folder)
        except UsageError as e:  # the command line's words for its --out
            text = str(e)
            raise type(e)("write_report: " + text[len("--out "):] if text.startswith("--out ") else text) from None
        out, _ = create_out_dir(checked)
        return Path(self._write(out))

    def __repr__(self) -> str:
        shape = getattr(self.frame, "shape", None)
        size = f"frame {shape[0]:,} x {shape[1]}" if shape else "no frame"
        first = f"\n  {self.verdicts[0]}" if self.verdicts else ""
        more = f"\n  ... {len(self.verdicts) - 1} more in .verdicts" if len(self.verdicts) > 1 else ""
        return (f"<{type(self).__name__} {self.game}: {size}"
                + (" (PARTIAL: stopped before the end)" if self.partial else "") + f">{first}{more}")


@dataclass(repr=False, kw_only=True)
class RunResult(_Result):
    """:func:`sim.api.simulate`: ``frame`` has one row per game, the per-seat columns named
    after the seats (``win_Jade``, ``kills_Cinnabar``), ``end_reason`` a Categorical of the
    game's end reasons and ``capped`` a bool; ``raw`` is the frame as the engine returns it
    (``win_0``, ``end_reason`` as int8 codes); ``stats`` the merged statistics
    (:class:`sim.summary.Summary`)."""

    raw: Any = None
    stats: Any = None
    _folder = "run"


@dataclass(repr=False, kw_only=True)
class CompareResult(_Result):
    """:func:`sim.api.compare`: ``frame`` has one row per (metric, variant) with the value,
    its 95% interval, the paired difference from the first variant and its p-value, the keys
    naming the seats (``win Jade``, as a run's ``win_Jade`` column); ``turn_order`` one row per
    (variant, turn-order position): its share of every game and of the decisive ones."""

    variants: list = field(default_factory=list)
    turn_order: Any = None


@dataclass(repr=False, kw_only=True)
class SweepResult(CompareResult):
    """:func:`sim.api.sweep`: as a comparison, one variant per point of the grid."""

    grid: list = field(default_factory=list)


@dataclass(repr=False, kw_only=True)
class SkillResult(_Result):
    """:func:`sim.api.skill`: ``frame`` has one row per bot (rating with its 95% interval);
    ``matrix`` the score of each row bot against each column bot."""

    matrix: Any = None


@dataclass(repr=False, kw_only=True)
class LadderResult(_Result):
    """:func:`sim.api.ladder`: ``frame`` has one row per rung, weakest first (Elo, the first
    side's score, each side's share, draws, capped games, length); ``pairs`` the neighbouring
    rungs' head-to-head scores."""

    pairs: Any = None


@dataclass(repr=False, kw_only=True)
class StrengthResult(_Result):
    """:func:`sim.api.strength`: ``frame`` has one row per step of the budget and headline
    (the change, its 95% interval, the tolerance, inside or not); ``summary`` says where the
    verdict settled (or why it did not) and the strongest rung's first-side score; ``rungs``
    the rungs as a ladder frame."""

    rungs: Any = None


@dataclass(repr=False, kw_only=True)
class ImpactResult(_Result):
    """:func:`sim.api.impact`: ``frame`` has one row per changed card (the causal effect on the
    same seeds) or, without a card, the observational table; ``observational`` always the
    latter."""

    observational: Any = None


@dataclass(repr=False, kw_only=True)
class RobustResult(_Result):
    """:func:`sim.api.robust`: ``frame`` has one row per (headline, condition): value, swing
    against the baseline on the same games, its interval and status; ``summary`` one row per
    headline with its verdict."""


@dataclass(repr=False, kw_only=True)
class TuneResult(_Result):
    """:func:`sim.api.tune`: ``frame`` has one row per candidate the search evaluated;
    ``summary`` the re-played best candidates beside the rulebook; ``notes`` the guard rails."""

    notes: list = field(default_factory=list)


@dataclass(repr=False, kw_only=True)
class ShowResult(_Result):
    """:func:`sim.api.show`: ``lines`` the game told turn by turn, ``frame`` one row per turn
    (its text and the board after it), ``text`` what ``sim show`` prints."""

    lines: list = field(default_factory=list)
    text: str = ""

    def write_report(self, path) -> Path:
        """Write the game's page (``sim show --html``): to ``path`` where it names an
        ``.html`` file, else to ``index.html`` in the folder ``path`` (created)."""
        from .validate import safe
        if path is None or not str(path).strip():
            raise UsageError("write_report: the path is empty")
        p = Path(path)
        if p.suffix.lower() not in (".html", ".htm"):
            if p.exists() and not p.is_dir():
                raise UsageError(f"write_report {safe(str(p))}: a file that is not a page")
            p.mkdir(parents=True, exist_ok=True)
            p = p / "index.html"
        elif p.is_dir() or not p.parent.is_dir():
            raise UsageError(f"--html {safe(str(path))}: not a file in an existing folder")
        return Path(self._write(p))
