"""What a run is: its spec (game, rules, bots per seat, games, seed), its result, and the
parsing of --games and --seed; a digest that names a run's identity."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .game import BotChoice, Game
from .games import get as get_game
from .games import names as game_names
from .params import UsageError


MAX_GAMES = 10_000_000_000


DEFAULT_SEED = 1


@dataclass
class RunSpec:
    """Everything that determines a run's results."""

    game: Game
    players: int
    rules: dict
    bots: tuple[BotChoice, ...]
    games: int
    seed: int
    #: what ``game.prepare`` built from the rules and data files (prepared once, here)
    ctx: Any = field(default=None, repr=False, compare=False)
    #: the content of the data files: ``{"files": [[name, sha256], ...], "prepared": sha256}``
    data: dict = field(default_factory=dict)
    #: the learned value model the bots read (``leaf=model``; sim/learn.py): its key, file,
    #: kind, training games and held-out log loss; None where no seat's bot reads one
    model: dict | None = None
    #: how it plays: the kernel follows each side's chance of winning by that model at every
    #: position (``make_spec(evaluate=True)``; the EVALUATION columns, sim/playcols.py)
    evaluate: bool = False

    @property
    def rules_changed(self) -> dict:
        return {p.name: self.rules[p.name] for p in self.game.params
                if self.rules[p.name] != p.default}

    def fingerprint(self) -> dict:
        """What must match for a directory's finished chunks to be reused (resume): the
        game, its version, the rules, the content of every data file, bots, seed, games."""
        return {"game": self.game.name, "game_version": self.game.version, "players": self.players,
                "rules": {k: _show(v) if isinstance(v, tuple) else v for k, v in self.rules.items()},
                "data": self.data,
                "bots": [c.label for c in self.bots], "seed": self.seed, "games": self.games,
                **({"model": self.model["key"]} if self.model else {}),
                **({"evaluate": True} if self.evaluate else {})}

    def run_id(self) -> str:
        """sha256 of the fingerprint: every chunk record carries it."""
        import hashlib
        import json
        text = json.dumps(self.fingerprint(), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def describe(self) -> str:
        changed = ",".join(f"{k}={_show(v)}" for k, v in self.rules_changed.items())
        return f"{self.game.name}({changed})" if changed else self.game.name


@dataclass
class RunResult:
    spec: RunSpec
    frame: Any  # pandas.DataFrame, one row per game (None unless rows were kept in memory)
    manifest: dict
    partial: bool = False
    chunks: list = field(default_factory=list)
    summary: Any = None  # sim.summary.Summary of every finished game
    out_dir: Any = None
    stopped: str | None = None   # why the run stopped early (Stop.*), None if it did not
    failure: Any = None          # the error behind a worker death or a full disk
    disk_needed: int | None = None  # bytes the unfinished chunks and the report still need


def _show(v) -> str:
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    return str(v)


def parse_games(value, flag: str = "--games") -> int:
    """``1e6``, ``250000``, ``2.5e5``, ``1_000_000`` -> an integer number of games (>= 1);
    ``flag``: the option a refusal names."""
    from .validate import safe
    raw = value
    if isinstance(value, str):
        value = value.strip().replace("_", "").replace(",", "")
        if not value.isascii():  # float() reads other scripts' digits: not a number typed here
            raise UsageError(f"{flag} must be a whole number such as 1e6 or 250000, not {safe(repr(raw))}")
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"{flag} must be a whole number such as 1e6 or 250000, not {safe(repr(raw))}") from None
    if not math.isfinite(f) or f != int(f):
        raise UsageError(f"{flag} must be a whole number of games, not {safe(repr(raw))}")
    n = int(f)
    if n < 1:
        raise UsageError(f"{flag} must be at least 1, not {safe(repr(raw))}")
    if n > MAX_GAMES:
        raise UsageError(f"{flag} {safe(raw)} is more than this tool runs in one go ({MAX_GAMES:.0e})")
    return n


def make_spec(game, games, rules=None, bots=None, players=None, seed=DEFAULT_SEED, *, learn=True,
              note=None, evaluate=False) -> RunSpec:
    """The spec of a run: rules resolved and prepared, bots chosen.  Where a seat's bot reads
    the learned value (``leaf=model``, or ``leaf=model2`` its second generation), the game's
    model for these rules and players is loaded, or trained first (``sim.learn.model_for``;
    ``note`` hears what it trains, by default on stderr), and travels in the context (the
    features module's ``attach_model``); the spec names it.  ``learn=False``: never (the training's own spec).
    ``evaluate``: the kernel also follows each side's learned chance of winning at every
    position, for how the game plays (issue #47; ``Game.evaluates``), with the same model."""
    from . import toml as TOML
    g = game if isinstance(game, Game) else get_game(game)
    n = parse_games(games)
    p = g.check_players(players)
    r = g.resolve_rules(rules)
    b = g.choose_bots(bots, p)
    s = parse_seed(seed)
    if evaluate and not g.evaluates:
        raise UsageError(f"{g.name} cannot follow a learned chance of winning per position yet "
                         f"(it can: {', '.join(x for x in game_names() if get_game(x).evaluates) or 'no game'})")
    # checks between parameters and data files fail here, before any output; the data
    # files' content (and what was built from it) becomes part of the run's identity
    key = (g.name, g.version, p, digest(r))
    hit = _PREPARED.get(key)
    if hit is not None and TOML.unchanged(hit[0]):
        ctx, data = hit[1], hit[2]
    else:
        with TOML.recording() as files, TOML.recording_paths() as paths:
            ctx = g.prepare(r, p)
        data = {"files": [list(f) for f in files], "prepared": digest(ctx)}
        if len(_PREPARED) >= 64:
            _PREPARED.pop(next(iter(_PREPARED)))
        _PREPARED[key] = (paths, ctx, data)
    model = None
    gen = model_generation(b)
    if learn and (gen or evaluate):
        from .learn import features_module, model_for, note_stderr
        m = model_for(g, r, p, generation=gen or 1, note=note if note is not None else note_stderr)
        extra = {"evaluate": True} if evaluate else {}
        ctx = features_module(g).attach_model(ctx, m.mp, m.ms, **extra)
        model = m.describe()
    return RunSpec(g, p, r, b, n, s, ctx=ctx, data=data, model=model, evaluate=bool(evaluate))


#: the learned values a bot's ``leaf`` setting reads, by generation (sim/learn.py): the first
#: learned from the training bots' games, the second from the games of a search that reads
#: the first (the game's ``ITERATE_BOTS``)
LEAF_GENERATIONS = {"model": 1, "model2": 2}


def model_generation(bots) -> int:
    """Which learned value the seats' bots read (their setting ``leaf``): 0 none, 1
    ``model``, 2 ``model2``.  A table carries one model: seats reading two generations are
    refused."""
    gens = {LEAF_GENERATIONS.get(dict(c.settings).get("leaf")) for c in bots} - {None}
    if len(gens) > 1:
        raise UsageError("the seats read different learned values (leaf=model and leaf=model2) and "
                         "a table carries one: give every seat that reads one the same leaf")
    return gens.pop() if gens else 0


def wants_model(bots) -> bool:
    """Whether a seat's bot reads a learned value (its setting ``leaf`` is ``model`` or ``model2``)."""
    return model_generation(bots) > 0


#: what ``prepare`` built, per (game, version, players, rules): reused while every data file
#: it read holds the same content (experiments make a spec per arm; Maya's takes ~0.5 s)
_PREPARED: dict = {}


def parse_seed(seed) -> int:
    from .validate import safe
    if isinstance(seed, bool):
        raise UsageError(f"--seed must be an integer, not {seed!r}")
    try:
        text = str(seed).strip().replace("_", "")
        if not isinstance(seed, int) and not text.isascii():
            raise ValueError
        s = int(text) if not isinstance(seed, int) else seed
    except (TypeError, ValueError):
        raise UsageError(f"--seed must be an integer, not {safe(repr(seed))}") from None
    if not 0 <= s < 2 ** 64:
        shown = s if abs(s) < 10**30 else f"a number of {len(str(abs(s)))} digits"
        raise UsageError(f"--seed must be in 0..2**64-1, not {shown}")
    return s


def digest(obj) -> str:
    """sha256 of a prepared context (numpy arrays, numbers, strings, tuples, lists, dicts),
    the same in every process and on every machine."""
    import hashlib
    h = hashlib.sha256()

    def feed(o):
        if isinstance(o, np.ndarray):
            a = np.ascontiguousarray(o)
            h.update(f"A{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
        elif isinstance(o, (bool, int, float, str, type(None), np.generic)):
            h.update(f"S{type(o).__name__}:{o!r};".encode())
        elif isinstance(o, (tuple, list)):
            h.update(f"L{len(o)}(".encode())
            for x in o:
                feed(x)
            h.update(b")")
        elif isinstance(o, dict):
            h.update(f"D{len(o)}(".encode())
            for k in sorted(o, key=repr):
                feed(k)
                feed(o[k])
            h.update(b")")
        else:  # anything else a game may return: its pickle (stable for a given version)
            import pickle
            h.update(b"P" + pickle.dumps(o, protocol=4))

    feed(obj)
    return h.hexdigest()
