"""Loading the report's modules in the background while a run's games are played.

The command line's report needs ``analysis.report`` (matplotlib, jinja2: about a second of
imports); loaded after the games, that second is the user's.  Loaded beside the kernel load,
it holds the GIL the kernel load needs and delays the workers; so it starts once the first
chunk is recorded, when this process only waits for results.
"""
from __future__ import annotations

import threading
import time
from contextlib import suppress
from pathlib import Path


def preload(module: str, chunks_dir, poll: float = 0.1, wait: float = 600.0) -> threading.Thread:
    """Import ``module`` in a daemon thread once a chunk record lies in ``chunks_dir`` (or
    after ``wait`` seconds).  Any error is left to the import made where it is needed."""
    def run():
        with suppress(BaseException):
            deadline = time.monotonic() + wait
            while not any(Path(chunks_dir).glob("*.json")) and time.monotonic() < deadline:
                time.sleep(poll)
            __import__(module)
    t = threading.Thread(target=run, name="sim-preload", daemon=True)
    t.start()
    return t
