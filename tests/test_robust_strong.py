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


def test_a_cannot_tell_under_a_capped_strong_condition_asks_for_strong_games():
    """More --games cannot settle a condition stopped at its cap: the verdict says so and the
    command it gives raises --strong-games (and --games only for the conditions that need it)."""
    from analysis.robust_verdict import rerun_command, verdict
    spec = {"key": "edge", "label": "first-player edge", "rate": True, "signed": True, "unit": ""}
    base = {"v": 0.08, "lo": 0.06, "hi": 0.10, "n": 20000}
    wide = {"label": "search (all seats)", "kind": "bots", "assumption": "bots", "n": 2000, "v": 0.05,
            "lo": -0.01, "hi": 0.11, "s": -0.03, "s_lo": -0.09, "s_hi": 0.03, "vr": 1.0, "stopped": False,
            "same": False, "limit": 2000}
    v = verdict(spec, base, [wide], 0.02)
    assert v["kind"] == "cannot tell"
    assert "played 2,000 games (their cap: --strong-games sets it)" in v["text"]
    assert v["strong_games_needed"] > 2000 and v["games_needed"] != v["games_needed"]   # NaN: --games is enough
    cmd = rerun_command("sim robust balam --games 20000", v["games_needed"], v["strong_games_needed"])
    assert cmd.startswith("sim robust balam --games 20000 --strong-games ")
    assert rerun_command("sim robust balam --strong-games=300", 5000, 900) == \
        "sim robust balam --strong-games=900 --games 5000"
    assert rerun_command("sim robust balam", float("nan")) is None


def test_a_log_hears_the_time_left_by_cost_not_by_games(toy, monkeypatch):
    """Progress lines on a stderr that is not a terminal give the time left reckoned by each
    arm's cost (the capped strong conditions are dear and come first), not the games' own
    extrapolation, which would overstate it."""
    import io

    import sim.parallel as P
    out = io.StringIO()
    made = []

    class Log(P.LineProgress):
        def __init__(self, total, desc, initial=0):
            super().__init__(total, desc, initial, every=0.0, stream=out)
            made.append(self)

    monkeypatch.setattr(P, "LineProgress", Log)
    monkeypatch.setattr(P, "logging_progress", lambda: True)
    import sim.runner
    monkeypatch.setattr(sim.runner, "LineProgress", Log, raising=False)
    monkeypatch.setattr(sim.runner, "logging_progress", lambda: True)
    robust("toy", 800, jobs=1, early_stop=False, progress=False, combine=False, chunk_size=None)
    lines = out.getvalue().splitlines()
    assert made and lines and all("left" in x for x in lines[:-1])
    assert made[0].left is not None
