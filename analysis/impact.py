"""Card and event impact: observational (from a run's merged statistics) and causal
(the same seeds with the card removed or made neutral)."""
from __future__ import annotations

import html
import json
from pathlib import Path

import numpy as np
import pandas as pd

from .report import _table, page_head, write_pages
from .stats import newcombe_diff, ols_from_moments, two_proportion_p

OBSERVATIONAL = ("Observational: compares games in which a seat turned/received the card with "
                 "games in which it did not, and regresses each seat's win share on how many of "
                 "each card it got. Good players may get more cards, or cards may come with long "
                 "games, so these are associations, not effects.")
CAUSAL = ("Causal: the same games (same seeds, same everything else) played again with the card "
          "removed from the deck (or replaced by a neutral card); the difference in each seat's "
          "win rate is the card's effect, with a paired 95% interval.")


def observational(S, seats) -> pd.DataFrame:
    """Per card and seat: win rate when drawn vs not (Newcombe interval), and the regression
    coefficient of the win share on the count drawn (others held fixed)."""
    ev = S.events
    if not ev:
        return pd.DataFrame()
    names = ev["names"]
    rows = []
    for s in range(S.players):
        reg = None
        try:
            reg = ols_from_moments(np.asarray(ev["xtx"][s]), np.asarray(ev["xty"][s]), float(ev["yty"][s]),
                                   S.n, intercept=0, singular="pinv", names=["intercept"] + list(names))
        except (ValueError, np.linalg.LinAlgError):
            reg = None
        for k, name in enumerate(names):
            n1 = int(ev["drew_n"][k][s])
            w1 = float(ev["drew_win"][k][s])
            n0 = S.n - n1
            w0 = float(S.win[s]) - w1
            if n1 and n0:
                d, lo, hi = newcombe_diff(w1, n1, w0, n0)
                p = two_proportion_p(w1, n1, w0, n0)
            else:
                d = lo = hi = p = np.nan
            row = {"card": name, "seat": seats[s], "games drew": n1, "win rate drew": w1 / n1 if n1 else np.nan,
                   "win rate not": w0 / n0 if n0 else np.nan, "difference": d, "lo": lo, "hi": hi, "p": p}
            if reg is not None:
                row.update({"per card": reg["coef"][k + 1], "per card lo": reg["lo"][k + 1],
                            "per card hi": reg["hi"][k + 1]})
            rows.append(row)
    return pd.DataFrame(rows)


def write_impact_report(game, res, out_dir, card=None) -> Path:
    """``res``: the impact experiment (base first; with ``card``, the changed deck second)."""
    from .experiments import compare_table, save_experiment
    S, manifest = res.summaries[0], res.manifest
    causal_res = res if card else None
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    seats = manifest["seats"]
    obs = observational(S, seats)
    title = f"{game.title}: card impact" + (f" of '{card}'" if card else "")
    parts = [page_head(title), f"<h1>{html.escape(title)}</h1>",
             f"<p class='sub'>{S.n:,} games · bots {html.escape(', '.join(manifest['bots']))} · "
             f"seed {manifest['seed']}</p>"]
    if causal_res is not None:
        tab = compare_table(causal_res)
        keys = [f"win {s}" for s in range(len(seats))] + ["first player wins", game.length]
        if "score" in game.highlight:
            keys += [f"score {s}" for s in range(len(seats))]
        rows = []
        for _, r in tab[tab["key"].isin(keys) & (tab["variant"] != causal_res.variants[0][0])].iterrows():
            rows.append((r["metric"], f"{r['diff']:+.4f}", f"{r['diff_lo']:+.4f} to {r['diff_hi']:+.4f}",
                         f"{r['p']:.3g}"))
        parts.append("<h2>Causal effect (same seeds, card changed)</h2>")
        parts.append(f"<p>{html.escape(CAUSAL)}</p>")
        parts.append(_table(rows, ["metric", f"change ({causal_res.variants[1][0]} minus base)",
                                   "95% interval", "p-value"]))
    if len(obs):
        parts.append("<h2>Observational association</h2>")
        parts.append(f"<p>{html.escape(OBSERVATIONAL)}</p>")
        show = obs if card is None else obs[obs["card"] == card]
        rows = []
        for _, r in show.iterrows():
            rows.append((r["card"], r["seat"], f"{r['games drew']:,}", _pct(r["win rate drew"]),
                         _pct(r["win rate not"]), f"{100 * r['difference']:+.2f}" if r["difference"] == r["difference"] else "",
                         f"{100 * r['lo']:+.2f} to {100 * r['hi']:+.2f}" if r["lo"] == r["lo"] else "",
                         f"{100 * r.get('per card', np.nan):+.2f}" if r.get("per card") == r.get("per card") else ""))
        parts.append(_table(rows, ["card", "seat", "games it drew", "win rate if drew", "win rate if not",
                                   "difference (points)", "95% interval",
                                   "regression: points per card"]))
    parts.append("<details><summary>Manifest</summary><pre>" +
                 html.escape(json.dumps(manifest, indent=2, default=str)) + "</pre></details>")
    from sim.io import atomic_write, write_json
    if len(obs):
        atomic_write(out_dir / "observational.csv", lambda tmp: obs.to_csv(tmp, index=False))
    path = write_pages(out_dir, parts, [])
    write_json(out_dir / "experiment.json", {**save_experiment(res), "card": card})
    write_json(out_dir / "manifest.json", manifest)
    return path


def _pct(x) -> str:
    return "" if x != x else f"{100 * x:.2f}%"
