"""One process at a time in a run or experiment directory.

``RunLock`` takes an exclusive ``flock`` on ``DIR/.lock`` for as long as a run, an experiment
(``sim.commands.common._kept_chunks``) or a report rebuild works in the directory, so two
processes never play, or write, the same chunks; the second is refused (:class:`Busy`).
The kernel drops the lock when the process ends, however it ends (``kill -9`` included):
a stale lock file is never a problem.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path

from .params import UsageError
from .validate import safe

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no locking
    fcntl = None

NAME = ".lock"


class Busy(UsageError):
    """The folder is locked by another process: the refusal leaves the folder alone (the other
    process may have created it, and is writing there)."""


class RunLock:
    def __init__(self, run_dir):
        self.dir = Path(run_dir)
        self.fd: int | None = None

    def acquire(self) -> "RunLock":
        if fcntl is None or self.fd is not None:  # pragma: no cover
            return self
        path = self.dir / NAME
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as e:
            raise UsageError(f"cannot lock {safe(str(self.dir))}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            other = ""
            try:
                other = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            except OSError:  # pragma: no cover
                pass
            os.close(fd)
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                who = f" (process {other})" if other.isdigit() else ""
                raise Busy(f"{safe(str(self.dir))} is in use by another sim process{who}; "
                           "wait for it to finish, or choose another --out") from None
            raise UsageError(f"cannot lock {safe(str(self.dir))}: {e.strerror or e}") from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:  # pragma: no cover - the lock holds even if the pid cannot be noted
            pass
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            finally:
                os.close(self.fd)
                self.fd = None

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
        return False
