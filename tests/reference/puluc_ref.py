"""A plain-Python Puluc engine, written from the rulebook (``seeds/puluc.txt``).

It exists to check the jitted kernel (``sim/games/puluc/kernel.py``): given the
same master seed, game index, rules and bots it must produce the same per-game
record, move for move, because it reads the same random streams
(:class:`sim.rng.Stream`).  It is also the "straightforward pure-Python engine"
the benchmarks compare the kernel against, so :func:`play` carries nothing but
the rules.

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

from sim.rng import DICE, Stream

JADE, CINNABAR = 0, 1
SIDE_NAMES = ("Jade", "Cinnabar")
DEPLOY = "deploy"
OFF = "off"  # destination: carried off the track

END_KILLED, END_HORIZON = 0, 1
WIN_VALUE = 1.0e9
TIE_REL = 1e-9   # search values this close (relative, at least 1e-9 absolute) are a tie

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


def parse_bot(spec) -> tuple[str, int]:
    """``'random'``, ``'greedy'``, ``'search'``, ``'search:depth=1'`` or ``('search', 1)``."""
    if isinstance(spec, tuple):
        return spec[0], int(spec[1]) if len(spec) > 1 else 2
    name, _, rest = str(spec).partition(":")
    depth = 2
    for kv in filter(None, rest.split(",")):
        k, v = kv.split("=")
        if k.strip() == "depth":
            depth = int(v)
    return name.strip(), depth


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
def cast_lots(chance: Stream, rules: Rules) -> int:
    """Each lot uses 16 bits of a draw from the casts' stream (the game's DICE substream:
    four lots a draw, low bits first)."""
    marked = 0
    bits = 0
    for lot in range(rules.lots):
        if lot % 4 == 0:
            bits = chance.next_u64()
        if (bits & 0xFFFF) < rules.lot_threshold:
            marked += 1
        bits >>= 16
    return rules.cast_table[marked]


# ------------------------------------------------------------------ bots
def greedy_score(board: Board, side: int, move, cast: int) -> int:
    """Carry off enemies (1000 each, 50 per own warrior brought home), capture the biggest
    pile (100 per enemy, 90 per own prisoner freed), and prefer the leading pile."""
    target = board.destination(side, move, cast)
    if move == DEPLOY:
        own, enemies, lead = 1, 0, 0
    else:
        pile = board.track[move]
        own = sum(1 for s in pile if s == side)
        enemies = len(pile) - own
        lead = board.steps(side, move) + 1
    score = lead
    if target == OFF:
        score += 1000 * enemies + 50 * own
    elif board.commander(target) == 1 - side:
        below = board.track[target]
        d_own = sum(1 for s in below if s == side)
        score += 100 * (len(below) - d_own) + 90 * d_own
    return score


def greedy_choice(board: Board, side: int, cast: int, moves: list, stream: Stream):
    """The best-scoring move; equal scores are equally likely: scanning the moves, the k-th
    move found equal to the best so far takes its place with probability 1/k (one draw on
    the bot's own stream per tie, none without a tie)."""
    best, best_score = moves[0], greedy_score(board, side, moves[0], cast)
    ties = 1
    for move in moves[1:]:
        s = greedy_score(board, side, move, cast)
        if s > best_score:
            best, best_score, ties = move, s, 1
        elif s == best_score:
            ties += 1
            if stream.rand_int(ties) == 0:
                best = move
    return best


def same_value(a: float, b: float) -> bool:
    """An exact tie of two search values."""
    return abs(a - b) <= TIE_REL * max(1.0, abs(b))


def evaluate(board: Board, side: int) -> float:
    """Zero-sum value for ``side``: kills, plus each pile's prisoners weighted by how close
    they are to dying, plus a little progress."""
    r = board.rules
    enemy = 1 - side
    if board.dead[enemy] >= r.W:
        return WIN_VALUE
    if board.dead[side] >= r.W:
        return -WIN_VALUE
    v = 1000.0 * (board.dead[enemy] - board.dead[side])
    for i in range(r.T):
        pile = board.track[i]
        if not pile:
            continue
        owner = pile[-1]
        held = sum(1 for s in pile if s != owner)   # enemies under the commander
        steps = board.steps(owner, i)
        if r.drag == "reverse" and len(pile) > 1:
            dist = steps + 1          # runs back home to kill
        else:
            dist = r.T - steps        # runs to the far end
        worth = held * (200.0 + 400.0 * (r.T + 1 - dist) / (r.T + 1)) + 5.0 * steps
        if owner == side:
            v += worth
        else:
            v -= worth
    return v


def search_choice(board: Board, side: int, cast: int, moves: list, depth: int,
                  casts_left_in_turn: int, stream: Stream):
    """Expectiminimax: each of our moves; at depth 2 also every cast of whoever casts next
    (weighted by its chance) and that side's best reply, judged by :func:`evaluate`.
    A winning move is played at once (there is at most one); exact ties (within
    :data:`TIE_REL` of the first best value) are broken as in :func:`greedy_choice`."""
    r = board.rules
    nxt = side if casts_left_in_turn > 0 else 1 - side
    best, best_v, ties = moves[0], None, 0
    for move in moves:
        after = board.copy()
        after.apply(side, move, cast)
        if after.won(side):
            return move
        if depth <= 1:
            v = evaluate(after, side)
        else:
            v = 0.0
            for cv, prob in zip(r.cast_values, r.cast_probs):
                replies = after.legal_moves(nxt, cv)
                if not replies:
                    v += prob * evaluate(after, side)
                    continue
                bv = -float("inf")
                for reply in replies:
                    b2 = after.copy()
                    b2.apply(nxt, reply, cv)
                    e = evaluate(b2, nxt)
                    if e > bv:
                        bv = e
                v += prob * (bv if nxt == side else -bv)
        if best_v is None or (v > best_v and not same_value(v, best_v)):
            best, best_v, ties = move, v, 1
        elif same_value(v, best_v):
            ties += 1
            if stream.rand_int(ties) == 0:
                best = move
    return best


# ------------------------------------------------------------------ a game
def _play(seed: int, game_index: int, rules, bots, trace: list | None):
    if not isinstance(rules, Rules):
        rules = Rules(rules)
    bots = [parse_bot(b) for b in bots]
    chance = Stream.substream(seed, game_index, DICE, 0)   # the casts, nothing else
    bot_streams = [Stream(seed, game_index, 1 + s) for s in (JADE, CINNABAR)]
    board = Board(rules)
    record = {"kills": [0, 0], "captures": [0, 0], "rescues": [0, 0], "forfeits": [0, 0],
              "deepest_pile": 0}
    first = rules.first_player(game_index)
    side = first
    casts = 0
    moves_made = 0
    winner, end_reason = -1, None
    while end_reason is None:
        for k in range(rules.casts_per_turn):
            cast = cast_lots(chance, rules)
            casts += 1
            moves = board.legal_moves(side, cast)
            if not moves:
                record["forfeits"][side] += 1          # nothing can use the cast
                move = None
            else:
                name, depth = bots[side]
                if name == "random":
                    move = moves[bot_streams[side].rand_int(len(moves))]
                elif name == "greedy":
                    move = greedy_choice(board, side, cast, moves, bot_streams[side])
                elif name == "search":
                    move = search_choice(board, side, cast, moves, depth,
                                         rules.casts_per_turn - 1 - k, bot_streams[side])
                else:
                    raise ValueError(f"unknown bot {name!r}")
                board.apply(side, move, cast, record)
                moves_made += 1
            if trace is not None:
                trace.append({"cast_no": casts, "side": side, "cast": cast, "legal": moves,
                              "move": move, "state": board.snapshot()})
            if move is not None and board.won(side):
                winner, end_reason = side, END_KILLED
                break
            if casts >= rules.horizon:                    # abandoned as a draw
                end_reason = END_HORIZON
                break
        side = 1 - side
    return {
        "winner": winner, "end_reason": end_reason, "capped": end_reason == END_HORIZON,
        "first_player": first, "casts": casts, "moves": moves_made,
        "deepest_pile": record["deepest_pile"], "kills": tuple(record["kills"]),
        "captures": tuple(record["captures"]), "rescues": tuple(record["rescues"]),
        "forfeits": tuple(record["forfeits"]),
    }, board


def play(seed: int, game_index: int, rules=None, bots=("random", "random")) -> dict:
    """Play one game; the per-game record the kernel's ``run_chunk`` writes."""
    result, _ = _play(seed, game_index, rules, bots, None)
    return result


def play_trace(seed: int, game_index: int, rules=None, bots=("random", "random")):
    """Play one game and return ``(record, trace)``; the trace has one entry per cast:
    ``cast_no``, ``side``, ``cast``, ``legal`` (the legal moves), ``move`` (None for a
    forfeit) and ``state`` (track, home, dead after the cast)."""
    trace: list = []
    result, _ = _play(seed, game_index, rules, bots, trace)
    return result, trace


def snapshot_census(state, side: int) -> int:
    """Warriors of ``side`` in a trace ``state`` (track + home + dead)."""
    track, home, dead = state
    return sum(1 for pile in track for s in pile if s == side) + home[side] + dead[side]


def snapshot_drawing(state) -> str:
    track, home, dead = state
    cells = ["".join("JC"[s] for s in pile) or "." for pile in track]
    return f"J{home[0]}/{dead[0]}x | " + " ".join(cells) + f" | C{home[1]}/{dead[1]}x"


def pile_counts(state) -> list[tuple[int, int, int]]:
    """Per space: (commander or -1, Jade count, Cinnabar count): the kernel's layout."""
    track, _, _ = state
    out = []
    for pile in track:
        out.append((pile[-1] if pile else -1, sum(1 for s in pile if s == JADE),
                    sum(1 for s in pile if s == CINNABAR)))
    return out
