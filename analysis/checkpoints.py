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
not read back (truncated, edited, another key) is played again.

The files are JSON (no pickles: a folder handed over by someone else cannot run code), each
written atomically and carrying its key and a checksum of its content.
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
_current: contextvars.ContextVar = contextvars.ContextVar("checkpoints", default=None)


@contextlib.contextmanager
def checkpoints(out_dir):
    """Keep (and reuse) the finished chunks of every experiment played inside, under
    ``out_dir/.chunks``."""
    token = _current.set(Path(out_dir) / FOLDER)
    try:
        yield
    finally:
        _current.reset(token)


def active() -> Path | None:
    return _current.get()


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

    def save(self, result) -> None:
        from sim.io import write_text
        start, count, summs, stats, _ = result
        body = {"start": int(start), "count": int(count),
                "summaries": [s.to_dict() for s in summs],
                "stats": {k: _encode(v) for k, v in stats.items()}}
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(text.encode()).hexdigest()
        self.dir.mkdir(parents=True, exist_ok=True)
        write_text(self._path(start, count), json.dumps(
            {"format": FORMAT, "key": self.key, "sha256": digest, "body": body},
            separators=(",", ":")))

    def load(self, start: int, count: int):
        """The chunk's result as ``run_arms`` merges it, or None (missing or unreadable)."""
        path = self._path(start, count)
        if not path.is_file():
            return None
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
            body = rec["body"]
            text = json.dumps(body, sort_keys=True, separators=(",", ":"))
            if (rec.get("format") != FORMAT or rec.get("key") != self.key
                    or hashlib.sha256(text.encode()).hexdigest() != rec.get("sha256")
                    or body["start"] != start or body["count"] != count):
                return None
            summs = [Summary.from_dict(d) for d in body["summaries"]]
            stats = {k: _decode(v) for k, v in body["stats"].items()}
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError,
                RecursionError):
            return None
        return start, count, summs, stats, 0.0
