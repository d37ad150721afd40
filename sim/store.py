"""A run directory's checkpoints: each finished chunk is written as it completes.

Layout of ``out_dir``:

* ``run.json``                 what the run is: its fingerprint (game and version, rules,
                               the content of every data file, bots, seed, games), the hash
                               of that fingerprint (the run id), chunk size, rows mode;
* ``chunks/<start>-<count>.json`` each finished chunk's record: the run id, the chunk's
                               sufficient statistics and, with rows on disk, the size and
                               sha256 of its Parquet part;
* ``results/part-<start>.parquet`` each finished chunk's rows (only with rows on disk);
* ``.lock``                    held (``flock``) by the process running or saving the run.

Every file is written atomically and flushed to the disk, and a chunk's record is written
after its rows, so a crash, a full disk or Ctrl-C never leaves a chunk that looks finished
but is not.  A record is reused only if it carries this run's id and, with rows, its part
has the recorded size and checksum; anything else is played again.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .io import atomic_write, remove, write_json, write_text
from .params import UsageError
from .summary import Summary
from .validate import safe

_CHUNK = re.compile(r"^(\d+)-(\d+)\.json$")
_PART = re.compile(r"^part-(\d+)\.parquet$")
#: this run's temporaries: ``sim.io.atomic_write``'s ``.<name>.<8 random>.part`` (mkstemp), and
#: in ``results/`` a ``part-<start>.parquet.tmp``, which ``pandas.read_parquet(DIR/results)``
#: would read as rows (it skips only names starting with ``.`` or ``_``)
_TEMP = re.compile(r"^\..+\.[a-z0-9_]{8}\.part$")
_PART_TEMP = re.compile(r"^part-\d+\.parquet\.tmp$")
FORMAT = 2  # run.json / chunk record format (1: before run ids and part checksums)


def file_sha256(path) -> tuple[int, str]:
    """(size, sha256) of a file."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            h.update(b)
            size += len(b)
    return size, h.hexdigest()


def read_run_record(run_dir) -> dict:
    """``run_dir/run.json`` checked: one UsageError line for a missing or damaged record."""
    path = Path(run_dir) / ChunkStore.SPEC
    shown = safe(str(path))
    if path.is_dir() or not path.exists():
        raise UsageError(f"{shown}: no run record there, so nothing to resume")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        why = "not valid JSON" if isinstance(e, ValueError) else (getattr(e, "strerror", None) or str(e))
        raise UsageError(f"{shown} is damaged ({safe(why)}); the run cannot be resumed, "
                         "start it again in a new directory") from None
    fp = meta.get("fingerprint") if isinstance(meta, dict) else None
    ok = (isinstance(fp, dict) and isinstance(meta.get("chunk_size"), int)
          and meta["chunk_size"] >= 1 and meta.get("rows") in ("none", "disk", "memory")
          and isinstance(fp.get("game"), str) and isinstance(fp.get("rules"), dict)
          and isinstance(fp.get("bots"), list) and isinstance(fp.get("games"), int)
          and isinstance(fp.get("seed"), int) and isinstance(fp.get("players"), int))
    if not ok:
        raise UsageError(f"{shown} is not a run record of sim (a field is missing or wrong); "
                         "start the run again in a new directory")
    return meta


class ChunkStore:
    SPEC = "run.json"

    def __init__(self, out_dir):
        self.dir = Path(out_dir)
        self.chunk_dir = self.dir / "chunks"
        self.rows_dir = self.dir / "results"
        self.run_id: str | None = None

    # ------------------------------------------------------------ the run
    def check(self, spec, rows: str) -> int | None:
        """Refuse a directory holding another run (or a damaged record) without writing
        anything; returns the recorded chunk size of this same run, or None for a new run."""
        if not (self.dir / self.SPEC).exists():
            return None
        return self._same_run(spec, rows)

    def _same_run(self, spec, rows: str) -> int:
        fp = json.loads(json.dumps(spec.fingerprint()))
        old = read_run_record(self.dir)
        if old.get("format") != FORMAT:
            raise UsageError(f"{safe(str(self.dir))} holds a run made by an older sim (before run "
                             "ids and data hashes); start it again in a new directory")
        if old.get("fingerprint") != fp:
            ofp = old["fingerprint"]
            diff = [k for k in fp if ofp.get(k) != fp[k]]
            if diff == ["data"]:
                raise UsageError(
                    f"{safe(str(self.dir))} holds a run made with other data: a data file's "
                    "content changed since it started; restore the file or choose another --out")
            raise UsageError(f"{safe(str(self.dir))} already holds a different run (it differs in "
                             f"{', '.join(diff) or 'its format'}); choose another --out")
        if old.get("rows") != rows:
            raise UsageError(f"{safe(str(self.dir))} was started with rows kept '{old.get('rows')}', "
                             f"not '{rows}'; resume it the same way or choose another --out")
        return int(old["chunk_size"])

    def begin(self, spec, chunk_size: int, rows: str) -> int:
        """Record the run, or check that the directory holds this same run; returns the chunk size."""
        from . import __version__
        fp = json.loads(json.dumps(spec.fingerprint()))
        run_id = spec.run_id()
        path = self.dir / self.SPEC
        if path.exists():
            size = self._same_run(spec, rows)
            self.run_id = run_id
            self.clean_temporaries()
            return size
        self.dir.mkdir(parents=True, exist_ok=True)
        # a manifest left by another run (its run.json removed) must not describe this one
        remove(self.dir / "manifest.json")
        self.run_id = run_id
        write_json(path, {"tool": "sim", "format": FORMAT, "fingerprint": fp, "run_id": run_id,
                          "chunk_size": int(chunk_size), "rows": rows, "sim_version": __version__})
        return int(chunk_size)

    def clean_temporaries(self) -> None:
        """Remove the temporaries a stopped run left (a crash or kill -9 mid-write) in this
        run's own folders: only names of this run's temporary patterns, nothing else."""
        for d, pattern in ((self.dir, _TEMP), (self.chunk_dir, _TEMP), (self.rows_dir, _TEMP),
                           (self.rows_dir, _PART_TEMP), (self.dir / "games", _TEMP)):
            try:
                names = [f for f in d.iterdir() if pattern.match(f.name)]
            except OSError:  # no such folder
                continue
            for f in names:
                if f.is_file() and not f.is_symlink():
                    remove(f)

    # ------------------------------------------------------- chunk records
    def records(self):
        """(start, count, path) of every file named like a chunk record."""
        if not self.chunk_dir.is_dir():
            return
        for f in sorted(self.chunk_dir.iterdir()):
            m = _CHUNK.match(f.name)
            if m:
                yield int(m.group(1)), int(m.group(2)), f

    def read_record(self, f: Path, start: int, count: int, players: int | None = None) -> dict | None:
        """A chunk record of this run, or None (damaged, foreign, a directory, another
        format): such a chunk is simply played again."""
        try:
            rec = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return None
        if not isinstance(rec, dict) or rec.get("format") != FORMAT:
            return None
        if self.run_id is None or rec.get("run") != self.run_id:
            return None
        if rec.get("start") != start or rec.get("count") != count:
            return None
        try:
            s = Summary.from_dict(rec["summary"])
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return None
        if s.n != count or (players is not None and s.players != players):
            return None
        rec["_summary"] = s
        return rec

    def part_ok(self, start: int, rec: dict) -> bool:
        """Whether the chunk's Parquet part is there with the recorded size and checksum."""
        part = rec.get("part")
        p = self.rows_path(start)
        if not isinstance(part, dict) or not p.is_file():
            return False
        try:
            if p.stat().st_size != part.get("size"):
                return False
            return file_sha256(p) == (part.get("size"), part.get("sha256"))
        except OSError:
            return False

    def finished(self, chunks, need_rows: bool, players: int | None = None) -> dict[int, Summary]:
        """Statistics of the chunks of this plan that are finished, verified; every other
        record and part in the directory (damaged, foreign, of another plan) is removed, so
        that what is left is exactly this run's finished chunks."""
        plan = dict(chunks)
        out: dict[int, Summary] = {}
        for start, count, f in list(self.records()):
            rec = self.read_record(f, start, count, players) if plan.get(start) == count else None
            if rec is not None and need_rows and not self.part_ok(start, rec):
                rec = None
            if rec is None:
                self._discard(f)
                continue
            out[start] = rec["_summary"]
        if self.rows_dir.is_dir():  # parts without a valid record: a crash between the two
            for p in self.rows_dir.iterdir():
                m = _PART.match(p.name)
                if m and int(m.group(1)) not in out:
                    self._discard(p)
        return out

    def _discard(self, path: Path) -> None:
        if path.is_dir():
            import shutil
            shutil.rmtree(path, ignore_errors=True)
        else:
            remove(path)

    def finished_parts(self) -> list[Path]:
        """Row files of the finished chunks of the run recorded in run.json, in game order
        (checked by size; a full checksum is verified when a run is resumed)."""
        try:
            meta = read_run_record(self.dir)
        except UsageError:
            return []
        self.run_id = meta.get("run_id")
        parts = []
        for start, count, f in self.records():
            rec = self.read_record(f, start, count)
            p = self.rows_path(start)
            if rec is None or not isinstance(rec.get("part"), dict) or not p.is_file():
                continue
            if p.stat().st_size == rec["part"].get("size"):
                parts.append((start, p))
        return [p for _, p in sorted(parts)]

    def rows_path(self, start: int) -> Path:
        return self.rows_dir / f"part-{start:012d}.parquet"

    def save_rows(self, start: int, rows) -> dict:
        """Write a chunk's rows (a DataFrame, or the columns of ``sim.results.to_columns``);
        returns the part's size and checksum for its record.

        Called in the worker that played the chunk (local backends), so the rows never travel
        back.  pyarrow writes the file itself, in about half the time of ``to_parquet``
        (pandas writes through a Python file object); from the columns, pandas is not needed
        (the file then has no pandas metadata: it reads back to the same frame)."""
        import pyarrow.parquet as pq
        table = arrow_table(rows)
        path = atomic_write(self.rows_path(start), lambda tmp: pq.write_table(table, tmp))
        size, sha = file_sha256(path)
        return {"name": path.name, "size": size, "sha256": sha}

    def save_summary(self, start: int, count: int, summary: Summary, part: dict | None = None) -> None:
        rec = {"format": FORMAT, "run": self.run_id, "start": start, "count": count,
               "part": part, "summary": summary.to_dict()}
        write_text(self.chunk_dir / f"{start:012d}-{count}.json", json.dumps(rec))


def arrow_table(rows):
    """A chunk's rows (a DataFrame, or the columns of ``sim.results.to_columns``) as the
    pyarrow table its Parquet part holds."""
    import pyarrow as pa
    if isinstance(rows, dict):
        return pa.Table.from_arrays([_arrow(v) for v in rows.values()], names=list(rows))
    return pa.Table.from_pandas(rows, preserve_index=False)


def _arrow(a):
    """A 1-d numpy array (numbers or bools) as a pyarrow array, built from its buffer:
    ``pa.array`` imports pandas to check for its types (0.2 s in every worker)."""
    import numpy as np
    import pyarrow as pa
    a = np.ascontiguousarray(a)
    if a.dtype == np.bool_:
        return pa.Array.from_buffers(pa.bool_(), len(a), [None, pa.py_buffer(np.packbits(a, bitorder="little"))])
    return pa.Array.from_buffers(pa.from_numpy_dtype(a.dtype), len(a), [None, pa.py_buffer(a)])
