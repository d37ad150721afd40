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


from sim.game import Game
from sim.games import get as get_game
from sim.params import UsageError, parse_assignments
from sim.parallel import check_backend, default_backend, logging_progress, plan_chunks, resolve_jobs, run_chunks
from sim.provenance import machine_info
from sim.runner import _progress_bar, plan_by_cost, seconds_per_game
from sim.spec import RunSpec, make_spec, parse_games
from sim.summary import Summary

from . import checkpoints
from .wording import sprt_sentence
from .experiment_metrics import HEADLINE, _merge_stats, _play_arms, metric_names


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
        game.play_chunk(ctx, players, seed, 0, 0, ids, par)  # compile once, here
    # the plan: where the SPRT looks and what the kept chunks are keyed by; the chunks played
    # are its pieces of about CHUNK_TARGET_S seconds where the bots are slow (sim.runner)
    looks = plan_chunks(games, chunk_size, jobs)
    summaries = [Summary(players) for _ in arms]
    stats = None
    partial = False
    log = []
    done = 0
    desc = f"{game.name} x{len(arms)} arms"

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
        if sprt is None or start + count not in look_ends:  # the SPRT looks at the plan's ends only
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
    store = (checkpoints.GroupStore(root, checkpoints.group_key(game, arms, games, seed, looks))
             if root is not None else None)
    look_ends = {s + c for s, c in looks}
    size = kept_chunk_size(store.dir) if store is not None else None
    cost = 0.0 if size is not None or chunk_size is not None else seconds_per_game(
        game, [(ctx, ids, par) for ctx, (ids, par, _) in zip(ctxs, arm_specs)], players, seed,
        max((c for _, c in looks), default=1), total=games, jobs=jobs)
    chunks, size = plan_by_cost(looks, chunk_size, cost, jobs, desc, bool(progress) or logging_progress(), size)
    bar = _progress_bar(games * len(arms), progress and echo is None, desc)
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
        # the engine of a single run (sim.parallel.run_chunks): each chunk merged whole, Ctrl-C
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
    return summaries, stats, partial, log, done, looks


def kept_chunk_size(folder, lo: int = 0, hi: int | None = None) -> int | None:
    """The size an earlier try of an experiment cut its chunks to, read from the names of the
    chunks it kept there (``START-COUNT.json``; those starting in ``lo .. hi - 1`` only, where
    its plan cut stretches apart): a resume plays the same pieces and finds them."""
    import os
    import re
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    counts = [int(m.group(2)) for m in (re.match(r"^(\d+)-(\d+)\.json$", n) for n in names)
              if m and lo <= int(m.group(1)) and (hi is None or int(m.group(1)) < hi)]
    return max(counts) if counts else None


def build_arms(game: Game, variants: list[tuple[str, dict]], bots, players, seed, games,
               swap: bool | None = None, evaluate: bool = False) -> tuple[list[Arm], list]:
    arms = []
    vlist = []
    for v, (name, rules) in enumerate(variants):
        spec = make_spec(game, games, rules, bots, players, seed, evaluate=evaluate)
        vlist.append((name, spec.rules_changed))
        arms.append(Arm(name, v, False, spec))
        two = spec.players == 2
        differ = two and spec.bots[0].label != spec.bots[1].label
        if (swap if swap is not None else differ) and two:
            sw = RunSpec(spec.game, spec.players, spec.rules, (spec.bots[1], spec.bots[0]),
                         spec.games, spec.seed, ctx=spec.ctx, data=spec.data, model=spec.model,
                         evaluate=spec.evaluate)
            arms.append(Arm(f"{name} (seats swapped)", v, True, sw))
    names = [n for n, _ in variants]
    if len(set(names)) != len(names):
        raise UsageError("variant names must differ: " + ", ".join(names))
    return arms, vlist


def compare(game_name: str, variants: list[tuple[str, dict]], games, bots=None, players=None,
            seed=1, jobs=None, chunk_size=None, backend=None, scheduler=None, progress=None,
            sprt_d: float | None = None, sprt_metric: str = HEADLINE, alpha=0.05,
            beta=0.05, echo=None, kind="compare", headline: str | None = None,
            built: tuple | None = None, evaluate: bool = False) -> ExperimentResult:
    """Play every variant on the same seeds.  ``headline``: the metric the report leads with
    and measures the pairing on (default the first player score).  ``built``: what
    :func:`build_arms` returned for these variants, where the caller checked them already
    (their rules are then not prepared again)."""
    from .sprt import SPRT
    game = get_game(game_name)
    n = parse_games(games)
    if len(variants) < (2 if kind == "compare" else 1):
        raise UsageError("sim compare needs at least two --variant (the first is the reference)")
    arms, vlist = built if built is not None else build_arms(game, variants, bots, players, seed, n,
                                                             evaluate=evaluate)
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
    models = {a.variant: a.spec.model for a in arms if a.spec.model}  # leaf=model: each variant's own
    manifest = {
        "tool": "sim", "kind": kind, "sim_version": __version__, "game": game.name,
        "game_title": game.title, "game_version": game.version, "players": players,
        "seats": game.seat_names(players), "sides": game.side_labels(players),
        "side_of": game.sides(players), "teams": game.n_sides(players) < players,
        "variants": [{"name": k, "rules_changed": v, **({"model": models[i]} if i in models else {})}
                     for i, (k, v) in enumerate(vlist)],
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
    clash = sorted(set(names) & {game.param_name(k) for k in base})
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


# ------------------------------------------------------- whether the change came into play
#: a change that came into play in fewer than this share of the games is called rarely exercised
RARELY = 0.25


def _words(name: str) -> set:
    return {w[:-1] if w.endswith("s") else w for w in str(name).lower().split("_") if w and not w.isdigit()}


def changed_params(game: Game, ref: dict, var: dict) -> dict:
    """The parameters two variants (their changes from the rulebook) set differently, with
    the variant's value (the rulebook's where only the reference changes it)."""
    by_name = {p.name: p for p in game.params}
    out = {}
    for k in dict.fromkeys([*ref, *var]):
        default = by_name[k].default if k in by_name else None
        a, b = ref.get(k, default), var.get(k, default)
        if _fmt(a) != _fmt(b):
            out[k] = b if k in var else a
    return out


def relevant_events(game: Game, changed: dict) -> list[str]:
    """The declared events (``Game.events``) a rule change bears on: an event whose name
    shares a word with a changed parameter's (Batam's compass -> compass_*, pirate_fee ->
    compass_pirate; Balam's ball_games -> katun_ball_game), and, for a parameter naming cards
    (Batam's neutral=pirate_0), the event of each card named (:meth:`Game.event_of_card`)."""
    out = []
    for name, value in changed.items():
        words = _words(name)
        out += [e for e in game.events if words & _words(e)]
        for label in (value if isinstance(value, tuple) else str(value).split(",")):
            e = game.event_of_card(str(label).strip()) if game.events else None
            if e:
                out.append(e)
    return list(dict.fromkeys(e for e in game.events if e in out))


def exercise(res) -> list[dict]:
    """For every variant against the reference (the first seating of each): how often the
    change came into play.  ``differ``: the share of paired games that played out
    differently at all (any recorded column; an identical game is one the change did nothing
    to: an upper bound, since a change may also move the chance streams); ``events`` and
    ``event_share``: the declared events the change bears on and the share of games in which
    one happened in the variant's game or the reference's (``event_exact`` False: a lower
    bound, the largest single event's); ``came_into_play``: the smaller of the two; and the
    headline's paired difference over the games that played out differently (the others add
    exactly 0 to every paired sum)."""
    from .stats import paired_mean_diff
    st = res.stats or {}
    if "differ" not in st or not st.get("n"):
        return []
    n = int(st["n"])
    names = res.manifest["metrics"]
    key = res.manifest.get("headline") or HEADLINE
    m = names.index(key) if key in names else 0
    ref_rules = res.variants[0][1]
    out = []
    for k, a in enumerate(res.arms):
        if a.swapped or a.variant == 0:
            continue
        name, rules = res.variants[a.variant]
        nd = int(st["differ"][k])
        row = {"variant": name, "arm": k, "games": n, "differ_games": nd, "differ": nd / n,
               "events": [], "event_share": float("nan"), "event_exact": True, "metric": key}
        evs = relevant_events(res.game, changed_params(res.game, ref_rules, rules))
        if evs and "event_either" in st:
            idx = [list(res.game.events).index(e) for e in evs]
            if len(idx) == len(res.game.events) and "any_event_either" in st:
                row["event_share"] = int(st["any_event_either"][k]) / n
            else:
                row["event_share"] = max(int(st["event_either"][k][i]) for i in idx) / n
                row["event_exact"] = len(idx) == 1
            row["events"] = evs
        share = row["differ"]
        if row["event_share"] == row["event_share"]:
            share = min(share, row["event_share"])
        row["came_into_play"] = share
        d = paired_mean_diff(max(nd, 1), float(st["dsum"][k, m]), float(st["dsum2"][k, m])) if nd else None
        row["changed"] = None if d is None else (float(d["mean"]), float(d["lo"]), float(d["hi"]))
        whole = paired_mean_diff(n, float(st["dsum"][k, m]), float(st["dsum2"][k, m]))
        row["overall"] = (float(whole["mean"]), float(whole["lo"]), float(whole["hi"]))
        out.append(row)
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def exercise_lines(res) -> list[str]:
    """How often each variant's change came into play, in words, and a warning where it did
    in only a small share of the games (under :data:`RARELY`): a difference near 0 over all
    the games then says little about the rule itself, so the headline's difference over the
    games it changed is given, and a 'no difference' verdict (:func:`analysis.wording.size_of`
    of the headline) is named as such."""
    from .wording import size_of
    rows = exercise(res)
    base = res.variants[0][0]
    lines = []
    many = len(rows) > 3
    if many:  # a sweep of many values: the range, then only the rarely exercised
        lo, hi = min(r["came_into_play"] for r in rows), max(r["came_into_play"] for r in rows)
        lines.append(f"Against '{base}', the changes came into play in {_pct(lo)} to {_pct(hi)} of the games "
                     "(games that played out differently" + (", or had an event they bear on" if any(
                         r["events"] for r in rows) else "") + ").")
    rate = bool(rows) and (rows[0]["metric"] in (HEADLINE, "first player wins", "decisive", "no winner", "capped")
                           or rows[0]["metric"].startswith("win "))
    rare = [r for r in rows if r["differ_games"] and r["came_into_play"] < RARELY]
    if many and len(rare) > 3:  # one warning for them all
        lines.append(f"Warning: {len(rare)} of the {len(rows)} variants came into play in under {_pct(RARELY)} of "
                     "the games (" + ", ".join(f"'{r['variant']}' {_pct(r['came_into_play'])}" for r in rare[:8])
                     + (", ..." if len(rare) > 8 else "") + "): a difference near 0 over all the games says little "
                     "about those rules themselves; they are rarely exercised with these bots and rules.")
        rows = [r for r in rows if r not in rare]
    for r in rows:
        v = r["variant"]
        if r["differ_games"] == 0:
            lines.append(f"'{v}' against '{base}': no paired game played out differently: on these seeds, with "
                         "these bots, the change did nothing.")
            continue
        ev = ""
        if r["events"]:
            what = (r["events"][0] if len(r["events"]) == 1 else
                    ", ".join(r["events"][:-1]) + " or " + r["events"][-1])
            ev = (f"; {'' if r['event_exact'] else 'at least '}{_pct(r['event_share'])} had an event it bears "
                  f"on ({what}) in either variant")
        text = (f"'{v}' against '{base}': the change came into play in {_pct(r['came_into_play'])} of the games: "
                f"{r['differ_games']:,} of {r['games']:,} ({_pct(r['differ'])}) played out differently, the other "
                f"{r['games'] - r['differ_games']:,} identically (there it changed nothing){ev}.")
        if not many:
            lines.append(text)
        if r["came_into_play"] < RARELY:
            o = r["overall"]
            kind = size_of(*(100 * x for x in o)) if rate else None
            said = {"none": "'no change that matters' over all the games", "unclear": "'no change this run can "
                    "detect' over all the games", "negligible": "a negligible change over all the games"}.get(
                        kind, "a difference over all the games")
            c = r["changed"]
            scale, unit = (100.0, " points") if rate else (1.0, "")
            among = (f" Over the {r['differ_games']:,} games that played out differently, {r['metric']} moved by "
                     f"{scale * c[0]:+.1f}{unit} (95% interval {scale * c[1]:+.1f} to {scale * c[2]:+.1f}).")
            lines.append(f"Warning: '{v}' came into play in only {_pct(r['came_into_play'])} of the games, so "
                         f"{said} says little about the rule itself: it is rarely exercised with these bots "
                         f"and rules.{among}")
    return lines
