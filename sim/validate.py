"""Checks every command shares, run before anything is written.

A run and every experiment (``compare``, ``sweep``, ``skill``, ``impact``) validate their
options here, in the same way: ``--jobs``, ``--chunk-size``, ``--backend`` and
``--scheduler``, the output directory, sweep ranges, variant names.  Messages go through
:func:`safe`, so a control character typed by a user is shown escaped, never sent raw to
the terminal.
"""
from __future__ import annotations

import json
import math
import os
import re
import socket
import struct
import tempfile
import unicodedata
from pathlib import Path

from .params import UsageError

BACKENDS = ("loky", "threading", "sequential", "dask")
#: sweeps with more variants than this need --yes (the command says how long they take)
GRID_ASK = 50
#: and more than this are refused outright (one figure point per variant)
GRID_MAX = 2_000
#: values one swept parameter may take
SWEEP_VALUES_MAX = 1_000


# ----------------------------------------------------------------- messages
def safe(text) -> str:
    """``text`` with control and other non-printing characters escaped (``\\x1b``; a tab
    too, ``\\x09``: a one-line message holds no control character at all), so that a
    message never moves the cursor, rings a bell or clears the user's terminal."""
    out = []
    for ch in str(text):
        if not unicodedata.category(ch).startswith("C"):
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


# ------------------------------------------------------------ run options
def cores() -> int:
    """CPU cores this process may use (its affinity mask, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def check_jobs(jobs, note=None) -> int:
    """``--jobs``: 0 means every core; more than the cores available is clamped to them
    (``note`` is told why); negative is an error."""
    try:
        j = int(jobs)
    except (TypeError, ValueError, OverflowError):
        raise UsageError(f"--jobs must be a whole number, not {safe(repr(jobs))}") from None
    if j < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {j}")
    n = cores()
    if j == 0:
        return n
    if j > n:
        if note is not None:
            shown = f"{j:,}" if j < 10 ** 12 else f"of {len(str(j))} digits"
            note(f"--jobs {shown} is more than the {n} cores available here: using {n}")
        return n
    return j


def check_chunk_size(chunk_size) -> int | None:
    if chunk_size is None:
        return None
    try:
        c = int(chunk_size)
    except (TypeError, ValueError, OverflowError):
        raise UsageError(f"--chunk-size must be a whole number, not {safe(repr(chunk_size))}") from None
    if c < 1:
        raise UsageError(f"--chunk-size must be at least 1, not {c}")
    return c


#: a --chunk-size is refused under this many games (each chunk is a file, two with rows:
#: --chunk-size 1 wrote one per game), but in a run of no more games than that
MIN_CHUNK = 100
#: or if it cuts a run into more chunks than this (or than the default plan of its games)
MAX_CHUNKS = 100_000


def check_chunk_count(games: int, chunk_size: int | None) -> None:
    """Refuse a ``--chunk-size`` under :data:`MIN_CHUNK` games (in a run of more games) or
    one that makes more than :data:`MAX_CHUNKS` chunks (for runs so big that the default
    makes more, more than the default makes: chunks of 50,000)."""
    if chunk_size is None:
        return
    chunks = math.ceil(games / chunk_size)
    if chunk_size < MIN_CHUNK < games:
        raise UsageError(f"--chunk-size {chunk_size:,} is under {MIN_CHUNK} games: each chunk is a file (two "
                         f"with rows), {chunks:,} for {games:,} games; use {MIN_CHUNK} or more, or leave it "
                         "out (the results do not depend on it)")
    limit = max(MAX_CHUNKS, math.ceil(games / 50_000))
    if chunks > limit:
        least = math.ceil(games / limit)
        raise UsageError(f"--chunk-size {chunk_size:,} cuts {games:,} games into {chunks:,} chunks, a file "
                         f"each (two with rows); at most {limit:,}: use --chunk-size {least:,} or more, "
                         "or leave it out (the results do not depend on it)")


def check_backend(backend: str | None, scheduler: str | None) -> None:
    if backend is not None and backend not in BACKENDS:
        raise UsageError(f"unknown backend '{safe(backend)}'; known: {', '.join(BACKENDS)}")
    if scheduler is not None:
        if backend != "dask":
            raise UsageError("--scheduler needs --backend dask")
        parse_scheduler(scheduler)


_ADDR = re.compile(r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?(?P<rest>.*)$")
_HOST = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


def parse_scheduler(address: str) -> tuple[str, str, int]:
    """``tcp://HOST:PORT`` (or ``tls://``, or ``HOST:PORT``) -> (scheme, host, port)."""
    shown = safe(repr(address))
    m = _ADDR.match(address.strip())
    scheme = (m.group("scheme") or "tcp").lower()
    rest = m.group("rest")
    if scheme in ("http", "https"):
        raise UsageError(f"--scheduler {shown}: that is a web address (the dashboard?); a Dask "
                         "scheduler listens on tcp://HOST:PORT (port 8786 by default)")
    if scheme not in ("tcp", "tls"):
        raise UsageError(f"--scheduler {shown}: the address must be tcp://HOST:PORT or "
                         "tls://HOST:PORT")
    if rest.startswith("["):
        host, sep, port = rest[1:].partition("]:")
        if not sep or not host or not all(c in "0123456789abcdefABCDEF:." for c in host):
            raise UsageError(f"--scheduler {shown}: not a valid address (IPv6 is tcp://[ADDR]:PORT)")
    else:
        host, sep, port = rest.rpartition(":")
        if not sep or not _HOST.match(host):
            raise UsageError(f"--scheduler {shown}: not a valid address; expected tcp://HOST:PORT")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"--scheduler {shown}: the port must be a number in 1..65535")
    return scheme, host, int(port)


#: seconds a Dask scheduler has to connect and send its handshake
PROBE_TIMEOUT = 5.0


def probe_scheduler(address: str, timeout: float | None = None) -> None:
    """Check that a Dask scheduler answers at ``address`` before the client connects.

    A Dask TCP listener speaks first: an 8-byte length, then a small handshake.  Anything
    else (a web server waits for a request; another service sends text) is refused here,
    before the Dask client would read a length from it and try to allocate that much."""
    scheme, host, port = parse_scheduler(address)
    shown = safe(address)
    timeout = PROBE_TIMEOUT if timeout is None else timeout
    if scheme != "tcp":
        return  # TLS: the Dask client's own handshake checks the peer
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.settimeout(timeout)
            head = b""
            while len(head) < 8:
                b = s.recv(8 - len(head))
                if not b:
                    raise UsageError(f"--scheduler {shown}: the peer closed the connection; "
                                     "it is not a Dask scheduler")
                head += b
    except socket.timeout:
        raise UsageError(f"--scheduler {shown}: no Dask handshake within {timeout:g} s; "
                         "is it a Dask scheduler's address?") from None
    except socket.gaierror as e:
        raise UsageError(f"cannot reach the Dask scheduler at {shown}: unknown host ({e.strerror})") from None
    except OSError as e:
        raise UsageError(f"cannot reach the Dask scheduler at {shown}: {e.strerror or e}") from None
    (n,) = struct.unpack("<Q", head)
    if not 0 < n <= 1 << 20:
        raise UsageError(f"--scheduler {shown}: the peer does not speak Dask's protocol; "
                         "is it a Dask scheduler's address?")


# ------------------------------------------------------------ output folders
#: names a run of this tool leaves in its directory besides its files: lock and temp files
_OWN_HIDDEN = re.compile(r"^\.(lock|.+\.part|probe-.+|sim-probe-.+)$")
EXPERIMENT_FILES = ("experiment.json", "skill.json", "ladder.json")
#: what an experiment's folder holds: its kind, game and settings, written (under the folder's
#: writer lock, ``sim.lock``) before anything is played, and marked finished at the end; the
#: same command into the same folder resumes, any other experiment there is refused
RECORD = ".experiment.json"
#: the file that marks and rebuilds each kind of experiment folder (``analysis.kinds``), by the
#: kind its manifest (and its record) gives
RESULT_FILES = {"compare": "experiment.json", "sweep": "experiment.json", "impact": "experiment.json",
                "skill": "skill.json", "ladder": "ladder.json", "strength": "strength.json",
                "robust": "robust.json", "robust-compare": "robust.json", "tune": "tune.json"}
#: each kind in words, for the one-line refusals
KIND_WORDS = {"compare": "comparison", "sweep": "sweep", "impact": "card impact", "skill": "skill table",
              "ladder": "skill ladder", "strength": "strength climb", "robust": "robustness check",
              "robust-compare": "robustness check of a comparison", "tune": "tune search"}


def _json_obj(path: Path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def dir_kind(path) -> str:
    """What a folder holds: ``"missing"``, ``"empty"``, ``"run"`` (a run of this tool),
    ``"experiment"`` (a comparison, sweep, skill table or impact of this tool), or
    ``"foreign"`` (anything else: a user's files)."""
    p = Path(path)
    if not p.exists():
        return "missing"
    if not p.is_dir():
        return "foreign"
    try:
        names = [n for n in os.listdir(p) if not _OWN_HIDDEN.match(n)]
    except OSError:
        return "foreign"
    if not names:
        return "empty"
    if "run.json" in names:
        return "run"
    if any(n in names for n in EXPERIMENT_FILES) or ".chunks" in names or RECORD in names:
        return "experiment"  # (.chunks: the kept chunks of a stopped experiment)
    man = _json_obj(p / "manifest.json") if "manifest.json" in names else None
    if man is not None and man.get("tool") == "sim":
        return "experiment" if man.get("kind") else "run"
    return "foreign"


def check_out_dir(path, kind: str) -> Path:
    """Refuse an ``--out`` we must not write into, without creating anything: a file, a
    folder holding someone's files, a run where an experiment goes (or the reverse), or a
    place we cannot write.  ``kind`` is ``"run"`` or ``"experiment"``."""
    p = Path(path)
    shown = safe(str(path))
    if str(path).strip() == "":
        raise UsageError("--out: the path is empty")
    found = dir_kind(p)
    if p.exists() and not p.is_dir():
        raise UsageError(f"--out {shown} is a file, not a directory")
    if found == "foreign":
        raise UsageError(f"--out {shown} is not empty and holds no run of sim; choose a new or "
                         "empty directory (its files are left alone)")
    if found in ("run", "experiment") and found != kind:
        what = {"run": "a run", "experiment": "a comparison or other experiment"}[found]
        raise UsageError(f"--out {shown} holds {what} of sim; choose another directory")
    # the nearest existing folder must let us create and write files
    q = p
    while not q.exists():
        if q.parent == q:
            break
        q = q.parent
    if not q.is_dir():
        raise UsageError(f"cannot write to --out {shown}: {safe(str(q))} is not a directory")
    if not os.access(q, os.W_OK | os.X_OK):
        from .io import why_unwritable
        raise UsageError(f"cannot write to --out {shown}: {why_unwritable(q)}")
    try:  # access() says yes to root everywhere: try it (a folder made and removed at once)
        os.rmdir(tempfile.mkdtemp(prefix=".sim-probe-", dir=q))
    except OSError as e:
        raise UsageError(f"cannot write to --out {shown}: {safe(e.strerror or str(e))}") from None
    return p


def kind_words(kind) -> str:
    """An experiment's kind in words (a comparison, a sweep, ...)."""
    return KIND_WORDS.get(kind, safe(str(kind)))


def read_record(path) -> dict | None:
    """The record (:data:`RECORD`) of what the experiment folder ``path`` holds, or None: none,
    or one that does not read back as sim's (it is then judged by its files, as a folder of
    an earlier sim)."""
    rec = _json_obj(Path(path) / RECORD)
    if rec is None or rec.get("tool") != "sim" or not isinstance(rec.get("kind"), str):
        return None
    return rec


def held_kind(path) -> str | None:
    """The kind of experiment a folder holds, read from its record, else its manifest, else
    the file its result is saved as (None: none of these)."""
    p = Path(path)
    rec = read_record(p)
    if rec is not None:
        return rec["kind"]
    man = _json_obj(p / "manifest.json")
    if man is not None and man.get("tool") == "sim" and isinstance(man.get("kind"), str):
        return man["kind"]
    exp = _json_obj(p / "experiment.json")
    if exp is not None and isinstance(exp.get("kind"), str):
        return exp["kind"]
    return next((k for k, f in RESULT_FILES.items() if f != "experiment.json" and (p / f).is_file()), None)


def _family(kind) -> str | None:
    """The kind as a manifest names it (a robust comparison's manifest says robust)."""
    return "robust" if kind == "robust-compare" else kind


def check_result_folder(path, file: str) -> None:
    """``sim report``: refuse to rebuild a page from a folder that holds the files of more than
    one experiment (a result file of another kind beside ``file``; a manifest, record or
    ``experiment.json`` of another kind than the one ``file`` rebuilds): the page would mix
    them.  Such folders came from an earlier sim, which let one experiment replace another."""
    p = Path(path)
    shown = safe(str(path))
    others = sorted({f for f in RESULT_FILES.values()
                     if f != file and f != "robust.json" and (p / f).is_file()})
    if file == "robust.json":
        others = [f for f in others if f != "experiment.json"]  # (robust folders may hold one)
    if others:
        raise UsageError(f"{shown} holds the files of more than one experiment ({file} and "
                         f"{', '.join(others)}): its page would mix them; play it again into a new folder")
    kinds = {}
    rec = read_record(p)
    if rec is not None:
        kinds["its record"] = rec["kind"]
    man = _json_obj(p / "manifest.json")
    if man is not None and man.get("tool") == "sim" and isinstance(man.get("kind"), str):
        kinds["manifest.json"] = man["kind"]
    if file == "experiment.json":
        exp = _json_obj(p / file)
        if exp is not None and isinstance(exp.get("kind"), str):
            kinds[file] = exp["kind"]
    if any(RESULT_FILES.get(k) != file for k in kinds.values()) or len({_family(k) for k in kinds.values()}) > 1:
        said = "; ".join(f"{w}: a {kind_words(k)}" for w, k in kinds.items())
        raise UsageError(f"{shown} holds the files of more than one experiment ({said}): its page "
                         "would mix them; play it again into a new folder")


def check_page_file(path, what: str) -> Path:
    """A page to write (``sim show --html``, ``sim.show(html=...)``): a file in an existing
    folder, never a folder (whose ``index.html`` a user may have written); ``what`` names the
    option as the message starts (``"--html "``, ``"html="``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"{what}{safe(repr(path))}: give a page's path such as game17.html")
    text = str(os.fspath(path))
    p = Path(text)
    if not text.strip() or p.is_dir() or not p.parent.is_dir():
        raise UsageError(f"{what}{safe(repr(text))}: not a file in an existing folder (a page such as "
                         "game17.html)")
    return p


def create_out_dir(path) -> tuple[Path, Path | None]:
    """Create ``path`` (validated by :func:`check_out_dir`); returns it and the topmost folder
    this call created (None if it existed), for removal if the command then fails."""
    from .io import check_writable_dir
    p = Path(path)
    top = None
    q = p
    while not q.exists() and q.parent != q:
        top = q
        q = q.parent
    try:
        check_writable_dir(p)
    except OSError as e:
        raise UsageError(f"cannot write to --out {safe(str(path))}: {e.strerror or e}") from None
    return p, top


# ----------------------------------------------------------------- variants
_NAME_BAD = re.compile(r"[$\\`]")
#: a name the user gives a variant (``--variant NAME:...``, ``[variants.NAME]``): a label
#: that is never a path (``../../x``), an option or a formula, whatever it is later used for
LABEL = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def check_variant_name(name: str, label: bool = False) -> str:
    """A variant's name is shown in figures and tables: printable text, no ``$``/``\\``
    (matplotlib would read them as formulas), at most 80 characters.  A name the user
    gives (``label``) is a safe label: letters, digits, ``_``, ``-`` and ``.``, not starting
    with ``.`` or ``-`` (a sweep's own names, ``track=9,exit=pile``, are built from checked
    parameters)."""
    n = str(name).strip()
    if not n:
        raise UsageError("a variant needs a name (NAME:PARAM=VALUE,...)")
    if len(n) > 80:
        raise UsageError(f"variant name {safe(repr(n[:40]))}... is longer than 80 characters")
    if safe(n) != n or _NAME_BAD.search(n):
        raise UsageError(f"variant name {safe(repr(n))} may not hold control characters, "
                         "'$', '\\' or '`'")
    if label and not LABEL.match(n):
        raise UsageError(f"variant name {safe(repr(n))}: a name is letters, digits, '_', '-' and '.', "
                         "not starting with '.' or '-' (e.g. base, nine, track-9)")
    return n


# ------------------------------------------------------------------- sweeps
def _number(text: str, item: str) -> float:
    try:
        v = float(text.strip().replace("_", ""))
    except ValueError:
        raise UsageError(f"--param {safe(repr(item))}: {safe(repr(text.strip()))} is not a number; "
                         "a range is LO..HI or LO..HI:STEP") from None
    if not math.isfinite(v):
        raise UsageError(f"--param {safe(repr(item))}: a range needs finite numbers, "
                         f"not {safe(text.strip())}")
    return v


def parse_sweep(items, game) -> list[tuple[str, list]]:
    """``track=7..15``, ``track=7..15:2``, ``exit=any,pile`` -> [(param, [values])], checked
    before anything is expanded: finite bounds, a positive step, bounds inside the
    parameter's range, at most :data:`SWEEP_VALUES_MAX` values, each parameter once."""
    out: list[tuple[str, list]] = []
    by_name = {p.name: p for p in game.params}
    alias = {a: p.name for p in game.params for a in p.aliases}
    for item in items:
        if "=" not in item:
            raise UsageError(f"--param takes NAME=RANGE (LO..HI[:STEP]) or NAME=V1,V2,..., not {safe(repr(item))}")
        raw_name, spec = (x.strip() for x in item.split("=", 1))
        key = raw_name.lower().replace("-", "_")
        name = alias.get(key, key)
        if name not in by_name:
            game.resolve_rules({raw_name: None})  # the usual "unknown parameter" error
        p = by_name[name]
        if any(n == name for n, _ in out):
            raise UsageError(f"--param {name} is given twice; give each parameter once "
                             "(several parameters make a grid)")
        if ".." in spec:
            if p.kind not in ("int", "float"):
                raise UsageError(f"--param {safe(repr(item))}: '{name}' takes {p.allowed()}; "
                                 "ranges are for numbers (list the values: NAME=V1,V2)")
            lo_t, _, rest = spec.partition("..")
            hi_t, sep, step_t = rest.partition(":")
            lo, hi = _number(lo_t, item), _number(hi_t, item)
            step = _number(step_t, item) if sep else 1.0
            if step <= 0:
                raise UsageError(f"--param {safe(repr(item))}: the step must be positive")
            if hi < lo:
                raise UsageError(f"--param {safe(repr(item))}: the range is empty (HI < LO)")
            if p.kind == "int" and not all(float(x).is_integer() for x in (lo, hi, step)):
                raise UsageError(f"--param {safe(repr(item))}: '{name}' is a whole number; "
                                 "use whole LO, HI and STEP")
            p.parse(int(lo) if p.kind == "int" else lo)  # bounds inside the parameter's range
            p.parse(int(hi) if p.kind == "int" else hi)
            count = math.floor((hi - lo) / step + 1e-9) + 1
            if count > SWEEP_VALUES_MAX:
                raise UsageError(f"--param {safe(repr(item))} gives {count:,} values; at most "
                                 f"{SWEEP_VALUES_MAX:,} per parameter")
            vals = [lo + i * step for i in range(count)]
            vals = [p.parse(int(round(v)) if p.kind == "int" else v) for v in vals]
        else:
            raw = [v.strip() for v in spec.split(",") if v.strip()]
            if len(raw) > SWEEP_VALUES_MAX:
                raise UsageError(f"--param {name} lists {len(raw):,} values; at most "
                                 f"{SWEEP_VALUES_MAX:,} per parameter")
            vals = [p.parse(v) for v in raw]
        if not vals:
            raise UsageError(f"--param {safe(repr(item))} has no values")
        if len(set(map(repr, vals))) != len(vals):
            raise UsageError(f"--param {safe(repr(item))} lists a value twice")
        out.append((name, vals))
    if not out:
        raise UsageError("sim sweep needs at least one --param NAME=RANGE")
    return out


def grid_size(grid) -> int:
    n = 1
    for _, vals in grid:
        n *= len(vals)
    return n
