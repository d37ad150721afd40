"""The page of ``sim tune``: the verdict, the re-played best candidates beside the rulebook,
the front (several targets), each target's response to each parameter, and every candidate
the search evaluated with the games spent on it (``templates/tune.html``)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import plots  # noqa: E402
from .pages import CSS, SELF_CHECK, Markup, bots_sentence, render, write_page  # noqa: E402
from .tune import (TuneResult, _fmtv as _v, _losses, _show, beside_metrics, beside_value, estimate,  # noqa: E402
                   followup_command, game_sides, interval, loss_text, tune_text, variants_toml)

METHOD = ("Candidates are proposed by optuna ({sampler}, seeded with the run's seed) and raced: "
          "each plays the first {n0:,} games, and is promoted to {eta} times more games (rungs "
          "{rungs}) only while it ranks in the best 1/{eta} of its rung (several targets: no "
          "candidate of its rung dominates it) and no candidate measured on at least as many games "
          "beats it by more than two standard errors of both. Every candidate plays the same game "
          "indices on the same seed (common random numbers). A target's loss is its distance from "
          "what is wanted. The verdict comes from a separate replay on a fresh seed; intervals are "
          "normal-approximation 95% intervals of the per-game means (the spread's from the paired "
          "per-game difference of its two extreme sides).")


def write_tune_report(res: TuneResult, out_dir) -> Path:
    from sim.io import write_json, write_text
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    sides = game_sides(res)
    m = res.manifest
    figs = []
    best = res.final[1] if len(res.final) > 1 else None
    for i, t in enumerate(res.targets):
        for j, s in enumerate(res.spaces):
            fn = f"tune_response_{i}_{j}.png"
            _response(res, t, s, best, out_dir / fn, sides)
            figs.append((fn, f"{t.metric.name} against {s.name}"))
    front = len(res.targets) > 1
    if front:
        _front_figure(res, out_dir / "tune_front.png", sides)
    beside = beside_metrics(res)
    header = (["candidate"] + [f"{t.metric.name} (wanted {t.wanted()})" for t in res.targets]
              + [f"length ({name})" if metric.name == "length" else name for name, metric in beside] + ["games"])
    rows = []
    for label, _, M in res.final:
        cells = [label]
        for t in res.targets:
            v, lo, hi = interval(t.metric, M, sides)
            cells.append(f"{_show(t.metric, v)} [{_show(t.metric, lo)}, {_show(t.metric, hi)}]")
        for _, metric in beside:    # beside the targets: what a target may not watch
            v, se = beside_value(res, metric, M)
            cells.append(f"{_show(metric, v)} [{_show(metric, v - 1.96 * se)}, {_show(metric, v + 1.96 * se)}]"
                         if se == se else _show(metric, v))
        rows.append(cells + [f"{M.n:,}"])
    search_header = (["#"] + [s.name for s in res.spaces] + ["games"]
                     + [t.metric.name for t in res.targets]
                     + ["loss (distance from the target" + ("s" if len(res.targets) > 1 else "")
                        + ": points for a rate)", "stopped"])
    search_rows = []
    for c in sorted(res.candidates, key=lambda c: c.number):
        L, _ = _losses(res.targets, c.moments, sides)
        search_rows.append([str(c.number)] + [_v(c.values[s.name]) for s in res.spaces]
                           + [f"{c.moments.n:,}"]
                           + [_show(t.metric, estimate(t.metric, c.moments, sides)[0]) for t in res.targets]
                           + ["; ".join(loss_text(t, x) for t, x in zip(res.targets, L)),
                              c.stopped or "deepest rung reached"])
    title = f"{res.game.title}: tuning {', '.join(s.name for s in res.spaces)}"
    sub = (f"{res.players} players · targets {', '.join(t.text for t in res.targets)} · ranges "
           + ", ".join(f"{s.name}={s.text()}" for s in res.spaces)
           + f" · seed {res.seed} · {m['seconds']:.0f} s")
    compare_cmd = followup_command(res)
    page = render("tune.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK), sub=sub,
                  verdict=res.verdict, notes=res.notes, final_games=f"{res.final_games:,}",
                  final_seed=res.final_seed, compare_cmd=compare_cmd, final_rows=rows,
                  final_header=header, front_figure=front, response_figures=figs,
                  search_sentence=(f"{len(res.candidates)} candidates, {res.search_games:,} games "
                                   f"in all ({m['seconds_search']:.0f} s)."),
                  search_rows=search_rows, search_header=search_header,
                  method=METHOD.format(sampler=m["sampler"], n0=res.rungs[0], eta=m["eta"],
                                       rungs=", ".join(f"{x:,}" for x in res.rungs)),
                  bots=bots_sentence({"bots": res.bots}))
    write_text(out_dir / "variants.toml", variants_toml(res))
    write_text(out_dir / "tune.txt", tune_text(res) + "\n")
    page_figs = [(fn,) for fn, _ in figs] + ([("tune_front.png",)] if front else [])
    path = write_page(out_dir, page, page_figs)
    write_json(out_dir / "manifest.json", {**m, "verdict": res.verdict, "notes": res.notes})
    write_json(out_dir / "tune.json", tune_json(res))
    return path


def tune_json(res: TuneResult) -> dict:
    """Every figure of a search, exactly (what tune.json holds): each candidate's games,
    sums, losses per rung and why it stopped; the finalists; the replay; the verdict."""
    def moments(M):
        return {"n": int(M.n), **{k: None if getattr(M, k) is None else np.asarray(getattr(M, k)).tolist()
                                  for k in ("s", "s2", "cross", "differ", "event_either", "any_event_either")}}

    return {"rungs": list(res.rungs), "search_games": int(res.search_games),
            "candidates": [{"number": c.number, "values": {k: _v(x) for k, x in c.values.items()},
                            "moments": moments(c.moments), "stopped": c.stopped,
                            "rung_losses": {str(r): np.asarray(v).tolist() for r, v in sorted(c.rung_losses.items())}}
                           for c in res.candidates],
            "finalists": [c.number for c in res.finalists],
            "final": [{"label": label, "values": {k: _v(x) for k, x in vals.items()}, "moments": moments(M)}
                      for label, vals, M in res.final],
            "final_seed": str(res.final_seed), "verdict": res.verdict, "notes": res.notes,
            "manifest": res.manifest}


def tune_from_json(data: dict) -> TuneResult:
    """The search :func:`tune_json` saved, rebuilt (``sim report DIR`` of a tune folder): the
    spaces and targets parsed again from the manifest, every value typed by its space."""
    from sim.games import get
    from .tune import Candidate, Moments, parse_params, parse_targets
    m = data["manifest"]
    game = get(m["game"])
    players = int(m["players"])
    spaces = parse_params(list(m["params"]), game)
    targets = parse_targets(list(m["targets"]), game, players)
    kinds = {s.name: s for s in spaces}

    def typed(values: dict) -> dict:
        out = {}
        for k, x in values.items():
            s = kinds.get(k)
            if s is None or s.kind == "choice":
                out[k] = next((c for c in (s.choices if s else ()) if _v(c) == x), x)
            else:
                out[k] = int(float(x)) if s.kind == "int" else float(x)
        return out

    def moments(d) -> Moments:
        arr = {k: None if d.get(k) is None else np.asarray(d[k], np.float64) for k in ("s", "s2", "cross")}
        ev = None if d.get("event_either") is None else np.asarray(d["event_either"], np.int64)
        return Moments(int(d["n"]), arr["s"], arr["s2"], arr["cross"],
                       None if d.get("differ") is None else int(d["differ"]), ev,
                       None if d.get("any_event_either") is None else int(d["any_event_either"]))

    cands = [Candidate(int(c["number"]), typed(c["values"]), moments(c["moments"]),
                       {int(r): np.asarray(v, np.float64) for r, v in c["rung_losses"].items()}, c["stopped"])
             for c in data["candidates"]]
    by_number = {c.number: c for c in cands}
    final = [(f["label"], typed(f["values"]), moments(f["moments"])) for f in data["final"]]
    return TuneResult(game, players, spaces, targets, cands, list(data["rungs"]),
                      [by_number[k] for k in data["finalists"]], final, int(data["final_seed"]),
                      int(m["final_games_each"]), int(data["search_games"]), float(m["seconds"]),
                      list(m["bots"]), int(m["seed"]), list(data["notes"]), list(data["verdict"]), m)


def _response(res, t, s, best, path, sides):
    fig, ax = plt.subplots(figsize=(8.8, 3.6))
    scale = 100.0 if t.metric.kind == "rate" else 1.0
    if s.kind == "choice":
        pos = {repr(v): k for k, v in enumerate(s.choices)}
        xs = [pos[repr(c.values[s.name])] for c in res.candidates]
        ax.set_xticks(range(len(s.choices)), [_v(v) for v in s.choices])
    else:
        xs = [float(c.values[s.name]) for c in res.candidates]
    ys, es, ns = [], [], []
    for c in res.candidates:
        v, se = estimate(t.metric, c.moments, sides)
        ys.append(v * scale)
        es.append(1.96 * se * scale)
        ns.append(c.moments.n)
    deep = np.asarray(ns) == max(ns)
    xs, ys, es = np.asarray(xs, float), np.asarray(ys), np.asarray(es)
    ax.errorbar(xs[~deep], ys[~deep], yerr=es[~deep], fmt="o", color="#999", alpha=0.6, ms=3,
                capsize=2, label="stopped early")
    ax.errorbar(xs[deep], ys[deep], yerr=es[deep], fmt="o", color=plots.OKABE_ITO[0], ms=4,
                capsize=3, label=f"{max(ns):,} games")
    if t.op in ("=", "<=", ">="):
        ax.axhline(t.value * scale, ls="--", color=plots.OKABE_ITO[5], label="target")
    elif t.op == "range":
        ax.axhspan(t.value * scale, t.hi * scale, color=plots.OKABE_ITO[5], alpha=0.15, label="target")
    if best is not None:
        bx = best[1][s.name]
        bx = pos[repr(bx)] if s.kind == "choice" else float(bx)
        v, lo, hi = interval(t.metric, best[2], sides)
        ax.errorbar([bx], [v * scale], yerr=[[(v - lo) * scale], [(hi - v) * scale]], fmt="D",
                    color=plots.OKABE_ITO[2], ms=7, capsize=4, label="best, re-played")
    unit = " (%)" if scale == 100 else ""
    plots._style(ax, f"{t.metric.name} against {s.name}", s.name, t.metric.name + unit)
    plots.legend_outside(ax, fontsize=8)
    plots.save(fig, path)


def _front_figure(res, path, sides):
    a, b = res.targets[0], res.targets[1]
    fig, ax = plt.subplots(figsize=(8.5, 4.5))
    L = np.array([_losses(res.targets, c.moments, sides)[0][:2] for c in res.candidates])
    ax.scatter(L[:, 0], L[:, 1], color="#aaa", s=12, label="every candidate (search)")
    for k, (label, _, M) in enumerate(res.final):
        la, _ = _losses(res.targets, M, sides)
        ax.scatter([la[0]], [la[1]], s=40, color=plots.OKABE_ITO[k % 8], label=label[:40])
    plots._style(ax, "Losses of the first two targets", f"loss of {a.metric.name}", f"loss of {b.metric.name}")
    plots.legend_outside(ax, fontsize=7)
    plots.save(fig, path)
