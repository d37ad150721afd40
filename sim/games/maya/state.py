"""Maya's named layouts: the rules (read-only), the state (what a game changes), the
scratch (the bots' and set-up's working buffers) and the per-game tally.

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

The structures
--------------
``R`` (rules, int64, ``RULES_SZ``): the scalar rule slots ``R_*`` then the board's
read-only tables, each a named region: the edge list (``R_EA``/``R_EB``: the towers of
edge e, ``R_EBITS``: both as a bit mask), the exchange masks per level (``R_HMASK``),
the ladder spaces per tower (``R_SPACES``), the task points per run length (``R_PTS``),
the uniform set-up's row-count bounds (``R_BHI``/``R_BLO``) and its cycle-type table
(``R_CYC``: ``R_NCYC`` pairs (cycle code, rows)).  ``prepare`` in ``__init__.py``
fills it; nothing in the kernel writes it.

``State`` (everything a game changes): one numpy record of ``STATE_DTYPE`` (as
Puluc's), int64 fields, towers indexed 0 .. NMAX-1 (the first ``n`` used):

* ``tw[NMAX]``      the packed towers (above);
* ``cut[NMAX]``     their cut masks (kept in step with ``tw``: ``refresh_cuts``);
* ``lad[NMAX, 2]``  the ladders beside tower t of seat s (two players);
* ``ls[NMAX]``      the ladders beside tower t, both seats (its spaces taken);
* ``pr[NMAX]``      the seat whose priest stands on tower t, -1 none;
* ``pcs[N_PCS]``    the pieces off the towers, named slots: ``MA``/``MB`` the Monolith's
                    towers (-1: not on the board), ``RAV`` the Raven's level (0: restricts
                    nothing, the bottom never moves), ``LSUP + s`` the ladders and
                    ``PSUP + s`` the priests seat s has left.

numba passes a record as one pointer and its fields are views into it.  (A NamedTuple of
these six arrays passes each array's seven to nine words at every call of a helper that
takes it, about fifty words: the greedy bot and the search were 25-35% slower so.)
``new_state()`` makes one (a record viewing a new one-element array, which it keeps
alive); ``clear_state`` resets it for a game; ``copy_state(dst, src)`` copies one into
another in one call, which is what the bots' look-ahead does.

``Scratch`` (``new_scratch``; allocated once per chunk, meaningless between calls):

* ``x`` (int64, ``N_SCRATCH`` rows x ``scratch_width(n)``): one named row per working
  buffer (``X_MOVES``, ``X_REP``, ...; the search keeps a move list per ply in rows
  ``X_MV + ply``);
* ``ws``: the work states, a stack of ``N_WORK`` states (an array of ``STATE_DTYPE``),
  one named row per state a bot plays on: ``W_S1``/``W_S2`` (one and two exchanges
  ahead), ``W_BEFORE`` (the invariant checks), ``W_PLAY``/``W_ROOT`` (the Monte Carlo
  search's play-out and root), and the two-player search's stack, ply c in row
  ``W_SS + c``.  ``at(ws, i)`` is state i (a record viewing it, no copy);
* ``words``: the same memory as ``N_WORK`` rows of ``N_WORDS`` int64, so that one work
  state is copied into another as one contiguous copy (``copy_work``: the search's copy
  per node).

Snapshot rows (``sim/record.py``; ``show.py`` reads them): the state flattened into
``SNAP_W`` int64 values at ``SNAP_TW`` .. ``SNAP_PSUP`` (``snapshot``), the layout of
the records saved before the state was named.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...jit import copy_into, helper_fused, helper_inline, kernel
from ...record import H_SNAPS
from ...rng import GOLDEN, mix64

# ------------------------------------------------------------------ state layout
NMAX = 16
#: the pieces off the towers (``State.pcs``)
MA = 0            # Monolith: tower a (-1: not on the board)
MB = 1            # Monolith: tower b
RAV = 2           # Raven's level (0: restricts nothing, the bottom never moves)
LSUP = 3          # ladders left per seat (two seats)
PSUP = 5          # priests left per seat
N_PCS = 8

#: Everything a game changes (fields: the module's docstring), one numpy record: numba
#: passes it as one pointer and its fields are views; ``copy_state`` copies it.
STATE_DTYPE = np.dtype((np.record, np.dtype([
    ("tw", np.int64, (NMAX,)),      # packed towers
    ("cut", np.int64, (NMAX,)),     # cut masks
    ("lad", np.int64, (NMAX, 2)),   # ladders beside tower t of seat s
    ("ls", np.int64, (NMAX,)),      # ladders beside tower t, both seats
    ("pr", np.int64, (NMAX,)),      # the priest's seat on tower t, -1 none
    ("pcs", np.int64, (N_PCS,)),    # the pieces off the towers: MA, MB, RAV, LSUP + s, PSUP + s
], align=True)))
#: a state's size in int64 words (no padding: every field is int64)
N_WORDS = STATE_DTYPE.itemsize // 8
#: The work buffers a turn reuses: ``x`` the named int64 rows, ``ws`` the work states,
#: ``words`` the work states as int64 rows (the module's docstring).
Scratch = namedtuple("Scratch", ("x", "ws", "words"))

# ------------------------------------------------------------------ snapshot rows
SNAP_TW = 0       # packed towers
SNAP_CUT = 16     # cut masks
SNAP_LAD = 32     # ladders: SNAP_LAD + 2 * tower + seat
SNAP_LS = 64      # ladders around each tower
SNAP_PR = 80      # priest on each tower: seat, -1 none
SNAP_MA = 96      # Monolith: tower a
SNAP_MB = 97      # Monolith: tower b
SNAP_RAV = 98     # Raven's level
SNAP_LSUP = 99    # ladders left per seat
SNAP_PSUP = 101   # priests left per seat
SNAP_W = 104

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
T_CX = 49         # how it plays: the choices' counts (sim/howplays.py, CX_SIZE = 13 fields)
T_EV = 62         # how it plays: ev_finish's 7 figures x EV_UNIT (EV_NONE: none)
N_TALLY = 69
EV_UNIT = 1_000_000
EV_NONE = -(1 << 62)

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
 X_MV,         # search: the move list at ply 0 (rows X_MV .. X_MV + DEPTH_MAX)
 ) = range(20)
# three/four-player search (bots/mcts.py)
X_DEAL = X_MV + DEPTH_MAX + 1  # a sampled deal: the searching seat's cards, the others drawn
X_CAND = X_DEAL + 1            # the candidate exchanges
X_CSUM = X_CAND + 1            # their play-outs' summed values
X_HVAL = X_CSUM + 1            # their task values (pruning)
X_CCNT = X_HVAL + 1            # their play-outs' counts (the scheduler's ``cnt``)
X_ALIVE = X_CCNT + 1           # their ranks while in (the scheduler's ``alive``)
X_SCHED = X_ALIVE + 1          # the scheduler's state (``sim/sched.py``, SC_SIZE wide)
X_STATS = X_SCHED + 1          # the search's counters (S_* below): a chunk's total
N_SCRATCH = X_STATS + 1
# X[X_STATS, S_*]: decisions searched, positions reached (two players: exchanges made in
# the tree; three/four: play-outs), exchanges played in the play-outs (three/four)
S_DECISIONS, S_NODES, S_STEPS = 0, 1, 2

# ------------------------------------------------------------------ work states (Scratch.ws)
(W_S1,         # a state after one exchange
 W_S2,         # a state after two
 W_BEFORE,     # the state before an exchange, invariant checks
 W_PLAY,       # a play-out's state (three/four-player search)
 W_ROOT,       # the state the three/four-player search starts from
 W_SS,         # the two-player search's state at ply 0 (rows W_SS .. W_SS + DEPTH_MAX)
 ) = range(6)
N_WORK = W_SS + DEPTH_MAX + 1


def scratch_width(n):
    return max(MAXM, 1 << n)


def new_states(k):
    """``k`` states (zeros) as one array of ``STATE_DTYPE`` (a stack of states)."""
    return np.zeros(k, STATE_DTYPE)


def new_state():
    """One state (zeros: ``clear_state`` sets it up for a game): a record viewing a new
    one-element array (the record keeps it alive)."""
    return new_states(1)[0]


@kernel
def _new_x(n):
    X = np.zeros((N_SCRATCH, max(MAXM, 1 << n)), dtype=np.int64)
    pc = X[X_PC]
    for m in range(1, 1 << n):
        pc[m] = pc[m >> 1] + (m & 1)
    return X


def new_scratch(n):
    """The scratch of a board of ``n`` towers: the rows ``x`` (the popcount table filled),
    the work states ``ws`` and their ``words``."""
    ws = new_states(N_WORK)
    return Scratch(_new_x(n), ws, ws.view(np.int64).reshape(N_WORK, N_WORDS))


@helper_inline
def at(ws, i):
    """State i of a stack of states (``Scratch.ws``): a record viewing it, no copy."""
    return ws[i]


@helper_fused
def copy_state(dst, src):
    """``dst`` := ``src``, field by field (fixed trip counts: the loops unroll).
    ``helper_fused``: typed once and inlined by LLVM at each call site (numba's own
    inlining typed it again at every one)."""
    for t in range(NMAX):
        dst.tw[t] = src.tw[t]
    for t in range(NMAX):
        dst.cut[t] = src.cut[t]
    for t in range(NMAX):
        dst.lad[t, 0] = src.lad[t, 0]
        dst.lad[t, 1] = src.lad[t, 1]
    for t in range(NMAX):
        dst.ls[t] = src.ls[t]
    for t in range(NMAX):
        dst.pr[t] = src.pr[t]
    for i in range(N_PCS):
        dst.pcs[i] = src.pcs[i]


@helper_inline
def copy_work(sc, i, j):
    """Work state i := work state j (``Scratch.ws``), as one contiguous copy of their words
    (``Scratch.words``): the search's copy per node."""
    copy_into(sc.words[i], sc.words[j])


def state_from_snapshot(row):
    """A new state from a snapshot row (``snapshot``'s layout)."""
    row = np.asarray(row, np.int64)
    st = new_state()
    st.tw[:] = row[SNAP_TW:SNAP_TW + NMAX]
    st.cut[:] = row[SNAP_CUT:SNAP_CUT + NMAX]
    st.lad[:] = row[SNAP_LAD:SNAP_LAD + 2 * NMAX].reshape(NMAX, 2)
    st.ls[:] = row[SNAP_LS:SNAP_LS + NMAX]
    st.pr[:] = row[SNAP_PR:SNAP_PR + NMAX]
    st.pcs[MA] = row[SNAP_MA]
    st.pcs[MB] = row[SNAP_MB]
    st.pcs[RAV] = row[SNAP_RAV]
    st.pcs[LSUP:LSUP + 2] = row[SNAP_LSUP:SNAP_LSUP + 2]
    st.pcs[PSUP:PSUP + 2] = row[SNAP_PSUP:SNAP_PSUP + 2]
    return st


@helper_fused
def snapshot(buf, snaps, st):
    """When recording and there is room: the state into the next snapshot row, flattened
    (``SNAP_*``; what ``rec_snapshot`` does for a flat state).  ``helper_fused``: typed
    once, inlined by LLVM at its two call sites."""
    k = buf[0, H_SNAPS]
    if buf.shape[0] > 1 and k < snaps.shape[0] and snaps.shape[1] >= SNAP_W:
        row = snaps[k]
        for t in range(NMAX):
            row[SNAP_TW + t] = st.tw[t]
            row[SNAP_CUT + t] = st.cut[t]
            row[SNAP_LAD + 2 * t] = st.lad[t, 0]
            row[SNAP_LAD + 2 * t + 1] = st.lad[t, 1]
            row[SNAP_LS + t] = st.ls[t]
            row[SNAP_PR + t] = st.pr[t]
        row[SNAP_MA] = st.pcs[MA]
        row[SNAP_MB] = st.pcs[MB]
        row[SNAP_RAV] = st.pcs[RAV]
        for s in range(2):
            row[SNAP_LSUP + s] = st.pcs[LSUP + s]
            row[SNAP_PSUP + s] = st.pcs[PSUP + s]
        buf[0, H_SNAPS] = k + 1


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
    st.tw[:] = 0
    st.cut[:] = 0
    st.lad[:] = 0
    st.ls[:] = 0
    st.pr[:] = -1
    st.pcs[:] = 0
    st.pcs[MA] = -1
    st.pcs[MB] = -1
    st.pcs[RAV] = 0
    st.pcs[LSUP] = R[R_LADDERS]
    st.pcs[LSUP + 1] = R[R_LADDERS]
    st.pcs[PSUP] = R[R_PRIESTS]
    st.pcs[PSUP + 1] = R[R_PRIESTS]


@helper_inline
def refresh_cuts(st, R):
    for t in range(R[R_N]):
        st.cut[t] = cut_mask(st.tw[t], R[R_L])


@helper_inline
def board_key(st, n):
    """The towers' colours as one 64-bit key (a hash: equal boards, equal keys), as int64."""
    h = np.uint64(n)
    for t in range(n):
        h = mix64(h + np.uint64(st.tw[t]) + GOLDEN)
    return np.int64(h)
