"""How ``sim show`` tells a game of Dash: one text per turn, and the track after it."""
from __future__ import annotations

from . import MOVE, ROLL, RUN


def narrate(record, seat_names) -> list[str]:
    """One text per turn (a roll and the move it allows), in the rules' words."""
    turns, roll = [], None
    for kind, actor, a, b, c, *_ in record.events.tolist():
        if kind == ROLL:
            roll = a
        elif kind == MOVE:
            how = "runs" if a == RUN else "walks"
            turns.append(f"{seat_names[actor]} rolls {roll} and {how} {b} to cell {c}")
    return turns


def draw(row, record) -> str:
    """The track after a turn: one line per seat."""
    track = int(record.rules["track"])
    names = ["Red", "Blue", "Green"]
    return "\n".join(f"{names[s][0]} |" + "".join("@" if i == int(row[s]) else "." for i in range(track + 1)) + "|"
                     for s in range(record.players))
