"""What the functions of the Python API share (``sim.api``): the checks every command makes,
the report folder, variants and bots as given, the manifest of a study."""
from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from .params import UsageError


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
    from .runner import parse_games, parse_seed
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
        raise UsageError("--out: the path is empty")
    return check_out_dir(Path(out), kind)


def _finish(res, out):
    """Write the report into ``out`` (checked by :func:`_out` before the games were played)."""
    if out is not None:
        from .validate import create_out_dir
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


def _check_arms(g, variants, bots, players, seed, n, labels=True):
    """Every variant's rules, data files and bots, before any folder is created; names the
    user gave (``labels``) must be safe labels."""
    from analysis.experiment_runs import build_arms

    from .validate import check_variant_name
    for name, _ in variants:
        check_variant_name(name, label=labels)
    return build_arms(g, variants, bots, players, seed, n)


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


def _experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial):
    """``manifest.json`` of a skill or ladder folder (``sim.commands.common._experiment_manifest``)."""
    from .output import write_experiment_manifest
    files = sorted(f.name for f in Path(out_dir).iterdir() if f.is_file() and f.name != "manifest.json")
    write_experiment_manifest(out_dir, kind, game, players, seed, rules, bots, games, partial, files, None)
