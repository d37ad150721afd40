"""Tables, figures and reports for comparisons, sweeps and skill tables."""
from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import metrics, plots  # noqa: E402
from .pages import CSS, SELF_CHECK, Markup, bots_sentence, render, write_page  # noqa: E402
from .stats import mean_from_sums, paired_mean_diff, pentanomial  # noqa: E402
from .wording import (BOTS_NOTE, WEAK_PAIRING, diff_text, edge_phrase, p_text, pairing_phrase, sprt_sentence,  # noqa: E402
                      multiple_comparisons_sentence, value_text, variance_reduction)

METHOD = ("Every variant plays the same game indices with the same seed, so game i of each "
          "variant sees the same dice and deck (common random numbers). A variant's value is the "
          "mean over its games with a 95% normal interval (for a rate this is the Wald interval; "
          "runs here are large). Its difference from the first variant is the mean of the "
          "per-game differences on the same seeds, with a 95% normal interval and a two-sided "
          "p-value (paired test), which is tighter than comparing two independent runs by as "
          "much as the pairing works. That is measured, not assumed: for each variant, the share "
          "of paired games with the same outcome (the same winning side, or both without a "
          "winner) and the variance reduction (var(a) + var(b)) / var(a - b), the factor by which "
          "pairing shrinks the squared interval against two independent samples of the same size "
          "(1: no gain; under 2 the pairing is called weak). The first-player score counts a game "
          "without a winner as the fair share (1/sides), so draws do not move it; the first-player "
          "win rate counts them as losses. With different bots in the two seats, every game is "
          "also played with the seats swapped; each pair's points for the first-named bot give "
          "pentanomial counts (0, 1/2, 1, 3/2, 2), analysed as fishtest does.")


def _names(manifest: dict) -> tuple[list, list, bool]:
    """(seat names, side names, team game?) of an experiment's manifest."""
    seats = list(manifest["seats"])
    teams = bool(manifest.get("teams"))
    sides = list(manifest.get("sides") or seats)
    if teams:
        sides = [f"team {x}" for x in sides]
    return seats, sides, teams


def metric_label(name: str, seats, sides=None, teams: bool = False) -> str:
    sides = sides or seats
    parts = name.rsplit(" ", 1)
    if name.startswith("win ") and parts[1].isdigit():
        return f"win rate, {sides[int(parts[1])]}"
    if len(parts) == 2 and parts[1].isdigit():
        return f"{parts[0].replace('_', ' ')} per game, {seats[int(parts[1])]}"
    who = "first-team" if teams else "first-player"
    return {"first player score": f"{who} score (no winner = fair share)",
            "first player wins": f"{who} win rate (no winner = loss)",
            "decisive": "decisive games (one " + ("team" if teams else "player") + " won)",
            "no winner": "games without a winner (draws)",
            "capped": "games stopped by the horizon"}.get(name, name)


def _label(res, name: str) -> str:
    seats, sides, teams = _names(res.manifest)
    return metric_label(name, seats, sides, teams)


def headline_key(res) -> str:
    return res.manifest.get("headline") or "first player wins"


def compare_table(res) -> pd.DataFrame:
    """One row per (metric, variant): value with interval, difference from the first with p,
    and how much the pairing shrank the variance of the difference (``vr``)."""
    st = res.stats
    n = st["n"]
    rows = []
    normal = [k for k, a in enumerate(res.arms) if not a.swapped]
    same = st.get("same")
    for m, name in enumerate(res.manifest["metrics"]):
        base = mean_from_sums(n, st["sum"][0, m], st["sum2"][0, m])
        for k in normal:
            a = res.arms[k]
            v = mean_from_sums(n, st["sum"][k, m], st["sum2"][k, m])
            row = {"metric": _label(res, name), "key": name, "variant": res.variants[a.variant][0],
                   "arm": k, "value": v["mean"], "lo": v["lo"], "hi": v["hi"], "games": n}
            if a.variant == 0:
                row.update(diff=0.0, diff_lo=np.nan, diff_hi=np.nan, p=np.nan, vr=np.nan, same=np.nan)
            else:
                d = paired_mean_diff(n, st["dsum"][k, m], st["dsum2"][k, m])
                vr = variance_reduction(float(v["sd"]) ** 2, float(base["sd"]) ** 2, float(d["sd"]) ** 2)
                row.update(diff=d["mean"], diff_lo=d["lo"], diff_hi=d["hi"], p=d["p"], vr=vr,
                           same=(same[k] / n) if same is not None and n else np.nan)
            rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs.update(length=res.game.length, length_unit=res.game.length_unit)
    return out


def pairing_table(res, key: str | None = None, tab: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per variant against the first: the share of paired games with the same outcome, the
    share with the same length, the variance reduction of the headline metric, in words.
    ``tab``: :func:`compare_table` of ``res``, where the caller has it already."""
    key = key or headline_key(res)
    tab = compare_table(res) if tab is None else tab
    st = res.stats
    n = st["n"]
    rows = []
    for _, r in tab[(tab["key"] == key) & (tab["variant"] != res.variants[0][0])].iterrows():
        k = int(r["arm"])
        same_len = st.get("same_length")
        rows.append({"variant": r["variant"], "same outcome": r["same"],
                     "same length": (same_len[k] / n) if same_len is not None and n else np.nan,
                     "variance reduction": r["vr"], "weak": bool(r["vr"] < WEAK_PAIRING),
                     "words": pairing_phrase(None if r["same"] != r["same"] else r["same"], r["vr"])})
    return pd.DataFrame(rows)


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


def _vr(x, short: bool = False) -> str:
    if x is None or x != x:
        return ""
    if x == math.inf:
        return "∞" if short else "∞ (every difference alike)"
    return f"{x:.1f}x"


def _is_rate(key: str) -> bool:
    return key.startswith(("win ", "first player", "no winner", "capped", "decisive"))


def _unit(key: str, tab) -> str:
    return tab.attrs.get("length_unit", "") if key == tab.attrs.get("length") else ""


#: at most this many variants (besides the reference) in the differences figure: its height
#: grows with every variant (2,000 variants drew a canvas of about a gigabyte)
FOREST_MAX = 40


def forest_variants(tab: pd.DataFrame, key: str, most: int | None = None) -> list:
    """The reference and the ``most`` (default :data:`FOREST_MAX`) variants furthest from it
    on ``key`` (by the absolute difference; ties in their order), in the order of the table."""
    most = FOREST_MAX if most is None else most
    variants = list(tab["variant"].unique())
    if len(variants) - 1 <= most:
        return variants
    t = tab[tab["key"] == key].iloc[1:]
    d = np.abs(np.nan_to_num(t["diff"].to_numpy(np.float64), nan=-1.0))
    far = set(t["variant"].iloc[np.argsort(-d, kind="stable")[:most]])
    return [variants[0]] + [v for v in variants[1:] if v in far]


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
        ax.set_title(t["metric"].iloc[0], fontsize=10, loc="left")
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(title, x=0.01, ha="left", fontsize=12)
    plots.save(fig, path)


def ranked_forest_plot(tab: pd.DataFrame, key: str, path, title: str, labels=None):
    """One metric's difference from the first variant for every other variant, ranked by the
    difference, with 95% paired intervals (card impact: one row per card)."""
    t = tab[tab["key"] == key].iloc[1:]
    t = t.iloc[np.argsort(-t["diff"].abs().to_numpy(), kind="stable")]  # largest effect on top
    scale = 100.0 if _is_rate(key) else 1.0
    fig, ax = plt.subplots(figsize=(8.0, 0.32 * len(t) + 1.8))
    y = np.arange(len(t))
    d = t["diff"].to_numpy() * scale
    err = np.vstack([d - t["diff_lo"].to_numpy() * scale, t["diff_hi"].to_numpy() * scale - d])
    colours = [plots.OKABE_ITO[5] if (lo > 0 or hi < 0) else plots.OKABE_ITO[0]
               for lo, hi in zip(t["diff_lo"], t["diff_hi"])]
    for yi, di, e0, e1, c in zip(y, d, err[0], err[1], colours):
        ax.errorbar([di], [yi], xerr=[[e0], [e1]], fmt="o", color=c, capsize=4)
    ax.axvline(0, color="black", linewidth=1)
    names = [labels.get(v, v) for v in t["variant"]] if labels else t["variant"].tolist()
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    unit = " (percentage points)" if _is_rate(key) else (f" ({u})" if (u := _unit(key, tab)) else "")
    ax.set_xlabel(f"{t['metric'].iloc[0]}: change against '{tab['variant'].iloc[0]}'{unit}")
    ax.set_title(title, fontsize=11, loc="left")
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="x", alpha=0.3)
    plots.save(fig, path)


def sweep_plot(tab: pd.DataFrame, key: str, grid, path, seats, sides=None, teams=False):
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
        if numeric:  # in order of the value (the reference, played first, may lie anywhere)
            g = g.iloc[np.argsort([float(v) for v in g["_x"]], kind="stable")]
        x = np.array([float(v) for v in g["_x"]]) if numeric else np.arange(len(g))
        y = g["value"].to_numpy() * scale
        ax.plot(x, y, marker="o", color=plots.OKABE_ITO[i % 8], label=o or None)
        ax.fill_between(x, g["lo"].to_numpy() * scale, g["hi"].to_numpy() * scale,
                        color=plots.OKABE_ITO[i % 8], alpha=0.2, linewidth=0)
        if not numeric:
            ax.set_xticks(x, g["_x"].tolist())
    if key in ("first player wins", "first player score") or key.startswith("win "):
        ax.axhline(100.0 / len(sides or seats), color="black", linestyle="--", linewidth=1)
    if len(grid) > 1:
        ax.legend(frameon=False, title=",".join(g["param"] for g in grid[1:]))
    unit = " (%)" if _is_rate(key) else ""
    label = metric_label(key, seats, sides, teams)
    plots._style(ax, f"{label} against {first}", first, label + unit)
    plots.save(fig, path)


def _isnum(v) -> bool:
    try:
        float(v)
        return True
    except ValueError:
        return False


def _pct(x) -> str:
    return "n/a" if x is None or x != x else f"{100 * x:.1f}%"


def _value(key: str, x, tab) -> str:
    if _is_rate(key):
        return "n/a" if x != x else f"{100 * x:.2f}%"
    u = _unit(key, tab)
    return f"{x:.2f}" + (f" {u}" if u else "")


def compare_headline(res, tab: pd.DataFrame | None = None) -> list[str]:
    """'In short': for every variant against the first, the headline metric, draws, the
    horizon and the length, each in words that scale with the size of the change, and how
    well the pairing worked; then the bots."""
    tab = compare_table(res) if tab is None else tab
    key = headline_key(res)
    base = res.variants[0][0]
    length = res.game.length
    out = []
    # once, not once per variant (a table per variant made 2,000 variants take hours)
    pt = pairing_table(res, tab=tab)
    rows = {(r["key"], r["variant"]): r for r in tab.to_dict("records")}
    for v, _ in res.variants[1:]:
        lines = []
        for k in (key, "no winner", "capped", length):
            r, b = rows.get((k, v)), rows.get((k, base))
            if r is None:
                continue
            what = _label(res, k)
            if _is_rate(k):
                words = edge_phrase(r["diff"], r["diff_lo"], r["diff_hi"], scale=100, noun="change",
                                    up="rise", down="fall")
            else:
                unit = res.game.length_unit if k == length else ""
                small = _small_length(b["value"])
                words = edge_phrase(r["diff"], r["diff_lo"], r["diff_hi"], unit=unit, noun="change",
                                    up="rise", down="fall", small=small, medium=3 * small,
                                    large=10 * small)
            lines.append(f"'{v}' against '{base}', {what}: {_value(k, b['value'], tab)} → "
                         f"{_value(k, r['value'], tab)}, {words}.")
        pr = pt[pt["variant"] == v] if len(pt) else pt
        if len(pr):
            w = pr.iloc[0]["words"]
            lines.append(f"Pairing of '{v}' with '{base}' ({_label(res, key)}): {w}.")
        out += lines
    many = multiple_note(res, tab)
    if many:
        out.append(many)
    ref = reference_note(res)
    if ref:
        out.insert(0, ref)
    out.append(bots_sentence(res.manifest))
    return out


def reference_note(res) -> str | None:
    """A sweep's reference in words: the rulebook's values, and whether the range held them."""
    ref = res.manifest.get("sweep_reference")
    if res.kind != "sweep" or not ref:
        return None
    where = ("not in the swept range, so it was played as well" if ref["added"]
             else "one of the swept values")
    return (f"Every difference is measured from the rulebook's {ref['label']} ({where}), "
            "on the same seeds.")


def multiple_note(res, tab: pd.DataFrame | None = None) -> str | None:
    """With more than one variant against the reference: how many headline differences
    survive the number of comparisons (:func:`analysis.wording.multiple_comparisons_sentence`)."""
    if len(res.variants) < 3:
        return None
    tab = compare_table(res) if tab is None else tab
    key = headline_key(res)
    t = tab[(tab["key"] == key) & (tab["variant"] != res.variants[0][0])]
    return multiple_comparisons_sentence(t["variant"].tolist(), t["p"].tolist(), _label(res, key))


def _small_length(base_mean: float) -> float:
    """A change of game length too small to matter: 1% of the reference's mean length (3%
    and 10% make it medium and large)."""
    return 0.01 * abs(base_mean) if base_mean == base_mean and base_mean else 1.0


def decisive_rows(res) -> list[tuple[str, str, str, str]]:
    """(variant, turn-order position, win rate among decisive games, 95% interval)."""
    rows = []
    for k, a in enumerate(res.arms):
        if a.swapped:
            continue
        S = res.summaries[k]
        for _, r in metrics.decisive_position_rates(S).iterrows():
            rows.append((res.variants[a.variant][0], r["label"], _pct(r["rate"]),
                         f"{_pct(r['lo'])} to {_pct(r['hi'])}"))
    return rows


def write_compare_report(res, out_dir) -> Path:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    m = res.manifest
    seats, sides, teams = _names(m)
    tab = compare_table(res)
    figs = []
    key = headline_key(res)
    key_metrics = [key, "no winner", "capped", res.game.length]
    kind = m["kind"]
    if kind == "sweep":
        for name in m["metrics"]:
            fn = f"sweep_{name.replace(' ', '_')}.png"
            sweep_plot(tab, name, m["sweep"], out_dir / fn, seats, sides, teams)
            figs.append((fn, _label(res, name)))
    elif len(res.variants) > 1:
        shown = forest_variants(tab, key)
        what = ("Each variant" if len(shown) == len(res.variants) else
                f"The {len(shown) - 1} of {len(res.variants) - 1:,} variants furthest from the first "
                f"on {_label(res, key)}")
        forest_plot(tab[tab["variant"].isin(shown)], key_metrics, out_dir / "differences.png",
                    f"{what} against the first, on the same seeds (bars: 95% interval)")
        figs.append(("differences.png", "Differences from the first variant" + (
            "" if len(shown) == len(res.variants) else
            f" ({len(shown) - 1} of {len(res.variants) - 1:,} variants: the largest differences "
            f"on {_label(res, key)}; every variant is in the table and metrics.csv)")))
    title = f"{res.game.title}: {'sweep' if kind == 'sweep' else 'variant comparison'}"
    how_sure = ""
    if kind == "compare" and len(res.variants) == 2:
        from .robust import how_sure_box
        how_sure = how_sure_box(res.game, m, out_dir, "compare")
    sprt = []
    if m.get("sprt"):
        s = m["sprt"]
        last = {}
        for e in res.sprt_log:
            last[e["arm"]] = e
        sprt = [f"Sequential test (SPRT) on {_label(res, s['metric'])}: "
                f"H0 'no difference beyond ±{s['d']}' against H1 'a difference of at least {s['d']}', "
                f"alpha {s['alpha']}, beta {s['beta']}."]
        for k, e in last.items():
            verdict = sprt_sentence(e["decision"], float(s["d"]), _label(res, s["metric"]),
                                    float(e.get("estimate") or 0.0))
            sprt.append(f"{res.arms[k].label}: {verdict} after {e['games']:,} games "
                        f"(LLR {e['llr']:+.3f}, bounds {e['lower']:.3f} / {e['upper']:.3f}).")
        if not m.get("stopped_by_sprt"):
            sprt.append("The test did not decide before --games was reached: the fixed-size "
                        "results below are the answer.")
    pairing = None
    if len(res.variants) > 1:
        pt = pairing_table(res, tab=tab)
        pairing = {"label": _label(res, key),
                   "rows": [(r["variant"], _pct(r["same outcome"]), _pct(r["same length"]),
                             _vr(r["variance reduction"]), r["words"]) for _, r in pt.iterrows()]}
    rows = []
    for _, r in tab.iterrows():
        pct = _is_rate(r["key"])
        ref = r["variant"] == res.variants[0][0]
        rows.append((r["metric"], r["variant"], value_text(r["value"], pct),
                     f"{value_text(r['lo'], pct)} to {value_text(r['hi'], pct)}",
                     "" if ref else diff_text(r["diff"], pct),
                     "" if not np.isfinite(r["diff_lo"])
                     else f"{diff_text(r['diff_lo'], pct)} to {diff_text(r['diff_hi'], pct)}",
                     p_text(r["p"]),
                     "" if ref else _vr(r["vr"])))
    pt = pairs_table(res)
    page = render(
        "compare.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK),
        n_variants=len(res.variants), games=f"{m['games_completed']:,}", bots=", ".join(m["bots"]),
        seed=m["seed"], bots_sentence=bots_sentence(m),
        teams_named=" against ".join(sides) if teams else None, partial=m.get("partial"),
        headline=compare_headline(res, tab)[:-1] if len(res.variants) > 1 else [],
        how_sure=Markup(how_sure), sprt=sprt,
        variants=[(n, ", ".join(f"{k}={v}" for k, v in ch.items()) or "rulebook rules")
                  for n, ch in res.variants],
        figures=figs, pairing=pairing, decisive=decisive_rows(res), metrics=rows,
        metrics_header=["metric", "variant", "value", "95% interval",
                        f"difference from '{res.variants[0][0]}'", "95% interval", "p-value",
                        "variance reduction by pairing"],
        pairs=None if pt is None else {
            "rows": [tuple(_fmt(v) if isinstance(v, float) else v for v in r)
                     for r in pt.itertuples(index=False)], "header": list(pt.columns)},
        method=METHOD, manifest_json=json.dumps(m, indent=2, default=str))
    from sim.io import atomic_write, write_json
    atomic_write(out_dir / "metrics.csv", lambda tmp: tab.to_csv(tmp, index=False))
    path = write_page(out_dir, page, figs)
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
    from .experiment_runs import Arm, ExperimentResult
    from sim.games import get
    from sim.summary import Summary
    stats = {k: (np.asarray(v) if isinstance(v, list) else v) for k, v in data["stats"].items()}
    if "pent" in stats:
        stats["pent"] = np.asarray(stats["pent"], np.int64).reshape(-1, 5)
    if "fingerprint" in stats:
        stats["fingerprint"] = np.asarray(data["stats"]["fingerprint"], np.uint64)
    arms = [Arm(a["label"], a["variant"], a["swapped"], None) for a in data["arms"]]
    return ExperimentResult(data["kind"], get(data["game"]), arms,
                            [(n, ch) for n, ch in data["variants"]], stats,
                            [Summary.from_dict(d) for d in data["summaries"]], data["manifest"],
                            data["manifest"].get("partial", False), None, data.get("sprt_log", []))


def compare_text(res, keys=None) -> str:
    """The terminal summary: the headline metric, draws, the horizon and the length for every
    variant, win rates among decisive games, the pairing, and the bots."""
    tab = compare_table(res)
    length = res.game.length
    keys = keys or [headline_key(res), "first player wins", "no winner", "capped", length]
    lines = [f"{'metric':<46}{'variant':<22}{'value':>12}{'diff':>12}  95% interval of diff   p"]
    for key in keys:
        for _, r in tab[tab["key"] == key].iterrows():
            pct = _is_rate(key)
            lines.append(f"{_label(res, key)[:45]:<46}{str(r['variant'])[:21]:<22}"
                         f"{value_text(r['value'], pct):>12}{diff_text(r['diff'], pct) if r['p'] == r['p'] else '':>12}"
                         + (f"  {diff_text(r['diff_lo'], pct)} .. {diff_text(r['diff_hi'], pct)}  {p_text(r['p'])}"
                            if r["p"] == r["p"] else ""))
    many = multiple_note(res, tab)
    if many:
        lines.append(many)
    ref = reference_note(res)
    if ref:
        lines.append(ref)
    dr = decisive_rows(res)
    if dr and any(S.no_winner or (S.n - S.side_decisive) for S in res.summaries):
        lines.append("among decisive games: " + "; ".join(
            f"{v} {pos} {rate}" for v, pos, rate, _ in dr))
    if len(res.variants) > 1:
        for _, r in pairing_table(res, tab=tab).iterrows():
            lines.append(f"pairing of '{r['variant']}': {r['words']}")
    lines.append(f"bots: {', '.join(res.manifest['bots'])} (these figures depend on the bots)")
    return "\n".join(lines)


def _rating(res: dict, i: int) -> tuple[str, str]:
    """(rating, 95% interval) of bot i in words: "unbounded" where no finite rating exists."""
    why = res.get("unbounded", {}).get(i)
    if why is not None:
        return f"unbounded ({why})", "none: no finite rating"
    bt = res["bt"]
    r = bt["ratings"][i]
    if r != r:
        return "n/a", ""
    return f"{r:+.1f}", f"{bt['lo'][i]:+.1f} to {bt['hi'][i]:+.1f}"


def skill_headline(res: dict) -> list[str]:
    """'In short' of a skill table: the spread of ratings, bots without a finite rating,
    bots that played identical games, and the bots note."""
    names, bt = res["bots"], res["bt"]
    rate = _skill_rates(res)
    out = []
    finite = [i for i in range(len(names)) if bt["ratings"][i] == bt["ratings"][i]]
    same_group = {i: tuple(g) for g in res.get("identical", []) for i in g}
    r = np.asarray(bt["ratings"])
    best = max(finite, key=lambda i: r[i]) if finite else None
    worst = min(finite, key=lambda i: r[i]) if finite else None
    if best is not None and best != worst and (best not in same_group or
                                               same_group.get(best) != same_group.get(worst)):
        out.append(f"How much better play matters: the best rated bot ({names[best]}) is rated "
                   f"{r[best] - r[worst]:.0f} Elo above the weakest rated ({names[worst]}); it scores "
                   f"{100 * rate[best, worst]:.1f}% against it.")
    for i, why in sorted(res.get("unbounded", {}).items()):
        out.append(f"{names[i]} {why}, so it has no finite rating: unbounded "
                   f"({'below' if why == 'never won' else 'above'} every other bot).")
    for group in res.get("identical", []):
        who = [names[i] for i in group]
        out.append(f"{', '.join(who[:-1])} and {who[-1]} played identical games (the same outcome, length and "
                   "per-seat figures in every game of every pairing): in this setting they are "
                   "the same player.")
    if res.get("prior"):
        out.append(f"The ratings use a weak prior (half a drawn game per pair, {res['prior']} "
                   "games) because some bots never lost to, or never beat, a group of others.")
    if res.get("teams"):
        out.append("A team game: each bot plays every seat of a team.")
    out.append(f"Bots: {', '.join(names)}. {BOTS_NOTE}")
    return out


def _skill_rates(res: dict) -> np.ndarray:
    return np.divide(res["wins"], res["games"], out=np.full_like(res["wins"], np.nan),
                     where=res["games"] > 0)


def write_skill_report(res: dict, out_dir) -> Path:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    game, names, bt = res["game"], res["bots"], res["bt"]
    rate = _skill_rates(res)
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
    figs = [("skill_matrix.png",)]
    finite = [i for i in range(len(names)) if bt["ratings"][i] == bt["ratings"][i]]
    if finite:
        fig, ax = plt.subplots(figsize=(7, 0.5 * len(finite) + 2))
        order = sorted(finite, key=lambda i: bt["ratings"][i])
        y = np.arange(len(order))
        r = np.asarray(bt["ratings"])[order]
        ax.errorbar(r, y, xerr=np.vstack([r - np.asarray(bt["lo"])[order], np.asarray(bt["hi"])[order] - r]),
                    fmt="o", capsize=5, color=plots.OKABE_ITO[0])
        ax.set_yticks(y, [names[i] for i in order])
        plots._style(ax, "Bradley–Terry ratings (Elo scale, mean 0; bars: 95% interval)", "rating (Elo)", "")
        plots.save(fig, out_dir / "skill_ratings.png")
        figs.append(("skill_ratings.png",))
    title = f"{game.title}: skill depth"
    order = sorted(range(len(names)), key=lambda i: (-(bt["ratings"][i])
                                                     if bt["ratings"][i] == bt["ratings"][i] else
                                                     (-1e9 if res.get("unbounded", {}).get(i) == "won every game"
                                                      else 1e9)))
    page = render("skill.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK),
                  players=res["players"], names=", ".join(names), headline=skill_headline(res),
                  ratings_figure=bool(finite), rows=[(names[i], *_rating(res, i)) for i in order])
    from sim.io import write_json
    path = write_page(out_dir, page, figs)
    write_json(out_dir / "skill.json", {
        "kind": "skill", "game": game.name, "bots": names, "players": res["players"],
        "wins": res["wins"].tolist(), "games": res["games"].tolist(), "rules": res["rules"],
        "bt": {k: [None if x != x else float(x) for x in np.asarray(bt[k])]
               for k in ("ratings", "se", "lo", "hi")},
        "unbounded": {str(i): why for i, why in res.get("unbounded", {}).items()},
        "identical": res.get("identical", []), "prior": res.get("prior", 0.0),
        "teams": bool(res.get("teams")), "sides": res.get("sides"),
        "end_reasons": {str(i): r for i, r in enumerate(game.end_reasons)},
        "fingerprints": {",".join(map(str, key)): v for key, v in res.get("fingerprints", {}).items()}})
    return path


def load_skill(data: dict) -> dict:
    from sim.games import get
    return {"game": get(data["game"]), "bots": data["bots"], "players": data["players"],
            "wins": np.asarray(data["wins"]), "games": np.asarray(data["games"]),
            "rules": data["rules"],
            "bt": {k: np.array([np.nan if x is None else x for x in v], np.float64)
                   for k, v in data["bt"].items()},
            "unbounded": {int(i): why for i, why in data.get("unbounded", {}).items()},
            "identical": data.get("identical", []), "prior": data.get("prior", 0.0),
            "teams": data.get("teams", False), "sides": data.get("sides"),
            "fingerprints": {tuple(int(x) for x in key.split(",")): v
                             for key, v in data.get("fingerprints", {}).items()}}


def skill_text(res: dict) -> str:
    names = res["bots"]
    bt = res["bt"]
    lines = [f"{'bot':<32}{'rating':>24}   95% interval"]
    order = sorted(range(len(names)), key=lambda i: -bt["ratings"][i] if bt["ratings"][i] == bt["ratings"][i]
                   else (-1e9 if res.get("unbounded", {}).get(i) == "won every game" else 1e9))
    for i in order:
        r, ival = _rating(res, i)
        lines.append(f"{names[i][:31]:<32}{r:>24}   {ival}")
    lines += skill_headline(res)
    return "\n".join(lines)
