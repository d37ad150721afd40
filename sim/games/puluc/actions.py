"""What a recorded Puluc game holds (``sim/record.py``): one ``cast`` event per cast of the
lots (chance) followed by the caster's ``move`` or ``forfeit``; after every cast, when
snapshots are on, a flat copy of the state (``state.snapshot``, read back with
``state.unpack_snapshot``).

Fields, in the kernel's coordinates: spaces are indexed ``0..T-1`` (space 1 of the
rulebook is index 0); a ``move`` of ``T`` is a deployment, a ``target`` of ``T`` means
carried off the far end.
"""
from __future__ import annotations

import numpy as np

from ...jit import helper
from ...record import Action, rec, rec_snapshot
from .move import destination
from .state import snapshot

EV_CAST, EV_MOVE, EV_FORFEIT = 0, 1, 2

ACTIONS = (
    Action(EV_CAST, "cast", ("side", "marked", "spaces"), chance=True,
           text="the lots fall {marked} marked: {spaces} spaces"),
    Action(EV_MOVE, "move", ("move", "target", "captured", "freed", "killed", "home"),
           text="{actor} moves {move} to {target}"),
    Action(EV_FORFEIT, "forfeit", ("spaces",), text="{actor} cannot use {spaces}: forfeit"),
)
#: what each field of a ``move`` event means
MOVE_FIELDS = {
    "move": "index of the pile moved (0-based), T for a deployment",
    "target": "index it lands on, T when carried off the far end",
    "captured": "enemy warriors in the pile landed on (now prisoners)",
    "freed": "own warriors in the pile landed on (rescued)",
    "killed": "enemy prisoners carried off (dead)",
    "home": "own warriors carried off (back home)",
}


@helper
def record_cast(buf, state, R, p, marked, cast, mv):
    """Append the events of one cast, before its move is applied: the ``cast`` (side ``p``,
    ``marked`` lots, ``cast`` spaces), then the ``forfeit`` (``mv`` < 0) or the ``move``:
    where it goes and what it takes."""
    rec(buf, EV_CAST, -1, p, marked, cast, 0, 0, 0)
    if mv < 0:
        rec(buf, EV_FORFEIT, p, cast, 0, 0, 0, 0, 0)
        return
    T = R.track
    dest = destination(state, R, p, mv, cast)
    captured = 0
    freed = 0
    killed = 0
    home = 0
    if dest == T:
        killed = np.int64(state.count[1 - p, mv])
        home = np.int64(state.count[p, mv])
    elif state.commander[dest] == 1 - p:
        captured = np.int64(state.count[1 - p, dest])
        freed = np.int64(state.count[p, dest])
    rec(buf, EV_MOVE, p, mv, dest, captured, freed, killed, home)


@helper
def record_snapshot(buf, snaps, state, R, scratch):
    """Append the state, flat, as the next snapshot row."""
    n = snapshot(state, R.track, scratch.snapshot)
    rec_snapshot(buf, snaps, scratch.snapshot, n)
