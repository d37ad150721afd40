"""What `sim tune` searches and aims at: the metrics of a run summary it can target (per game
and players), their per-game values and estimates, the parameter spaces (--param) and the
targets (--target), parsed and checked with one clear line.  A candidate and the search's
result are declared here too (the verdict reads them)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from sim.game import Game
from sim.games import get as get_game
from sim.params import UsageError
from sim.playcols import ABSENT_OK

from .experiment_metrics import event_rows, game_rows, outcome_rows, rows_differ


Z95 = 1.959963984540054


#: parameter roles tune may change: rules, the rulebook's own variants, and readings
TUNABLE_ROLES = ("rule", "variant", "reading")


def metric_table(game: Game, players: int) -> dict[str, str]:
    """Every metric a target may name -> what it means.  Rates are shares of games (0..1)."""
    sides = game.n_sides(players)
    out = {"first_player": "first side's score (its win share; a game without a winner "
                           "counts as the fair share 1/sides, so draws do not move it)",
           "first_player_wins": "first side's win share (a game without a winner counts 0)"}
    for k, name in enumerate(_side_names(game, players)):
        out[name] = f"win share of {_side_labels(game, players)[k]}"
        out[f"side_{k}"] = f"win share of {_side_labels(game, players)[k]}"
    if sides > 1:
        out["seat_spread"] = "largest minus smallest win share of the sides"
    out.update({"draws": "share of games without a winner",
                "decisive": "share of games exactly one side won",
                "capped": "share of games stopped by the horizon",
                "length": f"mean game length ({game.length_unit})"})
    for col in _own_columns(game):
        out[col.name] = f"mean of {col.name}" + (" per seat" if col.per_seat else " per game")
    return out


def _side_labels(game, players):
    if game.n_sides(players) < players:
        return [f"team {x}" for x in game.side_labels(players)]
    return list(game.seat_names(players))


def _side_names(game, players):
    return [re.sub(r"[^a-z0-9]+", "_", x.lower()).strip("_") for x in _side_labels(game, players)]


def _own_columns(game):
    """The game's own numeric columns a target may name: not the how-it-plays figures that a
    game may lack (-1: the state evaluation, which tune does not run, and the ratios of a
    game without a choice; sim/playcols.py); decisions and forced moves per seat and the
    largest choice stand."""
    skip = {"win", "winner", "capped", "end_reason", "first_player"}
    skip |= {n for n in ABSENT_OK if n not in ("decisions", "forced", "options_max")}
    return [c for c in game.columns if c.summarize and c.name not in skip
            and (np.issubdtype(np.dtype(c.dtype), np.number) or c.dtype == "bool")]


def _rows(game: Game, players: int) -> list[str]:
    """Names of the per-game rows the worker returns (in order)."""
    m = game.n_sides(players)
    names = ["first_player", "first_player_wins"] + [f"side_{k}" for k in range(m)]
    names += ["decisive", "draws", "capped", "length"]      # the order of outcome_rows
    names += [c.name for c in _own_columns(game)]
    return names


def _per_game(game: Game, players: int, cols: dict) -> np.ndarray:
    """The rows named by :func:`_rows`: the experiments' outcome rows, then the game's own
    columns (per-seat ones averaged over the seats)."""
    rows = outcome_rows(game, players, cols)
    n = rows[0].shape[0]
    for c in _own_columns(game):
        a = np.asarray(cols[c.name], np.float64)
        rows.append(a.reshape(n, -1).mean(axis=1) if c.per_seat else a.reshape(n))
    return np.vstack(rows)


def _play(game_name, ctxs, arm_specs, players, seed, start, count, paired=False):
    """Worker task: games start..start+count-1 of every candidate, as sums, sums of squares
    and the side shares' cross products (for the spread's interval).  ``paired`` (the
    verdict's replay, the rulebook first): also, per candidate, the games that played out
    differently from the first's and the games in which each declared event happened in its
    game or the first's (:func:`analysis.experiment_runs.exercise`)."""
    game = get_game(game_name)
    m = game.n_sides(players)
    out = []
    ref = None
    for ctx, (ids, par) in zip(ctxs, arm_specs):
        cols = game.play_chunk(ctx, players, seed, start, count, ids, par)
        V = _per_game(game, players, cols)
        S = V[2:2 + m]
        sums = (V.sum(axis=1), (V * V).sum(axis=1), S @ S.T)
        if paired:
            rows, ev = game_rows(game, cols, count), event_rows(game, cols, count)
            ref = ref or (rows, ev)
            either = ev | ref[1]
            sums += (int(rows_differ(rows, ref[0]).sum()), either.sum(axis=1), int(either.any(axis=0).sum()))
        out.append(sums)
    return start, count, out


@dataclass
class Moments:
    """Per-game sums of one candidate: mean and standard error of every metric."""
    n: int = 0
    s: np.ndarray = None
    s2: np.ndarray = None
    cross: np.ndarray = None
    # the verdict's replay only (None elsewhere): games that played out differently from the
    # rulebook's, and games with each declared event (any of them) in either
    differ: int | None = None
    event_either: np.ndarray | None = None
    any_event_either: int | None = None

    def add(self, count, s, s2, cross, *paired):
        if self.s is None:
            self.s, self.s2, self.cross = s.copy(), s2.copy(), cross.copy()
        else:
            self.s, self.s2, self.cross = self.s + s, self.s2 + s2, self.cross + cross
        if paired:
            d, ev, anyev = paired
            self.differ = (self.differ or 0) + int(d)
            self.event_either = np.asarray(ev) + (0 if self.event_either is None else self.event_either)
            self.any_event_either = (self.any_event_either or 0) + int(anyev)
        self.n += count


@dataclass
class Metric:
    name: str
    row: int | None          # per-game row, None for the spread
    kind: str                # "rate" (0..1 share) or "mean"


@dataclass
class Target:
    metric: Metric
    op: str                  # "=", "<=", ">=", "range", "min", "max"
    value: float = float("nan")
    hi: float = float("nan")
    text: str = ""           # as typed
    fair: bool = False

    def loss(self, m: float) -> float:
        if self.op == "=":
            return abs(m - self.value)
        if self.op == "<=":
            return max(0.0, m - self.value)
        if self.op == ">=":
            return max(0.0, self.value - m)
        if self.op == "range":
            return max(0.0, self.value - m, m - self.hi)
        return m if self.op == "min" else -m

    def loss_interval(self, lo: float, hi: float) -> tuple[float, float]:
        """The loss's range over the metric's interval [lo, hi]."""
        a, b = self.loss(lo), self.loss(hi)
        inside = {"=": lo <= self.value <= hi, "range": lo <= self.hi and hi >= self.value,
                  "<=": lo <= self.value, ">=": hi >= self.value}.get(self.op, False)
        return (0.0 if inside else min(a, b)), max(a, b)

    def wanted(self) -> str:
        def f(x):
            return _show(self.metric, x)
        return {"=": f"{f(self.value)}" + (" (fair share)" if self.fair else ""),
                "<=": f"at most {f(self.value)}", ">=": f"at least {f(self.value)}",
                "range": f"{f(self.value)} to {f(self.hi)}", "min": "as low as possible",
                "max": "as high as possible"}[self.op]


def _show(metric: Metric, x: float, digits=1) -> str:
    if x != x:
        return "n/a"
    return f"{100 * x:.{digits}f}%" if metric.kind == "rate" else f"{x:.{digits + 1}f}"


def estimate(metric: Metric, M: Moments, sides: int) -> tuple[float, float]:
    """(mean, standard error) of a metric from a candidate's moments."""
    n = max(M.n, 1)
    if metric.row is None:  # spread: the extreme sides' difference, its variance paired
        sh = M.s[2:2 + sides] / n
        a, b = int(np.argmax(sh)), int(np.argmin(sh))
        var = (M.cross[a, a] + M.cross[b, b] - 2 * M.cross[a, b]) / n - (sh[a] - sh[b]) ** 2
        return float(sh[a] - sh[b]), math.sqrt(max(var, 0.0) / max(n - 1, 1))
    mean = M.s[metric.row] / n
    var = M.s2[metric.row] / n - mean * mean
    return float(mean), math.sqrt(max(var, 0.0) / max(n - 1, 1))


@dataclass
class Space:
    name: str
    kind: str                # "int", "float", "choice"
    lo: float = 0
    hi: float = 0
    choices: tuple = ()
    default: object = None

    def text(self) -> str:
        if self.kind == "choice":
            return ",".join(map(str, self.choices))
        return f"{_num(self.lo)}..{_num(self.hi)}"


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def parse_params(items, game: Game) -> list[Space]:
    """``payout=0..15`` (ints), ``lot_p=0.3..0.7`` (floats), ``exit=any,pile`` (choices)."""
    by_name = {p.name: p for p in game.params}
    alias = {a: p.name for p in game.params for a in p.aliases}
    out: list[Space] = []
    if not items:
        raise UsageError("sim tune needs at least one --param NAME=LO..HI or NAME=A,B,C")
    for item in items:
        if "=" not in item:
            raise UsageError(f"--param takes NAME=LO..HI or NAME=A,B,C, not {item!r}")
        raw, spec = (x.strip() for x in item.split("=", 1))
        key = alias.get(raw.lower().replace("-", "_"), raw.lower().replace("-", "_"))
        if key not in by_name:
            game.resolve_rules({raw: None})  # the usual "unknown parameter" line, with a suggestion
        p = by_name[key]
        if p.role not in TUNABLE_ROLES or p.kind in ("file",):
            why = {"analysis": "an analysis switch", "horizon": "the horizon (a cap, not a rule)",
                   "data": "a data file"}.get(p.role, "not a rule")
            raise UsageError(f"--param {key}: '{key}' is {why}, not a rule to tune")
        if any(s.name == key for s in out):
            raise UsageError(f"--param {key} is given twice")
        if ".." in spec:
            if p.kind not in ("int", "float"):
                raise UsageError(f"--param {item!r}: '{key}' takes {p.allowed()}; list its values "
                                 "(NAME=A,B,C)")
            lo_t, _, hi_t = spec.partition("..")
            try:
                lo, hi = float(lo_t), float(hi_t)
            except ValueError:
                raise UsageError(f"--param {item!r}: a range is LO..HI with two numbers") from None
            if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
                raise UsageError(f"--param {item!r}: the range needs finite LO < HI")
            if p.kind == "int" and not (lo.is_integer() and hi.is_integer()):
                raise UsageError(f"--param {item!r}: '{key}' is a whole number; use whole LO and HI")
            p.parse(int(lo) if p.kind == "int" else lo)
            p.parse(int(hi) if p.kind == "int" else hi)
            out.append(Space(key, p.kind, lo, hi, default=p.default))
        else:
            vals = [v.strip() for v in spec.split(",") if v.strip()]
            if len(vals) < 2:
                raise UsageError(f"--param {item!r}: give a range LO..HI or at least two values A,B")
            parsed = [p.parse(v) for v in vals]
            if len(set(map(repr, parsed))) != len(parsed):
                raise UsageError(f"--param {item!r} lists a value twice")
            out.append(Space(key, "choice", choices=tuple(parsed), default=p.default))
    return out


_TARGET = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_ ]*?)\s*(<=|>=|=)\s*(.+?)\s*$")


def parse_targets(items, game: Game, players: int) -> list[Target]:
    """``first_player=fair``, ``draws<=0.02``, ``length=60..90``, ``draws=min``."""
    table = metric_table(game, players)
    rows = _rows(game, players)
    sides = game.n_sides(players)
    names = _side_names(game, players)
    out: list[Target] = []
    if not items:
        raise UsageError("sim tune needs at least one --target, e.g. first_player=fair")
    for item in items:
        m = _TARGET.match(item)
        if not m:
            raise UsageError(f"--target takes METRIC=VALUE, METRIC<=V, METRIC>=V, METRIC=LO..HI "
                             f"or METRIC=min|max, not {item!r}")
        name, op, val = m.group(1).strip().lower(), m.group(2), m.group(3).strip().lower()
        if name == game.length:
            name = "length"
        if name not in table:
            import difflib
            close = difflib.get_close_matches(name, list(table), n=1, cutoff=0.5)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise UsageError(f"--target {item!r}: unknown metric '{name}'{hint}; known: "
                             + ", ".join(table))
        if name in names:
            row = rows.index(f"side_{names.index(name)}")
        elif name == "seat_spread":
            row = None
        else:
            row = rows.index(name)
        rate = name in ("first_player", "first_player_wins", "seat_spread", "draws", "decisive",
                        "capped") or name.startswith("side_") or name in names
        metric = Metric(name, row, "rate" if rate else "mean")
        if any(t.metric.name == name for t in out):
            raise UsageError(f"--target {name} is given twice")
        t = Target(metric, op, text=item.strip())
        if val in ("min", "max"):
            if op != "=":
                raise UsageError(f"--target {item!r}: min and max go with '=' (METRIC=min)")
            t.op = val
        elif val == "fair":
            if op != "=" or not (name in ("first_player", "first_player_wins") or name in names
                                 or name.startswith("side_")):
                raise UsageError(f"--target {item!r}: 'fair' is for a side's share "
                                 "(first_player=fair, or a side's name=fair)")
            t.value, t.fair = 1.0 / sides, True
        elif ".." in val:
            if op != "=":
                raise UsageError(f"--target {item!r}: a range goes with '=' (METRIC=LO..HI)")
            a, b = (_target_number(x, item) for x in val.split("..", 1))
            if b <= a:
                raise UsageError(f"--target {item!r}: the range needs LO < HI")
            t.op, t.value, t.hi = "range", a, b
        else:
            t.value = _target_number(val, item)
        out.append(t)
    return out


def _target_number(text: str, item: str) -> float:
    pct = text.endswith("%")
    try:
        v = float(text.rstrip("%"))
    except ValueError:
        raise UsageError(f"--target {item!r}: {text!r} is not a number, fair, min or max") from None
    if not math.isfinite(v):
        raise UsageError(f"--target {item!r}: the value must be finite")
    return v / 100 if pct else v


@dataclass
class Candidate:
    number: int
    values: dict
    moments: Moments = field(default_factory=Moments)
    rung_losses: dict = field(default_factory=dict)   # rung -> losses at that rung
    stopped: str = ""                                  # why it was not promoted further

    def label(self) -> str:
        return ", ".join(f"{k}={_fmtv(v)}" for k, v in self.values.items())


def _fmtv(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, tuple):
        return ",".join(map(str, v))
    return str(v)


@dataclass
class TuneResult:
    game: Game
    players: int
    spaces: list
    targets: list
    candidates: list
    rungs: list
    finalists: list          # Candidate, best first
    final: list              # [(label, values, Moments)], the rulebook first
    final_seed: int
    final_games: int
    search_games: int
    seconds: float
    bots: list
    seed: int
    notes: list
    verdict: list
    manifest: dict
