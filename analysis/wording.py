"""The words a report puts on a number: one place for the rules, unit-tested.

A sentence in a report ("moving first has a real advantage") is a claim a designer acts
on, so the words scale with the size of the effect and with what the run can tell:

* an interval that excludes zero is *real*; one that does not is *not detected*;
* a real difference under ``SMALL`` (1 point of a rate) is too small to matter in play and
  says so, however significant;
* between ``SMALL`` and ``MEDIUM`` (3 points) it is small, up to ``LARGE`` (10 points)
  medium, beyond that large;
* a difference the run cannot detect is called "no edge that matters" only when the whole
  interval lies within ``SMALL``; otherwise the run is too small to tell, and says so.

Every function takes the estimate and its 95% interval in the metric's own unit
(percentage points for rates: pass fractions with ``scale=100``).
"""
from __future__ import annotations

import math

SMALL = 1.0    # points: under this a real edge is too small to matter in play
MEDIUM = 3.0   # points: from SMALL to here a small edge
LARGE = 10.0   # points: from MEDIUM to here a medium edge, beyond it a large one

#: pairing weaker than this variance reduction is reported as weak
WEAK_PAIRING = 2.0

BOTS_NOTE = ("Every figure here comes from games these bots played: game length, seat edges "
             "and the rest depend on the bots, and other bots (stronger, weaker, or just "
             "different) can give other numbers.")


def size_of(d: float, lo: float, hi: float, small: float = SMALL, medium: float = MEDIUM,
            large: float = LARGE) -> str:
    """The category of an effect ``d`` with 95% interval (lo, hi), all in one unit.

    "none": not detected and the interval lies within (-small, small): no edge that matters;
    "unclear": not detected, but the interval reaches beyond +-small: more games would tell;
    "negligible": real (the interval excludes 0) but |d| < small;
    "small", "medium", "large": real, |d| in [small, medium), [medium, large), >= large.
    """
    if any(not math.isfinite(x) for x in (d, lo, hi)):
        return "unclear"
    if lo <= 0.0 <= hi:
        return "none" if (-small < lo and hi < small) else "unclear"
    a = abs(d)
    if a < small:
        return "negligible"
    if a < medium:
        return "small"
    if a < large:
        return "medium"
    return "large"


def _num(x: float, unit: str) -> str:
    """The size of ``x``, never rounded to a bare zero: "0.012 rounds", not "0.0 rounds"."""
    a = abs(x)
    if unit:
        return (f"{a:.2g} {unit}" if 0 < a < 0.05 else f"{a:.1f} {unit}")
    return f"{a:.2g}" if 0 < a < 0.005 else f"{a:.2f}"


def _signed(x: float, unit: str = "points") -> str:
    """A signed bound of an interval, never "+0.0" for a bound that is not zero."""
    if x == 0:
        return "0"
    if not unit:
        return f"{x:+.2g}" if 0 < abs(x) < 0.005 else f"{x:+.2f}"
    return f"{x:+.2g}" if 0 < abs(x) < 0.05 else f"{x:+.1f}"


def settle_games(n: int, d: float, lo: float, hi: float, small: float = SMALL) -> float:
    """About how many games in all would settle an effect the run could not tell: after them an
    interval of this width, shrinking as 1/sqrt(games), would clear the nearest bound it
    straddles (+-``small`` while ``d`` lies within them, else 0); inf where ``d`` sits on it,
    nan where the number of games is not known."""
    if not n or not all(math.isfinite(x) for x in (d, lo, hi)) or hi <= lo:
        return float("nan")
    bounds = [b for b in ((-small, small) if abs(d) < small else (0.0,)) if lo <= b <= hi]
    if not bounds:
        return float(n)
    # the half of the interval on the bound's side shrinks until it no longer reaches the bound
    need = []
    for b in bounds:
        dist, half = abs(d - b), (hi - d) if b > d else (d - lo)
        need.append(math.inf if dist <= 1e-9 * (hi - lo) else n * (half / dist) ** 2)
    return float(math.ceil(max(need))) if max(need) < math.inf else math.inf


def settle_text(n: int | None, d: float, lo: float, hi: float, small: float = SMALL) -> str:
    """"more games would tell" with about how many: "about 24,000 games in all (6 times these)
    would tell"; the bare words where the number of games is not known."""
    need = settle_games(n, d, lo, hi, small) if n else float("nan")
    if need != need:
        return "more games would tell"
    if need == math.inf:
        return ("the estimate sits on the bound, so more games narrow the interval without "
                "settling it soon")
    need = _round_games(need)
    return f"about {need:,} games in all ({need / n:.3g} times these) would tell"


def _round_games(x: float) -> int:
    """A count of games to two significant figures (an estimate, not a promise)."""
    x = int(x)
    if x < 100:
        return x
    k = 10 ** (len(str(x)) - 2)
    return int(math.ceil(x / k) * k)


def edge_phrase(d: float, lo: float, hi: float, *, scale: float = 1.0, unit: str = "points",
                up: str = "advantage", down: str = "disadvantage", noun: str = "edge",
                small: float = SMALL, medium: float = MEDIUM, large: float = LARGE,
                games: int | None = None) -> str:
    """Words for an edge or a change: ``d`` and its interval times ``scale`` (100 turns a
    difference of rates into percentage points) are judged by :func:`size_of`.  ``games``:
    the games behind the interval, so that "more games would tell" says about how many.

    >>> edge_phrase(0.003, 0.001, 0.005, scale=100)
    'a real but small advantage of 0.3 points: too small to matter in play'
    >>> edge_phrase(-0.004, -0.006, -0.002, scale=100)
    'a real but small disadvantage of 0.4 points: too small to matter in play'
    >>> edge_phrase(0.16, 0.15, 0.17, scale=100)
    'a large advantage of 16.0 points'
    """
    d, lo, hi = d * scale, lo * scale, hi * scale
    kind = size_of(d, lo, hi, small, medium, large)
    ival = f"95% interval {_signed(lo, unit)} to {_signed(hi, unit)}" + (f" {unit}" if unit else "")
    if kind == "none":
        article = "an" if noun[:1] in "aeiou" else "a"
        return (f"no {noun} that matters: the {ival} rules out {article} {noun} of "
                f"{_num(small, unit)} or more")
    if kind == "unclear":
        return (f"no {noun} this run can detect, but it cannot rule one out ({ival}): "
                f"{settle_text(games, d, lo, hi, small)}")
    word = up if d > 0 else down
    if kind == "negligible":  # the direction too: a first player at 49.6% has no "edge"
        return f"a real but small {word} of {_num(d, unit)}: too small to matter in play"
    if kind == "small":
        return f"a small but real {word} of {_num(d, unit)}"
    if kind == "medium":
        return f"a medium {word} of {_num(d, unit)}"
    return f"a large {word} of {_num(d, unit)}"


def fair_phrase(base: float, d: float, lo: float, hi: float, fair: float, fair_new: float | None = None,
                *, scale: float = 100.0, unit: str = "points", small: float = SMALL,
                games: int | None = None) -> str | None:
    """Whether a change ``d`` (95% interval lo..hi) of a share at ``base`` moves it closer to or
    further from its fair share ``fair`` (``fair_new`` for the changed arm, where draws move it),
    by how much and how sure: the change of the distance from fair, with its interval (the
    distance is not linear where the interval crosses the fair share).  None where there is no
    interval (the reference itself).

    >>> fair_phrase(0.487, 0.100, 0.092, 0.108, 0.5)
    'further from fair (50.0%): 1.3 → 8.7 points away (7.4 points further, 95% interval 6.6 to 8.2)'
    >>> fair_phrase(0.58, -0.05, -0.06, -0.04, 0.5)
    'closer to fair (50.0%): 8.0 → 3.0 points away (5.0 points closer, 95% interval 4.0 to 6.0)'
    """
    if any(x is None or not math.isfinite(x) for x in (base, d, lo, hi, fair)):
        return None
    new_fair = fair if fair_new is None or not math.isfinite(fair_new) else fair_new
    far = abs(base - fair)

    def moved(x):  # the change of the distance from fair when the share changes by x
        return abs(base + x - new_fair) - far
    c = moved(d)
    ends = [moved(lo), moved(hi)] + ([moved(new_fair - base)] if lo <= new_fair - base <= hi else [])
    c_lo, c_hi = min(ends), max(ends)
    c, c_lo, c_hi = c * scale, c_lo * scale, c_hi * scale
    shown = (f"fair ({100 * fair:.1f}%)" if fair_new is None or abs(new_fair - fair) < 5e-4 else
             f"fair ({100 * fair:.1f}% → {100 * new_fair:.1f}%, draws counted as losses)")
    kind = size_of(c, c_lo, c_hi, small)
    if kind == "none":
        return (f"neither closer to nor further from {shown} by {_num(small, unit)} or more (95% "
                f"interval of the change of its distance from fair {_signed(c_lo, unit)} to "
                f"{_signed(c_hi, unit)} {unit})")
    if kind == "unclear":
        return (f"whether it moves closer to or further from {shown} this run cannot tell (its "
                f"distance from fair changes by {_signed(c, unit)} {unit}, 95% interval {_signed(c_lo, unit)} "
                f"to {_signed(c_hi, unit)}): {settle_text(games, c, c_lo, c_hi, small)}")
    way, a, b = ("further from", c_lo, c_hi) if c > 0 else ("closer to", -c_hi, -c_lo)
    dist = f"{_num(far * scale, unit).removesuffix(' ' + unit)} → {_num(abs(base + d - new_fair) * scale, unit)} away"
    text = (f"{way} {shown}: {dist} ({_num(c, unit)} {way.split()[0]}, 95% interval "
            f"{_signed(a, unit).lstrip('+')} to {_signed(b, unit).lstrip('+')})")
    if kind == "negligible":
        text += ": too small to matter in play"
    return text


def pairing_phrase(same: float | None, vr: float) -> str:
    """How well common random numbers paired an arm with the reference: ``same`` is the
    share of games with the same outcome (None where not measured), ``vr`` the variance
    reduction (var(a) + var(b)) / var(a - b) of the headline metric."""
    head = (f"{100 * same:.1f}% of paired games had the same outcome; " if same is not None else "")
    if vr == math.inf:
        return head + "every paired difference is the same, so the interval has no width"
    if not math.isfinite(vr):
        return head + "the variance reduction could not be measured (no variance)"
    text = head + f"pairing cut the variance {vr:.1f}-fold against independent runs of the same size"
    if vr < WEAK_PAIRING:
        text += ("; pairing is weak here: the arms share little; intervals are close to "
                 "those of independent runs")
    return text


def variance_reduction(var_a: float, var_b: float, var_d: float) -> float:
    """(var(a) + var(b)) / var(a - b): how many times narrower (squared) a paired interval is
    than one from two independent samples of the same size.  inf where every difference is
    0 and the arms vary (identical games); nan where nothing varies at all."""
    num = var_a + var_b
    if not (math.isfinite(num) and math.isfinite(var_d)):
        return float("nan")
    if var_d <= 1e-15 * max(num, 1e-300):
        return math.inf if num > 0 else float("nan")
    return num / var_d


def sprt_sentence(decision: str | None, d: float, metric: str, estimate: float) -> str:
    """The SPRT's decision as a sentence: which way and how big, in the metric's own unit
    (a rate's difference is a fraction: 0.02 is 2 percentage points)."""
    if decision == "H0":
        return f"no difference of {d:g} or more in {metric} (between {-d:+g} and {d:+g})"
    if decision == "H1":
        way = "higher" if estimate > 0 else "lower"
        return (f"a difference of at least {d:g} in {metric}: {way} than the reference by "
                f"about {abs(estimate):.3g}")
    return f"undecided: a difference of {d:g} in {metric} is neither shown nor ruled out yet"


def holm(pvalues) -> list[float]:
    """Holm's step-down adjustment of p-values for several comparisons (nan stays nan).

    >>> [round(q, 3) for q in holm([0.01, 0.04, 0.03, float("nan")])]
    [0.03, 0.06, 0.06, nan]
    """
    ps = [float(p) if p is not None else float("nan") for p in pvalues]
    idx = sorted((i for i, p in enumerate(ps) if math.isfinite(p)), key=lambda i: ps[i])
    m = len(idx)
    out = [float("nan")] * len(ps)
    running = 0.0
    for rank, i in enumerate(idx):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def multiple_comparisons_sentence(labels, pvalues, metric: str, alpha: float = 0.05, show: int = 5,
                                  compared: str = "variants are each compared with the reference",
                                  ) -> str | None:
    """What several variants compared with one reference say once their number is counted:
    how many differences clear 95% each, how many survive Holm's correction, and which.
    ``compared`` says what was compared with what.  None for fewer than two comparisons.

    >>> multiple_comparisons_sentence(["a", "b", "c"], [0.001, 0.03, 0.5], "first player score")[:60]
    '3 variants are each compared with the reference on first pla'
    """
    pairs = [(lab, float(p)) for lab, p in zip(labels, pvalues) if p is not None and math.isfinite(p)]
    k = len(pairs)
    if k < 2:
        return None
    raw = [lab for lab, p in pairs if p < alpha]
    adj = holm([p for _, p in pairs])
    kept = [lab for (lab, _), q in zip(pairs, adj) if q < alpha]
    conf = f"{100 * (1 - alpha):g}%"
    head = (f"{k} {compared} on {metric}: each {conf} interval "
            f"holds on its own, so even if no variant changed anything about {alpha * k:.2g} of them "
            f"would show a difference by chance alone. ")
    if not raw:
        return head + f"None of the {k} differs at {conf} even on its own."
    head += f"{len(raw)} of {k} differ at {conf} each; "
    if not kept:
        return head + (f"after Holm's correction for {k} comparisons none remains: no variant can be "
                       f"told from the reference once the number of comparisons is counted.")
    names = ", ".join(f"'{n}'" for n in kept[:show]) + (f" and {len(kept) - show} more" if len(kept) > show
                                                      else "")
    return head + (f"after Holm's correction for {k} comparisons {len(kept)} remain{'s' if len(kept) == 1 else ''} "
                   f"({names}).")


def p_text(p: float) -> str:
    """A p-value as printed: "" where there is none, "< 0.0001" below that (a bare "0" reads
    as certainty, and a p-value rounded to 0 is only very small), else three digits."""
    if p is None or not math.isfinite(p):
        return ""
    return "< 0.0001" if p < 1e-4 else f"{p:.3g}"


def _decimals(x: float) -> int:
    """Decimals that show ``x`` to about four significant figures, at most four."""
    a = abs(x)
    return 1 if a >= 100 else 2 if a >= 10 else 3 if a >= 1 else 4


def value_text(x, rate: bool = False) -> str:
    """A table's value: a rate as a percentage ("51.23%"), else to about four figures
    ("79.84", "163.6", "0.5123"); "" where there is none.

    >>> value_text(0.51234, rate=True), value_text(79.84471), value_text(1630.4), value_text(float("nan"))
    ('51.23%', '79.84', '1,630.4', '')
    """
    if x is None or x != x or x in (float("inf"), float("-inf")):
        return ""
    if rate:
        return f"{100 * x:.2f}%"
    return f"{x:,.{_decimals(x)}f}"


def diff_text(x, rate: bool = False) -> str:
    """A table's difference, always signed: of rates in percentage points ("+7.48 pts";
    under 0.005 points to two significant figures, "+0.0031 pts", never "-0.00"), else to
    about four figures ("+0.0342", "-1.25").

    >>> diff_text(0.0748, rate=True), diff_text(-0.000031, rate=True), diff_text(0.0, rate=True)
    ('+7.48 pts', '-0.0031 pts', '0 pts')
    >>> diff_text(0.03421), diff_text(-1.2512), diff_text(-0.0)
    ('+0.0342', '-1.251', '0')
    """
    if x is None or x != x or x in (float("inf"), float("-inf")):
        return ""
    v = 100 * x if rate else x
    unit = " pts" if rate else ""
    if v == 0:
        return "0" + unit
    if abs(v) < (0.005 if rate else 0.00005):
        return f"{v:+.2g}" + unit
    return f"{v:+,.{2 if rate else _decimals(v)}f}" + unit
