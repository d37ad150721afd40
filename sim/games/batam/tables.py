"""Distance tables of the map (see ``state``): filled once per board by ``data.py``, for
the special spaces only (the targets the route planner uses: 16 of the default map's 232
spaces; all 232 took 11.7 s with numba's JIT off, as ``make coverage`` and the wheel
test run it)."""
from __future__ import annotations

import numpy as np

from ...jit import kernel
from .state import INF


@kernel
def all_pairs(nbr, deg, comp_nodes, padj, pen, targets, D, W, L):
    """Fill ``D, W, L`` [variant, k, from] for target ``targets[k]`` (see the module docstring)."""
    n = nbr.shape[0]
    V = D.shape[0]
    wd = np.empty(n, np.int64)
    ld = np.empty(n, np.int64)
    done = np.empty(n, np.bool_)
    q = np.empty(n, np.int64)
    for var in range(V):
        blocked = -1 if var == 0 else comp_nodes[var - 1]
        for k in range(targets.shape[0]):
            t = targets[k]
            # unit BFS towards t
            for i in range(n):
                wd[i] = INF
            if t != blocked:
                wd[t] = 0
                head = 0
                tail = 0
                q[tail] = t
                tail += 1
                while head < tail:
                    u = q[head]
                    head += 1
                    for j in range(deg[u]):
                        v = nbr[u, j]
                        if v != blocked and wd[v] == INF:
                            wd[v] = wd[u] + 1
                            q[tail] = v
                            tail += 1
            for i in range(n):
                D[var, k, i] = wd[i]
            if var == 0:
                for i in range(n):
                    W[var, k, i] = wd[i]
                    L[var, k, i] = wd[i]
                continue
            # Dijkstra: entering a space costs 1, or 1 + pen next to the pirate
            for i in range(n):
                wd[i] = INF
                ld[i] = INF
                done[i] = False
            if t == blocked:
                for i in range(n):
                    W[var, k, i] = INF
                    L[var, k, i] = INF
                continue
            wd[t] = 0
            ld[t] = 0
            while True:
                u = -1
                for i in range(n):
                    if not done[i] and wd[i] < INF:
                        if u < 0 or wd[i] < wd[u] or (wd[i] == wd[u] and ld[i] < ld[u]):
                            u = i
                if u < 0:
                    break
                done[u] = True
                cu = 1 + pen * padj[var - 1, u]  # cost of entering u
                for j in range(deg[u]):
                    v = nbr[u, j]
                    if v == blocked or done[v]:
                        continue
                    nw = wd[u] + cu
                    nl = ld[u] + 1
                    if nw < wd[v] or (nw == wd[v] and nl < ld[v]):
                        wd[v] = nw
                        ld[v] = nl
            for i in range(n):
                W[var, k, i] = min(wd[i], INF)
                L[var, k, i] = min(ld[i], INF)
