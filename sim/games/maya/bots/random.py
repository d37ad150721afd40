"""The random bot: uniform over the legal exchanges (``edge_masks`` + ``pick_move``: the
same choice as drawing from ``gen_moves``' list), a uniform Monolith edge and Raven
level as black, and (three/four players) declaring with probability 1/2 whenever it may.
Every draw is on the seat's own stream (slot ``1 + seat``)."""
from __future__ import annotations

from ....howplays import CX_SIZE, choice
from ....jit import helper, helper_inline
from ....rng import rand_int
from ..exchange import apply_exchange, edge_masks, pick_move
from ..state import (END_HORIZON, END_NO_EXCHANGE, R_E, R_HORIZON, T_COMPL, T_CX, T_JOINS, X_EMASK,
                     X_PC)


@helper_inline
def random_move(R, p, nm, X, rs):
    """Seat p's uniform choice among the nm legal exchanges ``edge_masks`` left in
    ``X[X_EMASK]``."""
    return pick_move(X[X_EMASK], R[R_E], rand_int(rs, 1 + p, nm), X[X_PC])


@helper_inline
def random_declare(p, rs):
    """Declare the end with probability 1/2 (one draw on the seat's stream)."""
    return rand_int(rs, 1 + p, 2) == 0


@helper
def random_pair(st, R, X, rs, first, tally):
    """The two-player game between two random bots: the same exchanges and draws as the
    general loop in ``play.play_game``, in a tight loop.  Returns (exchanges, end reason)."""
    E = R[R_E]
    horizon = R[R_HORIZON]
    pc = X[X_PC]
    emask = X[X_EMASK]
    cx = tally[T_CX:T_CX + CX_SIZE]
    p = first
    ex = 0
    while True:
        nm = edge_masks(st, R, pc, emask)
        if nm == 0:
            return ex, END_NO_EXCHANGE
        if ex >= horizon:
            return ex, END_HORIZON
        choice(cx, p, nm)
        m = pick_move(emask, E, rand_int(rs, 1 + p, nm), pc)
        f = apply_exchange(st, R, m, p)
        ex += 1
        tally[T_JOINS + p] += (f & 1) + ((f >> 1) & 1)
        tally[T_COMPL + p] += ((f >> 2) & 1) + ((f >> 3) & 1)
        p = 1 - p
