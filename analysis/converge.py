"""Has the verdict for strong play settled? (``sim strength GAME``)

A search bot's budget (``iters``) is climbed by a factor (x1, x4, x16, ...): each rung plays
its games with every seat that bot (equal bots: any edge is the game's), and plays the rung
below it head to head, the lower rung on each side in turn, so the Elo gain of each step is
measured (diminishing gains are the evidence that more budget buys little).

After each new rung the two strongest rungs are compared on every headline: the first
side's score (a game without a winner counts the fair share), each side's win share, games
without a winner, games stopped by the horizon, and the mean length.  The verdict has
**settled** when the 95% interval of every difference lies inside the tolerance
(``tol`` points for a share, ``length_tol`` percent of the mean for the length): one more
step of budget moves no headline by more than that, with 95% confidence.  Otherwise the
climb goes on until the rungs, the budget's upper bound or the time budget run out, and the
result says plainly that it has not settled and how far the last step still moves.

The rungs are a ladder (``analysis.ladder``): its table, Elo scale and report are reused.
"""
from __future__ import annotations

import math
import numbers
import re
import time
from dataclasses import dataclass, field

from sim.games import get as get_game
from sim.params import UsageError
from sim.spec import parse_games

from .ladder import LadderResult, Plays, Rung, check_ladder, rated
from .stats import Z95


@dataclass
class Move:
    """One headline between two rungs: the upper minus the lower, its 95% interval, and
    whether that interval lies inside the tolerance."""

    name: str
    diff: float
    lo: float
    hi: float
    tol: float
    unit: str          # "points" (of a share) or the game's length unit

    @property
    def within(self) -> bool:
        return self.lo >= -self.tol and self.hi <= self.tol


@dataclass
class StrengthResult:
    ladder: LadderResult
    bot: str
    param: str
    budgets: list                       # the parameter's value per rung
    moves: list                         # per step (rung k-1 -> k): [Move]
    gains: list                         # per step: (Elo gain, lo, hi) from the head-to-head games
    seconds: list                       # wall time per rung (its games and its head-to-head)
    settled_at: int | None              # the rung from which one more step moved nothing
    stop: str                           # settled | rungs | top | time | stopped
    tol: float
    length_tol: float
    extra: dict = field(default_factory=dict)


def _share_move(name, a: float, na: int, b: float, nb: int, tol: float) -> Move:
    se = math.sqrt(a * (1 - a) / max(na, 1) + b * (1 - b) / max(nb, 1))
    d = b - a
    return Move(name, 100 * d, 100 * (d - Z95 * se), 100 * (d + Z95 * se), 100 * tol, "points")


def moves_between(a: Rung, b: Rung, sides, tol: float, length_tol: float, unit: str) -> list[Move]:
    """Every headline from rung ``a`` to rung ``b`` (independent samples: the rungs' games
    share the seed but not the bots, so a normal interval of the difference)."""
    out = [_share_move("first side's score", a.first_share, a.n, b.first_share, b.n, tol)]
    for k, name in enumerate(sides):
        out.append(_share_move(f"{name}'s win share", a.side_share[k], a.n, b.side_share[k], b.n, tol))
    out.append(_share_move("games without a winner", a.no_winner, a.n, b.no_winner, b.n, tol))
    out.append(_share_move("games stopped by the horizon", a.capped, a.n, b.capped, b.n, tol))
    if a.length == a.length and b.length == b.length:
        sd_a = a.length_sd if a.length_sd == a.length_sd else 0.0
        sd_b = b.length_sd if b.length_sd == b.length_sd else 0.0
        se = math.sqrt(sd_a ** 2 / max(a.n, 1) + sd_b ** 2 / max(b.n, 1))
        d = b.length - a.length
        out.append(Move("mean length", d, d - Z95 * se, d + Z95 * se, length_tol / 100 * abs(a.length), unit))
    return out


def elo_gain(lower_score: float, games: int) -> tuple[float, float, float]:
    """The upper rung's Elo gain over the lower from the lower's score in their games, with a
    95% interval (Wilson on the score; an all-or-nothing score has an open end)."""
    from .stats import elo_from_score, wilson

    def gain(s):  # the upper rung's Elo over the lower's: minus the lower's own
        return -float(elo_from_score(s))
    lo, hi = wilson(lower_score * games, games)
    return gain(lower_score), gain(hi), gain(lo)


def budget_param(game, bot: str, param: str | None) -> tuple[str, object]:
    """The bot's parameter the climb scales (``param``, or the bot's first of iters,
    iterations, rollouts, samples) and its parameter declaration."""
    name = bot.split(":", 1)[0]
    b = next((x for x in game.bots if x.name == name), None)
    if b is None:
        game.choose_bots(bot, game.default_players)  # the usual unknown-bot error
    wanted = [param] if param else ["iters", "iterations", "rollouts", "samples"]
    for w in wanted:
        p = next((x for x in b.params if x.name == w), None)
        if p is not None:
            if p.kind not in ("int", "float"):
                raise UsageError(f"--param {w}: the climb scales a number, and {name}:{w} takes {p.allowed()}")
            return w, p
    have = ", ".join(x.name for x in b.params) or "none"
    raise UsageError(f"sim strength climbs a search budget: bot '{name}' has no "
                     f"{'parameter ' + param if param else 'iters-like parameter'} (its parameters: {have}); "
                     f"name one with --param")


def _label(bot: str, param: str, value) -> str:
    """A rung's bot: ``bot`` with ``param`` set to ``value`` (in its place, or last), every other
    setting kept; settings are separated by ',' or ';' as the bots accept (';' kept if given)."""
    name, _, rest = bot.partition(":")
    items = [x for x in re.split(r"[,;]", rest) if x.strip()]
    keys = [x.split("=", 1)[0].strip() for x in items]
    items = [f"{param}={value}" if k == param else x for x, k in zip(items, keys)]
    if param not in keys:
        items.append(f"{param}={value}")
    return f"{name}:" + (";" if ";" in rest else ",").join(items)


#: the largest --factor and --add: a climb of a few rungs, not an overflow (inf: a traceback)
FACTOR_MAX, ADD_MAX = 1_000.0, 1_000_000.0


def check_climb(factor, add, rungs, tol, length_tol, minutes) -> None:
    """The climb's own options, checked before anything is played or written (the command
    line's and the API's): finite, and in range."""
    def num(x):
        return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x)
    if add is None and not (num(factor) and 1 < factor <= FACTOR_MAX):
        raise UsageError(f"--factor must be above 1 (each rung a larger budget) and at most {FACTOR_MAX:,.0f}, "
                         f"not {factor!r}")
    if add is not None and not (num(add) and 0 < add <= ADD_MAX):
        raise UsageError(f"--add must be positive (each rung a larger budget) and at most {ADD_MAX:,.0f}, "
                         f"not {add!r}")
    if isinstance(rungs, bool) or not isinstance(rungs, numbers.Integral) or not 2 <= rungs <= 12:
        raise UsageError(f"--rungs must be a whole number between 2 and 12, not {rungs!r}")
    if not (num(tol) and 0 < tol < 0.5):
        raise UsageError("--tol is a share's tolerance in points, between 0 and 50")
    if not (num(length_tol) and 0 < length_tol < 100):
        raise UsageError("--length-tol is a percentage of the mean length, between 0 and 100")
    if minutes is not None and not (num(minutes) and 0 < minutes <= 10 ** 6):
        raise UsageError(f"--minutes must be positive (and at most a million), not {minutes!r}")


def rung_budgets(game, bot: str, param, factor, add, rungs, players) -> tuple[str, list, list, int]:
    """The climb's rungs: (the budget parameter, its value per rung, the rungs' bots, the
    players); a rung past the parameter's upper bound, or equal to the one below, ends it."""
    name, p = budget_param(game, bot, param)
    chosen = game.choose_bots(bot, game.check_players(players))[0]
    start = dict(chosen.settings)[name]
    values = []
    v = start
    for _ in range(int(rungs)):
        v = int(round(v)) if p.kind == "int" else float(v)
        if p.hi is not None and v > p.hi:
            break
        if values and v == values[-1]:
            break
        values.append(v)
        v = v + add if add is not None else v * factor
    ladder = [_label(bot, name, x) for x in values]
    pl = check_ladder(game, ladder, players) if len(ladder) >= 2 else None
    if pl is None:
        raise UsageError(f"{bot}: one rung only ({name}={values[0]}, the bound is {p.hi}): nothing to climb")
    return name, values, ladder, pl


#: the head-to-head games of each seating a climb plays by default, at most: enough for the
#: Elo gain of a step within about +-10 Elo (two players), while the settling verdict rests on
#: the rungs' own games (a Balam 2p climb of 12,000 games a rung spent half its time on
#: 2 x 12,000 head-to-head games)
PAIR_GAMES = 4000


def pair_count(n: int, pair_games=None) -> int:
    """The games of each head-to-head seating: ``pair_games``, else the rungs' ``n`` up to
    ``PAIR_GAMES``."""
    if pair_games is None:
        return min(int(n), PAIR_GAMES)
    return parse_games(pair_games, "--pair-games")


def climb(game_name: str, bot: str, games, *, param: str | None = None, factor: float = 4.0,
          add: float | None = None, rungs: int = 4, tol: float = 0.02, length_tol: float = 5.0,
          minutes: float | None = None, pair_games=None,
          players=None, seed=1, rules=None, jobs=None, chunk_size=None, backend=None,
          scheduler=None, progress=None, echo=None, clock=time.monotonic) -> StrengthResult:
    """Climb ``bot``'s budget until the two strongest rungs agree on every headline (see the
    module docstring).  ``bot`` gives the first rung (``search:iters=50``); each rung
    multiplies ``param`` by ``factor`` (or adds ``add`` to it: a search depth); at most
    ``rungs`` rungs and ``minutes`` of wall time (a rung predicted to overrun it, from the
    last rung's time times the growth of the last step, or the factor, is not started).
    ``tol``: a share's tolerance as a fraction (0.02 = 2 points).  ``pair_games``: the games
    of each head-to-head seating (``pair_count``: by default the rungs' games, at most
    ``PAIR_GAMES``): they measure the Elo gain, not the verdict."""
    game = get_game(game_name)
    n = parse_games(games)
    n_pair = pair_count(n, pair_games)
    check_climb(factor, add, rungs, tol, length_tol, minutes)
    name, values, ladder, pl = rung_budgets(game, bot, param, factor, add, rungs, players)
    top_bound = len(values) < int(rungs)
    sides = game.side_labels(pl)
    plays = Plays(game, n, pl, seed, rules, jobs, chunk_size, backend, scheduler, progress)
    t0 = clock()
    played, pairs, moves, gains, seconds = [], [], [], [], []
    settled_at, stop = None, "rungs"
    for k, label in enumerate(ladder):
        if k and minutes is not None:
            growth = seconds[-1] / max(seconds[-2], 1e-9) if len(seconds) >= 2 else (
                factor if add is None else 4.0)
            predicted = seconds[-1] * max(growth, 1.0)
            if clock() - t0 + predicted > 60 * minutes:
                stop = "time"
                break
        t = clock()
        r = plays.rung(label)
        if r is None:
            stop = "stopped"
            break
        played.append(r)
        if k:
            got = plays.pair(ladder[k - 1], label, n_pair)
            if got is None:
                seconds.append(clock() - t)
                stop = "stopped"
                break
            share = got[0] / max(got[1], 1)
            pairs.append((k - 1, k, share, got[1]))
            gains.append(elo_gain(share, got[1]))
            moves.append(moves_between(played[-2], r, sides, tol, length_tol, game.length_unit))
        seconds.append(clock() - t)
        if echo:
            echo(f"rung {k + 1} of {len(ladder)} ({label}): {seconds[-1]:.0f} s"
                 + (f"; step {'settled' if all(m.within for m in moves[-1]) else 'still moves'}" if k else ""))
        if k and all(m.within for m in moves[-1]):
            settled_at, stop = k - 1, "settled"
            break
    else:
        if top_bound:
            stop = "top"
    res = rated(game, pl, ladder[:len(played)], played, pairs, rules, seed, plays.partial)
    return StrengthResult(res, bot, name, values[:len(played)], moves, gains, seconds, settled_at,
                          stop, tol, length_tol, {"factor": factor, "add": add, "games": n, "pair_games": n_pair,
                                                  "minutes": minutes,
                                                  **({"model": plays.model} if plays.model else {})})


def verdict(res: StrengthResult) -> list[str]:
    """The climb's sentences: where the verdict settled (or that it has not, and how far the
    last step still moves), the edge at the strongest rung, and the Elo gain per step."""
    L = res.ladder
    out = []
    if not L.rungs:
        return ["No rung was played: no verdict."]
    fair = 100.0 / len(L.rungs[0].side_share)
    top = L.rungs[-1]
    edge = 100 * top.first_share - fair
    way = "the first side gains" if top.first_lo * 100 > fair else (
        "the first side loses" if top.first_hi * 100 < fair else "no side measurably gains")
    figure = (f"{L.rungs[-1].bot} in every seat: the first side scores {100 * top.first_share:.1f}% "
              f"[{100 * top.first_lo:.1f}, {100 * top.first_hi:.1f}] against a fair {fair:.1f}% "
              f"({edge:+.1f} points: {way}), from {top.n:,} games")
    tol = f"{100 * res.tol:g} points of a share and {res.length_tol:g}% of the mean length"
    if res.stop == "settled":
        k = res.settled_at
        more = (f"{res.extra['add']:g} more" if res.extra.get("add") is not None
                else f"{res.extra.get('factor', 4):g} times the budget")
        out.append(f"Settled at {res.param}={res.budgets[k]}: {more} "
                   f"({res.param}={res.budgets[k + 1]}) moves no headline by more than {tol} "
                   f"(95% intervals of every difference inside). {figure}.")
    else:
        why = {"rungs": f"the {len(res.budgets)} rungs asked for were played",
               "top": f"{res.param} reached its upper bound",
               "time": "the time budget would have been overrun by the next rung",
               "stopped": "the climb was stopped"}[res.stop]
        out.append(f"Not settled: {why} before two neighbouring rungs agreed within {tol}. "
                   f"The strongest rung so far, {figure}; this is not yet a verdict for strong play.")
        if res.moves:
            last = [m for m in res.moves[-1] if not m.within]
            moved = [m for m in last if m.lo > 0 or m.hi < 0]
            loose = [m for m in last if not (m.lo > 0 or m.hi < 0)]
            if moved:
                out.append("The last step still moves: " + "; ".join(
                    f"{m.name} {m.diff:+.1f} {m.unit} [{m.lo:+.1f}, {m.hi:+.1f}] (tolerance ±{m.tol:.1f})"
                    for m in moved) + ".")
            if loose:
                need = games_to_settle(loose, res.extra.get("games", L.rungs[-1].n))
                out.append("The last step is not pinned down (no move shown, but the interval is wider "
                           "than the tolerance): " + "; ".join(
                               f"{m.name} {m.diff:+.1f} {m.unit} [{m.lo:+.1f}, {m.hi:+.1f}] (tolerance "
                               f"±{m.tol:.1f})" for m in loose)
                           + (f"; about {need:,} games per rung would fit it inside (--games {need})"
                              if need else "; more games per rung cannot settle it while the step "
                                           "moves by about the tolerance") + ".")
    m = res.extra.get("model")
    if m:
        from .pages import generation_words
        gen = f"; {generation_words(m)}" if m.get("generation") == 2 else ""
        out.append(f"The bots value their leaves with the learned model {m.get('key')} ({m.get('kind')} of "
                   f"{m.get('games') or 0:,} games{gen}, held-out log loss {m.get('log_loss') or 0:.4f}, base rate "
                   f"{m.get('log_loss_base') or 0:.4f}).")
    for k, (g, lo, hi) in enumerate(res.gains):
        a, b = res.budgets[k], res.budgets[k + 1]
        out.append(f"{res.param} {a} -> {b}: the stronger rung gains {_elo(g)} Elo "
                   f"[{_elo(lo)}, {_elo(hi)}] head to head ({int(L.pairs[k][3]):,} games).")
    if len(res.gains) >= 2 and all(math.isfinite(x[0]) for x in res.gains[-2:]):
        g1, g2 = res.gains[-2][0], res.gains[-1][0]
        if g2 < g1 and g2 > 50:
            out.append(f"The gain per step shrinks ({_elo(g1)} then {_elo(g2)} Elo) but is still large: more "
                       "budget still buys playing strength, so stronger play may still move the verdict.")
        elif g2 < g1:
            out.append(f"The gain per step shrinks ({_elo(g1)} then {_elo(g2)} Elo): diminishing returns.")
        else:
            out.append(f"The gain per step does not shrink ({_elo(g1)} then {_elo(g2)} Elo): stronger "
                       "play may still move the verdict.")
    return out


def games_to_settle(moves: list[Move], n: int) -> int | None:
    """Games per rung for which intervals as wide as these (shrinking as 1/sqrt(games)),
    around the same differences, would lie inside the tolerance; None where a difference
    is itself at the tolerance or beyond."""
    need = 0.0
    for m in moves:
        half = (m.hi - m.lo) / 2
        room = m.tol - abs(m.diff)
        if room <= 0.1 * m.tol:
            return None
        need = max(need, n * (half / room) ** 2)
    return int(math.ceil(need / 100.0) * 100)


def _elo(x: float) -> str:
    if x != x:
        return "n/a"
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def strength_text(res: StrengthResult) -> str:
    from .ladder import ladder_text
    rows = [f"{'step':<34}{'seconds':>9}"] + [
        f"{res.ladder.rungs[k].bot[:33]:<34}{s:>9.1f}" for k, s in enumerate(res.seconds)]
    return "\n".join([ladder_text(res.ladder), ""] + rows + [""] + verdict(res))


def to_json(res: StrengthResult) -> dict:
    from .ladder import to_json as ladder_json

    def num(x):
        return None if not math.isfinite(x) else float(x)
    return {"kind": "strength", "ladder": ladder_json(res.ladder), "bot": res.bot, "param": res.param,
            "budgets": list(res.budgets), "moves": [[m.__dict__ for m in ms] for ms in res.moves],
            "gains": [[num(x) for x in g] for g in res.gains], "seconds": list(res.seconds),
            "settled_at": res.settled_at, "stop": res.stop, "tol": res.tol, "length_tol": res.length_tol,
            "extra": res.extra}


def from_json(data: dict) -> StrengthResult:
    from .ladder import from_json as ladder_back

    def num(x):
        return math.nan if x is None else x
    return StrengthResult(ladder_back(data["ladder"]), data["bot"], data["param"], data["budgets"],
                          [[Move(**m) for m in ms] for ms in data["moves"]],
                          [tuple(num(x) for x in g) for g in data["gains"]], data["seconds"],
                          data["settled_at"], data["stop"], data["tol"], data["length_tol"], data["extra"])


def write_strength_report(res: StrengthResult, out_dir):
    """The climb's page: the ladder's page, led by the climb's verdict, with a table of every
    step (``strength.json`` beside it rebuilds it: ``sim report``)."""
    from .ladder_report import write_ladder_report
    header = ["step", "headline", "change", "95% interval", "tolerance", "inside"]
    rows = []
    for k, ms in enumerate(res.moves):
        step = f"{res.param} {res.budgets[k]} -> {res.budgets[k + 1]}"
        for m in ms:
            rows.append([step, m.name, f"{m.diff:+.2f} {m.unit}", f"{m.lo:+.2f} to {m.hi:+.2f}",
                         f"±{m.tol:.2f}", "yes" if m.within else "no"])
    return write_ladder_report(res.ladder, out_dir, lead=verdict(res), steps=(header, rows),
                               saved=("strength.json", to_json(res)), title="does the verdict settle with strength?")
