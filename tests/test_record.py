"""The shared record buffer (sim/record.py): events appended in order, nothing written
without room, overflow detected, indices parsed."""
import pytest
from numba import njit

from sim.params import UsageError
from sim.record import NO_RECORD, check_buffer, new_buffer, parse_indices, rec


@njit(cache=True)
def _emit(buf, n):
    for i in range(n):
        rec(buf, 3, i % 2, i, -i, 0, 0, 0, 7)


def test_events_are_appended_in_order():
    buf = new_buffer(10)
    _emit(buf, 4)
    ev = check_buffer(buf)
    assert ev.shape == (4, 8)
    assert ev[:, 2].tolist() == [0, 1, 2, 3] and ev[:, 3].tolist() == [0, -1, -2, -3]
    assert (ev[:, 0] == 3).all() and ev[:, 7].tolist() == [7] * 4


def test_no_record_buffer_is_never_written():
    # the one-row buffer is shared by every game and thread: not even a counter moves
    buf = NO_RECORD.copy()
    _emit(buf, 5)
    assert buf.shape == (1, 8) and not buf.any()
    _emit(NO_RECORD, 3)
    assert not NO_RECORD.any()


def test_overflow_is_an_error_not_a_silent_cut():
    buf = new_buffer(3)
    _emit(buf, 5)
    with pytest.raises(RuntimeError, match="larger capacity"):
        check_buffer(buf)


def test_parse_indices():
    assert parse_indices("0..3") == [0, 1, 2, 3]
    assert parse_indices("5, 1,2..3") == [1, 2, 3, 5]
    for bad in ("", "a", "3..1", "-1", "0..999999"):
        with pytest.raises(UsageError):
            parse_indices(bad)
    with pytest.raises(UsageError, match="plays games"):
        parse_indices("0..10", games=10)
