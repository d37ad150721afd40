"""Tables, figures and reports for comparisons, sweeps and skill tables."""
from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import metrics  # noqa: E402
from .pages import CSS, SELF_CHECK, Markup, bots_sentence, render, write_page  # noqa: E402
from .stats import mean_from_sums, paired_mean_diff, pentanomial  # noqa: E402
from .play_report import compare_lines  # noqa: E402
from .wording import (WEAK_PAIRING, diff_text, edge_phrase, fair_phrase, p_text, pairing_phrase,  # noqa: E402
                      sprt_sentence,
                      multiple_comparisons_sentence, value_text, variance_reduction)
from .experiment_plots import (metric_label, _is_rate, _unit, FOREST_MAX, forest_variants, forest_plot,  # noqa: E402,F401
                               ranked_forest_plot, sweep_plot, _isnum)  # noqa: F401
from .skill_report import (_rating, skill_headline, _skill_rates, write_skill_report, load_skill,  # noqa: E402,F401
                           skill_text)  # noqa: F401 (moved by role: experiment_report.X)

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
            games = int(r["games"]) if r["games"] == r["games"] else None
            if _is_rate(k):
                words = edge_phrase(r["diff"], r["diff_lo"], r["diff_hi"], scale=100, noun="change",
                                    up="rise", down="fall", games=games)
                fair = fair_words(res, k, rows, v)
                if fair:
                    words += f"; {fair}"
            else:
                unit = res.game.length_unit if k == length else ""
                small = _small_length(b["value"])
                words = edge_phrase(r["diff"], r["diff_lo"], r["diff_hi"], unit=unit, noun="change",
                                    up="rise", down="fall", small=small, medium=3 * small,
                                    large=10 * small, games=games)
            lines.append(f"'{v}' against '{base}', {what}: {_value(k, b['value'], tab)} → "
                         f"{_value(k, r['value'], tab)}, {words}.")
        pr = pt[pt["variant"] == v] if len(pt) else pt
        if len(pr):
            w = pr.iloc[0]["words"]
            lines.append(f"Pairing of '{v}' with '{base}' ({_label(res, key)}): {w}.")
        out += lines
    from .experiment_runs import exercise_lines
    out += exercise_lines(res)   # how often each change came into play (a warning where rarely)
    out += compare_lines(res)    # how it plays, where the game counts it
    many = multiple_note(res, tab)
    if many:
        out.append(many)
    ref = reference_note(res)
    if ref:
        out.insert(0, ref)
    out.append(bots_sentence(res.manifest))
    return out


#: an 'In short' longer than this is cut to the sentences that matter (the rest follow below)
SHORT_MOST = 14


def short_headline(res, tab: pd.DataFrame, full: list[str], most: int = SHORT_MOST) -> tuple[list[str], list[str]]:
    """'In short' cut to the few sentences that matter, and the rest (said below it on the page):
    with many variants every variant had a sentence per metric and a pairing sentence (a sweep
    of 11 values gave 53 bullets).  Kept: the sentences on the whole experiment (the reference,
    how often the changes came into play, the count of comparisons), the headline metric's
    largest differences that the run detects (at most three), the largest detected change of
    draws, horizon and length, the pairing in one sentence, and how many sentences more there are."""
    if len(full) <= most:
        return full, []
    base = res.variants[0][0]
    key = headline_key(res)
    length = res.game.length
    per = {}           # (variant, metric key) -> its sentence
    pairing = set()
    for v, _ in res.variants[1:]:
        for k in (key, "no winner", "capped", length):
            head = f"'{v}' against '{base}', {_label(res, k)}: "
            per.update({(v, k): x for x in full if x.startswith(head)})
        pairing.update(x for x in full if x.startswith(f"Pairing of '{v}' with '{base}'"))
        pairing.update(x for x in full if x.startswith(f"'{v}' against '{base}', how it plays"))
    said = set(per.values()) | pairing
    keep = [x for x in full if x not in said]      # the reference, exercise, many comparisons
    t = tab[tab["variant"] != base]
    chosen = []
    for k, top in ((key, 3), ("no winner", 1), ("capped", 1), (length, 1)):
        r = t[(t["key"] == k) & ((t["diff_lo"] > 0) | (t["diff_hi"] < 0))]
        r = r.iloc[np.argsort(-r["diff"].abs().to_numpy(), kind="stable")[:top]]
        chosen += [per[(v, k)] for v in r["variant"] if (v, k) in per]
    if not any(x in chosen for x in (per.get((v, key)) for v, _ in res.variants[1:])):
        r = t[t["key"] == key]
        if len(r):
            v = r.iloc[int(np.argmax(np.nan_to_num(r["diff"].abs().to_numpy(), nan=-1.0)))]["variant"]
            if (v, key) in per:
                chosen.insert(0, f"No variant changes {_label(res, key)} beyond chance; the largest "
                              f"difference: {per[(v, key)]}")
    pt = pairing_table(res, tab=tab)
    short_pairing = []
    if len(pt):
        same = pt["same outcome"].dropna()
        vr = pt["variance reduction"].replace(math.inf, np.nan).dropna()
        text = "Pairing with '" + base + "': " + (
            f"{_pct(same.min())} to {_pct(same.max())} of paired games had the same outcome" if len(same) else "")
        if len(vr):
            text += f"{'; ' if len(same) else ''}pairing cut the variance {vr.min():.1f}- to {vr.max():.1f}-fold"
        weak = pt[pt["weak"]]["variant"].tolist()
        if weak:
            text += (f"; weak (under {WEAK_PAIRING:g}-fold) for {len(weak)} of {len(pt)} variants: their "
                     "intervals are close to those of independent runs")
        short_pairing = [text + "."]
    rest = [x for x in full if x not in keep and x not in chosen]
    lead = 1 if keep and keep[0] == reference_note(res) else 0     # the sweep's reference first
    shown = keep[:lead] + chosen + keep[lead:] + short_pairing
    if rest:
        shown.append(f"{len(rest)} more sentences, one per variant and metric, with every pairing, are under "
                     "'Every variant in words' below.")
    return shown, rest


def _short_and_rest(res, tab) -> dict:
    """The page's 'In short' (:func:`short_headline`), the sentences below it, and a sweep's note
    on its bands."""
    full = compare_headline(res, tab)[:-1] if len(res.variants) > 1 else []
    short, rest = short_headline(res, tab, full)
    note = (SWEEP_BANDS if res.kind == "sweep" else None)
    return {"headline": short, "headline_more": rest, "sweep_note": note}


SWEEP_BANDS = ("Shaded bands: each value's own 95% interval, as wide as if every value had been "
               "played on seeds of its own. Every value was played on the same seeds as the reference, "
               "so its difference from the reference is measured paired, with a narrower interval "
               "('In short' and the table's difference columns): two bands that overlap can still "
               "differ clearly.")


def fair_share(res, key: str, rows: dict, variant: str) -> float | None:
    """The fair share of a seat or side share metric in one variant's games: 1/sides for the
    first-player score (a game without a winner counts as the fair share), (1 - draws)/sides
    for a win rate that counts a game without a winner as a loss; None for other metrics."""
    if not (key.startswith("first player") or (key.startswith("win ") and key[4:].isdigit())):
        return None
    seats, sides, _ = _names(res.manifest)
    fair = 1.0 / max(len(sides or seats), 1)
    if key == "first player score":
        return fair
    draws = rows.get(("no winner", variant))
    return fair * (1.0 - draws["value"]) if draws is not None and draws["value"] == draws["value"] else fair


def fair_words(res, key: str, rows: dict, variant: str) -> str | None:
    """Whether ``variant`` moves a seat or side share (``key``) closer to or further from its
    fair share than the reference, by how much and how sure (:func:`analysis.wording.fair_phrase`);
    None for a metric that is no share.  ``rows``: (key, variant) -> row of :func:`compare_table`."""
    base = res.variants[0][0]
    r, b = rows.get((key, variant)), rows.get((key, base))
    fb, fv = fair_share(res, key, rows, base), fair_share(res, key, rows, variant)
    if r is None or b is None or fb is None:
        return None
    return fair_phrase(b["value"], r["diff"], r["diff_lo"], r["diff_hi"], fb, fv,
                       games=int(r["games"]) if r["games"] == r["games"] else None)


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
        rows = {(r["key"], r["variant"]): r for r in tab.to_dict("records")}
        fair = {k: f for k in key_metrics if (f := fair_share(res, k, rows, res.variants[0][0])) is not None}
        forest_plot(tab[tab["variant"].isin(shown)], key_metrics, out_dir / "differences.png",
                    f"{what} against the first, on the same seeds (bars: 95% interval"
                    + ("; dashed: where the share would be fair)" if fair else ")"), fair=fair)
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
        **_short_and_rest(res, tab),
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
    rows = {(r["key"], r["variant"]): r for r in tab.to_dict("records")}
    for v, _ in res.variants[1:]:
        fair = fair_words(res, keys[0], rows, v)
        if fair:
            lines.append(f"'{v}' against '{res.variants[0][0]}', {_label(res, keys[0])}: {fair}")
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
        from .experiment_runs import exercise_lines
        lines += exercise_lines(res)   # how often each change came into play (a warning where rarely)
        lines += compare_lines(res)    # how it plays, where the game counts it
    lines.append(f"bots: {', '.join(res.manifest['bots'])} (these figures depend on the bots)")
    return "\n".join(lines)
