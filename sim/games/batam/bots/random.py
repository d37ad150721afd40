"""The random bot (RULES.md, Bots): every decision uniform over its legal options, drawn
from the seat's own stream (slot 1 + seat); a forced choice draws nothing."""
from __future__ import annotations

from ....jit import helper_inline
from ....rng import rand_int


@helper_inline
def pick(rs, p, n):
    """One of n options, 0 .. n-1 (0 without a draw when n == 1)."""
    return 0 if n == 1 else rand_int(rs, 1 + p, n)


@helper_inline
def wages(rs, p, c):
    """Phase 1 with c >= 2 coins: the captain's wage 1 .. c-1, then the sailor's 1 .. the rest."""
    cap = 1 + pick(rs, p, c - 1)
    sal = 1 + pick(rs, p, c - cap)
    return cap, sal


@helper_inline
def reroll_mask(rs, p):
    """Phase 2: stop re-rolling (0, even odds), or which dice to re-roll (one of the 7
    non-empty subsets, bit i = die i)."""
    if rand_int(rs, 1 + p, 2) == 0:
        return 0
    return 1 + rand_int(rs, 1 + p, 7)


@helper_inline
def step(rs, p, no, can_stop):
    """Phase 3: index of the step to take among ``no`` legal ones, or -1 to stop here
    (when stopping is allowed it is one more option, the first)."""
    k = pick(rs, p, no + (1 if can_stop else 0))
    if can_stop:
        return k - 1
    return k


@helper_inline
def pays_pirate(rs, p):
    """A pirate card: pay the ransom (even odds) or stop."""
    return rand_int(rs, 1 + p, 2) == 0
