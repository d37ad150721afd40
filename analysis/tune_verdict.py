"""`sim tune`'s verdict: the best candidates re-played on fresh games, whether they reach the
target or cannot be told from it, where the target lies between neighbouring values, the
rulebook's own values, and the variants file for `sim compare`."""
from __future__ import annotations

import math
import shlex

from .experiment_runs import RARELY, relevant_events
from .tune_targets import Metric, TuneResult, Z95, _fmtv, _rows, _show, estimate


def interval(metric, M, sides):
    m, se = estimate(metric, M, sides)
    return m, m - Z95 * se, m + Z95 * se


def _guard_rails(spaces, tg, replay, sides, final_n, k) -> list[str]:
    notes = []
    if not replay:
        return notes
    for s in spaces:
        if s.kind not in ("int", "float"):
            continue
        who = replay[:1] if len(tg) == 1 else replay
        at = [c for c in who if c.values[s.name] <= s.lo or c.values[s.name] >= s.hi]
        if at:
            what = ("the best point has" if len(tg) == 1 else
                    f"{len(at)} of the {len(who)} front points {'has' if len(at) == 1 else 'have'}")
            vals = sorted({_fmtv(c.values[s.name]) for c in at})
            notes.append(f"{what} {s.name}={'/'.join(vals)}, on the edge of the range {s.text()}: "
                         "the optimum may lie outside it; widen the range")
    if len(replay) > 1:
        a, b = replay[0], replay[1]
        sep = []
        for t in tg:
            la = t.loss_interval(*interval(t.metric, a.moments, sides)[1:])
            lb = t.loss_interval(*interval(t.metric, b.moments, sides)[1:])
            sep.append(la[1] < lb[0])
        if len(tg) == 1:
            notes.append(("the best candidate is separated from the runner-up "
                          f"({b.label()}): its 95% interval is closer to the target"
                          if sep[0] else
                          f"the best candidate is not separated from the runner-up ({b.label()}): "
                          "their 95% intervals overlap on the target; more games (--final) "
                          "would tell them apart, or either will do"))
    notes.append(f"the verdict rests on {final_n:,} fresh games per candidate ({k} candidate(s) "
                 f"and the rulebook: {final_n * (k + 1):,} games), not on the search's games")
    return notes


def verdict_lines(res: TuneResult) -> list[str]:
    sides = game_sides(res)
    lines = []
    rb = res.final[0]
    for i, (label, values, M) in enumerate(res.final[1:]):
        parts = []
        for t in res.targets:
            m, lo, hi = interval(t.metric, M, sides)
            parts.append(f"{t.metric.name} {_show(t.metric, m)} [{_show(t.metric, lo)}, "
                         f"{_show(t.metric, hi)}] (wanted {t.wanted()})")
        lead = ("On the front: " if len(res.targets) > 1 else "Best: " if i == 0 else f"#{i + 1}: ")
        lines.append(f"{lead}{label} makes " + "; ".join(parts) + ".")
    parts = []
    for t in res.targets:
        m, lo, hi = interval(t.metric, rb[2], sides)
        parts.append(f"{t.metric.name} {_show(t.metric, m)} [{_show(t.metric, lo)}, {_show(t.metric, hi)}]")
    lines.append("The rulebook's " + ", ".join(f"{k}={_fmtv(v)}" for k, v in rb[1].items())
                 + " gives " + "; ".join(parts) + ".")
    if res.final[1:]:
        M = res.final[1][2]
        missed = []
        for t in res.targets:
            if t.op in ("min", "max"):
                continue
            lo_l, _ = t.loss_interval(*interval(t.metric, M, sides)[1:])
            if lo_l > 0:
                missed.append(t)
        for t in missed:
            lines.append(f"No candidate found reaches {t.metric.name} {t.wanted()}: the best's 95% "
                         "interval excludes it." + _crossing(res, t, sides))
        lines += inside_lines(res.targets, M, rb[2], sides)
    lines += [text for text, *_ in beside_lines(res)]
    return lines


#: a move beside the targets is called out from this size on: 3 points of a share (the
#: wording's medium change), 3% of the rulebook's mean length, and only where it is real
NOTABLE_POINTS = 0.03
NOTABLE_LENGTH = 0.03


def beside_metrics(res) -> list[tuple[str, Metric]]:
    """What a tune's candidates are shown by beside their targets: the games without a
    winner, the mean length, the horizon's share, and the first side's share of the games
    someone won (where draws rise, the first side's score moves toward fair whoever wins)."""
    rows = _rows(res.game, res.players)
    return [("games without a winner", Metric("draws", rows.index("draws"), "rate")),
            (res.game.length, Metric("length", rows.index("length"), "mean")),
            ("stopped by the horizon", Metric("capped", rows.index("capped"), "rate")),
            ("first side's share of the games won", Metric("first_won", rows.index("first_player_wins"), "rate"))]


def beside_value(res, metric: Metric, M) -> tuple[float, float]:
    """(mean, standard error) of a metric of :func:`beside_metrics` from moments ``M``; the
    first side's share of the games won is the ratio of its wins to the games with a winner
    (its standard error that of a share of those games)."""
    if metric.name != "first_won":
        return estimate(metric, M, game_sides(res))
    rows = _rows(res.game, res.players)
    won = M.n - float(M.s[rows.index("draws")])
    if won <= 0:
        return float("nan"), float("nan")
    p = float(M.s[metric.row]) / won
    return p, math.sqrt(max(p * (1 - p), 0.0) / max(won - 1, 1))


def _notable(res, metric: Metric, a: tuple, b: tuple) -> str:
    """Words for a notable move from the rulebook's ``a`` to the candidate's ``b`` ((mean,
    se) each), or ""."""
    (ma, sa), (mb, sb) = a, b
    if not (math.isfinite(ma) and math.isfinite(mb)):
        return ""
    d = mb - ma
    real = abs(d) > Z95 * math.hypot(sa, sb)
    if metric.name == "first_won":
        fair = 1.0 / game_sides(res)
        if (ma - Z95 * sa > fair and mb + Z95 * sb < fair) or (ma + Z95 * sa < fair and mb - Z95 * sb > fair):
            return "the first side's edge among the games won changes sides"
    if not real:
        return ""
    if metric.kind == "rate" and abs(d) >= NOTABLE_POINTS:
        return f"{'rises' if d > 0 else 'falls'} notably: {100 * d:+.1f} points"
    if metric.name == "length" and ma and abs(d) >= NOTABLE_LENGTH * abs(ma):
        way = "longer" if d > 0 else "shorter"
        return f"notably {way}: {100 * d / abs(ma):+.0f}%"
    return ""


def beside_lines(res) -> list[tuple[str, list[str], list[str]]]:
    """For every re-played candidate: its games without a winner, length, horizon share and
    the first side's share of the games won beside the rulebook's (the same fresh games),
    the notable moves called out, and how often its change came into play;
    [(line, [notable moves], [warnings: rarely in play])]."""
    if len(res.final) < 2:
        return []
    rb = res.final[0][2]
    out = []
    for i, (label, values, M) in enumerate(res.final[1:]):
        parts, moves = [], []
        for name, metric in beside_metrics(res):
            a, b = beside_value(res, metric, rb), beside_value(res, metric, M)
            part = f"{name} {_show(metric, a[0])} → {_show(metric, b[0])}"
            move = _notable(res, metric, a, b)
            if move:
                part += f" ({move})"
                moves.append(f"{name} {_show(metric, a[0])} → {_show(metric, b[0])} ({move})")
            parts.append(part)
        play = came_into_play(res, values, M)
        warn = []
        if play is not None:
            parts.append(play["text"])
            if play["share"] < RARELY:
                warn.append(play["warning"])
        lead = ("On the front" if len(res.targets) > 1 else "Best" if i == 0 else f"#{i + 1}")
        out.append((f"{lead}, beside the rulebook on the same fresh games: {label}: " + "; ".join(parts) + ".",
                    moves, warn))
    return out


def came_into_play(res, values: dict, M) -> dict | None:
    """How often a re-played candidate's change from the rulebook came into play on the fresh
    games (:func:`analysis.experiment_runs.exercise`: the games that played out differently
    from the rulebook's, and those with an event the change bears on): {share, text,
    warning}, or None where the replay did not compare them."""
    rb_values = res.final[0][1]
    if M.differ is None or not M.n:
        return None
    changed = {k: v for k, v in values.items() if _fmtv(v) != _fmtv(rb_values.get(k))}
    evs = relevant_events(res.game, changed)
    share = M.differ / M.n
    text = f"played out differently from the rulebook in {_pct(share)} of the games"
    if evs and M.event_either is not None:
        idx = [list(res.game.events).index(e) for e in evs]
        exact = len(idx) in (1, len(res.game.events))
        ev = (M.any_event_either if len(idx) == len(res.game.events) else max(int(M.event_either[i]) for i in idx))
        ev_share = ev / M.n
        text += (f", {'' if exact else 'at least '}{_pct(ev_share)} had an event it bears on ("
                 + (evs[0] if len(evs) == 1 else ", ".join(evs[:-1]) + " or " + evs[-1]) + ")")
        share = min(share, ev_share)
    if not M.differ:
        text = "played out exactly as the rulebook's in every game: the change did nothing"
    warning = (f"it came into play in only {_pct(share)} of the games (under {_pct(RARELY)}): how near it "
               "comes to the target says little about the rule itself")
    return {"share": share, "text": text, "warning": warning}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def beside_notes(res) -> list[str]:
    """The notable moves of the proposed candidate (the first re-played), for the warnings."""
    lines = beside_lines(res)
    if not lines:
        return []
    label, out = res.final[1][0], []
    if lines[0][1]:
        out.append(f"the proposed {label} moves what no target watches: " + "; ".join(lines[0][1])
                   + " (against the rulebook on the same fresh games); a compare of it shows the rest")
    out += [f"the proposed {label}: {w}" for w in lines[0][2]]
    return out


def followup_command(res, variants: str = "variants.toml") -> str:
    """The ``sim compare`` that plays the re-played candidates again with every option the
    search ran with: the players, the bots, the rules held fixed, and the verdict's fresh
    seed and games (so it shows every other figure of the very games the verdict rests on)."""
    m = res.manifest
    bots = list(res.bots)
    parts = ["sim", "compare", res.game.name, "--players", str(res.players),
             "--bots", bots[0] if len(set(bots)) == 1 else ",".join(bots)]
    for k, v in (m.get("fixed") or {}).items():
        parts += ["--set", f"{k}={v}"]
    parts += ["--seed", str(res.final_seed), "--games", str(res.final_games), "--variants", str(variants)]
    return " ".join(shlex.quote(x) for x in parts)


def inside_lines(targets, M, rulebook, sides) -> list[str]:
    """For each target the best candidate (moments ``M``) meets within its 95% interval: how
    sure that is at this many games, and whether the rulebook meets it as well, so "Best:"
    is not read as "reaches the target exactly" or "beats the rulebook"."""
    out = []
    for t in targets:
        if t.op in ("min", "max"):
            continue
        m, lo, hi = interval(t.metric, M, sides)
        if t.loss_interval(lo, hi)[0] > 0:
            continue  # said above: no candidate reaches it
        what = (f"the best's {t.metric.name} {_show(t.metric, m)} [{_show(t.metric, lo)}, "
                f"{_show(t.metric, hi)}] cannot be told from the target {t.wanted()} at {M.n:,} games: "
                "the target lies inside its 95% interval")
        if t.op == "=":
            far = max(abs(lo - t.value), abs(hi - t.value))
            what += f", so its true value may lie up to {loss_text(t, far)} from the target"
        rlo, rhi = interval(t.metric, rulebook, sides)[1:]
        if t.loss_interval(rlo, rhi)[0] == 0:
            what += "; the rulebook's values meet it too at this sample size"
        out.append(what[0].upper() + what[1:] + ".")
    return out


def loss_text(t, x: float) -> str:
    """A loss (distance from a target) in the metric's unit: points for a rate."""
    if x != x:
        return "n/a"
    return f"{100 * x:.2f} points" if t.metric.kind == "rate" else f"{x:.3g}"


def _crossing(res, t, sides) -> str:
    """For one whole-number parameter and a target value: the neighbouring values (from the
    search) on either side of the target, where there are such, as evidence that none between
    them was missed."""
    if len(res.spaces) != 1 or res.spaces[0].kind != "int" or t.op != "=":
        return ""
    name = res.spaces[0].name
    pts = sorted((c.values[name], *interval(t.metric, c.moments, sides), c.moments.n)
                 for c in res.candidates)
    out = []
    for a, b in zip(pts, pts[1:]):
        if b[0] == a[0] + 1 and ((a[3] < t.value < b[2]) or (b[3] < t.value < a[2])):
            out.append(f"{name}={a[0]} gives {_show(t.metric, a[1])} [{_show(t.metric, a[2])}, "
                       f"{_show(t.metric, a[3])}] ({a[4]:,} games) and {name}={b[0]} gives "
                       f"{_show(t.metric, b[1])} [{_show(t.metric, b[2])}, {_show(t.metric, b[3])}] "
                       f"({b[4]:,} games)")
    if not out:
        return ""
    return (" The target lies between neighbouring values, where no whole value can reach it: "
            + "; ".join(out) + " (the search's games).")


def game_sides(res) -> int:
    return res.game.n_sides(res.players)


def variants_toml(res: TuneResult) -> str:
    """A ``sim compare --variants`` file: the rulebook first, then the best candidates."""
    out = [f"# sim tune {res.game.name}: " + " ".join(f"--param {x}" for x in res.manifest["params"])
           + " " + " ".join(f"--target {t.text}" for t in res.targets),
           f"# players {res.players}, bots {', '.join(res.bots)}, seed {res.seed}; re-played on seed "
           f"{res.final_seed}",
           "# follow up (the same bots, players and seed as the verdict): "
           + followup_command(res).replace("\n", " "), ""]
    fixed = res.manifest.get("fixed", {})
    out.append("[variants.rulebook]")
    for k, v in fixed.items():
        out.append(f"{k} = {_toml_value(v)}")
    out.append("")
    for i, (label, values, _) in enumerate(res.final[1:]):
        out.append(f"[variants.tuned_{i + 1}]")
        for k, v in {**fixed, **values}.items():
            out.append(f"{k} = {_toml_value(v)}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, tuple):
        return '"' + ",".join(map(str, v)) + '"'
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def tune_text(res: TuneResult, variants: str = "variants.toml") -> str:
    m = res.manifest
    lines = [f"{res.game.title}, {res.players} players, bots {', '.join(res.bots)}: "
             f"{len(res.candidates)} candidates, {res.search_games:,} games of search "
             f"({m['sampler']}, rungs {', '.join(f'{x:,}' for x in res.rungs)}), "
             f"{m['seconds']:.0f} s in all"]
    lines += res.verdict
    lines += [f"note: {n}" for n in res.notes]
    lines.append(f"follow up: {followup_command(res, variants)}")
    return "\n".join(lines)
