"""Learned values (issue #46): each game learns the win probability of a position from one
seat's view, from its own games, and its search bots read it at their leaves (``leaf=model``).

The game's side is its features module (``Game.learn``: ``FEATURES_VERSION``,
``n_features(players)``, ``TRAIN_BOTS``, a jitted ``features``, ``sample(ctx, players, seed,
start, n, bot_ids, bot_par, per_game)`` and ``attach_model(ctx, mp, ms)``; optionally
``TRAIN_GAMES`` and ``PER_GAME``, the default size of a training).  This module is the shared
side:

- :func:`model_for` returns the model of a game under given rules and players: the one kept
  under its key, or one trained now (it says so, with what it trains and about how long it
  takes, and again when done);
- the key (:func:`training_plan`, :func:`model_key`) is a sha256 over everything the model
  depends on: the game and its version, players, every rule with its value (defaults
  included) and the content of the data files, the features' version, the training bots,
  seed and games, and the fitting's settings;
- a training (:func:`train`) plays the games with the training bots (seed derived from
  ``seed``, so the games a run plays with the same seed are not the ones it learned from),
  splits the sampled positions by game (never one game on both sides), fits the candidates
  with scikit-learn on one part, chooses the one of the smallest log loss on a second and
  states the held-out figures on a third;
- the store: one ``.npz`` per key beside numba's cache (:func:`model_root`), written
  atomically; a damaged or foreign file is refused in one line and trained again.

scikit-learn is imported inside the functions that fit: ``import sim`` and every run without
``leaf=model`` never load it.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .fit import CANDIDATES, FIT_VERSION, SPLIT, _fit_seconds, calibration_gap, fair_accuracy, fit
from .parallel import duration
from .params import UsageError

#: games and positions per game where the features module declares no TRAIN_GAMES / PER_GAME
DEFAULT_GAMES = 2000
DEFAULT_PER_GAME = 4
#: the arrays of a model file (the held-out set's figures travel with it, for the report)
ARRAYS = ("mp", "ms", "test_y", "test_p", "test_progress", "test_baseline", "test_seat")
#: the environment variable that names the model folder (else beside numba's cache)
ENV_DIR = "BOARDSIM_MODELS"


@dataclass(frozen=True, eq=False)
class Model:
    """A value model: the arrays a kernel reads (:mod:`sim.value`), its key, the file it is
    kept in (None where the store could not be written) and what it was measured to be
    (``meta``: kind, games, positions, held-out log loss and its references, seconds...)."""

    mp: np.ndarray
    ms: np.ndarray
    key: str
    path: str | None
    meta: dict = field(default_factory=dict)
    #: the held-out set: outcome, prediction, progress, the game's own evaluation, seat
    test: dict = field(default_factory=dict, repr=False)

    @property
    def kind(self) -> str:
        return str(self.meta.get("kind", "?"))

    def describe(self) -> dict:
        """What a run's spec and manifest say of the model they used."""
        m = self.meta
        return {"key": self.key, "path": self.path, "kind": m.get("kind"), "games": m.get("games"),
                **({"generation": 2, "train_bots": m.get("train_bots")} if m.get("generation") == 2 else {}),
                "positions": m.get("positions"), "log_loss": m.get("log_loss"),
                "log_loss_base": m.get("log_loss_base")}

    def line(self) -> str:
        m = self.meta
        gen = "second generation, " if m.get("generation") == 2 else ""
        return (f"{m.get('kind')} ({gen}{m.get('games'):,} games, {m.get('positions'):,} positions), "
                f"held-out log loss {m.get('log_loss'):.4f} (base rate {m.get('log_loss_base'):.4f})")


# ------------------------------------------------------------------ the game's module
def features_module(game):
    """The game's features module (``Game.learn``); a UsageError where it declares none."""
    if not getattr(game, "learn", None):
        raise UsageError(f"{game.name} learns no value model (its Game names no features module): "
                         "neither sim learn nor a bot's leaf=model applies to it")
    return importlib.import_module(game.learn)


# ------------------------------------------------------------------ the key
def _plain(v):
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


def training_plan(game, rules, players, *, bots=None, games=None, seed=1, per_game=None, generation=1):
    """(plan, spec): ``plan`` is the canonical dict the key is the hash of, ``spec`` the run
    spec of the training games (rules resolved and prepared, bots chosen).  ``generation``
    2 (where ``bots`` is not given): the games of the features module's ``ITERATE_BOTS``, a
    search that reads the first generation (``leaf=model``; ``ITERATE_GAMES`` of them).
    Training bots that read the first generation make a second one: the plan names the
    first's key (``teacher``), and the spec carries no model yet (:func:`model_for` attaches
    it before the games)."""
    from .spec import make_spec, model_generation, parse_games, parse_seed
    from .games import get as get_game
    from .game import Game
    g = game if isinstance(game, Game) else get_game(game)
    mod = features_module(g)
    if generation not in (1, 2):
        raise UsageError(f"a learned value's generation is 1 or 2, not {generation!r}")
    default_games = getattr(mod, "TRAIN_GAMES", DEFAULT_GAMES)
    if generation == 2 and bots is None:
        bots = getattr(mod, "ITERATE_BOTS", None)
        if bots is None:
            raise UsageError(f"{g.name} learns no second generation of its value (its features module "
                             "names no ITERATE_BOTS): use leaf=model")
        default_games = getattr(mod, "ITERATE_GAMES", default_games)
    n = parse_games(games if games is not None else default_games)
    s = parse_seed(seed)
    if n < SPLIT[2]:
        raise UsageError(f"--games must be at least {SPLIT[2]} to learn from (the games are split "
                         f"by index into fitting, choosing and held-out parts), not {n}")
    pg = int(per_game if per_game is not None else getattr(mod, "PER_GAME", DEFAULT_PER_GAME))
    if pg < 1:
        raise UsageError(f"positions per game must be at least 1, not {pg}")
    spec = make_spec(g, n, rules, bots if bots is not None else mod.TRAIN_BOTS, players, s, learn=False)
    reads = model_generation(spec.bots)
    if generation == 2 and not reads:
        raise UsageError("a second generation learns from the games of bots that read the first "
                         "(leaf=model); these read none")
    if reads > 1:
        raise UsageError("the training bots may read the first generation of the value (leaf=model), "
                         "whose games teach the second, not leaf=model2")
    plan = {
        "fit_version": FIT_VERSION,
        "game": g.name, "game_version": g.version, "players": spec.players,
        "rules": {k: _plain(v) for k, v in spec.rules.items()},
        "data": sorted(h for _, h in spec.data.get("files", [])),
        "features_version": int(mod.FEATURES_VERSION),
        "n_features": int(mod.n_features(spec.players)),
        "train_bots": [[c.bot.name, {k: _plain(v) for k, v in c.settings}] for c in spec.bots],
        "seed": s, "games": n, "per_game": pg,
        "model": {"candidates": [[name, dict(kw)] for name, kw in candidates(mod)], "split": list(SPLIT)},
    }
    if reads:   # the first generation, of the same rules, players and seed, teaches
        plan["teacher"] = model_key(training_plan(g, spec.rules, spec.players, seed=s)[0])
    return plan, spec


def candidates(mod) -> tuple:
    """The models a game's training fits and chooses from: its features module's
    ``FIT_CANDIDATES`` where it names them (a search may play better with a model other than
    the one of the smallest log loss: Batam's with a logistic regression), else the shared
    :data:`sim.fit.CANDIDATES`."""
    return tuple(getattr(mod, "FIT_CANDIDATES", CANDIDATES))


def model_key(plan: dict) -> str:
    text = json.dumps(plan, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ------------------------------------------------------------------ the store
def model_root() -> Path:
    """The model folder: ``$BOARDSIM_MODELS`` where set, else beside numba's cache
    (``sim/__pycache__/models`` in a checkout, ``~/.cache/boardsim/models`` where the package
    cannot be written, ``$NUMBA_CACHE_DIR/boardsim-models`` where that variable is set)."""
    user = os.environ.get(ENV_DIR)
    if user:
        return Path(user)
    from .jitcache import cache_root
    root = cache_root()
    return root.parent / "models" if root.name == "numba" else root.with_name(root.name + "-models")


def model_path(plan: dict, key: str) -> Path:
    return model_root() / f"{plan['game']}-{plan['players']}p-{key[:24]}.npz"


def _checksum(arrays: dict) -> str:
    h = hashlib.sha256()
    for name in ARRAYS:
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save(model: Model, path: Path) -> None:
    """Write ``model`` to ``path`` atomically (a temporary file, then ``os.replace``)."""
    arrays = {"mp": model.mp, "ms": model.ms, **{f"test_{k}": v for k, v in model.test.items()}}
    meta = {**model.meta, "key": model.key, "sha256": _checksum(arrays)}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            np.savez(f, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def load(path: Path, key: str, n_features: int | None = None) -> Model:
    """The model kept in ``path`` under ``key``; ValueError saying why where the file is
    damaged or foreign (not a zip, an array missing, another key, a failed checksum, a
    malformed model, another number of features)."""
    import zipfile
    from .value import check
    try:
        with np.load(path, allow_pickle=False) as z:
            names = set(z.files)
            missing = [n for n in ("meta", *ARRAYS) if n not in names]
            if missing:
                raise ValueError(f"no {missing[0]}")
            meta = json.loads(str(z["meta"][()]))
            arrays = {n: np.array(z[n]) for n in ARRAYS}
    except json.JSONDecodeError:
        raise ValueError("its description is not JSON") from None
    except ValueError as e:
        raise ValueError(str(e) if str(e).startswith("no ") else "not a model file") from None
    except (OSError, EOFError, zipfile.BadZipFile, Exception) as e:  # whatever a damaged zip raises
        raise ValueError(f"not a model file: {type(e).__name__}") from None
    if not isinstance(meta, dict) or meta.get("key") != key:
        raise ValueError("it holds another model's key")
    if meta.get("sha256") != _checksum(arrays):
        raise ValueError("its checksum fails")
    if arrays["ms"].dtype != np.int64:
        raise ValueError("its shape array is not int64")
    check(arrays["mp"], arrays["ms"])
    if n_features is not None and int(arrays["ms"][0]) != n_features:
        raise ValueError(f"{int(arrays['ms'][0])} features, not {n_features}")
    test = {n[5:]: arrays[n] for n in ARRAYS if n.startswith("test_")}
    return Model(arrays["mp"], arrays["ms"], key, str(path), meta, test)


#: models of this process by key (an experiment asks once per arm)
_MEMO: dict = {}


def note_stderr(text: str) -> None:
    """The default voice of a model's training on the command line: ``sim: ...`` on stderr."""
    print(f"sim: {text}", file=sys.stderr, flush=True)


def model_for(game, rules, players, *, bots=None, games=None, seed=1, note: Callable | None = None,
              per_game=None, jobs=None, retrain: bool = False, generation: int = 1) -> Model:
    """The value model of ``game`` under ``rules`` (resolved: every parameter, defaults
    included) and ``players``: the one kept under its key, else one trained now.  ``bots``
    (default the module's ``TRAIN_BOTS``), ``games`` (default ``TRAIN_GAMES``), ``seed``
    and ``per_game`` are the training's; ``note(text)`` hears one line before a training
    (what it trains, about how long it takes) and one when it is done, and one where a kept
    file is damaged.  ``jobs``: threads playing the training games (default every core; the
    games are played in threads only where they take more than a few seconds).  ``retrain``:
    train even where a model is kept (and replace it).  ``generation`` 2: the second
    generation, learned from the games of a search that reads the first (``leaf=model2``;
    :func:`training_plan`); the first is found or trained before its games."""
    say = note or (lambda text: None)
    plan, spec = training_plan(game, rules, players, bots=bots, games=games, seed=seed, per_game=per_game,
                               generation=generation)
    key = model_key(plan)
    if not retrain and key in _MEMO:
        return _MEMO[key]
    path = model_path(plan, key)
    if not retrain and path.exists():
        try:
            m = load(path, key, plan["n_features"])
            _MEMO[key] = m
            return m
        except ValueError as e:
            say(f"model file {path} is damaged ({e}): training it again")
    if plan.get("teacher"):   # the first generation plays the training games' searches
        import dataclasses
        t = model_for(spec.game, spec.rules, spec.players, seed=plan["seed"], note=note, jobs=jobs)
        if t.key != plan["teacher"]:
            raise RuntimeError(f"the first generation's key moved between the plan ({plan['teacher'][:16]}) "
                               f"and its model ({t.key[:16]})")
        spec = dataclasses.replace(spec, ctx=features_module(spec.game).attach_model(spec.ctx, t.mp, t.ms),
                                   model=t.describe())
    m = train(spec, plan, key, say, jobs=jobs)
    try:
        save(m, path)
        m = Model(m.mp, m.ms, m.key, str(path), m.meta, m.test)
    except OSError as e:
        from .jitcache import _why_unwritable
        say(f"the model cannot be kept in {path.parent} ({_why_unwritable(e)}): it serves this process only")
    _MEMO[key] = m
    return m


# ------------------------------------------------------------------ the training
def train_seed(seed: int) -> int:
    """The seed of the training games: derived from ``seed`` (below 2**60), so that a run with
    the same seed never plays the very games its model learned from."""
    return int(hashlib.sha256(f"sim.learn:{seed}".encode()).hexdigest()[:15], 16)


def _sample_chunk(module: str, ctx, players, seed, start, n, ids, par, per_game) -> dict:
    return importlib.import_module(module).sample(ctx, players, seed, start, n, ids, par, per_game)


def sample_positions(spec, plan, say=None, jobs=None) -> tuple[dict, float]:
    """Play the training games and sample their positions: (arrays, seconds).  ``say`` hears
    the line that opens a training (after the first games measured its speed)."""
    from .parallel import resolve_jobs
    g, mod_name = spec.game, spec.game.learn
    ids, par = g.bot_arrays(spec.bots)
    seed, n, pg = train_seed(plan["seed"]), plan["games"], plan["per_game"]
    args = (mod_name, spec.ctx, spec.players, seed)
    jobs = resolve_jobs(jobs)
    t0 = time.perf_counter()
    parts = [_sample_chunk(*args, 0, 1, ids, par, pg)]  # compiles on a first use
    done = 1
    t1 = time.perf_counter()
    probe = min(n - done, max(1, n // 50))
    if probe > 0:
        parts.append(_sample_chunk(*args, done, probe, ids, par, pg))
        done += probe
    rate = probe / max(time.perf_counter() - t1, 1e-6) if probe > 0 else 1.0 / max(t1 - t0, 1e-6)
    left = n - done
    if left / rate < PARALLEL_S:
        jobs = 1
    if say is not None:
        rows = n * pg * spec.players
        est = left / (rate * jobs) + _fit_seconds(rows, plan["n_features"], plan["model"]["candidates"])
        bots = ",".join(dict.fromkeys(c.label for c in spec.bots))
        changed = ",".join(f"{k}={v}" for k, v in spec.rules_changed.items()) or "base rules"
        gen = " (the second generation: their search reads the first)" if plan.get("teacher") else ""
        say(f"training a value model for {g.name} ({spec.players} players, {changed}): {n:,} games "
            f"by {bots}{gen}, about {duration(max(est + time.perf_counter() - t0, 1))} on {jobs} "
            f"worker{'s' if jobs > 1 else ''}")
    if left > 0:
        size = max(1, -(-left // (jobs * 4)))
        chunks = [(s, min(size, n - s)) for s in range(done, n, size)]
        if jobs > 1 and len(chunks) > 1:  # the games' kernels release Python's lock (nogil)
            from joblib import Parallel, delayed
            parts += Parallel(n_jobs=jobs, backend="threading")(
                delayed(_sample_chunk)(*args, s, c, ids, par, pg) for s, c in chunks)
        else:
            parts += [_sample_chunk(*args, s, c, ids, par, pg) for s, c in chunks]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return data, time.perf_counter() - t0


#: below this many seconds of play, the training games are played in this thread alone
PARALLEL_S = 5.0


def train(spec, plan: dict, key: str, say=None, jobs=None) -> Model:
    """Play the training games, fit, and say the result: a Model not yet kept on disk."""
    import sklearn
    t0 = time.perf_counter()
    data, play_s = sample_positions(spec, plan, say, jobs=jobs)
    t1 = time.perf_counter()
    mp, ms, meta, test = fit(data, seed=plan["seed"], candidates=plan["model"]["candidates"])
    fit_s = time.perf_counter() - t1
    sec = time.perf_counter() - t0
    meta.update({"games": plan["games"], "seconds": round(sec, 2), "seconds_play": round(play_s, 2),
                 "seconds_fit": round(fit_s, 2), "game": plan["game"], "game_version": plan["game_version"],
                 "players": plan["players"], "rules_changed": {k: _plain(v) for k, v in spec.rules_changed.items()},
                 "train_bots": [c.label for c in spec.bots], "seed": plan["seed"], "per_game": plan["per_game"],
                 "features_version": plan["features_version"], "fit_version": FIT_VERSION,
                 "generation": 2 if plan.get("teacher") else 1,
                 **({"teacher": plan["teacher"]} if plan.get("teacher") else {}),
                 "sklearn": sklearn.__version__,
                 "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    m = Model(mp, ms, key, None, meta, test)
    if say is not None:
        say(f"value model trained: {m.line()}, {sec:.0f} s")
    return m


def summary_text(m: Model) -> str:
    """What ``sim learn`` prints: the model, its training and its held-out figures."""
    d = m.meta
    changed = ",".join(f"{k}={v}" for k, v in (d.get("rules_changed") or {}).items()) or "base rules"
    lines = [f"{d.get('game')}, {d.get('players')} players, {changed}: value model {m.kind} "
             f"({int(m.mp.size):,} parameters, {int(m.ms[0])} features), key {m.key[:16]}",
             f"  trained on {d.get('games'):,} games by {','.join(dict.fromkeys(d.get('train_bots') or []))} "
             f"(seed {d.get('seed')}, {d.get('positions'):,} positions), {d.get('seconds', 0):.0f} s"
             + (f"; the second generation: their search read the first (key {d['teacher'][:16]})"
                if d.get("teacher") else ""),
             f"  held-out log loss {d['log_loss']:.4f} on {d.get('positions_test'):,} positions of games never "
             f"fitted: the base rate's {d['log_loss_base']:.4f}"]
    if d.get("log_loss_baseline") is not None:
        lines[-1] += f", the game's own evaluation's {d['log_loss_baseline']:.4f}"
        if d.get("log_loss_baseline_fit") is not None:
            lines[-1] += f" ({d['log_loss_baseline_fit']:.4f} at its best scale)"
    if m.test:
        gap = calibration_gap(m.test)
        acc = fair_accuracy(m.test["y"], m.test["p"], int(d.get("players") or 2))
        lines.append(f"  calibration: predictions within {100 * gap:.1f} points of the outcomes in every tenth "
                     f"of the predictions (holding 1% of the positions or more); right side of the fair share "
                     f"{100 * acc:.1f}% of the time")
    lines.append(f"  file: {m.path or 'not kept (the model folder cannot be written)'}")
    return "\n".join(lines)


@dataclass(eq=False)
class LearnResult:
    """What ``sim.learn`` returns: the model, the text ``sim learn`` prints, and the report
    (``write_report(path)``; written already where ``out=`` was given: ``report``)."""

    game: str
    players: int
    model: Model
    text: str
    report: Path | None = None
    _write: Callable | None = field(default=None, repr=False)

    def write_report(self, path) -> Path:
        if self._write is None:
            raise ValueError("this result has no report writer")
        return self._write(Path(path))


# ------------------------------------------------------------------ sim.learn(...)
class _CallableModule(type(sys)):
    """``sim.learn`` is this module and the Python API's function at once: calling it calls
    :func:`sim.api.learn` (loaded when called, as ``sim/__init__.py`` loads the API), while
    ``sim.learn.model_for`` and the rest are this module's."""

    def __call__(self, *args, **kwargs):
        return importlib.import_module("sim.api").learn(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
