"""The page of ``sim learn``: what a game's learned value is worth, measured on games it never
fitted (``sim/learn.py`` keeps the held-out positions' outcomes and predictions with the
model): log loss against the base rate and the game's own evaluation, a reliability diagram,
accuracy and log loss by game progress, and what the model is (key, kind, size, training)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.fit import calibration_gap, fair_accuracy, log_loss, reliability  # noqa: E402
from sim.learn import Model  # noqa: E402

from . import plots  # noqa: E402
from .pages import Markup, _table, escape, page_head, write_pages  # noqa: E402

MODEL, BASE, OWN = plots.OKABE_ITO[0], plots.NEUTRAL, plots.OKABE_ITO[1]


def _base_p(m: Model) -> np.ndarray:
    """Each held-out position's base rate: its seat's mean outcome in the fitting games."""
    rates = m.meta.get("base_rate") or []
    seat = np.asarray(m.test["seat"], dtype=np.int64)
    fallback = float(np.mean([r for r in rates if r is not None])) if rates else 0.5
    table = np.array([fallback if r is None else r for r in rates] or [fallback])
    return table[np.clip(seat, 0, table.size - 1)]


def by_progress(m: Model, tenths: int = 10) -> list[dict]:
    """Per tenth of the game played: positions, log loss (model, base rate, the game's own
    evaluation) and the share on the right side of the fair share (model, own evaluation)."""
    t = m.test
    players = int(m.meta.get("players") or 2)
    k = np.minimum((np.asarray(t["progress"], dtype=np.float64) * tenths).astype(int), tenths - 1)
    y, p, bl, base = t["y"], t["p"], np.asarray(t["baseline"], dtype=np.float64), _base_p(m)
    out = []
    for j in range(tenths):
        s = k == j
        has = s & np.isfinite(bl)
        out.append({"tenth": j, "positions": int(s.sum()),
                    "log_loss": log_loss(y[s], p[s]), "log_loss_base": log_loss(y[s], base[s]),
                    "log_loss_own": log_loss(y[has], bl[has]) if has.any() else float("nan"),
                    "accuracy": fair_accuracy(y[s], p[s], players),
                    "accuracy_own": fair_accuracy(y[has], bl[has], players) if has.any() else float("nan")})
    return out


def _reliability_figure(m: Model, path: Path) -> None:
    t = m.test
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(8.6, 6.2), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    ax.plot([0, 1], [0, 1], ls=":", color="grey", lw=1, label="perfectly calibrated")
    true, pred, n = reliability(t["y"], t["p"])
    ax.plot(pred, true, "o-", color=MODEL, label=f"the model ({m.kind})")
    bl = np.asarray(t["baseline"], dtype=np.float64)
    has = np.isfinite(bl)
    if has.any():
        bt, bp, _ = reliability(t["y"][has], bl[has])
        ax.plot(bp, bt, "s--", color=OWN, alpha=0.8, label="the game's own evaluation")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    plots._style(ax, "Reliability on held-out games", "", "mean outcome (share of a win)")
    plots.legend_outside(ax)
    edges = np.linspace(0, 1, 11)
    bx.hist(np.asarray(t["p"], dtype=np.float64), bins=edges, color=MODEL, alpha=0.7)
    plots._style(bx, "", "predicted win probability", "positions")
    plots.save(fig, path)


def _progress_figure(rows: list[dict], path: Path) -> None:
    x = np.array([r["tenth"] for r in rows]) * 10 + 5
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4))
    for key, label, color, style in (("log_loss", "the model", MODEL, "o-"),
                                     ("log_loss_base", "base rate", BASE, "x:"),
                                     ("log_loss_own", "the game's own evaluation", OWN, "s--")):
        y = np.array([r[key] for r in rows], dtype=float)
        if np.isfinite(y).any():
            ax.plot(x, y, style, color=color, label=label)
    plots._style(ax, "Log loss by game progress (lower is better)", "share of the game played (%)",
                 "log loss")
    plots.legend_outside(ax)
    for key, label, color, style in (("accuracy", "the model", MODEL, "o-"),
                                     ("accuracy_own", "the game's own evaluation", OWN, "s--")):
        y = np.array([r[key] for r in rows], dtype=float)
        if np.isfinite(y).any():
            bx.plot(x, 100 * y, style, color=color, label=label)
    plots._style(bx, "Right side of the fair share, by progress", "share of the game played (%)",
                 "positions (%)")
    plots.legend_outside(bx)
    plots.save(fig, path)


def _fmt(x, digits=4) -> str:
    return "n/a" if x is None or x != x else f"{x:.{digits}f}"


def write_learn_report(m: Model, out_dir, title: str | None = None) -> Path:
    """index.html, report-standalone.html, reliability.png, progress.png and model.json
    (the model's description) in ``out_dir``; returns index.html's path."""
    from sim.io import write_json
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    d = m.meta
    rows = by_progress(m)
    _reliability_figure(m, out_dir / "reliability.png")
    _progress_figure(rows, out_dir / "progress.png")
    players = int(d.get("players") or 2)
    changed = ", ".join(f"{k}={v}" for k, v in (d.get("rules_changed") or {}).items()) or "the rulebook's rules"
    gap = calibration_gap(m.test)
    acc = fair_accuracy(m.test["y"], m.test["p"], players)
    lead = [f"Held-out log loss {_fmt(d['log_loss'])} against {_fmt(d['log_loss_base'])} for each seat's "
            f"base rate"]
    if d.get("log_loss_baseline") is not None:
        lead[0] += (f" and {_fmt(d['log_loss_baseline'])} for the game's own evaluation"
                    + (f" ({_fmt(d.get('log_loss_baseline_fit'))} at its best scale)"
                       if d.get("log_loss_baseline_fit") is not None else ""))
    lead[0] += f", on {d.get('positions_test'):,} positions of games the model never saw."
    lead.append(f"Calibration: in every tenth of the predictions holding 1% of the positions or more, the "
                f"mean outcome lies within {100 * gap:.1f} points of the mean prediction.")
    lead.append(f"The prediction lies on the same side of the fair share ({100 / players:.0f}%) as the outcome "
                f"for {100 * acc:.1f}% of the positions (a draw at the fair share left out).")
    table_rows = [["the model (" + m.kind + ")", _fmt(d["log_loss"]), f"{100 * acc:.1f}%"],
                  ["base rate (each seat's mean outcome)", _fmt(d["log_loss_base"]), ""]]
    if d.get("log_loss_baseline") is not None:
        own = np.asarray(m.test["baseline"], dtype=np.float64)
        has = np.isfinite(own)
        table_rows.append(["the game's own evaluation", _fmt(d["log_loss_baseline"]),
                           f"{100 * fair_accuracy(m.test['y'][has], own[has], players):.1f}%"])
        if d.get("log_loss_baseline_fit") is not None:
            table_rows.append(["... at its best scale (fitted on the training games)",
                               _fmt(d["log_loss_baseline_fit"]), ""])
    prog_rows = [[f"{10 * r['tenth']}-{10 * r['tenth'] + 10}%", f"{r['positions']:,}", _fmt(r["log_loss"]),
                  _fmt(r["log_loss_base"]), _fmt(r["log_loss_own"]),
                  "n/a" if r["accuracy"] != r["accuracy"] else f"{100 * r['accuracy']:.1f}%",
                  "n/a" if r["accuracy_own"] != r["accuracy_own"] else f"{100 * r['accuracy_own']:.1f}%"]
                 for r in rows]
    cand_rows = [[c["kind"], _fmt(c["log_loss_choose"]), f"{c['seconds']:.1f} s"] for c in d.get("candidates", [])]
    about = [["key", m.key], ["kind", m.kind], ["size", f"{int(m.mp.size):,} parameters, {int(m.ms[0])} features"],
             ["training games", f"{d.get('games'):,} by {', '.join(dict.fromkeys(d.get('train_bots') or []))} "
                                f"(seed {d.get('seed')}, {d.get('per_game')} positions a game at most)"],
             ["positions", f"{d.get('positions'):,} (fitted {d.get('positions_fit'):,}, held out "
                           f"{d.get('positions_test'):,})"],
             ["seconds", f"{d.get('seconds', 0):.1f} (playing {d.get('seconds_play', 0):.1f}, fitting "
                         f"{d.get('seconds_fit', 0):.1f})"],
             ["features version", str(d.get("features_version"))], ["game version", str(d.get("game_version"))],
             ["scikit-learn", str(d.get("sklearn"))], ["file", str(m.path or "not kept")]]
    title = title or f"{d.get('game')}: learned value"
    parts = [page_head(title), f"<h1>{escape(title)}</h1>",
             f"<p class='sub'>{players} players · {escape(changed)} · model {escape(m.key[:16])}</p>",
             "<h2>In short</h2><ul>" + "".join(f"<li>{escape(s)}</li>" for s in lead) + "</ul>",
             "<h2>Held-out log loss</h2>",
             str(_table(table_rows, ["prediction", "log loss", "right side of the fair share"])),
             "<h2>Reliability</h2><p>Held-out positions binned by the model's prediction (tenths): "
             "the mean outcome against the mean prediction. On the diagonal, a prediction of 30% "
             "wins 30% of the time.</p><img src='reliability.png' alt='reliability diagram'>",
             "<h2>By game progress</h2><img src='progress.png' alt='log loss and accuracy by progress'>",
             str(_table(prog_rows, ["played", "positions", "log loss", "base rate", "own evaluation",
                                    "right side", "own evaluation right side"])),
             "<h2>The candidates</h2><p>Each fitted on 70% of the games and judged on another 15%; "
             "the best is kept and every figure above is measured on the last 15%.</p>",
             str(_table(cand_rows, ["kind", "log loss (choosing games)", "fitting time"])),
             "<h2>The model</h2>", str(_table(about, ["", ""])),
             f"<h2>Method</h2><p>{escape(METHOD)}</p>"]
    path = write_pages(out_dir, [Markup(p) if not isinstance(p, Markup) else p for p in parts],
                       [("reliability.png",), ("progress.png",)])
    write_json(out_dir / "model.json", {**d, **m.describe()})
    return path


METHOD = ("The training games are played by the training bots from a seed derived from the model's "
          "(so a run with that seed does not replay them); positions are sampled at decision points, "
          "each seen from every seat, and labelled with that seat's final share (1 sole win, 1/k shared, "
          "the fair share for a draw or a horizon stop, 0 lost). The games are split by their index "
          "(never a game on both sides): 70% fit each candidate (scikit-learn's logistic regression and "
          "small multi-layer perceptrons on standardised features, a share of a win as weighted 0/1 "
          "labels), 15% choose the candidate of least log loss, 15% are held out for the figures. The "
          "base rate is each seat's mean outcome in the fitting games; the game's own evaluation is its "
          "hand-written one as a probability, and at its best scale a logistic fit of its log-odds on "
          "the fitting games.")
