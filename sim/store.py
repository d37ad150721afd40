"""A run directory's checkpoints: each finished chunk is written as it completes.

Layout of ``out_dir``:

* ``run.json``                 what the run is (spec fingerprint, chunk size, rows mode);
* ``chunks/<start>-<count>.json`` each finished chunk's sufficient statistics;
* ``results/part-<start>.parquet`` each finished chunk's rows (only with rows on disk).

Every file is written atomically and a chunk's statistics are written after its
rows, so a crash or Ctrl-C never leaves a chunk that looks finished but is not.
Running the same spec into the same directory again skips the finished chunks.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .io import atomic_write, write_json, write_text
from .params import UsageError
from .summary import Summary

_CHUNK = re.compile(r"^(\d+)-(\d+)\.json$")


class ChunkStore:
    SPEC = "run.json"

    def __init__(self, out_dir):
        self.dir = Path(out_dir)
        self.chunk_dir = self.dir / "chunks"
        self.rows_dir = self.dir / "results"

    def begin(self, spec, chunk_size: int, rows: str) -> int:
        """Record the run, or check that the directory holds this same run; returns the chunk size."""
        from . import __version__
        fp = json.loads(json.dumps(spec.fingerprint()))
        path = self.dir / self.SPEC
        if path.is_file():
            old = json.loads(path.read_text())
            if old.get("fingerprint") != fp:
                diff = [k for k in fp if old.get("fingerprint", {}).get(k) != fp[k]]
                raise UsageError(f"{self.dir} already holds a different run (it differs in "
                                 f"{', '.join(diff)}); choose another --out")
            if old.get("rows") != rows:
                raise UsageError(f"{self.dir} was started with rows kept '{old.get('rows')}', "
                                 f"not '{rows}'; resume it the same way or choose another --out")
            return int(old["chunk_size"])
        self.dir.mkdir(parents=True, exist_ok=True)
        write_json(path, {"fingerprint": fp, "chunk_size": int(chunk_size), "rows": rows,
                          "sim_version": __version__})
        return int(chunk_size)

    def finished(self, chunks, need_rows: bool) -> dict[int, Summary]:
        """Statistics of the chunks of this plan that are already finished."""
        plan = dict(chunks)
        out: dict[int, Summary] = {}
        for start, count, f in self.records():
            if plan.get(start) != count:
                continue
            if need_rows and not self.rows_path(start).is_file():
                continue
            try:
                out[start] = Summary.from_json(f.read_text())
            except (ValueError, KeyError):
                continue  # unreadable: play the chunk again
        return out

    def records(self):
        """(start, count, path) of every chunk record in the directory."""
        if not self.chunk_dir.is_dir():
            return
        for f in self.chunk_dir.iterdir():
            m = _CHUNK.match(f.name)
            if m:
                yield int(m.group(1)), int(m.group(2)), f

    def finished_parts(self) -> list[Path]:
        """Row files of finished chunks, in game order.

        A chunk's rows are written before its statistics record, so a process killed
        between the two leaves a part with no record: it is not part of the result
        (resuming plays that chunk again and replaces the file)."""
        starts = sorted({start for start, _, _ in self.records()})
        return [p for p in map(self.rows_path, starts) if p.is_file()]

    def rows_path(self, start: int) -> Path:
        return self.rows_dir / f"part-{start:012d}.parquet"

    def save_rows(self, start: int, frame) -> None:
        atomic_write(self.rows_path(start), lambda tmp: frame.to_parquet(tmp, index=False))

    def save_summary(self, start: int, count: int, summary: Summary) -> None:
        write_text(self.chunk_dir / f"{start:012d}-{count}.json", summary.to_json())
