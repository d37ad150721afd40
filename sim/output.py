"""Where a run's files go: results (Parquet, optional CSV), manifest and report.

Every file is written atomically; the manifest is written last, so a directory
with a manifest holds a finished set of files.
"""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pandas as pd

from .game import short_params
from .io import atomic_write, check_writable_dir, write_json, write_text
from .params import UsageError

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
        raise UsageError(f"cannot write to --out {path}: {e.strerror or e}") from None


def save_run(result, out_dir, csv: bool = False, report: bool = True) -> dict:
    """Write the merged statistics, the optional CSV, the report and (last) the manifest."""
    out_dir = Path(out_dir)
    manifest = dict(result.manifest)
    paths = {}
    paths["summary"] = write_text(out_dir / SUMMARY, result.summary.to_json())
    if result.frame is not None:
        df = result.frame
        paths["results"] = atomic_write(out_dir / RESULTS, lambda tmp: df.to_parquet(tmp, index=False))
    if csv:
        paths["csv"] = atomic_write(out_dir / "results.csv", lambda tmp: _write_csv(result, out_dir, tmp))
    if report:
        from analysis.report import write_report
        paths["report"] = write_report(result.summary, manifest, result.spec.game, out_dir)
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
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        for i, part in enumerate(parts):
            pd.read_parquet(part).to_csv(f, index=False, header=(i == 0))


def load_run(run_dir):
    """(Summary, manifest) of a saved run, with a clear error for a directory that is not one."""
    from .summary import Summary
    run_dir = Path(run_dir)
    man = run_dir / MANIFEST
    summ = run_dir / SUMMARY
    if not man.is_file() or not summ.is_file():
        raise UsageError(f"{run_dir} is not a finished run directory (needs {MANIFEST} and {SUMMARY})")
    manifest = json.loads(man.read_text())
    return Summary.from_json(summ.read_text()), manifest


def load_rows(run_dir):
    """The per-game rows of a run directory (single file or one part per chunk)."""
    run_dir = Path(run_dir)
    if (run_dir / RESULTS).is_file():
        return pd.read_parquet(run_dir / RESULTS)
    if (run_dir / "results").is_dir():
        from .store import ChunkStore
        parts = ChunkStore(run_dir).finished_parts()
        if parts:
            return pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    raise UsageError(f"{run_dir} has no per-game rows (run with --raw)")
