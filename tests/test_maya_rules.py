"""Hand-built positions from the rulebook's own examples, played on the jitted kernel.

Towers are numbered row by row and levels are written 1 (bottom) to 5 (top) in the
drawings, as in the rulebook; the kernel counts levels from 0:

    +---+---+---+
    | 0 | 1 | 2 |      edges (kernel order): 0-1 0-3 1-2 1-4 2-5 3-4 3-6 4-5 4-7 5-8 6-7 7-8
    +---+---+---+
    | 3 | 4 | 5 |
    +---+---+---+
    | 6 | 7 | 8 |
    +---+---+---+
"""
import numpy as np
import pytest

from sim.games.maya import GAME
from sim.games.maya import exchange, scoring, state as maya_state

EDGES = [(0, 1), (0, 3), (1, 2), (1, 4), (2, 5), (3, 4), (3, 6), (4, 5), (4, 7), (5, 8),
         (6, 7), (7, 8)]
RED, GREEN, PINK, PURPLE = 0, 1, 6, 5


def ctx(players=2, **rules):
    """The rules array R (layout in sim/games/maya/state.py)."""
    return GAME.prepare(GAME.resolve_rules(rules), players)


def board(fixed, n=9, L=5):
    """A valid board holding the towers in ``fixed`` ({tower: colours bottom-up}); the other
    towers get the remaining colours of each level with no two equal colours touching."""
    towers = {t: list(c) for t, c in fixed.items()}
    free = [t for t in range(n) if t not in towers]
    for t in free:
        towers[t] = []
    for lev in range(L):
        left = sorted(set(range(n)) - {towers[t][lev] for t in fixed})

        def place(i):
            if i == len(free):
                return True
            t = free[i]
            for c in list(left):
                if lev > 0 and towers[t][lev - 1] == c:
                    continue
                towers[t].append(c)
                left.remove(c)
                if place(i + 1):
                    return True
                left.append(c)
                left.sort()
                towers[t].pop()
            return False

        assert place(0)
    return [towers[t] for t in range(n)]


def state(towers, R, monolith=None, raven=0):
    """raven: 1-based level (0: none)."""
    st = maya_state.new_state()
    maya_state.clear_state(st, R)
    for t, cols in enumerate(towers):
        st.tw[t] = sum(c << (4 * lev) for lev, c in enumerate(cols))
    maya_state.refresh_cuts(st, R)
    if monolith is not None:
        st.pcs[maya_state.MA], st.pcs[maya_state.MB] = monolith
    st.pcs[maya_state.RAV] = raven - 1 if raven else 0
    return st


def towers_of(st, n=9, L=5):
    return [[int(maya_state.nib(st.tw[t], lev)) for lev in range(L)] for t in range(n)]


def legal(st, c):
    out = np.zeros(maya_state.MAXM, np.int64)
    k = exchange.gen_moves(st, c, out)
    return [(EDGES[m >> 4], int(m & 15) + 1) for m in out[:k]]   # ((a, b), 1-based level)


def blocks_moved(moves, pair):
    return sorted(6 - lev for p, lev in moves if p == pair)


def play(st, c, pair, level, seat):
    mv = 16 * EDGES.index(pair) + (level - 1)
    return exchange.apply_exchange(st, c, mv, seat)


def test_edges_are_listed_in_kernel_order():
    R = ctx()
    E = int(R[maya_state.R_E])
    ea, eb = maya_state.R_EA, maya_state.R_EB
    assert list(zip(R[ea:ea + E].tolist(), R[eb:eb + E].tolist())) == EDGES


# Rulebook, "You must not break apart colors that are joined together":
#
#   level   A (tower 0)   B (tower 1)
#     5        3            8
#     4      PINK           7
#     3      PINK         PURPLE
#     2        1          PURPLE
#     1        0          PURPLE
A = [0, 1, PINK, PINK, 3]
B = [PURPLE, PURPLE, PURPLE, 7, 8]


def test_tower_joined_at_levels_3_4_allows_one_three_or_four_blocks():
    c = ctx()
    st = state(board({0: A, 1: B}), c)
    assert blocks_moved(legal(st, c), (0, 3)) == [1, 3, 4]


def test_tower_joined_at_levels_1_2_3_allows_one_or_two_blocks():
    c = ctx()
    st = state(board({0: A, 1: B}), c)
    assert blocks_moved(legal(st, c), (1, 4)) == [1, 2]
    assert blocks_moved(legal(st, c), (1, 2)) == [1, 2]


def test_between_the_two_towers_only_the_top_block():
    c = ctx()
    st = state(board({0: A, 1: B}), c)
    assert blocks_moved(legal(st, c), (0, 1)) == [1]


def test_the_bottom_level_never_moves():
    c = ctx()
    st = state(board({}), c)
    moves = legal(st, c)
    assert len(moves) == 12 * 4          # a board with nothing joined: 4 levels on every edge
    assert all(lev >= 2 for _, lev in moves)


def test_monolith_blocks_both_towers_beside_it():
    # Monolith between A and B: no exchange may use tower 0 or tower 1 at all.
    c = ctx()
    st = state(board({0: A, 1: B}), c, monolith=(0, 1))
    pairs = {p for p, _ in legal(st, c)}
    assert pairs == {p for p in EDGES if 0 not in p and 1 not in p}


def test_raven_forbids_its_level_but_lower_exchanges_carry_it():
    # Raven at the fourth level: no level-4 exchange anywhere; a level-3 exchange
    # moves the fourth- and fifth-level blocks with it.
    c = ctx()
    towers = board({})
    st = state(towers, c, raven=4)
    moves = legal(st, c)
    assert {lev for _, lev in moves} == {2, 3, 5}
    play(st, c, (3, 4), 3, 0)
    after = towers_of(st)
    assert after[3] == towers[3][:2] + towers[4][2:]
    assert after[4] == towers[4][:2] + towers[3][2:]


def test_raven_is_not_used_with_three_players():
    c = ctx(3)
    towers = board({})
    st = state(towers, c)
    play(st, c, (3, 4), 4, 0)
    assert st.pcs[maya_state.RAV] == 0
    assert {lev for _, lev in legal(st, c)} == {2, 3, 4, 5}


# Rulebook, "2. Moving the Monolith and Placing the Raven": levels 4 and 5 of A and B
# are exchanged; the two pink blocks join in B, so the mover places a ladder at B; the
# Monolith goes between A and B and the Raven to the fourth level.
#
#   level    A  B            A  B
#     5      4  7            7  4
#     4    PINK 8    ->      8 PINK
#     3      2 PINK          2 PINK   <- joined in B
def test_exchange_moves_monolith_raven_and_places_a_ladder():
    c = ctx()
    A2 = [0, 1, 2, PINK, 4]
    B2 = [3, 5, PINK, 8, 7]
    st = state(board({3: A2, 4: B2}), c, monolith=(0, 1), raven=2)
    f = play(st, c, (3, 4), 4, 1)
    assert towers_of(st)[4] == [3, 5, PINK, PINK, 4]
    assert (st.pcs[maya_state.MA], st.pcs[maya_state.MB]) == (3, 4)
    assert st.pcs[maya_state.RAV] + 1 == 4
    assert st.lad[4, 1] == 1 and st.lad[3, 1] == 0
    assert st.lad[4, 0] == 0
    assert f & 2 and not f & 1 and not f & 12


# Rulebook, "3. Placing Ladders and Priests": white exchanges levels 3-5 of A and B.
# Two greens join in A (ladder for white); B becomes all red (priest for white), but
# both of B's two ladder spaces already hold black ladders, so no white ladder there.
#
#   level    A(1)  B(0)          A(1)  B(0)
#     5      RED    4            4     RED
#     4      RED    3     ->     3     RED
#     3      RED  GREEN          GREEN RED
#     2     GREEN  RED           GREEN RED
#     1       2    RED           2     RED
def test_completed_tower_gets_a_priest_but_no_ladder_when_spaces_are_full():
    c = ctx()
    Bt = [RED, RED, GREEN, 3, 4]
    At = [2, GREEN, RED, RED, RED]
    st = state(board({0: Bt, 1: At}), c)
    assert c[maya_state.R_SPACES + 0] == 2            # a corner tower has two ladder spaces
    st.lad[0, 1] = 2                # two black ladders at B
    st.ls[0] = 2
    st.pcs[maya_state.LSUP + 1] -= 2
    f = play(st, c, (0, 1), 3, 0)
    assert towers_of(st)[0] == [RED] * 5
    assert st.cut[0] == 0               # complete
    assert st.pr[0] == 0                # white's priest
    assert st.lad[0, 0] == 0       # no white ladder at B
    assert st.lad[0, 1] == 2
    assert st.lad[1, 0] == 1       # white ladder at A
    assert st.pcs[maya_state.PSUP + 0] == GAME.resolve_rules({})["priests"] - 1
    assert f == 0b0111                       # joins in A and B, B complete


def test_a_complete_tower_never_takes_part_in_an_exchange():
    c = ctx()
    st = state(board({0: [RED, RED, GREEN, 3, 4], 1: [2, GREEN, RED, RED, RED]}), c)
    play(st, c, (0, 1), 3, 0)
    st.pcs[maya_state.MA] = st.pcs[maya_state.MB] = -1
    assert all(0 not in p for p, _ in legal(st, c))


def test_no_legal_exchange_ends_the_game():
    # Towers on the dark squares can only be cut at level 2, the others only at level 3,
    # so no two adjacent towers share a cut: nothing is legal, though no tower is complete.
    #   dark (0 2 4 6 8):  t, n, n, n, n   (n = next dark tower's number)
    #   light (1 3 5 7):   t, t, n, n, n   (n = next light tower's number)
    dark, light = [0, 2, 4, 6, 8], [1, 3, 5, 7]
    towers = [None] * 9
    for i, t in enumerate(dark):
        towers[t] = [t] + [dark[(i + 1) % 5]] * 4
    for i, t in enumerate(light):
        towers[t] = [t, t] + [light[(i + 1) % 4]] * 3
    for lev in range(5):
        assert sorted(tw[lev] for tw in towers) == list(range(9))
    c = ctx()
    st = state(towers, c)
    assert legal(st, c) == []
    assert not exchange.has_move(st, c)
    assert all(st.cut[t] != 0 for t in range(9))


# Rulebook, "Scoring Example": BLACK 5, WHITE 4.
#   tower  priest   white ladders  black ladders   point
#     1    black         1              1          black (priest)
#     2      -           1              0          white
#     3      -           0              1          black
#     4      -           1              1          -
#     5      -           2              1          white
#     6      -           1              0          white
#     7      -           0              1          black
#     8    white         1              2          white (priest), black (ladders)
#     9      -           0              1          black
WHITE, BLACK = 0, 1
EXAMPLE = [(BLACK, 1, 1), (None, 1, 0), (None, 0, 1), (None, 1, 1), (None, 2, 1),
           (None, 1, 0), (None, 0, 1), (WHITE, 1, 2), (None, 0, 1)]


def example_state(R, rows=EXAMPLE):
    st = state(board({}), R)
    for t, (pr, w, b) in enumerate(rows):
        st.pr[t] = -1 if pr is None else pr
        st.lad[t, WHITE] = w
        st.lad[t, BLACK] = b
        st.ls[t] = w + b
    return st


def final(st, c):
    tal = np.zeros(maya_state.N_TALLY, np.int64)
    side = scoring.final_scores(st, c, tal, maya_state.new_scratch(9).x)
    return side, tal


def test_scoring_example_ends_five_to_four_for_black():
    c = ctx()
    side, tal = final(example_state(c), c)
    assert (tal[maya_state.T_SCORE + WHITE], tal[maya_state.T_SCORE + BLACK]) == (4, 5)
    assert side == BLACK and tal[maya_state.T_TIEBRK] == maya_state.TB_SCORE
    assert (tal[maya_state.T_PPTS + WHITE], tal[maya_state.T_PPTS + BLACK]) == (1, 1)
    assert (tal[maya_state.T_LPTS + WHITE], tal[maya_state.T_LPTS + BLACK]) == (3, 4)
    st = example_state(c)
    assert scoring.result2(st, 9, BLACK) == maya_state.WIN and scoring.result2(st, 9, WHITE) == -maya_state.WIN


def test_tie_breaks_priests_then_ladders_then_no_winner():
    c = ctx()
    # 1 point each; white's is a priest, black's a ladder majority: white wins on priests
    rows = [(WHITE, 0, 0), (None, 0, 1)] + [(None, 0, 0)] * 7
    side, tal = final(example_state(c, rows), c)
    assert side == WHITE and tal[maya_state.T_TIEBRK] == maya_state.TB_PRIESTS
    # 1 point each from ladder majorities, no priests; black has more ladders in all
    rows = [(None, 1, 0), (None, 0, 2)] + [(None, 0, 0)] * 7
    side, tal = final(example_state(c, rows), c)
    assert side == BLACK and tal[maya_state.T_TIEBRK] == maya_state.TB_LADDERS
    # ... and with as many ladders in all: no winner
    rows = [(None, 1, 0), (None, 0, 1), (None, 2, 2)] + [(None, 0, 0)] * 6
    side, tal = final(example_state(c, rows), c)
    assert tal[maya_state.T_TIEBRK] == maya_state.TB_TIED and side == -1


def test_ladder_majority_ties_score_nothing():
    c = ctx()
    rows = [(None, 2, 2)] + [(None, 0, 0)] * 8
    side, tal = final(example_state(c, rows), c)
    assert (tal[maya_state.T_SCORE], tal[maya_state.T_SCORE + 1]) == (0, 0)
    assert tal[maya_state.T_TIEBRK] == maya_state.TB_TIED and side == -1


# Three players, "Victory Points": complete tower 10, four joined 6, three joined 3,
# two joined 1, two pairs 2.
@pytest.mark.parametrize("tower,colour,points", [
    ([RED] * 5, RED, 10),
    ([2, RED, RED, RED, RED], RED, 6),
    ([2, RED, RED, RED, 3], RED, 3),
    ([2, 3, 4, RED, RED], RED, 1),
    ([RED, RED, 3, RED, RED], RED, 2),       # two pairs in one tower
    ([RED, RED, RED, 3, 4], RED, 3),         # a run of three (the other two elsewhere)
    ([RED, 3, RED, 4, RED], RED, 0),         # never touching: nothing
])
def test_task_points_table(tower, colour, points):
    c = ctx(3)
    st = maya_state.new_state()
    st.tw[0] = sum(x << (4 * lev) for lev, x in enumerate(tower))
    for t in range(1, 9):
        st.tw[t] = sum((t + 1 + lev) % 9 << (4 * lev) for lev in range(5))
    cp = np.zeros(16, np.int64)
    scoring.colour_points(st, 9, 5, c[maya_state.R_PTS:], cp)
    assert cp[colour] == points


def test_two_pairs_in_different_towers_score_two():
    c = ctx(3)
    towers = board({})
    towers[0] = [RED, RED, 2, 3, 4]
    towers[8] = [5, 6, 7, RED, RED]
    st = state(towers, c)
    cp = np.zeros(16, np.int64)
    scoring.colour_points(st, 9, 5, c[maya_state.R_PTS:], cp)
    assert cp[RED] == 2


def test_run_of_three_and_pair_elsewhere_add_up_to_four():
    # the one split of five blocks the rulebook's table does not list: 3 + 1 points
    c = ctx(3)
    towers = board({})
    towers[0] = [RED, RED, RED, 2, 3]
    towers[8] = [5, 6, 7, RED, RED]
    st = state(towers, c)
    cp = np.zeros(16, np.int64)
    scoring.colour_points(st, 9, 5, c[maya_state.R_PTS:], cp)
    assert cp[RED] == 4


def test_declaring_needs_centre_and_own_task_tower_complete():
    # Centre tower (4) complete in colour 4; tower 0 complete in RED.
    c = ctx(3)
    R = c
    towers = board({})
    towers[4] = [4] * 5
    st = state(towers, R)
    cards = np.array([RED, 2, 3, 5, 6, 7, 0, 0], np.int64)
    assert not scoring.can_declare(st, R, cards, 0)      # red tower not complete yet
    towers[0] = [RED] * 5
    st = state(towers, R)
    assert scoring.can_declare(st, R, cards, 0)
    assert not scoring.can_declare(st, R, cards, 1)      # seat 1 holds 3 and 5
    towers[4] = [4, 4, 4, 4, 8]
    st = state(towers, R)
    assert not scoring.can_declare(st, R, cards, 0)      # centre not complete


def test_horizon_scores_the_board_as_it_stands_or_draws():
    players = 2
    for result in ("score", "draw"):
        r = GAME.resolve_rules({"horizon": 12, "horizon_result": result})
        cx = GAME.prepare(r, players)
        ids, par = GAME.bot_arrays(GAME.choose_bots("greedy,random", players))
        cols = GAME.play_chunk(cx, players, 3, 0, 60, ids, par)
        capped_rows = cols["capped"]
        assert capped_rows.sum() > 40
        assert (cols["end_reason"][capped_rows] == 2).all()
        assert (cols["exchanges"][capped_rows] == 12).all()
        sc = cols["score"][capped_rows]
        w = cols["winner"][capped_rows]
        if result == "draw":
            assert (w == -1).all() and (cols["win"][capped_rows] == 0).all()
        else:
            clear = sc[:, 0] != sc[:, 1]
            assert clear.any()
            assert (w[clear] == np.argmax(sc[clear], axis=1)).all()
