"""Batam: the declaration the runner, CLI and reports read.

The kernel is split by role: ``state`` (the state, a record of named arrays; rule slots,
tallies, constants), ``tables`` (the map's distance tables), ``money`` (the bank and the
coins), ``setup`` (chance streams, first player, compass tiles or deck), ``crew`` (Phase 2
and Phase 4), ``sailing`` (Phase 3), ``ending``, ``bots/`` (``random``, ``heuristic``,
``search``), ``phases`` (the four phases for one seat), ``loop`` (the game loop, resumable
at a search seat's decision), ``play`` (a game, ``run_games`` and ``run_chunk``),
``features`` and ``sampling`` (the learned value)."""
from __future__ import annotations

import numpy as np

from ... import toml as TOML
from ...seeds import seeds_dir
from ...game import Bot, Column, Game
from ...params import Param, ParamError, _suggest
from ...playcols import COMPLEXITY, EVALUATION
from ...record import Action
from . import data as DATA
from . import state as S
from .play import run_chunk
from .state import SEAT_DTYPES, SEAT_FIELDS

SEATS = ["Red", "Blue", "Green", "Yellow"]
RULES_DOC = str(seeds_dir("batam") / "RULES.md")  # the checkout's seeds/ or the wheel's sim/_seeds/
#: two players' strongest affordable play (sim robust's strong condition; docs/BENCH.md)
STRONG_2P = "search:iters=300;leaf=model;keep=0"
#: sim robust's other bots, after the strong one: the heuristic, the styles, random last
_STYLES = ("heuristic", "hunter", "plodder", "spiteful", "miser", "gambler", "modest", "random")

class LabelsParam(Param):
    """A parameter holding 'none' or a comma-separated list of compass tile or card labels
    (as `sim impact` names them: 'pirate_0', 'tradewind_2'); which labels exist depends on
    the tiles or cards file, so ``prepare`` checks them."""

    def allowed(self) -> str:
        return "none | comma-separated tile or card names (sim impact batam lists them)"

    def parse(self, raw):
        items = raw.split(",") if isinstance(raw, str) else list(raw)
        labels = sorted({str(x).strip().lower() for x in items if str(x).strip()})
        if not labels:
            raise ParamError(f"parameter '{self.name}' takes {self.allowed()}, not {raw!r}")
        if "none" in labels:
            if len(labels) > 1:
                raise ParamError(f"parameter '{self.name}': 'none' cannot be listed with names")
            return "none"
        return ",".join(labels)


PARAMS = (
    Param("compass", "tiles", "compass effects: 'tiles' (7 of the 8 tiles on the board), 'cards' "
          "(draw a card on every compass space) or 'none'", "choice",
          choices=("tiles", "cards", "none"), source="Game Setup; Compass Tiles; Compass Cards",
          role="variant"),
    Param("board", "standard", "map file (grid of sea, compass, land and harbour spaces)", "file",
          choices=("standard",), source="Components (map not printed: seeds/batam/board.toml)",
          role="data"),
    Param("dice", "standard", "crew dice faces file", "file", choices=("standard",),
          source="Components; Phase 2: Place Crew (faces not printed: assumption)", role="data"),
    Param("tiles", "standard", "compass tiles file", "file", choices=("standard",),
          source="Compass Tiles (map values not printed: assumption)", role="data"),
    Param("cards", "standard", "compass cards file", "file", choices=("standard",),
          source="Compass Cards (counts and map values not printed: assumption)", role="data"),
    Param("components", "standard", "money and goods file (start coins, bank, cubes)", "file",
          choices=("standard",), source="Components; Game Setup", role="data"),
    Param("sale", 25, "coins from the bank for a goods cube sold", "int", 0, 1000,
          source="Phase 3: Harbor Spaces"),
    Param("payout", 5, "coins the seller pays each earlier cube owner on that island", "int", 0, 1000,
          source="Phase 3: Harbor Spaces"),
    Param("return_bonus", 10, "coins for returning to Batam in the final round", "int", 0, 1000,
          source="Ending the Game"),
    Param("reroll_cost", 2, "coins for the first re-roll of a turn", "int", 0, 100,
          source="Phase 2: Place Crew"),
    Param("reroll_step", 1, "coins for each further re-roll ('total' pricing), or how much more "
          "each further re-roll costs than the one before ('rising')", "int", 0, 100,
          source="Phase 2: Place Crew"),
    Param("reroll_pricing", "total", "'total': the rulebook's example, 2 coins for one re-roll, 3 "
          "in total for two, 4 for three (each further re-roll costs reroll_step); 'rising': each "
          "re-roll costs reroll_step more than the one before (2, then 3, then 4: totals 2, 5, 9)",
          "choice", choices=("total", "rising"), source="Phase 2: Place Crew (reading)",
          role="reading"),
    Param("pirate_fee", 3, "coins per die on your board for entering a space next to the pirate tile",
          "int", 0, 100, source="Compass Tiles: Pirate Ship"),
    Param("opp_limit", 0, "most dice one player may put on each opponent's board; 0 = rulebook "
          "(3 with two players, 2 with three, 1 with four)", "int", 0, 3, source="Phase 2: Place Crew"),
    Param("occupied_cost", 1, "extra movement to enter a space holding another ship", "int", 0, 10,
          source="Phase 3: Sail Ships"),
    Param("occupied_harbour", True, "the extra movement also applies to harbours holding another ship",
          "bool", source="Phase 3: Sail Ships (reading)", role="reading"),
    Param("bonus_window", "round", "who gets the return bonus: 'round' every ship that returns to "
          "Batam during the final round; 'after' only the trigger and later returns", "choice",
          choices=("round", "after"), source="Ending the Game (reading)", role="reading"),
    Param("tradewind_limit", "any", "tradewind tiles, 'once per round': 'any' one tradewind "
          "bonus per ship and round, whichever tile; 'each' every tile once per round", "choice",
          choices=("any", "each"), source="Compass Tiles: Tradewind (reading)", role="reading"),
    Param("pirate_charge", "each", "pirate tile fee: 'each' time you enter a neighbouring space, or "
          "'once' per round", "choice", choices=("each", "once"),
          source="Compass Tiles: Pirate Ship (reading)", role="reading"),
    Param("bank_empty", "short", "when the bank cannot pay: 'short' it pays what it has, "
          "'unlimited' it pays anyway (goes negative)", "choice", choices=("short", "unlimited"),
          source="Components (silent: assumption)", role="reading"),
    Param("horizon", 40, "rounds after which an unfinished game is stopped", "int", 1, 10_000,
          source="The Game Round (horizon, not a rule)", role="horizon"),
    Param("horizon_result", "rank", "a stopped game: 'rank' by coins then goods, or 'draw'",
          "choice", choices=("rank", "draw"),
          source="Ending the Game (horizon: the rulebook is silent, an assumption)", role="reading"),
    LabelsParam("neutral", "none", "card impact: compass tiles or cards (by name, of the mode in "
                "play) that stay in the game and trigger as usual but have no effect: no extra "
                "movement, no coins, a map that pays nothing, no pirate fee, ransom or stop "
                "(docs/FINDINGS.md, Batam: Card impact); the bots do not know", "labels",
                source="Compass Tiles; Compass Cards (analysis switch, not a rule)", role="analysis"),
)


_HEURISTIC_NAMES = ("captain", "sailor", "urgency", "share", "spite", "bump", "reroll_low",
                    "reroll_max", "reserve", "pirate_pay", "avoid", "dist_w", "treasure_w", "outbid",
                    "adapt", "give_up")
_INT_PARAMS = ("reroll_low", "reroll_max", "reserve", "pirate_pay", "avoid", "adapt")


def _style(name, bid, help, **over):
    # the heuristic's defaults, slot by slot (state.HEURISTIC_DEFAULTS: the search bot's rollouts)
    base = {k: (int(v) if k in _INT_PARAMS else v)
            for k, v in zip(_HEURISTIC_NAMES, S.HEURISTIC_DEFAULTS)}
    base.update(over)
    ps = (
        Param("captain", base["captain"], "wage policy: base captain wage", "float", 0, 100),
        Param("sailor", base["sailor"], "wage policy: base sailor wage", "float", 0, 100),
        Param("urgency", base["urgency"], "wage policy: extra captain wage per good behind the "
              "leader (half that for the sailor, at most 2 goods)", "float", 0, 50),
        Param("share", base["share"], "wage policy: most of your coins one wage may take", "float", 0, 1),
        Param("spite", base["spite"], "placement policy: cost per pip of movement given to an "
              "opponent (grows with how far that opponent leads you)", "float", 0, 20),
        Param("bump", base["bump"], "placement policy: worth of each wage coin knocked off an "
              "opponent's die by pushing it right", "float", 0, 20),
        Param("reroll_low", base["reroll_low"], "re-roll policy: re-roll dice showing this or less "
              "(0 = seasick only)", "int", 0, 20),
        Param("reroll_max", base["reroll_max"], "re-roll policy: most re-rolls a turn", "int", 0, 20),
        Param("reserve", base["reserve"], "re-roll policy: coins to keep after paying", "int", 0, 1000),
        Param("pirate_pay", base["pirate_pay"], "most coins paid to a pirate card rather than stop",
              "int", 0, 1000),
        Param("avoid", base["avoid"], "route planner: 1 steer clear of the pirate tile's neighbours",
              "int", 0, 1),
        Param("dist_w", base["dist_w"], "route planner: coins a space of distance is worth when no "
              "target is reachable this round", "float", 0, 100),
        Param("treasure_w", base["treasure_w"], "route planner: weight of tiles-mode treasure",
              "float", 0, 10),
        Param("outbid", base["outbid"], "wage policy: offer the captain at least this much more "
              "than the best captain wage already offered this round (0 = ignore others)",
              "float", 0, 50),
        Param("adapt", base["adapt"], "wage policy: 1 = offer the captain at most one step (outbid, "
              "at least 1) above the best captain wage the others offered last round", "int", 0, 1),
        Param("give_up", base["give_up"], "wage policy (with adapt): when beating last round's best "
              "captain wage would cost more than this above its own captain wage, offer 1 instead "
              "(0 = never give up)", "float", 0, 100),
    )
    return Bot(name, bid, help, params=ps)


BOTS = (
    Bot("random", S.BOT_RANDOM, "every decision uniform over its legal options (forced choices draw "
        "nothing); see RULES.md, Bots"),
    _style("heuristic", 1, "the strong default: bids for the high dice (captain 4, at most one above "
           "last round's best captain wage, 1 when beating it would cost 2 more than that, and one "
           "more than the best offered before it this round; sailor 1), seasick re-roll, "
           "wage-first placement with a little spite, shortest-path route planner avoiding pirates"),
    _style("miser", 2, "minimum wages, never re-rolls, places purely for wages",
           captain=1.0, sailor=1.0, urgency=0.0, outbid=0.0, adapt=0, reroll_max=0, spite=0.0),
    _style("spiteful", 3, "starves the leaders: places high dice away from whoever leads and bumps "
           "their dice", spite=1.0, bump=1.5),
    _style("gambler", 4, "lavish wages, re-rolls anything below 3 up to three times",
           captain=8.0, sailor=2.0, urgency=2.0, share=0.6, outbid=2.0, adapt=0, reroll_low=2,
           reroll_max=3, reserve=4, pirate_pay=8),
    _style("plodder", 5, "ignores treasure and pirates when routing", avoid=0, treasure_w=0.0),
    _style("modest", 6, "fixed modest wages (captain 3, sailor 2) whatever the others offer",
           captain=3.0, sailor=2.0, share=0.3, outbid=0.0, adapt=0),
    _style("hunter", 7, "the heuristic that also sails for tiles-mode treasure (sunken treasure, "
           "treasure maps)", treasure_w=1.0),
    Bot("search", S.BOT_SEARCH, "determinized Monte Carlo search (UCB1) at its wage offers, re-roll "
        "decisions, die placements and voyage targets: each iteration re-samples what the seat "
        "cannot know (future dice, the compass deck's order) from its own stream and plays the game "
        "out with the heuristic in every seat; plays the candidate with the best win share (the "
        "heuristic's own choice unless beaten by `keep` standard errors), and plays as the "
        "heuristic elsewhere (steering under way, pirate ransoms).  Default budget: 2 players "
        "0.86 of games against the heuristic, 4 players 0.59 as one seat among three heuristic "
        "bots; about 0.1 s a 4-player game on one core; see RULES.md, Bots",
        params=(Param("iters", 200, "iterations (rollouts to the end of the game) per searched "
                      "decision; a decision with one candidate is not searched", "int", 1, 100_000),
                Param("topk", 6, "voyage candidates: the planner's target, staying put and the "
                      "nearest topk harbours still worth a visit", "int", 0, 16),
                Param("explore", 1.0, "UCB1 exploration constant (rewards are win shares 0..1)",
                      "float", 0, 10),
                Param("keep", 1.0, "the heuristic's own choice is played unless another candidate's "
                      "mean win share beats it by this many standard errors", "float", 0, 10),
                Param("stop", 0.0, "stop a decision's search early, once one candidate's mean win "
                      "share beats every other's by this many standard errors (0: always spend "
                      "the whole budget)", "float", 0, 10),
                Param("horizon", 0, "rounds a rollout plays after the current one before it is "
                      "valued by the coin margin (0: every rollout plays to the end of the game)",
                      "int", 0, 100),
                Param("scale", 5.0, "where a rollout is cut short: the coin margin over the best "
                      "other seat that gives odds e : 1", "float", 0.1, 1000),
                Param("paired", 0, "0: UCB1; 1: sequential halving on common sampled worlds (every "
                      "candidate played from the same worlds, the worse half dropped each phase)",
                      "int", 0, 1),
                Param("leaf", "formula", "how a rollout cut short is valued: 'formula' the logistic "
                      "of the coin margin (scale); 'model' the win probability the game's learned "
                      "value gives the seat's view there (sim learn; trained first where none is "
                      "kept), and the cut then comes `horizon` rounds after the current one, at the "
                      "end of the current round with horizon=0; use it with keep=0 (the model's values "
                      "lie closer together than win shares: with keep=1 the heuristic's choice almost "
                      "always stands).  Two players: iters=300;leaf=model;keep=0 with a logistic model "
                      "plays as iters=1600 (+23 Elo [+4, +43]) at a seventh of its cost (docs/BENCH.md)", "choice",
                      choices=("formula", "model")))),
)

SEAT_HELP = dict(
    coins="coins at the end (the score)",
    goods_sold="goods cubes sold (the tie-break)",
    crew_pos="position in the crew row in round 1 (0 = leftmost, moves first)",
    wages_paid="wages this seat's offers paid to opponents' dice",
    wages_earned="wages this seat's dice earned on opponents' boards",
    rerolls="paid dice re-rolls",
    reroll_coins="coins paid for re-rolls",
    distance="spaces sailed",
    return_bonus="coins of return bonus",
    compass_tradewind="tradewind effects received (tile or card)",
    compass_sunken="sunken treasure effects received",
    compass_map="treasure maps collected",
    compass_pirate="pirate effects received (tile fees charged, cards drawn)",
    treasure_coins="coins from sunken treasure and cashed treasure maps",
    pirate_coins="coins paid to pirates",
    payouts_received="coins received from later sellers on islands where this seat sold first",
)
COLUMNS = (
    Column("rounds", "int16", "rounds played"),
    Column("ender", "int8", "seat whose return ended the game, -1 when stopped by the horizon"),
    Column("bank", "int32", "coins left in the bank"),
    Column("bank_short", "int32", "coins the bank could not pay (short) or paid beyond its stock"),
    Column("lead_changes", "int16", "times the leader (coins, then goods) at the end of a round changed"),
    Column("lead_settled", "int8", "percent of the rounds played before the winner led for good "
           "(0: led from the first round on); -1 without a single winner"),
) + tuple(Column(f, SEAT_DTYPES[f], SEAT_HELP[f], per_seat=True) for f in SEAT_FIELDS) + COMPLEXITY + EVALUATION

_CODES = {
    "compass": {"none": S.MODE_NONE, "tiles": S.MODE_TILES, "cards": S.MODE_CARDS},
    "bonus_window": {"round": S.WINDOW_ROUND, "after": S.WINDOW_AFTER},
    "reroll_pricing": {"total": S.RR_TOTAL, "rising": S.RR_RISING},
    "pirate_charge": {"each": S.CHARGE_EACH, "once": S.CHARGE_ONCE},
    "tradewind_limit": {"any": S.TW_ANY, "each": S.TW_EACH},
    "bank_empty": {"short": S.BANK_SHORT, "unlimited": S.BANK_UNLIMITED},
    "horizon_result": {"rank": S.HRES_RANK, "draw": S.HRES_DRAW},
}
OPP_LIMIT = {2: 3, 3: 2, 4: 1}


def neutral_mask(value: str, mode: str, labels) -> int:
    """R_NEU: the bit of every tile or card (index in the deck of ``mode``) whose label is
    listed in ``value``; as a signed 64-bit integer."""
    if value == "none":
        return 0
    if mode == "none":
        raise ParamError("neutral tiles or cards need compass=tiles or compass=cards")
    known = sorted(set(labels))
    m = 0
    for lab in value.split(","):
        if lab not in known:
            raise ParamError(f"parameter 'neutral': no {mode[:-1]} named '{lab}' in the {mode} file"
                             f"{_suggest(lab, known)}; known: {', '.join(known)}")
        for k, x in enumerate(labels):
            if x == lab:
                m |= 1 << k
    return m - (1 << 64) if m >= 1 << 63 else m


def prepare(rules: dict, players: int):
    """Load and check the data files; return the kernel's read-only ``Rules``."""
    d = DATA.load_all(rules)
    b = d["board"]
    if d["bank_total"] < players * d["start_coins"]:
        where = TOML._shown(DATA.resolve_path("components", rules["components"]))
        raise ParamError(f"components file {where}: the bank holds {d['bank_total']} coins, too few to "
                         f"give {players} players {d['start_coins']} each")
    if rules["compass"] == "tiles" and len(d["tk"]) < DATA.N_COMPASS:
        raise ParamError("tiles mode needs at least one tile per compass space")
    R = np.zeros(S.N_RULES, np.int64)
    R[S.R_P] = players
    R[S.R_MODE] = _CODES["compass"][rules["compass"]]
    R[S.R_SALE] = rules["sale"]
    R[S.R_PAYOUT] = rules["payout"]
    R[S.R_BONUS] = rules["return_bonus"]
    R[S.R_RR_FIRST] = rules["reroll_cost"]
    R[S.R_RR_STEP] = rules["reroll_step"]
    R[S.R_PFEE] = rules["pirate_fee"]
    R[S.R_OPPLIM] = rules["opp_limit"] or OPP_LIMIT[players]
    R[S.R_WINDOW] = _CODES["bonus_window"][rules["bonus_window"]]
    R[S.R_RR_PRICING] = _CODES["reroll_pricing"][rules["reroll_pricing"]]
    R[S.R_CHARGE] = _CODES["pirate_charge"][rules["pirate_charge"]]
    R[S.R_TWLIMIT] = _CODES["tradewind_limit"][rules["tradewind_limit"]]
    R[S.R_BANKMODE] = _CODES["bank_empty"][rules["bank_empty"]]
    R[S.R_HORIZON] = rules["horizon"]
    R[S.R_HRES] = _CODES["horizon_result"][rules["horizon_result"]]
    R[S.R_OCC] = rules["occupied_cost"]
    R[S.R_OCCH] = int(bool(rules["occupied_harbour"]))
    R[S.R_START] = d["start_coins"]
    R[S.R_BANK0] = d["bank_total"]
    R[S.R_GOODS] = d["goods"]
    R[S.R_NF] = len(d["faces"])
    R[S.R_NT] = len(d["tk"])
    R[S.R_NK] = len(d["ck"])
    R[S.R_STARTNODE] = d["start"]
    R[S.R_N] = len(b.kind)
    R[S.R_NI] = len(b.island_names)
    R[S.R_NC] = len(d["comp_nodes"])
    mode = rules["compass"]
    R[S.R_NEU] = neutral_mask(rules["neutral"], mode,
                              d["tlab"] if mode == "tiles" else d["clab"] if mode == "cards" else ())
    return S.Rules(
        R=R, faces=d["faces"],
        board=S.Board(kind=b.kind, island=b.island, comp=d["comp"], comp_nodes=d["comp_nodes"],
                      nbr=b.nbr, deg=b.deg, padj=d["padj"], harb_nodes=d["harb_nodes"],
                      special=d["special"]),
        routes=S.Routes(DS=d["DS"], WS=d["WS"], LS=d["LS"], DSS=d["DSS"], LSS=d["LSS"]),
        compass=S.Compass(tk=d["tk"], tv=d["tv"], ti=d["ti"], tid=d["tid"], ck=d["ck"], cv=d["cv"],
                          ci=d["ci"], cid=d["cid"]),
        # no learned value: the search's leaf=model gets one from features.attach_model
        mp=np.zeros(0, np.float64), ms=np.zeros(0, np.int64))




ACTIONS = (
    Action(S.E_FIRST, "first_roll", ("seat", "die1", "die2"), chance=True,
           text="first player: {seat} rolls {die1} + {die2}"),
    Action(S.E_TILE, "tile", ("compass", "tile", "kind", "value"), chance=True,
           text="compass space {compass} gets tile {tile}"),
    Action(S.E_SHUFFLE, "shuffle", ("deck", "cards"), chance=True,
           text="the compass deck (number {deck}) is shuffled: {cards} cards"),
    Action(S.E_ROUND, "round", ("round", "lead"), text="round {round}"),
    Action(S.E_WAGES, "wages", ("captain", "sailor", "coins"),
           text="{actor} offers {captain} for the captain, {sailor} for the sailor"),
    Action(S.E_ROLL, "roll", ("seat", "die", "value", "reroll"), chance=True,
           text="die {die} shows {value}"),
    Action(S.E_REROLL, "reroll", ("mask", "cost"), text="{actor} re-rolls dice {mask} for {cost}"),
    Action(S.E_PLACE, "place", ("die", "value", "board", "slot"),
           text="{actor} places a {value} on board {board}, slot {slot}"),
    Action(S.E_STEP, "step", ("from", "to", "left"), text="{actor} sails to space {to}"),
    Action(S.E_STOP, "stop", ("at", "left"), text="{actor} stops at space {at}"),
    Action(S.E_CARD, "card", ("card", "kind", "value", "seat"), chance=True,
           text="compass card {card} is drawn"),
    Action(S.E_RANSOM, "ransom", ("card", "cost", "pay"), text="{actor} pays the pirate: {pay}"),
    Action(S.E_SELL, "sell", ("island", "coins", "payouts"), text="{actor} sells on island {island}"),
    Action(S.E_EFFECT, "effect", ("what", "amount", "card", "item", "neutral", "where"),
           text="{actor}: compass effect {what} ({amount})"),
    Action(S.E_PAID, "paid", ("board", "slot", "wage"), text="{actor} earns {wage}"),
    Action(S.E_BONUS, "bonus", ("coins",), text="{actor} gets the return bonus, {coins}"),
    Action(S.E_END, "end", ("reason", "winner", "rounds", "ender"), text="the game ends"),
)


def record_shape(rules: dict, players: int) -> tuple:
    """Snapshots: ships, coins, goods, tiles and bank after every voyage (``state.SNAP_*``; at
    most 4,000 of them)."""
    return S.N_SNAP, min(int(rules["horizon"]) * players, 4000)


def _figures():
    from . import figures
    return figures


# which strong play sim robust uses (strength[0]), and why
STRONG_PLAY = {
    2: f"{STRONG_2P}: the search reading the learned value of these rules (trained first where none is "
       "kept) beats search:iters=1600, the strongest rung climbed, by +23 Elo [+4, +43] at a seventh of its "
       "CPU (docs/BENCH.md); `sim strength batam` has not settled Batam (climbed with it to iters=600, the "
       "second player gains 3.6-4.5 points, against 9-13 between the formula's search bots; "
       "docs/FINDINGS.md): stronger play may still move these figures",
    3: "search:iters=25, an eighth of its default budget, for cost (about 0.015 s a game): `sim strength batam "
       "-p 3` at 16,000 games a rung settled on one seed of two from iters=25 and again from iters=50, the other "
       "seed's doubling trimming the first player's edge by 1.4 to 2.1 points: it drifts down about a point a "
       "doubling, to +4 to +4.4 at iters=100 (docs/FINDINGS.md); each doubling is still worth about +60 Elo: "
       "stronger play will likely trim these figures",
    4: "search:iters=25, an eighth of its default budget, for cost (about 0.03 s a game): `sim strength batam "
       "-p 4` at 16,000 games a rung settled at iters=25 on both seeds (iters=50 moved no headline beyond 2 points; "
       "docs/FINDINGS.md); each doubling is still worth +47 Elo: much stronger play may still move these figures"}


GAME = Game(
    name="batam",
    title="Batam",
    version=9,   # 9: chance split by purpose, neutral tiles/cards, bots' ties broken at random
                 # (8: re-roll prices as the rulebook example, totals 2, 3, 4)
    players=(2, 3, 4),
    default_players=4,
    params=PARAMS,
    bots=BOTS,
    default_bots=("heuristic",),
    columns=COLUMNS,
    end_reasons=("a ship returned to Batam with all goods sold", "round horizon reached"),
    length="rounds",
    length_unit="rounds",
    seat_names=lambda players: SEATS[:players],
    prepare=prepare,
    run_chunk=run_chunk,
    rules_doc=RULES_DOC,
    highlight=("coins", "goods_sold", "wages_earned", "wages_paid", "distance", "return_bonus"),
    events=("compass_tradewind", "compass_sunken", "compass_map", "compass_pirate"),
    score="coins",
    drama_changes="lead_changes", drama_settled="lead_settled",
    report_figures=lambda manifest, out_dir: _figures().report_figures(manifest, out_dir),
    card_names=lambda rules: _figures().card_names(rules),
    card_rules=lambda rules, card, mode, workdir: _figures().card_rules(rules, card, mode, workdir),
    # removing a tile or card does not change a game's length mechanically (measured: at
    # most 0.0012 rounds on 20,000 games per tile; RULES.md, Card impact)
    impact_default_mode="remove",
    actions=ACTIONS,
    record_shape=record_shape,
    show_module="sim.games.batam.show",
    learn="sim.games.batam.features",
    # how it plays (issue #47): every seat's choices counted (howplays.py says what a choice
    # is); with --evaluate each seat's learned chance of winning at every round start
    evaluates=True,
    evaluated_at="at every round's start",
    # sim robust: the strongest first: the search bot at an eighth of its default budget
    # (two players: +90 Elo [+75, +106] over the heuristic in 2,000 games of both seatings;
    # four players: one such seat among three heuristic bots wins 39.1% of 2,000 games, fair
    # 25%; about 0.01 s a game), then the styles (RULES.md, Bots: one style against three
    # heuristic bots), random last
    strength=("search:iters=25",) + _STYLES,
    # two players: the search reading the learned value at the round's end (issue #46; each
    # rule set's own logistic model, trained in under a minute where none is kept): +23 Elo
    # [+4, +43] over search:iters=1600 at a seventh of its CPU (docs/BENCH.md), about 0.05 s a
    # game; its conditions play at most 1,000 games (17 strong games a game index: about 4
    # minutes on 2 cores), the others play on to --games
    strength_players={2: (STRONG_2P,) + _STYLES},
    strong_games={2: 1000},
    # playing strength, weakest first (sim skill --ladder; what run reports say): the search
    # bot beats the heuristic in 86% of two-player games (RULES.md, Bots)
    ladder=("random", "heuristic", "search"),
    strong_play=STRONG_PLAY,
    bench=(
        {"label": "heuristic-4p", "players": 4, "bots": "heuristic", "moves": "rounds",
         "target": {"games_per_s": 20_000}},
        {"label": "heuristic-4p-cards", "players": 4, "bots": "heuristic", "moves": "rounds",
         "rules": {"compass": "cards"}},
        {"label": "random-4p", "players": 4, "bots": "random", "moves": "rounds", "games": 20_000},
        # the search bot at its default budget (iterations: rollouts; one core only)
        {"label": "search-vs-heuristic-2p", "players": 2, "bots": "search,heuristic",
         "moves": "rounds", "games": 100, "min_games": 40, "parallel": False,
         "iterations": "sim.games.batam.play:SEARCH_STATS", "target": {"games_per_s": 1.0}},
        {"label": "search-4p", "players": 4, "bots": "search,heuristic,heuristic,heuristic",
         "moves": "rounds", "games": 60, "min_games": 20, "parallel": False,
         "iterations": "sim.games.batam.play:SEARCH_STATS", "target": {"games_per_s": 2.0}},
    ),
)
