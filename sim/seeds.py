"""Where the games' data files and rule documents are: ``seeds/<game>/``.

In a checkout they are the top-level ``seeds/`` folder (the project's own rule
specifications, kept where they are).  An installed wheel (``pip install .``, as on Dask
worker machines) carries a copy inside the package, ``sim/_seeds/`` (see pyproject.toml).
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
CANDIDATES = (_PACKAGE / "_seeds", _PACKAGE.parent / "seeds")


def root() -> Path:
    """The seeds folder: the wheel's copy when installed, else the checkout's."""
    for base in CANDIDATES:
        if (base / "puluc" / "RULES.md").is_file():
            return base
    return CANDIDATES[-1]  # a broken install: the data loaders then name the missing file


def seeds_dir(game: str) -> Path:
    """``seeds/<game>/`` wherever the package is."""
    return root() / game
