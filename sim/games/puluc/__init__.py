"""Puluc (Bul): the declaration the runner, CLI and reports read."""
from __future__ import annotations

from ...seeds import seeds_dir
from ...game import Bot, Column, Game
from ...params import Param
from ...playcols import COMPLEXITY, EVALUATION
from .actions import ACTIONS
from .play import BOT_GREEDY, BOT_RANDOM, BOT_SEARCH, record_shape, run_chunk, win_trace
from .setup import prepare

SEATS = ["Jade", "Cinnabar"]
RULES_DOC = str(seeds_dir("puluc") / "RULES.md")  # the checkout's seeds/ or the wheel's sim/_seeds/

PARAMS = (
    Param("track", 11, "spaces on the track (the nine-space board: 9)", "int", 4, 40,
          source="Components; Notes on the rules: boards of nine are equally traditional",
          role="variant"),
    Param("warriors", 5, "warriors per side; killing all of them wins", "int", 1, 20,
          source="Components; Winning"),
    Param("lots", 4, "binary lots cast each time", "int", 1, 8, source="Components"),
    Param("cast_table", "standard",
          "spaces moved for 0,1,2,... marked lots; 'standard' = k marked moves k, "
          "none marked moves lots+1 (the rulebook's 1,2,3,4 and 0 -> 5); or a list such as 5,1,2,3,4",
          "intlist", 1, 40, choices=("standard",), source="A turn: 1. Cast the lots"),
    Param("lot_p", 0.5, "probability that one lot lands marked side up (assumption: fair lots)",
          "float", 0.01, 0.99, source="Components (silent: assumed fair)", role="reading",
          alternatives=(0.45, 0.55)),
    Param("casts_per_turn", 1, "cast-and-move actions in one turn", "int", 1, 4,
          source="A turn"),
    Param("entry", "space",
          "'space': deploy onto your entry space whatever the cast; "
          "'cast': enter the warrior cast spaces onto the track", "choice",
          choices=("space", "cast"), source="2. Move: Deploy; Notes on the rules (sources disagree)",
          role="reading"),
    Param("exit", "any",
          "'any': any pile, even a lone warrior, may be carried off the far end; "
          "'pile': only a pile holding prisoners may leave", "choice",
          choices=("any", "pile"), source="Killing prisoners; Notes on the rules (accounts disagree)",
          role="reading"),
    Param("drag", "forward",
          "'forward': piles keep running forward; 'reverse': the regional variant, a pile "
          "holding prisoners runs back and kills them on reaching its own home base", "choice",
          choices=("forward", "reverse"), source="Notes on the rules: Prisoners are dragged forwards",
          role="variant"),
    Param("stack_own", "never",
          "'never': you may not land on any space you command; 'piles': the traditional "
          "phrasing's other reading, you may land on (merge with) a pile you command, "
          "not on a lone warrior of yours", "choice", choices=("never", "piles"),
          source="2. Move; Notes on the rules: You may not land where you command (the "
          "traditional phrasing leaves it open)", role="reading"),
    Param("horizon", 240, "casts after which an unfinished game is abandoned as a draw", "int", 1,
          1_000_000, source="Winning (240 casts)", role="horizon", aliases=("cap",)),
    Param("first", "alternate",
          "who casts first: 'alternate' (Jade in even-numbered games, Cinnabar in odd), "
          "'jade' or 'cinnabar' always", "choice", choices=("alternate", "jade", "cinnabar"),
          source="A turn"),
)

BOTS = (
    Bot("random", BOT_RANDOM, "uniform over the distinct legal moves (deploy is one move, "
        "each pile you command is one); a forfeit draws nothing"),
    Bot("greedy", BOT_GREEDY, "one-ply heuristic: carry off the most enemies, else capture "
        "the biggest pile, else run the leading pile; equal scores: a uniform draw on its own "
        "stream"),
    Bot("search", BOT_SEARCH, "expectiminimax: each of its moves, then every cast of the next "
        "caster and that side's best reply, scored by a material-and-progress evaluation; "
        "equal values (within 1e-9, relative): a uniform draw on its own stream",
        params=(Param("depth", 2, "1: evaluate own move only; 2: also every next cast and reply; "
                      "3: each such reply valued at depth 2 for its side, 4: at depth 3 (each "
                      "depth about 8x the work of the one before)",
                      "int", 1, 4),)),
)

COLUMNS = (
    Column("casts", "int32", "casts made, forfeits included"),
    Column("moves", "int32", "moves made (casts that were not forfeited)"),
    Column("deepest_pile", "int8", "tallest pile seen during the game"),
    Column("kills", "int8", "enemy warriors this side killed", per_seat=True),
    Column("captures", "int32", "captures made (landings on an enemy pile)", per_seat=True),
    Column("rescues", "int32", "own prisoners freed by those captures", per_seat=True),
    Column("forfeits", "int32", "casts this side had to forfeit", per_seat=True),
) + COMPLEXITY + EVALUATION

GAME = Game(
    name="puluc",
    title="Puluc",
    version=2,
    players=(2,),
    default_players=2,
    params=PARAMS,
    bots=BOTS,
    default_bots=("random", "random"),
    columns=COLUMNS,
    end_reasons=("all enemy warriors killed", "horizon reached: draw"),
    length="casts",
    length_unit="casts",
    seat_names=lambda players: SEATS[:players],
    prepare=prepare,
    run_chunk=run_chunk,
    rules_doc=RULES_DOC,
    actions=ACTIONS,
    record_shape=record_shape,
    show_module="sim.games.puluc.show",
    learn="sim.games.puluc.features",
    evaluates=True,
    evaluated_at="once a round, before the first side's casts",
    win_trace=win_trace,
    highlight=("kills", "captures", "rescues", "forfeits"),
    # sim robust: bots from the strongest (skill: search > greedy > random); the strong play is
    # the depth `sim strength` settled at (strong_play), not the default depth 2
    strength=("search:depth=3", "greedy", "random"),
    ladder=("random", "greedy", "search"),
    strong_play=("search:depth=3: `sim strength puluc --bot search:depth=1 --param depth --add 1 "
                 "--rungs 4 --games 40000` settled at depth 3 on two seeds (depth 4 moved no headline "
                 "beyond the tolerance; docs/FINDINGS.md, 2026-12-06); about 0.2 ms a game, depth 4 "
                 "costs 13 times as much"),
    bench=(
        {"label": "random-vs-random", "players": 2, "bots": "random,random", "moves": "casts",
         "target": {"games_per_s": 100_000}},
        {"label": "greedy-vs-greedy", "players": 2, "bots": "greedy,greedy", "moves": "casts"},
        {"label": "search-vs-greedy", "players": 2, "bots": "search,greedy", "moves": "casts",
         "games": 20_000},
    ),
)
