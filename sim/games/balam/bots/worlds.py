"""The search bot's sampled worlds and rollouts: what the seat cannot know re-sampled
(``determinize``: the unseen cards' order within the deck's public structure, fresh
streams for every seat and the dice), and a rollout from there with the heuristic in
every seat (``rollout``), scored for the searching seat (``leaf_value``).  Called by
``search.py``'s search; the layout of the search's int work ``se.wi`` is declared here."""
from __future__ import annotations

import numpy as np

from ....jit import helper, helper_inline
from ....rng import next_u64
from ....search import shuffle, sort_ascending
from ..state import (END_BALLS, END_CAP, END_DECK, GS_DPOS, GS_KNOWN, GS_LEFT,
                     GS_NSLOT, GS_ROUND, GS_SLOT, GS_TURNS, K_BALL, K_ECLIPSE, K_PROS,
                     NRS, PILES_RANDOM, P_PRES, R_ECLJ, R_MAXR,
                     R_MAXTURN, R_NP, R_PILES, T_TURNS, copy_state_into)
from ..board import hand_total
from ..katun import turn_card
from ..rounds import close_round, deal_round
from .heuristic import heuristic_turn


#: se.wi's parts: the deck size, the candidates, then the determinization's positions
#: and cards
WI_NDECK, WI_CAND, WI_POS = np.int64(0), np.int64(1), np.int64(1 + 16)


# ======================================================================= determinization
@helper
def card_class(kt, merged):
    """The deck's public structure: Prosperous Katuns lie on top, the ball games between
    the piles and the Eclipse in the middle, so which of them lies where is known and
    only cards of one class trade places.  With ``merged`` (random piles or a jittered
    Eclipse: their places are not public) ball games, Eclipse and the rest are one class."""
    if kt == K_PROS:
        return 0
    if merged:
        return 3
    if kt == K_BALL:
        return 1
    if kt == K_ECLIPSE:
        return 2
    return 3


@helper
def reshuffle_unseen(gs, deck, ndeck, R, ctype, p, rs, k, wi, canonical):
    """Deal the cards king p has not seen (face-down cards he did not divine, and the
    deck from its position on) again among their places, uniformly within each class
    (card_class), in place in ``gs`` and ``deck``, on stream k of ``rs``.  ``canonical``:
    sort each class's cards first, so the result depends on which cards are unseen and
    never on their order (the search); without it, a test scrambles the real order."""
    merged = R[R_PILES] == PILES_RANDOM or R[R_ECLJ] > 0
    known = gs[GS_KNOWN + p]
    half = (wi.shape[0] - WI_POS) // 2
    pos = wi[WI_POS:WI_POS + half]
    cards = wi[WI_POS + half:]
    for cl in range(4):
        m = 0
        for kk in range(gs[GS_NSLOT]):
            c = gs[GS_SLOT + kk]
            if c >= 0 and (known >> kk) & 1 == 0 and card_class(ctype[c], merged) == cl:
                pos[m] = -1 - kk
                cards[m] = c
                m += 1
        for i in range(gs[GS_DPOS], ndeck):
            c = deck[i]
            if card_class(ctype[c], merged) == cl:
                pos[m] = i
                cards[m] = c
                m += 1
        if m < 2:
            continue
        if canonical:
            sort_ascending(cards, 0, m)
        shuffle(cards, 0, m, rs, k)
        for i in range(m):
            if pos[i] < 0:
                gs[GS_SLOT - 1 - pos[i]] = cards[i]
            else:
                deck[pos[i]] = cards[i]


@helper
def determinize(se, st2, st, deck, p):
    """Copy ``st`` into ``st2`` and ``deck`` into the search's own and re-sample there,
    from king p's stream, everything he cannot know: the cards he has not seen
    (reshuffle_unseen, canonical: the copy depends on which cards are unseen, never on
    their real order), and fresh starts for every seat's stream and the dice."""
    deck2 = se.deck
    rs = st.rs
    bs = 1 + p
    copy_state_into(st2, st)
    ndeck = se.wi[WI_NDECK]
    for i in range(ndeck):
        deck2[i] = deck[i]
    reshuffle_unseen(st2.gs, deck2, ndeck, se.ru.R, se.ru.ctype, p, rs, bs, se.wi, True)
    for k in range(NRS):   # every seat's stream, the chance slot and the game's base
        st2.rs[k] = next_u64(rs, bs)


# ======================================================================= rollouts
@helper
def rollout_turns(st, ru, sc, cur):
    """The rest of a round's turns from king ``cur`` on, every king the heuristic (the
    game loop's safety valve included); returns the king who turned the last card."""
    pl, gs = st.pl, st.gs
    R = ru.R
    NP = R[R_NP]
    nturn = 0
    while True:
        nturn += 1
        gs[GS_TURNS] += 1
        pl[cur, T_TURNS] += 1
        if nturn > R[R_MAXTURN]:
            for k in range(gs[GS_NSLOT]):
                if gs[GS_SLOT + k] >= 0:
                    turn_card(st, ru, sc, cur, np.int64(k))
                    break
        else:
            heuristic_turn(st, ru, sc, cur)
        if gs[GS_LEFT] == 0:
            return cur
        cur = (cur + 1) % NP


@helper_inline
def rollout(st, ru, sc, deck, ndeck, p, horizon):
    """Play on after king p's turn: the round's other turns, then rounds as the game
    loop plays them until the game ends (its end reason) or ``horizon`` rounds after
    this one have been played (horizon 0: no limit; -1: at the end of this round;
    returns -1 when stopped), and the king who opens the next round."""
    gs = st.gs
    R = ru.R
    NP = R[R_NP]
    last = p
    if gs[GS_LEFT] > 0:
        last = rollout_turns(st, ru, sc, (p + 1) % NP)
    cur, final = close_round(st, ru, sc, last)
    if final:
        return END_BALLS, cur
    if horizon < 0:   # only the rest of the current round
        return np.int64(-1), cur
    r0 = gs[GS_ROUND]
    while True:
        if horizon > 0 and gs[GS_ROUND] >= r0 + horizon:
            return np.int64(-1), cur
        if gs[GS_ROUND] >= R[R_MAXR]:
            return END_CAP, cur
        n = min(NP + 1, ndeck - gs[GS_DPOS])
        if n <= 0:
            return END_DECK, cur
        deal_round(st, ru, sc, deck, n, cur)
        last = rollout_turns(st, ru, sc, cur)
        cur, final = close_round(st, ru, sc, last)
        if final:
            return END_BALLS, cur


@helper
def leaf_value(pl, p, NP, end, scale):
    """King p's result: his share of the win when the game ended (scores with the end
    bonus for riches; a capped game is a draw), else a logistic of his margin over the
    best rival with that bonus counted (``scale`` prestige = odds e : 1)."""
    if end == END_CAP:
        return 1.0 / NP
    mine = pl[p, P_PRES] + hand_total(pl, p) // 2
    best = np.int64(-1 << 40)
    nbest = 0
    for q in range(NP):
        if q == p:
            continue
        v = pl[q, P_PRES] + hand_total(pl, q) // 2
        if v > best:
            best = v
            nbest = 1
        elif v == best:
            nbest += 1
    if end < 0:
        return 1.0 / (1.0 + np.exp(-(mine - best) / scale))
    if mine > best:
        return 1.0
    if mine == best:
        return 1.0 / (1 + nbest)
    return 0.0
