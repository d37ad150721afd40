"""A plain-Python Maya (2012) engine written from the rules (seeds/maya/RULES.md) that
replays a recorded game.

``replay(record)`` takes a game the kernel recorded (``sim.record.record_run``) and plays
it again from its events alone: every decision (a placement of the Alternative Setup,
Black's Monolith and Raven, each exchange, each declaring or playing on) is checked to be
legal under the rules before it is applied (``IllegalAction`` otherwise), and every
outcome of chance (the board, the blocks drawn, the random start, the task deal) is
drawn again from the game's own streams (``sim.rng.Stream``) and checked to equal the
record.  It returns every column the kernel writes, per-seat columns named by
``sim.results.seat_column``; ``tests/test_replay.py`` compares them with the kernel's.
It holds no bot: what the bots chose is in the record.  Clarity first: towers are lists
of colours (bottom first), moves are (edge, level) pairs, and every rule is spelled out
where it is applied.

Chance is split by purpose (``sim.rng``): the board set-up reads the game's substream
(SETUP, 0), the random Monolith/Raven start (SETUP, 1), and the task cards are dealt in
the order of one key per colour (``py_keyed_order`` with purpose DECK).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tests.reference.howplays_ref import how_it_plays
from sim.rng import DECK, SETUP, Stream, py_game_base, py_keyed_order, py_mix64

NO_EXCHANGE, DECLARED, HORIZON = 0, 1, 2


# ---------------------------------------------------------------------- the board
def grid_edges(rows, cols):
    """Orthogonally adjacent pairs: each tower's right neighbour, then the one below."""
    edges = []
    for t in range(rows * cols):
        r, c = divmod(t, cols)
        if c + 1 < cols:
            edges.append((t, t + 1))
        if r + 1 < rows:
            edges.append((t, t + cols))
    return edges


@dataclass
class Setting:
    rows: int = 3
    cols: int = 3
    levels: int = 5
    players: int = 2
    horizon: int = 500
    capped_draw: bool = False
    setup_turns: bool = False
    start_random: bool = False
    raven: bool = True
    spaces: list = None           # ladder spaces per tower
    ladders: int = 24
    priests: int = 9
    points: tuple = (1, 3, 6, 10)  # 2, 3, 4, 5 joined blocks
    bonus: int = 5
    rotate_first: bool = True
    bounds: list = None           # upper bounds on the valid rows per level (uniform_board)
    lows: list = None             # lower bounds on the valid rows per level

    @property
    def n(self):
        return self.rows * self.cols

    @property
    def centre(self):
        return (self.rows // 2) * self.cols + self.cols // 2


@dataclass
class Position:
    towers: list                   # towers[t][level] = colour
    monolith: tuple | None = None  # the two towers beside it
    raven: int = 0                 # forbidden level (0 forbids nothing)
    ladders: list = field(default_factory=list)   # ladders[t][seat]
    priest: list = field(default_factory=list)    # seat or None
    ladders_left: list = field(default_factory=list)
    priests_left: list = field(default_factory=list)

    def copy(self):
        return Position([list(t) for t in self.towers], self.monolith, self.raven,
                        [list(x) for x in self.ladders], list(self.priest),
                        list(self.ladders_left), list(self.priests_left))


def joined(tower, level):
    """Blocks at ``level - 1`` and ``level`` share a colour."""
    return tower[level - 1] == tower[level]


def complete(tower):
    return all(c == tower[0] for c in tower)


# ---------------------------------------------------------------------- set-up
def count_table(allowed, n):
    """table[S] = ways to give the colours in set S (a bit mask) to towers 0..|S|-1, one
    each, tower i taking only a colour of allowed[i]."""
    table = [0] * (1 << n)
    table[0] = 1
    for S in range(1, 1 << n):
        i = bin(S).count("1") - 1
        table[S] = sum(table[S & ~(1 << c)] for c in range(n)
                       if S >> c & 1 and allowed[i] >> c & 1)
    return table


def draw_counted_row(allowed, n, table, chance):
    """Uniform among the rows counted in ``table``: last tower first, one draw per tower."""
    S = (1 << n) - 1
    row = [None] * n
    for i in reversed(range(n)):
        r = chance.rand_int(table[S])
        for c in range(n):
            if S >> c & 1 and allowed[i] >> c & 1:
                w = table[S & ~(1 << c)]
                if r < w:
                    row[i] = c
                    break
                r -= w
        S &= ~(1 << row[i])
    return row


def deal_row(n, held, chance):
    """Deal a shuffled row tower by tower until no tower gets a colour it already holds."""
    while True:
        rest = list(range(n))
        row = []
        for t in range(n):
            j = chance.rand_int(n - t)
            c = rest[j]
            rest[j] = rest[n - t - 1]
            if c in held[t]:
                break
            row.append(c)
        if len(row) == n:
            return row


def uniform_board(s: Setting, chance):
    """Every valid board equally likely (see RULES.md, Setup): returns (towers, attempts)."""
    n, L = s.n, s.levels
    attempts = 0
    while True:
        attempts += 1
        held = [set() for _ in range(n)]
        rows = []
        for k in range(L):
            if k < 2:
                row = deal_row(n, held, chance)
            else:
                allowed = [sum(1 << c for c in range(n) if c not in held[t]) for t in range(n)]
                table = count_table(allowed, n)
                valid_rows = table[-1]
                u = chance.rand_int(s.bounds[k])
                if u >= valid_rows:
                    break                              # start the board again
                if k == 2 or u < s.lows[k]:
                    # the kernel did not need the count here (known from the cycle type, or
                    # u below a lower bound on every count): it deals the row
                    row = deal_row(n, held, chance)
                else:
                    row = draw_counted_row(allowed, n, table, chance)
            rows.append(row)
            for t in range(n):
                held[t].add(row[t])
        if len(rows) == L:
            return [[rows[k][t] for k in range(L)] for t in range(n)], attempts


def level_can_be_finished(colours, towers, held):
    """Hall's condition for placing the remaining colours one per remaining tower."""
    towers = sorted(towers)
    for size in range(1, len(towers) + 1):
        for group in _subsets(towers, size):
            reach = set()
            for t in group:
                reach |= colours - held[t]
            if len(reach) < size:
                return False
    return True


def _subsets(items, size):
    from itertools import combinations
    return combinations(items, size)


class IllegalAction(AssertionError):
    """A recorded decision the rules do not allow, or a recorded outcome of chance that
    the game's streams do not give."""


def check(ok, what):
    if not ok:
        raise IllegalAction(what)


# ---------------------------------------------------------------------- the rules
class Rules:
    def __init__(self, s: Setting, edges):
        self.s = s
        self.edges = edges

    def legal(self, pos):
        """Legal exchanges (edge, level), pairs in board order, levels upwards."""
        out = []
        for e, (a, b) in enumerate(self.edges):
            if pos.monolith is not None and (a in pos.monolith or b in pos.monolith):
                continue
            for level in range(1, self.s.levels):
                if self.s.players == 2 and self.s.raven and level == pos.raven:
                    continue
                if joined(pos.towers[a], level) or joined(pos.towers[b], level):
                    continue
                out.append((e, level))
        return out

    def exchange(self, pos, move, seat):
        """Play an exchange; returns (joins, completions) as lists of towers."""
        e, level = move
        a, b = self.edges[e]
        ta, tb = pos.towers[a], pos.towers[b]
        ta[level:], tb[level:] = tb[level:], ta[level:]
        pos.monolith = (a, b)
        if self.s.players == 2 and self.s.raven:
            pos.raven = level
        joins = [t for t in (a, b) if joined(pos.towers[t], level)]
        done = [t for t in joins if complete(pos.towers[t])]
        if self.s.players == 2:
            for t in joins:
                if sum(pos.ladders[t]) < self.s.spaces[t] and pos.ladders_left[seat] > 0:
                    pos.ladders[t][seat] += 1
                    pos.ladders_left[seat] -= 1
                if t in done and pos.priests_left[seat] > 0:
                    pos.priest[t] = seat
                    pos.priests_left[seat] -= 1
        return joins, done

    def tally2(self, pos):
        """Two players, per seat: points, priests, ladders, ladder points."""
        pts, pr, ld, lp = [0, 0], [0, 0], [0, 0], [0, 0]
        for t in range(self.s.n):
            if pos.priest[t] is not None:
                pts[pos.priest[t]] += 1
                pr[pos.priest[t]] += 1
            l0, l1 = pos.ladders[t]
            ld[0] += l0
            ld[1] += l1
            if l0 != l1:
                w = 0 if l0 > l1 else 1
                pts[w] += 1
                lp[w] += 1
        return pts, pr, ld, lp

    def colour_points(self, pos):
        """Task points per colour: every maximal run of a colour in a tower scores by length."""
        pts = [0, 0] + list(self.s.points)
        score = [0] * self.s.n
        for tower in pos.towers:
            run = 1
            for level in range(1, self.s.levels + 1):
                if level < self.s.levels and tower[level] == tower[level - 1]:
                    run += 1
                else:
                    score[tower[level - 1]] += pts[run]
                    run = 1
        return score

    def may_declare(self, pos, cards):
        if not complete(pos.towers[self.s.centre]):
            return False
        return any(complete(t) and t[0] in cards for t in pos.towers)


def board_key(towers) -> int:
    """The kernel's key of a board: each tower packed 4 bits a level (bottom first), mixed
    in tower order; as a signed 64-bit integer."""
    h = len(towers)
    for tower in towers:
        word = sum(c << (4 * lev) for lev, c in enumerate(tower))
        h = py_mix64((h + word + 0x9E3779B97F4A7C15) & ((1 << 64) - 1))
    return h - (1 << 64) if h >= 1 << 63 else h


def setting_from_rules(rules, players):
    """The Setting for resolved rule parameters (the board file, ladder spaces and set-up
    bounds are read with the game's own loaders: they are data, not rules)."""
    from sim.games.maya import GAME, ladder_spaces, level_bounds, load_board
    r = GAME.resolve_rules(rules or {})
    b = load_board(r["board"])
    return Setting(
        rows=b["rows"], cols=b["cols"], levels=b["levels"], players=players,
        horizon=r["horizon"], capped_draw=r["horizon_result"] == "draw",
        setup_turns=r["setup"] == "turns", start_random=r["start"] == "random",
        raven=r["raven"], spaces=list(ladder_spaces(r["ladder_spaces"], b["rows"], b["cols"])),
        ladders=r["ladders"], priests=r["priests"], points=tuple(r["points"]),
        bonus=r["centre_bonus"], rotate_first=r["first"] == "rotate",
        bounds=[int(x) for x in level_bounds(b["rows"] * b["cols"], b["levels"])[0]],
        lows=[int(x) for x in level_bounds(b["rows"] * b["cols"], b["levels"])[1]])


# ---------------------------------------------------------------------- the record
class Events:
    """The recorded events in order, read one at a time by kind name."""

    def __init__(self, events):
        from sim.games.maya import GAME
        self.kinds = {a.code: a for a in GAME.actions}
        self.rows = [tuple(int(x) for x in ev) for ev in events]
        self.i = 0
        self.counts = {}

    def peek(self):
        if self.i >= len(self.rows):
            return None
        return self.kinds[self.rows[self.i][0]].name

    def take(self, name, actor):
        """The next event, which must be a ``name`` by ``actor``; its fields by name."""
        check(self.i < len(self.rows), f"the record ends where a {name} was due")
        ev = self.rows[self.i]
        a = self.kinds[ev[0]]
        check(a.name == name and ev[1] == actor,
              f"event {self.i}: {a.name} by {ev[1]} where a {name} by {actor} was due")
        self.i += 1
        self.counts[name] = self.counts.get(name, 0) + 1
        return dict(zip(a.fields, ev[2:]))


def replay_uniform_board(s, chance, ev):
    """The uniform set-up drawn again from the game's stream; the recorded board must match."""
    towers, attempts = uniform_board(s, chance)
    for t in range(s.n):
        f = ev.take("board", -1)
        packed = f["levels_1_7"] | (f["levels_8_12"] << 28)
        check(f["tower"] == t and f["attempts"] == attempts
              and packed == sum(c << (4 * lev) for lev, c in enumerate(towers[t])),
              f"tower {t}: the recorded board is not the one the stream draws")
    return towers, attempts


def replay_turns_board(s, chance, first, ev):
    """The Alternative Setup: each block drawn again from the game's stream (it must match
    the record), each recorded placement checked against the rules."""
    n, L, P = s.n, s.levels, s.players
    towers = [[None] * L for _ in range(n)]
    held = [set() for _ in range(n)]
    placed = 0
    for k in range(L):
        colours = set(range(n))
        empty = set(range(n))
        for _ in range(n):
            placer = (first + placed) % P
            placed += 1
            c = sorted(colours)[chance.rand_int(len(colours))]
            f = ev.take("block", -1)
            check((f["level"], f["colour"]) == (k + 1, c), f"block {placed}: not the one drawn")
            colours.discard(c)
            f = ev.take("place", placer)
            t = f["tower"]
            check((f["level"], f["colour"]) == (k + 1, c), f"placement {placed}: another block")
            check(t in empty and c not in held[t], f"placement {placed}: tower {t} taken")
            held[t].add(c)
            check(level_can_be_finished(colours, empty - {t}, held),
                  f"placement {placed}: the rest of level {k + 1} cannot be placed")
            empty.discard(t)
            towers[t][k] = c
    return towers


def replay_start(s, edges, seed, g, black, pos, ev, col):
    """Two players: Black's Monolith and Raven (a decision), or chance's (start=random)."""
    L = s.levels
    options = [(e, lev) for e in range(len(edges)) for lev in (range(L) if s.raven else [0])]
    f = ev.take("start", -1 if s.start_random else black)
    e, raven = f["edge"], f["raven"]
    lev = raven - 1 if s.raven else 0
    check(raven == (lev + 1 if s.raven else 0) and (e, lev) in options,
          f"start: edge {e}, Raven {raven} is no option")
    check((f["tower_a"], f["tower_b"]) == edges[e], "start: the edge's towers")
    if s.start_random:
        draw = options[Stream.substream(seed, g, SETUP, 1).rand_int(len(options))]
        check(draw == (e, lev), "start: not the one chance draws")
    pos.monolith, pos.raven = edges[e], lev
    col["monolith_start"] = e
    col["raven_start"] = raven if s.raven else -1


def replay_deal(s, seed, g, towers, ev):
    """Three/four players: the task cards dealt again (one key per colour); the record
    must match."""
    centre_colour = towers[s.centre][0]
    deck = py_keyed_order(py_game_base(seed, g), DECK,
                          [c for c in range(s.n) if c != centre_colour])
    cards = [deck[2 * p:2 * p + 2] for p in range(s.players)]
    for p in range(s.players):
        f = ev.take("deal", -1)
        check(f["seat"] == p and [f["card_1"], f["card_2"]] == cards[p], f"deal: seat {p}'s cards")
    return cards


def declare_or_play_on(G, pos, cards, seat, bonus, ev, when):
    """Three/four players: seat may declare; the record says whether it did."""
    if not G.may_declare(pos, cards[seat]):
        return False
    if ev.peek() == "declare":
        f = ev.take("declare", seat)
        check(f["bonus"] == bonus, f"declare: bonus {f['bonus']}, the rules give {bonus}")
        return True
    f = ev.take("play_on", seat)
    check(f["when"] == when, "play_on: before/after the exchange")
    return False


def play_exchanges(G, pos, cards, first, ev, choices=None):
    """The exchanges as recorded, from ``first``, until the game ends; returns the
    exchanges, the end reason, the declarer and per-seat joins, completions and bonus;
    ``choices`` gets (seat, legal exchanges) for every exchange a seat chose."""
    s, P = G.s, G.s.players
    joins, completed, bonus = [0] * P, [0] * P, [0] * P
    seat, exchanges, declarer = first, 0, -1
    while True:
        moves = G.legal(pos)
        if not moves:
            return exchanges, NO_EXCHANGE, declarer, joins, completed, bonus
        if exchanges >= s.horizon:
            return exchanges, HORIZON, declarer, joins, completed, bonus
        if P > 2 and declare_or_play_on(G, pos, cards, seat, 0, ev, 0):
            return exchanges, DECLARED, seat, joins, completed, bonus
        f = ev.take("exchange", seat)
        if choices is not None:
            choices.append((seat, len(moves)))
        move = (f["edge"], f["level"] - 1)
        check(move in moves, f"exchange {exchanges + 1}: {move} is not legal")
        check((f["tower_a"], f["tower_b"]) == G.edges[move[0]], "exchange: the edge's towers")
        centre_was_open = not complete(pos.towers[s.centre])
        done_before = [list(t) for t in pos.towers if complete(t)]
        j, d = G.exchange(pos, move, seat)
        # the rules' invariants: every level still holds every colour once, and complete
        # towers never change
        for level in range(s.levels):
            check(sorted(t[level] for t in pos.towers) == list(range(s.n)), "level broken")
        check(all(t in pos.towers for t in done_before), "a complete tower changed")
        a, b = G.edges[move[0]]
        check(f["joined"] == (a in j) + 2 * (b in j) and f["completed"] == (a in d) + 2 * (b in d),
              "exchange: the recorded joins and completions")
        exchanges += 1
        joins[seat] += len(j)
        completed[seat] += len(d)
        if P > 2:
            b = s.bonus if centre_was_open and complete(pos.towers[s.centre]) else 0
            if declare_or_play_on(G, pos, cards, seat, b, ev, 1):
                bonus[seat] = b
                return exchanges, DECLARED, seat, joins, completed, bonus
        seat = (seat + 1) % P


def score(G, pos, cards, bonus, end, col):
    """The final columns: scores, tie-breaks, the winning side and the victory shares."""
    s, P = G.s, G.s.players
    if P == 2:
        pts, pr, ld, lp = G.tally2(pos)
        col.update(score=pts, team_score=pts, priests=pr, ladders=ld, priest_points=pr,
                   ladder_points=lp)
        tiebreak, side = 3, -1
        for k, (x, y) in enumerate(((pts[0], pts[1]), (pr[0], pr[1]), (ld[0], ld[1]))):
            if x != y:
                tiebreak, side = k, (0 if x > y else 1)
                break
        col["tiebreak"] = tiebreak
    else:
        cp = G.colour_points(pos)
        sc = [cp[cards[p][0]] + cp[cards[p][1]] + bonus[p] for p in range(P)]
        team = [sc[p] + sc[(p + 2) % 4] for p in range(4)] if P == 4 else sc
        col.update(score=sc, team_score=team, priests=[0] * P, ladders=[0] * P,
                   priest_points=[0] * P, ladder_points=[0] * P)
        sides = team[:2] if P == 4 else team
        top = [i for i, v in enumerate(sides) if v == max(sides)]
        side = top[0] if len(top) == 1 else -1
        col["tiebreak"] = 0 if side >= 0 else 3
    if end == HORIZON and s.capped_draw:
        side = -1
    col["team_winner"] = side
    col["winner"] = side if P < 4 else -1
    # the victory: the winning side's seats get 1; "no winner" (two players tied after
    # every tie-break, or a capped game under capped=draw) gives nobody anything; a
    # three/four-player tie shares the victory among the tied sides
    side_of = [p % 2 for p in range(4)] if P == 4 else list(range(P))
    if side >= 0:
        win = [1.0 if side_of[p] == side else 0.0 for p in range(P)]
    elif P == 2 or (end == HORIZON and s.capped_draw):
        win = [0.0] * P
    else:
        tied = {side_of[p] for p in range(P) if col["team_score"][p] == max(col["team_score"])}
        win = [1.0 / len(tied) if side_of[p] in tied else 0.0 for p in range(P)]
    col["win"] = win


def replay_game(record):
    """The columns of a recorded game (lists per seat), its events checked and replayed;
    also the final position, the cards and how many events of each kind were replayed."""
    seed, g, P = record.seed, record.index, record.players
    s = setting_from_rules(record.rules, P)
    n = s.n
    edges = grid_edges(s.rows, s.cols)
    G = Rules(s, edges)
    ev = Events(record.events)
    chance = Stream.substream(seed, g, SETUP, 0)
    # two players: White (seat 0) moves first, as the rulebook says
    first = g % P if (s.rotate_first and P > 2) else 0
    col = {"first_player": first, "declarer": -1, "monolith_start": -1, "raven_start": -1}
    if s.setup_turns:
        towers = replay_turns_board(s, chance, first, ev)
        col["setup_attempts"] = 1
    else:
        towers, col["setup_attempts"] = replay_uniform_board(s, chance, ev)
    col["board_key"] = board_key(towers)
    pos = Position([list(t) for t in towers], None, 0, [[0, 0] for _ in range(n)],
                   [None] * n, [s.ladders] * 2, [s.priests] * 2)
    cards = None
    if P == 2:
        replay_start(s, edges, seed, g, 1 - first, pos, ev, col)
    else:
        cards = replay_deal(s, seed, g, towers, ev)
    choices = []
    exchanges, end, col["declarer"], joins, completed, bonus = play_exchanges(
        G, pos, cards, first, ev, choices)
    col.update(how_it_plays(choices, P))
    check(ev.i == len(ev.rows), f"{len(ev.rows) - ev.i} events after the end of the game")
    col.update(exchanges=exchanges, end_reason=end, capped=end == HORIZON,
               completed=completed, joins=joins, bonus=bonus,
               towers_complete=sum(complete(t) for t in pos.towers))
    score(G, pos, cards, bonus, end, col)
    return col, pos, cards, ev.counts


def replay(record) -> dict:
    """Column name -> value for a recorded game (per-seat columns as ``seat_column``)."""
    from sim.results import seat_column
    col = replay_game(record)[0]
    out = {}
    for k, v in col.items():
        if isinstance(v, list):
            for p, x in enumerate(v):
                out[seat_column(k, p)] = x
        else:
            out[k] = v
    return out


# every bot at every player count, the set-ups, the start rules, the readings (ladders,
# priests, ladder spaces, horizon scoring) and the variants, in about 20 s
REPLAY_CASES = [
    dict(players=2, bots="random", rules={}, games=40, seed=20120),
    dict(players=2, bots="random", rules={"raven": False, "start": "random", "first": "seat0"},
         games=15, seed=20120),
    dict(players=2, bots="random", rules={"ladders": 3, "priests": 1, "ladder_spaces": "1"},
         games=15, seed=20120),
    dict(players=2, bots="random", rules={"horizon": 30, "horizon_result": "draw"}, games=15,
         seed=20120),
    dict(players=2, bots="random", rules={"ladder_spaces": "1,2,3", "horizon": 60}, games=10,
         seed=20120),
    dict(players=2, bots="random", rules={"setup": "turns", "horizon": 40}, games=6, seed=20120),
    dict(players=2, bots="greedy,random", rules={"setup": "turns", "horizon": 6}, games=4,
         seed=20120),
    dict(players=2, bots="random,search:depth=1", rules={"setup": "turns", "horizon": 6},
         games=4, seed=20120),
    dict(players=2, bots="greedy,random", rules={"horizon": 16}, games=6, seed=20120),
    dict(players=2, bots="random,greedy", rules={"horizon": 16, "start": "bot"}, games=6,
         seed=20120),
    dict(players=2, bots="search:depth=2,greedy", rules={"horizon": 8}, games=3, seed=20120),
    dict(players=2, bots="greedy,search:depth=3", rules={"horizon": 5}, games=2, seed=20120),
    dict(players=2, bots="greedy,random",
         rules={"raven": False, "ladder_spaces": "2,2,2,3,1,3,2,2,2", "horizon": 14}, games=4,
         seed=20120),
    dict(players=2, bots="random", rules={"ladders": 0, "priests": 0, "first": "seat0"},
         games=8, seed=20120),
    dict(players=3, bots="random", rules={}, games=25, seed=20120),
    dict(players=3, bots="random", rules={"first": "seat0", "setup": "turns", "horizon": 50},
         games=6, seed=20120),
    dict(players=4, bots="random", rules={"horizon_result": "draw", "horizon": 60,
                                          "centre_bonus": 0}, games=15, seed=20120),
    dict(players=3, bots="random", rules={"horizon": 40, "horizon_result": "draw",
                                          "points": "2,4,8,20", "centre_bonus": 9},
         games=15, seed=20120),
    dict(players=3, bots="greedy,random,greedy", rules={"horizon": 30}, games=5, seed=20120),
    dict(players=4, bots="random", rules={}, games=25, seed=20120),
    dict(players=4, bots="greedy", rules={"horizon": 25, "setup": "turns"}, games=3,
         seed=20120),
    dict(players=3, bots="search,greedy,random", rules={"horizon": 9}, games=3, seed=20120),
    dict(players=4, bots="random,search,random,greedy", rules={"horizon": 10}, games=2,
         seed=20120),
    # the three/four-player search (Monte Carlo) at small budgets, whole games: its
    # exchanges, declarations and plays-on (3p game 11: seat 2 plays on twice, then
    # declares; 4p game 8: seat 0 plays on twice)
    dict(players=3, bots="search:iters=12,playout=6,greedy,search:iters=6,width=3",
         rules={}, games=12, seed=20120),
    dict(players=4, bots="search:iters=12,playout=6,search:iters=6,width=3,greedy,random",
         rules={}, games=9, seed=20120),
    dict(players=4, bots="search:iters=8,playout=4,greedy,greedy,search:iters=8,playout=4",
         rules={"horizon": 30, "horizon_result": "draw"}, games=3, seed=20120),
]
