"""A plain-Python Balam engine, written from seeds/balam/RULES.md, for the random bot.

It replays the kernel's games on the same random streams (sim.rng.Stream) and must
produce the same recorded columns.  It follows the rules section by section and the
random bot's documented choice order (RULES.md, Bots), not the kernel's data layout.
"""
from __future__ import annotations

from sim.games.balam import data as D
from sim.rng import Stream

MAIZE, CACAO, SHELL, JADE, OBSID, PRIS = range(6)
VILLAGE, GARRISON, PALACE, TEMPLE, MARKET, RESERVE, BALLCOURT, OBSERV = range(1, 9)
TILE_OF = {b: (b - 1) // 2 for b in range(1, 9)}
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
                 max_turns=400):
        self.b, self.deck_t, self.c = board, deck, comp
        self.NP = players
        self.target = ball_target
        self.max_rounds = max_rounds
        self.hit_all, self.forest_only, self.control_sum = hit_all, forest_only, control_sum
        self.jitter = eclipse_jitter
        self.max_turns = max_turns
        self.chance = Stream(seed, game, 0)
        self.bot = [Stream(seed, game, 1 + p) for p in range(players)]
        self.sites = [Site(*[int(x) for x in board.info[s]]) for s in range(len(board.names))]
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
        rnd = self.chance
        others = [c for c in range(len(ct)) if ct[c] not in (0, 7, 8)]
        for i in range(len(others) - 1, 0, -1):
            j = rnd.rand_int(i + 1)
            others[i], others[j] = others[j], others[i]
        pros = [c for c in range(len(ct)) if ct[c] == 0]
        for i in range(len(pros) - 1, 0, -1):
            j = rnd.rand_int(i + 1)
            pros[i], pros[j] = pros[j], pros[i]
        balls = [c for c in range(len(ct)) if ct[c] == 7]
        npiles = len(balls) + 1
        deck = list(pros)
        n = len(others)
        pos = 0
        for k in range(npiles):
            size = n // npiles + (1 if k < n % npiles else 0)
            deck += others[pos:pos + size]
            pos += size
            if k < len(balls):
                deck.append(balls[k])
        ecl = [c for c in range(len(ct)) if ct[c] == 8]
        if ecl:
            mid = len(deck) // 2
            if self.jitter > 0:
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
        counts = [self.count(q, OBSERV) for q in range(self.NP)]
        m1 = max(counts)
        if m1 == 0:
            return
        tops = [q for q in range(self.NP) if counts[q] == m1]
        if len(tops) == 1:
            self.kings[tops[0]].t["cards_divined"] += min(self.NP, nslots)
            rest = [c for c in counts if 0 < c < m1]
            if rest:
                seconds = [q for q in range(self.NP) if counts[q] == max(rest)]
                if len(seconds) == 1:
                    self.kings[seconds[0]].t["cards_divined"] += 1
        elif len(tops) == 2:
            for q in tops:
                self.kings[q].t["cards_divined"] += 1

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
        od = self.bot[q].rand_int(len(obs) + 1) if obs else 0
        for x, kk in obs[:od]:
            self.sites[x].token[kk] = None
            self.supply[OBSID] += 1
        succ = skulls = 0
        for _ in range(k):
            f = int(self.c.faces[self.chance.rand_int(len(self.c.faces))])
            if f < 0:
                skulls += 1
            else:
                succ += f
        for _ in range(skulls):
            gl = self.garrisons(a)
            if not gl:
                break
            self.remove(a, gl[self.bot[p].rand_int(len(gl))])
            self.kings[p].t["garrisons_lost"] += 1
        pts = succ + o - (base + od)
        destroyed = 0
        while pts > 0:
            cand = [kk for kk, bb in B.buildings() if (2 if bb in WIDE else 1) <= pts]
            if not cand:
                break
            code = self.remove(b, cand[self.bot[p].rand_int(len(cand))])
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
        if len(tokens) >= pay_n and self.bot[p].rand_int(2) == 1:
            for s, k in tokens[:pay_n]:
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
                    s, k = cand[self.bot[p].rand_int(len(cand))]
                    self.remove(s, k)
                    lost += 1
        self.kings[p].t["buildings_lost_katun"] += lost

    def turn_card(self, p, slot):
        c = self.slots[slot]
        self.slots[slot] = None
        self.cards_turned += 1
        kt = int(self.deck_t.ctype[c])
        self.kings[p].katun[kt] += 1
        rnd = self.bot[p]
        if kt in (0, 1, 2):
            no = int(self.deck_t.cnopt[c])
            j = rnd.rand_int(no) if no > 1 else 0
            g = self.deck_t.cgain[c, j]
            for t in range(6):
                if g[t] > 0:
                    self.gain(p, t, int(g[t]))
            if g[6] > 0:
                self.prestige(p, "prosperous", int(g[6]))
        elif kt == 3:
            opts = [t for t in range(5) if self.supply[t] > 0]
            if opts:
                self.gain(p, opts[rnd.rand_int(len(opts))], 1)
        elif kt == 4:
            for i in range(self.NP):
                self.gain((p + i) % self.NP, CACAO, 1)
        elif kt == 5:
            opts = [((p + i) % self.NP, t) for i in range(1, self.NP) for t in range(6)
                    if self.kings[(p + i) % self.NP].hand[t] > 0]
            if opts:
                q, t = opts[rnd.rand_int(len(opts))]
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
                r = rnd.rand_int(len(opts) + 1)
                if r == len(opts):
                    continue
                s, k = opts[r]
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
            victims = [(p + i) % self.NP for i in range(self.NP)] if self.hit_all else [p]
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

    def distribute(self, p):
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
            x = next(x for x in sinks if x[0] == kind and x[3] == grp and x[4] > 0)
            x[4] -= 1
            if kind == TEMPLE:
                self.prestige(p, "ceremony", int(self.c.points[t]))
                self.supply[t] += 1
            elif kind == PALACE:
                self.kings[p].hand[t] += 1
            else:
                self.sites[x[1]].token[x[2]] = t

    # ----------------------------------------------------------- the game
    def play(self):
        deck = self.build_deck()
        first = self.chance.rand_int(self.NP)
        for q in range(self.NP):
            self.gain(q, MAIZE, int(self.c.start_maize))
        cur = first
        pos = 0
        end = 0
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
                else:
                    self.random_turn(p)
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
            cur = (last + 1) % self.NP
            if final:
                end = 0
                break
        for q in range(self.NP):
            self.prestige(q, "bonus", sum(self.kings[q].hand) // 2)
        self.end, self.first = end, first
        return self

    def columns(self):
        """The recorded columns of this game, named as the kernel's."""
        ks = self.kings
        out = {"end_reason": self.end, "first_player": self.first, "rounds": self.round,
               "turns": self.turns, "ball_games": self.balls, "eclipse_round": self.eclipse_round,
               "cards_turned": self.cards_turned,
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


def play(seed: int, game_index: int, rules=None, bots=("random", "random")) -> dict:
    """`make bench`'s entry point: one all-random game (the only bot this engine plays;
    NotImplementedError for the others, which bench then leaves out)."""
    if any(b != "random" for b in bots):
        raise NotImplementedError("the Balam reference engine plays the random bot only")
    from sim.games.balam import GAME
    return replay_random(GAME.resolve_rules(rules), len(bots), seed, game_index)


def replay_random(rules: dict, players: int, seed: int, game: int):
    """Play one all-random game with the resolved rule parameters (the random bot only)."""
    from sim.games.balam import _ball_target
    board = D.load_board(D.resolve_file(rules["board"], "board"))
    deck = D.load_deck(D.resolve_file(rules["katun"], "katun"))
    comp = D.load_components(D.resolve_file(rules["components"], "components"))
    g = Balam(board, deck, comp, players, _ball_target(rules, players), seed, game,
              max_rounds=rules["max_rounds"], hit_all=rules["catastrophes"] == "all",
              forest_only=rules["village_production"] == "forest",
              control_sum=rules["control"] == "sum", eclipse_jitter=rules["eclipse_jitter"],
              max_turns=rules["max_turns"])
    return g.play().columns()
