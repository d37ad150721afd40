"""How a game plays (issue #47): the counts and summaries the kernels keep per game, shared.

Complexity (``cx``: an int64 array of ``CX_SIZE``, zero at a game's start): ``choice(cx, s,
n)`` at every choice seat s makes among n legal options (n >= 1).  Per seat: the decisions
(more than one option), the forced moves (exactly one) and the options summed over both;
for the game, the most options any choice had.  Nothing is stored per step.

State evaluation (``ev``: a float64 array of ``EV_SIZE``): ``ev_start(ev)`` at a game's
start, ``ev_step(ev, p, k, thr)`` at every position with each side's probability of
winning ``p[:k]`` (normalised here when they do not sum to 1), and ``ev_finish(ev, k, w)``
once the game is over, w the eventual winning side (-1: no single winning side).  The
running sums are kept per side, so the winner need not be known until the end and no
per-step trace is stored.  The summaries (over the N positions evaluated, N - 1 steps
between them):

- ``changes``: how many times the sole most likely side changed (ties skipped);
- ``drama`` / ``drama_max``: the mean / largest gap, in percentage points, between the
  most likely side's probability and the eventual winner's (0 when the winner always
  looked likeliest);
- ``decided``: the percent of the positions before the eventual winner became the sole
  most likely side for good (0: from the start; 100: only at the last position);
- ``decided_thr``: the same for the winner's probability staying at or above ``thr``;
- ``stability``: the mean absolute change of a side's probability per step, in
  percentage points (averaged over the sides);
- ``uncertainty``: the mean normalised entropy of the sides' probabilities, in percent
  (100: every side equally likely; 0: the outcome certain).

A trace: an ``ev`` longer than ``EV_SIZE`` also receives each position's normalised chances,
``MAX_SIDES`` values per position from ``EV_SIZE`` on, as long as there is room (a game's
win-probability chart; ``sim.playcols.trace_of`` reads it back).

Without a single winning side (a draw, a shared victory) ``drama``, ``drama_max``,
``decided`` and ``decided_thr`` are NaN; the others stand.  ``tests/test_howplays.py``
checks each against its plain-Python definition on random traces.
"""
from __future__ import annotations

import numpy as np

from .jit import helper_inline

#: the most sides a game has (every registered game: 4 seats at most)
MAX_SIDES = 4
#: cx's fields: decisions per seat, forced moves per seat, options per seat, the largest choice
CX_DEC, CX_FORCED, CX_OPTS, CX_MAX = 0, MAX_SIDES, 2 * MAX_SIDES, 3 * MAX_SIDES
CX_SIZE = 3 * MAX_SIDES + 1
#: ev's fields: positions, the last sole leader (-1: none yet), changes, the entropy's and
#: the steps' sums; then per side s from EV_SIDE + EV_W * s: its last probability, its
#: gap's sum and largest value, 1 + the last position where it was not the sole leader,
#: and where it was under the threshold
EV_N, EV_LEAD, EV_CHANGES, EV_UNC, EV_STAB, EV_SIDE = 0, 1, 2, 3, 4, 5
EV_PREV, EV_GAP, EV_GAPMAX, EV_RLEAD, EV_RTHR, EV_W = 0, 1, 2, 3, 4, 5
EV_SIZE = EV_SIDE + EV_W * MAX_SIDES
#: the eventual winner's chance that counts as beyond doubt (``decided_thr``; every game's)
EV_THRESHOLD = 0.8
#: ev_finish's summaries, in this order
EV_NAMES = ("changes", "drama", "drama_max", "decided", "decided_thr", "stability", "uncertainty")


@helper_inline
def choice(cx, s, n):
    """Seat s chooses among n legal options (n >= 1)."""
    if n > 1:
        cx[CX_DEC + s] += 1
    else:
        cx[CX_FORCED + s] += 1
    cx[CX_OPTS + s] += n
    if n > cx[CX_MAX]:
        cx[CX_MAX] = n


@helper_inline
def cx_start(cx):
    for i in range(CX_SIZE):
        cx[i] = 0


@helper_inline
def ev_start(ev):
    for i in range(EV_SIZE):
        ev[i] = 0.0
    ev[EV_LEAD] = -1.0


@helper_inline
def ev_step(ev, p, k, thr):
    """One position: the k sides' probabilities of winning ``p[:k]``."""
    tot = 0.0
    for s in range(k):
        tot += p[s]
    scale = 1.0 / tot if tot > 0.0 else 0.0
    t = ev[EV_N]
    pmax = -1.0
    lead = -1
    tie = False
    for s in range(k):
        q = p[s] * scale
        if q > pmax:
            pmax = q
            lead = s
            tie = False
        elif q == pmax:
            tie = True
    sole = -1 if tie else lead
    if sole >= 0:
        if ev[EV_LEAD] >= 0.0 and sole != ev[EV_LEAD]:
            ev[EV_CHANGES] += 1.0
        ev[EV_LEAD] = sole
    h = 0.0
    step = 0.0
    for s in range(k):
        q = p[s] * scale
        if q > 0.0:
            h -= q * np.log(q)
        b = EV_SIDE + EV_W * s
        if t > 0.0:
            step += abs(q - ev[b + EV_PREV])
        ev[b + EV_PREV] = q
        gap = pmax - q
        ev[b + EV_GAP] += gap
        if gap > ev[b + EV_GAPMAX]:
            ev[b + EV_GAPMAX] = gap
        if s != sole:
            ev[b + EV_RLEAD] = t + 1.0
        if q < thr:
            ev[b + EV_RTHR] = t + 1.0
    if k > 1:
        ev[EV_UNC] += h / np.log(k)
    ev[EV_STAB] += step / k
    off = EV_SIZE + MAX_SIDES * np.int64(t)
    if ev.shape[0] >= off + MAX_SIDES:
        for s in range(k):
            ev[off + s] = p[s] * scale
    ev[EV_N] = t + 1.0


@helper_inline
def ev_finish(ev, k, w, out):
    """The summaries (``EV_NAMES``' order) into ``out[:7]``; w: the winning side or -1."""
    n = ev[EV_N]
    out[0] = ev[EV_CHANGES]
    out[5] = 100.0 * ev[EV_STAB] / (n - 1.0) if n > 1.0 else 0.0
    out[6] = 100.0 * ev[EV_UNC] / n if n > 0.0 else 0.0
    if w < 0 or n < 1.0:
        for i in range(1, 5):
            out[i] = np.nan
        return
    b = EV_SIDE + EV_W * w
    out[1] = 100.0 * ev[b + EV_GAP] / n
    out[2] = 100.0 * ev[b + EV_GAPMAX]
    out[3] = 100.0 * ev[b + EV_RLEAD] / n
    out[4] = 100.0 * ev[b + EV_RTHR] / n


@helper_inline
def cx_finish(cx, P, j, dec, forced, share, branching, factor, omax):
    """Game j's complexity columns (``sim/playcols.py``'s COMPLEXITY, the same figures as its
    ``complexity_columns``) from its counts ``cx``, written in the kernel (no per-game row
    kept): decisions and forced moves per seat, decision moves (per mille), branching and
    decision factors (x100), the largest choice; -1 where a game had no choice (no decision)."""
    d = 0
    f = 0
    o = 0
    for s in range(P):
        dec[j, s] = cx[CX_DEC + s]
        forced[j, s] = cx[CX_FORCED + s]
        d += cx[CX_DEC + s]
        f += cx[CX_FORCED + s]
        o += cx[CX_OPTS + s]
    n = d + f
    share[j] = np.int64(np.rint(1000.0 * d / n)) if n > 0 else -1
    branching[j] = np.int64(np.rint(100.0 * o / n)) if n > 0 else -1
    factor[j] = np.int64(np.rint(100.0 * (o - f) / d)) if d > 0 else -1
    omax[j] = cx[CX_MAX]
