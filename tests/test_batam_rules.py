"""Batam rules, one hand-built situation per rule (calling the jitted kernel directly).

Boards are drawn as ``[captain sailor ship]`` with ``value/owner`` dice.  Small maps
are drawn as in ``seeds/batam/board.toml``: ``~`` sea, ``*`` compass, ``#`` land,
capital letters harbours (B = Batam, the start).
"""
from __future__ import annotations

import heapq
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from sim.games.batam import GAME
from sim.games.batam import data as DATA
from sim.record import NO_RECORD
from sim.games.batam import crew, ending, loop, money, phases, play, sailing, setup, state
from sim.params import ParamError
from sim.rng import SETUP, Stream

# ------------------------------------------------------------------ helpers
def make_ctx(players=4, **rules):
    return GAME.prepare(GAME.resolve_rules(rules), players)


def mini_ctx(grid: str, islands: dict, players=2, tiles=None, **rules):
    """A context whose map is ``grid`` (no validation: any size, any compass count)."""
    b = DATA._parse_grid(Path("mini"), {"grid": grid, "islands": islands, "start": "B"})
    d = DATA.derive(b)
    ctx = make_ctx(players, **rules)
    R = ctx.R.copy()
    R[state.R_STARTNODE] = int(np.flatnonzero(b.island == 0)[0])
    R[state.R_N] = len(b.kind)
    R[state.R_NI] = len(b.island_names)
    R[state.R_NC] = len(d["comp_nodes"])
    ctx = ctx._replace(
        R=R, board=state.Board(kind=b.kind, island=b.island, comp=d["comp"], comp_nodes=d["comp_nodes"],
                           nbr=b.nbr, deg=b.deg, padj=d["padj"], harb_nodes=d["harb_nodes"],
                           special=d["special"]),
        routes=state.Routes(DS=d["DS"], WS=d["WS"], LS=d["LS"], DSS=d["DSS"], LSS=d["LSS"]))
    if tiles is not None:
        R[state.R_NT] = len(tiles[0])
        tk, tv, ti = (np.array(t, np.int64) for t in tiles)
        ctx = ctx._replace(compass=ctx.compass._replace(
            tk=tk, tv=tv, ti=ti, tid=np.arange(1, len(tiles[0]) + 1, dtype=np.int64)))  # identities
    return ctx, b


def node(b, r, c):
    return b.cells.index((r, c))


def blank(ctx, seed=1, game=0):
    """A set-up game (ships at Batam, 20 coins each) and its streams."""
    R = ctx.R
    st = state.new_state()
    rs = np.zeros(state.N_RS, np.uint64)
    setup.start_streams(rs, np.uint64(seed), game, R[state.R_P])
    first = setup.setup(st, ctx, rs, np.zeros(state.MAXK, np.int64), NO_RECORD)
    # clear the compass set-up: tests place what they need
    st.tile[:state.MAXC] = -1
    st.g[state.G_PIRC] = -1
    return st, rs, first


def bot_params(name, players=4, **settings):
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in settings.items()) if settings else "")
    ids, par = GAME.bot_arrays(GAME.choose_bots(spec, players))
    bp = np.zeros((players, state.N_BOTPAR))
    bp[:, :par.shape[1]] = par
    return int(ids[0]), bp[0]


def put_board(st, b, dice):
    """dice: list of (value, owner), placed in order."""
    for v, o in dice:
        crew.place_die(st, b, v, o)


def board(st, b):
    return [(int(st.bv[b, k]), int(st.bo[b, k])) for k in range(st.nb[b])]


def tallies(st):
    """The tallies of the state ``st`` (``st.tal``: tally(tallies(st), ...) reads st)."""
    return st.tal


def sail(ctx, st, p, rs, tal=None, bot="heuristic", **settings):
    """Phase 3 for seat p (its tallies land in ``st``: ``tal`` is ``tallies(st)``)."""
    bid, bp = bot_params(bot, ctx.R[state.R_P], **settings)
    phases.sail(st, ctx, p, bid, bp, rs, play.new_scratch(ctx), NO_RECORD)


def tally(tal, t, p):
    return int(tal[t, p])


def total_money(st, players):
    return (int(st.g[state.G_BANK]) + int(st.coins[:players].sum())
            + int(st.offer[:players].sum()))


# ------------------------------------------------------------ crew placement
def test_rulebook_example_equal_value_pushes_right():
    # Alex's board: [4/C 2/D -]; Becky (seat 1) adds a 2: it goes immediately left of
    # the other 2, pushing it to the ship space: [4/C 2/Becky 2/D].  Board full.
    ctx = make_ctx(4)
    st, _, _ = blank(ctx)
    alex, becky = 0, 1
    put_board(st, alex, [(4, 2), (2, 3)])
    assert board(st, alex) == [(4, 2), (2, 3)]
    slot = crew.place_die(st, alex, 2, becky)
    assert slot == 1
    assert board(st, alex) == [(4, 2), (2, becky), (2, 3)]
    assert not crew.can_place(st, ctx.R, 2, alex)          # three dice: full


def test_first_die_is_captain_and_board_stays_descending():
    ctx = make_ctx(2)
    st, _, _ = blank(ctx)
    assert crew.place_die(st, 0, 1, 1) == 0                 # [1 - -]
    assert crew.place_die(st, 0, 5, 1) == 0                 # [5 1 -]
    assert crew.place_die(st, 0, 3, 1) == 1                 # [5 3 1]
    assert board(st, 0) == [(5, 1), (3, 1), (1, 1)]
    assert crew.board_total(st, 0) == 9


@pytest.mark.parametrize("players,limit", [(2, 3), (3, 2), (4, 1)])
def test_per_opponent_limits(players, limit):
    ctx = make_ctx(players)
    st, _, _ = blank(ctx)
    R = ctx.R
    assert R[state.R_OPPLIM] == limit
    assert not crew.can_place(st, R, 0, 0)                  # never on your own board
    for k in range(limit):
        assert crew.can_place(st, R, 0, 1)
        crew.place_die(st, 1, 3, 0)
    assert not crew.can_place(st, R, 0, 1)                  # limit reached ...
    if players > 2:
        assert crew.can_place(st, R, 2, 1)                  # ... for seat 0 only


@pytest.mark.parametrize("players", [2, 3, 4])
def test_place_phase_places_every_numbered_die_within_limits(players):
    # seat 0 rolled [5, seasick, 3]: the seasick die cannot be placed
    ctx = make_ctx(players)
    for bot in ("random", "heuristic"):
        st, rs, _ = blank(ctx)
        st.dv[0] = [5, 0, 3]
        bid, bp = bot_params(bot, players)
        phases.place_phase(st, ctx.R, 0, bid, bp, rs, np.zeros(64, np.int64), np.zeros(state.MAXP, np.int64),
                      NO_RECORD)
        placed = [(b, v) for b in range(players) for v, o in board(st, b) if o == 0]
        assert sorted(v for _, v in placed) == [3, 5]
        assert all(b != 0 for b, _ in placed)
        for b in range(1, players):
            assert sum(1 for bb, _ in placed if bb == b) <= ctx.R[state.R_OPPLIM]


def test_dice_that_fit_nowhere_stay_home():
    # 4 players, seat 0 rolled [4, 4, 4]; boards 1 and 2 are full: only one die goes (on 3)
    ctx = make_ctx(4)
    st, rs, _ = blank(ctx)
    put_board(st, 1, [(5, 2), (5, 3), (1, 2)])
    put_board(st, 2, [(5, 1), (5, 3), (1, 1)])
    st.dv[0] = [4, 4, 4]
    bid, bp = bot_params("random", 4)
    phases.place_phase(st, ctx.R, 0, bid, bp, rs, np.zeros(64, np.int64), np.zeros(state.MAXP, np.int64),
                      NO_RECORD)
    assert board(st, 3) == [(4, 0)]
    assert list(st.dv[0]).count(4) == 2


def test_heuristic_places_high_die_on_best_wage():
    # Offers: seat 1 captain 5, seat 2 captain 1, seat 3 captain 2; seat 0 holds 5, 2, 1.
    # Wage-first placement: the 5 goes to seat 1 (captain 5 coins).
    ctx = make_ctx(4)
    st, rs, _ = blank(ctx)
    for b, (c, s) in {1: (5, 1), 2: (1, 1), 3: (2, 1)}.items():
        st.offer[b, 0] = c
        st.offer[b, 1] = s
    st.dv[0] = [2, 5, 1]
    bid, bp = bot_params("miser", 4)
    phases.place_phase(st, ctx.R, 0, bid, bp, rs, np.zeros(64, np.int64), np.zeros(state.MAXP, np.int64),
                      NO_RECORD)
    assert board(st, 1) == [(5, 0)]


# ------------------------------------------------------------------- money
def test_wage_offers_move_coins_and_respect_minimum():
    ctx = make_ctx(4)
    st, rs, _ = blank(ctx)
    for bot in ("random", "heuristic", "miser"):
        for coins in (0, 1, 2, 7, 40):
            st.coins[0] = coins
            st.offer[0] = 0
            bid, bp = bot_params(bot, 4)
            phases.offer_wages(st, ctx.R, 0, bid, bp, rs, NO_RECORD)
            cap, sal = int(st.offer[0, 0]), int(st.offer[0, 1])
            assert cap + sal + st.coins[0] == coins
            if coins >= 2:
                assert cap >= 1 and sal >= 1
            else:
                assert (cap, sal) == ((1, 0) if coins == 1 else (0, 0))


def test_heuristic_wage_bidding_outbid_adapt_give_up():
    # 4 players, 20 coins each.  Round 1 (no history): the first in the crew row offers
    # captain 4 / sailor 1; the next sees 4 on the table and offers 5; with 4 coins a
    # player is capped at half its coins (2).
    ctx = make_ctx(4)
    st, rs, _ = blank(ctx)
    bid, bp = bot_params("heuristic", 4)
    phases.offer_wages(st, ctx.R, 0, bid, bp, rs, NO_RECORD)
    phases.offer_wages(st, ctx.R, 1, bid, bp, rs, NO_RECORD)
    assert st.offer[:2].tolist() == [[4, 1], [5, 1]]
    st.coins[2] = 4
    phases.offer_wages(st, ctx.R, 2, bid, bp, rs, NO_RECORD)
    assert list(st.offer[2]) == [2, 1]
    # a later round: the others paid at most 2 for a captain last round, so 3 is enough
    st, rs, _ = blank(ctx)
    st.lastcap[:4] = [5, 2, 1, 1]
    phases.offer_wages(st, ctx.R, 0, bid, bp, rs, NO_RECORD)
    assert list(st.offer[0]) == [3, 1]
    # ... unless someone already offered more this round: outbid by one
    st.offer[3, 0] = 5
    phases.offer_wages(st, ctx.R, 1, bid, bp, rs, NO_RECORD)
    assert st.offer[1, 0] == 6
    # someone paid 9 last round: beating it (10) costs more than 4 + 2, so it offers 1
    st, rs, _ = blank(ctx)
    st.lastcap[:4] = [5, 9, 1, 1]
    phases.offer_wages(st, ctx.R, 0, bid, bp, rs, NO_RECORD)
    assert list(st.offer[0]) == [1, 1]
    # the modest style ignores the others
    bid, bp = bot_params("modest", 4)
    phases.offer_wages(st, ctx.R, 2, bid, bp, rs, NO_RECORD)
    assert list(st.offer[2]) == [3, 2]


def test_collect_wages_captain_sailor_paid_ship_free_unclaimed_returned():
    # seat 0 offers captain 4, sailor 2; its board [5/1 3/2 1/3]: seat 1 earns 4, seat 2
    # earns 2, seat 3 (ship space) nothing.  Seat 1 offers 3 and 1 but gets one die
    # [2/0 - -]: seat 0 earns 3 and seat 1 takes its sailor's coin back.
    ctx = make_ctx(4)
    st, _, _ = blank(ctx)
    tal = tallies(st)
    st.coins[:4] = 10
    st.offer[:2] = [[4, 2], [3, 1]]
    put_board(st, 0, [(5, 1), (3, 2), (1, 3)])
    put_board(st, 1, [(2, 0)])
    before = total_money(st, 4)
    crew.collect_wages(st, ctx.R, NO_RECORD)
    assert list(st.coins[:4]) == [13, 15, 12, 10]
    assert total_money(st, 4) == before
    assert st.nb[:4].sum() == 0 and st.offer.sum() == 0
    assert [tally(tal, state.T_WEARN, p) for p in range(4)] == [3, 4, 2, 0]
    assert [tally(tal, state.T_WPAID, p) for p in range(4)] == [6, 3, 0, 0]


def eager_rerolls(ctx, coins=20):
    """Seat 0 re-rolls whenever it can (any die up to 5, at most three times, no reserve):
    (re-rolls, coins paid, coins left, bank gain)."""
    st, rs, _ = blank(ctx)
    st.coins[0] = coins
    bank = int(st.g[state.G_BANK])
    tal = tallies(st)
    bid, bp = bot_params("heuristic", 4, reroll_low=5, reroll_max=3, reserve=0)
    phases.reroll_phase(st, ctx.R, ctx.faces, 0, bid, bp, rs, 0, NO_RECORD)
    return tally(tal, state.T_RR, 0), tally(tal, state.T_RRC, 0), int(st.coins[0]), int(st.g[state.G_BANK]) - bank


def test_rerolls_cost_as_the_rulebook_example_two_three_four_in_total():
    # "total 3 coins for two rerolls, 4 coins for three rerolls": 2, then 1 more each
    ctx = make_ctx(4)
    assert eager_rerolls(ctx) == (3, 4, 16, 4)
    # with only 3 coins: the first re-roll (2) and a second (1), then nothing left
    assert eager_rerolls(ctx, coins=3) == (2, 3, 0, 3)


def test_rising_reroll_pricing_costs_two_then_three_then_four_each():
    ctx = make_ctx(4, reroll_pricing="rising")
    assert eager_rerolls(ctx) == (3, 2 + 3 + 4, 11, 9)
    # with only 4 coins: one re-roll (2), the next would cost 3 > 2 left
    assert eager_rerolls(ctx, coins=4) == (1, 2, 2, 2)


def test_sale_pays_25_and_5_to_each_earlier_cube():
    # Sugi already holds cubes of seats 1 and 2; seat 0 sells there: +25 from the bank,
    # -5 to each of them.  Seat 3 has no cube there and gets nothing.
    ctx = make_ctx(4)
    st, _, _ = blank(ctx)
    tal = tallies(st)
    isl = 3
    for q in (1, 2):
        st.cube[isl, q] = 1
        st.ncube[isl] += 1
    before = total_money(st, 4)
    bank = int(st.g[state.G_BANK])
    sailing.sell(st, ctx.R, 0, isl, NO_RECORD)
    assert list(st.coins[:4]) == [35, 25, 25, 20]
    assert st.g[state.G_BANK] == bank - 25
    assert st.ncube[isl] == 3 and st.goods[0] == 1
    assert total_money(st, 4) == before
    assert tally(tal, state.T_PAYR, 1) == 5 and tally(tal, state.T_PAYR, 2) == 5


def test_bank_short_pays_what_it_has_unlimited_goes_negative():
    for mode, coins, bank in (("short", 20 + 7, 0), ("unlimited", 20 + 25, -18)):
        ctx = make_ctx(2, bank_empty=mode)
        st, _, _ = blank(ctx)
        st.g[state.G_BANK] = 7
        money.bank_pays(st, ctx.R, 0, 25)
        assert st.coins[0] == coins and st.g[state.G_BANK] == bank and st.g[state.G_SHORT] == 18


# ------------------------------------------------------------------ sailing
LINE = "B~~~~R"          # spaces 0..5; R = Rempang


def test_occupied_space_costs_two_and_cannot_be_the_end():
    #   B ~ x ~ ~ R     seat 1's ship sits on space 2 (x)
    ctx, b = mini_ctx(LINE, {"B": "Batam", "R": "Rempang"})
    st, rs, _ = blank(ctx)
    R = ctx.R
    st.pos[1] = 2
    fc = np.zeros((2, state.MAXP), np.int64)
    args = (st, R, ctx.board.kind, ctx.board.comp, ctx.board.nbr, ctx.board.deg, fc, 0)
    assert sailing.enter_cost(st, R, ctx.board.kind, 0, 2) == 2
    assert sailing.finish_cost(st, R, ctx.board.kind, ctx.board.comp, ctx.board.nbr, ctx.board.deg, fc, 0,
                         2) == 1
    st.pos[0] = 1
    assert sailing.safe_step(*args, 2, 2) == -1      # 2 to enter, nowhere to stop afterwards
    assert sailing.safe_step(*args, 2, 3) == 2       # 2 to enter, 1 more to space 3
    # sailing with dice 2+1+1 = 4 from Batam: 1 + 2 + 1 = space 3, not Rempang
    st.pos[0] = 0
    put_board(st, 0, [(2, 1), (1, 1), (1, 1)])
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal)
    assert st.pos[0] == 3 and tally(tal, state.T_DIST, 0) == 3 and st.goods[0] == 0


def test_ship_may_end_in_an_occupied_harbour_and_sells_there():
    #   B ~ ~ ~ ~ R*    seat 1's ship is in Rempang's harbour
    ctx, b = mini_ctx(LINE, {"B": "Batam", "R": "Rempang"})
    st, rs, _ = blank(ctx)
    st.pos[1] = 5
    put_board(st, 0, [(3, 1), (3, 1)])          # 6 = 4 + 2 (occupied harbour)
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal)
    assert st.pos[0] == 5 and st.goods[0] == 1 and st.coins[0] == 45
    # occupied_harbour=false: the harbour costs 1, so 5 points are enough
    ctx, b = mini_ctx(LINE, {"B": "Batam", "R": "Rempang"}, occupied_harbour=False)
    st, rs, _ = blank(ctx)
    st.pos[1] = 5
    put_board(st, 0, [(3, 1), (2, 1)])
    sail(ctx, st, 0, rs, tal)
    assert st.pos[0] == 5 and st.goods[0] == 1


TWO_ISLES = """
B~~S~~R
"""


def test_selling_costs_no_movement_and_the_ship_sails_on():
    #   B ~ ~ S ~ ~ R   one move of 6 sells at Sugi (3 spaces) and Rempang (6)
    ctx, b = mini_ctx(TWO_ISLES, {"B": "Batam", "S": "Sugi", "R": "Rempang"})
    st, rs, _ = blank(ctx)
    put_board(st, 0, [(3, 1), (3, 1)])
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal)
    assert st.pos[0] == 6 and st.goods[0] == 2 and st.coins[0] == 70


PIRATE_MAP = """
B~*~R
~~~~~
~~~~~
"""


def test_pirate_tile_blocks_its_space_and_charges_neighbours():
    #   B ~ P ~ R      P: pirate tile on the compass space; its neighbours cost 3 per die
    #   ~ ~ $ ~ ~      ($ = a neighbour of the pirate)
    #   ~ ~ ~ ~ ~
    tiles = ([state.PIRATE], [0], [-1])
    ctx, b = mini_ctx(PIRATE_MAP, {"B": "Batam", "R": "Rempang"}, tiles=tiles, compass="tiles")
    pir = node(b, 0, 2)
    for bot, path in (("plodder", 6), ("heuristic", 8)):
        st, rs, _ = blank(ctx)
        st.tile[0] = 0
        st.g[state.G_PIRC] = 0
        assert sailing.is_blocked(st, ctx.board.comp, pir)
        put_board(st, 0, [(5, 1), (3, 1)])      # two dice, 8 movement
        tal = tallies(st)
        sail(ctx, st, 0, rs, tal, bot=bot)
        assert st.pos[0] == node(b, 0, 4), bot           # reached Rempang either way
        assert tally(tal, state.T_DIST, 0) == path, bot        # the heuristic sails round
        fee = tally(tal, state.T_PIRC, 0)
        assert fee == 6 * tally(tal, state.T_PIR, 0), bot       # 3 coins x 2 dice a neighbour
        assert (fee > 0) == (bot == "plodder"), bot          # the heuristic avoids them
        assert st.coins[0] == 20 + 25 - fee
    # 'once': a second pirate neighbour in the same round is free
    ctx, b = mini_ctx("~~~\n~*~\nB~R", {"B": "Batam", "R": "Rempang"}, tiles=tiles,
                      compass="tiles", pirate_charge="once")
    st, rs, _ = blank(ctx)
    st.tile[0] = 0
    st.g[state.G_PIRC] = 0
    put_board(st, 0, [(2, 1)])
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal)          # B -> ~(pirate neighbour) -> R(neighbour)
    assert st.pos[0] == node(b, 2, 2) and tally(tal, state.T_PIRC, 0) == 3
    assert tally(tal, state.T_PIR, 0) == 1


COMPASS_LINE = "B~*~R"


@pytest.mark.parametrize("pay_limit,stops", [(0, True), (100, False)])
def test_pirate_card_pay_per_die_or_stop(pay_limit, stops):
    #   B ~ * ~ R   the deck holds one pirate card (2 coins per die); three dice aboard
    ctx, b = mini_ctx(COMPASS_LINE, {"B": "Batam", "R": "Rempang"}, compass="cards")
    ck, cv = ctx.compass.ck, ctx.compass.cv
    k = int(np.flatnonzero((ck == state.PIRATE) & (cv == 2))[0])
    st, rs, _ = blank(ctx)
    st.deck[0] = k
    st.g[state.G_DECKN] = 1
    st.g[state.G_DISCN] = 0
    put_board(st, 0, [(2, 1), (1, 1), (1, 1)])
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal, pirate_pay=pay_limit)
    assert tally(tal, state.T_PIR, 0) == 1
    assert st.g[state.G_DISCN] == 1 and st.disc[0] == k        # discarded either way
    if stops:
        assert st.pos[0] == 2 and st.coins[0] == 20
    else:
        assert st.pos[0] == 4 and st.coins[0] == 20 - 6 + 25


def test_compass_cards_tradewind_treasure_and_map():
    #   B ~ * ~ R   tradewind 3 on the compass space: 3 dice of 1 reach Rempang (4 spaces)
    ctx, b = mini_ctx(COMPASS_LINE, {"B": "Batam", "R": "Rempang"}, compass="cards")
    ck, cv = ctx.compass.ck, ctx.compass.cv
    tw = int(np.flatnonzero((ck == state.TRADEWIND) & (cv == 3))[0])
    st, rs, _ = blank(ctx)
    st.deck[0] = tw
    st.g[state.G_DECKN] = 1
    put_board(st, 0, [(1, 1), (1, 1), (1, 1)])
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal)
    assert st.pos[0] == 4 and tally(tal, state.T_TW, 0) == 1 and st.goods[0] == 1
    # sunken treasure 4: coins from the bank
    sk = int(np.flatnonzero((ck == state.SUNKEN) & (cv == 4))[0])
    st, rs, _ = blank(ctx)
    st.deck[0] = sk
    st.g[state.G_DECKN] = 1
    put_board(st, 0, [(3, 1)])
    tal = tallies(st)
    tal[:] = 0
    sail(ctx, st, 0, rs, tal)
    assert st.pos[0] == 3 and st.coins[0] == 24 and tally(tal, state.T_SUNK, 0) == 1


def test_treasure_map_tile_paid_at_the_islands_harbour_and_tradewind_once_per_round():
    #   B * * ~ R   compass 0: treasure map (Rempang, 6); compass 1: tradewind 2, and a
    #               second tradewind tile later in the round does nothing
    tiles = ([state.MAP, state.TRADEWIND, state.TRADEWIND], [6, 2, 4], [1, -1, -1])
    ctx, b = mini_ctx("B**~R\n~~*~~", {"B": "Batam", "R": "Rempang"}, tiles=tiles, compass="tiles")
    st, rs, _ = blank(ctx)
    st.tile[:3] = [0, 1, 2]
    put_board(st, 0, [(1, 1), (1, 1)])            # 2 movement + tradewind 2 = 4 = Rempang
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal, treasure_w=0)
    assert st.pos[0] == node(b, 0, 4)
    assert tally(tal, state.T_MAP, 0) == 1 and tally(tal, state.T_TW, 0) == 1
    assert st.coins[0] == 20 + 25 + 6 and tally(tal, state.T_TREAS, 0) == 6
    assert st.tile[0] == -1 and st.tile[1] == 1      # map taken, tradewind stays
    assert st.mapv[0, 1] == 0
    assert st.rflags[state.RF_TW, 0] == 1 << 1                              # compass 1's used this round
    # the same round: moving over the other tradewind tile
    st.nb[0] = 0
    put_board(st, 0, [(2, 1)])
    tal = tallies(st)
    tal[:] = 0
    st.pos[0] = node(b, 1, 3)                                # ~ ~ * [x] ~
    phases.sail(st, ctx, 0, state.BOT_RANDOM, np.zeros(state.N_BOTPAR), rs, play.new_scratch(ctx), NO_RECORD)
    assert tally(tal, state.T_TW, 0) == 0


@pytest.mark.parametrize("limit", ["any", "each"])
def test_two_tradewind_tiles_in_one_move(limit):
    #   B * ~ * ~ ~ R   two tradewind 2 tiles on the only way to Rempang, two dice of 1:
    #   2 movement, +2 at the first tile; 'any' (the default): the second gives nothing and
    #   the ship stops short; 'each': +2 again, enough to reach Rempang (6 spaces)
    tiles = ([state.TRADEWIND, state.TRADEWIND], [2, 2], [-1, -1])
    ctx, b = mini_ctx("B*~*~~R", {"B": "Batam", "R": "Rempang"}, tiles=tiles, compass="tiles",
                      tradewind_limit=limit)
    st, rs, _ = blank(ctx)
    st.tile[:2] = [0, 1]
    put_board(st, 0, [(1, 1), (1, 1)])
    tal = tallies(st)
    sail(ctx, st, 0, rs, tal)
    if limit == "any":
        assert tally(tal, state.T_TW, 0) == 1 and st.rflags[state.RF_TW, 0] == 1 << 0
        assert st.pos[0] == 4 and st.goods[0] == 0
    else:
        assert tally(tal, state.T_TW, 0) == 2 and st.rflags[state.RF_TW, 0] == (1 << 0) | (1 << 1)
        assert st.pos[0] == 6 and st.goods[0] == 1           # sold at Rempang


def test_deck_reshuffles_discards_when_empty():
    ctx = make_ctx(4, compass="cards")
    st, rs, _ = blank(ctx)
    st.g[state.G_DECKN] = 0
    st.disc[:3] = [3, 5, 7]
    st.g[state.G_DISCN] = 3
    k = sailing.draw_card(st, rs, ctx.compass.cid, NO_RECORD)
    assert k in (3, 5, 7)
    assert st.g[state.G_DECKN] == 2 and st.g[state.G_DISCN] == 0
    assert sorted(list(st.deck[:2]) + [k]) == [3, 5, 7]
    st.g[state.G_DECKN] = 0
    st.g[state.G_DISCN] = 0
    assert sailing.draw_card(st, rs, ctx.compass.cid, NO_RECORD) == -1        # nothing left anywhere


# ------------------------------------------------------------------ the end
def test_return_triggers_end_and_bonus_for_every_returning_ship():
    #   B ~ ~ R      every ship starts on space 2 with one die of 3 (Batam costs 2 when
    #                another ship is there).
    #   seat 2 (goods left) returns first: no trigger yet (the random bot, on a seed
    #   where it sails home); seat 0 (all goods sold) returns and triggers the end;
    #   seat 1 (already sold at Rempang) then heads home for the bonus.
    #   Window 'round': all three get 10; 'after': only seats 0 and 1.
    for window, paid in (("round", [10, 10, 10]), ("after", [10, 10, 0])):
        ctx, b = mini_ctx("B~~R", {"B": "Batam", "R": "Rempang"}, players=3, bonus_window=window)
        R = ctx.R
        st, rs, _ = blank(ctx)
        tal = tallies(st)
        st.goods[0] = R[state.R_GOODS]
        st.cube[1, 1] = 1
        for p in range(3):
            st.pos[p] = 2
            put_board(st, p, [(3, (p + 1) % 3)])
        for seed in range(200):
            trial = state.new_state()
            state.copy_state_into(trial, st)
            setup.start_streams(rs, np.uint64(seed), 0, 3)
            sail(ctx, trial, 2, rs, tal, bot="random")
            if trial.pos[2] == 0:
                state.copy_state_into(st, trial)
                break
        assert st.pos[2] == 0 and st.rflags[state.RF_RET, 2] == 1
        assert st.g[state.G_ENDED] == 0 and st.rflags[state.RF_RETA, 2] == 0
        tal = tallies(st)
        tal[:] = 0
        for p in (0, 1):
            sail(ctx, st, p, rs, tal)
            assert st.pos[p] == 0
        assert st.g[state.G_ENDED] == 1 and st.g[state.G_ENDER] == 0
        coins = st.coins[:3].copy()
        ending.return_bonuses(st, R, 0, NO_RECORD)
        assert list(st.coins[:3] - coins) == paid
        assert [tally(tal, state.T_BONUS, p) for p in range(3)] == paid


def test_ranking_coins_then_goods_then_shared():
    ctx = make_ctx(4)
    st, _, _ = blank(ctx)
    win = np.zeros(4)
    for coins, goods, winner, wins in (
        ([50, 60, 40, 10], [4, 1, 4, 4], 1, [0, 1, 0, 0]),
        ([60, 60, 40, 10], [4, 3, 4, 4], 0, [1, 0, 0, 0]),
        ([60, 60, 60, 10], [3, 3, 2, 4], -1, [0.5, 0.5, 0, 0]),
    ):
        st.coins[:4] = coins
        st.goods[:4] = goods
        assert ending.final_ranking(st, ctx.R, win) == winner
        assert list(win) == wins


def test_crew_row_starts_with_first_player_and_rotates():
    # first player Blue (seat 1) of 4: round 1 row Blue Green Yellow Red; after each
    # round the leftmost board moves to the right end
    rows = [[loop.crew_seat(1, rnd, i, 4) for i in range(4)] for rnd in range(3)]
    assert rows == [[1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
    assert [loop.crew_seat(2, 1, i, 3) for i in range(3)] == [0, 1, 2]


def test_first_player_by_two_dice_ties_rerolled():
    # the rulebook's procedure written out with its chance substream (SETUP, 0): every
    # contender rolls two dice (seasick = 0) in seat order; the tied leaders roll again
    faces = [0, 1, 2, 3, 4, 5]
    ties = 0
    for g in range(300):
        s = Stream.substream(9, g, SETUP, 0)
        cont = [0, 1, 2, 3]
        rounds = 0
        while True:
            vals = {p: faces[s.rand_int(6)] + faces[s.rand_int(6)] for p in cont}
            best = max(vals.values())
            cont = [p for p in cont if vals[p] == best]
            rounds += 1
            if len(cont) == 1:
                break
        ties += rounds > 1
        rs = np.zeros(state.N_RS, np.uint64)
        rs[state.RS_SETUP] = Stream.substream(9, g, SETUP, 0).state
        assert setup.first_by_dice(rs, np.array(faces, np.int64), 4, np.zeros(8, np.int64), NO_RECORD) == cont[0]
    assert ties > 10


# -------------------------------------------------------------- data files
def test_default_data_matches_the_rulebook_counts():
    d = DATA.load_all(GAME.resolve_rules({}))
    assert len(d["comp_nodes"]) == 7
    assert len(d["tk"]) == 8 and len(d["ck"]) == 18
    assert d["bank_total"] == 33 * 1 + 39 * 5 + 16 * 25 == 628
    assert d["start_coins"] == 20 and d["goods"] == 4
    names = d["board"].island_names
    assert names[0] == "Batam" and {"Rempang", "Sugi", "Citlim"} <= set(names)
    assert sorted(d["tv"][d["tk"] == state.TRADEWIND]) == [2, 3, 4]
    assert sorted(d["tv"][d["tk"] == state.SUNKEN]) == [8, 10]
    assert sorted(set(d["cv"][d["ck"] == state.TRADEWIND])) == [2, 3]
    assert sorted(set(d["cv"][d["ck"] == state.SUNKEN])) == [2, 3, 4]
    assert sorted(set(d["cv"][d["ck"] == state.PIRATE])) == [1, 2]
    assert sorted(names[i] for i in d["ci"][d["ck"] == state.MAP]) == ["Citlim", "Rempang", "Sugi"]
    assert list(d["faces"]) == [0, 1, 2, 3, 4, 5]


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("grid,msg", [
    ("B~~R", "compass spaces"),
    ("B~*~*~*~*~*~*~*~R~Q", "unknown map character"),
    ("B~*~*~*~*~*~*~*~R~S~C~G\n" + "#" * 23 + "\n" + "~" * 23, "cannot be reached"),
    ("B~*~*~*~*~*~*~*~R~S~C~G", "would cut off"),
])
def test_bad_board_files_are_rejected(tmp_path, grid, msg):
    isl = 'B = "Batam"\nR = "Rempang"\nS = "Sugi"\nC = "Citlim"\nG = "Galang"\n'
    if "S" not in grid:
        isl = 'B = "Batam"\nR = "Rempang"\n'
    f = _write(tmp_path, "b.toml", f'start = "B"\ngrid = """\n{grid}\n"""\n[islands]\n{isl}')
    with pytest.raises(ParamError, match=msg):
        make_ctx(4, board=f)


def test_bad_deck_and_dice_files_are_rejected(tmp_path):
    f = _write(tmp_path, "c.toml", '[[card]]\nkind = "kraken"\nvalue = 2\n')
    with pytest.raises(ParamError, match="kind"):
        make_ctx(4, cards=f)
    f = _write(tmp_path, "c.toml", '[[card]]\nkind = "treasure_map"\nisland = "Atlantis"\nvalue = 2\n')
    with pytest.raises(ParamError, match="Atlantis"):
        make_ctx(4, cards=f)
    f = _write(tmp_path, "t.toml", '[[tile]]\nkind = "tradewind"\nvalue = 2\n')
    with pytest.raises(ParamError, match="at least 7"):
        make_ctx(4, tiles=f)
    f = _write(tmp_path, "t.toml", '[[tile]]\nkind = "pirate"\n' * 8)
    with pytest.raises(ParamError, match="more than one pirate"):
        make_ctx(4, tiles=f)
    f = _write(tmp_path, "d.toml", 'faces = ["seasick", "seasick"]\n')
    with pytest.raises(ParamError, match="number"):
        make_ctx(4, dice=f)
    with pytest.raises(ParamError, match="cannot be read"):
        make_ctx(4, dice=str(tmp_path / "missing.toml"))
    f = _write(tmp_path, "m.toml", 'start_coins = 300\ngoods_per_player = 4\n[bank]\n1 = 10\n')
    with pytest.raises(ParamError, match="too few"):
        make_ctx(4, components=f)


# ------------------------------------------------------------ route tables
def _bfs(nb, n, t, blocked):
    """Fewest spaces from every space to t (the pirate's space ``blocked``)."""
    dist = [state.INF] * n
    if t == blocked:
        return dist
    dist[t] = 0
    todo = deque([t])
    while todo:
        u = todo.popleft()
        for v in nb[u]:
            if v != blocked and dist[v] == state.INF:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist


def _dijkstra(nb, n, t, blocked):
    """Routes towards t: entering u costs 1, or 1 + PIRATE_PENALTY next to the pirate;
    equal weights broken by fewer spaces.  Returns (weight, spaces) per space."""
    if t == blocked:
        return [state.INF] * n, [state.INF] * n
    best = {}
    heap = [(0, 0, t)]
    while heap:
        w, steps, u = heapq.heappop(heap)
        if u in best:
            continue
        best[u] = (w, steps)
        enter_u = 1 + (state.PIRATE_PENALTY if blocked in nb[u] else 0)
        for v in nb[u]:
            if v != blocked and v not in best:
                heapq.heappush(heap, (w + enter_u, steps + 1, v))
    return ([best.get(v, (state.INF, state.INF))[0] for v in range(n)],
            [best.get(v, (state.INF, state.INF))[1] for v in range(n)])


@pytest.mark.parametrize("crowded", [False, True])
def test_route_tables_are_the_shortest_paths(crowded):
    """The kernel's distance tables (the heuristic's route planner reads them; the replay
    does not need them) against plain BFS and Dijkstra, for every pirate position."""
    from tests.reference.batam_ref import CROWDED
    ctx = make_ctx(4, **({"board": str(CROWDED)} if crowded else {}))
    b = ctx.board
    n = len(b.kind)
    nb = [[int(b.nbr[v, j]) for j in range(b.deg[v])] for v in range(n)]
    special = [int(x) for x in b.special]
    comp = [int(x) for x in b.comp_nodes]
    for var, blocked in enumerate([None] + comp):
        for a, t in enumerate(special):
            steps = _bfs(nb, n, t, blocked)
            weight, length = (steps, steps) if blocked is None else _dijkstra(nb, n, t, blocked)
            assert list(ctx.routes.DS[var, a]) == steps
            assert list(ctx.routes.WS[var, a]) == weight
            assert list(ctx.routes.LS[var, a]) == length
            assert list(ctx.routes.DSS[var, a]) == [steps[s] for s in special]
            assert list(ctx.routes.LSS[var, a]) == [length[s] for s in special]
