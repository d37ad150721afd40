"""Learned values (sim/learn.py, issue #46) on the toy game (tests/toy_game/features.py): the
whole path in a few seconds, training, the key, the store and its faults, and leaf=model."""
from __future__ import annotations

import numpy as np
import pytest

import sim.games
from sim import learn
from sim.params import UsageError


@pytest.fixture
def toy(monkeypatch, tmp_path):
    monkeypatch.setitem(sim.games.REGISTRY, "toy", "tests.toy_game")
    monkeypatch.setenv(learn.ENV_DIR, str(tmp_path / "models"))
    monkeypatch.setattr(learn, "_MEMO", {})
    return sim.games.get("toy")


def _train(toy, rules=None, **kw):
    lines = []
    m = learn.model_for(toy, rules or {}, 2, note=lines.append, **{"games": 200, **kw})
    return m, lines


def test_training_on_the_toy_game_says_what_it_does_and_keeps_the_model(toy):
    m, lines = _train(toy)
    assert len(lines) == 2
    assert lines[0].startswith("training a value model for toy (2 players, base rules): 200 games by random")
    assert "about" in lines[0]
    assert lines[1].startswith("value model trained: ") and "held-out log loss" in lines[1]
    assert m.meta["games"] == 200 and m.meta["positions"] > 0 and m.path is not None
    # the model learned something: better than each seat's base rate on games it never saw
    assert m.meta["log_loss"] < m.meta["log_loss_base"] - 0.05
    # the second ask finds it (kept on disk: a fresh process reads the file) and says nothing
    learn._MEMO.clear()
    again, lines2 = _train(toy)
    assert lines2 == [] and again.key == m.key
    assert np.array_equal(again.mp, m.mp) and np.array_equal(again.ms, m.ms)


def test_the_key_changes_with_a_rule_a_default_and_the_training(toy):
    base, _ = learn.training_plan(toy, {}, 2, games=200)
    same, _ = learn.training_plan(toy, {"track": 12}, 2, games=200)   # the default, given
    assert learn.model_key(base) == learn.model_key(same)
    assert base["rules"] == {"track": 12, "horizon": 40}              # every rule, defaults included
    keys = {learn.model_key(base)}
    for kw in ({"rules": {"track": 13}}, {"rules": {"horizon": 41}}, {"players": 3}, {"seed": 2},
               {"games": 201}, {"bots": "runner"}, {"per_game": 5}):
        rest = {k: v for k, v in kw.items() if k not in ("rules", "players")}
        plan, _ = learn.training_plan(toy, kw.get("rules", {}), kw.get("players", 2), **{"games": 200, **rest})
        keys.add(learn.model_key(plan))
    assert len(keys) == 8


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other key", "checksum"])
def test_a_damaged_model_file_is_refused_in_one_line_and_trained_again(toy, damage):
    m, _ = _train(toy)
    path = m.path
    data = open(path, "rb").read()
    if damage == "garbage":
        open(path, "wb").write(b"not a model at all")
    elif damage == "truncated":
        open(path, "wb").write(data[: len(data) // 2])
    else:
        z = dict(np.load(path))
        if damage == "other key":
            import json
            meta = json.loads(str(z["meta"][()]))
            meta["key"] = "0" * 64
            z["meta"] = np.array(json.dumps(meta))
        else:
            z["mp"] = z["mp"] + 1.0
        with open(path, "wb") as f:
            np.savez(f, **z)
    learn._MEMO.clear()
    again, lines = _train(toy)
    assert lines[0].startswith(f"model file {path} is damaged (") and lines[0].endswith("): training it again")
    assert "\n" not in lines[0] and len(lines) == 3
    assert np.array_equal(again.mp, m.mp)                  # the same training, the same model
    learn._MEMO.clear()
    assert _train(toy)[1] == []                            # and the file is whole again


def test_an_unwritable_model_folder_trains_for_this_process_only(toy, monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(learn.ENV_DIR, str(blocker / "models"))
    m, lines = _train(toy)
    assert m.path is None and len(lines) == 3 and "cannot be kept" in lines[2]


def test_the_exported_model_is_scikit_learns_and_is_calibrated_on_held_out_games(toy):
    m, _ = _train(toy, games=400)
    t = m.test
    assert t["y"].size == m.meta["positions_test"] > 100
    # the held-out games were never fitted on: every game of the held-out part is >= 17 mod 20
    from sklearn.calibration import calibration_curve
    y = (t["y"] > 0.5).astype(int)
    frac, mean = calibration_curve(y, t["p"], n_bins=5, strategy="quantile")
    # calibration within 0.12 in every fifth of the predictions (about 100 positions each:
    # 2.5 standard errors of a share near 1/2)
    assert np.max(np.abs(frac - mean)) < 0.12


def test_leaf_model_attaches_the_model_to_the_context_and_the_manifest_names_it(toy):
    from sim.runner import execute, make_spec
    lines = []
    spec = make_spec("toy", 60, {}, "careful:leaf=model,random", 2, note=lines.append)
    assert spec.model is not None and spec.model["games"] == 400      # the module's TRAIN_GAMES
    assert spec.ctx[3].size and spec.ctx[3][0] == 4
    assert spec.fingerprint()["model"] == spec.model["key"]
    assert len(lines) == 2
    plain = make_spec("toy", 60, {}, "careful,random", 2)
    assert plain.model is None and plain.ctx[3].size == 0 and "model" not in plain.fingerprint()
    # a choice setting reaches the kernel as its index
    ids, par = toy.bot_arrays(spec.bots)
    assert par[0].tolist() == [1.0, 1.0] and par[1].tolist() == [0.0, 0.0]
    res = execute(spec, jobs=1)
    assert res.manifest["model"]["key"] == spec.model["key"]
    # the model-guided bot learned that running is better: it beats the random bot
    assert res.summary.win[0] / res.summary.n > 0.6


def test_a_variant_under_other_rules_gets_its_own_model(toy):
    from analysis.experiment_runs import build_arms
    arms, _ = build_arms(toy, [("base", {}), ("long", {"track": 20})], "careful:leaf=model,random", 2, 1, 40)
    assert len(arms) == 4 and all(a.spec.model for a in arms)       # the swapped arms too
    assert len({a.spec.model["key"] for a in arms}) == 2
    assert arms[2].spec.ctx[0] == 20 and arms[2].spec.ctx[3].size


def test_leaf_model_is_refused_where_the_game_learns_nothing(toy, monkeypatch):
    import dataclasses
    plain = dataclasses.replace(toy, learn=None)
    with pytest.raises(UsageError, match="learns no value model"):
        learn.model_for(plain, {}, 2)
    with pytest.raises(UsageError, match="cannot use the model they train"):
        learn.training_plan(toy, {}, 2, bots="careful:leaf=model")
