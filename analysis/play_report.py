"""How it plays (issue #47): the report's section from the columns of ``sim/playcols.py``.

Each figure is the mean over the games that have it, with its 95% normal interval, in the
unit its ``Metric`` states, and a one-line definition.  The state-evaluation figures say
which win probability they followed: the game's learned model (named, with its held-out
log loss) where the run was made with ``--evaluate``; without it they are absent and the
section says how to get them.
"""
from __future__ import annotations

import math

from sim.playcols import METRICS

from .metrics import duration


def _fmt(x: float, nd: int) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{x:,.{nd}f}"


def _row(S, col: str, scale: float, seat: int | None = None):
    key = col if seat is None else f"{col}_{seat}"
    if key not in S.hists or S.hists[key].n == 0:
        return None
    D = duration(S, key)
    return D["mean"] / scale, D["mean_lo"] / scale, D["mean_hi"] / scale, S.hists[key].n


def section(S, game, manifest: dict) -> dict | None:
    """{"rows": [(figure, value, interval, definition)], "evaluation": sentence} or None
    where the game declares none of these columns."""
    declared = {c.name for c in game.columns}
    metrics = [m for m in METRICS if m.column in declared]
    if not metrics:
        return None
    seats = manifest.get("seats") or []
    rows = []
    evaluated = False
    for m in metrics:
        per_seat = any(c.name == m.column and c.per_seat for c in game.columns)
        if per_seat:
            parts = []
            for s, name in enumerate(seats):
                r = _row(S, m.column, m.scale, s)
                if r is not None:
                    parts.append((name, r))
            if parts:
                rows.append((m.label, " / ".join(_fmt(r[0], 1) for _, r in parts) + f" {m.unit}",
                             "; ".join(f"{n}: {_fmt(r[1], 1)} to {_fmt(r[2], 1)}" for n, r in parts),
                             m.definition + " (" + " / ".join(n for n, _ in parts) + ")"))
            continue
        r = _row(S, m.column, m.scale)
        if r is None:
            continue
        evaluated |= m.group == "evaluation"
        games = f" ({r[3]:,} games with a single winning side)" if m.column in (
            "ev_drama", "ev_drama_max", "ev_decided", "ev_decided_thr") else ""
        rows.append((m.label, f"{_fmt(r[0], 2 if m.scale >= 100 else 1)} {m.unit}",
                     f"{_fmt(r[1], 2 if m.scale >= 100 else 1)} to {_fmt(r[2], 2 if m.scale >= 100 else 1)}",
                     m.definition + games))
    model = manifest.get("model") or {}
    if evaluated:
        how = (f"The state-evaluation figures follow each side's chance of winning at every position "
               f"by the game's learned value model ({model.get('kind', '?')}, trained on "
               f"{model.get('games', 0):,} games; held-out log loss {model.get('log_loss', float('nan')):.3f} "
               f"against {model.get('log_loss_base', float('nan')):.3f} for the base rate), each seat's "
               f"own view, normalised over the sides, {game.evaluated_at or 'at every position'}; "
               "'beyond doubt' is a chance of 80% or more.  A weak model (log loss near the "
               "base rate's) understates drama and decisiveness.")
    elif any(m.group == "evaluation" for m in metrics):
        how = (f"Lead changes, drama, decisiveness, stability and uncertainty need a win probability "
               f"at every position: run with --evaluate (sim {game.name} --evaluate ...), which "
               "follows the game's learned value model (trained first where none is kept).")
    else:
        how = ""
    return {"rows": rows, "evaluation": how}


def figures(S, game) -> dict:
    """{column: mean, column_lo, column_hi} of every game-level how-it-plays figure this run
    has, in its unit (the API's run summary)."""
    declared = {c.name: c for c in game.columns}
    out = {}
    for m in METRICS:
        c = declared.get(m.column)
        if c is None or c.per_seat:
            continue
        r = _row(S, m.column, m.scale)
        if r is not None:
            out[m.column], out[m.column + "_lo"], out[m.column + "_hi"] = r[0], r[1], r[2]
    return out


def compare_lines(res) -> list[str]:
    """How it plays in a comparison (``sim compare``/``sweep``): for every variant against the
    first, each figure both have (``experiment_metrics.HOWPLAYS``) as a paired difference
    over the games where both have it, with its 95% interval, in its unit."""
    from .experiment_metrics import HOWPLAYS, howplays_names
    from .stats import paired_mean_diff
    st = res.stats or {}
    if "hp_dcnt" not in st:
        return []
    names = howplays_names(res.game)
    metric = {name: next(m for m in METRICS if m.column == col) for name, col in HOWPLAYS}
    base = res.variants[0][0]
    out = []
    evaluated = False
    for k, a in enumerate(res.arms):
        if a.swapped or a.variant == 0:
            continue
        parts = []
        for h, name in enumerate(names):
            n0, nd = st["hp_cnt"][0, h], st["hp_dcnt"][k, h]
            if n0 < 2 or nd < 2:
                continue
            evaluated |= metric[name].group == "evaluation"
            sc = metric[name].scale
            b = st["hp_sum"][0, h] / n0 / sc
            v = st["hp_sum"][k, h] / st["hp_cnt"][k, h] / sc
            d = paired_mean_diff(nd, float(st["hp_dsum"][k, h]), float(st["hp_dsum2"][k, h]))
            parts.append(f"{name} {_fmt(b, 2)} → {_fmt(v, 2)} ({d['mean'] / sc:+.2f} [{d['lo'] / sc:+.2f}, "
                         f"{d['hi'] / sc:+.2f}] {metric[name].unit})")
        if parts:
            out.append(f"'{res.variants[a.variant][0]}' against '{base}', how it plays (paired games, "
                       f"95% intervals): " + "; ".join(parts) + ".")
    if evaluated:
        out.append("How it plays: lead changes, drama, the point the winner was settled, swings and "
                   "uncertainty follow each variant's own learned model (its rules differ), so part "
                   "of a difference there can be the models'.")
    return out


def trace_figure(game, manifest: dict, out_dir, picks) -> list:
    """The run report's "Win probability over the game" figure, for an evaluated run
    (``--evaluate``) of a game that traces its games (``Game.win_trace``): each side's chance
    of winning at every position of up to three of the run's exemplar games (``picks``),
    played again with the run's model; [] otherwise."""
    from pathlib import Path

    if not manifest.get("evaluated") or game.win_trace is None or not picks:
        return []
    import matplotlib.pyplot as plt

    from sim.spec import make_spec
    players, seed = manifest["players"], manifest["seed"]
    spec = make_spec(game, 1, manifest.get("rules_changed") or {}, ",".join(manifest["bots"]), players,
                     seed, evaluate=True, note=lambda *_: None)
    ids, par = game.bot_arrays(spec.bots)
    sides = game.side_labels(players)
    chosen = list({index: (label, index, why) for label, index, why in reversed(picks)}.values())[::-1][:3]
    fig, axes = plt.subplots(1, len(chosen), figsize=(4.2 * len(chosen), 3.2), squeeze=False)
    for ax, (label, index, why) in zip(axes[0], chosen):
        tr, _ = game.win_trace(spec.ctx, players, seed, index, ids, par)
        x = range(len(tr))
        for s in range(tr.shape[1]):
            ax.plot(x, 100 * tr[:, s], label=sides[s] if s < len(sides) else f"side {s}", lw=1.2)
        ax.set_ylim(0, 100)
        ax.set_title(f"game {index}: {label}", fontsize=9)
        ax.set_xlabel("round (the first seat to move)", fontsize=8)
        ax.set_ylabel("chance of winning (%)", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0][0].legend(fontsize=7, loc="best")
    fig.tight_layout()
    path = Path(out_dir) / "win_probability.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    model = manifest.get("model") or {}
    return [(path.name, "Win probability over the game",
             f"Each side's chance of winning at every position by the learned model "
             f"({model.get('kind', '?')}, held-out log loss {model.get('log_loss', float('nan')):.3f}) in "
             f"{len(chosen)} of the run's games worth watching (their pages and `sim show` commands are "
             "below): where the eventual winner's line lies low, the game came back.")]
