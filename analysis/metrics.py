"""Game-agnostic metrics, each a small function of a run's :class:`sim.summary.Summary`.

A Summary holds sufficient statistics (win sums, exact histograms, ...), so the
same functions serve a run that kept every row and one that kept none; for raw
rows use ``Summary.from_frame(df, game)`` first (or :func:`summary_of`).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.summary import Summary

from .stats import Z95, wilson


def summary_of(x, game=None) -> Summary:
    if isinstance(x, Summary):
        return x
    if isinstance(x, pd.DataFrame):
        if game is None:
            from sim.games import get
            game = get(x.attrs["manifest"]["game"])
        return Summary.from_frame(x, game)
    raise TypeError(f"expected a Summary or a results DataFrame, not {type(x).__name__}")


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _win_rates(key: str, wins, n: int, names) -> pd.DataFrame:
    """One row per seat or side (``key``) with its wins, rate and 95% Wilson interval."""
    rows = []
    for k, w in enumerate(wins):
        w = float(w)
        lo, hi = wilson(w, n)
        rows.append({key: k, "name": names[k] if names else f"{key} {k}", "wins": w,
                     "games": n, "rate": w / n if n else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def seat_win_rates(S: Summary, seat_names=None) -> pd.DataFrame:
    """Win rate of each seat with its 95% Wilson interval (shared wins count fractionally)."""
    return _win_rates("seat", S.win[:S.players], S.n, seat_names)


def side_win_rates(S: Summary, side_names=None) -> pd.DataFrame:
    """Win rate of each side (a team, or a seat where every seat is its own side) with its 95%
    Wilson interval; a side's share of a game is what each of its seats got."""
    return _win_rates("side", S.side_win[:S.n_sides], S.n, side_names)


def position_win_rates(S: Summary) -> pd.DataFrame:
    """Win rate by turn-order position of the side (0 = the side of the seat that moved first),
    whatever the seat; where every seat is its own side, by the seat's turn-order position."""
    rows = []
    unit = "team" if S.teams else "player"
    for k in range(S.n_sides):
        wins = float(S.side_win_pos[k])
        lo, hi = wilson(wins, S.n)
        rows.append({"position": k, "label": f"{_ordinal(k + 1)} {unit}", "wins": wins,
                     "games": S.n, "rate": wins / S.n if S.n else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def decisive_position_rates(S: Summary) -> pd.DataFrame:
    """Among decisive games (exactly one side won), the share each turn-order position won,
    with Wilson intervals: draws and shared games do not dilute these rates."""
    rows = []
    unit = "team" if S.teams else "player"
    for k in range(S.n_sides):
        w = int(S.side_dec_pos[k])
        lo, hi = wilson(w, S.side_decisive)
        rows.append({"position": k, "label": f"{_ordinal(k + 1)} {unit}", "wins": w,
                     "games": S.side_decisive,
                     "rate": w / S.side_decisive if S.side_decisive else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def first_player_advantage(S: Summary) -> dict:
    """The first side's win rate minus the fair share 1/sides, with the interval shifted alike
    (the first side: the side of the seat that moved first; a seat where each seat is a side)."""
    pos = position_win_rates(S)
    fair = 1.0 / S.n_sides
    r = pos.iloc[0]
    return {"rate": r["rate"], "lo": r["lo"], "hi": r["hi"], "fair": fair,
            "advantage": r["rate"] - fair, "adv_lo": r["lo"] - fair, "adv_hi": r["hi"] - fair}


def largest_turn_order_gap(S: Summary) -> dict:
    """The turn-order position furthest from the fair share 1/sides (the first on a tie), as
    :func:`first_player_advantage` gives it for the first, with ``position`` (0 = first) and
    ``label`` ("3rd player") added: with three or more sides the first side's gap alone can hide
    a larger one further down the turn order."""
    pos = position_win_rates(S)
    fair = 1.0 / S.n_sides
    gaps = (pos["rate"] - fair).abs().fillna(-1.0).to_numpy()
    k = int(np.argmax(gaps)) if len(gaps) else 0
    r = pos.iloc[k]
    return {"position": k, "label": str(r["label"]), "rate": r["rate"], "lo": r["lo"], "hi": r["hi"],
            "fair": fair, "advantage": r["rate"] - fair, "adv_lo": r["lo"] - fair, "adv_hi": r["hi"] - fair}


def balance(S: Summary) -> float:
    """1 minus the largest gap between sides' win rates (1 = perfectly even)."""
    if S.n == 0:
        return float("nan")
    rates = S.side_win / S.n
    return float(1.0 - (rates.max() - rates.min()))


def outcome_counts(S: Summary) -> dict:
    """Decisive games (exactly one side won), games without a winner, games whose victory was
    shared by several sides, and games stopped by the horizon."""
    out = {"games": S.n, "decisive": S.side_decisive, "no_winner": S.no_winner, "capped": S.capped,
           "shared": S.n - S.side_decisive - S.no_winner}
    for key in ("decisive", "no_winner", "capped", "shared"):
        lo, hi = wilson(out[key], S.n)
        out[f"{key}_rate"] = out[key] / S.n if S.n else np.nan
        out[f"{key}_lo"], out[f"{key}_hi"] = lo, hi
    return out


def end_reasons(S: Summary, names) -> pd.DataFrame:
    counts = np.zeros(len(names), np.int64)
    counts[: min(len(names), S.end_reason.size)] = S.end_reason[: len(names)]
    return pd.DataFrame({"reason": list(names), "games": counts,
                         "share": counts / S.n if S.n else np.nan})


def duration(S: Summary, column: str) -> dict:
    """Mean (with interval), SD and quantiles of an integer column such as the game length."""
    keys = ("mean", "mean_lo", "mean_hi", "sd", "min", "p5", "p25", "median", "p75", "p95", "max")
    h = S.hists.get(column)
    if h is None or h.n == 0:
        return {k: np.nan for k in keys}
    m = h.mean()
    sd = math.sqrt(h.var()) if h.n > 1 else 0.0
    half = Z95 * sd / math.sqrt(h.n) if h.n > 1 else np.nan
    q = [h.quantile(x) for x in (0.05, 0.25, 0.5, 0.75, 0.95)]
    return {"mean": m, "mean_lo": m - half, "mean_hi": m + half, "sd": sd, "min": h.min(),
            "p5": q[0], "p25": q[1], "median": q[2], "p75": q[3], "p95": q[4], "max": h.max()}


def ended_mean(S: Summary, column: str) -> float:
    """Mean of ``column`` (the game length) over the games that ended by the rules, leaving
    out those stopped by the horizon (nan where none ended, or the split is not kept)."""
    h, c = S.hists.get(column), S.hists.get(f"{column}|capped")
    if h is None or c is None or h.n - c.n <= 0:
        return float("nan")
    return (h.total() - c.total()) / (h.n - c.n)


def seat_means(S: Summary, name: str, seat_names=None) -> pd.DataFrame:
    """Mean of a per-seat integer column for each seat, with a 95% interval."""
    rows = []
    for s in range(S.players):
        h = S.seat_hist(name, s)
        if h is None:
            continue
        d = duration(S, f"{name}_{s}")
        rows.append({"seat": s, "name": seat_names[s] if seat_names else f"seat {s}",
                     "mean": d["mean"], "lo": d["mean_lo"], "hi": d["mean_hi"]})
    return pd.DataFrame(rows)


def distribution(S: Summary, column: str) -> tuple[np.ndarray, np.ndarray]:
    """(values, share of games) of an integer column."""
    h = S.hists.get(column)
    if h is None or h.n == 0:
        return np.zeros(0, np.int64), np.zeros(0)
    return h.values, h.counts / h.n
