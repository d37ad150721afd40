"""One replay test over the registry: every game's recorded actions are replayed by its
pure-Python reference engine, which checks that each action is legal under the rules
and recomputes every result column from the actions and chance outcomes alone.

A reference engine (``tests/reference/<game>_ref.py``) that replays defines
``REPLAY_CASES`` (a list of dicts: ``players``, ``bots``, ``rules``, ``games``, ``seed``)
and ``replay(record) -> dict`` (column name -> value, per-seat columns named as
``sim.results.seat_column`` names them).  A game whose reference does not replay yet is
listed by ``test_every_registered_game_replays`` (skipped, with the games named).
"""
import importlib

import numpy as np
import pytest

from sim.games import get, names
from sim.record import record_run


def _ref(name):
    try:
        return importlib.import_module(f"tests.reference.{name}_ref")
    except ImportError:
        return None


def _cases():
    out = []
    for name in names():
        ref = _ref(name)
        for k, case in enumerate(getattr(ref, "REPLAY_CASES", ()) if ref else ()):
            out.append(pytest.param(name, case, id=f"{name}-{k}"))
    return out


def compare_columns(expected: dict, got: dict, where: str):
    """Every column the kernel wrote equals the reference's (floats to float32 rounding)."""
    missing = sorted(set(expected) - set(got))
    assert not missing, f"{where}: the reference computed no {missing}"
    for name, want in expected.items():
        have = got[name]
        if isinstance(want, float) or isinstance(have, float):
            assert np.isclose(float(have), float(want), rtol=1e-5, atol=1e-6), \
                f"{where}: column {name}: kernel {want}, reference {have}"
        else:
            assert int(have) == int(want), f"{where}: column {name}: kernel {want}, reference {have}"


@pytest.mark.parametrize("name,case", _cases())
def test_reference_replays_the_kernels_games(name, case):
    ref = _ref(name)
    records = record_run(name, range(case["games"]), rules=case.get("rules"),
                         bots=case.get("bots"), players=case.get("players"),
                         seed=case.get("seed", 1))
    assert records and all(len(r.events) for r in records)
    for r in records:
        compare_columns(r.columns, ref.replay(r), f"{name} game {r.index} of {case}")


def test_every_registered_game_replays():
    waiting = [n for n in names() if not getattr(_ref(n), "REPLAY_CASES", None)]
    for n in names():
        assert get(n).name == n
    if waiting:
        pytest.skip(f"reference engines that do not replay recorded games yet: {', '.join(waiting)}")
