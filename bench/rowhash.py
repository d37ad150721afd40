"""Row hashes: prove a refactoring left every game bit-identical.

For each game: every bot with all seats equal at every player count, then every
alternative of every reading and variant parameter (default bots and players); each
configuration plays ``--games`` games (seed 1) through the kernel and hashes every
result column.  Write the hashes before a change, check them after:

    python bench/rowhash.py balam --write /tmp/balam.json
    python bench/rowhash.py balam --check /tmp/balam.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from sim.games import get, names  # noqa: E402


def configs(game):
    out = []
    for p in game.players:
        for b in game.bots:
            out.append({"players": p, "bots": b.name, "rules": {}})
    if len(game.bots) > 1:  # mixed tables: every bot in a seat of its own
        for p in game.players:
            seats = [game.bots[s % len(game.bots)].name for s in range(p)]
            out.append({"players": p, "bots": ",".join(seats), "rules": {}})
    for par in game.params:
        alts = list(par.other_readings())
        if par.role == "variant" and par.kind == "int" and par.lo is not None and not alts:
            alts.append(int(par.lo))
        if par.role == "horizon":
            alts.append(max(1, int(par.default) // 4) if par.kind == "int" else par.default)
        for v in dict.fromkeys(alts):
            if v != par.default:
                out.append({"players": game.default_players, "bots": None, "rules": {par.name: v}})
    return out


def row_hash(game, cfg, games, seed=1):
    rules = game.resolve_rules(cfg["rules"])
    players = game.check_players(cfg["players"])
    ctx = game.prepare(rules, players)
    ids, par = game.bot_arrays(game.choose_bots(cfg["bots"], players))
    cols = game.run_chunk(ctx, players, seed, 0, games, ids, par)
    h = hashlib.sha256()
    for k in sorted(cols):
        a = np.ascontiguousarray(cols[k])
        h.update(k.encode())
        h.update(str(a.dtype).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_", nargs="*", metavar="GAME", default=None)
    ap.add_argument("--games", type=int, default=500, help="games per configuration")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write")
    g.add_argument("--check")
    a = ap.parse_args(argv)
    todo = a.games_ or names()
    got = {}
    for name in todo:
        game = get(name)
        for cfg in configs(game):
            key = f"{name} {json.dumps(cfg, sort_keys=True, default=str)}"
            try:
                got[key] = row_hash(game, cfg, a.games)
            except Exception as e:  # a reading that the game refuses in this setup
                got[key] = f"error: {type(e).__name__}: {e}"
    if a.write:
        Path(a.write).write_text(json.dumps({"games": a.games, "hashes": got}, indent=1))
        print(f"{len(got)} configurations hashed ({a.games} games each) -> {a.write}")
        return 0
    saved = json.loads(Path(a.check).read_text())
    if saved["games"] != a.games:
        print(f"the saved hashes are of {saved['games']} games a configuration: pass --games {saved['games']}")
        return 2
    bad = [k for k in got if saved["hashes"].get(k) != got[k]]
    for k in bad:
        print(f"DIFFERS: {k}: {saved['hashes'].get(k)} -> {got[k]}")
    print(f"{len(got) - len(bad)}/{len(got)} configurations bit-identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
