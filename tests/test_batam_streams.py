"""The heuristic bots break exact ties with their own random stream (``1 + seat``), never
by seat, board, space or option number; and chance comes from substreams by purpose.

Each tie test builds a position with equal best options and checks that, across bot
seeds, every one of them is chosen (the old code always took the first in its scan).
"""
from __future__ import annotations

import numpy as np

from sim.games.batam import GAME
from sim.record import NO_RECORD, NO_SNAPS
from sim.games.batam import phases, play as batam_play, sailing, setup, state
from sim.games.batam.bots import heuristic
from sim.rng import DICE, SETUP, Stream, py_game_base, py_substream_start
from tests.test_batam_rules import blank, bot_params, make_ctx, mini_ctx, node, tallies


def reseed(rs, seed, players):
    setup.start_streams(rs, np.uint64(seed), 0, players)


# ------------------------------------------------------------------ placement
def test_equal_boards_are_chosen_uniformly_by_the_placer_stream():
    # seat 0 rolled [3, seasick, seasick]; seats 1, 2, 3 offer the same wages (captain 2,
    # sailor 1) on empty boards and stand equal: three equal best placements
    ctx = make_ctx(4)
    bid, bp = bot_params("heuristic", 4)
    chosen = []
    for seed in range(120):
        st, rs, _ = blank(ctx)
        reseed(rs, seed, 4)
        for b in range(1, 4):
            st.offer[b, 0] = 2
            st.offer[b, 1] = 1
        st.coins[0] = 17
        st.dv[0] = [3, 0, 0]
        others = rs[2:5].copy()
        before = rs[1]
        phases.place_phase(st, ctx.R, 0, bid, bp, rs, np.zeros(64, np.int64), np.zeros(state.MAXP, np.int64),
                  NO_RECORD)
        chosen += [b for b in range(1, 4) if st.nb[b] == 1]
        assert rs[1] != before                      # the placer's own stream decided
        assert (rs[2:5] == others).all()            # and no other seat's
    counts = np.bincount(chosen, minlength=4)[1:]
    assert len(chosen) == 120 and counts.min() >= 25, counts


def test_no_tie_draws_nothing():
    # distinct wages: the best board is clear, and the bot stream is not touched
    ctx = make_ctx(4)
    bid, bp = bot_params("heuristic", 4)
    st, rs, _ = blank(ctx)
    for b, cap in ((1, 2), (2, 5), (3, 3)):
        st.offer[b, 0] = cap
        st.offer[b, 1] = 1
    st.dv[0] = [4, 0, 0]
    before = rs.copy()
    phases.place_phase(st, ctx.R, 0, bid, bp, rs, np.zeros(64, np.int64), np.zeros(state.MAXP, np.int64),
                  NO_RECORD)
    assert st.nb[2] == 1 and (rs == before).all()


def test_equal_dice_are_one_option():
    # two dice of 4 and one board open: placing either is the same move, no tie is drawn
    ctx = make_ctx(2)
    bid, bp = bot_params("heuristic", 2)
    st, rs, _ = blank(ctx)
    st.offer[1] = [3, 1]
    st.dv[0] = [4, 4, 0]
    before = rs.copy()
    phases.place_phase(st, ctx.R, 0, bid, bp, rs, np.zeros(64, np.int64), np.zeros(state.MAXP, np.int64),
                  NO_RECORD)
    assert [int(st.bv[1, k]) for k in range(2)] == [4, 4] and (rs == before).all()


# ------------------------------------------------------------------ sailing
def test_equal_first_steps_are_chosen_uniformly():
    #   B ~        Rempang is two spaces from Batam either way round: east then south, or
    #   ~ R        south then east
    ctx, b = mini_ctx("B~\n~R", {"B": "Batam", "R": "Rempang"})
    R = ctx.R
    target = int(np.flatnonzero(ctx.board.special == node(b, 1, 1))[0])    # its special index
    firsts = []
    for seed in range(80):
        st, rs, _ = blank(ctx)
        reseed(rs, seed, 2)
        n = heuristic.heuristic_step(st, R, ctx.board, ctx.routes.WS, np.zeros((2, state.MAXP), np.int64), 0,
                             node(b, 0, 0), target, node(b, 1, 1), 2, True, False, rs)
        firsts.append(n)
    assert set(firsts) == {node(b, 0, 1), node(b, 1, 0)}
    assert 20 <= firsts.count(node(b, 0, 1)) <= 60


def test_equal_target_harbours_are_chosen_uniformly():
    #   S ~ B ~ R   Sugi and Rempang, both unsold, both two spaces away: equal targets
    ctx, b = mini_ctx("S~B~R", {"B": "Batam", "S": "Sugi", "R": "Rempang"})
    R = ctx.R
    bid, bp = bot_params("heuristic", 2)
    picks = []
    for seed in range(80):
        st, rs, _ = blank(ctx)
        reseed(rs, seed, 2)
        t = heuristic.plan_target(st, R, ctx.board, ctx.compass, ctx.routes.DS, ctx.routes.DSS, 0,
                          node(b, 0, 2), 2, bp, batam_play.new_scratch(ctx), rs)
        picks.append(int(ctx.board.special[t]))
    assert set(picks) == {node(b, 0, 0), node(b, 0, 4)}
    assert 20 <= picks.count(node(b, 0, 0)) <= 60
    # one of them sold out (a cube there already): no tie, nothing drawn
    st, rs, _ = blank(ctx)
    st.cube[1, 0] = 1                              # seat 0 sold on Sugi
    before = rs.copy()
    t = heuristic.plan_target(st, R, ctx.board, ctx.compass, ctx.routes.DS, ctx.routes.DSS, 0,
                      node(b, 0, 2), 2, bp, batam_play.new_scratch(ctx), rs)
    assert ctx.board.special[t] == node(b, 0, 4) and (rs == before).all()


def test_heuristic_games_meet_ties():
    """Ties are not a corner case: in ordinary four-player games the heuristic bots draw
    from their streams (so the reference replays check the tie-breaks too)."""
    ctx = make_ctx(4)
    ids, par = GAME.bot_arrays(GAME.choose_bots("heuristic", 4))
    bp = np.zeros((4, state.N_BOTPAR))
    bp[:, :par.shape[1]] = par
    st = state.new_state()
    rs = np.zeros(state.N_RS, np.uint64)
    drew = 0
    for g in range(30):
        batam_play.play_game(g, np.uint64(3), ctx, ids, bp, st, rs, batam_play.new_scratch(ctx), NO_RECORD, NO_SNAPS)
        drew += sum(rs[1 + s] != Stream(3, g, 1 + s).state for s in range(4))
    assert drew > 30


# ------------------------------------------------------------------ chance
def play(ctx, bots, g, seed=5):
    players = ctx.R[state.R_P]
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    bp = np.zeros((players, state.N_BOTPAR))
    bp[:, :par.shape[1]] = par
    st = state.new_state()
    rs = np.zeros(state.N_RS, np.uint64)
    batam_play.play_game(g, np.uint64(seed), ctx, ids, bp, st, rs, batam_play.new_scratch(ctx), NO_RECORD, NO_SNAPS)
    return st, rs


def test_nothing_draws_from_stream_0():
    for mode in ("tiles", "cards", "none"):
        for players, bots in ((4, "random"), (3, "heuristic,gambler,random"), (2, "heuristic")):
            ctx = make_ctx(players, compass=mode)
            for g in range(15):
                st, rs = play(ctx, bots, g)
                assert rs[0] == Stream(5, g, 0).state, (mode, bots, g)     # never advanced
                assert rs[state.RS_BASE] == py_game_base(5, g)


def test_a_seats_rerolls_move_no_other_dice():
    """Each crew die of each seat in each round has its own substream: seat 0 re-rolling
    three times or not at all leaves seat 1's dice, and seat 0's own dice of the next
    round, as they were."""
    ctx = make_ctx(4)
    R, faces = ctx.R, ctx.faces
    eager = bot_params("heuristic", 4, reroll_low=5, reroll_max=3, reserve=0)
    never = bot_params("miser", 4)
    seen = []
    for bid, bp in (eager, never):
        st, rs, _ = blank(ctx, seed=8, game=3)
        tal = tallies(st)
        phases.reroll_phase(st, R, faces, 0, bid, bp, rs, 0, NO_RECORD)
        phases.reroll_phase(st, R, faces, 1, never[0], never[1], rs, 0, NO_RECORD)
        phases.reroll_phase(st, R, faces, 0, never[0], never[1], rs, 1, NO_RECORD)
        seen.append((int(tal[state.T_RR, 0]), list(st.dv[1]),
                     list(st.dv[0])))
    assert seen[0][0] == 3 and seen[1][0] == 0
    assert seen[0][1] == seen[1][1] and seen[0][2] == seen[1][2]
    # and they are the documented substreams: (DICE, (round * 4 + seat) * 3 + die)
    f = list(ctx.faces)
    assert seen[1][1] == [f[Stream.substream(8, 3, DICE, (0 * 4 + 1) * 3 + i).rand_int(6)]
                          for i in range(3)]
    assert seen[1][2] == [f[Stream.substream(8, 3, DICE, (1 * 4 + 0) * 3 + i).rand_int(6)]
                          for i in range(3)]


def test_the_first_player_and_the_board_do_not_depend_on_the_deck():
    # tiles, cards or none: the same first player (substream SETUP, 0), and the dice of
    # round one are the same
    firsts = []
    for mode in ("tiles", "cards", "none"):
        ctx = make_ctx(4, compass=mode)
        firsts.append([blank(ctx, seed=2, game=g)[2] for g in range(40)])
    assert firsts[0] == firsts[1] == firsts[2]
    assert len(set(firsts[0])) == 4
    assert py_substream_start(py_game_base(2, 0), SETUP, 0) == Stream.substream(2, 0, SETUP, 0).state


def test_deck_and_tiles_keep_their_relative_order_when_one_is_removed(tmp_path):
    """The deck (and the tile row) is sorted by keys of card identities: without the
    pirates, the other cards come in the same order; a reshuffle has keys of its own."""
    from sim.games.batam import data as DATA
    from sim.games.batam import figures as FIG
    rules = GAME.resolve_rules({"compass": "cards"})
    d = DATA.load_all(rules)
    small = GAME.resolve_rules({"compass": "cards",
                                **FIG.card_rules(rules, "pirate_1", "remove", tmp_path)})
    ds = DATA.load_all(small)
    full_ctx, small_ctx = make_ctx(4, **rules), make_ctx(4, **small)
    for g in range(20):
        st, rs, _ = blank(full_ctx, seed=4, game=g)
        order = [d["clab"][k] for k in st.deck[:18]]
        st2, _, _ = blank(small_ctx, seed=4, game=g)
        order2 = [ds["clab"][k] for k in st2.deck[:15]]
        assert [x for x in order if x != "pirate_1"] == order2
        # the first reshuffle: the same cards, another order
        st.disc[:18] = st.deck[:18]
        st.g[state.G_DISCN] = 18
        st.g[state.G_DECKN] = 0
        sailing.draw_card(st, rs, full_ctx.compass.cid, NO_RECORD)
        assert st.g[state.G_NSHUF] == 1
        again = [d["clab"][k] for k in st.deck[:18]]
        assert sorted(again) == sorted(order) and again != order
