"""The scratch folder joblib's local worker pool is given, owned by this process.

Without a ``temp_folder``, joblib makes a ``joblib_memmapping_folder_<pid>_...`` in
``/dev/shm`` for every pool it starts, even when nothing is memory-mapped (the runner passes
``max_nbytes=None``: its arrays are small and are pickled), and a run killed or stopped
before joblib's own clean-up leaves them there.  Given a folder of its own, joblib creates
nothing until it memory-maps an array, which it never does here.

The folder, ``<tmp>/sim-joblib-<pid>``, also marks the process as a run of sim while its
pool is up: it is removed when the run's chunks end (Ctrl-C and SIGTERM included), and when
a run finds the folder of a process that no longer exists (killed with ``kill -9``, with its
whole process group), it removes that folder and what that process's pool left in
``/dev/shm``: joblib's ``joblib_memmapping_folder_<pid>_*`` (of a sim before this folder)
and loky's semaphores ``sem.loky-<pid>-*``.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "sim-joblib-"
_OURS = re.compile(rf"^{PREFIX}(\d+)$")
SHM = Path("/dev/shm")


def folder() -> str:
    """This process's scratch folder for joblib, ``<tmp>/sim-joblib-<pid>``, created.  One per
    process: joblib's reusable pool keeps the first folder it is given."""
    path = Path(tempfile.gettempdir()) / f"{PREFIX}{os.getpid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
    except OSError:  # joblib makes it if it ever needs it
        pass
    return str(path)


def remove() -> None:
    """Remove this process's scratch folder."""
    shutil.rmtree(Path(tempfile.gettempdir()) / f"{PREFIX}{os.getpid()}", ignore_errors=True)


def clean_stale() -> list[str]:
    """Remove the scratch folders of processes that no longer exist and belonged to this
    user (a run killed with ``kill -9``), with their pools' leftovers in ``/dev/shm``;
    returns the names removed."""
    import psutil
    gone = []
    root = Path(tempfile.gettempdir())
    try:
        entries = list(os.scandir(root))
    except OSError:
        return gone
    for e in entries:
        m = _OURS.match(e.name)
        if not m or int(m.group(1)) == os.getpid():
            continue
        try:
            if not e.is_dir(follow_symlinks=False) or e.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
        except OSError:
            continue
        pid = int(m.group(1))
        if psutil.pid_exists(pid):
            continue
        gone += _shm_leftovers(pid)
        shutil.rmtree(e.path, ignore_errors=True)
        gone.append(e.name)
    return gone


def _shm_leftovers(pid: int) -> list[str]:
    """Remove what the worker pool of dead process ``pid`` left in /dev/shm."""
    gone = []
    try:
        entries = list(os.scandir(SHM))
    except OSError:
        return gone
    for e in entries:
        if not e.name.startswith((f"joblib_memmapping_folder_{pid}_", f"sem.loky-{pid}-")):
            continue
        try:
            if e.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            if e.is_dir(follow_symlinks=False):
                shutil.rmtree(e.path)
            else:
                os.unlink(e.path)
        except OSError:
            continue
        gone.append(e.name)
    return gone
