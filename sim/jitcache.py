"""numba's on-disk cache, keyed on everything the project's jitted code can read.

numba keys a cached function on its own file's modification time and size only, so a
kernel kept its compiled code after anything else changed: a helper it calls from
another module (``sim/rng.py``'s ``rand_int``), or a constant it reads from a plain
module (Batam's offsets and ``PIRATE_PENALTY`` in ``state.py``, read by its bots): a
silent wrong result until the cache was deleted by hand.

Here every jitted function of the ``sim`` package is cached under a directory named by
a hash of (``key_for``):

- the sources its code can read: the files that define jitted code in its own folder
  (one game's folder, or ``sim/`` itself) and in ``sim/``, and every module of the
  package those files import at module level, followed transitively (``state.py``,
  ``tables.py``, ``data.py``, ...): a jitted function reads only its module's globals,
  and those come from the module's own lines or its imports;
- the versions of Python, numba, llvmlite and numpy (numba checks its own version only).

Edit any of those sources and the key changes, so the kernel is compiled afresh; edit
another game, the CLI or the reports and nothing recompiles.  The key also stands in for
numba's per-file time stamp, so a fresh checkout or ``git checkout`` of the same code
reuses the cache.  Functions outside the package (tests, notebooks) keep numba's own
locators.

Where: ``$NUMBA_CACHE_DIR/boardsim`` when the user set that variable, else
``sim/__pycache__/numba`` when the package directory is writable (a checkout; ``make
clean`` removes it), else the user's cache directory (``$XDG_CACHE_HOME`` or
``~/.cache``)``/boardsim/numba``.  In the package directory, older keys of the same
game are removed when a new one is made.

Faults (``ProjectFunctionCache``): a damaged cache entry (garbage ``.nbi``/``.nbc``
files) is removed and the function compiled again; a cache directory that cannot be
made or written (read-only, full disk) makes the run compile without saving.  Either is
said once on stderr, in one line naming the cache directory.
"""
from __future__ import annotations

import ast
import errno
import hashlib
import os
import platform
import shutil
import sys
from functools import lru_cache
from pathlib import Path

import llvmlite
import numba
import numpy
from numba.core import caching

from .params import UsageError

PKG = Path(__file__).resolve().parent
GAMES = PKG / "games"
#: a file that holds one of these defines (or may define) jitted code
_MARKERS = (b"@njit", b"njit(", b"jit(", b"@kernel", b"@helper", b"kernel(", b"helper(",
            b"helper_inline(", b"helper_fused(", b"vectorize")
#: the numba versions the project is tested with (pyproject.toml pins the same range);
#: sim/jit.py and this module use numba internals (dispatcher, cache locators), so an
#: untested version is refused (``check_numba``)
NUMBA_MIN, NUMBA_BELOW = (0, 60), (0, 69)


class UnsupportedNumba(UsageError):
    """The installed numba is outside the tested range (the CLI says so in one line)."""


def _version(text: str) -> tuple:
    out = []
    for part in text.split(".")[:2]:
        digits = "".join(ch for ch in part if ch.isdigit())
        out.append(int(digits or 0))
    return tuple(out)


def check_numba(version: str | None = None) -> None:
    """Refuse a numba outside ``[NUMBA_MIN, NUMBA_BELOW)`` with one line saying what to install."""
    v = version or numba.__version__
    if not NUMBA_MIN <= _version(v) < NUMBA_BELOW:
        lo, hi = ".".join(map(str, NUMBA_MIN)), ".".join(map(str, NUMBA_BELOW))
        raise UnsupportedNumba(f"numba {v} is not supported (tested: >={lo},<{hi}); "
                               f"install a supported one: pip install 'numba>={lo},<{hi}'")


def _is_jitted(f: Path) -> bool:
    try:
        text = f.read_bytes()
    except OSError:
        return False
    return any(m in text for m in _MARKERS)


def _jitted_sources(folder: Path, recursive: bool) -> list[Path]:
    files = sorted(folder.rglob("*.py") if recursive else folder.glob("*.py"))
    return [f for f in files if _is_jitted(f)]


def _module_file(parts: list[str]) -> Path | None:
    """The file of the package module ``sim.<parts...>``, or None (not ours, or absent)."""
    base = PKG.joinpath(*parts)
    for cand in (base.with_suffix(".py"), base / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def _top_level(body):
    """The statements run at import: the module body, with ``if``/``try`` blocks opened."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try)):
            for block in (node.body, node.orelse, getattr(node, "finalbody", []),
                          *[h.body for h in getattr(node, "handlers", [])]):
                yield from _top_level(block)


@lru_cache(maxsize=None)
def imports_of(f: Path) -> tuple:
    """The package modules ``f`` imports at module level (files, sorted)."""
    try:
        tree = ast.parse(f.read_bytes(), filename=str(f))
    except (OSError, SyntaxError, ValueError):
        return ()
    here = list(f.parent.relative_to(PKG).parts)   # the package ``f`` belongs to
    found = set()
    for node in _top_level(tree.body):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level - 1 > len(here):
                    continue
                mod = here[:len(here) - (node.level - 1)]
            elif node.module and node.module.split(".")[0] == PKG.name:
                mod = []
            else:
                continue
            mod = mod + (node.module.split(".") if node.module else [])
            if node.level == 0:
                mod = mod[1:]  # drop the package's own name
            target = _module_file(mod)
            for alias in node.names:
                # ``from . import state``: a submodule; ``from .state import X``: the module
                sub = _module_file(mod + [alias.name]) if alias.name != "*" else None
                if sub is not None:
                    found.add(sub)
                elif target is not None:
                    found.add(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == PKG.name:
                    target = _module_file(parts[1:])
                    if target is not None:
                        found.add(target)
    found.discard(f)
    return tuple(sorted(found))


def closure(seeds) -> list[Path]:
    """``seeds`` and every package module they import at module level, transitively."""
    seen, todo = set(), list(seeds)
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(imports_of(f))
    return sorted(seen)


def _digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for part in environment():
        h.update(part.encode() + b"\0")
    for f in files:
        h.update(str(f.relative_to(PKG)).encode() + b"\0")
        h.update(f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def environment() -> tuple:
    """What besides the sources decides the compiled code: Python's, numba's, llvmlite's
    and numpy's versions and the machine's architecture (numba adds the CPU itself)."""
    return (f"python {sys.version_info[0]}.{sys.version_info[1]}", f"numba {numba.__version__}",
            f"llvmlite {llvmlite.__version__}", f"numpy {numpy.__version__}", platform.machine())


@lru_cache(maxsize=None)
def sources_for(folder: str) -> tuple:
    """The files the key of ``folder``'s jitted functions covers."""
    path = Path(folder)
    seeds = _jitted_sources(PKG, recursive=False)
    if path != PKG:
        seeds += _jitted_sources(path, recursive=True)
    return tuple(closure(seeds))


@lru_cache(maxsize=None)
def key_for(folder: str) -> str:
    """The cache key of the functions defined in ``folder`` (the package itself, or one
    game's folder): ``<name>-<hash of the sources they may read and the versions>``."""
    path = Path(folder)
    return f"{'sim' if path == PKG else path.name}-{_digest(list(sources_for(folder)))}"


def _owner(py_file: str) -> Path | None:
    """The folder whose key applies to ``py_file``, or None outside the package."""
    try:
        p = Path(py_file).resolve()
    except OSError:
        return None
    if p.parent == PKG:
        return PKG
    try:
        rel = p.relative_to(GAMES)
    except ValueError:
        return None
    return GAMES / rel.parts[0] if len(rel.parts) > 1 else PKG


@lru_cache(maxsize=None)
def cache_root() -> Path:
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return Path(user) / "boardsim"
    local = PKG / "__pycache__" / "numba"
    try:
        local.mkdir(parents=True, exist_ok=True)
        probe = local / f".probe-{os.getpid()}"
        probe.touch()
        probe.unlink()
        return local
    except OSError:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "boardsim" / "numba"


_pruned: set = set()


def _prune(root: Path, key: str) -> None:
    """Remove older keys of the same folder (only inside the package's own __pycache__)."""
    if key in _pruned or root != PKG / "__pycache__" / "numba":
        return
    _pruned.add(key)
    name = key.rsplit("-", 1)[0]
    for d in root.glob(f"{name}-*"):
        if d.name != key and d.is_dir():
            shutil.rmtree(d, ignore_errors=True)


# ------------------------------------------------------------------ faults, said once
_NOTED = "BOARDSIM_CACHE_NOTED"  # inherited by worker processes: the parent said it already


def note_once(kind: str, text: str) -> None:
    """One line on stderr per kind of fault, in this process and the workers it starts."""
    said = set(filter(None, os.environ.get(_NOTED, "").split(",")))
    if kind in said:
        return
    said.add(kind)
    os.environ[_NOTED] = ",".join(sorted(said))
    print(f"sim: {text}", file=sys.stderr, flush=True)


def _why_unwritable(e: OSError) -> str:
    if e.errno == errno.ENOSPC or e.errno == getattr(errno, "EDQUOT", -1):
        return "its disk is full"
    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "it is read-only"
    return e.strerror or type(e).__name__


class CacheUnavailable(Exception):
    """The project's cache directory cannot be made or written."""

    def __init__(self, path, error: OSError):
        super().__init__(f"{path}: {error}")
        self.path, self.error = path, error


_Mixin = caching._SourceFileBackedLocatorMixin
_Base = caching._CacheLocator


class ProjectCacheLocator(_Mixin, _Base):
    """Cache the package's jitted functions under a key of what they can read."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        owner = _owner(py_file)
        self._key = key_for(str(owner))
        root = cache_root()
        _prune(root, self._key)
        self._cache_path = os.path.join(root, self._key, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        # the key covers the file's content (and everything else it reads): the file's
        # time stamp would only make a fresh checkout of the same code compile again
        return self._key

    @classmethod
    def from_function(cls, py_func, py_file):
        if _owner(py_file) is None:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError as e:
            # never fall back to numba's own locators for the package: they key on the
            # file's time stamp alone (stale kernels); compile without a cache instead
            raise CacheUnavailable(cache_root(), e) from e
        return self


class ProjectFunctionCache(caching.FunctionCache):
    """numba's function cache, which survives a damaged entry and an unwritable disk."""

    def load_overload(self, sig, target_context):
        try:
            return super().load_overload(sig, target_context)
        except Exception as e:  # noqa: BLE001 (a damaged pickle raises anything)
            self._remove_entry()
            note_once("damaged", f"numba's cache at {cache_root()} held a damaged entry "
                                 f"({type(e).__name__}): removed, compiling again")
            return None

    def save_overload(self, sig, data):
        try:
            super().save_overload(sig, data)
        except OSError as e:
            self.disable()
            note_once("unwritable", f"cannot save to numba's cache at {cache_root()} "
                                    f"({_why_unwritable(e)}): this run compiles without caching")
        except Exception as e:  # noqa: BLE001 (a damaged index read before the save)
            self._remove_entry()
            self.disable()
            note_once("damaged", f"numba's cache at {cache_root()} held a damaged entry "
                                 f"({type(e).__name__}): removed, compiling again")

    def _remove_entry(self) -> None:
        """Remove this function's index and data files (all its signatures)."""
        f = self._cache_file
        base = f._index_name[:-len(".nbi")]
        try:
            names = os.listdir(self._cache_path)
        except OSError:
            return
        for name in names:
            if name == f._index_name or (name.startswith(base + ".") and name.endswith(".nbc")):
                try:
                    os.unlink(os.path.join(self._cache_path, name))
                except OSError:
                    pass


def function_cache(py_func):
    """The cache of a project function: ``ProjectFunctionCache``, or numba's null cache
    (one line said) when the project's cache directory cannot be used."""
    try:
        return ProjectFunctionCache(py_func)
    except CacheUnavailable as e:
        note_once("unwritable", f"cannot use numba's cache at {e.path} ({_why_unwritable(e.error)}): "
                                "this run compiles without caching")
        return caching.NullCache()


def install() -> None:
    """Put the project's locator first (idempotent)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    classes = impl._locator_classes
    if ProjectCacheLocator not in classes:
        classes.insert(0, ProjectCacheLocator)


install()
