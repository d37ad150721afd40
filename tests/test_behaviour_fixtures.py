"""Checked-in behaviour: every game's rows and a readable playthrough per player count.

``tests/fixtures/behaviour/GAME.json`` holds the game's version and the row hash of every
configuration ``bench/rowhash.py`` plays (every bot with all seats equal at every player
count, a mixed table, every alternative of every reading and variant, a short horizon),
a few hundred games each (a few where a seat is a search bot).  ``tests/fixtures/
playthroughs/GAME-Np.txt`` is game 0 of seed 1 with the default bots as ``sim show`` tells
it (OpenSpiel's playthroughs are the model).  A change that moves a game's rows, or its
story, fails here until it is declared: bump the game's ``version`` (its rules or bots
changed on purpose: results saved before are of another game) and regenerate with
``make fixtures``; a change that should not move them (a refactoring) must leave them."""
import json
import sys
from pathlib import Path

import pytest

from sim.games import get, names

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import rowhash  # noqa: E402  (bench/rowhash.py: the configurations and the hash)

HOW = ("if the rules or bots changed on purpose, bump version in sim/games/{g}/__init__.py and "
       "regenerate with `make fixtures`; if not, this change moved games it should have left alone")


@pytest.mark.parametrize("name", names())
def test_the_games_rows_are_those_checked_in(name):
    game = get(name)
    saved = json.loads((rowhash.FIXTURES / f"{name}.json").read_text())
    assert saved["version"] == game.version, (
        f"{name} is version {game.version} but its fixtures are of version {saved['version']}: "
        "regenerate them with `make fixtures`")
    got = rowhash.fixture_hashes(game)
    assert set(got) == set(saved["hashes"]), (
        f"{name}: the configurations changed (a bot, reading or variant added or removed): "
        + HOW.format(g=name))
    bad = [f"  {k}: {saved['hashes'][k][1]} -> {got[k][1]}" for k in sorted(got) if got[k] != saved["hashes"][k]]
    assert not bad, (f"{name} version {game.version}: {len(bad)} of {len(got)} configurations play "
                     f"different games:\n" + "\n".join(bad[:10]) + "\n" + HOW.format(g=name))


@pytest.mark.parametrize("name, players", [(n, p) for n in names() for p in get(n).players])
def test_the_playthrough_is_the_one_checked_in(name, players):
    game = get(name)
    path = rowhash.PLAYTHROUGHS / f"{name}-{players}p.txt"
    want = path.read_text()
    got = rowhash.playthrough(game, players)
    if got != want:
        a, b = want.splitlines(), got.splitlines()
        k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        pytest.fail(f"{path.relative_to(ROOT)} differs from line {k + 1}:\n  saved: "
                    f"{a[k] if k < len(a) else '(end)'}\n  now:   {b[k] if k < len(b) else '(end)'}\n"
                    + HOW.format(g=name) + " (or the narration's wording changed: regenerate)")


def test_a_one_line_rule_change_is_caught(monkeypatch):
    """The check can fail: Puluc with a different default track plays other games."""
    game = get("puluc")
    saved = json.loads((rowhash.FIXTURES / "puluc.json").read_text())["hashes"]
    import dataclasses
    params = tuple(dataclasses.replace(p, default=9) if p.name == "track" else p for p in game.params)
    changed = dataclasses.replace(game, params=params)
    got = rowhash.fixture_hashes(changed)
    assert sum(got[k] != saved[k] for k in saved) >= len(saved) - 2
