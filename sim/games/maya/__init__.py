"""Maya (2012): the declaration the runner, CLI and reports read."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ...game import Bot, Column, Game
from ...playcols import COMPLEXITY, EVALUATION
from .play import run_chunk, win_trace
from ...record import Action
from ... import datafile
from ...params import Param, ParamError
from ...seeds import seeds_dir
from . import setup, state

SEEDS = seeds_dir("maya")
RULES_DOC = str(SEEDS / "RULES.md")
BOARDS = {"standard": SEEDS / "board.toml"}

PARAMS = (
    Param("horizon", 500, "exchanges after which an unfinished game is stopped and scored "
          "by 'horizon_result' (the rulebook's end condition need not be reached)", "int",
          1, 1_000_000, source="The End of the Game (silent: a horizon is needed)",
          role="horizon"),
    Param("horizon_result", "score",
          "how a game stopped by the horizon is scored: 'score' = count the board as it "
          "stands, with every tie-break; 'draw' = no winner", "choice",
          choices=("score", "draw"), source="The End of the Game (silent)", role="reading",
          aliases=("capped",)),
    Param("setup", "uniform",
          "'uniform': a board drawn uniformly from all valid boards; 'turns': the Alternative "
          "Setup, players in turn place randomly drawn blocks level by level, bots choosing "
          "the tower (2p greedy/search: White adds join chances, Black removes them)",
          "choice", choices=("uniform", "turns"),
          source="Game Setup (hint: random colours); Alternative Setup", role="variant"),
    Param("start", "bot",
          "two players: who places the Monolith and the Raven before the first exchange: "
          "'bot' = the black player's bot, 'random' = chance (players who do not use the "
          "choice)", "choice", choices=("bot", "random"),
          source="Game Setup (the player with the black pieces; how players use the choice: "
          "a reading)", role="reading"),
    Param("raven", True, "two players: the Raven forbids exchanges at its level",
          "bool", source="1. Making Exchanges: You must not disturb the Raven"),
    Param("ladder_spaces", "neighbours",
          "ladder spaces around each tower: 'neighbours' = one per orthogonal neighbour "
          "(corner 2, edge 3, centre 4); one value for every tower; three values for "
          "corner,edge,centre; or one value per tower (row by row)", "intlist", 0, 16,
          choices=("neighbours",), source="3. Placing Ladders and Priests (figure; silent on counts)",
          role="reading", alternatives=("2", "4")),
    Param("ladders", 24, "ladders each player has (24: never runs out on the default board)",
          "int", 0, 200, source="Game Setup: each player takes the ladders (silent on the number)",
          role="reading", alternatives=(12, 8)),
    Param("priests", 9, "priests each player has (9: never runs out)", "int", 0, 16,
          source="Game Setup: each player takes the priests (silent on the number)",
          role="reading", alternatives=(5, 3)),
    Param("points", (1, 3, 6, 10),
          "three/four players: task points for 2, 3, 4, ... joined blocks of a task colour "
          "(the last value: a completed tower)", "intlist", 0, 1000,
          source="Variant for Three Players: Victory Points"),
    Param("centre_bonus", 5, "three/four players: bonus for completing the centre tower and "
          "declaring the end that turn", "int", 0, 1000,
          source="Variant for Three Players: Victory Points"),
    Param("first", "rotate",
          "three/four players: who moves first, 'rotate' = seat g mod players in game g, "
          "'seat0' = always North (two players: White, seat 0, always moves first, as the "
          "rulebook says)", "choice", choices=("rotate", "seat0"),
          source="Game Setup (white starts); Variant for Three Players (choose a player)"),
    Param("board", "standard", "board file (rows, cols, levels, colour names)", "file",
          choices=("standard",), source="Game Setup", role="data"),
)

BOTS = (
    Bot("random", state.BOT_RANDOM,
        "uniform over the legal exchanges (a pair of adjacent towers and a level); as black, "
        "a uniform Monolith edge and Raven level; with 3-4 players declares with probability "
        "1/2 whenever it may"),
    Bot("greedy", state.BOT_GREEDY,
        "two players: best immediate value (points, then priests, then ladders lead; a move "
        "that ends the game counts as its result), ties broken by blocking the opponent's best "
        "reply, then by a uniform draw; as black, the start that leaves white the least.  "
        "Three/four players: plays towards its own task colours and declares when its points "
        "beat what it can see.  Every remaining tie: a uniform draw on its own stream"),
    Bot("search", state.BOT_SEARCH,
        "two players: alpha-beta over exchanges to a fixed depth (the greedy value at the "
        "leaves), root moves shuffled on its own stream so that equal best moves are equally "
        "likely.  Three/four players: determinized Monte Carlo search: the task bot's best "
        "'width' exchanges get 'iters' play-outs by sequential halving, each with the hidden "
        "task cards drawn afresh from the colours the seat has not seen (its own stream) and "
        "the task bot playing every seat for 'playout' exchanges; the side's task-point "
        "margin decides; it declares the end when ending now beats playing on over 'iters' "
        "drawn deals",
        params=(Param("depth", 3, "two players: exchanges searched (plies)", "int", 1, 6),
                Param("iters", 128, "three/four players: play-outs per decision", "int", 0,
                      100_000),
                Param("width", 8, "three/four players: exchanges searched (the task bot's "
                      "best)", "int", 1, 512),
                Param("playout", 12, "three/four players: exchanges per play-out before it "
                      "is scored (the game may end sooner)", "int", 1, 1000),
                Param("leaf", "formula", "how the search values where it stops: 'formula' the "
                      "greedy bot's eval2 at the alpha-beta's leaves (two players), the task-point "
                      "margin of a play-out cut after 'playout' exchanges (three/four); 'model' the "
                      "win probability the game's learned value gives the seat's view there "
                      "(sim/games/maya/features.py; sim learn; trained first where none is kept)",
                      "choice", choices=("formula", "model")))),
)

COLUMNS = (
    Column("exchanges", "int32", "exchanges made"),
    Column("score", "int16", "victory points (2p: priests + tower majorities; 3-4p: task points + bonus)",
           per_seat=True),
    Column("team_score", "int16", "the seat's side's points (4p: the partnership; else = score)",
           per_seat=True),
    Column("priests", "int8", "priests on the towers (2p)", per_seat=True),
    Column("ladders", "int8", "ladders beside the towers (2p)", per_seat=True),
    Column("priest_points", "int8", "points from priests (2p)", per_seat=True),
    Column("ladder_points", "int8", "points from ladder majorities (2p)", per_seat=True),
    Column("completed", "int8", "towers this seat completed", per_seat=True),
    Column("joins", "int16", "towers in which this seat joined colours", per_seat=True),
    Column("bonus", "int8", "centre-tower bonus (3-4p)", per_seat=True),
    Column("tiebreak", "int8", "what decided: 0 points, 1 priests, 2 ladders, 3 still tied"),
    Column("declarer", "int8", "seat that declared the end, -1 none"),
    Column("towers_complete", "int8", "complete towers at the end"),
    Column("team_winner", "int8", "winning side: seat (2-3p) or team 0 = seats 0+2, 1 = seats 1+3 (4p); -1 none"),
    Column("monolith_start", "int8", "2p: edge the Monolith started on (-1: 3-4p)"),
    Column("raven_start", "int8", "2p: Raven's starting level 1-5 (-1: none)"),
    Column("setup_attempts", "int16", "uniform set-up attempts (rejection sampling)"),
    Column("board_key", "int64", "the starting board (towers before the first exchange) as a "
           "64-bit key: equal boards have equal keys", summarize=False),
) + COMPLEXITY + EVALUATION

_CODES = {
    "horizon_result": {"score": state.HRESULT_SCORE, "draw": state.HRESULT_DRAW},
    "setup": {"uniform": state.SETUP_UNIFORM, "turns": state.SETUP_TURNS},
    "start": {"bot": state.START_BOT, "random": state.START_RANDOM},
    "first": {"rotate": state.FIRST_ROTATE, "seat0": state.FIRST_SEAT0},
}


def load_board(spec: str) -> dict:
    """Read and check a board file; returns rows, cols, levels, colours (every value read
    through :mod:`sim.datafile`: its type and range checked, the message naming the file,
    the line and the field)."""
    return _load_board(BOARDS.get(spec, Path(spec)))


@datafile.by_content("board")
def _load_board(path) -> dict:
    doc = datafile.load(path, "board")
    doc.only("rows", "cols", "levels", "colours")
    # booleans are not integers (TOML's true is Python's True, an int): datafile refuses them
    rows, cols = doc.int("rows", 1, 12), doc.int("cols", 1, 12)
    n = rows * cols
    if not 2 <= n <= 12:
        raise doc.fail("cols", f"makes rows x cols = {n} towers; the board holds 2..12")
    levels = doc.int("levels", 2, n)
    colours = doc.array("colours", n, n)
    names = [colours.text(i, max_len=40) for i in colours.keys()]
    datafile.unique([(colours, i, names[i]) for i in colours.keys()], "colour")
    return {"rows": rows, "cols": cols, "levels": levels, "colours": names}


def board_edges(rows: int, cols: int) -> list[tuple[int, int]]:
    """Adjacent pairs, towers row by row: each tower's right neighbour, then the one below."""
    edges = []
    for t in range(rows * cols):
        r, c = divmod(t, cols)
        if c + 1 < cols:
            edges.append((t, t + 1))
        if r + 1 < rows:
            edges.append((t, t + cols))
    return edges


def ladder_spaces(spec, rows: int, cols: int) -> np.ndarray:
    n = rows * cols
    deg = [0] * n
    for a, b in board_edges(rows, cols):
        deg[a] += 1
        deg[b] += 1
    if spec == "neighbours":
        vals = deg
    elif len(spec) == 1:
        vals = [spec[0]] * n
    elif len(spec) == 3 and n != 3:
        if any(d not in (2, 3, 4) for d in deg):
            raise ParamError("parameter 'ladder_spaces' with three values (corner,edge,centre) "
                             "needs a board whose towers have 2, 3 or 4 neighbours")
        vals = [spec[d - 2] for d in deg]
    elif len(spec) == n:
        vals = list(spec)
    else:
        raise ParamError(f"parameter 'ladder_spaces' takes 'neighbours', 1, 3 or {n} values, "
                         f"not {len(spec)}")
    return np.array(vals, dtype=np.int64)


# The largest and smallest numbers of valid rows for level k (counted from 0) over every
# valid board of k levels, found by enumerating all k-level prefixes up to renaming
# colours and towers (tests/test_maya_setup.py redoes it).  Levels not listed use
# Bregman's upper bound and the Egorychev-Falikman (van der Waerden) lower bound.
EXACT_ROW_MAX = {9: {2: 43424, 3: 12108}}
EXACT_ROW_MIN = {9: {2: 43386, 3: 12000}}


def level_bounds(n: int, levels: int) -> np.ndarray:
    """Row 0: upper bounds on the number of valid rows for each level; row 1: lower bounds
    (see setup.setup_uniform)."""
    b = np.zeros((2, levels), dtype=np.int64)
    b[0, 0] = b[1, 0] = math.factorial(n)
    if levels > 1:
        b[0, 1] = b[1, 1] = round(math.factorial(n) * sum((-1) ** i / math.factorial(i)
                                                          for i in range(n + 1)))
    for k in range(2, levels):
        r = n - k
        x = math.exp(n * math.lgamma(r + 1) / r)  # Bregman: prod over rows of (r!)^(1/r)
        b[0, k] = min(math.ceil(x * (1 + 1e-9)) + 1, math.factorial(n))
        b[0, k] = min(b[0, k], EXACT_ROW_MAX.get(n, {}).get(k, b[0, k]))
        low = r ** n * math.factorial(n) // n ** n   # perm >= n! (r/n)^n for r-regular
        b[1, k] = max(low, EXACT_ROW_MIN.get(n, {}).get(k, low))
    return b


def cycle_table(n: int, levels: int) -> np.ndarray:
    """Rows (cycle code, N): the number N of valid level-3 rows for each cycle type of the
    permutation from level-1 to level-2 colours (it depends on nothing else); see
    setup.setup_uniform.  Empty when the board has fewer than three levels."""
    if levels < 3:
        return np.zeros((0, 2), dtype=np.int64)

    def parts(m, lo=2):
        if m == 0:
            yield []
        for p in range(lo, m + 1):
            for rest in parts(m - p, p):
                yield [p] + rest

    dp = np.zeros(1 << n, dtype=np.int64)
    pc = np.array([bin(m).count("1") for m in range(1 << n)], dtype=np.int64)
    rows = []
    for part in parts(n):
        nxt, s = [], 0
        for p in part:
            nxt += [s + (i + 1) % p for i in range(p)]
            s += p
        allowed = np.array([((1 << n) - 1) & ~((1 << t) | (1 << nxt[t])) for t in range(n)],
                           dtype=np.int64)
        code = sum(1 << (4 * p) for p in part)
        rows.append((code, setup.count_assignments(allowed, n, dp, pc)))
    return np.array(rows, dtype=np.int64)


def prepare(rules: dict, players: int):
    board = load_board(rules["board"])
    rows, cols, L = board["rows"], board["cols"], board["levels"]
    n = rows * cols
    edges = board_edges(rows, cols)
    if players > 2:
        if rows % 2 == 0 or cols % 2 == 0:
            raise ParamError("three and four players need a board with a centre tower (odd rows and cols)")
        if n < 1 + 2 * players:
            raise ParamError(f"{players} players need at least {1 + 2 * players} colours for the task cards")
    pts_in = list(rules["points"])
    if players > 2 and len(pts_in) != L - 1:
        raise ParamError(f"parameter 'points' needs {L - 1} values (2..{L} joined blocks), "
                         f"got {len(pts_in)}")
    pts = np.zeros(L + 1, dtype=np.int64)   # unused by two players
    pts[2:] = (pts_in + [0] * L)[:L - 1]
    R = np.zeros(state.RULES_SZ, dtype=np.int64)
    R[state.R_N] = n
    R[state.R_L] = L
    R[state.R_E] = len(edges)
    R[state.R_P] = players
    R[state.R_RAVEN] = 1 if (players == 2 and rules["raven"]) else 0
    R[state.R_START] = _CODES["start"][rules["start"]]
    R[state.R_SETUP] = _CODES["setup"][rules["setup"]]
    R[state.R_HORIZON] = rules["horizon"]
    R[state.R_HRESULT] = _CODES["horizon_result"][rules["horizon_result"]]
    R[state.R_FIRST] = _CODES["first"][rules["first"]]
    R[state.R_LADDERS] = rules["ladders"]
    R[state.R_PRIESTS] = rules["priests"]
    R[state.R_BONUS] = rules["centre_bonus"]
    R[state.R_CENTRE] = (rows // 2) * cols + cols // 2
    R[state.R_CHECK] = 0
    R[state.R_LP] = 1 if players == 2 else 0
    ea = np.array([a for a, _ in edges], dtype=np.int64)
    eb = np.array([b for _, b in edges], dtype=np.int64)
    E = len(edges)
    R[state.R_EA:state.R_EA + E] = ea
    R[state.R_EB:state.R_EB + E] = eb
    R[state.R_EBITS:state.R_EBITS + E] = (np.int64(1) << ea) | (np.int64(1) << eb)
    full = (1 << (4 * L)) - 1
    R[state.R_HMASK:state.R_HMASK + L] = [full & ~((1 << (4 * lev)) - 1) for lev in range(L)]
    R[state.R_SPACES:state.R_SPACES + n] = ladder_spaces(rules["ladder_spaces"], rows, cols)
    R[state.R_PTS:state.R_PTS + L + 1] = pts
    bounds = level_bounds(n, L)
    R[state.R_BHI:state.R_BHI + L] = bounds[0]
    R[state.R_BLO:state.R_BLO + L] = bounds[1]
    cyc = cycle_table(n, L)
    R[state.R_NCYC] = len(cyc)
    R[state.R_CYC:state.R_CYC + 2 * len(cyc)] = cyc.ravel()
    return R


ACTIONS = (
    Action(state.EV_BOARD, "board", ("tower", "levels_1_7", "levels_8_12", "attempts"), chance=True,
           text="tower {tower} is built (colours packed 4 bits a level: {levels_1_7})"),
    Action(state.EV_BLOCK, "block", ("level", "colour"), chance=True,
           text="chance draws colour {colour} for level {level}"),
    Action(state.EV_PLACE, "place", ("level", "colour", "tower"),
           text="{actor} puts colour {colour} on tower {tower} at level {level}"),
    Action(state.EV_START, "start", ("edge", "tower_a", "tower_b", "raven"),
           text="{actor} places the Monolith between towers {tower_a} and {tower_b} and the "
                "Raven at level {raven}"),
    Action(state.EV_DEAL, "deal", ("seat", "card_1", "card_2"), chance=True,
           text="seat {seat} is dealt task colours {card_1} and {card_2}"),
    Action(state.EV_EXCHANGE, "exchange", ("edge", "level", "tower_a", "tower_b", "joined",
                                       "completed"),
           text="{actor} exchanges towers {tower_a} and {tower_b} from level {level} up "
                "(joined {joined}, completed {completed})"),
    Action(state.EV_DECLARE, "declare", ("bonus",), text="{actor} declares the end (bonus {bonus})"),
    Action(state.EV_PLAY_ON, "play_on", ("when",), text="{actor} may declare the end and plays on"),
)


def record_shape(rules: dict, players: int) -> tuple:
    """Snapshots: the state (``state.SNAP_W`` values, ``state.snapshot``) at the start and
    after each exchange (at most 2,000 exchanges)."""
    return state.SNAP_W, min(int(rules["horizon"]), 2000) + 1


GAME = Game(
    name="maya",
    title="Maya (2012)",
    version=7,
    players=(2, 3, 4),
    default_players=2,
    params=PARAMS,
    bots=BOTS,
    default_bots=("random",),
    columns=COLUMNS,
    end_reasons=("no legal exchange", "end declared", "horizon reached"),
    length="exchanges",
    length_unit="exchanges",
    # two players: the rulebook's colours (White, seat 0, moves first; Black places the
    # Monolith and the Raven)
    seat_names=lambda players: (["White", "Black"] if players == 2
                                else ["North", "East", "South", "West"][:players]),
    prepare=prepare,
    run_chunk=run_chunk,
    learn="sim.games.maya.features",
    evaluates=True,
    evaluated_at="once a round, when the first seat is to move (a partnership: its two seats' chances "
                 "added)",
    win_trace=win_trace,
    actions=ACTIONS,
    record_shape=record_shape,
    show_module="sim.games.maya.show",
    rules_doc=RULES_DOC,
    # four players play in two partnerships (seats 0 + 2 against 1 + 3): a team is a side
    side_of=lambda players: [s % 2 for s in range(players)] if players == 4 else list(range(players)),
    highlight=("score", "ladders", "priests", "completed"),
    score="score",
    # sim robust: bots from the strongest; the board set-up is the setup's randomness
    strength=("search", "greedy", "random"),
    # three/four players, for sim robust: three, the search with play-outs of 3 exchanges at a
    # quarter of its default budget (as strong as iters=64 at a ninth of its cost, about 0.01
    # s a game; docs/BENCH.md); four, at an eighth of its default budget (0.016 s a game);
    # the default budget would take hours per condition
    strength_players={3: ("search:iters=32;playout=3", "greedy", "random"),
                      4: ("search:iters=16", "greedy", "random")},
    ladder=("random", "greedy", "search"),
    # which strong play sim robust uses, and why (per player count)
    strong_play={
        2: "search (depth 3, its default): `sim strength maya` has not settled two-player Maya (White's edge "
           "still grows to depth 6, the horizon deciding most games; docs/FINDINGS.md): stronger play may "
           "move these figures",
        3: "search:iters=32;playout=3, as strong as search:iters=64 (50.2% [47.9, 52.5] head to head, "
           "1,800 games, two seeds) at a ninth of its CPU (docs/BENCH.md, 2026-12-07): `sim strength maya "
           "-p 3` has not settled (iters=64 moved the first player by 2-3 points; docs/FINDINGS.md): "
           "stronger play may move these figures",
        4: "search:iters=16, an eighth of its default budget, for cost: `sim strength maya -p 4` has not "
           "settled (the first partnership's edge at iters=16 is gone at iters=64; docs/FINDINGS.md): "
           "stronger play may move these figures"},
    setup_randomness=("setup",),
    bench=(
        {"label": "random-vs-random", "players": 2, "bots": "random,random", "moves": "exchanges",
         "target": {"moves_per_s": 1_500_000}},
        {"label": "greedy-vs-greedy", "players": 2, "bots": "greedy,greedy", "moves": "exchanges",
         "games": 20_000},
        {"label": "search-vs-greedy", "players": 2, "bots": "search,greedy", "moves": "exchanges",
         "games": 5_000},
        {"label": "random 3p", "players": 3, "bots": "random", "moves": "exchanges"},
        {"label": "random 4p", "players": 4, "bots": "random", "moves": "exchanges"},
        # the three/four-player search (default iters=128: 128 play-outs per exchange it
        # chooses); slow, so 60 and 40 games a measurement
        {"label": "search 3p (1 seat)", "players": 3, "bots": "search,greedy,greedy",
         "moves": "exchanges", "games": 60},
        {"label": "search 4p (team 0+2)", "players": 4, "bots": "search,greedy,search,greedy",
         "moves": "exchanges", "games": 40},
    ),
)
