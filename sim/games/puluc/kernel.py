"""The old single-module name of Puluc's kernel: re-exports the modules it was split into."""
from .bots.greedy import greedy_choice, greedy_score  # noqa: F401
from .bots.random import random_move  # noqa: F401
from .bots.search import TIE_REL, WIN_VALUE, evaluate, same_value, search_choice  # noqa: F401
from .cast import CASTS, cast_lots, seed_game  # noqa: F401
from .move import apply_move, destination, legal_mask, legal_moves, lowest_bit  # noqa: F401
from .play import (BOT_GREEDY, BOT_RANDOM, BOT_SEARCH, END_HORIZON, END_KILLED,  # noqa: F401
                   play_game, run_games)
from .state import *  # noqa: F401,F403
