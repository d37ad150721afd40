"""``sim tune``: search rule parameters toward balance targets.

A *candidate* is one assignment of the tuned parameters.  Every candidate plays the same
game indices with the same master seed (common random numbers), so two candidates differ
only by their rules.  The search is optuna's (TPE for one target, NSGA-II for several,
both seeded with ``--seed``); the games are spent by racing, in the manner of successive
halving: each candidate first plays a few games (rung 0), and is promoted to ``eta``
times more only while it is still a contender:

* it ranks in the best ``1/eta`` of the candidates measured at that rung (one target: by
  its loss; several: not dominated by another candidate at that rung), and
* no candidate measured on at least as many games is better by more than the two
  intervals allow (one target: the other's loss + 2 SE below this one's loss - 2 SE;
  several: so in every target).

The best candidates (one target: the lowest losses among the deepest measured; several:
the Pareto front) are then played again on a fresh seed, beside the rulebook's values, with
95% intervals for every target metric; the verdict rests on those games only.

A target's *loss* is its distance from what is wanted: ``m=v`` |m - v|; ``m<=v``, ``m>=v``
the amount by which it is exceeded; ``m=lo..hi`` the distance to the range; ``m=min``
m; ``m=max`` -m.
"""
from __future__ import annotations

import math
import time

import numpy as np

from sim.games import get as get_game
from sim.params import UsageError
from sim.parallel import default_backend, plan_chunks, resolve_jobs, run_chunks
from sim.spec import make_spec, parse_games

from . import checkpoints
# what it searches and its verdict, by role (each still importable as analysis.tune.X)
from .tune_targets import (Z95, TUNABLE_ROLES, metric_table, _side_labels, _side_names, _own_columns,  # noqa: F401
                           _rows, _per_game, _play, Moments, Metric, Target, _show, estimate, Space,  # noqa: F401
                           _num, parse_params, _TARGET, parse_targets, _target_number, Candidate,  # noqa: F401
                           _fmtv, TuneResult)  # noqa: F401
from .tune_verdict import (interval, _guard_rails, verdict_lines, inside_lines, loss_text, _crossing,  # noqa: F401
                           game_sides, variants_toml, _toml_value, tune_text, beside_lines, beside_notes,  # noqa: F401
                           beside_metrics, beside_value, followup_command)  # noqa: F401


# -------------------------------------------------------------------- search


def _losses(targets, M: Moments, sides) -> tuple[np.ndarray, np.ndarray]:
    L, SE = [], []
    for t in targets:
        m, se = estimate(t.metric, M, sides)
        L.append(t.loss(m))
        SE.append(se)
    return np.array(L), np.array(SE)


def _play_batch(game, cands, spaces, players, bots, seed, start, count, jobs, backend, fixed, paired=False):
    """Games start..start+count-1 of every candidate in ``cands`` (added to their moments);
    ``paired``: each also compared game by game with the first (the replay: the rulebook)."""
    specs = [make_spec(game, 1, {**fixed, **c.values}, bots, players, seed) for c in cands]
    ctxs = [s.ctx for s in specs]
    arm_specs = [game.bot_arrays(s.bots) for s in specs]
    if jobs > 1:  # compile (or load) the kernel here once, not in every worker
        game.play_chunk(ctxs[0], players, seed, 0, 0, *arm_specs[0])
    chunk = max(250, math.ceil(count / max(jobs, 1)))
    plan = [(start + s, c) for s, c in plan_chunks(count, chunk, jobs)]
    # the chunks an earlier try of this search kept (analysis.checkpoints): the sampler and
    # the promotions see the same figures, so a resumed search proposes the same candidates
    store = checkpoints.task_store("tune", game.name, game.version, players, seed, plan,
                                   [s.data for s in specs], arm_specs)
    kept = {s: store.load(s, c) for s, c in plan} if store is not None else {}
    width = 6 if paired else 3
    kept = {s: r for s, r in kept.items() if isinstance(r, tuple) and len(r) == 3 and len(r[2]) == len(cands)
            and all(len(x) == width for x in r[2])}
    out = list(kept.values())
    tasks = [(game.name, ctxs, arm_specs, players, seed, s, c) + ((True,) if paired else ())
             for s, c in plan if kept.get(s) is None]

    def collect(res):
        if store is not None:
            store.save(res)
        out.append(res)
        return False

    stopped = failure = None
    if tasks:
        stopped, failure = run_chunks(_play, tasks, jobs, backend, None, collect, ordered=True)
    if failure is not None:
        raise failure
    if stopped is not None:
        raise KeyboardInterrupt
    for _, c, per in sorted(out, key=lambda r: r[0]):  # chunk order, kept or new
        for cand, sums in zip(cands, per):
            cand.moments.add(c, *sums)


def tune(game_name: str, params, targets, budget="2e5", players=None, bots=None, seed=1,
         jobs=None, backend=None, first_games=None, eta=3, rungs=4, final_games=None,
         top=3, fixed=None, echo=None) -> TuneResult:
    """Search ``params`` (``["payout=0..15"]`` or parsed :class:`Space` list) toward
    ``targets`` (``["first_player=fair"]``) with ``budget`` games for the search; the best
    candidates and the rulebook's values are then played again on a fresh seed with
    ``final_games`` games each (default: a fifth of the budget, at least the deepest rung)."""
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    game = get_game(game_name)
    p = game.check_players(players)
    spaces = params if params and isinstance(params[0], Space) else parse_params(list(params), game)
    tg = targets if targets and isinstance(targets[0], Target) else parse_targets(list(targets), game, p)
    fixed = dict(fixed or {})
    budget = parse_games(budget)
    base = make_spec(game, 1, fixed, bots, p, seed)       # checks the bots and the seed
    seed = base.seed
    bots_l = [b.label for b in base.bots]
    jobs = resolve_jobs(jobs)
    backend = backend or default_backend(jobs)
    sides = game.n_sides(p)
    eta = max(2, int(eta))
    n0 = int(first_games) if first_games else max(200, min(5000, budget // 200))
    ladder = [n0 * eta ** k for k in range(max(1, int(rungs)))]
    if budget < ladder[0] * 2:
        raise UsageError(f"--budget {budget:,} is too small: a search needs at least "
                         f"{2 * ladder[0]:,} games (two candidates of {ladder[0]:,})")
    final_n = parse_games(final_games) if final_games else max(ladder[-1], budget // 5)
    say = echo or (lambda s: None)
    multi = len(tg) > 1
    sampler = (optuna.samplers.NSGAIISampler(seed=seed % 2**32, population_size=8) if multi
               else optuna.samplers.TPESampler(seed=seed % 2**32, n_startup_trials=8))
    study = optuna.create_study(directions=["minimize"] * len(tg), sampler=sampler)
    size = _space_size(spaces)
    t0 = time.perf_counter()
    cands: list[Candidate] = []
    seen: dict = {}
    refused: list = []
    spent = 0
    batch = max(4, 2 * jobs)
    idle = 0
    interrupted = False
    try:
        while spent + ladder[0] <= budget and len(seen) < size and idle < 5:
            trials, fresh, again, fresh_games = [], [], [], False
            for _ in range(min(batch, (budget - spent) // ladder[0])):
                tr = study.ask()
                vals = {s.name: _suggest(tr, s) for s in spaces}
                key = tuple(map(repr, vals.values()))
                trials.append((tr, key))
                if key not in seen and all(k != key for _, k in fresh):
                    try:  # a value inside the range the rules refuse (Balam's ball_games=1)
                        make_spec(game, 1, {**fixed, **vals}, bots, p, seed)
                    except UsageError as e:
                        seen[key] = None
                        refused.append((vals, str(e)))
                        continue
                    c = Candidate(len(cands) + len(fresh), vals)
                    fresh.append((c, key))
                elif seen.get(key) is not None and seen[key] not in again:
                    again.append(seen[key])
            # a measured candidate proposed again: one rung more, while it is still a contender
            for c in again:
                r = next((k for k, n in enumerate(ladder) if n == c.moments.n), None)
                if c.stopped or r is None or r + 1 >= len(ladder):
                    continue
                extra = ladder[r + 1] - ladder[r]
                if spent + extra > budget or not _contender(c, r, cands, tg, sides, eta, multi):
                    continue
                _play_batch(game, [c], spaces, p, bots, seed, ladder[r], extra, jobs, backend, fixed)
                spent += extra
                c.rung_losses[r + 1] = _losses(tg, c.moments, sides)[0]
                fresh_games = True
            idle = idle + 1 if not (fresh or fresh_games) else 0
            if fresh:
                new = [c for c, _ in fresh]
                _play_batch(game, new, spaces, p, bots, seed, 0, ladder[0], jobs, backend, fixed)
                spent += ladder[0] * len(new)
                for c, key in fresh:
                    seen[key] = c
                    cands.append(c)
                    c.rung_losses[0] = _losses(tg, c.moments, sides)[0]
                live = list(new)
                for r in range(1, len(ladder)):
                    up = [c for c in live if _contender(c, r - 1, cands, tg, sides, eta, multi)]
                    for c in live:
                        if c not in up and not c.stopped:
                            c.stopped = f"after {c.moments.n:,} games"
                    extra = ladder[r] - ladder[r - 1]
                    up = up[:max(0, (budget - spent) // extra)]
                    if not up:
                        break
                    _play_batch(game, up, spaces, p, bots, seed, ladder[r - 1], extra, jobs, backend, fixed)
                    spent += extra * len(up)
                    for c in up:
                        c.rung_losses[r] = _losses(tg, c.moments, sides)[0]
                    live = up
            for tr, key in trials:
                c = seen.get(key)
                if c is None:
                    study.tell(tr, state=optuna.trial.TrialState.FAIL)
                    continue
                L = _losses(tg, c.moments, sides)[0]
                study.tell(tr, [float(x) for x in L] if multi else float(L[0]))
            best = _rank(cands, tg, sides, multi)[:1]
            if best and (fresh or fresh_games):
                b = best[0]
                say(f"{spent:>9,} games  {len(cands):>3} candidates  best so far: {b.label()}  "
                    + "  ".join(f"{t.metric.name} {_show(t.metric, estimate(t.metric, b.moments, sides)[0])}"
                                for t in tg) + f"  ({b.moments.n:,} games)")
        if not cands:
            raise UsageError("the budget allows no candidate")
        # nothing new to propose and games left: race on every candidate not clearly beaten (the
        # most promising first: the lowest loss less two standard errors), a rung at a time
        while spent + ladder[0] <= budget:
            pool = []
            for c in cands:
                r = next((k for k, n in enumerate(ladder) if n == c.moments.n), None)
                if r is None or r + 1 >= len(ladder) or spent + ladder[r + 1] - ladder[r] > budget:
                    continue
                if _beaten(c, cands, tg, sides):
                    continue
                L, SE = _losses(tg, c.moments, sides)
                pool.append((float((L - 2 * SE).sum()), c.number, c, r))
            if not pool:
                break
            _, _, c, r = min(pool)
            _play_batch(game, [c], spaces, p, bots, seed, ladder[r], ladder[r + 1] - ladder[r], jobs,
                        backend, fixed)
            spent += ladder[r + 1] - ladder[r]
            c.rung_losses[r + 1] = _losses(tg, c.moments, sides)[0]
            say(f"{spent:>9,} games  raced on: {c.label()} to {c.moments.n:,} games")
    except KeyboardInterrupt:   # Ctrl-C: the search ends; the verdict rests on what it measured
        if not cands:
            raise
        interrupted = True
        say(f"interrupted: the search stops after {spent:,} games and {len(cands)} candidates; "
            "re-playing the best of them (Ctrl-C again stops everything)")
    for c in cands:
        c.stopped = "" if c.moments.n >= ladder[-1] else f"after {c.moments.n:,} games"
    search_s = time.perf_counter() - t0
    finalists = _rank(cands, tg, sides, multi)
    finalists = finalists[:top] if not multi else _front(finalists, tg, sides)[:max(top, 5)]
    # the verdict: the finalists and the rulebook, again, on a fresh seed
    final_seed = (seed + 0x9E3779B97F4A7C15) % 2**64
    say(f"re-playing {len(finalists)} candidate(s) and the rulebook's values on seed {final_seed}, "
        f"{final_n:,} games each")
    rulebook = Candidate(-1, {s.name: _rulebook_value(game, s) for s in spaces})
    replay = [Candidate(c.number, c.values) for c in finalists]
    _play_batch(game, [rulebook] + replay, spaces, p, bots, final_seed, 0, final_n, jobs, backend, fixed,
                paired=True)
    # the verdict's order: the replay's own losses (independent of the search's games)
    replay.sort(key=lambda c: (float(_losses(tg, c.moments, sides)[0].sum()), c.number))
    final = [("rulebook", rulebook.values, rulebook.moments)] + \
        [(c.label(), c.values, c.moments) for c in replay]
    seconds = time.perf_counter() - t0
    notes = _guard_rails(spaces, tg, replay, sides, final_n, len(finalists))
    same = [label for label, _, M in final[1:] if np.array_equal(M.s, final[0][2].s)
            and np.array_equal(M.s2, final[0][2].s2)]
    if same:
        notes.insert(0, f"{'; '.join(same)} played the same fresh games with every figure equal to "
                        "the rulebook's: on these seeds, with these bots, the change does nothing")
    for vals, why in refused:
        notes.append("not a candidate: " + ", ".join(f"{k}={_fmtv(v)}" for k, v in vals.items())
                     + f" ({why})")
    if interrupted:
        notes.insert(0, f"the search was stopped by Ctrl-C after {spent:,} of the budget's {budget:,} "
                        f"games ({len(cands)} candidates measured): the best may not have been found")
    elif budget - spent > budget // 10:
        why = (f"every one of the range's {int(size):,} candidates was measured" if len(seen) >= size
               else "the sampler proposed only candidates already measured")
        why += ", and every candidate not clearly beaten reached the last rung"
        notes.insert(0, f"the search stopped after {spent:,} of the budget's {budget:,} games: {why}")
    res = TuneResult(game, p, spaces, tg, cands, ladder, finalists, final, final_seed, final_n,
                     spent, seconds, bots_l, seed, notes, [], {})
    res.verdict = verdict_lines(res)
    res.notes[:0] = beside_notes(res)   # what moved notably beside the targets, first
    from sim import __version__
    res.manifest = {
        "tool": "sim", "kind": "tune", "sim_version": __version__, "game": game.name,
        "game_version": game.version, "players": p, "bots": bots_l, "seed": seed,
        "final_seed": final_seed, "params": [f"{s.name}={s.text()}" for s in spaces],
        "fixed": {k: _fmtv(v) for k, v in fixed.items()},
        "targets": [t.text for t in tg], "budget": budget, "search_games": spent,
        "final_games_each": final_n, "rungs": ladder, "eta": eta, "candidates": len(cands),
        "sampler": type(sampler).__name__, "optuna": optuna.__version__,
        "seconds_search": round(search_s, 2), "seconds": round(seconds, 2), "partial": interrupted,
    }
    return res


def _space_size(spaces) -> float:
    n = 1.0
    for s in spaces:
        n *= len(s.choices) if s.kind == "choice" else (s.hi - s.lo + 1 if s.kind == "int" else math.inf)
    return n


def _suggest(trial, s: Space):
    if s.kind == "int":
        return trial.suggest_int(s.name, int(s.lo), int(s.hi))
    if s.kind == "float":
        return trial.suggest_float(s.name, s.lo, s.hi)
    # optuna stores choices as plain values: tuples (intlists) go by their index
    i = trial.suggest_categorical(s.name, list(range(len(s.choices))))
    return s.choices[i]


def _rulebook_value(game, s: Space):
    return next(p.default for p in game.params if p.name == s.name)


def _contender(c, r, cands, tg, sides, eta, multi) -> bool:
    """Whether ``c`` (measured at rung r) is promoted: best 1/eta of rung r, and not clearly
    beaten by a candidate measured on at least as many games."""
    here = [x for x in cands if r in x.rung_losses]
    if multi:
        beaten = sum(_dominates(x.rung_losses[r], c.rung_losses[r]) for x in here if x is not c)
        if beaten:
            return False
    else:
        ls = sorted(x.rung_losses[r][0] for x in here)
        cut = ls[max(0, math.ceil(len(ls) / eta) - 1)]
        if c.rung_losses[r][0] > cut:
            return False
    return not _beaten(c, cands, tg, sides)


def _beaten(c, cands, tg, sides) -> bool:
    """A candidate measured on at least as many games is better by more than two standard
    errors of both, in every target."""
    L, SE = _losses(tg, c.moments, sides)
    for x in cands:
        if x is c or x.moments.n < c.moments.n:
            continue
        Lx, SEx = _losses(tg, x.moments, sides)
        if np.all(Lx + 2 * SEx < L - 2 * SE):
            return True
    return False


def _dominates(a, b) -> bool:
    return bool(np.all(a <= b) and np.any(a < b))


def _rank(cands, tg, sides, multi) -> list:
    """The deepest-measured first, then by loss (several targets: by the sum of the losses,
    which only orders the front for display: the front itself is by dominance)."""
    def key(c):
        L, _ = _losses(tg, c.moments, sides)
        return (-c.moments.n, float(L.sum()))
    return sorted(cands, key=key)


def _front(ranked, tg, sides) -> list:
    """The non-dominated candidates among the deepest measured (a rung below the deepest
    too, where that leaves fewer than two)."""
    depth = sorted({c.moments.n for c in ranked}, reverse=True)
    pool = [c for c in ranked if c.moments.n >= depth[min(1, len(depth) - 1)]]
    Ls = {c.number: _losses(tg, c.moments, sides)[0] for c in pool}
    return [c for c in pool if not any(_dominates(Ls[x.number], Ls[c.number]) for x in pool if x is not c)]


# ------------------------------------------------------------------- verdict


