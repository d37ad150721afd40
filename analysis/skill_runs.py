"""``sim skill``: a round robin of bots on every side on the same seeds, the Bradley-Terry
ratings of its games, and bots that played identical games."""
from __future__ import annotations

import itertools

from sim.games import get as get_game
from sim.params import UsageError
from sim.spec import make_spec
from sim.spec import parse_games
import numpy as np

from .experiment_runs import Arm, run_arms


def skill(game_name: str, bots: list[str], games, players=None, seed=1, rules=None, jobs=None,
          chunk_size=None, backend=None, scheduler=None, progress=None) -> dict:
    """Round robin of bots on every side on the same seeds: win matrix and ratings.

    Two sides (two players, or two teams): every ordered pair, A on the first side (every seat
    of it) and B on the other, A != B.  More sides: bot A on each side in turn, the others
    all B; the pair's score for A is 1/2 + 1/2 (a - b) / (a + b) from A's side's win rate a
    and the B sides' average b.  A game without a winner counts half to each.

    Also found: bots that never won or won every game (no finite rating: "unbounded"), and
    bots that played identical games (the same fingerprint of every game's figures in every
    pairing: against each common opponent on each side, and against each other).
    """
    game = get_game(game_name)
    n = parse_games(games)
    if len(bots) < 2:
        raise UsageError("sim skill needs at least two bots")
    p = game.check_players(players)
    for b in bots:
        game.choose_bots(b, p)  # validates names and settings
    names = list(bots)
    if len(set(names)) != len(names):
        raise UsageError("sim skill: every bot must differ: " + ", ".join(names))
    sides = game.sides(p)
    m = len(set(sides))
    k = len(names)
    wins = np.zeros((k, k))
    played = np.zeros((k, k))
    summaries = {}
    prints = {}
    stopped = False
    for i, j in itertools.permutations(range(k), 2):
        if stopped:  # Ctrl-C or SIGTERM: no new pairing starts (its chunks are kept)
            break
        for sd in range(m if m > 2 else 1):
            seats = [names[i] if sides[s] == sd else names[j] for s in range(p)]
            spec = make_spec(game, n, rules, seats, p, seed)
            arm = Arm(f"{names[i]} on side {sd} vs {names[j]}", 0, False, spec)
            summs, st, partial, _, done, _ = run_arms(game, [arm], n, int(seed), jobs, chunk_size,
                                                     backend, scheduler, progress)
            stopped = stopped or partial
            S = summs[0]
            summaries[(i, j, sd)] = S
            prints[(i, j, sd)] = int(st["fingerprint"][0]) if st is not None else None
            if m == 2:
                nowin = S.no_winner
                wins[i, j] += S.side_win[0] + 0.5 * nowin
                wins[j, i] += S.side_win[1] + 0.5 * nowin
            else:
                # per-game comparison needs rows: approximate from sums of shares
                a_rate = S.side_win[sd] / S.n
                b_rate = (S.side_win.sum() - S.side_win[sd]) / (m - 1) / S.n
                score = 0.5 + 0.5 * (a_rate - b_rate) / max(a_rate + b_rate, 1e-12)
                wins[i, j] += score * S.n
                wins[j, i] += (1 - score) * S.n
            played[i, j] += S.n
            played[j, i] += S.n
    bt, unbounded, prior = skill_ratings(wins, played, names)
    return {"game": game, "bots": names, "players": p, "wins": wins, "games": played, "bt": bt,
            "summaries": summaries, "rules": rules or {}, "unbounded": unbounded, "prior": prior,
            "identical": identical_bots(prints, k, m), "fingerprints": prints,
            "sides": game.side_labels(p), "teams": m < p, "partial": stopped}


def skill_ratings(wins: np.ndarray, played: np.ndarray, names) -> tuple[dict, dict, float]:
    """Bradley-Terry ratings of the bots that have one, and the bots that have none.

    A bot that never scored (no win, no draw) or scored in every game has no finite rating:
    it is listed in ``unbounded`` ({index: "never won" | "won every game"}) and its rating is
    nan.  The others are fitted among themselves, without a prior where the maximum
    likelihood exists, else with a prior of half a drawn game per pair (returned)."""
    from .stats import bradley_terry
    k = len(names)
    score, total = wins.sum(axis=1), played.sum(axis=1)
    unbounded = {}
    for i in range(k):
        if total[i] > 0 and score[i] <= 1e-9:
            unbounded[i] = "never won"
        elif total[i] > 0 and score[i] >= total[i] - 1e-9:
            unbounded[i] = "won every game"
    keep = [i for i in range(k) if i not in unbounded]
    nan = np.full(k, np.nan)
    bt = {"ratings": nan.copy(), "se": nan.copy(), "lo": nan.copy(), "hi": nan.copy()}
    prior = 0.0
    if len(keep) >= 2:
        W, G = wins[np.ix_(keep, keep)], played[np.ix_(keep, keep)]
        try:
            fit = bradley_terry(W, G, prior=0.0, names=[names[i] for i in keep])
        except ValueError:
            prior = 0.5
            fit = bradley_terry(W, G, prior=prior, names=[names[i] for i in keep])
        for key in ("ratings", "se", "lo", "hi"):
            bt[key][keep] = fit[key]
    elif len(keep) == 1:
        for key in ("ratings", "se"):
            bt[key][keep] = 0.0
        bt["lo"][keep] = bt["hi"][keep] = 0.0
    return bt, unbounded, prior


def identical_bots(prints: dict, k: int, sides: int) -> list[list[int]]:
    """Groups of bots (indices) that played identical games: for X and Y, every pairing
    against a common opponent C on every side has the same fingerprint with X as with Y,
    and X against Y has the same as Y against X."""
    positions = range(sides if sides > 2 else 1)

    def same(x, y):
        for sd in positions:
            if prints.get((x, y, sd)) != prints.get((y, x, sd)):
                return False
            for c in range(k):
                if c in (x, y):
                    continue
                if prints.get((x, c, sd)) != prints.get((y, c, sd)):
                    return False
                if prints.get((c, x, sd)) != prints.get((c, y, sd)):
                    return False
        return prints.get((x, y, 0)) is not None

    groups: list[list[int]] = []
    for x in range(k):
        for g in groups:
            if same(g[0], x):
                g.append(x)
                break
        else:
            groups.append([x])
    return [g for g in groups if len(g) > 1]
