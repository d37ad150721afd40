"""Counter-based random streams: game *i* of a run draws only from (seed, i).

Every game owns several independent streams, all derived from the master seed,
the game index and a stream number alone:

* stream 0 (``CHANCE``): the game's own chance (lots, dice, decks, board set-up);
* stream ``1 + s`` (``bot_stream(s)``): the bot sitting in seat *s*.

So changing the bot in one seat, or a rule that does not touch chance, leaves the
dice of every game unchanged (common random numbers), and a result never depends
on how the games were split into chunks, jobs or machines.

The generator is SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter advanced
by the golden-ratio increment and passed through a bijective mixer.  A stream's
starting counter is ``mix(mix(mix(seed) + game) + stream)``.  Integers in
``[0, n)`` use the top 32 bits, ``(x >> 32) * n >> 32`` (bias below ``n / 2**32``).

The jitted functions work on a ``uint64`` array holding one counter per stream;
the pure-Python class :class:`Stream` reproduces them bit for bit, for reference
engines and tests.
"""
from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53

CHANCE = 0


def bot_stream(seat: int) -> int:
    """Stream number of the bot in ``seat``."""
    return 1 + seat


@njit(cache=True, inline="always")
def mix64(z):
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def seed_streams(states, seed, game):
    """Set ``states[k]`` to the start of stream *k* of game ``game``."""
    base = mix64(mix64(np.uint64(seed)) + np.uint64(game))
    for k in range(states.shape[0]):
        states[k] = mix64(base + np.uint64(k))


@njit(cache=True, inline="always")
def next_u64(states, k):
    states[k] = states[k] + GOLDEN
    return mix64(states[k])


@njit(cache=True, inline="always")
def rand_int(states, k, n):
    """Uniform integer in ``[0, n)`` from stream ``k`` (``n`` >= 1)."""
    x = next_u64(states, k) >> _S32
    return np.int64((x * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def rand_float(states, k):
    """Uniform float in ``[0, 1)`` from stream ``k``."""
    return np.float64(next_u64(states, k) >> _S11) * _INV53


# ---------------------------------------------------------------- pure Python
_MASK = (1 << 64) - 1


def py_mix64(z: int) -> int:
    z &= _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Stream:
    """One random stream in plain Python, identical to the jitted functions."""

    def __init__(self, seed: int, game: int, stream: int):
        base = py_mix64((py_mix64(seed) + game) & _MASK)
        self.state = py_mix64((base + stream) & _MASK)

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return py_mix64(self.state)

    def rand_int(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def rand_float(self) -> float:
        return (self.next_u64() >> 11) * _INV53
