"""How Balam plays (issue #47): the choices a king makes, counted in the game loop, and each
king's chance of winning by the learned value, followed at every round's start.

**A choice** is a king's turn, counted once at its start (``play.take_turn``), the same way
for every bot (the random bot, the heuristics and the search: the count never depends on
who moves), in the real game only (the search's rollouts are not counted).  Its options
are the turn's distinct actions, the ones the random bot draws among (``turn_options``),
with the cards told apart by what the king knows:

* the face-down cards: each card he has seen by divination this round is an option of its
  own, and the cards he has not seen count together as one (turning one or another of them
  is the same choice to him: he cannot tell them apart) (``card_options``);
* with at least one riches in hand (the tax): passing; building on a site, one option per
  site where, after paying the tax with some riches type he holds, at least one building
  fits and is affordable (a free site when he has a pyramid left); attacking, one option
  per (own city with a garrison, enemy city on a path from it).

Left out (no choice is counted): what follows the turn's action (the tax's type, the
buildings and their order, the garrisons and obsidian committed, the site refounded
after a war), the Katun cards' options (Favourable, Exceptional, Expedition ...), the
defence, the distribution of riches, and the safety valve's forced card (``max_turns``,
never reached by the bundled bots).  A king without riches who has seen none of the
face-down cards has a forced move (one option: turn a card).

**Evaluation** (``evaluate_round``, only where the rules context carries the model with
``features.attach_model(..., evaluate=True)``): before each round's deal (every card of
the previous round turned, so nothing is face down: where the model was trained), each
king's win probability from his own view (``features.features``, the round's first king
as ``cur``) into ``sim.howplays.ev_step``; the game's winner (the sole prestige leader
after the riches bonus, none at the horizon) into ``ev_finish``.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...howplays import EV_NAMES, EV_SIZE, EV_THRESHOLD, ev_step
from ...jit import helper, helper_inline
from ...playcols import evaluation_columns
from ...value import value_eval, work_size
from .board import hand_total, tile_mask
from .features import features, n_features
from .state import (EMPTY, GARRISON, GS_KNOWN, GS_NSLOT, GS_SLOT, I_SPACES, MARKET, P_HAND, P_LARGE,
                    P_SMALL, PALACE, R_CANY, R_CKIND, R_CN, R_LARGE, TEMPLE, XI_HAND)


@helper_inline
def taxed_afford_mask(hand, R):
    """Bit mask (bit = code) of the buildings affordable after paying the one-riches tax
    with some type held in ``hand`` (at least one riches): the union over the held types t
    of ``board.afford_mask`` of the hand less one t, in one pass over the codes."""
    tot = 0
    held = 0
    for t in range(6):
        tot += hand[t]
        if hand[t] > 0:
            held += 1
    m = 0
    for code in range(1, 9):
        b = code - 1
        kind = R[R_CKIND + b]
        if kind >= 0:
            need = R[R_CN + b]
            # the tax paid in that kind (one more needed) or in another held type
            ok = hand[kind] >= need + 1 or (hand[kind] >= need
                                            and held - (1 if hand[kind] > 0 else 0) > 0)
        else:
            ok = tot - 1 >= R[R_CANY + b]
        if ok:
            m |= 1 << code
    return m


@helper_inline
def own_city(bld, info, s, m1, m2, small, nb):
    """King p's own city s: the buildings that can go there (``m2`` where two neighbouring
    spaces are free, ``m1`` where one is, none where none is; no market without the ``nb`` + 1
    small pyramids its paths take) and its garrisons (``turn_options``, ``count_options``)."""
    sp = info[s, I_SPACES]
    one = False
    two = False
    g = 0
    for k in range(4):
        c = bld[s, k]
        if c == GARRISON:
            g += 1
        if k < sp and c == EMPTY:
            one = True
            if k + 1 < sp and bld[s, k + 1] == EMPTY:
                two = True
    m = m2 if two else (m1 if one else 0)
    if small < 1 + nb:
        m &= ~(1 << MARKET)
    return m, g


@helper_inline
def turn_options(st, ru, sc, p, acts):
    """King p's turn's actions into ``acts`` (codes: 0 turn a card, 1 pay and pass, 2 + s
    pay and build on site s, 1000 + a * 64 + b pay and attack site b from site a), in the
    random bot's order (the sites, then the attacks); returns how many (every card is the
    one action 0 here).  A site takes a building when ``board.fit_mask`` and
    ``taxed_afford_mask`` share one, both worked out here in one pass over the sites (the
    attacks are gathered at ``acts[S + 2:]`` meanwhile, then moved after the sites)."""
    own, bld, pl, gs = st.own, st.bld, st.pl, st.gs
    R, nbr, nnb, info = ru.R, ru.nbr, ru.nnb, ru.info
    hand = sc.xi[XI_HAND]
    S = own.shape[0]
    acts[0] = 0
    if hand_total(pl, p) < 1:
        return np.int64(1)
    acts[1] = 1
    n = np.int64(2)
    for t in range(6):
        hand[t] = pl[p, P_HAND + t]
    m2 = tile_mask(gs) & taxed_afford_mask(hand, R)   # where two spaces are free
    m1 = m2 & ~((1 << PALACE) | (1 << TEMPLE))        # where only single ones are
    small = pl[p, P_SMALL]
    found = pl[p, P_LARGE] > 0 and m2 != 0
    off = S + 2
    na = 0
    for s in range(S):
        o = own[s]
        if o == -1:
            if found:
                m = m2
                if small < 1 + nnb[s]:
                    m &= ~(1 << MARKET)
                if m != 0:
                    acts[n] = 2 + s
                    n += 1
        elif o == p:
            m, g = own_city(bld, info, s, m1, m2, small, nnb[s])
            if m != 0:
                acts[n] = 2 + s
                n += 1
            if g > 0:
                for j in range(nnb[s]):
                    b = nbr[s, j]
                    if own[b] >= 0 and own[b] != p:
                        acts[off + na] = 1000 + s * 64 + b
                        na += 1
    for i in range(na):
        acts[n + i] = acts[off + i]
    return n + na


@helper
def count_options(own, bld, pl, gs, R, nbr, nnb, info, p):
    """How many actions ``turn_options`` would list for king p, without listing them (the
    heuristics' and the search's turns; the reference replay checks both counts).  The
    free sites are counted from the kings' pyramids left (every city holds one large
    pyramid: ``play.audit``'s invariant) unless only a market could go there.  Compiled
    on its own (not inlined into the turn loop: measured faster)."""
    if hand_total(pl, p) < 1:
        return np.int64(1)
    m2 = tile_mask(gs) & taxed_afford_mask(pl[p, P_HAND:P_HAND + 6], R)
    m1 = m2 & ~((1 << PALACE) | (1 << TEMPLE))
    small = pl[p, P_SMALL]
    S = own.shape[0]
    n = np.int64(2)
    if pl[p, P_LARGE] > 0 and m2 != 0:
        if m2 & ~(1 << MARKET) != 0:      # every free site takes a building
            n += S
            for q in range(pl.shape[0]):
                n -= R[R_LARGE] - pl[q, P_LARGE]
        else:                             # only a market: 1 + its paths in small pyramids
            for s in range(S):
                if own[s] == -1 and small >= 1 + nnb[s]:
                    n += 1
    for s in range(S):
        if own[s] == p:
            m, g = own_city(bld, info, s, m1, m2, small, nnb[s])
            if m != 0:
                n += 1
            if g > 0:
                for j in range(nnb[s]):
                    b = own[nbr[s, j]]
                    if b >= 0 and b != p:
                        n += 1
    return n


@helper_inline
def card_options(gs, p):
    """The face-down cards as king p tells them apart: one option per card he has seen
    (divination), one for all those he has not (0 when no card is face down)."""
    known = gs[GS_KNOWN + p]
    c = 0
    unseen = 0
    for k in range(gs[GS_NSLOT]):
        if gs[GS_SLOT + k] >= 0:
            if (known >> k) & 1:
                c += 1
            else:
                unseen = 1
    return c + unseen


#: How it plays' arrays for a chunk (``how_plays``): the complexity columns ``sim.howplays.
#: cx_finish`` writes per game, then the model (empty: not evaluated), its work arrays, the
#: kings' chances at a position, the running figures and each game's ``ev_finish`` row
HowPlays = namedtuple("HowPlays", ("decisions", "forced", "decision_share", "branching",
                                   "decision_factor", "options_max", "mp", "ms", "fx", "h0",
                                   "h1", "pv", "ev", "evo"))


def how_plays(count: int, players: int, mp=None, ms=None) -> HowPlays:
    """The arrays ``play.run_games`` counts into for ``count`` games (a model ``(mp, ms)``:
    it follows the kings' chances too; None: nothing is evaluated, ``evo`` has no row)."""
    if mp is None:
        mp, ms, wide, rows = np.zeros(0), np.zeros(0, np.int64), 1, 0
    else:
        mp, ms = np.ascontiguousarray(mp, np.float64), np.ascontiguousarray(ms, np.int64)
        wide, rows = work_size(ms), count
    return HowPlays(np.zeros((count, players), np.int32), np.zeros((count, players), np.int32),
                    np.zeros(count, np.int16), np.zeros(count, np.int32), np.zeros(count, np.int32),
                    np.zeros(count, np.int32), mp, ms, np.zeros(n_features(players)), np.zeros(wide),
                    np.zeros(wide), np.zeros(players), np.zeros(EV_SIZE),
                    np.full((rows, len(EV_NAMES)), np.nan))


@helper_inline
def evaluate_round(st, ru, cur, how):
    """Before a round's deal (``cur`` opens it): every king's chance of winning by the
    model, each from his own view, into the running figures (``how``: HowPlays)."""
    NP = st.pl.shape[0]
    for q in range(NP):
        features(st, ru, q, cur, how.fx)
        how.pv[q] = value_eval(how.mp, how.ms, how.fx, how.h0, how.h1)
    ev_step(how.ev, how.pv, NP, EV_THRESHOLD)


def how_columns(how: HowPlays, evaluated: bool) -> dict:
    """The COMPLEXITY and EVALUATION columns (sim/playcols.py) of a chunk's ``how``: the
    evaluation's -1 (``ABSENT``) where it followed no model."""
    out = {f: getattr(how, f) for f in HowPlays._fields[:6]}
    out.update(evaluation_columns(how.evo if evaluated else None, how.decisions.shape[0]))
    return out
