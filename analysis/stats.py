"""Small, tested statistics: intervals for proportions and means, variant
comparisons, seat-swapped pairs, sequential tests, ratings and regression.

Proportions: wilson, wilson_array, newcombe_diff, two_proportion_p.
Means: mean_from_sums, paired_mean_diff.  Game pairs: pentanomial.
Elo: elo_from_score, bradley_terry.  SPRT: llr_normal_approx, sprt_bounds, SPRT.
Regression: ols_from_moments.  Only what the analysis calls; no scipy at run time
(tests/test_stats.py checks against it).
"""
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
    # the interval holds the rate even where rounding puts a bound a hair inside it (10 of 10)
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


# ---------------------------------------------------------------------------
# Everything below works from sufficient statistics (counts, sums, sums of
# squares, cross-products) merged over chunks, never from raw rows, and needs
# only numpy and the standard library at run time (no scipy).  Functions accept
# numpy arrays where that makes sense (vectorised over variants / sweep points)
# and return plain Python floats for scalar inputs.
# ---------------------------------------------------------------------------

_SQRT2 = math.sqrt(2.0)
_ELO = 400.0 / math.log(10.0)   # Elo points per natural-log unit of odds
_erfc_ufunc = np.frompyfunc(math.erfc, 1, 1)


def _out(x):
    """Plain float for 0-d results, float64 array otherwise."""
    a = np.asarray(x, dtype=np.float64)
    return float(a) if a.ndim == 0 else a


def _erfc(x):
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 0:
        return np.float64(math.erfc(float(a)))
    return _erfc_ufunc(a).astype(np.float64)


# ---------------------------------------------------------------------------
# Proportions
# ---------------------------------------------------------------------------

def wilson_array(k, n, z: float = Z95):
    """Vectorised :func:`wilson`: (lo, hi) arrays of Wilson score intervals
    (E. B. Wilson, JASA 22 (1927) 209-212); nan where n <= 0."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        z2 = z * z
        den = 1.0 + z2 / n
        centre = (p + z2 / (2 * n)) / den
        half = z * np.sqrt(np.maximum(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / den
        lo = np.where(n > 0, np.maximum(0.0, np.minimum(centre - half, p)), np.nan)
        hi = np.where(n > 0, np.minimum(1.0, np.maximum(centre + half, p)), np.nan)
    return _out(lo), _out(hi)


def newcombe_diff(k1, n1, k2, n2, z: float = Z95):
    """Difference of two independent proportions p1 - p2 with Newcombe's hybrid
    score interval: (diff, lo, hi).

    Method 10 of R. G. Newcombe, "Interval estimation for the difference between
    independent proportions: comparison of eleven methods", Statistics in Medicine
    17 (1998) 873-890: with Wilson intervals (l1, u1) for p1 and (l2, u2) for p2,
        lo = d - sqrt((p1 - l1)^2 + (u2 - p2)^2)
        hi = d + sqrt((u1 - p1)^2 + (p2 - l2)^2).
    k may be fractional (shared wins counted as fractions).  Vectorised.
    For the same seeds (paired games) use :func:`paired_mean_diff` instead.
    """
    k1, n1, k2, n2 = (np.asarray(v, dtype=np.float64) for v in (k1, n1, k2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = k1 / n1
        p2 = k2 / n2
    l1, u1 = wilson_array(k1, n1, z)
    l2, u2 = wilson_array(k2, n2, z)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return _out(d), _out(lo), _out(hi)


def two_proportion_p(k1, n1, k2, n2):
    """Two-sided p-value of the pooled two-proportion z-test of p1 = p2 (unpaired).

    z = (p1 - p2) / sqrt(pbar (1 - pbar) (1/n1 + 1/n2)), pbar = (k1 + k2)/(n1 + n2);
    equivalent to Pearson's chi-square test of the 2x2 table without continuity
    correction (e.g. Agresti, Categorical Data Analysis, 3rd ed., sec. 3.1).
    p = 1 when both proportions are 0 or both 1 (no variance).  Vectorised.
    """
    k1, n1, k2, n2 = (np.asarray(v, dtype=np.float64) for v in (k1, n1, k2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        pbar = (k1 + k2) / (n1 + n2)
        se = np.sqrt(pbar * (1 - pbar) * (1.0 / n1 + 1.0 / n2))
        zs = (k1 / n1 - k2 / n2) / se
    p = np.where(se > 0, _erfc(np.abs(zs) / _SQRT2), 1.0)
    p = np.where((n1 > 0) & (n2 > 0), p, np.nan)
    return _out(p)


# ---------------------------------------------------------------------------
# Means from sums
# ---------------------------------------------------------------------------

def mean_from_sums(n, sum_x, sum_x2, z: float = Z95) -> dict:
    """Mean, SD (n-1 divisor) and normal-approximation interval from n, sum x, sum x^2:
    dict(mean, sd, se, lo, hi, n).  Same numbers as :func:`mean_ci` on the raw data.

    Accumulate sums in float64 (or exact integers); the variance is
    (sum x^2 - (sum x)^2 / n) / (n - 1), clamped at 0 against rounding.  Vectorised.
    """
    n = np.asarray(n, dtype=np.float64)
    s = np.asarray(sum_x, dtype=np.float64)
    s2 = np.asarray(sum_x2, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(n > 0, s / n, np.nan)
        ss = np.maximum(s2 - s * mean, 0.0)
        var = np.where(n > 1, ss / (n - 1), np.nan)
        sd = np.sqrt(var)
        se = sd / np.sqrt(n)
    return {"mean": _out(mean), "sd": _out(sd), "se": _out(se),
            "lo": _out(mean - z * se), "hi": _out(mean + z * se), "n": _out(n)}


def paired_mean_diff(n, sum_d, sum_d2, z: float = Z95) -> dict:
    """Mean of paired per-game differences d_i = x_i(variant) - x_i(base) on the
    same seeds, from n, sum d, sum d^2: dict(mean, sd, se, lo, hi, z, p, n).

    Method: one-sample z-test / normal-approximation interval on the differences
    (the paired t-test with the normal in place of Student's t, which is what
    the t-test tends to for the thousands of games a run plays):
    sd^2 = (sum d^2 - (sum d)^2/n)/(n - 1), se = sd/sqrt n, mean +- z se,
    p = 2 (1 - Phi(|mean/se|)).  When every difference is equal (se = 0, common
    under common random numbers) p = 1 if the mean is 0 and 0 otherwise.
    Reference: e.g. Rice, Mathematical Statistics and Data Analysis, 3rd ed., 11.3.
    Vectorised.
    """
    r = mean_from_sums(n, sum_d, sum_d2, z)
    mean = np.asarray(r["mean"])
    se = np.asarray(r["se"])
    with np.errstate(divide="ignore", invalid="ignore"):
        zs = np.where(se > 0, mean / se, np.where(mean == 0, 0.0, np.sign(mean) * np.inf))
    p = np.where(np.isnan(se), np.nan, _erfc(np.abs(zs) / _SQRT2))
    r["z"] = _out(zs)
    r["p"] = _out(p)
    return r


# ---------------------------------------------------------------------------
# Seat-swapped game pairs: the pentanomial model
# ---------------------------------------------------------------------------

_PENTA_VALUES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


def pentanomial(counts, z: float = Z95) -> dict:
    """Score of a candidate over seat-swapped game pairs, from pentanomial counts.

    counts[0..4] = number of pairs in which the candidate (a variant, a bot, or a
    seat of interest) scored 0, 0.5, 1, 1.5, 2 points over the two games of the
    pair (win 1, draw 0.5), i.e. fishtest's LL, LD+DL, LW+DD+WL, DW+WD, WW.
    Typical reducer: ``np.bincount(np.rint(2*(s_a + s_b)).astype(int), minlength=5)``.

    Method (fishtest, server/fishtest/stats/LLRcalc.py: results_to_pdf, stats;
    M. Van den Bergh, "Pentanomial model" notes): each pair is one observation
    a_i = i/4 in [0, 1] (its mean score per game); score = sum c_i a_i / N,
    var = sum c_i (a_i - score)^2 / N (per pair, divisor N as in fishtest),
    se = sqrt(var / N), interval score +- z se, and p the two-sided normal p-value
    of score = 0.5.  Pairing removes the seat (and shared-seed) luck common to
    both games, so the interval is narrower than treating the 2N games as
    independent whenever the two games of a pair are correlated.

    Returns dict(score, var, se, lo, hi, z, p, n_pairs, games, elo, elo_lo, elo_hi);
    elo* are the logistic Elo equivalents (:func:`elo_from_score`).
    counts may have a leading batch shape (..., 5).
    """
    c = np.asarray(counts, dtype=np.float64)
    if c.shape[-1] != 5:
        raise ValueError(f"pentanomial counts need 5 entries (pairs scoring 0, 0.5, 1, 1.5, 2), got shape {c.shape}")
    if (c < 0).any():
        raise ValueError("pentanomial counts must be non-negative")
    N = c.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (c @ _PENTA_VALUES) / N
        var = (c * (_PENTA_VALUES - score[..., None]) ** 2).sum(axis=-1) / N
        se = np.sqrt(var / N)
        zs = np.where(se > 0, (score - 0.5) / se,
                      np.where(score == 0.5, 0.0, np.sign(score - 0.5) * np.inf))
    p = np.where(N > 0, _erfc(np.abs(zs) / _SQRT2), np.nan)
    lo = np.clip(score - z * se, 0.0, 1.0)
    hi = np.clip(score + z * se, 0.0, 1.0)
    return {"score": _out(score), "var": _out(var), "se": _out(se), "lo": _out(lo), "hi": _out(hi),
            "z": _out(zs), "p": _out(p), "n_pairs": _out(N), "games": _out(2 * N),
            "elo": elo_from_score(score), "elo_lo": elo_from_score(lo), "elo_hi": elo_from_score(hi)}


# ---------------------------------------------------------------------------
# Elo
# ---------------------------------------------------------------------------

def elo_from_score(score):
    """Logistic Elo difference for an expected score s in (0, 1): 400 log10(s / (1 - s))
    (-inf at 0, +inf at 1).  Vectorised."""
    s = np.asarray(score, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = 400.0 * (np.log10(s) - np.log10(1.0 - s))
    return _out(e)


# ---------------------------------------------------------------------------
# Sequential probability ratio tests
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Bradley-Terry ratings
# ---------------------------------------------------------------------------

def _strongly_connected(adj: np.ndarray) -> bool:
    k = adj.shape[0]
    reach = adj | np.eye(k, dtype=bool)
    for _ in range(max(1, int(math.ceil(math.log2(max(k, 2)))) + 1)):
        reach = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
    return bool(reach.all())


def bradley_terry(wins, games, prior: float = 0.0, z: float = Z95, tol: float = 1e-12,
                  max_iter: int = 100000, names=None) -> dict:
    """Bradley-Terry ratings on the Elo scale with standard errors and intervals.

    wins[i, j]: (fractional, a draw is half a win) wins of bot i over bot j;
    games[i, j]: games played between i and j (symmetric, zero diagonal), so
    wins[i, j] + wins[j, i] == games[i, j].  Model: P(i beats j) =
    g_i / (g_i + g_j), rating_i = 400 log10(g_i) (so a 400-point gap is 10:1 odds,
    as in Elo; 1 / (1 + 10^(-d/400)) of a rating difference d is the predicted score).

    Method: the MM algorithm of D. R. Hunter, "MM algorithms for generalized
    Bradley-Terry models", Ann. Statist. 32 (2004) 384-406:
    g_i <- W_i / sum_j n_ij / (g_i + g_j), renormalised each step, iterated until
    the largest change of log g is below `tol`, then two Newton steps to polish.
    Ratings are anchored so that their mean is 0.  Standard errors come from the
    Fisher information of theta = log g, I_ii = sum_j n_ij p_ij p_ji,
    I_ij = -n_ij p_ij p_ji (for this model the observed and expected information
    coincide); I is singular along the all-ones direction (only differences are
    identified), and its Moore-Penrose pseudo-inverse is the covariance of the
    mean-zero anchored estimates.  Intervals: rating +- z se (normal approximation).
    ``cov`` (Elo^2) gives the SE of any difference: var(r_i - r_j) = C_ii + C_jj - 2 C_ij.

    The maximum-likelihood ratings exist only if every bot both wins against and
    loses against some other bot in a chain (Hunter's condition: the "i beat j"
    graph is strongly connected); otherwise a ValueError names the problem.
    ``prior`` > 0 adds that many virtual games, drawn, between every pair of bots
    (a shrinkage prior that makes the ratings always finite).

    Returns dict(ratings, se, lo, hi, cov, iterations, converged, log_likelihood).
    """
    W = np.array(wins, dtype=np.float64)
    G = np.array(games, dtype=np.float64)
    if W.ndim != 2 or W.shape[0] != W.shape[1] or G.shape != W.shape:
        raise ValueError(f"wins and games must be square matrices of the same shape, got {W.shape} and {G.shape}")
    k = W.shape[0]
    if k < 2:
        raise ValueError("Bradley-Terry needs at least two bots")
    label = (lambda i: str(names[i])) if names is not None else (lambda i: f"bot {i}")
    if (W < 0).any() or (G < 0).any():
        raise ValueError("wins and games must be non-negative")
    if np.any(np.diag(G) != 0) or np.any(np.diag(W) != 0):
        raise ValueError("the diagonals of wins and games must be zero (a bot does not play itself)")
    if not np.allclose(G, G.T, rtol=1e-9, atol=1e-9):
        raise ValueError("games must be symmetric: games[i, j] counts all games between i and j "
                         "(add the matrix to its transpose if it counts one seat order)")
    if not np.allclose(W + W.T, G, rtol=1e-9, atol=1e-6):
        raise ValueError("wins[i, j] + wins[j, i] must equal games[i, j] (count a draw as half a win each)")
    if prior > 0:
        off = 1.0 - np.eye(k)
        W = W + 0.5 * prior * off
        G = G + prior * off
    elif not _strongly_connected(W > 0):
        total = W.sum(axis=1)
        lost = W.sum(axis=0)
        bad = [label(i) for i in range(k) if total[i] <= 0 or lost[i] <= 0]
        what = (f"{', '.join(bad)} won all or none of its games" if bad else
                "the bots split into groups one of which never lost to the other")
        raise ValueError(f"Bradley-Terry ratings do not exist (they would be infinite): {what}; "
                         f"play more games or pass prior > 0")
    w_tot = W.sum(axis=1)
    theta = np.zeros(k)
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        g = np.exp(theta)
        den = (G / (g[:, None] + g[None, :])).sum(axis=1)
        new = np.log(w_tot / den)
        new -= new.mean()
        change = float(np.max(np.abs(new - theta)))
        theta = new
        if change < tol:
            converged = True
            break

    def info(th):
        P = 1.0 / (1.0 + np.exp(th[None, :] - th[:, None]))     # P[i, j] = p_ij
        M = G * P * P.T
        return P, np.diag(M.sum(axis=1)) - M

    for _ in range(2):      # Newton polish (gradient W_i - sum_j n_ij p_ij)
        P, I = info(theta)
        grad = w_tot - (G * P).sum(axis=1)
        theta = theta + np.linalg.pinv(I, hermitian=True) @ grad
        theta -= theta.mean()
    P, I = info(theta)
    cov = np.linalg.pinv(I, hermitian=True) * _ELO ** 2
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    r = theta * _ELO
    with np.errstate(divide="ignore"):
        ll = float(np.sum(np.where(W > 0, W * np.log(P), 0.0)))
    return {"ratings": r, "se": se, "lo": r - z * se, "hi": r + z * se, "cov": cov,
            "iterations": it, "converged": converged, "log_likelihood": ll}


# ---------------------------------------------------------------------------
# Least squares from moments
# ---------------------------------------------------------------------------

class SingularDesignError(ValueError):
    """X'X is singular: some columns of the design are linearly dependent."""


def ols_from_moments(XtX, Xty, yty, n, intercept: int | None = 0, singular: str = "raise",
                     names=None, z: float = Z95, rcond: float = 1e-10) -> dict:
    """Ordinary least squares from the cross-product moments X'X, X'y, y'y and n.

    The caller includes the intercept column (a column of ones) in X, by default
    as column 0 (``intercept=0``; X'y[intercept] is then sum y, used for the
    centred R^2; ``intercept=None`` gives the uncentred R^2 = 1 - RSS / y'y).

    Method: normal equations.  X'X is first scaled to unit diagonal
    (D X'X D, D = diag(X'X)^-1/2) and eigendecomposed; eigenvalues below
    rcond * the largest count as zero.  beta = (X'X)^-1 X'y,
    RSS = y'y - 2 beta'X'y + beta'X'X beta, sigma^2 = RSS / (n - rank),
    Cov(beta) = sigma^2 (X'X)^-1, intervals beta +- z se and two-sided p-values
    from the normal approximation (appropriate for the thousands of games a run
    plays; with few observations Student's t would be wider).  Reference: e.g.
    Greene, Econometric Analysis, ch. 3-4; forming X'X squares the condition
    number, so keep the columns on comparable scales.

    Singular X'X (a constant count column besides the intercept, counts that
    always sum to a constant, a column of zeros): with ``singular="raise"``
    (default) a :class:`SingularDesignError` names the columns involved; with
    ``singular="pinv"`` the generalised inverse D (D X'X D)^+ D is used: a
    least-squares solution (minimum norm in the scaled coordinates) whose fitted
    values, RSS and R^2 are exact, but whose coefficients of the dependent
    columns are not individually meaningful; df uses the rank.

    Returns dict(coef, se, lo, hi, z, p, cov, r2, adj_r2, sigma, rss, df_resid, rank, n).
    """
    A = np.array(XtX, dtype=np.float64)
    b = np.asarray(Xty, dtype=np.float64).reshape(-1)
    k = A.shape[0]
    if A.shape != (k, k) or b.shape != (k,):
        raise ValueError(f"X'X must be square and X'y match it, got {A.shape} and {b.shape}")
    if not np.allclose(A, A.T, rtol=1e-10, atol=0):
        raise ValueError("X'X must be symmetric")
    if singular not in ("raise", "pinv"):
        raise ValueError("singular must be 'raise' or 'pinv'")
    label = (lambda i: str(names[i])) if names is not None else (lambda i: f"column {i}")
    n = float(n)
    if intercept is not None and not math.isclose(A[intercept, intercept], n, rel_tol=1e-9):
        raise ValueError(f"{label(intercept)} is not an intercept (a column of ones): "
                         f"X'X[{intercept},{intercept}] = {A[intercept, intercept]:g} but n = {n:g}")
    diag = np.diag(A).copy()
    dscale = np.where(diag > 0, 1.0 / np.sqrt(np.where(diag > 0, diag, 1.0)), 0.0)
    S = A * dscale[:, None] * dscale[None, :]
    w, V = np.linalg.eigh(S)
    wmax = max(float(w.max()), 0.0)
    keep = w > rcond * wmax if wmax > 0 else np.zeros(k, dtype=bool)
    rank = int(keep.sum())
    if rank < k and singular == "raise":
        zero = [label(i) for i in range(k) if diag[i] <= 0]
        if zero:
            what = f"{', '.join(zero)} {'is' if len(zero) == 1 else 'are'} all zero"
        else:
            v = V[:, int(np.argmin(w))]
            cols = [label(i) for i in np.flatnonzero(np.abs(v) > 0.1 * np.abs(v).max())]
            what = f"{', '.join(cols)} are linearly dependent (a constant or a fixed sum)"
        raise SingularDesignError(f"X'X is singular (rank {rank} of {k}): {what}; drop a column "
                                  f"or pass singular='pinv'")
    inv_w = np.where(keep, 1.0 / np.where(keep, w, 1.0), 0.0)
    Sinv = (V * inv_w) @ V.T
    Ainv = Sinv * dscale[:, None] * dscale[None, :]
    beta = Ainv @ b
    rss = max(float(yty) - 2.0 * float(beta @ b) + float(beta @ A @ beta), 0.0)
    df = n - rank
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma2 = rss / df if df > 0 else float("nan")
        cov = sigma2 * Ainv
        se = np.sqrt(np.maximum(np.diag(cov), 0.0))
        zs = beta / se
        if intercept is not None:
            tss = float(yty) - b[intercept] ** 2 / n
            r2 = 1.0 - rss / tss if tss > 0 else float("nan")
            adj = 1.0 - (1.0 - r2) * (n - 1) / df if df > 0 else float("nan")
        else:
            r2 = 1.0 - rss / float(yty) if yty > 0 else float("nan")
            adj = 1.0 - (1.0 - r2) * n / df if df > 0 else float("nan")
    p = _erfc(np.abs(zs) / _SQRT2)
    return {"coef": beta, "se": se, "lo": beta - z * se, "hi": beta + z * se, "z": zs, "p": p,
            "cov": cov, "r2": r2, "adj_r2": adj, "sigma": math.sqrt(sigma2) if sigma2 == sigma2 else sigma2,
            "rss": rss, "df_resid": df, "rank": rank, "n": n}
