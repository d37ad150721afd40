"""A run's games worth watching, found while its games are played.

The report links a few games a designer may want to watch (:func:`picks`): the longest,
the first one stopped by the horizon, one won late (where the game declares
``drama_settled``: the latest point after which the winner led for good; else, where it
declares ``score``, the narrowest final margin) and one of typical length (closest to the
median).  Each chunk keeps its candidates (:meth:`Watch.of`, a few numbers and one count
and first game per length); the run merges them with its :class:`sim.summary.Summary`, so
the report finds the same games as reading every row would, without reading them.  Ties go
to the earliest game, as ``numpy.argmax`` / ``argmin`` over the rows in game order.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

_MAX = np.iinfo(np.int64).max  # above every margin and game index: never the minimum


def _best(a: tuple | None, b: tuple | None, larger: bool) -> tuple | None:
    """Of two (value, game) candidates, the larger (or smaller) value; the earlier game on a tie."""
    if a is None or b is None:
        return a if b is None else b
    if a[0] != b[0]:
        return a if (a[0] > b[0]) == larger else b
    return a if a[1] <= b[1] else b


@dataclass
class Watch:
    """Mergeable candidates of one or more chunks (game indices are the run's)."""

    longest: tuple | None = None    # (length, game): the longest game
    capped: tuple | None = None     # (first game stopped by the horizon, games so stopped)
    settled: tuple | None = None    # (value, game): argmax of settling point, -1 where not won
    margin: tuple | None = None     # (margin, game): argmin of the winner's lead, where won
    won: bool = False               # some game had a single winner
    lengths: dict = field(default_factory=dict)  # length -> [games, first game]

    @classmethod
    def of(cls, game, players: int, cols: dict, index: np.ndarray) -> "Watch | None":
        """The candidates of one chunk: ``cols`` as ``run_chunk`` returns them (per-seat
        columns as (games, players)), ``index`` the run's index of each game.  None where
        the game declares no length column."""
        if not getattr(game, "length", None) or game.length not in cols:
            return None
        index = np.asarray(index, np.int64)
        w = cls()
        if not len(index):
            return w
        length = np.asarray(cols[game.length]).astype(np.int64)
        i = int(np.argmax(length))
        w.longest = (int(length[i]), int(index[i]))
        capped = np.flatnonzero(np.asarray(cols["capped"]))
        if len(capped):
            w.capped = (int(index[capped[0]]), int(len(capped)))
        won = np.asarray(cols["winner"]) >= 0
        w.won = bool(won.any())
        settled_col = getattr(game, "drama_settled", None)
        score = getattr(game, "score", None)
        if settled_col and settled_col in cols:
            v = np.where(won, np.asarray(cols[settled_col]).astype(np.int64), -1)
            i = int(np.argmax(v))
            w.settled = (int(v[i]), int(index[i]))
        elif score and score in cols and players > 1:
            sc = np.sort(np.asarray(cols[score]).astype(np.int64).reshape(-1, players), axis=1)
            v = np.where(won, sc[:, -1] - sc[:, -2], _MAX)
            i = int(np.argmin(v))
            w.margin = (int(v[i]), int(index[i]))
        lo = int(length.min())
        counts = np.bincount(length - lo)
        first = np.full(len(counts), _MAX, np.int64)
        np.minimum.at(first, length - lo, index)  # (0.1 ms a chunk: np.unique sorts, 1.5 ms)
        w.lengths = {lo + int(k): [int(counts[k]), int(first[k])] for k in np.flatnonzero(counts)}
        return w

    def merge(self, o: "Watch") -> "Watch":
        lengths = {k: list(v) for k, v in self.lengths.items()}
        for k, (c, f) in o.lengths.items():
            if k in lengths:
                lengths[k] = [lengths[k][0] + c, min(lengths[k][1], f)]
            else:
                lengths[k] = [c, f]
        capped = self.capped if o.capped is None else o.capped if self.capped is None else \
            (min(self.capped[0], o.capped[0]), self.capped[1] + o.capped[1])
        return Watch(_best(self.longest, o.longest, True), capped,
                     _best(self.settled, o.settled, True), _best(self.margin, o.margin, False),
                     self.won or o.won, lengths)

    def median(self) -> float:
        """The median length, as ``numpy.median`` of every game's length gives it."""
        values = sorted(self.lengths)
        counts = np.cumsum([self.lengths[v][0] for v in values])
        n = int(counts[-1])

        def at(rank):
            return values[int(np.searchsorted(counts, rank, side="right"))]
        return (at((n - 1) // 2) + at(n // 2)) / 2.0

    def typical(self) -> tuple[int, int]:
        """(length, game): the earliest game whose length is closest to the median."""
        med = self.median()
        best = min(abs(v - med) for v in self.lengths)
        game, length = min((f, v) for v, (_, f) in self.lengths.items() if abs(v - med) == best)
        return length, game

    # ------------------------------------------------------ serialisation
    def to_dict(self) -> dict:
        return {"longest": self.longest, "capped": self.capped, "settled": self.settled,
                "margin": self.margin, "won": self.won,
                "lengths": [[k, c, f] for k, (c, f) in sorted(self.lengths.items())]}

    @classmethod
    def from_dict(cls, d: dict) -> "Watch":
        def t(x):
            return None if x is None else (int(x[0]), int(x[1]))
        return cls(t(d["longest"]), t(d["capped"]), t(d["settled"]), t(d["margin"]),
                   bool(d["won"]), {int(k): [int(c), int(f)] for k, c, f in d["lengths"]})


def merge(a: "Watch | None", b: "Watch | None", a_games: int, b_games: int) -> "Watch | None":
    """Two summaries' candidates: a side with no games takes the other's; None (unknown: a
    chunk recorded before candidates were kept) where either side with games has none."""
    if a_games == 0:
        return b
    if b_games == 0:
        return a
    return None if a is None or b is None else a.merge(b)


def picks(game, w: "Watch | None") -> list[tuple[str, int, str]]:
    """(label, game index, why) of the games worth watching, from the run's candidates."""
    if w is None or w.longest is None:
        return []
    unit = game.length_unit
    out = [("the longest", w.longest[1], f"{w.longest[0]:,} {unit}")]
    if w.capped is not None:
        out.append(("stopped by the horizon", w.capped[0], f"{w.capped[1]:,} such games"))
    if w.settled is not None and w.won:
        out.append(("won from furthest behind", w.settled[1],
                    f"the winner led for good only after {w.settled[0]}% of the game"))
    elif w.margin is not None and w.won:
        out.append(("won by the narrowest margin", w.margin[1], f"by {w.margin[0]} {game.score}"))
    length, i = w.typical()
    out.append(("a typical game", i, f"{length:,} {unit} (the median)"))
    return out
