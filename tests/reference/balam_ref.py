"""A plain-Python Balam engine, written from seeds/balam/RULES.md, that replays recorded
games (``sim.record``) and recomputes every result column.

It holds no bot: every decision of a recorded game (the card turned, the riches paid,
the buildings built and where, the attack and its garrisons and obsidian, the
defender's obsidian, the garrisons lost to skulls and the buildings destroyed, the
option taken from a Katun, the tokens paid or the buildings lost to a catastrophe, the
cenote offerings, where each riches goes at the distribution) is read from the record
and applied after checking that the rules allow it (``Illegal`` otherwise).  Chance is
drawn again from the game's own streams (RULES.md, Chance: the layout, the deck's keys
per card identity, the piles, the Eclipse, the first player, each war's dice) and must
equal what the record says; what the rules decide alone (divination, production,
prisoners, ball games, the Clemency of Chaak, the riches bonus) is computed here and
checked against the record's events too.
"""
from __future__ import annotations

from sim.games.balam import data as D
from tests.reference.howplays_ref import how_it_plays
from sim.rng import DECK, DICE, GAME_PURPOSES, SETUP, Stream, py_game_base, py_keyed_order, py_mix64

P_LAYOUT, P_PILES, P_ECLIPSE = GAME_PURPOSES, GAME_PURPOSES + 1, GAME_PURPOSES + 2
_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1

MAIZE, CACAO, SHELL, JADE, OBSID, PRIS = range(6)
VILLAGE, GARRISON, PALACE, TEMPLE, MARKET, RESERVE, BALLCOURT, OBSERV = range(1, 9)
TILE_OF = {b: (b - 1) // 2 for b in range(1, 9)}
DK_TEMPLE, DK_PALACE, DK_GARR, DK_RESERVE, DK_LOSE = range(5)
DK_CODE = {DK_TEMPLE: TEMPLE, DK_PALACE: PALACE, DK_GARR: GARRISON, DK_RESERVE: RESERVE}
NK = 17
WIDE = (PALACE, TEMPLE)
CATASTROPHES = {  # card type: (riches paid, how many, building lost, how many)
    9: (MAIZE, 1, VILLAGE, 2), 10: (MAIZE, 1, PALACE, 1), 11: (PRIS, 1, TEMPLE, 1),
    12: (PRIS, 1, MARKET, 2), 13: (PRIS, 1, GARRISON, 2), 14: (PRIS, 1, None, 0),
    15: (PRIS, 2, "volcano", 0), 16: (PRIS, 2, "seashore", 0),
}

#: recorded games replayed by tests/test_replay.py: every bot, every player count, the
#: rule readings and variants (a few games each)
REPLAY_CASES = [
    {"players": 2, "bots": "random", "rules": {}, "games": 6, "seed": 1},
    {"players": 2, "bots": "merchant", "rules": {}, "games": 4, "seed": 2},
    {"players": 3, "bots": "builder,warlord,random", "rules": {}, "games": 3, "seed": 3},
    {"players": 4, "bots": "merchant,priest,builder,random", "rules": {}, "games": 2, "seed": 4},
    {"players": 2, "bots": "warlord,priest", "rules": {"catastrophes": "all",
                                                        "village_production": "forest",
                                                        "control": "each"}, "games": 3, "seed": 5},
    {"players": 3, "bots": "random", "rules": {"expedition": "produced", "eclipse_jitter": 3,
                                               "piles": "random", "layout": "fixed"},
     "games": 3, "seed": 6},
    {"players": 2, "bots": "builder,random", "rules": {"ball_games": 5, "board": "small",
                                                       "neutral_cards": "4,9"},
     "games": 3, "seed": 7},
    {"players": 2, "bots": "random,merchant", "rules": {"horizon": 4, "max_turns": 10},
     "games": 3, "seed": 8},
    {"players": 3, "bots": "random,merchant:plans=2,warlord:plans=2", "rules": {},
     "games": 2, "seed": 9},
    # the search bot (few games: it is slow); the second with random piles (its
    # determinization's merged card class)
    {"players": 2, "bots": "search:iters=6,merchant", "rules": {}, "games": 2, "seed": 10},
    {"players": 3, "bots": "warlord,random,search:iters=4;horizon=1", "rules": {"piles": "random"},
     "games": 1, "seed": 11},
]


class Illegal(AssertionError):
    """A recorded action the rules do not allow (or a record that disagrees with chance)."""


def layout_hash(infos):
    """The kernel's layout_hash: the contents of the tile on each cell, in cell order."""
    h = 0
    for sp, col, forest, sea, volc, cen in infos:
        code = sp + 8 * col + 64 * forest + 128 * sea + 256 * volc + 512 * cen
        h = py_mix64((h + code + _GOLDEN) & _MASK)
    return h >> 1


class Site:
    def __init__(self, spaces, colour, forest, sea, volcano, cenote):
        self.spaces = spaces
        self.colour = colour
        self.forest, self.seashore, self.volcano, self.cenote = forest, sea, volcano, cenote
        self.owner = None
        self.building = [None] * spaces   # code, or "cont" for a palace/temple's second space
        self.token = [None] * spaces      # riches on that building
        self.small = {}                   # player -> small pyramids here

    def buildings(self):
        return [(k, b) for k, b in enumerate(self.building) if b not in (None, "cont")]


class King:
    def __init__(self):
        self.hand = [0] * 6
        self.large = 0
        self.small = 0
        self.prestige = 0
        self.source = {"ceremony": 0, "cenote": 0, "ball": 0, "prosperous": 0, "bonus": 0}
        self.t = {k: 0 for k in ("wars", "attacked", "buildings_lost", "buildings_destroyed",
                                 "garrisons_lost", "catastrophes_paid", "catastrophes_suffered",
                                 "buildings_lost_katun", "prisoners", "buildings_built",
                                 "cards_divined", "passes", "turns_taken")}
        self.katun = [0] * 17


class Balam:
    """The rules: the state of a game and what the rulebook does to it."""

    def __init__(self, board, deck, comp, players, ball_target, seed, game, max_rounds=40,
                 hit_all=False, forest_only=False, control_sum=False, eclipse_jitter=0,
                 max_turns=400, expedition_types=6, random_piles=False, neutral=(),
                 random_layout=True):
        self.b, self.deck_t, self.c = board, deck, comp
        self.seed, self.game = seed, game
        self.base = py_game_base(seed, game)
        self.wars = 0
        self.NP = players
        self.target = ball_target
        self.max_rounds = max_rounds
        self.hit_all, self.forest_only, self.control_sum = hit_all, forest_only, control_sum
        self.jitter = eclipse_jitter
        self.random_piles = random_piles
        self.neutral = frozenset(neutral)
        self.max_turns = max_turns
        self.expedition_types = expedition_types
        # the layout: the board file's tiles permuted over its land cells (Fisher-Yates)
        S = len(board.names)
        perm = list(range(S))
        if random_layout:
            st = Stream.substream(seed, game, P_LAYOUT, 0)
            for i in range(S - 1, 0, -1):
                j = st.rand_int(i + 1)
                perm[i], perm[j] = perm[j], perm[i]
        self.perm = perm
        self.layout = layout_hash([[int(x) for x in board.info[perm[s]]] for s in range(S)])
        self.sites = [Site(*[int(x) for x in board.info[perm[s]]]) for s in range(S)]
        self.nbrs = [list(board.nbr[s, :board.nnb[s]]) for s in range(len(board.names))]
        self.kings = [King() for _ in range(players)]
        for k in self.kings:
            k.large, k.small = comp.large, comp.small
        self.supply = [int(x) for x in comp.supply]
        self.tiles = [int(x) for x in comp.tiles]
        self.eclipse_round = 0
        self.balls = 0
        self.round = 0
        self.turns = 0
        self.cards_turned = 0
        self.pts = [int(x) for x in comp.points]
        self.known = [0] * players
        self.slots = []
        self.divined = set()   # card types some king saw by divination

    # ----------------------------------------------------------- small rules
    def gain(self, p, t, n):
        g = max(0, min(n, self.supply[t]))
        self.supply[t] -= g
        self.kings[p].hand[t] += g

    def prestige(self, p, src, n):
        self.kings[p].prestige += n
        self.kings[p].source[src] += n

    def fits(self, site, code):
        n = site.spaces
        if code in WIDE:
            for k in range(n - 1):
                if site.building[k] is None and site.building[k + 1] is None:
                    return k
            return -1
        for k in range(n):
            if site.building[k] is None:
                return k
        return -1

    def affordable(self, hand, code):
        b = code - 1
        kind = int(self.c.cost_kind[b])
        if kind >= 0:
            return hand[kind] >= self.c.cost_n[b]
        return sum(hand) >= self.c.cost_any[b]

    def can_build(self, p, s, code, hand):
        site = self.sites[s]
        if site.owner not in (p, None):
            return False
        if self.tiles[TILE_OF[code]] <= 0:
            return False
        if site.owner is None and self.kings[p].large <= 0:
            return False
        if code == MARKET and self.kings[p].small < 1 + len(self.nbrs[s]):
            return False
        return self.fits(site, code) >= 0 and self.affordable(hand, code)

    def place(self, p, s, code):
        site = self.sites[s]
        k = self.fits(site, code)
        if site.owner is None:
            site.owner = p
            self.kings[p].large -= 1
        site.building[k] = code
        if code in WIDE:
            site.building[k + 1] = "cont"
        self.tiles[TILE_OF[code]] -= 1
        if code == MARKET:
            for x in [s] + self.nbrs[s]:
                self.sites[x].small[p] = self.sites[x].small.get(p, 0) + 1
            self.kings[p].small -= 1 + len(self.nbrs[s])
        self.kings[p].t["buildings_built"] += 1

    def remove(self, s, k):
        site = self.sites[s]
        code = site.building[k]
        p = site.owner
        site.building[k] = None
        if code in WIDE:
            site.building[k + 1] = None
        if site.token[k] is not None:
            self.supply[site.token[k]] += 1
            site.token[k] = None
        self.tiles[TILE_OF[code]] += 1
        if code == MARKET:
            for x in [s] + self.nbrs[s]:
                self.sites[x].small[p] -= 1
            self.kings[p].small += 1 + len(self.nbrs[s])
        if not site.buildings():
            site.owner = None
            self.kings[p].large += 1
        return code

    def count(self, p, code):
        return sum(1 for st in self.sites if st.owner == p for _, b in st.buildings() if b == code)

    def cities(self, p):
        return sum(1 for st in self.sites if st.owner == p)

    def garrisons(self, s):
        return [k for k, b in self.sites[s].buildings() if b == GARRISON]

    def passable(self, s, p):
        site = self.sites[s]
        mine = site.small.get(p, 0)
        others = [site.small.get(q, 0) for q in range(self.NP) if q != p]
        enemy_owner = site.owner is not None and site.owner != p
        if self.control_sum:
            e = sum(others)
            return not (e > mine or (e == mine and enemy_owner))
        if any(x > mine for x in others):
            return False
        return not (enemy_owner and site.small.get(site.owner, 0) >= mine)

    def groups(self, p):
        """Transport group of every site for king p (blocked sites stand alone)."""
        g = {}
        S = len(self.sites)
        label = 0
        for s in range(S):
            if not self.passable(s, p):
                g[s] = ("alone", s)
        for s in range(S):
            if s in g:
                continue
            todo = [s]
            g[s] = label
            while todo:
                x = todo.pop()
                for y in self.nbrs[x]:
                    if y not in g:
                        g[y] = label
                        todo.append(y)
            label += 1
        return g

    def build_deck(self):
        ct = self.deck_t.ctype
        cid = [int(x) for x in self.deck_t.cid]
        by_id = {cid[c]: c for c in range(len(ct))}
        # both shuffles: cards sorted by a key drawn for each card identity (purpose DECK)
        others = [by_id[i] for i in py_keyed_order(
            self.base, DECK, [cid[c] for c in range(len(ct)) if ct[c] not in (0, 7, 8)])]
        pros = [by_id[i] for i in py_keyed_order(
            self.base, DECK, [cid[c] for c in range(len(ct)) if ct[c] == 0])]
        balls = [c for c in range(len(ct)) if ct[c] == 7]
        npiles = len(balls) + 1
        deck = list(pros)
        n = len(others)
        pos = 0
        need = n % npiles
        rnd = Stream.substream(self.seed, self.game, P_PILES, 0) if self.random_piles else None
        for k in range(npiles):
            if self.random_piles:
                left = npiles - k
                big = need > 0 and (need == left or rnd.rand_int(left) < need)
                need -= big
            else:
                big = k < need
            size = n // npiles + big
            deck += others[pos:pos + size]
            pos += size
            if k < len(balls):
                deck.append(balls[k])
        ecl = [c for c in range(len(ct)) if ct[c] == 8]
        if ecl:
            mid = len(deck) // 2
            if self.jitter > 0:
                rnd = Stream.substream(self.seed, self.game, P_ECLIPSE, 0)
                mid += rnd.rand_int(2 * self.jitter + 1) - self.jitter
                mid = min(max(mid, 0), len(deck))
            deck.insert(mid, ecl[0])
        return deck

    def rank(self, counts, first_pts):
        """Sole first: first_pts; two tied firsts: half each; sole second: half."""
        award = [0] * self.NP
        m1 = max(counts)
        if m1 == 0:
            return award
        tops = [q for q in range(self.NP) if counts[q] == m1]
        if len(tops) == 1:
            award[tops[0]] = first_pts[tops[0]]
            rest = [c for c in counts if 0 < c < m1]
            if rest:
                m2 = max(rest)
                seconds = [q for q in range(self.NP) if counts[q] == m2]
                if len(seconds) == 1:
                    award[seconds[0]] = first_pts[seconds[0]] // 2
        elif len(tops) == 2:
            for q in tops:
                award[q] = first_pts[q] // 2
        return award

    def divination(self, rfirst, nslots):
        """Who sees which face-down slots this round (self.known: bit masks)."""
        self._divination(rfirst, nslots)
        for q in range(self.NP):
            for k in range(nslots):
                if (self.known[q] >> k) & 1:
                    self.divined.add(int(self.deck_t.ctype[self.slots[k]]))

    def _divination(self, rfirst, nslots):
        counts = [self.count(q, OBSERV) for q in range(self.NP)]
        self.known = [0] * self.NP
        m1 = max(counts)
        if m1 == 0:
            return
        tops = [q for q in range(self.NP) if counts[q] == m1]
        if len(tops) == 1:
            self.kings[tops[0]].t["cards_divined"] += min(self.NP, nslots)
            for k in range(min(self.NP, nslots)):
                self.known[tops[0]] |= 1 << k
            rest = [c for c in counts if 0 < c < m1]
            if rest:
                seconds = [q for q in range(self.NP) if counts[q] == max(rest)]
                if len(seconds) == 1:
                    self.kings[seconds[0]].t["cards_divined"] += 1
                    self.known[seconds[0]] |= 1 << (nslots - 1)
        elif len(tops) == 2:
            j = 0
            for i in range(self.NP):   # in turn order from the round's first king
                q = (rfirst + i) % self.NP
                if counts[q] == m1:
                    self.kings[q].t["cards_divined"] += 1
                    self.known[q] |= 1 << min(j, nslots - 1)
                    j += 1

    def production(self, rfirst):
        for i in range(self.NP):
            p = (rfirst + i) % self.NP
            for st in self.sites:
                if st.owner != p or (self.forest_only and not st.forest):
                    continue
                for k, b in st.buildings():
                    if b == VILLAGE and self.supply[st.colour] > 0:
                        st.token[k] = st.colour
                        self.supply[st.colour] -= 1

    def sole_leader(self):
        ps = [k.prestige for k in self.kings]
        best = max(ps)
        return ps.index(best) if ps.count(best) == 1 else -1

    def columns(self):
        """The recorded columns of this game, named as the kernel's."""
        ks = self.kings
        out = {"end_reason": self.end, "first_player": self.first, "rounds": self.round,
               "layout": self.layout,
               "turns": self.turns, "ball_games": self.balls, "eclipse_round": self.eclipse_round,
               "cards_turned": self.cards_turned,
               "lead_changes": self.lead_changes, "lead_settled": self.lead_settled,
               "prestige": [k.prestige for k in ks],
               "pp_ceremony": [k.source["ceremony"] for k in ks],
               "pp_cenote": [k.source["cenote"] for k in ks],
               "pp_ballgame": [k.source["ball"] for k in ks],
               "pp_prosperous": [k.source["prosperous"] for k in ks],
               "pp_bonus": [k.source["bonus"] for k in ks],
               "cities": [self.cities(q) for q in range(self.NP)],
               "riches_left": [sum(k.hand) for k in ks]}
        for name in ks[0].t:
            out[name] = [k.t[name] for k in ks]
        from sim.games.balam import KATUN_COLS
        for i, c in enumerate(KATUN_COLS):
            out[c] = [k.katun[i] for k in ks]
        best = max(out["prestige"])
        tops = [q for q in range(self.NP) if out["prestige"][q] == best]
        capped = self.end == 2
        out["capped"] = capped
        out["winner"] = -1 if (capped or len(tops) > 1) else tops[0]
        return out

    def mayas_tokens(self, p, t=None):
        return [(s, k) for s, st in enumerate(self.sites) if st.owner == p
                for k, b in st.buildings() if b in (RESERVE, GARRISON) and st.token[k] is not None
                and (t is None or st.token[k] == t)]


class Replay(Balam):
    """Balam played from a record: decisions read from it (checked legal), chance drawn
    again and checked against it, the rules' own outcomes checked against it."""

    def __init__(self, record, *args, **kw):
        super().__init__(*args, **kw)
        from sim.games.balam import GAME
        kinds = {a.code: a for a in GAME.actions}
        self.events = []
        for ev in record.events:
            a = kinds[int(ev[0])]
            self.events.append((a.name, int(ev[1]),
                                {n: int(ev[2 + j]) for j, n in enumerate(a.fields)}))
        self.i = 0
        self.actions = 0      # decisions replayed
        self.choices = []     # (seat, the turn's options) of every turn but the safety valve's

    # ----------------------------------------------------------- the record
    def peek(self, actor=None):
        """The next event's name (None at the end, or when it is not ``actor``'s)."""
        if self.i >= len(self.events):
            return None
        name, who, _ = self.events[self.i]
        return name if actor is None or who == actor else None

    def next(self, name, actor=None):
        """The next event, which must be ``name`` (by ``actor``): its fields."""
        if self.i >= len(self.events):
            raise Illegal(f"the record ends where the rules expect {name}")
        got, who, f = self.events[self.i]
        if got != name or (actor is not None and who != actor):
            raise Illegal(f"event {self.i}: expected {name} by {actor}, the record has {got} "
                          f"by {who} {f}")
        self.i += 1
        return f

    def decide(self, name, actor):
        self.actions += 1
        return self.next(name, actor)

    @staticmethod
    def check(ok, why):
        if not ok:
            raise Illegal(why)

    # ----------------------------------------------------------- setup
    def setup(self):
        for s in range(len(self.sites)):
            f = self.next("layout")
            self.check((f["cell"], f["tile"]) == (s, self.perm[s]), f"cell {s}: layout {f}")
        deck = self.build_deck()
        for i, c in enumerate(deck):
            f = self.next("deck")
            self.check((f["position"], f["card"]) == (i, c), f"deck card {i}: {f}, drawn {c}")
        first = Stream.substream(self.seed, self.game, SETUP, 0).rand_int(self.NP)
        self.check(self.next("first")["seat"] == first, "first player")
        return deck, first

    # ----------------------------------------------------------- payments
    def pay(self, p, f):
        t, n = f["riches"], f["n"]
        self.check(0 <= t < 6 and 1 <= n <= self.kings[p].hand[t],
                   f"seat {p} pays {n} of riches {t} with {self.kings[p].hand}")
        self.kings[p].hand[t] -= n
        self.supply[t] += n
        return t, n

    def pay_building(self, p, code):
        """The payments recorded before a building: the building's cost in full."""
        b = code - 1
        kind = int(self.c.cost_kind[b])
        if kind >= 0:
            t, n = self.pay(p, self.decide("pay", p))
            self.check((t, n) == (kind, int(self.c.cost_n[b])), f"cost of building {code}")
            return
        for _ in range(int(self.c.cost_any[b])):
            t, n = self.pay(p, self.decide("pay", p))
            self.check(n == 1, "riches of choice are paid one by one")

    def builds(self, p, s, must):
        """The buildings king p puts on site s (at least one when ``must``)."""
        n = 0
        while self.peek(p) == "pay" or self.peek(p) == "build":
            j = self.i
            while j < len(self.events) and self.events[j][0] == "pay":
                j += 1
            self.check(j < len(self.events), "payments at the end of the record")
            name, who, f = self.events[j]
            self.check(name == "build" and who == p and f["site"] == s,
                       f"payments not followed by a building on site {s}")
            code = f["building"]
            self.check(self.can_build(p, s, code, self.kings[p].hand),
                       f"seat {p} cannot build {code} on site {s}")
            self.pay_building(p, code)
            self.decide("build", p)
            self.place(p, s, code)
            n += 1
        self.check(n > 0 or not must, f"seat {p} built nothing on site {s}")

    # ----------------------------------------------------------- a turn
    def options(self, p):
        """King p's options at his turn's start, as sim/games/balam/howplays.py defines them:
        each face-down card he has divined, one for those he has not seen; with riches, pass,
        each site some building can go on after the tax paid with some held type, each
        (own city with a garrison, enemy city on a path from it)."""
        face = [k for k, c in enumerate(self.slots) if c is not None]
        seen = sum(1 for k in face if (self.known[p] >> k) & 1)
        n = seen + (1 if seen < len(face) else 0)
        hand = self.kings[p].hand
        if sum(hand) < 1:
            return n
        taxed = [[h - (u == t) for u, h in enumerate(hand)] for t in range(6) if hand[t] > 0]
        n += 1 + sum(1 for s in range(len(self.sites))
                     if any(self.can_build(p, s, code, h) for h in taxed for code in range(1, 9)))
        return n + sum(1 for a, A in enumerate(self.sites) if A.owner == p and self.garrisons(a)
                       for b in self.nbrs[a] if self.sites[b].owner not in (None, p))

    def turn(self, p, forced):
        if not forced:
            self.choices.append((p, self.options(p)))
        name = self.peek(p)
        if name == "card":
            f = self.decide("card", p)
            k = f["slot"]
            self.check(0 <= k < len(self.slots) and self.slots[k] is not None
                       and self.slots[k] == f["card"], f"card {f} not face down")
            if forced:
                self.check(k == next(j for j, c in enumerate(self.slots) if c is not None),
                           "the safety valve turns the first face-down card")
            self.turn_card(p, k)
            return
        self.check(not forced and name == "pay", f"seat {p}'s turn: {name}")
        tax = self.pay(p, self.decide("pay", p))
        self.check(tax[1] == 1, "the turn's tax is one riches")
        name = self.peek(p)
        if name == "pass":
            self.decide("pass", p)
            self.kings[p].t["passes"] += 1
        elif name == "attack":
            f = self.decide("attack", p)
            a, b = f["from_site"], f["to_site"]
            self.attack(p, a, b, f["garrisons"], f["obsidian"], f["defender"])
            if self.sites[b].owner is None:
                self.builds(p, b, False)
        else:
            j = self.i
            while j < len(self.events) and self.events[j][0] == "pay":
                j += 1
            self.check(j < len(self.events) and self.events[j][0] == "build",
                       f"seat {p} paid the tax and did nothing")
            self.builds(p, self.events[j][2]["site"], True)

    # ----------------------------------------------------------- war
    def attack(self, p, a, b, k, o, q):
        A, B = self.sites[a], self.sites[b]
        self.check(A.owner == p and b in self.nbrs[a] and B.owner not in (None, p)
                   and B.owner == q, f"seat {p} cannot attack site {b} from site {a}")
        obs = sum(1 for kk in self.garrisons(a) if A.token[kk] == OBSID)
        self.check(1 <= k <= len(self.garrisons(a)) and 0 <= o <= min(k, obs),
                   f"attack with {k} garrisons and {o} obsidian")
        self.kings[p].t["wars"] += 1
        self.kings[q].t["attacked"] += 1
        spend = o  # the attacker's obsidian, from his garrisons holding it, first spaces first
        for kk in self.garrisons(a):
            if spend > 0 and A.token[kk] == OBSID:
                A.token[kk] = None
                self.supply[OBSID] += 1
                spend -= 1
        friends = [b] + [x for x in self.nbrs[b] if self.sites[x].owner == q]
        base = sum(len(self.garrisons(x)) for x in friends)
        obs = [(x, kk) for x in friends for kk in self.garrisons(x)
               if self.sites[x].token[kk] == OBSID]
        f = self.decide("defend", q)
        od = f["obsidian"]
        self.check(f["site"] == b and f["defence"] == base and 0 <= od <= len(obs),
                   f"defence {f}: base {base}, obsidian {len(obs)}")
        for _ in range(od):
            t = self.decide("token", q)
            self.check((t["site"], t["space"]) in obs and t["riches"] == OBSID, f"obsidian {t}")
            obs.remove((t["site"], t["space"]))
            self.sites[t["site"]].token[t["space"]] = None
            self.supply[OBSID] += 1
        dice = Stream.substream(self.seed, self.game, DICE, self.wars)   # this war's dice
        succ = skulls = 0
        for _ in range(k):
            face = int(self.c.faces[dice.rand_int(len(self.c.faces))])
            d = self.next("die")
            self.check((d["war"], d["face"]) == (self.wars, face), f"die {d}, drawn {face}")
            if face < 0:
                skulls += 1
            else:
                succ += face
        self.wars += 1
        for _ in range(skulls):
            if not self.garrisons(a):
                break
            f = self.decide("skull", p)
            self.check(f["site"] == a and f["space"] in self.garrisons(a), f"skull {f}")
            self.remove(a, f["space"])
            self.kings[p].t["garrisons_lost"] += 1
        self.destroy(p, q, a, b, succ + o - (base + od))

    def destroy(self, p, q, a, b, pts):
        A, B = self.sites[a], self.sites[b]
        destroyed = 0
        while pts > 0:
            cand = [kk for kk, bb in B.buildings() if (2 if bb in WIDE else 1) <= pts]
            if not cand:
                break
            f = self.decide("destroy", p)
            self.check(f["site"] == b and f["space"] in cand, f"destroy {f}: {cand}")
            code = self.remove(b, f["space"])
            self.check(f["building"] == code and f["owner"] == q, f"destroy {f}")
            pts -= 2 if code in WIDE else 1
            destroyed += 1
            self.kings[q].t["buildings_lost"] += 1
            self.kings[p].t["buildings_destroyed"] += 1
        for _ in range(destroyed):   # a prisoner per building, on the first empty garrison
            if self.supply[PRIS] <= 0:
                break
            free = [kk for kk in self.garrisons(a) if A.token[kk] is None]
            if not free:
                break
            f = self.next("prisoner", p)
            self.check((f["site"], f["space"]) == (a, free[0]), f"prisoner {f}")
            A.token[free[0]] = PRIS
            self.supply[PRIS] -= 1
            self.kings[p].t["prisoners"] += 1

    # ----------------------------------------------------------- Katun
    def give_tokens(self, p, t, n):
        for _ in range(n):
            f = self.decide("token", p)
            self.check((f["site"], f["space"]) in self.mayas_tokens(p, t) and f["riches"] == t,
                       f"seat {p} pays token {f}")
            self.sites[f["site"]].token[f["space"]] = None
            self.supply[t] += 1

    def catastrophe(self, p, kt):
        pay_t, pay_n, what, n = CATASTROPHES[kt]
        mine = [s for s, st in enumerate(self.sites) if st.owner == p]
        if what in ("volcano", "seashore"):
            hit = [s for s in mine if getattr(self.sites[s], what)]
            if not hit:
                return
        elif kt == 14:
            if self.count(p, BALLCOURT) == 0 and self.count(p, OBSERV) == 0:
                return
        elif self.count(p, what) == 0:
            return
        f = self.decide("catastrophe", p)
        self.check(f["type"] == kt, f"catastrophe {f}")
        if f["paid"]:
            self.check(len(self.mayas_tokens(p, pay_t)) >= pay_n, f"seat {p} cannot pay {kt}")
            self.give_tokens(p, pay_t, pay_n)
            self.kings[p].t["catastrophes_paid"] += 1
            return
        self.kings[p].t["catastrophes_suffered"] += 1
        lost = 0
        if what in ("volcano", "seashore"):
            for s in hit:
                f = self.next("lose", p)
                n = len(self.sites[s].buildings())
                self.check((f["site"], f["space"], f["what"]) == (s, -1, n), f"city lost {f}")
                for k, _ in self.sites[s].buildings():
                    self.remove(s, k)
                    lost += 1
        else:
            losses = [(BALLCOURT, 1), (OBSERV, 1)] if kt == 14 else [(what, n)]
            for code, m in losses:
                for _ in range(m):
                    if self.count(p, code) == 0:
                        break
                    f = self.decide("lose", p)
                    s, k = f["site"], f["space"]
                    self.check(self.sites[s].owner == p and self.sites[s].building[k] == code
                               and f["what"] == code, f"seat {p} loses {f}")
                    self.remove(s, k)
                    lost += 1
        self.kings[p].t["buildings_lost_katun"] += lost

    def gains(self, p, c, kt):
        if kt in (0, 1, 2):
            f = self.decide("gain", p)
            j = f["option"]
            self.check(f["card"] == c and 0 <= j < int(self.deck_t.cnopt[c]), f"gain {f}")
            g = self.deck_t.cgain[c, j]
            for t in range(6):
                if g[t] > 0:
                    self.gain(p, t, int(g[t]))
            if g[6] > 0:
                self.prestige(p, "prosperous", int(g[6]))
        elif kt == 3:
            opts = [t for t in range(self.expedition_types) if self.supply[t] > 0]
            if opts:
                f = self.decide("gain", p)
                self.check(f["riches"] in opts and f["option"] == -1, f"expedition {f}: {opts}")
                self.gain(p, f["riches"], 1)
        elif kt == 4:
            for i in range(self.NP):
                self.gain((p + i) % self.NP, CACAO, 1)
        elif kt == 5:
            opts = [((p + i) % self.NP, t) for i in range(1, self.NP) for t in range(6)
                    if self.kings[(p + i) % self.NP].hand[t] > 0]
            if opts:
                f = self.decide("take", p)
                q, t = f["from_seat"], f["riches"]
                self.check((q, t) in opts, f"dowry {f}: {opts}")
                self.kings[q].hand[t] -= 1
                self.kings[p].hand[t] += 1

    def cenote(self, p):
        g = self.groups(p)
        for c2, st in enumerate(self.sites):
            if not st.cenote or self.peek(p) != "cenote" or self.events[self.i][2]["cenote"] != c2:
                continue
            f = self.decide("cenote", p)
            s, k = f["site"], f["space"]
            self.check((s, k) in self.mayas_tokens(p) and g[s] == g[c2], f"offering {f}")
            t = self.sites[s].token[k]
            pts = int(self.c.cenote_factor * self.c.points[t])
            self.check(f["riches"] == t and f["points"] == pts, f"offering {f}")
            self.sites[s].token[k] = None
            self.supply[t] += 1
            self.prestige(p, "cenote", pts)

    def turn_card(self, p, slot):
        c = self.slots[slot]
        self.slots[slot] = None
        self.cards_turned += 1
        kt = int(self.deck_t.ctype[c])
        self.kings[p].katun[kt] += 1
        if kt in self.neutral:
            # card impact's neutral cards: counted, no effect; a ball game still counts
            if kt == 7:
                self.balls += 1
            return
        if kt <= 5:
            self.gains(p, c, kt)
        elif kt == 6:
            self.cenote(p)
        elif kt == 7:
            self.balls += 1
            counts = [self.count(q, BALLCOURT) for q in range(self.NP)]
            aw = self.rank(counts, [self.cities(q) for q in range(self.NP)])
            for q in range(self.NP):
                if aw[q] > 0:
                    f = self.next("ball_game", q)
                    self.check((f["points"], f["courts"]) == (aw[q], counts[q]), f"ball {f}")
                    self.prestige(q, "ball", aw[q])
        elif kt == 8:
            self.eclipse_round = self.round
        else:
            # with catastrophes hitting all, the Volcano still strikes only the drawer
            victims = ([(p + i) % self.NP for i in range(self.NP)] if self.hit_all and kt != 15
                       else [p])
            for q in victims:
                self.catastrophe(q, kt)

    # ----------------------------------------------------------- distribution
    def distribute(self, p):
        g = self.groups(p)
        items, sinks = {}, {}
        nitems = 0
        for s, st in enumerate(self.sites):
            if st.owner != p:
                continue
            for k in range(st.spaces):
                if st.token[k] is not None:
                    items[(g[s], st.token[k])] = items.get((g[s], st.token[k]), 0) + 1
                    nitems += 1
                    st.token[k] = None
                b = st.building[k]
                if b in (TEMPLE, PALACE, GARRISON, RESERVE):
                    sinks[(s, k)] = [b, 2 if b in WIDE else 1]
        lost = [0] * 6
        for _ in range(nitems):
            f = self.decide("route", p)
            t, kind, s, k = f["riches"], f["sink"], f["site"], f["space"]
            if kind == DK_LOSE:
                lost[t] += 1
                self.supply[t] += 1
                continue
            x = sinks.get((s, k))
            self.check(x is not None and x[0] == DK_CODE[kind] and x[1] > 0
                       and (kind != DK_GARR or t == OBSID) and items.get((g[s], t), 0) > 0,
                       f"seat {p} routes {f}")
            x[1] -= 1
            items[(g[s], t)] -= 1
            if kind == DK_TEMPLE:
                self.prestige(p, "ceremony", self.pts[t])
                self.supply[t] += 1
            elif kind == DK_PALACE:
                self.kings[p].hand[t] += 1
            else:
                self.sites[s].token[k] = t
        left = [0] * 6
        for (_, t), n in items.items():
            left[t] += n
        self.check(left == lost, f"seat {p}: riches left {left}, recorded lost {lost}")

    # ----------------------------------------------------------- the game
    def play(self):
        deck, first = self.setup()
        for q in range(self.NP):
            self.gain(q, MAIZE, int(self.c.start_maize))
        cur = first
        pos = 0
        end = 0
        leaders = []
        while True:
            if self.round >= self.max_rounds:
                end = 2
                break
            n = min(self.NP + 1, len(deck) - pos)
            if n <= 0:
                end = 1
                break
            self.round += 1
            self.slots = deck[pos:pos + n]
            f = self.next("deal")
            self.check((f["round"], f["cards"], f["position"], f["first"]) ==
                       (self.round, n, pos, cur), f"deal {f}")
            pos += n
            rfirst = cur
            self.divination(rfirst, n)
            for q in range(self.NP):
                if self.known[q]:
                    self.check(self.next("divine", q)["slots"] == self.known[q], "divination")
            turns = 0
            while True:
                p = cur
                turns += 1
                self.turns += 1
                self.kings[p].t["turns_taken"] += 1
                self.turn(p, turns > self.max_turns)
                if all(x is None for x in self.slots):
                    break
                cur = (cur + 1) % self.NP
            last = cur
            self.production(rfirst)
            final = self.balls >= self.target
            for i in range(self.NP):
                self.distribute((rfirst + i) % self.NP)
            if self.eclipse_round == 0:
                for i in range(self.NP):
                    self.gain((rfirst + i) % self.NP, MAIZE, int(self.c.chaak_maize))
                self.check(self.next("chaak")["maize"] == int(self.c.chaak_maize), "Chaak")
            cur = (last + 1) % self.NP
            leaders.append(self.sole_leader())
            if final:
                end = 0
                break
        for q in range(self.NP):
            b = sum(self.kings[q].hand) // 2
            self.prestige(q, "bonus", b)
            f = self.next("bonus", q)
            self.check((f["points"], f["prestige"]) == (b, self.kings[q].prestige), "bonus")
        f = self.next("end")
        self.check((f["reason"], f["rounds"]) == (end, self.round), f"end {f}")
        self.check(self.i == len(self.events), "events left after the end of the game")
        self.end, self.first = end, first
        # drama: the sole prestige leader after each round, the final standing for the last
        if leaders:
            leaders[-1] = self.sole_leader()
        winner = leaders[-1] if leaders and end != 2 else -1
        changes, last_leader = 0, -1
        for x in leaders:
            if x >= 0:
                if last_leader >= 0 and x != last_leader:
                    changes += 1
                last_leader = x
        settled = -1
        if winner >= 0:
            r = len(leaders)
            while r > 0 and leaders[r - 1] == winner:
                r -= 1
            settled = 100 * r // len(leaders)
        self.lead_changes, self.lead_settled = changes, settled
        return self


def engine(record) -> Replay:
    """The replayed game of a record (its state at the end, ``divined``, ``actions``)."""
    from sim.games.balam import _ball_target
    rules, players = record.rules, record.players
    board = D.load_board(D.resolve_file(rules["board"], "board"))
    deck = D.load_deck(D.resolve_file(rules["katun"], "katun"))
    comp = D.load_components(D.resolve_file(rules["components"], "components"))
    g = Replay(record, board, deck, comp, players, _ball_target(rules, players), record.seed,
               record.index, max_rounds=rules["horizon"], hit_all=rules["catastrophes"] == "all",
               forest_only=rules["village_production"] == "forest",
               control_sum=rules["control"] == "sum", eclipse_jitter=rules["eclipse_jitter"],
               max_turns=rules["max_turns"],
               expedition_types=6 if rules["expedition"] == "any" else 5,
               random_piles=rules["piles"] == "random",
               neutral=() if rules["neutral_cards"] == "none" else rules["neutral_cards"],
               random_layout=rules["layout"] == "random")
    return g.play()


def replay(record) -> dict:
    """Replay a recorded game: its result columns (per-seat ones as sim.results names them)."""
    from sim.results import seat_column
    g = engine(record)
    cols = g.columns()
    out = {}
    for name, v in cols.items():
        if isinstance(v, list):
            for s, x in enumerate(v):
                out[seat_column(name, s)] = x
        else:
            out[name] = v
    best = max(cols["prestige"])
    tops = [q for q in range(g.NP) if cols["prestige"][q] == best]
    for s in range(g.NP):
        out[seat_column("win", s)] = (1.0 / g.NP if cols["capped"]
                                      else (1.0 / len(tops) if s in tops else 0.0))
    out.update(how_it_plays(g.choices, g.NP, flat=True))
    return out

