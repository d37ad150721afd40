"""`make bench`: speed figures, one JSON line per measurement, and a table.

Measured in one run, so ratios are comparable: each registered game's kernel on
one core and on all cores (compile time excluded), the pure-Python reference
engine where a game has one (tests/reference/<game>_ref.py: ``play``, or ``replay``
of the kernel's recorded games, the rules only), the cold-start cost of compiling
the kernels, and `sim puluc --games 1e6` and `sim balam --games 1e6` end to end, the first
also against the bare kernel playing the same games on one core (bench/e2e.py).

    python bench/run.py [--games GAME ...] [--quick]
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from sim import __version__  # noqa: E402
from sim.games import get, names  # noqa: E402
from sim.provenance import machine_info  # noqa: E402
from sim.runner import execute  # noqa: E402
from sim.spec import make_spec  # noqa: E402

import e2e as against_kernel  # noqa: E402  (bench/e2e.py, beside this file)

OUT_DIR = ROOT / "bench" / "results"


def _kernel_rate(game, cfg, count, seed=1):
    rules = game.resolve_rules(cfg.get("rules"))
    players = cfg.get("players", game.default_players)
    ctx = game.prepare(rules, players)
    ids, par = game.bot_arrays(game.choose_bots(cfg.get("bots"), players))
    game.play_chunk(ctx, players, seed, 0, 0, ids, par)  # compile / load cache
    game.play_chunk(ctx, players, seed, 0, min(count, cfg.get("warm_games", 200)), ids, par)
    best = iters = None
    counter = _iteration_counter(cfg)
    for _ in range(2):
        before = list(counter) if counter is not None else None
        t = time.perf_counter()
        out = game.play_chunk(ctx, players, seed, 0, count, ids, par)
        dt = time.perf_counter() - t
        if best is None or dt < best:
            best = dt
            if counter is not None:   # search iterations (rollouts) in the best run
                iters = counter[1] - before[1]
    moves = int(np.asarray(out[cfg["moves"]]).sum()) if cfg.get("moves") else None
    if iters is None and cfg.get("iters_per"):
        # a search bot's iterations: (its seat's column, e.g. its turns) x iterations each
        col, seat, each = cfg["iters_per"]
        iters = int(np.asarray(out[col])[:, seat].sum()) * each
    return count / best, (moves / best if moves is not None else None), best, iters


def _iteration_counter(cfg):
    """A search bot's counters (``"iterations": "module:NAME"``, a list [decisions searched,
    iterations]) the kernel adds to, or None."""
    if not cfg.get("iterations"):
        return None
    mod, _, name = cfg["iterations"].partition(":")
    return getattr(importlib.import_module(mod), name)


def _floor(cfg):
    """Fewest games a measurement plays: 1000, or the configuration's own ``min_games``, or
    its cap (``games``) when that is smaller (slow bots: search)."""
    return cfg.get("min_games", min(1000, cfg.get("games", 1000)))


def _size_for(game, cfg, seconds):
    """Games for one measurement: about ``seconds`` of play, at least ``_floor`` (a slow
    configuration names its own ``probe_games`` and ``min_games``)."""
    lo = _floor(cfg)
    rate = _kernel_rate(game, cfg, cfg.get("probe_games", min(500, lo)))[0]
    return int(max(lo, min(cfg.get("games", 10**7), rate * seconds)))


def _parallel_rate(game, cfg, count, jobs):
    spec = make_spec(game, count, cfg.get("rules"), cfg.get("bots"), cfg.get("players"), seed=1)
    warm = jobs * min(2000, _floor(cfg))
    execute(spec.__class__(spec.game, spec.players, spec.rules, spec.bots, warm, 1),
            jobs=jobs, progress=False, rows="none")  # start and warm the workers
    # as a big run works: chunks reduced to merged statistics in the workers, no rows
    # shipped; the best of two runs, as for one core (the ratio compares like with like)
    chunk = 1000 if _floor(cfg) >= 1000 else max(1, count // (jobs * 4))
    sec = None
    for _ in range(2):
        res = execute(spec, jobs=jobs, chunk_size=max(chunk, count // (jobs * 16)), progress=False,
                      rows="none")
        s = res.manifest["seconds"]["simulate"]
        sec = s if sec is None or s < sec else sec
    moves = res.summary.hists[cfg["moves"]].total() if cfg.get("moves") else None
    return count / sec, (moves / sec if moves is not None else None), sec


def _reference_rate(game, cfg, count):
    """(games per second, how, games) of the game's pure-Python reference engine on one
    core.  how: ``"play"`` (an engine with bots plays the games itself) or ``"replay"``
    (it replays the kernel's recorded games: every decision checked legal, chance drawn
    again, every column recomputed, but no bot thinking).  None when there is no engine."""
    try:
        ref = importlib.import_module(f"tests.reference.{game.name}_ref")
    except ImportError:
        return None
    rules = game.resolve_rules(cfg.get("rules"))
    players = cfg.get("players", game.default_players)
    if hasattr(ref, "play"):
        bots = [c.bot.name for c in game.choose_bots(cfg.get("bots"), players)]
        t = time.perf_counter()
        try:
            for i in range(count):
                ref.play(1, i, rules, bots)
        except NotImplementedError:
            return None  # that engine does not play these bots
        return count / (time.perf_counter() - t), "play", count
    if not hasattr(ref, "replay") or not game.actions or "search" in str(cfg.get("bots")):
        return None     # a replay does none of a search's work: no ratio worth printing
    from sim.record import record_run
    count = min(count, 200)      # enough for a rate; each record holds a 2 MB buffer, so
    #                              record and replay 20 games at a time
    sec = 0.0
    for lo in range(0, count, 20):
        records = record_run(game, range(lo, min(count, lo + 20)), cfg.get("rules"),
                             cfg.get("bots"), players, seed=1)
        t = time.perf_counter()
        for r in records:
            ref.replay(r)
        sec += time.perf_counter() - t
    return count / sec, "replay", count


def cold_start(game_name: str) -> dict:
    """Seconds to first result in a fresh process: empty numba cache vs warm cache."""
    code = ("import time;t=time.perf_counter();from sim.games import get;g=get(%r);"
            "r=g.resolve_rules({});p=g.default_players;c=g.prepare(r,p);"
            "i,a=g.bot_arrays(g.choose_bots(None,p));g.play_chunk(c,p,1,0,1,i,a);"
            "print(time.perf_counter()-t)") % game_name
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as d:
        env_cold = dict(env, NUMBA_CACHE_DIR=d)
        cold = float(subprocess.run([sys.executable, "-c", code], env=env_cold, capture_output=True,
                                    text=True, check=True).stdout.strip())
        warm = float(subprocess.run([sys.executable, "-c", code], env=env_cold, capture_output=True,
                                    text=True, check=True).stdout.strip())
    return {"cold_s": round(cold, 2), "warm_s": round(warm, 2)}


def _tree_rss(pid: int) -> int:
    """Resident memory (bytes) of a process and all its descendants (psutil)."""
    import psutil
    try:
        root = psutil.Process(pid)
        procs = [root] + root.children(recursive=True)
    except psutil.Error:
        return 0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:      # ended meanwhile
            continue
    return total


def end_to_end(games="1e6", extra=(), game="puluc") -> tuple[float, int]:
    """Wall seconds and peak resident memory (process tree) of `sim GAME --games N`."""
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "sim", game, "--games", games, "-q", "--out", d,
                              *extra], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak = 0
        while p.poll() is None:
            peak = max(peak, _tree_rss(p.pid))
            time.sleep(0.2)
        if p.returncode != 0:
            raise RuntimeError(p.stderr.read().decode()[-2000:])
        return time.perf_counter() - t, peak


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=None, help="games to measure (default: all)")
    ap.add_argument("--quick", action="store_true", help="shorter measurements, no 1e8-game run")
    ap.add_argument("--skip-big", action="store_true", help="skip the 1e8-game memory run")
    args = ap.parse_args(argv)
    seconds = 1.0 if args.quick else 3.0
    jobs = os.cpu_count() or 1
    machine = machine_info()
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUT_DIR / f"bench-{stamp}.jsonl"
    rows = []

    def emit(rec):
        rec = {"time": stamp, "sim_version": __version__, "cores_available": jobs,
               "machine": machine["processor"], "python": machine["python"],
               "numba": machine["numba"], "numpy": machine["numpy"], **rec}
        rows.append(rec)
        with open(path, "a") as f:
            f.write(json.dumps(rec) + "\n")
        shown = {k: v for k, v in rec.items() if k in ("game", "config", "impl", "cores", "games_per_s",
                                                       "moves_per_s", "iterations_per_s",
                                                       "iterations_per_game", "ratio", "seconds", "target",
                                                       "cold_s", "warm_s", "peak_rss_mb", "kernel_s", "command_s",
                                                       "after_games_s")}
        print(json.dumps(shown), flush=True)

    for name in args.games or names():
        game = get(name)
        configs = game.bench or ({"label": "default", "players": game.default_players},)
        for cfg in configs:
            n = _size_for(game, cfg, seconds)
            g1, m1, _, iters = _kernel_rate(game, cfg, n)
            base = {"game": name, "game_version": game.version, "config": cfg["label"],
                    "players": cfg.get("players", game.default_players), "bots": cfg.get("bots")}
            rec = {**base, "impl": "numba kernel", "cores": 1, "games": n,
                   "games_per_s": round(g1) if g1 >= 100 else round(g1, 2),
                   "moves_per_s": round(m1) if m1 else None, "target": cfg.get("target")}
            if iters is not None:
                rec["iterations_per_s"] = round(iters * g1 / n)
                rec["iterations_per_game"] = round(iters / n, 1)
            emit(rec)
            if jobs > 1 and cfg.get("parallel", True) and not cfg.get("one_core"):
                gj, mj, sec = _parallel_rate(game, cfg, n * jobs, jobs)
                emit({**base, "impl": "numba kernel", "cores": jobs, "games": n * jobs,
                      "games_per_s": round(gj), "moves_per_s": round(mj) if mj else None,
                      "ratio": round(gj / g1, 2), "ratio_of": f"{jobs} cores / 1 core"})
            ref_n = 300 if args.quick else 1000
            if "search" in str(cfg.get("bots")):
                ref_n = 20
            ref_n = min(ref_n, cfg.get("ref_games", ref_n))
            got = _reference_rate(game, cfg, ref_n)
            if got:
                rr, how, nref = got
                emit({**base, "impl": "pure-Python reference" if how == "play" else
                      "pure-Python reference, replaying the kernel's games (rules, no bots)",
                      "cores": 1, "games": nref, "games_per_s": round(rr, 1),
                      "ratio": round(g1 / rr, 1),
                      "ratio_of": f"kernel / pure-Python {how}, one core"})
        cs = cold_start(name)
        emit({"game": name, "impl": "cold start (compile) vs warm cache", **cs})
    if "puluc" in (args.games or names()):
        e2e, peak = end_to_end("1e6")
        emit({"game": "puluc", "impl": "sim puluc --games 1e6 end to end (warm cache)",
              "cores": jobs, "seconds": round(e2e, 2), "peak_rss_mb": round(peak / 2**20),
              "target": {"seconds": 20}})
        # the whole command against one core running the bare kernel on the same games, in
        # turns (bench/e2e.py): the work around the games shows as the ratio (#26)
        got = against_kernel.compare("puluc", 1_000_000, jobs=min(jobs, 2), reps=1 if args.quick else 3)
        emit({"game": "puluc", "impl": f"sim puluc --games 1e6 --jobs {got['jobs']} against the bare kernel "
              "on 1 core (game.play_chunk, same games)", "cores": got["jobs"], **got,
              "ratio_of": "command wall / kernel", "target": {"ratio": 1.25, "after_games_s": 1.0}})
        if not (args.quick or args.skip_big):
            big, peak = end_to_end("1e8", ("--no-raw",))
            emit({"game": "puluc", "impl": "sim puluc --games 1e8 --no-raw (merged statistics only)",
                  "cores": jobs, "seconds": round(big, 1), "peak_rss_mb": round(peak / 2**20),
                  "target": {"peak_rss_mb": 1024}})
    if "balam" in (args.games or names()) and not args.quick:
        e2e, peak = end_to_end("1e6", game="balam")
        emit({"game": "balam", "impl": "sim balam --games 1e6 end to end (warm cache)",
              "cores": jobs, "seconds": round(e2e, 2), "peak_rss_mb": round(peak / 2**20),
              "target": {"seconds": 180, "peak_rss_mb": 2048}})
    (OUT_DIR / "latest.jsonl").write_text(path.read_text())
    print()
    print(table(rows, machine))
    print(f"\nwritten: {path}")


def table(rows, machine) -> str:
    out = [f"Machine: {machine['processor']}, {machine['cores']} cores, Python {machine['python']}, "
           f"numba {machine['numba']}", "",
           "| game | configuration | implementation | cores | games/s | moves/s | ratio |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if "games_per_s" in r:
            out.append(f"| {r['game']} | {r.get('config', '')} | {r['impl']} | {r.get('cores', '')} | "
                       f"{r['games_per_s']:,} | {('{:,}'.format(r['moves_per_s']) if r.get('moves_per_s') else '')} | "
                       f"{(str(r['ratio']) + 'x ' + r.get('ratio_of', '')) if r.get('ratio') else ''} |")
        elif "kernel_s" in r:
            out.append(f"| {r['game']} | | {r['impl']} | {r['cores']} | {r['command_s']} s ({r['to_games_end_s']} s "
                       f"to the last chunk, {r['after_games_s']} s after it) against {r['kernel_s']} s | | "
                       f"{r['ratio']}x {r['ratio_of']} |")
        elif "cold_s" in r:
            out.append(f"| {r['game']} | | first result in a new process | 1 | cold cache {r['cold_s']} s, "
                       f"warm cache {r['warm_s']} s | | |")
        elif "seconds" in r:
            mem = f", peak memory {r['peak_rss_mb']} MB" if r.get("peak_rss_mb") else ""
            out.append(f"| {r['game']} | | {r['impl']} | {r['cores']} | {r['seconds']} s{mem} | | |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
