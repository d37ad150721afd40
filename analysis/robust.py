"""`sim robust`: does the verdict hold?  The verdict logic, the tornado chart, the report
page and the terminal text.

A verdict from simulation rests on three things the designer did not choose: the bots,
the readings taken where the rulebook is silent or ambiguous, and the setup.
:mod:`analysis.robust_runs` plays the baseline (the rules and bots given) and every *condition*
(one change of those assumptions) on the same seeds, and reduces each condition's games
to sufficient statistics of a per-game vector of quantities, baseline and condition side
by side; every figure here is a linear contrast of that vector, so each has an exact
paired interval.

Headlines (each judged on its own):

* ``edge``: the first side's score minus the fair share (a game without a winner counts
  as the fair share, so draws do not move it);
* ``gap``: the win share of the side the baseline puts first minus the one it puts last
  (a negative value under a condition: the order of the seats flipped);
* ``decisive``: the share of games exactly one side won;
* ``length``: the mean game length;
* ``margin``: the mean lead of the best side's final score over the runner-up's (games
  that declare a score).

In a variant comparison (``sim robust compare``) each headline is the variant's paired
difference from the reference, and every condition changes both alike.

Verdict rules (documented in the report's Method; unit-tested on synthetic inputs):

* The baseline is *material* when its 95% interval excludes 0 and its size is at least
  the materiality threshold ``m`` (1 point for rates, 1% of the reference level for means:
  the wording module's "too small to matter"); it has *no material effect* when the whole
  interval lies within (-m, m); otherwise it is *unclear*.
* Against a material baseline b (sign s, size a = |b|), a condition *flips* it when its own
  interval lies wholly on the other side of 0; *halves* it when the paired interval of its
  swing (condition minus baseline, same games) lies wholly below -a/2 in the baseline's
  direction; *doubles* it when that interval lies wholly above +a; *holds* when it lies
  within (-a/2, +a): the sign and rough size (half to double) survive.
* Against a baseline with no material effect, a condition *shows* one when its interval
  excludes 0 and its size is at least m; it *holds* when its interval lies within (-m, m).
* Against an unclear baseline, a condition still *moves* the headline when its paired
  swing's interval lies wholly beyond the largest size the baseline's interval allows (and
  beyond m): whatever the baseline's true value, that flips or doubles it, or creates an
  effect that matters.
* Anything else is *unclear*.  A condition that changed no game is *the same*.
* The verdict: **depends on X** when any condition flips, halves or doubles the
  headline (or shows a material effect the baseline lacks), naming them; **holds** when
  every condition holds; otherwise **cannot tell**, with the games that would settle it:
  n (half-width / distance to the boundary the interval straddles)^2 for the widest case.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from .pages import model_words

# the numbers and the verdict, by role (each still importable as analysis.robust.X)
from .robust_figures import (Z95, Z_STOP, HEADLINE_KEYS, METRIC_ALIASES, DEPENDS, STATUS_WORDS,  # noqa: F401
                             quantity_names, headline_keys, resolve_metric, headline_spec,  # noqa: F401
                             describe_headline, _q_index, weights, gap_sides, contrast, lin,  # noqa: F401
                             materiality, classify_baseline, classify_condition, _settle, settle_games,  # noqa: F401
                             base_means, identical)  # noqa: F401
from .robust_verdict import (fmt, fmt_interval, _threshold, _games, _rounded_games, assumption_name,  # noqa: F401
                             real_swing, _real_swings, rerun_command, verdict, _join, _tried, evaluate,  # noqa: F401
                             evaluate_all)  # noqa: F401


# ------------------------------------------------------------------------- tornado chart
STATUS_COLOURS = {"holds": "#0072B2", "same": "#56B4E9", "flips": "#D55E00", "halves": "#D55E00",
                  "doubles": "#D55E00", "material": "#D55E00", "moves": "#D55E00",
                  "unclear": "#7F7F7F", "swing": "#E69F00"}


def tornado(ev: dict, path, title: str) -> list[str]:
    """Each condition's swing of the headline (condition minus baseline on the same games),
    largest first, with its 95% paired interval: one bar per condition, coloured by its
    status.  Dashed lines mark where the headline would be halved or doubled, a dotted one
    where it would cross zero (a material baseline).  Returns the bars' labels, top down."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from . import plots
    spec = ev["spec"]
    rows = sorted(ev["rows"], key=lambda r: -abs(r["s"]) if r["s"] == r["s"] else 0.0)
    scale = 100.0 if spec["rate"] else 1.0
    fig, ax = plt.subplots(figsize=(8.5, 0.42 * len(rows) + 1.9))
    y = np.arange(len(rows))
    s = np.array([r["s"] for r in rows], np.float64) * scale
    lo = np.array([r["s_lo"] for r in rows], np.float64) * scale
    hi = np.array([r["s_hi"] for r in rows], np.float64) * scale
    colours = [STATUS_COLOURS["swing"] if real_swing(r) else STATUS_COLOURS.get(r.get("status"), plots.NEUTRAL)
               for r in rows]
    ax.barh(y, np.nan_to_num(s), color=colours, alpha=0.85, edgecolor="black", linewidth=0.4)
    err = np.vstack([np.nan_to_num(s - lo), np.nan_to_num(hi - s)])
    ax.errorbar(np.nan_to_num(s), y, xerr=err, fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.axvline(0, color="black", linewidth=1)
    b = ev["base"]["v"]
    if ev["verdict"]["baseline_status"] == "material" and b == b:
        for x, style, what in ((-b / 2, "--", "half"), (b, "--", "double"), (-b, ":", "zero")):
            ax.axvline(x * scale, color="#555555", linestyle=style, linewidth=1)
            ax.text(x * scale, -0.7, what, ha="center", va="bottom", fontsize=8, color="#555555")
    elif ev["verdict"]["baseline_status"] == "none" and b == b:
        for x, what in ((-ev["m"] - b, f"-{_threshold(spec, ev['m'])}"),
                        (ev["m"] - b, f"+{_threshold(spec, ev['m'])}")):
            ax.axvline(x * scale, color="#555555", linestyle="--", linewidth=1)
            ax.text(x * scale, -0.7, what, ha="center", va="bottom", fontsize=8, color="#555555")
    ax.set_yticks(y, [r["label"] for r in rows])
    ax.set_ylim(len(rows) - 0.4, -1.0)
    unit = "points" if spec["rate"] else spec["unit"]
    ax.set_xlabel("swing against the baseline" + (f" ({unit})" if unit else "")
                  + "; bars: 95% paired interval")
    ax.set_title(title, fontsize=11, loc="left")
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="x", alpha=0.3)
    from matplotlib.patches import Patch
    def kind(r):
        return "swing" if real_swing(r) else "flips" if r.get("status") in DEPENDS else r.get("status")
    used = [k for k in ("holds", "same", "flips", "swing", "unclear") if any(kind(r) == k for r in rows)]
    names = {"holds": "holds", "same": "no game changed", "flips": "flips, halves or doubles it",
             "swing": "moves it (swing excludes 0), not judged: baseline unsettled",
             "unclear": "cannot tell"}
    if used:
        ax.legend([Patch(color=STATUS_COLOURS[k]) for k in used], [names[k] for k in used],
                  frameon=False, fontsize=8, loc="lower right")
    plots.save(fig, path)
    return [r["label"] for r in rows]


# ------------------------------------------------------------------------------- report
METHOD = (
    "Every condition plays the same game indices with the same seed as the baseline, so game i "
    "of each sees the same chance (common random numbers): the same dice, deck and layout "
    "wherever the condition leaves them alone. Each condition's games are reduced to sums and "
    "sums of products of a per-game vector (the first side's score, each side's win share, "
    "decisive, length and the score margin) for the baseline and the condition side by side, "
    "so every figure here - the condition's value, its swing against the baseline on the same "
    "games and how much the pairing narrowed it (the variance reduction (var(a) + var(b)) / "
    "var(a - b)) - has an exact 95% normal interval. A bot matchup with unequal bots is played "
    "in every seating (the strong bot in each seat in turn) and the seatings averaged game by "
    "game, so the seat figures measure the seats, not the bots. Verdicts: a baseline is material "
    "when its interval excludes 0 and it is at least 1 point (a rate) or 1% of the reference "
    "level (a mean); a condition flips it when its own interval lies wholly across 0, halves it "
    "when its paired swing lies wholly below minus half the baseline, doubles it when the swing "
    "lies wholly above the baseline, and holds when the swing lies within those limits. Against "
    "a baseline with no material effect (its interval within the threshold) a condition holds "
    "when its interval is within the threshold too, and shows an effect when its interval "
    "excludes 0 and it reaches the threshold. Against a baseline too uncertain to judge, a condition still moves "
    "the headline when its paired swing lies wholly beyond the largest size the baseline's "
    "interval allows. 'Cannot tell' gives the games that would settle "
    "it: n (half-width / distance to the nearest boundary the interval straddles)^2. Early stop: "
    "every condition is checked after each chunk (in chunk order, so the result does not "
    "depend on the number of jobs) and stops once its status on the chosen headline is decided "
    "at 99.9% and the baseline's too (a Haybittle-Peto boundary: the final 95% intervals keep "
    "their meaning); the other headlines are judged on the games it played. The worst-case "
    "combination joins the two readings that moved the chosen headline most in the same "
    "direction, one alternative each, in a second run on the same seeds.")


def robust_text(res, evs: dict | None = None) -> str:
    """The terminal summary: a verdict per headline, then the condition table of the
    chosen headline, the games and the time taken."""
    evs = evs or evaluate_all(res)
    m = res.manifest
    lines = [f"{res.game.title}: does the verdict hold? baseline {m['baseline']}; "
             f"{len(res.conditions)} conditions, seed {m['seed']}"]
    for key, ev in evs.items():
        lines.append("* " + ev["verdict"]["text"])
    ev = evs[res.metric]
    spec = ev["spec"]
    lines.append("")
    lines.append(f"{spec['label']} by condition (swing: against the baseline on the same games)")
    lines.append(f"{'condition':<36}{'games':>9}  {'value':>16}  {'swing':>16}  95% interval of swing      status")
    lines.append(f"{'baseline':<36}{ev['base']['n']:>9,}  {fmt(spec, ev['base']['v']):>16}")
    for r in sorted(ev["rows"], key=lambda r: -abs(r["s"]) if r["s"] == r["s"] else 0.0):
        lines.append(f"{r['label'][:35]:<36}{r['n']:>9,}{'*' if r['stopped'] else ' '} "
                     f"{fmt(spec, r['v']):>16}  {fmt(spec, r['s'], signed=True):>16}  "
                     f"{fmt_interval(spec, r['s_lo'], r['s_hi'], signed=True):<26} "
                     f"{STATUS_WORDS.get(r['status'], r['status'])}")
    if any(r["stopped"] for r in ev["rows"]):
        lines.append("* stopped early: its status was decided (at 99.9%) before --games")
    for what, why in res.skipped:
        lines.append(f"skipped {what}: {why}")
    if m.get("strong_play"):   # which bot the strong condition used, and why that one
        lines.append(f"strong play: {m['strong_play']['why']}")
        for mod in m["strong_play"].get("models") or []:
            lines.append(f"  learned value it read{' (' + mod['variant'] + ')' if mod.get('variant') else ''}: "
                         f"{model_words(mod)}")
    need = ev["verdict"].get("games_needed", float("nan"))
    again = (rerun_command(m.get("command"), need, ev["verdict"].get("strong_games_needed", float("nan")))
             if ev["verdict"].get("kind") == "cannot tell" else None)
    if again:
        lines.append(f"to settle {spec['label']}, run again with the games it needs: {again}")
    lines.append(f"games played: {m['games_played']:,} in {m['seconds']:.1f} s "
                 f"(CPU {m['cpu_seconds']:.1f} s over {m['jobs']} jobs)")
    return "\n".join(lines)


def condition_table(res, evs: dict) -> list[tuple]:
    """Rows of the report's table of every condition: one row per condition, each headline's
    value, swing and status."""
    rows = []
    keys = list(evs)
    for i, c in enumerate(res.conditions):
        row = [c.label, c.kind, f"{int(c.stats['n']):,}" + (" (stopped early)" if c.stopped else "")]
        for k in keys:
            ev = evs[k]
            r = ev["rows"][i]
            spec = ev["spec"]
            row.append(f"{fmt(spec, r['v'])} ({fmt(spec, r['s'], signed=True)}; "
                       f"{fmt_interval(spec, r['s_lo'], r['s_hi'], signed=True)}) "
                       f"{STATUS_WORDS.get(r['status'], r['status'])}")
        vr = evs[keys[0]]["rows"][i]["vr"]
        row.append("" if vr != vr else ("∞" if vr == math.inf else f"{vr:.1f}x"))
        rows.append(tuple(row))
    return rows


def write_robust_report(res, out_dir) -> Path:
    """index.html and report-standalone.html (tornado charts), conditions.csv, robust.json
    (everything the page is built from: `sim report DIR` rebuilds it) and manifest.json."""
    from .pages import CSS, SELF_CHECK, Markup, render, write_page
    from sim.io import atomic_write, write_json
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    evs = evaluate_all(res)
    m = res.manifest
    figs = []
    bars = {}
    for key, ev in evs.items():
        fn = f"tornado_{key}.png"
        bars[key] = tornado(ev, out_dir / fn, f"{ev['spec']['label'][0].upper()}{ev['spec']['label'][1:]}: "
                                              "each assumption's swing, largest first")
        figs.append((fn, ev["spec"]["label"]))
    what = (f"variant '{m['variants'][1]['name']}' against '{m['variants'][0]['name']}'"
            if res.mode == "compare" else "the headline figures")
    title = f"{res.game.title}: does the verdict hold?"
    heads = ["condition", "kind", "games"] + [
        f"{ev['spec']['label']}: value (swing; 95% interval) status" for ev in evs.values()] + [
        "variance reduction by pairing"]
    base_cells = ["baseline", "", f"{m['baseline_games']:,}"] + [
        f"{fmt(ev['spec'], ev['base']['v'])} ({fmt_interval(ev['spec'], ev['base']['lo'], ev['base']['hi'])})"
        for ev in evs.values()] + [""]
    page = render(
        "robust.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK), what=what,
        n_conditions=len(res.conditions), players=res.players, baseline=m["baseline"], seed=m["seed"],
        games=f"{m['games_played']:,}", seconds=f"{m['seconds']:.1f}", partial=m.get("partial"),
        verdicts=[ev["verdict"]["text"] for ev in evs.values()],
        measures=[(ev["spec"]["label"], describe_headline(_lay(res, ev), k)) for k, ev in evs.items()],
        tornados=[{"fn": fn, "label": label, "bars": len(bars[key]),
                   "note": " (the chosen headline: early stops follow it)" if key == res.metric else ""}
                  for (fn, label), (key, ev) in zip(figs, evs.items())],
        conditions_rows=[tuple(base_cells)] + condition_table(res, evs), conditions_header=heads,
        conditions=[(c.label, c.kind, c.describe()) for c in res.conditions], skipped=res.skipped,
        budget=(f"{m['games_played']:,} games in {m['seconds']:.1f} s of wall time "
                f"({m['cpu_seconds']:.1f} s of CPU in the workers, {m['jobs']} jobs); --games "
                f"{m['games_requested']:,} per condition, chunks of {m['chunk_size']:,}."),
        method=METHOD, command=m.get("command"), manifest_json=json.dumps(m, indent=2, default=str))
    import pandas as pd
    flat = []
    for k, ev in evs.items():
        for r in ev["rows"]:
            flat.append({"headline": k, **{x: r[x] for x in ("label", "kind", "assumption", "n", "v", "lo", "hi",
                                                            "s", "s_lo", "s_hi", "vr", "status", "stopped")}})
    atomic_write(out_dir / "conditions.csv", lambda tmp: pd.DataFrame(flat).to_csv(tmp, index=False))
    path = write_page(out_dir, page, figs)
    data = res.to_dict()
    data["verdicts"] = {k: {x: ev["verdict"].get(x) for x in ("kind", "text", "depends_on", "games_needed",
                                                               "strong_games_needed")}
                        for k, ev in evs.items()}
    data["tornado"] = bars
    write_json(out_dir / "robust.json", data)
    man = dict(m)
    man["verdicts"] = {k: ev["verdict"]["kind"] for k, ev in evs.items()}
    write_json(out_dir / "manifest.json", man)
    return path


def _lay(res, ev) -> dict:
    lay = dict(res.layout)
    if ev.get("gap_sides"):
        names = lay.get("side_names") or []
        lay["gap_sides"] = [names[i] if i < len(names) else str(i) for i in ev["gap_sides"]]
    return lay


# ------------------------------------------------------------------- "How sure is this?"
def _norm(v) -> str:
    """A parameter value as text, the same whether it came from a run's manifest (numbers,
    tuples shown as 'a,b') or a robust one (all text)."""
    if isinstance(v, (list, tuple)):
        return ",".join(_norm(x) for x in v)
    if isinstance(v, bool):
        return str(v)
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if str(v) in ("True", "False"):
        return str(v)
    return str(int(f)) if f.is_integer() else repr(f)


def _norm_rules(d: dict | None) -> dict:
    return {str(k): _norm(v) for k, v in (d or {}).items()}


def find_robust(root, game, players: int, rules: dict | None = None, variants: list | None = None):
    """The newest `sim robust` result under ``root`` (a reports folder: each of its
    directories) for the same game, version, player count and rules (a run: every parameter;
    a comparison: the same variants, their rule changes in order).  None when there is none."""
    root = Path(root)
    if not root.is_dir():
        return None
    found = []
    for f in root.glob("*/robust.json"):
        try:
            m = json.loads(f.with_name("manifest.json").read_text())
        except (OSError, ValueError):
            continue
        if (m.get("kind") != "robust" or m.get("game") != game.name
                or m.get("game_version") != game.version or int(m.get("players", -1)) != int(players)):
            continue
        if variants is not None:
            mv = m.get("variants") or []
            if m.get("mode") != "compare" or len(mv) != len(variants) or any(
                    _norm_rules(a.get("rules_changed")) != _norm_rules(b.get("rules_changed"))
                    for a, b in zip(mv, variants)):
                continue
        else:
            if m.get("mode") != "game" or _norm_rules(m.get("rules")) != _norm_rules(rules):
                continue
        found.append((m.get("started", ""), f.parent, m))
    if not found:
        return None
    found.sort(key=lambda t: t[0])
    return found[-1][1], found[-1][2]


def robust_command(game, players: int, rules_changed: dict | None = None,
                   variants: list | None = None) -> str:
    """The command that would produce the `sim robust` result a report lacks."""
    import shlex
    cmd = ["sim", "robust"]
    if variants is not None:
        cmd += ["compare", game.name]
        for v in variants:
            ch = ",".join(f"{k}={_norm(x)}" for k, x in (v.get("rules_changed") or {}).items())
            cmd += ["--variant", f"{v['name']}:{ch}"]
    else:
        cmd.append(game.name)
        for k, x in (rules_changed or {}).items():
            cmd += ["--set", f"{k}={_norm(x)}"]
    if players != game.default_players:
        cmd += ["--players", str(players)]
    return " ".join(shlex.quote(c) for c in cmd)


def how_sure_box(game, manifest: dict, out_dir, kind: str = "run") -> str:
    """The report's "How sure is this?" box (HTML): the bots used, the readings in force
    (linked to RULES.md) and, where a `sim robust` result for the same game, player count
    and rules lies in the same reports folder, its verdicts; otherwise the command that
    would produce one."""
    players = int(manifest["players"])
    seats = manifest.get("seats") or []
    bots = manifest.get("bots") or []
    who = (", ".join(f"{s}: {b}" for s, b in zip(seats, bots)) if len(seats) == len(bots)
           else ", ".join(bots))
    if kind == "compare":
        variants = manifest.get("variants") or []
        changed = {}
        for v in variants[:1]:
            changed = dict(v.get("rules_changed") or {})
        rules = {p.name: changed.get(p.name, p.default) for p in game.params}
    else:
        variants = None
        rules = manifest.get("rules") or {}
    readings = [p for p in game.params if p.role == "reading"]
    doc = Path(game.rules_doc) if game.rules_doc else None
    shown = []
    for p in readings:
        v = rules.get(p.name, p.default)
        mark = "" if _norm(v) == _norm(p.default) else f" (changed: the default is {_norm(p.default)})"
        shown.append((p.name, _norm(v), mark))
    found = None
    if out_dir is not None:
        found = find_robust(Path(out_dir).resolve().parent, game, players, rules, variants)
    robust_found, cmd = None, None
    if found is not None:
        d, m = found
        try:
            data = json.loads((d / "robust.json").read_text())
            verdicts = data.get("verdicts", {})
        except (OSError, ValueError):
            verdicts = {}
        robust_found = {"conditions": len(m.get("conditions", [])),
                        "baseline_games": f"{m.get('baseline_games', 0):,}",
                        "rel": f"../{d.name}/index.html", "name": d.name,
                        "verdicts": [v.get("text", "") for v in verdicts.values()]}
    else:
        cmd = robust_command(game, players, manifest.get("rules_changed") if kind != "compare" else None,
                             variants)
    from .pages import render
    return render("how_sure.html", who=who, readings=shown, game_name=game.name,
                  doc_uri=doc.resolve().as_uri() if doc else None, found=robust_found, command=cmd)

