"""Every rule of the rulebook (``puluc.txt``), on hand-built positions.

The kernel's jitted functions (``move.destination``, ``legal_moves``, ``apply_move``,
``cast.throw_lots``) are called directly on boards built from drawings.  A drawing
lists the spaces 1..T left to right; ``.`` is an empty space and a pile is
written bottom first, so its last letter is the commander::

    space:  1   2   3   4   5   6   7   8   9  10  11
            .   .   J   .   .   CJ  .   .   .   .   C
    Jade enters at 1 and runs right  ->      <- Cinnabar enters at 11 and runs left

``CJ`` is a Jade warrior standing on a Cinnabar prisoner.  The kernel keeps only
counts, so drawings read back from it list the prisoners' colour first then the
commander's (``CCJJ``).  Moves are the index of the pile (space - 1), or ``T``
for a deployment; a destination of ``T`` means "carried off", -1 "illegal".
"""
from __future__ import annotations

import random
from math import comb

import numpy as np
import pytest

from sim.games.puluc import GAME
from sim.games.puluc import move as M
from sim.games.puluc import state as S
from sim.games.puluc.bots import greedy as G
from sim.games.puluc.bots import search as SB
from sim.games.puluc.cast import seed_game, throw_lots
from sim.games.puluc.play import END_HORIZON, END_KILLED
from sim.rng import DICE, Stream
from tests.reference import puluc_ref as ref

J, C = 0, 1


def rules(**kw):
    """The kernel's :class:`Rules` for these rule parameters (rulebook values otherwise)."""
    return GAME.prepare(GAME.resolve_rules(kw), 2)[0]


def empty_state():
    """A state record (in its own 1-element array) with an empty track and no tallies."""
    st = np.zeros(1, S.STATE_DTYPE)[0]
    st["commander"][:] = -1
    return st


def board(drawing: str, warriors: int = 5, home=None, dead=(0, 0)):
    """A kernel state from a drawing; home defaults to every warrior not on the track or dead."""
    cells = drawing.split()
    st = empty_state()
    on_track = [0, 0]
    for i, cell in enumerate(cells):
        if cell == ".":
            continue
        st["commander"][i] = J if cell[-1] == "J" else C
        st["count"][J, i] = cell.count("J")
        st["count"][C, i] = cell.count("C")
        on_track[J] += cell.count("J")
        on_track[C] += cell.count("C")
    if home is None:
        home = (warriors - on_track[J] - dead[J], warriors - on_track[C] - dead[C])
    st["home"][:] = home
    st["dead"][:] = dead
    return st


def drawing(st, T: int = 11) -> str:
    """The track of a kernel state, prisoners' colour first, commander's colour last."""
    cells = []
    for i in range(T):
        c, nj, nc = st["commander"][i], st["count"][J, i], st["count"][C, i]
        if c == -1:
            cells.append(".")
        elif c == J:
            cells.append("C" * nc + "J" * nj)
        else:
            cells.append("J" * nj + "C" * nc)
    return " ".join(cells)


def home(st, s):
    return int(st["home"][s])


def dead(st, s):
    return int(st["dead"][s])


def legal(st, R, p, cast):
    out = np.zeros(S.MAX_TRACK + 2, np.int64)
    n = M.legal_moves(st, R, p, cast, out)
    return [int(x) for x in out[:n]]


TALLIES = ("kills", "captures", "rescues")


def play(st, R, p, mv, cast):
    """Apply a move (checked legal first); returns what it scored as a dict (kills, captures,
    rescues per side; the height of the pile it made, as ``deepest``)."""
    assert M.destination(st, R, p, mv, cast) != -1, "move is illegal"
    assert mv in legal(st, R, p, cast)
    before = {k: tuple(int(x) for x in st[k]) for k in TALLIES}
    st["deepest"] = 0
    M.apply_move(st, R, p, mv, cast)
    out = {k: tuple(int(a) - b for a, b in zip(st[k], before[k])) for k in TALLIES}
    out["deepest"] = int(st["deepest"])
    return out


def run(rules_kw: dict, bots="random,random", seed=1, start=0, count=50):
    ctx = GAME.prepare(GAME.resolve_rules(rules_kw), 2)
    ids, par = GAME.bot_arrays(GAME.choose_bots(bots, 2))
    return GAME.play_chunk(ctx, 2, seed, start, count, ids, par)


# Rules under which nobody can ever move: every cast is 5 and a warrior must enter
# cast spaces onto a 4-space track.  Every cast is a forfeit, so the forfeits show
# exactly who cast and how often.
ALL_FORFEIT = {"track": 4, "lots": 1, "cast_table": "5,5", "entry": "cast"}


# --------------------------------------------------------------------------- moving
def test_advance_by_exactly_the_cast():
    R = rules()
    # space: 1 2 3 4 5 6 7 8 9 10 11
    #        . . J . . . . . C .  .
    st = board(". . J . . . . . C . .")
    T = 11
    for cast in range(1, 6):
        assert M.destination(st, R, J, 2, cast) == 2 + cast      # Jade runs up
        assert M.destination(st, R, C, 8, cast) == 8 - cast      # Cinnabar runs down
    # only the commander may move a pile; an empty space is no move
    assert M.destination(st, R, C, 2, 1) == -1
    assert M.destination(st, R, J, 8, 1) == -1
    assert M.destination(st, R, J, 4, 1) == -1
    play(st, R, J, 2, 4)
    assert drawing(st) == ". . . . . . J . C . ."
    assert home(st, J) == 4 and home(st, C) == 4
    assert T in legal(st, R, J, 1)  # deploy is still there


def test_capture_a_lone_warrior():
    R = rules()
    # . . J . . C . . . . .     Jade casts 3 and lands on the Cinnabar warrior
    # . . . . . CJ . . . . .    who is now a prisoner under it, not removed
    st = board(". . J . . C . . . . .")
    t = play(st, R, J, 2, 3)
    assert drawing(st) == ". . . . . CJ . . . . ."
    assert t["captures"] == (1, 0) and t["rescues"] == (0, 0) and t["deepest"] == 2
    assert dead(st, C) == 0 and home(st, C) == 4  # a prisoner is not dead
    # Cinnabar can no longer move its captured warrior ...
    for cast in range(1, 6):
        assert M.destination(st, R, C, 5, cast) == -1
        assert 5 not in legal(st, R, C, cast)
    # ... and Jade carries the prisoner along when it moves
    play(st, R, J, 5, 2)
    assert drawing(st) == ". . . . . . . CJ . . ."


def test_capture_a_whole_pile_switches_command_with_own_prisoners_inside():
    R = rules()
    # . . J . . JCC . . . . .   a Cinnabar pile: Cinnabar on top, a Jade prisoner and a
    #                           Cinnabar warrior (rescued earlier) inside
    # . . . . . CCJJ . . . . .  Jade lands on it: the whole pile is Jade's now, and the
    #                           Jade prisoner inside is freed (a rescue)
    st = board(". . J . . JCC . . . . .")
    t = play(st, R, J, 2, 3)
    assert drawing(st) == ". . . . . CCJJ . . . . ."
    assert t["captures"] == (1, 0) and t["rescues"] == (1, 0) and t["deepest"] == 4
    # four deep, and it all moves with Jade's press; Cinnabar can move none of it
    assert legal(st, R, C, 2) == [11]
    play(st, R, J, 5, 2)
    assert drawing(st) == ". . . . . . . CCJJ . . ."
    # and Cinnabar can take it all back in one cast
    # . . . . . . . CCJJ . C .
    st2 = board(". . . . . . . CCJJ . C .")
    t = play(st2, R, C, 9, 2)
    assert drawing(st2) == ". . . . . . . JJCCC . . ."
    assert t["captures"] == (0, 1) and t["rescues"] == (0, 2) and t["deepest"] == 5


def test_rescue_counts_every_own_prisoner_freed():
    R = rules()
    # JJJC . J . . . . . . . .  a Cinnabar warrior holds three Jade prisoners on space 1;
    # Jade's warrior on space 3 cannot reach back (warriors only move forward), but a
    # deployment onto the entry space takes the pile on any cast (see below) and frees all
    st = board("JJJC . J . . . . . . . .", home=(1, 4))
    t = play(st, R, J, 11, 4)  # move T = 11: deploy
    assert drawing(st) == "CJJJJ . J . . . . . . . ."
    assert t["captures"] == (1, 0) and t["rescues"] == (3, 0) and t["deepest"] == 5
    assert home(st, J) == 0


# --------------------------------------------------------------------------- carrying off
def test_carry_off_kills_enemies_and_sends_own_home():
    R = rules()
    # space: 1 2 3 4 5 6 7 8 9 10   11
    #        . . . . . . . . . CCJJ .     Jade's pile on space 10: two Cinnabar prisoners,
    #                                     the commander and a rescued Jade warrior
    st = board(". . . . . . . . . CCJJ .", dead=(0, 1))
    assert M.destination(st, R, J, 9, 1) == 9 + 1   # a cast of 1 stops on the last space
    for cast in range(2, 6):
        assert M.destination(st, R, J, 9, cast) == 11  # past the last space: off
    t = play(st, R, J, 9, 3)
    assert drawing(st) == ". . . . . . . . . . ."
    assert dead(st, C) == 3 and t["kills"] == (2, 0)   # both prisoners die
    assert home(st, J) == 5                             # both Jade warriors go home
    assert t["captures"] == (0, 0)


def test_cinnabar_carries_off_past_space_one():
    R = rules()
    # . JC . . . . . . . . .   Cinnabar's pile on space 2, one Jade prisoner
    st = board(". JC . . . . . . . . .")
    assert M.destination(st, R, C, 1, 1) == 0
    assert M.destination(st, R, C, 1, 2) == 11
    t = play(st, R, C, 1, 2)
    assert dead(st, J) == 1 and home(st, C) == 5 and t["kills"] == (0, 1)


def test_killing_the_last_enemy_wins():
    R = rules()
    # four Cinnabar warriors are already dead; Jade carries the fifth off
    st = board(". . . . . . . . CJ . .", dead=(0, 4))
    play(st, R, J, 8, 5)
    assert dead(st, C) == 5
    assert SB.evaluate(st, R, J) == SB.WIN_VALUE and SB.evaluate(st, R, C) == -SB.WIN_VALUE


def test_lone_warrior_may_leave_and_walks_home():
    R = rules()
    # . . . . . . . . . . J    a lone Jade warrior on the last space
    st = board(". . . . . . . . . . J")
    for cast in range(1, 6):
        assert M.destination(st, R, J, 10, cast) == 11
    t = play(st, R, J, 10, 1)
    assert drawing(st) == ". . . . . . . . . . ."
    assert home(st, J) == 5 and t["kills"] == (0, 0) and dead(st, C) == 0


def test_exit_pile_forbids_a_lone_warrior_to_leave():
    R = rules(exit="pile")
    # . . . . . . . . . CJ J   exit=pile: the lone warrior is stuck, the pile may leave
    st = board(". . . . . . . . . CJ J")
    for cast in range(1, 6):
        assert M.destination(st, R, J, 10, cast) == -1
        assert 10 not in legal(st, R, J, cast)
    assert M.destination(st, R, J, 9, 2) == 11
    assert M.destination(st, R, J, 9, 1) == -1  # and it cannot land on its own warrior
    t = play(st, R, J, 9, 4)
    assert t["kills"] == (1, 0)


def test_exit_pile_strands_warriors_and_forces_forfeits():
    R = rules(exit="pile")
    # . . . . . . . . . J J    the rest of Jade's army is dead: no cast has a move
    st = board(". . . . . . . . . J J", dead=(3, 0))
    assert home(st, J) == 0
    for cast in range(1, 6):
        assert legal(st, R, J, cast) == []
    # under the rulebook's exit rule both may walk off
    assert legal(board(". . . . . . . . . J J", dead=(3, 0)), rules(), J, 2) == [9, 10]


# --------------------------------------------------------------------------- deploying
@pytest.mark.parametrize("cast", [1, 2, 3, 4, 5])
def test_deploy_captures_an_enemy_pile_on_the_entry_space_on_any_cast(cast):
    R = rules()
    # JC . . . . . . . . . .   a Cinnabar warrior holding a Jade prisoner on Jade's entry
    st = board("JC . . . . . . . . . .")
    assert M.destination(st, R, J, 11, cast) == 0
    assert legal(st, R, J, cast)[0] == 11  # deploy is listed first
    t = play(st, R, J, 11, cast)
    assert drawing(st) == "CJJ . . . . . . . . . ."
    assert t["captures"] == (1, 0) and t["rescues"] == (1, 0)
    assert home(st, J) == 3
    # the mirror image: Cinnabar deploys onto its entry, space 11
    st = board(". . . . . . . . . . CJ")
    assert M.destination(st, R, C, 11, cast) == 10
    t = play(st, R, C, 11, cast)
    assert drawing(st) == ". . . . . . . . . . JCC" and t["captures"] == (0, 1)


def test_deploy_needs_a_warrior_at_home():
    R = rules()
    st = board(". . . . . J . . . . .", dead=(4, 0))
    assert home(st, J) == 0
    assert M.destination(st, R, J, 11, 3) == -1
    assert legal(st, R, J, 3) == [5]


def test_with_a_reserve_the_rulebook_never_forfeits():
    """'A player holding a reserve can never be forced to forfeit' (Notes on the rules):
    checked on many random boards under the rulebook's rules."""
    R = rules()
    rng = random.Random(5)
    for _ in range(3000):
        st = random_board(rng, 11, 5, valid=True)
        for p in (J, C):
            if home(st, p) > 0:
                for cast in range(1, 6):
                    assert legal(st, R, p, cast), drawing(st)


def test_entry_cast_enters_cast_spaces_onto_the_track():
    R = rules(entry="cast")
    # JC . . . . . . . . . .   with entry=cast the entry space is no longer reached on every
    #                          cast: a cast of 3 enters on space 3
    st = board("JC . . . . . . . . . .")
    for cast in range(1, 6):
        assert M.destination(st, R, J, 11, cast) == cast - 1
        assert M.destination(st, R, C, 11, cast) == 11 - cast
    t = play(st, R, J, 11, 3)
    assert drawing(st) == "JC . J . . . . . . . ." and t["captures"] == (0, 0)
    # a cast of 1 enters on space 1 and captures there
    st = board("JC . . . . . . . . . .")
    t = play(st, R, J, 11, 1)
    assert drawing(st) == "CJJ . . . . . . . . . ." and t["rescues"] == (1, 0)
    # not onto a warrior Jade commands
    st = board(". . J . . . . . . . .")
    assert M.destination(st, R, J, 11, 3) == -1
    assert 11 not in legal(st, R, J, 3)
    # a cast longer than the track cannot enter
    R4 = rules(entry="cast", track=4)
    st = board(". . . .")
    assert M.destination(st, R4, J, 4, 5) == -1 and legal(st, R4, J, 5) == []
    assert M.destination(st, R4, J, 4, 4) == 3


# --------------------------------------------------------------------------- where you command
def test_no_landing_where_you_command():
    R = rules()
    # . . J . . J . . . . .    the rear warrior may not land on the front one
    st = board(". . J . . J . . . . .")
    assert M.destination(st, R, J, 2, 3) == -1
    assert legal(st, R, J, 3) == [11, 5]
    # . . J . . CJ . . . . .   nor on a pile Jade commands
    st = board(". . J . . CJ . . . . .")
    assert M.destination(st, R, J, 2, 3) == -1
    # J . . . . . . . . . .    nor deploy onto its own warrior on the entry space
    st = board("J . . . . . . . . . .")
    for cast in range(1, 6):
        assert M.destination(st, R, J, 11, cast) == -1
        assert legal(st, R, J, cast) == [0]


def test_stack_own_piles_allows_merging_onto_an_own_pile_only():
    R = rules(stack_own="piles")
    # . . J . . CJ . J . . .   cast 3: the rear warrior may merge onto the pile Jade commands
    st = board(". . J . . CJ . J . . .")
    assert M.destination(st, R, J, 2, 3) == 5
    t = play(st, R, J, 2, 3)
    assert drawing(st) == ". . . . . CJJ . J . . ."
    assert t["captures"] == (0, 0) and t["rescues"] == (0, 0) and t["deepest"] == 3
    # ... but still not onto a lone warrior of its own
    assert M.destination(st, R, J, 5, 2) == -1
    # deploying onto its own pile on the entry space merges; onto a lone warrior it may not
    st = board("CJ . . . . . . . . . .")
    assert M.destination(st, R, J, 11, 4) == 0
    play(st, R, J, 11, 4)
    assert drawing(st) == "CJJ . . . . . . . . . ."
    assert M.destination(board("J . . . . . . . . . ."), R, J, 11, 4) == -1
    # under the rulebook's rule the merge is forbidden
    assert M.destination(board(". . J . . CJ . J . . ."), rules(), J, 2, 3) == -1


# --------------------------------------------------------------------------- forfeit
def test_forfeit_when_nothing_is_legal():
    R = rules()
    # JC . . . . JJC . . . .   every Jade warrior still alive is a prisoner and none is home
    st = board("JC . . . . JJC . . . .", dead=(2, 0))
    assert home(st, J) == 0
    for cast in range(1, 6):
        assert legal(st, R, J, cast) == []
        for mv in range(12):
            assert M.destination(st, R, J, mv, cast) == -1


def test_forfeits_are_counted_and_use_up_the_cast():
    o = run(dict(ALL_FORFEIT, horizon=6), count=4)
    assert (o["forfeits"] == 3).all() and (o["moves"] == 0).all()
    assert (o["casts"] == 6).all() and o["capped"].all() and (o["winner"] == -1).all()


def test_forfeit_counts_do_not_overflow_at_large_horizons():
    o = run(dict(ALL_FORFEIT, horizon=100_000), count=1)
    assert o["casts"][0] == 100_000
    assert tuple(o["forfeits"][0]) == (50_000, 50_000)


# --------------------------------------------------------------------------- the horizon
def test_horizon_ends_the_game_as_a_draw():
    o = run({"horizon": 1}, count=20)
    assert (o["casts"] == 1).all() and (o["winner"] == -1).all()
    assert o["capped"].all() and (o["end_reason"] == END_HORIZON).all()
    o = run({"horizon": 3, "casts_per_turn": 2}, count=20)   # the horizon can fall inside a turn
    assert (o["casts"] == 3).all() and o["capped"].all()


def test_a_win_on_the_last_cast_is_a_win():
    # common random numbers: game g plays the same casts whatever the horizon, so a game
    # won on cast c is still won with horizon = c and is a draw with horizon = c - 1
    o = run({}, seed=8, count=40)
    won = [g for g in range(40) if o["winner"][g] >= 0]
    assert len(won) >= 30
    for g in won[:10]:
        c = int(o["casts"][g])
        at = run({"horizon": c}, seed=8, start=g, count=1)
        assert at["winner"][0] == o["winner"][g] and not at["capped"][0]
        assert at["end_reason"][0] == END_KILLED and at["casts"][0] == c
        before = run({"horizon": c - 1}, seed=8, start=g, count=1)
        assert before["winner"][0] == -1 and before["capped"][0] and before["casts"][0] == c - 1
    # the rulebook's horizon is 240 casts
    assert GAME.resolve_rules({})["horizon"] == 240


# --------------------------------------------------------------------------- drag=reverse
def test_drag_reverse_runs_a_pile_home_and_kills_there():
    R = rules(drag="reverse")
    # . . . CJ . . . . . . .   with the regional variant a pile holding prisoners runs back
    #                          towards Jade's own home base (space 1 side)
    st = board(". . . CJ . . . . . . .")
    assert [M.destination(st, R, J, 3, c) for c in (1, 2, 3)] == [2, 1, 0]
    assert M.destination(st, R, J, 3, 4) == 11 and M.destination(st, R, J, 3, 5) == 11
    t = play(st, R, J, 3, 4)
    assert dead(st, C) == 1 and home(st, J) == 5 and t["kills"] == (1, 0)
    # the same pile under the rulebook runs forward
    assert M.destination(board(". . . CJ . . . . . . ."), rules(), J, 3, 2) == 5
    # a lone warrior still runs forward; Cinnabar's piles run back up the track
    st = board(". . J . . . . JC . . .")
    assert M.destination(st, R, J, 2, 2) == 4
    assert M.destination(st, R, C, 7, 2) == 9 and M.destination(st, R, C, 7, 3) == 10
    assert M.destination(st, R, C, 7, 4) == 11  # off past space 11: Cinnabar's home
    # a capture turns the capturer round: . . J . . C . . .  ->  . . . . . CJ . . .
    st = board(". . J . . C . . . . .")
    play(st, R, J, 2, 3)
    assert M.destination(st, R, J, 5, 2) == 3
    # on the way home it may not land where it commands, and it captures what it lands on
    st = board(". J . CJ . . . . . . .")
    assert M.destination(st, R, J, 3, 2) == -1
    st = board(". C . CJ . . . . . . .")
    t = play(st, R, J, 3, 2)
    assert drawing(st) == ". CCJ . . . . . . . . ." and t["captures"] == (1, 0)


def test_drag_reverse_with_exit_pile():
    R = rules(drag="reverse", exit="pile")
    # . . . . . . . . . CJ J
    st = board(". . . . . . . . . CJ J")
    assert M.destination(st, R, J, 10, 1) == -1          # lone warrior stuck at the far end
    assert M.destination(st, R, J, 9, 2) == 7            # the pile runs home
    assert legal(st, R, J, 2) == [11, 9]


# --------------------------------------------------------------------------- turns and seats
def test_casts_per_turn():
    # every cast is a forfeit, so the forfeits count who cast: Jade first
    def forfeits(horizon, cpt):
        o = run(dict(ALL_FORFEIT, horizon=horizon, casts_per_turn=cpt, first="jade"), count=3)
        return {tuple(int(x) for x in row) for row in o["forfeits"]}
    assert forfeits(2, 1) == {(1, 1)}
    assert forfeits(2, 2) == {(2, 0)}
    assert forfeits(4, 3) == {(3, 1)}
    assert forfeits(7, 3) == {(4, 3)}
    assert forfeits(9, 4) == {(5, 4)}


def test_first_player_alternates_between_games():
    o = run(dict(ALL_FORFEIT, horizon=1), start=1001, count=10)
    g = np.arange(1001, 1011)
    assert (o["first_player"] == g % 2).all()
    # the one cast of each game was made by the first player
    assert (o["forfeits"][np.arange(10), g % 2] == 1).all()
    assert (o["forfeits"][np.arange(10), 1 - g % 2] == 0).all()
    assert run({}, start=0, count=1)["first_player"][0] == J  # Jade opens the first game
    for first, seat in (("jade", J), ("cinnabar", C)):
        o = run(dict(ALL_FORFEIT, horizon=1, first=first), start=1001, count=10)
        assert (o["first_player"] == seat).all() and (o["forfeits"][:, seat] == 1).all()


# --------------------------------------------------------------------------- the lots
@pytest.mark.parametrize("kw", [
    {},                                              # the rulebook: 4 fair lots, 1,2,3,4 / 0 -> 5
    {"lots": 2, "cast_table": "3,1,2"},
    {"lots": 5, "lot_p": 0.3},                       # five lots: two draws of 64 bits
    {"lots": 8, "lot_p": 0.75, "cast_table": "1,1,2,2,3,3,4,4,9"},
    {"lots": 3, "cast_table": "3,1,2,3"},            # the 1-to-3 reading
])
def test_cast_distribution_matches_the_binomial(kw):
    resolved = GAME.resolve_rules(kw)
    R, table = GAME.prepare(resolved, 2)
    tab, vals, probs = table
    lots = resolved["lots"]
    p = round(resolved["lot_p"] * 65536) / 65536
    expect: dict[int, float] = {}
    for k in range(lots + 1):
        v = int(tab[k])
        expect[v] = expect.get(v, 0.0) + comb(lots, k) * p ** k * (1 - p) ** (lots - k)
    assert [int(v) for v in vals] == sorted(expect)
    assert np.allclose(probs, [expect[v] for v in sorted(expect)])
    st = empty_state()
    seed_game(st, np.uint64(2024), np.int64(3))
    chance = Stream.substream(2024, 3, DICE, 0)
    rrules = ref.Rules(resolved)
    N = 40_000
    counts: dict[int, int] = {}
    for i in range(N):
        c = int(tab[throw_lots(st, R)])
        counts[c] = counts.get(c, 0) + 1
        if i < 2000:  # bit for bit the reference's reading of the same stream
            assert c == ref.cast_lots(chance, rrules)
    assert set(counts) <= set(expect)
    for v, pv in expect.items():
        sd = (pv * (1 - pv) / N) ** 0.5
        assert abs(counts.get(v, 0) / N - pv) < 5 * sd + 1e-9, (v, counts.get(v, 0) / N, pv)


def test_the_rulebook_cast_table():
    R, table = GAME.prepare(GAME.resolve_rules({}), 2)
    assert list(table.spaces) == [5, 1, 2, 3, 4]   # all blank is the longest stride
    # the rarest throw: 1/16 with fair lots
    assert R.lot_threshold == 32768
    assert dict(zip(table.values.tolist(), table.probs.tolist())) == {1: 4 / 16, 2: 6 / 16, 3: 4 / 16,
                                                        4: 1 / 16, 5: 1 / 16}


# --------------------------------------------------------------------------- random boards
def random_board(rng: random.Random, T: int, W: int, valid: bool):
    """A random board: each side's warriors split between home, dead and the track.
    ``valid``: piles as play makes them (a pile of two or more always holds a prisoner)."""
    st = empty_state()
    count = st["count"]
    for s in (J, C):
        d = rng.randint(0, W - 1)
        h = rng.randint(0, W - d)
        st["dead"][s] = d
        st["home"][s] = h
        for _ in range(W - d - h):
            count[s, rng.randrange(T)] += 1
    for i in range(T):
        nj, nc = count[J, i], count[C, i]
        if nj + nc == 0:
            continue
        if valid and (nj == 0 or nc == 0) and nj + nc > 1:
            # fold the extra warriors back home to keep the board playable
            s = J if nj else C
            st["home"][s] += nj + nc - 1
            count[s, i] = 1
            nj, nc = count[J, i], count[C, i]
        st["commander"][i] = J if nc == 0 else C if nj == 0 else rng.choice((J, C))
    return st


def copy_of(st):
    """An independent copy of a state record (in its own 1-element array)."""
    a = np.zeros(1, S.STATE_DTYPE)
    a[0] = st
    return a[0]


def to_reference(st, rrules):
    T = rrules.T
    b = ref.Board(rrules)
    for i in range(T):
        c = int(st["commander"][i])
        if c >= 0:
            counts = (int(st["count"][J, i]), int(st["count"][C, i]))
            b.track[i] = [1 - c] * counts[1 - c] + [c] * counts[c]  # commander on top
    b.home = [int(x) for x in st["home"]]
    b.dead = [int(x) for x in st["dead"]]
    return b


VARIANTS = [{"entry": e, "exit": x, "drag": d, "stack_own": s}
            for e in ("space", "cast") for x in ("any", "pile")
            for d in ("forward", "reverse") for s in ("never", "piles")]


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_moves_agree_with_destination_on_random_boards(variant):
    """legal_moves (bit masks) = every move whose destination() is legal, in the documented
    order, = the reference engine's legal moves; and apply_move agrees with the reference
    on the same boards."""
    rng = random.Random(VARIANTS.index(variant))
    for T in (4, 5, 9, 11, 23, 40):
        resolved = GAME.resolve_rules(dict(variant, track=T))
        R0 = GAME.prepare(resolved, 2)[0]
        rrules = ref.Rules(resolved)
        out = np.zeros(T + 2, np.int64)
        for _ in range(25):
            W = rng.randint(1, 8)
            R = R0._replace(warriors=W)
            rrules.W = W
            st = random_board(rng, T, W, valid=rng.random() < 0.7)
            rb = to_reference(st, rrules)
            for p in (J, C):
                for cast in (1, 2, 3, rng.randint(4, T + 3), rng.randint(1, 40)):
                    n = M.legal_moves(st, R, p, cast, out)
                    got = [int(x) for x in out[:n]]
                    order = [T] + (list(range(T)) if p == J else list(range(T - 1, -1, -1)))
                    want = [m for m in order if M.destination(st, R, p, m, cast) != -1]
                    assert got == want, (variant, drawing(st, T), p, cast)
                    mine = [T if m == ref.DEPLOY else m for m in rb.legal_moves(p, cast)]
                    assert got == mine, (variant, drawing(st, T), p, cast)
                    for m in got:
                        rm = ref.DEPLOY if m == T else m
                        d = M.destination(st, R, p, m, cast)
                        rd = rb.destination(p, rm, cast)
                        assert (T if rd == ref.OFF else rd) == d
                        st2 = copy_of(st)
                        M.apply_move(st2, R, p, m, cast)
                        rb2 = rb.copy()
                        rec = {"kills": [0, 0], "captures": [0, 0], "rescues": [0, 0],
                               "deepest_pile": 0}
                        rb2.apply(p, rm, cast, rec)
                        assert to_reference(st2, rrules).snapshot() == _canonical(rb2), drawing(st, T)
                        for k in ("kills", "captures", "rescues"):
                            assert [int(x) for x in st2[k]] == rec[k]
                        assert int(st2["deepest"]) == rec["deepest_pile"]


def _canonical(b):
    """A reference board with each pile reordered as to_reference builds them."""
    track = []
    for pile in b.track:
        if pile:
            c = pile[-1]
            track.append(tuple([1 - c] * pile.count(1 - c) + [c] * pile.count(c)))
        else:
            track.append(())
    return tuple(track), tuple(b.home), tuple(b.dead)


# --------------------------------------------------------------------------- the bots' preferences
def _choose(st, R, p, cast, bot="greedy", depth=2, seed=0, game=0):
    """The bot's move (its tie-break stream: that of ``game`` of ``seed``)."""
    moves = np.zeros(S.MAX_TRACK + 2, np.int64)
    n = M.legal_moves(st, R, p, cast, moves)
    seed_game(st, np.uint64(seed), np.int64(game))
    if bot == "greedy":
        return int(G.greedy_choice(st, R, p, cast, moves, n))
    table = GAME.prepare(GAME.resolve_rules({}), 2)[1]
    return int(SB.search_choice(st, R, table, p, cast, moves, n, depth, 0, S.new_scratch()[0]))


def test_greedy_carries_off_then_captures_the_biggest_pile_then_runs_the_leader():
    R = rules()
    # space: 1 2 3 4 5  6  7 8 9 10 11
    #        . . J . . JJC J . . CJ .      cast 3
    # the pile on 10 can carry its prisoner off; the warrior on 3 can take the pile on 6
    # (freeing two Jade warriors); the warrior on 7 is blocked by its own pile on 10
    st = board(". . J . . JJC J . . CJ .")
    assert legal(st, R, J, 3) == [2, 9]
    assert _choose(st, R, J, 3) == 9                      # carrying off comes first
    # . . J . . JJC J . . . .      without it, the capture beats running to 10
    st = board(". . J . . JJC J . . . .")
    assert legal(st, R, J, 3) == [11, 2, 6]
    assert _choose(st, R, J, 3) == 2
    # . J . . C . J . . JJC .      two captures: the bigger pile wins
    st = board(". J . . C . J . . JJC .")
    assert _choose(st, R, J, 3) == 6
    # J . J . . J . . . . .        nothing to take: the leading warrior runs
    st = board("J . J . . J . . . . .")
    assert legal(st, R, J, 2) == [2, 5]
    assert _choose(st, R, J, 2) == 5
    # . . . J . . . . . . .        a deployment is worth least of all
    st = board(". . . J . . . . . . .")
    assert legal(st, R, J, 2) == [11, 3] and _choose(st, R, J, 2) == 3


@pytest.mark.parametrize("depth", [1, 2])
def test_search_takes_a_winning_move_at_once(depth):
    R = rules()
    # . . J . . . . . CJ . .    four Cinnabar warriors are dead, the fifth is Jade's prisoner
    st = board(". . J . . . . . CJ . .", dead=(0, 4))
    assert legal(st, R, J, 3) == [11, 2, 8]
    assert _choose(st, R, J, 3, "search", depth) == 8     # carrying it off wins
    st = board(". . J . . . . CJ . . .", dead=(0, 4))
    assert legal(st, R, J, 4) == [11, 2, 7]
    assert _choose(st, R, J, 4, "search", depth) == 7
