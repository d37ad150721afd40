"""How Batam plays (issue #47): the kernel's side of ``sim/howplays.py`` (the counts and
summaries shared by every game) and of ``sim/playcols.py`` (the columns made from them).

**A choice** (``count``) is every decision the rules give a seat, counted with the number of
legal options the rules allow there, whichever bot (random, heuristic, search) makes it, so
that the complexity columns depend on the bots only through the game's course:

* Phase 1, wages: once per seat and round; with c >= 2 coins c(c - 1)/2 options (captain
  >= 1, sailor >= 1, both together at most c); with one coin or none, one (forced);
* Phase 2, re-rolls: every time the seat could pay for the next re-roll: 8 options (stop,
  or one of the 7 non-empty sets of dice); no choice once it cannot pay;
* Phase 2, placement: every die placed: the legal (die, board) pairs as the kernel lists
  them (two dice of equal value count apart); no choice once no die can go anywhere;
* Phase 3, a pirate card the seat can pay: 2 (pay, or stop).

Left out, for every bot: Phase 3's steps (each step's options: the allowed neighbours, and
stopping where allowed).  The heuristic never lists them (it looks at the neighbours that
bring it nearer its target only), and listing them at every step, even the cheapest exact
way (a neighbour is allowed unless it is the pirate's space or holds another ship that
``sailing.safe_step`` refuses), slowed the plain four-player heuristic run by 13-37%
(CPU s against HEAD, issue #47's measurements); counting them for the random bot alone
would make the columns depend on the bot.  So a game's choices are its seats' Phase 1 and
2 decisions and its pirate ransoms; the search bot's own choice of a route target is
Phase 3 too, and not counted.  The search's rollouts count nothing (their scratch's ``cx``
is empty).

**Evaluation** (``evaluate``): at every round start of the real game (the phase PH_START,
once the horizon check has let the round begin: exactly the positions the model is fitted
on, ``features.sample``), each seat's chance of winning by the learned value model
(``features.features`` from the seat's own view, ``sim.value.value_eval``); ``ev_step``
normalises the seats' chances.  The winning side is the game's winner (-1: a shared win or
a horizon draw).
"""
from __future__ import annotations

import numpy as np

from ...howplays import CX_SIZE, EV_SIZE, EV_THRESHOLD, MAX_SIDES, choice, ev_step
from ...jit import helper_inline
from ...value import value_eval, work_size
from .features import features, n_features
from .state import MAXP, R_P

#: evw's layout: ev (sim/howplays.py), the seats' chances, the flag and the threshold,
#: ev_finish's figures, a seat's features row, then the model's two work rows
EW_P = EV_SIZE
EW_ON = EW_P + MAX_SIDES
EW_THR = EW_ON + 1
EW_OUT = EW_THR + 1
EW_X = EW_OUT + 7
EW_H0 = EW_X + n_features(MAXP)


def new_counts(count=True) -> np.ndarray:
    """A scratch's ``cx``: the counts of ``sim.howplays.choice``, or none (``count=False``)."""
    return np.zeros(CX_SIZE if count else 0, np.int64)


def new_ev_work(rules, evaluate=False) -> np.ndarray:
    """A scratch's ``evw`` (``EW_*``); ``evaluate``: with room for the model of ``rules``."""
    if not evaluate:
        return np.zeros(EW_X, np.float64)
    if rules.ms.shape[0] == 0:
        raise ValueError("batam: following the chances of winning needs a value model in the rules "
                         "context (features.attach_model(..., evaluate=True); make_spec attaches it)")
    w = work_size(rules.ms)
    evw = np.zeros(EW_H0 + 2 * w, np.float64)
    evw[EW_ON] = 1.0
    evw[EW_THR] = EV_THRESHOLD
    return evw


@helper_inline
def count(cx, p, n):
    """Seat p chose among n legal options (``sim.howplays.choice``; at least 1); nothing
    where ``cx`` is empty."""
    if cx.shape[0] > 0:
        choice(cx, p, n if n > 1 else 1)


@helper_inline
def wage_options(c):
    """Phase 1's options with c coins (the module docstring)."""
    return c * (c - 1) // 2 if c >= 2 else 1


@helper_inline
def evaluate(st, rules, sc):
    """This round start: each seat's chance of winning by the model, into the running
    figures (``sim.howplays.ev_step``)."""
    P = rules.R[R_P]
    evw = sc.evw
    x = evw[EW_X:EW_H0]
    w = (evw.shape[0] - EW_H0) // 2
    h0 = evw[EW_H0:EW_H0 + w]
    h1 = evw[EW_H0 + w:EW_H0 + 2 * w]
    for s in range(P):
        features(st, rules, sc.cur, s, x)
        evw[EW_P + s] = value_eval(rules.mp, rules.ms, x, h0, h1)
    ev_step(evw[:EV_SIZE], evw[EW_P:EW_P + P], P, evw[EW_THR])

