"""A recorded game of Balam told round by round in the rulebook's words (``narrate``), and
the board after a round as text (``draw``), for ``sim show``.

A site is named by the site tile lying on it in this game (the board file's tile ids,
e.g. ``B2``); the grid of ``draw`` is the board file's.  ``svg(snapshot_row, record)``
draws the board of ``draw`` as an SVG element (``sim show --html``); ``steps(lines)`` is
``sim show``'s numbering (round k is step k).
"""
from __future__ import annotations

from functools import lru_cache
from html import escape

import numpy as np

from ...steps import numbered_steps
from . import data as D
from .play import snapshot_layout

RICHES = D.RICHES
BUILDINGS = ("empty",) + D.BUILDINGS
SINKS = ("a temple ceremony", "a palace", "a garrison", "a reserve", "nowhere: lost")
END_WORDS = ("the last ball game was played", "the Katun deck ran out",
             "the round horizon was reached (a draw)")
CARD_TITLES = ("Prosperous Katun", "Favourable Katun", "Exceptional Katun", "Expedition return",
               "Cacao festival", "Princely marriage", "Cult of the sacred cenotes", "Ball game",
               "Eclipse", "Drought", "Insurrection", "Earthquake", "Pochteca", "Toltec raid",
               "Decadence", "Volcano", "Tidal wave")
LETTERS = ".VGPTMRBOo"   # building codes 0..9 (9: a palace's or temple's second space)
STEP_WORD = "Round"       # sim show numbers the rounds, as the narration does
SEAT_FILL = ("#7b3fa0", "#6f6f6f", "#c8901e", "#1b8a8a")   # Purple, Grey, Ochre, Teal
# a site tile by its production (maize, cacao, shell, jade, obsidian), a token by its riches
TILE_FILL = ("#fbf1c4", "#ead8c6", "#fbe6ea", "#d6f0dd", "#dcdce4")
TOKEN_FILL = ("#e8c22a", "#7a4a1e", "#f2b8c6", "#2e9c5a", "#333333", "#c0392b")
BUILDING_FILL = ("#ffffff", "#f1e3c6", "#e7b7b0", "#e9d27a", "#cfc0e8", "#bfe0c8", "#c9dcef", "#f0c99a",
                 "#d9d9d9")


@lru_cache(maxsize=8)
def _board(name: str):
    return D.load_board(D.resolve_file(name, "board"))


@lru_cache(maxsize=8)
def _deck(name: str):
    return D.load_deck(D.resolve_file(name, "katun"))


def _riches(t: int, n: int = 1) -> str:
    name = RICHES[t] if 0 <= t < len(RICHES) else f"riches {t}"
    if n == 1:
        return f"one {name}"
    return f"{n} {name}" + ("" if name in ("maize", "cacao", "obsidian") else "s")


def _gain_words(g) -> str:
    parts = [_riches(t, int(g[t])) for t in range(6) if g[t] > 0]
    if g[D.PRESTIGE] > 0:
        parts.append(f"{int(g[D.PRESTIGE])} prestige")
    return ", ".join(parts) if parts else "nothing"


class _Game:
    """What the narration needs to know of the record: names of seats and sites."""

    def __init__(self, record, seat_names):
        self.record = record
        self.seats = list(seat_names)
        self.board = _board(record.rules.get("board", "default"))
        self.deck = _deck(record.rules.get("katun", "default"))
        S = len(self.board.names)
        self.tile = list(range(S))   # cell -> printed tile (the layout events)
        for ev in np.asarray(record.events):
            if int(ev[0]) == _code("layout"):
                self.tile[int(ev[2])] = int(ev[3])

    def who(self, actor: int) -> str:
        return self.seats[actor] if 0 <= actor < len(self.seats) else "Chance"

    def site(self, s: int) -> str:
        return f"site {self.board.names[self.tile[s]]}"

    def card(self, c: int) -> str:
        return CARD_TITLES[int(self.deck.ctype[c])]


@lru_cache(maxsize=1)
def _codes() -> dict:
    from .events import ACTIONS
    return {a.name: a.code for a in ACTIONS}


def _code(name: str) -> int:
    return _codes()[name]


def _events(record):
    from .events import ACTIONS
    kinds = {a.code: a for a in ACTIONS}
    for ev in np.asarray(record.events):
        a = kinds[int(ev[0])]
        yield a.name, int(ev[1]), {n: int(ev[2 + j]) for j, n in enumerate(a.fields)}


def _setup_lines(g: _Game, events) -> list[str]:
    lay = [f"{g.board.names[g.tile[s]]}" for s in range(len(g.tile))]
    deck = [e for e in events if e[0] == "deck"]
    balls = [f["position"] + 1 for _, _, f in deck if f["type"] == 7]
    first = next((f["seat"] for n, _, f in events if n == "first"), 0)
    return [f"Setup: the site tiles lie on the board's cells in the order {' '.join(lay)}.",
            f"The Katun deck holds {len(deck)} cards; the ball games are cards "
            f"{', '.join(map(str, balls))} from the top.",
            f"{g.who(first)} plays first."]


def _pending_pay(pays) -> str:
    total = {}
    for t, n in pays:
        total[t] = total.get(t, 0) + n
    return " and ".join(_riches(t, n) for t, n in sorted(total.items()))


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _turn_line(g: _Game, name, actor, f, tax, pays) -> str | None:
    """A turn's pass, building or attack; ``tax``: the riches paid for the turn (the
    turn's first building or attack only), ``pays``: the building's cost."""
    who = g.who(actor)
    head = f"{who} pays {_pending_pay(tax)} and " if tax else f"{who} "
    if name == "pass":
        return f"{head}passes."
    if name == "build":
        cost = f" (cost: {_pending_pay(pays)})" if pays else ""
        return f"{head}builds {_a(BUILDINGS[f['building']])} on {g.site(f['site'])}{cost}."
    if name == "attack":
        ob = f" and {f['obsidian']} obsidian" if f["obsidian"] else ""
        return (f"{head}attacks {g.who(f['defender'])}'s city on {g.site(f['to_site'])} from "
                f"{g.site(f['from_site'])} with {f['garrisons']} garrison"
                f"{'s' if f['garrisons'] > 1 else ''}{ob}.")
    return None


def _katun_line(g: _Game, name, actor, f) -> str | None:
    who = g.who(actor)
    if name == "card":
        return f"{who} turns the Katun card in slot {f['slot'] + 1}: {g.card(f['card'])}."
    if name == "gain":
        if f["option"] >= 0:
            return f"  {who} gains {_gain_words(g.deck.cgain[f['card'], f['option']])}."
        return f"  {who} brings back {_riches(f['riches'])}."
    if name == "take":
        return f"  {who} takes {_riches(f['riches'])} from {g.who(f['from_seat'])} as a dowry."
    if name == "catastrophe":
        how = "pays from his Mayas' riches" if f["paid"] else "suffers it"
        return f"  {CARD_TITLES[f['type']]} strikes {who}: he {how}."
    if name == "token":
        return f"    {who} gives {_riches(f['riches'])} from {g.site(f['site'])}."
    if name == "lose":
        if f["space"] < 0:
            return f"    {who}'s city on {g.site(f['site'])} is destroyed ({f['what']} buildings)."
        return f"    {who} loses {_a(BUILDINGS[f['what']])} on {g.site(f['site'])}."
    if name == "cenote":
        return (f"  {who}'s Mayas bring {_riches(f['riches'])} from {g.site(f['site'])} to the "
                f"cenote of {g.site(f['cenote'])}: {f['points']} prestige.")
    if name == "ball_game":
        return (f"  Ball game: {who} wins {f['points']} prestige ({f['courts']} ball court"
                f"{'s' if f['courts'] > 1 else ''}).")
    return None


def _war_line(g: _Game, name, actor, f, dice) -> str | None:
    who = g.who(actor)
    if name == "defend":
        ob = f" and spends {f['obsidian']} obsidian" if f["obsidian"] else ""
        return f"  {who} defends with {f['defence']} garrisons{ob}."
    if name == "skull":
        return f"  A skull: {who} loses a garrison on {g.site(f['site'])}."
    if name == "destroy":
        return (f"  {who} destroys {g.who(f['owner'])}'s {BUILDINGS[f['building']]} on "
                f"{g.site(f['site'])}.")
    if name == "prisoner":
        return f"  {who} places a prisoner in his garrison on {g.site(f['site'])}."
    return None


def _routes_line(g: _Game, actor, routes) -> str:
    parts = []
    for t, sink, s in routes:
        where = SINKS[sink]
        if sink in (2, 3) and s >= 0:
            where += f" on {g.site(s)}"
        parts.append(f"{_riches(t)} to {where}")
    return f"  {g.who(actor)} distributes: " + "; ".join(parts) + "."


def narrate(record, seat_names) -> list[str]:
    """The game in the rulebook's words: the setup, then per round the cards dealt, the
    divination, each king's turn (card, building, war or pass, with what followed),
    the distribution, the Clemency of Chaak; then the bonus and the result."""
    g = _Game(record, seat_names)
    events = list(_events(record))
    lines = _setup_lines(g, events)
    pays = []
    tax = []
    turn_actor = -1
    routes = []
    route_actor = -1
    dice = []
    for name, actor, f in events:
        if name != "route" and routes:
            lines.append(_routes_line(g, route_actor, routes))
            routes = []
        if name != "die" and dice:
            lines.append(f"  The dice show {', '.join(dice)}.")
            dice = []
        if name in ("layout", "deck", "first"):
            continue
        if name == "deal":
            turn_actor = -1
            lines.append(f"Round {f['round']}: {f['cards']} Katun cards face down; "
                         f"{g.who(f['first'])} plays first.")
        elif name == "divine":
            slots = [str(k + 1) for k in range(5) if f["slots"] >> k & 1]
            lines.append(f"  Divination: {g.who(actor)} looks at the face-down card"
                         f"{'s' if len(slots) > 1 else ''} in slot{'s' if len(slots) > 1 else ''} "
                         f"{', '.join(slots)}.")
        elif name == "pay":
            if actor != turn_actor:     # a new turn: its first payment is the turn's tax
                turn_actor = actor
                tax = [(f["riches"], f["n"])]
            else:
                pays.append((f["riches"], f["n"]))
        elif name in ("pass", "build", "attack"):
            lines.append(_turn_line(g, name, actor, f, tax, pays))
            pays, tax = [], []
        elif name == "die":
            dice.append("a skull" if f["face"] < 0 else str(f["face"]))
        elif name == "route":
            if actor != route_actor and routes:
                lines.append(_routes_line(g, route_actor, routes))
                routes = []
            route_actor = actor
            routes.append((f["riches"], f["sink"], f["site"]))
        elif name == "chaak":
            lines.append(f"  The Clemency of Chaak: each king gains {f['maize']} maize.")
        elif name == "bonus":
            lines.append(f"Riches bonus: {g.who(actor)} gains {f['points']} prestige "
                         f"({f['prestige']} in all).")
        elif name == "end":
            lines.append(f"The game ends after round {f['rounds']}: {END_WORDS[f['reason']]}.")
        else:
            if name == "card":
                turn_actor = actor
            line = _katun_line(g, name, actor, f) or _war_line(g, name, actor, f, dice)
            lines.append(line if line else f"{g.who(actor)}: {name} {f}")
    if routes:
        lines.append(_routes_line(g, route_actor, routes))
    return lines + _result_lines(record, g)


def steps(lines) -> list:
    """``sim show``'s numbering of ``narrate``'s lines: ``Round k`` is step k and the lines of
    the round continue it (0); the set-up before round 1 and the bonus, the end and the
    result after the last round are not numbered (None)."""
    return numbered_steps(lines, r"Round (\d+): ", ("Riches bonus", "The game ends", "Final prestige"))


def turns(record, seat_names) -> list[tuple]:
    """``sim show``'s pairing: (line, snapshot index or None).  The kernel copies the board
    and the kings at the end of each round (after the distribution and the Clemency of
    Chaak), so round r's board follows its last line.  Where the rounds found do not match
    the snapshots one for one, no board is paired (they are printed after the story)."""
    lines = narrate(record, seat_names)
    starts = [i for i, t in enumerate(lines) if t.startswith("Round ")]
    ends = []
    for k, start in enumerate(starts):
        if k + 1 < len(starts):
            ends.append(starts[k + 1] - 1)
            continue
        i = start + 1
        while i < len(lines) and not lines[i].startswith(("Riches bonus", "The game ends")):
            i += 1
        ends.append(i - 1)
    snaps = 0 if record.snapshots is None else len(record.snapshots)
    at = {e: k for k, e in enumerate(ends)} if len(ends) == snaps else {}
    return [(t, at.get(i)) for i, t in enumerate(lines)]


def _result_lines(record, g: _Game) -> list[str]:
    cols = record.columns
    P = record.players
    pres = [cols.get(f"prestige_{p}") for p in range(P)]
    out = ["Final prestige: " + ", ".join(f"{g.who(p)} {pres[p]}" for p in range(P)) + "."]
    winner = cols.get("winner", -1)
    if winner is not None and int(winner) >= 0:
        out.append(f"{g.who(int(winner))} wins.")
    else:
        out.append("There is no single winner.")
    return out


def draw(snapshot_row, record) -> str:
    """The board after a round: the board file's grid, each land cell as its tile id,
    the owner's initial, the buildings of its spaces (V village, G garrison, P palace,
    T temple, M market, R reserve, B ball court, O observatory, o a palace's or temple's
    second space, . empty) and the riches tokens on them; then each king's hand and
    prestige."""
    row = np.asarray(snapshot_row)
    board = _board(record.rules.get("board", "default"))
    S = len(board.names)
    lay = snapshot_layout(S, record.players)
    seats = [f"{c}" for c in "PGOT"][:record.players]
    tiles = list(range(S))
    for ev in np.asarray(record.events):
        if int(ev[0]) == _code("layout"):
            tiles[int(ev[2])] = int(ev[3])
    cell_of = {(int(r), int(c)): s for s, (r, c) in enumerate(board.rc)}
    sea = {tuple(x) for x in board.sea}
    out = [f"After round {int(row[lay['round']])}:"]
    for r in range(board.rows):
        top, mid, low = [], [], []
        for c in range(board.cols):
            s = cell_of.get((r, c))
            if s is None:
                txt = ("~~~~~~", "~~~~~~", "~~~~~~") if (r, c) in sea else ("", "", "")
            else:
                base = lay["site"] + s * lay["site_width"]
                owner = int(row[base])
                blds = "".join(LETTERS[int(row[base + 1 + 3 * k])] for k in range(4))
                toks = "".join("-" if row[base + 2 + 3 * k] < 0
                               else RICHES[int(row[base + 2 + 3 * k])][0]
                               for k in range(4))
                txt = (f"{board.names[tiles[s]]} {seats[owner] if owner >= 0 else ' '}",
                       blds, toks)
            top.append(f"{txt[0]:<8}")
            mid.append(f"{txt[1]:<8}")
            low.append(f"{txt[2]:<8}")
        out += ["".join(top).rstrip(), "".join(mid).rstrip(), "".join(low).rstrip(), ""]
    for q in range(record.players):
        base = lay["seat"] + q * lay["seat_width"]
        hand = ", ".join(_riches(t, int(row[base + t])) for t in range(6) if row[base + t] > 0)
        out.append(f"{seats[q]}: prestige {int(row[base + 8])}; hand: {hand or 'empty'}; "
                   f"{int(row[base + 6])} cities and {int(row[base + 7])} small pyramids left")
    return "\n".join(out)


def svg(snapshot_row, record) -> str:
    """The board after a round as an SVG element (what :func:`draw` draws): the board file's
    grid, each land cell tinted by its tile's production, named by its tile id and framed in
    its owner's colour (with his initial), its building spaces with their buildings' letters
    (a palace's or temple's second space joined to the first) and the riches tokens on them
    (discs with the riches' initial); sea cells; then each king's prestige, hand, cities and
    small pyramids left."""
    row = np.asarray(snapshot_row)
    board = _board(record.rules.get("board", "default"))
    S = len(board.names)
    P = record.players
    lay = snapshot_layout(S, P)
    names = ("Purple", "Grey", "Ochre", "Teal")
    tiles = list(range(S))
    for ev in np.asarray(record.events):
        if int(ev[0]) == _code("layout"):
            tiles[int(ev[2])] = int(ev[3])
    cw, ch, top = 100, 72, 22                      # a cell's width and height, the header
    width = max(board.cols * cw, 560)
    height = top + board.rows * ch + 8 + 30 * P
    head = f"After round {int(row[lay['round']])}"
    kings = []
    for q in range(P):
        base = lay["seat"] + q * lay["seat_width"]
        hand = ", ".join(_riches(t, int(row[base + t])) for t in range(6) if row[base + t] > 0)
        kings.append((f"{names[q]}: prestige {int(row[base + 8])}; {int(row[base + 6])} cities and "
                      f"{int(row[base + 7])} small pyramids left", f"hand: {hand or 'empty'}"))
    title = head + ": " + "; ".join(f"{a.split(';')[0]}" for a, _ in kings)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board balam" viewBox="0 0 {width} {height}" '
           f'width="{width * 4 // 3}" height="{height * 4 // 3}" role="img" font-family="sans-serif" '
           f'font-size="10"><title>{escape(title)}</title>'
           f'<text x="4" y="15" font-weight="bold" font-size="12">{escape(head)}</text>']
    for r, c in board.sea:
        out.append(f'<rect x="{c * cw + 1}" y="{top + r * ch + 1}" width="{cw - 2}" height="{ch - 2}" '
                   'fill="#cfe6f5"/>')
    for s in range(S):
        r, c = (int(v) for v in board.rc[s])
        x, y = c * cw + 1, top + r * ch + 1
        base = lay["site"] + s * lay["site_width"]
        owner = int(row[base])
        info = board.info[tiles[s]]
        frame = (f'stroke="{SEAT_FILL[owner]}" stroke-width="3"' if 0 <= owner < len(SEAT_FILL)
                 else 'stroke="#999"')
        out.append(f'<g class="site{"" if owner < 0 else f" s{owner}"}" data-site="{escape(board.names[tiles[s]])}">'
                   f'<rect x="{x + 1}" y="{y + 1}" width="{cw - 4}" height="{ch - 4}" '
                   f'fill="{TILE_FILL[int(info[1]) % len(TILE_FILL)]}" {frame}/>'
                   f'<text x="{x + 6}" y="{y + 14}" font-weight="bold">{escape(board.names[tiles[s]])}</text>')
        if 0 <= owner < len(names):
            out.append(f'<text x="{x + cw - 8}" y="{y + 14}" text-anchor="end" font-weight="bold" '
                       f'fill="{SEAT_FILL[owner]}">{names[owner][0]}</text>')
        last = 0
        used = [k + 1 for k in range(4) if row[base + 1 + 3 * k] != 0 or row[base + 2 + 3 * k] >= 0]
        for k in range(min(4, max([int(info[0])] + used))):     # the tile's spaces (and any in use)
            b = int(row[base + 1 + 3 * k])
            tok = int(row[base + 2 + 3 * k])
            sx, sy = x + 6 + 22 * k, y + 22
            if b == 9:                                 # a palace's or temple's second space
                out.append(f'<rect x="{sx - 5}" y="{sy}" width="23" height="18" '
                           f'fill="{BUILDING_FILL[last]}" stroke="#555"/>')
            else:
                last = b if 0 <= b < len(BUILDING_FILL) else 0
                dash = ' stroke-dasharray="2 2"' if b == 0 else ""
                out.append(f'<rect x="{sx}" y="{sy}" width="18" height="18" fill="{BUILDING_FILL[last]}" '
                           f'stroke="{"#aaa" if b == 0 else "#555"}"{dash}/>')
                if b > 0:
                    out.append(f'<text class="building" x="{sx + 9}" y="{sy + 13}" text-anchor="middle" '
                               f'font-weight="bold">{LETTERS[b] if b < len(LETTERS) else "?"}</text>')
            if tok >= 0:
                fill = TOKEN_FILL[tok % len(TOKEN_FILL)]
                ink = "#000" if tok in (0, 2) else "#fff"
                letter = RICHES[tok][0] if tok < len(RICHES) else "?"
                out.append(f'<circle class="token" cx="{sx + 9}" cy="{sy + 32}" r="7" fill="{fill}" '
                           f'stroke="#444"/><text x="{sx + 9}" y="{sy + 35}" text-anchor="middle" '
                           f'font-size="8" fill="{ink}">{letter}</text>')
        out.append("</g>")
    for q, (first, hand) in enumerate(kings):
        y = top + board.rows * ch + 8 + 30 * q
        out.append(f'<rect x="4" y="{y + 2}" width="10" height="10" fill="{SEAT_FILL[q]}"/>'
                   f'<text x="20" y="{y + 11}" font-size="11">{escape(first)}</text>'
                   f'<text x="20" y="{y + 24}" font-size="10" fill="#444">{escape(hand)}</text>')
    out.append("</svg>")
    return "".join(out)


def key(record) -> list[tuple[str, str, str]]:
    """How to read the board (the game page's key): (fill, symbol, meaning) of each tile
    colour, king, building code and riches token :func:`svg` and :func:`draw` use."""
    names = ("Purple", "Grey", "Ochre", "Teal")
    out = [(TILE_FILL[i], "", f"a site tile that produces {c}") for i, c in enumerate(D.COLOURS)]
    out.append(("#cfe6f5", "~", "sea"))
    out += [(SEAT_FILL[q], names[q][0], f"{names[q]}'s site (frame and initial; P G O T in the text board)")
            for q in range(record.players)]
    out.append((BUILDING_FILL[0], ".", "an empty building space (dashed)"))
    out += [(BUILDING_FILL[b], LETTERS[b], _a(BUILDINGS[b])) for b in range(1, len(BUILDINGS))]
    out.append(("", "o", "a palace's or temple's second space (drawn joined to the first)"))
    out += [(TOKEN_FILL[t], RICHES[t][0], f"{_a(RICHES[t])} token on a building space (a disc; "
             f"{RICHES[t][0]} in the text board's third line, - none)") for t in range(len(RICHES))]
    return out
