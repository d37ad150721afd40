"""The Python API, continued: the studies of play and of the game's parts: ``skill``,
``ladder``, ``strength``, ``impact``, ``robust`` and ``tune`` (``sim.api`` re-exports them; see
its docstring for what every function shares)."""
from __future__ import annotations

from .params import UsageError
from .results_api import ImpactResult, LadderResult, RobustResult, SkillResult, StrengthResult, TuneResult
from .api_common import (_api, _bot_list, _canonical_rules, _check_arms, _check_experiment, _check_run,
                         _echo, _experiment_manifest, _finish, _guard, _items, _ladder_plays, _manifest, _out,
                         _skill_plays, _variants)


@_api
def skill(game: str, bots=None, *, games=100_000, rules: dict | None = None, players: int | None = None,
          seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
          scheduler: str | None = None, progress: bool = False, out=None,
          yes: bool = False) -> SkillResult:
    """Round robin of bots in every seat on the same seeds (``sim skill``): ratings.

    Parameters
    ----------
    bots : str or sequence of str, optional
        The bots (``"random,greedy,search"``); default every bot of the game.
    games, rules, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per pairing).
    yes : bool
        Start a round robin expected to take more than two hours (as for :func:`sim.api.compare`).

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
    from analysis.skill_runs import skill as play

    from .games import get as get_game
    from .spec import make_spec
    g = get_game(game)
    names = _bot_list(bots) or [b.name for b in g.bots]
    jobs, chunk_size, n, seed_v, p = _check_experiment(g, games, None, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    if len(names) < 2:
        raise UsageError("sim skill needs at least two bots")
    for b in names:
        g.choose_bots(b, p)  # names and settings
    if len(set(names)) != len(names):
        raise UsageError("sim skill: every bot must differ: " + ", ".join(names))
    spec = make_spec(g, n, rules, None, p, seed_v)  # rules and data files
    out = _out(out, "experiment")
    _guard("round robin", spec, _skill_plays(g, names, p, n), jobs, yes, backend)
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


@_api
def ladder(game: str, bots=None, *, games=100_000, rules: dict | None = None, players: int | None = None,
           seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
           scheduler: str | None = None, progress: bool = False, out=None,
           yes: bool = False) -> LadderResult:
    """Balance by skill (``sim skill --ladder``): the edges and the length against strength.

    Parameters
    ----------
    bots : str or sequence of str, optional
        The rungs, weakest first (``"random,greedy,search"``); default the game's own ladder.
    games, rules, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per rung and per neighbouring pair).
    yes : bool
        Start a ladder expected to take more than two hours (as for :func:`sim.api.compare`).

    Returns
    -------
    LadderResult
        ``frame``: one row per rung (Elo, first side's score, side shares, length); ``pairs``.

    Examples
    --------
    >>> ladder("puluc", ["random", "greedy"], games=2_000).verdicts
    """
    import pandas as pd
    from analysis.ladder import check_ladder, edge_trend, skill_ladder, verdict
    from analysis.ladder_report import write_ladder_report

    from .games import get as get_game
    from .spec import make_spec
    g = get_game(game)
    names = _bot_list(bots) or list(g.strength_ladder())
    jobs, chunk_size, n, seed_v, p = _check_experiment(g, games, None, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    check_ladder(g, names, p)
    spec = make_spec(g, n, rules, None, p, seed_v)
    out = _out(out, "experiment")
    _guard("ladder", spec, _ladder_plays(g, names, p, n), jobs, yes, backend)
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


@_api
def strength(game: str, bot: str = "search", *, param: str | None = None, factor: float = 4.0,
             add: float | None = None, rungs: int = 4, tol: float = 2.0, length_tol: float = 5.0,
             minutes: float | None = None, games=2_000, pair_games=None, rules: dict | None = None,
             players: int | None = None, seed=1, jobs: int | None = None, chunk_size: int | None = None,
             backend: str | None = None, scheduler: str | None = None, progress: bool = False, out=None,
             yes: bool = False) -> StrengthResult:
    """Climb a search bot's budget until the verdict for strong play settles (``sim strength``).

    Parameters
    ----------
    bot : str
        The first rung, a search bot with its settings (``"search:iters=50"``).
    param, factor, add, rungs
        The budget parameter (default the bot's ``iters``), multiplied by ``factor`` per rung
        (or ``add`` added: a depth), at most ``rungs`` rungs.
    tol, length_tol, minutes
        A share's tolerance in percentage points, the mean length's in percent, and a wall-time
        budget (no rung starts that would overrun it).
    games, rules, players, seed, jobs, chunk_size, backend, scheduler, progress, out
        As for :func:`simulate` (``games`` per rung).
    pair_games
        Games of each head-to-head seating between neighbouring rungs (the Elo gain of a step);
        default ``games``, at most 4,000 (``analysis.converge.PAIR_GAMES``): the verdict rests
        on the rungs' games.
    yes : bool
        Start a climb expected to take more than two hours (as for :func:`sim.api.compare`;
        a rung's games cost its budget over the first rung's times the first rung's).

    Returns
    -------
    StrengthResult
        ``frame``: every step's headline changes; ``summary``: settled or not, where, the edge.

    Examples
    --------
    >>> strength("batam", "search:iters=25", players=2, games=2_000).verdicts[0]
    """
    import pandas as pd
    from analysis.converge import climb, verdict, write_strength_report

    from .games import get as get_game
    g = get_game(game)
    jobs, chunk_size, n, seed_v, p = _check_experiment(g, games, None, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    g.resolve_rules(dict(rules or {}))
    n_pair = _check_strength(g, bot, param, factor, add, rungs, tol, length_tol, minutes, players, rules, n,
                             seed_v, jobs, yes, backend, pair_games=pair_games)
    out = _out(out, "experiment")
    res = climb(g.name, bot, n, param=param, factor=factor, add=add, rungs=rungs, tol=tol / 100,
                length_tol=length_tol, minutes=minutes, pair_games=n_pair, players=players, seed=seed_v,
                rules=rules, jobs=jobs,
                chunk_size=chunk_size, backend=backend, scheduler=scheduler, progress=progress)
    rows = [{"step": f"{res.param} {res.budgets[k]} -> {res.budgets[k + 1]}", "headline": m.name, "change": m.diff,
             "lo": m.lo, "hi": m.hi, "tolerance": m.tol, "unit": m.unit, "inside": m.within}
            for k, ms in enumerate(res.moves) for m in ms]
    L = res.ladder
    top = L.rungs[-1] if L.rungs else None
    summary = {"settled": res.stop == "settled", "stop": res.stop,
               "settled_at": None if res.settled_at is None else {res.param: res.budgets[res.settled_at]},
               "budgets": list(res.budgets), "elo_gains": [x[0] for x in res.gains],
               "first_side": None if top is None else top.first_share,
               "first_side_lo": None if top is None else top.first_lo,
               "first_side_hi": None if top is None else top.first_hi}
    labels = [r.bot for r in L.rungs]

    def write(out_dir):
        path = write_strength_report(res, out_dir)
        _experiment_manifest(out_dir, "strength", L.game, L.players, seed_v, rules, labels, n, L.partial,
                             res.extra.get("model"))
        return path

    manifest = _manifest("strength", g, L.players, seed_v, rules, labels, n, L.partial)
    frame_rungs = pd.DataFrame([{"bot": r.bot, "elo": L.elo[i], "first_side": r.first_share, "games": r.n,
                                 g.length: r.length, "capped": r.capped} for i, r in enumerate(L.rungs)])
    return _finish(StrengthResult(game=g.name, frame=pd.DataFrame(rows), summary=summary, verdicts=verdict(res),
                                  manifest=manifest, partial=L.partial, result=res, rungs=frame_rungs,
                                  _write=write), out)


@_api
def impact(game: str, card: str | None = None, *, mode: str | None = None, metric: str | None = None,
           games=100_000, rules: dict | None = None, bots=None, players: int | None = None, seed=1,
           jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
           scheduler: str | None = None, progress: bool = False, out=None,
           yes: bool = False) -> ImpactResult:
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
    yes : bool
        Start an impact run expected to take more than two hours (as for :func:`sim.api.compare`).

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
    from .spec import make_spec
    from .validate import create_out_dir
    g = get_game(game)
    jobs, chunk_size, n, seed_v, _ = _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend,
                                                       scheduler)
    spec = make_spec(g, n, rules, bots, players, seed_v)
    check_impact(g, card, mode, spec)  # rules, data files, bots
    out, top = _out(out, "experiment"), None
    _guard("impact run", spec, impact_plays(g, card, spec, n), jobs, yes, backend)
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


@_api
def robust(game: str, *, variants=None, variants_file=None, rules: dict | None = None, metric: str | None = None,
           early_stop: bool = True, combine: bool = True, games=100_000, bots=None, players: int | None = None,
           seed=1, jobs: int | None = None, chunk_size: int | None = None, backend: str | None = None,
           scheduler: str | None = None, progress: bool = False, out=None,
           yes: bool = False, strong_games: int | None = None) -> RobustResult:
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
    yes : bool
        Start a robust run expected to take more than two hours (as for :func:`sim.api.compare`;
        the estimate is its most: every condition played to ``games``).
    strong_games : int, optional
        The most games of a condition with the strong bot in a seat (default: the game's
        ``strong_games`` where its strong play is costly, else ``games``).
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
    from .spec import make_spec
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
    _guard("robust run", *robust_plays(g, n, rules, bots, players, seed_v, vs, combine, strong_games), jobs, yes,
           backend)
    res = play(g.name, n, rules=rules, bots=bots, players=players, seed=seed_v, variants=vs, metric=metric,
               jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler, progress=progress,
               early_stop=early_stop, combine=combine, command=None, strong_games=strong_games)
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


@_api
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
    from analysis.tune import estimate, interval, tune as search
    from analysis.tune_report import write_tune_report
    g, jobs, seed_v, p, n, fn, spaces, tg, fixed = check_tune(game, params, targets, budget, final_games, rules,
                                                               bots, players, seed, jobs, backend)
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


def check_tune(game, params, targets, budget, final_games, rules, bots, players, seed, jobs, backend,
               note=None):
    """Everything ``sim tune`` checks before it plays (the command line's too): the game, jobs
    and backend, the seed, players and bots, --budget and --final, the parameter spaces and
    targets, the rules held fixed (a parameter is tuned or held, not both), and both ends of
    every range with those rules.  Returns (game, jobs, seed, players, budget, final, spaces,
    targets, fixed rules)."""
    from analysis.tune import parse_params, parse_targets

    from .games import get as get_game
    from .spec import make_spec, parse_games, parse_seed
    g = get_game(game)
    jobs, _ = _check_run(jobs, None, backend, None, note)
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
    return g, jobs, seed_v, p, n, fn, spaces, tg, fixed


def check_impact(g, card, mode, spec) -> None:
    """``sim impact``'s own checks (the command line's too): the game records card draws, can
    remove a card (with --card), the card is one of the deck's, --mode is remove or neutral."""
    from .params import _suggest
    from .validate import safe
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


def _check_strength(g, bot, param, factor, add, rungs, tol, length_tol, minutes, players, rules, n, seed_v, jobs,
                    yes, backend, ask=False, progress=False, pair_games=None) -> int:
    """``sim strength``'s own checks (the command line's too), before anything is written: the
    climb's options (finite, in range), its rungs, and the time it would take (the first rung's
    rate, each rung's games costing its budget over the first's).  Returns the games of each
    head-to-head seating (``analysis.converge.pair_count``)."""
    from analysis.converge import check_climb, pair_count, rung_budgets

    from .spec import make_spec
    check_climb(factor, add, rungs, tol / 100 if isinstance(tol, (int, float)) else tol, length_tol, minutes)
    _, values, names, pl = rung_budgets(g, bot, param, factor, add, rungs, players)
    first = values[0] if values[0] > 0 else 1
    scale = [max(v, first) / first for v in values]
    spec = make_spec(g, n, rules, names[0], pl, seed_v)
    n_pair = pair_count(n, pair_games)
    _guard("climb", spec, _ladder_plays(g, names, pl, n, scale, n_pair), jobs, yes, backend, ask=ask,
           progress=progress, limit=None if minutes is None else 60 * minutes)
    return n_pair


def impact_plays(g, card, spec, n) -> list:
    """An impact run's arms: the base, and one per card changed (every card with ``all``)."""
    cards = 0 if card is None else (len(g.card_names(spec.rules)) if card == "all" and g.card_names else 1)
    return [(spec.bots, n, 1.0)] * (1 + cards)


def robust_plays(g, n, rules, bots, players, seed_v, variants, combine=True, strong_games=None):
    """What a robust run plays at most (:func:`analysis.robust_runs.robust`), for its time
    guard: (a baseline spec, [(bots, games, 1)]): the baseline and every condition's seatings,
    for each compared variant; the worst-case combination (``combine``) as one more condition.
    Early stops may end it sooner."""
    from analysis.robust_conditions import build_conditions
    from analysis.robust_runs import strong_cap

    from .spec import make_spec
    p = g.check_players(players)
    common = dict(rules or {})
    parts = [{**common, **dict(v)} for _, v in variants] if variants else [common]
    specs = [make_spec(g, n, r, bots, p, seed_v) for r in parts]
    base_bots = [c.label for c in specs[0].bots]
    exclude = ({k for k in specs[0].rules if specs[0].rules[k] != specs[1].rules[k]} if variants else set())

    def validate(change):
        for r in parts:
            make_spec(g, 1, {**r, **change}, base_bots, p, seed_v)

    try:
        conds, _ = build_conditions(g, p, specs[0].rules, base_bots, exclude, validate)
    except UsageError:
        return specs[0], []  # the run itself says why (no condition to try)
    plays = [(s.bots, n, 1.0) for s in specs]
    cap = strong_cap(g, p, n, strong_games)
    for c in conds + (conds[-1:] if combine and conds else []):
        for seats in c.seatings or [base_bots]:
            plays += [(g.choose_bots(list(seats), p), cap if c.strong and cap else n, 1.0)] * len(parts)
    return specs[0], plays


# ------------------------------------------------------------------------ learned values
@_api
def learn(game: str, *, players: int | None = None, rules: dict | None = None, bots=None, games=None,
          seed=1, jobs: int | None = None, out=None, retrain: bool = False, note=None, generation: int = 1):
    """The game's learned value under ``rules`` and ``players`` (``sim learn``): the model kept
    under its key, or one trained now (issue #46; :func:`sim.learn.model_for`).

    Parameters
    ----------
    bots, games, seed
        The training's: its bots (default the game's ``TRAIN_BOTS``), games (default its
        ``TRAIN_GAMES``) and seed; each is part of the model's key.  Bots that read the
        first generation (``leaf=model``) train a second (found or trained first).
    generation : int
        2: the second generation, the one ``leaf=model2`` reads (learned from the games of
        the game's ``ITERATE_BOTS``, a search that reads the first; where ``bots`` is not given).
    jobs : int, optional
        Threads playing the training games (default every core).
    out : path, optional
        Write the report (HTML and figures) into this new folder.
    retrain : bool
        Train again even where a model is kept (and replace it).
    note : callable, optional
        Hears what a training does (one line before, one after); default silent.

    Returns
    -------
    sim.learn.LearnResult
        ``model`` (its arrays, key, file and held-out figures in ``model.meta``), ``text``
        (what ``sim learn`` prints), ``report`` (index.html, where ``out`` was given) and
        ``write_report(path)``.

    Examples
    --------
    >>> print(learn("puluc", games=2000).text)
    """
    from analysis.learn_report import write_learn_report

    from .games import get as get_game
    from .learn import LearnResult, model_for, summary_text
    from .validate import check_jobs
    g = get_game(game)
    out = _out(out, "experiment")
    jobs = check_jobs(0 if jobs is None else jobs)
    m = model_for(g, rules or {}, players, bots=bots, games=games, seed=seed, note=note, jobs=jobs,
                  retrain=bool(retrain), generation=generation)
    res = LearnResult(g.name, int(m.meta.get("players") or g.check_players(players)), m, summary_text(m),
                      _write=lambda path: write_learn_report(m, path))
    if out is not None:
        from .validate import create_out_dir
        res.report = res.write_report(create_out_dir(out)[0])
    return res
