"""Fitting a learned value (issue #46) and what it is worth, for :mod:`sim.learn`: the positions
split by game (never one game on both sides), the candidates fitted with scikit-learn on one
part and chosen by the log loss of a second, the chosen one exported as :mod:`sim.value`'s
arrays (checked against scikit-learn's own predictions) and measured on the third (log loss
against the base rate and the game's own evaluation, reliability, accuracy around the fair
share).  scikit-learn is imported inside the functions that fit.
"""
from __future__ import annotations

import time

import numpy as np

from .params import UsageError

#: bumped when the training, the split, the candidates or the file's layout change (part of the key)
FIT_VERSION = 1
#: the split by game index: ``game % 20`` below 14 fits, 14..16 chooses the candidate, 17..19
#: is the held-out set every figure of a model is measured on
SPLIT = (14, 17, 20)
#: the candidates, each a name and its settings (part of the key); see :func:`_estimator`
CANDIDATES = (
    ("logistic", {"C": 1.0}),
    ("mlp", {"hidden": [16], "alpha": 1e-3, "epochs": 40}),
    ("mlp", {"hidden": [32, 16], "alpha": 1e-3, "epochs": 40}),
)
def _fit_seconds(rows: int, n_features: int, candidates=CANDIDATES) -> float:
    """A rough guess of the fitting's seconds: the candidates' epochs over the fitting part
    (about 0.7 of the rows) at about 3 GFLOP/s (one thread)."""
    per_row = sum(6 * (n_features * kw["hidden"][0] + sum(a * b for a, b in zip(kw["hidden"], kw["hidden"][1:])))
                  * kw["epochs"] for name, kw in candidates if name == "mlp")
    return 1.0 + 0.7 * rows * (per_row + 50 * n_features) / 3e9



def log_loss(y, p) -> float:
    """The mean log loss of probabilities ``p`` against outcomes ``y`` in [0, 1] (a share of
    a victory counts as that share of a win: the cross-entropy)."""
    y = np.asarray(y, dtype=np.float64)
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log1p(-p))) if y.size else float("nan")


def _rows(X, y):
    """Each position twice, labelled 1 and 0 and weighted by its outcome ``y`` and ``1 - y``
    (scikit-learn's classifiers take 0/1 labels; the weights make the fit's loss the
    cross-entropy with fractional outcomes); rows of weight 0 left out."""
    y = np.asarray(y, dtype=np.float64)
    keep1, keep0 = y > 0, y < 1
    Xr = np.concatenate([X[keep1], X[keep0]])
    lab = np.concatenate([np.ones(int(keep1.sum()), np.int8), np.zeros(int(keep0.sum()), np.int8)])
    w = np.concatenate([y[keep1], 1 - y[keep0]])
    return Xr, lab, w


def _estimator(name: str, kw: dict, seed: int):
    if name == "logistic":
        from sklearn.linear_model import LogisticRegression
        return LogisticRegression(C=kw["C"], max_iter=1000)
    from sklearn.neural_network import MLPClassifier
    return MLPClassifier(hidden_layer_sizes=tuple(kw["hidden"]), alpha=kw["alpha"], max_iter=kw["epochs"],
                         batch_size=256, random_state=seed % (2 ** 32), early_stopping=False)


def _layers(est) -> list:
    """The fitted estimator's layers as :func:`sim.value.pack` takes them."""
    if hasattr(est, "coefs_"):
        if est.out_activation_ != "logistic" or est.activation != "relu":
            raise ValueError("the exported MLP must have ReLU hidden layers and a logistic output")
        return [(W, b) for W, b in zip(est.coefs_, est.intercepts_)]
    return [(est.coef_.T, est.intercept_)]


def fit(data: dict, seed: int = 1, candidates=CANDIDATES) -> tuple:
    """Fit every candidate (``candidates``: (name, settings) pairs, the shared
    :data:`CANDIDATES` unless a game names its own) on the fitting part, choose by the
    choosing part's log loss.
    Returns (mp, ms, meta, test): ``test`` the held-out part's outcome, prediction,
    progress, baseline and seat; ``meta`` the figures."""
    from threadpoolctl import threadpool_limits
    # one BLAS thread: on a busy 2-core machine OpenBLAS's threads fought over the cores
    # (Puluc, 50,400 positions: the 32x16 MLP took 123 s with two threads, 11 s with one)
    with threadpool_limits(1):
        return _fit(data, seed, candidates)


def _fit(data: dict, seed: int, candidates=CANDIDATES) -> tuple:
    import warnings
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.preprocessing import StandardScaler
    from .value import pack, value_np
    X = np.asarray(data["X"], dtype=np.float64)
    y = np.clip(np.asarray(data["outcome"], dtype=np.float64), 0.0, 1.0)
    part = np.asarray(data["game"], dtype=np.int64) % SPLIT[2]
    fit_m, choose_m, test_m = part < SPLIT[0], (part >= SPLIT[0]) & (part < SPLIT[1]), part >= SPLIT[1]
    for name, m in (("fitting", fit_m), ("choosing", choose_m), ("held-out", test_m)):
        if not m.any():
            raise UsageError(f"too few games to learn from: the {name} part holds no position "
                             f"(give --games at least {SPLIT[2]})")
    Xf, Xc, Xt = X[fit_m], X[choose_m], X[test_m]
    Xr, lab, w = _rows(Xf, y[fit_m])
    if len(set(lab.tolist())) < 2:
        raise UsageError("every training game ended the same way for every seat: nothing to learn")
    scaler = StandardScaler().fit(Xf)
    Zr, Zc = scaler.transform(Xr), scaler.transform(Xc)
    scores, fitted = [], []
    for name, kw in candidates:
        est = _estimator(name, kw, seed)
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit(Zr, lab, sample_weight=w)
        label = name if name == "logistic" else f"mlp {'x'.join(str(h) for h in kw['hidden'])}"
        ll = log_loss(y[choose_m], est.predict_proba(Zc)[:, 1])
        scores.append({"kind": label, "log_loss_choose": round(ll, 6), "seconds": round(time.perf_counter() - t, 2)})
        fitted.append((ll, label, est))
    best = min(range(len(fitted)), key=lambda i: fitted[i][0])
    _, kind, est = fitted[best]
    mp, ms = pack(scaler.mean_, scaler.scale_, _layers(est))
    p_test = value_np(mp, ms, Xt)
    p_sk = est.predict_proba(scaler.transform(Xt))[:, 1]
    if not np.allclose(p_test, p_sk, rtol=0, atol=1e-9):
        raise RuntimeError(f"the exported model differs from scikit-learn's by "
                           f"{float(np.max(np.abs(p_test - p_sk))):.2e}")
    seat = np.asarray(data["seat"], dtype=np.int64)
    base = np.zeros(X.shape[0])
    for s in np.unique(seat):  # the base rate: each seat's mean outcome in the fitting part
        m = seat == s
        base[m] = float(np.mean(y[fit_m & m])) if (fit_m & m).any() else float(np.mean(y[fit_m]))
    bl_all = np.asarray(data.get("baseline", np.full(X.shape[0], np.nan)), dtype=np.float64)
    bl = bl_all[test_m]
    has = np.isfinite(bl)
    bl_fit = _rescaled_baseline(bl_all, y, fit_m, test_m)
    test = {"y": y[test_m].astype(np.float32), "p": p_test.astype(np.float32),
            "progress": np.asarray(data["progress"], dtype=np.float32)[test_m],
            "baseline": bl.astype(np.float32), "seat": seat[test_m].astype(np.int16)}
    meta = {"kind": kind, "candidates": scores,
            "positions": int(X.shape[0]), "positions_fit": int(fit_m.sum()), "positions_test": int(test_m.sum()),
            "n_features": int(X.shape[1]), "parameters": int(mp.size),
            "log_loss": round(log_loss(y[test_m], p_test), 6),
            "log_loss_base": round(log_loss(y[test_m], base[test_m]), 6),
            "log_loss_baseline": round(log_loss(y[test_m][has], bl[has]), 6) if has.any() else None,
            "log_loss_baseline_fit": (round(log_loss(y[test_m][has], bl_fit[has]), 6)
                                      if bl_fit is not None and has.any() else None),
            "baseline_share": round(float(has.mean()), 4),
            "base_rate": [round(float(np.mean(y[fit_m & (seat == s)])), 6) if (fit_m & (seat == s)).any() else None
                          for s in range(int(seat.max()) + 1)]}
    return mp, ms, meta, test


def _rescaled_baseline(bl, y, fit_m, test_m):
    """The game's own evaluation at its best scale: a logistic regression of the outcome on
    its log-odds, fitted on the fitting part (None where the game has none), for the
    held-out part: so the model is compared with the evaluation, not with a scale chosen by
    hand."""
    from sklearn.linear_model import LogisticRegression
    ok = np.isfinite(bl)
    if not (ok & fit_m).any() or not (ok & test_m).any():
        return None
    p = np.clip(bl, 1e-6, 1 - 1e-6)
    z = np.log(p / (1 - p))[:, None]
    zr, lab, w = _rows(z[ok & fit_m], y[ok & fit_m])
    if len(set(lab.tolist())) < 2:
        return None
    est = LogisticRegression(C=1e6, max_iter=1000).fit(zr, lab, sample_weight=w)
    out = np.full(bl.shape, np.nan)
    out[ok] = est.predict_proba(z[ok])[:, 1]
    return out[test_m]


def reliability(y, p, bins: int = 10) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reliability diagram's points: for each of ``bins`` equal bins of the prediction
    ``p`` that holds a position, (mean outcome, mean prediction, positions): the binning of
    scikit-learn's ``calibration_curve(strategy="uniform")``, which takes 0/1 outcomes only,
    here with a share of a victory counted as that share."""
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    edges = np.linspace(0.0, 1.0, bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    n = np.bincount(ids, minlength=bins)
    sy = np.bincount(ids, weights=y, minlength=bins)
    sp = np.bincount(ids, weights=p, minlength=bins)
    k = n > 0
    return sy[k] / n[k], sp[k] / n[k], n[k]


def calibration_gap(test: dict, bins: int = 10, least: float = 0.01) -> float:
    """The largest gap between mean outcome and mean prediction over the reliability bins
    holding at least ``least`` of the held-out positions."""
    true, pred, n = reliability(test["y"], test["p"], bins)
    keep = n >= least * max(int(n.sum()), 1)
    return float(np.max(np.abs(true - pred)[keep])) if keep.any() else float("nan")


def fair_accuracy(y, p, players: int) -> float:
    """The share of held-out positions whose prediction lies on the same side of the fair
    share (1/players) as the outcome (positions whose outcome is the fair share left out)."""
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    f = 1.0 / players
    k = np.abs(y - f) > 1e-6
    return float(np.mean((p[k] > f) == (y[k] > f))) if k.any() else float("nan")
