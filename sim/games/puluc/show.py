"""A recorded Puluc game told in the rulebook's words, and the track drawn as text.

``narrate(record, seat_names)`` gives one line per cast (who cast what, and the move that
used it: a deployment, an advance, a capture, a pile carried off, or a forfeit), a first
line saying who plays whom and a last line with the result as the record's columns say.
``draw(snapshot_row, record)`` draws the track after a cast: every pile as a column, its
commander on top, the spaces numbered as in the rulebook (1..T), each side's home base
and dead warriors at its own end.

Records and snapshots: ``sim/games/puluc/actions.py`` and ``state.unpack_snapshot``.
"""
from __future__ import annotations

from .actions import EV_FORFEIT, EV_MOVE
from .state import unpack_snapshot

LETTERS = "JC"   # a Jade warrior, a Cinnabar warrior
END_REASONS = ("all enemy warriors killed", "horizon reached: draw")


def _warriors(n: int, side_name: str) -> str:
    return f"{n} {side_name} warrior{'s' if n != 1 else ''}"


def _pile(row: dict | None, i: int, side: int, names) -> str:
    """'the warrior on space 4' or 'the pile on space 4 (2 Cinnabar prisoners, ...)'."""
    where = f"space {i + 1}"
    if row is None:
        return f"the pile on {where}"
    own, enemy = row["count"][side][i], row["count"][1 - side][i]
    if own + enemy == 1:
        return f"the warrior on {where}"
    parts = [f"{enemy} {names[1 - side]} prisoner{'s' if enemy != 1 else ''}"] if enemy else []
    if own > 1:
        parts.append(f"{own - 1} {names[side]} warrior{'s' if own > 2 else ''} rescued")
    return f"the pile on {where} ({', '.join(parts)})"


def _move_text(ev, before: dict | None, T: int, names, drag_reverse: bool) -> str:
    """One ``move`` event in the rulebook's words."""
    side = int(ev[1])
    mv, target, captured, freed, killed, home = (int(x) for x in ev[2:8])
    who = names[side]
    if mv == T:
        text = f"{who} deploys a warrior onto space {target + 1}"
    else:
        pile = _pile(before, mv, side, names)
        backwards = (drag_reverse and before is not None
                     and before["count"][0][mv] + before["count"][1][mv] > 1)
        if target == T:
            if not killed:
                return f"{who}: {pile} leaves the track and walks home empty-handed"
            end = ("back into its own home base" if backwards
                   else f"off the far end into {names[1 - side]}'s home base")
            text = (f"{who} carries {pile} {end}: "
                    f"{_warriors(killed, names[1 - side])} killed")
            return text + f", {_warriors(home, who)} back home" if home else text
        verb = "drags" if backwards else "advances"
        text = f"{who} {verb} {pile} to space {target + 1}"
    if captured or freed:
        text += f" and captures {_warriors(captured, names[1 - side])}"
        if freed:
            text += f", freeing {_warriors(freed, who)}"
    return text


def _snapshot(record, k: int, T: int):
    snaps = record.snapshots
    if snaps is None or k < 0 or k >= len(snaps):
        return None
    return unpack_snapshot(snaps[k], T)


def narrate(record, seat_names) -> list[str]:
    """The game of ``record`` cast by cast, in the rulebook's words."""
    rules = record.rules
    T = int(rules["track"])
    names = list(seat_names)
    cols = record.columns
    bots = list(record.bots) + ["?"] * 2
    first = int(cols.get("first_player", 0))
    lines = [f"Puluc game {record.index} (seed {record.seed}): {names[0]} ({bots[0]}) against "
             f"{names[1]} ({bots[1]}) on a track of {T} spaces, {rules['warriors']} warriors "
             f"each; {names[first]} casts first."]
    for k, (cast, action) in enumerate(casts_and_actions(record), start=1):
        lines.append(cast_line(record, k, cast, action, names))
    lines.append(result_line(record, names))
    return lines


def turns(record, seat_names) -> list[tuple]:
    """``sim show``'s pairing: (line, snapshot index or None).  The board drawn after cast k
    is snapshot k - 1 (the kernel copies the track after every cast)."""
    lines = narrate(record, seat_names)
    n = len(lines) - 2          # the first line introduces the game, the last gives the result
    return ([(lines[0], None)] + [(lines[1 + k], k) for k in range(n)] + [(lines[-1], None)])


def casts_and_actions(record) -> list[tuple]:
    """The record's events paired: (cast event, the move or forfeit that followed it)."""
    ev = list(record.events)
    return list(zip(ev[0::2], ev[1::2]))


def cast_line(record, k: int, cast, action, names) -> str:
    """Cast ``k`` (1-based) and what was done with it, in the rulebook's words."""
    T = int(record.rules["track"])
    side, marked, spaces = int(cast[2]), int(cast[3]), int(cast[4])
    fell = "all blank" if marked == 0 else f"{marked} marked"
    line = (f"Cast {k}: {names[side]} casts the lots, {fell}: "
            f"{spaces} space{'s' if spaces != 1 else ''}. ")
    if int(action[0]) == EV_FORFEIT:
        return line + f"No warrior of {names[int(action[1])]} can use it: the cast is forfeited."
    assert int(action[0]) == EV_MOVE, action
    before = _snapshot(record, k - 2, T) if k > 1 else {"count": [[0] * T, [0] * T]}
    drag_reverse = record.rules.get("drag") == "reverse"
    return line + _move_text(action, before, T, names, drag_reverse) + "."


def result_line(record, names) -> str:
    """The last line: who won and how, as the record's columns say."""
    cols = record.columns
    w = int(cols["winner"])
    casts = int(cols["casts"])
    if w >= 0:
        return (f"{names[w]} wins: all {record.rules['warriors']} {names[1 - w]} warriors "
                f"killed, after {casts} casts.")
    return f"Draw: {casts} casts without a result, the game is abandoned ({END_REASONS[1]})."


def draw(snapshot_row, record, with_text: bool = False) -> str:
    """The track after a cast, as text: piles bottom up with the commander on top (the
    kernel keeps counts, so prisoners are drawn under their captor's own warriors)."""
    rules = record.rules
    T = int(rules["track"])
    s = unpack_snapshot(snapshot_row, T)
    piles = []
    for i in range(T):
        c = s["commander"][i]
        if c < 0:
            piles.append("")
        else:
            piles.append(LETTERS[1 - c] * s["count"][1 - c][i] + LETTERS[c] * s["count"][c][i])
    height = max([len(p) for p in piles] + [1])
    w = 3
    rows = []
    for level in range(height - 1, -1, -1):
        cells = [(p[level] if level < len(p) else ("." if level == 0 else " ")).center(w)
                 for p in piles]
        rows.append("".join(cells).rstrip())
    numbers = "".join(str(i + 1).center(w) for i in range(T)).rstrip()
    names = ("Jade", "Cinnabar")
    header = (f"After cast {s['casts']} ({names[s['turn']]} cast):  "
              f"{names[0]} home {s['home'][0]}, dead {s['dead'][0]}  |  "
              f"{names[1]} home {s['home'][1]}, dead {s['dead'][1]}")
    out = [header]
    pairs = casts_and_actions(record)
    if 1 <= s["casts"] <= len(pairs):
        cast, action = pairs[s["casts"] - 1]
        if with_text:
            out.append(cast_line(record, s["casts"], cast, action, names))
        if int(action[0]) == EV_MOVE and int(action[3]) < T:   # the space landed on
            numbers += "\n" + (" " * (w * int(action[3]) + w // 2) + "^").rstrip()
    out += rows + [numbers, f"{names[0]} runs 1 -> {T};  {names[1]} runs {T} -> 1"]
    return "\n".join(out)
