"""numba's on-disk cache, keyed on the content of the project's jitted sources.

numba keys a cached function on its own file's modification time and size only, so a
kernel that inlines or calls a helper from another module (``sim/rng.py``'s
``rand_int``, ``sim/jit.py``'s ``popcount``) kept the old helper's code after that module
was edited, until ``__pycache__`` was deleted by hand.

Here every jitted function of the ``sim`` package is cached under a directory named by
a hash of the sources it can depend on: the shared jitted modules (every ``sim/*.py``
that defines jitted code) plus, for a game's functions, the jitted modules of that game's folder.
Edit any of them and the key changes, so the kernel is compiled afresh; edit another
game, the CLI or the reports and nothing recompiles.  Functions outside the package
(tests, notebooks) keep numba's own locators.

Where: ``$NUMBA_CACHE_DIR/boardsim`` when the user set that variable, else
``sim/__pycache__/numba`` when the package directory is writable (a checkout; ``make
clean`` removes it), else the user's cache directory (``$XDG_CACHE_HOME`` or
``~/.cache``)``/boardsim/numba``.  In the package directory, older keys of the same
game are removed when a new one is made.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from functools import lru_cache
from pathlib import Path

from numba.core import caching

PKG = Path(__file__).resolve().parent
GAMES = PKG / "games"
_MARKERS = (b"@njit", b"njit(", b"@kernel", b"@helper")  # files that define jitted code


def _jitted_sources(folder: Path, recursive: bool) -> list[Path]:
    files = sorted(folder.rglob("*.py") if recursive else folder.glob("*.py"))
    out = []
    for f in files:
        try:
            text = f.read_bytes()
        except OSError:
            continue
        if any(m in text for m in _MARKERS):
            out.append(f)
    return out


def _digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.relative_to(PKG)).encode() + b"\0")
        h.update(f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@lru_cache(maxsize=None)
def _shared_files() -> tuple:
    return tuple(_jitted_sources(PKG, recursive=False))


@lru_cache(maxsize=None)
def key_for(folder: str) -> str:
    """The cache key of the functions defined in ``folder`` (the package itself, or one
    game's folder): ``<name>-<hash of the sources they may depend on>``."""
    path = Path(folder)
    files = list(_shared_files())
    name = "sim"
    if path != PKG:
        files += _jitted_sources(path, recursive=True)
        name = path.name
    return f"{name}-{_digest(files)}"


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


_Mixin = caching._SourceFileBackedLocatorMixin
_Base = caching._CacheLocator


class ProjectCacheLocator(_Mixin, _Base):
    """Cache the package's jitted functions under a key of their sources' content."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        owner = _owner(py_file)
        key = key_for(str(owner))
        root = cache_root()
        _prune(root, key)
        self._cache_path = os.path.join(root, key, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if _owner(py_file) is None:
            return None
        return super().from_function(py_func, py_file)


def install() -> None:
    """Put the project's locator first (idempotent)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    classes = impl._locator_classes
    if ProjectCacheLocator not in classes:
        classes.insert(0, ProjectCacheLocator)


install()
