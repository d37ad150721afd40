"""Puluc (Bul): the declaration the runner, CLI and reports read."""
from __future__ import annotations

from math import comb
from pathlib import Path

import numpy as np

from ...game import Bot, Column, Game
from ...results import allocate
from ...params import Param, ParamError
from . import kernel as K

SEATS = ["Jade", "Cinnabar"]
RULES_DOC = str(Path(__file__).resolve().parents[3] / "seeds" / "puluc" / "RULES.md")

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
    Bot("random", K.BOT_RANDOM, "uniform over the distinct legal moves (deploy is one move, "
        "each pile you command is one); a forfeit draws nothing"),
    Bot("greedy", K.BOT_GREEDY, "one-ply heuristic: carry off the most enemies, else capture "
        "the biggest pile, else run the leading pile; equal scores: a uniform draw on its own "
        "stream"),
    Bot("search", K.BOT_SEARCH, "expectiminimax: each of its moves, then every cast of the next "
        "caster and that side's best reply, scored by a material-and-progress evaluation; "
        "equal values (within 1e-9, relative): a uniform draw on its own stream",
        params=(Param("depth", 2, "1: evaluate own move only; 2: also every next cast and reply",
                      "int", 1, 2),)),
)

COLUMNS = (
    Column("casts", "int32", "casts made, forfeits included"),
    Column("moves", "int32", "moves made (casts that were not forfeited)"),
    Column("deepest_pile", "int8", "tallest pile seen during the game"),
    Column("kills", "int8", "enemy warriors this side killed", per_seat=True),
    Column("captures", "int32", "captures made (landings on an enemy pile)", per_seat=True),
    Column("rescues", "int32", "own prisoners freed by those captures", per_seat=True),
    Column("forfeits", "int32", "casts this side had to forfeit", per_seat=True),
)

_CHOICE_CODES = {
    "entry": {"space": K.ENTRY_SPACE, "cast": K.ENTRY_CAST},
    "exit": {"any": K.EXIT_ANY, "pile": K.EXIT_PILE},
    "drag": {"forward": K.DRAG_FORWARD, "reverse": K.DRAG_REVERSE},
    "first": {"alternate": K.FIRST_ALTERNATE, "jade": K.FIRST_JADE, "cinnabar": K.FIRST_CINNABAR},
    "stack_own": {"never": K.STACK_NEVER, "piles": K.STACK_PILES},
}


def cast_table(rules: dict) -> np.ndarray:
    lots = rules["lots"]
    tab = rules["cast_table"]
    if tab == "standard":
        return np.array([lots + 1] + list(range(1, lots + 1)), dtype=np.int64)
    if len(tab) != lots + 1:
        raise ParamError(f"parameter 'cast_table' needs {lots + 1} values (for 0..{lots} marked "
                         f"lots), got {len(tab)}")
    return np.array(tab, dtype=np.int64)


def prepare(rules: dict, players: int):
    """Rule values as the kernel's arrays: (R, cast table, lot threshold, cast values, probabilities)."""
    R = np.zeros(K.N_RULES, dtype=np.int64)
    R[K.R_T] = rules["track"]
    R[K.R_W] = rules["warriors"]
    R[K.R_LOTS] = rules["lots"]
    R[K.R_CPT] = rules["casts_per_turn"]
    R[K.R_ENTRY] = _CHOICE_CODES["entry"][rules["entry"]]
    R[K.R_EXIT] = _CHOICE_CODES["exit"][rules["exit"]]
    R[K.R_DRAG] = _CHOICE_CODES["drag"][rules["drag"]]
    R[K.R_HORIZON] = rules["horizon"]
    R[K.R_FIRST] = _CHOICE_CODES["first"][rules["first"]]
    R[K.R_STACK] = _CHOICE_CODES["stack_own"][rules["stack_own"]]
    tab = cast_table(rules)
    thresh = int(round(float(rules["lot_p"]) * 65536))
    p = thresh / 65536  # the probability the kernel really uses
    lots = rules["lots"]
    dist: dict[int, float] = {}
    for k in range(lots + 1):
        dist[int(tab[k])] = dist.get(int(tab[k]), 0.0) + comb(lots, k) * p ** k * (1 - p) ** (lots - k)
    vals = np.array(sorted(dist), dtype=np.int64)
    probs = np.array([dist[v] for v in vals], dtype=np.float64)
    return R, tab, thresh, vals, probs


def run_chunk(ctx, players, seed, start, count, bot_ids, bot_params):
    R, tab, thresh, vals, probs = ctx
    out = allocate(GAME, players, count)
    # The rule values go in as a tuple: they live in registers, whereas an int64 array could
    # alias the board the kernel writes, so every read of a rule after a store was reloaded
    # (1.7x faster, same games).
    Rt = tuple(int(x) for x in R)
    K.run_games(np.uint64(seed), np.int64(start), np.int64(count), Rt, tab, np.int64(thresh), vals, probs,
                bot_ids, bot_params, out["winner"], out["end_reason"], out["first_player"],
                out["casts"], out["moves"], out["deepest_pile"], out["kills"], out["captures"],
                out["rescues"], out["forfeits"])
    out["capped"] = out["end_reason"] == K.END_HORIZON
    win = np.zeros((count, 2), np.float32)
    for s in range(2):
        win[:, s] = out["winner"] == s
    out["win"] = win
    return out


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
    highlight=("kills", "captures", "rescues", "forfeits"),
    # sim robust: bots from the strongest (skill: search > greedy > random)
    strength=("search", "greedy", "random"),
    bench=(
        {"label": "random-vs-random", "players": 2, "bots": "random,random", "moves": "casts",
         "target": {"games_per_s": 100_000}},
        {"label": "greedy-vs-greedy", "players": 2, "bots": "greedy,greedy", "moves": "casts"},
        {"label": "search-vs-greedy", "players": 2, "bots": "search,greedy", "moves": "casts",
         "games": 20_000},
    ),
)
