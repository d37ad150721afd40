"""A recorded Puluc game told in the rulebook's words, and the track drawn as text.

``narrate(record, seat_names)`` gives one line per cast (who cast what, and the move that
used it: a deployment, an advance, a capture, a pile carried off, or a forfeit), a first
line saying who plays whom and a last line with the result as the record's columns say.
``draw(snapshot_row, record)`` draws the track after a cast: every pile as a column, its
commander on top, the spaces numbered as in the rulebook (1..T), each side's home base
and dead warriors at its own end; ``svg(snapshot_row, record)`` draws the same as an SVG
element for ``sim show --html``.  ``steps(lines)``: ``sim show``'s numbering (cast k is
step k; the first line and the result are not numbered).

Records and snapshots: ``sim/games/puluc/actions.py`` and ``state.unpack_snapshot``.
"""
from __future__ import annotations

import re
from html import escape

from .actions import EV_FORFEIT, EV_MOVE
from .state import unpack_snapshot

LETTERS = "JC"   # a Jade warrior, a Cinnabar warrior
END_REASONS = ("all enemy warriors killed", "horizon reached: draw")
STEP_WORD = "Cast"     # sim show numbers the casts: cast k is step k
COLOURS = ("#17805f", "#c0392b")   # Jade, Cinnabar


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


def steps(lines) -> list:
    """``sim show``'s numbering of ``narrate``'s lines: cast k is step k; the first line (who
    plays whom) and the last (the result) are not numbered (None)."""
    out = []
    for t in lines:
        m = re.match(r"Cast (\d+): ", t)
        out.append(int(m.group(1)) if m else None)
    return out


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



def svg(snapshot_row, record) -> str:
    """The track after a cast as an SVG element (what :func:`draw` draws): each pile a stack
    of discs on its space, prisoners below and the commander's own warriors on top (class
    ``s0`` Jade, ``s1`` Cinnabar; a ``pile`` group per space with its counts above), the
    space the move landed on highlighted, each side's home base and dead warriors at the
    end it enters from."""
    T = int(record.rules["track"])
    W = int(record.rules["warriors"])
    s = unpack_snapshot(snapshot_row, T)
    names = ("Jade", "Cinnabar")
    cw, side, r, gap = 36, 84, 7, 15             # a space's width, a home box's, a disc: radius, spacing
    rows = min(2 * W, 12)                        # the tallest pile drawn at full spacing
    base = 40 + rows * gap                       # the track's top edge: the piles stand on it
    width, height = 2 * side + T * cw, base + 44
    landed = -1
    pairs = casts_and_actions(record)
    if 1 <= s["casts"] <= len(pairs):
        action = pairs[s["casts"] - 1][1]
        if int(action[0]) == EV_MOVE and int(action[3]) < T:
            landed = int(action[3])
    head = f"After cast {s['casts']} ({names[s['turn']]} cast)"
    title = (f"{head}: {names[0]} home {s['home'][0]}, dead {s['dead'][0]}; "
             f"{names[1]} home {s['home'][1]}, dead {s['dead'][1]}"
             + (f"; the move landed on space {landed + 1}" if landed >= 0 else ""))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board puluc" viewBox="0 0 {width} {height}" '
           f'width="{width * 4 // 3}" height="{height * 4 // 3}" role="img" font-family="sans-serif" font-size="11">'
           f"<title>{escape(title)}</title>"
           f'<text x="4" y="14" font-weight="bold">{escape(head)}</text>']
    if landed >= 0:
        out.append(f'<rect class="landed" data-space="{landed + 1}" x="{side + landed * cw}" y="20" '
                   f'width="{cw}" height="{base}" fill="#fff1b8"/>')
    out.append(f'<rect x="{side}" y="{base}" width="{T * cw}" height="20" fill="#efe6d4" stroke="#8a7a5c"/>'
               f'<path d="{"".join(f"M{side + i * cw} {base}v20" for i in range(1, T))}" stroke="#8a7a5c"/>')
    for i in range(T):
        x = side + i * cw + cw // 2                  # the space's centre
        bold = ' font-weight="bold"' if i == landed else ""
        out.append(f'<text x="{x}" y="{base + 14}" text-anchor="middle"{bold}>{i + 1}</text>')
        c = s["commander"][i]
        if c < 0:
            continue
        own, prisoners = s["count"][c][i], s["count"][1 - c][i]
        pile = [1 - c] * prisoners + [c] * own       # bottom up: the commander on top
        step = gap if len(pile) <= rows else max(2, rows * gap // len(pile))
        out.append(f'<g class="pile" data-space="{i + 1}" data-commander="{c}">')
        for h, who in enumerate(pile):
            cy = base - r - 1 - h * step
            out.append(f'<circle class="s{who}" cx="{x}" cy="{cy}" r="{r}" fill="{COLOURS[who]}" stroke="#fff"/>')
            if step >= 12:
                out.append(f'<text x="{x}" y="{cy + 3}" text-anchor="middle" font-size="8" fill="#fff">'
                           f"{LETTERS[who]}</text>")
        label = f"{own}{LETTERS[c]}" + (f"+{prisoners}{LETTERS[1 - c]}" if prisoners else "")
        y = base - 2 * r - 5 - (len(pile) - 1) * step
        out.append(f'<text x="{x}" y="{y}" text-anchor="middle" font-size="9" fill="{COLOURS[c]}">{label}</text></g>')
    for who, x in ((0, side // 2), (1, side + T * cw + side // 2)):   # Jade enters at 1, Cinnabar at T
        out.append(f'<g class="home s{who}" text-anchor="middle">'
                   f'<rect x="{x - side // 2 + 4}" y="{base - 44}" width="{side - 8}" height="64" rx="4" '
                   f'fill="#fff" stroke="{COLOURS[who]}" stroke-width="2"/>'
                   f'<text x="{x}" y="{base - 28}" font-weight="bold" fill="{COLOURS[who]}">{names[who]}</text>'
                   f'<text x="{x}" y="{base - 12}">home {s["home"][who]}</text>'
                   f'<text x="{x}" y="{base + 4}">dead {s["dead"][who]}</text></g>')
    out.append(f'<text x="{width // 2}" y="{base + 38}" text-anchor="middle" fill="#555">'
               f"{names[0]} runs 1 \u2192 {T}; {names[1]} runs {T} \u2192 1</text></svg>")
    return "".join(out)


def key(record) -> list[tuple[str, str, str]]:
    """How to read the track (the game page's key): (fill, symbol, meaning) of each side's
    warriors, the spaces and the highlighted landing space."""
    return [(COLOURS[0], LETTERS[0], "a Jade warrior (a disc; J in the text board)"),
            (COLOURS[1], LETTERS[1], "a Cinnabar warrior (a disc; C in the text board)"),
            ("", "1..", "the track's spaces, numbered from Jade's end; a pile's commander stands on top, "
             "its prisoners below, the counts above it"),
            ("#fff1b8", "", "the space the last move landed on"),
            ("", "home / dead", "each side's warriors waiting to enter, and those killed, at the end it "
             "enters from")]
