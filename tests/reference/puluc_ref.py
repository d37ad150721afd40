"""A plain-Python Puluc engine, written from the rulebook (``seeds/puluc.txt``), that
replays recorded games.

It checks the jitted kernel (``sim/games/puluc/``) without a copy of its bots: a game
recorded by the kernel (``sim.record.record_run``) is replayed here cast by cast.  Each
cast is re-drawn from the game's own chance stream (:class:`sim.rng.Stream`, the DICE
substream) and must equal the recorded one; each recorded move must be legal under the
rules (:class:`IllegalAction` otherwise) and take what the record says it takes; a
forfeit must leave no legal move; the board after every cast must equal the recorded
snapshot.  :func:`replay` returns the game's result columns, computed from the actions
alone, for the shared replay test (``tests/test_replay.py``) to compare with the kernel's.

How the board is held (no tricks, on purpose):

* ``track``: a list of ``T`` piles, one per space (space 1 is ``track[0]``).  A
  pile is a list of sides, bottom first; the last one is the commander.  An
  empty space is an empty list.
* ``home[s]``: warriors of side ``s`` in their home base (reserve).
* ``dead[s]``: warriors of side ``s`` killed for good.

Sides are ``0`` (Jade, enters at space 1 and runs up) and ``1`` (Cinnabar,
enters at space ``T`` and runs down).  A side's *steps* on a space count from
its own entry space: Jade's steps on ``track[i]`` are ``i``, Cinnabar's are
``T - 1 - i``.

A move is :data:`DEPLOY` or the index of a pile the mover commands.

Rule parameters are those of ``sim.games.puluc.PARAMS`` (a dict as returned by
``GAME.resolve_rules``); missing keys take the rulebook's values.
"""
from __future__ import annotations

from math import comb

from sim.results import seat_column
from tests.reference.howplays_ref import how_it_plays
from sim.rng import DICE, Stream

JADE, CINNABAR = 0, 1
SIDE_NAMES = ("Jade", "Cinnabar")
DEPLOY = "deploy"
OFF = "off"  # destination: carried off the track

END_KILLED, END_HORIZON = 0, 1
#: the kinds of recorded event (``sim/games/puluc/actions.py``)
EV_CAST, EV_MOVE, EV_FORFEIT = 0, 1, 2

RULEBOOK = {
    "track": 11, "warriors": 5, "lots": 4, "cast_table": "standard", "lot_p": 0.5,
    "casts_per_turn": 1, "entry": "space", "exit": "any", "drag": "forward",
    "stack_own": "never", "horizon": 240, "first": "alternate",
}


# ------------------------------------------------------------------ rules set-up
class Rules:
    """The rule parameters, read once, as plain attributes."""

    def __init__(self, given: dict | None = None):
        r = dict(RULEBOOK)
        r.update(given or {})
        self.T = int(r["track"])
        self.W = int(r["warriors"])
        self.lots = int(r["lots"])
        self.casts_per_turn = int(r["casts_per_turn"])
        self.entry = r["entry"]          # 'space' or 'cast'
        self.exit = r["exit"]            # 'any' or 'pile'
        self.drag = r["drag"]            # 'forward' or 'reverse'
        self.stack_own = r["stack_own"]  # 'never' or 'piles'
        self.horizon = int(r["horizon"])
        self.first = r["first"]          # 'alternate', 'jade' or 'cinnabar'
        # marked lots -> spaces moved: the rulebook's 1,2,3,4 and none marked -> 5
        table = r["cast_table"]
        if isinstance(table, str):
            table = table.strip().lower()
            if table != "standard":
                table = table.split(",")   # '5,1,2,3,4' as typed on the command line
        if table == "standard":
            self.cast_table = [self.lots + 1] + list(range(1, self.lots + 1))
        else:
            self.cast_table = [int(x) for x in table]
        if len(self.cast_table) != self.lots + 1:
            raise ValueError("cast_table needs one value per number of marked lots (0..lots)")
        # a lot lands marked when 16 random bits fall below this threshold
        self.lot_threshold = int(round(float(r["lot_p"]) * 65536))
        # the distribution of one cast: binomial number of marked lots through the table
        p = self.lot_threshold / 65536
        dist: dict[int, float] = {}
        for marked in range(self.lots + 1):
            chance = comb(self.lots, marked) * p ** marked * (1 - p) ** (self.lots - marked)
            spaces = self.cast_table[marked]
            dist[spaces] = dist.get(spaces, 0.0) + chance
        self.cast_values = sorted(dist)
        self.cast_probs = [dist[v] for v in self.cast_values]

    def first_player(self, game_index: int) -> int:
        if self.first == "jade":
            return JADE
        if self.first == "cinnabar":
            return CINNABAR
        return JADE if game_index % 2 == 0 else CINNABAR  # alternate between games


# ------------------------------------------------------------------ the board
class Board:
    def __init__(self, rules: Rules):
        self.rules = rules
        self.track = [[] for _ in range(rules.T)]
        self.home = [rules.W, rules.W]
        self.dead = [0, 0]

    def copy(self) -> "Board":
        b = Board.__new__(Board)
        b.rules = self.rules
        b.track = [list(pile) for pile in self.track]
        b.home = list(self.home)
        b.dead = list(self.dead)
        return b

    # --- reading the board
    def commander(self, i: int):
        pile = self.track[i]
        return pile[-1] if pile else None

    def steps(self, side: int, i: int) -> int:
        """How far space index ``i`` is from ``side``'s entry space."""
        return i if side == JADE else self.rules.T - 1 - i

    def space(self, side: int, steps: int) -> int:
        """Index of the space ``steps`` from ``side``'s entry space."""
        return steps if side == JADE else self.rules.T - 1 - steps

    def snapshot(self):
        return (tuple(tuple(p) for p in self.track), tuple(self.home), tuple(self.dead))

    def drawing(self) -> str:
        """The track as text, e.g. ``J . . CJ . C`` (pile bottom first, commander last)."""
        cells = ["".join("JC"[s] for s in pile) or "." for pile in self.track]
        return (f"home J{self.home[0]} dead J{self.dead[0]} | " + " ".join(cells)
                + f" | home C{self.home[1]} dead C{self.dead[1]}")

    # --- the rules of a move
    def destination(self, side: int, move, cast: int):
        """Where ``move`` ends with ``cast``: a space index, :data:`OFF`, or None if illegal."""
        r = self.rules
        if move == DEPLOY:
            if self.home[side] == 0:
                return None
            if r.entry == "space":
                target = self.space(side, 0)        # the entry space, whatever the cast
            else:
                if cast > r.T:                      # 'enter cast spaces onto the track'
                    return None
                target = self.space(side, cast - 1)
        else:
            pile = self.track[move]
            if not pile or pile[-1] != side:
                return None                         # only the commander moves a pile
            has_prisoners = len(pile) > 1
            if r.drag == "reverse" and has_prisoners:
                new_steps = self.steps(side, move) - cast   # runs back home with its prisoners
            else:
                new_steps = self.steps(side, move) + cast   # forward, by exactly the cast
            if new_steps < 0 or new_steps >= r.T:
                if r.exit == "pile" and not has_prisoners:
                    return None                     # a lone warrior may not leave
                return OFF
            target = self.space(side, new_steps)
        if self.commander(target) == side:
            # you may not land where you command ... unless merging onto your own pile is allowed
            if r.stack_own == "piles" and len(self.track[target]) > 1:
                return target
            return None
        return target

    def legal_moves(self, side: int, cast: int) -> list:
        """Distinct legal moves: deploy first, then piles from the entry space onward."""
        moves = []
        if self.destination(side, DEPLOY, cast) is not None:
            moves.append(DEPLOY)
        for steps in range(self.rules.T):
            i = self.space(side, steps)
            if self.commander(i) == side and self.destination(side, i, cast) is not None:
                moves.append(i)
        return moves

    def apply(self, side: int, move, cast: int, record: dict | None = None):
        """Play a legal move; count kills, captures, rescues and the deepest pile in ``record``."""
        enemy = 1 - side
        target = self.destination(side, move, cast)
        if move == DEPLOY:
            self.home[side] -= 1
            moving = [side]
        else:
            moving = self.track[move]
            self.track[move] = []
        if target == OFF:
            theirs = sum(1 for s in moving if s == enemy)
            mine = len(moving) - theirs
            self.dead[enemy] += theirs        # prisoners carried off die
            self.home[side] += mine           # own warriors walk home
            if record is not None:
                record["kills"][side] += theirs
            return
        below = self.track[target]
        if below and below[-1] == enemy:
            if record is not None:
                record["captures"][side] += 1
                record["rescues"][side] += sum(1 for s in below if s == side)
        below.extend(moving)                  # the mover goes on top and commands
        if record is not None and len(below) > record["deepest_pile"]:
            record["deepest_pile"] = len(below)

    def won(self, side: int) -> bool:
        return self.dead[1 - side] >= self.rules.W


def census(board: Board) -> list[dict]:
    """Per side: warriors on the track, at home, dead (their total must stay ``warriors``)."""
    out = []
    for side in (JADE, CINNABAR):
        on_track = sum(1 for pile in board.track for s in pile if s == side)
        out.append({"track": on_track, "home": board.home[side], "dead": board.dead[side],
                     "total": on_track + board.home[side] + board.dead[side]})
    return out


# ------------------------------------------------------------------ chance
def throw_lots(chance: Stream, rules: Rules) -> int:
    """How many lots land marked: each lot uses 16 bits of a draw from the casts' stream
    (the game's DICE substream: four lots a draw, low bits first)."""
    marked = 0
    bits = 0
    for lot in range(rules.lots):
        if lot % 4 == 0:
            bits = chance.next_u64()
        if (bits & 0xFFFF) < rules.lot_threshold:
            marked += 1
        bits >>= 16
    return marked


def cast_lots(chance: Stream, rules: Rules) -> int:
    """The spaces one cast moves."""
    return rules.cast_table[throw_lots(chance, rules)]


# ------------------------------------------------------------------ replaying a record
class IllegalAction(AssertionError):
    """A recorded action the rules do not allow, or a record that does not follow them."""


class Tallies:
    """What the result columns count, kept as the game is replayed."""

    def __init__(self):
        self.counts = {"kills": [0, 0], "captures": [0, 0], "rescues": [0, 0],
                       "deepest_pile": 0}
        self.forfeits = [0, 0]
        self.casts = 0
        self.moves = 0
        self.choices = []    # (side, legal moves) of every cast that was not forfeited


def expected_snapshot(board: Board, t: Tallies, side: int) -> list[int]:
    """The kernel's flat snapshot row for this position (layout: ``state.unpack_snapshot``:
    commander, Jade counts, Cinnabar counts per space, home, dead, then kills, captures,
    rescues, forfeits per side, moves, deepest pile, casts, the side casting)."""
    T = board.rules.T
    commander = [pile[-1] if pile else -1 for pile in board.track]
    jade = [pile.count(JADE) for pile in board.track]
    cinnabar = [pile.count(CINNABAR) for pile in board.track]
    c = t.counts
    return (commander + jade + cinnabar + list(board.home) + list(board.dead)
            + c["kills"] + c["captures"] + c["rescues"] + t.forfeits
            + [t.moves, c["deepest_pile"], t.casts, side])[:3 * T + 16]


def _next(events, i: int, kind: int, where: str):
    if i >= len(events):
        raise IllegalAction(f"{where}: the record ends; a {('cast', 'move', 'forfeit')[kind]} "
                            "was due")
    ev = [int(x) for x in events[i]]
    if kind == EV_CAST and ev[0] != EV_CAST:
        raise IllegalAction(f"{where}: event {i} is kind {ev[0]}, the lots were due")
    return ev


def _replay_cast(board: Board, t: Tallies, side: int, chance: Stream, events, i: int,
                 where: str) -> tuple[int, bool]:
    """Replay one cast (events ``i`` and ``i + 1``); returns (next event, side has won)."""
    r = board.rules
    ev = _next(events, i, EV_CAST, where)
    marked = throw_lots(chance, r)
    spaces = r.cast_table[marked]
    if ev[1:5] != [-1, side, marked, spaces]:
        raise IllegalAction(f"{where}: recorded cast {ev[1:5]} (actor, side, marked, spaces), "
                            f"the rules and the stream give {[-1, side, marked, spaces]}")
    t.casts += 1
    legal = board.legal_moves(side, spaces)
    ev = _next(events, i + 1, EV_MOVE, where)
    if ev[0] == EV_FORFEIT:
        if ev[1] != side or ev[2] != spaces:
            raise IllegalAction(f"{where}: forfeit {ev} by the wrong side or of the wrong cast")
        if legal:
            raise IllegalAction(f"{where}: {SIDE_NAMES[side]} forfeited {spaces} with legal "
                                f"moves {legal}")
        t.forfeits[side] += 1
        return i + 2, False
    if ev[0] != EV_MOVE or ev[1] != side:
        raise IllegalAction(f"{where}: event {ev} where {SIDE_NAMES[side]}'s move was due")
    code = ev[2]
    move = DEPLOY if code == r.T else code
    t.choices.append((side, len(legal)))
    if move not in legal:
        raise IllegalAction(f"{where}: {SIDE_NAMES[side]} cannot play {move} with {spaces} "
                            f"(legal: {legal}) on {board.drawing()}")
    dest = board.destination(side, move, spaces)
    want = [r.T if dest == OFF else dest, 0, 0, 0, 0]
    if dest == OFF:
        pile = board.track[move]
        want[3] = sum(1 for s in pile if s != side)
        want[4] = sum(1 for s in pile if s == side)
    elif board.commander(dest) == 1 - side:
        below = board.track[dest]
        want[1] = sum(1 for s in below if s != side)
        want[2] = sum(1 for s in below if s == side)
    if ev[3:8] != want:
        raise IllegalAction(f"{where}: move {move} recorded as (target, captured, freed, "
                            f"killed, home) {ev[3:8]}, the rules give {want}")
    board.apply(side, move, spaces, t.counts)
    t.moves += 1
    return i + 2, board.won(side)


def replay(record, trace: list | None = None) -> dict:
    """Replay a recorded game (``sim.record.Record``) under its rules; returns its result
    columns (per-seat columns named by ``sim.results.seat_column``).  ``trace``: a list
    that receives, after every cast, (side, cast number, board snapshot)."""
    rules = Rules(record.rules)
    events = record.events
    snaps = record.snapshots
    chance = Stream.substream(record.seed, record.index, DICE, 0)   # the casts, nothing else
    board = Board(rules)
    t = Tallies()
    first = rules.first_player(record.index)
    side, i = first, 0
    winner, end_reason = -1, None
    while end_reason is None:
        for _ in range(rules.casts_per_turn):
            where = f"game {record.index} cast {t.casts + 1}"
            i, won = _replay_cast(board, t, side, chance, events, i, where)
            if snaps is not None and t.casts <= len(snaps):
                row = [int(x) for x in snaps[t.casts - 1]]
                want = expected_snapshot(board, t, side)
                if row != want:
                    raise IllegalAction(f"{where}: the recorded state {row} is not the board "
                                        f"the actions make {want}")
            if trace is not None:
                trace.append((side, t.casts, board.snapshot()))
            if won:
                winner, end_reason = side, END_KILLED
                break
            if t.casts >= rules.horizon:                    # abandoned as a draw
                end_reason = END_HORIZON
                break
        side = 1 - side
    if i != len(events):
        raise IllegalAction(f"game {record.index}: {len(events) - i} events after the end")
    c = t.counts
    out = {"winner": winner, "end_reason": end_reason, "capped": end_reason == END_HORIZON,
           "first_player": first, "casts": t.casts, "moves": t.moves,
           "deepest_pile": c["deepest_pile"]}
    for s in (JADE, CINNABAR):
        out[seat_column("win", s)] = 1.0 if winner == s else 0.0
        for name, v in (("kills", c["kills"]), ("captures", c["captures"]),
                        ("rescues", c["rescues"]), ("forfeits", t.forfeits)):
            out[seat_column(name, s)] = v[s]
    out.update(how_it_plays(t.choices, 2, flat=True))
    return out


# ------------------------------------------------------------------ what the replay test covers
def _cases():
    bots_all = ["random,random", "greedy,greedy", "search,search", "search:depth=1,greedy",
                "random,search", "greedy,random"]
    cases = [{"players": 2, "bots": b, "rules": {}, "games": n, "seed": 7}
             for b, n in zip(bots_all, (300, 200, 40, 100, 60, 200))]
    readings = [{"entry": "cast"}, {"exit": "pile"}, {"drag": "reverse"},
                {"stack_own": "piles"}, {"lot_p": 0.45}, {"lot_p": 0.55}, {"track": 9},
                {"track": 9, "exit": "pile", "drag": "reverse", "stack_own": "piles",
                 "entry": "cast"},
                {"casts_per_turn": 2, "first": "cinnabar"}, {"first": "jade", "horizon": 30},
                {"lots": 3, "cast_table": "3,1,2,3", "warriors": 3},
                {"track": 5, "warriors": 6, "cast_table": "2,1,1,3,6", "horizon": 60},
                {"track": 40, "warriors": 2, "lots": 8, "lot_p": 0.3}]
    for k, rules in enumerate(readings):
        bots = ("random,greedy", "greedy,search:depth=1", "search,random")[k % 3]
        cases.append({"players": 2, "bots": bots, "rules": rules,
                      "games": 30 if "search," in bots else 100, "seed": 100 + k})
    return cases


#: the recorded games ``tests/test_replay.py`` replays: every bot (search at depths 1 and 2),
#: the one player count (2), every reading and variant and a few odd rule sets
REPLAY_CASES = _cases()


def snapshot_census(state, side: int) -> int:
    """Warriors of ``side`` in a trace ``state`` (track + home + dead)."""
    track, home, dead = state
    return sum(1 for pile in track for s in pile if s == side) + home[side] + dead[side]
