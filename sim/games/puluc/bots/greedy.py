"""The greedy bot: a one-ply heuristic score per move; exact ties drawn on its own stream."""
from __future__ import annotations

from ....jit import helper
from ....rng import tie_wins
from ..move import destination
from ..state import R_T, progress


@helper
def greedy_score(st, R, p, mv, cast):
    """One-ply heuristic: carry off enemies, capture the biggest pile, run the leader."""
    T = R[R_T]
    dest = destination(st, R, p, mv, cast)
    if mv == T:
        m_own, m_enemy, lead = 1, 0, 0
    else:
        m_own = st[T + mv] if p == 0 else st[2 * T + mv]
        m_enemy = st[2 * T + mv] if p == 0 else st[T + mv]
        lead = progress(p, mv, T) + 1
    score = lead
    if dest == T:
        score += 1000 * m_enemy + 50 * m_own
    elif st[dest] == 1 - p:
        d_own = st[T + dest] if p == 0 else st[2 * T + dest]
        d_enemy = st[2 * T + dest] if p == 0 else st[T + dest]
        score += 100 * d_enemy + 90 * d_own
    return score


@helper
def greedy_choice(st, R, p, cast, moves, n, rs):
    """The move with the best :func:`greedy_score`; moves with equal scores (integers) are
    equally likely, drawn on the bot's own stream only when there is a tie."""
    best = moves[0]
    best_s = greedy_score(st, R, p, moves[0], cast)
    ties = 1
    for k in range(1, n):
        s = greedy_score(st, R, p, moves[k], cast)
        if s > best_s:
            best_s = s
            best = moves[k]
            ties = 1
        elif s == best_s:
            ties += 1
            if tie_wins(rs, 1 + p, ties):
                best = moves[k]
    return best
