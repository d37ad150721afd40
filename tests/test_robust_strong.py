"""`sim robust`'s strong condition at a learned-value bot (issue #46): each rule set's bots read
that rule set's own model, the run names it, and a game whose strong play is costly plays its
strong conditions on fewer games (``Game.strong_games``, ``--strong-games``) while the others
play on to --games.  On the toy game (tests/toy_game: pure Python, a model in seconds)."""
from __future__ import annotations

import pytest

import sim.games
from analysis.robust_runs import _chunks, robust, strong_cap
from sim import learn
from sim.params import UsageError

STRONG = "careful:iters=3;leaf=model"
LABEL = "careful:iters=3,leaf=model"   # as a run's labels write it


@pytest.fixture
def toy(monkeypatch, tmp_path):
    monkeypatch.setitem(sim.games.REGISTRY, "toy", "tests.toy_game")
    monkeypatch.setenv(learn.ENV_DIR, str(tmp_path / "models"))
    monkeypatch.setattr(learn, "_MEMO", {})
    g = sim.games.get("toy")
    monkeypatch.setattr(g, "strength", (STRONG, "runner", "random"))
    monkeypatch.setattr(g, "strong_games", {2: 300})
    return g


def test_a_plan_ends_a_chunk_where_a_condition_stops():
    assert _chunks(1000, 400) == [(0, 400), (400, 400), (800, 200)]
    assert _chunks(1000, 400, {300, 1000}) == [(0, 300), (300, 100), (400, 400), (800, 200)]
    assert _chunks(1000, 400, {400}) == _chunks(1000, 400)


def test_the_cap_comes_from_the_game_or_the_option_and_only_below_games(toy):
    assert strong_cap(toy, 2, 1000) == 300
    assert strong_cap(toy, 2, 300) is None and strong_cap(toy, 2, 200) is None
    assert strong_cap(toy, 3, 1000) is None                  # not declared for three players
    assert strong_cap(toy, 3, 1000, strong_games=50) == 50
    with pytest.raises(UsageError, match="at least 1"):
        strong_cap(toy, 2, 1000, strong_games=0)


def test_strong_conditions_stop_at_their_cap_read_their_rules_model_and_the_run_names_it(toy):
    lines = []
    learn.model_for(toy, {"track": 9}, 2, note=lines.append)   # one model kept; the other trained
    res = robust("toy", 800, variants=[("base", {}), ("short", {"track": 9})], jobs=1,
                 early_stop=False, progress=False)
    games = {c.label: int(c.stats["n"]) for c in res.conditions}
    strong = [c for c in res.conditions if c.strong]
    assert {c.label for c in strong} == {f"{LABEL} (all seats)", f"{LABEL} vs runner (every seating)",
                                         f"{LABEL} vs random (every seating)"}
    assert all(games[c.label] == 300 and c.limit == 300 for c in strong)
    assert all(n == 800 for label, n in games.items() if LABEL not in label)
    assert res.manifest["strong_games"] == 300 and res.manifest["baseline_games"] == 800
    # each variant's strong play read the model of its own rules (trained where none was kept)
    models = res.manifest["strong_play"]["models"]
    assert [m["variant"] for m in models] == ["base", "short"]
    assert models[0]["key"] != models[1]["key"]
    assert models[1]["key"] == learn.model_for(toy, {"track": 9}, 2).key
    assert models[0]["key"] == learn.model_for(toy, {}, 2).key
    from analysis.robust import robust_text
    text = robust_text(res)
    assert "learned value it read (short): " in text and models[1]["key"][:12] in text


def test_without_a_cap_every_condition_plays_every_game(toy, monkeypatch):
    monkeypatch.setattr(toy, "strong_games", {})
    res = robust("toy", 400, jobs=1, early_stop=False, progress=False, combine=False)
    assert {int(c.stats["n"]) for c in res.conditions} == {400}
    assert res.manifest["strong_games"] is None
    # a single game's run names the model its strong bots read, with no variant name
    assert [m["variant"] for m in res.manifest["strong_play"]["models"]] == [""]
