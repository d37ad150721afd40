"""The page of ``sim skill --ladder``: the edge and the length against playing strength
(``templates/ladder.html``); ``ladder.json`` beside it rebuilds it (``sim report``)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import plots  # noqa: E402
from .ladder import LadderResult, to_json, verdict  # noqa: E402
from .pages import CSS, SELF_CHECK, Markup, render, write_page  # noqa: E402

METHOD = ("Each rung plays {n:,} games with every seat the same bot; each pair of neighbouring "
          "rungs plays {n:,} games per seating (the lower rung on each side in turn) on the same "
          "master seed. Ratings: a Bradley-Terry fit of the neighbours' games on the Elo scale, "
          "the weakest rated rung at 0 (a game without a winner counts half; with more than two sides "
          "a seating's score is 1/2 + 1/2 (a - b) / (a + b) from the lower rung's side win rate a "
          "and the other sides' mean b). Shares: 95% Wilson intervals; the trend: the strongest "
          "rung's first-side score minus the weakest's, with a 95% normal interval. The first "
          "side's score counts a game without a winner as the fair share.")


def _x(res: LadderResult):
    """Elo where every rung has one, else the rung's position."""
    if np.all(np.isfinite(res.elo)):
        return np.asarray(res.elo), "playing strength (Elo, weakest rated rung 0)"
    return np.arange(len(res.rungs), dtype=float), "rung (weakest first)"


def _figure(res: LadderResult, path: Path) -> None:
    x, xlabel = _x(res)
    o = np.argsort(x, kind="stable")  # lines join the rungs in order of strength
    x = x[o]
    res = LadderResult(**{**res.__dict__, "rungs": [res.rungs[i] for i in o]})
    sides = res.game.side_labels(res.players)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 4.2))
    fs = np.array([r.first_share for r in res.rungs])
    lo = np.array([r.first_lo for r in res.rungs])
    hi = np.array([r.first_hi for r in res.rungs])
    ax.errorbar(x, 100 * fs, yerr=100 * np.vstack([fs - lo, hi - fs]), fmt="o-", capsize=4,
                color=plots.OKABE_ITO[7], label="first side (turn order)")
    for k, name in enumerate(sides):
        s = np.array([r.side_share[k] for r in res.rungs])
        slo = np.array([r.side_lo[k] for r in res.rungs])
        shi = np.array([r.side_hi[k] for r in res.rungs])
        ax.errorbar(x, 100 * s, yerr=100 * np.vstack([s - slo, shi - s]), fmt="s--", capsize=3,
                    color=plots.OKABE_ITO[k % 7], alpha=0.8, label=name)
    ax.axhline(100.0 / len(sides), color="grey", lw=1, ls=":", label="fair share")
    # each rung by its number beside its point (names overlapped where rungs lie close), the
    # numbers' names in the legend beside the panel
    from matplotlib.lines import Line2D
    for k, r in enumerate(res.rungs):
        ax.add_line(Line2D([], [], ls="none", marker=f"${k + 1}$", color="black", label=f"rung {k + 1}: {r.bot}"))
    plots._style(ax, "Win shares with equal bots, by strength", xlabel, "share of games (%)")
    plots.legend_outside(ax, fontsize=7)
    ln = np.array([r.length for r in res.rungs])
    bx.plot(x, ln, "o-", color=plots.OKABE_ITO[2])
    cap = np.array([r.capped for r in res.rungs])
    if cap.max() > 0:
        tx = bx.twinx()
        tx.plot(x, 100 * cap, "x:", color=plots.OKABE_ITO[5])
        tx.set_ylabel("stopped by the horizon (%)")
    plots._style(bx, "Game length by strength", xlabel, f"mean {res.game.length_unit}")
    plots.place_labels(ax, x, 100 * fs, [str(k + 1) for k in range(len(res.rungs))])
    plots.save(fig, path)


def write_ladder_report(res: LadderResult, out_dir, *, lead: list[str] | None = None,
                        steps: tuple[list, list] | None = None, saved: tuple[str, dict] | None = None,
                        title: str = "balance by skill") -> Path:
    """The ladder's page and ``ladder.json``; ``sim strength`` gives its own sentences first
    (``lead``), a table of its steps (header, rows) and the file it is rebuilt from."""
    from sim.io import write_json
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    figs = [("ladder.png",)] if res.rungs else []
    if figs:
        _figure(res, out_dir / "ladder.png")
    sides = res.game.side_labels(res.players)
    header = (["rung", "Elo [95%]", "first side"] + sides
              + ["no winner", "capped", f"mean {res.game.length_unit}"])
    rows = []
    for i, r in enumerate(res.rungs):
        elo = ("n/a" if res.elo[i] != res.elo[i]
               else f"{res.elo[i]:.0f} [{res.elo_lo[i]:.0f}, {res.elo_hi[i]:.0f}]")
        rows.append([r.bot, elo, f"{100 * r.first_share:.1f}% [{100 * r.first_lo:.1f}, {100 * r.first_hi:.1f}]"]
                    + [f"{100 * s:.1f}% [{100 * a:.1f}, {100 * b:.1f}]"
                       for s, a, b in zip(r.side_share, r.side_lo, r.side_hi)]
                    + [f"{100 * r.no_winner:.1f}%", f"{100 * r.capped:.1f}%", f"{r.length:.1f}"])
    pair_rows = [[f"{res.rungs[i].bot} vs {res.rungs[j].bot}", f"{100 * s:.1f}%", f"{int(t):,}"]
                 for i, j, s, t in res.pairs]
    n = res.rungs[0].n if res.rungs else 0
    page = render("ladder.html", title=f"{res.game.title}: {title}", css=Markup(CSS),
                  self_check=Markup(SELF_CHECK),
                  sub=f"{res.players} players · ladder {', '.join(r.bot for r in res.rungs)} · seed {res.seed}",
                  verdict=(lead or []) + verdict(res), rows=rows, header=header, pair_rows=pair_rows,
                  steps=steps, method=METHOD.format(n=n), figure=bool(figs))
    path = write_page(out_dir, page, figs)
    name, data = saved or ("ladder.json", to_json(res))
    write_json(out_dir / name, data)
    return path
