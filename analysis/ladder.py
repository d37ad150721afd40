"""Balance by skill (``sim skill GAME --ladder A,B,C``): does an edge grow, shrink or vanish
as play improves?

A ladder is a list of bots from the weakest to the strongest (``random``, ``heuristic``,
``search:iters=100``, ``search:iters=400`` ...).  On the same master seed:

* every rung plays with **every seat the same bot** (equal bots: any edge is the game's);
  its side and turn-order win shares, decisive and capped games, and game length are kept;
* every pair of neighbouring rungs plays head to head, the lower rung on each side in turn
  (every seating), which places the rungs on one **Elo** scale (a Bradley-Terry fit of the
  same run's games; the weakest rung anchored at 0).  Rungs further apart are not played:
  the chain of neighbours identifies every rating, at a fraction of the games.

The verdict compares the first side's share (a game without a winner counting the fair
share) at the weakest and at the strongest rung: the difference with its 95% interval
(independent samples) says whether the edge grows, shrinks or holds with strength.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from sim.games import get as get_game
from sim.params import UsageError
from sim.spec import make_spec, parse_games

from .experiment_runs import Arm, run_arms
from .skill_runs import skill_ratings
from .stats import Z95, wilson


@dataclass
class Rung:
    bot: str
    n: int                  # games with every seat this bot
    first_share: float      # first side's score (no winner: fair share)
    first_lo: float
    first_hi: float
    side_share: list        # each side's win share (per game)
    side_lo: list
    side_hi: list
    no_winner: float        # share of games without a winner
    capped: float           # share stopped by the horizon
    length: float           # mean game length (the game's length column)
    length_sd: float


@dataclass
class LadderResult:
    game: object
    players: int
    rungs: list             # [Rung], weakest first
    elo: np.ndarray         # per rung, weakest at 0
    elo_lo: np.ndarray
    elo_hi: np.ndarray
    pairs: list             # [(i, j, score of i, games)] neighbouring rungs, i the lower
    rules: dict
    seed: int
    unbounded: dict = field(default_factory=dict)
    partial: bool = False


def _rung(game, bot: str, S) -> Rung:
    m = S.n_sides
    n = max(S.n, 1)
    fair = 1.0 / m
    # the first side's score: its wins by turn order, a game without a winner counting 1/m
    k = S.side_win_pos[0] + fair * S.no_winner
    lo, hi = wilson(k, n)
    shares = [float(x / n) for x in S.side_win]
    ivals = [wilson(float(x), n) for x in S.side_win]
    h = S.hists.get(game.length)
    mean = h.mean() if h is not None else float("nan")
    sd = math.sqrt(h.var()) if h is not None and h.n > 1 else float("nan")
    return Rung(bot, S.n, float(k / n), lo, hi, shares, [a for a, _ in ivals], [b for _, b in ivals],
                S.no_winner / n, S.capped / n, mean, sd)


class Plays:
    """Plays one arm of a ladder (every seat's bot given) on the ladder's seed and rules;
    once a run is stopped (Ctrl-C, SIGTERM) nothing new starts and ``partial`` is set."""

    def __init__(self, game, n, players, seed, rules, jobs, chunk_size, backend, scheduler, progress):
        self.game, self.n, self.players, self.seed, self.rules = game, n, players, seed, rules
        self.run = dict(jobs=jobs, chunk_size=chunk_size, backend=backend, scheduler=scheduler,
                        progress=progress)
        self.partial = False
        self.model = None  # the learned value a seat's bot read (leaf=model): the spec's description

    def __call__(self, label, seats, n=None):
        if self.partial:
            return None
        n = self.n if n is None else n
        spec = make_spec(self.game, n, self.rules, seats, self.players, self.seed)
        self.model = spec.model or self.model
        r = self.run
        summs, _, part, _, _, _ = run_arms(self.game, [Arm(label, 0, False, spec)], n, int(self.seed),
                                           r["jobs"], r["chunk_size"], r["backend"], r["scheduler"],
                                           r["progress"])
        self.partial = self.partial or part
        return summs[0]

    def rung(self, bot: str):
        """The rung with every seat ``bot``, or None where the run was stopped."""
        S = self(f"{bot} in every seat", [bot] * self.players)
        return None if S is None else _rung(self.game, bot, S)

    def pair(self, lower: str, upper: str, n=None):
        """``lower`` against ``upper``, the lower on each side in turn (``n`` games each, by
        default the rungs'): (lower's score, games), or None where the run was stopped before
        the pair was played."""
        p = self.players
        sides = self.game.sides(p)
        m = len(set(sides))
        score = 0.0
        total = 0
        for sd in range(m):  # the lower rung on each side in turn, the higher on the others
            seats = [lower if sides[s] == sd else upper for s in range(p)]
            S = self(f"{lower} on side {sd} vs {upper}", seats, n)
            if S is None:
                break
            a = S.side_win[sd] / max(S.n, 1)
            b = (S.side_win.sum() - S.side_win[sd]) / (m - 1) / max(S.n, 1)
            if m == 2:  # a game without a winner counts half
                s_i = S.side_win[sd] + 0.5 * S.no_winner
            else:
                s_i = (0.5 + 0.5 * (a - b) / max(a + b, 1e-12)) * S.n
            score += s_i
            total += S.n
        return None if total == 0 else (score, total)


def check_ladder(game, ladder: list[str], players) -> int:
    """The ladder's bots checked (names and settings, every rung different); the players."""
    p = game.check_players(players)
    if len(ladder) < 2:
        raise UsageError("sim skill --ladder needs at least two bots, weakest first")
    if len(set(ladder)) != len(ladder):
        raise UsageError("sim skill --ladder: every rung must differ: " + ", ".join(ladder))
    for b in ladder:
        game.choose_bots(b, p)  # names and settings
    return p


def skill_ladder(game_name: str, ladder: list[str], games, players=None, seed=1, rules=None,
                 jobs=None, chunk_size=None, backend=None, scheduler=None,
                 progress=None) -> LadderResult:
    """Play the ladder (see the module docstring); ``games`` per arm."""
    game = get_game(game_name)
    n = parse_games(games)
    p = check_ladder(game, ladder, players)
    plays = Plays(game, n, p, seed, rules, jobs, chunk_size, backend, scheduler, progress)
    rungs = [r for r in (plays.rung(b) for b in ladder) if r is not None]
    pairs = []
    for i in range(len(ladder) - 1):
        got = plays.pair(ladder[i], ladder[i + 1])
        if got is None:
            break
        pairs.append((i, i + 1, got[0] / max(got[1], 1), got[1]))
    return rated(game, p, ladder, rungs, pairs, rules, seed, plays.partial)


def rated(game, p, ladder, rungs, pairs, rules, seed, partial) -> LadderResult:
    """The ladder's result: the rungs and neighbouring pairs played, rated on one Elo scale
    (no ratings where it was stopped)."""
    if partial:  # a ladder cut short has no verdict: the rungs and pairs played so far
        nan = np.full(len(rungs), np.nan)
        return LadderResult(game, p, rungs, nan, nan.copy(), nan.copy(), pairs, dict(rules or {}),
                            int(seed), {}, True)
    k = len(ladder)
    wins = np.zeros((k, k))
    played = np.zeros((k, k))
    for i, j, share, total in pairs:
        wins[i, j] += share * total
        wins[j, i] += total - share * total
        played[i, j] += total
        played[j, i] += total
    bt, unbounded, _ = skill_ratings(wins, played, ladder)
    r = np.asarray(bt["ratings"], np.float64)
    finite = np.flatnonzero(np.isfinite(r))
    base = r[finite[0]] if len(finite) else 0.0  # the weakest rung with a rating at 0
    return LadderResult(game, p, rungs, r - base, np.asarray(bt["lo"]) - base,
                        np.asarray(bt["hi"]) - base, pairs, dict(rules or {}), int(seed),
                        unbounded, partial)


def edge_trend(res: LadderResult) -> tuple[float, float, float]:
    """The first side's score at the strongest rung minus at the weakest, with a 95% normal
    interval (independent samples)."""
    return _trend(res.rungs[0], res.rungs[-1])


def _trend(a: "Rung", b: "Rung") -> tuple[float, float, float]:
    d = b.first_share - a.first_share
    se = math.sqrt(a.first_share * (1 - a.first_share) / max(a.n, 1)
                   + b.first_share * (1 - b.first_share) / max(b.n, 1))
    return d, d - Z95 * se, d + Z95 * se


def verdict(res: LadderResult) -> list[str]:
    """The ladder's sentences: the edge at each end and whether it moves with strength."""
    if res.partial:
        return [f"Stopped before the ladder was finished ({len(res.rungs)} rungs, {len(res.pairs)} "
                "neighbouring pairs played): no verdict. Run the same command into the same "
                "folder to finish it (the finished chunks are kept)."]
    fair = 1.0 / len(res.rungs[0].side_share)
    a, b = res.rungs[0], res.rungs[-1]
    d, lo, hi = edge_trend(res)
    out = []
    for r, what in ((a, "weakest"), (b, "strongest")):
        out.append(f"At the {what} rung ({r.bot} in every seat) the first side scores "
                   f"{100 * r.first_share:.1f}% [{100 * r.first_lo:.1f}, {100 * r.first_hi:.1f}] "
                   f"(fair {100 * fair:.1f}%).")
    pts = f"{100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    moves = lo > 0 or hi < 0
    top = None
    if len(res.rungs) >= 3:  # between good players: the two strongest rungs
        c = res.rungs[-2]
        d2, lo2, hi2 = _trend(c, b)
        top = (c, d2, lo2, hi2, lo2 > 0 or hi2 < 0)
    if moves:
        out.append(f"The first side's score {'rises' if d > 0 else 'falls'} with playing "
                   f"strength: {pts} from the weakest to the strongest rung; "
                   + _edge_words(a, b, fair) + ".")
    elif top is not None and top[4]:
        # the ends agree but the top pair does not: one verdict, said as such (not two
        # sentences that pull two ways)
        out.append(f"From the weakest to the strongest rung the first side's score does not move "
                   f"measurably ({pts}), but it still moves between the two strongest rungs "
                   "(below): the verdict for strong play has not settled.")
    else:
        out.append(f"The first side's edge does not move measurably with playing strength: {pts}.")
    if top is not None:
        c, d2, lo2, hi2, top_moves = top
        what = (f"{'rises' if d2 > 0 else 'falls'} by {100 * abs(d2):.1f} points [{100 * lo2:+.1f}, "
                f"{100 * hi2:+.1f}]; " + _edge_words(c, b, fair) if top_moves
                else f"does not move measurably ({100 * d2:+.1f} points [{100 * lo2:+.1f}, "
                     f"{100 * hi2:+.1f}])")
        settle = ("; stronger play may move it further" if top_moves
                  else "; a move smaller than the interval cannot be ruled out" if moves else "")
        out.append(f"Between the two strongest rungs ({c.bot} {100 * c.first_share:.1f}%, {b.bot} "
                   f"{100 * b.first_share:.1f}%) the first side's score {what}{settle}.")
    for lower, upper in zip(res.rungs, res.rungs[1:]):
        if _same_figures(lower, upper):
            out.append(f"{lower.bot} and {upper.bot} gave identical results on every figure "
                       f"(first side {100 * lower.first_share:.2f}%, {res.game.length} "
                       f"{lower.length:.2f}): they may play the same moves in this game, so "
                       "their Elo difference and this step of the ladder say nothing.")
    if a.length == a.length and b.length == b.length:
        out.append(f"Games last {a.length:.1f} {res.game.length_unit} at the weakest rung and "
                   f"{b.length:.1f} at the strongest.")
    rated = res.elo[np.isfinite(res.elo)]
    if np.any(np.diff(rated) < 0):
        out.append("The rungs are not in order of strength (see the Elo column): a higher rung "
                   "lost to the one below it.")
    if res.unbounded:
        out.append("Some rungs have no finite rating against their neighbours: "
                   + ", ".join(f"{res.rungs[i].bot} ({why})" for i, why in sorted(res.unbounded.items()))
                   + "; the Elo scale starts at the weakest rung that has one.")
    return out


def _same_figures(a: Rung, b: Rung) -> bool:
    """Two rungs whose games gave exactly the same figures (the same bot under two names)."""
    return (a.n == b.n and a.first_share == b.first_share and list(a.side_share) == list(b.side_share)
            and a.length == b.length and a.length_sd == b.length_sd and a.capped == b.capped
            and a.no_winner == b.no_winner)


def _side_of_fair(r: Rung, fair: float) -> int:
    """+1 / -1 where the rung's interval lies above / below the fair share, else 0."""
    return 1 if r.first_lo > fair else -1 if r.first_hi < fair else 0


def _edge_words(a: Rung, b: Rung, fair: float) -> str:
    """What a measurable move does to the edge, from where each end's interval lies."""
    sa, sb = _side_of_fair(a, fair), _side_of_fair(b, fair)
    if sa == 0 and sb == 0:
        return "neither end differs measurably from the fair share"
    if sa == 0:
        return f"an edge appears with strength (none measurable with {a.bot} in every seat)"
    if sb == 0:
        return f"the edge vanishes with strength (none measurable with {b.bot} in every seat)"
    if sa != sb:
        return "the edge changes sides"
    return "the edge grows" if abs(b.first_share - fair) > abs(a.first_share - fair) else "the edge shrinks"


def ladder_text(res: LadderResult) -> str:
    sides = res.game.side_labels(res.players)
    head = (f"{'rung':<28}{'Elo [95%]':>18}  {'first side %':>20}  "
            + "  ".join(f"{s[:10]:>10}" for s in sides) + f"  {res.game.length:>10}  capped")
    lines = [head]
    for i, r in enumerate(res.rungs):
        elo = "n/a" if res.elo[i] != res.elo[i] else (
            f"{res.elo[i]:.0f} [{res.elo_lo[i]:.0f},{res.elo_hi[i]:.0f}]"
            if np.isfinite(res.elo_lo[i]) and np.isfinite(res.elo_hi[i]) else f"{res.elo[i]:.0f}")
        fs = f"{100 * r.first_share:.1f} [{100 * r.first_lo:.1f},{100 * r.first_hi:.1f}]"
        lines.append(f"{r.bot[:27]:<28}{elo:>18}  {fs:>20}  "
                     + "  ".join(f"{100 * x:>9.1f}%" for x in r.side_share)
                     + f"  {r.length:>10.1f}  {100 * r.capped:.1f}%")
    return "\n".join(lines + verdict(res))


def to_json(res: LadderResult) -> dict:
    def num(x):
        return None if x != x else float(x)
    return {"kind": "ladder", "game": res.game.name, "players": res.players, "seed": res.seed,
            "rules": res.rules, "partial": res.partial,
            "rungs": [r.__dict__ for r in res.rungs],
            "elo": [num(x) for x in res.elo], "elo_lo": [num(x) for x in res.elo_lo],
            "elo_hi": [num(x) for x in res.elo_hi],
            "pairs": [list(map(float, p)) for p in res.pairs],
            "unbounded": {str(i): w for i, w in res.unbounded.items()}}


def from_json(data: dict) -> LadderResult:
    def arr(v):
        return np.array([np.nan if x is None else x for x in v], np.float64)
    return LadderResult(get_game(data["game"]), data["players"], [Rung(**r) for r in data["rungs"]],
                        arr(data["elo"]), arr(data["elo_lo"]), arr(data["elo_hi"]),
                        [(int(i), int(j), s, int(t)) for i, j, s, t in data["pairs"]],
                        data["rules"], data["seed"],
                        {int(i): w for i, w in data.get("unbounded", {}).items()},
                        data.get("partial", False))
