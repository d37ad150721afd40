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

from .params import UsageError
from .results_api import CompareResult, RunResult, ShowResult, SweepResult
from .api_common import (_api, _arm_plays, _bot_list, _canonical_rules, _check_arms, _check_experiment,  # noqa: F401
                         _check_run, _echo, _experiment_manifest, _finish, _guard, _items, _manifest, _out,  # noqa: F401
                         _variants)  # noqa: F401
from .api_study import impact, ladder, learn, robust, skill, strength, tune  # noqa: F401 (sim.api.X)

__all__ = ["simulate", "compare", "sweep", "skill", "ladder", "strength", "impact", "robust", "tune", "show",
           "learn"]


# ------------------------------------------------------------------ shared checks


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
    from analysis.play_report import figures
    out.update(figures(s["summary"], game))   # how it plays (issue #47), where the game has it
    return {k: v.item() if hasattr(v, "item") else v for k, v in out.items()}  # numpy scalars: plain numbers


@_api
def simulate(game: str, games=100_000, *, rules: dict | None = None, bots=None, players: int | None = None,
             seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
             scheduler: str | None = None, progress: bool = False, out=None, yes: bool = False,
             evaluate: bool = False) -> RunResult:
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
    yes : bool
        Start a run expected to take more than two hours (else refused with the estimate, as
        ``sim GAME`` refuses it without ``--yes``).
    evaluate : bool
        How it plays (``--evaluate``): follow each side's learned chance of winning at every
        position, for the lead changes, drama, decisiveness, stability and uncertainty
        columns (``ev_*``); the game's value model is trained first where none is kept.

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
    from .runner import execute
    from .spec import make_spec
    from .validate import check_chunk_count
    jobs, chunk_size = _check_run(jobs, chunk_size, backend, scheduler)
    spec = make_spec(game, games, rules, bots, players, seed, evaluate=evaluate)
    check_chunk_count(spec.games, chunk_size)
    out = _out(out, "run")
    rate = None
    if backend != "dask":  # the cluster's size is not known here
        from .longrun import check_long_run
        from .parallel import plan_chunks
        rate = check_long_run(spec, plan_chunks(spec.games, chunk_size, jobs), jobs, "memory", yes, progress,
                              ask=False)
    result = execute(spec, jobs=jobs, chunk_size=chunk_size, backend=backend, progress=progress,
                     rows="memory", scheduler=scheduler, rate=rate)
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
def seat_keys(manifest: dict, keys) -> dict:
    """An experiment's metric keys named after the seats: ``win 0`` -> ``win Jade`` (a side's
    name, ``win team Gold`` in a team game), a per-seat metric ``score 2`` -> ``score Cobalt``;
    the others as they are."""
    seats = list(manifest["seats"])
    teams = bool(manifest.get("teams"))
    sides = [f"team {x}" if teams else x for x in (manifest.get("sides") or seats)]
    out = {}
    for key in keys:
        base, _, k = str(key).rpartition(" ")
        names = sides if base == "win" else seats
        out[key] = f"{base} {names[int(k)]}" if base and k.isdigit() and int(k) < len(names) else key
    return out


def turn_order_frame(res):
    """Per variant and turn-order position: the share of every game it won (``share``) and of
    the decisive ones (``share_decisive``, what ``sim compare`` prints as "among decisive
    games"), with 95% intervals."""
    import pandas as pd
    from analysis.metrics import decisive_position_rates, position_win_rates
    rows = []
    for k, a in enumerate(res.arms):
        if a.swapped:
            continue
        S = res.summaries[k]
        dec = decisive_position_rates(S)
        for (_, r), (_, d) in zip(position_win_rates(S).iterrows(), dec.iterrows()):
            rows.append({"variant": res.variants[a.variant][0], "position": r["label"], "games": int(r["games"]),
                         "share": r["rate"], "lo": r["lo"], "hi": r["hi"], "decisive_games": int(d["games"]),
                         "share_decisive": d["rate"], "decisive_lo": d["lo"], "decisive_hi": d["hi"]})
    return pd.DataFrame(rows)


def _compare_result(cls, res, **extra):
    from analysis.experiment_report import compare_headline, compare_table, headline_key, write_compare_report
    tab = compare_table(res)
    keys = [headline_key(res), "no winner", "capped", res.game.length]
    named = tab.assign(key=tab["key"].map(seat_keys(res.manifest, tab["key"].unique())))
    summary = named[tab["key"].isin(keys)][["key", "metric", "variant", "value", "lo", "hi", "diff", "diff_lo",
                                            "diff_hi", "p"]].reset_index(drop=True)
    return cls(game=res.game.name, frame=named, summary=summary, verdicts=compare_headline(res, tab),
               manifest=res.manifest, partial=res.partial, result=res, variants=list(res.variants),
               turn_order=turn_order_frame(res), _write=lambda out_dir: write_compare_report(res, out_dir), **extra)


@_api
def compare(game: str, variants, *, variants_file=None, games=100_000, bots=None, players: int | None = None,
            seed=1, sprt: bool = False, sprt_d: float = 0.02, sprt_metric: str = "first player score",
            alpha: float = 0.05, beta: float = 0.05, jobs: int | None = None, chunk_size: int | None = None,
            backend: str | None = None, scheduler: str | None = None, progress: bool = False,
            out=None, yes: bool = False, evaluate: bool = False) -> CompareResult:
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
    yes : bool
        Start a comparison expected to take more than two hours (else refused, with the
        estimate: one core's rate on its bots, times its arms and games, over ``jobs``).
    evaluate : bool
        How it plays (``--evaluate``): each variant follows each side's chance of winning by
        its own learned model, and the verdicts give the paired differences of lead changes,
        drama, the point the winner was settled, swings and uncertainty.

    Returns
    -------
    CompareResult
        ``frame``: one row per (metric, variant), with ``diff``, ``diff_lo``, ``diff_hi``, ``p``;
        the keys and metrics name the seats (``win Jade``); ``turn_order``: each variant's
        share of the games won by each turn-order position, among every game and among the
        decisive ones (what the command prints).

    Examples
    --------
    >>> res = compare("puluc", {"base": {}, "nine": {"track": 9}}, games=20_000)
    >>> res.summary[res.summary["variant"] == "nine"]
    """
    from analysis.experiment_runs import compare as play

    from .games import get as get_game
    g = get_game(game)
    jobs, chunk_size, n, seed_v, _ = _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    vs = _variants(variants, variants_file)
    built = check_compare(g, vs, bots, players, seed_v, n, sprt, sprt_d, sprt_metric, alpha, beta, evaluate)
    out = _out(out, "experiment")
    _guard("comparison", built[0][0].spec, _arm_plays(built[0], n), jobs, yes, backend)
    res = play(g.name, vs, n, bots=bots, players=players, seed=seed_v, jobs=jobs, chunk_size=chunk_size,
               backend=backend, scheduler=scheduler, progress=progress and not sprt,
               sprt_d=sprt_d if sprt else None, sprt_metric=sprt_metric, alpha=alpha, beta=beta,
               echo=_echo(progress) if sprt else None, built=built)
    return _finish(_compare_result(CompareResult, res), out)


@_api
def sweep(game: str, params, *, games=100_000, bots=None, players: int | None = None, seed=1,
          jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
          scheduler: str | None = None, progress: bool = False, out=None, yes: bool = False) -> SweepResult:
    """Sweep rule parameters (``sim sweep``): every metric at every point of the grid.

    Parameters
    ----------
    params : sequence of str or dict
        ``["track=7..15:2"]``, ``{"track": "7..15", "exit": ["any", "pile"]}``; several: a grid.
    games, bots, players, seed, jobs, chunk_size, backend, scheduler, progress, out, yes
        As for :func:`compare` (``games`` per point).

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

    from analysis.experiment_runs import _fmt, sweep_variants

    from .validate import check_variant_name
    for combo in itertools.product(*[vals for _, vals in grid]):  # each point's name, as the command checks it
        check_variant_name(",".join(f"{k}={_fmt(v)}" for (k, _), v in zip(grid, combo)))
    out = _out(out, "experiment")
    arms, _ = _check_arms(g, sweep_variants(g, grid, {})[0], bots, players, seed_v, n, labels=False)
    _guard("sweep", arms[0].spec, _arm_plays(arms, n), jobs, yes, backend)
    res = play(g.name, _items(params), n, bots=bots, players=players, seed=seed_v, jobs=jobs,
               chunk_size=chunk_size, backend=backend, scheduler=scheduler, progress=progress)
    return _finish(_compare_result(SweepResult, res, grid=res.manifest.get("sweep", [])), out)


# ------------------------------------------------------------------------ one game
def _told(t) -> dict:
    """One line of :class:`analysis.show.Shown`: a ``Told`` (text, board, step: the game's
    cast, turn or round it begins, None where unnumbered), or a ``(text, board)`` pair."""
    if isinstance(t, tuple):
        return {"step": None, "text": t[0], "board": t[1]}
    return {"step": getattr(t, "step", None), "text": t.text, "board": t.board}


@_api
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
        Also write the page with the board after each turn to this file (``--html``): a file
        in an existing folder, not a folder.

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
    from .spec import parse_seed
    from .validate import check_page_file
    g = get_game(game)
    i = check_show(g, index)
    page = None if html is None else check_page_file(html, "html=")  # as sim show --html: a file, not a folder
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
    if page is not None:
        try:
            write_show_page(shown, page)
        except OSError as e:
            from .validate import safe
            raise UsageError(f"cannot write html={safe(repr(str(page)))}: {safe(e.strerror or str(e))}") from None
    return res



def check_show(g, index) -> int:
    """``sim show``'s checks (the command line's too): the game records its games, and the
    index is a game index of a run; returns it as a number."""
    from .spec import MAX_GAMES
    from .validate import safe
    if not g.actions:
        raise UsageError(f"{g.name} cannot record its games yet, so sim show cannot tell one")
    try:
        i = int(str(index).strip())
    except ValueError:
        raise UsageError(f"--game must be a game index such as 0 or 17, not {safe(repr(index))}") from None
    if not 0 <= i < MAX_GAMES:
        raise UsageError(f"--game must be between 0 and {MAX_GAMES - 1:.0f}, not "
                         f"{i if len(str(i)) < 30 else f'a number of {len(str(i))} digits'}")
    return i


def check_compare(g, vs, bots, players, seed_v, n, sprt, sprt_d, sprt_metric, alpha, beta, evaluate=False):
    """``sim compare``'s own checks (the command line's too): at least two variants and at most
    a sweep's number, the SPRT's error rates, metric and difference, every variant's rules,
    data files and bots; returns the checked arms (:func:`analysis.experiment_runs.build_arms`)."""
    import math

    from analysis.experiment_metrics import metric_names

    from .validate import GRID_MAX
    if len(vs) < 2:
        raise UsageError("sim compare needs at least two --variant (the first is the reference)")
    if len(vs) > GRID_MAX:
        raise UsageError(f"{len(vs):,} variants: a comparison plays at most {GRID_MAX:,}, as a sweep "
                         f"does (split them over several)")
    if not 0 < alpha < 0.5 or not 0 < beta < 0.5:
        raise UsageError("--alpha and --beta must be between 0 and 0.5")
    built = _check_arms(g, vs, bots, players, seed_v, n, evaluate=evaluate)
    if sprt:
        names = metric_names(g, built[0][0].spec.players)
        if sprt_metric not in names:
            raise UsageError(f"--sprt-metric must be one of: {', '.join(names)}")
        if not (math.isfinite(sprt_d) and 0 < sprt_d < 1e6):
            raise UsageError("--sprt-d must be a positive difference")
    return built
