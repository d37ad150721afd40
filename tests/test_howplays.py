"""sim/howplays.py: the complexity counts and the state-evaluation summaries the kernels keep,
each against its plain-Python definition (random traces), and hand-built games whose drama,
lead changes and decisiveness are known."""
import math

import numpy as np
from numba import njit

from sim.howplays import (CX_DEC, CX_FORCED, CX_MAX, CX_OPTS, CX_SIZE, EV_NAMES, EV_SIZE,
                          choice, cx_start, ev_finish, ev_start, ev_step)


@njit(cache=True)
def _summaries(trace, k, w, thr):
    ev = np.zeros(EV_SIZE)
    ev_start(ev)
    for t in range(trace.shape[0]):
        ev_step(ev, trace[t], k, thr)
    out = np.zeros(7)
    ev_finish(ev, k, w, out)
    return out


@njit(cache=True)
def _counts(seats, options):
    cx = np.zeros(CX_SIZE, np.int64)
    cx_start(cx)
    for i in range(seats.shape[0]):
        choice(cx, seats[i], options[i])
    return cx


def _reference(trace, w, thr):
    """The definitions of sim/howplays.py, written plainly over a whole stored trace."""
    p = trace / trace.sum(axis=1, keepdims=True)
    n, k = p.shape
    leaders = []
    for row in p:
        top = row.max()
        leaders.append(int(row.argmax()) if (row == top).sum() == 1 else -1)
    changes, last = 0, -1
    for x in leaders:
        if x >= 0:
            changes += last >= 0 and x != last
            last = x
    ent = [-sum(q * math.log(q) for q in row if q > 0) / math.log(k) for row in p]
    out = {"changes": changes,
           "stability": 100 * np.mean(np.abs(np.diff(p, axis=0)).mean(axis=1)) if n > 1 else 0.0,
           "uncertainty": 100 * np.mean(ent)}
    if w < 0:
        out.update(drama=math.nan, drama_max=math.nan, decided=math.nan, decided_thr=math.nan)
        return out
    gap = p.max(axis=1) - p[:, w]
    out["drama"] = 100 * gap.mean()
    out["drama_max"] = 100 * gap.max()
    not_lead = [t for t in range(n) if leaders[t] != w]
    under = [t for t in range(n) if p[t, w] < thr]
    out["decided"] = 100 * (not_lead[-1] + 1 if not_lead else 0) / n
    out["decided_thr"] = 100 * (under[-1] + 1 if under else 0) / n
    return out


def test_summaries_match_their_plain_definitions_on_random_traces():
    rng = np.random.default_rng(11)
    for _ in range(300):
        k = int(rng.integers(2, 5))
        n = int(rng.integers(1, 40))
        trace = rng.random((n, k)) + 0.01
        if rng.random() < 0.3:  # ties between sides
            trace = np.round(trace * 3) + 1
        w = int(rng.integers(-1, k))
        thr = float(rng.choice([0.5, 0.8]))
        got = dict(zip(EV_NAMES, _summaries(trace, k, w, thr)))
        want = _reference(trace, w, thr)
        for name in EV_NAMES:
            assert (math.isnan(got[name]) and math.isnan(want[name])) or \
                abs(got[name] - want[name]) < 1e-9, (name, got[name], want[name])


def test_a_comeback_has_the_drama_it_should():
    # two sides; the eventual winner (side 1) trails 80-20 for three positions, then turns it
    trace = np.array([[0.5, 0.5], [0.8, 0.2], [0.8, 0.2], [0.8, 0.2], [0.3, 0.7], [0.1, 0.9]])
    got = dict(zip(EV_NAMES, _summaries(trace, 2, 1, 0.8)))
    assert got["changes"] == 1                       # side 0 led, then side 1
    assert abs(got["drama_max"] - 60.0) < 1e-9       # 80 - 20 points behind at worst
    assert abs(got["drama"] - 180.0 / 6) < 1e-9      # 3 x 60 points over 6 positions
    assert abs(got["decided"] - 100 * 4 / 6) < 1e-9  # sole leader for good from position 5 of 6
    assert abs(got["decided_thr"] - 100 * 5 / 6) < 1e-9  # at or above 80% only at the last
    # the same game won by the side that led all along: no drama, decided from position 2
    got = dict(zip(EV_NAMES, _summaries(trace[:4], 2, 0, 0.8)))
    assert got["drama"] == got["drama_max"] == 0.0 and got["changes"] == 0
    assert abs(got["decided"] - 25.0) < 1e-9         # the first position is a tie
    # a draw: no winner's figures, the others stand
    got = dict(zip(EV_NAMES, _summaries(trace, 2, -1, 0.8)))
    assert math.isnan(got["drama"]) and got["changes"] == 1 and got["uncertainty"] > 0


def test_choices_count_decisions_forced_moves_and_options():
    seats = np.array([0, 1, 0, 1, 1, 2], np.int64)
    options = np.array([3, 1, 1, 5, 2, 1], np.int64)
    cx = _counts(seats, options)
    assert list(cx[CX_DEC:CX_DEC + 3]) == [1, 2, 0]
    assert list(cx[CX_FORCED:CX_FORCED + 3]) == [1, 1, 1]
    assert list(cx[CX_OPTS:CX_OPTS + 3]) == [4, 8, 1]
    assert cx[CX_MAX] == 5


def test_the_kernels_figures_are_those_of_their_own_traced_games():
    """Maya (2-4 players) and Puluc: a game played again with its chances traced
    (``win_trace``) has the figures its run wrote, recomputed here from the trace by the
    plain definitions (``_reference``)."""
    from sim.games import get
    from sim.games.maya import features as MF
    from sim.games.maya.play import win_trace as maya_trace
    from sim.games.puluc import features as PF
    from sim.games.puluc.play import win_trace as puluc_trace
    from sim.value import pack
    rng = np.random.default_rng(2)

    def model(f):
        return pack(rng.normal(size=f), np.ones(f),
                    [(rng.normal(size=(f, 4)), np.zeros(4)), (rng.normal(size=(4, 1)), [0.0])])

    cases = [(get("maya"), MF, maya_trace, p, "greedy") for p in (2, 3, 4)]
    cases.append((get("puluc"), PF, puluc_trace, 2, "random"))
    for g, F, trace, players, bots in cases:
        R = g.prepare(g.resolve_rules({}), players)
        ctx = F.attach_model(R, *model(F.n_features(players)), evaluate=True)
        ids, par = g.bot_arrays(g.choose_bots(bots, players))
        cols = g.play_chunk(ctx, players, 5, 0, 8, ids, par)
        win_side = cols["team_winner"] if "team_winner" in cols else cols["winner"]
        for j in range(8):
            tr, _ = trace(ctx, players, 5, j, ids, par)
            want = _reference(tr, int(win_side[j]), 0.8)
            for name, scale in (("changes", 1), ("drama", 10), ("drama_max", 10), ("decided", 1),
                                ("decided_thr", 1), ("stability", 100), ("uncertainty", 10)):
                got = cols["ev_" + name][j]
                if math.isnan(want[name]):
                    assert got == -1, (g.name, players, j, name)
                else:
                    assert got == round(want[name] * scale), (g.name, players, j, name, got, want[name])
