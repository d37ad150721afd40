"""What the functions of the Python API share (``sim.api``): the checks every command makes,
the report folder, variants and bots as given, the manifest of a study."""
from __future__ import annotations

import functools
import inspect
import math
import numbers
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from .params import UsageError


# -------------------------------------------------- arguments of the wrong type; flags as keywords
def _shown(value) -> str:
    from .validate import safe
    text = repr(value)
    return safe(text if len(text) <= 60 else text[:57] + "...")


def _bad(name: str, wants: str, value) -> UsageError:
    return UsageError(f"{name}= must be {wants}, not {_shown(value)}")


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _is_path(v) -> bool:
    return isinstance(v, (str, os.PathLike))


def _bot_item(v) -> bool:
    from .game import BotChoice
    return (isinstance(v, str) and bool(v.strip())) or isinstance(v, BotChoice)


def _check_games(name, v):
    if not (isinstance(v, str) or _is_real(v)):
        raise _bad(name, "a number of games such as 20_000 or '1e5'", v)


def _check_rules(name, v):
    if v is not None and not (isinstance(v, Mapping) and all(isinstance(k, str) for k in v)):
        raise _bad(name, "a dict of rule parameters such as {'track': 9}", v)


def _check_bots(name, v):
    if v is None or (isinstance(v, str) and v.strip()):
        return
    if isinstance(v, (list, tuple)) and v and all(_bot_item(b) for b in v):
        return
    raise _bad(name, "a bot's name, names separated by commas ('search:depth=1,greedy') or a list of names", v)


def _check_variants(name, v):
    """Variants as ``compare`` takes them (see :func:`_variants`)."""
    wants = "{'base': {}, 'nine': {'track': 9}}, [('base', {}), ...] or ['base:', 'nine:track=9']"
    if isinstance(v, str):
        return
    if isinstance(v, Mapping):
        items = list(v.items())
    elif isinstance(v, (list, tuple)):
        items = list(v)
    else:
        raise _bad(name, wants, v)
    for it in items:
        if isinstance(it, str):
            continue
        if not (isinstance(it, (list, tuple)) and len(it) == 2 and isinstance(it[0], str)
                and (it[1] is None or isinstance(it[1], (str, Mapping)))):
            raise _bad(name, wants, it if not isinstance(v, Mapping) else dict([it]))


def _check_items(name, v, example):
    """``params`` and ``targets``: a string, a dict or a list of strings."""
    if isinstance(v, (str, Mapping)) or (isinstance(v, (list, tuple)) and v and all(isinstance(x, str) for x in v)):
        return
    raise _bad(name, f"a string, a dict or a list of strings such as {example}", v)


def _kind(test, wants):
    def check(name, v):
        if not test(v):
            raise _bad(name, wants, v)
    return check


_STR = _kind(lambda v: isinstance(v, str), "a string")
_OPT_STR = _kind(lambda v: isinstance(v, str), "a string or None")
_BOOL = _kind(lambda v: isinstance(v, bool), "True or False")
_OPT_INT = _kind(_is_int, "a whole number or None")
_PATH = _kind(_is_path, "a path (a string or a pathlib.Path) or None")
_FINITE = _kind(lambda v: _is_real(v) and math.isfinite(v), "a finite number")

#: the check of every argument of the API's functions, by its name (a name means the same in each);
#: None passes where it is the argument's default
ARG_CHECKS = {
    "game": _kind(lambda v: isinstance(v, str), "a game's name such as 'puluc' (sim games lists them)"),
    "games": _check_games, "budget": _check_games, "final_games": _check_games, "pair_games": _check_games,
    "rules": _check_rules, "bots": _check_bots,
    "players": _OPT_INT, "jobs": _OPT_INT, "chunk_size": _OPT_INT,
    "seed": _kind(lambda v: _is_int(v) or isinstance(v, str), "a whole number (0 .. 2**64-1)"),
    "backend": _OPT_STR, "scheduler": _OPT_STR, "param": _OPT_STR, "card": _OPT_STR, "mode": _OPT_STR,
    "metric": _OPT_STR, "sprt_metric": _STR, "bot": _kind(lambda v: isinstance(v, str) and v.strip(),
                                                         "a bot with its settings such as 'search:iters=50'"),
    "progress": _BOOL, "sprt": _BOOL, "early_stop": _BOOL, "combine": _BOOL, "yes": _BOOL,
    "out": _PATH, "variants_file": _PATH, "html": _PATH,
    "variants": _check_variants, "params": lambda n, v: _check_items(n, v, "['track=7..15:2']"),
    "targets": lambda n, v: _check_items(n, v, "['first_player=fair']"),
    **dict.fromkeys(("factor", "add", "tol", "length_tol", "minutes", "sprt_d", "alpha", "beta"), _FINITE),
    "rungs": _kind(_is_int, "a whole number"),
    "index": _kind(lambda v: _is_int(v) or isinstance(v, str), "a game index such as 0 or 17"),
}

#: a command-line flag -> the API's keyword argument, where the name differs (``--x-y`` is ``x_y=``
#: otherwise); a flag is named as a keyword only where the function takes that argument
_FLAG_ARGS = {"set": "rules", "variant": "variants", "variants": "variants_file", "param": "params",
              "target": "targets", "final": "final_games", "game": "index", "ladder": "bots"}
#: switches: the keyword with its value
_SWITCHES = {"yes": "yes=True", "sprt": "sprt=True"}
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)")


def api_words(message: str, fn) -> str:
    """A message of the command line's checks as the API function ``fn`` says it: each
    ``--flag`` that ``fn`` takes as an argument named as that keyword (``--seed`` -> ``seed=``,
    ``--set`` -> ``rules=``, ``--yes`` -> ``yes=True``), and ``sim skill`` as ``sim.skill``."""
    names = set(inspect.signature(fn).parameters)
    cmd = "run" if fn.__name__ == "simulate" else fn.__name__
    if cmd == "ladder":
        message = message.replace("sim skill --ladder", "sim.ladder")
    message = re.sub(rf"\bsim {cmd}\b", f"sim.{cmd}", message)

    def keyword(m):
        flag = m.group(1)
        if flag in _SWITCHES and flag in names:
            return _SWITCHES[flag]
        for arg in (_FLAG_ARGS.get(flag), flag.replace("-", "_")):
            if arg and arg in names:
                return f"{arg}="
        return m.group(0)
    return _FLAG.sub(keyword, message)


def _api(fn):
    """A function of the Python API: every argument checked for its type first
    (:data:`ARG_CHECKS`: a wrong one is a :class:`UsageError` naming it), and the command
    line's messages naming its flags said with the keyword arguments (:func:`api_words`)."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        try:
            for name, value in bound.arguments.items():
                check = ARG_CHECKS.get(name)
                if check is not None and not (value is None and sig.parameters[name].default is None):
                    check(name, value)
            return fn(*args, **kwargs)
        except UsageError as e:
            text = api_words(str(e), fn)
            if text == str(e):
                raise
            raise type(e)(text) from None
    return call


def _check_run(jobs, chunk_size, backend, scheduler, note=None) -> tuple[int, int | None]:
    """The checks every command shares (the command line's too): chunk size, backend, a Dask
    scheduler that answers (before anything is written), the jobs (more than the cores:
    clamped, ``note`` told why)."""
    from .validate import check_backend, check_chunk_size, check_jobs, probe_scheduler
    chunk_size = check_chunk_size(chunk_size)
    check_backend(backend, scheduler)
    if scheduler is not None:
        probe_scheduler(scheduler)
    return check_jobs(0 if jobs is None else jobs, note), chunk_size


def _check_experiment(g, games, bots, players, seed, jobs, chunk_size, backend, scheduler, note=None):
    """The options every experiment shares, checked as a run checks them (the command
    line's too): (jobs, chunk size, games, seed, players)."""
    from .spec import parse_games, parse_seed
    from .validate import check_chunk_count
    jobs, chunk_size = _check_run(jobs, chunk_size, backend, scheduler, note)
    n = parse_games(games)
    check_chunk_count(n, chunk_size)
    s = parse_seed(seed)
    p = g.check_players(players)
    g.choose_bots(bots, p)
    return jobs, chunk_size, n, s, p


def _out(out, kind: str):
    """``out=``, checked before anything is played (``None``: no report)."""
    if out is None:
        return None
    from .validate import check_out_dir
    if not str(out).strip():
        raise UsageError("out= is an empty path: give a folder, or None for no report")
    p = check_out_dir(Path(out), kind)
    if kind == "experiment":
        _not_over_an_experiment(p)
    return p


def _not_over_an_experiment(p: Path) -> None:
    """An experiment of the API writes its report into a new or empty folder: it keeps no
    chunks to resume, so a folder that holds an experiment already (the command line's, or
    another call's) is refused rather than written over."""
    from .validate import dir_kind, held_kind, kind_words, safe
    if dir_kind(p) == "experiment":
        kind = held_kind(p)
        what = f"a {kind_words(kind)}" if kind else "an experiment"
        raise UsageError(f"out= {safe(str(p))} holds {what} of sim already; an experiment of the API "
                         "writes into a new or empty folder: choose another out=")


def _finish(res, out):
    """Write the report into ``out`` (checked by :func:`_out` before the games were played; an
    experiment folder filled meanwhile, by another process, is refused then too)."""
    if out is not None:
        from .results_api import RunResult
        from .validate import create_out_dir
        if not isinstance(res, RunResult):
            _not_over_an_experiment(Path(out))
        res._write(create_out_dir(out)[0])
    return res


def _bot_list(bots) -> list[str] | None:
    """``"search:depth=1,greedy"`` or ``["search:depth=1", "greedy"]`` -> one name per bot."""
    from .game import _split_bots
    if bots is None:
        return None
    names = _split_bots(bots) if isinstance(bots, str) else [str(b) for b in bots]
    return [b.strip() for b in names]


def _variants(variants, variants_file=None) -> list[tuple[str, dict]]:
    """Variants as ``{name: rules}``, ``[(name, rules)]`` or ``["NAME:PARAM=VALUE,..."]`` (a
    rules value may also be ``"PARAM=VALUE,..."``), then those of a TOML file, in order."""
    from analysis.experiment_runs import load_variants_file, parse_variant

    from . import toml as TOML
    items = list(variants.items()) if isinstance(variants, Mapping) else (
        [variants] if isinstance(variants, str) else list(variants or []))
    out = []
    for v in items:
        if isinstance(v, str):
            out.append(parse_variant(v))
            continue
        name, rules = v
        if rules is None or isinstance(rules, str):
            out.append(parse_variant(f"{name}:{rules or ''}"))
        else:
            out.append((str(name).strip(), dict(rules)))
    if variants_file is not None:
        TOML.load(variants_file, "--variants")  # a regular, small, UTF-8, sane TOML file
        out += load_variants_file(variants_file)
    return out


def _check_arms(g, variants, bots, players, seed, n, labels=True, evaluate=False):
    """Every variant's rules, data files and bots, before any folder is created; names the
    user gave (``labels``) must be safe labels; ``evaluate``: each variant follows its own
    learned chances (how it plays, ``make_spec``)."""
    from analysis.experiment_runs import build_arms

    from .validate import check_variant_name
    for name, _ in variants:
        check_variant_name(name, label=labels)
    return build_arms(g, variants, bots, players, seed, n, evaluate=evaluate)


def _items(spec, join: str = "=") -> list[str]:
    """``["track=7..15"]`` as it is, or ``{"track": "7..15"}`` / ``{"track": [7, 9]}`` as
    ``NAME=VALUE`` items (a value starting with ``<=``, ``>=`` or ``=`` is joined as it is)."""
    if isinstance(spec, str):
        return [spec]
    if not isinstance(spec, Mapping):
        return [str(x) for x in spec or []]
    out = []
    for k, v in spec.items():
        if isinstance(v, (list, tuple)):
            v = ",".join(str(x) for x in v)
        v = str(v)
        out.append(f"{k}{v}" if v.startswith(("<=", ">=", "=")) else f"{k}{join}{v}")
    return out


def _canonical_rules(g, rules) -> dict:
    """``rules`` with every key the declared parameter name (aliases resolved)."""
    return {g.param_name(k) or k: v for k, v in dict(rules or {}).items()}


def _echo(progress: bool):
    return (lambda line: print(line, file=sys.stderr)) if progress else None


def _manifest(kind, game, players, seed, rules, bots, games, partial) -> dict:
    """What a skill or ladder folder's ``manifest.json`` says was played (without the machine)."""
    from . import __version__
    return {"tool": "sim", "sim_version": __version__, "kind": kind, "game": game.name, "game_title": game.title,
            "game_version": game.version, "players": players, "seats": game.seat_names(players),
            "rules_changed": dict(rules or {}), "bots": list(bots), "seed": seed, "games_each": games,
            "partial": bool(partial)}


def _experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, model=None):
    """``manifest.json`` of a skill or ladder folder (``sim.commands.common._experiment_manifest``)."""
    from .output import write_experiment_manifest
    files = sorted(f.name for f in Path(out_dir).iterdir() if f.is_file() and f.name != "manifest.json")
    write_experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, files, None, model)


# ------------------------------------------------------------ the time guard of an experiment
def _guard(what, spec, plays, jobs, yes, backend, ask=False, progress=False, limit=None) -> None:
    """Refuse (or, ``ask``: on a terminal, ask about) an experiment expected to take more than
    two hours, unless ``yes`` (:func:`sim.longrun.check_long_experiment`)."""
    from .longrun import check_long_experiment
    check_long_experiment(what, spec, plays, jobs, yes, backend, ask=ask, progress=progress, limit=limit)


def _arm_plays(arms, n) -> list:
    """Every arm of a comparison or a sweep (its seats swapped too): (bots, games, 1)."""
    return [(a.spec.bots, n, 1.0) for a in arms]


def _seatings(g, p, a, b) -> list[list[str]]:
    """Bot ``a`` on each side in turn (every side where more than two), the others ``b``: the
    seatings of a round robin's pairing and of a ladder's head-to-head."""
    sides = g.sides(p)
    m = len(set(sides))
    return [[a if sides[s] == sd else b for s in range(p)] for sd in range(m)]


def _skill_plays(g, names, p, n) -> list:
    """A round robin's pairings (:func:`analysis.skill_runs.skill`): every ordered pair, on the
    first side only where there are two sides, on each side in turn where more."""
    import itertools
    m = len(set(g.sides(p)))
    out = []
    for i, j in itertools.permutations(range(len(names)), 2):
        for seats in _seatings(g, p, names[i], names[j])[:m if m > 2 else 1]:
            out.append((g.choose_bots(seats, p), n, 1.0))
    return out


def _ladder_plays(g, names, p, n, scale=None, n_pair=None) -> list:
    """A ladder's rungs (every seat the rung's bot) and each neighbouring pair on each side in
    turn (:func:`analysis.ladder.skill_ladder`); ``scale``: each rung's cost per game against
    the first's, where only the first rung's bot is to be measured (a strength climb);
    ``n_pair``: the games of each pair's seating (default ``n``)."""
    def play(seats, m):
        if scale is None:
            return (g.choose_bots(seats, p), m, 1.0)
        return (g.choose_bots(names[0], p), m, sum(scale[names.index(s)] for s in seats) / len(seats))
    out = [play([b] * p, n) for b in names]
    for k in range(len(names) - 1):
        out += [play(seats, n if n_pair is None else n_pair) for seats in _seatings(g, p, names[k], names[k + 1])]
    return out
