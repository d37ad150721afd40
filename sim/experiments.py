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
import math
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np

from .game import Game
from .games import get as get_game
from .params import UsageError, parse_assignments
from .runner import (RunSpec, _progress_bar, check_backend, machine_info, make_spec, parse_games, plan_chunks,
                     resolve_jobs, run_tasks)
from .summary import Summary


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
def metric_names(game: Game, players: int) -> list[str]:
    names = ["first player wins"] + [f"win {s}" for s in range(players)]
    names += ["no winner", "capped", game.length]
    for h in game.highlight:
        names += [f"{h} {s}" for s in range(players)]
    return names


def per_game_metrics(game: Game, players: int, cols: dict) -> np.ndarray:
    """(metrics, games) matrix of the per-game values behind :func:`metric_names`."""
    win = np.asarray(cols["win"], np.float64).reshape(-1, players)
    n = win.shape[0]
    first = np.asarray(cols["first_player"], np.int64)
    rows = [win[np.arange(n), first]]
    rows += [win[:, s] for s in range(players)]
    rows += [(win.sum(axis=1) == 0).astype(np.float64), np.asarray(cols["capped"], np.float64),
             np.asarray(cols[game.length], np.float64)]
    for h in game.highlight:
        a = np.asarray(cols[h], np.float64).reshape(-1, players)
        rows += [a[:, s] for s in range(players)]
    return np.vstack(rows) if rows else np.zeros((0, n))


def _play_arms(game_name, ctxs, arm_specs, players, seed, start, count):
    """Worker task: one chunk of every arm, reduced to sufficient statistics."""
    game = get_game(game_name)
    t0 = time.perf_counter()
    vals, summaries, scores = [], [], []
    for ctx, (ids, par, swapped) in zip(ctxs, arm_specs):
        cols = game.run_chunk(ctx, players, seed, start, count, ids, par)
        summaries.append(Summary.from_columns(game, players, cols))
        vals.append(per_game_metrics(game, players, cols))
        win = np.asarray(cols["win"], np.float64).reshape(-1, players)
        # score of the bot first named for seat 0 (draws count half)
        seat = 1 if swapped else 0
        scores.append(win[:, seat] + 0.5 * (win.sum(axis=1) == 0))
    V = np.stack(vals)                      # (arms, metrics, games)
    stats = {"n": count, "sum": V.sum(axis=2), "sum2": (V * V).sum(axis=2)}
    D = V - V[0:1]                          # paired differences against arm 0
    stats["dsum"] = D.sum(axis=2)
    stats["dsum2"] = (D * D).sum(axis=2)
    # pentanomial counts for consecutive (normal, swapped) arms
    pent = []
    for a in range(0, len(arm_specs) - 1, 2):
        if arm_specs[a][2] is False and arm_specs[a + 1][2] is True:
            pts = np.rint((scores[a] + scores[a + 1]) * 2).astype(np.int64)  # 0..4 half points
            pent.append(np.bincount(pts, minlength=5)[:5])
    stats["pent"] = np.array(pent, np.int64).reshape(-1, 5)
    return start, count, summaries, stats, time.perf_counter() - t0


def _merge_stats(a, b):
    if a is None:
        return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in b.items()}
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
    import tomllib
    from pathlib import Path
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise UsageError(f"--variants {path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"--variants {path}: not valid TOML ({e})") from None
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
    """``track=7..15``, ``track=7..15:2``, ``exit=any,pile`` -> [(param, [values])]; several = grid."""
    out = []
    by_name = {p.name: p for p in game.params}
    for item in items:
        if "=" not in item:
            raise UsageError(f"--param takes NAME=RANGE or NAME=V1,V2,..., not {item!r}")
        name, spec = (x.strip() for x in item.split("=", 1))
        if name not in by_name:
            game.resolve_rules({name: None})  # raises the usual "unknown parameter" error
        p = by_name[name]
        if ".." in spec:
            lo, _, rest = spec.partition("..")
            hi, _, step = rest.partition(":")
            try:
                lo_v, hi_v = float(lo), float(hi)
                st = float(step) if step else 1.0
            except ValueError:
                raise UsageError(f"--param {item!r}: a range is LO..HI or LO..HI:STEP") from None
            if st <= 0 or hi_v < lo_v:
                raise UsageError(f"--param {item!r}: the range is empty")
            k = int(math.floor((hi_v - lo_v) / st + 1e-9)) + 1
            vals = [lo_v + i * st for i in range(k)]
            if p.kind == "int":
                vals = [int(round(v)) for v in vals]
        else:
            vals = [v.strip() for v in spec.split(",") if v.strip()]
        vals = [p.parse(v) for v in vals]
        if not vals:
            raise UsageError(f"--param {item!r} has no values")
        out.append((name, vals))
    if not out:
        raise UsageError("sim sweep needs at least one --param NAME=RANGE")
    return out


# ------------------------------------------------------------------------ the engine
def run_arms(game: Game, arms: list[Arm], games: int, seed: int, jobs=None, chunk_size=None,
             backend=None, scheduler=None, progress=None, sprt=None, sprt_metric=None,
             echo=None) -> tuple:
    """Play every arm on the same games; returns (summaries, stats, partial, sprt_log, games_done)."""
    jobs = resolve_jobs(jobs)
    backend = backend or ("sequential" if jobs == 1 else "loky")
    check_backend(backend)
    if progress is None:
        progress = sys.stderr.isatty()
    players = arms[0].spec.players
    ctxs = [game.prepare(a.spec.rules, players) for a in arms]
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
    results = None
    try:
        args = (game.name, ctxs, arm_specs, players, seed)
        results = run_tasks(_play_arms, [(*args, s, c) for s, c in chunks], jobs, backend,
                            scheduler, ordered=True)
        for start, count, summs, st, _ in results:  # in chunk order: reproducible stopping
            summaries = [a.merge(b) for a, b in zip(summaries, summs)]
            stats = _merge_stats(stats, st)
            done += count
            if bar is not None:
                bar.update(count * len(arms))
            if sprt is not None:
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
                             + (f"  -> {test.decision}" if test.decision else ""))
                if verdicts and all(v is not None for v in verdicts):
                    break
    except KeyboardInterrupt:
        partial = True
    finally:
        if results is not None:
            results.close()  # an SPRT that decided early stops the remaining chunks
        if bar is not None:
            bar.close()
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
                         spec.games, spec.seed)
            arms.append(Arm(f"{name} (seats swapped)", v, True, sw))
    names = [n for n, _ in variants]
    if len(set(names)) != len(names):
        raise UsageError("variant names must differ: " + ", ".join(names))
    return arms, vlist


def compare(game_name: str, variants: list[tuple[str, dict]], games, bots=None, players=None,
            seed=1, jobs=None, chunk_size=None, backend=None, scheduler=None, progress=None,
            sprt_d: float | None = None, sprt_metric: str = "first player wins", alpha=0.05,
            beta=0.05, echo=None, kind="compare") -> ExperimentResult:
    from analysis.stats import SPRT
    game = get_game(game_name)
    n = parse_games(games)
    if len(variants) < (2 if kind == "compare" else 1):
        raise UsageError("sim compare needs at least two --variant (the first is the reference)")
    arms, vlist = build_arms(game, variants, bots, players, seed, n)
    players = arms[0].spec.players
    names = metric_names(game, players)
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
    from . import __version__
    manifest = {
        "tool": "sim", "kind": kind, "sim_version": __version__, "game": game.name,
        "game_title": game.title, "game_version": game.version, "players": players,
        "seats": game.seat_names(players), "variants": [{"name": k, "rules_changed": v} for k, v in vlist],
        "arms": [a.label for a in arms], "bots": [c.label for c in arms[0].spec.bots],
        "seed": int(seed), "games_requested": n, "games_completed": done,
        "partial": partial, "stopped_by_sprt": bool(tests) and done < n and not partial,
        "sprt": ({"d": sprt_d, "alpha": alpha, "beta": beta, "metric": sprt_metric} if tests else None),
        "chunk_size": chunks[0][1] if chunks else 0, "metrics": names,
        "started": started.isoformat(timespec="seconds"), "seconds": round(seconds, 3),
        "machine": machine_info(),
    }
    return ExperimentResult(kind, game, arms, vlist, stats, summaries, manifest, partial,
                            tests, log)


def sweep(game_name: str, params: list[str], games, **kw) -> ExperimentResult:
    game = get_game(game_name)
    grid = parse_sweep(params, game)
    names = [g[0] for g in grid]
    variants = []
    for combo in itertools.product(*[g[1] for g in grid]):
        label = ",".join(f"{k}={_fmt(v)}" for k, v in zip(names, combo))
        variants.append((label, dict(zip(names, combo))))
    res = compare(game_name, variants, games, kind="sweep", **kw)
    res.manifest["sweep"] = [{"param": k, "values": [_fmt(v) for v in vals]} for k, vals in grid]
    return res


def _fmt(v) -> str:
    if isinstance(v, tuple):
        return ",".join(map(str, v))
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def skill(game_name: str, bots: list[str], games, players=None, seed=1, rules=None, jobs=None,
          chunk_size=None, backend=None, scheduler=None, progress=None) -> dict:
    """Round robin of bots in every seat on the same seeds: win matrix and ratings.

    Two players: every ordered pair (A in seat 0, B in seat 1), A != B.  More players: one
    bot A in each seat in turn, the others all B; the game counts for the pair as a win for
    A when A's win share beats the B seats' average, a loss when it is below, half otherwise.
    """
    from analysis.stats import bradley_terry
    game = get_game(game_name)
    n = parse_games(games)
    if len(bots) < 2:
        raise UsageError("sim skill needs at least two bots")
    p = game.check_players(players)
    for b in bots:
        game.choose_bots(b, p)  # validates names and settings
    names = list(bots)
    k = len(names)
    wins = np.zeros((k, k))
    played = np.zeros((k, k))
    summaries = {}
    for i, j in itertools.permutations(range(k), 2):
        for seat in range(p if p > 2 else 1):
            seats = [names[j]] * p
            seats[seat] = names[i]
            spec = make_spec(game, n, rules, seats, p, seed)
            arm = Arm(f"{names[i]} in seat {seat} vs {names[j]}", 0, False, spec)
            summs, _, partial, _, done, _ = run_arms(game, [arm], n, int(seed), jobs, chunk_size,
                                                    backend, scheduler, progress)
            S = summs[0]
            summaries[(i, j, seat)] = S
            if p == 2:
                a_share = S.win[0]
                b_share = S.win[1]
                nowin = S.no_winner
                wins[i, j] += a_share + 0.5 * nowin
                wins[j, i] += b_share + 0.5 * nowin
                played[i, j] += S.n
                played[j, i] += S.n
            else:
                # per-game comparison needs rows: approximate from sums of shares
                a_rate = S.win[seat] / S.n
                b_rate = (S.win.sum() - S.win[seat]) / (p - 1) / S.n
                score = 0.5 + 0.5 * (a_rate - b_rate) / max(a_rate + b_rate, 1e-12)
                wins[i, j] += score * S.n
                wins[j, i] += (1 - score) * S.n
                played[i, j] += S.n
                played[j, i] += S.n
    bt = bradley_terry(wins, played, prior=0.5)
    return {"game": game, "bots": names, "players": p, "wins": wins, "games": played, "bt": bt,
            "summaries": summaries, "rules": rules or {}}


def impact(game_name: str, card: str | None, mode: str, games, rules=None, workdir=None, **kw):
    """Observational tallies of every card from a base run, and, with ``card``, the causal
    effect: the same seeds with that card removed (``mode="remove"``) or made neutral."""
    game = get_game(game_name)
    if not game.events:
        raise UsageError(f"{game.name} records no card or event draws, so it has no card impact")
    base_rules = dict(rules or {})
    variants = [("base", base_rules)]
    if card is not None:
        if game.card_rules is None:
            raise UsageError(f"{game.name} cannot remove cards from its deck (no card_rules)")
        resolved = game.resolve_rules(base_rules)
        names = list(game.card_names(resolved)) if game.card_names else []
        if names and card not in names:
            from .params import _suggest
            raise UsageError(f"unknown card '{card}' for {game.name}{_suggest(card, names)}; "
                             f"known: {', '.join(names)}")
        if mode not in ("remove", "neutral"):
            raise UsageError(f"--mode must be remove or neutral, not {mode!r}")
        changed = game.card_rules(resolved, card, mode, workdir)
        variants.append((f"{card} {'removed' if mode == 'remove' else 'neutral'}",
                         {**base_rules, **changed}))
    return compare(game_name, variants, games, kind="impact", **kw)
