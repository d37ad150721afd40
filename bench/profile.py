"""Where a kernel spends its time: run it under `perf` with its jitted functions named.

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -F 2000 -o perf.data \\
        .venv/bin/python bench/profile.py balam --bots merchant --games 20000
    perf report -i perf.data --no-children --sort symbol

numba does not tell `perf` where its functions are, so after compiling (into an empty
cache directory: functions loaded from the cache have no LLVM module to read names
from) this writes /tmp/perf-PID.map, which `perf report` reads, then plays the games.
"""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numba.core.registry import CPUDispatcher  # noqa: E402

from sim.games import get  # noqa: E402
from sim.runner import execute  # noqa: E402
from sim.spec import make_spec  # noqa: E402


def write_perf_map(modules) -> int:
    syms = {}
    for mod in modules:
        for name in dir(mod):
            d = getattr(mod, name)
            if not isinstance(d, CPUDispatcher):
                continue
            for cres in d.overloads.values():
                lib = cres.library
                for f in lib._final_module.functions:
                    if f.is_declaration:
                        continue
                    try:
                        addr = lib.get_pointer_to_function(f.name)
                    except Exception:  # noqa: BLE001 - a symbol the library does not export
                        continue
                    if addr:
                        syms[addr] = f.name
    addrs = sorted(syms)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for i, a in enumerate(addrs):
            size = addrs[i + 1] - a if i + 1 < len(addrs) and addrs[i + 1] - a < 1 << 20 else 4096
            fh.write(f"{a:x} {size:x} {syms[a][:160]}\n")
    return len(addrs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--bots", default=None)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=20000)
    a = ap.parse_args(argv)
    game = get(a.game)
    execute(make_spec(game, 50, bots=a.bots, players=a.players, seed=1), jobs=1, progress=False,
            rows="none")
    pkg = importlib.import_module(f"sim.games.{game.name}")
    mods = [pkg] + [importlib.import_module(m.name) for m in
                    pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    n = write_perf_map(mods)
    if n == 0:
        print("no symbols: compile into an empty NUMBA_CACHE_DIR", file=sys.stderr)
    t = time.perf_counter()
    execute(make_spec(game, a.games, bots=a.bots, players=a.players, seed=1), jobs=1,
            chunk_size=a.games, progress=False, rows="none")
    print(f"{n} symbols; {a.games / (time.perf_counter() - t):,.0f} games/s under perf",
          file=sys.stderr)


if __name__ == "__main__":
    main()
