"""Maya's named layouts: the rules (read-only), the state (what a game changes), the
scratch (the bots' and set-up's working rows) and the per-game tally.

Board
-----
``n`` towers stand on a grid (3 x 3); every tower has ``L`` levels (5), level 0 at
the bottom.  A tower is packed into one int64: the colour of level ``l`` sits in
bits ``4l .. 4l+3``.  Exchanging from level ``l`` upwards is then two masked
swaps.  Blocks never change level: an exchange moves blocks between towers, each
staying at its own height.

A tower's *cut mask* has bit ``l`` (1 <= l < L) set when the blocks at levels
``l-1`` and ``l`` differ in colour, i.e. when an exchange starting at level ``l``
would not split joined colours.  Bit 0 is never set: the bottom never moves.  A tower
is complete exactly when its cut mask is 0.

The three structures
--------------------
``R`` (rules, int64, ``RULES_SZ``): the scalar rule slots ``R_*`` then the board's
read-only tables, each a named region: the edge list (``R_EA``/``R_EB``: the towers of
edge e, ``R_EBITS``: both as a bit mask), the exchange masks per level (``R_HMASK``),
the ladder spaces per tower (``R_SPACES``), the task points per run length (``R_PTS``),
the uniform set-up's row-count bounds (``R_BHI``/``R_BLO``) and its cycle-type table
(``R_CYC``: ``R_NCYC`` pairs (cycle code, rows)).  ``prepare`` in ``__init__.py``
fills it; nothing in the kernel writes it.

``st`` (state, int64, ``SZ``): everything a game changes, regions named ``TW`` ..
``PSUP`` below.  Copying a state is one call (``copy_into(dst, st)`` in jitted code,
``st.copy()`` in Python), which is what the bots' look-ahead does.

``X`` (scratch, int64, ``N_SCRATCH`` rows x ``scratch_width(n)``): one named row per
working buffer (``X_MOVES``, ``X_S1``, ...; the search keeps a state and a move list per
ply in rows ``X_SS + ply`` and ``X_MV + ply``).  ``new_scratch`` allocates it.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper_inline, kernel
from ...rng import GOLDEN, mix64

# ------------------------------------------------------------------ state layout
NMAX = 16
TW = 0            # packed towers
CUT = 16          # cut masks
LAD = 32          # ladders: LAD + 2 * tower + seat (two players only)
LS = 64           # ladders around each tower
PR = 80           # priest on each tower: seat, -1 none
MA = 96           # Monolith: tower a (-1: not on the board)
MB = 97           # Monolith: tower b
RAV = 98          # Raven's level (0: restricts nothing, the bottom never moves)
LSUP = 99         # ladders left per seat (two seats)
PSUP = 101        # priests left per seat
SZ = 104

# ------------------------------------------------------------------ rules layout
(R_N, R_L, R_E, R_P, R_RAVEN, R_START, R_SETUP, R_HORIZON, R_HRESULT, R_FIRST, R_LADDERS,
 R_PRIESTS, R_BONUS, R_CENTRE, R_CHECK, R_LP) = range(16)
N_RULES = 16
R_NCYC = 16       # rows of the cycle-type table
EMAX = 32         # edges
LMAX = 16         # levels
CMAX = 32         # cycle types
R_EA = 32         # edge e's first tower
R_EB = R_EA + EMAX        # edge e's second tower
R_EBITS = R_EB + EMAX     # both towers as a bit mask
R_HMASK = R_EBITS + EMAX  # bits of levels l.. of a packed tower
R_SPACES = R_HMASK + LMAX  # ladder spaces per tower
R_PTS = R_SPACES + NMAX   # task points per run length (0 .. L)
R_BHI = R_PTS + LMAX + 8  # upper bound on the valid rows of level k (uniform set-up)
R_BLO = R_BHI + LMAX      # lower bound
R_CYC = R_BLO + LMAX      # (cycle code, rows) pairs
RULES_SZ = R_CYC + 2 * CMAX

START_BOT, START_RANDOM = 0, 1
SETUP_UNIFORM, SETUP_TURNS = 0, 1
HRESULT_SCORE, HRESULT_DRAW = 0, 1   # horizon_result
FIRST_ROTATE, FIRST_SEAT0 = 0, 1

BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2

END_NO_EXCHANGE, END_DECLARED, END_HORIZON = 0, 1, 2

# tiebreak codes
TB_SCORE, TB_PRIESTS, TB_LADDERS, TB_TIED = 0, 1, 2, 3

# ------------------------------------------------------------------ tally (per game)
# per-seat blocks of 4
T_SCORE = 0
T_PRIESTS = 4
T_LADDERS = 8
T_PPTS = 12
T_LPTS = 16
T_COMPL = 20
T_BONUS = 24
T_JOINS = 28
T_TEAM = 32
T_EX = 36
T_END = 37
T_WINNER = 38
T_FIRST = 39
T_TIEBRK = 40
T_DECL = 41
T_TCOMP = 42
T_TEAMW = 43
T_MSTART = 44
T_RSTART = 45
T_ATTEMPTS = 46
T_VIOL = 47
T_BOARD = 48      # the starting board's key (board_key)
N_TALLY = 49

# ------------------------------------------------------------------ recorded events
# (sim/record.py; ``GAME.actions`` in __init__.py names their fields).  Levels are the
# rulebook's, 1 (bottom) to L.
(EV_BOARD,     # chance: tower, levels 1-7 packed 4 bits each, levels 8-12, attempts
 EV_BLOCK,     # chance (Alternative Setup): level, colour drawn
 EV_PLACE,     # placer: level, colour, tower
 EV_START,     # Black (chance with start=random): edge, tower a, tower b, Raven level (0: none)
 EV_DEAL,      # chance: seat, task card 1, task card 2
 EV_EXCHANGE,  # mover: edge, level, tower a, tower b, joined (bit 0: a, bit 1: b), completed
 EV_DECLARE,   # the seat declares the end: centre bonus
 EV_PLAY_ON,   # the seat may declare and plays on: 0 before its exchange, 1 after
 ) = range(8)

# ------------------------------------------------------------------ streams
CH = 0            # slot of the chance substream being read
SUB_BOARD = 0     # SETUP substream index: the board set-up
SUB_START = 1     # SETUP substream index: the random Monolith/Raven start

WIN = 1_000_000
NEG = -(1 << 60)

MAXM = 16 * 32  # room for the move list of any board this kernel accepts
DEPTH_MAX = 8   # the search's deepest ply

# ------------------------------------------------------------------ scratch rows
(X_MOVES,      # the legal exchanges of the seat to move
 X_REP,        # replies (a second move list)
 X_TIES,       # tied choices
 X_VALS,       # tied choices, second stage
 X_S1,         # a state after one exchange (its first SZ values: X[X_S1, :SZ])
 X_S2,         # a state after two (first SZ values)
 X_BEFORE,     # the state before an exchange, invariant checks (first SZ values)
 X_DP,         # the set-up's assignment counts per colour mask
 X_PC,         # popcount table (read-only after allocation)
 X_USED,       # colours held per tower (set-up)
 X_ALLOWED,    # colours allowed per tower (set-up)
 X_COL,        # a level's colours per tower (set-up); the deck (task cards)
 X_REM,        # remaining colours (set-up); card ids (task cards)
 X_CARDS,      # the task cards, two per seat
 X_CP,         # task points per colour
 X_SCORE,      # two-player score sheet (score2)
 X_EMASK,      # legal levels per edge (random bot)
 X_NMV,        # search: moves per ply
 X_IDX,        # search: next move per ply
 X_AL,         # search: alpha per ply
 X_BE,         # search: beta per ply
 X_BV,         # search: best value per ply
 X_SS,         # search: the state at ply 0 (rows X_SS .. X_SS + DEPTH_MAX, first SZ)
 ) = range(23)
X_MV = X_SS + DEPTH_MAX + 1    # search: the move list at ply 0 (rows X_MV .. X_MV + DEPTH_MAX)
# three/four-player search (bots/mcts.py)
X_DEAL = X_MV + DEPTH_MAX + 1  # a sampled deal: the searching seat's cards, the others drawn
X_CAND = X_DEAL + 1            # the candidate exchanges
X_CSUM = X_CAND + 1            # their play-outs' summed values
X_HVAL = X_CSUM + 1            # their task values (pruning), then halving's order
X_PLAY = X_HVAL + 1            # a play-out's state (first SZ values)
X_ROOT = X_PLAY + 1            # the state the search starts from (first SZ values)
X_STATS = X_ROOT + 1           # the search's counters (S_* below): a chunk's total
N_SCRATCH = X_STATS + 1
# X[X_STATS, S_*]: decisions searched, positions reached (two players: exchanges made in
# the tree; three/four: play-outs), exchanges played in the play-outs (three/four)
S_DECISIONS, S_NODES, S_STEPS = 0, 1, 2


def scratch_width(n):
    return max(MAXM, 1 << n, SZ)


@kernel
def new_scratch(n):
    """The scratch rows of a board of ``n`` towers, with the popcount table filled."""
    X = np.zeros((N_SCRATCH, max(MAXM, 1 << n, SZ)), dtype=np.int64)
    pc = X[X_PC]
    for m in range(1, 1 << n):
        pc[m] = pc[m >> 1] + (m & 1)
    return X


# ------------------------------------------------------------------ towers
@helper_inline
def nib(x, l):
    return (x >> (4 * l)) & 15


@helper_inline
def cut_mask(x, L):
    d = x ^ (x >> 4)
    c = 0
    for i in range(L - 1):
        c |= np.int64(((d >> (4 * i)) & 15) != 0) << (i + 1)
    return c


@helper_inline
def clear_state(st, R):
    st[:] = 0
    for t in range(NMAX):
        st[PR + t] = -1
    st[MA] = -1
    st[MB] = -1
    st[RAV] = 0
    st[LSUP] = R[R_LADDERS]
    st[LSUP + 1] = R[R_LADDERS]
    st[PSUP] = R[R_PRIESTS]
    st[PSUP + 1] = R[R_PRIESTS]


@helper_inline
def refresh_cuts(st, R):
    for t in range(R[R_N]):
        st[CUT + t] = cut_mask(st[TW + t], R[R_L])


@helper_inline
def board_key(st, n):
    """The towers' colours as one 64-bit key (a hash: equal boards, equal keys), as int64."""
    h = np.uint64(n)
    for t in range(n):
        h = mix64(h + np.uint64(st[TW + t]) + GOLDEN)
    return np.int64(h)
