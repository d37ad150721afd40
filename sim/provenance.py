"""The manifest of a run: versions, rules, bots, seed, timings and the machine it ran on."""
from __future__ import annotations

import os
import platform

import numpy as np

from . import __version__
from .spec import RunSpec, _show


def machine_info() -> dict:
    import numba
    import pandas
    return {
        "platform": platform.platform(),
        "processor": _cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pandas.__version__,
    }


def _cpu_model() -> str:
    # the model name is the one CPU figure psutil does not give
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def build_manifest(spec: RunSpec, *, jobs, backend, chunks, chunks_done, games_done, partial,
                   started, finished, seconds, command=None) -> dict:
    g = spec.game
    sim_s = seconds.get("simulate", 0.0)
    return {
        "tool": "sim",
        "sim_version": __version__,
        "game": g.name,
        "game_title": g.title,
        "game_version": g.version,
        "run": spec.describe(),
        "players": spec.players,
        "seats": g.seat_names(spec.players),
        "rules": {k: _show(v) if isinstance(v, tuple) else v for k, v in spec.rules.items()},
        "rules_changed": {k: _show(v) if isinstance(v, tuple) else v
                          for k, v in spec.rules_changed.items()},
        "bots": [c.label for c in spec.bots],
        "bot_settings": [dict(c.settings) for c in spec.bots],
        "seed": spec.seed,
        "games_requested": spec.games,
        "games_completed": games_done,
        "partial": partial,
        "chunk_size": chunks[0][1] if chunks else 0,
        "chunks_total": len(chunks),
        "chunks_done": chunks_done,
        "jobs": jobs,
        "backend": backend,
        "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"),
        "seconds": seconds,
        "games_per_second": round(games_done / sim_s, 1) if sim_s > 0 else None,
        "machine": machine_info(),
        "command": command,
        **({"model": spec.model} if spec.model else {}),  # the learned value its bots read
        # how it plays: the win probability its EVALUATION columns followed (that model)
        **({"evaluated": True} if getattr(spec, "evaluate", False) else {}),
    }
