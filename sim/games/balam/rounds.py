"""A round's two ends, shared by the game loop (play.py) and the search bot's rollouts
(bots/search.py): dealing the round's cards with divination, and production,
distribution and Chaak's clemency once every card is turned.  The turns in between
are each loop's own (the real game dispatches to every bot; a rollout only to the
heuristic), so the rules themselves exist once."""
from __future__ import annotations

from ...jit import helper
from ...record import rec, recording
from .state import (XI_TMP)
from .state import (EV_CHAAK, EV_DEAL, EV_DIVINE, GS_BALLS, GS_DPOS, GS_ECL, GS_KNOWN, GS_LEFT,
                    GS_NSLOT, GS_RFIRST, GS_ROUND, GS_SLOT, MAIZE, MAXSLOT, R_BALLS, R_CHAAK,
                    R_NP)
from .board import gain
from .divination import divination
from .distribution import distribute, production


@helper
def deal_round(st, ru, sc, deck, n, cur):
    """A round's start: n cards face down from the deck, king ``cur`` first, then
    divination."""
    own, bld, pl, gs = st.own, st.bld, st.pl, st.gs
    R = ru.R
    NP = R[R_NP]
    gs[GS_ROUND] += 1
    for k in range(MAXSLOT):
        gs[GS_SLOT + k] = -1
    for k in range(n):
        gs[GS_SLOT + k] = deck[gs[GS_DPOS] + k]
    gs[GS_DPOS] += n
    gs[GS_NSLOT] = n
    gs[GS_LEFT] = n
    gs[GS_RFIRST] = cur
    rec(sc.rec, EV_DEAL, -1, gs[GS_ROUND], n, gs[GS_DPOS] - n, cur, 0, 0)
    divination(own, bld, pl, gs, R, cur, sc.xi[XI_TMP])
    if recording(sc.rec):
        for q in range(NP):
            if gs[GS_KNOWN + q] != 0:
                rec(sc.rec, EV_DIVINE, q, gs[GS_KNOWN + q], 0, 0, 0, 0, 0)


@helper
def close_round(st, ru, sc, last_player):
    """A round's end once every card is turned (``last_player`` turned the last one):
    production, distribution from the round's first king on, Chaak's clemency.  Returns
    (the next round's first king, whether this was the last round)."""
    own, bld, tok, pl, gs = st.own, st.bld, st.tok, st.pl, st.gs
    R, info = ru.R, ru.info
    NP = R[R_NP]
    rfirst = gs[GS_RFIRST]
    production(own, bld, tok, gs, R, info, rfirst)
    final = gs[GS_BALLS] >= R[R_BALLS]
    for i in range(NP):
        q = (rfirst + i) % NP
        distribute(st, ru, sc, q, final)
    if gs[GS_ECL] == 0:
        for i in range(NP):
            gain(pl, gs, (rfirst + i) % NP, MAIZE, R[R_CHAAK])
        rec(sc.rec, EV_CHAAK, -1, R[R_CHAAK], 0, 0, 0, 0, 0)
    return (last_player + 1) % NP, final
