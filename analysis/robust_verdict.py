"""`sim robust`'s verdict: every headline evaluated under the baseline and each condition
(:func:`evaluate`), and said in words: whether it holds, depends on named assumptions (which
way and how far) or cannot be told yet, with the command that settles it."""
from __future__ import annotations

import math

from .robust_figures import (DEPENDS, Z95, _q_index, base_means, classify_baseline, classify_condition,
                             contrast, gap_sides, headline_keys, headline_spec, identical, lin,
                             materiality, settle_games, weights)


def fmt(spec: dict, x: float, signed: bool | None = None) -> str:
    """A headline's value in its unit: points or percent for rates, the unit for means."""
    if x is None or x != x:
        return "n/a"
    signed = spec["signed"] if signed is None else signed
    if spec["rate"]:
        if signed:
            return f"{100 * x:+.2f} points"
        return f"{100 * x:.1f}%"
    unit = f" {spec['unit']}" if spec["unit"] else ""
    return (f"{x:+.2f}" if signed else f"{x:.2f}") + unit


def fmt_interval(spec: dict, lo: float, hi: float, signed: bool | None = None) -> str:
    if lo != lo or hi != hi:
        return "n/a"
    signed = spec["signed"] if signed is None else signed
    if spec["rate"]:
        return (f"{100 * lo:+.2f} to {100 * hi:+.2f}" if signed else f"{100 * lo:.1f}% to {100 * hi:.1f}%")
    return f"{lo:+.2f} to {hi:+.2f}" if signed else f"{lo:.2f} to {hi:.2f}"


def _threshold(spec: dict, m: float) -> str:
    if spec["rate"]:
        return f"{100 * m:.0f} point" + ("s" if round(100 * m) != 1 else "")
    return f"{m:.2f}" + (f" {spec['unit']}" if spec["unit"] else "")


def _games(x: float) -> str:
    if x == math.inf or x != x:
        return "far more games than any run here (the estimate sits on the boundary)"
    return f"about {_rounded_games(x):,} games"


def _rounded_games(x: float) -> int:
    """A number of games rounded up to two figures (at least to the hundred)."""
    step = 10 ** max(2, int(math.floor(math.log10(max(x, 1.0)))) - 1)
    return int(math.ceil(x / step) * step)


def assumption_name(c: dict) -> str:
    kind = c.get("kind")
    if kind == "bots":
        return "the bots"
    if kind == "setup":
        return f"the setup ({c.get('assumption')})"
    if kind == "combined":
        return f"the combined readings ({c.get('assumption')})"
    return f"the reading of {c.get('assumption')}"


def real_swing(c: dict) -> bool:
    """An unjudged condition whose paired swing still excludes 0: the headline moves under it,
    by less than the baseline's uncertainty lets the verdict be judged."""
    return c.get("status") == "unclear" and (c["s_lo"] > 0 or c["s_hi"] < 0)


def _real_swings(spec: dict, conds: list[dict]) -> str:
    real = sorted((c for c in conds if real_swing(c)), key=lambda c: -abs(c["s"]))
    if not real:
        return ""
    items = "; ".join(f"{c['label']} {fmt(spec, c['s'], signed=True)} (95% interval "
                      f"{fmt_interval(spec, c['s_lo'], c['s_hi'], signed=True)})" for c in real)
    return (f" Still, the headline moves on the same games under {items}: "
            + ("real swings" if len(real) > 1 else "a real swing")
            + ", whose effect on the verdict the baseline is too uncertain to judge.")


def rerun_command(command: str | None, games: float, strong: float = float("nan")) -> str | None:
    """``command`` (a ``sim robust`` line) with ``--games`` set to ``games`` and
    ``--strong-games`` to ``strong`` (each rounded up to two figures; a NaN one left alone):
    the one step that re-runs it with the games a "cannot tell" asks for."""
    import shlex
    ok = [x == x and x != math.inf for x in (games, strong)]
    if not command or not any(ok):
        return None
    args = shlex.split(command)
    for flag, short, x, fine in (("--games", "-n", games, ok[0]), ("--strong-games", None, strong, ok[1])):
        if not fine:
            continue
        n = _rounded_games(x)
        for i, a in enumerate(args):
            if a in (flag, short) and i + 1 < len(args):
                args[i + 1] = str(n)
                break
            if a.startswith(flag + "="):
                args[i] = f"{flag}={n}"
                break
        else:
            args += [flag, str(n)]
    return " ".join(shlex.quote(a) for a in args)


def verdict(spec: dict, base: dict, conds: list[dict], m: float) -> dict:
    """The verdict on one headline: kind ("holds", "depends", "cannot tell"), the plain
    words, the assumptions it depends on, and the games that would settle it.

    ``base``: v, lo, hi, n of the baseline; ``conds``: one dict per condition with label,
    kind, assumption, n, v, lo, hi, s, s_lo, s_hi, same (``status`` is filled in)."""
    bstat = classify_baseline(base["v"], base["lo"], base["hi"], m)
    for c in conds:
        c["status"] = classify_condition(bstat, base["v"], c, m, base["lo"], base["hi"])
        c["settle"] = (settle_games(bstat, base["v"], c, m) if c["status"] == "unclear"
                       else float("nan"))
    label = spec["label"]
    head = (f"{fmt(spec, base['v'])} with the baseline (95% interval "
            f"{fmt_interval(spec, base['lo'], base['hi'])}, {base['n']:,} games)")
    out = {"headline": spec["key"], "label": label, "baseline_status": bstat, "depends_on": [],
           "games_needed": float("nan"), "conditions": len(conds)}
    if bstat == "unclear" and not any(c["status"] == "moves" for c in conds):
        need = settle_games(bstat, base["v"], None, m, base)
        out.update(kind="cannot tell", games_needed=need,
                   text=f"{label}: cannot tell. {head[0].upper() + head[1:]}: the interval is too "
                        f"wide to say whether there is an effect of {_threshold(spec, m)} "
                        f"or more, so no condition can be judged; {_games(need)} would settle it."
                        + _real_swings(spec, conds))
        return out
    what = ("its sign and rough size (half to double) hold" if bstat == "material"
            else f"there is no effect of {_threshold(spec, m)} or more, and that holds")
    dep = [c for c in conds if c["status"] in DEPENDS]
    unclear = [c for c in conds if c["status"] == "unclear"]
    if dep:
        names = list(dict.fromkeys(assumption_name(c) for c in dep))
        items = []
        for c in sorted(dep, key=lambda c: -abs(c["s"])):
            how = {"flips": "flips it", "halves": "less than half", "doubles": "more than double",
                   "material": "an effect that matters",
                   "moves": f"{fmt(spec, c['s'], signed=True)} on the same games, more than the "
                            "baseline could be"}[c["status"]]
            items.append(f"{c['label']} gives {fmt(spec, c['v'])} ({how})")
        text = (f"{label}: depends on {_join(names)}. {head[0].upper() + head[1:]}"
                + (": too wide an interval to judge the baseline itself" if bstat == "unclear" else "")
                + ", but " + "; ".join(items) + ".")
        if unclear:
            text += (f" {len(unclear)} other condition{'s' if len(unclear) > 1 else ''} could not "
                     f"tell ({', '.join(c['label'] for c in unclear)}).")
        out.update(kind="depends", text=text, depends_on=names)
        return out
    if unclear:
        need = max(c["settle"] for c in unclear)
        held = [c for c in conds if c["status"] in ("holds", "same")]
        text = (f"{label}: cannot tell. {head[0].upper() + head[1:]}; "
                + (f"{what} under {len(held)} of {len(conds)} conditions, but " if held else "")
                + f"under {_join([c['label'] for c in unclear])} the interval is too wide "
                f"to say; {_games(need)} would settle it." + _real_swings(spec, conds))
        capped = [c for c in unclear if c.get("limit")]
        if capped:   # the strong play's conditions stopped at their cap: more --games cannot help them
            text += (f" The strong play's conditions played {min(c['limit'] for c in capped):,} games "
                     "(their cap: --strong-games sets it).")
            out["strong_games_needed"] = max(c["settle"] for c in capped)
            rest = [c["settle"] for c in unclear if not c.get("limit")]
            need = max(rest) if rest else float("nan")
        out.update(kind="cannot tell", text=text, games_needed=need)
        return out
    vals = [c["v"] for c in conds]
    rng = (f" (from {fmt(spec, min(vals))} to {fmt(spec, max(vals))})" if vals else "")
    tried = _tried(conds)
    text = (f"{label}: holds. {head[0].upper() + head[1:]}; {what} under every "
            f"condition tried{rng}: {tried}.")
    if not conds:
        text = f"{label}: holds (no condition to try). {head[0].upper() + head[1:]}."
    out.update(kind="holds", text=text)
    return out


def _join(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _tried(conds: list[dict]) -> str:
    groups: dict[str, list[str]] = {}
    names = {"bots": "the bots", "reading": "the readings", "setup": "the setup",
             "combined": "combined readings"}
    for c in conds:
        groups.setdefault(names.get(c.get("kind"), c.get("kind", "")), []).append(
            c["label"] + (" (no game changed)" if c.get("status") == "same" else ""))
    return "; ".join(f"{k} ({', '.join(v)})" for k, v in groups.items())


def evaluate(layout: dict, key: str, base_stats: dict, conditions: list[dict], z: float = Z95) -> dict:
    """Every figure of one headline: the baseline, each condition's value, its paired swing
    and the pairing's variance reduction, the statuses and the verdict.

    ``conditions``: dicts with at least ``stats`` (n, s, S2 over [baseline, condition]) and
    label, kind, assumption."""
    spec = headline_spec(layout, key)
    bm = base_means(layout, base_stats)
    w, const = weights(layout, key, bm)
    b = lin(base_stats, contrast(layout, 1, 0, w), const, z)
    if spec["rate"]:
        level = float("nan")
    else:
        level = float(bm[_q_index(layout, key)])
    m = materiality(spec, level)
    base = {"v": b["mean"], "lo": b["lo"], "hi": b["hi"], "n": b["n"], "sd": b["sd"]}
    rows = []
    for c in conditions:
        st = c["stats"]
        L1 = contrast(layout, 2, 1, w)
        L0 = contrast(layout, 2, 0, w)
        v = lin(st, L1, const, z)
        s = lin(st, L1 - L0, 0.0, z)
        b0 = lin(st, L0, const, z)
        vr = float("nan")
        if s["sd"] == s["sd"] and v["sd"] == v["sd"] and b0["sd"] == b0["sd"]:
            num = v["sd"] ** 2 + b0["sd"] ** 2
            vr = (num / s["sd"] ** 2) if s["sd"] > 0 else (math.inf if num > 0 else float("nan"))
        rows.append({"label": c["label"], "kind": c["kind"], "assumption": c.get("assumption"),
                     "n": v["n"], "v": v["mean"], "lo": v["lo"], "hi": v["hi"], "s": s["mean"],
                     "s_lo": s["lo"], "s_hi": s["hi"], "vr": vr, "stopped": c.get("stopped", False),
                     "same": identical(st), "limit": c.get("limit")})
    v = verdict(spec, base, rows, m)
    return {"spec": spec, "base": base, "rows": rows, "verdict": v, "m": m,
            "gap_sides": gap_sides(layout, bm) if key == "gap" else None}


def evaluate_all(res) -> dict:
    """{headline key: evaluate(...)} for every headline of a robust result (the chosen
    metric first)."""
    lay = res.layout
    keys = [res.metric] + [k for k in headline_keys(lay) if k != res.metric]
    conds = [c.as_dict() for c in res.conditions]
    return {k: evaluate(lay, k, res.base_stats, conds) for k in keys}
