"""Card impact on common random numbers: a removed or neutral compass tile or card changes
only the games it plays a part in.

Chance is split by purpose (RULES.md, Chance): the dice of each seat and round, the first
player, the tile placement and the deck order each come from their own substreams, and
tiles and cards are ordered by keys of their identities.  So

* a removed tile: every game in which that tile was set aside (left in the box) is the
  base game, column for column;
* a removed card: every game in which it was never drawn is the base game;
* a neutral tile or card: every game in which it never came into play is the base game;

and some of the other games differ (else the change did nothing).  Which tile was set
aside and what came into play is read from the reference engine
(``tests/reference/batam_ref.py``), which records it.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from sim.games.batam import GAME
from sim.games.batam import data as DATA
from sim.games.batam import figures as FIG
from sim.params import ParamError, UsageError
from sim.record import record_run
from tests.reference import batam_ref as ref


def run(players, bots, count, seed=17, **rules):
    resolved = GAME.resolve_rules(rules)
    ctx = GAME.prepare(resolved, players)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, players))
    return GAME.play_chunk(ctx, players, seed, 0, count, ids, par)


def same_game(a, b, j):
    return all(np.array_equal(a[k][j], b[k][j]) for k in a)


def ref_games(players, bots, count, seed=17, play=True, **rules):
    """The kernel's games (recorded) replayed by the reference engine, which keeps the tiles
    set aside and the tiles or cards that came into play (``play=False``: only set up)."""
    games = []
    for r in record_run("batam", range(count), rules=rules, bots=bots, players=players, seed=seed):
        g = ref.Batam(r.seed, r.index, r.rules, r.players, r.events)
        if play:
            g.play()
        else:
            g.setup()
        games.append(g)
    return games


def indices(mode, label):
    d = DATA.load_all(GAME.resolve_rules({}))
    labels = d["tlab"] if mode == "tiles" else d["clab"]
    out = {k for k, x in enumerate(labels) if x == label}
    assert out, label
    return out


def check_pairs(base, other, untouched, what):
    """Games ``untouched`` are identical; some of the others differ."""
    n = len(base["winner"])
    same = [same_game(base, other, j) for j in range(n)]
    bad = [j for j in range(n) if untouched[j] and not same[j]]
    assert not bad, f"{what}: games {bad[:5]} changed although the item played no part"
    touched = [j for j in range(n) if not untouched[j]]
    assert touched, f"{what}: the item played a part in no game; the test shows nothing"
    assert not all(same[j] for j in touched), f"{what}: no game changed; the item did nothing"
    return sum(untouched), len(touched), sum(not same[j] for j in touched)


# ------------------------------------------------------------------ removal
@pytest.mark.parametrize("tile", ["pirate_0", "tradewind_4", "sunken_treasure_10",
                                  "treasure_map_sugi_6"])
def test_removed_tile_leaves_the_games_where_it_was_set_aside_alone(tmp_path, tile):
    n = 400
    rules = GAME.resolve_rules({})
    base = run(4, "heuristic", n)
    removed = run(4, "heuristic", n, **FIG.card_rules(rules, tile, "remove", tmp_path))
    ks = indices("tiles", tile)
    aside = [bool(ks & set(g.set_aside)) for g in ref_games(4, "heuristic", n, play=False)]
    kept, placed, changed = check_pairs(base, removed, aside, f"{tile} removed")
    assert 20 <= kept <= 90      # one game in eight sets a given tile aside


@pytest.mark.parametrize("card", ["pirate_2", "treasure_map_citlim_5", "tradewind_2"])
def test_removed_card_leaves_the_games_where_it_was_never_drawn_alone(tmp_path, card):
    n = 300
    rules = GAME.resolve_rules({"compass": "cards"})
    bots = "heuristic,plodder,heuristic,hunter"
    base = run(4, bots, n, compass="cards")
    removed = run(4, bots, n, compass="cards", **FIG.card_rules(rules, card, "remove", tmp_path))
    ks = indices("cards", card)
    undrawn = [not (ks & g.triggered) for g in ref_games(4, bots, n, compass="cards")]
    check_pairs(base, removed, undrawn, f"{card} removed")


# ------------------------------------------------------------------ neutral
# Compass spaces are 7 of 232 spaces on the default map, so a card is drawn in few games
# there; the treasure maps pay only when their taker later enters that island's harbour,
# which the default map's games rarely see.  The maps are therefore tested on the crowded
# strait of the reference tests, where ships cross compass spaces all the time.
CASES = {  # (mode, crowded board): bots, games
    ("tiles", False): ("hunter,plodder,hunter,random", 300),   # plodder and random meet the
    ("tiles", True): ("hunter,plodder,heuristic,random", 200),  # pirate, hunters the treasure
    ("cards", False): ("random,heuristic,random,plodder", 300),
    ("cards", True): ("heuristic,plodder,random,heuristic", 200),
}
_BASES = {}


def neutral_case(tmp_path_factory, mode, crowded):
    """The base games of a case, kernel and reference, and its rules."""
    key = (mode, crowded)
    if key not in _BASES:
        rules = {"compass": mode, "horizon": 12}
        if crowded:
            CROWDED = ref.CROWDED.read_text()
            board = tmp_path_factory.mktemp("crowded") / "board.toml"
            board.write_text(CROWDED)
            rules["board"] = str(board)
        bots, n = CASES[key]
        _BASES[key] = (rules, bots, n, run(4, bots, n, **rules), ref_games(4, bots, n, **rules))
    return _BASES[key]


@pytest.mark.parametrize("mode,item", [
    ("tiles", "pirate_0"), ("tiles", "tradewind_3"), ("tiles", "sunken_treasure_8"),
    ("tiles", "treasure_map_rempang_6"), ("tiles", "treasure_map_sugi_6"),
    ("cards", "pirate_1"), ("cards", "tradewind_3"), ("cards", "sunken_treasure_4"),
    ("cards", "treasure_map_rempang_5"), ("cards", "treasure_map_citlim_5"),
])
def test_neutral_item_leaves_the_games_where_it_never_came_into_play_alone(tmp_path_factory, mode,
                                                                           item):
    """Came into play: a tradewind tile that gave (or, neutral, would have given) its bonus,
    treasure or a map taken, a pirate fee charged; a card drawn."""
    rules, bots, n, base, games = neutral_case(tmp_path_factory, mode, "treasure_map" in item)
    neutral = run(4, bots, n, **rules,
                  **FIG.card_rules(GAME.resolve_rules(rules), item, "neutral", None))
    ks = indices(mode, item)
    quiet = [not (ks & g.triggered) for g in games]
    check_pairs(base, neutral, quiet, f"{item} neutral")


def test_neutral_tiles_pay_nothing_and_are_still_counted():
    """Every tile neutral: no treasure coins and no pirate fees are paid, but the tiles are
    met (the events are counted) as in the base games."""
    labels = ",".join(FIG.card_names(GAME.resolve_rules({})))
    out = run(4, "hunter,plodder,hunter,random", 200, horizon=12, neutral=labels)
    assert (out["treasure_coins"] == 0).all() and (out["pirate_coins"] == 0).all()
    assert out["compass_pirate"].sum() > 0 and out["compass_sunken"].sum() > 0
    assert out["compass_map"].sum() > 0 and out["compass_tradewind"].sum() > 0
    cards = run(4, "heuristic,plodder,random,heuristic", 200, compass="cards", horizon=12,
                neutral=",".join(FIG.card_names(GAME.resolve_rules({"compass": "cards"}))))
    assert (cards["treasure_coins"] == 0).all() and (cards["pirate_coins"] == 0).all()
    assert cards["compass_pirate"].sum() > 0


# --------------------------------------------------------- the impact hooks
def test_card_rules_modes_and_errors(tmp_path):
    rules = GAME.resolve_rules({})
    assert FIG.card_rules(rules, "pirate_0", "neutral", tmp_path) == {"neutral": "pirate_0"}
    more = GAME.resolve_rules({"neutral": "tradewind_2"})
    assert FIG.card_rules(more, "pirate_0", "neutral", tmp_path) == {"neutral": "pirate_0,tradewind_2"}
    out = FIG.card_rules(rules, "pirate_0", "remove", tmp_path)
    d = DATA.load_all(GAME.resolve_rules(out))
    assert len(d["tk"]) == 7 and "pirate_0" not in d["tlab"]
    with pytest.raises(UsageError, match="unknown compass tile"):
        FIG.card_rules(rules, "kraken_9", "neutral", tmp_path)
    with pytest.raises(UsageError, match="compass=none"):
        FIG.card_rules(GAME.resolve_rules({"compass": "none"}), "pirate_0", "neutral", tmp_path)


def test_neutral_parameter_is_checked_against_the_deck_in_play():
    p = next(p for p in GAME.params if p.name == "neutral")
    assert p.role == "analysis"
    assert p.parse(" Tradewind_2, pirate_0 ") == "pirate_0,tradewind_2"
    assert p.parse("none") == "none"
    with pytest.raises(ParamError):
        p.parse("none,pirate_0")
    with pytest.raises(ParamError, match="did you mean 'tradewind_4'"):
        GAME.prepare(GAME.resolve_rules({"neutral": "tradewind_9"}), 4)
    with pytest.raises(ParamError, match="no card named 'tradewind_4'"):
        GAME.prepare(GAME.resolve_rules({"neutral": "tradewind_4", "compass": "cards"}), 4)
    with pytest.raises(ParamError, match="compass=tiles or compass=cards"):
        GAME.prepare(GAME.resolve_rules({"neutral": "pirate_0", "compass": "none"}), 4)
    from sim.games.batam import state
    R = GAME.prepare(GAME.resolve_rules({"neutral": "pirate_2", "compass": "cards"}), 4)[0]
    d = DATA.load_all(GAME.resolve_rules({}))
    assert [k for k in range(len(d["ck"])) if (R[state.R_NEU] >> k) & 1] == \
        [k for k, lab in enumerate(d["clab"]) if lab == "pirate_2"]


HOSTILE_BOARD = '''
start = "B"
grid = """
~~~~~~~~~~~~~~~~~~~~~~~~~
~B~*~*~*~*~*~*~*~R~S~C~E~
~~~~~~~~~~~~~~~~~~~~~~~~~
"""
[islands]
B = "Batam"
R = "Rempang"
S = "Sugi"
C = "Citlim"
E = "../../escaped"
'''


def test_card_rules_never_writes_outside_the_run_directory(tmp_path):
    """A tile named from data ('treasure_map_../../escaped_6', or with a slash or a quote)
    must not choose where the file goes: the file is named by an index, inside workdir,
    and the hostile strings survive as data."""
    board = tmp_path / "board.toml"
    board.write_text(HOSTILE_BOARD)
    tiles = tmp_path / "tiles.toml"
    entries = [("tradewind", 2, None), ("tradewind", 3, None), ("sunken_treasure", 8, None),
               ("sunken_treasure", 10, None), ("treasure_map", 6, "../../escaped"),
               ("treasure_map", 6, "Sugi"), ("pirate", 0, None), ("tradewind", 4, None)]
    text = ""
    for kind, value, island in entries:
        text += f'[[tile]]\nkind = "{kind}"\nvalue = {value}\n'
        if island:
            text += f"island = {json.dumps(island)}\n"
    tiles.write_text(text)
    work = tmp_path / "run" / "deep"
    rules = GAME.resolve_rules({"board": str(board), "tiles": str(tiles)})
    names = FIG.card_names(rules)
    hostile = "treasure_map_../../escaped_6"
    assert hostile in names
    before = {p for p in tmp_path.rglob("*")}
    out = FIG.card_rules(rules, hostile, "remove", work)
    made = {p for p in tmp_path.rglob("*")} - before
    written = [p for p in made if p.is_file()]
    assert len(written) == 1 and written[0].parent == work
    assert out == {"tiles": str(written[0])}
    assert ".." not in written[0].name and "escaped" not in written[0].name
    # the other tiles, the hostile one of the kept ones included, load back unchanged
    d = DATA.load_all(GAME.resolve_rules({"board": str(board), "tiles": out["tiles"]}))
    assert hostile not in d["tlab"] and len(d["tk"]) == 7
    keep = FIG.card_rules(rules, "treasure_map_sugi_6", "remove", work)
    d = DATA.load_all(GAME.resolve_rules({"board": str(board), "tiles": keep["tiles"]}))
    assert hostile in d["tlab"] and len(d["tk"]) == 7
    assert not (tmp_path / "escaped").exists() and not (tmp_path.parent / "escaped").exists()
    # a neutral hostile tile is a parameter value, never a path
    neutral = FIG.card_rules(rules, hostile, "neutral", work)
    assert neutral == {"neutral": hostile}
    from sim.games.batam import state
    R = GAME.prepare(GAME.resolve_rules({"board": str(board), "tiles": str(tiles), **neutral}), 4)[0]
    assert R[state.R_NEU] == 1 << 4          # the fifth tile of the file


def test_removal_keeps_the_length_so_remove_is_the_default(tmp_path):
    """Batam's impact default is 'remove' because removing a tile does not change how
    long a game lasts (Balam's does, by a round): over 3000 games the mean length moves by
    less than 0.01 rounds for every tile, and only a few games change length at all."""
    assert GAME.impact_default_mode == "remove"
    n = 3000
    rules = GAME.resolve_rules({})
    base = run(4, "heuristic", n)
    for tile in FIG.card_names(rules):
        other = run(4, "heuristic", n, **FIG.card_rules(rules, tile, "remove", tmp_path))
        d = other["rounds"].astype(int) - base["rounds"].astype(int)
        assert abs(d.mean()) < 0.01 and (d != 0).mean() < 0.02, tile
