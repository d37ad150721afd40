"""Where a run's files go: results (Parquet, optional CSV), manifest and report.

Every file is written atomically; the manifest is written last, so a directory
with a manifest holds a finished set of files.
"""
from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pandas as pd

from .game import short_params
from .io import atomic_write, check_writable_dir, write_json
from .params import UsageError

RESULTS = "results.parquet"
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
    """Write results, manifest and report; returns the paths written."""
    out_dir = Path(out_dir)
    df = result.frame
    manifest = dict(result.manifest)
    paths = {}
    paths["results"] = atomic_write(out_dir / RESULTS, lambda tmp: df.to_parquet(tmp, index=False))
    if csv:
        paths["csv"] = atomic_write(out_dir / "results.csv", lambda tmp: df.to_csv(tmp, index=False))
    if report:
        from analysis.report import write_report
        paths["report"] = write_report(df, manifest, result.spec.game, out_dir)
    manifest["files"] = sorted(p.name for p in paths.values())
    paths["manifest"] = write_json(out_dir / MANIFEST, manifest)
    return paths


def load_run(run_dir):
    """(DataFrame, manifest) of a saved run, with clear errors for a directory that is not one."""
    run_dir = Path(run_dir)
    man = run_dir / MANIFEST
    res = run_dir / RESULTS
    if not man.is_file() or not res.is_file():
        raise UsageError(f"{run_dir} is not a finished run directory (needs {MANIFEST} and {RESULTS})")
    manifest = json.loads(man.read_text())
    df = pd.read_parquet(res)
    df.attrs["manifest"] = manifest
    return df, manifest


def safe_name(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", s)
