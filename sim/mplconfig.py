"""A writable configuration folder for matplotlib, chosen before it is imported.

matplotlib keeps its configuration and font cache in ``~/.config/matplotlib`` and
``~/.cache/matplotlib`` (``XDG_CONFIG_HOME``, ``XDG_CACHE_HOME``).  Where they cannot be
made (a read-only or missing ``HOME``, a container's user without one), it prints a
multi-line warning on every run and builds its font cache again in a temporary folder.  The
command line calls :func:`ensure` first: when ``MPLCONFIGDIR`` is not set and a default
folder is not writable, it points ``MPLCONFIGDIR`` at a folder of this user's own in the
temporary folder, kept between runs (the font cache is built once).  ``import sim`` calls it
too, so the Python API (whose reports import matplotlib) is as quiet as the command line.
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path


def _writable(path: Path) -> bool:
    """Whether ``path`` is a writable folder or could be made one (its nearest existing
    ancestor is a writable folder)."""
    p = path
    while not p.exists():
        if p.parent == p:
            return False
        p = p.parent
    return p.is_dir() and os.access(p, os.W_OK | os.X_OK)


def _defaults() -> list[Path]:
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return []
    config = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    cache = os.environ.get("XDG_CACHE_HOME") or str(home / ".cache")
    return [Path(config) / "matplotlib", Path(cache) / "matplotlib"]


def _own_folder() -> str | None:
    """``<tmp>/sim-matplotlib-<uid>``, made private to this user; None if that name is taken
    by something that is not such a folder."""
    import tempfile
    path = Path(tempfile.gettempdir()) / f"sim-matplotlib-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = path.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
        return None
    return str(path)


def ensure() -> str | None:
    """Set ``MPLCONFIGDIR`` when matplotlib's default folders are not writable (and it is not
    set already, and matplotlib is not imported yet); returns the folder set, or None."""
    if os.environ.get("MPLCONFIGDIR") or "matplotlib" in sys.modules or not sys.platform.startswith("linux"):
        return None
    defaults = _defaults()
    if defaults and all(_writable(d) for d in defaults):
        return None
    folder = _own_folder()
    if folder is None:  # a folder for this process only, removed at its exit
        import atexit
        import shutil
        import tempfile
        folder = tempfile.mkdtemp(prefix="sim-matplotlib-")
        atexit.register(shutil.rmtree, folder, True)
    os.environ["MPLCONFIGDIR"] = folder
    return folder
