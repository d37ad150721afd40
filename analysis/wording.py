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
    return f"{abs(x):.1f} {unit}" if unit else f"{abs(x):.2f}"


def edge_phrase(d: float, lo: float, hi: float, *, scale: float = 1.0, unit: str = "points",
                up: str = "advantage", down: str = "disadvantage", noun: str = "edge",
                small: float = SMALL, medium: float = MEDIUM, large: float = LARGE) -> str:
    """Words for an edge or a change: ``d`` and its interval times ``scale`` (100 turns a
    difference of rates into percentage points) are judged by :func:`size_of`.

    >>> edge_phrase(0.003, 0.001, 0.005, scale=100)
    'a real but small advantage of 0.3 points: too small to matter in play'
    >>> edge_phrase(-0.004, -0.006, -0.002, scale=100)
    'a real but small disadvantage of 0.4 points: too small to matter in play'
    >>> edge_phrase(0.16, 0.15, 0.17, scale=100)
    'a large advantage of 16.0 points'
    """
    d, lo, hi = d * scale, lo * scale, hi * scale
    kind = size_of(d, lo, hi, small, medium, large)
    ival = f"95% interval {lo:+.1f} to {hi:+.1f}" + (f" {unit}" if unit else "")
    if kind == "none":
        article = "an" if noun[:1] in "aeiou" else "a"
        return (f"no {noun} that matters: the {ival} rules out {article} {noun} of "
                f"{_num(small, unit)} or more")
    if kind == "unclear":
        return (f"no {noun} this run can detect, but it cannot rule one out ({ival}): more "
                f"games would tell")
    word = up if d > 0 else down
    if kind == "negligible":  # the direction too: a first player at 49.6% has no "edge"
        return f"a real but small {word} of {_num(d, unit)}: too small to matter in play"
    if kind == "small":
        return f"a small but real {word} of {_num(d, unit)}"
    if kind == "medium":
        return f"a medium {word} of {_num(d, unit)}"
    return f"a large {word} of {_num(d, unit)}"


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
