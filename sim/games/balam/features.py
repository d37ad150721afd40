"""Balam's learned value (issue #46): a position from one king's view as a row of numbers,
the sampler that plays games as the kernel does and records those rows with each king's
final share, and the model's place in the rules context.

What a king may know, and so all the features read: every king's prestige, the riches in
his hand (Balam plays them open: the search and the heuristics read every hand), his
cities, buildings and the riches on them, pyramids left, small pyramids on the board, the
supply and the building tiles left, the round, the ball games still to come and the cards
still unturned of each type (the deck's composition is public: what has been turned is
counted, ``GS_SEEN``), whether the Eclipse has been turned and who opens the next round.
Never the order of the deck, a face-down card (divined or not), another seat's stream or
the dice.

The row is the seat's own king first, then the rivals in turn order from him, then the
game's common part, so one model serves every seat.  Positions are sampled at round
starts (before the deal: every card of the previous round turned, so nothing face down),
where the search's rollouts are cut (``horizon``).
"""
from __future__ import annotations

import numpy as np

from ...jit import helper, helper_inline
from ...rng import GAME_PURPOSES, Stream
from ...value import sample_buffers, sampled, value_eval
from .state import (BALLCOURT, END_CAP, GS_BALLS, GS_DPOS, GS_ECL, GS_LEFT,
                    GS_ROUND, GS_SEEN, GS_SUP, GS_TILE, I_CENOTE, I_COLOUR, I_SEA, I_SPACES,
                    I_VOLC, NK, OBSERV, P_HAND, P_PRES, P_SMALL, R_BALLS, R_KCNT, R_MAXR, R_NCARDS,
                    R_NP, R_POSB, VILLAGE)

#: bumped when the features change
FEATURES_VERSION = 1
#: the policy of the search's rollouts (bots/search.py: the merchant's default weights in
#: every seat), so the model estimates what a rollout cut at that point would bring
TRAIN_BOTS = "merchant"
#: the default size of a training (sim.learn): games, and round starts sampled per game (each
#: a row for every king); about a minute on two cores, most of it the fits
TRAIN_GAMES = 8000
PER_GAME = 3
#: the second generation (``leaf=model2``): learned from the games of the search that reads
#: the first at the end of the round (two players' strong play), so that it estimates what
#: good play, not the merchant's, brings from a position (expert iteration's value step).
#: Two players, against search:iters=25 on two seeds: the search reading it +185 Elo, reading
#: the first +148, at the same cost (8,000 games gave +194: most of the gain for half the
#: training: 4,000 games took 172-374 s, on two workers or one core; docs/BENCH.md)
ITERATE_BOTS = "search:iters=40;horizon=-1;leaf=model"
ITERATE_GAMES = 4000
#: the formula's scale for ``baseline`` (the search's default ``scale``)
BASE_SCALE = 4.0
#: the sampler's own chance purpose (which rounds of a game it records)
P_SAMPLE = GAME_PURPOSES + 8

#: per king: score (prestige + hand // 2), prestige, hand, hand by type (6), cities, small
#: pyramids left, buildings by code 1..8, riches on his buildings by type (6), free spaces
#: in his cities, villages by colour (5), cities next to a volcano, on the seashore, on a
#: cenote, his place after the next round's first king, his small pyramids on the board
KF = 36
#: common: round, rounds left (estimate), ball games left, Eclipse turned, cards left,
#: unturned cards by type (17), supply (6), tiles left (4), face-down cards left, then the
#: seat's margins: score over the best rival, the same over the rounds left + 1, ball
#: courts and observatories over the best rival's
GF = 37


def n_features(players: int) -> int:
    """The row's length for ``players`` kings."""
    return KF * int(players) + GF


@helper_inline
def _king(st, ru, q, cur, x, o):
    """King q's part of a row at x[o:o + KF]."""
    own, bld, tok, sm, pl = st.own, st.bld, st.tok, st.sm, st.pl
    info = ru.info
    NP = ru.R[R_NP]
    for i in range(KF):
        x[o + i] = 0.0
    h = 0
    for t in range(6):
        h += pl[q, P_HAND + t]
        x[o + 3 + t] = pl[q, P_HAND + t]
    x[o] = pl[q, P_PRES] + h // 2
    x[o + 1] = pl[q, P_PRES]
    x[o + 2] = h
    x[o + 10] = pl[q, P_SMALL]
    for s in range(own.shape[0]):
        x[o + 35] += sm[s, q]
        if own[s] != q:
            continue
        x[o + 9] += 1.0
        used = 0
        for k in range(4):
            c = bld[s, k]
            if c != 0:
                used += 1
            if c >= 1 and c <= 8:
                x[o + 10 + c] += 1.0
                if c == VILLAGE:
                    x[o + 26 + info[s, I_COLOUR]] += 1.0
            t = tok[s, k]
            if t >= 0:
                x[o + 19 + t] += 1.0
        x[o + 25] += info[s, I_SPACES] - used
        x[o + 31] += info[s, I_VOLC]
        x[o + 32] += info[s, I_SEA]
        x[o + 33] += info[s, I_CENOTE]
    x[o + 34] = (q - cur + NP) % NP


@helper
def features(st, ru, p, cur, x):
    """King p's view of the position ``st`` into ``x`` (float64, n_features(players)):
    his part, the rivals' in turn order from him, the common part.  ``cur``: the king who
    opens the next round (at a round start) or who moves.  Reads only what p may know."""
    gs = st.gs
    R = ru.R
    NP = R[R_NP]
    for i in range(NP):
        _king(st, ru, (p + i) % NP, cur, x, KF * i)
    o = KF * NP
    x[o] = gs[GS_ROUND]
    left = R[R_POSB] - gs[GS_DPOS] + 1
    rl = left / (NP + 1.0) if left > 0 else 0.0
    x[o + 1] = rl
    x[o + 2] = R[R_BALLS] - gs[GS_BALLS]
    x[o + 3] = 1.0 if gs[GS_ECL] != 0 else 0.0
    x[o + 4] = R[R_NCARDS] - gs[GS_DPOS]
    for t in range(NK):
        x[o + 5 + t] = R[R_KCNT + t] - gs[GS_SEEN + t]
    for t in range(6):
        x[o + 5 + NK + t] = gs[GS_SUP + t]
    for i in range(4):
        x[o + 11 + NK + i] = gs[GS_TILE + i]
    x[o + 15 + NK] = gs[GS_LEFT]
    best = -1e18
    bbc = -1e18
    bob = -1e18
    for i in range(1, NP):
        r = KF * i
        best = max(best, x[r])
        bbc = max(bbc, x[r + 10 + BALLCOURT])
        bob = max(bob, x[r + 10 + OBSERV])
    m = x[0] - best
    x[o + 16 + NK] = m
    x[o + 17 + NK] = m / (rl + 1.0)
    x[o + 18 + NK] = x[10 + BALLCOURT] - bbc
    x[o + 19 + NK] = x[10 + OBSERV] - bob


@helper_inline
def model_value(st, ru, p, cur, mp, ms, x, h0, h1):
    """King p's win probability at ``st`` by the model ``(mp, ms)`` (work arrays x, h0, h1)."""
    features(st, ru, p, cur, x)
    return value_eval(mp, ms, x, h0, h1)


# ======================================================================= the rules context
def empty_model():
    """The model arrays of a context without a model (the kernels' types are the same)."""
    return np.zeros(0, np.float64), np.zeros(0, np.int64)


class Evaluating(tuple):
    """prepare's tuple with the model in its last two places, whose chances the game loop
    follows before every round's deal (how it plays, issue #47: ``howplays.py``); the
    kernels get it as a plain tuple (``run_chunk``)."""
    __slots__ = ()


def attach_model(ctx, mp, ms, evaluate=False):
    """``ctx`` (prepare's tuple) with the model ``(mp, ms)`` in its last two places (the
    search's ``leaf=model`` reads it); ``evaluate`` (or a ``ctx`` already evaluating): an
    ``Evaluating`` context, whose games also follow every king's chance by the model."""
    from ...value import check
    mp = np.ascontiguousarray(mp, dtype=np.float64)
    ms = np.ascontiguousarray(ms, dtype=np.int64)
    check(mp, ms)
    evaluate = evaluate or isinstance(ctx, Evaluating)
    ctx = tuple(ctx)
    if int(ms[0]) != n_features(int(ctx[0][R_NP])):
        raise ValueError(f"the model reads {int(ms[0])} features; Balam with {int(ctx[0][R_NP])} "
                         f"kings has {n_features(int(ctx[0][R_NP]))}")
    if evaluate:
        return Evaluating(ctx[:8] + (mp, ms))
    return ctx[:8] + (mp, ms)


# ======================================================================= sampling
def sample(ctx, players, seed, start, n, bot_ids, bot_par, per_game=4) -> dict:
    """Play games ``start .. start + n - 1`` of ``seed`` exactly as ``run_chunk`` does and
    record, at up to ``per_game`` round starts of each game (chosen uniformly among its
    rounds on a stream of their own, ``P_SAMPLE``: the games are unchanged), one row for
    every king (so up to ``per_game * players`` rows a game; ``per_game`` 0: every round).

    Returns ``X`` (float32, rows x n_features), ``seat``, ``game``, ``progress`` (rounds
    played before the position over the game's rounds), ``outcome`` (the king's final
    share: 1 sole win, 1/k shared, 1/players for a capped game, 0 lost) and ``baseline``
    (the search's formula at a cut rollout, ``worlds.leaf_value`` with scale BASE_SCALE)."""
    from . import play as P
    from .sampling import sample_games
    from . import state as K
    from ...record import NO_RECORD, NO_SNAPS
    ctx = tuple(ctx)   # (an Evaluating context: these games follow no chances)
    if len(ctx) == 8:
        ctx = ctx + empty_model()
    par = P.kernel_par(players, bot_ids, bot_par)
    ids = np.asarray(bot_ids, np.int64)
    searching = True if (ids == K.BOT_SEARCH).any() else None
    F = n_features(players)
    maxr = int(ctx[0][R_MAXR]) + 1
    out = {k: [] for k in ("X", "seat", "game", "progress", "outcome", "baseline")}
    step = 256
    for c0 in range(0, n, step):
        cnt = min(step, n - c0)
        X = np.zeros((cnt, maxr, players, F))
        base = np.zeros((cnt, maxr, players))
        nr = np.zeros(cnt, np.int64)
        res = P.Results(*(np.zeros(cnt, dt) for dt in (np.int8, np.int8, np.int16, np.int32, np.int8,
                                                       np.int8, np.int16, np.int64, np.int16, np.int8)),
                        np.zeros((cnt, players, K.NPL), np.int32))
        ch = P.chunk_arrays(ctx, ids, par, NO_RECORD, NO_SNAPS, searching)
        sample_games(np.uint64(seed), np.int64(start + c0), np.int64(cnt), ctx, par, res, ch, X,
                     base, nr, BASE_SCALE)
        end = res.end_reason
        pres = res.seat[:, :, K.P_PRES]
        for j in range(cnt):
            g = start + c0 + j
            r = int(nr[j])
            if r == 0:
                continue
            rows = _pick(seed, g, r, per_game)
            top = pres[j] == pres[j].max()
            share = top / top.sum()
            if end[j] == END_CAP:
                share = np.full(players, 1.0 / players)
            for i in rows:
                out["X"].append(X[j, i])
                out["seat"].append(np.arange(players))
                out["game"].append(np.full(players, g))
                out["progress"].append(np.full(players, i / r))
                out["outcome"].append(share)
                out["baseline"].append(base[j, i])
    if not out["X"]:
        return sampled(sample_buffers(0, F), 0)
    return {"X": np.concatenate(out["X"]).astype(np.float32),
            "seat": np.concatenate(out["seat"]).astype(np.int16),
            "game": np.concatenate(out["game"]).astype(np.int64),
            "progress": np.concatenate(out["progress"]).astype(np.float32),
            "outcome": np.concatenate(out["outcome"]).astype(np.float32),
            "baseline": np.concatenate(out["baseline"]).astype(np.float32)}


def _pick(seed, g, rounds, per_game):
    """Which round starts of game g to record: ``per_game`` of its ``rounds`` uniformly
    (partial Fisher-Yates on the sampler's own stream), in order; all of them for 0."""
    idx = list(range(rounds))
    if per_game <= 0 or per_game >= rounds:
        return idx
    s = Stream.substream(int(seed), int(g), P_SAMPLE, 0)
    for i in range(per_game):
        j = i + s.rand_int(rounds - i)
        idx[i], idx[j] = idx[j], idx[i]
    return sorted(idx[:per_game])
