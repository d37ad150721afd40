"""The registry of games: one line per game, ``name -> module`` (imported lazily).

A game's module exposes ``GAME`` (a :class:`sim.game.Game`); everything else about
it lives in its own folder.
"""
from __future__ import annotations

import importlib

from ..params import UsageError, _suggest

REGISTRY = {
    "puluc": "sim.games.puluc",
    "maya": "sim.games.maya",
    "batam": "sim.games.batam",
    "balam": "sim.games.balam",
}


def names() -> list[str]:
    return list(REGISTRY)


def get(name: str):
    key = str(name).strip().lower()
    if key not in REGISTRY:
        raise UsageError(f"unknown game '{name}'{_suggest(key, REGISTRY)}; known: {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[key]).GAME
