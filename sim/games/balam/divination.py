"""1 - Divination: the observatories' look at the face-down Katun cards."""
from __future__ import annotations

from ...jit import helper
from .state import GS_KNOWN, GS_NSLOT, OBSERV, R_NP, T_DIV
from .board import count_code
from .katun import rank_places

@helper
def divination(own, bld, pl, gs, R, rfirst, tmp):
    """Observatories: a sole leader sees NJ of the face-down cards, a sole second one;
    two tied leaders see one each; other ties see nothing."""
    NP = R[R_NP]
    counts = tmp[0:4]
    for q in range(NP):
        counts[q] = count_code(own, bld, q, OBSERV)
        gs[GS_KNOWN + q] = 0
    places = tmp[4:8]
    rank_places(counts, NP, places)
    ns = gs[GS_NSLOT]
    j = 0
    for i in range(NP):
        q = (rfirst + i) % NP
        if places[q] == 1:
            for k in range(min(NP, ns)):
                gs[GS_KNOWN + q] |= 1 << k
            pl[q, T_DIV] += min(NP, ns)
        elif places[q] == 2:
            gs[GS_KNOWN + q] |= 1 << (ns - 1)
            pl[q, T_DIV] += 1
        elif places[q] == 3:
            gs[GS_KNOWN + q] |= 1 << min(j, ns - 1)
            pl[q, T_DIV] += 1
            j += 1
