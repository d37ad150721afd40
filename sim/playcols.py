"""How a game plays (issue #47): the result columns a game declares for it, and how they are
made from the counts its kernel keeps (``sim/howplays.py``).

A game that counts its choices adds ``COMPLEXITY`` to its columns and builds them with
``complexity_columns(cx, players)`` from the kernel's per-game ``cx`` rows; a game that can
follow a win probability per position adds ``EVALUATION`` and builds them with
``evaluation_columns(ev, count)`` from ``ev_finish``'s rows (NaN where a figure does not
exist; ``ev`` None: the run was not evaluated).
Every column is an integer (the summary keeps exact histograms) in the unit its ``Metric``
states; -1 marks a game without the figure (no decision at all; not evaluated; no single
winning side), and such games are left out of its histogram (``ABSENT``).

``METRICS`` says, for the report, what each column means and how to show it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .game import Column
from .howplays import CX_DEC, CX_FORCED, CX_MAX, CX_OPTS, EV_NAMES


@dataclass(frozen=True)
class Metric:
    column: str
    label: str
    scale: float          # the column's integer / scale = the figure in ``unit``
    unit: str
    definition: str
    group: str            # "complexity" or "evaluation"


METRICS = (
    Metric("decisions", "decisions per game (a seat)", 1, "choices",
           "choices with more than one legal option, per seat", "complexity"),
    Metric("forced", "forced moves per game (a seat)", 1, "choices",
           "choices with exactly one legal option, per seat", "complexity"),
    Metric("decision_share", "decision moves", 10, "% of choices",
           "the share of a game's choices that had more than one legal option", "complexity"),
    Metric("branching", "branching factor", 100, "options per choice",
           "the mean number of legal options at a game's choices, forced ones included", "complexity"),
    Metric("decision_factor", "decision factor", 100, "options per decision",
           "the mean number of legal options at a game's real decisions (more than one option)",
           "complexity"),
    Metric("options_max", "largest choice", 1, "options",
           "the most legal options any one choice of the game had", "complexity"),
    Metric("ev_changes", "lead changes", 1, "per game",
           "how many times the side most likely to win changed hands", "evaluation"),
    Metric("ev_drama", "drama", 10, "points",
           "how far, on average over the game, the eventual winner's chance of winning lay below "
           "the favourite's", "evaluation"),
    Metric("ev_drama_max", "largest deficit", 10, "points",
           "the most the eventual winner's chance ever lay below the favourite's (a comeback's size)",
           "evaluation"),
    Metric("ev_decided", "decided at", 1, "% of the game",
           "how far into the game the eventual winner became the favourite for good", "evaluation"),
    Metric("ev_decided_thr", "decided beyond doubt at", 1, "% of the game",
           "how far into the game the eventual winner's chance reached the threshold for good",
           "evaluation"),
    Metric("ev_stability", "swing per step", 100, "points",
           "the mean change of a side's chance of winning from one position to the next",
           "evaluation"),
    Metric("ev_uncertainty", "uncertainty", 10, "%",
           "how open the outcome looked, on average over the game (100: every side equally "
           "likely, 0: the outcome certain; normalised entropy)", "evaluation"),
)
_BY_NAME = {m.column: m for m in METRICS}
#: the value a game without the figure has in a column (left out of its histogram)
ABSENT = -1


def _col(name, dtype, per_seat=False):
    m = _BY_NAME[name]
    return Column(name, dtype, f"{m.definition} ({m.unit}" + (f", x{m.scale:g}" if m.scale != 1 else "")
                  + "; -1: none)", per_seat=per_seat)


COMPLEXITY = (
    _col("decisions", "int32", per_seat=True),
    _col("forced", "int32", per_seat=True),
    _col("decision_share", "int16"),
    _col("branching", "int32"),
    _col("decision_factor", "int32"),
    _col("options_max", "int32"),
)
EVALUATION = (
    _col("ev_changes", "int16"),
    _col("ev_drama", "int16"),
    _col("ev_drama_max", "int16"),
    _col("ev_decided", "int16"),
    _col("ev_decided_thr", "int16"),
    _col("ev_stability", "int32"),
    _col("ev_uncertainty", "int16"),
)
#: the columns whose -1 means "no figure" (the summary leaves those games out)
ABSENT_OK = frozenset(c.name for c in COMPLEXITY + EVALUATION)


def complexity_columns(cx: np.ndarray, players: int) -> dict:
    """The ``COMPLEXITY`` columns of ``cx`` (games x CX_SIZE, ``sim.howplays.choice``'s counts)."""
    cx = np.asarray(cx, np.int64)
    dec = cx[:, CX_DEC:CX_DEC + players]
    forced = cx[:, CX_FORCED:CX_FORCED + players]
    opts = cx[:, CX_OPTS:CX_OPTS + players].sum(axis=1)
    d, f = dec.sum(axis=1), forced.sum(axis=1)
    n = d + f
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(n > 0, np.rint(1000 * d / np.maximum(n, 1)), ABSENT)
        branching = np.where(n > 0, np.rint(100 * opts / np.maximum(n, 1)), ABSENT)
        factor = np.where(d > 0, np.rint(100 * (opts - f) / np.maximum(d, 1)), ABSENT)
    return {"decisions": dec.astype(np.int32), "forced": forced.astype(np.int32),
            "decision_share": share.astype(np.int16), "branching": branching.astype(np.int32),
            "decision_factor": factor.astype(np.int32), "options_max": cx[:, CX_MAX].astype(np.int32)}


def evaluation_columns(ev, count: int) -> dict:
    """The ``EVALUATION`` columns of ``count`` games: of ``ev`` (games x 7,
    ``sim.howplays.ev_finish``'s figures in its ``EV_NAMES`` order; a row of NaN: that game
    has no figure), or every one ``ABSENT`` where ``ev`` is None (the run was not evaluated)."""
    if ev is None:
        return {c.name: np.full(count, ABSENT, c.dtype) for c in EVALUATION}
    ev = np.asarray(ev, np.float64)
    out = {}
    for i, name in enumerate(EV_NAMES):
        col = "ev_" + name
        m = _BY_NAME[col]
        v = ev[:, i]
        out[col] = np.where(np.isfinite(v), np.rint(v * m.scale), ABSENT).astype(
            next(c.dtype for c in EVALUATION if c.name == col))
    return out


def trace_of(ev: np.ndarray, k: int) -> np.ndarray:
    """(positions, k) chances of the sides at each position of a traced game (``ev`` longer
    than ``EV_SIZE``, ``sim/howplays.py``), as many as it had room for."""
    from .howplays import EV_N, EV_SIZE, MAX_SIDES
    ev = np.asarray(ev, np.float64)
    n = min(int(ev[EV_N]), (ev.shape[0] - EV_SIZE) // MAX_SIDES)
    return ev[EV_SIZE:EV_SIZE + MAX_SIDES * n].reshape(n, MAX_SIDES)[:, :k].copy()


