"""Atomic file writes: a reader never sees a half-written file."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Callable


def atomic_write(path: str | os.PathLike, writer: Callable[[str], None]) -> Path:
    """Call ``writer(tmp_path)`` then move the finished file onto ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        writer(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


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
