"""The page and terminal table of ``sim skill``: the win matrix, the ratings with their
intervals, and what they say (the spread of strength, bots without a finite rating, bots
that played identical games)."""
from __future__ import annotations

from pathlib import Path
import matplotlib.pyplot as plt

import numpy as np

from . import plots
from .pages import CSS
from .pages import Markup
from .pages import SELF_CHECK
from .pages import render
from .pages import write_page
from .wording import BOTS_NOTE


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
