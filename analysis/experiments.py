"""Tables, figures and reports for comparisons, sweeps and skill tables."""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import plots  # noqa: E402
from .report import _table, page_head, write_pages  # noqa: E402
from .stats import mean_from_sums, paired_mean_diff, pentanomial  # noqa: E402

METHOD = ("Every variant plays the same game indices with the same seed, so game i of each "
          "variant sees the same dice and deck (common random numbers). A variant's value is the "
          "mean over its games with a 95% normal interval (for a rate this is the Wald interval; "
          "runs here are large). Its difference from the first variant is the mean of the "
          "per-game differences on the same seeds, with a 95% normal interval and a two-sided "
          "p-value (paired test), which is far tighter than comparing two independent runs. "
          "With different bots in the two seats, every game is also played with the seats "
          "swapped; each pair's points for the first-named bot give pentanomial counts "
          "(0, 1/2, 1, 3/2, 2), analysed as fishtest does.")


def metric_label(name: str, seats) -> str:
    parts = name.rsplit(" ", 1)
    if name.startswith("win ") and parts[1].isdigit():
        return f"win rate, {seats[int(parts[1])]}"
    if len(parts) == 2 and parts[1].isdigit():
        return f"{parts[0].replace('_', ' ')} per game, {seats[int(parts[1])]}"
    return {"first player wins": "first-player win rate", "no winner": "games without a winner",
            "capped": "games stopped by the horizon"}.get(name, name)


def compare_table(res) -> pd.DataFrame:
    """One row per (metric, variant): value with interval, difference from the first with p."""
    st = res.stats
    n = st["n"]
    seats = res.manifest["seats"]
    rows = []
    normal = [k for k, a in enumerate(res.arms) if not a.swapped]
    for m, name in enumerate(res.manifest["metrics"]):
        for k in normal:
            a = res.arms[k]
            v = mean_from_sums(n, st["sum"][k, m], st["sum2"][k, m])
            row = {"metric": metric_label(name, seats), "key": name, "variant": res.variants[a.variant][0],
                   "value": v["mean"], "lo": v["lo"], "hi": v["hi"], "games": n}
            if a.variant == 0:
                row.update(diff=0.0, diff_lo=np.nan, diff_hi=np.nan, p=np.nan)
            else:
                d = paired_mean_diff(n, st["dsum"][k, m], st["dsum2"][k, m])
                row.update(diff=d["mean"], diff_lo=d["lo"], diff_hi=d["hi"], p=d["p"])
            rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs.update(length=res.game.length, length_unit=res.game.length_unit)
    return out


def pairs_table(res) -> pd.DataFrame | None:
    pent = res.stats.get("pent") if res.stats else None
    if pent is None or len(pent) == 0:
        return None
    rows = []
    bots = res.manifest["bots"]
    for v, counts in enumerate(pent):
        r = pentanomial(counts)
        rows.append({"variant": res.variants[v][0], "pairs": int(counts.sum()),
                     "counts 0/½/1/1½/2": "/".join(str(int(c)) for c in counts),
                     f"score of {bots[0]}": r["score"], "lo": r["lo"], "hi": r["hi"], "p": r["p"],
                     "elo": r["elo"]})
    return pd.DataFrame(rows)


def _fmt(x, pct=False, nd=4):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return ""
    if pct:
        return f"{100 * x:.2f}%"
    return f"{x:,.{nd}g}" if abs(x) >= 1000 else f"{x:.{nd}f}"


def _is_rate(key: str) -> bool:
    return key.startswith(("win ", "first player", "no winner", "capped"))


def _unit(key: str, tab) -> str:
    return tab.attrs.get("length_unit", "") if key == tab.attrs.get("length") else ""


def forest_plot(tab: pd.DataFrame, keys, path, title):
    """Differences from the first variant with 95% intervals, one panel per metric."""
    variants = [v for v in tab["variant"].unique()][1:]
    fig, axes = plt.subplots(1, len(keys), figsize=(4.0 * len(keys) + 0.5, 0.6 * len(variants) + 2.2),
                             squeeze=False)
    for ax, key in zip(axes[0], keys):
        t = tab[(tab["key"] == key)].iloc[1:]
        scale = 100.0 if _is_rate(key) else 1.0
        y = np.arange(len(t))
        d = t["diff"].to_numpy() * scale
        err = np.vstack([d - t["diff_lo"].to_numpy() * scale, t["diff_hi"].to_numpy() * scale - d])
        ax.errorbar(d, y, xerr=err, fmt="o", color=plots.OKABE_ITO[0], capsize=5)
        ax.axvline(0, color="black", linewidth=1)
        ax.set_yticks(y, t["variant"].tolist())
        ax.invert_yaxis()
        unit = " (percentage points)" if _is_rate(key) else (
            f" ({units})" if (units := _unit(key, tab)) else "")
        ax.set_xlabel(f"difference from '{tab['variant'].iloc[0]}'{unit}")
        ax.set_title(t["metric"].iloc[0], fontsize=11, loc="left")
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(title, x=0.01, ha="left", fontsize=12)
    plots.save(fig, path)


def sweep_plot(tab: pd.DataFrame, key: str, grid, path, seats):
    """A metric against the swept parameter, 95% confidence band; one line per other value."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    t = tab[tab["key"] == key]
    first = grid[0]["param"]
    xs_all = grid[0]["values"]
    numeric = all(_isnum(v) for v in xs_all)
    others = [(",".join(v.split(",")[1:]) if len(grid) > 1 else "") for v in t["variant"]]
    t = t.assign(_x=[v.split(",")[0].split("=", 1)[1] for v in t["variant"]], _o=others)
    scale = 100.0 if _is_rate(key) else 1.0
    for i, (o, g) in enumerate(t.groupby("_o", sort=False)):
        x = np.array([float(v) for v in g["_x"]]) if numeric else np.arange(len(g))
        y = g["value"].to_numpy() * scale
        ax.plot(x, y, marker="o", color=plots.OKABE_ITO[i % 8], label=o or None)
        ax.fill_between(x, g["lo"].to_numpy() * scale, g["hi"].to_numpy() * scale,
                        color=plots.OKABE_ITO[i % 8], alpha=0.2, linewidth=0)
        if not numeric:
            ax.set_xticks(x, g["_x"].tolist())
    if key == "first player wins":
        ax.axhline(100.0 / len(seats), color="black", linestyle="--", linewidth=1)
    if len(grid) > 1:
        ax.legend(frameon=False, title=",".join(g["param"] for g in grid[1:]))
    unit = " (%)" if _is_rate(key) else ""
    plots._style(ax, f"{metric_label(key, seats)} against {first}", first, metric_label(key, seats) + unit)
    plots.save(fig, path)


def _isnum(v) -> bool:
    try:
        float(v)
        return True
    except ValueError:
        return False


def write_compare_report(res, out_dir) -> Path:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    m = res.manifest
    seats = m["seats"]
    tab = compare_table(res)
    figs = []
    key_metrics = ["first player wins"] + [f"win {s}" for s in range(m["players"])][:1] + [res.game.length]
    kind = m["kind"]
    if kind == "sweep":
        for key in m["metrics"]:
            fn = f"sweep_{key.replace(' ', '_')}.png"
            sweep_plot(tab, key, m["sweep"], out_dir / fn, seats)
            figs.append((fn, metric_label(key, seats)))
    elif len(res.variants) > 1:
        forest_plot(tab, key_metrics, out_dir / "differences.png",
                    "Each variant against the first, on the same seeds (bars: 95% interval)")
        figs.append(("differences.png", "Differences from the first variant"))
    title = f"{res.game.title}: {'sweep' if kind == 'sweep' else 'variant comparison'}"
    parts = [page_head(title), f"<h1>{html.escape(title)}</h1>",
             f"<p class='sub'>{len(res.variants)} variants × {m['games_completed']:,} games each · bots "
             f"{html.escape(', '.join(m['bots']))} · seed {m['seed']}</p>"]
    if m.get("partial"):
        parts.append("<p class='warn'><b>Partial run.</b> Stopped before the end; every figure uses "
                     f"the {m['games_completed']:,} games each variant finished.</p>")
    if m.get("sprt"):
        s = m["sprt"]
        last = {}
        for e in res.sprt_log:
            last[e["arm"]] = e
        lines = [f"Sequential test (SPRT) on {html.escape(metric_label(s['metric'], seats))}: "
                 f"H0 'no difference beyond ±{s['d']}' against H1 'a difference of at least {s['d']}', "
                 f"alpha {s['alpha']}, beta {s['beta']}."]
        for k, e in last.items():
            verdict = {"H0": "no difference beyond ±d", "H1": "a real difference"}.get(e["decision"],
                                                                                   "undecided")
            lines.append(f"{html.escape(res.arms[k].label)}: {verdict} after {e['games']:,} games "
                         f"(LLR {e['llr']:+.3f}, bounds {e['lower']:.3f} / {e['upper']:.3f}).")
        if not m.get("stopped_by_sprt"):
            lines.append("The test did not decide before --games was reached: the fixed-size "
                         "results below are the answer.")
        parts.append("<h2>Sequential test</h2><ul>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul>")
    parts.append("<h2>Variants</h2>")
    parts.append(_table([(n, ", ".join(f"{k}={v}" for k, v in ch.items()) or "rulebook rules")
                         for n, ch in res.variants], ["variant", "rules changed"]))
    for fig in figs:
        parts.append(f"<h2>{html.escape(fig[1])}</h2><img src='{fig[0]}' alt='{html.escape(fig[1])}'>")
    parts.append("<h2>Every metric</h2>")
    rows = []
    for _, r in tab.iterrows():
        pct = _is_rate(r["key"])
        rows.append((r["metric"], r["variant"], _fmt(r["value"], pct),
                     f"{_fmt(r['lo'], pct)} to {_fmt(r['hi'], pct)}",
                     "" if r["variant"] == res.variants[0][0] else _fmt(r["diff"], pct),
                     "" if not np.isfinite(r["diff_lo"]) else f"{_fmt(r['diff_lo'], pct)} to {_fmt(r['diff_hi'], pct)}",
                     "" if not np.isfinite(r["p"]) else f"{r['p']:.3g}"))
    parts.append(_table(rows, ["metric", "variant", "value", "95% interval",
                               f"difference from '{res.variants[0][0]}'", "95% interval", "p-value"]))
    pt = pairs_table(res)
    if pt is not None:
        parts.append("<h2>Seat-swapped pairs</h2>")
        parts.append(_table([tuple(_fmt(v) if isinstance(v, float) else v for v in r)
                             for r in pt.itertuples(index=False)], list(pt.columns)))
    parts.append(f"<h2>Method</h2><p>{html.escape(METHOD)}</p>")
    parts.append("<details><summary>Manifest</summary><pre>" +
                 html.escape(json.dumps(m, indent=2, default=str)) + "</pre></details>")
    from sim.io import atomic_write, write_json
    atomic_write(out_dir / "metrics.csv", lambda tmp: tab.to_csv(tmp, index=False))
    path = write_pages(out_dir, parts, figs)
    write_json(out_dir / "experiment.json", save_experiment(res))
    write_json(out_dir / "manifest.json", m)
    return path


def save_experiment(res) -> dict:
    """Everything the report is built from, so `sim report DIR` can rebuild it."""
    return {"kind": res.kind, "game": res.game.name, "manifest": res.manifest,
            "variants": [[n, ch] for n, ch in res.variants],
            "arms": [{"label": a.label, "variant": a.variant, "swapped": a.swapped} for a in res.arms],
            "stats": {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in res.stats.items()},
            "summaries": [S.to_dict() for S in res.summaries], "sprt_log": res.sprt_log}


def load_experiment(data: dict):
    """An ExperimentResult rebuilt from :func:`save_experiment`'s output."""
    from sim.experiments import Arm, ExperimentResult
    from sim.games import get
    from sim.summary import Summary
    stats = {k: (np.asarray(v) if isinstance(v, list) else v) for k, v in data["stats"].items()}
    if "pent" in stats:
        stats["pent"] = np.asarray(stats["pent"], np.int64).reshape(-1, 5)
    arms = [Arm(a["label"], a["variant"], a["swapped"], None) for a in data["arms"]]
    return ExperimentResult(data["kind"], get(data["game"]), arms,
                            [(n, ch) for n, ch in data["variants"]], stats,
                            [Summary.from_dict(d) for d in data["summaries"]], data["manifest"],
                            data["manifest"].get("partial", False), None, data.get("sprt_log", []))


def compare_text(res, keys=None) -> str:
    tab = compare_table(res)
    seats = res.manifest["seats"]
    keys = keys or ["first player wins", "win 0", res.game.length]
    lines = [f"{'metric':<28}{'variant':<22}{'value':>12}{'diff':>12}  95% interval of diff   p"]
    for key in keys:
        for _, r in tab[tab["key"] == key].iterrows():
            pct = _is_rate(key)
            lines.append(f"{metric_label(key, seats)[:27]:<28}{str(r['variant'])[:21]:<22}"
                         f"{_fmt(r['value'], pct):>12}{_fmt(r['diff'], pct) if r['p'] == r['p'] else '':>12}"
                         + (f"  {_fmt(r['diff_lo'], pct)} .. {_fmt(r['diff_hi'], pct)}  {r['p']:.3g}"
                            if r["p"] == r["p"] else ""))
    return "\n".join(lines)


def write_skill_report(res: dict, out_dir) -> Path:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    game, names, bt = res["game"], res["bots"], res["bt"]
    rate = np.divide(res["wins"], res["games"], out=np.full_like(res["wins"], np.nan),
                     where=res["games"] > 0)
    fig, ax = plt.subplots(figsize=(1.2 * len(names) + 3, 1.0 * len(names) + 2))
    im = ax.imshow(rate * 100, cmap="cividis", vmin=0, vmax=100)
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j:
                ax.text(j, i, f"{100 * rate[i, j]:.1f}%", ha="center", va="center",
                        color="white" if rate[i, j] < 0.5 else "black")
    ax.set_xticks(range(len(names)), names)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    fig.colorbar(im, ax=ax, label="score of the row bot (%)")
    ax.set_title("Head to head: score of the row bot, both seatings", loc="left", fontsize=11)
    plots.save(fig, out_dir / "skill_matrix.png")
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 2))
    order = np.argsort(bt["ratings"])
    y = np.arange(len(names))
    r = np.asarray(bt["ratings"])[order]
    ax.errorbar(r, y, xerr=np.vstack([r - np.asarray(bt["lo"])[order], np.asarray(bt["hi"])[order] - r]),
                fmt="o", capsize=5, color=plots.OKABE_ITO[0])
    ax.set_yticks(y, [names[i] for i in order])
    plots._style(ax, "Bradley–Terry ratings (Elo scale, mean 0; bars: 95% interval)", "rating (Elo)", "")
    plots.save(fig, out_dir / "skill_ratings.png")
    spread = float(np.max(bt["ratings"]) - np.min(bt["ratings"]))
    best, worst = int(np.argmax(bt["ratings"])), int(np.argmin(bt["ratings"]))
    title = f"{game.title}: skill depth"
    parts = [page_head(title), f"<h1>{html.escape(title)}</h1>",
             f"<p class='sub'>{res['players']} players · every ordered pairing of "
             f"{html.escape(', '.join(names))} on the same seeds</p>",
             "<h2>In short</h2><ul class='key'>",
             f"<li>How much better play matters: the best bot ({html.escape(names[best])}) is rated "
             f"{spread:.0f} Elo above the weakest ({html.escape(names[worst])}); it scores "
             f"{100 * rate[best, worst]:.1f}% against it.</li></ul>",
             "<h2>Head to head</h2><img src='skill_matrix.png' alt='win matrix'>",
             "<h2>Ratings</h2><img src='skill_ratings.png' alt='ratings'>"]
    rows = [(names[i], f"{bt['ratings'][i]:+.1f}", f"{bt['lo'][i]:+.1f} to {bt['hi'][i]:+.1f}")
            for i in np.argsort(-np.asarray(bt["ratings"]))]
    parts.append(_table(rows, ["bot", "rating (Elo)", "95% interval"]))
    parts.append("<p>Method: scores count a win as 1, a game without a winner as ½. Ratings are a "
                 "Bradley–Terry fit (MM algorithm, Hunter 2004) with standard errors from the "
                 "Fisher information, on the Elo scale.</p>")
    figs = [("skill_matrix.png",), ("skill_ratings.png",)]
    from sim.io import write_json
    path = write_pages(out_dir, parts, figs)
    write_json(out_dir / "skill.json", {
        "kind": "skill", "game": game.name, "bots": names, "players": res["players"],
        "wins": res["wins"].tolist(), "games": res["games"].tolist(), "rules": res["rules"],
        "bt": {k: np.asarray(bt[k]).tolist() for k in ("ratings", "se", "lo", "hi")}})
    return path


def load_skill(data: dict) -> dict:
    from sim.games import get
    return {"game": get(data["game"]), "bots": data["bots"], "players": data["players"],
            "wins": np.asarray(data["wins"]), "games": np.asarray(data["games"]),
            "rules": data["rules"], "bt": {k: np.asarray(v) for k, v in data["bt"].items()}}


def skill_text(res: dict) -> str:
    names, bt = res["bots"], res["bt"]
    lines = [f"{'bot':<24}{'rating':>10}   95% interval"]
    for i in np.argsort(-np.asarray(bt["ratings"])):
        lines.append(f"{names[i]:<24}{bt['ratings'][i]:>+10.1f}   {bt['lo'][i]:+.1f} .. {bt['hi'][i]:+.1f}")
    return "\n".join(lines)
