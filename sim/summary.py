"""Sufficient statistics of a set of games, mergeable across chunks.

A run need not keep one row per game: each chunk reduces its columns to a
:class:`Summary` (counts, win sums, exact histograms of every integer column,
per-card tallies and regression moments) and the run adds the summaries up, so
memory does not grow with the number of games.  Every metric and report works
from a Summary; one built from raw rows (:meth:`Summary.from_frame`) is
identical to the merge of the chunks' summaries.

Histograms are exact (integer columns only), so means, standard deviations and
quantiles computed from them equal those computed from the rows.

Sides: a team game maps several seats to one side (``Game.side_of``); a Summary keeps,
besides the per-seat sums, each side's win share, the share by side turn order (position
0 is the side of the seat that moved first), the games exactly one side won (decisive) and
who won them, and the side scores (the sum of the member seats' score column) with the
margin between the two best sides.  Where every seat is its own side these equal the
per-seat figures.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from .exemplars import Watch
from .exemplars import merge as merge_watch
from .playcols import ABSENT_OK

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
    # sides (see the module docstring): seat -> side index; None = every seat its own side
    side_of: list = None
    side_win: np.ndarray = None      # sum of each side's win share
    side_win_pos: np.ndarray = None  # ... by side turn order (0 = the side that moved first)
    side_first: np.ndarray = None    # games each side moved first
    side_decisive: int = 0           # games exactly one side won
    side_dec_win: np.ndarray = None  # decisive games won by each side
    side_dec_pos: np.ndarray = None  # ... by the side at each turn-order position
    end_reason_names: list = None    # the game's end_reasons: what each end_reason code means
    watch: object = None             # sim.exemplars.Watch: the games worth watching (or None)

    def __post_init__(self):
        p = self.players
        self.win = np.zeros(p) if self.win is None else np.asarray(self.win, np.float64)
        self.win_pos = np.zeros(p) if self.win_pos is None else np.asarray(self.win_pos, np.float64)
        self.first = np.zeros(p, np.int64) if self.first is None else np.asarray(self.first, np.int64)
        self.end_reason = (np.zeros(0, np.int64) if self.end_reason is None
                           else np.asarray(self.end_reason, np.int64))
        self.side_of = list(range(p)) if self.side_of is None else [int(x) for x in self.side_of]
        m = self.n_sides
        self.side_win = np.zeros(m) if self.side_win is None else np.asarray(self.side_win, np.float64)
        self.side_win_pos = (np.zeros(m) if self.side_win_pos is None
                             else np.asarray(self.side_win_pos, np.float64))
        for name in ("side_first", "side_dec_win", "side_dec_pos"):
            v = getattr(self, name)
            setattr(self, name, np.zeros(m, np.int64) if v is None else np.asarray(v, np.int64))
        if self.end_reason_names is not None:
            self.end_reason_names = [str(x) for x in self.end_reason_names]

    # -------------------------------------------------------------- sides
    @property
    def n_sides(self) -> int:
        return len(set(self.side_of))

    @property
    def teams(self) -> bool:
        """True where some side holds several seats (a team game)."""
        return self.n_sides < self.players

    def side_hist(self, name: str, side: int) -> "Hist | None":
        """Histogram of a side's total of a per-seat column (kept for the score column);
        where every seat is its own side, the seat's histogram."""
        if not self.teams:
            return self.seat_hist(name, side)
        return self.hists.get(f"{name}|side{side}")

    # ----------------------------------------------------------- building
    @classmethod
    def from_columns(cls, game, players: int, cols: dict, start: int = 0,
                     index: np.ndarray | None = None) -> "Summary":
        """Reduce one chunk's kernel output (``run_chunk``'s dict) to sufficient statistics.
        ``start``: the run's index of the chunk's first game (``index``: of every game)."""
        win = np.asarray(cols["win"], np.float64).reshape(-1, players)
        n = win.shape[0]
        first = np.asarray(cols["first_player"], np.int64)
        side_of = game.sides(players) if hasattr(game, "sides") else list(range(players))
        s = cls(players, n, side_of=side_of,
                end_reason_names=list(getattr(game, "end_reasons", ())) or None)
        s.win = win.sum(axis=0)
        rows = np.arange(n)
        s.win_pos = np.array([win[rows, (first + k) % players].sum() for k in range(players)])
        s.first = np.bincount(first, minlength=players)[:players].astype(np.int64)
        s.no_winner = int((win.sum(axis=1) == 0).sum())
        s.decisive = int((np.asarray(cols["winner"]) >= 0).sum())
        s.capped = int(np.asarray(cols["capped"]).sum())
        s._add_sides(win, first)
        s.watch = Watch.of(game, players, cols, np.arange(start, start + n) if index is None else index)
        s.end_reason = np.bincount(np.asarray(cols["end_reason"], np.int64),
                                   minlength=len(game.end_reasons)).astype(np.int64)
        skip = {"win", "winner", "capped", "end_reason", "first_player"}
        for col in game.columns:
            integer = np.issubdtype(np.dtype(col.dtype), np.integer) or col.dtype == "bool"
            if col.name in skip or not col.summarize or not integer:
                continue
            a = np.asarray(cols[col.name])
            if col.name == getattr(game, "drama_settled", None) or (col.name in ABSENT_OK and not col.per_seat):
                a = a[a >= 0]  # only games with a single winner have a settling point (how it
                #               plays: only games with the figure, sim/playcols.py)
            if col.per_seat:
                for seat in range(players):
                    s.hists[f"{col.name}_{seat}"] = Hist.of(a[:, seat])
            else:
                s.hists[col.name] = Hist.of(a)
        score = getattr(game, "score", None)
        if score and score in cols and s.n_sides > 1:
            sc = np.asarray(cols[score], np.int64).reshape(-1, players) @ s._side_matrix().astype(np.int64)
            if s.teams:
                for k in range(s.n_sides):
                    s.hists[f"{score}|side{k}"] = Hist.of(sc[:, k])
            sc = np.sort(sc, axis=1)
            s.hists["margin"] = Hist.of(sc[:, -1] - sc[:, -2])  # leading side's lead over the runner-up
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

    def _side_matrix(self) -> np.ndarray:
        """(players, sides) 0/1 matrix: seat s belongs to side k."""
        M = np.zeros((self.players, self.n_sides))
        M[np.arange(self.players), self.side_of] = 1.0
        return M

    def side_order(self) -> np.ndarray:
        """(players, sides): row f lists the sides in turn order when seat f moves first."""
        p = self.players
        out = np.zeros((p, self.n_sides), np.int64)
        for f in range(p):
            seen = []
            for j in range(p):
                k = self.side_of[(f + j) % p]
                if k not in seen:
                    seen.append(k)
            out[f] = seen
        return out

    def _add_sides(self, win: np.ndarray, first: np.ndarray) -> None:
        """Per-side sums of one chunk (win: (games, players) shares; first: seat that moved first)."""
        n = win.shape[0]
        M = self._side_matrix()
        share = win @ M / M.sum(axis=0) if self.teams else win  # every member holds the side's share
        rows = np.arange(n)[:, None]
        pos_side = self.side_order()[first] if n else np.zeros((0, self.n_sides), np.int64)
        self.side_win = share.sum(axis=0)
        self.side_win_pos = share[rows, pos_side].sum(axis=0) if n else np.zeros(self.n_sides)
        self.side_first = np.bincount(np.asarray(self.side_of)[first],
                                      minlength=self.n_sides)[:self.n_sides].astype(np.int64)
        won = share > 0
        dec = won.sum(axis=1) == 1
        self.side_decisive = int(dec.sum())
        self.side_dec_win = (won & dec[:, None]).sum(axis=0).astype(np.int64)
        self.side_dec_pos = ((won[rows, pos_side] & dec[:, None]).sum(axis=0).astype(np.int64)
                             if n else np.zeros(self.n_sides, np.int64))

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
        index = df["game"].to_numpy() if "game" in df.columns else None
        return cls.from_columns(game, players, cols, index=index)

    # ------------------------------------------------------------ merging
    def merge(self, o: "Summary") -> "Summary":
        if o.players != self.players:
            raise ValueError("cannot merge summaries of different player counts")
        x, y = self, o      # whose side sums to add
        if self.side_of != o.side_of:
            if self.n and o.n:
                raise ValueError("cannot merge summaries whose seats form different sides")
            # an empty Summary (e.g. Summary(players)) takes the sides of the one it meets
            if self.n or (o.n == 0 and self.teams):
                y = _empty_sides(o, self)
            else:
                x = _empty_sides(self, o)
        s = Summary(self.players, self.n + o.n, self.win + o.win, self.win_pos + o.win_pos,
                    self.first + o.first, self.no_winner + o.no_winner, self.decisive + o.decisive,
                    self.capped + o.capped, _add(self.end_reason, o.end_reason),
                    side_of=x.side_of, side_win=x.side_win + y.side_win,
                    side_win_pos=x.side_win_pos + y.side_win_pos, side_first=x.side_first + y.side_first,
                    side_decisive=x.side_decisive + y.side_decisive,
                    side_dec_win=x.side_dec_win + y.side_dec_win,
                    side_dec_pos=x.side_dec_pos + y.side_dec_pos,
                    end_reason_names=self.end_reason_names or o.end_reason_names,
                    watch=merge_watch(self.watch, o.watch, self.n, o.n))
        for k in sorted(set(self.hists) | set(o.hists)):  # one order in every process
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
             "hists": {k: {"lo": h.lo, "counts": h.counts.tolist()} for k, h in self.hists.items()},
             "sides": {"side_of": list(self.side_of), "win": self.side_win.tolist(),
                       "win_pos": self.side_win_pos.tolist(), "first": self.side_first.tolist(),
                       "decisive": self.side_decisive, "decisive_won": self.side_dec_win.tolist(),
                       "decisive_won_pos": self.side_dec_pos.tolist()}}
        if self.end_reason_names:
            d["end_reasons"] = {str(i): name for i, name in enumerate(self.end_reason_names)}
        if self.watch is not None:
            d["watch"] = self.watch.to_dict()
        if self.events:
            d["events"] = {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                           for k, v in self.events.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Summary":
        sd = d.get("sides")
        if sd is None:  # written before sides were kept: every seat its own side
            sd = {"side_of": None, "win": d["win"], "win_pos": d["win_pos"], "first": d["first"],
                  "decisive": d["decisive"], "decisive_won": None, "decisive_won_pos": None}
        names = d.get("end_reasons")
        s = cls(d["players"], d["n"], d["win"], d["win_pos"], d["first"], d["no_winner"],
                d["decisive"], d["capped"], d["end_reason"], side_of=sd["side_of"],
                side_win=sd["win"], side_win_pos=sd["win_pos"], side_first=sd["first"],
                side_decisive=sd["decisive"], side_dec_win=sd["decisive_won"],
                side_dec_pos=sd["decisive_won_pos"],
                end_reason_names=[names[str(i)] for i in range(len(names))] if names else None)
        s.hists = {k: Hist(v["lo"], np.asarray(v["counts"], np.int64)) for k, v in d["hists"].items()}
        if d.get("watch") is not None:
            s.watch = Watch.from_dict(d["watch"])
        if d.get("events"):
            ev = dict(d["events"])
            for key in ("drew_n", "xtx", "xty", "yty", "drew_win"):
                ev[key] = np.asarray(ev[key], np.int64 if key == "drew_n" else np.float64)
            s.events = ev
        return s

    def to_json(self) -> str:
        """Canonical text (keys sorted): the same data give the same text, and so the same
        ``summary_sha256``, in every process, whatever order the histograms were built in."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Summary":
        return cls.from_dict(json.loads(text))


def _empty_sides(empty: "Summary", like: "Summary") -> "Summary":
    """Zero side sums shaped as the sides of ``like`` (merging into a fresh Summary(players))."""
    return Summary(empty.players, side_of=like.side_of)


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = max(a.size, b.size)
    out = np.zeros(n, np.int64)
    out[: a.size] += a
    out[: b.size] += b
    return out
