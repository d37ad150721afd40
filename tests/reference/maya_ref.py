"""A plain-Python Maya (2012) engine written from the rules (seeds/maya/RULES.md).

It exists to check the jitted kernel: ``play(game_index, seed, rules, players, bots)``
plays one game on the same random streams (sim.rng.Stream) and returns every column
the kernel records for it.  Clarity first: towers are lists of colours (bottom first),
moves are (edge, level) pairs, and every rule is spelled out where it is applied.

The only things it shares with the kernel are conventions, not code: the order in
which legal exchanges are listed (edges in board order, levels upwards), the order in
which random numbers are drawn, and the bots' published decision rules.

Chance is split by purpose (``sim.rng``): the board set-up reads the game's substream
(SETUP, 0), the random Monolith/Raven start (SETUP, 1), and the task cards are dealt in
the order of one key per colour (``py_keyed_order`` with purpose DECK).  Each seat's bot
has its own stream (``1 + seat``) for its choices and its tie-breaks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim.rng import DECK, SETUP, Stream, py_game_base, py_keyed_order, py_mix64

NO_EXCHANGE, DECLARED, HORIZON = 0, 1, 2
WIN = 1_000_000


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


def join_chances(edges, towers, t, k, c):
    """Level-k exchanges that would join colours and that colour c at level k of tower t
    decides: a neighbour whose level-(k-1) block is c."""
    if k == 0:
        return 0
    return sum(towers[b if a == t else a][k - 1] == c for a, b in edges if t in (a, b))


def turns_board(s: Setting, chance, bot_streams, first, bots=None, edges=None):
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
            colours.discard(c)
            options = []
            for t in sorted(empty):
                if c in held[t]:
                    continue
                held[t].add(c)
                if level_can_be_finished(colours, empty - {t}, held):
                    options.append(t)
                held[t].discard(c)
            if P == 2 and bots[placer] != "random":
                # White wants join chances for its first exchange, Black wants none
                sign = 1 if placer == first else -1
                worth = [sign * join_chances(edges, towers, t, k, c)
                         for t in options]
                options = [t for t, w in zip(options, worth) if w == max(worth)]
            t = options[bot_streams[placer].rand_int(len(options))]
            empty.discard(t)
            held[t].add(c)
            towers[t][k] = c
    return towers


# ---------------------------------------------------------------------- the game
class Game:
    def __init__(self, s: Setting, edges):
        self.s = s
        self.edges = edges

    # ------------------------------------------------------------- exchanges
    def legal(self, pos):
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

    def after(self, pos, move, seat):
        child = pos.copy()
        self.exchange(child, move, seat)
        return child

    # ------------------------------------------------------------- two-player scoring
    def tally2(self, pos):
        """Per seat: points, priests, ladders, ladder points."""
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

    def value(self, pos, seat):
        """Bots' static value: points lead x 100 + priests lead x 10 + ladders lead."""
        pts, pr, ld, _ = self.tally2(pos)
        o = 1 - seat
        return 100 * (pts[seat] - pts[o]) + 10 * (pr[seat] - pr[o]) + (ld[seat] - ld[o])

    def result(self, pos, seat):
        pts, pr, ld, _ = self.tally2(pos)
        o = 1 - seat
        for a, b in ((pts[seat], pts[o]), (pr[seat], pr[o]), (ld[seat], ld[o])):
            if a != b:
                return WIN if a > b else -WIN
        return 0

    def leaf(self, pos, seat):
        """Value for the seat to move: the result if it is stuck, else the static value."""
        if not self.legal(pos):
            return self.result(pos, seat)
        return self.value(pos, seat)

    # ------------------------------------------------------------- two-player bots
    def greedy(self, pos, seat, moves, stream):
        o = 1 - seat
        vals = [-self.leaf(self.after(pos, m, seat), o) for m in moves]
        best = [m for m, v in zip(moves, vals) if v == max(vals)]
        if len(best) > 1:
            block = []
            for m in best:
                child = self.after(pos, m, seat)
                replies = self.legal(child)
                if not replies:
                    block.append(WIN + 1)
                else:
                    block.append(-max(-self.leaf(self.after(child, r, o), seat) for r in replies))
            best = [m for m, v in zip(best, block) if v == max(block)]
            if len(best) > 1:
                return best[stream.rand_int(len(best))]
        return best[0]

    def negamax(self, pos, seat, depth, alpha, beta):
        moves = self.legal(pos)
        if not moves:
            return self.result(pos, seat)
        if depth == 0:
            return self.value(pos, seat)
        best = -math.inf
        for m in moves:
            v = -self.negamax(self.after(pos, m, seat), 1 - seat, depth - 1, -beta, -alpha)
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return best

    def search(self, pos, seat, moves, depth, stream):
        moves = list(moves)
        for i in range(len(moves) - 1, 0, -1):       # shuffle (Fisher-Yates, own stream)
            j = stream.rand_int(i + 1)
            moves[i], moves[j] = moves[j], moves[i]
        if len(moves) == 1 or depth < 1:
            return moves[0]
        best, choice, alpha = -math.inf, moves[0], -math.inf
        for m in moves:
            v = -self.negamax(self.after(pos, m, seat), 1 - seat, depth - 1, -math.inf, -alpha)
            if v > best:
                best, choice = v, m
            alpha = max(alpha, v)
        return choice

    def white_prospect(self, pos, white):
        """White's best immediate value from a starting position (black minimises it)."""
        moves = self.legal(pos)
        if not moves:
            return self.result(pos, white)
        return max(-self.leaf(self.after(pos, m, white), 1 - white) for m in moves)

    # ------------------------------------------------------------- three/four players
    def colour_points(self, pos):
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

    def wants_to_declare(self, pos, cards, bonus):
        cp = self.colour_points(pos)
        mine = cp[cards[0]] + cp[cards[1]] + bonus
        centre_colour = pos.towers[self.s.centre][0]
        unknown = [cp[c] for c in range(self.s.n) if c not in cards and c != centre_colour]
        if self.s.players == 3:
            return mine >= sum(sorted(unknown)[-2:])
        return 3 * mine >= sum(unknown)

    def task_value(self, pos, cards):
        cp = self.colour_points(pos)
        v = 0
        for c in cards:
            v += 1000 * cp[c]
            for tower in pos.towers:
                k = tower.count(c)
                v += k * k + (2 * k if tower[0] == c else 0)
        return v

    def task_move(self, pos, seat, cards, moves, stream):
        centre_open = not complete(pos.towers[self.s.centre])
        vals = []
        for m in moves:
            child = self.after(pos, m, seat)
            v = self.task_value(child, cards)
            if centre_open and complete(child.towers[self.s.centre]) and self.may_declare(child, cards):
                v += 1000 * self.s.bonus
            vals.append(v)
        best = [m for m, v in zip(moves, vals) if v == max(vals)]
        return best[stream.rand_int(len(best))] if len(best) > 1 else best[0]

    def task_step(self, pos, seat, cards, move, centre_open):
        """task_value after the exchange, with the centre bonus as in task_move."""
        child = self.after(pos, move, seat)
        v = self.task_value(child, cards)
        if centre_open and complete(child.towers[self.s.centre]) and self.may_declare(child, cards):
            v += 1000 * self.s.bonus
        return v, child

    def task_lookahead(self, pos, seat, cards, moves, stream):
        """Twice the exchange's value plus the best value of a second own exchange (or of
        none), the Monolith lifted and the other players assumed to leave the board alone."""
        centre_open = not complete(pos.towers[self.s.centre])
        vals = []
        for m in moves:
            v, child = self.task_step(pos, seat, cards, m, centre_open)
            child.monolith = None
            still_open = not complete(child.towers[self.s.centre])
            second = [self.task_step(child, seat, cards, r, still_open)[0] for r in self.legal(child)]
            vals.append(2 * v + max([self.task_value(child, cards)] + second))
        best = [m for m, v in zip(moves, vals) if v == max(vals)]
        return best[stream.rand_int(len(best))] if len(best) > 1 else best[0]


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


def play(seed, game_index, rules=None, bots=("random", "random"), depths=None):
    """One game with resolved rule parameters; the players are ``len(bots)``."""
    return play_setting(game_index, seed, setting_from_rules(rules, len(bots)), list(bots), depths)


def play_setting(game_index, seed, s: Setting, bots, depths=None):
    """One game; ``bots``: 'random' | 'greedy' | 'search' per seat.  Returns the columns."""
    n, L, P = s.n, s.levels, s.players
    edges = grid_edges(s.rows, s.cols)
    G = Game(s, edges)
    board_chance = Stream.substream(seed, game_index, SETUP, 0)
    own = [Stream(seed, game_index, 1 + p) for p in range(P)]
    depths = depths or [3] * P
    # two players: White (seat 0) moves first, as the rulebook says
    first = game_index % P if (s.rotate_first and P > 2) else 0
    col = {"first_player": first, "declarer": -1, "monolith_start": -1, "raven_start": -1}
    if s.setup_turns:
        towers = turns_board(s, board_chance, own, first, bots, edges)
        col["setup_attempts"] = 1
    else:
        towers, col["setup_attempts"] = uniform_board(s, board_chance)
    col["board"] = [list(t) for t in towers]
    col["board_key"] = board_key(towers)
    pos = Position(towers, None, 0, [[0, 0] for _ in range(n)], [None] * n,
                   [s.ladders] * 2, [s.priests] * 2)
    cards = None
    if P == 2:
        white, black = first, 1 - first
        options = [(e, lev) for e in range(len(edges)) for lev in (range(L) if s.raven else [0])]
        if s.start_random:
            e, lev = options[Stream.substream(seed, game_index, SETUP, 1).rand_int(len(options))]
        elif bots[black] == "random":
            e, lev = options[own[black].rand_int(len(options))]
        else:
            prospects = []
            for e, lev in options:
                pos.monolith, pos.raven = edges[e], lev
                prospects.append(G.white_prospect(pos, white))
            best = [o for o, v in zip(options, prospects) if v == min(prospects)]
            e, lev = best[own[black].rand_int(len(best))] if len(best) > 1 else best[0]
        pos.monolith, pos.raven = edges[e], lev
        col["monolith_start"] = e
        col["raven_start"] = lev + 1 if s.raven else -1
    else:
        centre_colour = towers[s.centre][0]
        deck = [c for c in range(n) if c != centre_colour]
        deck = py_keyed_order(py_game_base(seed, game_index), DECK, deck)  # one key per colour
        cards = [deck[2 * p:2 * p + 2] for p in range(P)]

    completed = [0] * P
    joins = [0] * P
    bonus = [0] * P
    seat = first
    exchanges = 0
    while True:
        moves = G.legal(pos)
        if not moves:
            end = NO_EXCHANGE
            break
        if exchanges >= s.horizon:
            end = HORIZON
            break
        bot = bots[seat]
        if P > 2 and G.may_declare(pos, cards[seat]):
            if bot == "random":
                declare = own[seat].rand_int(2) == 0
            else:
                declare = G.wants_to_declare(pos, cards[seat], 0)
            if declare:
                end = DECLARED
                col["declarer"] = seat
                break
        if bot == "random":
            move = moves[own[seat].rand_int(len(moves))]
        elif P == 2 and bot == "greedy":
            move = G.greedy(pos, seat, moves, own[seat])
        elif P == 2:
            move = G.search(pos, seat, moves, depths[seat], own[seat])
        elif bot == "greedy":
            move = G.task_move(pos, seat, cards[seat], moves, own[seat])
        else:
            move = G.task_lookahead(pos, seat, cards[seat], moves, own[seat])
        centre_was_open = not complete(pos.towers[s.centre])
        done_before = [list(t) for t in pos.towers if complete(t)]
        j, d = G.exchange(pos, move, seat)
        # the rules' invariants: every level still holds every colour once, and complete
        # towers never change
        for level in range(L):
            assert sorted(t[level] for t in pos.towers) == list(range(n)), "level broken"
        assert all(t in pos.towers for t in done_before), "a complete tower changed"
        exchanges += 1
        joins[seat] += len(j)
        completed[seat] += len(d)
        if P > 2 and G.may_declare(pos, cards[seat]):
            b = s.bonus if centre_was_open and complete(pos.towers[s.centre]) else 0
            if bot == "random":
                declare = own[seat].rand_int(2) == 0
            else:
                declare = G.wants_to_declare(pos, cards[seat], b)
            if declare:
                end = DECLARED
                col["declarer"] = seat
                bonus[seat] = b
                break
        seat = (seat + 1) % P

    col.update(exchanges=exchanges, end_reason=end, capped=end == HORIZON,
               completed=completed, joins=joins, bonus=bonus,
               towers_complete=sum(complete(t) for t in pos.towers))
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
        score = [cp[cards[p][0]] + cp[cards[p][1]] + bonus[p] for p in range(P)]
        team = [score[p] + score[(p + 2) % 4] for p in range(4)] if P == 4 else score
        col.update(score=score, team_score=team, priests=[0] * P, ladders=[0] * P,
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
    col["cards"] = cards
    col["towers"] = pos.towers
    return col
