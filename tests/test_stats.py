"""analysis.stats against textbook values, scipy.stats, and simulation.

scipy is used here only as the reference; the package itself must not import it.
Every simulation uses numpy's Generator with a fixed seed, so the tests are
deterministic; tolerances are several standard errors wide.
"""
from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from scipy import optimize
from scipy import stats as st

from analysis import sprt as SP
from analysis import stats as S

ELO = 400.0 / math.log(10.0)


# ---------------------------------------------------------------------------
# the package itself
# ---------------------------------------------------------------------------

def test_package_does_not_import_scipy():
    code = "import sys, analysis.stats; print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------
# the textbook formulas the analysis code is checked against (used by tests only)
# ---------------------------------------------------------------------------

def ols_moments(X, y):
    """(X'X, X'y, y'y, n) of one chunk of a regression."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    return X.T @ X, X.T @ y, float(y @ y), int(y.shape[0])


def score_from_elo(elo):
    """Expected score of a player rated `elo` points above the opponent:
    1 / (1 + 10^(-elo/400)).  Vectorised."""
    e = np.asarray(elo, dtype=np.float64)
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.power(10.0, -e / 400.0))


def _wald_oc_asn(h, mean_z, var_z, lower, upper):
    """Wald's approximations from the root h != 0 of E[exp(h z)] = 1."""
    if abs(h) < 1e-9:   # boundary case mean_z == 0
        return (upper / (upper - lower), -lower * upper / var_z)
    ea, eb = math.exp(h * lower), math.exp(h * upper)
    oc = (eb - 1.0) / (eb - ea)                     # probability of accepting H0
    asn = (oc * lower + (1.0 - oc) * upper) / mean_z
    return oc, asn


def wald_oc_asn_normal(theta, var, mu0, mu1, alpha, beta):
    """Wald's approximate operating characteristic and average sample number of the
    one-sided normal SPRT of mu0 vs mu1 (bounds :func:`sprt_bounds`) when the true
    mean is theta and the per-observation variance var: (P(accept H0), E[n]).

    Per observation the LLR grows by z ~ N(m, s^2), m = (mu1-mu0)(2 theta-mu0-mu1)/(2 var),
    s^2 = (mu1-mu0)^2/var; h = -2m/s^2; OC = (e^{hB}-1)/(e^{hB}-e^{hA}),
    ASN = (OC A + (1-OC) B)/m (Wald 1945; overshoot ignored, so the true ASN is a
    little larger)."""
    lower, upper = SP.sprt_bounds(alpha, beta)
    m = (mu1 - mu0) * (2 * theta - mu0 - mu1) / (2 * var)
    s2 = (mu1 - mu0) ** 2 / var
    return _wald_oc_asn(-2 * m / s2, m, s2, lower, upper)


def wald_oc_asn_bernoulli(p, p0, p1, alpha, beta):
    """Wald's approximate OC and ASN of the one-sided Bernoulli SPRT of p0 vs p1 when the
    true success probability is p: (P(accept H0), E[n]).  h solves
    p (p1/p0)^h + (1-p) ((1-p1)/(1-p0))^h = 1 (bisection)."""
    lower, upper = SP.sprt_bounds(alpha, beta)
    a, b = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    mean_z = p * a + (1 - p) * b
    var_z = p * (1 - p) * (a - b) ** 2
    if abs(mean_z) < 1e-15:
        return _wald_oc_asn(0.0, mean_z, var_z, lower, upper)
    def f(h):
        return p * math.exp(h * a) + (1 - p) * math.exp(h * b) - 1.0
    # the nonzero root has the sign opposite to mean_z
    lo, hi = (1e-9, 1.0) if mean_z < 0 else (-1.0, -1e-9)
    while f(hi if mean_z < 0 else lo) < 0:
        if mean_z < 0:
            hi *= 2
        else:
            lo *= 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if (f(mid) < 0) == (mean_z < 0):
            lo = mid
        else:
            hi = mid
    return _wald_oc_asn(0.5 * (lo + hi), mean_z, var_z, lower, upper)


# ---------------------------------------------------------------------------
# proportions
# ---------------------------------------------------------------------------

CASES = [(0, 10), (1, 10), (5, 10), (10, 10), (3, 17), (56, 70), (481, 1000), (12345, 20000), (0, 1), (1, 1)]


@pytest.mark.parametrize("k,n", CASES)
def test_wilson_matches_scipy(k, n):
    ci = st.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = S.wilson(k, n)
    assert lo == pytest.approx(ci.low, abs=1e-12) and hi == pytest.approx(ci.high, abs=1e-12)
    alo, ahi = S.wilson_array(k, n)
    assert alo == pytest.approx(lo, abs=1e-15) and ahi == pytest.approx(hi, abs=1e-15)


def test_wilson_array_vectorised_and_empty():
    k = np.array([0, 3, 7, 5])
    n = np.array([10, 10, 10, 0])
    lo, hi = S.wilson_array(k, n)
    for i in range(3):
        assert (lo[i], hi[i]) == pytest.approx(S.wilson(k[i], n[i]), abs=1e-15)
    assert math.isnan(lo[3]) and math.isnan(hi[3])


# Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10 (score, no CC)
NEWCOMBE_TABLE_II = [
    ((56, 70, 48, 80), (0.0524, 0.3339)),     # (a)
    ((9, 10, 3, 10), (0.1705, 0.8090)),       # (b)
    ((5, 56, 0, 29), (-0.0381, 0.1926)),      # (d)
    ((0, 10, 0, 20), (-0.1611, 0.2775)),      # (e)
    ((0, 10, 0, 10), (-0.2775, 0.2775)),      # (f)
    ((10, 10, 0, 20), (0.6791, 1.0000)),      # (g)
    ((10, 10, 0, 10), (0.6075, 1.0000)),      # (h)
]


@pytest.mark.parametrize("args,expected", NEWCOMBE_TABLE_II)
def test_newcombe_table_ii(args, expected):
    d, lo, hi = S.newcombe_diff(*args)
    k1, n1, k2, n2 = args
    assert d == pytest.approx(k1 / n1 - k2 / n2)
    assert round(lo, 4) == pytest.approx(expected[0], abs=1e-12)
    assert round(hi, 4) == pytest.approx(expected[1], abs=1e-12)


def test_newcombe_from_scipy_wilson_and_vectorised():
    k1 = np.array([6, 30, 400, 1])
    n1 = np.array([7, 50, 1000, 3])
    k2 = np.array([2, 25, 370, 2])
    n2 = np.array([7, 60, 1000, 9])
    d, lo, hi = S.newcombe_diff(k1, n1, k2, n2)
    for i in range(4):
        c1 = st.binomtest(int(k1[i]), int(n1[i])).proportion_ci(method="wilson")
        c2 = st.binomtest(int(k2[i]), int(n2[i])).proportion_ci(method="wilson")
        p1, p2 = k1[i] / n1[i], k2[i] / n2[i]
        assert lo[i] == pytest.approx(p1 - p2 - math.hypot(p1 - c1.low, c2.high - p2), abs=1e-12)
        assert hi[i] == pytest.approx(p1 - p2 + math.hypot(c1.high - p1, p2 - c2.low), abs=1e-12)
        assert S.newcombe_diff(int(k1[i]), int(n1[i]), int(k2[i]), int(n2[i]))[1] == pytest.approx(lo[i])


@pytest.mark.parametrize("k1,n1,k2,n2", [(56, 70, 48, 80), (9, 10, 3, 10), (480, 1000, 520, 1000),
                                         (3, 200, 11, 150), (5000, 10000, 5100, 10000)])
def test_two_proportion_p_matches_chi2(k1, n1, k2, n2):
    table = [[k1, n1 - k1], [k2, n2 - k2]]
    ref = st.chi2_contingency(table, correction=False).pvalue
    assert S.two_proportion_p(k1, n1, k2, n2) == pytest.approx(ref, rel=1e-10)


def test_two_proportion_p_degenerate_and_vectorised():
    assert S.two_proportion_p(0, 10, 0, 20) == 1.0
    assert S.two_proportion_p(10, 10, 20, 20) == 1.0
    assert math.isnan(S.two_proportion_p(1, 0, 1, 10))
    p = S.two_proportion_p(np.array([56, 9]), np.array([70, 10]), np.array([48, 3]), np.array([80, 10]))
    assert p[0] == pytest.approx(S.two_proportion_p(56, 70, 48, 80))
    assert p[1] == pytest.approx(S.two_proportion_p(9, 10, 3, 10))


def test_wilson_interval_covers_known_win_rate_95_percent():
    rng = np.random.default_rng(20261129)
    p_true, n, reps = 0.37, 150, 2000
    k = rng.binomial(n, p_true, size=reps)
    lo, hi = S.wilson_array(k, n)
    coverage = np.mean((lo <= p_true) & (p_true <= hi))
    assert 0.93 <= coverage <= 0.97, coverage


def test_newcombe_interval_covers_known_difference_95_percent():
    rng = np.random.default_rng(7)
    p1, p2, n1, n2, reps = 0.55, 0.48, 300, 250, 2000
    d, lo, hi = S.newcombe_diff(rng.binomial(n1, p1, reps), n1, rng.binomial(n2, p2, reps), n2)
    coverage = np.mean((lo <= p1 - p2) & (p1 - p2 <= hi))
    assert 0.93 <= coverage <= 0.97, coverage


# ---------------------------------------------------------------------------
# means from sums, paired differences
# ---------------------------------------------------------------------------

def _sums(x):
    x = np.asarray(x, dtype=np.float64)
    return x.size, x.sum(), (x * x).sum()


def test_mean_from_sums_equals_the_interval_on_raw_data():
    x = np.random.default_rng(3).gamma(3.0, 10.0, size=777)
    r = S.mean_from_sums(*_sums(x))
    m = x.mean()
    lo, hi = m - S.Z95 * st.sem(x), m + S.Z95 * st.sem(x)
    assert r["mean"] == pytest.approx(m, rel=1e-13)
    assert r["lo"] == pytest.approx(lo, rel=1e-12) and r["hi"] == pytest.approx(hi, rel=1e-12)
    assert r["sd"] == pytest.approx(x.std(ddof=1), rel=1e-12)
    assert r["se"] == pytest.approx(st.sem(x), rel=1e-12)


def test_paired_mean_diff_matches_ttest_statistic():
    rng = np.random.default_rng(11)
    base = rng.integers(0, 2, size=5000)
    variant = np.where(rng.random(5000) < 0.9, base, rng.integers(0, 2, size=5000))  # mostly equal (CRN)
    variant[:60] = 1
    d = variant - base
    r = S.paired_mean_diff(*_sums(d))
    t = st.ttest_1samp(d, 0.0)
    assert r["mean"] == pytest.approx(d.mean(), rel=1e-12)
    assert r["sd"] == pytest.approx(d.std(ddof=1), rel=1e-12)
    assert r["z"] == pytest.approx(t.statistic, rel=1e-10)
    assert r["p"] == pytest.approx(2 * st.norm.sf(abs(t.statistic)), rel=1e-10)
    assert r["p"] == pytest.approx(t.pvalue, rel=0.02)          # t ~ normal at n = 5000
    assert r["lo"] == pytest.approx(d.mean() - S.Z95 * st.sem(d), rel=1e-10)
    assert r["hi"] == pytest.approx(d.mean() + S.Z95 * st.sem(d), rel=1e-10)


def test_paired_mean_diff_degenerate_cases():
    same = S.paired_mean_diff(1000, 0.0, 0.0)       # identical games on every seed
    assert same["mean"] == 0 and same["p"] == 1.0 and same["lo"] == 0 and same["hi"] == 0
    shifted = S.paired_mean_diff(100, 100.0, 100.0)  # every difference is +1
    assert shifted["p"] == 0.0 and shifted["lo"] == 1.0
    one = S.paired_mean_diff(1, 0.5, 0.25)
    assert one["mean"] == 0.5 and math.isnan(one["p"]) and math.isnan(one["lo"])
    vec = S.paired_mean_diff(np.array([10, 20]), np.array([2.0, -4.0]), np.array([6.0, 10.0]))
    assert vec["p"][0] == pytest.approx(S.paired_mean_diff(10, 2.0, 6.0)["p"])


def test_paired_interval_coverage():
    rng = np.random.default_rng(5)
    reps, n = 2000, 400
    # per-game differences of a win indicator under common random numbers
    d = rng.choice([-1.0, 0.0, 1.0], p=[0.08, 0.8, 0.12], size=(reps, n))
    r = S.paired_mean_diff(n, d.sum(axis=1), (d * d).sum(axis=1))
    coverage = np.mean((r["lo"] <= 0.04) & (0.04 <= r["hi"]))
    assert 0.93 <= coverage <= 0.97, coverage


# ---------------------------------------------------------------------------
# pentanomial (seat-swapped pairs)
# ---------------------------------------------------------------------------

def test_pentanomial_equals_direct_computation_on_pairs():
    rng = np.random.default_rng(9)
    g1 = rng.choice([0, 0.5, 1], p=[0.3, 0.1, 0.6], size=3000)   # candidate as first player
    g2 = rng.choice([0, 0.5, 1], p=[0.5, 0.1, 0.4], size=3000)   # candidate as second player
    pair = (g1 + g2) / 2
    counts = np.bincount(np.rint(2 * (g1 + g2)).astype(int), minlength=5)
    r = S.pentanomial(counts)
    se = math.sqrt(pair.var() / pair.size)
    assert r["score"] == pytest.approx(pair.mean(), rel=1e-13)
    assert r["var"] == pytest.approx(pair.var(), rel=1e-12)            # divisor N, as fishtest
    assert r["se"] == pytest.approx(se, rel=1e-12)
    assert r["lo"] == pytest.approx(pair.mean() - S.Z95 * se, rel=1e-12)
    assert r["hi"] == pytest.approx(pair.mean() + S.Z95 * se, rel=1e-12)
    assert r["p"] == pytest.approx(2 * st.norm.sf(abs(pair.mean() - 0.5) / se), rel=1e-10)
    assert r["n_pairs"] == 3000 and r["games"] == 6000
    assert r["elo"] == pytest.approx(S.elo_from_score(pair.mean()))


def test_pentanomial_hand_values():
    sym = S.pentanomial([10, 20, 40, 20, 10])
    assert sym["score"] == 0.5 and sym["p"] == pytest.approx(1.0) and sym["elo"] == 0
    assert sym["var"] == pytest.approx((10 * .25 + 20 * .0625 + 20 * .0625 + 10 * .25) / 100)
    draws = S.pentanomial([0, 0, 50, 0, 0])                       # every pair split 1-1
    assert draws["var"] == 0 and draws["p"] == 1.0 and draws["lo"] == draws["hi"] == 0.5
    batch = S.pentanomial(np.array([[10, 20, 40, 20, 10], [1, 2, 3, 4, 5]]))
    assert batch["score"][1] == pytest.approx(S.pentanomial([1, 2, 3, 4, 5])["score"])
    with pytest.raises(ValueError, match="5 entries"):
        S.pentanomial([1, 2, 3])


def test_pentanomial_coverage_and_gain_over_independent_games():
    rng = np.random.default_rng(17)
    reps, pairs = 2000, 300
    pa, pb = 0.75, 0.40                      # strong seat effect; true score 0.575
    wa = rng.random((reps, pairs)) < pa
    wb = rng.random((reps, pairs)) < pb
    pts = wa.astype(int) + wb.astype(int)    # 0, 1 or 2 points over the pair
    counts = np.stack([(pts == 0).sum(1), np.zeros(reps), (pts == 1).sum(1), np.zeros(reps),
                       (pts == 2).sum(1)], axis=1)
    r = S.pentanomial(counts)
    true = (pa + pb) / 2
    coverage = np.mean((r["lo"] <= true) & (true <= r["hi"]))
    assert 0.93 <= coverage <= 0.97, coverage
    # pairing removes seat luck: narrower than the Wilson interval on 2N "independent" games
    wins = pts.sum(1)
    wlo, whi = S.wilson_array(wins, 2 * pairs)
    assert np.median((r["hi"] - r["lo"]) / (whi - wlo)) < 0.97


# ---------------------------------------------------------------------------
# Elo
# ---------------------------------------------------------------------------

def test_elo_score_conversions():
    assert S.elo_from_score(0.5) == 0.0
    assert S.elo_from_score(10 / 11) == pytest.approx(400.0)
    assert S.elo_from_score(0.75) == pytest.approx(190.848501887865)
    assert score_from_elo(-400) == pytest.approx(1 / 11)
    e = np.linspace(-800, 800, 33)
    np.testing.assert_allclose(S.elo_from_score(score_from_elo(e)), e, atol=1e-9)
    assert S.elo_from_score(1.0) == math.inf and S.elo_from_score(0.0) == -math.inf


# ---------------------------------------------------------------------------
# SPRT
# ---------------------------------------------------------------------------

def test_sprt_bounds_and_llr_formulas():
    lo, hi = SP.sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(math.log(0.05 / 0.95)) and hi == pytest.approx(math.log(0.95 / 0.05))
    assert SP.sprt_bounds(0.025, 0.1) == pytest.approx((math.log(0.1 / 0.975), math.log(0.9 / 0.025)))
    with pytest.raises(ValueError):
        SP.sprt_bounds(0.6, 0.5)
    # GSPRT: n (mu1 - mu0)(2 mean - mu0 - mu1) / (2 var)
    assert SP.llr_normal_approx(0.53, 0.1, 1000, 0.5, 0.55) == pytest.approx(1000 * 0.05 * 0.01 / 0.2)
    # it is the log ratio of two normal likelihoods with known variance
    x = np.random.default_rng(1).normal(0.52, math.sqrt(0.1), 500)
    exact = st.norm.logpdf(x, 0.55, math.sqrt(0.1)).sum() - st.norm.logpdf(x, 0.5, math.sqrt(0.1)).sum()
    assert SP.llr_normal_approx(x.mean(), 0.1, 500, 0.5, 0.55) == pytest.approx(exact, rel=1e-9)


def _run_bernoulli(p_true, reps, d=0.05, seed=0, cap=20000):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(reps):
        t = SP.SPRT(d, alpha=0.05, beta=0.05, kind="bernoulli", p0=0.5)
        k = np.cumsum(rng.random(cap) < p_true)
        for i in range(cap):
            if t.update(k[i], i + 1) is not None:
                break
        out.append((t.decision, t.direction, i + 1))
    return out


def test_sprt_bernoulli_true_edge_2d_decides_h1_in_expected_games():
    d, reps = 0.05, 300
    res = _run_bernoulli(0.5 + 2 * d, reps, d=d, seed=101)
    h1 = [r for r in res if r[0] == "H1" and r[1] == +1]
    assert len(h1) >= 0.99 * reps
    mean_n = np.mean([r[2] for r in h1])
    # only the "+" one-sided test (bounds with alpha/2) can stop this run with H1
    oc, asn = wald_oc_asn_bernoulli(0.5 + 2 * d, 0.5, 0.5 + d, 0.025, 0.05)
    assert asn == pytest.approx(242, abs=3)
    assert 0.9 * asn <= mean_n <= 1.2 * asn, (mean_n, asn)     # overshoot adds a little


def test_sprt_bernoulli_negative_edge_has_negative_direction():
    res = _run_bernoulli(0.4, 100, seed=5)
    assert sum(r[0] == "H1" and r[1] == -1 for r in res) >= 98


def test_sprt_bernoulli_no_edge_accepts_h0_at_nominal_rate():
    reps = 300
    res = _run_bernoulli(0.5, reps, seed=202)
    false_h1 = sum(r[0] == "H1" for r in res) / reps
    assert all(r[0] is not None for r in res)
    # nominal alpha = 0.05 (Wald's bound; binomial s.e. over 300 runs ~ 0.013)
    assert false_h1 <= 0.09, false_h1
    # both one-sided tests must reach H0; each alone takes about Wald's ASN
    _, asn0 = wald_oc_asn_bernoulli(0.5, 0.5, 0.55, 0.025, 0.05)
    mean_n = np.mean([r[2] for r in res if r[0] == "H0"])
    assert asn0 <= mean_n <= 2.0 * asn0, (mean_n, asn0)


def test_sprt_bernoulli_edge_exactly_d_misses_at_most_beta():
    reps = 300
    res = _run_bernoulli(0.55, reps, seed=303)
    miss = sum(r[0] == "H0" for r in res) / reps
    assert miss <= 0.09, miss                                  # nominal beta = 0.05


def test_sprt_paired_kind_on_crn_differences():
    rng = np.random.default_rng(44)
    d, chunk = 0.03, 10
    vals = np.array([-1.0, 0.0, 1.0])

    def run(probs, reps):
        out = []
        for _ in range(reps):
            t = SP.SPRT(d, kind="paired")
            x = rng.choice(vals, p=probs, size=8000)
            c1, c2 = np.cumsum(x), np.cumsum(x * x)
            for n in range(chunk, 8001, chunk):
                if t.update(n, c1[n - 1], c2[n - 1]) is not None:
                    break
            out.append((t.decision, t.direction, t.n))
        return out

    edge = [0.07, 0.80, 0.13]                  # mean +0.06 = 2d, var 0.1964
    res = run(edge, 100)
    assert sum(r[0] == "H1" and r[1] == 1 for r in res) >= 99
    var = 0.07 + 0.13 - 0.06 ** 2
    _, asn = wald_oc_asn_normal(0.06, var, 0.0, d, 0.025, 0.05)
    mean_n = np.mean([r[2] for r in res])
    assert 0.85 * asn <= mean_n <= 1.3 * asn + chunk, (mean_n, asn)
    res0 = run([0.1, 0.8, 0.1], 100)
    assert sum(r[0] == "H1" for r in res0) <= 10
    assert sum(r[0] == "H0" for r in res0) >= 88


def test_sprt_pentanomial_kind():
    rng = np.random.default_rng(55)

    def run(pa, pb, reps, d=0.05):
        out = []
        for _ in range(reps):
            t = SP.SPRT(d, kind="pentanomial")
            pts = (rng.random(6000) < pa).astype(int) + (rng.random(6000) < pb)
            onehot = np.zeros((6000, 5))
            onehot[np.arange(6000), 2 * pts] = 1
            cum = np.cumsum(onehot, axis=0)
            for n in range(20, 6001, 20):
                if t.update(cum[n - 1]) is not None:
                    break
            out.append((t.decision, t.direction, t.n))
        return out

    res = run(0.75, 0.45, 60)                   # score 0.6 = 0.5 + 2d
    assert sum(r[0] == "H1" and r[1] == 1 for r in res) >= 59
    res0 = run(0.7, 0.3, 60)                    # score 0.5, seat effect only
    assert sum(r[0] == "H0" for r in res0) >= 54


def test_sprt_llr_matches_formulas_and_api():
    t = SP.SPRT(0.05, kind="pentanomial", min_n=0)
    counts = np.array([30, 0, 200, 90, 40])
    t.update(counts)
    c = np.where(counts == 0, 1e-3, counts)            # fishtest regularize()
    s = (c @ [0, .25, .5, .75, 1]) / c.sum()
    var = (c @ (np.array([0, .25, .5, .75, 1]) - s) ** 2) / c.sum()
    assert t.llr_pos == pytest.approx(360 * 0.05 * (2 * s - 1.05) / (2 * var))
    assert t.llr_neg == pytest.approx(360 * -0.05 * (2 * s - 0.95) / (2 * var))
    assert t.llr == max(t.llr_pos, t.llr_neg)
    assert (t.lower, t.upper) == SP.sprt_bounds(0.025, 0.05)

    b = SP.SPRT(0.1, kind="bernoulli", p0=0.5)
    assert b.update(30, 30) == "H1" and b.direction == 1
    assert b.update(30, 1000) == "H1"                 # final once made
    assert "LLR(+d)" in b.status() and "bounds" in b.status()

    p = SP.SPRT(0.05, kind="paired")                   # min_n = 30 by default
    assert p.update(10, 0.0, 0.0) is None
    assert p.update(40, 0.0, 0.0) == "H0"             # identical outcomes on 40 seeds

    with pytest.raises(ValueError, match="kind"):
        SP.SPRT(0.05, kind="trinomial")
    with pytest.raises(ValueError, match="p0"):
        SP.SPRT(0.3, kind="bernoulli", p0=0.8)
    with pytest.raises(TypeError):
        SP.SPRT(0.05).update(1, 2, 3)


# ---------------------------------------------------------------------------
# Bradley-Terry
# ---------------------------------------------------------------------------

TRUE_ELO = np.array([-150.0, -60.0, 0.0, 80.0, 130.0])


def _round_robin(rng, ratings, games_per_pair, size=None):
    k = len(ratings)
    G = np.full((k, k), float(games_per_pair))
    np.fill_diagonal(G, 0)
    P = score_from_elo(ratings[:, None] - ratings[None, :])
    iu = np.triu_indices(k, 1)
    shape = (size, len(iu[0])) if size else len(iu[0])
    w = rng.binomial(games_per_pair, P[iu], size=shape).astype(float)
    out = []
    for row in (w if size else [w]):
        W = np.zeros((k, k))
        W[iu] = row
        W[(iu[1], iu[0])] = games_per_pair - row
        out.append(W)
    return (out if size else out[0]), G


def test_bradley_terry_recovers_known_ratings():
    rng = np.random.default_rng(123)
    Ws, G = _round_robin(rng, TRUE_ELO, 800, size=200)
    est = np.array([S.bradley_terry(W, G)["ratings"] for W in Ws])
    one = S.bradley_terry(Ws[0], G)
    assert one["converged"]
    # unbiased to within a few points, and each estimate within a few SE
    np.testing.assert_allclose(est.mean(axis=0), TRUE_ELO, atol=3.0)
    assert np.all(np.abs(one["ratings"] - TRUE_ELO) <= 3.5 * one["se"])
    # the Fisher-information SE agrees with the spread over replications
    ratio = est.std(axis=0, ddof=1) / one["se"]
    assert np.all((0.8 < ratio) & (ratio < 1.25)), ratio
    cover = np.mean([(np.abs(r - TRUE_ELO) <= S.Z95 * one["se"]) for r in est])
    assert 0.9 <= cover <= 0.99, cover
    assert one["ratings"].mean() == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_is_the_mle_and_matches_two_player_closed_form():
    rng = np.random.default_rng(8)
    W, G = _round_robin(rng, TRUE_ELO, 60)
    W[0, 1] += 0.5                       # fractional (a draw counted half each way)
    W[1, 0] -= 0.5
    r = S.bradley_terry(W, G)

    def nll(theta):
        th = np.concatenate([[0.0], theta])
        P = 1 / (1 + np.exp(th[None, :] - th[:, None]))
        return -np.sum(W * np.log(P))

    ref = optimize.minimize(nll, np.zeros(4), method="BFGS", options={"gtol": 1e-10}).x
    ref = np.concatenate([[0.0], ref]) * ELO
    np.testing.assert_allclose(r["ratings"], ref - ref.mean(), atol=1e-4)
    assert r["log_likelihood"] == pytest.approx(-nll((ref[1:] - ref[0]) / ELO), rel=1e-9)

    two = S.bradley_terry([[0, 75], [25, 0]], [[0, 100], [100, 0]])
    gap = S.elo_from_score(0.75)
    np.testing.assert_allclose(two["ratings"], [gap / 2, -gap / 2], atol=1e-9)
    se_gap = ELO / math.sqrt(100 * 0.75 * 0.25)       # 1 / sqrt(n p q) on the log-odds scale
    np.testing.assert_allclose(two["se"], [se_gap / 2, se_gap / 2], rtol=1e-9)
    c = two["cov"]
    assert math.sqrt(c[0, 0] + c[1, 1] - 2 * c[0, 1]) == pytest.approx(se_gap, rel=1e-9)


def test_bradley_terry_errors_and_prior():
    G = np.array([[0, 10, 10], [10, 0, 10], [10, 10, 0]], float)
    W = np.array([[0, 10, 10], [0, 0, 6], [0, 4, 0]], float)       # bot 0 never lost
    with pytest.raises(ValueError, match="bot 0 won all or none"):
        S.bradley_terry(W, G)
    r = S.bradley_terry(W, G, prior=1.0)
    assert np.all(np.isfinite(r["ratings"])) and r["ratings"][0] == max(r["ratings"])
    with pytest.raises(ValueError, match="symmetric"):
        S.bradley_terry(W, np.triu(G))
    with pytest.raises(ValueError, match="must equal"):
        S.bradley_terry(W * 0.5, G)


# ---------------------------------------------------------------------------
# least squares from moments
# ---------------------------------------------------------------------------

def _design(rng, n=2000):
    counts = rng.poisson([1.5, 0.7, 3.0], size=(n, 3)).astype(float)
    X = np.column_stack([np.ones(n), counts])
    y = 20 + X[:, 1:] @ np.array([2.0, -1.5, 0.3]) + rng.normal(0, 4, n)
    return X, y


def test_ols_from_moments_equals_lstsq_on_raw_data():
    rng = np.random.default_rng(31)
    X, y = _design(rng)
    # moments merged over chunks, as the orchestrator does
    parts = [ols_moments(X[i:i + 300], y[i:i + 300]) for i in range(0, len(y), 300)]
    XtX = sum(p[0] for p in parts)
    Xty = sum(p[1] for p in parts)
    yty = sum(p[2] for p in parts)
    n = sum(p[3] for p in parts)
    r = S.ols_from_moments(XtX, Xty, yty, n)
    beta, rss, rank, _ = np.linalg.lstsq(X, y, rcond=None)
    np.testing.assert_allclose(r["coef"], beta, rtol=1e-9)
    assert r["rss"] == pytest.approx(rss[0], rel=1e-8)
    resid = y - X @ beta
    sigma2 = resid @ resid / (n - 4)
    se = np.sqrt(np.diag(sigma2 * np.linalg.inv(X.T @ X)))
    np.testing.assert_allclose(r["se"], se, rtol=1e-8)
    np.testing.assert_allclose(r["p"], 2 * st.norm.sf(np.abs(beta / se)), rtol=1e-6)
    np.testing.assert_allclose(r["lo"], beta - S.Z95 * se, rtol=1e-8)
    r2 = 1 - resid @ resid / np.sum((y - y.mean()) ** 2)
    assert r["r2"] == pytest.approx(r2, rel=1e-9)
    assert r["adj_r2"] == pytest.approx(1 - (1 - r2) * (n - 1) / (n - 4), rel=1e-9)
    assert r["df_resid"] == n - 4 and r["rank"] == 4
    # simple regression: slope and R^2 agree with scipy.stats.linregress
    lr = st.linregress(X[:, 1], y)
    r1 = S.ols_from_moments(*ols_moments(X[:, :2], y))
    assert r1["coef"][1] == pytest.approx(lr.slope, rel=1e-10)
    assert r1["r2"] == pytest.approx(lr.rvalue ** 2, rel=1e-10)


def test_ols_singular_design():
    rng = np.random.default_rng(32)
    X, y = _design(rng, 500)
    Xs = np.column_stack([X, X[:, 1] + X[:, 2]])                # dependent fifth column
    m = ols_moments(Xs, y)
    names = ["const", "a", "b", "c", "a+b"]
    with pytest.raises(S.SingularDesignError, match=r"rank 4 of 5.*a, b, a\+b"):
        S.ols_from_moments(*m, names=names)
    r = S.ols_from_moments(*m, singular="pinv")
    beta = np.linalg.lstsq(Xs, y, rcond=None)[0]
    np.testing.assert_allclose(Xs @ r["coef"], Xs @ beta, rtol=1e-8)  # same fitted values
    assert r["rank"] == 4 and r["df_resid"] == 500 - 4
    assert r["rss"] == pytest.approx(np.sum((y - Xs @ beta) ** 2), rel=1e-7)
    Xz = np.column_stack([X, np.zeros(500)])
    with pytest.raises(S.SingularDesignError, match="column 4 is all zero"):
        S.ols_from_moments(*ols_moments(Xz, y))
    with pytest.raises(ValueError, match="not an intercept"):
        S.ols_from_moments(*ols_moments(X[:, 1:], y))


def _two_sided_sprt_vectorised(p_true, reps, d, seed, cap=5000, block=500):
    """Independent re-implementation of the documented combination rule, vectorised
    over replications: returns (decision codes 1=H1, 0=H0, -1=none, stopping n)."""
    rng = np.random.default_rng(seed)
    lo, hi = SP.sprt_bounds(0.025, 0.05)
    up, dn = math.log((0.5 + d) / 0.5), math.log((0.5 - d) / 0.5)
    n = np.arange(1, cap + 1)

    def first(mask):
        return np.where(mask.any(1), mask.argmax(1), cap)

    dec, stop = [], []
    for start in range(0, reps, block):
        k = np.cumsum(rng.random((min(block, reps - start), cap)) < p_true, axis=1)
        lp = k * up + (n - k) * dn          # delta = +d against 0
        ln = k * dn + (n - k) * up          # delta = -d against 0
        p1, p0, m1, m0 = first(lp >= hi), first(lp <= lo), first(ln >= hi), first(ln <= lo)
        h1p, h1m = p1 < p0, m1 < m0
        t_h1 = np.minimum(np.where(h1p, p1, cap), np.where(h1m, m1, cap))
        t_h0 = np.maximum(p0, m0)
        code = np.where(h1p | h1m, 1, np.where(t_h0 < cap, 0, -1))
        dec.append(code)
        stop.append(np.where(code == 1, t_h1, t_h0) + 1)
    return np.concatenate(dec), np.concatenate(stop)


def test_sprt_class_agrees_with_vectorised_rule_and_error_rates_are_nominal():
    d = 0.05
    dec, stop = _two_sided_sprt_vectorised(0.5, 120, d, seed=77)
    rng = np.random.default_rng(77)                   # same coin flips, fed to the class
    k = np.cumsum(rng.random((120, 5000)) < 0.5, axis=1)
    for r in range(120):
        t = SP.SPRT(d)
        for i in range(5000):
            if t.update(k[r, i], i + 1) is not None:
                break
        assert ({"H1": 1, "H0": 0, None: -1}[t.decision], t.n) == (dec[r], stop[r] if dec[r] >= 0 else 5000)
    # many replications: type I error at delta = 0 and type II error at |delta| = d
    dec0, _ = _two_sided_sprt_vectorised(0.5, 3000, d, seed=78)
    alpha_hat = np.mean(dec0 == 1)
    assert 0.03 <= alpha_hat <= 0.06, alpha_hat        # nominal 0.05 (s.e. 0.004)
    dec1, _ = _two_sided_sprt_vectorised(0.55, 3000, d, seed=79)
    beta_hat = np.mean(dec1 == 0)
    assert beta_hat <= 0.06, beta_hat                  # nominal 0.05
