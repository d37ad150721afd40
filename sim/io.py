"""Atomic, durable file writes: a reader never sees a half-written file, and a file that
has been renamed into place survives a crash of the machine.

``atomic_write`` writes a temporary file in the same folder, flushes it to the disk
(``fsync``), gives it the permissions the user's umask asks for (``mkstemp`` would leave
0600), renames it onto the target and flushes the folder, so the rename itself is on disk.
"""
from __future__ import annotations

import errno
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Callable

#: errors meaning the disk (or the user's quota) is full
NO_SPACE = (errno.ENOSPC, errno.EDQUOT) if hasattr(errno, "EDQUOT") else (errno.ENOSPC,)


class DiskFull(OSError):
    """Writing ``path`` failed because its disk is full; ``needed`` bytes were being written."""

    def __init__(self, path, needed: int | None = None):
        super().__init__(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        self.path = Path(path)
        self.needed = needed


def is_disk_full(e: BaseException) -> bool:
    return isinstance(e, DiskFull) or (isinstance(e, OSError) and e.errno in NO_SPACE)


_umask_lock = threading.Lock()


def current_umask() -> int:
    """The process's umask (read without changing it where Linux allows)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    with _umask_lock:  # pragma: no cover - not Linux
        old = os.umask(0o022)
        os.umask(old)
    return old


def fsync_dir(path) -> None:
    """Flush a folder's entries (a rename or an unlink in it) to the disk."""
    try:
        fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - e.g. a file system without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on directories
        pass
    finally:
        os.close(fd)


def _fsync_file(path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike, writer: Callable[[str], None]) -> Path:
    """Call ``writer(tmp_path)`` then move the finished, flushed file onto ``path``.

    A full disk raises :class:`DiskFull` (the temporary file is removed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        writer(tmp)
        os.chmod(tmp, 0o666 & ~current_umask())
        _fsync_file(tmp)
        os.replace(tmp, path)
        fsync_dir(path.parent)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if is_disk_full(e) and not isinstance(e, DiskFull):
            raise DiskFull(path) from e
        raise
    return path


def remove(path) -> None:
    """Remove a file (if there) and flush its folder."""
    path = Path(path)
    try:
        path.unlink()
    except FileNotFoundError:
        return
    fsync_dir(path.parent)


def write_text(path, text: str) -> Path:
    def w(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    return atomic_write(path, w)


def write_bytes(path, data: bytes) -> Path:
    def w(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
    return atomic_write(path, w)


def write_json(path, obj) -> Path:
    return write_text(path, json.dumps(obj, indent=2, sort_keys=False, default=_jsonable) + "\n")


def _jsonable(o):
    try:
        import numpy as np
        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
    except ImportError:  # pragma: no cover
        pass
    if isinstance(o, (set, tuple)):
        return list(o)
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def check_writable_dir(path) -> Path:
    """Create ``path`` if needed and prove we can write in it; raise OSError otherwise."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    probe = tempfile.NamedTemporaryFile(dir=path, prefix=".probe-", delete=True)
    probe.close()
    return path


def why_unwritable(path) -> str:
    """Why a folder that ``os.access`` says we cannot write refuses us, in the words of the
    remedy: "read-only file system" (EROFS: remount it, or write elsewhere) or "permission
    denied" (EACCES: the folder is not ours)."""
    try:
        if os.statvfs(os.fspath(path)).f_flag & getattr(os, "ST_RDONLY", 1):
            return "read-only file system"
    except (OSError, AttributeError):  # pragma: no cover - no statvfs here
        pass
    return "permission denied"
