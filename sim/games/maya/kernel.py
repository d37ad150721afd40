"""Maya's kernel in one namespace: a re-export of the package's modules (``state``,
``setup``, ``exchange``, ``scoring``, ``bots/*``, ``play``) for the tests and tools that
reach into the kernel by name (``bench/profile.py`` names its jitted functions from here).
New code imports from the module that defines a name."""
from __future__ import annotations

from .state import (  # noqa: F401
    NMAX, MA, MB, RAV, LSUP, PSUP, N_PCS, STATE_DTYPE, Scratch, SNAP_TW, SNAP_CUT, SNAP_LAD,
    SNAP_LS, SNAP_PR, SNAP_MA, SNAP_MB, SNAP_RAV, SNAP_LSUP, SNAP_PSUP, SNAP_W, R_N, R_L, R_E, R_P,
    R_RAVEN, R_START, R_SETUP, R_HORIZON, R_HRESULT, R_FIRST, R_LADDERS, R_PRIESTS,
    R_BONUS, R_CENTRE, R_CHECK, R_LP, N_RULES, R_NCYC, EMAX, LMAX, CMAX, R_EA, R_EB,
    R_EBITS, R_HMASK, R_SPACES, R_PTS, R_BHI, R_BLO, R_CYC, RULES_SZ, START_BOT,
    START_RANDOM, SETUP_UNIFORM, SETUP_TURNS, HRESULT_SCORE, HRESULT_DRAW, FIRST_ROTATE,
    FIRST_SEAT0, BOT_RANDOM, BOT_GREEDY, BOT_SEARCH, END_NO_EXCHANGE, END_DECLARED,
    END_HORIZON, TB_SCORE, TB_PRIESTS, TB_LADDERS, TB_TIED, T_SCORE, T_PRIESTS,
    T_LADDERS, T_PPTS, T_LPTS, T_COMPL, T_BONUS, T_JOINS, T_TEAM, T_EX, T_END, T_WINNER,
    T_FIRST, T_TIEBRK, T_DECL, T_TCOMP, T_TEAMW, T_MSTART, T_RSTART, T_ATTEMPTS, T_VIOL,
    T_BOARD, N_TALLY, EV_BOARD, EV_BLOCK, EV_PLACE, EV_START, EV_DEAL, EV_EXCHANGE,
    EV_DECLARE, EV_PLAY_ON, CH, SUB_BOARD, SUB_START, WIN, NEG, MAXM, DEPTH_MAX,
    X_MOVES, X_REP, X_TIES, X_VALS, X_DP, X_PC, X_USED, X_ALLOWED, X_COL, X_REM, X_CARDS,
    X_CP, X_SCORE, X_EMASK, X_NMV, X_IDX, X_AL, X_BE, X_BV, X_MV, X_DEAL, X_CAND, X_CSUM,
    X_HVAL, X_STATS, S_DECISIONS, S_NODES, S_STEPS, N_SCRATCH, W_S1, W_S2, W_BEFORE, W_PLAY,
    W_ROOT, W_SS, N_WORK, scratch_width,
    new_states, new_state, new_scratch, at, copy_state, state_from_snapshot, snapshot, nib,
    cut_mask, clear_state, refresh_cuts, board_key
)
from .setup import (  # noqa: F401
    seed_game, count_assignments, sample_assignment, sample_row_by_rejection,
    cycle_code, uniform_row, setup_uniform, level_completable, join_chances,
    placement_options, steer_joins, setup_turns, deal_tasks, record_board
)
from .exchange import (  # noqa: F401
    gen_moves, edge_masks, pick_move, has_move, place_on, apply_exchange,
    check_invariants
)
from .scoring import (  # noqa: F401
    score2, result2, final_scores2, colour_points, can_declare, final_scores_tasks,
    final_scores
)
from .bots.random import (  # noqa: F401
    random_move, random_declare, random_pair
)
from .bots.greedy import (  # noqa: F401
    draw_tie, eval2, leaf2, best_reply_value, greedy2, start_choice_value, greedy_start,
    wants_to_declare, task_value, task_step_value, task_pick, greedy_task
)
from .bots.search import (  # noqa: F401
    shuffle_root, ladder_gain, exchange_gain, order_moves, has_move_after, frontier_value,
    search2, alphabeta, model_leaf
)
from .bots.mcts import (  # noqa: F401
    sample_deal, side_value, rollout, play_out, order_desc, candidates, search_task,
    search_declare, search_task_v, search_declare_v, end_value
)
from .play import (  # noqa: F401
    start_choice, place_start, set_up, declares, choose_exchange, play_turns, play_game,
    run_games, chunk_work
)

__all__ = [
    'NMAX', 'MA', 'MB', 'RAV', 'LSUP', 'PSUP', 'N_PCS', 'STATE_DTYPE', 'Scratch', 'SNAP_TW',
    'SNAP_CUT', 'SNAP_LAD', 'SNAP_LS', 'SNAP_PR', 'SNAP_MA', 'SNAP_MB', 'SNAP_RAV',
    'SNAP_LSUP', 'SNAP_PSUP', 'SNAP_W',
    'R_N', 'R_L', 'R_E', 'R_P', 'R_RAVEN', 'R_START', 'R_SETUP', 'R_HORIZON',
    'R_HRESULT', 'R_FIRST', 'R_LADDERS', 'R_PRIESTS', 'R_BONUS', 'R_CENTRE', 'R_CHECK',
    'R_LP', 'N_RULES', 'R_NCYC', 'EMAX', 'LMAX', 'CMAX', 'R_EA', 'R_EB', 'R_EBITS',
    'R_HMASK', 'R_SPACES', 'R_PTS', 'R_BHI', 'R_BLO', 'R_CYC', 'RULES_SZ', 'START_BOT',
    'START_RANDOM', 'SETUP_UNIFORM', 'SETUP_TURNS', 'HRESULT_SCORE', 'HRESULT_DRAW',
    'FIRST_ROTATE', 'FIRST_SEAT0', 'BOT_RANDOM', 'BOT_GREEDY', 'BOT_SEARCH',
    'END_NO_EXCHANGE', 'END_DECLARED', 'END_HORIZON', 'TB_SCORE', 'TB_PRIESTS',
    'TB_LADDERS', 'TB_TIED', 'T_SCORE', 'T_PRIESTS', 'T_LADDERS', 'T_PPTS', 'T_LPTS',
    'T_COMPL', 'T_BONUS', 'T_JOINS', 'T_TEAM', 'T_EX', 'T_END', 'T_WINNER', 'T_FIRST',
    'T_TIEBRK', 'T_DECL', 'T_TCOMP', 'T_TEAMW', 'T_MSTART', 'T_RSTART', 'T_ATTEMPTS',
    'T_VIOL', 'T_BOARD', 'N_TALLY', 'EV_BOARD', 'EV_BLOCK', 'EV_PLACE', 'EV_START',
    'EV_DEAL', 'EV_EXCHANGE', 'EV_DECLARE', 'EV_PLAY_ON', 'CH', 'SUB_BOARD',
    'SUB_START', 'WIN', 'NEG', 'MAXM', 'DEPTH_MAX', 'X_MOVES', 'X_REP', 'X_TIES',
    'X_VALS', 'X_DP', 'X_PC', 'X_USED', 'X_ALLOWED',
    'X_COL', 'X_REM', 'X_CARDS', 'X_CP', 'X_SCORE', 'X_EMASK', 'X_NMV', 'X_IDX', 'X_AL',
    'X_BE', 'X_BV', 'X_MV', 'X_DEAL', 'X_CAND', 'X_CSUM', 'X_HVAL', 'X_STATS', 'S_DECISIONS',
    'S_NODES', 'S_STEPS', 'N_SCRATCH', 'W_S1',
    'W_S2', 'W_BEFORE', 'W_PLAY', 'W_ROOT', 'W_SS', 'N_WORK', 'scratch_width',
    'new_states', 'new_state', 'new_scratch', 'at', 'copy_state', 'state_from_snapshot',
    'snapshot', 'nib', 'cut_mask', 'clear_state', 'refresh_cuts', 'board_key', 'seed_game',
    'count_assignments', 'sample_assignment', 'sample_row_by_rejection', 'cycle_code',
    'uniform_row', 'setup_uniform', 'level_completable', 'join_chances',
    'placement_options', 'steer_joins', 'setup_turns', 'deal_tasks', 'record_board',
    'gen_moves', 'edge_masks', 'pick_move', 'has_move', 'place_on', 'apply_exchange',
    'check_invariants', 'score2', 'result2', 'final_scores2', 'colour_points',
    'can_declare', 'final_scores_tasks', 'final_scores', 'random_move',
    'random_declare', 'random_pair', 'draw_tie', 'eval2', 'leaf2', 'best_reply_value',
    'greedy2', 'start_choice_value', 'greedy_start', 'wants_to_declare', 'task_value',
    'task_step_value', 'task_pick', 'greedy_task', 'shuffle_root', 'ladder_gain',
    'exchange_gain', 'order_moves', 'has_move_after', 'frontier_value', 'search2',
    'alphabeta', 'model_leaf',
    'sample_deal', 'side_value', 'rollout', 'play_out', 'order_desc', 'candidates',
    'search_task', 'search_declare', 'search_task_v', 'search_declare_v', 'end_value',
    'start_choice', 'place_start', 'set_up', 'declares', 'choose_exchange',
    'play_turns', 'play_game', 'run_games', 'chunk_work'
]
