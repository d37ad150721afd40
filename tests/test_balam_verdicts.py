"""Balam verdicts a designer can trust: a random site layout per game, ties broken on the
bots' own streams, chance split by purpose (card impact on the same games), safe file
names, and the report's tile figure."""
import functools
import json

import numpy as np
import pytest

from sim.games.balam import GAME
from sim.games.balam import data as D
from sim.games.balam import setup, state, ties
from sim.games.balam.bots import heuristic, values
from sim.params import ParamError
from sim.record import record_run
from sim.rng import DICE, Stream, py_game_base
from tests.reference import balam_ref
from tests.test_balam_rules import DECK, HEUR, JADE, MAIZE, OBSID, Pos, deck_of


def run(players, bots, rules=None, n=200, seed=1, start=0):
    r = GAME.resolve_rules(rules or {})
    ctx = GAME.prepare(r, players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return GAME.play_chunk(ctx, players, seed, start, n, ids, par)


def came_into_play(record, kt):
    """Whether a card of type kt was turned or seen by divination in a recorded game."""
    names = {a.code: a.name for a in GAME.actions}
    deck, pos = {}, 0
    for ev in record.events:
        name, f = names[int(ev[0])], [int(x) for x in ev[2:]]
        if name == "deck":
            deck[f[0]] = f[2]
        elif name == "deal":
            pos = f[2]
        elif name == "card" and f[2] == kt:
            return True
        elif name == "divine" and any(f[0] >> k & 1 and deck[pos + k] == kt for k in range(5)):
            return True
    return False


@functools.lru_cache(maxsize=None)
def _layout_setup(random, board):
    """The printed tiles and the prepared rules (prepared once: the test draws thousands)."""
    tinfo = D.load_board(D.resolve_file(board, "board")).info
    R = GAME.prepare(GAME.resolve_rules({"layout": "random" if random else "fixed",
                                         "board": board}), 2)[0]
    return tinfo, R


def layout_of(game, random=True, seed=3, board="default"):
    """The kernel's layout of game ``game``: (perm, info) (perm[s] = the printed tile on
    cell s)."""
    tinfo, R = _layout_setup(random, board)
    rs = np.zeros(state.NRS, np.uint64)
    info = np.zeros_like(tinfo)
    perm = np.zeros(len(tinfo), np.int64)
    setup.draw_layout(rs, np.uint64(py_game_base(seed, game)), R, tinfo, info, perm)
    return perm, info


# ------------------------------------------------------------------ layout
def test_a_random_layout_permutes_the_land_tiles_over_the_land_cells():
    tinfo = D.load_board(D.SEEDS / "board.toml").info
    S = len(tinfo)
    where = np.zeros((S, S), np.int64)   # where[tile, cell]
    for g in range(5200):
        perm, info = layout_of(g)
        assert sorted(perm.tolist()) == list(range(S))
        assert (info == tinfo[perm]).all()
        where[perm, np.arange(S)] += 1
    # every tile goes to every cell about equally often (200 times each): the jade cenote
    # tile B2 and the others alike; chi-square over the 26 cells, 25 degrees of freedom
    chi2 = ((where - 200.0) ** 2 / 200.0).sum(axis=1)
    assert chi2.max() < 70, chi2.max()          # p < 1e-5 per tile to fail by chance
    perm, info = layout_of(7, random=False)
    assert perm.tolist() == list(range(S)) and (info == tinfo).all()


def test_the_small_board_is_permuted_on_its_own_cells():
    tinfo = D.load_board(D.resolve_file("small", "board")).info
    seen = set()
    for g in range(50):
        perm, info = layout_of(g, board="small")
        assert sorted(perm.tolist()) == list(range(16)) and (info == tinfo[perm]).all()
        seen.add(tuple(perm))
    assert len(seen) == 50


def test_the_layout_column_groups_games_and_is_drawn_apart_from_the_rest():
    out = run(2, "merchant", n=150)
    assert len(set(out["layout"].tolist())) == 150            # a layout per game
    fixed = run(2, "merchant", {"layout": "fixed"}, n=40)
    assert len(set(fixed["layout"].tolist())) == 1
    # the layout, the deck and the first player of game i do not depend on the bots, the
    # player count or the length of the game: each has a substream of its own
    other = run(2, "random", {"ball_games": 5}, n=150)
    assert (other["layout"] == out["layout"]).all()
    assert (other["first_player"] == out["first_player"]).all()
    four = run(4, "warlord", n=150)
    assert (four["layout"] == out["layout"]).all()
    # the kernel's layout of a game is the reference engine's (cell by cell)
    for rec in record_run("balam", (0, 1, 77), bots="random", players=2, seed=1):
        eng = balam_ref.engine(rec)
        perm, _ = layout_of(rec.index, seed=1)
        assert eng.perm == perm.tolist() and eng.layout == out["layout"][rec.index]


def test_layout_is_a_declared_variant_and_fixed_is_the_printed_board():
    p = {q.name: q for q in GAME.params}
    assert p["layout"].default == "random" and p["layout"].role == "variant"
    assert "at random" in p["layout"].source
    assert all(p[n].role == "data" for n in ("board", "katun", "components"))
    assert "assumption" in p["board"].help and "not what each holds" in p["board"].help


# ------------------------------------------------------------------ ties
def test_two_identical_best_sites_are_founded_on_either_way():
    # Two free jade sites, alike in every way, and a poor maize one; the heuristic king has
    # riches and the only face-down card is a Drought he divined: he founds a city, on
    # site 0 or site 1 as his own stream decides (before version 5: always site 0).
    #
    #   [0 jade 4] -- [2 maize 2] -- [1 jade 4]
    sites = [(4, JADE, 1, 0, 0, 0), (4, JADE, 1, 0, 0, 0), (2, MAIZE, 1, 0, 0, 0)]
    founded = []
    for g in range(400):
        pos = Pos(sites, [(0, 2), (2, 1)], bots=(HEUR, HEUR), style="builder")
        pos.seed(g)
        pos.pl[0, state.P_HAND + MAIZE] = 4
        pos.gs[state.GS_SUP + MAIZE] -= 4
        pos.gs[state.GS_SLOT] = int(np.flatnonzero(DECK.ctype == state.K_DROUGHT)[0])
        pos.gs[state.GS_NSLOT] = 1
        pos.gs[state.GS_LEFT] = 1
        pos.gs[state.GS_KNOWN] = 0b1
        heuristic_turn(pos)
        assert pos.gs[state.GS_LEFT] == 1           # he built rather than turn the card
        founded.append([s for s in range(3) if pos.own[s] == 0])
    assert all(f in ([0], [1]) for f in founded)
    n0 = sum(f == [0] for f in founded)
    assert 140 < n0 < 260, n0                   # 200 expected; sd 10


def test_equal_face_down_cards_are_turned_from_any_slot():
    # a king with no riches must turn a card; three unseen cards are worth the same to him
    slots = []
    for g in range(600):
        pos = Pos([(4, MAIZE, 1, 0, 0, 0)], [], bots=(HEUR, HEUR))
        pos.seed(g)
        for k in range(3):
            pos.gs[state.GS_SLOT + k] = int(np.flatnonzero(DECK.ctype == state.K_FAV)[k])
        pos.gs[state.GS_NSLOT] = 3
        pos.gs[state.GS_LEFT] = 3
        heuristic_turn(pos)
        slots.append([k for k in range(3) if pos.gs[state.GS_SLOT + k] == -1][0])
    counts = np.bincount(slots, minlength=3)
    assert (counts > 150).all(), counts         # 200 each expected


def test_payments_between_riches_of_equal_value_go_either_way():
    # jade and obsidian are worth the same in hand: the type paid follows the turn's random
    # order of types; a lower value (maize) is always paid first
    hv = np.zeros(12)
    paid = []
    for g in range(400):
        pos = Pos([(4, MAIZE, 1, 0, 0, 0)], [])
        pos.seed(g)
        values.hand_values(pos.bot_par[0], pos.R, pos.gs, hv)
        assert hv[JADE] == hv[OBSID] and hv[MAIZE] < hv[JADE]
        values.pay_sequence(pos.rs, 1, hv, pos.bot_par[0], state.NBW + 2 * 1, False)
        seq = hv[6:12].astype(int).tolist()
        assert sorted(seq) == list(range(6)) and seq[0] == MAIZE
        assert [hv[t] for t in seq] == sorted(hv[:6])          # by value in hand
        paid.append(values.cheapest_held(np.array([0, 0, 0, 1, 1, 0], np.int64), hv))
        assert values.cheapest_held(np.array([1, 0, 0, 1, 1, 0], np.int64), hv) == MAIZE
    assert 140 < paid.count(JADE) < 260 and paid.count(JADE) + paid.count(OBSID) == 400


def test_the_tie_test_is_relative():
    assert ties.cmp_tie(1.0 + 5e-10, 1.0) == 0 and ties.cmp_tie(1.0 + 2e-9, 1.0) == 1
    assert ties.cmp_tie(1e6 + 5e-4, 1e6) == 0 and ties.cmp_tie(1e6 + 5e-3, 1e6) == 1
    assert ties.cmp_tie(0.5, 1.0) == -1


def heuristic_turn(pos, p=0):
    heuristic.heuristic_turn(*pos.tuples(), p)


# ------------------------------------------------------------------ chance split
@pytest.mark.parametrize("players,bots", [(2, "merchant"), (3, "builder,random,warlord")])
def test_a_neutral_card_changes_only_the_games_it_came_into(players, bots):
    # Cacao festival (one card) made neutral: the bots still value it as the rulebook says,
    # so every game in which no king turned or divined it is the same game, column for
    # column; games in which it came into play differ in some
    n, seed = 160, 21
    base = run(players, bots, {}, n=n, seed=seed)
    neutral = run(players, bots, {"neutral_cards": "4"}, n=n, seed=seed)
    came = np.zeros(n, bool)
    for rec in record_run("balam", range(n), bots=bots, players=players, seed=seed):
        came[rec.index] = came_into_play(rec, state.K_CACAO)
    assert (base["katun_cacao_festival"].sum(axis=1) > 0).sum() <= came.sum()
    assert 20 < (~came).sum() < n - 20
    differs = np.zeros(n, bool)
    for name, a in base.items():
        b = neutral[name]
        d = (a != b) if a.ndim == 1 else (a != b).any(axis=1)
        assert not d[~came].any(), f"column {name} changed in a game the card never came into"
        differs |= d
    assert differs[came].sum() > came.sum() // 4


def test_removing_a_card_type_keeps_the_other_cards_in_order(tmp_path):
    # the deck is shuffled by keys drawn per card identity: without the Droughts, every
    # other card keeps its place relative to the others (the piles are smaller, so the ball
    # games, and every game, move about a round)
    r = GAME.resolve_rules({})
    R = GAME.prepare(r, 2)[0]
    rr = GAME.resolve_rules(GAME.card_rules(r, "drought", "remove", tmp_path))
    R2 = GAME.prepare(rr, 2)[0]
    deck2 = D.load_deck(rr["katun"])
    for g in range(40):
        a = DECK.cid[deck_of(R, 9, g)]
        b = deck2.cid[deck_of(R2, 9, g, deck2)]
        keep = [x for x in a.tolist() if x // 64 not in (state.K_DROUGHT, state.K_BALL, state.K_ECLIPSE)]
        assert [x for x in b.tolist() if x // 64 not in (state.K_BALL, state.K_ECLIPSE)] == keep
        assert len(b) == len(a) - 6


def test_the_war_dice_are_the_wars_own():
    # war number w of a game rolls the dice of substream (DICE, w), whatever came before:
    # with faces (skull, 1), each skull costs the attacker a garrison
    #
    #   [0 Purple: G G G G]--[1 Grey: V]
    for g in range(30):
        for w in (0, 3):
            pos = Pos([(4, MAIZE, 1, 0, 0, 0)] * 2, [(0, 1)], bots=(HEUR, HEUR))
            pos.city(0, 0, state.GARRISON, state.GARRISON, state.GARRISON, state.GARRISON)
            pos.city(1, 1, state.VILLAGE)
            pos.R[state.R_NFACES] = 2
            pos.R[state.R_FACE] = -1
            pos.R[state.R_FACE + 1] = 1
            pos.seed(g)
            pos.gs[state.GS_WARNO] = w
            dice = Stream.substream(0, g, DICE, w)
            skulls = sum(dice.rand_int(2) == 0 for _ in range(4))
            pos.attack(0, 0, 1, 4, 0)
            assert pos.pl[0, state.T_GLOST] == skulls and pos.gs[state.GS_WARNO] == w + 1


# ------------------------------------------------------------------ names and files
def test_horizon_takes_the_old_name_too():
    assert GAME.resolve_rules({"max_rounds": 3})["horizon"] == 3
    capped = run(2, "builder", {"max_rounds": 3}, n=20)
    assert capped["capped"].all()
    p = {q.name: q for q in GAME.params}
    assert p["horizon"].role == "horizon" and p["max_turns"].role == "horizon"
    assert p["neutral_cards"].role == "analysis" and p["ball_games"].role == "variant"
    for name in ("catastrophes", "expedition", "village_production", "control", "piles",
                 "eclipse_jitter"):
        assert p[name].role == "reading" and p[name].other_readings()
    assert GAME.impact_default_mode == "neutral"


def test_a_hostile_card_key_cannot_write_outside_the_run_directory(tmp_path):
    # a deck file whose Drought key climbs out of the directory (and holds a quote and a
    # backslash, which the rewritten file must escape)
    hostile = '../../esc"aped\\x'
    text = (D.SEEDS / "katun.toml").read_text().replace('key = "drought"',
                                                         "key = " + json.dumps(hostile))
    deck_file = tmp_path / "deck" / "katun.toml"
    deck_file.parent.mkdir()
    deck_file.write_text(text)
    r = GAME.resolve_rules({"katun": str(deck_file)})
    assert GAME.card_names(r)[9] == hostile
    work = tmp_path / "run" / "inner"
    out = GAME.card_rules(r, hostile, "remove", work)["katun"]
    every = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert every == ["deck/katun.toml", "run/inner/balam-katun-without-type9.toml"]
    assert out == str(work / "balam-katun-without-type9.toml")
    deck = D.load_deck(out)
    assert (deck.ctype != 9).all() and deck.keys[9] == hostile


def test_report_figures_show_the_tiles_and_say_how_they_were_laid(tmp_path):
    r = GAME.resolve_rules({})
    figs = GAME.report_figures({"rules": r}, tmp_path)
    assert [f[0] for f in figs] == ["balam_tiles.png"]
    assert "random" in figs[0][1] and "each game" in figs[0][2]
    assert (tmp_path / "balam_tiles.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    figs = GAME.report_figures({"rules": GAME.resolve_rules({"layout": "fixed"})}, tmp_path)
    assert [f[0] for f in figs] == ["balam_tiles.png", "balam_board.png"]
    assert "fixed" in figs[0][1] and (tmp_path / "balam_board.png").exists()


def test_a_board_file_is_played_as_printed_with_layout_fixed(tmp_path):
    # B2 (jade, 4 spaces, cenote) and A4 (cacao, 4 spaces) swapped in the grid: with
    # layout=fixed every game plays that board, whose layout identifier is not the
    # default board's; with layout=random the same tiles are dealt as from the default file
    text = (D.SEEDS / "board.toml").read_text()
    text = text.replace('"~~ A2 A3 A4 A5 ~~"', '"~~ A2 A3 B2 A5 ~~"', 1)
    text = text.replace('"B1 B2 B3 B4 B5 B6"', '"B1 A4 B3 B4 B5 B6"', 1)
    path = tmp_path / "swapped.toml"
    path.write_text(text)
    fixed = run(2, "merchant", {"layout": "fixed"}, n=30)
    swapped = run(2, "merchant", {"layout": "fixed", "board": str(path)}, n=30)
    assert len(set(swapped["layout"].tolist())) == 1
    assert swapped["layout"][0] != fixed["layout"][0]
    assert (swapped["prestige"] != fixed["prestige"]).any()
    b = D.load_board(path)
    assert b.names[2] == "B2" and b.names[5] == "A4"       # cells in grid order
    with pytest.raises(ParamError, match="does not exist"):
        GAME.prepare(GAME.resolve_rules({"board": str(tmp_path / "none.toml")}), 2)
