"""The one way this project reads a TOML file (a game's data file or a variants file).

Every file a user can name goes through :func:`load`:

* regular files only: a directory, a device (``/dev/zero``), a FIFO or a socket is refused
  before anything is read (the file is opened without blocking, then checked);
* at most :data:`MAX_BYTES` bytes (data files are a few kilobytes);
* UTF-8 text (a UTF-16 file or a binary file is named as such);
* nesting at most :data:`MAX_DEPTH` tables or arrays deep;

and every problem is one :class:`~sim.params.ParamError` line naming the file.  Python
3.10 reads TOML with the ``tomli`` backport, 3.11 and later with ``tomllib``.

The content of every file read is hashed: :func:`recording` collects ``(name, sha256)`` of
the files read inside it, so a run's identity can include the content of its data files.
"""
from __future__ import annotations

import bisect
import errno
import hashlib
import os
import re
import stat
import threading
from contextlib import contextmanager
from pathlib import Path

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10: the backport, same API
    import tomli as tomllib

from .params import ParamError

MAX_BYTES = 4 * 2 ** 20
MAX_DEPTH = 32

TOMLDecodeError = tomllib.TOMLDecodeError

_local = threading.local()


def _shown(path) -> str:
    from .validate import safe
    return safe(repr(str(path)))


def read_bytes(path, what: str, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; a ParamError line otherwise."""
    name = f"{what} file {_shown(path)}"
    if str(path).strip() == "":
        raise ParamError(f"{what} file: the path is empty")
    try:
        # O_NONBLOCK: opening a FIFO does not wait for a writer; it changes nothing for files
        fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise ParamError(f"{name} cannot be read: it does not exist") from None
    except IsADirectoryError:
        raise ParamError(f"{name} is a directory, not a file") from None
    except OSError as e:
        raise ParamError(f"{name} cannot be read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ParamError(f"{name} is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise ParamError(f"{name} is not a regular file (a device, pipe or socket)")
        if st.st_size > max_bytes:
            raise ParamError(f"{name} is {st.st_size:,} bytes; data files may hold at most "
                             f"{max_bytes:,}")
        chunks, total = [], 0
        while True:
            b = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not b:
                break
            chunks.append(b)
            total += len(b)
            if total > max_bytes:  # it grew while we read it
                raise ParamError(f"{name} holds more than {max_bytes:,} bytes")
        return b"".join(chunks)
    except OSError as e:
        if e.errno == errno.EISDIR:
            raise ParamError(f"{name} is a directory, not a file") from None
        raise ParamError(f"{name} cannot be read: {e.strerror or e}") from None
    finally:
        os.close(fd)


def decode(data: bytes, path, what: str) -> str:
    name = f"{what} file {_shown(path)}"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ParamError(f"{name} is UTF-16 text; save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ParamError(f"{name} is not UTF-8 text (byte {e.start}); is it a binary file?") from None
    if "\x00" in text:
        raise ParamError(f"{name} holds NUL bytes: it is not a text file")
    return text.removeprefix("\ufeff")


def _depth_ok(obj, limit: int) -> bool:
    """Whether ``obj`` nests at most ``limit`` dicts/lists deep (iterative: no recursion)."""
    stack = [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            items = o.values()
        elif isinstance(o, list):
            items = o
        else:
            continue
        if d > limit:
            return False
        stack.extend((v, d + 1) for v in items if isinstance(v, (dict, list)))
    return True


_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _bracket_depth(text: str) -> int:
    """An upper bound on the nesting of arrays and inline tables, counted without parsing
    (brackets inside strings count too: a bound, not the exact depth; a closing bracket
    with none open counts nothing).  With S the running count of opening minus closing
    brackets, the depth after each bracket is S less the lowest S (or 0) met so far: a
    MB of brackets in 40 ms instead of 75, a MB of other text in 2.5 ms instead of 25."""
    import numpy as np
    brackets = _NOT_BRACKET.sub("", text).encode("ascii")
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, np.uint8)
    S = np.cumsum(np.where((codes == ord("[")) | (codes == ord("{")), 1, -1))
    return int((S - np.minimum.accumulate(np.minimum(S, 0))).max(initial=0))


def loads(text: str, path, what: str, max_depth: int = MAX_DEPTH) -> dict:
    name = f"{what} file {_shown(path)}"
    if _bracket_depth(text) > 4 * max_depth:  # refuse absurd nesting before the parser recurses
        raise ParamError(f"{name} nests arrays or tables more than {max_depth} deep")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ParamError(f"{name} is not valid TOML ({e})") from None
    except RecursionError:
        raise ParamError(f"{name} nests arrays or tables more than {max_depth} deep") from None
    if not _depth_ok(data, max_depth):
        raise ParamError(f"{name} nests arrays or tables more than {max_depth} deep")
    return data


def load(path, what: str) -> dict:
    """Read, check and parse a TOML file; ``what`` names it in messages ("board", "--variants")."""
    data = read_bytes(path, what)
    _record(path, data)
    return loads(decode(data, path, what), path, what)


def load_with_text(path, what: str) -> tuple[dict, str]:
    """:func:`load`, and the text it parsed (for :func:`key_lines`, when a message needs a line)."""
    data = read_bytes(path, what)
    _record(path, data)
    text = decode(data, path, what)
    return loads(text, path, what), text


def digest(path, what: str) -> str:
    """sha256 of a data file's content (checked like :func:`load`), recorded like a read."""
    data = read_bytes(path, what)
    _record(path, data)
    return hashlib.sha256(data).hexdigest()


def _record(path, data: bytes) -> None:
    rec = getattr(_local, "files", None)
    if rec is not None:
        item = (Path(path).name, hashlib.sha256(data).hexdigest())
        rec[item] = item
        paths = getattr(_local, "paths", None)
        if paths is not None:
            paths[item] = str(path)


@contextmanager
def recording_paths():
    """Like :func:`recording`, also keeping where each file was read: ``(name, sha256) ->
    path`` in the dict yielded (what ``make_spec`` needs to see a data file change)."""
    outer = getattr(_local, "paths", None)
    _local.paths = {}
    box: dict = {}
    try:
        yield box
    finally:
        box.update(_local.paths)
        if outer is not None:
            outer.update(_local.paths)
        _local.paths = outer


def unchanged(paths: dict) -> bool:
    """Whether every file of ``{(name, sha256): path}`` still holds that content."""
    for (_, sha), path in paths.items():
        try:
            if hashlib.sha256(Path(path).read_bytes()).hexdigest() != sha:
                return False
        except OSError:
            return False
    return True


@contextmanager
def recording():
    """Collect ``(file name, sha256)`` of every file read inside the block (this thread)."""
    outer = getattr(_local, "files", None)
    _local.files = {}
    box: list = []
    try:
        yield box
    finally:
        box.extend(sorted(_local.files.values()))
        if outer is not None:
            outer.update(_local.files)
        _local.files = outer


# ------------------------------------------------------------------ where each value is
def key_lines(text: str) -> dict:
    """The line (1-based) of every key and array element of a TOML text already parsed by
    :func:`loads`: ``{path: line}``, a path being the keys and indices leading to a value,
    e.g. ``("card", 2, "count")`` (the third ``[[card]]``'s count), ``("faces", 0)`` (the
    first face), ``("bank", "5")``; a table's header has the table's path.  tomllib keeps
    no positions, so this scans the text once more (strings, comments and brackets
    skipped as TOML reads them); keys are decoded by tomllib itself.  A scan that goes
    wrong returns what it found (a message then names no line), never an error."""
    scan = _Scan(text)
    try:
        scan.run()
    except Exception:  # pragma: no cover - a text tomllib read but this scan does not follow
        pass
    return scan.lines()


_BLANK = re.compile(r"[ \t\r]*")
_BLANK_LINES = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_SCALAR = re.compile(r"[^,\]}\n#]*")
_KEY_PLAIN = {stop: re.compile(f"[^{re.escape(stop)}\"'\n]*") for stop in ("=", "]")}
#: an array's run of scalars, commas, blanks and comments (no string, array or table)
_ARRAY_PLAIN = re.compile(r"(?:[^\[\]{}\"'#]|#[^\n]*)*")
#: elements of one array whose lines are kept (a message past them names the array's line)
MAX_ELEMENTS = 10_000
_BARE = re.compile(r"[A-Za-z0-9_-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_-]+)*")
_BASIC = re.compile(r'"(?:[^"\\\n]|\\.)*"?')
_LITERAL = re.compile(r"'[^'\n]*'?")


class _Scan:
    """Positions are kept as offsets while scanning and turned into lines at the end."""

    def __init__(self, text: str):
        self.t = text
        self.i = 0
        self.out: dict = {}   # path -> offset
        self.aot: dict = {}   # array-of-tables path -> elements seen

    @property
    def line(self) -> int:   # the offset, named for what it becomes
        return self.i

    def lines(self) -> dict:
        starts = [m.end() for m in re.finditer("\n", self.t)]
        return {p: bisect.bisect_right(starts, off) + 1 for p, off in self.out.items()}

    # -- characters
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.t[j] if j < len(self.t) else ""

    def step(self, k: int = 1) -> None:
        self.i += k

    def blank(self, newlines: bool) -> None:
        """Skip spaces (and newlines and comments when ``newlines``)."""
        self.i = (_BLANK_LINES if newlines else _BLANK).match(self.t, self.i).end()

    def string(self) -> None:
        q = self.peek()
        if self.t.startswith(q * 3, self.i):
            j = self.i + 3
            while True:
                j = self.t.find(q * 3, j)
                if j < 0:
                    j = len(self.t) - 3
                    break
                if q == '"' and _escaped(self.t, j):
                    j += 1
                    continue
                break
            while self.t.startswith(q, j + 3):   # up to two quotes may close the content
                j += 1
            self.step(j + 3 - self.i)
            return
        self.i = (_BASIC if q == '"' else _LITERAL).match(self.t, self.i).end()

    # -- keys
    def key_text(self, stop: str) -> str:
        """The raw text of a (dotted) key up to ``stop`` (outside quotes)."""
        start = self.i
        plain = _KEY_PLAIN[stop]
        while True:
            self.i = plain.match(self.t, self.i).end()
            if self.i < len(self.t) and self.peek() in "\"'":
                self.string()
            else:
                return self.t[start:self.i]

    @staticmethod
    def decode(raw: str) -> tuple:
        if _BARE.fullmatch(raw):   # bare keys, dotted or not: most keys of a data file
            return tuple(k.strip() for k in raw.split("."))
        d = tomllib.loads(raw + " = 0")
        keys = []
        while isinstance(d, dict):
            (k, d), = d.items()
            keys.append(k)
        return tuple(keys)

    def resolve(self, keys: tuple) -> tuple:
        """A header's keys with the current element of each array of tables they pass."""
        path: tuple = ()
        for k in keys:
            path += (k,)
            if path in self.aot:
                path += (self.aot[path] - 1,)
        return path

    # -- values
    def value(self, path) -> None:
        """Skip one value, keeping where it and its elements start (``path`` None: keep
        nothing, the elements past :data:`MAX_ELEMENTS` of an array)."""
        if path is not None:
            self.out.setdefault(path, self.line)
        c = self.peek()
        if c in "\"'":
            self.string()
        elif c == "[":
            self.step()
            k = 0
            while True:
                self.blank(True)
                if self.peek() in ("]", ""):
                    self.step()
                    return
                if self.peek() == ",":
                    self.step()
                    continue
                if path is None or k >= MAX_ELEMENTS:   # the rest at regex speed, unkept
                    self.i = _ARRAY_PLAIN.match(self.t, self.i).end()
                    if self.peek() in "[{\"'":
                        self.value(None)
                    continue
                self.value(path + (k,))
                k += 1
        elif c == "{":
            self.step()
            while True:
                self.blank(False)
                if self.peek() in ("}", ""):
                    self.step()
                    return
                if self.peek() == ",":
                    self.step()
                    continue
                if path is None:
                    self.key_text("=")
                    self.step()
                    self.blank(False)
                    self.value(None)
                    continue
                self.pair(path)
        else:
            self.i = _SCALAR.match(self.t, self.i).end()

    def pair(self, table: tuple) -> None:
        line = self.line
        raw = self.key_text("=")
        self.step()
        self.blank(False)
        path = table + self.decode(raw.strip())
        for k in range(len(table) + 1, len(path) + 1):  # a dotted key: every table it opens
            self.out.setdefault(path[:k], line)
        self.value(path)

    def run(self) -> dict:
        table: tuple = ()
        while True:
            self.blank(True)
            if self.i >= len(self.t):
                return
            line = self.line
            if self.t.startswith("[[", self.i):
                self.step(2)
                keys = self.decode(self.key_text("]").strip())
                self.step(2)
                base = self.resolve(keys[:-1]) + keys[-1:]
                self.aot[base] = self.aot.get(base, 0) + 1
                table = base + (self.aot[base] - 1,)
                self.out.setdefault(base, line)
                self.out[table] = line
            elif self.peek() == "[":
                self.step()
                table = self.resolve(self.decode(self.key_text("]").strip()))
                self.step()
                self.out[table] = line
            else:
                self.pair(table)


def _escaped(text: str, j: int) -> bool:
    """Whether the character at ``j`` is escaped by an odd run of backslashes before it."""
    n = 0
    while j - 1 - n >= 0 and text[j - 1 - n] == "\\":
        n += 1
    return n % 2 == 1
