"""Sufficient statistics of a set of games, mergeable across chunks.

A run need not keep one row per game: each chunk reduces its columns to a
:class:`Summary` (counts, win sums, exact histograms of every integer column,
per-card tallies and regression moments) and the run adds the summaries up, so
memory does not grow with the number of games.  Every metric and report works
from a Summary; one built from raw rows (:meth:`Summary.from_frame`) is
identical to the merge of the chunks' summaries.

Histograms are exact (integer columns only), so means, standard deviations and
quantiles computed from them equal those computed from the rows.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

MAX_HIST_SPAN = 5_000_000


@dataclass
class Hist:
    """Exact histogram of an integer column: ``counts[k]`` games had value ``lo + k``."""

    lo: int
    counts: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> "Hist":
        x = np.asarray(x)
        if x.size == 0:
            return cls(0, np.zeros(0, np.int64))
        lo, hi = int(x.min()), int(x.max())
        if hi - lo > MAX_HIST_SPAN:
            raise ValueError(f"values span {lo}..{hi}: too wide for an exact histogram")
        return cls(lo, np.bincount((x.astype(np.int64) - lo), minlength=hi - lo + 1).astype(np.int64))

    def merge(self, other: "Hist") -> "Hist":
        if other.counts.size == 0:
            return Hist(self.lo, self.counts.copy())
        if self.counts.size == 0:
            return Hist(other.lo, other.counts.copy())
        lo = min(self.lo, other.lo)
        hi = max(self.lo + self.counts.size, other.lo + other.counts.size)
        c = np.zeros(hi - lo, np.int64)
        c[self.lo - lo: self.lo - lo + self.counts.size] += self.counts
        c[other.lo - lo: other.lo - lo + other.counts.size] += other.counts
        return Hist(lo, c)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.lo, self.lo + self.counts.size, dtype=np.int64)

    def total(self) -> int:
        return int((self.values * self.counts).sum())

    def mean(self) -> float:
        n = self.n
        return self.total() / n if n else float("nan")

    def var(self) -> float:
        """Sample variance (n - 1), computed exactly about the mean."""
        n = self.n
        if n < 2:
            return float("nan") if n == 0 else 0.0
        m = self.mean()
        return float((self.counts * (self.values - m) ** 2).sum() / (n - 1))

    def quantile(self, q: float) -> float:
        """numpy.quantile's default ('linear') on the rows this histogram counts."""
        n = self.n
        if n == 0:
            return float("nan")
        pos = (n - 1) * q
        lo_i = int(np.floor(pos))
        hi_i = min(lo_i + 1, n - 1)
        cum = np.cumsum(self.counts)
        a = self.lo + int(np.searchsorted(cum, lo_i + 1))
        b = self.lo + int(np.searchsorted(cum, hi_i + 1))
        frac = pos - lo_i
        return float(a + (b - a) * frac) if frac else float(a)

    def min(self) -> float:
        nz = np.nonzero(self.counts)[0]
        return float(self.lo + nz[0]) if nz.size else float("nan")

    def max(self) -> float:
        nz = np.nonzero(self.counts)[0]
        return float(self.lo + nz[-1]) if nz.size else float("nan")


@dataclass
class Summary:
    players: int
    n: int = 0
    win: np.ndarray = None          # sum of win shares per seat
    win_pos: np.ndarray = None      # ... per turn-order position (0 = moved first)
    first: np.ndarray = None        # games each seat moved first
    no_winner: int = 0              # games in which no seat won anything
    decisive: int = 0               # games with a single winning seat
    capped: int = 0
    end_reason: np.ndarray = None
    hists: dict = field(default_factory=dict)    # column -> Hist (per-seat columns flattened)
    events: dict = field(default_factory=dict)   # event column -> arrays, see from_columns

    def __post_init__(self):
        p = self.players
        self.win = np.zeros(p) if self.win is None else np.asarray(self.win, np.float64)
        self.win_pos = np.zeros(p) if self.win_pos is None else np.asarray(self.win_pos, np.float64)
        self.first = np.zeros(p, np.int64) if self.first is None else np.asarray(self.first, np.int64)
        self.end_reason = (np.zeros(0, np.int64) if self.end_reason is None
                           else np.asarray(self.end_reason, np.int64))

    # ----------------------------------------------------------- building
    @classmethod
    def from_columns(cls, game, players: int, cols: dict) -> "Summary":
        """Reduce one chunk's kernel output (``run_chunk``'s dict) to sufficient statistics."""
        win = np.asarray(cols["win"], np.float64).reshape(-1, players)
        n = win.shape[0]
        first = np.asarray(cols["first_player"], np.int64)
        s = cls(players, n)
        s.win = win.sum(axis=0)
        rows = np.arange(n)
        s.win_pos = np.array([win[rows, (first + k) % players].sum() for k in range(players)])
        s.first = np.bincount(first, minlength=players)[:players].astype(np.int64)
        s.no_winner = int((win.sum(axis=1) == 0).sum())
        s.decisive = int((np.asarray(cols["winner"]) >= 0).sum())
        s.capped = int(np.asarray(cols["capped"]).sum())
        s.end_reason = np.bincount(np.asarray(cols["end_reason"], np.int64),
                                   minlength=len(game.end_reasons)).astype(np.int64)
        skip = {"win", "winner", "capped", "end_reason", "first_player"}
        for col in game.columns:
            if col.name in skip or not col.summarize or not np.issubdtype(np.dtype(col.dtype), np.integer) and col.dtype != "bool":
                continue
            a = np.asarray(cols[col.name])
            if col.name == "lead_settled":
                a = a[a >= 0]  # only games with a single winner have a settling point
            if col.per_seat:
                for seat in range(players):
                    s.hists[f"{col.name}_{seat}"] = Hist.of(a[:, seat])
            else:
                s.hists[col.name] = Hist.of(a)
        score = getattr(game, "score", None)
        if score and score in cols and players > 1:
            sc = np.sort(np.asarray(cols[score], np.int64).reshape(-1, players), axis=1)
            s.hists["margin"] = Hist.of(sc[:, -1] - sc[:, -2])  # leader's lead over the runner-up
        length = getattr(game, "length", None)
        if length in cols:
            capped = np.asarray(cols["capped"], bool)
            s.hists[f"{length}|capped"] = Hist.of(np.asarray(cols[length])[capped])
        # card / event impact: per seat, games that drew the card vs not, and the moments of a
        # regression of each seat's win share on its counts of every event column
        ev = [e for e in getattr(game, "events", ()) if e in cols]
        if ev:
            k = len(ev)
            X = np.stack([np.asarray(cols[e], np.float64).reshape(-1, players) for e in ev], axis=2)
            drew_n = (X > 0).sum(axis=0).T.astype(np.int64)                   # (k, players)
            drew_win = np.einsum("ns,nsk->ks", win, (X > 0).astype(np.float64))  # (k, players)
            Xi = np.concatenate([np.ones((n, players, 1)), X], axis=2)        # intercept first
            xtx = np.einsum("nsi,nsj->sij", Xi, Xi)                           # (players, k+1, k+1)
            xty = np.einsum("nsi,ns->si", Xi, win)
            yty = (win * win).sum(axis=0)
            s.events = {"names": list(ev), "drew_n": drew_n, "drew_win": drew_win,
                        "xtx": xtx, "xty": xty, "yty": yty, "k": k}
        return s

    @classmethod
    def from_frame(cls, df, game, players: int | None = None) -> "Summary":
        """The same statistics from raw rows (a results DataFrame)."""
        if players is None:
            players = sum(1 for c in df.columns if c.startswith("win_") and c[4:].isdigit())
        cols = {}
        for col in game.all_columns():
            if col.per_seat:
                cols[col.name] = np.column_stack([df[f"{col.name}_{s}"].to_numpy() for s in range(players)]) \
                    if len(df) else np.zeros((0, players), col.dtype)
            elif col.name in df.columns:
                cols[col.name] = df[col.name].to_numpy()
        return cls.from_columns(game, players, cols)

    # ------------------------------------------------------------ merging
    def merge(self, o: "Summary") -> "Summary":
        if o.players != self.players:
            raise ValueError("cannot merge summaries of different player counts")
        s = Summary(self.players, self.n + o.n, self.win + o.win, self.win_pos + o.win_pos,
                    self.first + o.first, self.no_winner + o.no_winner, self.decisive + o.decisive,
                    self.capped + o.capped, _add(self.end_reason, o.end_reason))
        for k in set(self.hists) | set(o.hists):
            a, b = self.hists.get(k), o.hists.get(k)
            s.hists[k] = a.merge(b) if a is not None and b is not None else (a or b)
        if self.events and o.events:
            s.events = {"names": self.events["names"], "k": self.events["k"]}
            for key in ("drew_n", "drew_win", "xtx", "xty", "yty"):
                s.events[key] = self.events[key] + o.events[key]
        else:
            s.events = dict(self.events or o.events)
        return s

    @staticmethod
    def merge_all(parts, players: int) -> "Summary":
        total = Summary(players)
        for p in parts:
            total = total.merge(p)
        return total

    def seat_hist(self, name: str, seat: int) -> Hist | None:
        return self.hists.get(f"{name}_{seat}")

    # ------------------------------------------------------ serialisation
    def to_dict(self) -> dict:
        d = {"players": self.players, "n": self.n, "win": self.win.tolist(),
             "win_pos": self.win_pos.tolist(), "first": self.first.tolist(),
             "no_winner": self.no_winner, "decisive": self.decisive, "capped": self.capped,
             "end_reason": self.end_reason.tolist(),
             "hists": {k: {"lo": h.lo, "counts": h.counts.tolist()} for k, h in self.hists.items()}}
        if self.events:
            d["events"] = {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                           for k, v in self.events.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Summary":
        s = cls(d["players"], d["n"], d["win"], d["win_pos"], d["first"], d["no_winner"],
                d["decisive"], d["capped"], d["end_reason"])
        s.hists = {k: Hist(v["lo"], np.asarray(v["counts"], np.int64)) for k, v in d["hists"].items()}
        if d.get("events"):
            ev = dict(d["events"])
            for key in ("drew_n", "xtx", "xty", "yty", "drew_win"):
                ev[key] = np.asarray(ev[key], np.int64 if key == "drew_n" else np.float64)
            s.events = ev
        return s

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> "Summary":
        return cls.from_dict(json.loads(text))


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = max(a.size, b.size)
    out = np.zeros(n, np.int64)
    out[: a.size] += a
    out[: b.size] += b
    return out
