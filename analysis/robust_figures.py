"""`sim robust`'s numbers: the headline figures of a robust run as exact linear contrasts of
its per-chunk sums (each headline's weights, its value and interval under the baseline and
under each condition), and each condition's classification (holds, flips, halves, doubles,
material, cannot tell) with the games that would settle it."""
from __future__ import annotations

import math

import numpy as np


Z95 = 1.959963984540054


#: the interim boundary of the early stop (Haybittle-Peto): a condition stops before
#: --games only when its status is already decided at 99.9% (and the baseline's too)
Z_STOP = 3.2905267314919255


HEADLINE_KEYS = ("edge", "gap", "decisive", "length", "margin")


#: other names --metric accepts
METRIC_ALIASES = {"first": "edge", "first-edge": "edge", "first player edge": "edge",
                  "first player score": "edge", "first-player": "edge", "seat-gap": "gap",
                  "spread": "gap", "seat gap": "gap", "decisive games": "decisive",
                  "winning margin": "margin", "score": "margin"}


#: statuses of a condition, in the order the verdict names them
DEPENDS = ("flips", "halves", "doubles", "material", "moves")


STATUS_WORDS = {
    "holds": "holds", "same": "no game changed", "flips": "flips it", "halves": "less than half",
    "doubles": "more than double", "material": "a material effect",
    "moves": "moves it beyond the baseline", "unclear": "cannot tell",
}


def quantity_names(sides: int, score: bool) -> list[str]:
    """The per-game quantities :mod:`analysis.robust_runs` records for every setting (a baseline or
    a condition, each part of it: the reference and, in a comparison, the variant)."""
    names = ["first score"] + [f"side {k}" for k in range(sides)] + ["decisive", "length"]
    return names + (["margin"] if score else [])


def headline_keys(layout: dict) -> list[str]:
    return [k for k in HEADLINE_KEYS if k != "margin" or layout.get("score")]


def resolve_metric(name: str | None, layout_or_game) -> str:
    """--metric: a headline key, or one of its other names (the game's length and score
    columns too).  Raises ValueError naming the choices."""
    if name is None:
        return "edge"
    key = str(name).strip().lower().replace("_", " ")
    lay = layout_or_game
    length = lay.get("length") if isinstance(lay, dict) else lay.length
    score = lay.get("score_name") if isinstance(lay, dict) else lay.score
    if key in HEADLINE_KEYS:
        out = key
    elif key in METRIC_ALIASES:
        out = METRIC_ALIASES[key]
    elif length and key == str(length).replace("_", " "):
        out = "length"
    elif score and key == str(score).replace("_", " "):
        out = "margin"
    else:
        out = None
    if out is None or (out == "margin" and not score):
        keys = [k for k in HEADLINE_KEYS if k != "margin" or score]
        raise ValueError(f"--metric must be one of: {', '.join(keys)} (not {name!r})")
    return out


def headline_spec(layout: dict, key: str) -> dict:
    """How a headline is named and shown: label, rate (shown in points/percent), signed."""
    cmp = layout["mode"] == "compare"
    who = "first-team" if layout.get("teams") else "first-player"
    seat = "team" if layout.get("teams") else "seat"
    unit = layout.get("length_unit", "")
    labels = {
        "edge": f"{who} edge",
        "gap": f"{seat} gap",
        "decisive": "decisive games",
        "length": "game length",
        "margin": f"winning margin ({layout.get('score_name') or 'score'})",
    }
    rate = key in ("edge", "gap", "decisive")
    label = labels[key]
    if cmp:
        label = f"change in {label}"
    return {"key": key, "label": label, "rate": rate, "signed": cmp or key in ("edge", "gap"),
            "unit": "" if rate else (unit if key == "length" else "points")}


def describe_headline(layout: dict, key: str) -> str:
    """One sentence on what a headline measures (report, Method)."""
    fair = layout.get("fair", 0.5)
    sides = layout.get("side_names") or []
    side = "team" if layout.get("teams") else "seat"
    text = {
        "edge": f"the first {side}'s win share minus the fair share {100 * fair:.0f}% (a game "
                "without a winner counts as the fair share, so draws do not move it)",
        "gap": f"the win share of the {side} the baseline puts first minus the one it puts last "
               f"({' and '.join(layout.get('gap_sides', [])) or ', '.join(sides)}); negative "
               "under a condition when their order flipped",
        "decisive": f"the share of games exactly one {side} won",
        "length": f"the mean game length in {layout.get('length_unit', '')}",
        "margin": f"the mean lead of the best {side}'s final {layout.get('score_name')} over "
                  "the runner-up's",
    }[key]
    if layout["mode"] == "compare":
        text = "the variant's paired difference from the reference in " + text
    return text


def _q_index(layout: dict, name: str) -> int:
    return layout["quantities"].index(name)


def weights(layout: dict, key: str, base_means: np.ndarray) -> tuple[np.ndarray, float]:
    """The weights over one part's quantities that give headline ``key``, and the constant
    added (the fair share subtracted from the first side's score).  ``base_means``: the
    baseline reference's mean quantities (the gap's two seats come from it)."""
    Q = len(layout["quantities"])
    w = np.zeros(Q)
    const = 0.0
    if key == "edge":
        w[_q_index(layout, "first score")] = 1.0
        const = -float(layout["fair"]) if layout["mode"] != "compare" else 0.0
    elif key == "gap":
        a, b = gap_sides(layout, base_means)
        w[_q_index(layout, f"side {a}")] += 1.0
        w[_q_index(layout, f"side {b}")] -= 1.0
    else:
        w[_q_index(layout, key)] = 1.0
    return w, const


def gap_sides(layout: dict, base_means: np.ndarray) -> tuple[int, int]:
    """The sides the baseline puts first and last (by win share; ties to the lower index)."""
    m = int(layout["sides"])
    shares = [float(base_means[_q_index(layout, f"side {k}")]) for k in range(m)]
    a = int(np.argmax(shares))
    b = int(np.argmin(shares))
    if a == b:
        b = (a + 1) % m
    return a, b


def contrast(layout: dict, blocks: int, block: int, w: np.ndarray) -> np.ndarray:
    """The vector over a statistics block (``blocks`` settings side by side, each of
    ``parts`` parts of Q quantities) that picks setting ``block``'s headline: its one part
    (a game), or its variant part minus its reference part (a comparison)."""
    Q = len(layout["quantities"])
    P = int(layout["parts"])
    L = np.zeros(blocks * P * Q)
    off = block * P * Q
    if P == 1:
        L[off:off + Q] = w
    else:
        L[off:off + Q] = -w
        L[off + Q:off + 2 * Q] = w
    return L


def lin(stats: dict, L: np.ndarray, const: float = 0.0, z: float = Z95) -> dict:
    """Mean, SD and normal interval of the per-game values L . x from the sufficient
    statistics n, sum x, sum x x^T (exact for any linear contrast; paired when L mixes the
    baseline's and a condition's quantities of the same games)."""
    n = float(stats["n"])
    nan = float("nan")
    if n <= 0:
        return {"mean": nan, "sd": nan, "se": nan, "lo": nan, "hi": nan, "n": 0}
    s = np.asarray(stats["s"], np.float64)
    S2 = np.asarray(stats["S2"], np.float64)
    mean = float(L @ s) / n
    ex2 = float(L @ S2 @ L) / n
    scale = float(np.abs(L) @ np.sqrt(np.maximum(np.diag(S2), 0.0))) ** 2 / n
    var = ex2 - mean * mean
    if var <= 1e-12 * max(scale, 1e-300):
        var = 0.0
    var = var * n / (n - 1) if n > 1 else nan
    sd = math.sqrt(var) if var == var else nan
    se = sd / math.sqrt(n) if sd == sd else nan
    m = mean + const
    return {"mean": m, "sd": sd, "se": se, "lo": m - z * se, "hi": m + z * se, "n": int(n)}


def materiality(spec: dict, level: float) -> float:
    """The smallest effect that matters: 1 point of a rate; 1% of the reference's level for
    a mean (as the wording module calls a 1% change of length "too small to matter")."""
    if spec["rate"]:
        return 0.01
    return max(0.01 * abs(level), 1e-9) if level == level else 1e-9


def classify_baseline(v: float, lo: float, hi: float, m: float) -> str:
    """"material", "none" (no effect that matters: the interval within (-m, m)) or "unclear"."""
    if not all(math.isfinite(x) for x in (v, lo, hi)):
        return "unclear"
    if -m < lo and hi < m:
        return "none"
    if (lo > 0 or hi < 0) and abs(v) >= m:
        return "material"
    return "unclear"


def classify_condition(base_status: str, base_v: float, c: dict, m: float,
                       base_lo: float | None = None, base_hi: float | None = None) -> str:
    """The status of one condition against the baseline (see the module docstring).

    ``c``: v, lo, hi (the condition's own value and interval), s, s_lo, s_hi (its paired
    swing against the baseline on the same games) and same (no game changed).  Against an
    unclear baseline (with its interval ``base_lo``, ``base_hi``) a condition still *moves*
    the headline when its swing's interval lies wholly beyond the largest size the baseline
    could have (and beyond m): whatever the baseline is, that flips, doubles or creates an
    effect that matters."""
    if c.get("same"):
        return "same"
    vals = [c.get(k, float("nan")) for k in ("v", "lo", "hi", "s", "s_lo", "s_hi")]
    if not all(math.isfinite(x) for x in vals):
        return "unclear"
    if base_status == "material":
        sg = 1.0 if base_v > 0 else -1.0
        a = abs(base_v)
        v_lo, v_hi = sorted((sg * c["lo"], sg * c["hi"]))
        if v_hi < 0:
            return "flips"
        s_lo, s_hi = sorted((sg * c["s_lo"], sg * c["s_hi"]))
        if s_hi < -a / 2:
            return "halves"
        if s_lo > a:
            return "doubles"
        if s_lo > -a / 2 and s_hi < a:
            return "holds"
        return "unclear"
    if base_status == "none":
        if -m < c["lo"] and c["hi"] < m:
            return "holds"
        if (c["lo"] > 0 or c["hi"] < 0) and abs(c["v"]) >= m:
            return "material"
        return "unclear"
    if base_lo is not None and base_hi is not None and math.isfinite(base_lo) and math.isfinite(base_hi):
        reach = max(m, abs(base_lo), abs(base_hi))
        if c["s_lo"] > reach or c["s_hi"] < -reach:
            return "moves"
    return "unclear"


def _settle(n: float, est: float, lo: float, hi: float, bounds) -> float:
    """Games after which an interval of this width, shrinking as 1/sqrt(n), would clear the
    nearest of ``bounds`` it straddles (inf when the estimate sits on one)."""
    hw = (hi - lo) / 2
    inside = [b for b in bounds if lo <= b <= hi]
    if not inside or not (hw > 0) or not n:
        return float(n)
    dist = min(abs(est - b) for b in inside)
    if dist <= 1e-9 * max(hw, 1e-300):
        return math.inf
    return math.ceil(n * (hw / dist) ** 2)


def settle_games(base_status: str, base_v: float, c: dict | None, m: float, base: dict | None = None) -> float:
    """How many games would settle an unclear condition (or, with ``c`` None, an unclear
    baseline ``base``)."""
    if c is None:
        v, lo, hi, n = base["v"], base["lo"], base["hi"], base["n"]
        return _settle(n, v, lo, hi, (-m, m) if abs(v) < m else (0.0,))
    if base_status == "material":
        sg = 1.0 if base_v > 0 else -1.0
        a = abs(base_v)
        return _settle(c["n"], sg * c["s"], *sorted((sg * c["s_lo"], sg * c["s_hi"])), (-a / 2, a))
    return _settle(c["n"], c["v"], c["lo"], c["hi"], (-m, m) if abs(c["v"]) < m else (0.0,))


def base_means(layout: dict, base_stats: dict) -> np.ndarray:
    """The baseline reference part's mean quantities."""
    Q = len(layout["quantities"])
    n = max(float(base_stats["n"]), 1.0)
    return np.asarray(base_stats["s"], np.float64)[:Q] / n


def identical(stats: dict) -> bool:
    """True when a condition's games equal the baseline's in every quantity, game by game
    (sum of squared differences 0 for each): a reading that changes nothing here."""
    S2 = np.asarray(stats["S2"], np.float64)
    d = S2.shape[0] // 2
    if not d or not stats["n"]:
        return False
    i = np.arange(d)
    ss = S2[d + i, d + i] - 2 * S2[d + i, i] + S2[i, i]
    return bool(np.all(np.abs(ss) <= 1e-9 * (S2[i, i] + S2[d + i, d + i] + 1.0)))
