"""The conditions of ``sim robust``: every bot of the game's strength list, each alternative
reading, each other setup, and the worst-case pair of readings that push a headline the same
way."""
from __future__ import annotations

from dataclasses import dataclass

from sim.game import Game
from sim.params import UsageError


@dataclass
class Condition:
    """One change of the assumptions, played on the baseline's seeds."""

    label: str              # "search (all seats)", "exit=pile", "layout=fixed"
    kind: str               # "bots" | "reading" | "setup" | "combined"
    assumption: str         # "bots", or the parameter name(s)
    rules: dict             # rule changes on top of the baseline's (both arms in a comparison)
    seatings: list | None   # bots per seat, one list per seating (None: the baseline's bots)
    stats: dict | None = None   # n, s, S2 over [baseline quantities, condition quantities]
    stopped: bool = False       # stopped early: its status was decided before --games
    stage: int = 1
    note: str = ""              # the strong play's condition: which bot, and why (strong_play)
    strong: bool = False        # the strong bot plays in a seat (its games: Game.strong_games)
    limit: int | None = None    # the most games it plays (None: --games)

    def describe(self) -> str:
        parts = []
        if self.rules:
            parts.append(", ".join(f"{k}={_show(v)}" for k, v in self.rules.items()))
        if self.seatings:
            parts.append("bots " + "; ".join(",".join(s) for s in self.seatings)
                         + (" (seatings averaged game by game)" if len(self.seatings) > 1 else ""))
        if self.note:
            parts.append(f"strong play: {self.note}")
        return "; ".join(parts)

    def as_dict(self) -> dict:
        return {"label": self.label, "kind": self.kind, "assumption": self.assumption,
                "rules": self.rules, "seatings": self.seatings, "stats": self.stats,
                "stopped": self.stopped, "stage": self.stage, "note": self.note, "strong": self.strong,
                "limit": self.limit}


def _show(v) -> str:
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def strong_play(game: Game, players: int) -> dict:
    """The bot of robust's strong condition (the first of ``Game.bot_strength``) and why it is
    the one: the game declares it in ``Game.strong_play`` (a text, or one per player
    count), from its `sim strength` climb where that settled, else the strongest affordable
    budget and that stronger play may still move the figures.  {"bot": label, "why": text}."""
    spec = game.bot_strength(players)[0]
    label = game.choose_bots(spec, players)[0].label
    why = game.strong_play or ""
    if isinstance(why, dict):
        why = why.get(players, "")
    return {"bot": label, "why": str(why) or f"the first of {game.name}'s declared strength list "
            "(no strength climb is declared for it: `sim strength` tells whether stronger play moves "
            "the figures)"}


def build_conditions(game: Game, players: int, base_rules: dict, base_bots: list[str],
                     exclude=(), validate_rules=None) -> tuple[list[Condition], list]:
    """The conditions of a robust run, and what was skipped (with why).

    ``base_rules``: the baseline's resolved rules; ``base_bots``: its bot labels per seat;
    ``exclude``: parameters not to vary (those a compared variant sets itself);
    ``validate_rules(changes)``: raises UsageError where a change cannot be played."""
    conds: list[Condition] = []
    skipped: list = []
    P = players
    # bots: each one with all seats equal, the strongest against each other one
    strength = []
    for spec in game.bot_strength(P):
        try:
            label = game.choose_bots(spec, P)[0].label
        except UsageError as e:
            skipped.append((f"bot {spec}", str(e)))
            continue
        if label not in strength:
            strength.append(label)
    strong = strong_play(game, P) if strength else None
    for b in strength:
        if list(base_bots) == [b] * P:
            continue
        note = strong["why"] if strong and b == strong["bot"] else ""
        conds.append(Condition(f"{b} (all seats)", "bots", "bots", {}, [[b] * P], note=note,
                               strong=b == strength[0]))
    if len(strength) > 1:
        strong = strength[0]
        for w in strength[1:]:
            seatings = [[strong if s == k else w for s in range(P)] for k in range(P)]
            label = f"{strong} vs {w}" if P == 2 else f"one {strong} among {w}"
            conds.append(Condition(label + " (every seating)", "bots", "bots", {}, seatings, strong=True))
    by_name = {p.name: p for p in game.params}
    setup = [n for n in game.setup_randomness]

    def alternatives(p):
        cur = base_rules[p.name]
        seen = [cur]
        out = []
        for raw in [p.default] + list(p.other_readings()):
            try:
                v = p.parse(raw)
            except UsageError:
                continue
            if v in seen:
                continue
            seen.append(v)
            out.append(v)
        return out

    def add(p, kind):
        for v in alternatives(p):
            change = {p.name: v}
            if validate_rules is not None:
                try:
                    validate_rules(change)
                except UsageError as e:
                    skipped.append((f"{p.name}={_show(v)}", str(e)))
                    continue
            conds.append(Condition(f"{p.name}={_show(v)}", kind, p.name, change, None))

    for p in game.params:
        if p.role != "reading" or p.name in setup:
            continue
        if p.name in exclude:
            skipped.append((f"reading {p.name}", "the compared variant sets it"))
            continue
        add(p, "reading")
    if not any(p.role == "reading" for p in game.params):
        skipped.append(("readings", f"{game.name} declares no parameter as a reading "
                                    "(role='reading' with alternatives)"))
    for name in setup:
        p = by_name.get(name)
        if p is None:
            skipped.append((f"setup {name}", f"{game.name} has no parameter '{name}' (yet)"))
            continue
        if name in exclude:
            skipped.append((f"setup {name}", "the compared variant sets it"))
            continue
        if p.kind == "choice":
            p = _with_alternatives(p, [c for c in p.choices])
        add(p, "setup")
    return conds, skipped


def _with_alternatives(p, values):
    from dataclasses import replace
    return replace(p, alternatives=tuple(v for v in values if v != p.default) or p.alternatives)


def worst_pair(game: Game, ev: dict, conds: list[Condition]) -> tuple | None:
    """The two readings (different parameters, one alternative each) that moved the
    headline most in the same direction: the direction that threatens the verdict most
    (the larger summed swing).  None when no two readings moved it the same way."""
    best = None
    rows = ev["rows"]
    for d in (-1.0, 1.0):
        per_param: dict[str, tuple] = {}
        for c, r in zip(conds, rows):
            if c.kind != "reading" or r["s"] != r["s"]:
                continue
            mv = d * r["s"]
            if mv > 0 and (c.assumption not in per_param or mv > per_param[c.assumption][0]):
                per_param[c.assumption] = (mv, c)
        top = sorted(per_param.values(), key=lambda t: -t[0])[:2]
        if len(top) == 2:
            score = top[0][0] + top[1][0]
            if best is None or score > best[0]:
                best = (score, top[0][1], top[1][1])
    return None if best is None else (best[1], best[2])
