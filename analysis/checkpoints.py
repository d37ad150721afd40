"""Finished chunks of an experiment, kept on disk so that a stopped experiment resumes.

Every experiment (``compare``, ``sweep``, ``skill`` and its ladder, ``impact``, ``robust``)
plays through :func:`analysis.experiment_runs.run_arms`, one call per group of arms that
share games.  Inside ``with checkpoints(out_dir):`` (the command line opens one on the
experiment's report folder) each call keeps every chunk it merges in
``out_dir/.chunks/<key>/<start>-<count>.json``, where ``key`` is a sha256 of everything
the chunk's figures depend on: the game and its version, every arm's rules, data-file
content, bots, players and seed, whether its seats are swapped, the number of games and the
chunk plan.  Running the same command again into the same folder finds the chunks of every
group already played and plays only the rest; the figures are the same, bit for bit, as an
uninterrupted experiment's (chunks are merged in the same order).  A chunk file that does
not read back (truncated, edited, another key) is played again.  Only that same command
gets so far: the folder's record (``sim.validate.RECORD``: kind, game and settings, checked
under the folder's writer lock by ``sim.commands.common``) refuses another experiment, other
settings, a finished experiment and a second process before anything is played.

``sim robust`` and ``sim tune`` play through tasks of their own (a chunk of the baseline and
the conditions still running; a chunk of a batch of candidates): :func:`task_store` keeps
their results the same way, under a key over what the task's figures depend on.  Their
decisions (early stops, promotions, the sampler's next candidate) are made from the merged
chunk results only, so a resumed run makes the same ones and ends with the same figures.

The files are JSON (no pickles: a folder handed over by someone else cannot run code), each
written atomically and carrying its key and a checksum of its content.

:data:`TIMING_FIELDS` names the fields of a saved result (manifest, report JSON) that
measure the run rather than its games: when and how long it ran.  They are the only fields
in which a resumed experiment differs from an uninterrupted one (:func:`without_timing`).
"""
from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
from pathlib import Path

import numpy as np

from sim.summary import Summary

FOLDER = ".chunks"
FORMAT = 1
#: fields that measure the run, not its games: wall and CPU time, and when it started and ended
TIMING_FIELDS = ("started", "finished", "seconds", "seconds_search", "cpu_seconds")
_current: contextvars.ContextVar = contextvars.ContextVar("checkpoints", default=None)


class Kept:
    """The folder of kept chunks of a :func:`checkpoints` block, and how many chunks of an
    earlier try were read back in it (``reused``)."""

    def __init__(self, root: Path):
        self.root = root
        self.reused = 0


@contextlib.contextmanager
def checkpoints(out_dir):
    """Keep (and reuse) the finished chunks of every experiment played inside, under
    ``out_dir/.chunks``; yields the block's :class:`Kept`."""
    kept = Kept(Path(out_dir) / FOLDER)
    token = _current.set(kept)
    try:
        yield kept
    finally:
        _current.reset(token)


def active() -> Path | None:
    kept = _current.get()
    return None if kept is None else kept.root


def _reused() -> None:
    kept = _current.get()
    if kept is not None:
        kept.reused += 1


def without_timing(obj):
    """``obj`` (parsed JSON: dicts and lists) without the :data:`TIMING_FIELDS`, at any depth."""
    if isinstance(obj, dict):
        return {k: without_timing(v) for k, v in obj.items() if k not in TIMING_FIELDS}
    if isinstance(obj, list):
        return [without_timing(v) for v in obj]
    return obj


def group_key(game, arms, games: int, seed: int, chunks) -> str:
    """sha256 of what a group of arms' chunks depend on (see the module docstring)."""
    what = {"format": FORMAT, "game": game.name, "version": game.version, "games": int(games),
            "seed": int(seed), "chunks": [[int(s), int(c)] for s, c in chunks],
            "arms": [{"spec": a.spec.fingerprint(), "swapped": bool(a.swapped)} for a in arms]}
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _encode(v):
    if isinstance(v, np.ndarray):
        if v.dtype == np.uint64:  # fingerprints: exact, as decimal strings
            return {"u64": [str(int(x)) for x in v.ravel()], "shape": list(v.shape)}
        return {"dtype": str(v.dtype), "data": v.tolist(), "shape": list(v.shape)}
    return v


def _decode(v):
    if isinstance(v, dict) and "u64" in v:
        return np.array([int(x) for x in v["u64"]], np.uint64).reshape(v["shape"])
    if isinstance(v, dict) and "dtype" in v:
        dt = np.dtype(v["dtype"])
        if dt.kind not in "iufb":
            raise ValueError(f"unexpected dtype {dt}")
        return np.asarray(v["data"], dt).reshape(v["shape"])
    return v


class GroupStore:
    """The chunk files of one group of arms (one ``run_arms`` call)."""

    def __init__(self, root: Path, key: str):
        self.dir = Path(root) / key
        self.key = key

    def _path(self, start: int, count: int) -> Path:
        return self.dir / f"{int(start)}-{int(count)}.json"

    def _write(self, body: dict) -> None:
        """Write ``body`` (with its chunk's ``start`` and ``count``) whole, with this store's
        key and the body's checksum."""
        from sim.io import write_text
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(text.encode()).hexdigest()
        self.dir.mkdir(parents=True, exist_ok=True)
        write_text(self._path(body["start"], body["count"]), json.dumps(
            {"format": FORMAT, "key": self.key, "sha256": digest, "body": body},
            separators=(",", ":")))

    def _read(self, start: int, count: int):
        """The body kept for the chunk, or None: missing, or not this format, key, checksum
        or chunk.  Errors of a damaged file propagate to the caller's reading of it."""
        path = self._path(start, count)
        if not path.is_file():
            return None
        rec = json.loads(path.read_text(encoding="utf-8"))
        body = rec["body"]
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        if (rec.get("format") != FORMAT or rec.get("key") != self.key
                or hashlib.sha256(text.encode()).hexdigest() != rec.get("sha256")
                or body["start"] != start or body["count"] != count):
            return None
        return body

    def save(self, result) -> None:
        start, count, summs, stats, _ = result
        self._write({"start": int(start), "count": int(count),
                     "summaries": [s.to_dict() for s in summs],
                     "stats": {k: _encode(v) for k, v in stats.items()}})

    def load(self, start: int, count: int):
        """The chunk's result as ``run_arms`` merges it, or None (missing or unreadable)."""
        try:
            body = self._read(start, count)
            if body is None:
                return None
            summs = [Summary.from_dict(d) for d in body["summaries"]]
            stats = {k: _decode(v) for k, v in body["stats"].items()}
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError,
                RecursionError):
            return None
        _reused()
        return start, count, summs, stats, 0.0


def _pack(v):
    """A task's result (tuples, lists, dicts with any keys, numpy arrays and numbers) as JSON
    values that :func:`_unpack` turns back into the same types and values, bit for bit."""
    if isinstance(v, np.ndarray):
        return {"nd": _encode(v)}
    if isinstance(v, tuple):
        return {"t": [_pack(x) for x in v]}
    if isinstance(v, list):
        return [_pack(x) for x in v]
    if isinstance(v, dict):
        return {"d": [[_pack(k), _pack(x)] for k, x in v.items()]}
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return {"f": float(v)}
    if isinstance(v, Summary):
        return {"summary": v.to_dict()}
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    raise TypeError(f"cannot keep a {type(v).__name__} in a chunk file")


def _unpack(v):
    if isinstance(v, list):
        return [_unpack(x) for x in v]
    if isinstance(v, dict):
        (tag, x), = v.items()
        if tag == "nd":
            return _decode(x)
        if tag == "t":
            return tuple(_unpack(y) for y in x)
        if tag == "d":
            return {_unpack(k): _unpack(y) for k, y in x}
        if tag == "f":
            return np.float64(x)
        if tag == "summary":
            return Summary.from_dict(x)
        raise ValueError(f"unexpected tag {tag!r}")
    return v


class TaskStore(GroupStore):
    """The chunk files of one stage of ``sim robust`` or one batch of ``sim tune``: each a
    task's whole result (``result[0]``, ``result[1]``: the chunk's first game and count)."""

    def save(self, result) -> None:
        self._write({"start": int(result[0]), "count": int(result[1]), "result": _pack(result)})

    def load(self, start: int, count: int):
        """The task's result as it was saved, or None (missing, unreadable, another key)."""
        try:
            body = self._read(start, count)
            if body is None:
                return None
            result = _unpack(body["result"])
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError,
                RecursionError):
            return None
        _reused()
        return result


def task_store(*identity) -> TaskStore | None:
    """Where the tasks identified by ``identity`` (everything their figures depend on:
    numbers, strings, numpy arrays, nested in tuples, lists and dicts) keep their results,
    or None outside :func:`checkpoints`."""
    root = active()
    if root is None:
        return None
    from sim.spec import digest
    return TaskStore(root, digest((FORMAT, identity)))
