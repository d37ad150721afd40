"""Game-agnostic metrics, each a small function of the results DataFrame.

The DataFrame has one row per game with the standard columns (``winner``,
``win_<seat>``, ``end_reason``, ``capped``, ``first_player``), the game's
length column, and per-seat columns ``<name>_<seat>``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import mean_ci, wilson


def seats_of(df: pd.DataFrame) -> int:
    return sum(1 for c in df.columns if c.startswith("win_") and c[4:].isdigit())


def win_matrix(df: pd.DataFrame) -> np.ndarray:
    n = seats_of(df)
    return np.column_stack([df[f"win_{s}"].to_numpy(np.float64) for s in range(n)]) if n else \
        np.zeros((len(df), 0))


def seat_win_rates(df: pd.DataFrame, seat_names=None) -> pd.DataFrame:
    """Win rate of each seat with its 95% Wilson interval (shared wins count fractionally)."""
    w = win_matrix(df)
    n = len(df)
    rows = []
    for s in range(w.shape[1]):
        k = float(w[:, s].sum())
        lo, hi = wilson(k, n)
        rows.append({"seat": s, "name": seat_names[s] if seat_names else f"seat {s}",
                     "wins": k, "games": n, "rate": k / n if n else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def position_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate by turn-order position (0 = moved first), whatever the seat."""
    w = win_matrix(df)
    n, players = w.shape
    first = df["first_player"].to_numpy(np.int64)
    rows = []
    for k in range(players):
        seat = (first + k) % players if players else first
        share = w[np.arange(n), seat] if n else np.zeros(0)
        wins = float(share.sum())
        lo, hi = wilson(wins, n)
        rows.append({"position": k, "label": _ordinal(k + 1) + " player", "wins": wins, "games": n,
                     "rate": wins / n if n else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def first_player_advantage(df: pd.DataFrame) -> dict:
    """First player's win rate minus the fair share 1/players (with the interval shifted alike)."""
    pos = position_win_rates(df)
    players = len(pos)
    r = pos.iloc[0]
    fair = 1.0 / players if players else np.nan
    return {"rate": r["rate"], "lo": r["lo"], "hi": r["hi"], "fair": fair,
            "advantage": r["rate"] - fair, "adv_lo": r["lo"] - fair, "adv_hi": r["hi"] - fair}


def balance(df: pd.DataFrame) -> float:
    """1 minus the largest gap between seats' win rates (1 = perfectly even)."""
    rates = seat_win_rates(df)["rate"].to_numpy()
    return float(1.0 - (rates.max() - rates.min())) if rates.size else float("nan")


def outcome_counts(df: pd.DataFrame) -> dict:
    """Decisive games, games without a winner, and games stopped by the horizon."""
    n = len(df)
    w = win_matrix(df)
    no_winner = int((w.sum(axis=1) == 0).sum()) if n else 0
    capped = int(df["capped"].sum()) if n else 0
    decisive = int((df["winner"] >= 0).sum()) if n else 0
    out = {"games": n, "decisive": decisive, "no_winner": no_winner, "capped": capped}
    for key in ("decisive", "no_winner", "capped"):
        lo, hi = wilson(out[key], n)
        out[f"{key}_rate"] = out[key] / n if n else np.nan
        out[f"{key}_lo"], out[f"{key}_hi"] = lo, hi
    return out


def end_reasons(df: pd.DataFrame, names) -> pd.DataFrame:
    n = len(df)
    counts = df["end_reason"].value_counts().reindex(range(len(names)), fill_value=0)
    return pd.DataFrame({"reason": list(names), "games": counts.to_numpy(),
                         "share": counts.to_numpy() / n if n else np.nan})


def duration(df: pd.DataFrame, column: str) -> dict:
    """Mean, SD and quantiles of a length column."""
    x = df[column].to_numpy(np.float64)
    if x.size == 0:
        return {k: np.nan for k in ("mean", "mean_lo", "mean_hi", "sd", "min", "p5", "p25", "median",
                                    "p75", "p95", "max")}
    m, lo, hi = mean_ci(x)
    q = np.quantile(x, [0.05, 0.25, 0.5, 0.75, 0.95])
    return {"mean": m, "mean_lo": lo, "mean_hi": hi, "sd": float(x.std(ddof=1)) if x.size > 1 else 0.0,
            "min": float(x.min()), "p5": q[0], "p25": q[1], "median": q[2], "p75": q[3],
            "p95": q[4], "max": float(x.max())}


def seat_means(df: pd.DataFrame, name: str, seat_names=None) -> pd.DataFrame:
    """Mean of a per-seat column for each seat, with a 95% interval."""
    rows = []
    s = 0
    while f"{name}_{s}" in df.columns:
        m, lo, hi = mean_ci(df[f"{name}_{s}"])
        rows.append({"seat": s, "name": seat_names[s] if seat_names else f"seat {s}",
                     "mean": m, "lo": lo, "hi": hi})
        s += 1
    return pd.DataFrame(rows)
