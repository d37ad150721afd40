"""A recorded game of Maya told turn by turn in the rulebook's words (``narrate``), and the
board as text (``draw``), for ``sim show``.

Towers are named by letters row by row (A is the top-left tower, the centre of the 3 x 3
board is E), levels from 1 (bottom) to 5 (top), as the rulebook counts them.
``svg(snapshot_row, record)`` draws the board of ``draw`` as an SVG element (``sim show
--html``); ``steps(lines)`` is ``sim show``'s numbering (turn k, the k-th exchange, is step k).
"""
from __future__ import annotations

from html import escape

import numpy as np

from ...steps import numbered_steps
# a snapshot row's layout (``state.snapshot``)
from .state import (SNAP_CUT as CUT, SNAP_LAD as LAD, SNAP_MA as MA, SNAP_MB as MB, SNAP_PR as PR,
                    SNAP_RAV as RAV, SNAP_TW as TW)

END_WORDS = ("the player to move has no legal exchange", "a player declared the end",
             "the horizon was reached")
STEP_WORD = "Turn"     # sim show numbers the exchanges as the narration does: turn k is step k
# the board file's colours drawn (by name; another name takes the palette by its place)
FILL = {"red": "#d63c32", "orange": "#f08a24", "yellow": "#f5d33b", "green": "#3f9e4d",
        "blue": "#3a6fc4", "purple": "#8a4fb0", "pink": "#f29bc1", "brown": "#8b5a34",
        "grey": "#9a9a9a", "gray": "#9a9a9a", "white": "#f4f4f4", "black": "#222222"}
PALETTE = ("#d63c32", "#f08a24", "#f5d33b", "#3f9e4d", "#3a6fc4", "#8a4fb0", "#f29bc1", "#8b5a34",
           "#9a9a9a", "#2bb3b1", "#b5c93a", "#6b6b9e")


def tower_name(t: int) -> str:
    return chr(ord("A") + int(t))


def _colours(record) -> list[str]:
    from . import load_board
    return load_board(record.rules.get("board", "standard"))["colours"]


def _shape(record):
    from . import load_board
    b = load_board(record.rules.get("board", "standard"))
    return b["rows"], b["cols"], b["levels"]


def _who(actor: int, seat_names) -> str:
    return seat_names[actor] if 0 <= actor < len(seat_names) else "Chance"


def _col(record, name, seat=None):
    key = name if seat is None else f"{name}_{seat}"
    return record.columns.get(key)


def _snapshot(record, k):
    snaps = record.snapshots
    if snaps is None or k >= len(snaps):
        return None
    return snaps[k]


def _placements(before, after, a, b, seat, seat_names):
    """What the exchange put on the board, from the snapshots around it."""
    out = []
    for t in (a, b):
        if after[LAD + 2 * t + seat] > before[LAD + 2 * t + seat]:
            out.append(f"places a ladder beside tower {tower_name(t)}")
        if after[PR + t] >= 0 and before[PR + t] < 0:
            out.append(f"places a priest on tower {tower_name(t)}")
    return out


def _exchange_line(f, actor, turn, record, seat_names, colours, snap_before, snap_after):
    L = _shape(record)[2]
    a, b, level = f["tower_a"], f["tower_b"], f["level"]
    moved = L - level + 1
    who = _who(actor, seat_names)
    line = (f"Turn {turn}: {who} exchanges the blocks of towers {tower_name(a)} and "
            f"{tower_name(b)} from level {level} up ({moved} block{'s' if moved > 1 else ''})")
    what = []
    for bit, t in ((1, a), (2, b)):
        if f["joined"] & bit:
            colour = ""
            if snap_after is not None:
                c = (int(snap_after[TW + t]) >> (4 * (level - 1))) & 15
                colour = f"{colours[c]} "
            done = " and completes the tower" if f["completed"] & bit else ""
            what.append(f"joins {colour}blocks in tower {tower_name(t)}{done}")
    if snap_before is not None and snap_after is not None and len(seat_names) == 2:
        what += _placements(snap_before, snap_after, a, b, actor, seat_names)
    if what:
        line += ": " + "; ".join(what)
    line += f". The Monolith moves between towers {tower_name(a)} and {tower_name(b)}"
    if len(seat_names) == 2 and record.rules.get("raven", True):
        line += f", the Raven to level {level}"
    return line + "."


def _set_up_lines(record, ev, seat_names, colours, L):
    """The set-up events (board, blocks, placements, start, deal) as lines."""
    lines = []
    name, actor, f = ev
    if name == "board":
        packed = f["levels_1_7"] | (f["levels_8_12"] << 28)
        blocks = [colours[(packed >> (4 * lev)) & 15] for lev in range(L)]
        if f["tower"] == 0:
            lines.append(f"The towers are built at random ({f['attempts']} attempt"
                         f"{'s' if f['attempts'] > 1 else ''} of the uniform set-up), "
                         "bottom to top:")
        lines.append(f"  tower {tower_name(f['tower'])}: {', '.join(blocks)}")
    elif name == "block":
        lines.append(f"Level {f['level']}: chance draws the {colours[f['colour']]} block;")
    elif name == "place":
        lines.append(f"  {_who(actor, seat_names)} puts it on tower {tower_name(f['tower'])}.")
    elif name == "start":
        raven = f" and the Raven at level {f['raven']}" if f["raven"] else ""
        lines.append(f"{_who(actor, seat_names)} places the Monolith between towers "
                     f"{tower_name(f['tower_a'])} and {tower_name(f['tower_b'])}{raven}.")
    elif name == "deal":
        lines.append(f"{_who(f['seat'], seat_names)} is dealt the task cards "
                     f"{colours[f['card_1']]} and {colours[f['card_2']]}.")
    return lines


def _final_lines(record, seat_names):
    P = len(seat_names)
    cols = record.columns
    if not cols:
        return []
    end = int(cols["end_reason"])
    lines = [f"The game ends after {int(cols['exchanges'])} exchanges: {END_WORDS[end]}."]
    scores = ", ".join(f"{seat_names[p]} {int(_col(record, 'score', p))}" for p in range(P))
    lines.append(f"Score: {scores}.")
    side = int(cols["team_winner"])
    if P == 4:
        if side >= 0:
            lines.append(f"{seat_names[side]} and {seat_names[side + 2]} win "
                         f"({int(_col(record, 'team_score', side))} points as a team).")
        else:
            lines.append("The teams are tied: the victory is shared.")
    elif side >= 0:
        how = ("", " on priests", " on ladders")[min(int(cols["tiebreak"]), 2)]
        lines.append(f"{seat_names[side]} wins{how}.")
    elif P == 2 or end == 2:
        lines.append("There is no winner.")
    else:
        tied = [seat_names[p] for p in range(P)
                if float(_col(record, "win", p)) > 0]
        lines.append(f"{' and '.join(tied)} share the victory.")
    return lines


def steps(lines) -> list:
    """``sim show``'s numbering of ``narrate``'s lines: ``Turn k`` (the k-th exchange) is step
    k and the declarations after it continue it (0); the set-up before the first exchange
    and the end, the score and the winner after the last are not numbered (None)."""
    return numbered_steps(lines, r"Turn (\d+): ", ("The game ends after ",))


def narrate(record, seat_names) -> list[str]:
    """The game in the rulebook's words, one line per event (and the result)."""
    return [text for text, _ in turns(record, seat_names)]


def turns(record, seat_names) -> list[tuple]:
    """``sim show``'s pairing: (line, snapshot index or None).  Snapshot 0 is the board as
    set up (drawn after the last set-up line), snapshot t the board after exchange t."""
    from . import GAME
    kinds = {a.code: a for a in GAME.actions}
    colours = _colours(record)
    L = _shape(record)[2]
    lines = []
    turn = 0
    for ev in np.asarray(record.events):
        a = kinds[int(ev[0])]
        actor = int(ev[1])
        f = {name: int(ev[2 + j]) for j, name in enumerate(a.fields)}
        if a.name == "exchange":
            if turn == 0 and lines:          # the board as set up, after the set-up lines
                lines[-1] = (lines[-1][0], 0)
            turn += 1
            lines.append((_exchange_line(f, actor, turn, record, seat_names, colours,
                                         _snapshot(record, turn - 1), _snapshot(record, turn)), turn))
        elif a.name == "declare":
            bonus = f" and takes the centre bonus of {f['bonus']}" if f["bonus"] else ""
            lines.append((f"{_who(actor, seat_names)} declares the end of the game{bonus}.", None))
        elif a.name == "play_on":
            lines.append((f"{_who(actor, seat_names)} could declare the end and plays on.", None))
        else:
            lines += [(t, None) for t in _set_up_lines(record, (a.name, actor, f), seat_names,
                                                       colours, L)]
    return lines + [(t, None) for t in _final_lines(record, seat_names)]


def draw(snapshot_row, record) -> str:
    """The board of one snapshot as text: the towers in their grid, each level's colour
    from the top down, with (two players) the Raven's level, each tower's ladders
    (White/Black) and its priest below."""
    st = np.asarray(snapshot_row)
    rows, cols, L = _shape(record)
    colours = _colours(record)
    two = record.players == 2
    w = max(len(c) for c in colours) + 2
    out = []
    raven_on = two and record.rules.get("raven", True)
    for r in range(rows):
        towers = [r * cols + c for c in range(cols)]
        out.append("".join(f"{tower_name(t) + (' done' if st[CUT + t] == 0 else ''):<{w + 2}}"
                           for t in towers).rstrip())
        for lev in range(L - 1, -1, -1):
            line = "".join(f"{lev + 1} {colours[(int(st[TW + t]) >> (4 * lev)) & 15]:<{w}}"
                           for t in towers).rstrip()
            out.append(line + ("   <- Raven" if raven_on and st[RAV] == lev else ""))
        if two:
            cells = []
            for t in towers:
                cell = f"L {int(st[LAD + 2 * t])}/{int(st[LAD + 2 * t + 1])}"
                if st[PR + t] >= 0:
                    cell += " P " + "WB"[int(st[PR + t])]
                cells.append(f"{cell:<{w + 2}}")
            out.append("".join(cells).rstrip())
        out.append("")
    if st[MA] >= 0:
        out.append(f"Monolith between towers {tower_name(st[MA])} and {tower_name(st[MB])}"
                   + (f"; Raven at level {int(st[RAV]) + 1}"
                      if two and record.rules.get("raven", True) else "")
                   + ".")
    return "\n".join(out)


def _fill(colours, c: int) -> str:
    return FILL.get(colours[c].strip().lower(), PALETTE[c % len(PALETTE)])


def _ink(fill: str) -> str:
    """Black or white text, whichever reads on ``fill``."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def svg(snapshot_row, record) -> str:
    """The board of one snapshot as an SVG element (what :func:`draw` draws): the towers in
    their grid, each level a block in its colour, named inside (the blocks of one colour
    are one ``blocks`` path, ``data-colour`` its name: a long game's page stays small), a
    completed tower framed and marked done; with two players the Raven's level beside each
    row of towers, each tower's ladders (White/Black) and its priest; the Monolith as a bar
    between its two towers."""
    st = np.asarray(snapshot_row)
    rows, cols, L = _shape(record)
    colours = _colours(record)
    two = record.players == 2
    raven_on = two and record.rules.get("raven", True)
    tw, gap, bh, ml = 78, 18, 16, 16              # a tower's width, the gap, a block's height, margin
    mr = 52 if raven_on else 8
    rh = 16 + L * bh + (16 if two else 0)         # a row of towers: names, blocks, ladders and priest
    width = ml + cols * tw + (cols - 1) * gap + mr
    height = 6 + rows * rh + (rows - 1) * gap + (22 if st[MA] >= 0 else 4)

    def x_of(t):
        return ml + (t % cols) * (tw + gap)

    def y_of(t):                                  # the top of the tower's top block
        return 6 + (t // cols) * (rh + gap) + 16

    about = []
    if st[MA] >= 0:
        about.append(f"Monolith between towers {tower_name(st[MA])} and {tower_name(st[MB])}")
    if raven_on:
        about.append(f"Raven at level {int(st[RAV]) + 1}")
    done = [tower_name(t) for t in range(rows * cols) if st[CUT + t] == 0]
    title = "Maya board" + (": " + "; ".join(about) if about else "") + (
        f"; completed: {', '.join(done)}" if done else "")
    blocks = {}                                   # colour -> the blocks' outlines
    dark, light, labels, marks = [], [], [], []   # texts in black, in white, and the rest
    for t in range(rows * cols):
        x, y = x_of(t), y_of(t)
        finished = st[CUT + t] == 0
        labels.append(f'<text x="{x + tw // 2}" y="{y - 4}" font-weight="bold">{tower_name(t)}'
                      f'{" done" if finished else ""}</text>')
        for lev in range(L):
            c = (int(st[TW + t]) >> (4 * lev)) & 15
            by = y + (L - 1 - lev) * bh
            blocks.setdefault(c, []).append(f"M{x} {by}h{tw}v{bh - 1}h-{tw}z")
            fill = _fill(colours, c) if c < len(colours) else "#ffffff"
            name = colours[c] if c < len(colours) else "?"
            (light if _ink(fill) == "#fff" else dark).append(
                f'<text x="{x + tw // 2}" y="{by + 11}">{escape(name[:12])}</text>')
        if finished:
            marks.append(f'<rect x="{x - 1}" y="{y - 1}" width="{tw + 2}" height="{L * bh + 1}" fill="none" '
                         'stroke="#111" stroke-width="2"/>')
        if two:
            ly = y + L * bh + 12
            labels.append(f'<text x="{x + tw // 2 - 6}" y="{ly}">'
                          f"ladders {int(st[LAD + 2 * t])}/{int(st[LAD + 2 * t + 1])}</text>")
            if st[PR + t] >= 0:
                p = int(st[PR + t])
                marks.append(f'<circle class="priest" cx="{x + tw - 8}" cy="{ly - 4}" r="6" '
                             f'fill="{("#fff", "#222")[p]}" stroke="#222"/><text x="{x + tw - 8}" y="{ly - 1}" '
                             f'text-anchor="middle" font-size="8" fill="{("#222", "#fff")[p]}">P</text>')
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board maya" viewBox="0 0 {width} {height}" '
           f'width="{width * 4 // 3}" height="{height * 4 // 3}" role="img" font-family="sans-serif" '
           f'font-size="10"><title>{escape(title)}</title>']
    for c, parts in sorted(blocks.items()):
        fill = _fill(colours, c) if c < len(colours) else "#ffffff"
        name = colours[c] if c < len(colours) else "?"
        out.append(f'<path class="blocks" data-colour="{escape(name)}" d="{"".join(parts)}" fill="{fill}"/>')
    out.append('<g text-anchor="middle">' + "".join(labels + dark) + '<g fill="#fff">' + "".join(light)
               + "</g></g>" + "".join(marks))
    levels = []
    for r in range(rows):
        y = y_of(r * cols)
        levels += [f'<text x="{ml - 4}" y="{y + (L - 1 - lev) * bh + 11}">{lev + 1}</text>' for lev in range(L)]
        if raven_on:
            ry = y + (L - 1 - int(st[RAV])) * bh + 11
            out.append(f'<text class="raven" x="{width - mr + 4}" y="{ry}">\u25c0 Raven</text>')
    out.append('<g text-anchor="end" fill="#777">' + "".join(levels) + "</g>")
    if st[MA] >= 0:
        a, b = sorted((int(st[MA]), int(st[MB])))
        if a // cols == b // cols and b - a == 1:          # side by side: a bar in the gap
            bar = (x_of(a) + tw + gap // 2 - 3, y_of(a), 6, L * bh)
        elif a % cols == b % cols and b - a == cols:       # one above the other: a bar between
            bar = (x_of(a), y_of(a) + rh - 16 + gap // 2 - 3, tw, 6)
        else:
            bar = None
        if bar:
            out.append(f'<rect class="monolith" x="{bar[0]}" y="{bar[1]}" width="{bar[2]}" height="{bar[3]}" '
                       'fill="#333"/>')
        else:
            out.append(f'<path class="monolith" d="M{x_of(a) + tw // 2} {y_of(a)}L{x_of(b) + tw // 2} {y_of(b)}" '
                       'stroke="#333" stroke-width="6"/>')
        out.append(f'<text x="{ml}" y="{height - 6}">{escape("; ".join(about))}.</text>')
    out.append("</svg>")
    return "".join(out)


def key(record) -> list[tuple[str, str, str]]:
    """How to read the board (the game page's key): (fill, symbol, meaning) of the towers'
    letters, each block colour, and (two players) the ladders, priests and Raven."""
    colours = _colours(record)
    rows, cols, L = _shape(record)
    out = [("", f"A..{tower_name(rows * cols - 1)}", "the towers, named row by row; 'done' a completed tower "
            "(framed)")]
    out += [(_fill(colours, c), "", f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name} block (its colour "
             "named inside; level 1 at the bottom)")
            for c, name in enumerate(colours)]
    if record.players == 2:
        out += [("", "L w/b", "the tower's ladders: White's / Black's"),
                ("#ffffff", "P", "White's priest on the tower (P W in the text board)"),
                ("#222222", "P", "Black's priest on the tower (P B in the text board)")]
        if record.rules.get("raven", True):
            out.append(("", "Raven", "the Raven's level, beside each row of towers"))
    out.append(("", "Monolith", "the Monolith: a bar between its two towers"))
    return out
