"""Counter-based random streams: game *i* of a run draws only from (seed, i).

Every game owns several independent streams, all derived from the master seed,
the game index and a stream number alone:

* stream ``1 + s`` (``bot_stream(s)``): the bot sitting in seat *s* (its own choices
  and its tie-breaks: a bot never breaks a tie by seat, site or option number);
* the chance substreams below, one per purpose: the game's own chance (lots, dice,
  decks, board set-up).  Stream 0 (``CHANCE``) is what every game drew all its chance
  from before the split; no game uses it now.

So changing the bot in one seat, or a rule that does not touch chance, leaves the
dice of every game unchanged (common random numbers), and a result never depends
on how the games were split into chunks, jobs or machines.

Chance split by purpose
-----------------------
A game's chance is not one stream but many, each keyed on what it is for, so that a
change in one purpose never moves the draws of another (removing a compass tile must
not change a single die).  A *substream* is keyed on (seed, game, purpose, index):
``purpose`` is one of the codes below (or a game's own, from ``GAME_PURPOSES`` up),
``index`` what the game counts within it (the round, the roll, the deck, the war).
Its start is ``mix(mix(base + PURPOSE_OFFSET + purpose) + index)`` where ``base`` is
the game's base (``game_base(seed, game)``) and ``PURPOSE_OFFSET`` = 2**32 keeps it
clear of the bot streams.  A kernel keeps the counter of a substream it is drawing from
in a slot of its ``states`` array (``open_substream``) and draws with the usual
``rand_int(states, slot, n)``.

Shuffles that must survive the removal of one item sort the items by a key drawn for
each item *identity* (``item_key``): every other item keeps its relative order, so
removing a card moves no other card's draw.

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

from .jit import helper, helper_inline, inlined, plain

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

#: purposes of chance substreams (a game numbers its own from GAME_PURPOSES up)
SETUP = 1        # board layout, first player, anything drawn once before play
DECK = 2         # a deck's shuffle keys; index = deck number (or reshuffle count)
DICE = 3         # dice; index = the round (or roll) they belong to
GAME_PURPOSES = 16
PURPOSE_OFFSET = np.uint64(1 << 32)


def bot_stream(seat: int) -> int:
    """Stream number of the bot in ``seat``."""
    return 1 + seat


@inlined
def mix64(z):
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@plain
def seed_streams(states, seed, game):
    """Set ``states[k]`` to the start of stream *k* of game ``game``."""
    base = mix64(mix64(np.uint64(seed)) + np.uint64(game))
    for k in range(states.shape[0]):
        states[k] = mix64(base + np.uint64(k))


@inlined
def game_base(seed, game):
    """The base every stream of game ``game`` is derived from."""
    return mix64(mix64(np.uint64(seed)) + np.uint64(game))


@inlined
def substream_start(base, purpose, index):
    """Start counter of the chance substream (purpose, index) of the game with ``base``."""
    return mix64(mix64(base + PURPOSE_OFFSET + np.uint64(purpose)) + np.uint64(index))


@inlined
def open_substream(states, slot, base, purpose, index):
    """Point ``states[slot]`` at the start of substream (purpose, index)."""
    states[slot] = substream_start(base, purpose, index)


@inlined
def item_key(base, purpose, item):
    """A uniform 64-bit sort key for item identity ``item`` of a shuffle keyed on
    ``purpose`` (for example ``DECK`` and a card's id): sorting by it shuffles, and an
    item removed takes no other item's key with it."""
    return mix64(substream_start(base, purpose, item) + GOLDEN)


@inlined
def next_u64(states, k):
    states[k] = states[k] + GOLDEN
    return mix64(states[k])


@inlined
def rand_int(states, k, n):
    """Uniform integer in ``[0, n)`` from stream ``k`` (``n`` >= 1)."""
    x = next_u64(states, k) >> _S32
    return np.int64((x * np.uint64(n)) >> _S32)


@inlined
def rand_float(states, k):
    """Uniform float in ``[0, 1)`` from stream ``k``."""
    return np.float64(next_u64(states, k) >> _S11) * _INV53


@helper
def sort_by_keys(items, keys, n):
    """Sort ``items[:n]`` in place by ``keys[:n]`` (uint64, ascending; ``keys`` is sorted
    along).  Insertion sort: decks and tile sets are small."""
    for i in range(1, n):
        k = keys[i]
        x = items[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            items[j + 1] = items[j]
            j -= 1
        keys[j + 1] = k
        items[j + 1] = x


@helper
def keyed_shuffle(items, ids, keys, n, base, purpose):
    """Order ``items[:n]`` by the keys of their identities ``ids[:n]`` (``item_key``):
    a shuffle in which removing one item leaves the others' relative order alone.
    ``keys`` is scratch of length >= n; ``ids`` is permuted along with ``items``."""
    for i in range(n):
        keys[i] = item_key(base, purpose, ids[i])
    # sort items and ids together by key
    for i in range(1, n):
        k = keys[i]
        x = items[i]
        d = ids[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            items[j + 1] = items[j]
            ids[j + 1] = ids[j]
            j -= 1
        keys[j + 1] = k
        items[j + 1] = x
        ids[j + 1] = d


@helper_inline
def tie_wins(states, k, ties):
    """Reservoir tie-break: the ``ties``-th option found equal to the best so far replaces
    it with probability 1/ties, drawn from stream ``k`` (the bot's own).  Over a scan this
    picks uniformly among the tied options, and draws nothing when there is no tie."""
    return rand_int(states, k, ties) == 0


@helper_inline
def reservoir_slot(states, k, seen, keep):
    """Reservoir sampling of ``keep`` items from a stream of them: the slot the item numbered
    ``seen`` (from 0) takes, or -1 when it is not kept.  The first ``keep`` fill the slots in
    turn (no draw); item ``seen`` after them replaces slot ``r`` for a draw ``r`` of
    ``rand_int(states, k, seen + 1)`` below ``keep``: every item ends kept with the same
    probability."""
    if seen < keep:
        return seen
    r = rand_int(states, k, seen + 1)
    return r if r < keep else -1


# ---------------------------------------------------------------- pure Python
_MASK = (1 << 64) - 1


def py_mix64(z: int) -> int:
    z &= _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def py_game_base(seed: int, game: int) -> int:
    return py_mix64((py_mix64(seed) + game) & _MASK)


def py_substream_start(base: int, purpose: int, index: int) -> int:
    return py_mix64((py_mix64((base + (1 << 32) + purpose) & _MASK) + index) & _MASK)


def py_item_key(base: int, purpose: int, item: int) -> int:
    return py_mix64((py_substream_start(base, purpose, item) + 0x9E3779B97F4A7C15) & _MASK)


def py_keyed_order(base: int, purpose: int, ids) -> list:
    """Identities ``ids`` in the order ``keyed_shuffle`` puts them."""
    return sorted(ids, key=lambda i: py_item_key(base, purpose, i))


class Stream:
    """One random stream in plain Python, identical to the jitted functions."""

    def __init__(self, seed: int, game: int, stream: int):
        base = py_game_base(seed, game)
        self.state = py_mix64((base + stream) & _MASK)

    @classmethod
    def substream(cls, seed: int, game: int, purpose: int, index: int) -> "Stream":
        """The chance substream (purpose, index) of game ``game``, as ``open_substream``."""
        s = cls.__new__(cls)
        s.state = py_substream_start(py_game_base(seed, game), purpose, index)
        return s

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return py_mix64(self.state)

    def rand_int(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def rand_float(self) -> float:
        return (self.next_u64() >> 11) * _INV53
