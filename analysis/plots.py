"""Plots a designer reads at a glance: titles, labelled axes with units, intervals drawn,
a colour-blind-safe palette (Okabe & Ito) and the same colour for a seat in every plot."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
NEUTRAL = "#7F7F7F"


def seat_color(seat: int) -> str:
    return OKABE_ITO[seat % len(OKABE_ITO)]


def _style(ax, title, xlabel, ylabel):
    ax.set_title(title, fontsize=12, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="y", alpha=0.3)


def legend_outside(ax, **kw):
    """The axes' legend to the right of its panel, never over the data."""
    kw = {"fontsize": 8, "frameon": False, **kw}
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kw)


#: offsets (points) a point's label tries in turn, the first that overlaps no label placed before
_LABEL_OFFSETS = [(0, 7), (0, -13), (9, -3), (-9, -3), (0, 19), (0, -25), (14, 7), (-14, 7),
                  (14, -13), (-14, -13), (0, 31), (0, -37), (22, -3), (-22, -3)]


_LABEL_BOX = {"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85}


def place_labels(ax, xs, ys, texts, fontsize: float = 8) -> list:
    """Short labels beside points, each at the first offset of :data:`_LABEL_OFFSETS` where it
    overlaps no label placed before (points that coincide get labels side by side, not one on
    another); the figure is laid out first so the positions are those drawn."""
    fig = ax.figure
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    placed, boxes = [], []
    for x, y, t in zip(xs, ys, texts):
        for dx, dy in _LABEL_OFFSETS:
            a = ax.annotate(t, (x, y), textcoords="offset points", xytext=(dx, dy), fontsize=fontsize,
                            ha="center", va="center", bbox=_LABEL_BOX)
            box = a.get_window_extent(renderer)
            if not any(box.overlaps(b) for b in boxes):
                break
            a.remove()
        else:
            a = ax.annotate(t, (x, y), textcoords="offset points", xytext=_LABEL_OFFSETS[0],
                            fontsize=fontsize, ha="center", va="center", bbox=_LABEL_BOX)
            box = a.get_window_extent(renderer)
        placed.append(a)
        boxes.append(box)
    return placed


def save(fig, path):
    from sim.io import atomic_write
    fig.tight_layout()
    atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, format="png"))
    plt.close(fig)


def render(jobs, here=(), fork: bool | None = None) -> list:
    """Draw the figures ``jobs``, each ``(draw, args, kwargs)`` writing its PNG, and run the
    callables ``here`` in this process; returns what each of ``here`` returned.

    Where the platform forks, a second core is free and this process runs no other thread,
    a forked copy of this process (matplotlib loaded already) draws half of the figures
    while this one draws the rest and runs ``here``; else all is done here, one after the
    other.  (A copy forked beside another thread inherits any lock that thread held, and
    can wait on it for ever: the command line's runs have no other thread left when they
    draw, a program calling the API may.)  What the copy did not write (it failed or was
    stopped) is drawn here afterwards, so every figure is written."""
    import os
    import threading

    from sim.validate import cores
    if fork is None:
        fork = (hasattr(os, "fork") and cores() > 1 and len(jobs) + len(here) > 1
                and threading.active_count() == 1)
    theirs, mine = (jobs[0::2], jobs[1::2]) if fork and here else (jobs[1::2], jobs[0::2]) if fork else ([], jobs)
    pid = _fork_drawing(theirs) if theirs else None
    if pid is None:
        mine, theirs = jobs, []
    status = 0
    try:
        for draw, args, kw in mine:
            draw(*args, **kw)
        got = [f() for f in here]
    finally:  # never leave the copy behind, whatever happened here
        if pid is not None:
            status = _wait_copy(pid, COPY_WAIT_S)
    if status != 0:  # the copy failed or hung: draw its figures here (each file is written whole)
        for draw, args, kw in theirs:
            draw(*args, **kw)
    return got


#: how long the report waits for the forked copy's figures (it draws a few in about a
#: second) before it ends the copy and draws them itself: a copy that hangs all the same
#: (a lock held at the fork by a thread started outside Python, say) must not hang the run
COPY_WAIT_S = 60.0


def _wait_copy(pid: int, limit: float) -> int:
    """The copy's exit status, waiting at most ``limit`` seconds; past that it is killed and
    the status is non-zero (its figures are then drawn here)."""
    import os
    import signal
    import time
    deadline = time.monotonic() + limit
    delay = 0.005
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() >= deadline:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            os.waitpid(pid, 0)
            return -1
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _fork_drawing(jobs) -> int | None:
    """Fork a copy that draws ``jobs`` and exits (0 when all were written); its pid, or None
    where the fork failed.  The copy leaves through ``os._exit``: no exit handler, no buffer
    of the parent's is flushed twice."""
    import os
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        return pid
    code = 1
    try:
        for draw, args, kw in jobs:
            draw(*args, **kw)
        code = 0
    except BaseException:  # noqa: BLE001 - reported by the exit status: the parent draws them
        pass
    finally:
        os._exit(code)


def win_rates(seats, positions, players: int, path, title_suffix="", fair: float | None = None):
    """Bars: each seat's (or team's) win rate, then each turn-order position's, with 95%
    intervals; ``fair``: the fair share (default 1/players)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    labels, rates, los, his, colors = [], [], [], [], []
    for _, r in seats.iterrows():
        labels.append(str(r["name"]))
        rates.append(r["rate"])
        los.append(r["lo"])
        his.append(r["hi"])
        colors.append(seat_color(int(r["seat"])))
    for _, r in positions.iterrows():
        labels.append(str(r["label"]))
        rates.append(r["rate"])
        los.append(r["lo"])
        his.append(r["hi"])
        colors.append(NEUTRAL)
    x = np.arange(len(labels))
    rates = np.array(rates) * 100
    err = np.vstack([rates - np.array(los) * 100, np.array(his) * 100 - rates])
    ax.bar(x, rates, color=colors, edgecolor="black", linewidth=0.5)
    ax.errorbar(x, rates, yerr=err, fmt="none", ecolor="black", capsize=6, linewidth=1.2)
    fair = 100.0 * (fair if fair is not None else 1.0 / players)
    ax.axhline(fair, color="black", linestyle="--", linewidth=1)
    ax.text(len(labels) - 0.5, fair, f" fair share {fair:.0f}%", va="bottom", ha="right", fontsize=9)
    for xi, r in zip(x, rates):
        ax.text(xi, r / 2, f"{r:.1f}%", ha="center", va="center", color="white", fontsize=10,
                fontweight="bold")
    ax.set_xticks(x, labels)
    ax.axvline(len(seats) - 0.5, color="black", linewidth=0.5, alpha=0.4)
    ax.set_ylim(0, max(100.0, float(np.nanmax(rates)) * 1.1) if len(rates) else 100)
    _style(ax, f"Who wins: by {'team' if 'team' in ' '.join(labels) else 'seat'}, and by turn order"
           + title_suffix, "",
           "games won (%, bars: 95% interval)")
    save(fig, path)


def _unit_edges(values) -> np.ndarray:
    """The bin edges of consecutive whole values, each bin centred on its value.  The
    histograms of such values are drawn with them as one filled outline (``ax.stairs``):
    the same picture as touching bars without an artist per bar (a 120-bin game-length
    histogram with its horizon layer: 0.08 s of CPU instead of 0.21)."""
    return np.append(values - 0.5, values[-1] + 0.5) if len(values) else np.zeros(1)


def length_histogram(S, column: str, unit: str, path):
    """Distribution of game length from exact histograms; games stopped by the horizon apart."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    h = S.hists[column]
    hc = S.hists.get(f"{column}|capped")
    v = h.values
    share = h.counts * 100.0 / h.n
    capped = np.zeros_like(share)
    if hc is not None and hc.n:
        capped[hc.lo - h.lo: hc.lo - h.lo + hc.counts.size] = hc.counts * 100.0 / h.n
    ended = share - capped
    width = 1.0
    if v.size > 120:  # group into about 80 bins for readability
        step = int(np.ceil(v.size / 80))
        pad = (-v.size) % step
        v = np.concatenate([v, v[-1] + 1 + np.arange(pad)])[::step]
        ended = np.concatenate([ended, np.zeros(pad)]).reshape(-1, step).sum(axis=1)
        capped = np.concatenate([capped, np.zeros(pad)]).reshape(-1, step).sum(axis=1)
        width = step
    edges = np.append(v, v[-1] + width) if width > 1 else _unit_edges(v)
    ax.stairs(ended, edges, fill=True, color=OKABE_ITO[0], label="ended by the rules")
    if capped.any():
        ax.stairs(ended + capped, edges, baseline=ended, fill=True, color=OKABE_ITO[5],
                  label="stopped by the horizon")
    mean, median = h.mean(), h.quantile(0.5)
    ax.axvline(mean, color="black", linestyle="-", linewidth=1, label=f"mean {mean:.1f}")
    ax.axvline(median, color="black", linestyle=":", linewidth=1.5, label=f"median {median:.0f}")
    ax.legend(frameon=False)
    _style(ax, "How long games last", f"game length ({unit})", "share of games (%)")
    save(fig, path)


def seat_means(tables: dict, path, seat_names):
    """One panel per per-seat metric: each seat's mean with a 95% interval."""
    k = len(tables)
    fig, axes = plt.subplots(1, k, figsize=(3.2 * k + 0.8, 3.8), squeeze=False)
    for ax, (name, t) in zip(axes[0], tables.items()):
        x = np.arange(len(t))
        m = t["mean"].to_numpy()
        err = np.vstack([m - t["lo"].to_numpy(), t["hi"].to_numpy() - m])
        ax.bar(x, m, color=[seat_color(int(s)) for s in t["seat"]], edgecolor="black", linewidth=0.5)
        ax.errorbar(x, m, yerr=err, fmt="none", ecolor="black", capsize=5)
        ax.set_xticks(x, [seat_names[int(s)] for s in t["seat"]])
        _style(ax, name.replace("_", " "), "", "mean per game")
    fig.suptitle("Per-seat averages (bars: 95% interval)", x=0.01, ha="left", fontsize=12)
    save(fig, path)


def count_distribution(S, name: str, seat_names, path, xlabel: str, hists=None):
    """Share of games by a per-seat count (e.g. kills), one bar group per seat (or per team,
    with ``hists`` one histogram per name)."""
    players = len(seat_names)
    hists = [S.seat_hist(name, s) for s in range(players)] if hists is None else list(hists)
    lo = min(h.lo for h in hists)
    hi = max(h.lo + h.counts.size - 1 for h in hists)
    x = np.arange(lo, hi + 1)
    width = 0.8 / players
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    step = max(1, int(np.ceil(x.size / 40)))  # wide ranges: bins of `step` values, drawn as lines
    for s, h in enumerate(hists):
        share = np.zeros(x.size)
        share[h.lo - lo: h.lo - lo + h.counts.size] = h.counts * 100.0 / max(h.n, 1)
        if step > 1:
            pad = (-x.size) % step
            binned = np.concatenate([share, np.zeros(pad)]).reshape(-1, step).sum(axis=1)
            left = lo + step * np.arange(binned.size)
            ax.step(left, binned, where="post", color=seat_color(s), label=seat_names[s], linewidth=1.6)
        else:
            ax.bar(x + (s - (players - 1) / 2) * width, share, width=width, color=seat_color(s),
                   label=seat_names[s], edgecolor="black", linewidth=0.3)
    if step > 1:
        ylabel = f"share of games (%, bins of {step})"
    else:
        ylabel = "share of games (%)"
    if x.size <= 30:
        ax.set_xticks(x)
    ax.legend(frameon=False)
    _style(ax, f"Distribution of {name.replace('_', ' ')} per game", xlabel, ylabel)
    save(fig, path)


def margin_histogram(S, path, score_name: str):
    h = S.hists["margin"]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.stairs(h.counts * 100.0 / max(h.n, 1), _unit_edges(h.values), fill=True, color=OKABE_ITO[2])
    ax.axvline(h.mean(), color="black", linewidth=1, label=f"mean {h.mean():.1f}")
    ax.legend(frameon=False)
    _style(ax, "Winning margins", f"leader's {score_name} minus the runner-up's", "share of games (%)")
    save(fig, path)


def drama(S, path, changes: str, settled: str | None = None):
    """Lead changes per game (the histogram of column ``changes``), and when the winner's lead
    became permanent (% of the game: column ``settled``), as the game declares them."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    h = S.hists[changes]
    axes[0].stairs(h.counts * 100.0 / max(h.n, 1), _unit_edges(h.values), fill=True, color=OKABE_ITO[0])
    _style(axes[0], "Lead changes", "lead changes in a game", "share of games (%)")
    h2 = S.hists.get(settled) if settled else None
    if h2 is not None and h2.n:
        axes[1].stairs(h2.counts * 100.0 / max(h2.n, 1), _unit_edges(h2.values), fill=True,
                       color=OKABE_ITO[5])
        _style(axes[1], "When the winner led for good", "point of the game (% of its length)",
               "share of games (%)")
    else:
        axes[1].axis("off")
    save(fig, path)
