"""Where a run's files go: results (Parquet, optional CSV), manifest and report.

Every file is written atomically and flushed to the disk.  ``manifest.json`` and
``summary.json`` always form a consistent pair: a save first removes the manifest, then
writes the summary, the optional CSV and the report, and the manifest last, holding the
sha256 of the summary it describes.  A reader (``sim report``, :func:`load_run`) finds
either no manifest (a save was interrupted: resuming the run writes the pair again) or a
manifest whose summary checksum matches.
"""
from __future__ import annotations

import hashlib
import json
import time
from datetime import datetime
from pathlib import Path

from .game import short_params
from .io import atomic_write, check_writable_dir, remove, write_json, write_text
from .params import UsageError
from .validate import safe

RESULTS = "results.parquet"
SUMMARY = "summary.json"
MANIFEST = "manifest.json"


def default_run_dir(spec, root="reports") -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    label = short_params(spec.game, spec.rules)
    if spec.players != spec.game.default_players:
        label = f"{spec.players}p-" + label
    base = Path(root) / f"{spec.game.name}-{label}-{stamp}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path


def prepare_out_dir(path) -> Path:
    """Make sure we can write there before spending time on a simulation."""
    try:
        return check_writable_dir(path)
    except OSError as e:
        raise UsageError(f"cannot write to --out {safe(str(path))}: {e.strerror or e}") from None


def save_run(result, out_dir, csv: bool = False, report=None) -> dict:
    """Write the merged statistics, the optional CSV, the report and (last) the manifest.

    ``report(summary, manifest, game, out_dir) -> path`` writes the report (the command line
    passes ``analysis.report.write_report``: the core does not import the analysis layer).

    The manifest is removed first and written last with the summary's checksum, so that
    no reader ever sees a manifest beside a summary it does not describe (a ``kill -9``
    during the save leaves no manifest; resuming the run saves again)."""
    out_dir = Path(out_dir)
    manifest = dict(result.manifest)
    paths = {}
    remove(out_dir / MANIFEST)
    text = result.summary.to_json()
    paths["summary"] = write_text(out_dir / SUMMARY, text)
    manifest["summary_sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if result.frame is not None:
        df = result.frame
        paths["results"] = atomic_write(out_dir / RESULTS, lambda tmp: df.to_parquet(tmp, index=False))
    if csv:
        paths["csv"] = atomic_write(out_dir / "results.csv", lambda tmp: _write_csv(result, out_dir, tmp))
    if report:
        t = time.perf_counter()
        paths["report"] = report(result.summary, manifest, result.spec.game, out_dir)
        # the work after the games, beside the games' own seconds (a slow report shows)
        manifest["seconds"] = {**manifest.get("seconds", {}), "report": round(time.perf_counter() - t, 3)}
    manifest["files"] = sorted(p.name for p in paths.values())
    paths["manifest"] = write_json(out_dir / MANIFEST, manifest)
    return paths


def _write_csv(result, out_dir: Path, tmp: str) -> None:
    """CSV of every row: from memory, or part by part from the rows on disk."""
    if result.frame is not None:
        result.frame.to_csv(tmp, index=False)
        return
    from .store import ChunkStore
    parts = ChunkStore(out_dir).finished_parts()
    if not parts:
        raise UsageError("--csv needs the per-game rows: run with --raw")
    import pandas as pd
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        for i, part in enumerate(parts):
            pd.read_parquet(part).to_csv(f, index=False, header=(i == 0))


def load_run(run_dir):
    """(Summary, manifest) of a saved run, checked to be a consistent pair, with one clear
    error line for a directory that is not a finished run or whose files are damaged."""
    from .summary import Summary
    run_dir = Path(run_dir)
    shown = safe(str(run_dir))
    man = run_dir / MANIFEST
    summ = run_dir / SUMMARY
    if not man.is_file():
        if summ.is_file() and (run_dir / "run.json").is_file():
            game = _game_of(run_dir)
            raise UsageError(f"{shown}: the last save of this run was interrupted (no {MANIFEST}); "
                             f"finish it with: sim {game} --resume {shown}")
        raise UsageError(f"{shown} is not a finished run directory (needs {MANIFEST} and {SUMMARY})")
    if not summ.is_file():
        raise UsageError(f"{shown} is not a finished run directory (needs {MANIFEST} and {SUMMARY})")
    try:
        manifest = json.loads(man.read_text(encoding="utf-8"))
        text = summ.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise UsageError(f"{shown}: {MANIFEST} or {SUMMARY} is damaged ({safe(_why(e))})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("game"), str):
        raise UsageError(f"{shown}/{MANIFEST} is not the manifest of a sim run")
    want = manifest.get("summary_sha256")
    if want is not None and hashlib.sha256(text.encode("utf-8")).hexdigest() != want:
        raise UsageError(f"{shown}: {SUMMARY} is not the one {MANIFEST} describes (a save was "
                         f"interrupted, or a file was edited); finish the run with: "
                         f"sim {safe(manifest['game'])} --resume {shown}")
    try:
        summary = Summary.from_json(text)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
        raise UsageError(f"{shown}/{SUMMARY} is damaged ({safe(_why(e))})") from None
    return summary, manifest


def _why(e: BaseException) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"not valid JSON: {e.msg} at line {e.lineno}"
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return f"{type(e).__name__}: {e}"[:200]


def _game_of(run_dir: Path) -> str:
    try:
        return safe(json.loads((run_dir / "run.json").read_text())["fingerprint"]["game"])
    except (OSError, ValueError, KeyError, TypeError):
        return "GAME"


def load_rows(run_dir, columns=None):
    """The per-game rows of a run directory (single file or one part per chunk).

    ``columns``: read only those of the named columns the rows have (pyarrow reads a few
    columns of a million rows in a tenth of the time of all of them)."""
    run_dir = Path(run_dir)
    if (run_dir / RESULTS).is_file():
        parts = [run_dir / RESULTS]
    elif (run_dir / "results").is_dir():
        from .store import ChunkStore
        parts = ChunkStore(run_dir).finished_parts()
    else:
        parts = []
    if not parts:
        raise UsageError(f"{safe(str(run_dir))} has no per-game rows (run with --raw)")
    import pandas as pd  # (not at import: a run's command loads it once its games are under way)
    if columns is None:
        return pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    import pyarrow as pa
    import pyarrow.parquet as pq
    have = set(pq.read_schema(parts[0]).names)
    names = [c for c in dict.fromkeys(columns) if c in have]
    return pa.concat_tables([pq.read_table(p, columns=names) for p in parts]).to_pandas()


def write_experiment_manifest(out_dir, kind: str, game, players: int, seed: int, rules: dict,
                              bots: list, games: int, partial: bool, files: list,
                              command: str | None, model: dict | None = None) -> Path:
    """``manifest.json`` of an experiment folder that has no run manifest of its own (``sim
    skill``, ``sim skill --ladder``): what was played (game and version, players, rules,
    bots, seed, games per pairing or rung), how it ended, the files it wrote, the machine
    and the command, as a run's manifest gives them."""
    from datetime import timezone

    from . import __version__
    from .provenance import machine_info
    return write_json(Path(out_dir) / MANIFEST, {
        "tool": "sim", "sim_version": __version__, "kind": kind, "game": game.name,
        "game_title": game.title, "game_version": game.version, "players": players,
        "seats": game.seat_names(players), "rules_changed": dict(rules or {}), "bots": list(bots),
        "seed": seed, "games_each": games, "partial": bool(partial), "files": list(files),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine_info(), "command": command,
        **({"model": model} if model else {})})  # the learned value its bots read (leaf=model)
