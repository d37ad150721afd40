"""The greedy bot: a one-ply heuristic score per move; exact ties drawn on its own stream."""
from __future__ import annotations

import numpy as np

from ....jit import helper
from ....rng import tie_wins
from ..move import destination
from ..state import progress


@helper
def greedy_score(state, R, p, mv, cast):
    """Carry off enemies (1000 each, 50 per own warrior brought home), capture the biggest
    pile (100 per enemy, 90 per own prisoner freed), and prefer the leading pile."""
    T = R.track
    dest = destination(state, R, p, mv, cast)
    if mv == T:
        m_own, m_enemy, lead = np.int64(1), np.int64(0), 0
    else:
        m_own = np.int64(state.count[p, mv])
        m_enemy = np.int64(state.count[1 - p, mv])
        lead = progress(p, mv, T) + 1
    score = lead
    if dest == T:
        score += 1000 * m_enemy + 50 * m_own
    elif state.commander[dest] == 1 - p:
        d_own = np.int64(state.count[p, dest])
        d_enemy = np.int64(state.count[1 - p, dest])
        score += 100 * d_enemy + 90 * d_own
    return score


@helper
def greedy_choice(state, R, p, cast, moves, n):
    """The move of ``moves[:n]`` with the best :func:`greedy_score`; moves with equal scores
    (integers) are equally likely, drawn on seat ``p``'s stream only when there is a tie."""
    best = moves[0]
    best_s = greedy_score(state, R, p, moves[0], cast)
    ties = 1
    for k in range(1, n):
        s = greedy_score(state, R, p, moves[k], cast)
        if s > best_s:
            best_s = s
            best = moves[k]
            ties = 1
        elif s == best_s:
            ties += 1
            if tie_wins(state.streams, 1 + p, ties):
                best = moves[k]
    return best
