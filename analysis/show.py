"""``sim show``: one recorded game, told turn by turn in the rules' words, with the board drawn
after each turn where the game has one (text in the terminal, a page with ``--html``); and the
exemplar games a run report links to (the longest, one stopped by the horizon, one won late,
one typical), each with the command that shows it."""
from __future__ import annotations

import importlib
import shlex
from dataclasses import dataclass, field

import numpy as np

from sim.params import UsageError


@dataclass
class Told:
    """One line of a shown game: its text, the board after it (text, and the SVG where the
    game's show module draws one; empty where no board follows the line), and its place in
    the numbering: ``k`` where the line begins the game's step k (Puluc's cast k, Maya's
    turn k, a Batam or Balam round k), 0 where it continues the step before, None for the
    introduction and the result (not numbered)."""

    text: str
    board: str = ""
    svg: str = ""
    step: int | None = None


@dataclass
class Shown:
    """A recorded game ready to print: header lines, and per line its text and board."""

    record: object
    title: str
    subtitle: str
    outcome: str
    command: str
    turns: list = field(default_factory=list)        # [Told]
    extra_boards: list = field(default_factory=list)
    extra_svgs: list = field(default_factory=list)   # beside extra_boards ("" where no SVG)
    step_word: str = "Turn"                          # what the game calls a numbered step
    key: list = field(default_factory=list)          # [(fill, symbol, meaning)]: how to read the board


def show_command(game, seed, index, players=None, bots=None, rules_changed=None) -> str:
    """The ``sim show`` command line of game ``index`` of a run (every option the run set)."""
    parts = ["sim", "show", game.name, "--seed", str(seed), "--game", str(index)]
    if players is not None and players != game.default_players:
        parts += ["--players", str(players)]
    if bots:
        labels = bots.split(",") if isinstance(bots, str) else list(bots)
        default = [c.label for c in game.choose_bots(None, players or game.default_players)]
        if labels != default:
            parts += ["--bots", ",".join(labels)]
    for k, v in (rules_changed or {}).items():
        v = ",".join(map(str, v)) if isinstance(v, (tuple, list)) else v
        parts += ["--set", f"{k}={v}"]
    return " ".join(shlex.quote(p) for p in parts)


def can_record(game) -> bool:
    return bool(game.actions)


def _numbering(mod, lines) -> list:
    """Each line's step (see :class:`Told`): the game's own ``steps(lines)`` where its show
    module has one (and it numbers every line), else every line a step of its own,
    numbered from 1."""
    steps_of = getattr(mod, "steps", None)
    steps = list(steps_of(lines)) if steps_of is not None else []
    return steps if len(steps) == len(lines) else list(range(1, len(lines) + 1))


def show_game(game, seed, index: int, rules=None, bots=None, players=None) -> Shown:
    """Record game ``index`` of the run (game, rules, bots, players, seed) and tell it."""
    from sim.record import describe, record_run
    if not can_record(game):
        raise UsageError(f"{game.name} cannot record its games yet, so sim show cannot tell one")
    if index < 0:
        raise UsageError(f"--game must be a game index 0, 1, 2, ..., not {index}")
    rec = record_run(game, [index], rules, bots, players, seed)[0]
    seats = list(game.seat_names(rec.players))
    mod = importlib.import_module(game.show_module) if game.show_module else None
    narrate = getattr(mod, "narrate", None)
    draw = getattr(mod, "draw", None)
    svg = getattr(mod, "svg", None)
    snaps = rec.snapshots if rec.snapshots is not None and draw else np.zeros((0, 1))
    turns_of = getattr(mod, "turns", None)
    if turns_of is not None:
        # the game says which board follows which line: (text, snapshot index or None)
        pairs = list(turns_of(rec, seats))
    else:
        # no pairing declared: the lines, then the boards in order after them
        pairs = [(t, None) for t in (narrate(rec, seats) if narrate else describe(game, rec.events, seats))]
    steps = _numbering(mod, [t for t, _ in pairs])

    def drawn(k):
        return draw(snaps[k], rec), (svg(snaps[k], rec) if svg else "")

    shown = {k for _, k in pairs if k is not None and 0 <= k < len(snaps)}
    turns = [Told(t, *(drawn(k) if k is not None and 0 <= k < len(snaps) else ("", "")), step)
             for (t, k), step in zip(pairs, steps)]
    extra = [drawn(k) for k in range(len(snaps)) if k not in shown]
    cols = rec.columns
    w = int(cols.get("winner", -1))
    reason = game.end_reasons[int(cols["end_reason"])] if "end_reason" in cols else "?"
    length = cols.get(game.length, "?")
    who = f"{seats[w]} won" if 0 <= w < len(seats) else "no single winner"
    spec_rules = {p.name: rec.rules[p.name] for p in game.params if rec.rules[p.name] != p.default}
    return Shown(
        record=rec,
        title=f"{game.title}: game {index} of seed {rec.seed}",
        subtitle=(f"{rec.players} players: " + ", ".join(f"{s} ({b})" for s, b in zip(seats, rec.bots))
                  + (f"; rules changed: {spec_rules}" if spec_rules else "; default rules")
                  + f"; {len(rec.events):,} events recorded"),
        outcome=f"{who}; ended: {reason}; {length} {game.length_unit}.",
        command=show_command(game, rec.seed, index, rec.players, rec.bots, spec_rules),
        turns=turns,
        extra_boards=[b for b, _ in extra],
        extra_svgs=[v for _, v in extra],
        step_word=getattr(mod, "STEP_WORD", "Turn"),
        key=list(mod.key(rec)) if mod is not None and hasattr(mod, "key") else [],
    )


def show_text(s: Shown) -> str:
    """The game for the terminal: the game's own steps numbered (cast k as k), the
    introduction, the lines within a step and the result indented without a number."""
    lines = [s.title, s.subtitle, ""]
    for t in s.turns:
        lines.append(f"{t.step:>4}. {t.text}" if t.step else f"      {t.text}")
        if t.board:
            lines += ["      " + b for b in t.board.splitlines()]
    lines += s.extra_boards
    lines += ["", s.outcome]
    return "\n".join(lines)


def sections(s: Shown) -> tuple[list, list, list]:
    """The page's parts: the introduction (the lines before the first step), the steps
    (each: its number and lines) and the result (the unnumbered lines after the last)."""
    told = list(s.turns)
    first = next((i for i, t in enumerate(told) if t.step), len(told))
    last = len(told)
    while last > first and told[last - 1].step is None:
        last -= 1
    steps = []
    for t in told[first:last]:
        if t.step or not steps:
            steps.append({"number": t.step or len(steps) + 1, "lines": []})
        steps[-1]["lines"].append(t)
    return told[:first], steps, told[last:]


def write_show_page(s: Shown, path) -> str:
    from markupsafe import Markup

    from sim.io import write_text

    from .pages import CSS, SELF_CHECK, render

    def line(t: Told) -> dict:
        return {"text": t.text, "board": t.board, "svg": Markup(t.svg) if t.svg else ""}

    intro, steps, result = sections(s)
    page = render("show.html", title=s.title, subtitle=s.subtitle, outcome=s.outcome, command=s.command,
                  css=Markup(CSS), self_check=Markup(SELF_CHECK), step_word=s.step_word,
                  intro=[line(t) for t in intro], result=[line(t) for t in result],
                  steps=[{"number": st["number"], "lines": [line(t) for t in st["lines"]]} for st in steps],
                  extra=[{"board": b, "svg": Markup(v) if v else ""}
                         for b, v in zip(s.extra_boards, s.extra_svgs)],
                  key=[{"fill": f, "symbol": sym, "meaning": m} for f, sym, m in s.key])
    return write_text(path, page)


# ------------------------------------------------------------------ exemplars of a run
def exemplar_columns(game, players: int) -> list[str]:
    """The result columns :func:`exemplars` reads (a run's other columns need not be loaded)."""
    cols = ["game", game.length, "capped", "winner"]
    if game.drama_settled:
        cols.append(game.drama_settled)
    if game.score:
        cols += [f"{game.score}_{s}" for s in range(players)]
    return cols


def exemplars(game, rows) -> list[tuple[str, int, str]]:
    """(label, game index, why) of a few games worth watching, from a run's per-game rows
    (:func:`sim.exemplars.picks`: the longest, one stopped by the horizon, one won late or by
    the narrowest margin, one of typical length).  A run finds the same games while it plays
    (``Summary.watch``); this reads them from rows (a run saved before it kept them)."""
    from sim.exemplars import Watch, picks
    if rows is None or not len(rows) or game.length not in rows:
        return []
    cols = {c: rows[c].to_numpy() for c in (game.length, "capped", "winner", game.drama_settled)
            if c and c in rows}
    seats = ([c for c in rows if c.startswith(game.score + "_") and c[len(game.score) + 1:].isdigit()]
             if game.score else [])
    if seats:
        cols[game.score] = rows[seats].to_numpy()
    return picks(game, Watch.of(game, max(len(seats), 1), cols, rows["game"].to_numpy()))
