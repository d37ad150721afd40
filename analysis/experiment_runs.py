"""Experiments built on the runner: variant comparisons, parameter sweeps, skill tables.

Every *arm* of an experiment (a rule variant with a bot per seat) plays the same
game indices with the same master seed, so game *i* of every arm sees the same
chance stream (common random numbers).  In two-player comparisons with
different bots in the two seats, every game is also played with the bots
swapped: the two games form a seat-swapped pair on an identical opening.

A chunk task plays games ``start .. start+count-1`` in every arm and reduces
them to sufficient statistics: each arm's :class:`Summary`, per-metric sums and
sums of squares, sums of the per-game differences against the first arm, and
pentanomial counts of the pairs.  Chunks are merged in index order, so an SPRT
that stops early stops at the same game whatever the number of jobs.
"""
from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np

from sim.game import Game
from sim.games import get as get_game
from sim.params import UsageError, parse_assignments
from sim.runner import (RunSpec, _progress_bar, check_backend, default_backend, machine_info, make_spec, parse_games,
                        plan_chunks, resolve_jobs, run_chunks)
from sim.summary import Summary

from . import checkpoints
from .wording import sprt_sentence


@dataclass
class Arm:
    label: str          # e.g. "nine" or "nine (seats swapped)"
    variant: int        # index of the rule variant
    swapped: bool       # bots of the two seats exchanged
    spec: RunSpec


@dataclass
class ExperimentResult:
    kind: str
    game: Game
    arms: list
    variants: list      # [(name, rules_changed)]
    stats: dict         # merged sufficient statistics (see _reduce)
    summaries: list     # per arm Summary
    manifest: dict
    partial: bool = False
    sprt: Any = None
    sprt_log: list = field(default_factory=list)


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
    summaries, pent = [], []
    V0 = o0 = score = None
    for k, (ctx, (ids, par, swapped)) in enumerate(zip(ctxs, arm_specs)):
        cols = game.run_chunk(ctx, players, seed, start, count, ids, par)
        summaries.append(Summary.from_columns(game, players, cols, start))
        V = per_game_metrics(game, players, cols)        # (metrics, games) of this arm
        o = outcome_codes(game, players, cols)
        win = np.asarray(cols["win"], np.float64).reshape(-1, players)
        del cols
        if k == 0:
            V0, o0 = V, o
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


def _merge_stats(a, b):
    if a is None:
        return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in b.items()}
    with np.errstate(over="ignore"):  # fingerprints add modulo 2**64
        return {k: a[k] + b[k] for k in a}


# -------------------------------------------------------------------------- variants
def parse_variant(text: str) -> tuple[str, dict]:
    """``nine:track=9,exit=pile`` -> ("nine", {"track": "9", "exit": "pile"}); ``base:`` -> no change."""
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not sep or not name:
        raise UsageError(f"--variant takes NAME:PARAM=VALUE[,PARAM=VALUE...] (NAME: for the rules as "
                         f"they are), not {text!r}")
    items = [x for x in (p.strip() for p in rest.split(",")) if x]
    return name, parse_assignments(items, "--variant")


def load_variants_file(path) -> list[tuple[str, dict]]:
    """A TOML file of named variants: ``[variants.nine]`` tables of parameter = value."""
    from sim import toml as TOML
    data = TOML.load(path, "--variants")  # regular, small, UTF-8 TOML; one clear line otherwise
    table = data.get("variants", data)
    if not isinstance(table, dict) or not table:
        raise UsageError(f"--variants {path}: expected [variants.NAME] tables")
    out = []
    for name, rules in table.items():
        if not isinstance(rules, dict):
            raise UsageError(f"--variants {path}: variant '{name}' must be a table of parameters")
        out.append((str(name), {k: (",".join(map(str, v)) if isinstance(v, list) else v)
                                for k, v in rules.items()}))
    return out


def parse_sweep(items: list[str], game: Game) -> list[tuple[str, list]]:
    """``track=7..15``, ``track=7..15:2``, ``exit=any,pile`` -> [(param, [values])]; several =
    a grid.  The checks (ranges before expansion, each parameter once) live in
    :func:`sim.validate.parse_sweep`, shared with the command line."""
    from sim.validate import parse_sweep as checked
    return checked(items, game)


# ------------------------------------------------------------------------ the engine
def run_arms(game: Game, arms: list[Arm], games: int, seed: int, jobs=None, chunk_size=None,
             backend=None, scheduler=None, progress=None, sprt=None, sprt_metric=None,
             echo=None) -> tuple:
    """Play every arm on the same games; returns (summaries, stats, partial, sprt_log, games_done)."""
    jobs = resolve_jobs(jobs)
    backend = backend or default_backend(jobs)
    check_backend(backend)
    if progress is None:
        progress = sys.stderr.isatty()
    players = arms[0].spec.players
    # each arm's rules were prepared once, by make_spec (a swapped arm shares its variant's)
    ctxs = [a.spec.ctx if a.spec.ctx is not None else game.prepare(a.spec.rules, players)
            for a in arms]
    arm_specs = []
    for a in arms:
        ids, par = game.bot_arrays(a.spec.bots)
        arm_specs.append((ids, par, a.swapped))
    for ctx, (ids, par, _) in zip(ctxs, arm_specs):
        game.run_chunk(ctx, players, seed, 0, 0, ids, par)  # compile once, here
    chunks = plan_chunks(games, chunk_size, jobs)
    summaries = [Summary(players) for _ in arms]
    stats = None
    partial = False
    log = []
    done = 0
    bar = _progress_bar(games * len(arms), progress and echo is None, f"{game.name} x{len(arms)} arms")

    watched = metric_names(game, arms[0].spec.players)[sprt_metric] if sprt is not None else None

    def collect(result) -> bool:
        """Merge one chunk (in chunk order: reproducible stopping); True when the SPRT decided."""
        nonlocal summaries, stats, done
        start, count, summs, st, _ = result
        summaries = [a.merge(b) for a, b in zip(summaries, summs)]
        stats = _merge_stats(stats, st)
        done += count
        if bar is not None:
            bar.update(count * len(arms))
        if sprt is None:
            return False
        m = sprt_metric
        verdicts = []
        for k, test in enumerate(sprt):
            if test is None:
                continue
            test.update(stats["n"], float(stats["dsum"][k, m]), float(stats["dsum2"][k, m]))
            verdicts.append(test.decision)
            log.append({"games": done, "arm": k, "llr": test.llr, "lower": test.lower,
                        "upper": test.upper, "estimate": test.estimate,
                        "decision": test.decision})
            if echo is not None:
                echo(f"games {done:>10,}  {arms[k].label}: LLR {test.llr:+.3f}  "
                     f"bounds [{test.lower:.3f}, {test.upper:.3f}]  "
                     f"difference {test.estimate:+.4f}"
                     + (f"  -> {test.decision}: " + sprt_sentence(test.decision, test.d, watched, test.estimate)
                        if test.decision else ""))
        return bool(verdicts) and all(v is not None for v in verdicts)

    # the finished chunks kept by an earlier try of this experiment (analysis.checkpoints)
    root = checkpoints.active()
    store = (checkpoints.GroupStore(root, checkpoints.group_key(game, arms, games, seed, chunks))
             if root is not None else None)
    kept = {}
    if store is not None:
        for s, c in chunks:
            r = store.load(s, c)
            if r is not None:
                kept[s] = r
    pending = sorted(kept)

    decided = False

    def merge_kept(before) -> bool:
        """Merge the kept chunks that come before game ``before`` (chunk order); True once
        the SPRT decided."""
        nonlocal decided
        while pending and pending[0] < before and not decided:
            decided = collect(kept[pending.pop(0)])
        return decided

    def collect_new(result) -> bool:
        nonlocal decided
        if merge_kept(result[0]):
            return True
        if store is not None:
            store.save(result)
        decided = collect(result)
        return decided

    try:
        # the engine of a single run (sim.runner.run_chunks): each chunk merged whole, Ctrl-C
        # and SIGTERM held until it is, the workers stopped on the way out
        args = (game.name, ctxs, arm_specs, players, seed)
        todo = [(*args, s, c) for s, c in chunks if s not in kept]
        stopped = failure = None
        if todo:
            stopped, failure = run_chunks(_play_arms, todo, jobs, backend, scheduler, collect_new,
                                          ordered=True)
        if stopped is None and failure is None:
            merge_kept(games + 1)
    finally:
        if bar is not None:
            bar.close()
    if failure is not None:
        raise failure            # a dead worker or a full disk: an error, as before
    partial = stopped is not None
    return summaries, stats, partial, log, done, chunks


def build_arms(game: Game, variants: list[tuple[str, dict]], bots, players, seed, games,
               swap: bool | None = None) -> tuple[list[Arm], list]:
    arms = []
    vlist = []
    for v, (name, rules) in enumerate(variants):
        spec = make_spec(game, games, rules, bots, players, seed)
        vlist.append((name, spec.rules_changed))
        arms.append(Arm(name, v, False, spec))
        two = spec.players == 2
        differ = two and spec.bots[0].label != spec.bots[1].label
        if (swap if swap is not None else differ) and two:
            sw = RunSpec(spec.game, spec.players, spec.rules, (spec.bots[1], spec.bots[0]),
                         spec.games, spec.seed, ctx=spec.ctx, data=spec.data)
            arms.append(Arm(f"{name} (seats swapped)", v, True, sw))
    names = [n for n, _ in variants]
    if len(set(names)) != len(names):
        raise UsageError("variant names must differ: " + ", ".join(names))
    return arms, vlist


def compare(game_name: str, variants: list[tuple[str, dict]], games, bots=None, players=None,
            seed=1, jobs=None, chunk_size=None, backend=None, scheduler=None, progress=None,
            sprt_d: float | None = None, sprt_metric: str = HEADLINE, alpha=0.05,
            beta=0.05, echo=None, kind="compare", headline: str | None = None,
            built: tuple | None = None) -> ExperimentResult:
    """Play every variant on the same seeds.  ``headline``: the metric the report leads with
    and measures the pairing on (default the first player score).  ``built``: what
    :func:`build_arms` returned for these variants, where the caller checked them already
    (their rules are then not prepared again)."""
    from .stats import SPRT
    game = get_game(game_name)
    n = parse_games(games)
    if len(variants) < (2 if kind == "compare" else 1):
        raise UsageError("sim compare needs at least two --variant (the first is the reference)")
    arms, vlist = built if built is not None else build_arms(game, variants, bots, players, seed, n)
    players = arms[0].spec.players
    names = metric_names(game, players)
    headline = headline or HEADLINE
    if headline not in names:
        raise UsageError(f"--metric must be one of: {', '.join(names)}")
    tests = None
    m_index = None
    if sprt_d is not None:
        if sprt_metric not in names:
            raise UsageError(f"--sprt-metric must be one of: {', '.join(names)}")
        m_index = names.index(sprt_metric)
        if not 0 < sprt_d < 1e6:
            raise UsageError("--sprt-d must be a positive difference")
        tests = [None if (a.variant == 0 or a.swapped) else
                 SPRT(sprt_d, alpha, beta, kind="paired") for a in arms]
    started = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    summaries, stats, partial, log, done, chunks = run_arms(
        game, arms, n, int(seed), jobs, chunk_size, backend, scheduler, progress, tests, m_index, echo)
    seconds = time.perf_counter() - t0
    from sim import __version__
    manifest = {
        "tool": "sim", "kind": kind, "sim_version": __version__, "game": game.name,
        "game_title": game.title, "game_version": game.version, "players": players,
        "seats": game.seat_names(players), "sides": game.side_labels(players),
        "side_of": game.sides(players), "teams": game.n_sides(players) < players,
        "variants": [{"name": k, "rules_changed": v} for k, v in vlist],
        "arms": [a.label for a in arms], "bots": [c.label for c in arms[0].spec.bots],
        "headline": headline, "end_reasons": {str(i): r for i, r in enumerate(game.end_reasons)},
        "seed": int(seed), "games_requested": n, "games_completed": done,
        "partial": partial, "stopped_by_sprt": bool(tests) and done < n and not partial,
        "sprt": ({"d": sprt_d, "alpha": alpha, "beta": beta, "metric": sprt_metric} if tests else None),
        "chunk_size": chunks[0][1] if chunks else 0, "metrics": names,
        "started": started.isoformat(timespec="seconds"), "seconds": round(seconds, 3),
        "machine": machine_info(),
    }
    return ExperimentResult(kind, game, arms, vlist, stats, summaries, manifest, partial,
                            tests, log)


def sweep_variants(game: Game, grid: list[tuple[str, list]], base: dict | None = None):
    """The variants of a sweep's grid, the reference first: the rulebook's value of every
    swept parameter (with the rules ``base`` holds fixed), where the grid holds it; where it
    does not, that combination is added as the reference (differences are measured from the
    rules as the rulebook has them, never from the first value of a range).  Returns the
    variants and ``{"label", "added"}`` of the reference."""
    base = dict(base or {})
    names = [k for k, _ in grid]
    clash = sorted(set(names) & {_canon_param(game, k) for k in base})
    if clash:
        raise UsageError(f"--set {clash[0]} and --param {clash[0]} are both given: a swept "
                         "parameter cannot also be held fixed")
    by_name = {p.name: p for p in game.params}

    def label(combo):
        return ",".join(f"{k}={_fmt(v)}" for k, v in zip(names, combo))

    combos = list(itertools.product(*[vals for _, vals in grid]))
    ref = tuple(by_name[k].parse(by_name[k].default) for k in names)
    at = next((i for i, c in enumerate(combos) if label(c) == label(ref)), None)
    added = at is None
    if added:
        combos.insert(0, ref)
    else:
        combos.insert(0, combos.pop(at))
    variants = [(label(c), {**base, **dict(zip(names, c))}) for c in combos]
    return variants, {"label": label(ref), "added": added}


def _canon_param(game: Game, key: str) -> str:
    key = str(key).strip().lower().replace("-", "_")
    return next((p.name for p in game.params if key == p.name or key in p.aliases), key)


def sweep(game_name: str, params: list[str], games, base: dict | None = None, **kw) -> ExperimentResult:
    """Every combination of the swept values on the same seeds, measured from the
    rulebook's values (:func:`sweep_variants`); ``base``: rules held fixed throughout."""
    game = get_game(game_name)
    grid = parse_sweep(params, game)
    variants, ref = sweep_variants(game, grid, base)
    res = compare(game_name, variants, games, kind="sweep", **kw)
    res.manifest["sweep"] = [{"param": k, "values": [_fmt(v) for v in vals]} for k, vals in grid]
    res.manifest["sweep_reference"] = ref
    return res


def _fmt(v) -> str:
    if isinstance(v, tuple):
        return ",".join(map(str, v))
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


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


def impact(game_name: str, card: str | None, mode: str | None, games, rules=None, workdir=None,
           metric: str | None = None, **kw):
    """Observational tallies of every card from a base run, and, with ``card``, the causal
    effect: the same seeds with that card removed (``mode="remove"``) or made neutral.

    ``card="all"``: one arm per card of ``game.card_names`` on the same seeds (cards that
    cannot be changed in this mode are listed as skipped).  ``mode=None``: the game's
    ``impact_default_mode``.  ``metric``: the headline metric (default the first player
    score)."""
    game = get_game(game_name)
    if not game.events:
        raise UsageError(f"{game.name} records no card or event draws, so it has no card impact")
    mode = mode or game.impact_default_mode
    if metric is not None:
        names = metric_names(game, game.check_players(kw.get("players")))
        if metric not in names:
            raise UsageError(f"--metric must be one of: {', '.join(names)}")
    if workdir is None and card is not None:  # the changed deck files live for the run only
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            return impact(game_name, card, mode, games, rules, tmp, metric, **kw)
    base_rules = dict(rules or {})
    variants = [("base", base_rules)]
    cards, skipped = [], []
    if card is not None:
        if game.card_rules is None:
            raise UsageError(f"{game.name} cannot remove cards from its deck (no card_rules)")
        if mode not in ("remove", "neutral"):
            raise UsageError(f"--mode must be remove or neutral, not {mode!r}")
        resolved = game.resolve_rules(base_rules)
        names = list(game.card_names(resolved)) if game.card_names else []
        if card == "all":
            if not names:
                raise UsageError(f"{game.name} with these rules has no cards to change")
            targets = names
        else:
            if names and card not in names:
                from sim.params import _suggest
                raise UsageError(f"unknown card '{card}' for {game.name}{_suggest(card, names)}; "
                                 f"known: {', '.join(names)} (or all)")
            targets = [card]
        for c in targets:
            try:
                changed = game.card_rules(resolved, c, mode, workdir)
            except UsageError as e:
                if card != "all":
                    raise
                skipped.append([c, str(e)])
                continue
            variants.append((f"{c} {'removed' if mode == 'remove' else 'neutral'}",
                             {**base_rules, **changed}))
            cards.append(c)
        if not cards:
            raise UsageError(f"no card of {game.name} can be changed with --mode {mode}")
    neutral = False
    if cards and mode == "remove":  # can the game keep the card and cancel its effect instead?
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            try:
                game.card_rules(resolved, cards[0], "neutral", tmp)
                neutral = True
            except UsageError:
                pass
    res = compare(game_name, variants, games, kind="impact", headline=metric, **kw)
    res.manifest["impact"] = {"card": card, "mode": mode, "cards": cards, "skipped": skipped,
                              "events": {c: game.event_of_card(c) for c in cards},
                              "neutral_supported": neutral or mode == "neutral"}
    return res
