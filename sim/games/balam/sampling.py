"""Positions taken from the kernel's own games: the value model's samples (``sample_games``,
the same games as ``play.run_games``) and the tests' probes of one position
(``features_probe``, ``search_probe``)."""
from __future__ import annotations

import numpy as np

from ...jit import helper, kernel
from ...rng import mix64
from .state import END_BALLS, END_CAP, END_DECK, GS_DPOS, GS_ROUND, GS_SLOT, R_MAXR, R_NP
from .board import prestige_leader
from .setup import layout_hash
from .bots.search import new_search, search_turn
from .bots.worlds import WI_CAND, leaf_value, reshuffle_unseen
from .features import GF, KF, features
from .play import begin_game, chunk_arrays, finish_game, play_round
from .rounds import deal_round


@helper
def sample_games(seed, start, count, ctx, bot_par, res, ch, X, base, nr, scale):
    """run_games' games (the same calls, so the same games: features.sample) with a look
    at the start of each round r before its deal: every king q's features (``X[j, r, q]``,
    features.features) and the search's formula for him (``base[j, r, q]``,
    worlds.leaf_value of a cut rollout at ``scale``); ``nr[j]``: the rounds begun."""
    tinfo, cid = ctx[3], ctx[7]
    st, ru, sc, dk, perm, leaders, se = ch
    R = ru.R
    NP = R[R_NP]
    gs = st.gs
    for j in range(count):
        first, ndeck = begin_game(st, ru, sc, seed, start + j, tinfo, cid, bot_par, dk, perm, se)
        res.layout[j] = layout_hash(ru.info)
        cur = first
        r = 0
        while True:   # play_game, with the look before each round's deal
            if gs[GS_ROUND] >= R[R_MAXR]:
                end = END_CAP
                break
            n = min(NP + 1, ndeck - gs[GS_DPOS])
            if n <= 0:
                end = END_DECK
                break
            for q in range(NP):
                features(st, ru, q, cur, X[j, r, q])
                base[j, r, q] = leaf_value(st.pl, q, NP, np.int64(-1), scale)
            r += 1
            cur, final = play_round(st, ru, sc, dk[0], n, cur, se)
            leaders[gs[GS_ROUND] - 1] = prestige_leader(st.pl, NP)
            if final:
                end = END_BALLS
                break
        finish_game(st, ru, sc, j, end, first, leaders, res)
        nr[j] = r


@kernel
def features_probe(seed, g, ctx, bot_ids, bot_par, rounds, deal, p, key):
    """Tests: game g played by ``bot_ids`` for ``rounds`` rounds (then, with ``deal``, the
    next round dealt and divined), then (``key`` != 0) everything king p cannot know
    scrambled on a stream of ``key``: the cards he has not seen (worlds.reshuffle_unseen,
    the real order), every seat's stream but his, the chance slot and the game's base.
    Returns king p's features there (features.features; ``cur``: the king to move)."""
    tinfo, cid = ctx[3], ctx[7]
    buf = np.zeros((1, 8), np.int32)
    st, ru, sc, dk, perm, leaders, se = chunk_arrays(ctx, bot_ids, bot_par, buf,
                                                     np.zeros((0, 1), np.int64), None)
    first, ndeck = begin_game(st, ru, sc, seed, g, tinfo, cid, bot_par, dk, perm, se)
    R, gs = ru.R, st.gs
    cur = first
    for _ in range(rounds):
        cur, final = play_round(st, ru, sc, dk[0], min(R[R_NP] + 1, ndeck - gs[GS_DPOS]), cur, se)
    if deal:
        deal_round(st, ru, sc, dk[0], min(R[R_NP] + 1, ndeck - gs[GS_DPOS]), cur)
    if key != 0:
        krs = np.zeros(1, np.uint64)
        krs[0] = mix64(np.uint64(key))
        wi = np.zeros(WI_CAND + 16 + 2 * (dk[0].shape[0] + 6), np.int64)
        reshuffle_unseen(gs, dk[0], ndeck, R, ru.ctype, p, krs, 0, wi, False)
        for k in range(st.rs.shape[0]):
            if k != 1 + p:
                st.rs[k] = mix64(st.rs[k] + krs[0])
    x = np.zeros(ru.R[R_NP] * KF + GF)
    features(st, ru, p, cur, x)
    return x


@kernel
def search_probe(seed, g, ctx, bot_ids, bot_par, rounds, key):
    """Tests: game g played by ``bot_ids`` for ``rounds`` rounds, the next round dealt,
    then (``key`` != 0) the cards its first king has not seen scrambled in the real deck
    (worlds.reshuffle_unseen on a stream of ``key``), then the search bot's choice for
    that king (his search parameters: ``bot_par``'s wide rows).  Returns (the king, his
    candidates, their means and counts, his stream afterwards, the deck and face-down
    slots as they were searched)."""
    tinfo, cid = ctx[3], ctx[7]
    buf = np.zeros((1, 8), np.int32)
    # the search work made here, not by chunk_arrays: numba prunes ``searching is None``
    # only for a None argument, so chunk_arrays(..., True) returns an optional Search, and
    # every function below would be compiled once more for it (about 30 s of cold compile
    # that only this probe needed); new_search's own type is the one run_games uses
    st, ru, sc, dk, perm, leaders, _ = chunk_arrays(ctx, bot_ids, bot_par, buf,
                                                    np.zeros((0, 1), np.int64), None)
    se = new_search(ctx, ru.info, bot_par)
    first, ndeck = begin_game(st, ru, sc, seed, g, tinfo, cid, bot_par, dk, perm, se)
    R, gs = ru.R, st.gs
    cur = first
    for _ in range(rounds):
        cur, final = play_round(st, ru, sc, dk[0], min(R[R_NP] + 1, ndeck - gs[GS_DPOS]), cur, se)
    deal_round(st, ru, sc, dk[0], min(R[R_NP] + 1, ndeck - gs[GS_DPOS]), cur)
    if key != 0:
        krs = np.zeros(1, np.uint64)
        krs[0] = mix64(np.uint64(key))
        reshuffle_unseen(gs, dk[0], ndeck, R, ru.ctype, cur, krs, 0, se.wi, False)
    n, best = search_turn(st, ru, sc, cur, se, dk[0], False)   # (the kernel's compiled search)
    cand = se.wi[WI_CAND:WI_CAND + n].copy()
    means = se.wf[0, :n] / se.wf[1, :n]
    return (cur, cand, means, se.wf[1, :n].copy(), st.rs[1 + cur], dk[0][:ndeck].copy(),
            gs[GS_SLOT:GS_SLOT + 5].copy())
