"""The learned value's arrays (sim/value.py): the kernels' evaluation equals numpy's, and a
malformed model is refused."""
from __future__ import annotations

import numpy as np
import pytest

from sim.value import check, pack, value_eval, value_np, work_size


def _model(rng, f, widths):
    layers, fan = [], f
    for w in widths:
        layers.append((rng.normal(size=(fan, w)), rng.normal(size=w)))
        fan = w
    return pack(rng.normal(size=f), rng.uniform(0.5, 2.0, size=f), layers)


@pytest.mark.parametrize("widths", [(1,), (8, 1), (16, 8, 1)])
def test_the_kernels_evaluation_is_numpys(widths):
    rng = np.random.default_rng(len(widths))
    mp, ms = _model(rng, 7, widths)
    check(mp, ms)
    X = rng.normal(size=(200, 7)) * 4
    h0, h1 = np.zeros(work_size(ms)), np.zeros(work_size(ms))
    got = np.array([value_eval(mp, ms, x, h0, h1) for x in X])
    np.testing.assert_allclose(got, value_np(mp, ms, X), rtol=0, atol=1e-12)
    assert np.all((got >= 0) & (got <= 1))


def test_a_logistic_regression_is_one_layer():
    mp, ms = pack([0.0, 1.0], [1.0, 2.0], [(np.array([[2.0], [-1.0]]), np.array([0.5]))])
    # (x - mean) / scale = (1, 1) -> 2 - 1 + 0.5 = 1.5
    assert value_np(mp, ms, [[1.0, 3.0]])[0] == pytest.approx(1 / (1 + np.exp(-1.5)))


@pytest.mark.parametrize("bad", ["short", "scale", "nan", "width"])
def test_a_malformed_model_is_refused(bad):
    mp, ms = _model(np.random.default_rng(0), 4, (3, 1))
    if bad == "short":
        mp = mp[:-1]
    elif bad == "scale":
        mp = mp.copy()
        mp[4] = 0.0
    elif bad == "nan":
        mp = mp.copy()
        mp[-1] = np.nan
    else:
        ms = ms.copy()
        ms[-1] = 2
    with pytest.raises(ValueError):
        check(mp, ms)
