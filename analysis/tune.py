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
import re
import time
from dataclasses import dataclass, field

import numpy as np

from sim.game import Game
from sim.games import get as get_game
from sim.params import UsageError
from sim.runner import default_backend, make_spec, parse_games, plan_chunks, resolve_jobs, run_chunks

from . import checkpoints
from .experiment_runs import outcome_rows

Z95 = 1.959963984540054
#: parameter roles tune may change: rules, the rulebook's own variants, and readings
TUNABLE_ROLES = ("rule", "variant", "reading")


# ---------------------------------------------------------------- the metrics
def metric_table(game: Game, players: int) -> dict[str, str]:
    """Every metric a target may name -> what it means.  Rates are shares of games (0..1)."""
    sides = game.n_sides(players)
    out = {"first_player": "first side's score (its win share; a game without a winner "
                           "counts as the fair share 1/sides, so draws do not move it)",
           "first_player_wins": "first side's win share (a game without a winner counts 0)"}
    for k, name in enumerate(_side_names(game, players)):
        out[name] = f"win share of {_side_labels(game, players)[k]}"
        out[f"side_{k}"] = f"win share of {_side_labels(game, players)[k]}"
    if sides > 1:
        out["seat_spread"] = "largest minus smallest win share of the sides"
    out.update({"draws": "share of games without a winner",
                "decisive": "share of games exactly one side won",
                "capped": "share of games stopped by the horizon",
                "length": f"mean game length ({game.length_unit})"})
    for col in _own_columns(game):
        out[col.name] = f"mean of {col.name}" + (" per seat" if col.per_seat else " per game")
    return out


def _side_labels(game, players):
    if game.n_sides(players) < players:
        return [f"team {x}" for x in game.side_labels(players)]
    return list(game.seat_names(players))


def _side_names(game, players):
    return [re.sub(r"[^a-z0-9]+", "_", x.lower()).strip("_") for x in _side_labels(game, players)]


def _own_columns(game):
    skip = {"win", "winner", "capped", "end_reason", "first_player"}
    return [c for c in game.columns if c.summarize and c.name not in skip
            and (np.issubdtype(np.dtype(c.dtype), np.number) or c.dtype == "bool")]


def _rows(game: Game, players: int) -> list[str]:
    """Names of the per-game rows the worker returns (in order)."""
    m = game.n_sides(players)
    names = ["first_player", "first_player_wins"] + [f"side_{k}" for k in range(m)]
    names += ["decisive", "draws", "capped", "length"]      # the order of outcome_rows
    names += [c.name for c in _own_columns(game)]
    return names


def _per_game(game: Game, players: int, cols: dict) -> np.ndarray:
    """The rows named by :func:`_rows`: the experiments' outcome rows, then the game's own
    columns (per-seat ones averaged over the seats)."""
    rows = outcome_rows(game, players, cols)
    n = rows[0].shape[0]
    for c in _own_columns(game):
        a = np.asarray(cols[c.name], np.float64)
        rows.append(a.reshape(n, -1).mean(axis=1) if c.per_seat else a.reshape(n))
    return np.vstack(rows)


def _play(game_name, ctxs, arm_specs, players, seed, start, count):
    """Worker task: games start..start+count-1 of every candidate, as sums, sums of squares
    and the side shares' cross products (for the spread's interval)."""
    game = get_game(game_name)
    m = game.n_sides(players)
    out = []
    for ctx, (ids, par) in zip(ctxs, arm_specs):
        cols = game.run_chunk(ctx, players, seed, start, count, ids, par)
        V = _per_game(game, players, cols)
        S = V[2:2 + m]
        out.append((V.sum(axis=1), (V * V).sum(axis=1), S @ S.T))
    return start, count, out


@dataclass
class Moments:
    """Per-game sums of one candidate: mean and standard error of every metric."""
    n: int = 0
    s: np.ndarray = None
    s2: np.ndarray = None
    cross: np.ndarray = None

    def add(self, count, s, s2, cross):
        if self.s is None:
            self.s, self.s2, self.cross = s.copy(), s2.copy(), cross.copy()
        else:
            self.s, self.s2, self.cross = self.s + s, self.s2 + s2, self.cross + cross
        self.n += count


@dataclass
class Metric:
    name: str
    row: int | None          # per-game row, None for the spread
    kind: str                # "rate" (0..1 share) or "mean"


@dataclass
class Target:
    metric: Metric
    op: str                  # "=", "<=", ">=", "range", "min", "max"
    value: float = float("nan")
    hi: float = float("nan")
    text: str = ""           # as typed
    fair: bool = False

    def loss(self, m: float) -> float:
        if self.op == "=":
            return abs(m - self.value)
        if self.op == "<=":
            return max(0.0, m - self.value)
        if self.op == ">=":
            return max(0.0, self.value - m)
        if self.op == "range":
            return max(0.0, self.value - m, m - self.hi)
        return m if self.op == "min" else -m

    def loss_interval(self, lo: float, hi: float) -> tuple[float, float]:
        """The loss's range over the metric's interval [lo, hi]."""
        a, b = self.loss(lo), self.loss(hi)
        inside = {"=": lo <= self.value <= hi, "range": lo <= self.hi and hi >= self.value,
                  "<=": lo <= self.value, ">=": hi >= self.value}.get(self.op, False)
        return (0.0 if inside else min(a, b)), max(a, b)

    def wanted(self) -> str:
        def f(x):
            return _show(self.metric, x)
        return {"=": f"{f(self.value)}" + (" (fair share)" if self.fair else ""),
                "<=": f"at most {f(self.value)}", ">=": f"at least {f(self.value)}",
                "range": f"{f(self.value)} to {f(self.hi)}", "min": "as low as possible",
                "max": "as high as possible"}[self.op]


def _show(metric: Metric, x: float, digits=1) -> str:
    if x != x:
        return "n/a"
    return f"{100 * x:.{digits}f}%" if metric.kind == "rate" else f"{x:.{digits + 1}f}"


def estimate(metric: Metric, M: Moments, sides: int) -> tuple[float, float]:
    """(mean, standard error) of a metric from a candidate's moments."""
    n = max(M.n, 1)
    if metric.row is None:  # spread: the extreme sides' difference, its variance paired
        sh = M.s[2:2 + sides] / n
        a, b = int(np.argmax(sh)), int(np.argmin(sh))
        var = (M.cross[a, a] + M.cross[b, b] - 2 * M.cross[a, b]) / n - (sh[a] - sh[b]) ** 2
        return float(sh[a] - sh[b]), math.sqrt(max(var, 0.0) / max(n - 1, 1))
    mean = M.s[metric.row] / n
    var = M.s2[metric.row] / n - mean * mean
    return float(mean), math.sqrt(max(var, 0.0) / max(n - 1, 1))


# ------------------------------------------------------------------- parsing
@dataclass
class Space:
    name: str
    kind: str                # "int", "float", "choice"
    lo: float = 0
    hi: float = 0
    choices: tuple = ()
    default: object = None

    def text(self) -> str:
        if self.kind == "choice":
            return ",".join(map(str, self.choices))
        return f"{_num(self.lo)}..{_num(self.hi)}"


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def parse_params(items, game: Game) -> list[Space]:
    """``payout=0..15`` (ints), ``lot_p=0.3..0.7`` (floats), ``exit=any,pile`` (choices)."""
    by_name = {p.name: p for p in game.params}
    alias = {a: p.name for p in game.params for a in p.aliases}
    out: list[Space] = []
    if not items:
        raise UsageError("sim tune needs at least one --param NAME=LO..HI or NAME=A,B,C")
    for item in items:
        if "=" not in item:
            raise UsageError(f"--param takes NAME=LO..HI or NAME=A,B,C, not {item!r}")
        raw, spec = (x.strip() for x in item.split("=", 1))
        key = alias.get(raw.lower().replace("-", "_"), raw.lower().replace("-", "_"))
        if key not in by_name:
            game.resolve_rules({raw: None})  # the usual "unknown parameter" line, with a suggestion
        p = by_name[key]
        if p.role not in TUNABLE_ROLES or p.kind in ("file",):
            why = {"analysis": "an analysis switch", "horizon": "the horizon (a cap, not a rule)",
                   "data": "a data file"}.get(p.role, "not a rule")
            raise UsageError(f"--param {key}: '{key}' is {why}, not a rule to tune")
        if any(s.name == key for s in out):
            raise UsageError(f"--param {key} is given twice")
        if ".." in spec:
            if p.kind not in ("int", "float"):
                raise UsageError(f"--param {item!r}: '{key}' takes {p.allowed()}; list its values "
                                 "(NAME=A,B,C)")
            lo_t, _, hi_t = spec.partition("..")
            try:
                lo, hi = float(lo_t), float(hi_t)
            except ValueError:
                raise UsageError(f"--param {item!r}: a range is LO..HI with two numbers") from None
            if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
                raise UsageError(f"--param {item!r}: the range needs finite LO < HI")
            if p.kind == "int" and not (lo.is_integer() and hi.is_integer()):
                raise UsageError(f"--param {item!r}: '{key}' is a whole number; use whole LO and HI")
            p.parse(int(lo) if p.kind == "int" else lo)
            p.parse(int(hi) if p.kind == "int" else hi)
            out.append(Space(key, p.kind, lo, hi, default=p.default))
        else:
            vals = [v.strip() for v in spec.split(",") if v.strip()]
            if len(vals) < 2:
                raise UsageError(f"--param {item!r}: give a range LO..HI or at least two values A,B")
            parsed = [p.parse(v) for v in vals]
            if len(set(map(repr, parsed))) != len(parsed):
                raise UsageError(f"--param {item!r} lists a value twice")
            out.append(Space(key, "choice", choices=tuple(parsed), default=p.default))
    return out


_TARGET = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_ ]*?)\s*(<=|>=|=)\s*(.+?)\s*$")


def parse_targets(items, game: Game, players: int) -> list[Target]:
    """``first_player=fair``, ``draws<=0.02``, ``length=60..90``, ``draws=min``."""
    table = metric_table(game, players)
    rows = _rows(game, players)
    sides = game.n_sides(players)
    names = _side_names(game, players)
    out: list[Target] = []
    if not items:
        raise UsageError("sim tune needs at least one --target, e.g. first_player=fair")
    for item in items:
        m = _TARGET.match(item)
        if not m:
            raise UsageError(f"--target takes METRIC=VALUE, METRIC<=V, METRIC>=V, METRIC=LO..HI "
                             f"or METRIC=min|max, not {item!r}")
        name, op, val = m.group(1).strip().lower(), m.group(2), m.group(3).strip().lower()
        if name == game.length:
            name = "length"
        if name not in table:
            import difflib
            close = difflib.get_close_matches(name, list(table), n=1, cutoff=0.5)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise UsageError(f"--target {item!r}: unknown metric '{name}'{hint}; known: "
                             + ", ".join(table))
        if name in names:
            row = rows.index(f"side_{names.index(name)}")
        elif name == "seat_spread":
            row = None
        else:
            row = rows.index(name)
        rate = name in ("first_player", "first_player_wins", "seat_spread", "draws", "decisive",
                        "capped") or name.startswith("side_") or name in names
        metric = Metric(name, row, "rate" if rate else "mean")
        if any(t.metric.name == name for t in out):
            raise UsageError(f"--target {name} is given twice")
        t = Target(metric, op, text=item.strip())
        if val in ("min", "max"):
            if op != "=":
                raise UsageError(f"--target {item!r}: min and max go with '=' (METRIC=min)")
            t.op = val
        elif val == "fair":
            if op != "=" or not (name in ("first_player", "first_player_wins") or name in names
                                 or name.startswith("side_")):
                raise UsageError(f"--target {item!r}: 'fair' is for a side's share "
                                 "(first_player=fair, or a side's name=fair)")
            t.value, t.fair = 1.0 / sides, True
        elif ".." in val:
            if op != "=":
                raise UsageError(f"--target {item!r}: a range goes with '=' (METRIC=LO..HI)")
            a, b = (_target_number(x, item) for x in val.split("..", 1))
            if b <= a:
                raise UsageError(f"--target {item!r}: the range needs LO < HI")
            t.op, t.value, t.hi = "range", a, b
        else:
            t.value = _target_number(val, item)
        out.append(t)
    return out


def _target_number(text: str, item: str) -> float:
    pct = text.endswith("%")
    try:
        v = float(text.rstrip("%"))
    except ValueError:
        raise UsageError(f"--target {item!r}: {text!r} is not a number, fair, min or max") from None
    if not math.isfinite(v):
        raise UsageError(f"--target {item!r}: the value must be finite")
    return v / 100 if pct else v


# -------------------------------------------------------------------- search
@dataclass
class Candidate:
    number: int
    values: dict
    moments: Moments = field(default_factory=Moments)
    rung_losses: dict = field(default_factory=dict)   # rung -> losses at that rung
    stopped: str = ""                                  # why it was not promoted further

    def label(self) -> str:
        return ", ".join(f"{k}={_fmtv(v)}" for k, v in self.values.items())


def _fmtv(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, tuple):
        return ",".join(map(str, v))
    return str(v)


@dataclass
class TuneResult:
    game: Game
    players: int
    spaces: list
    targets: list
    candidates: list
    rungs: list
    finalists: list          # Candidate, best first
    final: list              # [(label, values, Moments)], the rulebook first
    final_seed: int
    final_games: int
    search_games: int
    seconds: float
    bots: list
    seed: int
    notes: list
    verdict: list
    manifest: dict


def _losses(targets, M: Moments, sides) -> tuple[np.ndarray, np.ndarray]:
    L, SE = [], []
    for t in targets:
        m, se = estimate(t.metric, M, sides)
        L.append(t.loss(m))
        SE.append(se)
    return np.array(L), np.array(SE)


def _play_batch(game, cands, spaces, players, bots, seed, start, count, jobs, backend, fixed):
    """Games start..start+count-1 of every candidate in ``cands`` (added to their moments)."""
    specs = [make_spec(game, 1, {**fixed, **c.values}, bots, players, seed) for c in cands]
    ctxs = [s.ctx for s in specs]
    arm_specs = [game.bot_arrays(s.bots) for s in specs]
    if jobs > 1:  # compile (or load) the kernel here once, not in every worker
        game.run_chunk(ctxs[0], players, seed, 0, 0, *arm_specs[0])
    chunk = max(250, math.ceil(count / max(jobs, 1)))
    plan = [(start + s, c) for s, c in plan_chunks(count, chunk, jobs)]
    # the chunks an earlier try of this search kept (analysis.checkpoints): the sampler and
    # the promotions see the same figures, so a resumed search proposes the same candidates
    store = checkpoints.task_store("tune", game.name, game.version, players, seed, plan,
                                   [s.data for s in specs], arm_specs)
    kept = {s: store.load(s, c) for s, c in plan} if store is not None else {}
    kept = {s: r for s, r in kept.items() if isinstance(r, tuple) and len(r) == 3 and len(r[2]) == len(cands)}
    out = list(kept.values())
    tasks = [(game.name, ctxs, arm_specs, players, seed, s, c) for s, c in plan if kept.get(s) is None]

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
        for cand, (s, s2, cross) in zip(cands, per):
            cand.moments.add(c, s, s2, cross)


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
    _play_batch(game, [rulebook] + replay, spaces, p, bots, final_seed, 0, final_n, jobs, backend, fixed)
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
def interval(metric, M, sides):
    m, se = estimate(metric, M, sides)
    return m, m - Z95 * se, m + Z95 * se


def _guard_rails(spaces, tg, replay, sides, final_n, k) -> list[str]:
    notes = []
    if not replay:
        return notes
    for s in spaces:
        if s.kind not in ("int", "float"):
            continue
        who = replay[:1] if len(tg) == 1 else replay
        at = [c for c in who if c.values[s.name] <= s.lo or c.values[s.name] >= s.hi]
        if at:
            what = ("the best point has" if len(tg) == 1 else
                    f"{len(at)} of the {len(who)} front points {'has' if len(at) == 1 else 'have'}")
            vals = sorted({_fmtv(c.values[s.name]) for c in at})
            notes.append(f"{what} {s.name}={'/'.join(vals)}, on the edge of the range {s.text()}: "
                         "the optimum may lie outside it; widen the range")
    if len(replay) > 1:
        a, b = replay[0], replay[1]
        sep = []
        for t in tg:
            la = t.loss_interval(*interval(t.metric, a.moments, sides)[1:])
            lb = t.loss_interval(*interval(t.metric, b.moments, sides)[1:])
            sep.append(la[1] < lb[0])
        if len(tg) == 1:
            notes.append(("the best candidate is separated from the runner-up "
                          f"({b.label()}): its 95% interval is closer to the target"
                          if sep[0] else
                          f"the best candidate is not separated from the runner-up ({b.label()}): "
                          "their 95% intervals overlap on the target; more games (--final) "
                          "would tell them apart, or either will do"))
    notes.append(f"the verdict rests on {final_n:,} fresh games per candidate ({k} candidate(s) "
                 f"and the rulebook: {final_n * (k + 1):,} games), not on the search's games")
    return notes


def verdict_lines(res: TuneResult) -> list[str]:
    sides = game_sides(res)
    lines = []
    rb = res.final[0]
    for i, (label, values, M) in enumerate(res.final[1:]):
        parts = []
        for t in res.targets:
            m, lo, hi = interval(t.metric, M, sides)
            parts.append(f"{t.metric.name} {_show(t.metric, m)} [{_show(t.metric, lo)}, "
                         f"{_show(t.metric, hi)}] (wanted {t.wanted()})")
        lead = ("On the front: " if len(res.targets) > 1 else "Best: " if i == 0 else f"#{i + 1}: ")
        lines.append(f"{lead}{label} makes " + "; ".join(parts) + ".")
    parts = []
    for t in res.targets:
        m, lo, hi = interval(t.metric, rb[2], sides)
        parts.append(f"{t.metric.name} {_show(t.metric, m)} [{_show(t.metric, lo)}, {_show(t.metric, hi)}]")
    lines.append("The rulebook's " + ", ".join(f"{k}={_fmtv(v)}" for k, v in rb[1].items())
                 + " gives " + "; ".join(parts) + ".")
    if res.final[1:]:
        M = res.final[1][2]
        missed = []
        for t in res.targets:
            if t.op in ("min", "max"):
                continue
            lo_l, _ = t.loss_interval(*interval(t.metric, M, sides)[1:])
            if lo_l > 0:
                missed.append(t)
        for t in missed:
            lines.append(f"No candidate found reaches {t.metric.name} {t.wanted()}: the best's 95% "
                         "interval excludes it." + _crossing(res, t, sides))
        lines += inside_lines(res.targets, M, rb[2], sides)
    return lines


def inside_lines(targets, M, rulebook, sides) -> list[str]:
    """For each target the best candidate (moments ``M``) meets within its 95% interval: how
    sure that is at this many games, and whether the rulebook meets it as well, so "Best:"
    is not read as "reaches the target exactly" or "beats the rulebook"."""
    out = []
    for t in targets:
        if t.op in ("min", "max"):
            continue
        m, lo, hi = interval(t.metric, M, sides)
        if t.loss_interval(lo, hi)[0] > 0:
            continue  # said above: no candidate reaches it
        what = (f"the best's {t.metric.name} {_show(t.metric, m)} [{_show(t.metric, lo)}, "
                f"{_show(t.metric, hi)}] cannot be told from the target {t.wanted()} at {M.n:,} games: "
                "the target lies inside its 95% interval")
        if t.op == "=":
            far = max(abs(lo - t.value), abs(hi - t.value))
            what += f", so its true value may lie up to {loss_text(t, far)} from the target"
        rlo, rhi = interval(t.metric, rulebook, sides)[1:]
        if t.loss_interval(rlo, rhi)[0] == 0:
            what += "; the rulebook's values meet it too at this sample size"
        out.append(what[0].upper() + what[1:] + ".")
    return out


def loss_text(t, x: float) -> str:
    """A loss (distance from a target) in the metric's unit: points for a rate."""
    if x != x:
        return "n/a"
    return f"{100 * x:.2f} points" if t.metric.kind == "rate" else f"{x:.3g}"


def _crossing(res, t, sides) -> str:
    """For one whole-number parameter and a target value: the neighbouring values (from the
    search) on either side of the target, where there are such, as evidence that none between
    them was missed."""
    if len(res.spaces) != 1 or res.spaces[0].kind != "int" or t.op != "=":
        return ""
    name = res.spaces[0].name
    pts = sorted((c.values[name], *interval(t.metric, c.moments, sides), c.moments.n)
                 for c in res.candidates)
    out = []
    for a, b in zip(pts, pts[1:]):
        if b[0] == a[0] + 1 and ((a[3] < t.value < b[2]) or (b[3] < t.value < a[2])):
            out.append(f"{name}={a[0]} gives {_show(t.metric, a[1])} [{_show(t.metric, a[2])}, "
                       f"{_show(t.metric, a[3])}] ({a[4]:,} games) and {name}={b[0]} gives "
                       f"{_show(t.metric, b[1])} [{_show(t.metric, b[2])}, {_show(t.metric, b[3])}] "
                       f"({b[4]:,} games)")
    if not out:
        return ""
    return (" The target lies between neighbouring values, where no whole value can reach it: "
            + "; ".join(out) + " (the search's games).")


def game_sides(res) -> int:
    return res.game.n_sides(res.players)


def variants_toml(res: TuneResult) -> str:
    """A ``sim compare --variants`` file: the rulebook first, then the best candidates."""
    out = [f"# sim tune {res.game.name}: " + " ".join(f"--param {x}" for x in res.manifest["params"])
           + " " + " ".join(f"--target {t.text}" for t in res.targets),
           f"# players {res.players}, seed {res.seed}; re-played on seed {res.final_seed}", ""]
    fixed = res.manifest.get("fixed", {})
    out.append("[variants.rulebook]")
    for k, v in fixed.items():
        out.append(f"{k} = {_toml_value(v)}")
    out.append("")
    for i, (label, values, _) in enumerate(res.final[1:]):
        out.append(f"[variants.tuned_{i + 1}]")
        for k, v in {**fixed, **values}.items():
            out.append(f"{k} = {_toml_value(v)}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, tuple):
        return '"' + ",".join(map(str, v)) + '"'
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def tune_text(res: TuneResult) -> str:
    m = res.manifest
    lines = [f"{res.game.title}, {res.players} players, bots {', '.join(res.bots)}: "
             f"{len(res.candidates)} candidates, {res.search_games:,} games of search "
             f"({m['sampler']}, rungs {', '.join(f'{x:,}' for x in res.rungs)}), "
             f"{m['seconds']:.0f} s in all"]
    lines += res.verdict
    lines += [f"note: {n}" for n in res.notes]
    return "\n".join(lines)
