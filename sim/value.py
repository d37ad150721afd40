"""A learned value: the probability that a seat wins from a position, as plain arrays a kernel
evaluates.

A model is two arrays, so that a kernel takes it as arguments (numba's cache holds the code,
never the weights, and one compiled kernel serves every model of its shape):

- ``ms`` (int64): ``[n_features, n_layers, width_1, ..., width_L]`` with ``width_L == 1``;
- ``mp`` (float64): the features' mean (``n_features``) and scale (``n_features``, each > 0),
  then each layer's weights ``W`` (``fan_in x width``, row-major) followed by its bias
  (``width``).

The features are standardised (``(x - mean) / scale``); the hidden layers use ReLU and the
last one a logistic sigmoid, so a logistic regression is one layer of width 1 and a small
MLP two or three.  ``value_eval`` is the kernels' evaluation, ``value_np`` the same in numpy
(the reference the tests compare it with); ``pack`` builds the arrays from a fitted model's
layers.  ``sample_buffers`` and ``sampled`` are the rows a game's sampler fills and returns
(the features module's ``sample`` contract, sim/learn.py).
"""
from __future__ import annotations

import numpy as np

from .jit import helper_inline

#: ms[0]: features, ms[1]: layers, ms[2 + l]: layer l's width
MS_FEATURES, MS_LAYERS, MS_WIDTHS = 0, 1, 2


def sample_buffers(rows: int, n_features: int) -> tuple:
    """Room for ``rows`` sampled positions, as a jitted sampler fills them: (X float64 rows of
    ``n_features``, seat int16, game int64, progress, outcome, baseline float32)."""
    return (np.zeros((rows, n_features), np.float64), np.zeros(rows, np.int16), np.zeros(rows, np.int64),
            np.zeros(rows, np.float32), np.zeros(rows, np.float32), np.zeros(rows, np.float32))


def sampled(buffers: tuple, m: int) -> dict:
    """What a features module's ``sample`` returns: the first ``m`` rows of ``buffers``
    (:func:`sample_buffers`), X as float32."""
    X, seat, game, progress, outcome, baseline = buffers
    return {"X": X[:m].astype(np.float32), "seat": seat[:m], "game": game[:m], "progress": progress[:m],
            "outcome": outcome[:m], "baseline": baseline[:m]}


def pack(mean, scale, layers) -> tuple[np.ndarray, np.ndarray]:
    """``(mp, ms)`` of a model: the features' ``mean`` and ``scale`` and ``layers``, a list of
    ``(W, b)`` with ``W`` of shape (fan_in, width) and the last width 1."""
    mean = np.asarray(mean, dtype=np.float64).ravel()
    scale = np.asarray(scale, dtype=np.float64).ravel()
    f = mean.size
    if scale.size != f or not np.all(np.isfinite(scale)) or np.any(scale <= 0):
        raise ValueError("scale: one positive finite value per feature")
    parts = [mean, scale]
    widths = []
    fan_in = f
    for W, b in layers:
        W = np.asarray(W, dtype=np.float64)
        b = np.asarray(b, dtype=np.float64).ravel()
        if W.ndim != 2 or W.shape[0] != fan_in or W.shape[1] != b.size:
            raise ValueError(f"layer {len(widths)}: weights {W.shape} do not follow {fan_in} inputs "
                             f"and {b.size} biases")
        parts += [W.ravel(), b]
        widths.append(b.size)
        fan_in = b.size
    if not widths or widths[-1] != 1:
        raise ValueError("the last layer must have width 1 (the win probability)")
    mp = np.concatenate(parts)
    if not np.all(np.isfinite(mp)):
        raise ValueError("the model holds a value that is not finite")
    ms = np.array([f, len(widths), *widths], dtype=np.int64)
    return mp, ms


def check(mp, ms) -> None:
    """Raise ValueError unless ``(mp, ms)`` is a well-formed model (shapes, sizes, finite)."""
    ms = np.asarray(ms)
    if ms.ndim != 1 or ms.size < 3 or ms.dtype.kind not in "iu":
        raise ValueError("ms: [features, layers, widths...] as integers")
    f, nl = int(ms[0]), int(ms[1])
    if f < 1 or nl < 1 or ms.size != 2 + nl or np.any(ms[2:] < 1) or int(ms[-1]) != 1:
        raise ValueError("ms: the shape of the model is not consistent")
    need, fan_in = 2 * f, f
    for w in ms[2:]:
        need += fan_in * int(w) + int(w)
        fan_in = int(w)
    mp = np.asarray(mp)
    if mp.ndim != 1 or mp.size != need or mp.dtype != np.float64:
        raise ValueError(f"mp: {need} float64 values expected, found {mp.size}")
    if not np.all(np.isfinite(mp)) or np.any(mp[f:2 * f] <= 0):
        raise ValueError("mp: a value that is not finite, or a scale that is not positive")


def work_size(ms) -> int:
    """The length of each of the two work arrays ``value_eval`` needs: the widest layer."""
    return int(max(int(ms[0]), int(np.max(ms[2:]))))


def value_np(mp, ms, X) -> np.ndarray:
    """The win probability of each row of ``X`` (numpy; the reference of ``value_eval``)."""
    X = np.atleast_2d(np.asarray(X, dtype=np.float64))
    f, nl = int(ms[0]), int(ms[1])
    h = (X - mp[:f]) / mp[f:2 * f]
    o, fan_in = 2 * f, f
    for l in range(nl):
        w = int(ms[2 + l])
        W = mp[o:o + fan_in * w].reshape(fan_in, w)
        o += fan_in * w
        b = mp[o:o + w]
        o += w
        h = h @ W + b
        if l < nl - 1:
            h = np.maximum(h, 0.0)
        fan_in = w
    return 1.0 / (1.0 + np.exp(-h[:, 0]))


@helper_inline
def value_eval(mp, ms, x, h0, h1):
    """The win probability of features ``x`` under the model ``(mp, ms)``; ``h0`` and ``h1``
    are work arrays of at least :func:`work_size` floats (overwritten)."""
    f = ms[0]
    nl = ms[1]
    for i in range(f):
        h0[i] = (x[i] - mp[i]) / mp[f + i]
    o = 2 * f
    fan_in = f
    z = 0.0
    for l in range(nl):
        w = ms[2 + l]
        bo = o + fan_in * w
        for j in range(w):
            s = mp[bo + j]
            for i in range(fan_in):
                s += h0[i] * mp[o + i * w + j]
            if l < nl - 1:
                h1[j] = s if s > 0.0 else 0.0
            else:
                z = s
        o = bo + w
        if l < nl - 1:
            for j in range(w):
                h0[j] = h1[j]
        fan_in = w
    if z >= 0.0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)
    return e / (1.0 + e)
