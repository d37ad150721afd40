"""Balam: the declaration the runner, CLI and reports read.

The kernel is split by role: ``state`` (the state's layout, the rules array, every
constant), ``ties`` (a bot's tie-breaks on its own stream), ``board`` (sites, buildings,
riches, paths), ``setup`` (the layout and the Katun deck), the rules' phases
``divination`` (1), ``constructions`` (2), ``wars`` (3), ``katun`` (4) and
``distribution`` (5 and 6), ``rounds`` (a round's deal and close), ``bots/`` (``random``,
``heuristic`` with ``values``, ``cards`` and ``insure``, ``search`` with ``worlds``),
``howplays`` (issue #47's counts and chances), ``play`` (the game loop, ``run_games`` and
``run_chunk``), ``features`` (the learned value's row) and ``sampling`` (positions taken
from the kernel's games: the value's samples and the tests' probes)."""
from __future__ import annotations

import numpy as np

from ... import toml as TOML
from ...seeds import seeds_dir
from ...game import Bot, Column, Game
from ...params import Param, ParamError
from ...playcols import COMPLEXITY, EVALUATION
from . import data as D
from . import play as P
from .play import run_chunk
from .events import ACTIONS
from . import state as K

SEATS = ["Purple", "Grey", "Ochre", "Teal"]
RULES_DOC = str(seeds_dir("balam") / "RULES.md")  # the checkout's seeds/ or the wheel's sim/_seeds/

PARAMS = (
    Param("ball_games", 0,
          "the game ends at the end of the round of this ball game; 0 = by player count "
          "(2nd with 2 players, 3rd with 3, 4th with 4); 2..5 allowed, 5 = 'lengthened Balam'",
          "int", 0, 5, source="Setup: Choosing the length of the game", role="variant",
          alternatives=(2, 5)),
    Param("layout", "random",
          "how the site tiles are laid out: 'random' = each game draws its own layout (the "
          "board file's land tiles permuted over its land cells; sea tiles stay in the "
          "corners, red-cross tiles set aside); 'fixed' = the board file as printed in every "
          "game (versions before 5)", "choice", choices=("random", "fixed"),
          source="Setup: Building the board ('either at random or according to the taste of "
                 "the player who knows the rules')", role="variant"),
    Param("horizon", 40, "rounds after which an unfinished game stops (a draw)",
          "int", 1, 1000, source="Round Structure (horizon, not a rule)", role="horizon",
          aliases=("max_rounds",)),
    Param("catastrophes", "drawer",
          "'drawer': a catastrophe strikes the king who turned it; 'all': every king, "
          "drawer first (the Volcano still strikes the drawer only, as its card says)", "choice",
          choices=("drawer", "all"), source="4 - KATUN: Catastrophes (reading)", role="reading"),
    Param("expedition", "any",
          "Expedition return: 'any' of the six riches types, prisoners included (riches are six "
          "types); 'produced': one of the five types villages produce", "choice",
          choices=("any", "produced"), source="4 - KATUN: 3 - Expedition return (reading)",
          role="reading"),
    Param("village_production", "all",
          "'all': every village produces; 'forest': only villages on forest sites",
          "choice", choices=("all", "forest"), source="5 - PRODUCTION (reading)", role="reading"),
    Param("control", "sum",
          "'sum': a site blocks your riches when your enemies' small pyramids there outnumber "
          "yours (the rulebook's words); 'each': only when one enemy alone has more", "choice",
          choices=("each", "sum"), source="6 - DISTRIBUTION: Transport (reading)", role="reading"),
    Param("eclipse_jitter", 0, "the Eclipse goes this many cards either side of the exact "
          "middle, uniformly (0: exactly in the middle)", "int", 0, 30,
          source="Setup: Building the card deck ('roughly in the middle'; reading)",
          role="reading", alternatives=(3, 6)),
    Param("piles", "larger_first", "the shuffled cards are cut into (ball games + 1) piles "
          "as equal as possible: 'larger_first' puts the piles with one card more on top "
          "(a fixed game length); 'random' draws which piles they are (two-player games then "
          "last 10 or 11 rounds)", "choice", choices=("larger_first", "random"),
          source="Setup: Building the card deck ('6 piles of roughly equal size'; reading)",
          role="reading"),
    Param("max_turns", 400, "safety valve: turns in one round after which the player to "
          "move must turn a card (never reached by the bundled bots)", "int", 10, 100000,
          source="Round Structure (horizon, not a rule)", role="horizon"),
    Param("neutral_cards", "none",
          "card impact: card type codes (0..16, as printed: 9 = Drought ...) whose cards are "
          "turned and counted but have no effect (a neutral ball game still ends the game); "
          "the bots do not know which: they value every card as the rulebook says",
          "intlist", 0, 16, choices=("none",), source="4 - KATUN (analysis switch, not a rule)",
          role="analysis"),
    Param("board", "default", "board file: the grid of land cells, sea and paths, and the "
          "site tiles. The rulebook lists 33 site tiles but not what each holds, so every "
          "tile's spaces, colour and features are this project's assumption (see "
          "seeds/balam/RULES.md, Assumptions); 'small': a 4 x 5 board of 16 of the tiles",
          "file", choices=("default", "small"),
          source="Components; Setup: Building the board (tile contents not printed: an "
                 "assumption)", role="data"),
    Param("katun", "default", "Katun deck file (types, counts, Favourable/Prosperous gains; "
          "the gains are not printed in the rulebook: an assumption)",
          "file", choices=("default",), source="4 - KATUN (gains not printed: an assumption)",
          role="data"),
    Param("components", "default", "components file (supplies, pyramids, tiles, costs, "
          "ceremony points, dice, setup)", "file", choices=("default",), source="Components",
          role="data"),
)

_W = ("w_prestige", "w_hand", "w_reserve", "w_build", "w_expand", "w_war", "w_market",
      "w_ball", "w_risk", "w_temple", "w_palace")
_W_HELP = (
    "worth of one prestige point",
    "worth of one riches in the king's hand",
    "worth of storing riches in reserves (times the catastrophe losses a kept riches averts)",
    "multiplier on every building's value",
    "bonus for founding a new city",
    "eagerness to attack and to keep garrisons",
    "worth of markets (commercial control)",
    "worth of ball courts",
    "aversion to catastrophes (and worth of observatories)",
    "multiplier on temples",
    "multiplier on palaces",
)
STYLES = {
    "builder": (1.0, 1.0, 0.8, 1.2, 1.5, 0.5, 0.8, 1.0, 1.5, 1.0, 3.0),
    "warlord": (1.0, 1.0, 0.8, 1.0, 1.0, 2.0, 0.5, 0.8, 1.2, 0.8, 2.5),
    "merchant": (1.0, 1.2, 1.0, 1.0, 1.0, 0.6, 2.0, 0.8, 2.0, 0.8, 3.0),
    "priest": (1.2, 0.8, 0.8, 1.0, 1.0, 0.5, 0.8, 1.5, 1.5, 1.5, 1.5),
}
_STYLE_HELP = {
    "builder": "heuristic, founds cities and fills them",
    "warlord": "heuristic, keeps garrisons and attacks weak neighbours",
    "merchant": "heuristic, builds markets and palaces, keeps riches (the strong default)",
    "priest": "heuristic, temples and ball courts, prestige first",
}


def _style(name, bid):
    w = STYLES[name]
    return Bot(name, bid, _STYLE_HELP[name] + "; every heuristic compares turning a card "
               "(expected value over the unseen cards, exact for divined ones, a Prosperous "
               "Katun for those dealt from the top of the deck), building (greedy plan per "
               "site), attacking and passing, values riches by what they let it build and "
               "reserves by the catastrophes they ward off, and routes riches by a small "
               "assignment search",
               params=tuple(Param(n, v, h, "float", 0.0, 10.0) for n, v, h in zip(_W, w, _W_HELP))
               + (Param("plans", 1, "building plans worked out in full per turn (the best "
                        "screened sites): 1 is faster, 2 looks a little wider", "int", 1, 2),))


SEARCH_ITERS = 100   # the search bot's default budget (rollouts per decision)
#: two players' strongest affordable play (sim robust's strong condition; docs/BENCH.md)
STRONG_2P = "search:iters=40;horizon=-1;leaf=model"
#: sim robust's other bots, after the strong one: the styles, random last
_STYLES = ("merchant", "warlord", "builder", "priest", "random")
#: why three and four players' strong condition is the formula's search at a quarter budget
_STRONG_34 = ("search:iters=25, a quarter of its default budget, for cost (about 0.05 s a game): "
              "`sim strength balam` has not settled Balam (iters 25 to 100 moved no headline "
              "measurably, at 600-1,000 games a rung; docs/FINDINGS.md): stronger play may move "
              "these figures")

BOTS = (
    Bot("random", K.BOT_RANDOM, "uniform over the turn's options (card, pass, build on a site, "
        "attack a city) and uniform in every detail and later choice"),
    _style("builder", 1),
    _style("warlord", 2),
    _style("merchant", 3),
    _style("priest", 4),
    Bot("search", K.BOT_SEARCH,
        "determinized Monte Carlo search at each of its turns: candidates are the merchant "
        "heuristic's move, its best move other than a card, passing, turning a card it has "
        "not divined and turning each card it has divined; each iteration copies the "
        "state, deals the cards it has not seen afresh among their places (Prosperous on "
        "top, ball games and Eclipse where the deck's structure puts them), gives every seat "
        "and the dice fresh random streams (all drawn from its own stream), plays the "
        "candidate and then the merchant heuristic in every seat to the end of the game "
        "(or `horizon` rounds), and scores its share of the win (at a horizon: a logistic "
        "of its prestige margin, riches bonus included).  Allocation: sequential halving with "
        "every candidate played from the same sampled worlds (paired=1), or UCB1 (paired=0); "
        "it plays the best mean, ties on its own stream.  Every other choice (Katun "
        "options, defence, distribution) is the merchant's",
        params=(Param("iters", SEARCH_ITERS, "iterations (rollouts) per decision: 100 plays a "
                      "two-player game in about 0.2 s on one core", "int", 1, 100000),
                Param("horizon", 2, "rounds a rollout plays after the current one before it "
                      "is scored by the prestige margin (0: to the end of the game; -1: only "
                      "the rest of the current round)", "int", -1, 100),
                Param("explore", 0.5, "UCB1 exploration constant", "float", 0.0, 10.0),
                Param("scale", 4.0, "prestige margin giving odds e : 1 at a horizon", "float",
                      0.1, 100.0),
                Param("paired", 1, "1: sequential halving, every candidate played from the "
                      "same sampled worlds (paired); 0: UCB1, a fresh world per iteration",
                      "int", 0, 1),
                Param("stop", 0.0, "paired=1: stop the decision's search once, after the first "
                      "phase's worlds, one candidate beats every other still in by this many "
                      "standard errors of their paired difference (0: spend the whole budget)",
                      "float", 0.0, 10.0),
                Param("prune", 0, "paired=1: 1 first plays every candidate in one sampled world "
                      "and drops those that leave the same position as an earlier one (the "
                      "heuristic's move under another name), so the budget goes to distinct "
                      "moves; 0: search them all", "int", 0, 1),
                Param("leaf", "formula", "how a rollout cut at its horizon is valued: 'formula' a "
                      "logistic of the prestige margin (`scale`); 'model' the value model learned "
                      "from merchants' games (sim/games/balam/features.py: the win probability of "
                      "the king's position at the round's end); 'model2' its second generation, "
                      "learned from the games of `search:iters=40;horizon=-1;leaf=model` (each "
                      "trained first when the rules have none)", "choice",
                      choices=("formula", "model", "model2")))),
)


KATUN_KEYS = ("prosperous", "favourable", "exceptional", "expedition", "cacao_festival",
              "marriage", "cenote", "ball_game", "eclipse", "drought", "insurrection",
              "earthquake", "pochteca", "toltec_raid", "decadence", "volcano", "tidal_wave")
KATUN_COLS = tuple(f"katun_{k}" for k in KATUN_KEYS)

#: per-seat columns taken from the kernel's player rows (play.run_chunk): name, row, dtype, help
SEAT_FIELDS = (
    ("prestige", K.P_PRES, "int16", "prestige at the end (riches bonus included)"),
    ("pp_ceremony", K.P_CER, "int16", "prestige from temple ceremonies"),
    ("pp_cenote", K.P_CEN, "int16", "prestige from cenote sacrifices"),
    ("pp_ballgame", K.P_BALL, "int16", "prestige from ball games"),
    ("pp_prosperous", K.P_PROS, "int16", "prestige from Prosperous Katuns"),
    ("pp_bonus", K.P_BONUS, "int16", "prestige from the end-of-game riches bonus"),
    ("cities", K.P_LARGE, "int8", "cities held at the end"),
    ("wars", K.T_WARS, "int16", "attacks launched"),
    ("attacked", K.T_DEF, "int16", "times its cities were attacked"),
    ("buildings_lost", K.T_BLOST, "int16", "buildings destroyed by enemy attacks"),
    ("buildings_destroyed", K.T_BDEST, "int16", "enemy buildings it destroyed"),
    ("garrisons_lost", K.T_GLOST, "int16", "own garrisons lost to skulls when attacking"),
    ("catastrophes_paid", K.T_CPAID, "int16", "catastrophes warded off with reserves"),
    ("catastrophes_suffered", K.T_CSUFF, "int16", "catastrophes suffered (buildings lost)"),
    ("buildings_lost_katun", K.T_KLOST, "int16", "buildings lost to catastrophes"),
    ("prisoners", K.T_PRIS, "int16", "prisoners captured and placed"),
    ("buildings_built", K.T_BUILT, "int16", "buildings built"),
    ("cards_divined", K.T_DIV, "int16", "face-down cards seen by divination"),
    ("passes", K.T_PASS, "int16", "turns passed (paying one riches)"),
    ("turns_taken", K.T_TURNS, "int16", "turns played"),
)

COLUMNS = (
    Column("rounds", "int16", "rounds played"),
    Column("layout", "int64", "identifier of the game's site layout (a hash of the tile on "
           "each cell): equal for games played on the same layout", summarize=False),
    Column("turns", "int32", "turns played by all kings"),
    Column("ball_games", "int8", "ball game cards turned"),
    Column("eclipse_round", "int8", "round in which the Eclipse was turned (0: never)"),
    Column("cards_turned", "int16", "Katun cards turned"),
    Column("lead_changes", "int16", "times the sole prestige leader at the end of a round changed"),
    Column("lead_settled", "int8", "percent of the rounds played before the winner led for good "
           "(-1: no single winner)"),
) + tuple(Column(n, dt, h, per_seat=True) for n, _, dt, h in SEAT_FIELDS) + (
    Column("riches_left", "int16", "personal riches at the end (before the bonus)", per_seat=True),
) + tuple(Column(c, "int8", f"{k.replace('_', ' ')} cards this seat turned", per_seat=True)
          for c, k in zip(KATUN_COLS, KATUN_KEYS)) + COMPLEXITY + EVALUATION


def _impact():
    from . import impact
    return impact


def _ball_target(rules, players):
    b = rules["ball_games"]
    if b == 0:
        return {2: 2, 3: 3, 4: 4}[players]
    if b < 2:
        raise ParamError("parameter 'ball_games' must be 0 (by player count) or 2..5, not 1")
    return b


def target_position(deck: D.Deck, B: int) -> int:
    """Index (from the top) of the B-th ball game in a deck built by the rules with the
    larger piles first (``piles=larger_first``); with ``piles=random`` it is the heuristic
    bots' estimate, at most a few cards late."""
    ct = deck.ctype
    npros = int((ct == K.K_PROS).sum())
    nb = int((ct == K.K_BALL).sum())
    n = int(len(ct) - npros - nb - (ct == K.K_ECLIPSE).sum())
    npiles = nb + 1
    pos = npros
    for k in range(B):
        pos += n // npiles + (1 if k < n % npiles else 0)
    pos += B - 1
    total = len(ct) - int((ct == K.K_ECLIPSE).sum())
    if (ct == K.K_ECLIPSE).any() and total // 2 <= pos:
        pos += 1
    return pos


def _neutral_mask(value) -> int:
    if value == "none":
        return 0
    m = 0
    for code in value:
        m |= 1 << int(code)
    return m


def prepare(rules: dict, players: int):
    board = D.load_board(D.resolve_file(rules["board"], "board"))
    deck = D.load_deck(D.resolve_file(rules["katun"], "katun"))
    comp = D.load_components(D.resolve_file(rules["components"], "components"))
    B = _ball_target(rules, players)
    nballs = int((deck.ctype == K.K_BALL).sum())
    if B > nballs:
        where = TOML._shown(D.resolve_file(rules["katun"], "katun"))
        raise ParamError(f"the game cannot end at ball game {B}: the Katun deck (katun file {where}) "
                         f"holds only {nballs} ball game cards")
    if comp.start_maize * players > comp.supply[0]:
        where = TOML._shown(D.resolve_file(rules["components"], "components"))
        raise ParamError(f"components file {where}: {players} kings need {comp.start_maize * players} "
                         f"maize to start but the supply holds {comp.supply[0]}")
    R = np.zeros(K.N_R, np.int64)
    R[K.R_NP] = players
    R[K.R_BALLS] = B
    R[K.R_MAXR] = rules["horizon"]
    R[K.R_START] = comp.start_maize
    R[K.R_CHAAK] = comp.chaak_maize
    R[K.R_HIT] = {"drawer": K.HIT_DRAWER, "all": K.HIT_ALL}[rules["catastrophes"]]
    R[K.R_EXPED] = 6 if rules["expedition"] == "any" else 5
    R[K.R_FOREST] = 1 if rules["village_production"] == "forest" else 0
    R[K.R_CTRL] = {"each": K.CTRL_EACH, "sum": K.CTRL_SUM}[rules["control"]]
    R[K.R_ECLJ] = rules["eclipse_jitter"]
    R[K.R_PILES] = {"larger_first": K.PILES_LARGER_FIRST, "random": K.PILES_RANDOM}[rules["piles"]]
    R[K.R_LAYOUT] = {"fixed": K.LAYOUT_FIXED, "random": K.LAYOUT_RANDOM}[rules["layout"]]
    R[K.R_LARGE] = comp.large
    R[K.R_SMALL] = comp.small
    R[K.R_CENF] = comp.cenote_factor
    R[K.R_NFACES] = len(comp.faces)
    R[K.R_POSB] = target_position(deck, B)
    R[K.R_S] = len(board.names)
    R[K.R_NCARDS] = len(deck.ctype)
    R[K.R_MAXTURN] = rules["max_turns"]
    R[K.R_NEUTRAL] = _neutral_mask(rules["neutral_cards"])
    R[K.R_SUP0:K.R_SUP0 + 6] = comp.supply
    R[K.R_TILE0:K.R_TILE0 + 4] = comp.tiles
    R[K.R_CANY:K.R_CANY + 8] = comp.cost_any
    R[K.R_CKIND:K.R_CKIND + 8] = comp.cost_kind
    R[K.R_CN:K.R_CN + 8] = comp.cost_n
    R[K.R_PTS:K.R_PTS + 6] = comp.points
    R[K.R_FACE:K.R_FACE + len(comp.faces)] = comp.faces
    R[K.R_KCNT:K.R_KCNT + K.NK] = np.bincount(deck.ctype, minlength=K.NK)[:K.NK]
    # the last two: the learned value's arrays, empty until features.attach_model
    return (R, board.nbr, board.nnb, board.info, deck.ctype, deck.cgain, deck.cnopt, deck.cid,
            np.zeros(0, np.float64), np.zeros(0, np.int64))


def _record_shape(rules, players):
    """(snapshot width, rows): one snapshot per round (play.snapshot)."""
    S = len(D.load_board(D.resolve_file(rules["board"], "board")).names)
    return P.snapshot_layout(S, players)["width"], int(rules["horizon"]) + 1


GAME = Game(
    name="balam",
    title="Balam",
    version=6,   # 6: heuristic bots value riches by the buildings they complete (jade: the
    #              observatory), reserves by the catastrophes they ward off, know that the
    #              Prosperous Katuns lie on top of the deck and weigh turning now against
    #              letting the next king turn first (5: a random site layout per game
    #              (layout=random); bots break ties on their own stream; chance split by
    #              purpose (deck keyed on card identity, dice per war); payments by value
    #              in hand; 4: heuristic bots value observatories by the divination they
    #              win or deny; 3: Expedition may bring a prisoner; Volcano drawer-only
    #              under catastrophes=all; control counts all enemies' pyramids; 2: plans=2
    #              fix)
    players=(2, 3, 4),
    default_players=2,
    params=PARAMS,
    bots=BOTS,
    default_bots=("merchant",),
    columns=COLUMNS,
    end_reasons=("the last ball game was played", "the Katun deck ran out",
                 "round horizon reached: draw"),
    length="rounds",
    length_unit="rounds",
    seat_names=lambda players: SEATS[:players],
    prepare=prepare,
    run_chunk=run_chunk,
    actions=ACTIONS,
    record_shape=lambda rules, players: _record_shape(rules, players),
    show_module="sim.games.balam.show",
    learn="sim.games.balam.features",
    evaluates=True,
    evaluated_at="once a round, before its cards are dealt",
    rules_doc=RULES_DOC,
    highlight=("prestige", "pp_ceremony", "pp_ballgame", "cities", "wars", "buildings_lost"),
    events=KATUN_COLS,
    score="prestige",
    drama_changes="lead_changes", drama_settled="lead_settled",
    # sim robust: the strongest first: the search bot at a quarter of its default budget
    # (two players: +120 Elo [+90, +149] over the merchant in 600 games of both seatings,
    # about 0.05 s a game; the default budget, 0.2 s a game, would take hours a condition),
    # then the styles (docs/FINDINGS.md, Balam: balance by skill), random last; the site layout (random or
    # fixed) is the setup's randomness
    strength=("search:iters=25",) + _STYLES,
    # two players: the search reading the learned value where a rollout is cut (issue #46;
    # each rule set's own model, trained in about 15 s where none is kept): it beats the
    # default search:iters=100 58.7% [57.0, 60.4] (+61 Elo) over 3,200 paired games at a
    # seventh of its CPU (docs/BENCH.md), about 0.035 s a game.  Its second generation
    # (leaf=model2) is +26 to +37 Elo stronger at the same cost a game, but a new rule set's
    # second generation takes about 3 minutes more to train on 2 cores (172 s for ball_games=5
    # beside other work), which would put a two-variant comparison past its 15 minutes
    strength_players={2: (STRONG_2P,) + _STYLES},
    # ... whose conditions play at most these games (its all-seats condition and its games
    # against each style, every seating: 22 strong games a game of a comparison, about 7
    # minutes on 2 cores for 2,000); the other conditions play on to --games
    strong_games={2: 2000, 3: 1000, 4: 1000},
    # playing strength, weakest first (sim skill --ladder; what run reports say)
    ladder=("random", "merchant", "search"),
    setup_randomness=("layout",),
    report_figures=lambda manifest, out_dir: _impact().report_figures(manifest, out_dir),
    card_names=lambda rules: _impact().card_names(rules),
    card_rules=lambda rules, card, mode, workdir: _impact().card_rules(rules, card, mode, workdir),
    # removing a card type shortens the piles, so every game moves by about a round
    impact_default_mode="neutral",
    bench=(
        {"label": "merchant-2p", "players": 2, "bots": "merchant", "moves": "turns",
         "ref_games": 200},   # (the 10,000 games/s target was withdrawn: bot quality first)
        {"label": "random-2p", "players": 2, "bots": "random", "moves": "turns"},
        {"label": "merchant-4p", "players": 4, "bots": "merchant", "moves": "turns",
         "ref_games": 100},
        # the search bot (one seat, default budget and 10x): slow, so few games, one core;
        # iterations/s = its turns x iters per turn (every turn of its searches: a turn
        # always offers a card and the merchant's move)
        {"label": "search-2p", "players": 2, "bots": "search,merchant", "moves": "turns",
         "games": 12, "probe_games": 4, "min_games": 12, "warm_games": 2, "one_core": True,
         "iters_per": ("turns_taken", 0, SEARCH_ITERS)},
        {"label": "search-10x-2p", "players": 2, "bots": f"search:iters={10 * SEARCH_ITERS},merchant",
         "moves": "turns", "games": 3, "probe_games": 1, "min_games": 3, "warm_games": 1,
         "one_core": True, "iters_per": ("turns_taken", 0, 10 * SEARCH_ITERS)},
        {"label": "search-4p", "players": 4, "bots": "search,merchant,merchant,merchant",
         "moves": "turns", "games": 8, "probe_games": 2, "min_games": 8, "warm_games": 2,
         "one_core": True, "iters_per": ("turns_taken", 0, SEARCH_ITERS)},
    ),
    # which strong play sim robust uses (strength[0]), and why
    strong_play={2: f"{STRONG_2P}: the search reading the learned value of these rules (trained first "
                    "where none is kept) beats the default search:iters=100 by +61 Elo [+49, +74] at a "
                    "seventh of its CPU (docs/BENCH.md); leaf=model2, its second generation, is about "
                    "+30 Elo stronger still at the same cost a game but 3 minutes more to train per rule "
                    "set.  `sim strength balam` with either (iters=40 -> 80, 12,000 games a rung) settled "
                    "on one seed of two each, the other seed's doubling moving a colour's share 1.3 "
                    "points or trimming the first king's edge 1.5 (docs/FINDINGS.md): the first king's "
                    "8-9 points hold, stronger play may still move the smaller figures",
                 **{p: _STRONG_34 for p in (3, 4)}},
)
