"""Card and event impact: observational (from a run's merged statistics) and causal
(the same seeds with the card removed or made neutral)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .pages import CSS, SELF_CHECK, Markup, bots_sentence, render, write_page
from .stats import newcombe_diff, ols_from_moments, two_proportion_p
from .wording import diff_text, edge_phrase, fair_phrase, multiple_comparisons_sentence, p_text

OBSERVATIONAL = ("Observational: compares games in which a seat turned/received the card with "
                 "games in which it did not, and regresses each seat's win share on how many of "
                 "each card it got. Good players may get more cards, or cards may come with long "
                 "games, so these are associations, not effects.")
CAUSAL = ("Causal: the same games (same seeds, same everything else) played again with the card "
          "removed from the deck or made neutral (turned, without effect); the paired difference "
          "of a metric is the card's effect, with a 95% interval. The pairing is measured per "
          "card (games with the same outcome, variance reduction), and so is the share of games "
          "whose length the change moved: a shorter or longer game moves the seat edges by "
          "itself.")


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


MODES = {"remove": "removed: the card is taken out of the deck",
         "neutral": "neutral: the card is turned as usual but has no effect, so the game keeps "
                    "its length and every other draw"}


def impact_info(res, card=None) -> dict:
    """The impact section of the manifest (what cards, which mode), also for older files."""
    info = res.manifest.get("impact")
    if info is None:
        cards = [card] if card else []
        info = {"card": card, "mode": None, "cards": cards, "skipped": [],
                "events": {c: res.game.event_of_card(c) for c in cards}}
    return info


def _cards_counted(it: pd.DataFrame, metric: str) -> str | None:
    """Every card is a comparison with the full deck: how many effects survive their number
    (analysis.wording.multiple_comparisons_sentence), cards with no effect to measure left out."""
    t = it[~((it["diff"] == 0) & (it["lo"] == 0) & (it["hi"] == 0))]
    return multiple_comparisons_sentence(t["card"].tolist(), t["p"].tolist(), metric,
                                         compared="cards are each compared with the full deck")


def impact_table(res) -> pd.DataFrame:
    """One row per changed card: the change of the headline metric (paired, with its 95%
    interval and p), its size in words, the pairing, and how the card changes the game's
    length (share of games whose length changed, mean change with its interval)."""
    from .experiment_report import compare_table, headline_key
    info = impact_info(res)
    tab = compare_table(res)
    key = headline_key(res)
    length = res.game.length
    st = res.stats
    n = st["n"]
    rows = []
    drawn = _times_drawn(res.summaries[0])
    from .experiment_report import fair_share
    rows_ = {(x["key"], x["variant"]): x for x in tab.to_dict("records")}
    fair = fair_share(res, key, rows_, res.variants[0][0])
    b = rows_.get((key, res.variants[0][0]))
    base_value = b["value"] if b is not None else None
    for c, (v, _) in zip(info["cards"], res.variants[1:]):
        r = tab[(tab["key"] == key) & (tab["variant"] == v)].iloc[0]
        L = tab[(tab["key"] == length) & (tab["variant"] == v)].iloc[0]
        k = int(r["arm"])
        same_len = st.get("same_length")
        ev = info["events"].get(c)
        rows.append({"card": c, "variant": v, "event": ev, "diff": r["diff"],
                     "lo": r["diff_lo"], "hi": r["diff_hi"], "p": r["p"],
                     # what the card does in play: the full deck minus the deck with it changed
                     "does": -r["diff"], "does lo": -r["diff_hi"], "does hi": -r["diff_lo"],
                     "words": effect_words(r["diff"], r["diff_lo"], r["diff_hi"], key, r["metric"],
                                           info.get("mode"), drawn.get(ev) if ev else None,
                                           res.summaries[0].n, base=base_value, fair=fair),
                     "same outcome": r["same"], "variance reduction": r["vr"],
                     "length changed": (1 - same_len[k] / n) if same_len is not None and n else np.nan,
                     "length diff": L["diff"], "length lo": L["diff_lo"], "length hi": L["diff_hi"]})
    out = pd.DataFrame(rows)
    if len(out):  # ranked by the size of the effect, largest first (ties: the deck's order)
        out = out.iloc[np.argsort(-out["diff"].abs().to_numpy(), kind="stable")].reset_index(drop=True)
    return out


def _times_drawn(S) -> dict:
    """Event column -> how many times any seat turned or got it in the base games."""
    ev = S.events
    if not ev:
        return {}
    return {name: int(np.sum(ev["drew_n"][k])) for k, name in enumerate(ev["names"])}


DONE = {"remove": "removed", "neutral": "made neutral"}


def effect_words(d, lo, hi, key: str, metric: str, mode, drawn, games: int, base=None, fair=None) -> str:
    """One card's effect in words: which way (who gains with the card in play), how big (in
    points for a rate), how sure; and why an effect of exactly zero is zero.

    ``d``: the change of metric ``key`` (label ``metric``) when the card is ``mode`` (removed
    or made neutral); the card itself pushes the other way.  ``drawn``: times the card's
    event was turned in the base games (None where it has no event column).  ``base`` and
    ``fair``: the metric with the full deck and its fair share (a seat or side share), so the
    words say whether the card brings it closer to or further from fair."""
    from .experiment_report import _is_rate
    done = DONE.get(mode, mode or "changed")
    if d == 0 and lo == 0 and hi == 0:  # no paired game differs
        if drawn == 0:
            return (f"no effect to measure: the card was never turned in these {games:,} games "
                    "(it cannot come up in this setup, or too rarely to be seen)")
        if drawn:
            return (f"no effect: the card was turned {drawn:,} times but changed no game's outcome "
                    "with these bots")
        return f"no effect: with the card {done}, no game's outcome changed with these bots"
    rate = _is_rate(key)
    scale = 100 if rate else 1
    first = key.startswith("first player")
    who = "the first player" if first else metric
    phrase = edge_phrase(d, lo, hi, scale=scale, noun="effect", up="rise", down="fall",
                         unit="points" if rate else "", games=games)
    if phrase.startswith("no effect"):
        return phrase
    head, colon, tail = phrase.partition(":")
    text = f"{head} {'for' if first else 'in'} {who} with the card {done}{colon}{tail}"
    if not (lo <= 0 <= hi):
        text += (f"; in play the card {'favours' if d < 0 else 'works against'} the first player" if first
                 else f"; in play the card {'raises' if d < 0 else 'lowers'} it")
    if base is not None and fair is not None and rate:
        # what the card does: from the deck without it (base + d) to the full deck (base)
        moved = fair_phrase(base + d, -d, -hi, -lo, fair, games=games)
        if moved:
            text += f"; the card brings it {moved}" if moved.startswith(("closer", "further")) else f"; {moved}"
    return text


def length_sentence(row, game, mode, neutral: bool = False) -> str | None:
    """Words for a card change that moves the game's length (None when no game's length moved)."""
    share = row["length changed"]
    if not share or share != share:
        return None
    verb = "Removing" if mode == "remove" else "Neutralising"
    text = (f"{verb} {row['card']} changes the length of {100 * share:.1f}% of games (mean "
            f"{row['length diff']:+.2f} {game.length_unit}, 95% interval {row['length lo']:+.2f} to "
            f"{row['length hi']:+.2f}): the length itself moves the seat edges, so part of this "
            "effect may come from the changed length rather than from the card")
    if mode == "remove" and neutral:
        text += "; --mode neutral keeps the card in the deck without its effect"
    return text + "."


def write_impact_report(game, res, out_dir, card=None) -> Path:
    """``res``: the impact experiment (base first, then one arm per changed card)."""
    from .experiment_report import (_is_rate, _label, _vr, compare_table, headline_key,
                              pairing_table, ranked_forest_plot, save_experiment)
    S, manifest = res.summaries[0], res.manifest
    info = impact_info(res, card)
    card, cards, mode = info["card"], info["cards"], info.get("mode")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    seats = manifest["seats"]
    obs = observational(S, seats)
    key = headline_key(res)
    what = "every card" if card == "all" else (f"'{card}'" if card else "")
    title = f"{game.title}: card impact" + (f" of {what}" if what else "")
    figs = []
    causal = None
    if cards:
        it = impact_table(res)
        causal = {"mode_text": MODES.get(mode, mode or ""), "label": _label(res, key),
                  "default_mode": mode if mode == game.impact_default_mode else None,
                  "skipped": "; ".join(f"{c} ({why})" for c, why in info.get("skipped") or ()),
                  "ranked": False, "note": CAUSAL, "metrics": None}
        short = []
        for _, r in it.iterrows():
            short.append(f"{r['card']}: {r['words']}.")
        lens = [x for x in (length_sentence(r, game, mode, info.get("neutral_supported", False))
                            for _, r in it.iterrows()) if x]
        if card == "all":
            moved = it[(it["lo"] > 0) | (it["hi"] < 0)]
            short = [f"{len(moved)} of {len(it)} cards move {_label(res, key)} beyond chance"
                     + (": " + ", ".join(f"{r['card']} ({r['words']})" for _, r in
                                       moved.reindex(moved['diff'].abs().sort_values(ascending=False).index)
                                       .head(5).iterrows()) if len(moved) else "") + "."]
            many = _cards_counted(it, _label(res, key))
            short += [many] if many else []
            short += [t[0].upper() + t[1:] + "." for t in _rank_notes(it)]
            short += [f"{r['card']}: {r['words']}." for _, r in it.iterrows()
                      if r["diff"] == 0 and r["lo"] == 0 and r["hi"] == 0]
            if lens:
                short.append(f"{len(lens)} of {len(it)} cards change the game's length in this mode "
                             "(see the table): the length itself moves the seat edges.")
        else:
            short += lens
        weak = it[it["variance reduction"] < 2.0]
        if len(weak):
            short.append(f"Pairing is weak here for {', '.join(weak['card'])}: the arms share little; "
                         "intervals are close to those of independent runs.")
        causal["short"] = short
        if card == "all":
            done = DONE.get(mode, mode or "changed")
            unit = " (percentage points)" if _is_rate(key) else ""
            ranked_forest_plot(compare_table(res), key, out_dir / "impact_ranking.png",
                               "Every card, largest effect on top (bars: 95% paired interval; "
                               "orange: excludes 0)",
                               labels=dict(zip(it["variant"], it["card"])), sign=-1.0,
                               xlabel=f"what the card does to {_label(res, key)}: with the card in play "
                                      f"minus {done}{unit}; right of 0: the card raises it")
            figs.append(("impact_ranking.png", f"Every card, ranked by what it does in play: {_label(res, key)} "
                         f"with the card in play minus with it {done} (right of 0: the card raises it)"))
            causal["ranked"] = True
        pct = _is_rate(key)
        rows = [(r["card"], r["event"] or "", diff_text(r["does"], pct),
                 f"{diff_text(r['does lo'], pct)} to {diff_text(r['does hi'], pct)}",
                 p_text(r["p"]), r["words"], _pct(r["same outcome"]),
                 _vr(r["variance reduction"]), _share(r["length changed"], S.n))
                for _, r in it.iterrows()]
        causal["rows"] = rows
        done_ = DONE.get(mode, mode or "changed")
        causal["header"] = ["card", "event column",
                            f"what the card does to {_label(res, key)} (in play minus {done_})", "95% interval",
                            "p-value", "in words", "same outcome", "variance reduction",
                            "games whose length changed"]
        if card != "all":
            tab = compare_table(res)
            keys = [key] + [f"win {k}" for k in range(len(manifest.get("sides") or seats))]
            keys += ["first player wins", "no winner", "capped", game.length]
            if game.score:
                keys += [f"{game.score} {s}" for s in range(len(seats))]
            rows = []
            for k in dict.fromkeys(keys):
                for _, r in tab[(tab["key"] == k) & (tab["variant"] != res.variants[0][0])].iterrows():
                    p_ = _is_rate(k)
                    interval = f"{diff_text(r['diff_lo'], p_)} to {diff_text(r['diff_hi'], p_)}"
                    rows.append((r["metric"], diff_text(r["diff"], p_), interval,
                                 p_text(r["p"]), _vr(r["vr"])))
            pt = pairing_table(res)
            causal["metrics"] = {"rows": rows, "pairing": "; ".join(pt["words"]),
                                 "header": ["metric", f"change ({res.variants[1][0]} minus base)",
                                            "95% interval", "p-value", "variance reduction by pairing"]}
    observational_ = None
    if len(obs):
        observational_ = {"note": OBSERVATIONAL, "card": card, "column": None, "no_column": False}
        show = obs
        if card and card != "all":
            ev = info["events"].get(card) or game.event_of_card(card)
            if ev is not None:
                show = obs[obs["card"] == ev]
                if ev != card:
                    observational_["column"] = ev
            else:
                observational_["no_column"] = True
        rows = []
        for _, r in show.iterrows():
            rows.append((r["card"], r["seat"], f"{r['games drew']:,}", _pct(r["win rate drew"]),
                         _pct(r["win rate not"]),
                         f"{100 * r['difference']:+.2f}" if r["difference"] == r["difference"] else "",
                         f"{100 * r['lo']:+.2f} to {100 * r['hi']:+.2f}" if r["lo"] == r["lo"] else "",
                         f"{100 * r.get('per card', np.nan):+.2f}" if r.get("per card") == r.get("per card") else ""))
        observational_["rows"] = rows
    page = render("impact.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK),
                  games=f"{S.n:,}", bots=", ".join(manifest["bots"]), seed=manifest["seed"],
                  bots_sentence=bots_sentence(manifest), causal=causal, observational=observational_,
                  manifest_json=json.dumps(manifest, indent=2, default=str))
    from sim.io import atomic_write, write_json
    if len(obs):
        atomic_write(out_dir / "observational.csv", lambda tmp: obs.to_csv(tmp, index=False))
    if cards:
        atomic_write(out_dir / "impact.csv", lambda tmp: impact_table(res).to_csv(tmp, index=False))
    path = write_page(out_dir, page, figs)
    write_json(out_dir / "experiment.json", {**save_experiment(res), "card": card})
    write_json(out_dir / "manifest.json", manifest)
    return path


def impact_text(res) -> str:
    """The terminal table of ``sim impact``: one line per changed card (ranked by the change of
    the headline metric), the pairing, the length, and the bots."""
    from .experiment_report import _is_rate, _label, _vr, headline_key
    info = impact_info(res)
    key = headline_key(res)
    lines = []
    if not info["cards"]:
        lines.append("observational only (give --card NAME or --card all for the causal effect)")
    else:
        it = impact_table(res)  # ranked by the size of the effect
        pct = _is_rate(key)
        done = {"remove": "removed", "neutral": "made neutral"}.get(info.get("mode"), info.get("mode"))
        lines.append(f"what each card does to {_label(res, key)}: with the card in play minus with it {done}, "
                     "on the same seeds (as the ranking figure)")
        lines.append(f"{'card':<24}{'change':>11}  {'95% interval':<26}{'p':>9}  {'same':>7}  "
                     f"{'pairing':>9}  {'length moved':>14}")
        for _, r in it.iterrows():
            lines.append(f"{str(r['card'])[:23]:<24}{diff_text(r['does'], pct):>11}  "
                         f"{diff_text(r['does lo'], pct) + ' .. ' + diff_text(r['does hi'], pct):<26}"
                         f"{p_text(r['p']):>9}  {_pct(r['same outcome']):>7}  {_vr(r['variance reduction'], True):>9}  "
                         f"{_share(r['length changed'], res.summaries[0].n):>14}")
        neutral = info.get("neutral_supported", False)
        lens = [t for t in (length_sentence(r, res.game, info.get("mode"), neutral)
                            for _, r in it.iterrows()) if t]
        if len(it) == 1:
            lines.append(f"{it.iloc[0]['card']}: {it.iloc[0]['words']}")
            lines += lens
        else:
            moved = it[(it["lo"] > 0) | (it["hi"] < 0)]
            lines.append(f"{len(moved)} of {len(it)} cards move it beyond chance"
                         + (": " + "; ".join(f"{r['card']}, {r['words']}" for _, r in moved.head(3).iterrows())
                            if len(moved) else "")
                         + (f"; and {', '.join(moved['card'].iloc[3:])} (see the table)" if len(moved) > 3 else ""))
            many = _cards_counted(it, "it")
            lines += [many] if many else []
            lines += _rank_notes(it)
            lines += [f"{r['card']}: {r['words']}" for _, r in it.iterrows()
                      if r["diff"] == 0 and r["lo"] == 0 and r["hi"] == 0]
            if lens:
                lines.append(f"{len(lens)} of {len(it)} cards change the length of some games in this "
                             "mode ('length moved'): the length itself moves the seat edges, so part "
                             "of their effect may come from the length"
                             + ("; --mode neutral keeps it" if neutral and info.get("mode") == "remove" else ""))
        weak = it[it["variance reduction"] < 2.0]
        if len(weak):
            lines.append(f"pairing is weak here for {', '.join(weak['card'])}: the arms share little; "
                         "intervals are close to those of independent runs")
        for c, why in info.get("skipped", []):
            lines.append(f"skipped {c}: {why}")
    lines.append(f"bots: {', '.join(res.manifest['bots'])} (these figures depend on the bots)")
    return "\n".join(lines)


def _rank_notes(it) -> list[str]:
    """Neighbouring cards of the ranking whose intervals overlap cannot be told apart: said
    for the leading cards, so the top of the ranking is not read as an order it does not have."""
    if len(it) < 2:
        return []
    def size(r):  # the interval of the effect's size |d|
        lo, hi = abs(r["lo"]), abs(r["hi"])
        return (min(lo, hi), max(lo, hi)) if r["lo"] * r["hi"] > 0 else (0.0, max(lo, hi))
    top = [it.iloc[0]["card"]]
    lo0, _ = size(it.iloc[0])
    for _, r in it.iloc[1:].iterrows():
        if size(r)[1] < lo0:
            break
        top.append(r["card"])
    if len(top) < 2:
        return [f"{top[0]} has the largest effect, and its interval clears the next card's"]
    return [f"the leading {len(top)} cards ({', '.join(top)}) have overlapping intervals with the "
            "largest: their order is not settled at this number of games"]


def _share(x, n: int) -> str:
    """A share of games, never a bare "0.00%" for a few games: "0.015% (3 games)"."""
    if x != x:
        return ""
    if x == 0:
        return "0%"
    k = round(x * n)
    if 100 * x < 0.01 or k < 100:
        return f"{100 * x:.2g}% ({k:,} games)"
    return f"{100 * x:.2f}%"


def _pct(x) -> str:
    return "" if x != x else f"{100 * x:.2f}%"
