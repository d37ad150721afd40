"""Row hashes: prove a refactoring left every game bit-identical.

For each game: every bot with all seats equal at every player count, then every
alternative of every reading and variant parameter (default bots and players); each
configuration plays ``--games`` games (seed 1) through the kernel and hashes every
result column.  Write the hashes before a change, check them after:

    python bench/rowhash.py balam --write /tmp/balam.json
    python bench/rowhash.py balam --check /tmp/balam.json

The same configurations, fewer games each, are checked in (``--fixtures`` writes
``tests/fixtures/behaviour/GAME.json`` with the game's version; ``make fixtures``), and
``tests/test_behaviour_fixtures.py`` plays them again in every ``make test``: a change
that moves any game's rows without a version bump fails there.
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
    cols = game.play_chunk(ctx, players, seed, 0, games, ids, par)
    h = hashlib.sha256()
    for k in sorted(cols):
        a = np.ascontiguousarray(cols[k])
        h.update(k.encode())
        h.update(str(a.dtype).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


FIXTURES = ROOT / "tests" / "fixtures" / "behaviour"
FIXTURE_GAMES, FIXTURE_GAMES_SEARCH = 200, 6   # games per configuration (a search seat is slow)


def fixture_games(game, cfg) -> int:
    """Games a checked-in configuration plays: fewer where a seat is a search bot."""
    players = game.check_players(cfg["players"])
    labels = [c.bot.name for c in game.choose_bots(cfg["bots"], players)]
    return FIXTURE_GAMES_SEARCH if "search" in labels else FIXTURE_GAMES


def fixture_hashes(game) -> dict:
    """{configuration key: [games, row hash]} of every configuration (:func:`configs`)."""
    out = {}
    for cfg in configs(game):
        key = json.dumps(cfg, sort_keys=True, default=str)
        try:
            n = fixture_games(game, cfg)
            out[key] = [n, row_hash(game, cfg, n)]
        except Exception as e:  # a reading that the game refuses in this setup
            out[key] = [0, f"error: {type(e).__name__}: {e}"]
    return out


PLAYTHROUGHS = ROOT / "tests" / "fixtures" / "playthroughs"


def playthrough(game, players: int) -> str:
    """Game 0 of seed 1 at ``players`` with the default bots, as ``sim show`` tells it."""
    from analysis.show import show_game, show_text
    return show_text(show_game(game, 1, 0, players=players)) + "\n"


def write_fixtures(todo) -> None:
    """tests/fixtures/behaviour/GAME.json: the game's version and every configuration's hash."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name in todo:
        game = get(name)
        data = {"game": name, "version": game.version, "seed": 1, "hashes": fixture_hashes(game)}
        (FIXTURES / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"{name} version {game.version}: {len(data['hashes'])} configurations -> "
              f"{(FIXTURES / f'{name}.json').relative_to(ROOT)}")
        PLAYTHROUGHS.mkdir(parents=True, exist_ok=True)
        for p in game.players:
            (PLAYTHROUGHS / f"{name}-{p}p.txt").write_text(playthrough(game, p))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_", nargs="*", metavar="GAME", default=None)
    ap.add_argument("--games", type=int, default=500, help="games per configuration")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write")
    g.add_argument("--check")
    g.add_argument("--fixtures", action="store_true",
                   help="regenerate the checked-in behaviour fixtures (tests/fixtures/behaviour/)")
    a = ap.parse_args(argv)
    todo = a.games_ or names()
    if a.fixtures:
        write_fixtures(todo)
        return 0
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
