"""Learned values (sim/learn.py, issue #46) on the toy game (tests/toy_game/features.py): the
whole path in a few seconds, training, the key, the store and its faults, and leaf=model."""
from __future__ import annotations

import numpy as np
import pytest

import sim.games
from sim import fit, learn
from sim.params import UsageError
from sim.spec import make_spec


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


def test_a_game_may_name_the_models_its_training_fits(toy, monkeypatch):
    """Batam's search plays better with a logistic model than with the MLP of the smallest log
    loss: a features module's FIT_CANDIDATES is what is fitted, and part of the key."""
    mod = learn.features_module(toy)
    base, _ = learn.training_plan(toy, {}, 2, games=200)
    monkeypatch.setattr(mod, "FIT_CANDIDATES", (("logistic", {"C": 1.0}),), raising=False)
    own, _ = learn.training_plan(toy, {}, 2, games=200)
    assert own["model"]["candidates"] == [["logistic", {"C": 1.0}]]
    assert learn.model_key(own) != learn.model_key(base)
    m, _ = _train(toy)
    assert m.meta["kind"] == "logistic" and [c["kind"] for c in m.meta["candidates"]] == ["logistic"]


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
    from sim.runner import execute
    from sim.spec import make_spec
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
    from analysis.pages import bots_sentence
    assert f"Learned value (leaf=model): {spec.model['kind']} of 400 games" in bots_sentence(res.manifest)
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
    with pytest.raises(UsageError, match="learns no value model"):
        learn.model_for(plain, {}, 2, generation=2)
    # training bots read the first generation at most (their games teach the second)
    with pytest.raises(UsageError, match="the first generation of the value .*not leaf=model2"):
        learn.training_plan(toy, {}, 2, bots="careful:leaf=model2")
    # a game whose features module names no ITERATE_BOTS has no second generation
    monkeypatch.delattr(learn.features_module(toy), "ITERATE_BOTS")
    with pytest.raises(UsageError, match="learns no second generation"):
        make_spec("toy", 10, {}, "careful:leaf=model2,random", 2)
    # one table carries one model: seats reading two generations are refused in one line
    with pytest.raises(UsageError, match="different learned values"):
        make_spec("toy", 10, {}, "careful:leaf=model,careful:leaf=model2", 2)


def test_a_second_generation_learns_from_the_games_of_a_bot_that_reads_the_first(toy):
    """leaf=model2 (expert iteration's value step): the model refit on the games of the
    features module's ITERATE_BOTS, which read the first generation; the first is trained
    first where missing, its key is the second's teacher, and the run names the second."""
    from analysis.pages import bots_sentence
    from sim.runner import execute
    lines = []
    spec = make_spec("toy", 60, {}, "careful:leaf=model2,random", 2, note=lines.append)
    first = learn.model_for(toy, {}, 2)
    plan, _ = learn.training_plan(toy, {}, 2, generation=2)
    assert plan["teacher"] == first.key and "teacher" not in learn.training_plan(toy, {}, 2)[0]
    second = learn.model_for(toy, {}, 2, generation=2)
    assert second.key == learn.model_key(plan) == spec.model["key"] != first.key
    assert second.meta["generation"] == 2 and second.meta["teacher"] == first.key
    assert second.meta["games"] == 300 and second.meta["train_bots"] == ["careful:leaf=model"] * 2
    # both trainings said, the first generation's first (its bots play the second's games)
    assert len(lines) == 4
    assert lines[0].startswith("training a value model for toy (2 players, base rules): 400 games by random,")
    assert lines[2].startswith("training a value model for toy (2 players, base rules): 300 games by "
                               "careful:leaf=model (the second generation: their search reads the first)")
    # the same games as training_plan names: generation=2 is ITERATE_BOTS and ITERATE_GAMES
    assert learn.model_for(toy, {}, 2, bots="careful:leaf=model", games=300).key == second.key
    ids, par = toy.bot_arrays(spec.bots)
    assert par[0].tolist() == [1.0, 2.0]             # model2: the choice's index
    res = execute(spec, jobs=1)
    assert res.manifest["model"]["generation"] == 2
    words = bots_sentence(res.manifest)
    assert "Learned value (leaf=model2): " in words
    assert "(the second generation, from games of careful:leaf=model)" in words
    # learned from the games of a bot that runs, it still values running: it beats random
    assert res.summary.win[0] / res.summary.n > 0.6


def test_an_mlp_exports_to_the_kernels_format_exactly():
    from sklearn.preprocessing import StandardScaler
    from sim.value import pack, value_np
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 5)) * [1, 2, 3, 4, 5] + 7
    y = (rng.random(600) < 1 / (1 + np.exp(-(X[:, 0] - 7) + (X[:, 2] - 7) / 3))).astype(float)
    sc = StandardScaler().fit(X)
    Xr, lab, w = fit._rows(sc.transform(X), y)
    for name, kw in fit.CANDIDATES:
        est = fit._estimator(name, kw, 1)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(Xr, lab, sample_weight=w)
        mp, ms = pack(sc.mean_, sc.scale_, fit._layers(est))
        assert np.allclose(value_np(mp, ms, X), est.predict_proba(sc.transform(X))[:, 1], rtol=0, atol=1e-12)


def test_reliability_bins_as_scikit_learns_calibration_curve():
    from sklearn.calibration import calibration_curve
    rng = np.random.default_rng(5)
    p = rng.random(2000)
    y = (rng.random(2000) < p).astype(float)
    true, pred, n = fit.reliability(y, p, 10)
    t2, p2 = calibration_curve(y, p, n_bins=10, strategy="uniform")
    assert np.allclose(true, t2) and np.allclose(pred, p2) and n.sum() == 2000


def test_sim_learn_is_the_module_and_the_api_function(toy, tmp_path):
    import sim
    assert callable(sim.learn) and sim.learn.model_for is learn.model_for
    res = sim.learn("toy", games=200, jobs=1, out=str(tmp_path / "rep"))
    assert res.model.meta["games"] == 200 and "held-out log loss" in res.text
    assert {"index.html", "report-standalone.html", "reliability.png", "progress.png", "model.json"} <= \
        {p.name for p in (tmp_path / "rep").iterdir()}
    html = (tmp_path / "rep" / "index.html").read_text()
    assert res.model.key[:16] in html and "Reliability" in html
    assert "&lt;" not in html and "<h2>Method</h2>" in html   # no markup shown as text


def test_sim_learn_on_the_command_line(toy, tmp_path, monkeypatch):
    from click.testing import CliRunner
    from sim.cli import cli
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["learn", "toy", "--games", "200", "-j", "1", "--set", "track=10"])
    assert r.exit_code == 0, r.output
    assert "toy, 2 players, track=10: value model" in r.output and "training a value model" in r.output
    report = next((tmp_path / "reports").glob("toy-learn-*"))
    assert (report / "index.html").exists() and f"report: reports/{report.name}/index.html" in r.output
    r2 = CliRunner().invoke(cli, ["learn", "toy", "--games", "200", "--set", "track=10", "-q"])
    assert r2.exit_code == 0 and "training" not in r2.output and r2.output.startswith("report: ")


@pytest.mark.parametrize("args", [
    ["learn", "nosuch"], ["learn", "toy", "--games", "0"], ["learn", "toy", "--games", "lots"],
    ["learn", "toy", "--set", "track=1"], ["learn", "toy", "--set", "tarck=9"], ["learn", "toy", "--players", "5"],
    ["learn", "toy", "--bots", "careful:leaf=model2"], ["learn", "toy", "--bots", "nobody"],
    ["learn", "toy", "--generation", "3"], ["learn", "toy", "--generation", "2", "--bots", "random"],
    ["learn", "toy", "--seed", "-1"], ["learn", "toy", "-o", "afile"], ["learn", "toy", "-o", " "],
    ["learn", "toy", "--games", "5"],
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(toy, tmp_path, monkeypatch, args):
    from click.testing import CliRunner
    from sim.cli import cli
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("mine")
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.startswith("sim: error: ")]
    assert len(lines) == 1 and "Traceback" not in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    assert (tmp_path / "afile").read_text() == "mine"


@pytest.mark.slow
def test_puluc_samples_the_games_run_chunk_plays():
    """The sampler plays the same games (each game's outcome as run_chunk has it) and its
    features are one side's view: the two sides' rows of a position mirror each other."""
    from sim.games import get
    from sim.games.puluc import features as F
    g = get("puluc")
    ctx = g.prepare(g.resolve_rules({}), 2)
    ids, par = g.bot_arrays(g.choose_bots("search,greedy", 2))
    d = F.sample(ctx, 2, 11, 5, 60, ids, par, 4)
    cols = g.play_chunk(ctx, 2, 11, 5, 60, ids, par)
    got = np.full(60, -9.0)
    m = d["seat"] == 0
    got[d["game"][m] - 5] = d["outcome"][m]
    w = cols["winner"]
    assert np.array_equal(got, np.where(w < 0, 0.5, (w == 0).astype(float)))
    X = d["X"]
    assert X.shape[1] == F.n_features(2) and np.array_equal(d["seat"][0::2], np.zeros(len(X) // 2))
    T, n = F.MAX_TRACK, 11   # the planes' size, the track's length
    a, b = X[0::2], X[1::2]   # the same position from Jade's and Cinnabar's side
    back = list(range(n - 1, -1, -1))  # Jade's space i is Cinnabar's n - 1 - i
    for own, other in ((0, 2), (1, 3), (2, 0), (3, 1)):
        assert np.array_equal(a[:, own * T:own * T + n], b[:, other * T:other * T + n][:, back])
    assert not X[:, n:T].any()
    assert np.array_equal(a[:, 4 * T], b[:, 4 * T + 1]) and np.array_equal(a[:, 4 * T + 2], b[:, 4 * T + 3])
    assert np.array_equal(a[:, 4 * T + 4], 1 - b[:, 4 * T + 4])
    assert np.all((d["progress"] >= 0) & (d["progress"] <= 1)) and np.all(np.isfinite(d["baseline"]))


def test_a_compare_at_leaf_model_names_each_variants_model(toy):
    from analysis import experiment_runs as E
    from analysis.pages import bots_sentence
    res = E.compare("toy", [("base", {}), ("long", {"track": 20})], 200, bots="careful:leaf=model,random",
                    seed=3, jobs=1, backend="sequential", progress=False)
    vs = res.manifest["variants"]
    assert vs[0]["model"]["key"] != vs[1]["model"]["key"] and vs[1]["model"]["games"] == 400
    text = bots_sentence(res.manifest)      # what the compare's page says of its bots
    assert f"Learned value (leaf=model): base: {vs[0]['model']['kind']} of 400 games, held-out log loss" in text
    assert f"long: {vs[1]['model']['kind']} of 400 games" in text and f"key {vs[1]['model']['key'][:12]}" in text


def test_every_game_that_learns_keeps_the_contract():
    """Each game's features module (Game.learn) has what sim/learn.py reads; its training bots
    read no model; n_features is a positive count for every player count (nothing compiled)."""
    import importlib
    from sim.games import get, names
    learning = [get(n) for n in names() if get(n).learn]
    assert "puluc" in {g.name for g in learning}
    for g in learning:
        mod = importlib.import_module(g.learn)
        assert isinstance(mod.FEATURES_VERSION, int) and mod.FEATURES_VERSION >= 1, g.name
        for attr in ("sample", "attach_model", "features", "n_features"):
            assert callable(getattr(mod, attr)), (g.name, attr)
        for p in g.players:
            assert int(mod.n_features(p)) >= 1
            bots = g.choose_bots(mod.TRAIN_BOTS, p)
            assert not any(dict(c.settings).get("leaf") == "model" for c in bots), g.name
            if hasattr(mod, "ITERATE_BOTS"):   # the second generation's games read the first
                bots = g.choose_bots(mod.ITERATE_BOTS, p)
                assert {dict(c.settings).get("leaf") for c in bots} == {"model"}, g.name
