"""sim strength: a search budget climbed until the verdict for strong play settles
(analysis/converge.py), on the pure-Python toy game (its 'careful' bot runs with probability
iters / (iters + 1): more budget plays better, with diminishing returns)."""
import json
import math

import pytest
from click.testing import CliRunner

import sim.games
from analysis import converge as C
from analysis.ladder import Rung
from sim.cli import cli
from sim.params import UsageError


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(sim.games.REGISTRY, "toy", "tests.toy_game")
    return sim.games.get("toy")


def _rung(first, n=10_000, length=6.0, sd=2.0, bot="b"):
    return Rung(bot, n, first, first - .01, first + .01, [first, 1 - first], [0, 0], [1, 1],
                0.0, 0.0, length, sd)


def test_a_step_settles_only_when_every_interval_lies_inside_the_tolerance():
    same = C.moves_between(_rung(0.60), _rung(0.605), ["Red", "Blue"], 0.02, 5.0, "turns")
    assert all(m.within for m in same)                 # +0.5 points, interval about ±1.4
    few = C.moves_between(_rung(0.60, n=500), _rung(0.605, n=500), ["Red", "Blue"], 0.02, 5.0, "turns")
    assert not few[0].within and few[0].lo < 0 < few[0].hi   # no move shown, but not pinned down
    moved = C.moves_between(_rung(0.60), _rung(0.64), ["Red", "Blue"], 0.02, 5.0, "turns")
    assert not moved[0].within and moved[0].lo > 0
    longer = C.moves_between(_rung(0.6), _rung(0.6, length=6.6), ["Red", "Blue"], 0.02, 5.0, "turns")
    assert [m.name for m in longer if not m.within] == ["mean length"]   # 10% longer, tolerance 5%


def test_elo_gain_from_the_lower_rungs_score():
    g, lo, hi = C.elo_gain(0.36, 10_000)
    assert g == pytest.approx(-400 * math.log10(0.36 / 0.64)) and lo < g < hi
    assert C.elo_gain(0.5, 100)[0] == 0.0
    assert C.elo_gain(0.0, 100)[0] == math.inf


def test_the_toy_climb_settles_with_shrinking_gains(toy):
    res = C.climb("toy", "careful:iters=1", 8000, rungs=6, seed=3, jobs=1)
    assert res.stop == "settled" and res.settled_at is not None
    k = res.settled_at
    assert res.budgets[:k + 2] == [4 ** i for i in range(k + 2)]
    assert all(m.within for m in res.moves[-1])
    assert not all(m.within for m in res.moves[0])     # iters 1 -> 4 moves the length a lot
    gains = [g for g, _, _ in res.gains]
    assert gains[0] > 100 and gains == sorted(gains, reverse=True)
    text = C.verdict(res)
    assert text[0].startswith(f"Settled at iters={res.budgets[k]}: 4 times the budget")
    assert "diminishing returns" in text[-1]


def test_too_few_games_is_not_settled_and_says_how_many_would(toy):
    res = C.climb("toy", "careful:iters=64", 1500, rungs=2, seed=3, jobs=1)
    assert res.stop == "rungs" and res.settled_at is None
    text = " ".join(C.verdict(res))
    assert "Not settled: the 2 rungs asked for were played" in text
    assert "not yet a verdict for strong play" in text and "games per rung would fit it inside" in text


def test_the_time_budget_stops_before_a_rung_that_would_overrun_it(toy):
    ticks = iter(range(0, 10_000, 30))                 # every reading of the clock: 30 s later
    res = C.climb("toy", "careful:iters=1", 300, rungs=5, minutes=2, seed=1, jobs=1,
                  clock=lambda: next(ticks))
    assert res.stop == "time" and len(res.ladder.rungs) < 5
    assert "the time budget would have been overrun" in C.verdict(res)[0]


def test_bad_climbs_are_refused(toy):
    with pytest.raises(UsageError, match="no iters-like parameter"):
        C.climb("toy", "runner", 100)
    with pytest.raises(UsageError, match="--factor must be above 1"):
        C.climb("toy", "careful", 100, factor=1.0)
    with pytest.raises(UsageError, match="--minutes must be positive"):
        C.climb("toy", "careful", 100, minutes=0)
    with pytest.raises(UsageError, match="one rung only"):
        C.climb("toy", "careful:iters=100000", 100)


def test_cli_writes_the_report_and_sim_report_rebuilds_it(toy, tmp_path):
    out = tmp_path / "st"
    r = CliRunner().invoke(cli, ["strength", "toy", "--bot", "careful:iters=2", "--rungs", "3", "--games", "400",
                                 "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "Not settled" in r.output or "Settled at" in r.output
    data = json.loads((out / "strength.json").read_text())
    assert data["budgets"][:2] == [2, 8] and data["kind"] == "strength"
    assert json.loads((out / "manifest.json").read_text())["kind"] == "strength"
    page = (out / "index.html").read_text()
    assert "Each step of the budget" in page and "iters 2 -&gt; 8" in page
    back = C.from_json(data)
    assert C.verdict(back) == C.verdict(C.from_json(json.loads(json.dumps(C.to_json(back)))))
    (out / "index.html").unlink()
    r = CliRunner().invoke(cli, ["report", str(out)])
    assert r.exit_code == 0, r.output
    assert "Each step of the budget" in (out / "index.html").read_text()


def test_a_depth_climbs_by_adding(toy):
    res = C.climb("toy", "careful:iters=2", 300, add=3, rungs=3, seed=1, jobs=1)
    assert res.budgets == [2, 5, 8]
    with pytest.raises(UsageError, match="--add must be positive"):
        C.climb("toy", "careful", 100, add=0)


def test_the_api_climbs_as_the_command_does(toy, tmp_path):
    import sim as S
    res = S.strength("toy", "careful:iters=2", rungs=3, games=400, jobs=1, seed=1)
    direct = C.climb("toy", "careful:iters=2", 400, rungs=3, jobs=1, seed=1)
    assert res.verdicts == C.verdict(direct)
    assert res.summary["budgets"] == [2, 8, 32][:len(direct.budgets)] and res.summary["stop"] == direct.stop
    assert set(res.frame["headline"]) >= {"first side's score", "mean length"}
    assert (tmp_path / "r" / "index.html") == res.write_report(tmp_path / "r")
    assert (tmp_path / "r" / "strength.json").is_file()


def test_a_gain_that_shrinks_but_stays_large_is_not_called_diminishing(toy):
    res = C.climb("toy", "careful:iters=1", 300, rungs=3, seed=3, jobs=1)
    res.gains = [(150.0, 140.0, 160.0), (96.0, 85.0, 107.0)]
    assert "still large: more budget still buys playing strength" in C.verdict(res)[-1]
    res.gains = [(150.0, 140.0, 160.0), (20.0, 10.0, 30.0)]
    assert C.verdict(res)[-1].endswith("diminishing returns.")


def test_every_rung_keeps_the_bots_other_settings_whichever_separator(toy):
    # 'careful:iters=2;leaf=model' once climbed 'careful:iters=2, 8, ...' with the formula: the
    # rung's label split the settings on ',' only, and dropped the whole ';'-joined text
    for bot, sep in (("careful:iters=2;leaf=model", ";"), ("careful:leaf=model,iters=2", ",")):
        name, values, ladder, _ = C.rung_budgets(toy, bot, None, 4.0, None, 3, 2)
        assert name == "iters" and values == [2, 8, 32]
        assert all(sep in x for x in ladder)
        chosen = [dict(toy.choose_bots(x, 2)[0].settings) for x in ladder]
        assert [c["iters"] for c in chosen] == [2, 8, 32]
        assert all(c["leaf"] == "model" for c in chosen)


def test_a_climb_at_leaf_model_names_the_model_in_its_report_and_manifest(toy, tmp_path, monkeypatch):
    from sim import learn
    monkeypatch.setenv(learn.ENV_DIR, str(tmp_path / "models"))
    monkeypatch.setattr(learn, "_MEMO", {})
    out = tmp_path / "s"
    r = CliRunner().invoke(cli, ["strength", "toy", "--bot", "careful:iters=2;leaf=model", "--games", "200",
                                 "--rungs", "2", "--jobs", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    key = learn.model_for(toy, {}, 2).key
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["bots"] == ["careful:iters=2;leaf=model", "careful:iters=8;leaf=model"]
    assert manifest["model"]["key"] == key and manifest["model"]["games"] == 400
    assert json.loads((out / "strength.json").read_text())["extra"]["model"]["key"] == key
    assert f"learned model {key}" in r.output
    # a climb without the model names none
    plain = C.climb("toy", "careful:iters=2", 100, rungs=2, seed=1, jobs=1)
    assert "model" not in plain.extra and not any("learned model" in x for x in C.verdict(plain))


def test_the_head_to_head_games_are_their_own_count(toy, tmp_path):
    """--pair-games sets the games of each head-to-head seating (the Elo gain); by default the
    rungs' games up to PAIR_GAMES.  The rungs (the verdict) are the same games either way."""
    few = C.climb("toy", "careful:iters=2", 400, rungs=2, seed=1, jobs=1, pair_games=100)
    full = C.climb("toy", "careful:iters=2", 400, rungs=2, seed=1, jobs=1)
    assert [p[3] for p in few.ladder.pairs] == [2 * 100] and [p[3] for p in full.ladder.pairs] == [2 * 400]
    assert few.extra["pair_games"] == 100 and full.extra["pair_games"] == 400
    assert [(r.n, r.first_share, r.length) for r in few.ladder.rungs] == \
        [(r.n, r.first_share, r.length) for r in full.ladder.rungs]
    assert C.pair_count(10_000) == C.PAIR_GAMES == 4000 and C.pair_count(10_000, "2e3") == 2000
    r = CliRunner().invoke(cli, ["strength", "toy", "--bot", "careful:iters=2", "--rungs", "2", "--games", "400",
                                 "--pair-games", "150", "--jobs", "1", "--out", str(tmp_path / "st")])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "st" / "strength.json").read_text())
    assert data["extra"]["pair_games"] == 150 and C.from_json(data).ladder.pairs[0][3] == 300
    bad = CliRunner().invoke(cli, ["strength", "toy", "--bot", "careful:iters=2", "--games", "400", "--pair-games", "0",
                                   "--jobs", "1",
                                   "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "pair" in bad.output and not (tmp_path / "bad").exists()
