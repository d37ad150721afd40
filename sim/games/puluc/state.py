"""Puluc's named state: what the rules read, what a game changes, and the bots' scratch space.

Three structures, all numba-friendly, replace the old positional arrays:

``Rules`` (a NamedTuple of integers, read-only)
    The rule values.  Passed by value, so they live in registers: an int64 array could
    alias the board the kernel writes, and every read of a rule after a store was
    reloaded (1.7x slower, same games).
``Table`` (a NamedTuple of three small arrays, read-only)
    ``spaces[k]``: spaces moved when ``k`` lots land marked; ``values`` and ``probs``: the
    distinct cast values (sorted) and their probabilities (the search bot's chance node).
``State`` (one numpy record of :data:`STATE_DTYPE`)
    Everything that changes during a game: the board, the random streams, whose cast it
    is, and the tallies that become the result columns.  Copy it with one call:
    :func:`copy_state` in jitted code, ``states.copy()`` (a 1-element array) in Python.
``Scratch`` (one numpy record of :data:`SCRATCH_DTYPE`)
    The move lists, the search bot's work board and its evaluation terms, named; nothing
    carries over from one cast to the next (but the search's counters, ``stats``).

Records are passed to jitted functions as one pointer; their array fields are views.  A
record is made from a 1-element array (``states = np.zeros(1, STATE_DTYPE)``, ``state =
states[0]``); keep that array alive while the record is used.

The board
---------
Spaces are indexed ``0..T-1`` (space 1 of the rulebook is index 0).  ``commander[i]``
is the side on top of the pile on index i (-1 when empty); ``count[s, i]`` the warriors
of side ``s`` in that pile.  A pile never splits, and every capture puts the mover on
top, so the commander and the two counts are all a pile needs.  Side 0 (Jade) enters at
index 0 and runs up; side 1 (Cinnabar) enters at index T-1 and runs down.  A side's
*progress* on index i is ``i`` for Jade and ``T-1-i`` for Cinnabar.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import helper, helper_inline

JADE, CINNABAR = 0, 1
#: the longest track the ``track`` parameter allows: the board arrays' fixed size
MAX_TRACK = 40

# rule codes (the values of the choice parameters)
ENTRY_SPACE, ENTRY_CAST = 0, 1
EXIT_ANY, EXIT_PILE = 0, 1
DRAG_FORWARD, DRAG_REVERSE = 0, 1
FIRST_ALTERNATE, FIRST_JADE, FIRST_CINNABAR = 0, 1, 2
STACK_NEVER, STACK_PILES = 0, 1

#: slots of ``State.streams``: the casts' chance substream, then seat s's bot stream at 1 + s
CASTS = 0
N_STREAMS = 3


class Rules(NamedTuple):
    """The rule values as integers (``sim.games.puluc.PARAMS`` names them)."""

    track: int           # T: spaces on the track
    warriors: int        # W: warriors per side
    lots: int            # lots cast each time
    casts_per_turn: int  # cast-and-move actions in one turn
    entry: int           # ENTRY_SPACE: deploy onto the entry space; ENTRY_CAST: cast spaces on
    exit: int            # EXIT_ANY: any pile may be carried off; EXIT_PILE: only one with prisoners
    drag: int            # DRAG_FORWARD; DRAG_REVERSE: a pile with prisoners runs back home
    horizon: int         # casts after which the game is a draw
    first: int           # FIRST_ALTERNATE (by game index), FIRST_JADE or FIRST_CINNABAR
    stack_own: int       # STACK_NEVER; STACK_PILES: may land on an own pile (not a lone warrior)
    lot_threshold: int   # a lot lands marked when 16 random bits fall below this (lot_p * 65536)


class Table(NamedTuple):
    """The casts: ``spaces`` by number of marked lots; ``values``/``probs`` the distribution."""

    spaces: np.ndarray   # int64[lots + 1]
    values: np.ndarray   # int64, sorted distinct cast values
    probs: np.ndarray    # float64, their probabilities


#: ``np.record`` scalars: fields read as attributes in Python too (``NUMBA_DISABLE_JIT``)
STATE_DTYPE = np.dtype((np.record, np.dtype([
    ("streams", np.uint64, (N_STREAMS,)),  # random streams: [CASTS] the casts, [1 + s] seat s's bot
    ("turn", np.int64),                    # the side casting now
    ("first", np.int64),                   # the side that cast first
    ("casts", np.int64),                   # casts made, forfeits included
    ("moves", np.int64),                   # moves made (casts not forfeited)
    ("deepest", np.int64),                 # tallest pile seen
    ("kills", np.int64, (2,)),             # enemy warriors side s killed
    ("captures", np.int64, (2,)),          # landings of side s on an enemy pile
    ("rescues", np.int64, (2,)),           # own prisoners side s freed by those captures
    ("forfeits", np.int64, (2,)),          # casts side s could not use
    ("commander", np.int8, (MAX_TRACK,)),  # side on top of the pile on space i; -1 empty
    ("count", np.int8, (2, MAX_TRACK)),    # count[s, i]: warriors of side s in that pile
    ("home", np.int8, (2,)),               # warriors of side s at home (the reserve)
    ("dead", np.int8, (2,)),               # warriors of side s killed for good
], align=True)))

#: the flat snapshot of a state (``snapshot``): commander, Jade counts, Cinnabar counts
#: (T each), home (2), dead (2), then these tallies
SNAPSHOT_TALLIES = ("kills_0", "kills_1", "captures_0", "captures_1", "rescues_0", "rescues_1",
                    "forfeits_0", "forfeits_1", "moves", "deepest", "casts", "turn")
SNAPSHOT_MAX = 3 * MAX_TRACK + 4 + len(SNAPSHOT_TALLIES)

#: the search's work at one level of its tree (the depth-2 value of ``after``)
_LEVEL_FIELDS = [
    ("moves", np.int64, (MAX_TRACK + 2,)),    # legal moves of the side casting
    ("after", STATE_DTYPE),                   # search: the board after one of our moves
    ("term", np.float64, (MAX_TRACK,)),       # search: each space's term of the evaluation of ``after``
    ("pre", np.float64, (MAX_TRACK + 1,)),    # ... the evaluation's sum before space i
    ("before", np.float64, (MAX_TRACK,)),     # ... the same terms before our move
    ("factor", np.float64, (MAX_TRACK + 1,)),  # search: the prisoners' weight by distance to death
    ("factor_track", np.int64),               # ... for this track length (0: not filled)
    ("stats", np.int64, (2,)),                # search: decisions searched, replies scored
]
#: the search's deepest setting (``search:depth``)
MAX_SEARCH_DEPTH = 4
#: below depth 2, each level of the tree: the position after a reply, valued at depth 2
#: for the side that played it (level k + 1 holds the replies to level k's position)
LEVEL_DTYPE = np.dtype((np.record, np.dtype(_LEVEL_FIELDS, align=True)))
#: (the snapshot first: a record whose first fields were the level's would be taken by numba
#: for a subtype of it, an experimental feature that warns)
SCRATCH_DTYPE = np.dtype((np.record, np.dtype([
    ("snapshot", np.int64, (SNAPSHOT_MAX,)),  # the flat state written to a record
] + _LEVEL_FIELDS + [
    ("levels", LEVEL_DTYPE, (MAX_SEARCH_DEPTH - 1,)),  # search at depth 3 and more
], align=True)))


def snapshot_width(T: int) -> int:
    return 3 * T + 4 + len(SNAPSHOT_TALLIES)


@helper_inline
def progress(p, i, T):
    """How far index ``i`` is from side ``p``'s entry space."""
    return i if p == 0 else T - 1 - i


@helper_inline
def index_of(p, prog, T):
    """The index ``prog`` spaces from side ``p``'s entry space."""
    return prog if p == 0 else T - 1 - prog


@helper
def reset_state(state, R):
    """The start of a game: an empty track, every warrior at home, no tallies (the streams
    and the first side are set by the game loop)."""
    for i in range(MAX_TRACK):
        state.commander[i] = -1
        state.count[0, i] = 0
        state.count[1, i] = 0
    for s in range(2):
        state.home[s] = R.warriors
        state.dead[s] = 0
        state.kills[s] = 0
        state.captures[s] = 0
        state.rescues[s] = 0
        state.forfeits[s] = 0
    state.turn = 0
    state.first = 0
    state.casts = 0
    state.moves = 0
    state.deepest = 0


@helper_inline
def copy_board(dst, src, T):
    """``dst`` gets ``src``'s board (the first ``T`` spaces), home and dead: all that the
    moves and the evaluation read (the tallies and streams are left as they were)."""
    for s in range(2):
        dst.home[s] = src.home[s]
        dst.dead[s] = src.dead[s]
    for i in range(T):
        dst.commander[i] = src.commander[i]
        dst.count[0, i] = src.count[0, i]
        dst.count[1, i] = src.count[1, i]


@helper_inline
def copy_state(dst, src):
    """``dst`` becomes a copy of ``src`` (every field: the tallies and streams, then the
    whole board with :func:`copy_board`)."""
    for k in range(N_STREAMS):
        dst.streams[k] = src.streams[k]
    dst.turn = src.turn
    dst.first = src.first
    dst.casts = src.casts
    dst.moves = src.moves
    dst.deepest = src.deepest
    for s in range(2):
        dst.kills[s] = src.kills[s]
        dst.captures[s] = src.captures[s]
        dst.rescues[s] = src.rescues[s]
        dst.forfeits[s] = src.forfeits[s]
    copy_board(dst, src, MAX_TRACK)


@helper
def snapshot(state, T, row):
    """Write ``state`` flat into ``row`` (the layout of :func:`unpack_snapshot`); returns its width."""
    for i in range(T):
        row[i] = state.commander[i]
        row[T + i] = state.count[0, i]
        row[2 * T + i] = state.count[1, i]
    k = 3 * T
    for s in range(2):
        row[k + s] = state.home[s]
        row[k + 2 + s] = state.dead[s]
        row[k + 4 + s] = state.kills[s]
        row[k + 6 + s] = state.captures[s]
        row[k + 8 + s] = state.rescues[s]
        row[k + 10 + s] = state.forfeits[s]
    row[k + 12] = state.moves
    row[k + 13] = state.deepest
    row[k + 14] = state.casts
    row[k + 15] = state.turn
    return k + 16


def unpack_snapshot(row, T: int) -> dict:
    """A flat snapshot row as Python values: ``commander``, ``count`` ([Jade, Cinnabar] per
    space), ``home``, ``dead`` and the tallies of :data:`SNAPSHOT_TALLIES`."""
    row = [int(x) for x in row]
    k = 3 * T
    out = {"commander": row[:T], "count": [row[T:2 * T], row[2 * T:3 * T]],
           "home": row[k:k + 2], "dead": row[k + 2:k + 4]}
    for j, name in enumerate(SNAPSHOT_TALLIES):
        out[name] = row[k + 4 + j]
    return out


def new_states(R: Rules, n: int = 1) -> np.ndarray:
    """``n`` states at the start of a game, as an array (``[0]`` is a record)."""
    states = np.zeros(n, STATE_DTYPE)
    for j in range(n):
        reset_state(states[j], R)
    return states


def new_scratch() -> np.ndarray:
    """A scratch record, in a 1-element array (``[0]``)."""
    return np.zeros(1, SCRATCH_DTYPE)
