"""Batam games told and drawn from their records (``sim show batam``).

``narrate(record, seat_names)``: the game turn by turn in the rulebook's words (who offers
which wages, which dice are rolled and re-rolled, where each die is placed, every voyage
with what it met: goods sold, compass tiles and cards, pirates; the wages paid, the return
bonus, how the game ended and who won).  ``draw(snapshot_row, record)``: the map with the
ships on it, as text, from a state snapshot (when recording, the kernel copies the ships,
coins, goods, compass tiles and bank after every voyage: ``state.SNAP_*``);
``svg(snapshot_row, record)`` draws the same as an SVG element (``sim show --html``).
``steps(lines)``: ``sim show``'s numbering (round k is step k).
"""
from __future__ import annotations

from functools import lru_cache
from html import escape

from ...steps import numbered_steps
from . import data as DATA
from . import state as S

KIND = {v: k.replace("_", " ") for k, v in DATA.KIND_NAMES.items()}
SLOT = ("captain", "sailor", "ship")
STEP_WORD = "Round"    # sim show numbers the rounds, as the narration does
SHIP = ("#d22f2f", "#2f5fd0", "#23944a", "#e2b41b")     # Red, Blue, Green, Yellow
EFFECT = {S.FX_TRADEWIND: "tradewind", S.FX_SUNKEN: "sunken treasure", S.FX_MAP: "treasure map",
          S.FX_PIRATE: "pirate", S.FX_CASH: "treasure map cashed"}


@lru_cache(maxsize=8)
def _data(rules_key):
    return DATA.load_all(dict(rules_key))


def _load(record):
    return _data(tuple(sorted((k, v) for k, v in record.rules.items())))


def _die(v):
    return "seasick" if v == 0 else str(v)


class _Teller:
    """Turns events into lines; consecutive steps of one ship become one voyage line."""

    def __init__(self, record, names):
        self.d = _load(record)
        self.b = self.d["board"]
        self.names = list(names)
        self.lines = []
        self.voyage = None      # (seat, [spaces], movement left)
        self.moving = None      # the seat whose ship is under way (steps taken, no stop yet)

    def who(self, s):
        return self.names[s] if 0 <= s < len(self.names) else f"seat {s}"

    def space(self, v):
        r, c = self.b.cells[v]
        k = int(self.b.kind[v])
        if k == DATA.HARBOUR:
            return self.b.island_names[int(self.b.island[v])]
        return f"{'compass' if k == DATA.COMPASS else 'sea'} ({r},{c})"

    def say(self, text):
        self.flush()
        self.lines.append(text)

    def flush(self):
        if self.voyage:
            s, path, left = self.voyage
            self.lines.append(f"  {self.who(s)} sails {' -> '.join(self.space(v) for v in path)} "
                              f"({len(path) - 1} space{'s' if len(path) != 2 else ''}, {left} "
                              f"movement left)")
            self.voyage = None

    def item(self, card, k):
        kinds, vals, isl = ((self.d["ck"], self.d["cv"], self.d["ci"]) if card else
                            (self.d["tk"], self.d["tv"], self.d["ti"]))
        name = KIND[int(kinds[k])]
        if int(kinds[k]) == DATA.MAP:
            name += f" of {self.b.island_names[int(isl[k])]}"
        return f"{name} {int(vals[k])}"

    def event(self, kind, a, f):
        w = self.who
        if kind not in _SAILING:
            self.moving = None
        if kind == S.E_FIRST:
            self.say(f"Setup: {w(f[0])} rolls {_die(f[1])} and {_die(f[2])} for first player")
        elif kind == S.E_TILE:
            self.say(f"Setup: compass space {f[0] + 1} gets the {self.item(False, f[1])} tile")
        elif kind == S.E_SHUFFLE:
            self.say(f"The compass deck is shuffled ({f[1]} cards)" if f[0] == 0 else
                     f"The discards are reshuffled into a new compass deck ({f[1]} cards)")
        elif kind == S.E_ROUND:
            P = len(self.names)
            row = ", ".join(w((f[1] + i) % P) for i in range(P))
            self.say(f"Round {f[0]} (crew row: {row})")
        elif kind == S.E_WAGES:
            self.say(f"  {w(a)} offers wages: {f[0]} for the captain, {f[1]} for the sailor")
        elif kind == S.E_ROLL:
            if f[3] == 0:
                self.say(f"  {w(f[0])} rolls die {f[1] + 1}: {_die(f[2])}")
            else:
                self.say(f"  {w(f[0])} re-rolls die {f[1] + 1}: {_die(f[2])}")
        elif kind == S.E_REROLL:
            if f[0]:
                dice = ", ".join(str(i + 1) for i in range(3) if (f[0] >> i) & 1)
                self.say(f"  {w(a)} pays {f[1]} to re-roll dice {dice}")
        elif kind == S.E_PLACE:
            self.say(f"  {w(a)} places a {f[1]} on {w(f[2])}'s board ({SLOT[f[3]]})")
        elif kind == S.E_STEP:
            self.moving = a
            if self.voyage and self.voyage[0] == a and self.voyage[1][-1] == f[0]:
                self.voyage[1].append(f[1])
                self.voyage = (a, self.voyage[1], f[2])
            else:
                self.flush()
                self.voyage = (a, [f[0], f[1]], f[2])
        elif kind == S.E_STOP:
            if self.moving == a:        # the end of this ship's voyage
                self.flush()
            else:                       # a ship that does not move
                self.say(f"  {w(a)} stays at {self.space(f[0])}")
            self.moving = None
        elif kind == S.E_CARD:
            self.say(f"  {w(f[3])} draws a compass card: {self.item(True, f[0])}")
        elif kind == S.E_RANSOM:
            self.say(f"  {w(a)} {'pays' if f[2] else 'refuses'} the pirate's ransom of {f[1]}")
        elif kind == S.E_SELL:
            paid = f" and pays {f[2]} to the earlier cubes" if f[2] else ""
            self.say(f"  {w(a)} sells a goods cube on {self.b.island_names[f[0]]}: {f[1]} coins "
                     f"from the bank{paid}")
        elif kind == S.E_EFFECT:
            self.effect(a, f)
        elif kind == S.E_PAID:
            self.say(f"  Wages: {w(a)} earns {f[2]} as {SLOT[f[1]]} on {w(f[0])}'s board")
        elif kind == S.E_BONUS:
            self.say(f"  {w(a)} gets the return bonus: {f[0]} coins")
        elif kind == S.E_END:
            self.say(f"The game ends after {f[2]} round{'s' if f[2] != 1 else ''}: " +
                     (f"{w(f[3])} returned to Batam with every good sold" if f[0] == S.END_RETURN
                      else "stopped by the round horizon"))

    def effect(self, a, f):
        what, amount, card, k, neutral = f[0], f[1], f[2], f[3], f[4]
        w = self.who(a)
        src = ("card" if card else "tile") if what != S.FX_CASH else ""
        note = " (neutral: no effect)" if neutral else ""
        if what == S.FX_TRADEWIND:
            self.say(f"  {w} meets a tradewind {src}: {amount} more movement{note}")
        elif what == S.FX_SUNKEN:
            self.say(f"  {w} takes sunken treasure ({src}): {amount} coins{note}")
        elif what == S.FX_MAP:
            self.say(f"  {w} takes a treasure map ({src}) of {self.b.island_names[f[5]]}: {amount} "
                     f"coins there{note}")
        elif what == S.FX_PIRATE and not card:
            self.say(f"  {w} passes the pirate tile: pays {amount} coins{note}")
        elif what == S.FX_PIRATE:
            self.say(f"  {w} meets the pirate card: " +
                     ("stops" if f[5] else f"pays {amount} coins") + note)
        elif what == S.FX_CASH:
            self.say(f"  {w} cashes the treasure maps of {self.b.island_names[k]}: {amount} coins")


def narrate(record, seat_names) -> list[str]:
    """The game of ``record`` turn by turn; the last line names the winner (as its columns)."""
    t = _Teller(record, seat_names)
    for ev in record.events:
        t.event(int(ev[0]), int(ev[1]), [int(x) for x in ev[2:]])
    t.flush()
    return t.lines + [_winner_line(record, t)]


def _winner_line(record, t) -> str:
    """The last line: the winner and every seat's coins and goods, as the columns say."""
    cols = record.columns
    score = ", ".join(f"{t.who(s)} {cols.get(f'coins_{s}')} coins, {cols.get(f'goods_sold_{s}')} "
                      "goods" for s in range(record.players))
    w = int(cols.get("winner", -1))
    return f"Winner: {t.who(w)} ({score})" if w >= 0 else f"No single winner ({score})"


def steps(lines) -> list:
    """``sim show``'s numbering of ``narrate``'s lines: ``Round k`` is step k and the lines of
    the round continue it (0); the set-up before round 1 and the end and the winner after
    the last round are not numbered (None)."""
    return numbered_steps(lines, r"Round (\d+) \(", ("The game ends after ",))


_SAILING = (S.E_STEP, S.E_STOP, S.E_CARD, S.E_RANSOM, S.E_SELL, S.E_EFFECT)


def turns(record, seat_names) -> list[tuple]:
    """``sim show``'s pairing: (line, snapshot index or None).  The kernel copies the state
    after each ship's voyage; a voyage is the run of sailing events (steps, stop, cards,
    ransoms, sales, effects) of one seat, so the board follows the voyage's last line.
    Where the voyages found do not match the snapshots one for one, no board is paired
    (``sim show`` then prints the boards after the story)."""
    t = _Teller(record, seat_names)
    ends = []                         # line count at the end of each voyage
    sailing = None                    # the seat whose voyage is being told
    for ev in record.events:
        kind, a, f = int(ev[0]), int(ev[1]), [int(x) for x in ev[2:]]
        seat = f[3] if kind == S.E_CARD else a
        starts = kind in (S.E_STEP, S.E_STOP) and sailing is not None and seat != sailing
        if sailing is not None and (kind not in _SAILING or starts):
            t.flush()
            ends.append(len(t.lines))
            sailing = None
        if kind in _SAILING and sailing is None:
            sailing = seat
        t.event(kind, a, f)
    t.flush()
    if sailing is not None:
        ends.append(len(t.lines))
    lines = t.lines + [_winner_line(record, t)]     # narrate's lines, told once
    snaps = 0 if record.snapshots is None else len(record.snapshots)
    at = {n - 1: k for k, n in enumerate(ends)} if len(ends) == snaps else {}
    return [(text, at.get(i)) for i, text in enumerate(lines)]


def draw(snapshot_row, record) -> str:
    """The map (``~`` sea, ``*`` compass, ``#`` land, harbours by their islands' letters) with
    the ships (their seats' initials in lower case; a count where several share a harbour)
    and ``o`` for a compass space whose tile was taken; then each seat's coins and goods."""
    b = _load(record)["board"]
    grid = [list(r) for r in b.rows]
    P = record.players
    names = ["Red", "Blue", "Green", "Yellow"]
    at = {}
    for s in range(P):
        at.setdefault(int(snapshot_row[S.SNAP_POS + s]), []).append(s)
    comp = [v for v in range(len(b.kind)) if int(b.kind[v]) == DATA.COMPASS]
    if record.rules.get("compass") == "tiles":
        for c, v in enumerate(comp):
            if int(snapshot_row[S.SNAP_TILE + c]) < 0:
                r, col = b.cells[v]
                grid[r][col] = "o"           # a compass space whose tile was taken
    for v, seats in at.items():
        r, col = b.cells[v]
        grid[r][col] = names[seats[0]][0].lower() if len(seats) == 1 else str(len(seats))
    legend = "; ".join(f"{names[s]} ({names[s][0].lower()}) {int(snapshot_row[S.SNAP_COINS + s])} coins, "
                       f"{int(snapshot_row[S.SNAP_GOODS + s])} goods" for s in range(P))
    return "\n".join("".join(r) for r in grid) + "\n" + legend


def svg(snapshot_row, record) -> str:
    """The map of a snapshot as an SVG element (what :func:`draw` draws): sea, land, the
    compass spaces (a hollow ring where the tile was taken), the harbours by their islands'
    letters (the island's name as a tooltip), each ship a disc in its seat's colour (class
    ``ship s<seat>``; ships sharing a space side by side); then each seat's coins and goods."""
    b = _load(record)["board"]
    P = record.players
    names = ["Red", "Blue", "Green", "Yellow"]
    cs = 18                                        # a map space's size
    H, W = len(b.rows), max(len(r) for r in b.rows)
    width, height = max(W * cs, 260), H * cs + 6 + 16 * P
    at = {}
    for seat in range(P):
        at.setdefault(int(snapshot_row[S.SNAP_POS + seat]), []).append(seat)
    comp = {v: c for c, v in enumerate(v for v in range(len(b.kind)) if int(b.kind[v]) == DATA.COMPASS)}
    tiles = record.rules.get("compass") == "tiles"
    legend = [f"{names[p]} {int(snapshot_row[S.SNAP_COINS + p])} coins, {int(snapshot_row[S.SNAP_GOODS + p])} goods"
              for p in range(P)]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board batam" viewBox="0 0 {width} {height}" '
           f'width="{width * 4 // 3}" height="{height * 4 // 3}" role="img" font-family="sans-serif" '
           f'font-size="10"><title>{escape("Batam map: " + "; ".join(legend))}</title>'
           f'<rect width="{W * cs}" height="{H * cs}" fill="#cfe6f5"/>']
    land = "".join(f"M{c * cs} {r * cs}h{cs}v{cs}h-{cs}z" for r, row in enumerate(b.rows)
                   for c, ch in enumerate(row) if ch == "#")
    blank = "".join(f"M{c * cs} {r * cs}h{cs}v{cs}h-{cs}z" for r, row in enumerate(b.rows)
                    for c, ch in enumerate(row) if ch == " ")
    out.append(f'<path class="land" d="{land}" fill="#b9a676"/>')
    if blank:
        out.append(f'<path d="{blank}" fill="#fff"/>')
    out.append('<g text-anchor="middle">')
    for v, kind in enumerate(int(k) for k in b.kind):
        r, c = b.cells[v]
        x, y = c * cs + cs // 2, r * cs + cs // 2
        if kind == DATA.COMPASS:
            taken = tiles and int(snapshot_row[S.SNAP_TILE + comp[v]]) < 0
            out.append(f'<circle class="compass{" taken" if taken else ""}" cx="{x}" cy="{y}" r="5" '
                       f'fill="{"none" if taken else "#f3c530"}" stroke="#7a5b00"/>')
        elif kind == DATA.HARBOUR:
            isl = int(b.island[v])
            out.append(f'<g class="harbour"><title>{escape(b.island_names[isl])}</title>'
                       f'<rect x="{x - cs // 2 + 1}" y="{y - cs // 2 + 1}" width="{cs - 2}" height="{cs - 2}" '
                       f'fill="#f6ecd0" stroke="#7d6432"/><text x="{x}" y="{y + 4}" font-weight="bold">'
                       f"{escape(b.letters[isl])}</text></g>")
    for v, seats in sorted(at.items()):
        if not 0 <= v < len(b.cells):
            continue
        r, c = b.cells[v]
        n = len(seats)
        for j, seat in enumerate(seats):
            dx = 0 if n == 1 else (-4 if j % 2 == 0 else 4)
            dy = 0 if n <= 2 else (-4 if j < 2 else 4)
            x, y = c * cs + cs // 2 + dx, r * cs + cs // 2 + dy
            rad = 6 if n == 1 else 4
            ink = "#000" if seat == 3 else "#fff"
            out.append(f'<circle class="ship s{seat}" cx="{x}" cy="{y}" r="{rad}" fill="{SHIP[seat]}" '
                       'stroke="#000"/>')
            if n == 1:
                out.append(f'<text x="{x}" y="{y + 3}" font-size="8" fill="{ink}">{names[seat][0]}</text>')
    out.append("</g>")
    for p, text in enumerate(legend):
        y = H * cs + 6 + 16 * p
        out.append(f'<circle cx="8" cy="{y + 6}" r="5" fill="{SHIP[p]}" stroke="#000"/>'
                   f'<text x="18" y="{y + 10}" font-size="11">{escape(text)}</text>')
    out.append("</svg>")
    return "".join(out)


def key(record) -> list[tuple[str, str, str]]:
    """How to read the map (the game page's key): (fill, symbol, meaning) of the sea, land,
    compass spaces, each harbour's island letter and each ship :func:`svg` and :func:`draw` use."""
    b = _load(record)["board"]
    names = ["Red", "Blue", "Green", "Yellow"]
    out = [("#cfe6f5", "~", "sea"), ("#b9a676", "#", "land"), ("#f3c530", "*", "a compass space"),
           ("", "o", "a compass space whose tile was taken (a hollow ring)")]
    out += [("#f6ecd0", letter, f"the harbour of {name}" + (" (the start)" if i == 0 else ""))
            for i, (letter, name) in enumerate(zip(b.letters, b.island_names))]
    out += [(SHIP[s], names[s][0].lower(), f"{names[s]}'s ship (a disc; its initial in lower case in "
             "the text map, a number where several share a space)") for s in range(record.players)]
    return out
