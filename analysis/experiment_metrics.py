"""What every experiment measures per game: the metric names of a game at a player count,
the per-game metric vectors and outcome codes of a chunk's columns, the paired outcome
fingerprint, and a chunk's play of several arms on the same seeds."""
from __future__ import annotations

import time

from sim.game import Game
from sim.games import get as get_game
from sim.summary import Summary
import numpy as np


# ------------------------------------------------------------------ metrics per game
#: the headline metric of comparisons, impact and the SPRT: the first side's win share, a
#: game without a winner counting as the fair share 1/sides (so draws do not move it)
HEADLINE = "first player score"


def metric_names(game: Game, players: int) -> list[str]:
    """Per-game metrics of an experiment.  ``win k`` is side k's share (a seat where every
    seat is its own side); per-seat columns (the score and the highlights) are per seat."""
    sides = game.n_sides(players)
    names = [HEADLINE, "first player wins"] + [f"win {k}" for k in range(sides)]
    names += ["decisive", "no winner", "capped", game.length]
    for h in _seat_metric_columns(game):
        names += [f"{h} {s}" for s in range(players)]
    return names


def _seat_metric_columns(game: Game) -> list[str]:
    cols = list(game.highlight)
    if game.score and game.score not in cols:
        cols.insert(0, game.score)
    return cols


def side_shares(game: Game, players: int, win: np.ndarray) -> np.ndarray:
    """(games, sides) win share of each side (what each of its seats got)."""
    sides = game.sides(players)
    m = len(set(sides))
    if m == players and sides == list(range(players)):
        return win
    M = np.zeros((players, m))
    M[np.arange(players), sides] = 1.0
    return win @ M / M.sum(axis=0)


def outcome_rows(game: Game, players: int, cols: dict) -> list[np.ndarray]:
    """The per-game outcome of every game, per side: the first side's score (a game without
    a winner counting as the fair share), its win share, each side's share, decisive (one
    winning side), no winner, capped, and the game's length (the first rows of
    :func:`metric_names`; ``sim tune`` reads the same rows)."""
    win = np.asarray(cols["win"], np.float64).reshape(-1, players)
    n = win.shape[0]
    share = side_shares(game, players, win)
    m = share.shape[1]
    first = np.asarray(game.sides(players), np.int64)[np.asarray(cols["first_player"], np.int64)]
    fs = share[np.arange(n), first]
    won = share > 0
    anyone = won.any(axis=1)
    rows = [np.where(anyone, fs, 1.0 / m), fs]
    rows += [share[:, k] for k in range(m)]
    rows += [(won.sum(axis=1) == 1).astype(np.float64), (~anyone).astype(np.float64),
             np.asarray(cols["capped"], np.float64), np.asarray(cols[game.length], np.float64)]
    return rows


def per_game_metrics(game: Game, players: int, cols: dict) -> np.ndarray:
    """(metrics, games) matrix of the per-game values behind :func:`metric_names`."""
    rows = outcome_rows(game, players, cols)
    n = rows[0].shape[0]
    for h in _seat_metric_columns(game):
        a = np.asarray(cols[h], np.float64).reshape(-1, players)
        rows += [a[:, s] for s in range(players)]
    return np.vstack(rows) if rows else np.zeros((0, n))


#: how it plays (issue #47) in a comparison: (name, column); each column's scale, unit and
#: group are ``sim.playcols.METRICS``'; per-seat columns are summed over the seats.  Kept
#: apart from the metrics above (their own sums in the stats, ``hp_*``, over the games that
#: have each figure: the state-evaluation ones exist only in evaluated runs, drama only with
#: a single winner)
HOWPLAYS = (("decisions per game", "decisions"), ("forced moves per game", "forced"),
            ("branching factor", "branching"), ("lead changes", "ev_changes"), ("drama", "ev_drama"),
            ("winner the favourite for good at", "ev_decided"), ("swing per step", "ev_stability"),
            ("uncertainty", "ev_uncertainty"))


def howplays_names(game: Game) -> list[str]:
    """The :data:`HOWPLAYS` figures a game declares columns for."""
    have = {c.name for c in game.columns}
    return [name for name, col in HOWPLAYS if col in have]


def howplays_rows(game: Game, players: int, cols: dict) -> np.ndarray:
    """(figures, games) of :func:`howplays_names` as the columns hold them (integers, before
    the division to their units: sums of integers do not depend on how the games are cut
    into chunks), NaN where a game has none."""
    have = {c.name: c for c in game.columns}
    rows = []
    for _, col in HOWPLAYS:
        c = have.get(col)
        if c is None:
            continue
        a = np.asarray(cols[col], np.float64)
        if c.per_seat:
            rows.append(a.reshape(-1, players).sum(axis=1))
        else:
            rows.append(np.where(a >= 0, a, np.nan))
    n = len(np.asarray(cols["winner"]))
    return np.vstack(rows) if rows else np.zeros((0, n))


def outcome_codes(game: Game, players: int, cols: dict) -> np.ndarray:
    """Each game's outcome as a bit mask of the sides that won something (0: no winner), so
    two games have the same outcome when the same side won, or the same sides shared, or
    neither had a winner."""
    win = np.asarray(cols["win"], np.float64).reshape(-1, players)
    won = side_shares(game, players, win) > 0
    return (won * (1 << np.arange(won.shape[1], dtype=np.int64))).sum(axis=1)


_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


_GOLD = np.uint64(0x9E3779B97F4A7C15)


def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def fingerprint(V: np.ndarray, start: int) -> np.ndarray:
    """A 64-bit fingerprint per arm of every per-game metric value (V: (arms, metrics,
    games) of games start, start+1, ...): the sum over games of a hash of (game index,
    values), so it adds up over chunks whatever their size.  Two arms with the same
    fingerprint played games with identical outcomes, lengths and per-seat figures."""
    n = V.shape[2]
    out = np.zeros(V.shape[0], np.uint64)
    with np.errstate(over="ignore"):
        base = _mix((np.arange(n, dtype=np.uint64) + np.uint64(start)) * _GOLD)
        for k in range(V.shape[0]):
            h = base.copy()
            for row in np.ascontiguousarray(V[k] + 0.0).view(np.uint64):  # + 0.0: no -0.0
                h = _mix(h ^ row)
            out[k] = h.sum(dtype=np.uint64)
    return out


def _play_arms(game_name, ctxs, arm_specs, players, seed, start, count):
    """Worker task: one chunk of every arm, reduced to sufficient statistics.

    The arms are reduced one at a time (only the first arm's per-game values are kept for
    the paired differences), so a task's memory does not grow with the number of arms
    beyond each arm's sums and summary."""
    game = get_game(game_name)
    t0 = time.perf_counter()
    names = metric_names(game, players)
    li = names.index(game.length)
    A, M = len(arm_specs), len(names)
    stats = {"n": count}
    for key in ("sum", "sum2", "dsum", "dsum2"):
        stats[key] = np.zeros((A, M))
    stats["same"] = np.zeros(A, np.int64)
    stats["same_length"] = np.zeros(A, np.int64)
    stats["fingerprint"] = np.zeros(A, np.uint64)
    H = len(howplays_names(game))
    for key in ("hp_sum", "hp_sum2", "hp_cnt", "hp_dsum", "hp_dsum2", "hp_dcnt"):
        stats[key] = np.zeros((A, H))
    P0 = None
    # whether the change came into play: the games that played out differently from the same
    # game of the reference (any recorded column differs; an identical game is one the change
    # did nothing to), and the games in which each declared event happened (in this arm; in
    # this arm or the reference's same game)
    E = len(game.events)
    stats["differ"] = np.zeros(A, np.int64)
    stats["event_games"] = np.zeros((A, E), np.int64)
    stats["event_either"] = np.zeros((A, E), np.int64)
    stats["any_event_either"] = np.zeros(A, np.int64)
    summaries, pent = [], []
    V0 = o0 = score = None
    refs: dict = {}                                      # seating (swapped?) -> its reference's rows
    for k, (ctx, (ids, par, swapped)) in enumerate(zip(ctxs, arm_specs)):
        cols = game.play_chunk(ctx, players, seed, start, count, ids, par)
        summaries.append(Summary.from_columns(game, players, cols, start))
        V = per_game_metrics(game, players, cols)        # (metrics, games) of this arm
        HP = howplays_rows(game, players, cols)          # (how it plays, games), NaN: none
        o = outcome_codes(game, players, cols)
        win = np.asarray(cols["win"], np.float64).reshape(-1, players)
        rows = game_rows(game, cols, count)
        ev = event_rows(game, cols, count)
        del cols
        ref = refs.setdefault(bool(swapped), (rows, ev))  # the first arm of this seating
        stats["differ"][k] = int(rows_differ(rows, ref[0]).sum())
        if E:
            stats["event_games"][k] = ev.sum(axis=1)
            either = ev | ref[1]
            stats["event_either"][k] = either.sum(axis=1)
            stats["any_event_either"][k] = int(either.any(axis=0).sum())
        if k == 0:
            V0, o0, P0 = V, o, HP
        has = ~np.isnan(HP)
        both = has & ~np.isnan(P0)
        Hv, Dh = np.where(has, HP, 0.0), np.where(both, HP - P0, 0.0)
        for key, x in (("hp_sum", Hv), ("hp_sum2", Hv * Hv), ("hp_cnt", has), ("hp_dsum", Dh),
                       ("hp_dsum2", Dh * Dh), ("hp_dcnt", both)):
            stats[key][k] = x.sum(axis=1)
        stats["sum"][k], stats["sum2"][k] = V.sum(axis=1), (V * V).sum(axis=1)
        D = V - V0                                       # paired differences against arm 0
        stats["dsum"][k], stats["dsum2"][k] = D.sum(axis=1), (D * D).sum(axis=1)
        # pairing: games whose outcome (winning side, shared sides, or no winner) and whose
        # length equal those of the same game in arm 0; a fingerprint of each arm's games
        stats["same"][k] = int((o == o0).sum())
        stats["same_length"][k] = int((V[li] == V0[li]).sum())
        stats["fingerprint"][k] = fingerprint(V[None], start)[0]
        # pentanomial counts for consecutive (normal, swapped) arms: the score of the bot
        # first named for seat 0 (draws count half)
        seat_score = win[:, 1 if swapped else 0] + 0.5 * (win.sum(axis=1) == 0)
        if k % 2 == 1 and arm_specs[k - 1][2] is False and swapped is True:
            pts = np.rint((score + seat_score) * 2).astype(np.int64)  # 0..4 half points
            pent.append(np.bincount(pts, minlength=5)[:5])
        score = seat_score
    stats["pent"] = np.array(pent, np.int64).reshape(-1, 5)
    return start, count, summaries, stats, time.perf_counter() - t0


def game_rows(game: Game, cols: dict, count: int) -> list[np.ndarray]:
    """Every recorded column of a chunk as (games, width) arrays, for comparing games."""
    return [np.asarray(cols[c.name]).reshape(count, -1) for c in game.all_columns()]


def rows_differ(a: list, b: list) -> np.ndarray:
    """Per game: whether any recorded column of two plays of the same games differs."""
    out = np.zeros(a[0].shape[0] if a else 0, bool)
    for x, y in zip(a, b):
        out |= (x != y).any(axis=1)
    return out


def event_rows(game: Game, cols: dict, count: int) -> np.ndarray:
    """(events, games) bool: whether each declared event (``Game.events``) happened in a
    game (to any seat)."""
    if not game.events:
        return np.zeros((0, count), bool)
    return np.vstack([np.asarray(cols[e]).reshape(count, -1).sum(axis=1) > 0 for e in game.events])


def _merge_stats(a, b):
    if a is None:
        return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in b.items()}
    with np.errstate(over="ignore"):  # fingerprints add modulo 2**64
        # (a chunk kept by an older version may lack a newer figure: that figure is dropped)
        return {k: a[k] + b[k] for k in a if k in b}
