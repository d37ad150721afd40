"""A game's data file read value by value: every value checked for its type and range, every
problem one :class:`~sim.params.ParamError` line naming the file, the line and the field.

    root = datafile.load(path, "components")        # sim.toml.load, with lines
    start = root.int("start_coins", 1, 10_000)       # an integer, not a decimal, text or bool
    bank = root.table("bank")
    root.only("start_coins", "goods_per_player", "bank")   # nothing else, no spelling variant

A message reads ``components file '/x/c.toml', line 4: 'start_coins' must be an integer in
1..10000, not the decimal 20.5``.  Fields are named by their keys joined with dots, an
element of an array by its number counted from 1 (``card[3].count``: the third
``[[card]]``; ``faces[2]``).  TOML itself refuses a key given twice in one table;
:meth:`Node.only` refuses a key the game does not read, and a spelling variant of one it
reads (``Count`` beside or instead of ``count``).

A loader that builds a game's tables from a file can be cached on the file's content
(:func:`by_content`): a run, a sweep or a replay reads the same board once, not at every
chunk or step.
"""
from __future__ import annotations

import copy
import difflib
import threading
from collections import OrderedDict
from functools import wraps

from . import toml as TOML
from .params import ParamError

REQUIRED = object()


def by_content(what: str, keep: int = 16):
    """Decorate ``load(path)``, a loader that reads one ``what`` file and checks it, so that
    the same bytes at the same path are read, parsed and checked once: a call reads the
    file (checked and recorded for the manifest like any read, :func:`sim.toml.digest`),
    and where its content was loaded before returns a deep copy of what that load
    returned (a caller may change it).  An edited file is loaded afresh; a file that
    fails its checks is never kept, so its message is the same at every call; the last
    ``keep`` files are kept."""
    def wrap(load):
        kept: OrderedDict = OrderedDict()
        lock = threading.Lock()

        @wraps(load)
        def loader(path):
            key = (str(path), TOML.digest(path, what))
            with lock:
                value = kept.get(key)
                if value is not None:
                    kept.move_to_end(key)
            if value is None:
                value = load(path)
                if TOML.digest(path, what) == key[1]:   # not edited while it was read
                    with lock:
                        kept[key] = value
                        while len(kept) > keep:
                            kept.popitem(last=False)
            return copy.deepcopy(value)
        return loader
    return wrap


def load(path, what: str) -> "Node":
    """The file's top-level table (read and checked by :func:`sim.toml.load_with_text`)."""
    data, text = TOML.load_with_text(path, what)
    return Node(File(path, what, text), data, ())


class File:
    """A data file: its path, what messages call it, and its text (scanned for lines only
    when a message needs one: a valid file costs no second reading)."""

    def __init__(self, path, what: str, text: str = ""):
        self.path, self.what, self.text = path, what, text
        self._lines = None

    @property
    def lines(self) -> dict:
        if self._lines is None:
            self._lines = TOML.key_lines(self.text)
        return self._lines

    def line(self, path: tuple) -> int | None:
        """The line of ``path``, else of the nearest table above it that has one."""
        for k in range(len(path), -1, -1):
            if path[:k] in self.lines:
                return self.lines[path[:k]]
        return None


def field_name(path: tuple) -> str:
    out = ""
    for k in path:
        if isinstance(k, int):
            out += f"[{k + 1}]"
        else:
            out += ("." if out else "") + str(k)
    return out


def shown(v, limit: int = 60) -> str:
    """A value as a message shows it: its kind for a decimal, a text, a bool, a list or a
    table, its repr cut to ``limit`` characters."""
    r = repr(v)
    if len(r) > limit:
        r = r[:limit] + "..."
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return r
    if isinstance(v, float):
        return f"the decimal {r}"
    if isinstance(v, str):
        return f"the text {r}"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    if isinstance(v, dict):
        return "a table"
    return f"the {type(v).__name__} {r}"   # a date or a time


def _norm(key: str) -> str:
    return str(key).strip().casefold().replace("-", "_").replace(" ", "_")


class Node:
    """A table (a dict) or an array (a list) of the file, at ``path``; keys are names for a
    table, indices for an array."""

    def __init__(self, file: File, data, path: tuple):
        self.file, self.data, self.path = file, data, path

    # -- naming
    def where(self, key=None) -> str:
        path = self.path if key is None else self.path + (key,)
        line = self.file.line(path)
        head = f"{self.file.what} file {TOML._shown(self.file.path)}"
        return head if line is None else f"{head}, line {line}"

    def name(self, key=None) -> str:
        return field_name(self.path if key is None else self.path + (key,))

    def fail(self, key, message: str) -> ParamError:
        """``<file>, line N: '<field>' <message>`` (the field: this node's, or its ``key``)."""
        return ParamError(f"{self.where(key)}: '{self.name(key)}' {message}")

    # -- raw values
    def __len__(self) -> int:
        return len(self.data)

    def keys(self):
        return range(len(self.data)) if isinstance(self.data, list) else list(self.data)

    def has(self, key) -> bool:
        if isinstance(self.data, list):
            return isinstance(key, int) and 0 <= key < len(self.data)
        return key in self.data

    def get(self, key, default=REQUIRED):
        if self.has(key):
            return self.data[key]
        if default is REQUIRED:
            raise self.fail(key, "is missing")
        return default

    # -- typed values
    def int(self, key, lo: int, hi: int, default=REQUIRED) -> int:
        v = self.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise self.fail(key, f"must be an integer in {lo}..{hi}, not {shown(v)}")
        return int(v)

    def bool(self, key, default=REQUIRED) -> bool:
        v = self.get(key, default)
        if not isinstance(v, bool):
            raise self.fail(key, f"must be true or false, not {shown(v)}")
        return v

    def text(self, key, default=REQUIRED, choices=None, max_len: int = 200) -> str:
        """A non-blank text of at most ``max_len`` characters (one of ``choices`` if given)."""
        v = self.get(key, default)
        if choices is not None:
            if not isinstance(v, str) or v not in choices:
                raise self.fail(key, f"must be one of {', '.join(map(repr, choices))}, not {shown(v)}")
            return v
        if not isinstance(v, str) or not v.strip() or len(v) > max_len:
            raise self.fail(key, f"must be a text of 1 to {max_len} characters, not {shown(v)}")
        return v

    def table(self, key, default=REQUIRED) -> "Node":
        v = self.get(key, default)
        if not isinstance(v, dict):
            raise self.fail(key, f"must be a table, not {shown(v)}")
        return Node(self.file, v, self.path + (key,))

    def array(self, key, lo: int, hi: int, default=REQUIRED) -> "Node":
        """A list of ``lo`` to ``hi`` elements (checked one by one by the caller)."""
        v = self.get(key, default)
        if not isinstance(v, list) or not lo <= len(v) <= hi:
            what = f"{len(v)} elements" if isinstance(v, list) else shown(v)
            raise self.fail(key, f"must be a list of {lo} to {hi} elements, not {what}")
        return Node(self.file, v, self.path + (key,))

    def tables(self, key, lo: int, hi: int, default=REQUIRED) -> list:
        """An array of tables (``[[key]]``) of ``lo`` to ``hi`` entries, as nodes."""
        arr = self.array(key, lo, hi, default)
        return [arr.table(i) for i in range(len(arr))]

    # -- the keys themselves
    def only(self, *known) -> None:
        """Refuse a key that is not in ``known`` (naming the one meant when it is a spelling
        variant: case, spaces, ``-`` for ``_``), so that no value is silently ignored."""
        by_norm = {_norm(k): k for k in known}
        for key in self.keys():
            if key in known:
                continue
            meant = by_norm.get(_norm(key))
            if meant is not None and meant in self.data:
                line = self.file.line(self.path + (meant,))
                at = f" (line {line})" if line is not None else ""
                raise self.fail(key, f"repeats '{self.name(meant)}'{at} spelled differently; give it once")
            if meant is not None:
                raise self.fail(key, f"must be spelled '{meant}'")
            close = difflib.get_close_matches(str(key), [str(k) for k in known], n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise self.fail(key, f"is not a key of this table ({hint}known: {', '.join(map(str, known))})")


def unique(items, what: str) -> None:
    """``items``: ``(node, key, value)`` whose values must differ, case and spelling variants
    aside (``_norm``); the second of two equal ones is refused, naming the first's line."""
    seen: dict = {}
    for node, key, v in items:
        n = _norm(v)
        if n in seen:
            first, fkey = seen[n]
            line = first.file.line(first.path + (fkey,))
            at = f" (line {line})" if line is not None else ""
            v0 = repr(first.data[fkey])
            raise node.fail(key, f"repeats the {what} {v0[:60] + '...' if len(v0) > 60 else v0} of "
                                 f"'{first.name(fkey)}'{at}")
        seen[n] = (node, key)
