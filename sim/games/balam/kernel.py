"""The Balam kernel's names in one namespace, for the tests, the bench and a notebook.

The kernel itself is split by role (nothing here is compiled):

* ``state``: the layout of the state arrays, the rules array and every constant;
* ``ties``: how a bot breaks ties on its own stream;
* ``board``: sites, buildings, riches and paths (what is legal where);
* ``setup``: the site layout and the Katun deck;
* the rules' phases: ``divination`` (1), ``constructions`` (2), ``wars`` (3), ``katun`` (4),
  ``distribution`` (5 production and 6 distribution);
* ``bots/``: ``random``, ``heuristic`` and the heuristic's ``values`` and ``insure``,
  ``search`` (Monte Carlo search with heuristic rollouts);
* ``rounds``: a round's deal and its close (shared by the game loop and the rollouts);
* ``howplays``: the turn's options counted as a choice, the kings' chances followed (issue #47);
* ``play``: the game loop (``run_games``) and the end-of-game audit.
"""
from __future__ import annotations

from . import (board, constructions, distribution, divination, howplays, katun, play, rounds, setup,
               state, ties, wars)
from .bots import heuristic, insure, random, search, values

MODULES = (state, ties, board, setup, values, constructions, wars, divination, katun, insure,
           distribution, rounds, heuristic, random, search, howplays, play)
for _m in MODULES:
    globals().update({k: v for k, v in vars(_m).items() if not k.startswith("_")})
del _m
