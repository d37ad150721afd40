"""Balam rules on hand-built positions: the jitted functions called on hand-made arrays.

Boards here are small: sites are numbered, paths drawn in ASCII.  Seat 0 is Purple and
seat 1 Grey, as in the rulebook's examples.
"""
import numpy as np
import pytest

from sim.games.balam import GAME, STYLES
from sim.games.balam import data as D
from sim.games.balam import board, distribution, divination, katun, play, setup, state, wars
from sim.games.balam.bots import heuristic
from sim.record import NO_RECORD, NO_SNAPS
from sim.rng import DICE, Stream, py_game_base

DECK = D.load_deck(D.SEEDS / "katun.toml")
RAND, HEUR = 0, 1
V, G, PAL, TEM, MKT, RES, BC, OBS = (state.VILLAGE, state.GARRISON, state.PALACE, state.TEMPLE, state.MARKET,
                                     state.RESERVE, state.BALLCOURT, state.OBSERV)
MAIZE, CACAO, SHELL, JADE, OBSID, PRIS = range(6)
EVEN = (1.0, 1.0, 0.8, 1.0, 1.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0)


class Pos:
    """A hand-built position: sites with (spaces, colour, forest, sea, volcano, cenote)."""

    def __init__(self, sites, edges, players=2, bots=(HEUR, HEUR), style="builder"):
        S = len(sites)
        self.nbr = -np.ones((S, 8), np.int64)
        self.nnb = np.zeros(S, np.int64)
        adj = [[] for _ in range(S)]
        for a, b in edges:
            adj[a].append(b)
            adj[b].append(a)
        for s in range(S):
            adj[s].sort()
            self.nnb[s] = len(adj[s])
            self.nbr[s, :len(adj[s])] = adj[s]
        self.info = np.array(sites, np.int64)
        self.R = GAME.prepare(GAME.resolve_rules({}), players)[0].copy()
        self.R[state.R_S] = S
        self.state = state.new_state(S, players)
        self.own, self.bld, self.tok, self.sm, self.pl, self.gs, self.rs = self.state
        state.reset_state(self.state, self.R)
        self.bot_ids = np.array(bots, np.int64)
        w = tuple(STYLES[style] if isinstance(style, str) else style)
        w = w + (1.0,) * (state.NBW - len(w))          # plans = 1
        self.bot_par = play.with_site_terms(np.array([w] * players, np.float64), self.info)
        self.sc = state.new_scratch(S, NO_RECORD, NO_SNAPS)
        xi, xf = self.sc.xi, self.sc.xf
        self.comp, self.queue, self.opts, self.tmp, self.hv = (xi[state.XI_COMP], self.sc.queue,
                                                               xi[state.XI_OPTS], xi[state.XI_TMP],
                                                               xf[state.XF_HV])

    def city(self, s, p, *codes, tokens=()):
        """Put buildings (paid for by nobody) on site s for player p; tokens by space."""
        for c in codes:
            board.place_building(self.own, self.bld, self.sm, self.pl, self.gs, self.nbr, self.nnb,
                             self.info, p, s, c)
        for k, t in tokens:
            self.tok[s, k] = t
            self.gs[state.GS_SUP + t] -= 1

    def seed(self, game):
        """The streams of game ``game`` (seed 0): the bots' and the base the chance
        substreams (a war's dice) hang on."""
        for k in range(1, 5):
            self.rs[k] = np.uint64(Stream(0, game, k).state)
        self.rs[state.SL_BASE] = np.uint64(py_game_base(0, game))

    def st(self):
        return (self.own, self.bld, self.tok, self.sm, self.pl, self.gs)

    def rules(self):
        return state.Rules(self.R, self.nbr, self.nnb, self.info, DECK.ctype, DECK.cgain,
                       DECK.cnopt, self.bot_ids, self.bot_par)

    def tuples(self):
        """(State, Rules, Scratch) for the kernel's turn and phase functions."""
        return self.state, self.rules(), self.sc

    def turn(self, p, card_type):
        c = int(np.flatnonzero(DECK.ctype == card_type)[0])
        self.gs[state.GS_SLOT] = c
        self.gs[state.GS_NSLOT] = 1
        self.gs[state.GS_LEFT] = 1
        katun.turn_card(*self.tuples(), p, 0)

    def attack(self, p, a, b, k, o):
        return wars.resolve_attack(*self.tuples(), p, a, b, k, o)

    def distribute(self, p, last=False):
        distribution.distribute(*self.tuples(), p, last)

    def count(self, p, code):
        return board.count_code(self.own, self.bld, p, code)

    def passable(self, s, p):
        return board.passable(self.own, self.sm, self.R, s, p)


def plain(n, spaces=4, colour=MAIZE):
    return [(spaces, colour, 1, 0, 0, 0)] * n


def find_game(ok, limit=20000):
    """First game index whose streams satisfy ``ok(streams)``: [the first war's dice, the
    bot of seat 0, the bot of seat 1] (seed 0)."""
    for g in range(limit):
        if ok([Stream.substream(0, g, DICE, 0), Stream(0, g, 1), Stream(0, g, 2)]):
            return g
    raise AssertionError("no game index found")


# ------------------------------------------------------------------ war
def test_war_example_one_building_destroyed_one_prisoner():
    # The rulebook's war: Purple (2 garrisons + 1 obsidian) attacks Grey (3 garrisons +
    # 1 obsidian) from the seashore, spends his obsidian, Grey keeps his; the dice show
    # 3 and a skull: attack 3 + 1 = 4, defence 3, one building falls, one prisoner.
    #
    #   [0 Purple: G G V]----[1 Grey: G G G V]
    pos = Pos(plain(2), [(0, 1)], bots=(RAND, RAND))
    pos.city(0, 0, G, G, V, tokens=[(0, OBSID)])
    pos.city(1, 1, G, G, G, V, tokens=[(0, OBSID)])
    pos.R[state.R_NFACES] = 2
    pos.R[state.R_FACE] = 3
    pos.R[state.R_FACE + 1] = -1
    # dice 3 then skull (the war's dice), Grey keeps his obsidian (his stream draws 0),
    # and Purple's point destroys a building other than Grey's obsidian garrison (space 0;
    # his stream: the garrison lost to the skull, then the building destroyed)
    g = find_game(lambda s: s[0].rand_int(2) == 0 and s[0].rand_int(2) == 1
                  and s[2].rand_int(2) == 0 and s[1].rand_int(2) >= 0 and s[1].rand_int(4) != 0)
    pos.seed(g)
    sup_obs = pos.gs[state.GS_SUP + OBSID]
    destroyed = pos.attack(0, 0, 1, 2, 1)
    assert destroyed == 1
    assert pos.pl[1, state.T_BLOST] == 1 and pos.pl[0, state.T_BDEST] == 1
    assert pos.count(0, G) == 1                       # one garrison lost to the skull
    assert pos.pl[0, state.T_GLOST] == 1
    assert pos.gs[state.GS_SUP + OBSID] == sup_obs + 1    # Purple's obsidian spent, Grey's kept
    assert pos.tok[1, 0] == OBSID and pos.count(1, G) + pos.count(1, V) == 3
    assert pos.pl[0, state.T_PRIS] == 1                   # the prisoner sits on the last garrison
    gk = [k for k in range(4) if pos.bld[0, k] == G][0]
    assert pos.tok[0, gk] == PRIS


def test_defence_counts_adjacent_friendly_garrisons_and_their_obsidian():
    #   [0 Grey: G]--[1 Grey: G G]--[2 Purple: G]
    #        \________[3 Grey: G]
    pos = Pos(plain(4), [(0, 1), (1, 2), (0, 3)])
    pos.city(0, 1, G, tokens=[(0, OBSID)])
    pos.city(1, 1, G, G)
    pos.city(3, 1, G, tokens=[(0, OBSID)])
    pos.city(2, 0, G)
    assert wars.defence_base(pos.own, pos.bld, pos.nbr, pos.nnb, 1) == 3  # 2 own + site 0
    assert wars.defence_base(pos.own, pos.bld, pos.nbr, pos.nnb, 0) == 4  # 1 + site 1 + site 3
    assert wars.defence_obsidian(pos.own, pos.bld, pos.tok, pos.nbr, pos.nnb, 0) == 2


def test_temple_needs_two_points_and_a_devastated_city_is_free():
    # [0 Purple: G G G G]--[1 Grey: temple]; three dice of 1 against no garrison:
    # 3 points destroy the temple (2 points); the city is devastated and free.
    pos = Pos(plain(2), [(0, 1)], bots=(HEUR, HEUR))
    pos.city(0, 0, G, G, G)
    pos.city(1, 1, TEM)
    pos.R[state.R_NFACES] = 1
    pos.R[state.R_FACE] = 1
    large = pos.pl[1, state.P_LARGE]
    assert pos.attack(0, 0, 1, 3, 0) == 1
    assert pos.own[1] == -1 and pos.pl[1, state.P_LARGE] == large + 1
    assert pos.tok[0].tolist().count(PRIS) == 1


def test_one_point_cannot_destroy_a_palace():
    pos = Pos(plain(2), [(0, 1)])
    pos.city(0, 0, G)
    pos.city(1, 1, PAL)
    pos.R[state.R_NFACES] = 1
    pos.R[state.R_FACE] = 1
    assert pos.attack(0, 0, 1, 1, 0) == 0
    assert pos.count(1, PAL) == 1


def test_prisoners_beyond_the_empty_garrisons_are_lost():
    # two buildings destroyed, but only one empty garrison at home (the other holds obsidian)
    pos = Pos(plain(2), [(0, 1)])
    pos.city(0, 0, G, G, tokens=[(1, OBSID)])
    pos.city(1, 1, V, V)
    pos.R[state.R_NFACES] = 1
    pos.R[state.R_FACE] = 1
    assert pos.attack(0, 0, 1, 2, 0) == 2
    assert pos.pl[0, state.T_PRIS] == 1
    assert sorted(pos.tok[0, :2].tolist()) == [OBSID, PRIS]


# ------------------------------------------------------------------ distribution
def distribution_board():
    #  0 Sh ---- 1 P ---- 2 J ---- 3 G ---- 4 T
    #  Purple    Purple   Purple   Grey     Purple
    #  3xV+Res   palace   V+Res    market   2xV+temple
    #  (shell)            (jade)   V V Garr (maize)
    #                                |
    #                      5 Grey: V, temple, Garr (obsidian) -- 6 Grey: V, palace (maize)
    sites = [(4, SHELL, 1, 0, 0, 0), (2, MAIZE, 1, 0, 0, 0), (2, JADE, 1, 0, 0, 0),
             (4, CACAO, 1, 0, 0, 0), (4, MAIZE, 1, 0, 0, 0), (4, OBSID, 1, 0, 0, 0),
             (3, MAIZE, 1, 0, 0, 0)]
    # weights valuing a riches in hand like one prestige point: the example's choices
    pos = Pos(sites, [(0, 1), (1, 2), (2, 3), (3, 4), (3, 5), (5, 6)], style=EVEN)
    pos.city(0, 0, V, V, V, RES, tokens=[(3, PRIS)])
    pos.city(1, 0, PAL)
    pos.city(2, 0, V, RES)
    pos.city(4, 0, V, V, TEM)
    pos.city(3, 1, MKT, V, V, G, tokens=[(3, OBSID)])
    pos.city(5, 1, V, TEM, G, tokens=[(3, PRIS)])
    pos.city(6, 1, V, PAL)
    return pos


def test_distribution_example_blocked_jade_and_shells():
    # Purple produces 3 shells, 1 jade, 2 maize and had a prisoner in a reserve; Grey's
    # market blocks the jade (reserve on the spot) and the temple (the shells go to the
    # palace, 2 of 3).  Grey produces 2 cacao, 1 obsidian, 1 maize and had an obsidian and
    # a prisoner on garrisons: he taxes 1 cacao + 1 maize, equips a garrison and
    # sacrifices the prisoner and a cacao (5 points).
    pos = distribution_board()
    assert not pos.passable(2, 0) and not pos.passable(4, 0) and pos.passable(1, 0)
    distribution.production(pos.own, pos.bld, pos.tok, pos.gs, pos.R, pos.info, 0)
    assert sorted(pos.tok[0].tolist()) == [SHELL, SHELL, SHELL, PRIS]
    sup = pos.gs[state.GS_SUP:state.GS_SUP + 6].copy()
    pos.distribute(0)
    assert pos.pl[0, state.P_CER] == 2                       # two maize in the temple
    assert pos.pl[0, state.P_HAND + SHELL] == 2              # two shells taxed
    assert pos.tok[2, 1] == JADE and pos.tok[0, 3] == PRIS
    assert pos.gs[state.GS_SUP + SHELL] == sup[SHELL] + 1    # one shell lost
    pos.distribute(1)
    assert pos.pl[1, state.P_CER] == 5
    assert pos.pl[1, state.P_HAND + CACAO] == 1 and pos.pl[1, state.P_HAND + MAIZE] == 1
    assert pos.tok[3, 3] == OBSID and pos.tok[5, 3] == OBSID


def test_riches_left_on_villages_and_palaces_are_lost_but_obsidian_stays():
    pos = Pos(plain(1), [])
    pos.city(0, 0, V, G, tokens=[(1, OBSID)])
    distribution.production(pos.own, pos.bld, pos.tok, pos.gs, pos.R, pos.info, 0)
    pos.bot_ids[:] = RAND

    def held(t):  # supply + tokens on the board + hands
        return int(pos.gs[state.GS_SUP + t] + (pos.tok == t).sum() + pos.pl[:, state.P_HAND + t].sum())

    total = {t: held(t) for t in range(6)}
    for g in range(20):  # whatever the random routing, nothing is created or kept on villages
        pos.seed(g)
        pos.distribute(0)
        assert pos.tok[0, 0] == -1
        assert pos.tok[0, 1] in (-1, OBSID)
        assert {t: held(t) for t in range(6)} == total


def test_solver_matches_the_best_routing():
    # A case single-unit swaps miss: the obsidian must move from the palace to a
    # garrison to let the maize into the palace.
    val = np.zeros((6, 5))
    val[:, :] = -1.0
    val[:, state.DK_LOSE] = 0.0
    val[PRIS, state.DK_TEMPLE] = 3.0
    val[CACAO, state.DK_TEMPLE] = 2.0
    val[OBSID, state.DK_TEMPLE] = 2.0
    val[CACAO, state.DK_PALACE] = 1.15
    val[OBSID, state.DK_PALACE] = 1.0
    val[MAIZE, state.DK_PALACE] = 0.9
    val[OBSID, state.DK_GARR] = 0.65
    cnt = np.array([1, 2, 0, 0, 2, 1], np.int64)
    cap = np.array([2, 2, 2, 0, 1 << 30], np.int64)
    x = np.zeros((6, 5), np.int64)
    distribution.solve_assignment(cnt, cap, val, x, np.zeros(32, np.int64), np.zeros(16))
    assert (x * np.maximum(val, 0)).sum() == pytest.approx(8.35)
    assert x[:, state.DK_LOSE].sum() == 0


# ------------------------------------------------------------------ transport
def test_control_ties_owner_keeps_a_city_free_site_shared():
    #  0 Purple city -- 1 free -- 2 Grey city (no market)
    pos = Pos(plain(3), [(0, 1), (1, 2)])
    pos.city(0, 0, V)
    pos.city(2, 1, V)
    assert not pos.passable(2, 0)          # an enemy city with no small pyramid blocks
    assert pos.passable(1, 0) and pos.passable(1, 1)
    pos.sm[1, 0] = 1
    pos.sm[1, 1] = 1
    assert pos.passable(1, 0) and pos.passable(1, 1)   # tie on a free site: shared
    pos.sm[2, 0] = 1
    pos.sm[2, 1] = 1
    assert not pos.passable(2, 0)          # tie on Grey's city: Grey keeps control
    pos.sm[2, 0] = 2
    assert pos.passable(2, 0) and not pos.passable(2, 1)


def test_control_each_enemy_or_all_enemies():
    pos = Pos(plain(1), [], players=3, bots=(HEUR, HEUR, HEUR))
    pos.sm[0, :3] = (2, 2, 1)
    assert not pos.passable(0, 0)          # the default: enemies' 3 outnumber my 2
    pos.R[state.R_CTRL] = state.CTRL_EACH
    assert pos.passable(0, 0)              # no single enemy has more than 2


def test_market_places_and_loses_small_pyramids():
    #  1 -- 0 -- 2 ; 0 -- 3
    pos = Pos(plain(4), [(0, 1), (0, 2), (0, 3)])
    small = pos.pl[0, state.P_SMALL]
    pos.city(0, 0, MKT)
    assert pos.sm[:, 0].tolist() == [1, 1, 1, 1] and pos.pl[0, state.P_SMALL] == small - 4
    board.remove_building(*pos.st(), pos.nbr, pos.nnb, 0, 0)
    assert pos.sm[:, 0].sum() == 0 and pos.pl[0, state.P_SMALL] == small
    assert pos.own[0] == -1
    pos.pl[0, state.P_SMALL] = 3
    hand = np.array([0, 5, 0, 0, 0, 0], np.int64)
    assert not board.can_build(pos.own, pos.bld, pos.pl, pos.gs, pos.R, pos.nnb, pos.info, 0, 0, MKT, hand)


def test_transport_groups_stop_at_blocked_sites():
    #  0 -- 1 -- 2 -- 3 ; Grey's market on 4 (joined to 2) blocks 2 for Purple
    pos = Pos(plain(5), [(0, 1), (1, 2), (2, 3), (2, 4)])
    pos.city(0, 0, V)
    pos.city(3, 0, V)
    pos.city(4, 1, MKT)
    board.components(pos.own, pos.sm, pos.R, pos.nbr, pos.nnb, 0, pos.comp, pos.queue)
    assert pos.comp[0] == pos.comp[1] and pos.comp[0] != pos.comp[3]
    assert pos.comp[2] == 5 + 2


# ------------------------------------------------------------------ building
def test_palace_needs_two_adjacent_spaces_and_costs_are_checked():
    pos = Pos([(3, MAIZE, 1, 0, 0, 0)], [])
    pos.city(0, 0, V)
    pos.bld[0, 2] = RES
    pos.own[0] = 0
    rich = np.array([5, 5, 5, 5, 5, 5], np.int64)
    assert board.find_space(pos.bld, pos.info, 0, PAL) == -1   # spaces 1 and 2 are not both free
    pos.bld[0, 2] = 0
    assert board.find_space(pos.bld, pos.info, 0, TEM) == 1
    assert not board.can_afford(np.array([0, 0, 0, 0, 0, 0], np.int64), pos.R, RES)
    assert board.can_afford(np.array([1, 0, 0, 0, 0, 0], np.int64), pos.R, RES)
    assert not board.can_afford(np.array([5, 0, 0, 0, 0, 0], np.int64), pos.R, OBS)
    assert board.can_afford(np.array([0, 0, 0, 0, 0, 2], np.int64), pos.R, PAL)  # prisoners pay too
    pos.gs[state.GS_TILE + 1] = 0   # no palace/temple tile left
    assert not board.can_build(pos.own, pos.bld, pos.pl, pos.gs, pos.R, pos.nnb, pos.info, 0, 0, TEM, rich)


def test_large_pyramids_limit_new_cities():
    pos = Pos(plain(2), [(0, 1)])
    pos.pl[0, state.P_LARGE] = 0
    rich = np.array([5, 5, 5, 5, 5, 5], np.int64)
    assert not board.can_build(pos.own, pos.bld, pos.pl, pos.gs, pos.R, pos.nnb, pos.info, 0, 0, V, rich)
    pos.city(1, 1, V)
    assert not board.can_build(pos.own, pos.bld, pos.pl, pos.gs, pos.R, pos.nnb, pos.info, 0, 1, V, rich)


# ------------------------------------------------------------------ Katun, one test each
def katun_pos(**kw):
    #  0 Purple (volcano, seashore) -- 1 Purple -- 2 Grey (volcano) ; 1 -- 3 free cenote
    sites = [(4, MAIZE, 1, 1, 1, 0), (4, MAIZE, 1, 0, 0, 0), (4, MAIZE, 1, 1, 1, 0),
             (2, MAIZE, 1, 0, 0, 1)]
    return Pos(sites, [(0, 1), (1, 2), (1, 3)], **kw)


def test_katun_prosperous_gives_one_option():
    pos = katun_pos()
    pos.turn(0, state.K_PROS)
    c = int(np.flatnonzero(DECK.ctype == state.K_PROS)[0])
    opts = [DECK.cgain[c, i] for i in range(DECK.cnopt[c])]
    got = np.concatenate([pos.pl[0, state.P_HAND:state.P_HAND + 6], [pos.pl[0, state.P_PROS]]])
    assert any((got == o).all() for o in opts)
    assert pos.pl[0, state.P_KAT + state.K_PROS] == 1


def test_katun_favourable_gives_everything_listed():
    pos = katun_pos()
    pos.turn(0, state.K_FAV)
    c = int(np.flatnonzero(DECK.ctype == state.K_FAV)[0])
    assert (pos.pl[0, state.P_HAND:state.P_HAND + 6] == DECK.cgain[c, 0, :6]).all()


def test_katun_exceptional_two_maize_limited_by_supply():
    pos = katun_pos()
    pos.gs[state.GS_SUP + MAIZE] = 1
    pos.turn(0, state.K_EXC)
    assert pos.pl[0, state.P_HAND + MAIZE] == 1 and pos.gs[state.GS_SUP + MAIZE] == 0


def test_katun_expedition_one_riches_of_choice():
    pos = katun_pos()
    pos.turn(0, state.K_EXPED)
    assert pos.pl[0, state.P_HAND:state.P_HAND + 6].sum() == 1
    # any of the six types, prisoners included: the random bot draws each of them
    got = set()
    for g in range(60):
        pos = katun_pos(bots=(RAND, RAND))
        pos.seed(g)
        pos.turn(0, state.K_EXPED)
        got.add(int(np.flatnonzero(pos.pl[0, state.P_HAND:state.P_HAND + 6])[0]))
    assert got == set(range(6))
    # the other reading: only the five produced types
    for g in range(30):
        pos = katun_pos(bots=(RAND, RAND))
        pos.R[state.R_EXPED] = 5
        pos.seed(g)
        pos.turn(0, state.K_EXPED)
        assert pos.pl[0, state.P_HAND:state.P_HAND + 5].sum() == 1 and pos.pl[0, state.P_HAND + PRIS] == 0


def test_katun_cacao_festival_every_king_drawer_first():
    pos = katun_pos(players=3, bots=(HEUR, HEUR, HEUR))
    pos.gs[state.GS_SUP + CACAO] = 2
    pos.turn(2, state.K_CACAO)
    assert pos.pl[:, state.P_HAND + CACAO].tolist() == [1, 0, 1]   # seats 2, 0 served; 1 not


def test_katun_princely_marriage_takes_a_dowry():
    pos = katun_pos()
    pos.pl[1, state.P_HAND + JADE] = 1
    pos.turn(0, state.K_MARRY)
    assert pos.pl[0, state.P_HAND + JADE] == 1 and pos.pl[1, state.P_HAND + JADE] == 0


def test_katun_cenote_sacrifice_under_transport_rules():
    pos = katun_pos()
    pos.city(1, 0, RES, tokens=[(0, CACAO)])
    pos.turn(0, state.K_CENOTE)
    assert pos.pl[0, state.P_CEN] == 2 * 2 and pos.tok[1, 0] == -1
    # a Grey market next to the cenote blocks the way
    pos2 = katun_pos()
    pos2.city(1, 0, RES, tokens=[(0, CACAO)])
    pos2.sm[3, 1] = 1
    pos2.turn(0, state.K_CENOTE)
    assert pos2.pl[0, state.P_CEN] == 0 and pos2.tok[1, 0] == CACAO


def test_katun_ball_game_ranking_and_ties():
    aw = np.zeros(4, np.int64)
    first = np.array([6, 4, 3, 8], np.int64)
    second = first // 2
    katun.rank_award(np.array([2, 1, 0, 0], np.int64), 4, first, second, aw)
    assert aw.tolist() == [6, 2, 0, 0]                  # sole first, sole second half
    katun.rank_award(np.array([2, 2, 1, 0], np.int64), 4, first, second, aw)
    assert aw.tolist() == [3, 2, 0, 0]                  # two tied first: half each
    katun.rank_award(np.array([1, 1, 1, 0], np.int64), 4, first, second, aw)
    assert aw.tolist() == [0, 0, 0, 0]                  # three tied: nobody
    katun.rank_award(np.array([3, 1, 1, 0], np.int64), 4, first, second, aw)
    assert aw.tolist() == [6, 0, 0, 0]                  # tie for second: nothing
    pos = katun_pos()
    pos.city(0, 0, BC)
    pos.city(1, 0, V)
    pos.turn(1, state.K_BALL)
    assert pos.pl[0, state.P_BALL] == 2 and pos.gs[state.GS_BALLS] == 1


def test_katun_eclipse_ends_chaaks_clemency():
    pos = katun_pos()
    pos.gs[state.GS_ROUND] = 4
    pos.turn(1, state.K_ECLIPSE)
    assert pos.gs[state.GS_ECL] == 4


def test_katun_drought_paid_from_a_reserve_or_two_villages_lost():
    pos = katun_pos()
    pos.city(1, 0, V, V, V, RES, tokens=[(3, MAIZE)])
    pos.turn(0, state.K_DROUGHT)          # the heuristic pays: 2 villages are worth more
    assert pos.pl[0, state.T_CPAID] == 1 and pos.tok[1, 3] == -1 and pos.count(0, V) == 3
    pos.turn(0, state.K_DROUGHT)          # nothing left to pay with
    assert pos.pl[0, state.T_CSUFF] == 1 and pos.count(0, V) == 1
    assert pos.pl[0, state.T_KLOST] == 2


def test_katun_insurrection_palace():
    pos = katun_pos()
    pos.city(1, 0, PAL, V)
    pos.turn(0, state.K_INSURR)
    assert pos.count(0, PAL) == 0 and pos.count(0, V) == 1


def test_katun_earthquake_temple_and_no_building_no_penalty():
    pos = katun_pos()
    pos.city(1, 0, V, RES, tokens=[(1, PRIS)])
    pos.turn(0, state.K_QUAKE)            # no temple: the Mayas do not pay
    assert pos.tok[1, 1] == PRIS and pos.pl[0, state.T_CPAID] + pos.pl[0, state.T_CSUFF] == 0
    pos.city(0, 0, TEM)
    pos.bot_ids[0] = RAND
    pos.seed(find_game(lambda s: s[1].rand_int(2) == 1))
    pos.turn(0, state.K_QUAKE)            # the random king chooses to pay his prisoner
    assert pos.tok[1, 1] == -1 and pos.count(0, TEM) == 1


def test_katun_pochteca_two_markets_with_their_pyramids():
    pos = katun_pos()
    pos.city(0, 0, MKT)
    pos.city(1, 0, MKT, MKT)
    pos.turn(0, state.K_POCHT)
    assert pos.count(0, MKT) == 1
    assert pos.sm[:, 0].sum() == 1 + pos.nnb[[s for s in range(4) if board.site_code_count(pos.bld, s, MKT)][0]]


def test_katun_toltec_raid_two_garrisons():
    pos = katun_pos()
    pos.city(1, 0, G, G, G)
    pos.turn(0, state.K_TOLTEC)
    assert pos.count(0, G) == 1


def test_katun_decadence_ball_court_and_observatory():
    pos = katun_pos()
    pos.city(1, 0, BC, OBS, OBS)
    pos.turn(0, state.K_DECAD)
    assert pos.count(0, BC) == 0 and pos.count(0, OBS) == 1


def test_katun_volcano_only_the_drawers_cities():
    pos = katun_pos()
    pos.city(0, 0, V, V)
    pos.city(1, 0, V)
    pos.city(2, 1, V)
    pos.turn(0, state.K_VOLCANO)
    assert pos.own[0] == -1 and pos.own[1] == 0 and pos.own[2] == 1
    pos.R[state.R_HIT] = state.HIT_ALL        # catastrophes for all: still the drawer's cities only
    pos.city(0, 0, V)
    pos.turn(0, state.K_VOLCANO)
    assert pos.own[0] == -1 and pos.own[2] == 1


def test_katun_tidal_wave_seashore_cities():
    pos = katun_pos()
    pos.city(0, 0, V)
    pos.city(1, 0, V)
    pos.city(2, 0, V)
    pos.city(0, 0, RES, RES, tokens=[(1, PRIS), (2, PRIS)])
    pos.turn(0, state.K_TIDAL)            # the heuristic pays two prisoners for two cities
    assert pos.pl[0, state.T_CPAID] == 1 and pos.own[0] == 0
    pos.turn(0, state.K_TIDAL)
    assert pos.own[0] == -1 and pos.own[2] == -1 and pos.own[1] == 0


# ------------------------------------------------------------------ divination, deck
def test_divination_ties():
    pos = katun_pos(players=3, bots=(HEUR, HEUR, HEUR))
    pos.gs[state.GS_NSLOT] = 4
    pos.city(0, 0, OBS, OBS)
    pos.city(1, 0, V)
    pos.city(2, 1, OBS)
    divination.divination(pos.own, pos.bld, pos.pl, pos.gs, pos.R, 0, pos.tmp)
    assert pos.pl[:, state.T_DIV].tolist() == [3, 1, 0]     # NJ cards, then one
    pos.city(3, 2, OBS)
    divination.divination(pos.own, pos.bld, pos.pl, pos.gs, pos.R, 0, pos.tmp)
    assert pos.pl[:, state.T_DIV].tolist() == [6, 1, 0]     # tie for second: nothing
    pos.city(3, 2, OBS)
    divination.divination(pos.own, pos.bld, pos.pl, pos.gs, pos.R, 0, pos.tmp)
    assert pos.pl[:, state.T_DIV].tolist() == [7, 1, 1]     # two tied first: one card each


def deck_of(R, seed, game, deck_data=DECK):
    """The kernel's deck for game ``game`` (card indices from the top)."""
    rs = np.zeros(state.NRS, np.uint64)
    N = len(deck_data.ctype)
    deck = np.zeros(N + 1, np.int64)
    scratch = (np.zeros(N + 1, np.int64), np.zeros(N + 1, np.int64), np.zeros(N + 1, np.uint64))
    base = np.uint64(py_game_base(seed, game))
    n = setup.build_deck(rs, base, deck_data.ctype, deck_data.cid, R, deck, *scratch)
    return deck[:n]


def test_deck_is_built_as_the_rulebook_sets_it_up():
    R = GAME.prepare(GAME.resolve_rules({}), 2)[0]
    deck = deck_of(R, 5, 7)
    n = len(deck)
    t = DECK.ctype[deck]
    assert n == 72 and sorted(deck.tolist()) == list(range(72))
    assert (t[:10] == state.K_PROS).all()
    assert t[35] == state.K_ECLIPSE
    balls = np.flatnonzero(np.delete(t, 35) == state.K_BALL).tolist()
    assert balls == [20, 31, 41, 51, 61]                 # after piles of 10, 10, 9, 9, 9


def test_random_piles_draw_which_piles_are_larger():
    # piles=random: still six piles of 9 or 10 (two of 10), the larger ones anywhere; all
    # fifteen placements of the two larger piles come up, about equally often
    R = GAME.prepare(GAME.resolve_rules({"piles": "random"}), 2)[0]
    seen = {}
    for g in range(3000):
        deck = deck_of(R, 5, g)
        n = len(deck)
        t = np.delete(DECK.ctype[deck], 35)
        assert n == 72 and (t[:10] == state.K_PROS).all()
        balls = np.flatnonzero(t == state.K_BALL)
        sizes = tuple(np.diff(np.r_[9, balls, 71]) - 1)
        assert sorted(sizes) == [9, 9, 9, 9, 10, 10]
        seen[sizes] = seen.get(sizes, 0) + 1
    assert len(seen) == 15 and min(seen.values()) > 3000 / 15 * 0.7


def test_heuristic_uses_what_it_divined():
    # Two face-down cards: a Drought in slot 0 and a Prosperous Katun in slot 1.  Purple
    # (villages, no reserve) has seen both and turns the good one; Grey, who saw nothing,
    # values them alike.
    pos = katun_pos()
    pos.city(1, 0, V, V, V)
    drought = int(np.flatnonzero(DECK.ctype == state.K_DROUGHT)[0])
    pros = int(np.flatnonzero(DECK.ctype == state.K_PROS)[0])
    pos.gs[state.GS_SLOT] = drought
    pos.gs[state.GS_SLOT + 1] = pros
    pos.gs[state.GS_NSLOT] = 2
    pos.gs[state.GS_LEFT] = 2
    pos.gs[state.GS_KNOWN] = 0b11
    heuristic.heuristic_turn(*pos.tuples(), 0)
    assert pos.gs[state.GS_SLOT + 1] == -1 and pos.gs[state.GS_SLOT] == drought
    assert pos.pl[0, state.P_KAT + state.K_PROS] == 1


def test_a_state_is_copied_in_one_call():
    pos = Pos(plain(3), [(0, 1), (1, 2)])
    pos.city(0, 0, V, V)
    copy = state.copy_state(pos.state)
    assert all((a == b).all() for a, b in zip(copy, pos.state))
    copy.bld[0, 0] = 0
    copy.pl[0, state.P_PRES] += 5
    copy.rs[1] += 1
    assert pos.bld[0, 0] == V and pos.pl[0, state.P_PRES] == 0 and pos.rs[1] == 0
