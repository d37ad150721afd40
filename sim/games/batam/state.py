"""Batam's state layout and constants: what every module of the kernel agrees on.

Everything that changes during a game is a ``State`` (below): one numpy record whose
fields are small int64 arrays, one per meaning (four seats are always reserved), so that a
kernel reads ``st.coins[p]`` or ``st.bv[b, k]``.  Copying a game's state is one call,
``copy_state_into(dst, src)`` (the search bot copies the real game into its own before
every rollout), plus ``copy_into(dst_rs, rs)`` for the random streams, which are kept
apart (``Play.rs``, ``Search.rs``).  Crew boards hold up to three dice, kept in descending
order: ``st.bv[b, k]`` is the value in slot k of player b's board (0 captain, 1 sailor,
2 ship) and ``st.bo[b, k]`` its owner.  Per-seat tallies (wages, re-rolls, compass effects
...) are ``st.tal[T_*, seat]``.

Read-only: a ``Rules`` (named tuple): the rule values, the int64 array ``R`` (slots
``R_*``), the dice faces, and the static data made by ``data.py`` in three groups,
``Board`` (the map), ``Routes`` (its distance tables) and ``Compass`` (tiles and cards).
Scratch buffers of a chunk are a ``Scratch``; the results a chunk writes an ``Out``.

Distance tables are indexed ``[variant, target, from]``: variant 0 is the open
map, variant ``1 + c`` the map with a pirate tile on compass space c (its space
blocked).  ``D`` counts spaces; ``W`` weighs entering a space next to the
pirate as ``1 + PIRATE_PENALTY``; ``L`` is the number of spaces along the
W-shortest route.  They are computed for the *special* spaces only (the
harbours, then the compass spaces: the only targets the route planner uses):
``DS, WS, LS`` [variant, special, from space] and ``DSS, LSS`` [variant,
special target, special from].
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import helper
from ...rng import GAME_PURPOSES

# ----------------------------------------------------------------- constants
MAXP = 4
MAXI = 16
MAXC = 8
MAXK = 64
INF = 30000
PIRATE_PENALTY = 4

SEA, COMPASS, HARBOUR = 0, 1, 2
TRADEWIND, SUNKEN, MAP, PIRATE = 0, 1, 2, 3

MODE_NONE, MODE_TILES, MODE_CARDS = 0, 1, 2
WINDOW_ROUND, WINDOW_AFTER = 0, 1
CHARGE_EACH, CHARGE_ONCE = 0, 1
BANK_SHORT, BANK_UNLIMITED = 0, 1
HRES_RANK, HRES_DRAW = 0, 1

BOT_RANDOM = 0  # every other id is a heuristic style, but BOT_SEARCH
BOT_SEARCH = 8   # the search bot (bots/search.py): the heuristic except at its searched decisions

# bot parameter slots (heuristic styles)
B_CAPTAIN, B_SAILOR, B_URGENCY, B_SHARE, B_SPITE, B_BUMP, B_RRLOW, B_RRMAX, B_RESERVE, \
    B_PIRPAY, B_AVOID, B_DISTW, B_TREASW, B_OUTBID, B_ADAPT, B_GIVEUP = range(16)
N_BOTPAR = 16
#: the heuristic bot's default parameters, slot by slot (B_*): the search bot's rollout policy
#: and its play at the decisions it does not search
HEURISTIC_DEFAULTS = (4.0, 1.0, 1.0, 0.5, 0.2, 0.5, 0.0, 1.0, 8.0, 4.0, 1.0, 2.0, 0.0, 1.0, 1.0, 2.0)
# search bot parameter slots: iterations per decision, route targets kept, UCB1 exploration,
# the margin (standard errors) another candidate must beat the heuristic's choice by, and the
# margin at which a decision's search stops early (0: never), the rounds a rollout plays after
# the current one (0: to the end), the coin margin that gives odds e : 1 where it stops, and
# the allocation (0: UCB1, 1: sequential halving on common worlds)
S_ITERS, S_TOPK, S_EXPLORE, S_KEEP, S_STOP, S_HORIZON, S_SCALE, S_PAIRED, S_LEAF = range(9)
#: ``S_LEAF``: how a cut rollout is valued (0 the coin margin's logistic, 1 the learned model)
LEAF_FORMULA, LEAF_MODEL = 0, 1

# Where a game stands (``Scratch.cur``, play.play_from): round (0-based), phase (PH_*),
# position in the crew row, re-rolls paid so far in this turn, the first player, and at the
# end the winner, end reason and rounds played.
C_RND, C_PH, C_I, C_N, C_FIRST, C_W, C_ER, C_ROUNDS = range(8)
N_CUR = 8
PH_START, PH_WAGES, PH_ROLL, PH_REROLL, PH_PLACE, PH_SAIL, PH_END = range(7)
# A decision handed to the loop (``Scratch.plan``): set flag, seat, two values (wages:
# captain and sailor; re-roll: the mask; placement: the option index; sail: the target
# special space, -1 stay)
PL_SET, PL_SEAT, PL_A, PL_B = range(4)
N_PLAN = 4
#: play_from's return: the game is over / a search seat must decide at the cursor
DONE, NEED = 0, 1

# rule slots
(R_P, R_MODE, R_SALE, R_PAYOUT, R_BONUS, R_RR_FIRST, R_RR_STEP, R_PFEE, R_OPPLIM, R_WINDOW,
 R_CHARGE, R_BANKMODE, R_HORIZON, R_HRES, R_OCC, R_OCCH, R_START, R_BANK0, R_GOODS, R_NF,
 R_NT, R_NK, R_STARTNODE, R_N, R_NI, R_NC, R_RR_PRICING, R_TWLIMIT, R_NEU) = range(29)
N_RULES = 29
# R_NEU: card impact's neutral tiles or cards, a bit mask over the indices of the deck in use
# (tiles in tiles mode, cards in cards mode; bit 63 is the sign bit)
TW_ANY, TW_EACH = 0, 1   # tradewind tiles: one bonus per ship and round / each tile once
RR_TOTAL, RR_RISING = 0, 1   # re-roll pricing: later re-rolls cost reroll_step each / one step more each

# State (``State`` below): the global counters' slots of ``State.g`` ...
G_BANK, G_SHORT, G_DECKN, G_DISCN, G_NSHUF, G_ENDED, G_ENDER, G_PIRC = range(8)
N_G = 8
# ... and the rows of ``State.rflags`` (per seat, cleared at the start of every round)
RF_TW, RF_RET, RF_RETA, RF_PCH = range(4)
N_RF = 4

# Chance: substreams of sim.rng keyed on (seed, game, purpose, index); nothing draws from
# stream 0.  Slots of the ``rs`` array (uint64): 1 + s the bot of seat s; RS_BASE the game's
# base (not a counter); RS_SETUP the first-player dice; RS_DIE + i crew die i of the seat
# rolling now; RS_KEYS.. scratch for shuffle keys.
P_TILES = GAME_PURPOSES     # tile placement keys: item_key(base, P_TILES, tile identity)
RS_BASE = 1 + MAXP
RS_SETUP = RS_BASE + 1
RS_DIE = RS_SETUP + 1
RS_KEYS = RS_DIE + 3
N_RS = RS_KEYS + MAXK
TIE_REL = 1e-9              # exact ties: |a - b| <= TIE_REL * max(1, |b|)

# per-seat tallies
(T_WPAID, T_WEARN, T_RR, T_RRC, T_DIST, T_BONUS, T_TW, T_SUNK, T_MAP, T_PIR, T_TREAS,
 T_PIRC, T_PAYR) = range(13)
N_TAL = 13

END_RETURN, END_HORIZON = 0, 1

# Recorded events (sim/record.py; Game.actions names them): rec(buf, kind, actor, a..f).
# Chance outcomes have actor -1; decisions the seat that chose; the rest (E_ROUND, E_SELL,
# E_EFFECT, E_PAID, E_BONUS, E_END) say what the rules did, for ``sim show``.
(E_FIRST, E_TILE, E_SHUFFLE, E_ROUND, E_WAGES, E_ROLL, E_REROLL, E_PLACE, E_STEP, E_STOP, E_CARD,
 E_RANSOM, E_SELL, E_EFFECT, E_PAID, E_BONUS, E_END) = range(1, 18)
# E_EFFECT's ``what``
FX_TRADEWIND, FX_SUNKEN, FX_MAP, FX_PIRATE, FX_CASH = range(5)

# the per-seat result columns: coins, goods, crew position, then the N_TAL tallies (T_*)
SEAT_FIELDS = ("coins", "goods_sold", "crew_pos", "wages_paid", "wages_earned", "rerolls",
               "reroll_coins", "distance", "return_bonus", "compass_tradewind", "compass_sunken",
               "compass_map", "compass_pirate", "treasure_coins", "pirate_coins", "payouts_received")
SEAT_DTYPES = dict(coins="int32", goods_sold="int8", crew_pos="int8", wages_paid="int32",
                   wages_earned="int32", rerolls="int16", reroll_coins="int32", distance="int32",
                   return_bonus="int16", compass_tradewind="int16", compass_sunken="int16",
                   compass_map="int16", compass_pirate="int16", treasure_coins="int32",
                   pirate_coins="int32", payouts_received="int32")


# ------------------------------------------------------------ named groups
#: The fields of ``State`` (name, shape), all int64, four seats always reserved (``MAXP``)
STATE_FIELDS = (("coins", (MAXP,)), ("goods", (MAXP,)), ("pos", (MAXP,)), ("offer", (MAXP, 2)),
                ("bv", (MAXP, 3)), ("bo", (MAXP, 3)), ("nb", (MAXP,)), ("dv", (MAXP, 3)),
                ("rflags", (N_RF, MAXP)), ("lastcap", (MAXP,)), ("mapv", (MAXP, MAXI)),
                ("cube", (MAXI, MAXP)), ("ncube", (MAXI,)), ("tile", (MAXC,)), ("deck", (MAXK,)),
                ("disc", (MAXK,)), ("tal", (N_TAL, MAXP)), ("g", (N_G,)))
#: ``State``: everything that changes during a game (``setup`` fills it, ``clear_state``
#: first), one numpy record of this dtype whose fields are named int64 arrays:
#:
#: * ``coins[s]``: seat s's coins in hand (wages offered are on its board: ``offer``);
#: * ``goods[s]``: goods cubes it has sold; ``pos[s]``: the space its ship is on;
#: * ``offer[b, k]``: the wage on b's board for slot k (0 captain, 1 sailor), until Phase 4;
#: * ``bv[b, k]``, ``bo[b, k]``: value and owner of the die in slot k of b's crew board (0
#:   captain, 1 sailor, 2 ship; descending values, -1 empty); ``nb[b]``: dice on it;
#: * ``dv[s, i]``: seat s's own die i this turn (its value, -1 once placed or not rolled);
#: * ``rflags[RF_*, s]``, cleared at the start of every round: ``RF_TW`` the tradewind tiles
#:   s used (bit c: the tile on compass space c), ``RF_RET`` its ship returned to Batam,
#:   ``RF_RETA`` ... at or after the end was triggered, ``RF_PCH`` it paid the pirate tile's
#:   fee (charge once);
#: * ``lastcap[s]``: the captain wage s offered last round (-1 in round 1);
#: * ``mapv[s, i]``: coins of the treasure maps s holds for island i;
#: * ``cube[i, s]``: 1 when s has sold a cube on island i; ``ncube[i]``: cubes on island i;
#: * ``tile[c]``: the compass tile on compass space c (tiles mode; -1 none or taken);
#: * ``deck[:g[G_DECKN]]``: the compass cards to draw (cards mode; drawn from the end),
#:   ``disc[:g[G_DISCN]]`` the discards;
#: * ``tal[T_*, s]``: the per-seat tallies (the result columns after coins, goods and crew
#:   position: SEAT_FIELDS);
#: * ``g[G_*]``: the bank (``G_BANK``), what it owed but could not pay (``G_SHORT``), the
#:   deck's and the discards' counts (``G_DECKN``, ``G_DISCN``), reshuffles so far, the deck
#:   number (``G_NSHUF``), the end triggered (``G_ENDED``) and by whom (``G_ENDER``, -1), the
#:   compass space of the pirate tile (``G_PIRC``, -1 none).
#:
#: A record, not a named tuple of arrays: numba passes a record as one pointer and reads a
#: field at a constant offset from it, where each array of a tuple passes as seven to nine
#: words on every call (18 arrays: 142 words, and the cold compile grew by half).
STATE = np.dtype([(name, np.int64, shape) for name, shape in STATE_FIELDS])
State = np.record


def new_state() -> State:
    """A game's state, zeros (``setup`` fills it): a record of dtype ``STATE`` (it keeps its
    one-row array alive; kernels write into it)."""
    return np.zeros(1, STATE).view(np.recarray)[0]


def copy_state(st: State) -> State:
    """A copy of ``st`` (Python; kernels copy with ``copy_state_into``)."""
    out = new_state()
    copy_state_into(out, st)
    return out


@helper
def clear_state(st):
    """Every field of ``st`` to its value before setup: -1 for the crew boards, the dice,
    the tiles, the pirate's space, the ender and last round's captain wages; else 0."""
    for s in range(MAXP):
        st.coins[s] = 0
        st.goods[s] = 0
        st.pos[s] = 0
        st.nb[s] = 0
        st.lastcap[s] = -1
        for k in range(2):
            st.offer[s, k] = 0
        for k in range(3):
            st.bv[s, k] = -1
            st.bo[s, k] = -1
            st.dv[s, k] = -1
        for f in range(N_RF):
            st.rflags[f, s] = 0
        for t in range(N_TAL):
            st.tal[t, s] = 0
        for i in range(MAXI):
            st.mapv[s, i] = 0
            st.cube[i, s] = 0
    for i in range(MAXI):
        st.ncube[i] = 0
    for c in range(MAXC):
        st.tile[c] = -1
    for k in range(MAXK):
        st.deck[k] = 0
        st.disc[k] = 0
    for k in range(N_G):
        st.g[k] = 0
    st.g[G_PIRC] = -1
    st.g[G_ENDER] = -1


@helper
def copy_state_into(dst, src):
    """Every array of ``src`` into the same array of ``dst`` (one call: the search bot copies
    the real game into its own before each rollout)."""
    for s in range(MAXP):
        dst.coins[s] = src.coins[s]
        dst.goods[s] = src.goods[s]
        dst.pos[s] = src.pos[s]
        dst.nb[s] = src.nb[s]
        dst.lastcap[s] = src.lastcap[s]
        for k in range(2):
            dst.offer[s, k] = src.offer[s, k]
        for k in range(3):
            dst.bv[s, k] = src.bv[s, k]
            dst.bo[s, k] = src.bo[s, k]
            dst.dv[s, k] = src.dv[s, k]
        for f in range(N_RF):
            dst.rflags[f, s] = src.rflags[f, s]
        for t in range(N_TAL):
            dst.tal[t, s] = src.tal[t, s]
        for i in range(MAXI):
            dst.mapv[s, i] = src.mapv[s, i]
            dst.cube[i, s] = src.cube[i, s]
    for i in range(MAXI):
        dst.ncube[i] = src.ncube[i]
    for c in range(MAXC):
        dst.tile[c] = src.tile[c]
    for k in range(MAXK):
        dst.deck[k] = src.deck[k]
        dst.disc[k] = src.disc[k]
    for k in range(N_G):
        dst.g[k] = src.g[k]


# A snapshot row (``sim.record``, when recording: after every voyage; ``show`` draws it):
# coins, goods and ship position of seat 0..3, the compass tiles, the bank
SNAP_COINS, SNAP_GOODS, SNAP_POS, SNAP_TILE = 0, MAXP, 2 * MAXP, 3 * MAXP
SNAP_BANK = SNAP_TILE + MAXC
N_SNAP = SNAP_BANK + 1


class Board(NamedTuple):
    """The map (``data.py``): kind and island of every space, compass numbering (``comp``
    space -> compass index, -1; ``comp_nodes`` the reverse), neighbours (``nbr``, ``deg``),
    ``padj[c, v]`` v is next to compass space c, the harbours, and the special spaces (the
    harbours, then the compass spaces: the route planner's targets)."""
    kind: np.ndarray
    island: np.ndarray
    comp: np.ndarray
    comp_nodes: np.ndarray
    nbr: np.ndarray
    deg: np.ndarray
    padj: np.ndarray
    harb_nodes: np.ndarray
    special: np.ndarray


class Routes(NamedTuple):
    """Distance tables of the special spaces (see the module docstring)."""
    DS: np.ndarray
    WS: np.ndarray
    LS: np.ndarray
    DSS: np.ndarray
    LSS: np.ndarray


class Compass(NamedTuple):
    """Compass tiles (kind, value, island, identity) and cards (the same)."""
    tk: np.ndarray
    tv: np.ndarray
    ti: np.ndarray
    tid: np.ndarray
    ck: np.ndarray
    cv: np.ndarray
    ci: np.ndarray
    cid: np.ndarray


class Rules(NamedTuple):
    """Everything read-only in a game: rule values ``R``, dice faces and the data, and the
    learned value the search's ``leaf=model`` reads (``sim.value``'s ``mp``, ``ms``; empty
    arrays without a model: ``features.attach_model`` puts one in); ``evaluate``: the real
    game also follows each seat's chance of winning by that model at every round start (how
    it plays, issue #47: ``howplays.evaluate``; ``run_chunk`` reads it)."""
    R: np.ndarray
    faces: np.ndarray
    board: Board
    routes: Routes
    compass: Compass
    mp: np.ndarray
    ms: np.ndarray
    evaluate: bool = False


class Scratch(NamedTuple):
    """Work buffers of a chunk, reused by every game: the legal options of a decision
    (``opts``), an ordering (``order``: tiles at setup, the first-player dice), the route
    planner's candidates (``cand`` special index, ``candv`` value), the win shares of the
    game just played (``win``), the leader after each round (``leaders``), where the game
    stands (``cur``, C_*), a decision handed to the loop (``plan``, PL_*), how far each seat
    leads the seat placing a die (``th``, x20 standing points: the heuristic's spite term,
    ``place_prepare``) and ``sailing.finish_cost``'s work rows (``fc``: the occupied spaces
    it searches, the least cost to reach each); how it plays (``howplays``): the choices'
    counts (``cx``, sim/howplays.py; empty: count nothing, the search's rollouts) and the
    evaluation's work row (``evw``, ``howplays.EW_*``)."""
    opts: np.ndarray
    order: np.ndarray
    cand: np.ndarray
    candv: np.ndarray
    win: np.ndarray
    leaders: np.ndarray
    cur: np.ndarray
    plan: np.ndarray
    th: np.ndarray
    fc: np.ndarray
    cx: np.ndarray
    evw: np.ndarray


class Play(NamedTuple):
    """The game in play, reused by every game of a chunk: its state (``st``, a ``State``) and
    its random streams (``rs``, N_RS)."""
    st: State
    rs: np.ndarray


class Search(NamedTuple):
    """The search bot's work space (bots/search.py), made once per chunk: a determinized copy
    of the game (``st`` a ``State``, ``rs``, ``sc`` with its own cursor) that rollouts play on, the rollout
    policy (``ids``: heuristic for every seat, ``par``: its default parameters), the real
    game's parameters with the search seats' rows set to the heuristic defaults (``ppar``),
    the candidates of a decision (``cand`` [k, 2]) and their statistics (``tot`` reward sums,
    ``cnt`` visits), no-record buffers for rollouts (``buf``, ``snaps``) and counters
    (``stats``: decisions searched, rollouts played), and the rules the rollouts play by
    (``ru``: the game's, with their own round horizon when they are cut short); for
    sequential halving the sampled world every candidate is played from (``wst``, ``wrs``)
    and which candidates are still in (``alive``); the features of a position the model values
    (``x``) and its work rows (``h0``, ``h1``); the search scheduler's state (``sched``:
    ``sim.search.new_sched``)."""
    st: State
    rs: np.ndarray
    sc: Scratch
    ids: np.ndarray
    par: np.ndarray
    ppar: np.ndarray
    cand: np.ndarray
    tot: np.ndarray
    cnt: np.ndarray
    buf: np.ndarray
    snaps: np.ndarray
    stats: np.ndarray
    ru: Rules
    wst: State
    wrs: np.ndarray
    alive: np.ndarray
    x: np.ndarray
    h0: np.ndarray
    h1: np.ndarray
    sched: np.ndarray


class Out(NamedTuple):
    """What ``run_games`` writes for game j of the chunk; ``seat[j, s, k]`` the columns of
    SEAT_FIELDS of seat s; the complexity columns (sim/playcols.py, written from the choices'
    counts by ``sim.howplays.cx_finish``); ``ev[j]`` ``ev_finish``'s figures (evaluated runs
    only: no rows otherwise)."""
    winner: np.ndarray
    end_reason: np.ndarray
    first_player: np.ndarray
    rounds: np.ndarray
    ender: np.ndarray
    bank: np.ndarray
    bank_short: np.ndarray
    win: np.ndarray
    seat: np.ndarray
    lead_changes: np.ndarray
    lead_settled: np.ndarray
    decisions: np.ndarray
    forced: np.ndarray
    decision_share: np.ndarray
    branching: np.ndarray
    decision_factor: np.ndarray
    options_max: np.ndarray
    ev: np.ndarray
