"""A plain-Python Balam engine, written from seeds/balam/RULES.md, for every bot.

It replays the kernel's games on the same random streams (sim.rng.Stream) and must
produce the same recorded columns.  It follows the rules section by section and the
random bot's documented choice order (RULES.md, Bots), not the kernel's data layout.

The heuristic bots (builder, warlord, merchant, priest) are a port of the kernel's
heuristic code (sim/games/balam/kernel.py: heuristic_turn, plan_site, building_value,
econ, card_values, dist_values, solve_assignment, the defender's, catastrophe, cenote
and card choices), with the same floating-point operations in the same order, so
that their values and ties come out bit for bit as in the kernel.  They evaluate on a
snapshot of the board in the kernel's layout (``own``, ``bld``, ``tok``: see
``Balam.snap``) and act through this engine's own rule methods.

Chance (RULES.md, Chance): every purpose draws from its own substream of (seed, game):
the layout, the deck's keys per card identity, the piles, the Eclipse, the first player
and each war's dice.  Ties (RULES.md, Bots): values within 1e-9 (relative) are equal and
the bot draws among equals on its own stream (``take``, the reservoir rule of
sim.rng.tie_wins).
"""
from __future__ import annotations

from sim.games.balam import data as D
from sim.rng import (DECK, DICE, GAME_PURPOSES, SETUP, Stream, py_game_base, py_keyed_order,
                     py_mix64)

P_LAYOUT, P_PILES, P_ECLIPSE = GAME_PURPOSES, GAME_PURPOSES + 1, GAME_PURPOSES + 2
_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def cmp_tie(v, best):
    """The kernel's cmp_tie: 1 better, 0 equal (within 1e-9 relative), -1 worse."""
    tol = 1e-9 * max(1.0, abs(best))
    if v > best + tol:
        return 1
    if v >= best - tol:
        return 0
    return -1


def take(stream, v, best, ties):
    """The kernel's take: one argmax step with uniform ties on ``stream``."""
    d = cmp_tie(v, best)
    if d > 0:
        return True, v, 1
    if d == 0:
        ties += 1
        return stream.rand_int(ties) == 0, best, ties
    return False, best, ties


def pick(stream, n):
    """A uniform index in [0, n), no draw when n == 1."""
    return 0 if n <= 1 else stream.rand_int(n)


def choose_subset(stream, opts, n):
    """A uniform n of ``opts`` (the kernel's partial Fisher-Yates), in the kernel's order."""
    opts = list(opts)
    m = len(opts)
    if n >= m:
        return opts[:n]
    for i in range(n):
        j = i + pick(stream, m - i)
        opts[i], opts[j] = opts[j], opts[i]
    return opts[:n]


def pay_sequence(stream, hv):
    """The kernel's pay_sequence: types by value in hand (insertion sort, equal values in
    type order), then each run of equal values shuffled (Fisher-Yates on ``stream``)."""
    seq = []
    for i in range(6):
        j = len(seq)
        while j > 0 and cmp_tie(hv[seq[j - 1]], hv[i]) > 0:
            j -= 1
        seq.insert(j, i)
    i = 0
    while i < 6:
        e = i + 1
        while e < 6 and cmp_tie(hv[seq[e]], hv[seq[i]]) == 0:
            e += 1
        for a in range(e - 1, i, -1):
            b = i + stream.rand_int(a - i + 1)
            seq[a], seq[b] = seq[b], seq[a]
        i = e
    return seq


def layout_hash(infos):
    """The kernel's layout_hash: the contents of the tile on each cell, in cell order."""
    h = 0
    for sp, col, forest, sea, volc, cen in infos:
        code = sp + 8 * col + 64 * forest + 128 * sea + 256 * volc + 512 * cen
        h = py_mix64((h + code + _GOLDEN) & _MASK)
    return h >> 1

MAIZE, CACAO, SHELL, JADE, OBSID, PRIS = range(6)
VILLAGE, GARRISON, PALACE, TEMPLE, MARKET, RESERVE, BALLCOURT, OBSERV = range(1, 9)
TILE_OF = {b: (b - 1) // 2 for b in range(1, 9)}
EMPTY, CONT = 0, 9
RANDOM = 0  # bot id of the random bot
(BW_PRES, BW_HAND, BW_RES, BW_BUILD, BW_EXPAND, BW_WAR, BW_MARKET, BW_BALL, BW_RISK,
 BW_TEMPLE, BW_PALACE, BW_PLANS) = range(12)
NBW = 12
DK_TEMPLE, DK_PALACE, DK_GARR, DK_RESERVE, DK_LOSE = range(5)
DK_CODE = {DK_TEMPLE: TEMPLE, DK_PALACE: PALACE, DK_GARR: GARRISON, DK_RESERVE: RESERVE}
PRIORITY = [0, 2, 7, 5, 6, 8, 1, 4, 3, 0]
NK = 17
K_VOLCANO, K_TIDAL, K_DECAD = 15, 16, 14
WIDE = (PALACE, TEMPLE)
CATASTROPHES = {  # card type: (riches paid, how many, building lost, how many)
    9: (MAIZE, 1, VILLAGE, 2), 10: (MAIZE, 1, PALACE, 1), 11: (PRIS, 1, TEMPLE, 1),
    12: (PRIS, 1, MARKET, 2), 13: (PRIS, 1, GARRISON, 2), 14: (PRIS, 1, None, 0),
    15: (PRIS, 2, "volcano", 0), 16: (PRIS, 2, "seashore", 0),
}


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
    def __init__(self, board, deck, comp, players, ball_target, seed, game, max_rounds=40,
                 hit_all=False, forest_only=False, control_sum=False, eclipse_jitter=0,
                 max_turns=400, bot_ids=None, bot_par=None, posb=0, expedition_types=6,
                 random_piles=False, neutral=(), random_layout=True):
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
        self.bot = [Stream(seed, game, 1 + p) for p in range(players)]
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
        S = len(self.sites)
        self.bot_ids = [RANDOM] * players if bot_ids is None else [int(x) for x in bot_ids]
        # the kernel's with_site_terms: weights, then per site the founding bonus and the
        # volcano/sea exposure
        self.W = []
        for q in range(players):
            w = [0.0] * (NBW + 2 * S)
            if bot_par is not None:
                for i in range(NBW):
                    w[i] = float(bot_par[q][i])
            for x in range(S):
                st = self.sites[x]
                w[NBW + x] = w[BW_EXPAND] * (0.6 + 0.15 * st.spaces + 0.1 * st.cenote)
                w[NBW + S + x] = w[BW_RISK] * 0.3 * (st.volcano + st.seashore)
            self.W.append(w)
        self.posb = posb
        self.pts = [int(x) for x in comp.points]
        self.kcnt = [int((deck.ctype == kt).sum()) for kt in range(NK)]
        self.seen = [0] * NK
        self.known = [0] * players
        self.dpos = 0
        self.slots = []
        self.divined = set()   # card types some king saw by divination (for the tests)

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

    def buildable_somehow(self, p, s, hand):
        return any(self.can_build(p, s, c, hand) for c in range(1, 9))

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

    # ----------------------------------------------------------- transport
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

    # ----------------------------------------------------------- deck
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

    # ----------------------------------------------------------- ranking
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

    # ----------------------------------------------------------- random bot pieces
    def pay_any(self, p, n):
        for _ in range(n):
            held = [t for t in range(6) if self.kings[p].hand[t] > 0]
            t = held[self.bot[p].rand_int(len(held))]
            self.kings[p].hand[t] -= 1
            self.supply[t] += 1

    def pay_for(self, p, code):
        b = code - 1
        kind = int(self.c.cost_kind[b])
        if kind >= 0:
            self.kings[p].hand[kind] -= int(self.c.cost_n[b])
            self.supply[kind] += int(self.c.cost_n[b])
        else:
            self.pay_any(p, int(self.c.cost_any[b]))

    def build_loop(self, p, s, must):
        first = True
        while True:
            opts = [] if (first and must) else [0]
            opts += [c for c in range(1, 9) if self.can_build(p, s, c, self.kings[p].hand)]
            if not opts:
                return
            c = opts[self.bot[p].rand_int(len(opts))]
            if c == 0:
                return
            self.pay_for(p, c)
            self.place(p, s, c)
            first = False

    # ----------------------------------------------------------- war
    def attack(self, p, a, b, k, o):
        A, B = self.sites[a], self.sites[b]
        q = B.owner
        self.kings[p].t["wars"] += 1
        self.kings[q].t["attacked"] += 1
        spend = o  # the attacker's obsidian, from his garrisons holding it
        for kk in self.garrisons(a):
            if spend > 0 and A.token[kk] == OBSID:
                A.token[kk] = None
                self.supply[OBSID] += 1
                spend -= 1
        friends = [b] + [x for x in self.nbrs[b] if self.sites[x].owner == q]
        base = sum(len(self.garrisons(x)) for x in friends)
        obs = [(x, kk) for x in friends for kk in self.garrisons(x) if self.sites[x].token[kk] == OBSID]
        if not obs:
            od = 0
        elif self.bot_ids[q] == RANDOM:
            od = self.bot[q].rand_int(len(obs) + 1)
        else:  # heuristic defender: enough obsidian to cover the expected attack
            mean, _ = self.die_stats()
            need = k * mean + o + 1.0 - base
            od = 0
            while od < len(obs) and od < need:
                od += 1
            if k * 3 + o <= base:
                od = 0
        if obs:   # which obsidian: uniformly among the defender's (his stream)
            for x, kk in choose_subset(self.bot[q], obs, od):
                self.sites[x].token[kk] = None
                self.supply[OBSID] += 1
        dice = Stream.substream(self.seed, self.game, DICE, self.wars)   # this war's dice
        self.wars += 1
        succ = skulls = 0
        for _ in range(k):
            f = int(self.c.faces[dice.rand_int(len(self.c.faces))])
            if f < 0:
                skulls += 1
            else:
                succ += f
        for _ in range(skulls):
            gl = self.garrisons(a)
            if not gl:
                break
            if self.bot_ids[p] == RANDOM:
                kk = gl[self.bot[p].rand_int(len(gl))]
            else:  # an empty garrison first, equals uniformly
                kk = gl[0]
                bv, ties = -1e18, 0
                for x in gl:
                    ok, bv, ties = take(self.bot[p], 1.0 if A.token[x] is None else 0.0, bv, ties)
                    if ok:
                        kk = x
            self.remove(a, kk)
            self.kings[p].t["garrisons_lost"] += 1
        pts = succ + o - (base + od)
        destroyed = 0
        heur = self.bot_ids[p] != RANDOM
        wipe = heur and pts >= sum(2 if bb in WIDE else 1 for _, bb in B.buildings())
        while pts > 0:
            cand = [kk for kk, bb in B.buildings() if (2 if bb in WIDE else 1) <= pts]
            if not cand:
                break
            if not heur:
                kk = cand[self.bot[p].rand_int(len(cand))]
            elif wipe:
                kk = cand[0]
            else:  # the most valuable building first (PRIORITY), equals uniformly
                kk = cand[0]
                bv, ties = -1e18, 0
                for x in cand:
                    ok, bv, ties = take(self.bot[p], PRIORITY[B.building[x]] + 0.0, bv, ties)
                    if ok:
                        kk = x
            code = self.remove(b, kk)
            pts -= 2 if code in WIDE else 1
            destroyed += 1
            self.kings[q].t["buildings_lost"] += 1
            self.kings[p].t["buildings_destroyed"] += 1
        for _ in range(destroyed):
            if self.supply[PRIS] <= 0:
                break
            free = [kk for kk in self.garrisons(a) if A.token[kk] is None]
            if not free:
                break
            A.token[free[0]] = PRIS
            self.supply[PRIS] -= 1
            self.kings[p].t["prisoners"] += 1

    # ----------------------------------------------------------- Katun
    def mayas_tokens(self, p, t=None):
        return [(s, k) for s, st in enumerate(self.sites) if st.owner == p
                for k, b in st.buildings() if b in (RESERVE, GARRISON) and st.token[k] is not None
                and (t is None or st.token[k] == t)]

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
        tokens = self.mayas_tokens(p, pay_t)
        pay = False
        if len(tokens) >= pay_n:
            if self.bot_ids[p] == RANDOM:
                pay = self.bot[p].rand_int(2) == 1
            else:
                keep = pay_n * (1.0 + 0.1 * self.pts[pay_t])
                d = cmp_tie(self.loss_value(p, kt, self.rounds_left()), keep)
                pay = d > 0 or (d == 0 and self.bot[p].rand_int(2) == 0)
        if pay:   # which tokens: uniformly among those holding the riches
            for s, k in choose_subset(self.bot[p], tokens, pay_n):
                self.sites[s].token[k] = None
                self.supply[pay_t] += 1
            self.kings[p].t["catastrophes_paid"] += 1
            return
        self.kings[p].t["catastrophes_suffered"] += 1
        lost = 0
        if what in ("volcano", "seashore"):
            for s in hit:
                for k, _ in self.sites[s].buildings():
                    self.remove(s, k)
                    lost += 1
        else:
            losses = [(BALLCOURT, 1), (OBSERV, 1)] if kt == 14 else [(what, n)]
            for code, m in losses:
                for _ in range(m):
                    cand = [(s, k) for s, st in enumerate(self.sites) if st.owner == p
                            for k, b in st.buildings() if b == code]
                    if not cand:
                        break
                    if self.bot_ids[p] == RANDOM:
                        s, k = cand[self.bot[p].rand_int(len(cand))]
                    else:   # every building of the code is worth the same: uniformly
                        s, k = cand[pick(self.bot[p], len(cand))]
                    self.remove(s, k)
                    lost += 1
        self.kings[p].t["buildings_lost_katun"] += lost

    def turn_card(self, p, slot):
        c = self.slots[slot]
        self.slots[slot] = None
        self.cards_turned += 1
        kt = int(self.deck_t.ctype[c])
        self.kings[p].katun[kt] += 1
        self.seen[kt] += 1
        if kt in self.neutral:
            # card impact's neutral cards: counted, no effect; a ball game still counts
            if kt == 7:
                self.balls += 1
            return
        rnd = self.bot[p]
        heur = self.bot_ids[p] != RANDOM
        if kt in (0, 1, 2):
            no = int(self.deck_t.cnopt[c])
            j = 0
            if no > 1 and not heur:
                j = rnd.rand_int(no)
            elif no > 1:
                W = self.W[p]
                hv = self.hand_values(W)
                bv, ties = -1e18, 0
                for i in range(no):
                    gi = [int(x) for x in self.deck_t.cgain[c, i]]
                    v = gi[6] * W[BW_PRES]
                    for t in range(6):
                        v += gi[t] * hv[t]
                    for t in range(6):  # what the supply cannot give is worth nothing
                        if gi[t] > self.supply[t]:
                            v -= (gi[t] - self.supply[t]) * hv[t]
                    ok, bv, ties = take(rnd, v, bv, ties)
                    if ok:
                        j = i
            g = self.deck_t.cgain[c, j]
            for t in range(6):
                if g[t] > 0:
                    self.gain(p, t, int(g[t]))
            if g[6] > 0:
                self.prestige(p, "prosperous", int(g[6]))
        elif kt == 3:
            opts = [t for t in range(self.expedition_types) if self.supply[t] > 0]
            if opts and not heur:
                self.gain(p, opts[rnd.rand_int(len(opts))], 1)
            elif opts:
                hv = self.hand_values(self.W[p])
                t = opts[0]
                bv, ties = -1e18, 0
                for x in opts:
                    ok, bv, ties = take(rnd, hv[x], bv, ties)
                    if ok:
                        t = x
                self.gain(p, t, 1)
        elif kt == 4:
            for i in range(self.NP):
                self.gain((p + i) % self.NP, CACAO, 1)
        elif kt == 5:
            opts = [((p + i) % self.NP, t) for i in range(1, self.NP) for t in range(6)
                    if self.kings[(p + i) % self.NP].hand[t] > 0]
            if opts:
                if not heur:
                    q, t = opts[rnd.rand_int(len(opts))]
                else:
                    hv = self.hand_values(self.W[p])
                    q, t = opts[0]
                    bv, ties = -1e18, 0
                    for q2, t2 in opts:
                        v = hv[t2] + 0.01 * self.kings[q2].prestige
                        ok, bv, ties = take(rnd, v, bv, ties)
                        if ok:
                            q, t = q2, t2
                self.kings[q].hand[t] -= 1
                self.kings[p].hand[t] += 1
        elif kt == 6:
            g = self.groups(p)
            for c2, st in enumerate(self.sites):
                if not st.cenote:
                    continue
                opts = [(s, k) for s, k in self.mayas_tokens(p) if g[s] == g[c2]]
                if not opts:
                    continue
                if not heur:
                    r = rnd.rand_int(len(opts) + 1)
                    if r == len(opts):
                        continue
                    s, k = opts[r]
                else:  # the riches worth most temple points (equals uniformly); none: keep
                    x = None
                    bv, ties = -1e18, 0
                    for s2, k2 in opts:
                        pts = self.pts[self.sites[s2].token[k2]]
                        if pts <= 0:
                            continue
                        ok, bv, ties = take(rnd, pts + 0.0, bv, ties)
                        if ok:
                            x = (s2, k2)
                    if x is None:
                        continue
                    s, k = x
                t = self.sites[s].token[k]
                self.sites[s].token[k] = None
                self.supply[t] += 1
                self.prestige(p, "cenote", int(self.c.cenote_factor * self.c.points[t]))
        elif kt == 7:
            self.balls += 1
            counts = [self.count(q, BALLCOURT) for q in range(self.NP)]
            aw = self.rank(counts, [self.cities(q) for q in range(self.NP)])
            for q in range(self.NP):
                if aw[q] > 0:
                    self.prestige(q, "ball", aw[q])
        elif kt == 8:
            self.eclipse_round = self.round
        else:
            # with catastrophes hitting all, the Volcano still strikes only the drawer
            victims = ([(p + i) % self.NP for i in range(self.NP)] if self.hit_all and kt != 15
                       else [p])
            for q in victims:
                self.catastrophe(q, kt)

    # ----------------------------------------------------------- a turn
    def random_turn(self, p):
        K = self.kings[p]
        acts = [("card",)]
        if sum(K.hand) >= 1:
            acts.append(("pass",))
            for s, st in enumerate(self.sites):
                if st.owner not in (p, None):
                    continue
                if any(self.buildable_somehow(p, s, self._minus(K.hand, t))
                       for t in range(6) if K.hand[t] > 0):
                    acts.append(("build", s))
            for a, st in enumerate(self.sites):
                if st.owner != p or not self.garrisons(a):
                    continue
                for b in self.nbrs[a]:
                    if self.sites[b].owner not in (None, p):
                        acts.append(("attack", a, b))
        act = acts[self.bot[p].rand_int(len(acts))]
        if act[0] == "card":
            slots = [k for k in range(len(self.slots)) if self.slots[k] is not None]
            self.turn_card(p, slots[self.bot[p].rand_int(len(slots))])
        elif act[0] == "pass":
            self.pay_any(p, 1)
            K.t["passes"] += 1
        elif act[0] == "build":
            s = act[1]
            taxes = [t for t in range(6) if K.hand[t] > 0
                     and self.buildable_somehow(p, s, self._minus(K.hand, t))]
            t = taxes[self.bot[p].rand_int(len(taxes))]
            K.hand[t] -= 1
            self.supply[t] += 1
            self.build_loop(p, s, True)
        else:
            _, a, b = act
            self.pay_any(p, 1)
            g = len(self.garrisons(a))
            k = 1 + self.bot[p].rand_int(g)
            ob = sum(1 for kk in self.garrisons(a) if self.sites[a].token[kk] == OBSID)
            o = self.bot[p].rand_int(min(k, ob) + 1)
            self.attack(p, a, b, k, o)
            if self.sites[b].owner is None:
                self.build_loop(p, b, False)

    @staticmethod
    def _minus(hand, t):
        h = list(hand)
        h[t] -= 1
        return h

    # ----------------------------------------------------------- heuristic bots
    # A port of the kernel's heuristic (sim/games/balam/kernel.py), same operations in
    # the same order.  Board arrays in the kernel's layout: own[s] (-1 none), bld[s][k]
    # (0 empty, 9 second space of a palace/temple), tok[s][k] (-1 none).
    def snap(self):
        S = len(self.sites)
        own = [-1 if st.owner is None else st.owner for st in self.sites]
        bld = [[EMPTY] * 4 for _ in range(S)]
        tok = [[-1] * 4 for _ in range(S)]
        for s, st in enumerate(self.sites):
            for k in range(st.spaces):
                b = st.building[k]
                bld[s][k] = EMPTY if b is None else (CONT if b == "cont" else b)
                tok[s][k] = -1 if st.token[k] is None else st.token[k]
        return own, bld, tok

    def die_stats(self):
        m = 0.0
        sk = 0.0
        nf = len(self.c.faces)
        for i in range(nf):
            f = int(self.c.faces[i])
            if f < 0:
                sk += 1.0
            else:
                m += f
        return m / nf, sk / nf

    def rounds_left(self):
        if self.balls >= self.target:
            return 1.0
        left = sum(1 for x in self.slots if x is not None)
        d = self.posb + 1 - self.dpos + left
        if d < 0:
            d = 0
        return 1.0 + d / (self.NP + 1.0)

    def hand_values(self, W):
        wh = W[BW_HAND]
        hv = [0.9 * wh, 1.15 * wh, 1.05 * wh, 1.0 * wh, 1.0 * wh, 1.1 * wh]
        if self.balls >= self.target:
            hv = [0.5 * W[BW_PRES]] * 6
        return hv

    def econ(self, vc, nT, nP, nR, W, last):
        pts = self.pts
        pts_nm = 0.0
        nm = 0
        for c in range(1, 5):
            nm += vc[c]
            pts_nm += vc[c] * pts[c]
        mz = vc[0]
        tcap = 2 * nT
        avg_nm = pts_nm / nm if nm > 0 else 2.0
        a = min(nm, tcap)
        b = min(mz, tcap - a)
        v = W[BW_PRES] * (a * avg_nm + b * pts[MAIZE])
        r = nm + mz - a - b
        pc = min(r, 2 * nP)
        hvv = 0.5 * W[BW_PRES] if last else W[BW_HAND]
        v += hvv * pc
        r -= pc
        if not last:
            rc = min(r, nR)
            v += 0.5 * W[BW_RES] * rc
            r -= rc
            v += 0.35 * W[BW_HAND] * r
        return v

    def player_counts(self, own, bld, p):
        cnt = [0] * 16
        for s in range(len(own)):
            if own[s] == p:
                self.count_city(bld, s, cnt)
        return cnt

    def count_city(self, bld, s, cnt):
        """Add own city s to the counts: producing villages by colour, buildings by code,
        cities."""
        cnt[15] += 1
        st = self.sites[s]
        for c in bld[s]:
            if c == VILLAGE:
                if not self.forest_only or st.forest == 1:
                    cnt[st.colour] += 1
            if 1 <= c <= 8:
                cnt[5 + c] += 1

    def building_value(self, own, bld, W, p, s, code, cnt, rl, last, riv_bc, riv_ob, base):
        vc = cnt  # cnt[0:5]
        nT = cnt[5 + TEMPLE]
        nP = cnt[5 + PALACE]
        nR = cnt[5 + RESERVE]
        st = self.sites[s]
        v = 0.0
        if code == VILLAGE:
            if self.forest_only and st.forest == 0:
                return -1.0
            c = st.colour
            vc[c] += 1
            v = (self.econ(vc, nT, nP, nR, W, last) - base) * rl
            vc[c] -= 1
        elif code == TEMPLE:
            v = (self.econ(vc, nT + 1, nP, nR, W, last) - base) * rl * W[BW_TEMPLE]
        elif code == PALACE:
            v = (self.econ(vc, nT, nP + 1, nR, W, last) - base) * rl * W[BW_PALACE]
        elif code == RESERVE:
            if last:
                return 0.0
            v = (self.econ(vc, nT, nP, nR + 1, W, last) - base) * rl
            v += W[BW_RES] * (0.9 if nR < 2 else 0.25)
        elif code == GARRISON:
            if last:
                return 0.0
            threat = 0
            enemies = 0
            for x in self.nbrs[s]:
                if own[x] >= 0 and own[x] != p:
                    enemies += 1
                    threat += bld[x].count(GARRISON)
            mydef = bld[s].count(GARRISON)
            if enemies > 0:
                v = W[BW_WAR] * (0.6 + 0.5 * max(0, min(threat + 1 - mydef, 3)))
            else:
                v = 0.15 * W[BW_WAR]
        elif code == MARKET:
            if last:
                return 0.0
            inf = 0
            for x in self.nbrs[s]:
                if own[x] >= 0:
                    inf += 1
            v = W[BW_MARKET] * (0.5 + 0.35 * inf) * min(rl, 3.0) * 0.5
        elif code == BALLCOURT:
            mine = cnt[5 + BALLCOURT]
            bl = min(rl / 3.0, self.target + 0.0)
            if mine + 1 > riv_bc:
                gainf = 0.2 if mine > riv_bc else (0.6 if mine == riv_bc else 1.0)
            else:
                gainf = 0.1
            v = W[BW_BALL] * W[BW_PRES] * gainf * (cnt[15] + 1) * bl * 0.6
        elif code == OBSERV:
            if last:
                return 0.0
            mine = cnt[5 + OBSERV]
            if mine > riv_ob:
                f = 0.1
            else:
                NJ = self.NP
                gain = (divined(mine + 1, riv_ob, NJ) - divined(mine, riv_ob, NJ)
                        + 0.5 * (divined(riv_ob, mine, NJ) - divined(riv_ob, mine + 1, NJ)))
                f = 6.0 * gain / NJ if gain > 0 else 0.2
            v = 0.25 * W[BW_RISK] * f * rl
        return v * W[BW_BUILD]

    def cheapest_held(self, hand, hv):
        """The first held type in this turn's payment order (self.pay_seq)."""
        for t in self.pay_seq:
            if hand[t] > 0:
                return t
        return -1

    def cost_value(self, hand, hv, code, spend):
        b = code - 1
        for t in range(6):
            spend[t] = 0
        kind = int(self.c.cost_kind[b])
        if kind >= 0:
            spend[kind] = int(self.c.cost_n[b])
            return hv[kind] * int(self.c.cost_n[b])
        v = 0.0
        for _ in range(int(self.c.cost_any[b])):
            best = next((t for t in self.pay_seq if hand[t] - spend[t] > 0), -1)
            if best < 0:
                break
            spend[best] += 1
            v += hv[best]
        return v

    def can_afford(self, hand, code):
        b = code - 1
        kind = int(self.c.cost_kind[b])
        if kind >= 0:
            return hand[kind] >= int(self.c.cost_n[b])
        return sum(hand) >= int(self.c.cost_any[b])

    def afford_mask(self, hand):
        m = 0
        for code in range(1, 9):
            if self.can_afford(hand, code):
                m |= 1 << code
        return m

    def tile_mask(self):
        """Bit mask (bit = code) of the buildings whose tile stack is not empty."""
        m = 0
        for i in range(4):   # tile stack i holds codes 2i+1 and 2i+2
            if self.tiles[i] > 0:
                m |= 3 << (2 * i + 1)
        return m

    def fit_mask(self, own, bld, large, p, s):
        if own[s] != p and own[s] != -1:
            return 0
        if own[s] == -1 and large <= 0:
            return 0
        one = True
        two = True
        if own[s] == p:
            n = self.sites[s].spaces
            one = False
            two = False
            for k in range(n):
                if bld[s][k] == EMPTY:
                    one = True
                    if k + 1 < n and bld[s][k + 1] == EMPTY:
                        two = True
            if not one:
                return 0
        m = self.tile_mask()
        if not two:
            m &= ~((1 << PALACE) | (1 << TEMPLE))
        if self.kings[p].small < 1 + len(self.nbrs[s]):
            m &= ~(1 << MARKET)
        return m

    def find_space(self, bld, s, code):
        n = self.sites[s].spaces
        if code not in WIDE:
            for k in range(n):
                if bld[s][k] == EMPTY:
                    return k
            return -1
        for k in range(n - 1):
            if bld[s][k] == EMPTY and bld[s][k + 1] == EMPTY:
                return k
        return -1

    def plan_site(self, own, bld, W, p, s, hand, cnt, hv, rl, last, riv_bc, riv_ob):
        """Greedy plan on site s with ``hand`` (already taxed).  Returns (value, plan).
        hand, bld, own and cnt are restored."""
        S = len(own)
        sb = list(bld[s])
        hand0 = list(hand)
        total = 0.0
        plan = []
        owner0 = own[s]
        large = self.kings[p].large
        spend = [0] * 6
        st = self.sites[s]
        while len(plan) < 4:
            best = -1
            bv, ties, bval = -1e18, 0, 0.0
            fm = self.fit_mask(own, bld, large, p, s) & self.afford_mask(hand)
            base = 0.0
            if fm & ((1 << VILLAGE) | (1 << TEMPLE) | (1 << PALACE) | (1 << RESERVE)):
                base = self.econ(cnt, cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], W,
                                 last)
            for code in range(1, 9):
                if (fm >> code) & 1 == 0:
                    continue
                v = self.building_value(own, bld, W, p, s, code, cnt, rl, last, riv_bc, riv_ob,
                                        base)
                v -= self.cost_value(hand, hv, code, spend)
                if own[s] == -1:
                    v += W[NBW + s]
                    v -= W[NBW + S + s]
                if v <= 0.05:
                    continue
                ok, bv, ties = take(self.bot[p], v, bv, ties)
                if ok:
                    best, bval = code, v
            if best < 0:
                break
            self.cost_value(hand, hv, best, spend)
            for t in range(6):
                hand[t] -= spend[t]
            k = self.find_space(bld, s, best)
            bld[s][k] = best
            if best in WIDE:
                bld[s][k + 1] = CONT
            if own[s] == -1:
                own[s] = p
                large -= 1
                cnt[15] += 1
            if best == VILLAGE:
                if not self.forest_only or st.forest == 1:
                    cnt[st.colour] += 1
            cnt[5 + best] += 1
            plan.append(best)
            total += bval
        for c in plan:
            if c == VILLAGE:
                if not self.forest_only or st.forest == 1:
                    cnt[st.colour] -= 1
            cnt[5 + c] -= 1
        bld[s] = sb
        hand[:] = hand0
        if own[s] != owner0:
            own[s] = owner0
            cnt[15] -= 1
        return total, plan

    def per_value(self, code, rl, W):
        if code == VILLAGE:
            return 0.9 * rl
        if code == PALACE:
            return 1.2 * rl
        if code == TEMPLE:
            return 1.8 * rl
        if code == MARKET or code == BALLCOURT:
            return 1.5
        if code == EMPTY or code == CONT:
            return 0.0
        return 1.0

    def loss_value(self, p, kt, rl):
        own, bld, _ = self.snap()
        W = self.W[p]
        pay_t, pay_n, what, n = CATASTROPHES[kt]
        v = 0.0
        if kt == K_VOLCANO or kt == K_TIDAL:
            for s in range(len(own)):
                st = self.sites[s]
                flag = st.volcano if kt == K_VOLCANO else st.seashore
                if own[s] == p and flag == 1:
                    v += 1.0 * W[BW_EXPAND]
                    for k in range(4):
                        v += self.per_value(bld[s][k], rl, W)
            return v
        if kt == K_DECAD:
            if self.count(p, BALLCOURT) > 0:
                v += self.per_value(BALLCOURT, rl, W)
            if self.count(p, OBSERV) > 0:
                v += self.per_value(OBSERV, rl, W)
            return v
        return self.per_value(what, rl, W) * min(n, self.count(p, what))

    def dist_values(self, W, last):
        hv = self.hand_values(W)
        pts = self.pts
        val = [[0.0] * 5 for _ in range(6)]
        for t in range(6):
            val[t][DK_TEMPLE] = W[BW_PRES] * pts[t]
            val[t][DK_PALACE] = hv[t] * (1.0 if last else W[BW_PALACE])
            val[t][DK_GARR] = -1.0
            if last:
                val[t][DK_RESERVE] = 0.0
            else:
                ins = 1.0 if (t == MAIZE or t == PRIS) else 0.6
                val[t][DK_RESERVE] = W[BW_RES] * ins + 0.2 * max(pts[t], hv[t])
            val[t][DK_LOSE] = 0.0
        val[OBSID][DK_GARR] = 0.0 if last else 0.9 * W[BW_WAR] + 0.2
        return val

    def scan_board(self, own, bld, tok, W, p, rl):
        cnt = [0] * 16
        per = [0] * 12
        pv = [self.per_value(c, rl, W) for c in range(10)]
        onb = [0] * 6
        volc = 0.0
        sea = 0.0
        nvolc = 0
        nsea = 0
        nc = 0
        for s in range(len(own)):
            st = self.sites[s]
            nc += st.cenote
            q = own[s]
            if q < 0:
                continue
            per[8 + q] += 1
            if q != p:
                for k in range(4):
                    c = bld[s][k]
                    if c == BALLCOURT:
                        per[q] += 1
                    elif c == OBSERV:
                        per[4 + q] += 1
                continue
            self.count_city(bld, s, cnt)
            cityv = W[BW_EXPAND]
            for k in range(4):
                c = bld[s][k]
                cityv += pv[c]
                if tok[s][k] >= 0:
                    onb[tok[s][k]] += 1
            if st.volcano == 1:
                volc += cityv
                nvolc += 1
            if st.seashore == 1:
                sea += cityv
                nsea += 1
        per[p] = cnt[5 + BALLCOURT]
        per[4 + p] = cnt[5 + OBSERV]
        return cnt, per, onb, (nc, volc, nvolc, sea, nsea)

    def rank_award(self, counts, first_pts, second_pts):
        NP = self.NP
        award = [0] * NP
        m1 = 0
        for q in range(NP):
            if counts[q] > m1:
                m1 = counts[q]
        if m1 == 0:
            return award
        n1 = sum(1 for q in range(NP) if counts[q] == m1)
        if n1 == 1:
            m2 = 0
            for q in range(NP):
                if m1 > counts[q] > m2:
                    m2 = counts[q]
            n2 = sum(1 for q in range(NP) if m2 > 0 and counts[q] == m2)
            for q in range(NP):
                if counts[q] == m1:
                    award[q] = first_pts[q]
                elif n2 == 1 and counts[q] == m2:
                    award[q] = second_pts[q]
        elif n1 == 2:
            for q in range(NP):
                if counts[q] == m1:
                    award[q] = first_pts[q] // 2
        return award

    def card_values(self, W, p, hv, rl, cnt, per, onb, scan):
        NP = self.NP
        nc, volc, nvolc, sea, nsea = scan
        cv = [0.0] * NK
        ntok = sum(onb)
        cv[0] = 1.6 * W[BW_PRES]
        cv[1] = 1.5 * W[BW_HAND]
        cv[2] = 2.0 * hv[MAIZE]
        cv[3] = 1.1 * W[BW_HAND]
        cv[4] = hv[CACAO] * 0.5
        cv[5] = 1.5 * W[BW_HAND]
        cv[6] = W[BW_PRES] * int(self.c.cenote_factor) * 1.5 * min(ntok, nc) * 0.7
        fp = per[8:12]
        sp = [fp[q] // 2 for q in range(4)]
        aw = self.rank_award(per[0:4], fp, sp)
        best_other = 0
        for q in range(NP):
            if q != p and aw[q] > best_other:
                best_other = aw[q]
        cv[7] = W[BW_PRES] * (aw[p] - 0.5 * best_other)
        cv[8] = -0.3
        for kt in range(9, NK):
            pt, pn, code, n = CATASTROPHES[kt]
            if kt == K_VOLCANO:
                loss = volc
                hit = nvolc
            elif kt == K_TIDAL:
                loss = sea
                hit = nsea
            elif kt == K_DECAD:
                hit = min(1, cnt[5 + BALLCOURT]) + min(1, cnt[5 + OBSERV])
                loss = (self.per_value(BALLCOURT, rl, W) * min(1, cnt[5 + BALLCOURT])
                        + self.per_value(OBSERV, rl, W) * min(1, cnt[5 + OBSERV]))
            else:
                hit = min(n, cnt[5 + code])
                loss = self.per_value(code, rl, W) * hit
            if hit == 0:
                cv[kt] = 0.0
                continue
            if onb[pt] >= pn:
                keep = pn * (1.0 + 0.1 * self.pts[pt])
                if keep < loss:
                    loss = keep
            cv[kt] = -loss * W[BW_RISK]
        return cv

    def defence(self, own, bld, tok, b):
        """defence_base + defence_obsidian of city b."""
        q = own[b]
        d = bld[b].count(GARRISON)
        n = sum(1 for k in range(4) if bld[b][k] == GARRISON and tok[b][k] == OBSID)
        for x in self.nbrs[b]:
            if own[x] == q:
                d += bld[x].count(GARRISON)
        for x in self.nbrs[b]:
            if own[x] == q:
                n += sum(1 for k in range(4) if bld[x][k] == GARRISON and tok[x][k] == OBSID)
        return d + n

    def pay_building_heur(self, p, code, hv):
        b = code - 1
        kind = int(self.c.cost_kind[b])
        if kind >= 0:
            self.kings[p].hand[kind] -= int(self.c.cost_n[b])
            self.supply[kind] += int(self.c.cost_n[b])
            return
        for _ in range(int(self.c.cost_any[b])):
            t = self.cheapest_held(self.kings[p].hand, hv)
            self.kings[p].hand[t] -= 1
            self.supply[t] += 1

    def heuristic_build(self, p, s, hv, rl, last, riv_bc, riv_ob):
        own, bld, _ = self.snap()
        hand = list(self.kings[p].hand)
        cnt = self.player_counts(own, bld, p)
        _, plan = self.plan_site(own, bld, self.W[p], p, s, hand, cnt, hv, rl, last, riv_bc,
                                 riv_ob)
        for c in plan:
            if not self.can_build(p, s, c, self.kings[p].hand):
                break
            self.pay_building_heur(p, c, hv)
            self.place(p, s, c)

    def top_site(self, sv, skip, stream):
        """The kernel's top_site: highest screen value, equals uniformly; -1: none."""
        best, bv, ties = -1, -1e18, 0
        for s in range(len(sv)):
            if s == skip or sv[s] <= -1e18:
                continue
            ok, bv, ties = take(stream, sv[s], bv, ties)
            if ok:
                best = s
        return best

    def heuristic_turn(self, p):
        W = self.W[p]
        NP = self.NP
        K = self.kings[p]
        bs = self.bot[p]
        own, bld, tok = self.snap()
        S = len(own)
        hv = self.hand_values(W)
        rl = self.rounds_left()
        last = self.balls >= self.target
        # --- card
        ctype = self.deck_t.ctype
        known = self.known[p]
        left = [self.kcnt[kt] - self.seen[kt] for kt in range(NK)]
        for k in range(len(self.slots)):
            c = self.slots[k]
            if c is not None and (known >> k) & 1:
                left[int(ctype[c])] -= 1
        cnt, per, onb, scan = self.scan_board(own, bld, tok, W, p, rl)
        cv = self.card_values(W, p, hv, rl, cnt, per, onb, scan)
        ev = 0.0
        unseen = 0
        for kt in range(NK):
            if left[kt] > 0:
                ev += left[kt] * cv[kt]
                unseen += left[kt]
        ev = ev / unseen if unseen > 0 else 0.0
        card_slot = -1
        card_v, ties = -1e18, 0
        for k in range(len(self.slots)):
            c = self.slots[k]
            if c is None:
                continue
            v = cv[int(ctype[c])] if (known >> k) & 1 else ev
            ok, card_v, ties = take(bs, v, card_v, ties)
            if ok:
                card_slot = k
        tot = sum(K.hand)
        if tot == 0:
            self.turn_card(p, card_slot)
            return
        # --- the turn's options, one argmax with uniform ties: card, pass, plans, attacks
        self.pay_seq = pay_sequence(bs, hv)
        hand = list(K.hand)
        tax_t = self.cheapest_held(hand, hv)
        tax_v = hv[tax_t]
        best_kind = 0
        best_v, ties = card_v, 1
        ok, best_v, ties = take(bs, -tax_v, best_v, ties)
        if ok:
            best_kind = 1
        # --- building
        hand[tax_t] -= 1
        riv_bc = 0
        riv_ob = 0
        for q in range(NP):
            if q != p and per[q] > riv_bc:
                riv_bc = per[q]
            if q != p and per[4 + q] > riv_ob:
                riv_ob = per[4 + q]
        bplan = []
        best_site = -1
        amask = self.afford_mask(hand) if tot >= 2 else 0
        spend = [0] * 6
        if amask != 0:
            fv = [0.0] * 9
            base = self.econ(cnt, cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], W, last)
            for code in range(1, 9):
                fv[code] = -self.cost_value(hand, hv, code, spend)
                if code != VILLAGE and code != GARRISON and code != MARKET:
                    fv[code] += self.building_value(own, bld, W, p, 0, code, cnt, rl, last,
                                                    riv_bc, riv_ob, base)
            vill = [0.0] * 5
            for c in range(5):
                cnt[c] += 1
                vill[c] = (self.econ(cnt, cnt[5 + TEMPLE], cnt[5 + PALACE], cnt[5 + RESERVE], W,
                                     last) - base) * rl * W[BW_BUILD]
                cnt[c] -= 1
            tiles = self.tile_mask()
            free_nv = -1e18
            for code in range(2, 9):
                if code != GARRISON and code != MARKET and (tiles & amask) >> code & 1:
                    if fv[code] > free_nv:
                        free_nv = fv[code]
            can_found = K.large > 0
            sv = [-1e300] * S
            for s in range(S):
                st = self.sites[s]
                if own[s] == -1:
                    if not can_found:
                        continue
                    bvs = free_nv
                    if (tiles & amask) >> VILLAGE & 1:
                        if not self.forest_only or st.forest == 1:
                            vv = fv[VILLAGE] + vill[st.colour]
                            if vv > bvs:
                                bvs = vv
                    bvs += W[NBW + s]
                    bvs -= W[NBW + S + s]
                else:
                    fm = self.fit_mask(own, bld, K.large, p, s) & amask
                    if fm == 0:
                        continue
                    bvs = -1e18
                    for code in range(1, 9):
                        if (fm >> code) & 1 == 0:
                            continue
                        if code == VILLAGE:
                            if self.forest_only and st.forest == 0:
                                continue
                            v = fv[code] + vill[st.colour]
                        elif code == GARRISON or code == MARKET:
                            v = fv[code] + self.building_value(own, bld, W, p, s, code, cnt, rl,
                                                               last, riv_bc, riv_ob, 0.0)
                        else:
                            v = fv[code]
                        if v > bvs:
                            bvs = v
                sv[s] = bvs
            plans = 2 if W[BW_PLANS] >= 2.0 else 1
            s1 = self.top_site(sv, -1, bs)
            s2 = self.top_site(sv, s1, bs) if plans == 2 and s1 >= 0 else -1
            for s in (s1, s2)[:plans]:
                if s < 0:
                    continue
                v, plan = self.plan_site(own, bld, W, p, s, hand, cnt, hv, rl, last, riv_bc,
                                         riv_ob)
                if not plan:
                    continue
                ok, best_v, ties = take(bs, v - tax_v, best_v, ties)
                if ok:
                    best_kind = 2
                    best_site = s
                    bplan = list(plan)
        hand[tax_t] += 1
        # --- attack
        mean, psk = self.die_stats()
        ba = bb = -1
        bo = bk = 0
        for a in range(S if cnt[5 + GARRISON] > 0 else 0):
            if own[a] != p:
                continue
            g = bld[a].count(GARRISON)
            if g == 0:
                continue
            oa = sum(1 for k in range(4) if bld[a][k] == GARRISON and tok[a][k] == OBSID)
            for b in self.nbrs[a]:
                q = own[b]
                if q < 0 or q == p:
                    continue
                d = self.defence(own, bld, tok, b)
                exp_pts = g * mean + oa - d
                if exp_pts <= 0.3:
                    continue
                nb = sum(1 for k in range(4) if bld[b][k] != EMPTY and bld[b][k] != CONT)
                dmg = min(exp_pts, nb + 0.0)
                v = W[BW_WAR] * dmg * (0.8 * rl + 1.5 * W[BW_PRES]) - psk * g * 1.0 - 0.8 * oa
                v -= tax_v
                ok, best_v, ties = take(bs, v, best_v, ties)
                if ok:
                    best_kind = 3
                    ba, bb, bk, bo = a, b, g, oa
        if best_kind == 0:
            self.turn_card(p, card_slot)
            return
        K.hand[tax_t] -= 1
        self.supply[tax_t] += 1
        if best_kind == 1:
            K.t["passes"] += 1
            return
        if best_kind == 2:
            for c in bplan:
                if not self.can_build(p, best_site, c, K.hand):
                    break
                self.pay_building_heur(p, c, hv)
                self.place(p, best_site, c)
            return
        self.attack(p, ba, bb, bk, bo)
        if self.sites[bb].owner is None:
            self.heuristic_build(p, bb, hv, rl, last, riv_bc, riv_ob)

    # ----------------------------------------------------------- end of round
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

    def distribute(self, p, last=False):
        g = self.groups(p)
        items, sinks = [], []
        for s, st in enumerate(self.sites):
            if st.owner != p:
                continue
            for k in range(st.spaces):
                if st.token[k] is not None:
                    items.append((st.token[k], g[s]))
                    st.token[k] = None
                b = st.building[k]
                if b in (TEMPLE, PALACE):
                    sinks.append([b, s, k, g[s], 2])
                elif b in (GARRISON, RESERVE):
                    sinks.append([b, s, k, g[s], 1])
        if self.bot_ids[p] != RANDOM:
            self.distribute_heuristic(p, last, items, sinks)
            return
        for t, grp in items:
            opts = ["lose"]
            for kind in (TEMPLE, PALACE, GARRISON, RESERVE):
                if kind == GARRISON and t != OBSID:
                    continue
                if any(x[0] == kind and x[3] == grp and x[4] > 0 for x in sinks):
                    opts.append(kind)
            kind = opts[self.bot[p].rand_int(len(opts))]
            if kind == "lose":
                self.supply[t] += 1
                continue
            self.deliver(p, t, grp, kind, sinks)

    def route(self, p, t, grp, kind, sinks):
        if kind == DK_LOSE:
            self.supply[t] += 1
            return
        self.deliver(p, t, grp, DK_CODE[kind], sinks)

    def deliver(self, p, t, grp, code, sinks):
        """One riches of type t to a sink of building ``code`` in group grp: a temple or
        palace, the first with room; a reserve or garrison (the token stays there),
        uniformly among those with room (king p's stream)."""
        room = [x for x in sinks if x[0] == code and x[3] == grp and x[4] > 0]
        x = room[pick(self.bot[p], len(room))] if code in (RESERVE, GARRISON) else room[0]
        x[4] -= 1
        if code == TEMPLE:
            self.prestige(p, "ceremony", int(self.c.points[t]))
            self.supply[t] += 1
        elif code == PALACE:
            self.kings[p].hand[t] += 1
        else:
            self.sites[x[1]].token[x[2]] = t

    def type_order(self, cnt, cap, val, p):
        """The kernel's solve_group: the order in which the solver serves the riches types,
        each class of present types worth the same on every kind with room shuffled."""
        order = list(range(6))
        done = set()
        for t in range(6):
            if cnt[t] == 0 or t in done:
                continue
            memb = [u for u in range(t, 6) if cnt[u] > 0 and u not in done
                    and all(cap[k] <= 0 or cmp_tie(val[u][k], val[t][k]) == 0 for k in range(5))]
            done |= set(memb)
            shuf = list(memb)
            for a in range(len(shuf) - 1, 0, -1):
                j = self.bot[p].rand_int(a + 1)
                shuf[a], shuf[j] = shuf[j], shuf[a]
            for m, sh in zip(memb, shuf):
                order[m] = sh
        return order

    def distribute_heuristic(self, p, last, items, sinks):
        """The kernel's heuristic distribution: group by group (in the order of their
        first riches), an exact assignment of riches types to sink kinds."""
        if not items:
            return
        val = self.dist_values(self.W[p], last)
        done = set()
        for i, (_, grp) in enumerate(items):
            if grp in done:
                continue
            done.add(grp)
            cnt = [0] * 6
            cap = [0] * 5
            cap[DK_LOSE] = 1 << 30
            for t, g2 in items[i:]:
                if g2 == grp:
                    cnt[t] += 1
            room = 0
            kind_of = {TEMPLE: DK_TEMPLE, PALACE: DK_PALACE, GARRISON: DK_GARR,
                       RESERVE: DK_RESERVE}
            for x in sinks:
                if x[3] == grp:
                    cap[kind_of[x[0]]] += x[4]
                    room += x[4]
            if room == 0:
                x = [[0] * 5 for _ in range(6)]
                for t in range(6):
                    x[t][DK_LOSE] = cnt[t]
            else:
                x = solve_assignment(cnt, cap, val, self.type_order(cnt, cap, val, p))
            for t, g2 in items[i:]:
                if g2 == grp:
                    for kind in range(5):
                        if x[t][kind] > 0:
                            x[t][kind] -= 1
                            self.route(p, t, grp, kind, sinks)
                            break

    # ----------------------------------------------------------- the game
    def play(self):
        deck = self.build_deck()
        first = Stream.substream(self.seed, self.game, SETUP, 0).rand_int(self.NP)
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
            pos += n
            self.dpos = pos
            rfirst = cur
            self.divination(rfirst, n)
            turns = 0
            while True:
                p = cur
                turns += 1
                self.turns += 1
                self.kings[p].t["turns_taken"] += 1
                if turns > self.max_turns:
                    self.turn_card(p, next(k for k in range(n) if self.slots[k] is not None))
                elif self.bot_ids[p] == RANDOM:
                    self.random_turn(p)
                else:
                    self.heuristic_turn(p)
                if all(x is None for x in self.slots):
                    break
                cur = (cur + 1) % self.NP
            last = cur
            self.production(rfirst)
            final = self.balls >= self.target
            for i in range(self.NP):
                self.distribute((rfirst + i) % self.NP, final)
            if self.eclipse_round == 0:
                for i in range(self.NP):
                    self.gain((rfirst + i) % self.NP, MAIZE, int(self.c.chaak_maize))
            cur = (last + 1) % self.NP
            leaders.append(self.sole_leader())
            if final:
                end = 0
                break
        for q in range(self.NP):
            self.prestige(q, "bonus", sum(self.kings[q].hand) // 2)
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


def divined(mine, other, NJ):
    """The kernel's divined(): cards seen with ``mine`` observatories against ``other``."""
    if mine == 0:
        return 0
    return NJ if mine > other else 1


def play(seed: int, game_index: int, rules=None, bots=("random", "random")) -> dict:
    """`make bench`'s entry point: one game of the named bots (one per seat)."""
    from sim.games.balam import GAME
    return replay_random(GAME.resolve_rules(rules), len(bots), seed, game_index,
                         bots=",".join(bots))


def replay_random(rules: dict, players: int, seed: int, game: int, bots=None, engine=False):
    """Replay one game with the resolved rule parameters: all-random by default, or with
    ``bots`` (a spec as the CLI takes it, e.g. "merchant,random"; any bot).  Returns the
    recorded columns, or with ``engine`` the played engine (its state, ``divined`` ...)."""
    from sim.games.balam import GAME, _ball_target, target_position
    ids = par = None
    if bots is not None:
        ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    board = D.load_board(D.resolve_file(rules["board"], "board"))
    deck = D.load_deck(D.resolve_file(rules["katun"], "katun"))
    comp = D.load_components(D.resolve_file(rules["components"], "components"))
    g = Balam(board, deck, comp, players, _ball_target(rules, players), seed, game,
              max_rounds=rules["horizon"], hit_all=rules["catastrophes"] == "all",
              forest_only=rules["village_production"] == "forest",
              control_sum=rules["control"] == "sum", eclipse_jitter=rules["eclipse_jitter"],
              max_turns=rules["max_turns"], bot_ids=ids, bot_par=par,
              expedition_types=6 if rules["expedition"] == "any" else 5,
              random_piles=rules["piles"] == "random",
              neutral=() if rules["neutral_cards"] == "none" else rules["neutral_cards"],
              random_layout=rules["layout"] == "random",
              posb=target_position(deck, _ball_target(rules, players)))
    return g.play() if engine else g.play().columns()


def replay(rules: dict, bots, players: int, seed: int, game: int):
    """Replay one game of any bots (see replay_random)."""
    return replay_random(rules, players, seed, game, bots=bots)


def solve_assignment(cnt, cap, val, order=tuple(range(6))):
    """The kernel's solve_assignment: route cnt[t] riches of each type to sink kinds with
    capacities cap[kind], maximising the total of val[t][kind] (val < 0: not allowed), by
    successive shortest paths (Bellman-Ford), types scanned in ``order``.  Returns
    x[t][kind]."""
    x = [[0] * 5 for _ in range(6)]
    left = list(cnt)
    free = list(cap)
    while True:
        dt = [0.0 if left[t] > 0 else 1e18 for t in range(6)]
        pt = [-1] * 6
        dk = [1e18] * 5
        pk = [-1] * 5
        for _ in range(12):
            changed = False
            for t in order:
                if dt[t] >= 1e17:
                    continue
                for k in range(5):
                    if val[t][k] < 0.0:
                        continue
                    d = dt[t] - val[t][k]
                    if d < dk[k] - 1e-12:
                        dk[k] = d
                        pk[k] = t
                        changed = True
            for k in range(5):
                if dk[k] >= 1e17:
                    continue
                for t in order:
                    if x[t][k] > 0:
                        d = dk[k] + val[t][k]
                        if d < dt[t] - 1e-12:
                            dt[t] = d
                            pt[t] = k
                            changed = True
            if not changed:
                break
        bk = -1
        bd = 1e17
        for k in range(5):
            if free[k] > 0 and dk[k] < bd - 1e-12:
                bd = dk[k]
                bk = k
        if bk < 0:
            break
        m = free[bk]
        k = bk
        while True:
            t = pk[k]
            if pt[t] < 0:
                if left[t] < m:
                    m = left[t]
                break
            k = pt[t]
            if x[t][k] < m:
                m = x[t][k]
        free[bk] -= m
        k = bk
        while True:
            t = pk[k]
            x[t][k] += m
            if pt[t] < 0:
                left[t] -= m
                break
            k = pt[t]
            x[t][k] -= m
    return x
