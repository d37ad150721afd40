"""Recorded games: every action and chance outcome of chosen games, compactly.

Off by default (a run records nothing and pays one untaken branch per event); on for
chosen games (``sim GAME --record 0..99``, ``simulate(..., record=...)``, ``sim show``).

Kernel side
-----------
A kernel that supports recording takes an ``int32`` buffer of shape ``(1 + capacity,
WIDTH)`` (``new_buffer``).  Row 0 is the header: ``[events written, snapshot rows
written, 0, ...]``.  Each event is one row ``(kind, actor, a, b, c, d, e, f)``:
``kind`` is one of the game's event codes (``Game.actions``), ``actor`` the seat that
chose (or -1 for chance), ``a..f`` the event's fields as the game declares them.  A
kernel appends with :func:`rec` (inlined: with the one-row ``NO_RECORD`` buffer it does
nothing but count).  Games that draw a board may also copy a snapshot of their state
after each turn into a second buffer (``snaps``, int64, one row per snapshot) with
:func:`rec_snapshot`; the row layout is the game's own (its ``show`` module reads it).

Python side
-----------
``Game.play_chunk(ctx, players, seed, start, count, bot_ids, bot_par, record=(buf, snaps))``
plays the games with recording on (``count`` must be 1: one buffer per game).
:func:`record_games` plays chosen game indices one at a time and returns
:class:`Record` objects; :func:`events_frame` names the fields.  The pure-Python
reference engines replay a record (``tests/reference/<game>_ref.py``: ``replay``),
checking every action is legal under the rules and every column matches, so they need
no copy of the bots.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .jit import helper_fused, helper_inline
from .params import UsageError

WIDTH = 8
#: header slots of row 0
H_EVENTS, H_SNAPS, H_OVERFLOW = 0, 1, 2
DEFAULT_CAPACITY = 1 << 16
MAX_RECORDED = 10_000


@dataclass(frozen=True)
class Action:
    """One kind of event a game records.

    ``code``: the kind stored in the event row; ``name``: a short identifier;
    ``fields``: names of the fields a..f it uses (in order); ``chance``: an outcome of
    chance rather than a choice; ``text``: a format string for ``sim show``, with
    ``{actor}`` (the seat's name) and the field names (e.g. ``"{actor} casts {value}"``).
    """

    code: int
    name: str
    fields: tuple[str, ...] = ()
    chance: bool = False
    text: str = ""


@helper_fused
def rec(buf, kind, actor, a, b, c, d, e, f):
    """Append one event row.  With the one-row ``NO_RECORD`` buffer it does nothing at all
    (that buffer is shared by every game and thread: no counter is written to it); with a
    full buffer it only counts (and flags the overflow).  ``helper_fused``: typed once
    and inlined by LLVM at each of its hundred-odd call sites (numba's own inlining typed
    it again at every site: about 10 s of Batam's 55 s cold compile)."""
    if buf.shape[0] == 1:
        return
    n = buf[0, H_EVENTS]
    if n + 1 < buf.shape[0]:
        r = n + 1
        buf[r, 0] = kind
        buf[r, 1] = actor
        buf[r, 2] = a
        buf[r, 3] = b
        buf[r, 4] = c
        buf[r, 5] = d
        buf[r, 6] = e
        buf[r, 7] = f
    else:
        buf[0, H_OVERFLOW] = 1
    buf[0, H_EVENTS] = n + 1


@helper_inline
def recording(buf):
    """True when ``buf`` records (so a kernel may skip work done only for the record)."""
    return buf.shape[0] > 1


@helper_inline
def rec_snapshot(buf, snaps, state, n):
    """Copy ``state[:n]`` into the next snapshot row (when recording and there is room)."""
    k = buf[0, H_SNAPS]
    if buf.shape[0] > 1 and k < snaps.shape[0]:
        for i in range(min(n, snaps.shape[1])):
            snaps[k, i] = state[i]
        buf[0, H_SNAPS] = k + 1


def new_buffer(capacity: int = DEFAULT_CAPACITY) -> np.ndarray:
    return np.zeros((1 + int(capacity), WIDTH), dtype=np.int32)


NO_RECORD = np.zeros((1, WIDTH), dtype=np.int32)
NO_SNAPS = np.zeros((0, 1), dtype=np.int64)


@dataclass
class Record:
    """One recorded game."""

    game: str
    index: int
    seed: int
    players: int
    rules: dict
    bots: list
    events: np.ndarray                 # (n, WIDTH) int32
    snapshots: np.ndarray | None       # (k, width) int64, or None
    columns: dict = field(default_factory=dict)   # the game's result row (name -> value)
    extra: dict[str, Any] = field(default_factory=dict)


def check_buffer(buf: np.ndarray) -> np.ndarray:
    """The events written into ``buf``; an error if the buffer was too small."""
    if buf[0, H_OVERFLOW]:
        raise RuntimeError(f"the record buffer held {buf.shape[0] - 1} events, the game made "
                           f"{int(buf[0, H_EVENTS])}: record with a larger capacity")
    return buf[1: 1 + int(buf[0, H_EVENTS])].copy()


def parse_indices(text: str, games: int | None = None) -> list[int]:
    """``"0..99"``, ``"5"``, ``"1,7,20..25"`` -> sorted game indices (at most MAX_RECORDED)."""
    out: set[int] = set()
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:\.\.(\d+))?", part)
        if not m:
            raise UsageError(f"--record takes game indices such as 0..99 or 3,17, not {text!r}")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise UsageError(f"--record {text!r}: the range {part} is empty")
        if hi - lo + 1 + len(out) > MAX_RECORDED:
            raise UsageError(f"--record records at most {MAX_RECORDED:,} games")
        out.update(range(lo, hi + 1))
    if not out:
        raise UsageError(f"--record {text!r} names no game")
    if games is not None and max(out) >= games:
        raise UsageError(f"--record {text!r}: the run plays games 0..{games - 1}")
    return sorted(out)


def record_games(game, ctx, players: int, seed: int, indices, bot_ids, bot_par, rules: dict,
                 bots: list, capacity: int = DEFAULT_CAPACITY, snapshot_width: int = 0,
                 snapshot_rows: int = 0) -> list[Record]:
    """Play each game of ``indices`` once more with recording on."""
    from .results import seat_column
    out = []
    for i in indices:
        buf = new_buffer(capacity)
        snaps = (np.zeros((snapshot_rows, snapshot_width), dtype=np.int64)
                 if snapshot_width else NO_SNAPS)
        cols = game.play_chunk(ctx, players, seed, int(i), 1, bot_ids, bot_par, record=(buf, snaps))
        row = {}
        for c in game.all_columns():
            v = np.asarray(cols[c.name])
            if c.per_seat:
                for s in range(players):
                    row[seat_column(c.name, s)] = v[0, s].item()
            else:
                row[c.name] = v[0].item()
        k = int(buf[0, H_SNAPS])
        out.append(Record(game.name, int(i), int(seed), players, dict(rules), list(bots),
                          check_buffer(buf), snaps[:k].copy() if snapshot_width else None, row))
    return out


def record_run(game, indices, rules: dict | None = None, bots=None, players: int | None = None,
               seed=None, capacity: int = DEFAULT_CAPACITY, spec=None) -> list[Record]:
    """Record games ``indices`` of the run ``(game, rules, bots, players, seed)``: the same
    games, bit for bit, as that run plays (``sim GAME --record``, ``sim show``, the replay
    test).  ``spec``: the run's own ``RunSpec`` instead (its rules are not prepared again)."""
    from .spec import DEFAULT_SEED, make_spec
    idx = sorted({int(i) for i in indices})
    if spec is None:
        spec = make_spec(game, max(idx) + 1, rules, bots, players,
                         DEFAULT_SEED if seed is None else seed)
    g = spec.game
    if not g.actions:
        raise UsageError(f"{g.name} cannot record its games yet")
    ids, par = g.bot_arrays(spec.bots)
    width, rows = g.record_shape(spec.rules, spec.players) if g.record_shape else (0, 0)
    return record_games(g, spec.ctx, spec.players, spec.seed, idx, ids, par, spec.rules,
                        [c.label for c in spec.bots], capacity, width, rows)


RECORDS = "records.npz"


def save_records(path, records: list[Record]):
    """Records into one compressed ``.npz``: per game its events (and snapshots), and one JSON
    entry with what each was played under (game, index, seed, players, rules, bots, row)."""
    import io
    import json
    from .io import write_bytes
    arrays = {}
    meta = []
    for r in records:
        arrays[f"events_{r.index}"] = r.events
        if r.snapshots is not None:
            arrays[f"snapshots_{r.index}"] = r.snapshots
        meta.append({"game": r.game, "index": r.index, "seed": str(r.seed), "players": r.players,
                     "rules": {k: list(v) if isinstance(v, tuple) else v for k, v in r.rules.items()},
                     "bots": list(r.bots), "columns": r.columns})
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return write_bytes(path, buf.getvalue())


def load_records(path) -> list[Record]:
    """The records :func:`save_records` wrote."""
    import json
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(bytes(z["meta"]).decode("utf-8"))
        out = []
        for m in meta:
            i = m["index"]
            snaps = z[f"snapshots_{i}"] if f"snapshots_{i}" in z.files else None
            out.append(Record(m["game"], i, int(m["seed"]), m["players"], m["rules"], m["bots"],
                              z[f"events_{i}"], snaps, m["columns"]))
    return out


def events_frame(game, events: np.ndarray, seat_names=None):
    """A readable table of a record's events: kind name, actor, and named fields."""
    import pandas as pd
    kinds = {a.code: a for a in game.actions}
    rows = []
    for step, ev in enumerate(np.asarray(events)):
        a = kinds.get(int(ev[0]))
        actor = int(ev[1])
        row = {"step": step, "kind": a.name if a else f"kind{int(ev[0])}",
               "actor": (seat_names[actor] if seat_names and 0 <= actor < len(seat_names) else actor),
               "chance": bool(a.chance) if a else False}
        for j, name in enumerate(a.fields if a else ()):
            row[name] = int(ev[2 + j])
        rows.append(row)
    return pd.DataFrame(rows)


def describe(game, events: np.ndarray, seat_names) -> list[str]:
    """One line per event from the game's ``Action.text`` templates (``sim show``'s
    fallback when a game has no narrator of its own)."""
    kinds = {a.code: a for a in game.actions}
    lines = []
    for ev in np.asarray(events):
        a = kinds.get(int(ev[0]))
        if a is None:
            lines.append(f"event {list(map(int, ev))}")
            continue
        actor = int(ev[1])
        vals = {name: int(ev[2 + j]) for j, name in enumerate(a.fields)}
        vals["actor"] = seat_names[actor] if 0 <= actor < len(seat_names) else "chance"
        try:
            lines.append(a.text.format(**vals) if a.text else f"{vals['actor']}: {a.name} {vals}")
        except (KeyError, IndexError, ValueError):
            lines.append(f"{vals['actor']}: {a.name} {vals}")
    return lines
