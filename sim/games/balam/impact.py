"""Card impact hooks (`sim impact balam --card drought`) and the report's board figure."""
from __future__ import annotations

import tomllib
from pathlib import Path

from ...params import UsageError
from . import data as D


def card_names(rules: dict) -> list:
    """The seventeen card types of the deck in use, by key (e.g. 'drought')."""
    deck = D.load_deck(D.resolve_file(rules["katun"], "katun"))
    return list(deck.keys)


def _toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return '"' + str(v).replace('"', '\\"') + '"'


def card_rules(rules: dict, card: str, mode: str, workdir) -> dict:
    """Rule changes playing the same seeds without ``card`` ('remove': a deck file with no
    card of that type) or with it turned but without effect ('neutral')."""
    names = card_names(rules)
    if card not in names:
        raise UsageError(f"unknown Katun card type '{card}'; known: {', '.join(names)}")
    code = names.index(card)
    if mode == "neutral":
        return {"neutral_cards": str(code)}
    if code == 7:
        raise UsageError("the ball games end the game and cannot be removed; use --mode neutral")
    path = D.resolve_file(rules["katun"], "katun")
    d = tomllib.loads(Path(path).read_text())
    lines = [f"# {Path(path).name} without the {card} cards (written by sim impact)"]
    for t in d["type"]:
        t = dict(t)
        if t["code"] == code:
            t["count"] = 0
        lines.append("[[type]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in t.items()]
    if "exceptional" in d:
        lines.append("[exceptional]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in d["exceptional"].items()]
    for key, c in (("prosperous", 0), ("favourable", 1)):
        if code == c:
            continue
        for item in d.get(key, []):
            lines.append(f"[[{key}]]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in item.items()]
    out = Path(workdir) / f"balam-katun-without-{card}.toml"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    D.load_deck(out)  # validate what we wrote
    return {"katun": str(out)}


def report_figures(manifest: dict, out_dir) -> list:
    from .draw import draw_board
    rules = dict(manifest.get("rules", {}))
    board = D.resolve_file(rules.get("board", "default"), "board")
    draw_board(board, Path(out_dir) / "balam_board.png")
    return [("balam_board.png", "The board used",
             "Site tiles of the board file this run used: production colour, building spaces "
             "(squares), features (F forest, S seashore, V next to a volcano, C cenote) and the "
             "paths that make sites neighbours (an assumption: see seeds/balam/RULES.md).")]
