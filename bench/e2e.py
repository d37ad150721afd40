"""The whole command against the hand-tight kernel, timed in one run.

``sim GAME --games N --jobs J`` end to end (interpreter start, workers, games, rows on disk,
report, exit) against the same games played on one core by one call of the game's own
kernel entry, ``game.play_chunk(ctx, players, seed, 0, N, ...)``: the loop that the bench's
"numba kernel" rows time, with nothing around it (no chunks, no statistics, no files).
The two are timed alternately, ``reps`` times each, and the best of each is kept.

The command's wall time is split at its last chunk record (``chunks/*.json``, written as
the last chunk's result arrives): before it, start-up and games; after it, the work after
the games (exemplar games, figures, pages, summary, manifest, exit).

    python bench/e2e.py [GAME] [GAMES] [--jobs J] [--reps R]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def kernel_seconds(game_name: str, games: int, seed: int = 1) -> float:
    """Seconds of one call of the game's kernel playing games 0..N-1 on one core (the
    default rules and bots; the kernel loaded from numba's cache first, untimed)."""
    from sim.games import get
    game = get(game_name)
    players = game.default_players
    ctx = game.prepare(game.resolve_rules({}), players)
    ids, par = game.bot_arrays(game.choose_bots(None, players))
    game.play_chunk(ctx, players, seed, 0, 0, ids, par)
    t = time.perf_counter()
    game.play_chunk(ctx, players, seed, 0, games, ids, par)
    return time.perf_counter() - t


def command_seconds(game_name: str, games, jobs: int, root: Path = ROOT, extra=()) -> dict:
    """Wall seconds of ``sim GAME --games N --jobs J -q`` in a fresh process (code of
    ``root``: ``-m`` puts the working directory first on the path), split at its last chunk
    record; with the manifest's own seconds."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "run"
        env = dict(os.environ, PYTHONPATH=str(root))
        t0 = time.time()
        p = subprocess.run([sys.executable, "-m", "sim", game_name, "--games", str(games), "--jobs",
                            str(jobs), "-q", "--out", str(out), *extra], env=env, cwd=root,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        t1 = time.time()
        if p.returncode != 0:
            raise RuntimeError(p.stderr.decode()[-2000:])
        last = max(f.stat().st_mtime for f in (out / "chunks").glob("*.json"))
        seconds = json.loads((out / "manifest.json").read_text())["seconds"]
    return {"wall": t1 - t0, "to_games_end": last - t0, "after_games": t1 - last, "manifest": seconds}


def compare(game_name: str = "puluc", games=1_000_000, jobs: int = 2, reps: int = 3,
            root: Path = ROOT) -> dict:
    """Best of ``reps`` alternate timings of the kernel and of the command, and their ratio."""
    games = int(float(games))
    kern, runs = [], []
    for _ in range(reps):
        kern.append(kernel_seconds(game_name, games))
        runs.append(command_seconds(game_name, games, jobs, root))
    best = min(runs, key=lambda r: r["wall"])
    return {"game": game_name, "games": games, "jobs": jobs, "reps": reps,
            "kernel_s": round(min(kern), 3), "command_s": round(best["wall"], 3),
            "to_games_end_s": round(best["to_games_end"], 3), "after_games_s": round(best["after_games"], 3),
            "ratio": round(best["wall"] / min(kern), 3),
            "kernel_all_s": [round(k, 3) for k in kern], "command_all_s": [round(r["wall"], 3) for r in runs],
            "after_games_all_s": [round(r["after_games"], 3) for r in runs], "manifest_seconds": best["manifest"]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="puluc")
    ap.add_argument("games", nargs="?", default="1e6")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose `sim` is timed")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    print(json.dumps(compare(a.game, a.games, a.jobs, a.reps, Path(a.root))))


if __name__ == "__main__":
    main()
