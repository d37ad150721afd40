"""The figures of ``sim compare`` and ``sim sweep``: the forest of differences (the variants
furthest from the first where there are many, or ranked by size), and a metric against the
swept parameter with its confidence band.
A metric's label and unit are here too (the tables use them)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import plots  # noqa: E402


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


def forest_plot(tab: pd.DataFrame, keys, path, title, fair: dict | None = None):
    """Differences from the first variant with 95% intervals, one panel per metric.  ``fair``:
    metric -> its fair share (a seat or side share), drawn as a dashed line where the difference
    would bring the first variant's share to exactly fair, so closer to and further from fair read
    off the panel."""
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
        f = (fair or {}).get(key)
        if f is not None:
            at = (f - tab[tab["key"] == key]["value"].iloc[0]) * scale
            ax.axvline(at, color=plots.OKABE_ITO[5], linestyle="--", linewidth=1.2,
                       label=f"here the share would be fair ({100 * f:.1f}%)")
            ax.legend(frameon=False, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18))
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


def ranked_forest_plot(tab: pd.DataFrame, key: str, path, title: str, labels=None, sign: float = 1.0,
                       xlabel: str | None = None):
    """One metric's difference from the first variant for every other variant, ranked by the
    difference, with 95% paired intervals (card impact: one row per card).  ``sign`` -1 draws
    the first variant minus each other (what a card does: the full deck minus the deck with
    the card changed); ``xlabel`` replaces the axis label."""
    t = tab[tab["key"] == key].iloc[1:]
    t = t.iloc[np.argsort(-t["diff"].abs().to_numpy(), kind="stable")]  # largest effect on top
    scale = (100.0 if _is_rate(key) else 1.0) * (-1.0 if sign < 0 else 1.0)
    fig, ax = plt.subplots(figsize=(8.0, 0.32 * len(t) + 1.8))
    y = np.arange(len(t))
    d = t["diff"].to_numpy() * scale
    ends = np.sort(np.vstack([t["diff_lo"].to_numpy() * scale, t["diff_hi"].to_numpy() * scale]), axis=0)
    err = np.vstack([d - ends[0], ends[1] - d])
    colours = [plots.OKABE_ITO[5] if (lo > 0 or hi < 0) else plots.OKABE_ITO[0]
               for lo, hi in zip(t["diff_lo"], t["diff_hi"])]
    for yi, di, e0, e1, c in zip(y, d, err[0], err[1], colours):
        ax.errorbar([di], [yi], xerr=[[e0], [e1]], fmt="o", color=c, capsize=4)
    ax.axvline(0, color="black", linewidth=1)
    names = [labels.get(v, v) for v in t["variant"]] if labels else t["variant"].tolist()
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    unit = " (percentage points)" if _is_rate(key) else (f" ({u})" if (u := _unit(key, tab)) else "")
    ax.set_xlabel(xlabel or f"{t['metric'].iloc[0]}: change against '{tab['variant'].iloc[0]}'{unit}")
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
        plots.legend_outside(ax, title=",".join(g["param"] for g in grid[1:]))
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
