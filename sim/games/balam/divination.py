"""1 - Divination: the observatories' look at the face-down Katun cards."""
from __future__ import annotations

from ...jit import helper
from .state import GS_KNOWN, GS_NSLOT, OBSERV, R_NP, T_DIV
from .board import count_code

@helper
def divination(own, bld, pl, gs, R, rfirst, tmp):
    """Observatories: a sole leader sees NJ of the face-down cards, a sole second one;
    two tied leaders see one each; other ties see nothing."""
    NP = R[R_NP]
    counts = tmp[0:4]
    for q in range(NP):
        counts[q] = count_code(own, bld, q, OBSERV)
        gs[GS_KNOWN + q] = 0
    m1 = 0
    for q in range(NP):
        if counts[q] > m1:
            m1 = counts[q]
    if m1 == 0:
        return
    n1 = 0
    for q in range(NP):
        if counts[q] == m1:
            n1 += 1
    ns = gs[GS_NSLOT]
    if n1 == 1:
        m2 = 0
        for q in range(NP):
            if counts[q] < m1 and counts[q] > m2:
                m2 = counts[q]
        n2 = 0
        for q in range(NP):
            if m2 > 0 and counts[q] == m2:
                n2 += 1
        for q in range(NP):
            if counts[q] == m1:
                for k in range(min(NP, ns)):
                    gs[GS_KNOWN + q] |= 1 << k
                pl[q, T_DIV] += min(NP, ns)
            elif n2 == 1 and counts[q] == m2:
                gs[GS_KNOWN + q] |= 1 << (ns - 1)
                pl[q, T_DIV] += 1
    elif n1 == 2:
        j = 0
        for i in range(NP):
            q = (rfirst + i) % NP
            if counts[q] == m1:
                kk = min(j, ns - 1)
                gs[GS_KNOWN + q] |= 1 << kk
                pl[q, T_DIV] += 1
                j += 1
