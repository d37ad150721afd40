"""A plain-Python Batam engine, written from the rulebook (``/work/shared/seeds/batam.txt``)
and ``seeds/batam/RULES.md`` (the readings, assumptions and bots).

It exists to check the jitted kernel (``sim/games/batam/kernel.py``): given the same
master seed, game index, rules and bots it must produce the same per-game record,
because it reads the same random streams (:mod:`sim.rng`), as RULES.md (Chance) lays
them out: chance substreams by purpose (the first-player dice; each crew die of each
seat in each round; the tiles and cards ordered by the keys of their identities; each
reshuffle its own keys), and stream ``1 + seat`` for the bot in that seat (the random
bot's choices, the heuristic's tie-breaks).  Nothing draws from stream 0.

For the card-impact tests it records what the kernel does not: ``set_aside`` (the tile
indices left in the box) and ``triggered`` (every tile or card index that came into play:
a tradewind that gave, or would have given, its bonus; treasure taken; a map taken; a
pirate fee charged; a card drawn).

Nothing is shared with the kernel but the data-file loader (the map, dice, tiles,
cards and money as the files say); shortest paths are recomputed here.

Everything is held in plain Python: lists, dicts and sets.
"""
from __future__ import annotations

import heapq
from collections import deque

from sim.games.batam import data as DATA
from sim.rng import DECK, DICE, GAME_PURPOSES, SETUP, Stream, py_game_base, py_item_key, \
    py_substream_start

SEA, COMPASS, HARBOUR = DATA.SEA, DATA.COMPASS, DATA.HARBOUR
TRADEWIND, SUNKEN, MAP, PIRATE = DATA.TRADEWIND, DATA.SUNKEN, DATA.MAP, DATA.PIRATE
UNREACHABLE = 30000          # "no route" (the same sentinel as the kernel's tables)
PIRATE_PENALTY = 4           # route planner: a space next to the pirate counts as 1 + 4
OPP_LIMIT = {2: 3, 3: 2, 4: 1}
END_RETURN, END_HORIZON = 0, 1
P_TILES = GAME_PURPOSES      # tile placement keys
SEATS_KEYED = 4              # dice substream index = (round * 4 + seat) * 3 + die
TIE_REL = 1e-9


def near(a, b):
    """An exact tie of two heuristic scores: |a - b| <= 1e-9 * max(1, |b|)."""
    return abs(a - b) <= TIE_REL * max(1.0, abs(b))

SEAT_FIELDS = ("coins", "goods_sold", "crew_pos", "wages_paid", "wages_earned", "rerolls",
               "reroll_coins", "distance", "return_bonus", "compass_tradewind", "compass_sunken",
               "compass_map", "compass_pirate", "treasure_coins", "pirate_coins", "payouts_received")
TALLIES = SEAT_FIELDS[3:]

STYLE_DEFAULTS = dict(captain=4.0, sailor=1.0, urgency=1.0, share=0.5, spite=0.2, bump=0.5,
                      reroll_low=0, reroll_max=1, reserve=8, pirate_pay=4, avoid=1, dist_w=2.0,
                      treasure_w=0.0, outbid=1.0, adapt=1, give_up=2.0)
STYLES = {
    "heuristic": {},
    "miser": dict(captain=1.0, sailor=1.0, urgency=0.0, outbid=0.0, adapt=0, reroll_max=0, spite=0.0),
    "spiteful": dict(spite=1.0, bump=1.5),
    "gambler": dict(captain=8.0, sailor=2.0, urgency=2.0, share=0.6, outbid=2.0, adapt=0,
                    reroll_low=2, reroll_max=3, reserve=4, pirate_pay=8),
    "plodder": dict(avoid=0, treasure_w=0.0),
    "modest": dict(captain=3.0, sailor=2.0, share=0.3, outbid=0.0, adapt=0),
    "hunter": dict(treasure_w=1.0),
}

RULEBOOK = {"compass": "tiles", "board": "standard", "dice": "standard", "tiles": "standard",
            "cards": "standard", "components": "standard", "sale": 25, "payout": 5,
            "return_bonus": 10, "reroll_cost": 2, "reroll_step": 1, "reroll_pricing": "total",
            "tradewind_limit": "any", "pirate_fee": 3, "opp_limit": 0,
            "occupied_cost": 1, "occupied_harbour": True, "bonus_window": "round",
            "pirate_charge": "each", "bank_empty": "short", "horizon": 40, "horizon_result": "rank",
            "neutral": "none"}


# ------------------------------------------------------------------ the map
class Map:
    """Spaces, neighbours and, for the route planner, distances to the harbours and
    compass spaces with and without the pirate's space blocked."""

    def __init__(self, board):
        self.kind = [int(k) for k in board.kind]
        self.island = [int(i) for i in board.island]
        self.n = len(self.kind)
        self.neighbours = [[int(board.nbr[v, j]) for j in range(board.deg[v])] for v in range(self.n)]
        self.compass = [v for v in range(self.n) if self.kind[v] == COMPASS]
        self.harbours = [v for v in range(self.n) if self.kind[v] == HARBOUR]
        self.targets = self.harbours + self.compass        # what the route planner aims at
        self.start = self.island.index(0)
        self._cache = {}

    def next_to(self, v, w):
        return w in self.neighbours[v]

    def tables(self, pirate):
        """For the pirate on compass index ``pirate`` (None: no pirate): per target t,
        ``steps[t][v]`` (fewest spaces from v), ``weight[t][v]`` (spaces, counting a
        neighbour of the pirate as 1 + PIRATE_PENALTY) and ``length[t][v]`` (spaces along
        the lightest route, fewest spaces among equally light ones)."""
        if pirate not in self._cache:
            blocked = None if pirate is None else self.compass[pirate]
            steps, weight, length = {}, {}, {}
            for t in self.targets:
                steps[t] = self._bfs(t, blocked)
                if blocked is None:
                    weight[t] = length[t] = steps[t]
                else:
                    weight[t], length[t] = self._dijkstra(t, blocked)
            self._cache[pirate] = (steps, weight, length)
        return self._cache[pirate]

    def _bfs(self, t, blocked):
        dist = [UNREACHABLE] * self.n
        if t == blocked:
            return dist
        dist[t] = 0
        todo = deque([t])
        while todo:
            u = todo.popleft()
            for v in self.neighbours[u]:
                if v != blocked and dist[v] == UNREACHABLE:
                    dist[v] = dist[u] + 1
                    todo.append(v)
        return dist

    def _dijkstra(self, t, blocked):
        """Routes towards t: moving from v into u costs 1, or 1 + penalty when u is next
        to the pirate; ties broken by fewer spaces."""
        best = {}
        if t == blocked:
            return [UNREACHABLE] * self.n, [UNREACHABLE] * self.n
        heap = [(0, 0, t)]
        while heap:
            w, l, u = heapq.heappop(heap)
            if u in best:
                continue
            best[u] = (w, l)
            enter_u = 1 + (PIRATE_PENALTY if self.next_to(u, blocked) else 0)
            for v in self.neighbours[u]:
                if v != blocked and v not in best:
                    heapq.heappush(heap, (w + enter_u, l + 1, v))
        weight = [best.get(v, (UNREACHABLE, UNREACHABLE))[0] for v in range(self.n)]
        length = [best.get(v, (UNREACHABLE, UNREACHABLE))[1] for v in range(self.n)]
        return weight, length


_MAPS = {}


def load(rules):
    d = DATA.load_all(rules)
    key = id(d["board"])
    if key not in _MAPS:
        _MAPS[key] = Map(d["board"])
    return d, _MAPS[key]


# ------------------------------------------------------------------ a game
class Batam:
    def __init__(self, seed, game_index, rules, bots):
        r = dict(RULEBOOK)
        r.update(rules or {})
        self.r = r
        self.P = len(bots)
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
        self.bot_rng = [Stream(seed, game_index, 1 + s) for s in range(self.P)]
        self.bots = []
        for b in bots:
            name, settings = (b, {}) if isinstance(b, str) else (b[0], dict(b[1]))
            if name == "random":
                self.bots.append(("random", None))
            else:
                style = dict(STYLE_DEFAULTS)
                style.update(STYLES[name])
                style.update(settings)
                self.bots.append((name, style))
        P = self.P
        self.bank = d["bank_total"] - P * d["start_coins"]
        self.coins = [d["start_coins"]] * P
        self.short = 0
        self.pos = [self.map.start] * P
        self.sold = [set() for _ in range(P)]          # islands where the seat has a cube
        self.cubes = {}                                 # island -> seats with a cube there
        self.offers = [[0, 0] for _ in range(P)]
        self.last_captain = [None] * P                  # captain wages offered last round
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

    def choose(self, seat, n):
        """The random bot picks one of n options; a forced choice draws nothing."""
        return 0 if n == 1 else self.bot_rng[seat].rand_int(n)

    def tie(self, seat, ties):
        """Reservoir tie-break: the ties-th equal option replaces the best with probability
        1/ties, from the seat's own stream."""
        return self.bot_rng[seat].rand_int(ties) == 0

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

    def standing(self, q):
        return self.coins[q] + sum(self.offers[q]) + 20 * len(self.sold[q])

    # ----------------------------------------------------------------- setup
    def first_player(self):
        dice = Stream.substream(self.seed, self.game_index, SETUP, 0)
        contenders = list(range(self.P))
        while True:
            totals = {p: self.roll(dice) + self.roll(dice) for p in contenders}
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
                self.tile_on[c] = order[c]
                if self.tiles[order[c]][0] == PIRATE:
                    self.pirate = c
            self.set_aside = order[len(self.map.compass):]
        elif self.r["compass"] == "cards":
            self.deck = self.deck_order(range(len(self.cards)), 0)
        return first

    # ------------------------------------------------------- phase 1: wages
    def offer_wages(self, p):
        c = self.coins[p]
        name, style = self.bots[p]
        if c >= 2:
            if name == "random":
                cap = 1 + self.choose(p, c - 1)
                sal = 1 + self.choose(p, c - cap)
            elif self.P == 2:
                cap, sal = 1, 1          # the only opponent must crew you anyway
            else:
                lead = max(len(self.sold[q]) for q in range(self.P) if q != p)
                need = min(max(lead - len(self.sold[p]), 0), 2)
                capf = style["captain"] + style["urgency"] * need
                salf = style["sailor"] + 0.5 * style["urgency"] * need
                if style["adapt"] > 0 and self.last_captain[p] is not None:
                    # no more than a step above the best captain wage of last round, and
                    # not competing at all when that would cost give_up more than planned
                    target = max(self.last_captain[q] for q in range(self.P) if q != p)
                    target += max(style["outbid"], 1.0)
                    if target < capf:
                        capf = target
                    elif style["give_up"] > 0 and target > capf + style["give_up"]:
                        capf = 1.0
                if style["outbid"] > 0:         # beat the best captain wage offered so far
                    best_offer = max(self.offers[q][0] for q in range(self.P) if q != p)
                    capf = max(capf, best_offer + style["outbid"])
                lim = style["share"] * c
                capf, salf = min(capf, lim), min(salf, lim)
                cap, sal = max(int(capf + 0.5), 1), max(int(salf + 0.5), 1)
                if cap + sal > c:
                    cap, sal = c - 1, 1
        elif c == 1:
            cap, sal = 1, 0
        else:
            cap, sal = 0, 0
        self.coins[p] -= cap + sal
        self.offers[p] = [cap, sal]

    # -------------------------------------------------- phase 2: place crew
    def roll_and_reroll(self, p, rnd):
        streams = [self.die_stream(rnd, p, i) for i in range(3)]
        dice = [self.roll(streams[i]) for i in range(3)]
        name, style = self.bots[p]
        n = 0
        while True:
            if n == 0:
                cost = self.r["reroll_cost"]
            elif self.r["reroll_pricing"] == "rising":
                cost = self.r["reroll_cost"] + self.r["reroll_step"] * n
            else:
                cost = self.r["reroll_step"]
            if self.coins[p] < cost:
                break
            if name == "random":
                if self.choose(p, 2) == 0:
                    break
                subset = 1 + self.choose(p, 7)           # one of the 7 non-empty subsets
                which = [i for i in range(3) if (subset >> i) & 1]
            else:
                if self.P == 2 or n >= style["reroll_max"] or self.coins[p] - cost < style["reserve"]:
                    break
                which = [i for i in range(3) if dice[i] <= style["reroll_low"]]
                if not which:
                    break
            self.pays_bank(p, cost)
            self.tally["rerolls"][p] += 1
            self.tally["reroll_coins"][p] += cost
            for i in which:
                dice[i] = self.roll(streams[i])
            n += 1
        return dice

    def landing_slot(self, b, v):
        """Dice stay in descending order; a die equal to one already there goes to its left."""
        return sum(1 for value, _ in self.crew[b] if value > v)

    def may_place(self, p, b):
        mine = sum(1 for _, owner in self.crew[b] if owner == p)
        return b != p and len(self.crew[b]) < 3 and mine < self.limit

    def place_value(self, p, b, v, style):
        """The heuristic's worth of a die of value v on b's board (RULES.md, Bots)."""
        k = self.landing_slot(b, v)
        offer = self.offers[b]
        wage = float(offer[k]) if k < 2 else 0.0
        knocked = 0.0
        for j in range(k, min(2, len(self.crew[b]))):
            drop = offer[j] - (offer[j + 1] if j + 1 < 2 else 0)
            if self.crew[b][j][1] == p:
                wage -= drop
            else:
                knocked += drop
        if len(self.crew[b]) + 1 < 3:
            wage *= 0.5 + 0.1 * v
        lead = max((self.standing(b) - self.standing(p)) / 20.0, 0.0)
        return wage + style["bump"] * knocked - style["spite"] * v * (1.0 + lead)

    def place_crew(self, p, dice):
        name, style = self.bots[p]
        while True:
            clockwise = [(p + k) % self.P for k in range(1, self.P)]
            options = [(i, b) for i in range(3) if dice[i] is not None and dice[i] > 0
                       for b in clockwise if self.may_place(p, b)]
            if not options:
                return
            if name == "random":
                i, b = options[self.choose(p, len(options))]
            else:
                # one option per (value, board): a die equal to an earlier die is the same
                # option; equal best scores drawn uniformly from the seat's stream
                best, ties = None, 0
                for i0, b0 in options:
                    if dice[i0] in dice[:i0]:
                        continue
                    s = self.place_value(p, b0, dice[i0], style)
                    if best is not None and near(s, best[0]):
                        ties += 1
                        if self.tie(p, ties):
                            best = (best[0], i0, b0)
                    elif best is None or s > best[0]:
                        best, ties = (s, i0, b0), 1
                _, i, b = best
            k = self.landing_slot(b, dice[i])
            self.crew[b].insert(k, (dice[i], p))
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

    def plan(self, p, here, left, style, avoid):
        """Heuristic route planner (RULES.md, Bots): the target to head for, or None."""
        steps, weight, length = self.map.tables(self.pirate)
        dist = length if avoid else steps
        done = len(self.sold[p]) >= self.goods_each
        if self.ended and self.map.island[here] == 0 and self.map.kind[here] == HARBOUR:
            return None
        cands = []
        for h in self.map.harbours:
            if h == here:
                continue
            isl = self.map.island[h]
            if isl == 0:
                if done or self.ended:
                    cands.append((h, self.r["return_bonus"] + (1000.0 if done else 0.0)))
                continue
            if done:
                continue
            value = 0.0
            if isl not in self.sold[p]:
                value = self.r["sale"] - self.r["payout"] * len(self.cubes.get(isl, ())) + 0.0
            value += self.maps[p].get(isl, 0)
            if value > 0:
                cands.append((h, value))
        if self.r["compass"] == "tiles" and not done and style["treasure_w"] > 0:
            for c, space in enumerate(self.map.compass):
                t = self.tile_on.get(c)
                if t is None or space == here:
                    continue
                kind, value, _ = self.tiles[t]
                if kind == SUNKEN:
                    cands.append((space, value * style["treasure_w"]))
                elif kind == MAP:
                    cands.append((space, 0.5 * value * style["treasure_w"]))
        best, best_score, ties = None, -1e18, 0
        for a, (t1, v1) in enumerate(cands):
            d1 = dist[t1][here]
            if d1 >= UNREACHABLE:
                continue
            if self.map.kind[t1] == COMPASS:
                # treasure: a stop on this round's way, worth its value less the detour
                if d1 > left:
                    continue
                detours = [d1 + dist[h][t1] - dist[h][here] for h, _ in cands
                           if self.map.kind[h] == HARBOUR]
                detour = min(detours) if detours else 0
                score = v1 - style["dist_w"] * detour
            elif d1 <= left:
                score = 1000.0 + v1 - 0.01 * d1
            else:
                score = v1 - style["dist_w"] * d1
            if d1 <= left:
                second = 0.0
                for b, (t2, v2) in enumerate(cands):
                    if b == a:
                        continue
                    if (self.map.kind[t1] == HARBOUR and self.map.kind[t2] == HARBOUR
                            and self.map.island[t1] == self.map.island[t2]):
                        continue
                    if d1 + dist[t2][t1] <= left:
                        second = max(second, v2 + (1000.0 if self.map.kind[t2] == HARBOUR else 0.0))
                score += second
            if best is not None and near(score, best_score):
                ties += 1
                if self.tie(p, ties):
                    best = t1
            elif score > best_score:
                best, best_score, ties = t1, score, 1
        return best

    def heuristic_step(self, p, here, target, left, may_stop, avoid):
        steps, weight, _ = self.map.tables(self.pirate)
        table = weight if avoid else steps
        best, best_e, ties = None, None, 0
        if target is not None and target != here:
            for n in self.map.neighbours[here]:
                c = self.step_cost(p, n, left)
                if c is None or table[target][n] >= table[target][here]:
                    continue
                e = table[target][n] * 4 + c
                if avoid and self.pirate is not None and self.map.next_to(n, self.map.compass[self.pirate]):
                    e += 4 * PIRATE_PENALTY
                if best_e is None or e < best_e:
                    best, best_e, ties = n, e, 1
                elif e == best_e:
                    ties += 1
                    if self.tie(p, ties):
                        best = n
        if best is not None or may_stop:
            return best
        for n in self.map.neighbours[here]:
            c = self.step_cost(p, n, left)
            if c is None:
                continue
            e = c * 4 + (table[target][n] if target is not None else 0)
            if best_e is None or e < best_e:
                best, best_e, ties = n, e, 1
            elif e == best_e:
                ties += 1
                if self.tie(p, ties):
                    best = n
        return best

    def draw_card(self):
        if not self.deck:
            if not self.discards:
                return None
            self.reshuffles += 1
            self.deck, self.discards = self.deck_order(self.discards, self.reshuffles), []
        return self.deck.pop()

    def sail(self, p, tw_used, pirate_charged):
        name, style = self.bots[p]
        here = self.pos[p]
        left = sum(v for v, _ in self.crew[p])
        n_dice = len(self.crew[p])
        moved = False
        avoid = name != "random" and style["avoid"] > 0
        target, replan = None, True
        while True:
            may_stop = not moved or self.may_end(p, here)
            if name == "random":
                options = [n for n in self.map.neighbours[here] if self.step_cost(p, n, left) is not None]
                if not options:
                    break
                k = self.choose(p, len(options) + (1 if may_stop else 0))
                if may_stop:
                    if k == 0:
                        break
                    k -= 1
                nxt = options[k]
            else:
                if replan:
                    target = self.plan(p, here, left, style, avoid)
                    replan = False
                nxt = self.heuristic_step(p, here, target, left, may_stop, avoid)
                if nxt is None:
                    break
            # enter the space
            left -= self.entry_cost(p, nxt)
            here = self.pos[p] = nxt
            moved = True
            self.tally["distance"][p] += 1
            stop = False
            if self.pirate is not None and self.map.next_to(nxt, self.map.compass[self.pirate]):
                if self.r["pirate_charge"] == "each" or not pirate_charged[p]:
                    pirate_charged[p] = True
                    self.tally["compass_pirate"][p] += 1
                    t = self.tile_on[self.pirate]
                    self.triggered.add(t)
                    if t not in self.neutral:          # a neutral pirate charges no fee
                        self.tally["pirate_coins"][p] += self.pays_bank(p, self.r["pirate_fee"] * n_dice)
            kind = self.map.kind[nxt]
            if kind == HARBOUR:
                isl = self.map.island[nxt]
                if isl != 0 and len(self.sold[p]) < self.goods_each and isl not in self.sold[p]:
                    self.sell(p, isl)
                    replan = True
                if self.maps[p].get(isl, 0) > 0:
                    self.tally["treasure_coins"][p] += self.bank_pays(p, self.maps[p].pop(isl))
                    replan = True
            elif kind == COMPASS and self.r["compass"] == "tiles":
                c = self.map.compass.index(nxt)
                t = self.tile_on.get(c)
                if t is not None:
                    tkind, value, isl = self.tiles[t]
                    neutral = t in self.neutral
                    if tkind == TRADEWIND and (
                            not tw_used[p] if self.r["tradewind_limit"] == "any"
                            else c not in tw_used[p]):
                        self.triggered.add(t)
                        if not neutral:                 # neutral: no bonus, limit not used
                            tw_used[p].add(c)
                            left += value
                        self.tally["compass_tradewind"][p] += 1
                        replan = True
                    elif tkind == SUNKEN:
                        self.triggered.add(t)
                        self.tally["compass_sunken"][p] += 1
                        if not neutral:                 # neutral: taken away, no coins
                            self.tally["treasure_coins"][p] += self.bank_pays(p, value)
                        del self.tile_on[c]
                        replan = True
                    elif tkind == MAP:
                        self.triggered.add(t)
                        self.tally["compass_map"][p] += 1
                        if not neutral:                 # neutral: taken, pays nothing
                            self.maps[p][isl] = self.maps[p].get(isl, 0) + value
                        del self.tile_on[c]
                        replan = True
            elif kind == COMPASS and self.r["compass"] == "cards":
                k = self.draw_card()
                if k is not None:
                    self.triggered.add(k)
                    ckind, value, isl = self.cards[k]
                    neutral = k in self.neutral
                    if ckind == TRADEWIND:
                        self.tally["compass_tradewind"][p] += 1
                        if not neutral:
                            left += value
                        self.discards.append(k)
                        replan = True
                    elif ckind == SUNKEN:
                        self.tally["compass_sunken"][p] += 1
                        if not neutral:
                            self.tally["treasure_coins"][p] += self.bank_pays(p, value)
                        self.discards.append(k)
                    elif ckind == MAP:
                        self.tally["compass_map"][p] += 1   # kept (out of the deck) either way
                        if not neutral:
                            self.maps[p][isl] = self.maps[p].get(isl, 0) + value
                        replan = True
                    else:
                        self.tally["compass_pirate"][p] += 1
                        ransom = value * n_dice
                        pay = False
                        if self.coins[p] >= ransom:
                            if name == "random":
                                pay = self.choose(p, 2) == 0
                            else:
                                pay = left > 0 and ransom <= style["pirate_pay"]
                        if neutral:
                            pass            # decided (and drawn) as usual, to no effect
                        elif pay:
                            self.tally["pirate_coins"][p] += self.pays_bank(p, ransom)
                        else:
                            stop = True
                        self.discards.append(k)
            if stop or left <= 0:
                break
            if here == target:
                replan = True
        if moved and self.map.kind[here] == HARBOUR and self.map.island[here] == 0:
            returned_after = self.ended
            if not self.ended and len(self.sold[p]) >= self.goods_each:
                self.ended, self.ender = True, p
                returned_after = True
            return True, returned_after
        return False, False

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
            self.last_captain[b] = self.offers[b][0]
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
        return rec


def play(seed: int, game_index: int, rules=None, bots=("random",) * 4) -> dict:
    """Play one game; ``bots``: one name per seat, or (name, settings) pairs."""
    return Batam(seed, game_index, rules, list(bots)).play()
