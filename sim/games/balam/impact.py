"""Card impact hooks (`sim impact balam --card drought`) and the report's tile and board
figures."""
from __future__ import annotations

import json
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
    return _toml_str(v)


def _toml_str(v) -> str:
    """A TOML basic string: JSON's escapes (quotes, backslashes, control characters) are
    TOML's; DEL is escaped too."""
    return json.dumps(str(v), ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_items(table: dict) -> list:
    """``"key" = value`` lines (keys quoted: a data file's keys are copied, never trusted)."""
    return [f"{_toml_str(k)} = {_toml_value(v)}" for k, v in table.items()]


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
    from ... import toml as TOML
    d = TOML.load(path, "katun file")
    lines = [f"# the deck without the cards of type {code} (written by sim impact)"]
    for t in d["type"]:
        t = dict(t)
        if t["code"] == code:
            t["count"] = 0
        lines.append("[[type]]")
        lines += _toml_items(t)
    if "exceptional" in d:
        lines.append("[exceptional]")
        lines += _toml_items(d["exceptional"])
    for key, c in (("prosperous", 0), ("favourable", 1)):
        if code == c:
            continue
        for item in d.get(key, []):
            lines.append(f"[[{key}]]")
            lines += _toml_items(item)
    # the file name holds the type's number, never the key read from the data file (a key
    # such as "../x" would write outside the run directory)
    out = Path(workdir) / f"balam-katun-without-type{code}.toml"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    D.load_deck(out)  # validate what we wrote
    return {"katun": str(out)}


def report_figures(manifest: dict, out_dir) -> list:
    """The tile set the run used, and whether each game drew its own layout of it or all
    played the board file as printed (then the board too).  A manifest without ``layout``
    is from before version 5, when every game played the printed board."""
    from .draw import draw_board, draw_tiles
    rules = dict(manifest.get("rules", {}))
    board = D.resolve_file(rules.get("board", "default"), "board")
    layout = rules.get("layout", "fixed")
    n = len(D.load_board(board).names)
    what = ("The site tiles are assumed contents (the rulebook lists 33 site tiles but not "
            "what each holds: see seeds/balam/RULES.md, Assumptions).")
    if layout == "random":
        draw_tiles(board, Path(out_dir) / "balam_tiles.png",
                   f"Balam site tiles: a random layout per game ({n} land tiles)")
        return [("balam_tiles.png", "The site tiles (layout drawn at random for each game)",
                 f"Layouts were random: each game laid these {n} land tiles out in its own "
                 "uniformly drawn order over the board file's land cells (sea tiles in the "
                 "corners, red-cross tiles set aside, paths between cells as the file gives "
                 "them); the per-game column 'layout' identifies each game's layout. Colour "
                 "= production, squares = building spaces, F forest, S seashore, V next to a "
                 "volcano, C cenote. " + what)]
    draw_tiles(board, Path(out_dir) / "balam_tiles.png",
               f"Balam site tiles: the board file's fixed layout ({n} land tiles)")
    draw_board(board, Path(out_dir) / "balam_board.png")
    return [("balam_tiles.png", "The site tiles (layout fixed)",
             f"Layouts were fixed: every game played these {n} land tiles where the board "
             "file prints them (drawn below). Colour = production, squares = building "
             "spaces, F forest, S seashore, V next to a volcano, C cenote. " + what),
            ("balam_board.png", "The board used (fixed layout)",
             "The board file as printed, which every game of this run played: the tiles on "
             "their cells and the paths that make sites neighbours (dashed: the long coastal "
             "paths). " + what)]
