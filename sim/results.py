"""Results columns: kernel arrays -> one pandas row per game.

Per-seat columns ``name`` of shape ``(games, players)`` become ``name_0``,
``name_1``, ... so that every value is a plain column (Parquet, CSV, pandas).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .game import Game

if TYPE_CHECKING:
    import pandas as pd


def seat_column(name: str, seat: int) -> str:
    return f"{name}_{seat}"


def to_frame(game: Game, players: int, chunks: list[tuple[int, dict]]) -> pd.DataFrame:
    """Join chunk outputs (sorted by start) into one DataFrame with a ``game`` column."""
    import pandas as pd
    return pd.DataFrame(to_columns(game, players, chunks), copy=False)


def to_columns(game: Game, players: int, chunks: list[tuple[int, dict]]) -> dict[str, np.ndarray]:
    """The columns of :func:`to_frame`, by name, as numpy arrays (no pandas: a worker writes
    a chunk's rows from these without importing it, about 0.2 s saved per worker)."""
    data: dict[str, np.ndarray] = {}
    if chunks:
        idx = np.concatenate([np.arange(s, s + len(c["winner"]), dtype=np.int64) for s, c in chunks])
    else:
        idx = np.zeros(0, dtype=np.int64)
    data["game"] = idx
    for col in game.all_columns():
        parts = [c[col.name] for _, c in chunks]
        if col.per_seat:
            shape = (0, players)
            arr = np.concatenate(parts) if parts else np.zeros(shape, dtype=col.dtype)
            if arr.ndim != 2 or arr.shape[1] != players:
                raise ValueError(f"{game.name}: per-seat column '{col.name}' has shape {arr.shape}")
            for s in range(players):
                data[seat_column(col.name, s)] = arr[:, s].astype(col.dtype, copy=False)
        else:
            arr = np.concatenate(parts) if parts else np.zeros(0, dtype=col.dtype)
            data[col.name] = arr.astype(col.dtype, copy=False)
    return data


def allocate(game: Game, players: int, count: int) -> dict[str, np.ndarray]:
    """Empty output arrays for every declared column (standard ones included), right dtype and shape."""
    return {c.name: np.empty((count, players) if c.per_seat else count, dtype=c.dtype)
            for c in game.all_columns()}


def check_columns(game: Game, players: int, cols: dict, count: int) -> list[str]:
    """Problems with a kernel's output (used by the conformance tests)."""
    problems = []
    for col in game.all_columns():
        if col.name not in cols:
            problems.append(f"missing column {col.name}")
            continue
        a = np.asarray(cols[col.name])
        if a.dtype != np.dtype(col.dtype):
            problems.append(f"column {col.name} has dtype {a.dtype}, declared {col.dtype}")
        want = (count, players) if col.per_seat else (count,)
        if a.shape != want:
            problems.append(f"column {col.name} has shape {a.shape}, expected {want}")
    if game.length not in cols:
        problems.append(f"length column {game.length} missing")
    return problems
