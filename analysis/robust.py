"""`sim robust`: does the verdict hold?  The verdict logic, the tornado chart, the report
page and the terminal text.

A verdict from simulation rests on three things the designer did not choose: the bots,
the readings taken where the rulebook is silent or ambiguous, and the setup.
:mod:`analysis.robust_runs` plays the baseline (the rules and bots given) and every *condition*
(one change of those assumptions) on the same seeds, and reduces each condition's games
to sufficient statistics of a per-game vector of quantities, baseline and condition side
by side; every figure here is a linear contrast of that vector, so each has an exact
paired interval.

Headlines (each judged on its own):

* ``edge``: the first side's score minus the fair share (a game without a winner counts
  as the fair share, so draws do not move it);
* ``gap``: the win share of the side the baseline puts first minus the one it puts last
  (a negative value under a condition: the order of the seats flipped);
* ``decisive``: the share of games exactly one side won;
* ``length``: the mean game length;
* ``margin``: the mean lead of the best side's final score over the runner-up's (games
  that declare a score).

In a variant comparison (``sim robust compare``) each headline is the variant's paired
difference from the reference, and every condition changes both alike.

Verdict rules (documented in the report's Method; unit-tested on synthetic inputs):

* The baseline is *material* when its 95% interval excludes 0 and its size is at least
  the materiality threshold ``m`` (1 point for rates, 1% of the reference level for means:
  the wording module's "too small to matter"); it has *no material effect* when the whole
  interval lies within (-m, m); otherwise it is *unclear*.
* Against a material baseline b (sign s, size a = |b|), a condition *flips* it when its own
  interval lies wholly on the other side of 0; *halves* it when the paired interval of its
  swing (condition minus baseline, same games) lies wholly below -a/2 in the baseline's
  direction; *doubles* it when that interval lies wholly above +a; *holds* when it lies
  within (-a/2, +a): the sign and rough size (half to double) survive.
* Against a baseline with no material effect, a condition *shows* one when its interval
  excludes 0 and its size is at least m; it *holds* when its interval lies within (-m, m).
* Against an unclear baseline, a condition still *moves* the headline when its paired
  swing's interval lies wholly beyond the largest size the baseline's interval allows (and
  beyond m): whatever the baseline's true value, that flips or doubles it, or creates an
  effect that matters.
* Anything else is *unclear*.  A condition that changed no game is *the same*.
* The verdict: **depends on X** when any condition flips, halves or doubles the
  headline (or shows a material effect the baseline lacks), naming them; **holds** when
  every condition holds; otherwise **cannot tell**, with the games that would settle it:
  n (half-width / distance to the boundary the interval straddles)^2 for the widest case.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

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


# ------------------------------------------------------------------- layout and headlines
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


# ------------------------------------------------------------------------ classification
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


# ------------------------------------------------------------------------------ wording
def fmt(spec: dict, x: float, signed: bool | None = None) -> str:
    """A headline's value in its unit: points or percent for rates, the unit for means."""
    if x is None or x != x:
        return "n/a"
    signed = spec["signed"] if signed is None else signed
    if spec["rate"]:
        if signed:
            return f"{100 * x:+.2f} points"
        return f"{100 * x:.1f}%"
    unit = f" {spec['unit']}" if spec["unit"] else ""
    return (f"{x:+.2f}" if signed else f"{x:.2f}") + unit


def fmt_interval(spec: dict, lo: float, hi: float, signed: bool | None = None) -> str:
    if lo != lo or hi != hi:
        return "n/a"
    signed = spec["signed"] if signed is None else signed
    if spec["rate"]:
        return (f"{100 * lo:+.2f} to {100 * hi:+.2f}" if signed else f"{100 * lo:.1f}% to {100 * hi:.1f}%")
    return f"{lo:+.2f} to {hi:+.2f}" if signed else f"{lo:.2f} to {hi:.2f}"


def _threshold(spec: dict, m: float) -> str:
    if spec["rate"]:
        return f"{100 * m:.0f} point" + ("s" if round(100 * m) != 1 else "")
    return f"{m:.2f}" + (f" {spec['unit']}" if spec["unit"] else "")


def _games(x: float) -> str:
    if x == math.inf or x != x:
        return "far more games than any run here (the estimate sits on the boundary)"
    return f"about {_rounded_games(x):,} games"


def _rounded_games(x: float) -> int:
    """A number of games rounded up to two figures (at least to the hundred)."""
    step = 10 ** max(2, int(math.floor(math.log10(max(x, 1.0)))) - 1)
    return int(math.ceil(x / step) * step)


def assumption_name(c: dict) -> str:
    kind = c.get("kind")
    if kind == "bots":
        return "the bots"
    if kind == "setup":
        return f"the setup ({c.get('assumption')})"
    if kind == "combined":
        return f"the combined readings ({c.get('assumption')})"
    return f"the reading of {c.get('assumption')}"


def real_swing(c: dict) -> bool:
    """An unjudged condition whose paired swing still excludes 0: the headline moves under it,
    by less than the baseline's uncertainty lets the verdict be judged."""
    return c.get("status") == "unclear" and (c["s_lo"] > 0 or c["s_hi"] < 0)


def _real_swings(spec: dict, conds: list[dict]) -> str:
    real = sorted((c for c in conds if real_swing(c)), key=lambda c: -abs(c["s"]))
    if not real:
        return ""
    items = "; ".join(f"{c['label']} {fmt(spec, c['s'], signed=True)} (95% interval "
                      f"{fmt_interval(spec, c['s_lo'], c['s_hi'], signed=True)})" for c in real)
    return (f" Still, the headline moves on the same games under {items}: "
            + ("real swings" if len(real) > 1 else "a real swing")
            + ", whose effect on the verdict the baseline is too uncertain to judge.")


def rerun_command(command: str | None, games: float) -> str | None:
    """``command`` (a ``sim robust`` line) with ``--games`` set to ``games`` (rounded up to
    two figures): the one step that re-runs it with the games a "cannot tell" asks for."""
    import shlex
    if not command or games != games or games == math.inf:
        return None
    n = _rounded_games(games)
    args = shlex.split(command)
    for i, a in enumerate(args):
        if a in ("--games", "-n") and i + 1 < len(args):
            args[i + 1] = str(n)
            break
        if a.startswith("--games="):
            args[i] = f"--games={n}"
            break
    else:
        args += ["--games", str(n)]
    return " ".join(shlex.quote(a) for a in args)


def verdict(spec: dict, base: dict, conds: list[dict], m: float) -> dict:
    """The verdict on one headline: kind ("holds", "depends", "cannot tell"), the plain
    words, the assumptions it depends on, and the games that would settle it.

    ``base``: v, lo, hi, n of the baseline; ``conds``: one dict per condition with label,
    kind, assumption, n, v, lo, hi, s, s_lo, s_hi, same (``status`` is filled in)."""
    bstat = classify_baseline(base["v"], base["lo"], base["hi"], m)
    for c in conds:
        c["status"] = classify_condition(bstat, base["v"], c, m, base["lo"], base["hi"])
        c["settle"] = (settle_games(bstat, base["v"], c, m) if c["status"] == "unclear"
                       else float("nan"))
    label = spec["label"]
    head = (f"{fmt(spec, base['v'])} with the baseline (95% interval "
            f"{fmt_interval(spec, base['lo'], base['hi'])}, {base['n']:,} games)")
    out = {"headline": spec["key"], "label": label, "baseline_status": bstat, "depends_on": [],
           "games_needed": float("nan"), "conditions": len(conds)}
    if bstat == "unclear" and not any(c["status"] == "moves" for c in conds):
        need = settle_games(bstat, base["v"], None, m, base)
        out.update(kind="cannot tell", games_needed=need,
                   text=f"{label}: cannot tell. {head[0].upper() + head[1:]}: the interval is too "
                        f"wide to say whether there is an effect of {_threshold(spec, m)} "
                        f"or more, so no condition can be judged; {_games(need)} would settle it."
                        + _real_swings(spec, conds))
        return out
    what = ("its sign and rough size (half to double) hold" if bstat == "material"
            else f"there is no effect of {_threshold(spec, m)} or more, and that holds")
    dep = [c for c in conds if c["status"] in DEPENDS]
    unclear = [c for c in conds if c["status"] == "unclear"]
    if dep:
        names = list(dict.fromkeys(assumption_name(c) for c in dep))
        items = []
        for c in sorted(dep, key=lambda c: -abs(c["s"])):
            how = {"flips": "flips it", "halves": "less than half", "doubles": "more than double",
                   "material": "an effect that matters",
                   "moves": f"{fmt(spec, c['s'], signed=True)} on the same games, more than the "
                            "baseline could be"}[c["status"]]
            items.append(f"{c['label']} gives {fmt(spec, c['v'])} ({how})")
        text = (f"{label}: depends on {_join(names)}. {head[0].upper() + head[1:]}"
                + (": too wide an interval to judge the baseline itself" if bstat == "unclear" else "")
                + ", but " + "; ".join(items) + ".")
        if unclear:
            text += (f" {len(unclear)} other condition{'s' if len(unclear) > 1 else ''} could not "
                     f"tell ({', '.join(c['label'] for c in unclear)}).")
        out.update(kind="depends", text=text, depends_on=names)
        return out
    if unclear:
        need = max(c["settle"] for c in unclear)
        held = [c for c in conds if c["status"] in ("holds", "same")]
        text = (f"{label}: cannot tell. {head[0].upper() + head[1:]}; "
                + (f"{what} under {len(held)} of {len(conds)} conditions, but " if held else "")
                + f"under {_join([c['label'] for c in unclear])} the interval is too wide "
                f"to say; {_games(need)} would settle it." + _real_swings(spec, conds))
        out.update(kind="cannot tell", text=text, games_needed=need)
        return out
    vals = [c["v"] for c in conds]
    rng = (f" (from {fmt(spec, min(vals))} to {fmt(spec, max(vals))})" if vals else "")
    tried = _tried(conds)
    text = (f"{label}: holds. {head[0].upper() + head[1:]}; {what} under every "
            f"condition tried{rng}: {tried}.")
    if not conds:
        text = f"{label}: holds (no condition to try). {head[0].upper() + head[1:]}."
    out.update(kind="holds", text=text)
    return out


def _join(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _tried(conds: list[dict]) -> str:
    groups: dict[str, list[str]] = {}
    names = {"bots": "the bots", "reading": "the readings", "setup": "the setup",
             "combined": "combined readings"}
    for c in conds:
        groups.setdefault(names.get(c.get("kind"), c.get("kind", "")), []).append(
            c["label"] + (" (no game changed)" if c.get("status") == "same" else ""))
    return "; ".join(f"{k} ({', '.join(v)})" for k, v in groups.items())


# ---------------------------------------------------------------------- from the result
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


def evaluate(layout: dict, key: str, base_stats: dict, conditions: list[dict], z: float = Z95) -> dict:
    """Every figure of one headline: the baseline, each condition's value, its paired swing
    and the pairing's variance reduction, the statuses and the verdict.

    ``conditions``: dicts with at least ``stats`` (n, s, S2 over [baseline, condition]) and
    label, kind, assumption."""
    spec = headline_spec(layout, key)
    bm = base_means(layout, base_stats)
    w, const = weights(layout, key, bm)
    b = lin(base_stats, contrast(layout, 1, 0, w), const, z)
    if spec["rate"]:
        level = float("nan")
    else:
        level = float(bm[_q_index(layout, key)])
    m = materiality(spec, level)
    base = {"v": b["mean"], "lo": b["lo"], "hi": b["hi"], "n": b["n"], "sd": b["sd"]}
    rows = []
    for c in conditions:
        st = c["stats"]
        L1 = contrast(layout, 2, 1, w)
        L0 = contrast(layout, 2, 0, w)
        v = lin(st, L1, const, z)
        s = lin(st, L1 - L0, 0.0, z)
        b0 = lin(st, L0, const, z)
        vr = float("nan")
        if s["sd"] == s["sd"] and v["sd"] == v["sd"] and b0["sd"] == b0["sd"]:
            num = v["sd"] ** 2 + b0["sd"] ** 2
            vr = (num / s["sd"] ** 2) if s["sd"] > 0 else (math.inf if num > 0 else float("nan"))
        rows.append({"label": c["label"], "kind": c["kind"], "assumption": c.get("assumption"),
                     "n": v["n"], "v": v["mean"], "lo": v["lo"], "hi": v["hi"], "s": s["mean"],
                     "s_lo": s["lo"], "s_hi": s["hi"], "vr": vr, "stopped": c.get("stopped", False),
                     "same": identical(st)})
    v = verdict(spec, base, rows, m)
    return {"spec": spec, "base": base, "rows": rows, "verdict": v, "m": m,
            "gap_sides": gap_sides(layout, bm) if key == "gap" else None}


def evaluate_all(res) -> dict:
    """{headline key: evaluate(...)} for every headline of a robust result (the chosen
    metric first)."""
    lay = res.layout
    keys = [res.metric] + [k for k in headline_keys(lay) if k != res.metric]
    conds = [c.as_dict() for c in res.conditions]
    return {k: evaluate(lay, k, res.base_stats, conds) for k in keys}


# ------------------------------------------------------------------------- tornado chart
STATUS_COLOURS = {"holds": "#0072B2", "same": "#56B4E9", "flips": "#D55E00", "halves": "#D55E00",
                  "doubles": "#D55E00", "material": "#D55E00", "moves": "#D55E00",
                  "unclear": "#7F7F7F", "swing": "#E69F00"}


def tornado(ev: dict, path, title: str) -> list[str]:
    """Each condition's swing of the headline (condition minus baseline on the same games),
    largest first, with its 95% paired interval: one bar per condition, coloured by its
    status.  Dashed lines mark where the headline would be halved or doubled, a dotted one
    where it would cross zero (a material baseline).  Returns the bars' labels, top down."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from . import plots
    spec = ev["spec"]
    rows = sorted(ev["rows"], key=lambda r: -abs(r["s"]) if r["s"] == r["s"] else 0.0)
    scale = 100.0 if spec["rate"] else 1.0
    fig, ax = plt.subplots(figsize=(8.5, 0.42 * len(rows) + 1.9))
    y = np.arange(len(rows))
    s = np.array([r["s"] for r in rows], np.float64) * scale
    lo = np.array([r["s_lo"] for r in rows], np.float64) * scale
    hi = np.array([r["s_hi"] for r in rows], np.float64) * scale
    colours = [STATUS_COLOURS["swing"] if real_swing(r) else STATUS_COLOURS.get(r.get("status"), plots.NEUTRAL)
               for r in rows]
    ax.barh(y, np.nan_to_num(s), color=colours, alpha=0.85, edgecolor="black", linewidth=0.4)
    err = np.vstack([np.nan_to_num(s - lo), np.nan_to_num(hi - s)])
    ax.errorbar(np.nan_to_num(s), y, xerr=err, fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.axvline(0, color="black", linewidth=1)
    b = ev["base"]["v"]
    if ev["verdict"]["baseline_status"] == "material" and b == b:
        for x, style, what in ((-b / 2, "--", "half"), (b, "--", "double"), (-b, ":", "zero")):
            ax.axvline(x * scale, color="#555555", linestyle=style, linewidth=1)
            ax.text(x * scale, -0.7, what, ha="center", va="bottom", fontsize=8, color="#555555")
    elif ev["verdict"]["baseline_status"] == "none" and b == b:
        for x, what in ((-ev["m"] - b, f"-{_threshold(spec, ev['m'])}"),
                        (ev["m"] - b, f"+{_threshold(spec, ev['m'])}")):
            ax.axvline(x * scale, color="#555555", linestyle="--", linewidth=1)
            ax.text(x * scale, -0.7, what, ha="center", va="bottom", fontsize=8, color="#555555")
    ax.set_yticks(y, [r["label"] for r in rows])
    ax.set_ylim(len(rows) - 0.4, -1.0)
    unit = "points" if spec["rate"] else spec["unit"]
    ax.set_xlabel("swing against the baseline" + (f" ({unit})" if unit else "")
                  + "; bars: 95% paired interval")
    ax.set_title(title, fontsize=11, loc="left")
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="x", alpha=0.3)
    from matplotlib.patches import Patch
    def kind(r):
        return "swing" if real_swing(r) else "flips" if r.get("status") in DEPENDS else r.get("status")
    used = [k for k in ("holds", "same", "flips", "swing", "unclear") if any(kind(r) == k for r in rows)]
    names = {"holds": "holds", "same": "no game changed", "flips": "flips, halves or doubles it",
             "swing": "moves it (swing excludes 0), not judged: baseline unsettled",
             "unclear": "cannot tell"}
    if used:
        ax.legend([Patch(color=STATUS_COLOURS[k]) for k in used], [names[k] for k in used],
                  frameon=False, fontsize=8, loc="lower right")
    plots.save(fig, path)
    return [r["label"] for r in rows]


# ------------------------------------------------------------------------------- report
METHOD = (
    "Every condition plays the same game indices with the same seed as the baseline, so game i "
    "of each sees the same chance (common random numbers): the same dice, deck and layout "
    "wherever the condition leaves them alone. Each condition's games are reduced to sums and "
    "sums of products of a per-game vector (the first side's score, each side's win share, "
    "decisive, length and the score margin) for the baseline and the condition side by side, "
    "so every figure here - the condition's value, its swing against the baseline on the same "
    "games and how much the pairing narrowed it (the variance reduction (var(a) + var(b)) / "
    "var(a - b)) - has an exact 95% normal interval. A bot matchup with unequal bots is played "
    "in every seating (the strong bot in each seat in turn) and the seatings averaged game by "
    "game, so the seat figures measure the seats, not the bots. Verdicts: a baseline is material "
    "when its interval excludes 0 and it is at least 1 point (a rate) or 1% of the reference "
    "level (a mean); a condition flips it when its own interval lies wholly across 0, halves it "
    "when its paired swing lies wholly below minus half the baseline, doubles it when the swing "
    "lies wholly above the baseline, and holds when the swing lies within those limits. Against "
    "a baseline with no material effect (its interval within the threshold) a condition holds "
    "when its interval is within the threshold too, and shows an effect when its interval "
    "excludes 0 and it reaches the threshold. Against a baseline too uncertain to judge, a condition still moves "
    "the headline when its paired swing lies wholly beyond the largest size the baseline's "
    "interval allows. 'Cannot tell' gives the games that would settle "
    "it: n (half-width / distance to the nearest boundary the interval straddles)^2. Early stop: "
    "every condition is checked after each chunk (in chunk order, so the result does not "
    "depend on the number of jobs) and stops once its status on the chosen headline is decided "
    "at 99.9% and the baseline's too (a Haybittle-Peto boundary: the final 95% intervals keep "
    "their meaning); the other headlines are judged on the games it played. The worst-case "
    "combination joins the two readings that moved the chosen headline most in the same "
    "direction, one alternative each, in a second run on the same seeds.")


def robust_text(res, evs: dict | None = None) -> str:
    """The terminal summary: a verdict per headline, then the condition table of the
    chosen headline, the games and the time taken."""
    evs = evs or evaluate_all(res)
    m = res.manifest
    lines = [f"{res.game.title}: does the verdict hold? baseline {m['baseline']}; "
             f"{len(res.conditions)} conditions, seed {m['seed']}"]
    for key, ev in evs.items():
        lines.append("* " + ev["verdict"]["text"])
    ev = evs[res.metric]
    spec = ev["spec"]
    lines.append("")
    lines.append(f"{spec['label']} by condition (swing: against the baseline on the same games)")
    lines.append(f"{'condition':<36}{'games':>9}  {'value':>16}  {'swing':>16}  95% interval of swing      status")
    lines.append(f"{'baseline':<36}{ev['base']['n']:>9,}  {fmt(spec, ev['base']['v']):>16}")
    for r in sorted(ev["rows"], key=lambda r: -abs(r["s"]) if r["s"] == r["s"] else 0.0):
        lines.append(f"{r['label'][:35]:<36}{r['n']:>9,}{'*' if r['stopped'] else ' '} "
                     f"{fmt(spec, r['v']):>16}  {fmt(spec, r['s'], signed=True):>16}  "
                     f"{fmt_interval(spec, r['s_lo'], r['s_hi'], signed=True):<26} "
                     f"{STATUS_WORDS.get(r['status'], r['status'])}")
    if any(r["stopped"] for r in ev["rows"]):
        lines.append("* stopped early: its status was decided (at 99.9%) before --games")
    for what, why in res.skipped:
        lines.append(f"skipped {what}: {why}")
    need = ev["verdict"].get("games_needed", float("nan"))
    again = rerun_command(m.get("command"), need) if ev["verdict"].get("kind") == "cannot tell" else None
    if again:
        lines.append(f"to settle {spec['label']}, run again with the games it needs: {again}")
    lines.append(f"games played: {m['games_played']:,} in {m['seconds']:.1f} s "
                 f"(CPU {m['cpu_seconds']:.1f} s over {m['jobs']} jobs)")
    return "\n".join(lines)


def condition_table(res, evs: dict) -> list[tuple]:
    """Rows of the report's table of every condition: one row per condition, each headline's
    value, swing and status."""
    rows = []
    keys = list(evs)
    for i, c in enumerate(res.conditions):
        row = [c.label, c.kind, f"{int(c.stats['n']):,}" + (" (stopped early)" if c.stopped else "")]
        for k in keys:
            ev = evs[k]
            r = ev["rows"][i]
            spec = ev["spec"]
            row.append(f"{fmt(spec, r['v'])} ({fmt(spec, r['s'], signed=True)}; "
                       f"{fmt_interval(spec, r['s_lo'], r['s_hi'], signed=True)}) "
                       f"{STATUS_WORDS.get(r['status'], r['status'])}")
        vr = evs[keys[0]]["rows"][i]["vr"]
        row.append("" if vr != vr else ("∞" if vr == math.inf else f"{vr:.1f}x"))
        rows.append(tuple(row))
    return rows


def write_robust_report(res, out_dir) -> Path:
    """index.html and report-standalone.html (tornado charts), conditions.csv, robust.json
    (everything the page is built from: `sim report DIR` rebuilds it) and manifest.json."""
    from .pages import CSS, SELF_CHECK, Markup, render, write_page
    from sim.io import atomic_write, write_json
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    evs = evaluate_all(res)
    m = res.manifest
    figs = []
    bars = {}
    for key, ev in evs.items():
        fn = f"tornado_{key}.png"
        bars[key] = tornado(ev, out_dir / fn, f"{ev['spec']['label'][0].upper()}{ev['spec']['label'][1:]}: "
                                              "each assumption's swing, largest first")
        figs.append((fn, ev["spec"]["label"]))
    what = (f"variant '{m['variants'][1]['name']}' against '{m['variants'][0]['name']}'"
            if res.mode == "compare" else "the headline figures")
    title = f"{res.game.title}: does the verdict hold?"
    heads = ["condition", "kind", "games"] + [
        f"{ev['spec']['label']}: value (swing; 95% interval) status" for ev in evs.values()] + [
        "variance reduction by pairing"]
    base_cells = ["baseline", "", f"{m['baseline_games']:,}"] + [
        f"{fmt(ev['spec'], ev['base']['v'])} ({fmt_interval(ev['spec'], ev['base']['lo'], ev['base']['hi'])})"
        for ev in evs.values()] + [""]
    page = render(
        "robust.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK), what=what,
        n_conditions=len(res.conditions), players=res.players, baseline=m["baseline"], seed=m["seed"],
        games=f"{m['games_played']:,}", seconds=f"{m['seconds']:.1f}", partial=m.get("partial"),
        verdicts=[ev["verdict"]["text"] for ev in evs.values()],
        measures=[(ev["spec"]["label"], describe_headline(_lay(res, ev), k)) for k, ev in evs.items()],
        tornados=[{"fn": fn, "label": label, "bars": len(bars[key]),
                   "note": " (the chosen headline: early stops follow it)" if key == res.metric else ""}
                  for (fn, label), (key, ev) in zip(figs, evs.items())],
        conditions_rows=[tuple(base_cells)] + condition_table(res, evs), conditions_header=heads,
        conditions=[(c.label, c.kind, c.describe()) for c in res.conditions], skipped=res.skipped,
        budget=(f"{m['games_played']:,} games in {m['seconds']:.1f} s of wall time "
                f"({m['cpu_seconds']:.1f} s of CPU in the workers, {m['jobs']} jobs); --games "
                f"{m['games_requested']:,} per condition, chunks of {m['chunk_size']:,}."),
        method=METHOD, command=m.get("command"), manifest_json=json.dumps(m, indent=2, default=str))
    import pandas as pd
    flat = []
    for k, ev in evs.items():
        for r in ev["rows"]:
            flat.append({"headline": k, **{x: r[x] for x in ("label", "kind", "assumption", "n", "v", "lo", "hi",
                                                            "s", "s_lo", "s_hi", "vr", "status", "stopped")}})
    atomic_write(out_dir / "conditions.csv", lambda tmp: pd.DataFrame(flat).to_csv(tmp, index=False))
    path = write_page(out_dir, page, figs)
    data = res.to_dict()
    data["verdicts"] = {k: {x: ev["verdict"][x] for x in ("kind", "text", "depends_on", "games_needed")}
                        for k, ev in evs.items()}
    data["tornado"] = bars
    write_json(out_dir / "robust.json", data)
    man = dict(m)
    man["verdicts"] = {k: ev["verdict"]["kind"] for k, ev in evs.items()}
    write_json(out_dir / "manifest.json", man)
    return path


def _lay(res, ev) -> dict:
    lay = dict(res.layout)
    if ev.get("gap_sides"):
        names = lay.get("side_names") or []
        lay["gap_sides"] = [names[i] if i < len(names) else str(i) for i in ev["gap_sides"]]
    return lay


# ------------------------------------------------------------------- "How sure is this?"
def _norm(v) -> str:
    """A parameter value as text, the same whether it came from a run's manifest (numbers,
    tuples shown as 'a,b') or a robust one (all text)."""
    if isinstance(v, (list, tuple)):
        return ",".join(_norm(x) for x in v)
    if isinstance(v, bool):
        return str(v)
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if str(v) in ("True", "False"):
        return str(v)
    return str(int(f)) if f.is_integer() else repr(f)


def _norm_rules(d: dict | None) -> dict:
    return {str(k): _norm(v) for k, v in (d or {}).items()}


def find_robust(root, game, players: int, rules: dict | None = None, variants: list | None = None):
    """The newest `sim robust` result under ``root`` (a reports folder: each of its
    directories) for the same game, version, player count and rules (a run: every parameter;
    a comparison: the same variants, their rule changes in order).  None when there is none."""
    root = Path(root)
    if not root.is_dir():
        return None
    found = []
    for f in root.glob("*/robust.json"):
        try:
            m = json.loads(f.with_name("manifest.json").read_text())
        except (OSError, ValueError):
            continue
        if (m.get("kind") != "robust" or m.get("game") != game.name
                or m.get("game_version") != game.version or int(m.get("players", -1)) != int(players)):
            continue
        if variants is not None:
            mv = m.get("variants") or []
            if m.get("mode") != "compare" or len(mv) != len(variants) or any(
                    _norm_rules(a.get("rules_changed")) != _norm_rules(b.get("rules_changed"))
                    for a, b in zip(mv, variants)):
                continue
        else:
            if m.get("mode") != "game" or _norm_rules(m.get("rules")) != _norm_rules(rules):
                continue
        found.append((m.get("started", ""), f.parent, m))
    if not found:
        return None
    found.sort(key=lambda t: t[0])
    return found[-1][1], found[-1][2]


def robust_command(game, players: int, rules_changed: dict | None = None,
                   variants: list | None = None) -> str:
    """The command that would produce the `sim robust` result a report lacks."""
    import shlex
    cmd = ["sim", "robust"]
    if variants is not None:
        cmd += ["compare", game.name]
        for v in variants:
            ch = ",".join(f"{k}={_norm(x)}" for k, x in (v.get("rules_changed") or {}).items())
            cmd += ["--variant", f"{v['name']}:{ch}"]
    else:
        cmd.append(game.name)
        for k, x in (rules_changed or {}).items():
            cmd += ["--set", f"{k}={_norm(x)}"]
    if players != game.default_players:
        cmd += ["--players", str(players)]
    return " ".join(shlex.quote(c) for c in cmd)


def how_sure_box(game, manifest: dict, out_dir, kind: str = "run") -> str:
    """The report's "How sure is this?" box (HTML): the bots used, the readings in force
    (linked to RULES.md) and, where a `sim robust` result for the same game, player count
    and rules lies in the same reports folder, its verdicts; otherwise the command that
    would produce one."""
    players = int(manifest["players"])
    seats = manifest.get("seats") or []
    bots = manifest.get("bots") or []
    who = (", ".join(f"{s}: {b}" for s, b in zip(seats, bots)) if len(seats) == len(bots)
           else ", ".join(bots))
    if kind == "compare":
        variants = manifest.get("variants") or []
        changed = {}
        for v in variants[:1]:
            changed = dict(v.get("rules_changed") or {})
        rules = {p.name: changed.get(p.name, p.default) for p in game.params}
    else:
        variants = None
        rules = manifest.get("rules") or {}
    readings = [p for p in game.params if p.role == "reading"]
    doc = Path(game.rules_doc) if game.rules_doc else None
    shown = []
    for p in readings:
        v = rules.get(p.name, p.default)
        mark = "" if _norm(v) == _norm(p.default) else f" (changed: the default is {_norm(p.default)})"
        shown.append((p.name, _norm(v), mark))
    found = None
    if out_dir is not None:
        found = find_robust(Path(out_dir).resolve().parent, game, players, rules, variants)
    robust_found, cmd = None, None
    if found is not None:
        d, m = found
        try:
            data = json.loads((d / "robust.json").read_text())
            verdicts = data.get("verdicts", {})
        except (OSError, ValueError):
            verdicts = {}
        robust_found = {"conditions": len(m.get("conditions", [])),
                        "baseline_games": f"{m.get('baseline_games', 0):,}",
                        "rel": f"../{d.name}/index.html", "name": d.name,
                        "verdicts": [v.get("text", "") for v in verdicts.values()]}
    else:
        cmd = robust_command(game, players, manifest.get("rules_changed") if kind != "compare" else None,
                             variants)
    from .pages import render
    return render("how_sure.html", who=who, readings=shown, game_name=game.name,
                  doc_uri=doc.resolve().as_uri() if doc else None, found=robust_found, command=cmd)
