"""`sim robust`: the headline figures under every change of the assumptions a designer did
not choose (the bots, the readings of silent or ambiguous rules, the setup's randomness),
on common random numbers with paired intervals against the baseline.

A *condition* is one such change, applied to the baseline (the rules and bots given; in a
comparison, to the reference and the variant alike):

* bots: every bot of ``Game.strength`` with all seats equal, and the strongest against
  each other one in every seating (the strong bot in each seat in turn; the seatings are
  averaged game by game);
* readings: each alternative of each parameter declared ``role="reading"``
  (:meth:`sim.params.Param.other_readings`), one at a time; then, in a second run, the
  worst-case combination of the two readings that moved the chosen headline most in the
  same direction;
* setup: each other value of the parameters of ``Game.setup_randomness``.

Every condition is an arm of the comparison engine (:mod:`analysis.experiment_runs`): the same game
indices and seed, the kernel's columns reduced per game by
:func:`analysis.experiment_runs.per_game_metrics`.  A chunk task plays the baseline's arms and every
condition still running, and returns, per condition, the sums and the sums of products of
the per-game vector [baseline quantities, condition quantities] (see
:func:`analysis.robust.quantity_names`), from which every headline, swing and interval is
an exact linear contrast.  All conditions go through one joblib run over all cores with a
progress bar; chunks are merged in index order, and a condition whose status on the chosen
headline is decided at 99.9% (with the baseline's) stops there (its later chunks are
ignored, so the result does not depend on the number of jobs).
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np

from sim.game import Game
from sim.games import get as get_game
from sim.params import UsageError
from .robust_conditions import (Condition, _show, build_conditions, strong_play, _with_alternatives,  # noqa: F401
                                worst_pair)  # noqa: F401

#: a condition is not stopped before this many games (nor before its second chunk)
MIN_STOP_GAMES = 2000


@dataclass
class RobustResult:
    game: Game
    players: int
    mode: str               # "game" | "compare"
    metric: str
    layout: dict
    base_stats: dict
    conditions: list
    skipped: list = field(default_factory=list)
    manifest: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": "robust", "game": self.game.name, "players": self.players, "mode": self.mode,
                "metric": self.metric, "layout": self.layout, "base_stats": _stats_json(self.base_stats),
                "conditions": [{**c.as_dict(), "stats": _stats_json(c.stats)} for c in self.conditions],
                "skipped": [list(x) for x in self.skipped], "manifest": self.manifest}

    @classmethod
    def from_dict(cls, data: dict) -> "RobustResult":
        conds = [Condition(c["label"], c["kind"], c["assumption"], c["rules"], c["seatings"],
                           _stats_np(c["stats"]), c["stopped"], c.get("stage", 1), c.get("note", ""),
                           c.get("strong", False), c.get("limit"))
                 for c in data["conditions"]]
        return cls(get_game(data["game"]), int(data["players"]), data["mode"], data["metric"],
                   data["layout"], _stats_np(data["base_stats"]), conds,
                   [tuple(x) for x in data.get("skipped", [])], data["manifest"])


def _stats_json(st):
    if st is None:
        return None
    return {"n": int(st["n"]), "s": np.asarray(st["s"]).tolist(), "S2": np.asarray(st["S2"]).tolist()}


def _stats_np(st):
    if st is None:
        return None
    return {"n": int(st["n"]), "s": np.asarray(st["s"], np.float64), "S2": np.asarray(st["S2"], np.float64)}


# ------------------------------------------------------------------------ the quantities
def quantities(game: Game, players: int, cols: dict) -> np.ndarray:
    """(quantities, games): the per-game vector of :func:`analysis.robust.quantity_names`,
    taken from the engine's per-game metrics (the first side's score with a game without a
    winner as the fair share, each side's share, decisive, length) plus the score margin."""
    from .experiment_metrics import HEADLINE, metric_names, per_game_metrics
    names = metric_names(game, players)
    V = per_game_metrics(game, players, cols)
    m = game.n_sides(players)
    rows = [V[names.index(HEADLINE)]] + [V[names.index(f"win {k}")] for k in range(m)]
    rows += [V[names.index("decisive")], V[names.index(game.length)]]
    if game.score:
        sc = np.asarray(cols[game.score], np.float64).reshape(-1, players)
        M = np.zeros((players, m))
        M[np.arange(players), game.sides(players)] = 1.0
        side = np.sort(sc @ M, axis=1)
        rows.append(side[:, -1] - side[:, -2] if m > 1 else side[:, -1])
    return np.vstack(rows)


def make_layout(game: Game, players: int, mode: str) -> dict:
    from .robust import quantity_names
    m = game.n_sides(players)
    return {"mode": mode, "parts": 2 if mode == "compare" else 1,
            "quantities": quantity_names(m, bool(game.score)), "sides": m, "fair": 1.0 / m,
            "teams": m < players, "side_names": game.side_labels(players), "score": bool(game.score),
            "score_name": game.score, "length": game.length, "length_unit": game.length_unit}


def _moments(Z: np.ndarray) -> dict:
    return {"n": Z.shape[1], "s": Z.sum(axis=1), "S2": Z @ Z.T}


def _merge(a: dict | None, b: dict) -> dict:
    if a is None:
        return {"n": b["n"], "s": b["s"].copy(), "S2": b["S2"].copy()}
    return {"n": a["n"] + b["n"], "s": a["s"] + b["s"], "S2": a["S2"] + b["S2"]}


def _play_robust(game_name, players, seed, start, count, ctxs, arms, base_parts, active):
    """Worker task: one chunk of the baseline's arms and of every active condition's, reduced
    to the sums and sums of products of [baseline quantities, condition quantities].

    ``arms``: (ctx index, bot ids, bot parameters) per arm; ``base_parts`` and each active
    condition's parts: one list of arm indices per part (reference, variant), the seatings
    whose quantities are averaged game by game."""
    game = get_game(game_name)
    t0 = time.thread_time()   # this thread's CPU (process_time counted every worker thread's)
    need = sorted({a for part in base_parts for a in part}
                  | {a for _, parts in active for part in parts for a in part})
    Q = {}
    for a in need:
        ci, ids, par = arms[a]
        cols = game.play_chunk(ctxs[ci], players, seed, start, count, ids, par)
        Q[a] = quantities(game, players, cols)

    def block(parts):
        return np.vstack([sum(Q[a] for a in part) / len(part) for part in parts])

    B = block(base_parts)
    out = {c: _moments(np.vstack([B, block(parts)])) for c, parts in active}
    return start, count, _moments(B), out, time.thread_time() - t0, len(need) * count


# ----------------------------------------------------------------------- the conditions


# ---------------------------------------------------------------------------- the runner
def _chunks(games: int, chunk_size: int | None, marks=()) -> list[tuple[int, int]]:
    """Chunks that do not depend on the number of jobs (so neither does an early stop); a
    chunk also ends at each of ``marks`` (where a condition's games end: ``Condition.limit``)."""
    if chunk_size is None:
        chunk_size = max(500, min(20_000, math.ceil(games / 32)))
    chunk_size = max(1, int(chunk_size))
    ends = sorted({min(s + chunk_size, games) for s in range(0, games, chunk_size)}
                  | {int(m) for m in marks if 0 < m < games})
    return [(a, b - a) for a, b in zip([0] + ends[:-1], ends)]


def _plan(game, players, seed, n, looks, limits, chunk_size, jobs, arms, base_parts, cond_parts, kept_dir,
          desc, announce) -> tuple[list, dict]:
    """The chunks a robust stage plays: each stretch of games between two conditions' limits
    cut by the cost of the arms still playing there (a capped strong condition's games are
    dear, the rest cheap: :func:`sim.runner.plan_by_cost` per stretch), or to the sizes an
    earlier try kept (``kept_dir``, per stretch); the one-line estimate first, where long.
    Returns (the chunks, one worker's seconds a game of each arm measured: {} where none was)."""
    from sim.parallel import ESTIMATE_AFTER_S, estimate_line
    from sim.runner import CHUNK_OVERHEAD_S, arm_seconds, plan_by_cost

    from .experiment_runs import kept_chunk_size
    bounds = sorted(set(limits) | {n})
    stretches = list(zip([0] + bounds[:-1], bounds))
    cost: dict = {}                     # one worker's seconds a game, per arm (measured once)

    def seconds(used):
        if not cost:
            every = sorted({a for parts in [base_parts, *cond_parts] for part in parts for a in part})
            cost.update(zip(every, arm_seconds(game, [(arms.ctxs[arms.arms[a][0]], *arms.arms[a][1:])
                                                      for a in every], players, seed,
                                               max((c for _, c in looks), default=1), total=n, jobs=jobs)))
        return sum(cost[a] for a in used)

    chunks, sec, resumed = [], 0.0, False
    for lo, hi in stretches:
        part = [(s, c) for s, c in looks if lo <= s < hi]
        if not part:
            continue
        used = {a for parts in base_parts for a in parts}
        for k, parts in enumerate(cond_parts):
            if limits[k] >= hi:
                used |= {a for part_ in parts for a in part_}
        size = kept_chunk_size(kept_dir, lo, hi) if kept_dir is not None else None
        resumed = resumed or size is not None
        one = 0.0 if chunk_size is not None or size is not None else seconds(sorted(used))
        tasks, _ = plan_by_cost(part, chunk_size, one, jobs, desc, False, size)
        chunks += tasks
        sec += (hi - lo) * one
    workers = max(1, min(jobs, len(chunks)))
    sec = sec / workers + len(chunks) * CHUNK_OVERHEAD_S / workers
    if announce and sec > ESTIMATE_AFTER_S and not resumed:
        print(estimate_line(desc, sec, workers, len(chunks), max((c for _, c in chunks), default=0)),
              file=sys.stderr, flush=True)
    return chunks, cost


def strong_cap(game: Game, players: int, games: int, strong_games=None) -> int | None:
    """The most games a condition with the strong bot in a seat plays (``Condition.strong``):
    ``strong_games`` where given, else the game's declaration (``Game.strong_games``, per
    player count, where its strong play is too costly for ``games`` of every condition);
    None where that is not fewer than ``games``."""
    cap = strong_games if strong_games is not None else game.strong_games.get(players)
    if cap is None:
        return None
    cap = int(cap)
    if cap < 1:
        raise UsageError(f"--strong-games must be at least 1, not {cap}")
    return cap if cap < games else None


def _rules_key(resolved: dict) -> tuple:
    return tuple((k, _show(v)) for k, v in resolved.items())


class _Arms:
    """The distinct arms (rules, bots per seat) of a run, each prepared once.  ``prepared``:
    contexts already built (by ``make_spec`` while the conditions were checked), by
    :func:`_rules_key` of the resolved rules."""

    def __init__(self, game: Game, players: int, prepared: dict | None = None):
        self.game, self.players = game, players
        self.prepared = prepared or {}
        self.ctx_keys: dict = {}
        self.ctxs: list = []
        self.keys: dict = {}
        self.arms: list = []
        #: the learned value each rule set's bots read (``leaf=model``), by :func:`_rules_key`
        self.models: dict = {}

    def arm(self, rules: dict, bots: list[str]) -> int:
        from sim.spec import make_spec, wants_model
        g = self.game
        resolved = g.resolve_rules(rules)
        rkey = _rules_key(resolved)
        choices = g.choose_bots(list(bots), self.players)
        # a bot that reads the learned value (the strong condition's leaf=model) plays on a
        # context that carries the model of these rules: loaded, or trained now (it says so)
        model = wants_model(choices)
        ckey = (rkey, model)
        if ckey not in self.ctx_keys:
            self.ctx_keys[ckey] = len(self.ctxs)
            if model:
                spec = make_spec(g, 1, resolved, [c.label for c in choices], self.players)
                self.models[rkey] = spec.model
                ctx = spec.ctx
            else:
                ctx = self.prepared.get(rkey)
            self.ctxs.append(ctx if ctx is not None else g.prepare(resolved, self.players))
        key = (rkey, tuple(c.label for c in choices))
        if key not in self.keys:
            ids, par = g.bot_arrays(choices)
            self.keys[key] = len(self.arms)
            self.arms.append((self.ctx_keys[ckey], ids, par))
        return self.keys[key]


def _run_stage(game, players, seed, n, chunk_size, jobs, backend, scheduler, arms: _Arms,
               base_parts, cond_parts, layout, metric, early_stop, progress, desc, limits=None):
    """Play the baseline and the conditions (their parts: lists of arm indices) on games
    0..n-1 in one joblib run (condition k on its first ``limits[k]`` only, where given);
    returns (baseline stats, per-condition stats, stopped flags, games played, cpu seconds,
    partial)."""
    from . import checkpoints
    from .robust import Z_STOP, evaluate
    from sim.parallel import LineProgress, duration
    from sim.parallel import check_backend, default_backend, logging_progress, resolve_jobs, run_chunks
    from sim.runner import _progress_bar
    from sim.spec import digest
    from sim.stops import _signals_deferred
    jobs = resolve_jobs(jobs)
    backend = backend or default_backend(jobs)
    check_backend(backend)
    for ci, ids, par in arms.arms:  # compile (or load) once, here
        game.play_chunk(arms.ctxs[ci], players, seed, 0, 0, ids, par)
    # the plan (where a condition may stop, what the kept chunks are keyed by), played in
    # pieces of about CHUNK_TARGET_S seconds where the bots are slow (sim.runner.plan_by_cost)
    K = len(cond_parts)
    limits = [min(n, int(x)) if x else n for x in (limits or [None] * K)]
    looks = _chunks(n, chunk_size, set(limits))
    look_at = {s + c: i for i, (s, c) in enumerate(looks)}
    state = {"active": frozenset(range(K))}
    stopped = [False] * K
    done = [False] * K
    stats: list = [None] * K
    base = None
    played = 0
    cpu = 0.0
    partial = False

    def tasks():
        for start, count in chunks:
            act = state["active"]
            if not act:
                return
            yield (game.name, players, seed, start, count, arms.ctxs, arms.arms, base_parts,
                   [(k, cond_parts[k]) for k in sorted(act) if start + count <= limits[k]])

    def collect(result) -> bool:
        """Merge one chunk (in chunk order); True when every condition is decided."""
        nonlocal base, cpu, played, done
        start, count, bst, cst, sec, _ = result
        i = look_at.get(start + count, -1)  # -1: inside a chunk of the plan (no stop there)
        base = _merge(base, bst)
        cpu += sec
        merged = 0
        used = {a for part in base_parts for a in part}
        for k, st in cst.items():
            if not done[k]:
                stats[k] = _merge(stats[k], st)
                merged += 1
                used |= {a for part in cond_parts[k] for a in part}
        # the games the figures rest on (a task dispatched before an early stop was merged
        # may have played more: how many depends on timing, so it is not counted)
        played += count * len(used)
        last = start + count >= n
        if early_stop and not last and i >= 1:
            act = [k for k in range(K) if not done[k] and stats[k] is not None
                   and stats[k]["n"] >= MIN_STOP_GAMES]
            if act:
                ev = evaluate(layout, metric, base, [{"stats": stats[k], "label": "", "kind": "",
                                                      "assumption": ""} for k in act], z=Z_STOP)
                for k, r in zip(act, ev["rows"]):
                    if r["status"] != "unclear":
                        done[k] = stopped[k] = True
                        if bar is not None:
                            bar.total -= limits[k] - stats[k]["n"]
                            bar.refresh()
        for k in range(K):       # a condition's games end at its limit (not an early stop)
            if start + count >= limits[k]:
                done[k] = True
        if last:
            done = [True] * K
        time_left(start, count)
        if bar is not None:
            bar.update(count * merged)
        state["active"] = frozenset(k for k in range(K) if not done[k])
        return not state["active"]

    # the finished chunks of an earlier try of this stage (analysis.checkpoints): the
    # leading ones are merged first, so the early stops they decided are made again, the same
    store = checkpoints.task_store("robust", game.name, game.version, players, seed, n, looks,
                                   [digest(c) for c in arms.ctxs], arms.arms, base_parts, cond_parts)
    chunks, cost = _plan(game, players, seed, n, looks, limits, chunk_size, jobs, arms, base_parts, cond_parts,
                         store.dir if store is not None else None, desc, bool(progress) or logging_progress())
    bar = _progress_bar(sum(limits), progress, desc)
    clock = {"t0": time.perf_counter(), "done": 0.0}
    part_cost = [sum(cost.get(a, 0.0) for part in parts for a in part) for parts in cond_parts]
    base_cost = sum(cost.get(a, 0.0) for part in base_parts for a in part)

    def time_left(start, count):
        """Seconds left by the arms' costs (the capped strong conditions cost most early on,
        so the games' own extrapolation would overstate the rest many times over)."""
        if not cost or bar is None:
            return
        clock["done"] += count * (base_cost + sum(part_cost[k] for k in range(K)
                                                  if start + count <= limits[k] and stats[k] is not None))
        bn = base["n"] if base is not None else 0
        left = (n - bn) * base_cost + sum(part_cost[k] * (limits[k] - stats[k]["n"]) for k in range(K)
                                          if not done[k] and stats[k] is not None)
        secs = (time.perf_counter() - clock["t0"]) / max(clock["done"], 1e-9) * left
        if isinstance(bar, LineProgress):
            bar.left = secs
        else:
            bar.set_postfix_str(f"about {duration(secs)} left by cost", refresh=False)
    resumed = 0
    if store is not None:
        for start, count in chunks:
            kept = store.load(start, count) if state["active"] else None
            if not (isinstance(kept, tuple) and len(kept) == 6 and isinstance(kept[3], dict)
                    and state["active"] <= set(kept[3])):
                break  # missing, not of this shape, or without a condition still running
            with _signals_deferred():
                collect(kept)
            resumed += 1
    skip = {s for s, _ in chunks[:resumed]}
    clock.update(t0=time.perf_counter(), done=0.0)   # the time left: by the chunks played from here

    def collect_new(result) -> bool:
        if store is not None:
            store.save(result)
        return collect(result)

    def todo():
        for t in tasks():
            if t[3] not in skip:
                yield t

    try:
        # the engine of a single run (sim.parallel.run_chunks): each chunk merged whole, Ctrl-C
        # and SIGTERM held until it is, the workers stopped on the way out
        why = failure = None
        if state["active"]:
            why, failure = run_chunks(_play_robust, todo(), jobs, backend, scheduler, collect_new,
                                      ordered=True)
    finally:
        if bar is not None:
            bar.close()
    if failure is not None:
        raise failure            # a dead worker or a full disk: an error, as before
    partial = why is not None
    return base, stats, stopped, played, cpu, partial, looks


def robust(game_name: str, games, rules: dict | None = None, bots=None, players=None, seed=1,
           variants: list | None = None, metric: str | None = None, jobs=None, chunk_size=None,
           backend=None, scheduler=None, progress=None, early_stop: bool = True,
           combine: bool = True, command: str | None = None, strong_games=None) -> RobustResult:
    """Play the baseline (``rules``, ``bots``) and every condition on the same seeds.

    ``variants``: [(name, rule changes)] x 2 for a comparison (the reference first): every
    headline is then the variant's paired difference from the reference, and every
    condition changes both alike.  ``metric``: the headline the early stop and the worst-case
    combination follow (default: the first side's edge).  ``strong_games``: the most games
    of a condition with the strong bot in a seat (:func:`strong_cap`)."""
    from .robust import Z95, evaluate, resolve_metric
    from sim import __version__
    from sim.parallel import resolve_jobs
    from sim.provenance import machine_info
    from sim.spec import make_spec, parse_games
    game = get_game(game_name)
    n = parse_games(games)
    P = game.check_players(players)
    mode = "compare" if variants else "game"
    if variants is not None and len(variants) != 2:
        raise UsageError("sim robust compare takes two --variant: the reference first, then the "
                         f"variant (got {len(variants)})")
    common = dict(rules or {})
    part_rules = [{**common, **dict(v[1])} for v in variants] if variants else [common]
    specs = [make_spec(game, n, r, bots, P, seed) for r in part_rules]
    prepared = {_rules_key(s.rules): s.ctx for s in specs}   # each rule set prepared once
    base_bots = [c.label for c in specs[0].bots]
    layout = make_layout(game, P, mode)
    try:
        metric = resolve_metric(metric, layout)
    except ValueError as e:
        raise UsageError(str(e)) from None
    # a parameter the compared variants set differently is not varied by any condition
    exclude = ({k for k in specs[0].rules if specs[0].rules[k] != specs[1].rules[k]}
               if variants else set())

    def validate(change):
        for r in part_rules:
            s = make_spec(game, 1, {**r, **change}, base_bots, P, seed)
            prepared.setdefault(_rules_key(s.rules), s.ctx)

    conds, skipped = build_conditions(game, P, specs[0].rules, base_bots, exclude, validate)
    if not conds:
        raise UsageError(f"{game.name}: no condition to try (no other bot, reading or setup declared)")
    cap = strong_cap(game, P, n, strong_games)
    for c in conds:
        if c.strong:
            c.limit = cap
    arms = _Arms(game, P, prepared)

    def parts_of(change: dict, seatings):
        out = []
        for r in part_rules:
            rr = {**r, **change}
            out.append([arms.arm(rr, s) for s in (seatings or [base_bots])])
        return out

    base_parts = parts_of({}, None)
    cond_parts = [parts_of(c.rules, c.seatings) for c in conds]
    if progress is None:
        progress = sys.stderr.isatty()
    started = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    from sim.parallel import default_backend
    jobs_n = resolve_jobs(jobs)
    base, stats, stopped, played, cpu, partial, chunks = _run_stage(
        game, P, int(seed), n, chunk_size, jobs, backend, scheduler, arms, base_parts, cond_parts,
        layout, metric, early_stop, progress, f"{game.name} robust: {len(conds)} conditions",
        [c.limit for c in conds])
    for c, st, sp in zip(conds, stats, stopped):
        c.stats, c.stopped = st, sp
    kept = [c for c in conds if c.stats is not None]
    if len(kept) < len(conds):
        skipped += [(c.label, "interrupted before its first chunk") for c in conds if c.stats is None]
    conds = kept
    # stage 2: the worst-case combination of the two readings that moved the headline most
    if combine and not partial and conds:
        ev = evaluate(layout, metric, base, [c.as_dict() for c in conds], z=Z95)
        pair = worst_pair(game, ev, conds)
        if pair is not None:
            a, b = pair
            change = {**a.rules, **b.rules}
            label = f"{a.label} + {b.label}"
            try:
                validate(change)
            except UsageError as e:
                skipped.append((label, str(e)))
            else:
                combo = Condition(label, "combined", f"{a.assumption} and {b.assumption}", change,
                                  None, stage=2)
                _, st2, sp2, pl2, cpu2, partial, _ = _run_stage(
                    game, P, int(seed), n, chunk_size, jobs, backend, scheduler, arms, base_parts,
                    [parts_of(change, None)], layout, metric, early_stop, progress,
                    f"{game.name} robust: worst-case combination")
                played += pl2
                cpu += cpu2
                if st2[0] is not None:
                    combo.stats, combo.stopped = st2[0], sp2[0]
                    conds.append(combo)
        elif sum(1 for c in conds if c.kind == "reading") >= 2:
            skipped.append(("worst-case combination", "no two readings moved the headline the same way"))
    seconds = time.perf_counter() - t0
    base_desc = _describe_baseline(game, specs, variants, base_bots)
    manifest = {
        "tool": "sim", "kind": "robust", "mode": mode, "sim_version": __version__, "game": game.name,
        "game_title": game.title, "game_version": game.version, "players": P,
        "seats": game.seat_names(P), "sides": game.side_labels(P),
        "baseline": base_desc, "bots": base_bots,
        "rules": {k: _show(v) for k, v in specs[0].rules.items()},
        "rules_changed": {k: _show(v) for k, v in specs[0].rules_changed.items()},
        "variants": ([{"name": v[0], "rules_changed": {k: _show(x) for k, x in s.rules_changed.items()}}
                      for v, s in zip(variants, specs)] if variants else None),
        "readings": {p.name: _show(specs[0].rules[p.name]) for p in game.params if p.role == "reading"},
        "metric": metric, "seed": int(seed), "games_requested": n, "chunk_size": chunks[0][1] if chunks else 0,
        "jobs": jobs_n, "backend": backend or default_backend(jobs_n),
        "early_stop": bool(early_stop), "conditions": [c.label for c in conds],
        "strong_games": cap,           # the most games of a condition with the strong bot (None: all)
        # the strong condition's bot, why that one, and the learned value it read (per variant)
        "strong_play": {**strong_play(game, P), **_models(arms, specs, variants)},
        "condition_games": {c.label: int(c.stats["n"]) for c in conds},
        "baseline_games": int(base["n"]) if base else 0, "games_played": int(played),
        "partial": partial, "started": started.isoformat(timespec="seconds"),
        "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "command": command,
        "machine": machine_info(),
    }
    if base is None:
        raise UsageError("sim robust was interrupted before it finished a chunk")
    return RobustResult(game, P, mode, metric, layout, base, conds, skipped, manifest)


def _models(arms: _Arms, specs, variants) -> dict:
    """{"models": [...]}: the learned value the strong condition's bots read (``leaf=model``)
    under each variant's rules (its name with it), or {} where no bot read one."""
    names = [v[0] for v in variants] if variants else [""]
    found = [{"variant": name, **arms.models[_rules_key(s.rules)]} for name, s in zip(names, specs)
             if arms.models.get(_rules_key(s.rules))]
    return {"models": found} if found else {}


def _describe_baseline(game, specs, variants, bots) -> str:
    b = ",".join(bots) if len(set(bots)) > 1 else f"{bots[0]} bots"
    changed = ", ".join(f"{k}={_show(v)}" for k, v in specs[0].rules_changed.items())
    if variants:
        return (f"{b}; '{variants[1][0]}' against '{variants[0][0]}'"
                + (f" ({changed})" if changed else ""))
    return f"{b}, " + (changed if changed else "the rulebook's rules and readings")
