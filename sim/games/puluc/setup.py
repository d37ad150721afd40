"""Setting up: the rule values as the kernel's :class:`~.state.Rules` and :class:`~.state.Table`
(in Python, once per run), and the start of a game (jitted): both armies at home, the
streams of the game opened, the first player chosen ("Jade opens the first game,
Cinnabar the next, and so on")."""
from __future__ import annotations

from math import comb

import numpy as np

from ...jit import helper_inline
from ...params import ParamError
from .cast import seed_game
from .state import (DRAG_FORWARD, DRAG_REVERSE, ENTRY_CAST, ENTRY_SPACE, EXIT_ANY, EXIT_PILE,
                    FIRST_ALTERNATE, FIRST_CINNABAR, FIRST_JADE, STACK_NEVER, STACK_PILES,
                    Rules, Table, reset_state)

CHOICE_CODES = {
    "entry": {"space": ENTRY_SPACE, "cast": ENTRY_CAST},
    "exit": {"any": EXIT_ANY, "pile": EXIT_PILE},
    "drag": {"forward": DRAG_FORWARD, "reverse": DRAG_REVERSE},
    "first": {"alternate": FIRST_ALTERNATE, "jade": FIRST_JADE, "cinnabar": FIRST_CINNABAR},
    "stack_own": {"never": STACK_NEVER, "piles": STACK_PILES},
}


def cast_table(rules: dict) -> np.ndarray:
    """Spaces moved for 0, 1, ..., lots marked lots."""
    lots = rules["lots"]
    tab = rules["cast_table"]
    if tab == "standard":
        return np.array([lots + 1] + list(range(1, lots + 1)), dtype=np.int64)
    if len(tab) != lots + 1:
        raise ParamError(f"parameter 'cast_table' needs {lots + 1} values (for 0..{lots} marked "
                         f"lots), got {len(tab)}")
    return np.array(tab, dtype=np.int64)


def prepare(rules: dict, players: int) -> tuple[Rules, Table]:
    """Rule values (resolved parameters) as the kernel reads them: ``(Rules, Table)``."""
    thresh = int(round(float(rules["lot_p"]) * 65536))
    R = Rules(
        track=int(rules["track"]), warriors=int(rules["warriors"]), lots=int(rules["lots"]),
        casts_per_turn=int(rules["casts_per_turn"]),
        entry=CHOICE_CODES["entry"][rules["entry"]], exit=CHOICE_CODES["exit"][rules["exit"]],
        drag=CHOICE_CODES["drag"][rules["drag"]], horizon=int(rules["horizon"]),
        first=CHOICE_CODES["first"][rules["first"]],
        stack_own=CHOICE_CODES["stack_own"][rules["stack_own"]], lot_threshold=thresh)
    tab = cast_table(rules)
    p = thresh / 65536  # the probability the kernel really uses
    lots = R.lots
    dist: dict[int, float] = {}
    for k in range(lots + 1):
        dist[int(tab[k])] = dist.get(int(tab[k]), 0.0) + comb(lots, k) * p ** k * (1 - p) ** (lots - k)
    vals = np.array(sorted(dist), dtype=np.int64)
    probs = np.array([dist[v] for v in vals], dtype=np.float64)
    return R, Table(tab, vals, probs)


@helper_inline
def first_side(R, g):
    """The side that casts first in game ``g``."""
    if R.first == FIRST_ALTERNATE:
        return g % 2
    if R.first == FIRST_JADE:
        return 0
    return 1


@helper_inline
def start_game(state, R, seed, g):
    """``state`` at the start of game ``g`` of ``seed``: streams opened, armies at home,
    the first side to cast."""
    seed_game(state, seed, g)
    reset_state(state, R)
    state.first = first_side(R, g)
    state.turn = state.first
