"""The sequential probability ratio test of ``sim compare --sprt``: the log-likelihood ratio
of a paired difference (normal approximation), its bounds from alpha and beta, and the
streaming test over chunks."""
from __future__ import annotations

import math

import numpy as np

from .stats import _PENTA_VALUES, _out


def llr_normal_approx(mean, var, n, mu0, mu1):
    """Generalised SPRT log-likelihood ratio of mu = mu1 against mu = mu0 for n
    observations with sample mean `mean` and (per-observation) variance `var`,
    normal approximation: n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 var).

    This is fishtest's LLR (server/fishtest/stats/LLRcalc.py, LLR_logistic, times N;
    M. Van den Bergh, "A comment on the SPRT", 2017): the log ratio of two normal
    likelihoods with the variance replaced by its estimate.  Vectorised."""
    mean, var, n, mu0, mu1 = (np.asarray(v, dtype=np.float64) for v in (mean, var, n, mu0, mu1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return _out(n * (mu1 - mu0) * (2.0 * mean - mu0 - mu1) / (2.0 * var))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's SPRT stopping bounds (lower, upper) = (log(beta/(1-alpha)), log((1-beta)/alpha)):
    accept H0 when LLR <= lower, H1 when LLR >= upper (A. Wald, "Sequential tests of
    statistical hypotheses", Ann. Math. Statist. 16 (1945) 117-186)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError(f"SPRT needs 0 < alpha, beta and alpha + beta < 1 (got alpha={alpha}, beta={beta})")
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


class SPRT:
    """Two-sided sequential test: "no difference beyond +-d" (H0) against "a
    difference of at least d" (H1), from cumulative sufficient statistics.

    The effect delta is
      kind="bernoulli":   p - p0, p a (win) rate of independent games, e.g. the
                          first-player win rate against p0 = 0.5.
                          ``update(k, n)``: k wins (fractional for shared wins) in n games.
      kind="pentanomial": score - 1/2 of a candidate over seat-swapped game pairs.
                          ``update(counts)``: the 5 pentanomial counts (see :func:`pentanomial`).
      kind="paired":      mean of per-game differences d_i = x_i(variant) - x_i(base)
                          on the same seeds, e.g. d_i in {-1, 0, 1} for "first player
                          won" (the natural kind for comparing two variants' rates).
                          ``update(n, sum_d, sum_d2)``.

    Formulation.  Two one-sided Wald SPRTs run side by side (the Sobel-Wald
    construction: M. Sobel and A. Wald, Ann. Math. Statist. 20 (1949) 502-522):
      "+" test: delta = 0 against delta = +d,     "-" test: delta = 0 against delta = -d,
    each with bounds ``sprt_bounds(alpha/2, beta)`` = (lower, upper).  Each one-sided
    test stops (its verdict is latched) the first time its LLR reaches lower
    (verdict H0) or upper (verdict H1).  The combined decision is
      "H1" as soon as either one-sided test reaches its upper bound
           (``direction`` = +1 or -1 tells which side);
      "H0" once both one-sided tests have reached their lower bounds;
      None otherwise (keep playing).
    Error rates (Wald's inequalities, overshoot makes them conservative):
    P(decide H1 | delta = 0) <= alpha/2 + alpha/2 = alpha, and
    P(decide H0 | delta = +-d) <= beta.  Values 0 < |delta| < d are an
    indifference zone (either decision is acceptable there), exactly as
    fishtest's elo0/elo1.  The decision is final once made; later updates still
    refresh the LLRs for display.  Crossings are checked only at updates, so
    updating per chunk rather than per game is slightly conservative.

    LLRs: bernoulli uses the exact binomial LLR (:func:`llr_bernoulli`) with
    p1 = p0 +- d (needs 0 < p0 - d and p0 + d < 1); pentanomial and paired use
    the normal-approximation GSPRT (:func:`llr_normal_approx`, fishtest's method)
    with the variance estimated from the data (divisor n), pentanomial counts
    regularised as fishtest does (a zero count counts as 1e-3), paired variance
    floored at 1e-12.  Because the estimated variance is unreliable on a handful
    of observations, the normal kinds take no decision before ``min_n``
    observations (pairs for pentanomial; default 30; 0 for bernoulli).

    Attributes: llr (the larger of the two one-sided LLRs: the evidence for a
    difference), llr_pos, llr_neg, lower, upper, n, estimate (current delta),
    decision, direction, verdict_pos, verdict_neg.
    """

    KINDS = ("bernoulli", "pentanomial", "paired")

    def __init__(self, d: float, alpha: float = 0.05, beta: float = 0.05, kind: str = "bernoulli",
                 p0: float = 0.5, min_n: int | None = None):
        if kind not in self.KINDS:
            raise ValueError(f"SPRT kind must be one of {', '.join(self.KINDS)}, not {kind!r}")
        if not d > 0:
            raise ValueError(f"SPRT needs a difference d > 0 (got {d})")
        if kind == "bernoulli" and not (0.0 < p0 - d and p0 + d < 1.0):
            raise ValueError(f"SPRT bernoulli needs 0 < p0 - d and p0 + d < 1 (got p0={p0}, d={d})")
        if kind == "pentanomial" and d >= 0.5:
            raise ValueError(f"SPRT pentanomial needs d < 0.5 (a score difference), got {d}")
        self.d, self.alpha, self.beta, self.kind, self.p0 = float(d), float(alpha), float(beta), kind, float(p0)
        self.lower, self.upper = sprt_bounds(alpha / 2.0, beta)
        self.min_n = (0 if kind == "bernoulli" else 30) if min_n is None else int(min_n)
        p = self.p0
        self._bern = ((math.log((p + d) / p), math.log((1 - p - d) / (1 - p))),
                      (math.log((p - d) / p), math.log((1 - p + d) / (1 - p)))) if kind == "bernoulli" else None
        self.n = 0.0
        self.estimate = float("nan")
        self.llr_pos = 0.0
        self.llr_neg = 0.0
        self.verdict_pos: str | None = None
        self.verdict_neg: str | None = None
        self.decision: str | None = None
        self.direction = 0

    @property
    def llr(self) -> float:
        return max(self.llr_pos, self.llr_neg)

    def _llrs(self, args):
        d = self.d
        if self.kind == "bernoulli":
            if len(args) != 2:
                raise TypeError("SPRT(kind='bernoulli').update(k, n): cumulative wins and games")
            k, n = float(args[0]), float(args[1])
            if n <= 0:
                return 0.0, 0.0, n, float("nan")
            (a1, b1), (a2, b2) = self._bern      # llr_bernoulli, inlined for speed
            return k * a1 + (n - k) * b1, k * a2 + (n - k) * b2, n, k / n - self.p0
        if self.kind == "pentanomial":
            if len(args) != 1:
                raise TypeError("SPRT(kind='pentanomial').update(counts): the 5 cumulative pair counts")
            c = np.asarray(args[0], dtype=np.float64)
            if c.shape != (5,):
                raise ValueError(f"pentanomial counts need 5 entries, got shape {c.shape}")
            n = float(c.sum())
            if n <= 0:
                return 0.0, 0.0, n, float("nan")
            creg = np.where(c == 0, 1e-3, c)                 # fishtest's regularize()
            nreg = creg.sum()
            s = float(creg @ _PENTA_VALUES / nreg)
            var = float(creg @ (_PENTA_VALUES - s) ** 2 / nreg)
            est = float(c @ _PENTA_VALUES / n) - 0.5
            return (llr_normal_approx(s, var, n, 0.5, 0.5 + d), llr_normal_approx(s, var, n, 0.5, 0.5 - d),
                    n, est)
        if len(args) != 3:
            raise TypeError("SPRT(kind='paired').update(n, sum_d, sum_d2): cumulative sufficient statistics")
        n, s, s2 = (float(a) for a in args)
        if n <= 0:
            return 0.0, 0.0, n, float("nan")
        m = s / n
        var = max(s2 / n - m * m, 1e-12)
        return n * d * (2 * m - d) / (2 * var), -n * d * (2 * m + d) / (2 * var), n, m

    def update(self, *args):
        """Feed the cumulative statistics so far (see the class docstring for each kind);
        returns the decision (None, "H0" or "H1")."""
        self.llr_pos, self.llr_neg, self.n, self.estimate = self._llrs(args)
        if self.decision is not None or self.n < self.min_n:
            return self.decision
        for side in ("pos", "neg"):
            if getattr(self, "verdict_" + side) is None:
                v = getattr(self, "llr_" + side)
                if v >= self.upper:
                    setattr(self, "verdict_" + side, "H1")
                elif v <= self.lower:
                    setattr(self, "verdict_" + side, "H0")
        if self.verdict_pos == "H1" or self.verdict_neg == "H1":
            self.decision = "H1"
            self.direction = 1 if self.verdict_pos == "H1" else -1
        elif self.verdict_pos == "H0" and self.verdict_neg == "H0":
            self.decision = "H0"
        return self.decision

    def status(self) -> str:
        """One line for progress output."""
        dec = {None: "continue", "H0": f"H0: no difference beyond +-{self.d:g}",
               "H1": f"H1: difference of at least {'+' if self.direction > 0 else '-'}{self.d:g}"}[self.decision]
        return (f"n={self.n:g} estimate={self.estimate:+.4f} LLR(+d)={self.llr_pos:.3f} "
                f"LLR(-d)={self.llr_neg:.3f} bounds [{self.lower:.3f}, {self.upper:.3f}] {dec}")

    def __repr__(self) -> str:
        return f"SPRT(d={self.d:g}, alpha={self.alpha:g}, beta={self.beta:g}, kind={self.kind!r}) {self.status()}"
