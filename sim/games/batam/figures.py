"""Batam report figures (the map that was assumed) and the card-impact hooks (`sim impact`)."""
from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

from . import data as DATA  # noqa: E402

SEA, COMPASS_C, LAND, HARBOUR_C, START_C = "#CFE8F7", "#F0E442", "#B7A37A", "#009E73", "#D55E00"


def draw_map(rules: dict, path: Path) -> None:
    d = DATA.load_all(rules)
    b = d["board"]
    rows = b.rows
    h, w = len(rows), len(rows[0])
    fig, ax = plt.subplots(figsize=(0.42 * w + 2.5, 0.42 * h + 1.2))
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            y = h - 1 - r
            if ch == "~":
                color = SEA
            elif ch == "*":
                color = COMPASS_C
            elif ch == "#":
                color = LAND
            else:
                color = START_C if ch == b.letters[0] else HARBOUR_C
            ax.add_patch(Rectangle((c, y), 1, 1, facecolor=color, edgecolor="white", linewidth=0.6))
            if ch == "*":
                ax.text(c + 0.5, y + 0.5, "✦", ha="center", va="center", fontsize=9)
            elif ch not in "~#":
                ax.text(c + 0.5, y + 0.5, ch, ha="center", va="center", fontsize=9, color="white",
                        fontweight="bold")
    ax.set_xlim(0, w)
    ax.set_ylim(0, h)
    ax.set_aspect("equal")
    ax.axis("off")
    legend = [Patch(facecolor=SEA, label="sea"), Patch(facecolor=COMPASS_C, label="compass space"),
              Patch(facecolor=LAND, label="island (no ship)"),
              Patch(facecolor=START_C, label=f"{b.letters[0]} = {b.island_names[0]} (start)")]
    legend += [Patch(facecolor=HARBOUR_C, label=f"{l} = {n}")
               for l, n in zip(b.letters[1:], b.island_names[1:])]
    ax.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
    ax.set_title(f"Map: {getattr(b, 'name', 'board')} (an assumption: see seeds/batam/RULES.md)",
                 loc="left", fontsize=11)
    fig.tight_layout()
    from sim.io import atomic_write
    atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, format="png", bbox_inches="tight"))
    plt.close(fig)


def report_figures(manifest: dict, out_dir) -> list:
    rules = dict(manifest["rules"])
    draw_map(rules, Path(out_dir) / "batam_map.png")
    return [("batam_map.png", "The map used",
             "Sea, compass and harbour spaces of the board file this run used; ships move between "
             "spaces that share an edge.")]


# ----------------------------------------------------------------- card impact (sim impact)
def _deck(rules: dict):
    from sim import toml as TOML
    what, key = ("tiles", "tile") if rules["compass"] == "tiles" else ("cards", "card")
    path = DATA.resolve_path(what, rules[what])
    return what, key, TOML.load(path, f"{what} file").get(key, [])


def card_names(rules: dict) -> list:
    """Distinct compass tiles or cards (per the compass mode), e.g. 'pirate_0', 'tradewind_4'."""
    if rules["compass"] == "none":
        return []
    return sorted({DATA.entry_label(it) for it in _deck(rules)[2]})


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return json.dumps(str(v))   # a TOML basic string: quotes, backslashes, newlines escaped


def card_rules(rules: dict, card: str, mode: str, workdir) -> dict:
    """Rule changes that play the same seeds with ``card`` (every copy of it) removed from the
    tiles or cards file ('remove': a copy of the file without it, written into ``workdir``) or
    neutral ('neutral': it stays in the game, triggers as usual and has no effect)."""
    from sim.params import UsageError
    if rules["compass"] == "none":
        raise UsageError("batam with compass=none has no compass tiles or cards")
    names = card_names(rules)
    if card not in names:
        raise UsageError(f"unknown compass {rules['compass'][:-1]} '{card}'; known: {', '.join(names)}")
    if mode == "neutral":
        listed = set() if rules.get("neutral", "none") == "none" else set(rules["neutral"].split(","))
        return {"neutral": ",".join(sorted(listed | {card}))}
    if mode != "remove":
        raise UsageError(f"mode must be remove or neutral, not {mode!r}")
    what, key, items = _deck(rules)
    kept = [it for it in items if DATA.entry_label(it) != card]
    lines = [f"# {what} of {json.dumps(str(rules[what]))} without {json.dumps(card)} (written by sim impact)"]
    for it in kept:
        lines.append(f"[[{key}]]")
        lines += [f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in it.items()]
    # the file is named by the card's position in card_names, never by its label (data)
    out = Path(workdir) / f"batam-{what}-without-{names.index(card)}.toml"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    return {what: str(out)}
