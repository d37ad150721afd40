"""A plain-Python Batam engine that replays recorded games, written from the rulebook
(``/work/shared/seeds/batam.txt``) and ``seeds/batam/RULES.md`` (the readings and
assumptions).

It checks the jitted kernel (``sim/games/batam/``) without a copy of its bots: given a
record (``sim.record``: every decision the bots made and every outcome of chance),
``replay`` plays the game again under the rules, checking that each decision is legal
(``IllegalAction`` otherwise: wages the seat cannot pay, a die on a full board, a step
into the pirate's space or one that leaves no place to stop, stopping on another ship,
...), and re-draws every outcome of chance from the same streams (:mod:`sim.rng`, as
RULES.md, Chance lays them out: the first-player dice; each crew die of each seat in each
round; the tiles and cards ordered by the keys of their identities; each reshuffle its own
keys), checking that it equals the record (``ReplayMismatch`` otherwise).  It returns
every result column; ``tests/test_replay.py`` compares them with the kernel's.

For the card-impact tests it also keeps what the columns do not say: ``set_aside`` (the
tile indices left in the box) and ``triggered`` (every tile or card index that came into
play: a tradewind that gave, or would have given, its bonus; treasure taken; a map taken;
a pirate fee charged; a card drawn).

Nothing is shared with the kernel but the data-file loader (the map, dice, tiles, cards
and money as the files say) and the record's event names (``GAME.actions``); shortest
paths and every rule are recomputed here, in plain Python: lists, dicts and sets.
"""
from __future__ import annotations

import heapq
from pathlib import Path

from sim.games.batam import GAME
from sim.games.batam import data as DATA
from sim.results import seat_column
from tests.reference.howplays_ref import how_it_plays
from sim.rng import DECK, DICE, GAME_PURPOSES, SETUP, Stream, py_game_base, py_item_key, \
    py_substream_start

SEA, COMPASS, HARBOUR = DATA.SEA, DATA.COMPASS, DATA.HARBOUR
TRADEWIND, SUNKEN, MAP, PIRATE = DATA.TRADEWIND, DATA.SUNKEN, DATA.MAP, DATA.PIRATE
UNREACHABLE = 30000          # "no place to stop" (cost_to_an_end)
OPP_LIMIT = {2: 3, 3: 2, 4: 1}
END_RETURN, END_HORIZON = 0, 1
P_TILES = GAME_PURPOSES      # tile placement keys
SEATS_KEYED = 4              # dice substream index = (round * 4 + seat) * 3 + die

SEAT_FIELDS = ("coins", "goods_sold", "crew_pos", "wages_paid", "wages_earned", "rerolls",
               "reroll_coins", "distance", "return_bonus", "compass_tradewind", "compass_sunken",
               "compass_map", "compass_pirate", "treasure_coins", "pirate_coins", "payouts_received")
TALLIES = SEAT_FIELDS[3:]

RULEBOOK = {"compass": "tiles", "board": "standard", "dice": "standard", "tiles": "standard",
            "cards": "standard", "components": "standard", "sale": 25, "payout": 5,
            "return_bonus": 10, "reroll_cost": 2, "reroll_step": 1, "reroll_pricing": "total",
            "tradewind_limit": "any", "pirate_fee": 3, "opp_limit": 0,
            "occupied_cost": 1, "occupied_harbour": True, "bonus_window": "round",
            "pirate_charge": "each", "bank_empty": "short", "horizon": 40, "horizon_result": "rank",
            "neutral": "none"}

# the record's events, by name (sim/games/batam/__init__.py, ACTIONS)
CODE = {a.name: a.code for a in GAME.actions}
NAME = {a.code: a.name for a in GAME.actions}
#: events that say what the rules did (for ``sim show``); the replay recomputes those
INFO = {"round", "sell", "effect", "paid", "bonus", "end"}

CROWDED = Path(__file__).with_name("batam_crowded.toml")      # a small, crowded strait
CROWDED_CARDS = Path(__file__).with_name("batam_crowded_cards.toml")

#: the games the shared replay test (tests/test_replay.py) records and replays: every bot,
#: 2, 3 and 4 players, the three compass modes, every reading, small horizons (capped
#: games, both horizon results), changed money, neutral tiles and cards, a crowded board
REPLAY_CASES = [
    dict(players=4, bots="random", rules=dict(horizon=12), games=36, seed=21),
    dict(players=4, bots="heuristic", rules={}, games=30, seed=21),
    dict(players=4, bots="random,heuristic,gambler,spiteful", games=24, seed=21,
         rules=dict(compass="cards", bonus_window="after")),
    dict(players=4, bots="miser,plodder,modest,hunter", games=24, seed=21,
         rules=dict(pirate_charge="once", horizon=10)),
    dict(players=3, bots="heuristic:give_up=0,heuristic:captain=7;give_up=1,miser", rules={},
         games=18, seed=21),
    dict(players=3, bots="heuristic", rules=dict(compass="none", occupied_cost=2), games=18, seed=21),
    dict(players=3, bots="random", games=24, seed=21,
         rules=dict(horizon=6, horizon_result="draw", opp_limit=1)),
    dict(players=3, bots="gambler,spiteful,plodder", games=18, seed=21,
         rules=dict(occupied_harbour=False, reroll_cost=1, reroll_step=2)),
    dict(players=4, bots="gambler,random,gambler,random", rules=dict(reroll_pricing="rising"),
         games=18, seed=21),
    dict(players=4, bots="random", rules=dict(tradewind_limit="each"), games=24, seed=21),
    dict(players=2, bots="heuristic", rules=dict(compass="cards", pirate_fee=5), games=18, seed=21),
    dict(players=2, bots="random,heuristic", rules=dict(horizon=15), games=18, seed=21),
    dict(players=4, bots="gambler", games=18, seed=21,
         rules=dict(sale=150, bank_empty="unlimited", return_bonus=40, compass="cards")),
    dict(players=4, bots="heuristic", rules=dict(sale=150, payout=20), games=18, seed=21),
    dict(players=4, bots="hunter,plodder,random,heuristic", games=24, seed=21,
         rules=dict(neutral="pirate_0,tradewind_4,sunken_treasure_10,treasure_map_sugi_6",
                    horizon=15)),
    dict(players=3, bots="random,plodder,heuristic", games=18, seed=21,
         rules=dict(compass="cards",
                    neutral="pirate_1,tradewind_2,treasure_map_citlim_5,sunken_treasure_3")),
    dict(players=4, bots="heuristic,random,plodder,gambler", games=18, seed=4,
         rules=dict(board=str(CROWDED), cards=str(CROWDED_CARDS), compass="cards")),
    dict(players=4, bots="spiteful,miser,random,hunter", games=18, seed=4,
         rules=dict(board=str(CROWDED), compass="tiles", pirate_charge="once", occupied_cost=3)),
    # the search bot (small budgets): its wages, re-rolls, placements and routes are replayed
    dict(players=2, bots="search:iters=8,heuristic", games=6, seed=21, rules=dict(compass="cards")),
    dict(players=4, bots="heuristic,search:iters=8,random,search:iters=4;topk=2", games=6, seed=21,
         rules={}),
    dict(players=3, bots="search:iters=6,gambler,heuristic", games=6, seed=21,
         rules=dict(compass="cards", reroll_pricing="rising")),
]


class IllegalAction(AssertionError):
    """A recorded decision the rules do not allow."""


class ReplayMismatch(AssertionError):
    """The record disagrees with the rules or with the streams (an outcome of chance)."""


# ------------------------------------------------------------------ the map
class Map:
    """Spaces, their kinds, islands and neighbours."""

    def __init__(self, board):
        self.kind = [int(k) for k in board.kind]
        self.island = [int(i) for i in board.island]
        self.n = len(self.kind)
        self.neighbours = [[int(board.nbr[v, j]) for j in range(board.deg[v])] for v in range(self.n)]
        self.compass = [v for v in range(self.n) if self.kind[v] == COMPASS]
        self.harbours = [v for v in range(self.n) if self.kind[v] == HARBOUR]
        self.start = self.island.index(0)

    def next_to(self, v, w):
        return w in self.neighbours[v]


_MAPS = {}


def load(rules):
    d = DATA.load_all(rules)
    key = id(d["board"])
    if key not in _MAPS:
        _MAPS[key] = Map(d["board"])
    return d, _MAPS[key]


# ------------------------------------------------------------------ the record
class Tape:
    """The record's decisions and outcomes of chance, in order (its info events skipped)."""

    def __init__(self, events):
        self.events = [(NAME.get(int(e[0]), f"kind{int(e[0])}"), int(e[1]), tuple(int(x) for x in e[2:]))
                       for e in events]
        self.events = [e for e in self.events if e[0] not in INFO]
        self.i = 0
        self.actions = 0

    def peek(self):
        return self.events[self.i] if self.i < len(self.events) else (None, None, ())

    def take(self, name, actor=-1):
        """The next event, which must be a ``name`` of ``actor`` (-1: chance)."""
        kind, who, f = self.peek()
        if kind != name or who != actor:
            raise ReplayMismatch(f"event {self.i}: expected {name} of {actor}, the record has "
                                 f"{kind} of {who} {f}")
        self.i += 1
        self.actions += 1
        return f

    def chance(self, name, *expected):
        """The next outcome of chance; it must equal what the streams give here."""
        f = self.take(name)
        if f[:len(expected)] != tuple(expected):
            raise ReplayMismatch(f"event {self.i - 1}: {name} {f[:len(expected)]} in the record, "
                                 f"{tuple(expected)} from the streams")
        return f

    def finished(self):
        if self.i != len(self.events):
            raise ReplayMismatch(f"{len(self.events) - self.i} events left after the game ended, "
                                 f"the first {self.events[self.i]}")


def legal(cond, what):
    if not cond:
        raise IllegalAction(what)


# ------------------------------------------------------------------ a game
class Batam:
    def __init__(self, seed, game_index, rules, players, events):
        r = dict(RULEBOOK)
        r.update(rules or {})
        self.r = r
        self.P = players
        self.tape = Tape(events)
        d, self.map = load(r)
        self.faces = [int(f) for f in d["faces"]]
        self.tiles = list(zip(*(map(int, a) for a in (d["tk"], d["tv"], d["ti"]))))
        self.cards = list(zip(*(map(int, a) for a in (d["ck"], d["cv"], d["ci"]))))
        self.tile_ids = [int(x) for x in d["tid"]]
        self.card_ids = [int(x) for x in d["cid"]]
        listed = set() if r["neutral"] == "none" else set(r["neutral"].split(","))
        labels = d["tlab"] if r["compass"] == "tiles" else d["clab"] if r["compass"] == "cards" else ()
        self.neutral = {k for k, lab in enumerate(labels) if lab in listed}   # deck indices
        self.goods_each = d["goods"]
        self.limit = r["opp_limit"] or OPP_LIMIT[self.P]
        self.seed, self.game_index = seed, game_index
        self.base = py_game_base(seed, game_index)
        P = self.P
        self.bank = d["bank_total"] - P * d["start_coins"]
        self.coins = [d["start_coins"]] * P
        self.short = 0
        self.pos = [self.map.start] * P
        self.sold = [set() for _ in range(P)]          # islands where the seat has a cube
        self.cubes = {}                                 # island -> seats with a cube there
        self.offers = [[0, 0] for _ in range(P)]
        self.crew = [[] for _ in range(P)]              # (value, owner), best paid first
        self.maps = [dict() for _ in range(P)]          # island -> coins waiting there
        self.tile_on = {}                               # compass index -> tile number
        self.pirate = None                              # compass index of the pirate tile
        self.deck, self.discards = [], []
        self.reshuffles = 0
        self.ended, self.ender = False, -1
        self.tally = {k: [0] * P for k in TALLIES}
        self.set_aside = []                             # tiles left in the box
        self.triggered = set()                          # tiles or cards that came into play
        self.choices = []                               # (seat, legal options) of every choice

    # ---------------------------------------------------------------- chance
    def roll(self, stream):
        return self.faces[stream.rand_int(len(self.faces))]

    def die_stream(self, rnd, p, i):
        """Crew die i of seat p in round rnd (0-based): its own substream."""
        return Stream.substream(self.seed, self.game_index, DICE, (rnd * SEATS_KEYED + p) * 3 + i)

    def deck_order(self, cards, number):
        """Deck ``number`` (0 the first, r after r reshuffles): cards by increasing key of
        their identities; the last is drawn first."""
        deck_base = py_substream_start(self.base, DECK, number)
        return sorted(cards, key=lambda k: py_item_key(deck_base, DECK, self.card_ids[k]))

    # ----------------------------------------------------------------- money
    def bank_pays(self, p, amount):
        avail = max(self.bank, 0)
        pay = amount
        if amount > avail:
            self.short += amount - avail
            if self.r["bank_empty"] == "short":
                pay = avail
        self.bank -= pay
        self.coins[p] += pay
        return pay

    def pays_bank(self, p, amount):
        pay = min(amount, self.coins[p])
        self.coins[p] -= pay
        self.bank += pay
        return pay

    def pays_player(self, a, b, amount):
        pay = min(amount, self.coins[a])
        self.coins[a] -= pay
        self.coins[b] += pay
        return pay

    # ----------------------------------------------------------------- setup
    def first_player(self):
        """Every player rolls two dice; the highest starts; tied leaders roll again."""
        dice = Stream.substream(self.seed, self.game_index, SETUP, 0)
        contenders = list(range(self.P))
        while True:
            totals = {}
            for p in contenders:
                d1, d2 = self.roll(dice), self.roll(dice)
                self.tape.chance("first_roll", p, d1, d2)
                totals[p] = d1 + d2
            best = max(totals.values())
            contenders = [p for p in contenders if totals[p] == best]
            if len(contenders) == 1:
                return contenders[0]

    def setup(self):
        first = self.first_player()
        if self.r["compass"] == "tiles":
            order = sorted(range(len(self.tiles)),
                           key=lambda t: py_item_key(self.base, P_TILES, self.tile_ids[t]))
            for c in range(len(self.map.compass)):
                t = order[c]
                self.tape.chance("tile", c, t, self.tiles[t][0], self.tiles[t][1])
                self.tile_on[c] = t
                if self.tiles[t][0] == PIRATE:
                    self.pirate = c
            self.set_aside = order[len(self.map.compass):]
        elif self.r["compass"] == "cards":
            self.deck = self.deck_order(range(len(self.cards)), 0)
            self.tape.chance("shuffle", 0, len(self.deck))
        return first

    # ------------------------------------------------------- phase 1: wages
    def offer_wages(self, p):
        """Captain and sailor wages: at least 1 each from 2 coins on, all the seat has at
        most; with 1 coin only the captain's (1); with none, none."""
        c = self.coins[p]
        cap, sal, had = self.tape.take("wages", p)[:3]
        self.choices.append((p, c * (c - 1) // 2 if c >= 2 else 1))   # captain, sailor >= 1
        legal(had == c, f"seat {p} offers from {had} coins, it has {c}")
        if c >= 2:
            legal(cap >= 1 and sal >= 1 and cap + sal <= c, f"seat {p} offers {cap} + {sal} of {c}")
        else:
            legal((cap, sal) == ((1, 0) if c == 1 else (0, 0)), f"seat {p} offers {cap} + {sal} of {c}")
        self.coins[p] -= cap + sal
        self.offers[p] = [cap, sal]

    # -------------------------------------------------- phase 2: place crew
    def reroll_price(self, n):
        if n == 0:
            return self.r["reroll_cost"]
        if self.r["reroll_pricing"] == "rising":
            return self.r["reroll_cost"] + self.r["reroll_step"] * n
        return self.r["reroll_step"]

    def roll_and_reroll(self, p, rnd):
        """Roll three dice; re-roll any of them (a non-empty subset) while the seat pays."""
        streams = [self.die_stream(rnd, p, i) for i in range(3)]
        dice = [self.roll(streams[i]) for i in range(3)]
        for i in range(3):
            self.tape.chance("roll", p, i, dice[i], 0)
        n = 0
        while True:
            cost = self.reroll_price(n)
            if self.coins[p] < cost:
                break
            mask, asked = self.tape.take("reroll", p)[:2]
            self.choices.append((p, 8))     # stop, or one of the 7 non-empty sets of dice
            legal(asked == cost and 0 <= mask <= 7, f"seat {p} re-rolls dice {mask} for {asked}")
            if mask == 0:
                break
            self.pays_bank(p, cost)
            self.tally["rerolls"][p] += 1
            self.tally["reroll_coins"][p] += cost
            for i in range(3):
                if (mask >> i) & 1:
                    dice[i] = self.roll(streams[i])
                    self.tape.chance("roll", p, i, dice[i], n + 1)
            n += 1
        return dice

    def landing_slot(self, b, v):
        """Dice stay in descending order; a die equal to one already there goes to its left."""
        return sum(1 for value, _ in self.crew[b] if value > v)

    def may_place(self, p, b):
        mine = sum(1 for _, owner in self.crew[b] if owner == p)
        return b != p and len(self.crew[b]) < 3 and mine < self.limit

    def place_crew(self, p, dice):
        """Numbered dice go one at a time onto opponents' boards while any can go somewhere."""
        while True:
            options = {(i, b) for i in range(3) if dice[i] is not None and dice[i] > 0
                       for b in range(self.P) if self.may_place(p, b)}
            if not options:
                return
            i, v, b, slot = self.tape.take("place", p)[:4]
            self.choices.append((p, len(options)))
            legal((i, b) in options and dice[i] == v, f"seat {p} places die {i} ({v}) on board {b}")
            k = self.landing_slot(b, v)
            if slot != k:
                raise ReplayMismatch(f"die {v} lands in slot {k}, the record says {slot}")
            self.crew[b].insert(k, (v, p))
            dice[i] = None

    # --------------------------------------------------------- phase 3: sail
    def others_at(self, p, v):
        return any(self.pos[q] == v for q in range(self.P) if q != p)

    def may_end(self, p, v):
        return self.map.kind[v] == HARBOUR or not self.others_at(p, v)

    def entry_cost(self, p, v):
        if self.others_at(p, v) and (self.map.kind[v] != HARBOUR or self.r["occupied_harbour"]):
            return 1 + self.r["occupied_cost"]
        return 1

    def blocked(self, v):
        return self.pirate is not None and v == self.map.compass[self.pirate]

    def cost_to_an_end(self, p, v):
        """Least movement from v to a space where p may stop."""
        best = {}
        heap = [(0, v)]
        while heap:
            c, u = heapq.heappop(heap)
            if u in best:
                continue
            best[u] = c
            if self.may_end(p, u):
                return c
            for w in self.map.neighbours[u]:
                if not self.blocked(w) and w not in best:
                    heapq.heappush(heap, (c + self.entry_cost(p, w), w))
        return UNREACHABLE

    def step_cost(self, p, v, left):
        """Movement to enter v, or None if not allowed (pirate, too dear, or stuck after)."""
        if self.blocked(v):
            return None
        c = self.entry_cost(p, v)
        if c > left or c + self.cost_to_an_end(p, v) > left:
            return None
        return c

    def draw_card(self, p):
        if not self.deck:
            if not self.discards:
                return None
            self.reshuffles += 1
            self.deck, self.discards = self.deck_order(self.discards, self.reshuffles), []
            self.tape.chance("shuffle", self.reshuffles, len(self.deck))
        k = self.deck.pop()
        self.tape.chance("card", k, self.cards[k][0], self.cards[k][1], p)
        return k

    def next_move(self, p, here, left, may_stop):
        """The seat's recorded step (a legal space to enter) or None (it stops, where
        stopping is allowed or no step is)."""
        options = [n for n in self.map.neighbours[here] if self.step_cost(p, n, left) is not None]
        kind, who, _ = self.tape.peek()
        if kind == "stop" and who == p:
            at, had = self.tape.take("stop", p)[:2]
            legal(may_stop or not options, f"seat {p} stops on another ship at {here}")
            if (at, had) != (here, left):
                raise ReplayMismatch(f"seat {p} stops at {at} with {had}, replay {here} with {left}")
            return None
        frm, to, after = self.tape.take("step", p)[:3]
        legal(frm == here and to in options, f"seat {p} steps {frm} -> {to}, legal from {here}: {options}")
        if left - self.entry_cost(p, to) != after:
            raise ReplayMismatch(f"seat {p} has {after} movement left, replay {left - self.entry_cost(p, to)}")
        return to

    def sail(self, p, tw_used, pirate_charged):
        """Move step by step (as the record says), every space's effects on entry."""
        here = self.pos[p]
        left = sum(v for v, _ in self.crew[p])
        n_dice = len(self.crew[p])
        moved = False
        while True:
            nxt = self.next_move(p, here, left, not moved or self.may_end(p, here))
            if nxt is None:
                break
            left -= self.entry_cost(p, nxt)
            here = self.pos[p] = nxt
            moved = True
            self.tally["distance"][p] += 1
            self.pirate_neighbour(p, nxt, n_dice, pirate_charged)
            kind = self.map.kind[nxt]
            stop = False
            if kind == HARBOUR:
                self.harbour(p, nxt)
            elif kind == COMPASS and self.r["compass"] == "tiles":
                left += self.tile(p, self.map.compass.index(nxt), tw_used)
            elif kind == COMPASS and self.r["compass"] == "cards":
                extra, stop = self.card(p, left, n_dice)
                left += extra
            if stop or left <= 0:
                break
        if moved and self.map.kind[here] == HARBOUR and self.map.island[here] == 0:
            returned_after = self.ended
            if not self.ended and len(self.sold[p]) >= self.goods_each:
                self.ended, self.ender = True, p
                returned_after = True
            return True, returned_after
        return False, False

    def pirate_neighbour(self, p, v, n_dice, pirate_charged):
        if self.pirate is not None and self.map.next_to(v, self.map.compass[self.pirate]):
            if self.r["pirate_charge"] == "each" or not pirate_charged[p]:
                pirate_charged[p] = True
                self.tally["compass_pirate"][p] += 1
                t = self.tile_on[self.pirate]
                self.triggered.add(t)
                if t not in self.neutral:          # a neutral pirate charges no fee
                    self.tally["pirate_coins"][p] += self.pays_bank(p, self.r["pirate_fee"] * n_dice)

    def harbour(self, p, v):
        isl = self.map.island[v]
        if isl != 0 and len(self.sold[p]) < self.goods_each and isl not in self.sold[p]:
            self.sell(p, isl)
        if self.maps[p].get(isl, 0) > 0:
            self.tally["treasure_coins"][p] += self.bank_pays(p, self.maps[p].pop(isl))

    def tile(self, p, c, tw_used):
        """Tiles mode: returns the extra movement."""
        t = self.tile_on.get(c)
        if t is None:
            return 0
        tkind, value, isl = self.tiles[t]
        neutral = t in self.neutral
        extra = 0
        if tkind == TRADEWIND and (not tw_used[p] if self.r["tradewind_limit"] == "any"
                                   else c not in tw_used[p]):
            self.triggered.add(t)
            if not neutral:                 # neutral: no bonus, limit not used
                tw_used[p].add(c)
                extra = value
            self.tally["compass_tradewind"][p] += 1
        elif tkind == SUNKEN:
            self.triggered.add(t)
            self.tally["compass_sunken"][p] += 1
            if not neutral:                 # neutral: taken away, no coins
                self.tally["treasure_coins"][p] += self.bank_pays(p, value)
            del self.tile_on[c]
        elif tkind == MAP:
            self.triggered.add(t)
            self.tally["compass_map"][p] += 1
            if not neutral:                 # neutral: taken, pays nothing
                self.maps[p][isl] = self.maps[p].get(isl, 0) + value
            del self.tile_on[c]
        return extra

    def card(self, p, left, n_dice):
        """Cards mode: returns (extra movement, stop)."""
        k = self.draw_card(p)
        if k is None:
            return 0, False
        self.triggered.add(k)
        ckind, value, isl = self.cards[k]
        neutral = k in self.neutral
        extra, stop = 0, False
        if ckind == TRADEWIND:
            self.tally["compass_tradewind"][p] += 1
            extra = 0 if neutral else value
            self.discards.append(k)
        elif ckind == SUNKEN:
            self.tally["compass_sunken"][p] += 1
            if not neutral:
                self.tally["treasure_coins"][p] += self.bank_pays(p, value)
            self.discards.append(k)
        elif ckind == MAP:
            self.tally["compass_map"][p] += 1   # kept (out of the deck) either way
            if not neutral:
                self.maps[p][isl] = self.maps[p].get(isl, 0) + value
        else:
            self.tally["compass_pirate"][p] += 1
            ransom = value * n_dice
            pay = False
            if self.coins[p] >= ransom:      # the seat chooses: pay or stop
                card, cost, paid = self.tape.take("ransom", p)[:3]
                self.choices.append((p, 2))
                legal(card == k and cost == ransom and paid in (0, 1),
                      f"seat {p} answers pirate card {card} ({cost}) with {paid}")
                pay = paid == 1
            if neutral:
                pass            # decided as usual, to no effect
            elif pay:
                self.tally["pirate_coins"][p] += self.pays_bank(p, ransom)
            else:
                stop = True
            self.discards.append(k)
        return extra, stop

    def sell(self, p, isl):
        self.bank_pays(p, self.r["sale"])
        for q in range(self.P):
            if q != p and q in self.cubes.get(isl, ()):
                self.tally["payouts_received"][q] += self.pays_player(p, q, self.r["payout"])
        self.cubes.setdefault(isl, set()).add(p)
        self.sold[p].add(isl)

    # ------------------------------------------------------- phase 4: wages
    def collect_wages(self):
        for b in range(self.P):
            for k in range(2):
                w = self.offers[b][k]
                if k < len(self.crew[b]):
                    owner = self.crew[b][k][1]
                    self.coins[owner] += w
                    self.tally["wages_earned"][owner] += w
                    self.tally["wages_paid"][b] += w
                else:
                    self.coins[b] += w
            self.offers[b] = [0, 0]
            self.crew[b] = []

    # ------------------------------------------------------------- the game
    def ranking(self):
        best = max((self.coins[p], len(self.sold[p])) for p in range(self.P))
        tops = [p for p in range(self.P) if (self.coins[p], len(self.sold[p])) == best]
        win = tuple(1.0 / len(tops) if p in tops else 0.0 for p in range(self.P))
        return (tops[0] if len(tops) == 1 else -1), win

    def play(self):
        P = self.P
        first = self.setup()
        end, rounds = END_HORIZON, 0
        leaders = []  # who would win if the game ended after each round (-1: a tie)
        for rnd in range(self.r["horizon"]):
            rounds = rnd + 1
            row = [(first + rnd + i) % P for i in range(P)]     # the crew row this round
            for p in row:
                self.offer_wages(p)
            for p in row:
                dice = self.roll_and_reroll(p, rnd)
                self.place_crew(p, dice)
            tw_used, charged = [set() for _ in range(P)], [False] * P
            returned, returned_after = [False] * P, [False] * P
            for p in row:
                returned[p], returned_after[p] = self.sail(p, tw_used, charged)
            if self.ended:
                gets = returned if self.r["bonus_window"] == "round" else returned_after
                for p in row:
                    if gets[p]:
                        self.tally["return_bonus"][p] += self.bank_pays(p, self.r["return_bonus"])
            self.collect_wages()
            standing = [(self.coins[p], len(self.sold[p])) for p in range(P)]
            top = [p for p in range(P) if standing[p] == max(standing)]
            leaders.append(top[0] if len(top) == 1 else -1)
            if self.ended:
                end = END_RETURN
                break
        self.tape.finished()
        winner, win = self.ranking()
        if end == END_HORIZON and self.r["horizon_result"] == "draw":
            winner, win = -1, tuple(1.0 / P for _ in range(P))
        rec = {"winner": winner, "win": win, "end_reason": end, "capped": end == END_HORIZON,
               "first_player": first, "rounds": rounds, "ender": self.ender, "bank": self.bank,
               "bank_short": self.short,
               "coins": tuple(self.coins), "goods_sold": tuple(len(s) for s in self.sold),
               "crew_pos": tuple((s - first) % P for s in range(P))}
        # drama: changes of the sole leader (ties skipped), and when the winner led for good
        sole = [x for x in leaders if x >= 0]
        rec["lead_changes"] = sum(1 for a, b in zip(sole, sole[1:]) if a != b)
        settled = -1
        if winner >= 0:
            r = rounds
            while r > 0 and leaders[r - 1] == winner:
                r -= 1
            settled = 100 * r // rounds
        rec["lead_settled"] = settled
        for k in TALLIES:
            rec[k] = tuple(self.tally[k])
        rec.update(how_it_plays(self.choices, P, flat=True))
        return rec


def replay_game(record) -> tuple[Batam, dict]:
    """Replay a recorded game (``sim.record.Record``): the engine after the game (its
    ``set_aside`` and ``triggered``) and the game's result row by column."""
    g = Batam(record.seed, record.index, record.rules, record.players, record.events)
    return g, g.play()


def replay(record) -> dict:
    """The result columns of a recorded game, recomputed from its decisions and chance
    (per-seat columns named by ``sim.results.seat_column``)."""
    _, rec = replay_game(record)
    out = {}
    for k, v in rec.items():
        if isinstance(v, tuple):
            for s, x in enumerate(v):
                out[seat_column(k, s)] = x
        else:
            out[k] = v
    return out
