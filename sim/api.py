"""The Python API: the ``sim`` commands as functions, for notebooks and scripts.

    >>> import sim
    >>> run = sim.run("puluc", games=20_000, rules={"track": 9}, bots=("greedy", "random"))
    >>> run.summary["first_player"], run.verdicts[0]
    >>> sim.compare("puluc", {"base": {}, "nine": {"track": 9}}, games=20_000).verdicts

Each function takes the options of its command as keyword arguments (``games``, ``rules``
for ``--set``, ``bots``, ``players``, ``seed``, ``jobs``, ``chunk_size``, ``backend``,
``scheduler``), checks them as the command does (bad input raises the
:class:`sim.params.UsageError` the command reports, with the same message), plays through
the same library functions, and returns a typed result (:mod:`sim.results_api`) with
``frame``, ``summary``, ``verdicts`` and ``write_report(path)``.  Nothing is printed, no
progress bar is drawn (``progress=True`` draws one) and no file is written unless ``out=``
names a folder for the report.

This module sits above the core and the analysis layer, as the command line does
(docs/ARCHITECTURE.md): it imports the analysis modules inside its functions only, so
``import sim`` stays fast.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from .params import UsageError
from .results_api import (CompareResult, ImpactResult, LadderResult, RobustResult, RunResult, ShowResult,
                          SkillResult, SweepResult, TuneResult)

__all__ = ["simulate", "compare", "sweep", "skill", "ladder", "impact", "robust", "tune", "show"]


# ------------------------------------------------------------------ shared checks
def _check_run(jobs, chunk_size, backend, scheduler, note=None) -> tuple[int, int | None]:
    """The checks every command shares (the command line's too): chunk size, backend, a Dask
    scheduler that answers (before anything is written), the jobs (more than the cores:
    clamped, ``note`` told why)."""
    from .validate import check_backend, check_chunk_size, check_jobs, probe_scheduler
    chunk_size = check_chunk_size(chunk_size)
    check_backend(backend, scheduler)
    if scheduler is not None:
        probe_scheduler(scheduler)
    return check_jobs(0 if jobs is None else jobs, note), chunk_size


def _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler, note=None):
    """The options every experiment shares, checked as a run checks them (the command
    line's too): (jobs, chunk size, games, seed, players)."""
    from .runner import parse_games, parse_seed
    from .validate import check_chunk_count
    jobs, chunk_size = _check_run(jobs, chunk_size, backend, scheduler, note)
    n = parse_games(games)
    check_chunk_count(n, chunk_size)
    s = parse_seed(seed)
    p = g.check_players(players)
    g.choose_bots(bots, p)
    return jobs, chunk_size, n, s, p


def _out(out, kind: str):
    """``out=``, checked before anything is played (``None``: no report)."""
    if out is None:
        return None
    from .validate import check_out_dir
    if not str(out).strip():
        raise UsageError("--out: the path is empty")
    return check_out_dir(Path(out), kind)


def _finish(res, out):
    """Write the report into ``out`` (checked by :func:`_out` before the games were played)."""
    if out is not None:
        from .validate import create_out_dir
        res._write(create_out_dir(out)[0])
    return res


def _bot_list(bots) -> list[str] | None:
    """``"search:depth=1,greedy"`` or ``["search:depth=1", "greedy"]`` -> one name per bot."""
    from .game import _split_bots
    if bots is None:
        return None
    names = _split_bots(bots) if isinstance(bots, str) else [str(b) for b in bots]
    return [b.strip() for b in names]


def _variants(variants, variants_file=None) -> list[tuple[str, dict]]:
    """Variants as ``{name: rules}``, ``[(name, rules)]`` or ``["NAME:PARAM=VALUE,..."]`` (a
    rules value may also be ``"PARAM=VALUE,..."``), then those of a TOML file, in order."""
    from analysis.experiment_runs import load_variants_file, parse_variant

    from . import toml as TOML
    items = list(variants.items()) if isinstance(variants, Mapping) else (
        [variants] if isinstance(variants, str) else list(variants or []))
    out = []
    for v in items:
        if isinstance(v, str):
            out.append(parse_variant(v))
            continue
        name, rules = v
        if rules is None or isinstance(rules, str):
            out.append(parse_variant(f"{name}:{rules or ''}"))
        else:
            out.append((str(name).strip(), dict(rules)))
    if variants_file is not None:
        TOML.load(variants_file, "--variants")  # a regular, small, UTF-8, sane TOML file
        out += load_variants_file(variants_file)
    return out


def _check_arms(g, variants, bots, players, seed, n, labels=True):
    """Every variant's name, rules, data files and bots (``sim.commands.common._check_arms``)."""
    from analysis.experiment_runs import build_arms

    from .validate import check_variant_name
    for name, _ in variants:
        check_variant_name(name, label=labels)
    return build_arms(g, variants, bots, players, seed, n)


def _items(spec, join: str = "=") -> list[str]:
    """``["track=7..15"]`` as it is, or ``{"track": "7..15"}`` / ``{"track": [7, 9]}`` as
    ``NAME=VALUE`` items (a value starting with ``<=``, ``>=`` or ``=`` is joined as it is)."""
    if isinstance(spec, str):
        return [spec]
    if not isinstance(spec, Mapping):
        return [str(x) for x in spec or []]
    out = []
    for k, v in spec.items():
        if isinstance(v, (list, tuple)):
            v = ",".join(str(x) for x in v)
        v = str(v)
        out.append(f"{k}{v}" if v.startswith(("<=", ">=", "=")) else f"{k}{join}{v}")
    return out


def _canonical_rules(g, rules) -> dict:
    """``rules`` with every key the declared parameter name (aliases resolved)."""
    return {next((q.name for q in g.params if str(k).strip().lower().replace("-", "_") in (q.name, *q.aliases)),
                 k): v for k, v in dict(rules or {}).items()}


def _echo(progress: bool):
    return (lambda line: print(line, file=sys.stderr)) if progress else None


def _manifest(kind, game, players, seed, rules, bots, games, partial) -> dict:
    """What a skill or ladder folder's ``manifest.json`` says was played (without the machine)."""
    from . import __version__
    return {"tool": "sim", "sim_version": __version__, "kind": kind, "game": game.name, "game_title": game.title,
            "game_version": game.version, "players": players, "seats": game.seat_names(players),
            "rules_changed": dict(rules or {}), "bots": list(bots), "seed": seed, "games_each": games,
            "partial": bool(partial)}


def _experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial):
    """``manifest.json`` of a skill or ladder folder (``sim.commands.common._experiment_manifest``)."""
    from .output import write_experiment_manifest
    files = sorted(f.name for f in Path(out_dir).iterdir() if f.is_file() and f.name != "manifest.json")
    write_experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, files, None)


# --------------------------------------------------------------------------- a run
def named_frame(game, players: int, raw):
    """The engine's frame with the per-seat columns named after the seats (``win_0`` ->
    ``win_Jade``), ``end_reason`` a Categorical of ``game.end_reasons`` and ``capped`` bool."""
    import pandas as pd

    from .results import seat_column
    seats = list(game.seat_names(players))
    names = {seat_column(c.name, s): f"{c.name}_{seats[s]}"
             for c in game.all_columns() if c.per_seat for s in range(players)}
    df = raw.rename(columns=names)
    df["end_reason"] = pd.Categorical.from_codes(raw["end_reason"].to_numpy().astype("int64"),
                                                 categories=list(game.end_reasons))
    df["capped"] = raw["capped"].astype(bool)
    df.attrs = {}
    return df


def _run_summary(s: dict, manifest: dict, game) -> dict:
    """The headline figures of :func:`analysis.report.summarize`, flat."""
    f, o, L = s["first"], s["outcomes"], s["length"]
    out = {"game": game.name, "players": manifest["players"], "games": int(o["games"]),
           "bots": list(manifest["bots"]), "seed": manifest["seed"],
           "first_player": f["rate"], "first_player_lo": f["lo"], "first_player_hi": f["hi"],
           "fair_share": f["fair"], "first_player_advantage": f["advantage"]}
    for _, r in (s["sides"] if s["teams"] else s["seats"]).iterrows():
        out[f"win_{r['name']}"] = r["rate"]
    out.update({"decisive": o["decisive_rate"], "no_winner": o["no_winner_rate"],
                "capped": o["capped_rate"], "balance": s["balance"], "length_mean": L["mean"],
                "length_median": L["median"], "length_unit": game.length_unit})
    return {k: v.item() if hasattr(v, "item") else v for k, v in out.items()}  # numpy scalars: plain numbers


def simulate(game: str, games=100_000, *, rules: dict | None = None, bots=None, players: int | None = None,
             seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
             scheduler: str | None = None, progress: bool = False, out=None) -> RunResult:
    """Play ``games`` games (``sim GAME``) and return every game and the run's figures.

    Parameters
    ----------
    game : str
        ``puluc``, ``maya``, ``batam`` or ``balam`` (``sim games``).
    games : int or str
        Number of games (``1e5``, ``250_000``).
    rules : dict, optional
        Rule parameters to change (``--set``; ``sim rules GAME`` lists them).
    bots : str or sequence of str, optional
        One bot per seat (or one for every seat), with settings: ``"search:depth=1,greedy"``.
    players : int, optional
        Number of players (the game's default).
    seed : int
        Master seed: game *i* depends on (seed, i) only.
    jobs, chunk_size, backend, scheduler
        Where the games are played (results do not depend on them); ``jobs=None``: all cores.
    progress : bool
        Draw a progress bar (on stderr).
    out : path, optional
        Also write the run's report into this folder (as ``--out``).

    Returns
    -------
    RunResult
        ``frame`` (one row per game, seats by name), ``raw``, ``summary``, ``verdicts``,
        ``manifest``, ``stats``; ``write_report(path)``.

    Examples
    --------
    >>> run = simulate("puluc", 20_000, rules={"track": 9}, bots=("greedy", "random"))
    >>> run.frame.groupby("end_reason", observed=True)["casts"].mean()
    """
    from .runner import execute, make_spec
    from .validate import check_chunk_count
    jobs, chunk_size = _check_run(jobs, chunk_size, backend, scheduler)
    spec = make_spec(game, games, rules, bots, players, seed)
    check_chunk_count(spec.games, chunk_size)
    out = _out(out, "run")
    result = execute(spec, jobs=jobs, chunk_size=chunk_size, backend=backend, progress=progress,
                     rows="memory", scheduler=scheduler)
    from analysis.report import headline, summarize
    g, m = spec.game, result.manifest
    s = summarize(result.summary, m, g)

    def write(out_dir):
        from analysis.report import write_run_report

        from .lock import RunLock
        from .output import save_run
        with RunLock(out_dir):
            return save_run(result, out_dir, report=write_run_report)["report"]

    return _finish(RunResult(game=g.name, frame=named_frame(g, spec.players, result.frame), raw=result.frame,
                             summary=_run_summary(s, m, g), verdicts=headline(s, m, g), manifest=m,
                             partial=result.partial, stats=result.summary, result=result, _write=write), out)


# ------------------------------------------------------------------- experiments
def _compare_result(cls, res, **extra):
    from analysis.experiment_report import compare_headline, compare_table, headline_key, write_compare_report
    tab = compare_table(res)
    keys = [headline_key(res), "no winner", "capped", res.game.length]
    summary = tab[tab["key"].isin(keys)][["key", "metric", "variant", "value", "lo", "hi", "diff", "diff_lo",
                                          "diff_hi", "p"]].reset_index(drop=True)
    return cls(game=res.game.name, frame=tab, summary=summary, verdicts=compare_headline(res, tab),
               manifest=res.manifest, partial=res.partial, result=res, variants=list(res.variants),
               _write=lambda out_dir: write_compare_report(res, out_dir), **extra)


def compare(game: str, variants, *, variants_file=None, games=100_000, bots=None, players: int | None = None,
            seed=1, sprt: bool = False, sprt_d: float = 0.02, sprt_metric: str = "first player score",
            alpha: float = 0.05, beta: float = 0.05, jobs: int | None = None, chunk_size: int | None = None,
            backend: str | None = None, scheduler: str | None = None, progress: bool = False,
            out=None) -> CompareResult:
    """Compare rule variants on the same seeds (``sim compare``): paired differences.

    Parameters
    ----------
    variants : dict or sequence
        ``{"base": {}, "nine": {"track": 9}}``, ``[("base", {}), ...]`` or the command's
        ``["base:", "nine:track=9"]``; the first is the reference.
    variants_file : path, optional
        A TOML file of ``[variants.NAME]`` tables (``--variants``), added after ``variants``.
    sprt, sprt_d, sprt_metric, alpha, beta
        Stop as soon as a sequential test decides (``--sprt``...).
    games, bots, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per variant).

    Returns
    -------
    CompareResult
        ``frame``: one row per (metric, variant), with ``diff``, ``diff_lo``, ``diff_hi``, ``p``.

    Examples
    --------
    >>> res = compare("puluc", {"base": {}, "nine": {"track": 9}}, games=20_000)
    >>> res.summary[res.summary["variant"] == "nine"]
    """
    import math

    from analysis.experiment_runs import compare as play, metric_names

    from .games import get as get_game
    from .validate import GRID_MAX
    g = get_game(game)
    jobs, chunk_size, n, seed_v, _ = _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    vs = _variants(variants, variants_file)
    if len(vs) < 2:
        raise UsageError("sim compare needs at least two --variant (the first is the reference)")
    if len(vs) > GRID_MAX:
        raise UsageError(f"{len(vs):,} variants: a comparison plays at most {GRID_MAX:,}, as a sweep "
                         f"does (split them over several)")
    if not 0 < alpha < 0.5 or not 0 < beta < 0.5:
        raise UsageError("--alpha and --beta must be between 0 and 0.5")
    built = _check_arms(g, vs, bots, players, seed_v, n)
    if sprt:
        names = metric_names(g, built[0][0].spec.players)
        if sprt_metric not in names:
            raise UsageError(f"--sprt-metric must be one of: {', '.join(names)}")
        if not (math.isfinite(sprt_d) and 0 < sprt_d < 1e6):
            raise UsageError("--sprt-d must be a positive difference")
    out = _out(out, "experiment")
    res = play(g.name, vs, n, bots=bots, players=players, seed=seed_v, jobs=jobs, chunk_size=chunk_size,
               backend=backend, scheduler=scheduler, progress=progress and not sprt,
               sprt_d=sprt_d if sprt else None, sprt_metric=sprt_metric, alpha=alpha, beta=beta,
               echo=_echo(progress) if sprt else None, built=built)
    return _finish(_compare_result(CompareResult, res), out)


def sweep(game: str, params, *, games=100_000, bots=None, players: int | None = None, seed=1,
          jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
          scheduler: str | None = None, progress: bool = False, out=None) -> SweepResult:
    """Sweep rule parameters (``sim sweep``): every metric at every point of the grid.

    Parameters
    ----------
    params : sequence of str or dict
        ``["track=7..15:2"]``, ``{"track": "7..15", "exit": ["any", "pile"]}``; several: a grid.
    games, bots, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per point).

    Returns
    -------
    SweepResult
        As :class:`CompareResult` (the first point is the reference); ``grid``.

    Examples
    --------
    >>> res = sweep("puluc", {"track": "7..11:2"}, games=10_000)
    >>> res.summary.pivot(index="variant", columns="key", values="value")
    """
    from analysis.experiment_runs import sweep as play

    from .games import get as get_game
    from .validate import GRID_MAX, grid_size, parse_sweep
    g = get_game(game)
    jobs, chunk_size, n, seed_v, _ = _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    grid = parse_sweep(_items(params), g)  # ranges checked before anything is expanded
    size = grid_size(grid)
    if size > GRID_MAX:
        raise UsageError(f"--param gives a grid of {size:,} variants; a sweep runs at most "
                         f"{GRID_MAX:,} (sweep fewer values, or fewer parameters at once)")
    import itertools

    from analysis.experiment_runs import _fmt

    from .validate import check_variant_name
    for combo in itertools.product(*[vals for _, vals in grid]):  # each point's name, as the command checks it
        check_variant_name(",".join(f"{k}={_fmt(v)}" for (k, _), v in zip(grid, combo)))
    out = _out(out, "experiment")
    res = play(g.name, _items(params), n, bots=bots, players=players, seed=seed_v, jobs=jobs,
               chunk_size=chunk_size, backend=backend, scheduler=scheduler, progress=progress)
    return _finish(_compare_result(SweepResult, res, grid=res.manifest.get("sweep", [])), out)


def skill(game: str, bots=None, *, games=100_000, rules: dict | None = None, players: int | None = None,
          seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
          scheduler: str | None = None, progress: bool = False, out=None) -> SkillResult:
    """Round robin of bots in every seat on the same seeds (``sim skill``): ratings.

    Parameters
    ----------
    bots : str or sequence of str, optional
        The bots (``"random,greedy,search"``); default every bot of the game.
    games, rules, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per pairing).

    Returns
    -------
    SkillResult
        ``frame``: one row per bot (Bradley-Terry rating, Elo scale, with its 95% interval);
        ``matrix``: the row bot's score against the column bot.

    Examples
    --------
    >>> skill("puluc", ["random", "greedy"], games=2_000).frame
    """
    import numpy as np
    import pandas as pd
    from analysis.experiment_report import skill_headline, write_skill_report
    from analysis.experiment_runs import skill as play

    from .games import get as get_game
    from .runner import make_spec
    g = get_game(game)
    names = _bot_list(bots) or [b.name for b in g.bots]
    jobs, chunk_size, n, seed_v, p = _check_experiment(g, games, None, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    if len(names) < 2:
        raise UsageError("sim skill needs at least two bots")
    for b in names:
        g.choose_bots(b, p)  # names and settings
    make_spec(g, n, rules, None, p, seed_v)  # rules and data files
    out = _out(out, "experiment")
    res = play(g.name, names, n, players=players, seed=seed_v, rules=rules, jobs=jobs, chunk_size=chunk_size,
               backend=backend, scheduler=scheduler, progress=progress)
    bt, unb = res["bt"], res.get("unbounded", {})
    frame = pd.DataFrame({"bot": names, "rating": bt["ratings"], "se": bt["se"], "lo": bt["lo"], "hi": bt["hi"],
                          "unbounded": [unb.get(i, "") for i in range(len(names))],
                          "games": res["games"].sum(axis=1)})
    matrix = pd.DataFrame(np.divide(res["wins"], res["games"], out=np.full_like(res["wins"], np.nan),
                                    where=res["games"] > 0), index=names, columns=names)
    summary = {"ratings": dict(zip(names, map(float, bt["ratings"]))),
               "unbounded": {names[i]: why for i, why in unb.items()},
               "identical": [[names[i] for i in grp] for grp in res.get("identical", [])]}

    def write(out_dir):
        path = write_skill_report(res, out_dir)
        _experiment_manifest(out_dir, "skill", g, p, seed_v, rules, names, n, res.get("partial"))
        return path

    manifest = _manifest("skill", g, p, seed_v, rules, names, n, res.get("partial"))
    return _finish(SkillResult(game=g.name, frame=frame, summary=summary, verdicts=skill_headline(res),
                               manifest=manifest, partial=bool(res.get("partial")), result=res, matrix=matrix,
                               _write=write), out)


def ladder(game: str, bots=None, *, games=100_000, rules: dict | None = None, players: int | None = None,
           seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
           scheduler: str | None = None, progress: bool = False, out=None) -> LadderResult:
    """Balance by skill (``sim skill --ladder``): the edges and the length against strength.

    Parameters
    ----------
    bots : str or sequence of str, optional
        The rungs, weakest first (``"random,greedy,search"``); default the game's own ladder.
    games, rules, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per rung and per neighbouring pair).

    Returns
    -------
    LadderResult
        ``frame``: one row per rung (Elo, first side's score, side shares, length); ``pairs``.

    Examples
    --------
    >>> ladder("puluc", ["random", "greedy"], games=2_000).verdicts
    """
    import pandas as pd
    from analysis.ladder import edge_trend, skill_ladder, verdict
    from analysis.ladder_report import write_ladder_report

    from .games import get as get_game
    from .runner import make_spec
    g = get_game(game)
    names = _bot_list(bots) or list(g.strength_ladder())
    jobs, chunk_size, n, seed_v, p = _check_experiment(g, games, None, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    if len(names) < 2:
        raise UsageError("sim skill --ladder needs at least two bots, weakest first")
    if len(set(names)) != len(names):
        raise UsageError("sim skill --ladder: every rung must differ: " + ", ".join(names))
    for b in names:
        g.choose_bots(b, p)
    make_spec(g, n, rules, None, p, seed_v)
    out = _out(out, "experiment")
    res = skill_ladder(g.name, names, n, players=players, seed=seed_v, rules=rules, jobs=jobs,
                       chunk_size=chunk_size, backend=backend, scheduler=scheduler, progress=progress)
    sides = g.side_labels(res.players)
    rows = []
    for i, r in enumerate(res.rungs):
        row = {"bot": r.bot, "elo": res.elo[i], "elo_lo": res.elo_lo[i], "elo_hi": res.elo_hi[i], "games": r.n,
               "first_side": r.first_share, "first_side_lo": r.first_lo, "first_side_hi": r.first_hi}
        row.update({f"win_{s}": x for s, x in zip(sides, r.side_share)})
        row.update({"no_winner": r.no_winner, "capped": r.capped, g.length: r.length})
        rows.append(row)
    pairs = pd.DataFrame([{"lower": res.rungs[i].bot, "upper": res.rungs[j].bot, "score_lower": s, "games": t}
                          for i, j, s, t in res.pairs if i < len(res.rungs) and j < len(res.rungs)])
    summary = {"rungs": [r.bot for r in res.rungs], "partial": res.partial}
    if res.rungs and not res.partial:
        d, lo, hi = edge_trend(res)
        summary.update(edge_change=d, edge_change_lo=lo, edge_change_hi=hi)

    def write(out_dir):
        path = write_ladder_report(res, out_dir)
        _experiment_manifest(out_dir, "ladder", res.game, res.players, seed_v, rules, names,
                             res.rungs[0].n if res.rungs else 0, res.partial)
        return path

    manifest = _manifest("ladder", g, res.players, seed_v, rules, names, res.rungs[0].n if res.rungs else 0,
                         res.partial)
    return _finish(LadderResult(game=g.name, frame=pd.DataFrame(rows), summary=summary, verdicts=verdict(res),
                                manifest=manifest, partial=res.partial, result=res, pairs=pairs, _write=write), out)


def impact(game: str, card: str | None = None, *, mode: str | None = None, metric: str | None = None,
           games=100_000, rules: dict | None = None, bots=None, players: int | None = None, seed=1,
           jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
           scheduler: str | None = None, progress: bool = False, out=None) -> ImpactResult:
    """Card impact (``sim impact``): observational for every card; causal for ``card`` (or
    ``"all"``), the same seeds played with the card removed or made neutral.

    Parameters
    ----------
    card : str, optional
        The card to change, or ``"all"``; none: the observational table only.
    mode : {"remove", "neutral"}, optional
        Default: the game's own (neutral where removing a card changes the game's length).
    metric : str, optional
        The metric to rank cards by (default ``"first player score"``; e.g. ``"win 0"``).
    games, rules, bots, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate`.  A changed deck file is written into ``out`` (else into a
        temporary folder, removed afterwards).

    Returns
    -------
    ImpactResult
        ``frame``: one row per changed card (``diff``, ``lo``, ``hi``, ``p``, ``words``), or
        the observational table; ``observational``.

    Examples
    --------
    >>> impact("balam", "drought", games=2_000).verdicts
    """
    from analysis.experiment_runs import impact as play
    from analysis.impact import OBSERVATIONAL, impact_info, impact_table, length_sentence, observational
    from analysis.impact import write_impact_report
    from analysis.pages import bots_sentence

    from .games import get as get_game
    from .params import _suggest
    from .runner import make_spec
    from .validate import create_out_dir, safe
    g = get_game(game)
    jobs, chunk_size, n, seed_v, _ = _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    spec = make_spec(g, n, rules, bots, players, seed_v)  # rules, data files, bots
    if not g.events:
        raise UsageError(f"{g.name} records no card or event draws, so it has no card impact")
    if card is not None:
        if g.card_rules is None:
            raise UsageError(f"{g.name} cannot remove cards from its deck (no card_rules)")
        known = list(g.card_names(spec.rules)) if g.card_names else []
        if known and card != "all" and card not in known:
            raise UsageError(f"unknown card '{safe(card)}' for {g.name}{_suggest(card, known)}; "
                             f"known: all, {', '.join(known)}")
    if mode is not None and mode not in ("remove", "neutral"):
        raise UsageError(f"--mode must be remove or neutral, not {safe(repr(mode))}")
    out, top = _out(out, "experiment"), None
    if out is not None:
        out, top = create_out_dir(out)  # the changed deck files go there, as the command's do
    try:
        res = play(g.name, card, mode, n, rules=rules, workdir=out, bots=bots, players=players, seed=seed_v,
                   jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler, progress=progress,
                   metric=metric)
    except UsageError:
        if top is not None:  # refused: the folder this call created goes again
            import shutil
            shutil.rmtree(top, ignore_errors=True)
        raise
    info = impact_info(res)
    obs = observational(res.summaries[0], res.manifest["seats"])
    if info["cards"]:
        it = impact_table(res)
        frame = it
        summary = it[["card", "diff", "lo", "hi", "p", "words"]].copy()
        verdicts = [f"{r['card']}: {r['words']}." for _, r in it.iterrows()]
        verdicts += [x for x in (length_sentence(r, g, info.get("mode"), info.get("neutral_supported", False))
                                 for _, r in it.iterrows()) if x]
        verdicts += [f"Skipped {c}: {why}." for c, why in info.get("skipped", [])]
    else:
        frame = obs
        cols = [c for c in ("card", "seat", "games drew", "difference", "lo", "hi", "p", "per card") if c in obs]
        summary = obs[cols].copy()
        verdicts = [OBSERVATIONAL]
    verdicts.append(bots_sentence(res.manifest))
    return _finish(ImpactResult(game=g.name, frame=frame, summary=summary, verdicts=verdicts,
                                manifest=res.manifest, partial=res.partial, result=res, observational=obs,
                                _write=lambda out_dir: write_impact_report(g, res, out_dir, card)), out)


def robust(game: str, *, variants=None, variants_file=None, rules: dict | None = None, metric: str | None = None,
           early_stop: bool = True, combine: bool = True, games=100_000, bots=None, players: int | None = None,
           seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
           scheduler: str | None = None, progress: bool = False, out=None) -> RobustResult:
    """Does the verdict hold (``sim robust``; with ``variants``, ``sim robust compare``)?
    The headline figures under every bot, reading and setup, on the same seeds.

    Parameters
    ----------
    variants : dict or sequence, optional
        Two variants, the reference first (as for :func:`compare`): judge the variant's effect.
    rules : dict, optional
        Rule parameters of the baseline (``--set``).
    metric : str, optional
        The headline early stops follow: ``edge`` (default), ``gap``, ``decisive``, ``length``,
        ``margin``.
    early_stop, combine : bool
        Stop a condition once decided; also play the worst-case combination of two readings.
    games, bots, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per condition).

    Returns
    -------
    RobustResult
        ``frame``: one row per (headline, condition); ``summary``: one row per headline with
        its verdict (``holds``, ``depends``, ``cannot tell``).

    Examples
    --------
    >>> robust("puluc", games=5_000).verdicts
    """
    import pandas as pd
    from analysis.robust import evaluate_all, write_robust_report
    from analysis.robust_runs import robust as play

    from .games import get as get_game
    from .runner import make_spec
    g = get_game(game)
    vs = _variants(variants, variants_file) if variants is not None or variants_file is not None else None
    if vs is not None and len(vs) != 2:
        raise UsageError("sim robust compare takes two --variant: the reference first, then the "
                         f"variant (got {len(vs)})")
    jobs, chunk_size, n, seed_v, _ = _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    rules = dict(rules or {})
    make_spec(g, n, rules, bots, players, seed_v)  # rules, data files, bots
    if vs:
        _check_arms(g, [(k, {**rules, **v}) for k, v in vs], bots, players, seed_v, n)
    out = _out(out, "experiment")
    res = play(g.name, n, rules=rules, bots=bots, players=players, seed=seed_v, variants=vs, metric=metric,
               jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler, progress=progress,
               early_stop=early_stop, combine=combine, command=None)
    evs = evaluate_all(res)
    keys = ("label", "kind", "assumption", "n", "v", "lo", "hi", "s", "s_lo", "s_hi", "vr", "status", "stopped")
    frame = pd.DataFrame([{"headline": k, **{x: r[x] for x in keys}} for k, ev in evs.items() for r in ev["rows"]])
    summary = pd.DataFrame([{"headline": k, "label": ev["spec"]["label"], "verdict": ev["verdict"]["kind"],
                             "depends_on": ", ".join(ev["verdict"]["depends_on"]), "baseline": ev["base"]["v"],
                             "lo": ev["base"]["lo"], "hi": ev["base"]["hi"], "games": ev["base"]["n"],
                             "games_needed": ev["verdict"].get("games_needed")} for k, ev in evs.items()])
    return _finish(RobustResult(game=g.name, frame=frame, summary=summary,
                                verdicts=[ev["verdict"]["text"] for ev in evs.values()], manifest=res.manifest,
                                partial=bool(res.manifest.get("partial")), result=res,
                                _write=lambda out_dir: write_robust_report(res, out_dir)), out)


def tune(game: str, params, targets, *, budget="2e5", final_games=None, rules: dict | None = None, bots=None,
         players: int | None = None, seed=1, jobs: int | None = None, backend: str | None = None,
         progress: bool = False, out=None) -> TuneResult:
    """Search rule parameters toward balance targets (``sim tune``; optuna, raced on common
    random numbers); the best candidates are re-played beside the rulebook on a fresh seed.

    Parameters
    ----------
    params : sequence of str or dict
        ``["payout=0..15"]``, ``{"track": "6..14", "exit": ["any", "pile"]}``.
    targets : sequence of str or dict
        ``["first_player=fair", "draws<=0.02"]``, ``{"first_player": "fair", "draws": "<=0.02"}``.
    budget : int or str
        Games the search may spend.
    final_games : int or str, optional
        Games each best candidate (and the rulebook) is re-played (default a fifth of the budget).
    rules : dict, optional
        Rules held fixed (``--set``).
    bots, players, seed, jobs, backend, progress, out
        As for :func:`simulate` (``progress``: the search's lines on stderr; no Dask).

    Returns
    -------
    TuneResult
        ``frame``: one row per candidate; ``summary``: the re-played finalists and the rulebook.

    Examples
    --------
    >>> tune("puluc", ["track=6..14"], ["length=min"], budget=20_000).verdicts
    """
    import pandas as pd
    from analysis.tune import estimate, interval, parse_params, parse_targets, tune as search
    from analysis.tune_report import write_tune_report

    from .games import get as get_game
    from .runner import make_spec, parse_games, parse_seed
    g = get_game(game)
    jobs, _ = _check_run(jobs, None, backend, None)
    if backend == "dask":
        raise UsageError("sim tune runs on loky, threading or sequential, not dask")
    seed_v = parse_seed(seed)
    p = g.check_players(players)
    g.choose_bots(bots, p)

    def games_of(text, option):
        try:
            return parse_games(text)
        except UsageError as e:
            raise UsageError(str(e).replace("--games", option)) from None

    n = games_of(budget, "--budget")
    fn = games_of(final_games, "--final") if final_games is not None else None
    spaces = parse_params(_items(params), g)
    tg = parse_targets(_items(targets), g, p)
    fixed = _canonical_rules(g, rules)
    held = [k for k in fixed if k in {s.name for s in spaces}]
    if held:
        raise UsageError(f"--set {held[0]} and --param {held[0]}: a parameter is either tuned or held")
    for s in spaces:  # both ends of every range (and every listed value) with the fixed rules
        for v in (s.choices if s.kind == "choice" else (s.lo, s.hi)):
            make_spec(g, 1, {**fixed, s.name: int(v) if s.kind == "int" else v}, bots, p, seed_v)
    out = _out(out, "experiment")
    res = search(g.name, spaces, tg, budget=n, players=p, bots=bots, seed=seed_v, jobs=jobs, backend=backend,
                 final_games=fn, fixed=fixed, echo=_echo(progress))
    sides = g.n_sides(p)
    cands = []
    for c in sorted(res.candidates, key=lambda c: c.number):
        row = {"number": c.number, **c.values, "games": c.moments.n}
        for t in res.targets:
            m, _ = estimate(t.metric, c.moments, sides)
            row[t.metric.name] = m
            row[f"loss {t.text}"] = t.loss(m)
        row["stopped"] = c.stopped or "deepest rung reached"
        cands.append(row)
    final = []
    for label, values, M in res.final:
        row = {"candidate": label, **values, "games": M.n}
        for t in res.targets:
            row[t.metric.name], row[f"{t.metric.name} lo"], row[f"{t.metric.name} hi"] = interval(t.metric, M, sides)
        final.append(row)
    return _finish(TuneResult(game=g.name, frame=pd.DataFrame(cands), summary=pd.DataFrame(final),
                              verdicts=list(res.verdict), notes=list(res.notes), manifest=res.manifest,
                              partial=bool(res.manifest.get("partial")), result=res,
                              _write=lambda out_dir: write_tune_report(res, out_dir)), out)


# ------------------------------------------------------------------------ one game
def _told(t) -> dict:
    """One line of :class:`analysis.show.Shown`: a ``Told`` (text, board, step: the game's
    cast, turn or round it begins, None where unnumbered), or a ``(text, board)`` pair."""
    if isinstance(t, tuple):
        return {"step": None, "text": t[0], "board": t[1]}
    return {"step": getattr(t, "step", None), "text": t.text, "board": t.board}


def show(game: str, index: int = 0, *, seed=1, players: int | None = None, bots=None,
         rules: dict | None = None, html=None) -> ShowResult:
    """Play one game of a run again, recorded, and tell it turn by turn (``sim show``).

    Parameters
    ----------
    index : int
        The game's index in the run (``--game``: 0, 1, 2, ...).
    seed, players, bots, rules
        As the run had them (game ``index`` of a run depends on these only).
    html : path, optional
        Also write the page with the board after each turn (``--html``).

    Returns
    -------
    ShowResult
        ``lines`` (the game told line by line), ``frame`` (line, step, text, board), ``text``
        (what the command prints), ``summary``
        (title, players, outcome, the ``sim show`` command); ``write_report(path)``.

    Examples
    --------
    >>> print(show("puluc", 17, seed=1).text)
    """
    import pandas as pd
    from analysis.show import show_game, show_text, write_show_page

    from .games import get as get_game
    from .runner import MAX_GAMES, parse_seed
    from .validate import safe
    g = get_game(game)
    if not g.actions:
        raise UsageError(f"{g.name} cannot record its games yet, so sim show cannot tell one")
    try:
        i = int(str(index).strip())
    except ValueError:
        raise UsageError(f"--game must be a game index such as 0 or 17, not {safe(repr(index))}") from None
    if not 0 <= i < MAX_GAMES:
        raise UsageError(f"--game must be between 0 and {MAX_GAMES - 1:.0f}, not "
                         f"{i if len(str(i)) < 30 else f'a number of {len(str(i))} digits'}")
    shown = show_game(g, parse_seed(seed), i, rules, bots, players)
    rec = shown.record
    summary = {"title": shown.title, "subtitle": shown.subtitle, "outcome": shown.outcome,
               "command": shown.command, "index": i, "seed": rec.seed, "players": rec.players,
               "bots": list(rec.bots), "lines": len(shown.turns)}
    told = [_told(t) for t in shown.turns]
    res = ShowResult(game=g.name, frame=pd.DataFrame([{"line": k, **t} for k, t in enumerate(told, 1)]),
                     summary=summary, verdicts=[shown.outcome], result=shown,
                     lines=[t["text"] for t in told], text=show_text(shown),
                     _write=lambda path: write_show_page(shown, path))
    if html is not None:
        res.write_report(html)
    return res
