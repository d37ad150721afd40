"""Tune against a full grid with the same search games (issue 16's check).

    python bench/tune_vs_grid.py batam 4 payout=0..15 return_bonus=0..15 first_player=fair 2e5

Plays every grid point on the same seed with budget/points games each, takes the grid's best
(lowest loss), runs ``sim tune`` with the same budget, and re-plays both bests on the same
fresh seed (40,000 games each): prints each one's value with its 95% interval and loss."""
import sys
import time

from analysis.tune import (Candidate, _losses, _play_batch, _show, interval, parse_params,
                           parse_targets, tune)
from sim.games import get
from sim.spec import parse_games


def main(game_name, players, p1, p2, target, budget, final=40_000, jobs=2):
    game, players, budget = get(game_name), int(players), parse_games(budget)
    spaces = parse_params([p1, p2], game)
    tg = parse_targets([target], game, players)
    sides = game.n_sides(players)
    grid = [{spaces[0].name: a, spaces[1].name: b}
            for a in range(int(spaces[0].lo), int(spaces[0].hi) + 1)
            for b in range(int(spaces[1].lo), int(spaces[1].hi) + 1)]
    each = budget // len(grid)
    t0 = time.perf_counter()
    cands = [Candidate(i, v) for i, v in enumerate(grid)]
    _play_batch(game, cands, spaces, players, None, 1, 0, each, jobs, "loky", {})
    grid_best = min(cands, key=lambda c: float(_losses(tg, c.moments, sides)[0][0]))
    t_grid = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = tune(game_name, spaces, tg, budget=budget, players=players, seed=1, jobs=jobs, final_games=final)
    t_tune = time.perf_counter() - t0
    tuned = res.final[1][1]
    again = [Candidate(0, grid_best.values), Candidate(1, tuned)]
    _play_batch(game, again, spaces, players, None, res.final_seed, 0, final, jobs, "loky", {})
    print(f"grid: {len(grid)} points x {each:,} games = {each * len(grid):,} games, {t_grid:.0f} s; "
          f"tune: {res.search_games:,} search games ({len(res.candidates)} candidates), {t_tune:.0f} s "
          "with its own replay")
    for what, c in (("grid best", again[0]), ("tune best", again[1])):
        m, lo, hi = interval(tg[0].metric, c.moments, sides)
        print(f"{what}: {c.label()}  {tg[0].metric.name} {_show(tg[0].metric, m, 2)} "
              f"[{_show(tg[0].metric, lo, 2)}, {_show(tg[0].metric, hi, 2)}]  loss "
              f"{tg[0].loss(m):.4f}  ({final:,} fresh games, seed {res.final_seed})")


if __name__ == "__main__":
    main(*sys.argv[1:])
