"""What a run needs before it starts: memory for its columns and disk for its files, checked
up front with one clear line."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .game import Game
from .params import UsageError
from .validate import cores
from .parallel import plan_chunks

if TYPE_CHECKING:
    from .spec import RunSpec


def bytes_per_game(game: Game, players: int) -> int:
    total = 8  # the game index column
    for c in game.all_columns():
        total += np.dtype(c.dtype).itemsize * (players if c.per_seat else 1)
    return total


def available_memory() -> int:
    """Bytes of memory available to a new process (psutil: MemAvailable on Linux)."""
    import psutil
    try:
        return int(psutil.virtual_memory().available)
    except (OSError, RuntimeError):  # pragma: no cover
        return 8 * 2 ** 30


def check_memory(spec: RunSpec):
    """Refuse runs whose per-game rows cannot fit in memory (rows are built, joined and framed)."""
    need = bytes_per_game(spec.game, spec.players) * spec.games * 3
    have = available_memory()
    if need > 0.8 * have:
        raise UsageError(
            f"--games {spec.games:.3g} needs about {need / 2**30:.1f} GiB for its per-game results "
            f"but only {have / 2**30:.1f} GiB of memory is available; run fewer games")


#: the report (pages, standalone page with embedded figures, PNGs): a generous bound
REPORT_BYTES = 8 * 2 ** 20


def _one_game_files(game: Game, players: int) -> tuple[int, int]:
    """(bytes of a chunk record, bytes of a Parquet part) for a chunk of one game: the fixed
    cost of every chunk on disk (schema, footers, histogram headers)."""
    import io
    import json

    import pyarrow.parquet as pq

    from .results import allocate, to_columns
    from .store import arrow_table
    from .summary import Summary
    cols = {k: np.zeros_like(v) for k, v in allocate(game, players, 1).items()}
    rec = len(json.dumps(Summary.from_columns(game, players, cols).to_dict())) + 400
    buf = io.BytesIO()
    # as the workers write it (sim.store.ChunkStore.save_rows: no pandas, not loaded yet)
    pq.write_table(arrow_table(to_columns(game, players, [(0, cols)])), buf)
    return rec, len(buf.getvalue())


def disk_needed(spec: RunSpec, chunks: int, rows: str, csv: bool = False) -> int:
    """Bytes a run writes: its chunk records, its per-game rows (when kept on disk, with each
    part's own overhead), an optional CSV and the report.  Row bytes are their size in
    memory, an upper bound for Parquet."""
    rec, part = _one_game_files(spec.game, spec.players)
    need = REPORT_BYTES + chunks * int(2.5 * rec)  # a record grows with its histograms
    if rows == "disk":
        need += spec.games * bytes_per_game(spec.game, spec.players) + chunks * part
        if csv:
            need += spec.games * bytes_per_game(spec.game, spec.players) * 3
    return need


def _free_space(out_dir) -> tuple[Path, int]:
    import shutil
    path = Path(out_dir)
    while not path.exists() and path != path.parent:
        path = path.parent
    return path, shutil.disk_usage(path).free


def _size(n: float) -> str:
    for unit, k in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= k:
            return f"{n / k:.1f} {unit}"
    return f"{int(n)} bytes"


def check_disk(spec: RunSpec, out_dir, rows: str = "disk", chunks: int | None = None,
               csv: bool = False) -> int:
    """Refuse a run whose files (rows, records, report) cannot fit on the disk; returns the
    bytes needed."""
    if chunks is None:
        chunks = len(plan_chunks(spec.games, None, cores()))
    need = disk_needed(spec, chunks, rows, csv)
    path, free = _free_space(out_dir)
    if need > free:
        from .validate import safe
        what = "with per-game rows " if rows == "disk" else ""
        hint = "run fewer games or without --raw" if rows == "disk" else "run fewer games"
        raise UsageError(
            f"--games {spec.games:.3g} {what}needs up to {_size(need)} of disk "
            f"({chunks:,} chunks and the report) but {safe(str(path))} has {_size(free)} free; {hint}")
    return need
