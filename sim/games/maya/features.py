"""Maya's learned value (issue #46): a position from one seat's view as a fixed row of numbers,
the model's place in the rules context and in the kernels' work arrays, and the sampler's
entry point (``sample``; the games are played in ``sampling.py``).

The contract of ``sim.learn`` (``FEATURES_VERSION``, ``n_features``, ``TRAIN_BOTS``,
``features``, ``sample``, ``attach_model``).  A position is taken at a turn's start (the
seat to move has a legal exchange and the horizon is not reached, before it may declare):
that is where the search's leaves are (two players: the alpha-beta's leaves, the seat to
move at them; three/four players: a play-out cut after ``playout`` exchanges, the next
seat to move).

What a seat may know.  Two players: everything (the board, ladders, priests, the Monolith
and the Raven are open).  Three/four players: the board and its own two task cards, never
another seat's cards nor (three players) the two face down: the row reads the seat's own
cards alone, and treats every colour that is neither its own nor the centre's alike
("unknown" colours, sorted by their points, so no colour's name matters).

Two players (``F2`` values, seat p's view, q the seat to move): whether p is to move; p's
and the rival's points, priests, ladders, ladders and priests left; towers complete, open
joints (cut-mask bits) and towers one joint from complete; free ladder spaces, towers with
tied ladders and a free space, towers where p (the rival) leads by one ladder with a free
space; the legal exchanges of the seat to move; exchanges made and left before the horizon;
the result if the game ended now (+1, 0, -1); the greedy bot's ``eval2`` / 100; the lead in
points, priests and ladders (the tie-breaks' order).

Three/four players (``F3`` values): the seat to move as an offset from p (one-hot, four
slots); per own colour (the better first): task points, gathering potential (the task
bot's: blocks per tower squared, plus two per block on a tower standing on it), complete
towers, longest run; own points; the six best unknown colours' points and (sorted apart)
potentials, their sums; own points less the two best unknown (what the three-player task
bot compares), three times own less all unknown (the four-player one); the centre: complete,
its colour's points, its open joints; whether p may declare now; complete towers of unknown
colours; towers complete, open joints, legal exchanges, exchanges made and left.

The outcome a row is fitted to (``sample``): the seat's side's share of the victory (four
players: partnerships), 1 / sides for a tie, a two-player game with no winner, or a game
stopped by the horizon under ``horizon_result=draw``; a game stopped by the horizon under
``horizon_result=score`` (the default) is scored as it stands, as the rules score it.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...jit import helper, helper_inline, popcount
from ...record import NO_RECORD
from ...rng import GAME_PURPOSES
from ...value import check, sample_buffers, sampled, value_eval
from .exchange import count_legal
from .scoring import can_declare, colour_points, result2
from .state import (LSUP, NMAX, PSUP, R_CENTRE, R_HORIZON, R_L,
                    N_TALLY, R_N, R_P, R_PTS, R_SPACES, WIN, nib)

#: bumped whenever the row changes (a model keyed on an older row is trained again)
FEATURES_VERSION = 1
#: the training games' bots: the greedy bot (two players: the search's leaf values are its
#: eval2; three/four: the task bot, the search's play-out policy)
TRAIN_BOTS = "greedy"
#: the default training: games and turn starts sampled per game (each from every seat's view)
TRAIN_GAMES = 20_000
PER_GAME = 6
F2 = 26
F3 = 39
#: unknown colours listed one by one (the best first; a board with more lists the six best)
TOPK = 6
#: the sampler's own stream: (seed, game, P_SAMPLE, 0); the game never draws from it
P_SAMPLE = GAME_PURPOSES + 1
#: exchanges left before the horizon are counted up to this many
LEFT_CAP = 500
#: the search's ``leaf`` setting (its index among the declared choices)
LEAF_FORMULA, LEAF_MODEL = 0, 1
#: the int work array's length (``ValueModel.iw``): four blocks of NMAX colours
IW = 4 * NMAX

#: The rules context of a run whose bots read the learned value: the rules array ``R``
#: (``prepare``'s) with the model ``(mp, ms)`` (``attach_model``; ``run_chunk`` reads it)
ModelRules = namedtuple("ModelRules", ("R", "mp", "ms", "evaluate"), defaults=(False,))
#: The model as the kernels take it (``chunk_work``): ``mp``/``ms`` (empty: no model), the
#: features row ``fx``, the evaluation's work arrays ``h0``/``h1``, the int work ``iw``
ValueModel = namedtuple("ValueModel", ("mp", "ms", "fx", "h0", "h1", "iw"))


def n_features(players: int) -> int:
    """Length of a seat's row with ``players`` seats."""
    return F2 if int(players) == 2 else F3


def value_model(mp=None, ms=None) -> ValueModel:
    """The kernels' model arrays: ``(mp, ms)`` with its work arrays, or no model (empty)."""
    if mp is None or np.asarray(ms).shape[0] < 3:
        mp, ms = np.zeros(0, np.float64), np.zeros(0, np.int64)
        wide = 1
    else:
        mp = np.ascontiguousarray(mp, dtype=np.float64)
        ms = np.ascontiguousarray(ms, dtype=np.int64)
        wide = int(max(int(ms[0]), int(np.max(ms[2:]))))
    return ValueModel(mp, ms, np.zeros(max(F2, F3), np.float64), np.zeros(wide), np.zeros(wide),
                      np.zeros(IW, np.int64))


#: no model (the search called from Python without one: ``bots/search.search2``)
NO_MODEL = value_model()


def split_ctx(ctx):
    """(R, mp, ms) of a rules context: ``prepare``'s array alone (no model) or ``ModelRules``."""
    if isinstance(ctx, ModelRules):
        return ctx.R, ctx.mp, ctx.ms
    return ctx, None, None


def attach_model(ctx, mp, ms, evaluate=False):
    """The rules context with the model ``(mp, ms)`` for the search's ``leaf=model``;
    ``evaluate``: the kernel also follows each side's chance of winning by the model at every
    position (how it plays, issue #47: ``play.evaluate``)."""
    R, _, _ = split_ctx(ctx)
    mp = np.ascontiguousarray(mp, dtype=np.float64)
    ms = np.ascontiguousarray(ms, dtype=np.int64)
    check(mp, ms)
    P = int(R[R_P])
    if int(ms[0]) != n_features(P):
        raise ValueError(f"maya: the model reads {int(ms[0])} features, the position has {n_features(P)}")
    return ModelRules(R, mp, ms, bool(evaluate) or (isinstance(ctx, ModelRules) and ctx.evaluate))


# ------------------------------------------------------------------ the row
@helper
def features2(st, R, p, q, ex, x, iw):
    """Two players: seat p's view (q to move, ``ex`` exchanges made) into ``x[:F2]``."""
    n = R[R_N]
    o = 1 - p
    pts_me = 0
    pts_o = 0
    pr_me = 0
    pr_o = 0
    lad_me = 0
    lad_o = 0
    comp = 0
    joints = 0
    one = 0
    free = 0
    tied = 0
    lead_me = 0
    lead_o = 0
    ev = 0
    for t in range(n):
        pr = st.pr[t]
        if pr == p:
            pr_me += 1
            ev += 110
        elif pr >= 0:
            pr_o += 1
            ev -= 110
        lp = st.lad[t, p]
        lq = st.lad[t, o]
        lad_me += lp
        lad_o += lq
        ev += lp - lq
        if lp > lq:
            pts_me += 1
            ev += 100
        elif lq > lp:
            pts_o += 1
            ev -= 100
        c = popcount(st.cut[t])
        joints += c
        if c == 0:
            comp += 1
        elif c == 1:
            one += 1
        room = R[R_SPACES + t] - st.ls[t]
        if room > 0 and st.cut[t] != 0:
            free += room
            if lp == lq:
                tied += 1
            elif lp == lq + 1:
                lead_me += 1
            elif lq == lp + 1:
                lead_o += 1
    pts_me += pr_me
    pts_o += pr_o
    nm = count_legal(st, R)
    left = R[R_HORIZON] - ex
    if left > LEFT_CAP:
        left = LEFT_CAP
    x[0] = 1.0 if q == p else 0.0
    x[1] = pts_me
    x[2] = pts_o
    x[3] = pr_me
    x[4] = pr_o
    x[5] = lad_me
    x[6] = lad_o
    x[7] = st.pcs[LSUP + p]
    x[8] = st.pcs[LSUP + o]
    x[9] = st.pcs[PSUP + p]
    x[10] = st.pcs[PSUP + o]
    x[11] = comp
    x[12] = joints
    x[13] = one
    x[14] = free
    x[15] = tied
    x[16] = lead_me
    x[17] = lead_o
    x[18] = nm
    x[19] = ex
    x[20] = left
    x[21] = result2(st, n, p) / WIN
    x[22] = ev / 100.0
    x[23] = pts_me - pts_o
    x[24] = pr_me - pr_o
    x[25] = lad_me - lad_o


@helper_inline
def _insert_desc(arr, o, k, v):
    """Insert v into the descending list ``arr[o:o + k]`` (its k values so far), keeping at
    most ``TOPK``; returns the new length."""
    j = k if k < TOPK else TOPK - 1
    if k >= TOPK and v <= arr[o + TOPK - 1]:
        return k
    while j > 0 and arr[o + j - 1] < v:
        arr[o + j] = arr[o + j - 1]
        j -= 1
    arr[o + j] = v
    return k + 1 if k < TOPK else k


@helper
def features3(st, R, cards, p, q, ex, x, iw):
    """Three/four players: seat p's view (its own cards ``cards[2p]``, ``cards[2p + 1]``; q to
    move; ``ex`` exchanges made) into ``x[:F3]``; ``iw``: int work (``IW`` values)."""
    n = R[R_N]
    L = R[R_L]
    P = R[R_P]
    cp = iw[:NMAX]
    pot = iw[NMAX:2 * NMAX]
    full = iw[2 * NMAX:3 * NMAX]
    run = iw[3 * NMAX:]
    colour_points(st, n, L, R[R_PTS:], cp)
    for c in range(n):
        pot[c] = 0
        full[c] = 0
        run[c] = 0
    comp = 0
    joints = 0
    for t in range(n):
        xt = st.tw[t]
        b = xt & 15
        k = popcount(st.cut[t])
        joints += k
        if k == 0:
            comp += 1
            full[b] += 1
        for c in range(n):
            cnt = 0
            for l in range(L):
                cnt += np.int64(nib(xt, l) == c)
            if cnt > 0:
                pot[c] += cnt * cnt + (2 * cnt if b == c else 0)
        r = 1
        prev = b
        for l in range(1, L):
            c = nib(xt, l)
            if c == prev:
                r += 1
            else:
                r = 1
                prev = c
            if r > run[c]:
                run[c] = r
        if run[b] < 1:
            run[b] = 1
    for i in range(F3):
        x[i] = 0.0
    x[(q - p) % P] = 1.0
    c1 = cards[2 * p]
    c2 = cards[2 * p + 1]
    if cp[c2] > cp[c1] or (cp[c2] == cp[c1] and pot[c2] > pot[c1]):
        c1, c2 = c2, c1
    x[4] = cp[c1]
    x[5] = pot[c1]
    x[6] = full[c1]
    x[7] = run[c1]
    x[8] = cp[c2]
    x[9] = pot[c2]
    x[10] = full[c2]
    x[11] = run[c2]
    mine = cp[c1] + cp[c2]
    x[12] = mine
    ctr = R[R_CENTRE]
    cc = st.tw[ctr] & 15
    kp = 0
    kv = 0
    tot = 0
    totp = 0
    unk_full = 0
    for c in range(n):
        if c == c1 or c == c2 or c == cc:
            continue
        tot += cp[c]
        totp += pot[c]
        unk_full += full[c]
        kp = _insert_desc(x, 13, kp, cp[c] + 0.0)
        kv = _insert_desc(x, 19, kv, pot[c] + 0.0)
    x[25] = tot
    x[26] = totp
    x[27] = mine - x[13] - x[14]
    x[28] = 3 * mine - tot
    x[29] = 1.0 if st.cut[ctr] == 0 else 0.0
    x[30] = cp[cc]
    x[31] = popcount(st.cut[ctr])
    x[32] = 1.0 if can_declare(st, R, cards, p) else 0.0
    x[33] = unk_full
    x[34] = comp
    x[35] = joints
    x[36] = count_legal(st, R)
    x[37] = ex
    left = R[R_HORIZON] - ex
    x[38] = left if left < LEFT_CAP else LEFT_CAP


@helper_inline
def features(st, R, cards, p, q, ex, x, iw):
    """Seat p's view of the position ``st`` (q to move, ``ex`` exchanges made; three/four
    players: ``cards`` the deal, of which only p's own two are read) into ``x``."""
    if R[R_P] == 2:
        features2(st, R, p, q, ex, x, iw)
    else:
        features3(st, R, cards, p, q, ex, x, iw)


@helper_inline
def model_value(st, R, cards, p, q, ex, vm):
    """The model's probability that seat p's side wins from ``st`` (q to move)."""
    features(st, R, cards, p, q, ex, vm.fx, vm.iw)
    return value_eval(vm.mp, vm.ms, vm.fx, vm.h0, vm.h1)


@helper
def side_share(st, R, cards, p, bseat, bonus, cp):
    """Seat p's side's share of the victory if the game ended at ``st`` with the deal ``cards``
    (three/four players; ``bonus`` to ``bseat``): 1 alone in the lead, 1/k for a k-way tie, else 0."""
    P = R[R_P]
    colour_points(st, R[R_N], R[R_L], R[R_PTS:], cp)
    mine = p % 2 if P == 4 else p
    own = 0
    best = -(1 << 60)
    nb = 0
    for side in range(2 if P == 4 else P):
        v = 0
        for s in range(P):
            if (s % 2 if P == 4 else s) == side:
                v += cp[cards[2 * s]] + cp[cards[2 * s + 1]] + (bonus if s == bseat else 0)
        if side == mine:
            own = v
        if v > best:
            best = v
            nb = 1
        elif v == best:
            nb += 1
    if own < best:
        return 0.0
    return 1.0 / nb


def sample(ctx, players, seed, start, n, bot_ids, bot_par, per_game=PER_GAME) -> dict:
    """Play games ``start .. start + n - 1`` as ``run_chunk`` does (game i draws from (seed, i)
    alone; any bot but a search at ``leaf=model``, which ``sim.learn`` refuses) and sample up
    to ``per_game`` turn starts of each (chosen uniformly on a stream of their own: the games
    are unchanged), each from every seat's view: one row per (position, seat).  Returns ``X``
    (float32, rows x ``n_features``), ``seat``, ``game``, ``progress`` (exchanges made / the
    game's exchanges), ``outcome`` (the seat's side's share: the module docstring) and
    ``baseline`` (the game's own evaluation as a probability, a logistic of: two players
    greedy's eval2 / 200; three players own points less the two best unknown colours', / 3;
    four players three times own points less the unknown colours' total, / 9)."""
    from .sampling import sample_games
    R, _, _ = split_ctx(ctx)
    P = int(players)
    ids = np.ascontiguousarray(bot_ids, dtype=np.int64)
    par = np.ascontiguousarray(bot_par, dtype=np.float64)
    per_game = max(1, int(per_game))
    buf = sample_buffers(n * per_game * P, n_features(P))
    from .play import chunk_work
    m = int(sample_games(np.uint64(seed), np.int64(start), np.int64(n), R, ids, par, np.int64(per_game),
                         chunk_work(R), np.zeros(1, np.uint64), np.zeros(per_game, np.int64),
                         np.zeros(N_TALLY, np.int64), NO_RECORD, *buf))
    return sampled(buf, m)
