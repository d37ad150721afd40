"""Balam state layout: the arrays a game changes, the rules array, and every constant.

State (allocated once per chunk, reset per game):

* ``own[S]``      owner of each site (-1: no one);
* ``bld[S, 4]``   building code on each space (0 empty, 1..8 buildings, 9 = the second
                  space of a palace or temple);
* ``tok[S, 4]``   riches token on the building of that space (-1 none, 0..5 riches);
* ``sm[S, 4]``    small pyramids (commercial control) of each player on each site;
* ``pl[P, NPL]``  per player: hand (personal riches), pyramids left, prestige and its
                  sources, tallies;
* ``gs[NG]``      global: supply, tiles left, eclipse, ball games, deck position,
                  round, the face-down Katun slots, what each player has seen.

Static data: ``R`` (rules and components, see the R_* slots), ``nbr/nnb`` (paths),
``info[S, 6]`` (spaces, colour, forest, seashore, volcano, cenote) and the card table
``ctype/cgain/cnopt/cid``.  The site tiles are placed per game: ``tinfo`` holds the
tiles as the board file prints them and ``info`` the tile on each cell in this game's
layout (``setup.draw_layout``).

Random numbers (``rs``, one uint64 counter per slot): slot 1+p is the bot of seat p
(its choices and every tie it breaks); chance comes from substreams keyed on
(seed, game, purpose, index) (``sim.rng``), opened in slot ``SL_CH`` when needed:
the layout (``P_LAYOUT``), the deck's shuffle keys (``DECK``, one key per card
identity ``cid``), the piles (``P_PILES``), the Eclipse's place (``P_ECLIPSE``), the
first player (``SETUP``) and each war's dice (``DICE``, index = the war's number in the
game).  Slot ``SL_BASE`` holds the game's base; slot 0 (the old single chance stream)
is not used.

Every integer constant here is an ``np.int64`` (numba then types them alike).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ... import rng
from ...jit import helper, kernel

# chance purposes, as numba constants like every name in capitals here
DECK, DICE, GAME_PURPOSES, GOLDEN, SETUP = (rng.DECK, rng.DICE, rng.GAME_PURPOSES, rng.GOLDEN,
                                           rng.SETUP)
# riches
MAIZE, CACAO, SHELL, JADE, OBSID, PRIS = 0, 1, 2, 3, 4, 5
# buildings (code = index in data.BUILDINGS + 1)
EMPTY, VILLAGE, GARRISON, PALACE, TEMPLE, MARKET, RESERVE, BALLCOURT, OBSERV, CONT = range(10)
# Katun card types
K_PROS, K_FAV, K_EXC, K_EXPED, K_CACAO, K_MARRY, K_CENOTE, K_BALL, K_ECLIPSE = range(9)
K_DROUGHT, K_INSURR, K_QUAKE, K_POCHT, K_TOLTEC, K_DECAD, K_VOLCANO, K_TIDAL = range(9, 17)
NK = 17
# site info columns
I_SPACES, I_COLOUR, I_FOREST, I_SEA, I_VOLC, I_CENOTE = range(6)

# rules array
(R_NP, R_BALLS, R_MAXR, R_START, R_CHAAK, R_HIT, R_FOREST, R_CTRL, R_ECLJ, R_LARGE, R_SMALL,
 R_CENF, R_NFACES, R_POSB, R_S, R_NCARDS, R_MAXTURN, R_NEUTRAL, R_PILES, R_LAYOUT) = range(20)
R_SUP0 = 20
R_TILE0 = 26
R_CANY = 30
R_CKIND = 38
R_CN = 46
R_PTS = 54
R_FACE = 60
R_KCNT = 80     # 17 slots: cards of each Katun type in the deck (static)
R_EXPED = 97    # riches types an Expedition return may bring: 6 (any) or 5 (produced only)
N_R = 98
HIT_DRAWER, HIT_ALL = 0, 1
CTRL_EACH, CTRL_SUM = 0, 1
PILES_LARGER_FIRST, PILES_RANDOM = 0, 1
LAYOUT_FIXED, LAYOUT_RANDOM = 0, 1

# random number slots (rs): 1 + seat = that seat's bot; chance substreams are opened in
# SL_CH; SL_BASE holds the game's base (not a stream)
SL_CH, SL_BASE, NRS = 5, 6, 7
# Balam's own chance purposes (sim.rng numbers game purposes from GAME_PURPOSES up)
P_LAYOUT = GAME_PURPOSES       # the permutation of the site tiles over the land cells
P_PILES = GAME_PURPOSES + 1    # which piles are the larger ones (piles=random)
P_ECLIPSE = GAME_PURPOSES + 2  # the Eclipse's offset from the middle (eclipse_jitter)

# global state
GS_SUP = 0
GS_TILE = 6
GS_ECL, GS_BALLS, GS_DPOS, GS_ROUND, GS_TURNS, GS_NSLOT, GS_LEFT = 10, 11, 12, 13, 14, 15, 16
GS_SLOT = 17      # 5 slots: card index or -1 once turned
GS_KNOWN = 22     # per player: bit mask of slots seen by divination
GS_SEEN = 26      # per type: cards turned so far (public)
GS_RFIRST = 43
GS_DEADLOCK = 44
GS_AUDIT = 45
GS_WARNO = 46     # wars (attacks) so far this game: the index of the next war's dice
NG = 48
MAXSLOT = 5

# per-player row
P_HAND = 0
P_LARGE, P_SMALL = 6, 7
P_PRES, P_CER, P_CEN, P_BALL, P_PROS, P_BONUS = 8, 9, 10, 11, 12, 13
T_WARS, T_DEF, T_BLOST, T_BDEST, T_GLOST, T_CPAID, T_CSUFF, T_KLOST, T_PRIS, T_BUILT, T_DIV = range(14, 25)
T_TURNS, T_PASS, P_AUDIT = 25, 26, 27
P_KAT = 28
NPL = P_KAT + NK

END_BALLS, END_DECK, END_CAP = 0, 1, 2

# recorded events (sim.record; their fields and words: record.py's ACTIONS)
(EV_LAYOUT, EV_DECK, EV_FIRST, EV_DEAL, EV_DIVINE, EV_CARD, EV_GAIN, EV_TAKE, EV_CATA, EV_PASS,
 EV_PAY, EV_BUILD, EV_ATTACK, EV_DEFEND, EV_DIE, EV_SKULL, EV_DESTROY, EV_PRISONER, EV_LOSE,
 EV_TOKEN, EV_CENOTE, EV_BALL, EV_ROUTE, EV_CHAAK, EV_BONUS, EV_END) = range(1, 27)

BOT_RANDOM = 0
BOT_SEARCH = 5   # the search bot (bots/search.py); 1..4 are the heuristic styles
# heuristic weights (bot_params columns; every heuristic style shares them)
(BW_PRES, BW_HAND, BW_RES, BW_BUILD, BW_EXPAND, BW_WAR, BW_MARKET, BW_BALL, BW_RISK,
 BW_TEMPLE, BW_PALACE, BW_PLANS) = range(12)
NBW = 12

# distribution sinks
DK_TEMPLE, DK_PALACE, DK_GARR, DK_RESERVE, DK_LOSE = range(5)


NEG = -1
ONE = 1
ZERO = 0
for _n, _v in list(globals().items()):
    if _n.isupper() and type(_v) is int:
        globals()[_n] = np.int64(_v)
del _n, _v


# ======================================================================= named state
#: Everything a game changes; ``copy_state`` copies it in one call.  ``rs`` holds the
#: random streams' counters (slot 1 + seat: that seat's bot; SL_CH: the open chance
#: substream; SL_BASE: the game's base).
State = namedtuple("State", ("own", "bld", "tok", "sm", "pl", "gs", "rs"))
#: Read-only during a game: the rules array, the paths, this game's tile on each cell,
#: the Katun card table, each seat's bot and its weights (with the game's site terms
#: and payment orders: ``play.site_terms``).
Rules = namedtuple("Rules", ("R", "nbr", "nnb", "info", "ctype", "cgain", "cnopt", "bot_ids",
                             "bot_par"))
#: Work arrays, meaningless between calls (a function may use any of them).  The small
#: buffers are named rows of two 2-D arrays (a call then passes two arrays, not two dozen):
#:
#: * ``xi`` (int64, ``N_XI`` rows of ``scratch_width(S)``): ``XI_COMP`` (connected
#:   components of a king's paths, board.components), ``XI_OPTS`` (the options of a
#:   choice), ``XI_TMP`` (the ball game's and divination's counts), ``XI_CNT`` (a king's
#:   building counts), ``XI_PLAN``/``XI_SPEND``/``XI_HAND`` (a building plan, what it
#:   spends and the hand it is paid from), the heuristic turn's ``XI_PER`` (every king's
#:   ball courts, observatories and cities), ``XI_UNSEEN`` (cards of each type the king
#:   has not seen), ``XI_ONB`` (riches on his buildings), ``XI_CVT`` (card_values' work
#:   area), ``XI_BPLAN`` (the best plan), and the distribution's ``XI_DCNT``/``XI_DCAP``
#:   (a group's riches and room) and ``XI_ISC``/``XI_SCR`` (the assignment solver's);
#:   ``XI_CX`` is no work area: the game's choices counted so far (how it plays,
#:   ``sim.howplays.choice``'s ``CX_SIZE`` fields; reset by ``play.begin_game``);
#: * ``xf`` (float64, ``N_XF`` rows): ``XF_HV`` (the worth of each riches type in hand),
#:   ``XF_CV`` (each card type's worth), ``XF_PV`` (a building's worth by code), ``XF_FV``
#:   (first-building worths), ``XF_VILL`` (a village's worth by colour), ``XF_SV`` (each
#:   site's screening worth: its first S values), ``XF_DHV`` (the distribution's worths in
#:   hand), ``XF_FSC`` (the assignment solver's);
#: * ``queue`` (board.components' queue); the distribution's ``items`` (riches to route:
#:   type, group), ``sinks`` (spaces: site, space, group, kind, room), ``dval`` (worth of a
#:   riches type on each kind of sink) and ``dx`` (the routing);
#: * ``rec``, ``snaps``: where a recorded game's events and snapshots go (``sim.record``;
#:   a normal run passes the shared one-row ``NO_RECORD``, and recording is a no-op).
Scratch = namedtuple("Scratch", ("xi", "xf", "queue", "items", "sinks", "dval", "dx", "rec",
                                 "snaps"))
(XI_COMP, XI_OPTS, XI_TMP, XI_CNT, XI_PLAN, XI_SPEND, XI_HAND, XI_PER, XI_UNSEEN, XI_ONB, XI_CVT,
 XI_BPLAN, XI_DCNT, XI_DCAP, XI_ISC, XI_SCR, XI_CX) = (np.int64(i) for i in range(17))
N_XI = 17
(XF_HV, XF_CV, XF_PV, XF_FV, XF_VILL, XF_SV, XF_DHV, XF_FSC) = (np.int64(i) for i in range(8))
N_XF = 8


def scratch_width(S):
    """Row width of ``xi`` and ``xf``: the widest small buffer (64: options, the solver's
    work areas) or a value per site."""
    return max(64, S)


@kernel
def new_state(S, P):
    own = -np.ones(S, np.int64)
    bld = np.zeros((S, 4), np.int64)
    tok = -np.ones((S, 4), np.int64)
    sm = np.zeros((S, 4), np.int64)
    pl = np.zeros((P, NPL), np.int64)
    gs = np.zeros(NG, np.int64)
    return State(own, bld, tok, sm, pl, gs, np.zeros(NRS, np.uint64))


@kernel
def copy_state(st):
    """A copy of every array of ``st`` (a search may play on it and throw it away)."""
    return State(st.own.copy(), st.bld.copy(), st.tok.copy(), st.sm.copy(), st.pl.copy(),
                 st.gs.copy(), st.rs.copy())


@helper
def copy_state_into(dst, src):
    """Every array of ``src`` into the same-shaped arrays of ``dst`` (one call: the search
    bot copies the real state into its preallocated one before each iteration)."""
    for s in range(src.own.shape[0]):
        dst.own[s] = src.own[s]
        for k in range(4):
            dst.bld[s, k] = src.bld[s, k]
            dst.tok[s, k] = src.tok[s, k]
            dst.sm[s, k] = src.sm[s, k]
    for q in range(src.pl.shape[0]):
        for f in range(src.pl.shape[1]):
            dst.pl[q, f] = src.pl[q, f]
    for i in range(src.gs.shape[0]):
        dst.gs[i] = src.gs[i]
    for i in range(src.rs.shape[0]):
        dst.rs[i] = src.rs[i]


@kernel
def new_scratch(S, rec, snaps):
    """The work arrays for a board of S sites, recording into ``rec`` and ``snaps``."""
    i64 = np.int64
    w = max(64, S)
    return Scratch(xi=np.zeros((N_XI, w), i64), xf=np.zeros((N_XF, w)),
                   queue=np.zeros(S * 70 + 64, i64), items=np.zeros((4 * S, 2), i64),
                   sinks=np.zeros((4 * S, 5), i64), dval=np.zeros((6, 5)),
                   dx=np.zeros((6, 5), i64), rec=rec, snaps=snaps)


@helper
def reset_state(st, R):
    own, bld, tok, sm, pl, gs = st.own, st.bld, st.tok, st.sm, st.pl, st.gs
    own[:] = -1
    bld[:] = 0
    tok[:] = -1
    sm[:] = 0
    pl[:] = 0
    gs[:] = 0
    for t in range(6):
        gs[GS_SUP + t] = R[R_SUP0 + t]
    for i in range(4):
        gs[GS_TILE + i] = R[R_TILE0 + i]
    for p in range(pl.shape[0]):
        pl[p, P_LARGE] = R[R_LARGE]
        pl[p, P_SMALL] = R[R_SMALL]
    for k in range(MAXSLOT):
        gs[GS_SLOT + k] = -1


PRIORITY = np.array([0, 2, 7, 5, 6, 8, 1, 4, 3, 0], np.int64)
