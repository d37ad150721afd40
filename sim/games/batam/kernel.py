"""The Batam kernel's names in one namespace, for code that looks a function up by name
(``bench/profile.py`` names every jitted function for ``perf``; the hand-built positions of
the rules tests).  The kernel itself is split by role:

``state``     the state (``State``, a record of named arrays), rule slots (``R_*``), tallies,
              constants
``tables``    the map's distance tables
``money``     the bank and the players' coins
``setup``     Game Setup: chance streams, first player, compass tiles or deck
``crew``      Phase 2 rules (crew boards, re-roll prices) and Phase 4 (collect wages)
``sailing``   Phase 3 rules (movement, ends, selling, the compass deck)
``ending``    Ending the Game
``bots/``     ``random``, ``heuristic`` (every style), ``search``: the decisions
``phases``    the four phases for one seat: the bot decides, the rules apply
``loop``      the game loop, resumable at a search seat's decision (``play_from``)
``play``      a game, ``run_games`` and ``run_chunk``
"""
from __future__ import annotations

from .bots.heuristic import *  # noqa: F401,F403
from .bots.search import *  # noqa: F401,F403
from .crew import *  # noqa: F401,F403
from .ending import *  # noqa: F401,F403
from .loop import *  # noqa: F401,F403
from .money import *  # noqa: F401,F403
from .phases import *  # noqa: F401,F403
from .play import *  # noqa: F401,F403
from .sailing import *  # noqa: F401,F403
from .setup import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
from .tables import *  # noqa: F401,F403
