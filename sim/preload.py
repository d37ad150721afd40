"""Loading the report's modules while a run's games are played.

The command line's report needs ``analysis.report`` (matplotlib, jinja2: about a second of
imports); loaded after the games, that second is the user's.  Loaded beside the kernel load,
it holds the GIL the kernel load needs and delays the workers.  So the runner calls
:func:`importer`'s function once the first chunk is collected (``execute(after_first=...)``),
in its own thread, when it only waits for the workers' results: no second thread imports
while the main one does (no import-lock deadlock to fear).
"""
from __future__ import annotations

import importlib


def importer(module: str):
    """A function that imports ``module``; any error is left to the import made where the
    module is needed (which then reports it)."""
    def load():
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 - reported by the later import that needs it
            pass
    return load
