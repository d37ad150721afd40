"""Drama of a race, shared by the kernels that record a standing after each round."""
from .jit import helper


@helper
def drama(leaders, rounds, winner):
    """(lead changes, % of the rounds before the winner's lead became permanent or -1).

    ``leaders[r]``: the sole leader after round r (-1 for a tie, skipped when counting
    changes); ``winner``: the sole winner or -1 (then no settling point)."""
    changes = 0
    last = -1
    for r in range(rounds):
        x = leaders[r]
        if x >= 0:
            if last >= 0 and x != last:
                changes += 1
            last = x
    settled = -1
    if winner >= 0:
        r = rounds
        while r > 0 and leaders[r - 1] == winner:
            r -= 1
        settled = (100 * r) // rounds
    return changes, settled
