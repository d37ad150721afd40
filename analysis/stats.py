"""Small, tested statistics: intervals for proportions and means."""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion k/n (k may be fractional: shared wins)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = k / n
    z2 = z * z
    den = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(x, z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval (mean, lo, hi)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n == 0:
        return (float("nan"),) * 3
    m = float(x.mean())
    if n < 2:
        return (m, float("nan"), float("nan"))
    se = float(x.std(ddof=1)) / math.sqrt(n)
    return (m, m - z * se, m + z * se)


def proportion(k: float, n: float) -> dict:
    lo, hi = wilson(k, n)
    return {"rate": (k / n) if n else float("nan"), "lo": lo, "hi": hi, "n": int(n)}
