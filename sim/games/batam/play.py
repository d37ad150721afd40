"""The game loop: a round's phases in crew-row order, the end of the game, and the
chunk of games the runner asks for (``run_chunk``, the kernel contract of ``sim.game``)."""
from __future__ import annotations

import numpy as np

from ...drama import drama
from ...howplays import EV_SIZE, cx_finish, cx_start, ev_finish, ev_start
from ...jit import helper, helper_inline
from ...record import NO_RECORD, NO_SNAPS
from ...sched import new_sched
from ...playcols import evaluation_columns
from ...value import work_size
from .bots.search import decide
from .howplays import EW_ON, new_counts, new_ev_work
from .loop import crew_seat, play_from
from .setup import setup, start_streams
from .state import (
    BOT_SEARCH,
    C_ER,
    C_FIRST,
    C_I,
    C_RND,
    C_ROUNDS,
    C_W,
    G_BANK,
    G_ENDER,
    G_SHORT,
    HEURISTIC_DEFAULTS,
    LEAF_MODEL,
    MAXC,
    MAXI,
    MAXK,
    MAXP,
    NEED,
    N_BOTPAR,
    N_CUR,
    N_PLAN,
    N_RS,
    N_TAL,
    Out,
    Play,
    R_HORIZON,
    R_P,
    S_LEAF,
    Scratch,
    Search,
    SEAT_FIELDS,
    new_state,
)

#: room for a seat's features (``features.n_features``: 10 a seat and 7, at most 47)
FEATURE_ROOM = 64


@helper_inline
def play_game(g, seed, rules, bot_ids, bot_par, st, rs, sc, buf, snaps):
    """Play game g (no search seat); returns (winner, end_reason, first, rounds).  Its state is
    left in ``st`` (tallies included), the win shares in ``sc.win``, the leader at the end of
    each round in ``sc.leaders``.  ``rs`` has N_RS slots.  Events go to ``buf`` and the state
    after every voyage to ``snaps`` when recording (``sim.record``; else NO_RECORD)."""
    first = new_game(g, seed, rules, st, rs, sc, buf)
    play_from(st, rules, bot_ids, bot_par, rs, sc, buf, snaps)
    return sc.cur[C_W], sc.cur[C_ER], first, sc.cur[C_ROUNDS]


@helper_inline
def play_game_search(g, seed, rules, bot_ids, bot_par, st, rs, sc, srch, buf, snaps):
    """``play_game`` with search seats: the loop stops at each of their searched decisions,
    ``search.decide`` chooses (the phases play their other decisions as the heuristic, with
    ``srch.ppar``), and the loop goes on."""
    first = new_game(g, seed, rules, st, rs, sc, buf)
    P = rules.R[R_P]
    cur = sc.cur
    while play_from(st, rules, bot_ids, srch.ppar, rs, sc, buf, snaps) == NEED:
        p = crew_seat(first, cur[C_RND], cur[C_I], P)
        decide(st, rules, p, bot_par[p], rs, sc, srch)
    return cur[C_W], cur[C_ER], first, cur[C_ROUNDS]


@helper
def new_game(g, seed, rules, st, rs, sc, buf):
    """Game g's streams and setup, the cursor at the start of round 1; returns the first player."""
    start_streams(rs, seed, g, rules.R[R_P])
    first = setup(st, rules, rs, sc.order, buf)
    for k in range(N_CUR):
        sc.cur[k] = 0
    sc.cur[C_FIRST] = first
    sc.cur[C_W] = -1
    for k in range(N_PLAN):
        sc.plan[k] = 0
    if sc.cx.shape[0] > 0:
        cx_start(sc.cx)
    if sc.evw[EW_ON] != 0.0:
        ev_start(sc.evw[:EV_SIZE])
    return first


@helper
def run_games(seed, start, count, rules, bot_ids, bot_par, out, sc, pg, buf, snaps):
    """Play games ``start .. start + count - 1`` (no search seat) into ``out`` (an ``Out``);
    ``sc`` a ``Scratch``, ``pg`` a ``Play``; ``buf, snaps`` the record buffers
    (``sim.record``: NO_RECORD, NO_SNAPS when not recording).

    The chunk's entry point is a ``helper`` called from Python with the arrays run_chunk
    made, not a kernel: a kernel counts references to every array it touches, which in
    the phase loop inlined here (play_game, play_from) costs about a tenth of the run
    time.  Those are inlined (``helper_inline``) rather than compiled on their own: numba
    optimises and emits again, for every jitted function, the machine code of everything
    it calls, so each layer between the entry point and the phases cost the whole game's
    code once more."""
    st, rs = pg.st, pg.rs
    for j in range(count):
        w, e, f, rd = play_game(start + j, seed, rules, bot_ids, bot_par, st, rs, sc, buf, snaps)
        write_out(out, j, rules.R[R_P], st, sc, w, e, f, rd)


@helper
def run_games_search(seed, start, count, rules, bot_ids, bot_par, out, sc, pg, srch, buf, snaps):
    """``run_games`` with search seats; ``srch`` a ``Search``.  An entry point of its own, so
    that runs without the search bot never compile it."""
    st, rs = pg.st, pg.rs
    for j in range(count):
        w, e, f, rd = play_game_search(start + j, seed, rules, bot_ids, bot_par, st, rs, sc, srch,
                                       buf, snaps)
        write_out(out, j, rules.R[R_P], st, sc, w, e, f, rd)


@helper
def write_out(out, j, P, st, sc, w, e, f, rd):
    """Game j's results (winner w, end reason e, first player f, rounds rd) into ``out``,
    how it played included (the complexity columns; the evaluation's figures when evaluated)."""
    out.winner[j] = w
    out.end_reason[j] = e
    out.first_player[j] = f
    out.rounds[j] = rd
    out.ender[j] = st.g[G_ENDER]
    out.bank[j] = st.g[G_BANK]
    out.bank_short[j] = st.g[G_SHORT]
    out.lead_changes[j], out.lead_settled[j] = drama(sc.leaders, rd, w)
    for s in range(P):
        out.win[j, s] = sc.win[s]
        out.seat[j, s, 0] = st.coins[s]
        out.seat[j, s, 1] = st.goods[s]
        out.seat[j, s, 2] = (s - f) % P
        for k in range(N_TAL):
            out.seat[j, s, 3 + k] = st.tal[k, s]
    cx_finish(sc.cx, P, j, out.decisions, out.forced, out.decision_share, out.branching,
              out.decision_factor, out.options_max)
    if sc.evw[EW_ON] != 0.0:
        ev_finish(sc.evw[:EV_SIZE], P, w, out.ev[j])


#: decisions searched, rollouts played and the rounds those rollouts played (the current one
#: counted whole) by the search bot in this process (bench/run.py reads it for iterations/s)
SEARCH_STATS = [0, 0, 0]


def new_scratch(rules, count=True, evaluate=False) -> Scratch:
    """A chunk's ``Scratch``; ``count``: count the choices (``howplays``; not in the search's
    rollouts), ``evaluate``: follow the model's chances at every round start."""
    return Scratch(opts=np.zeros(64, np.int64), order=np.zeros(MAXK, np.int64),
                   cand=np.zeros(MAXI + MAXC, np.int64), candv=np.zeros(MAXI + MAXC, np.float64),
                   win=np.zeros(MAXP, np.float64), leaders=np.zeros(rules.R[R_HORIZON], np.int64),
                   cur=np.zeros(N_CUR, np.int64), plan=np.zeros(N_PLAN, np.int64),
                   th=np.zeros(MAXP, np.int64), fc=np.zeros((2, MAXP), np.int64),
                   cx=new_counts(count), evw=new_ev_work(rules, evaluate))


def new_play() -> Play:
    """A chunk's game in play (``Play``): run_games resets it at every game's setup."""
    return Play(st=new_state(), rs=np.zeros(N_RS, np.uint64))


def new_search(rules, bot_ids, bot_par) -> Search:
    """The search bot's work space for a chunk (``Search``); ``bot_par`` the seats' parameters
    (the search seats' rows are replaced by the heuristic defaults in ``ppar``)."""
    P = rules.R[R_P]
    work = max(FEATURE_ROOM, work_size(rules.ms) if rules.ms.size else 0)
    par = np.zeros((MAXP, N_BOTPAR), np.float64)
    par[:, :len(HEURISTIC_DEFAULTS)] = HEURISTIC_DEFAULTS
    ppar = bot_par.copy()
    for s in range(P):
        if bot_ids[s] == BOT_SEARCH:
            ppar[s] = par[s]
    return Search(st=new_state(), rs=np.zeros(N_RS, np.uint64),
                  sc=new_scratch(rules, count=False), ids=np.ones(MAXP, np.int64), par=par, ppar=ppar,
                  cand=np.zeros((MAXK, 2), np.int64), tot=np.zeros(MAXK, np.float64),
                  cnt=np.zeros(MAXK, np.int64), buf=NO_RECORD, snaps=NO_SNAPS,
                  stats=np.zeros(3, np.int64), ru=rules._replace(R=rules.R.copy()),
                  wst=new_state(), wrs=np.zeros(N_RS, np.uint64),
                  alive=np.zeros(MAXK, np.int64), x=np.zeros(FEATURE_ROOM, np.float64),
                  h0=np.zeros(work, np.float64), h1=np.zeros(work, np.float64), sched=new_sched())


def run_chunk(rules, players, seed, start, count, bot_ids, bot_params, record=None):
    """The game's kernel (``Game.play_chunk`` calls it): play ``count`` games from game index
    ``start``; ``record=(buf, snaps)`` records the one game played (``sim.record``).  The
    seat fields come out as the kernel's int64; the contract casts them and sets ``capped``."""
    buf, snaps = (NO_RECORD, NO_SNAPS) if record is None else record
    P = players
    bot_ids = np.ascontiguousarray(bot_ids, dtype=np.int64)
    bp = np.zeros((P, N_BOTPAR), np.float64)
    w = min(N_BOTPAR, bot_params.shape[1])
    bp[:, :w] = bot_params[:, :w]
    out = Out(winner=np.empty(count, np.int8), end_reason=np.empty(count, np.int8),
              first_player=np.empty(count, np.int8), rounds=np.empty(count, np.int16),
              ender=np.empty(count, np.int8), bank=np.empty(count, np.int32),
              bank_short=np.empty(count, np.int32), win=np.empty((count, P), np.float32),
              seat=np.empty((count, P, len(SEAT_FIELDS)), np.int64),
              lead_changes=np.empty(count, np.int16), lead_settled=np.empty(count, np.int8),
              decisions=np.empty((count, P), np.int32), forced=np.empty((count, P), np.int32),
              decision_share=np.empty(count, np.int16), branching=np.empty(count, np.int32),
              decision_factor=np.empty(count, np.int32), options_max=np.empty(count, np.int32),
              ev=np.empty((count if rules.evaluate else 0, 7), np.float64))
    sc = new_scratch(rules, evaluate=bool(rules.evaluate))
    if (bot_ids == BOT_SEARCH).any():
        if (bp[bot_ids == BOT_SEARCH, S_LEAF] == LEAF_MODEL).any() and rules.ms.shape[0] == 0:
            # (the search would value its cut rollouts by the formula: a measure of another bot)
            raise ValueError("a search bot with leaf=model needs a value model in the rules context "
                             "(sim.games.batam.features.attach_model; make_spec attaches it)")
        srch = new_search(rules, bot_ids, bp)
        run_games_search(np.uint64(seed), np.int64(start), np.int64(count), rules, bot_ids, bp,
                         out, sc, new_play(), srch, buf, snaps)
        SEARCH_STATS[0] += int(srch.stats[0])
        SEARCH_STATS[1] += int(srch.stats[1])
        SEARCH_STATS[2] += int(srch.stats[2])
    else:
        run_games(np.uint64(seed), np.int64(start), np.int64(count), rules, bot_ids, bp, out,
                  sc, new_play(), buf, snaps)
    cols = out._asdict()
    ev = cols.pop("ev")
    cols.update(evaluation_columns(ev if rules.evaluate else None, count))
    seat = cols.pop("seat")
    for k, f in enumerate(SEAT_FIELDS):
        cols[f] = seat[:, :, k]
    return cols
