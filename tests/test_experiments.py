"""sim compare / sweep / skill: same seeds, paired statistics, SPRT, reports."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analysis.experiment_report import compare_table, pairs_table
from sim.cli import cli
from analysis.experiment_runs import compare, load_variants_file, parse_sweep, parse_variant, sweep
from analysis.skill_runs import skill
from sim.games import get
from sim.params import UsageError
from sim.runner import execute
from sim.spec import make_spec


def test_parse_variant_and_file(tmp_path):
    assert parse_variant("base:") == ("base", {})
    assert parse_variant("nine:track=9,exit=pile") == ("nine", {"track": "9", "exit": "pile"})
    with pytest.raises(UsageError):
        parse_variant("track=9")
    f = tmp_path / "v.toml"
    f.write_text('[variants.base]\n[variants.nine]\ntrack = 9\n[variants.table]\ncast_table = [5, 1, 2, 3, 4]\n')
    assert load_variants_file(f) == [("base", {}), ("nine", {"track": 9}),
                                     ("table", {"cast_table": "5,1,2,3,4"})]
    f.write_text("not toml [")
    with pytest.raises(UsageError, match="not valid TOML"):
        load_variants_file(f)


def test_parse_sweep_ranges_lists_and_errors():
    g = get("puluc")
    assert parse_sweep(["track=7..11"], g) == [("track", [7, 8, 9, 10, 11])]
    assert parse_sweep(["track=7..15:4", "exit=any,pile"], g) == [("track", [7, 11, 15]),
                                                                  ("exit", ["any", "pile"])]
    assert parse_sweep(["lot_p=0.3..0.5:0.1"], g)[0][1] == pytest.approx([0.3, 0.4, 0.5])
    with pytest.raises(UsageError, match="did you mean 'track'"):
        parse_sweep(["trak=7..9"], g)
    with pytest.raises(UsageError, match="must be in 4..40"):
        parse_sweep(["track=2..9"], g)
    with pytest.raises(UsageError, match="empty"):
        parse_sweep(["track=9..7"], g)


def test_compare_arms_equal_independent_runs_on_the_same_seed():
    res = compare("puluc", [("base", {}), ("nine", {"track": 9})], 3000, seed=8, jobs=1, chunk_size=700)
    for k, rules in enumerate([{}, {"track": 9}]):
        run = execute(make_spec("puluc", 3000, rules, None, None, 8), jobs=1, progress=False,
                      rows="memory")
        assert res.summaries[k].to_dict() == run.summary.to_dict()
        # the per-metric sums and the paired differences agree with the rows
        fp = np.where(run.frame["first_player"] == 0, run.frame["win_0"], run.frame["win_1"])
        assert res.stats["sum"][k, 0] == pytest.approx(fp.sum())
    base = execute(make_spec("puluc", 3000, {}, None, None, 8), jobs=1, progress=False).frame
    nine = execute(make_spec("puluc", 3000, {"track": 9}, None, None, 8), jobs=1, progress=False).frame
    d = nine["casts"].to_numpy(float) - base["casts"].to_numpy(float)
    m = res.manifest["metrics"].index("casts")
    assert res.stats["dsum"][1, m] == pytest.approx(d.sum())
    assert res.stats["dsum2"][1, m] == pytest.approx((d * d).sum())
    tab = compare_table(res)
    row = tab[(tab["key"] == "casts") & (tab["variant"] == "nine")].iloc[0]
    assert row["diff"] == pytest.approx(d.mean())
    assert row["diff_lo"] < d.mean() < row["diff_hi"] and row["p"] < 1e-6


def test_compare_is_the_same_whatever_jobs_and_chunks():
    a = compare("puluc", [("base", {}), ("pile", {"exit": "pile"})], 4000, bots="greedy,random",
                seed=3, jobs=1, chunk_size=4000)
    b = compare("puluc", [("base", {}), ("pile", {"exit": "pile"})], 4000, bots="greedy,random",
                seed=3, jobs=2, chunk_size=333)
    for k in ("sum", "sum2", "dsum", "dsum2", "pent"):
        assert np.allclose(a.stats[k], b.stats[k], rtol=1e-12, atol=1e-9), k
    # different bots in the two seats: every game also played with the seats swapped
    assert [x.label for x in a.arms] == ["base", "base (seats swapped)", "pile", "pile (seats swapped)"]
    pt = pairs_table(a)
    assert pt["pairs"].tolist() == [4000, 4000]
    assert (pt.iloc[:, 3] > 0.6).all()  # greedy scores well over half against random


def test_sprt_stops_early_on_a_real_difference_and_runs_to_the_end_without_one():
    # exit=pile leaves about 5% of games stuck at the cast cap: counted as losses, the first
    # player's win rate falls by ~2.5 points (H1); the default metric, the first player score,
    # counts them as the fair share and is not moved by them (H0)
    res = compare("puluc", [("base", {}), ("pile", {"exit": "pile"})], 200_000, seed=1, jobs=1,
                  chunk_size=2000, sprt_d=0.01, sprt_metric="first player wins")
    assert res.manifest["stopped_by_sprt"] and res.manifest["games_completed"] < 200_000
    assert res.sprt[2 if len(res.arms) > 2 else 1].decision == "H1"
    score = compare("puluc", [("base", {}), ("pile", {"exit": "pile"})], 200_000, seed=1, jobs=1,
                    chunk_size=2000, sprt_d=0.01)
    assert score.manifest["sprt"]["metric"] == "first player score"
    assert score.manifest["stopped_by_sprt"] and score.sprt[1].decision == "H0"
    same = compare("puluc", [("base", {}), ("same", {"cap": 240})], 4000, seed=1, jobs=1,
                   chunk_size=1000, sprt_d=0.05)
    # identical rules: every paired difference is 0, the test accepts H0 once allowed to decide
    assert same.sprt[1].decision == "H0"


def test_sweep_and_skill():
    res = sweep("puluc", ["track=5..9:2"], 2000, seed=2, jobs=1)
    # the reference is the rulebook's track (11), played too because the range lacks it
    assert [v[0] for v in res.variants] == ["track=11", "track=5", "track=7", "track=9"]
    assert res.manifest["sweep_reference"] == {"label": "track=11", "added": True}
    sk = skill("puluc", ["random", "greedy"], 1000, seed=2, jobs=1)
    assert sk["bt"]["ratings"][1] > sk["bt"]["ratings"][0] + 100
    assert sk["games"][0, 1] == sk["games"][1, 0] == 2000


def test_cli_compare_sweep_skill_write_reports(tmp_path):
    r = CliRunner().invoke(cli, ["compare", "puluc", "--games", "2000", "--variant", "base:",
                                 "--variant", "nine:track=9", "--jobs", "1", "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "c" / "index.html").read_text()
    assert "differences.png" in page and "Method" in page and "p-value" in page
    assert (tmp_path / "c" / "report-standalone.html").is_file()
    assert json.loads((tmp_path / "c" / "manifest.json").read_text())["kind"] == "compare"
    r = CliRunner().invoke(cli, ["sweep", "puluc", "--param", "track=7..9", "--games", "500",
                                 "--jobs", "1", "-q", "--out", str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "s" / "sweep_first_player_wins.png").is_file()
    r = CliRunner().invoke(cli, ["skill", "puluc", "--bots", "random,greedy", "--games", "300",
                                 "--jobs", "1", "-q", "--out", str(tmp_path / "k")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "k" / "skill_matrix.png").is_file()


@pytest.mark.parametrize("args, message", [
    (["compare", "puluc", "--variant", "base:"], "at least two --variant"),
    (["compare", "puluc", "--variant", "a:", "--variant", "b:trak=9"], "did you mean 'track'"),
    (["compare", "puluc", "--variant", "a:", "--variant", "a:track=9"], "names must differ"),
    (["compare", "puluc", "--variant", "a:", "--variant", "b:track=9", "--sprt", "--sprt-metric", "x"],
     "--sprt-metric must be one of"),
    (["compare", "puluc", "--variant", "a:", "--variant", "b:track=9", "--backend", "spark"],
     "unknown backend"),
    (["sweep", "puluc"], "at least one --param"),
    (["sweep", "puluc", "--param", "track"], "NAME=RANGE"),
    (["skill", "puluc", "--bots", "random"], "at least two bots"),
    (["compare", "chess", "--variant", "a:"], "unknown game"),
])
def test_experiment_bad_input(args, message, tmp_path):
    r = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "x"), "--jobs", "1"])
    assert r.exit_code == 2, r.output
    assert r.output.startswith("sim: error:") and message in r.output


def test_observational_card_impact_equals_the_rows():
    from analysis.impact import observational
    from sim.summary import Summary
    games = [n for n in ("batam", "balam") if n in __import__("sim.games", fromlist=["x"]).names()]
    if not games:
        pytest.skip("no registered game records card draws")
    g = get(games[0])
    run = execute(make_spec(g, 3000, None, None, None, 5), jobs=1, progress=False, rows="memory")
    df = run.frame
    S = Summary.from_frame(df, g)
    _close(S.to_dict(), run.summary.to_dict())
    obs = observational(S, g.seat_names(S.players))
    card = g.events[0]
    drew = df[f"{card}_0"] > 0
    row = obs[(obs["card"] == card) & (obs["seat"] == g.seat_names(S.players)[0])].iloc[0]
    assert row["games drew"] == int(drew.sum())
    if drew.any() and (~drew).any():
        assert row["win rate drew"] == pytest.approx(df.loc[drew, "win_0"].astype(float).mean())
        assert row["win rate not"] == pytest.approx(df.loc[~drew, "win_0"].astype(float).mean())
    # the regression from merged moments equals least squares on the rows
    X = np.column_stack([np.ones(len(df))] + [df[f"{e}_0"].to_numpy(float) for e in g.events])
    y = df["win_0"].to_numpy(float)
    beta = np.linalg.lstsq(X, y, rcond=None)[0]
    got = obs[obs["seat"] == g.seat_names(S.players)[0]]["per card"].to_numpy()
    if np.linalg.matrix_rank(X) == X.shape[1]:
        assert got == pytest.approx(beta[1:], abs=1e-8)


def _close(a, b):
    """Equal up to float rounding (fractional shared wins are summed in another order)."""
    if isinstance(a, dict):
        assert set(a) == set(b)
        for k in a:
            _close(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
    elif isinstance(a, float) or isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-9, abs=1e-9)
    else:
        assert a == b


def test_causal_impact_removes_the_card_on_the_same_seeds(tmp_path):
    from analysis.experiment_runs import impact
    if "batam" not in __import__("sim.games", fromlist=["x"]).names():
        pytest.skip("batam not registered")
    res = impact("batam", "pirate_0", "remove", 2000, workdir=tmp_path, seed=3, jobs=1)
    assert [v[0] for v in res.variants] == ["base", "pirate_0 removed"]
    written = list(tmp_path.glob("batam-tiles-without-*.toml"))
    assert written and "pirate" not in written[0].read_text().split("\n", 1)[1]
    k = res.summaries[0].events["names"].index("compass_pirate")
    assert res.summaries[0].events["drew_n"][k].sum() > 0      # the base game meets the pirate
    assert res.summaries[1].events["drew_n"][k].sum() == 0     # without it, never
    with pytest.raises(UsageError, match="did you mean 'pirate_0'"):
        impact("batam", "pirat", "remove", 100, workdir=tmp_path, jobs=1)
    neutral = impact("batam", "pirate_0", "neutral", 2000, workdir=tmp_path, seed=3, jobs=1)
    assert neutral.summaries[1].events["drew_n"][k].sum() > 0   # neutral: met, to no effect


@pytest.mark.parametrize("args", [
    ["compare", "puluc", "--games", "1000", "--variant", "a:", "--variant", "b:track=9",
     "--bots", "greedy,random"],
    ["sweep", "puluc", "--param", "track=7..8", "--games", "500"],
    ["skill", "puluc", "--bots", "random,greedy", "--games", "200"],
    ["impact", "batam", "--card", "pirate_0", "--games", "300"],
])
def test_sim_report_rebuilds_experiment_reports(args, tmp_path):
    if args[1] not in __import__("sim.games", fromlist=["x"]).names():
        pytest.skip("game not registered")
    out = tmp_path / "x"
    r = CliRunner().invoke(cli, args + ["--jobs", "1", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    before = (out / "index.html").read_text()
    (out / "index.html").unlink()
    r = CliRunner().invoke(cli, ["report", str(out)])
    assert r.exit_code == 0, r.output
    after = (out / "index.html").read_text()
    def strip(h):
        return [x for x in h.splitlines() if "Manifest" not in x and "seconds" not in x]
    assert strip(after) == strip(before)


# ----------------------------------------------------------------- pairing, sides, draws
def test_pairing_is_measured_against_the_rows():
    """Same-outcome counts, same-length counts and the variance reduction equal what the
    per-game rows of the two arms give."""
    from analysis.experiment_report import pairing_table
    res = compare("puluc", [("base", {}), ("pile", {"exit": "pile"})], 3000, seed=5, jobs=1,
                  chunk_size=800)
    a = execute(make_spec("puluc", 3000, {}, None, None, 5), jobs=1, progress=False).frame
    b = execute(make_spec("puluc", 3000, {"exit": "pile"}, None, None, 5), jobs=1, progress=False).frame
    assert res.stats["same"].tolist() == [3000, int((a["winner"] == b["winner"]).sum())]
    assert res.stats["same_length"].tolist() == [3000, int((a["casts"] == b["casts"]).sum())]
    # headline: first player's score, a game without a winner counting one half
    def score(df):
        w = np.where(df["first_player"] == 0, df["win_0"], df["win_1"]).astype(float)
        return np.where(df["winner"] < 0, 0.5, w)
    x, y = score(a), score(b)
    vr = (x.var(ddof=1) + y.var(ddof=1)) / (y - x).var(ddof=1)
    m = res.manifest["metrics"].index("first player score")
    assert res.stats["dsum"][1, m] == pytest.approx((y - x).sum())
    pt = pairing_table(res)
    assert pt["variance reduction"][0] == pytest.approx(vr, rel=1e-9)
    assert pt["same outcome"][0] == pytest.approx((a["winner"] == b["winner"]).mean())
    tab = compare_table(res)
    row = tab[(tab["key"] == "casts") & (tab["variant"] == "pile")].iloc[0]
    c0, c1 = a["casts"].to_numpy(float), b["casts"].to_numpy(float)
    assert row["vr"] == pytest.approx((c0.var(ddof=1) + c1.var(ddof=1)) / (c1 - c0).var(ddof=1), rel=1e-9)


def test_weak_pairing_is_said_in_words_and_strong_pairing_is_not(tmp_path):
    from analysis.experiment_report import compare_text, write_compare_report
    weak = compare("puluc", [("base", {}), ("reverse", {"drag": "reverse"})], 3000, seed=2, jobs=1)
    strong = compare("puluc", [("base", {}), ("cap150", {"cap": 150})], 3000, seed=2, jobs=1)
    phrase = "pairing is weak here: the arms share little; intervals are close to those of independent runs"
    assert phrase in compare_text(weak)
    assert phrase in write_compare_report(weak, tmp_path / "w").read_text()
    assert "pairing is weak" not in compare_text(strong)
    page = write_compare_report(strong, tmp_path / "s").read_text()
    assert "pairing is weak" not in page and "same outcome as the reference" in page


def test_draws_do_not_move_the_first_player_score(tmp_path):
    """exit=pile leaves games stuck at the cast cap; counted as losses they move the first
    player's win rate, counted as the fair share they leave the first player score alone; the
    draw and horizon rates lead the terminal summary, the forest plot and 'In short'."""
    from analysis.experiment_report import compare_headline, compare_text, write_compare_report
    res = compare("puluc", [("base", {}), ("pile", {"exit": "pile"})], 6000, seed=1, jobs=1)
    tab = compare_table(res)
    def get_row(k):
        return tab[(tab["key"] == k) & (tab["variant"] == "pile")].iloc[0]
    draws = get_row("no winner")["diff"]
    assert draws > 0.03
    wins, score = get_row("first player wins"), get_row("first player score")
    assert wins["diff"] == pytest.approx(score["diff"] - draws / 2, abs=1e-12)
    # draws pull the win rate down by half their rise more than the score
    assert wins["diff"] < score["diff"] - 0.015
    text = compare_text(res)
    assert "games without a winner (draws)" in text and "games stopped by the horizon" in text
    assert "among decisive games" in text and "bots: random, random" in text
    short = " ".join(compare_headline(res))
    assert "games without a winner (draws): 0.00% → " in short and "depend on the bots" in short
    page = write_compare_report(res, tmp_path).read_text()
    assert "In short" in page and "Among decisive games" in page


def test_first_player_score_and_outcomes_per_side():
    from analysis.experiment_metrics import metric_names, outcome_codes, per_game_metrics
    g = get("maya")
    names = metric_names(g, 4)
    assert [n for n in names if n.startswith("win ")] == ["win 0", "win 1"]   # two teams
    assert "score 3" in names
    win = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [.5, .5, .5, .5], [0, 0, 0, 0]], np.float32)
    cols = {"win": win, "first_player": np.array([1, 1, 0, 2]), "capped": np.zeros(4, bool),
            "exchanges": np.arange(4)}
    for h in g.highlight:
        cols[h] = np.zeros((4, 4))
    V = per_game_metrics(g, 4, cols)
    assert V[names.index("first player score")].tolist() == [0, 1, .5, .5]
    assert V[names.index("first player wins")].tolist() == [0, 1, .5, 0]
    assert V[names.index("decisive")].tolist() == [1, 1, 0, 0]
    assert V[names.index("no winner")].tolist() == [0, 0, 0, 1]
    assert V[names.index("win 0")].tolist() == [1, 0, .5, 0]
    assert outcome_codes(g, 4, cols).tolist() == [1, 2, 3, 0]


def test_fingerprints_and_pairing_counts_do_not_depend_on_chunks():
    a = compare("puluc", [("base", {}), ("nine", {"track": 9})], 2500, seed=3, jobs=1, chunk_size=2500)
    b = compare("puluc", [("base", {}), ("nine", {"track": 9})], 2500, seed=3, jobs=1, chunk_size=333)
    for k in ("same", "same_length", "fingerprint"):
        assert a.stats[k].tolist() == b.stats[k].tolist(), k
    assert a.stats["fingerprint"][0] != a.stats["fingerprint"][1]
    same = compare("puluc", [("base", {}), ("again", {"cap": 240})], 1000, seed=3, jobs=1)
    assert same.stats["fingerprint"][0] == same.stats["fingerprint"][1]


def test_compare_of_four_player_maya_is_per_team(tmp_path):
    from analysis.experiment_report import compare_text, write_compare_report
    res = compare("maya", [("base", {}), ("h", {"horizon": 200})], 600, players=4, seed=1, jobs=1)
    assert res.manifest["teams"] and res.manifest["side_of"] == [0, 1, 0, 1]
    tab = compare_table(res)
    assert "win rate, team North + South" in set(tab["metric"])
    assert "first-team score (no winner = fair share)" in set(tab["metric"])
    assert "1st team" in compare_text(res) or "among decisive" not in compare_text(res)
    assert "A team game" in write_compare_report(res, tmp_path).read_text()


def test_sweep_names_the_bots_and_draws_a_fair_line_per_side(tmp_path):
    from analysis.experiment_report import write_compare_report
    res = sweep("puluc", ["cap=60..120:60"], 800, seed=2, jobs=1)
    page = write_compare_report(res, tmp_path).read_text()
    assert "depend on the bots" in page
    assert (tmp_path / "sweep_first_player_score.png").is_file()


# ------------------------------------------------------------------------------- skill
def test_skill_ratings_unbounded_and_identical_bots_synthetic():
    from analysis.skill_runs import identical_bots, skill_ratings
    names = ["a", "b", "c"]
    played = np.array([[0, 100, 100], [100, 0, 100], [100, 100, 0]], float)
    wins = np.array([[0, 60, 100], [40, 0, 100], [0, 0, 0]], float)  # c never scores
    bt, unbounded, prior = skill_ratings(wins, played, names)
    assert unbounded == {2: "never won"} and np.isnan(bt["ratings"][2])
    assert bt["ratings"][0] > bt["ratings"][1] and prior == 0.0
    wins2 = np.array([[0, 100, 100], [0, 0, 55], [0, 45, 0]], float)  # a wins every game
    bt2, unb2, _ = skill_ratings(wins2, played, names)
    assert unb2 == {0: "won every game"} and np.isfinite(bt2["ratings"][1:]).all()
    # fingerprints: b and c play alike against a, on each side, and against each other
    prints = {(0, 1, 0): 5, (1, 0, 0): 7, (0, 2, 0): 5, (2, 0, 0): 7, (1, 2, 0): 9, (2, 1, 0): 9}
    assert identical_bots(prints, 3, 2) == [[1, 2]]
    prints[(2, 1, 0)] = 10
    assert identical_bots(prints, 3, 2) == []


def test_skill_finds_identical_bots_and_says_unbounded(tmp_path):
    from analysis.experiment_report import skill_text, write_skill_report
    # without compass tiles there is no treasure to hunt: the hunter plays the heuristic's games
    sk = skill("batam", ["heuristic", "hunter", "random"], 200, players=2, seed=1, jobs=1,
               rules={"compass": "none"})
    assert [sorted(sk["bots"][i] for i in g) for g in sk["identical"]] == [["heuristic", "hunter"]]
    text = skill_text(sk)
    assert "heuristic and hunter played identical games" in text
    if sk["unbounded"]:
        assert "unbounded" in text
    page = write_skill_report(sk, tmp_path).read_text()
    assert "played identical games" in page and "depend on the bots" in page
    saved = json.loads((tmp_path / "skill.json").read_text())
    assert saved["identical"] == sk["identical"] and saved["end_reasons"]["0"].startswith("a ship")


def test_skill_parses_bot_settings_as_a_run_does(tmp_path):
    r = CliRunner().invoke(cli, ["skill", "balam", "--bots", "merchant:plans=2,w_war=3,random",
                                 "--games", "40", "--jobs", "1", "--out", str(tmp_path / "k")])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "k" / "skill.json").read_text())
    assert data["bots"] == ["merchant:plans=2,w_war=3", "random"]
    assert "w_war=3" in r.output
    man = json.loads((tmp_path / "k" / "manifest.json").read_text())  # as every result folder has
    assert (man["kind"], man["game"], man["players"], man["games_each"]) == ("skill", "balam", 2, 40)
    assert man["bots"] == data["bots"] and "skill.json" in man["files"] and man["game_version"]


def test_experiment_manifests_name_the_end_reasons():
    res = compare("puluc", [("base", {}), ("nine", {"track": 9})], 200, seed=1, jobs=1)
    assert res.manifest["end_reasons"] == {"0": "all enemy warriors killed", "1": "horizon reached: draw"}
    assert res.summaries[0].to_dict()["end_reasons"]["1"] == "horizon reached: draw"


def test_a_sweep_measures_from_the_rulebook_value_not_the_first_of_the_range():
    """track=7..15 holds the rulebook's 11: it becomes the reference (first), nothing is
    added, and every difference is from it; the report's first sentence says so."""
    from analysis.experiment_report import compare_headline
    from analysis.experiment_runs import sweep_variants
    g = get("puluc")
    variants, ref = sweep_variants(g, parse_sweep(["track=7..15:2"], g))
    assert [n for n, _ in variants] == ["track=11", "track=7", "track=9", "track=13", "track=15"]
    assert ref == {"label": "track=11", "added": False}
    res = sweep("puluc", ["track=9..13:2"], 1000, seed=3, jobs=1)
    assert res.variants[0][0] == "track=11" and len(res.variants) == 3
    tab = compare_table(res)
    row = tab[(tab["key"] == "first player score") & (tab["variant"] == "track=11")].iloc[0]
    assert row["diff"] != row["diff"] or row["diff"] == 0    # the reference has no difference
    head = compare_headline(res, tab)
    assert head[0].startswith("Every difference is measured from the rulebook's track=11 (one of the swept")


def test_a_grid_reference_holds_every_rulebook_value_and_the_fixed_rules():
    from analysis.experiment_runs import sweep_variants
    g = get("puluc")
    grid = parse_sweep(["track=7,9", "exit=any,pile"], g)
    variants, ref = sweep_variants(g, grid, {"warriors": "4"})
    exit_default = next(p.default for p in g.params if p.name == "exit")
    assert ref["added"] and variants[0][0] == f"track=11,exit={exit_default}"
    assert all(rules["warriors"] == "4" for _, rules in variants)
    assert len(variants) == 5
    with pytest.raises(UsageError, match="--set track and --param track are both given"):
        sweep_variants(g, parse_sweep(["track=7,9"], g), {"track": "9"})


def test_compare_and_sweep_take_set_for_every_variant(tmp_path):
    """--set holds a rule for every variant (a variant's own value wins)."""
    r = CliRunner().invoke(cli, ["compare", "puluc", "--games", "600", "--set", "warriors=3", "--set", "track=9",
                                 "--variant", "base:", "--variant", "long:track=13", "--jobs", "1", "-q",
                                 "--out", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    exp = json.loads((tmp_path / "c" / "experiment.json").read_text())
    changed = {n: ch for n, ch in exp["variants"]}
    assert changed["base"] == {"warriors": 3, "track": 9}
    assert changed["long"] == {"warriors": 3, "track": 13}
    r = CliRunner().invoke(cli, ["sweep", "puluc", "--param", "track=9,13", "--set", "warriors=3",
                                 "--games", "600", "--jobs", "1", "-q", "--out", str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    exp = json.loads((tmp_path / "s" / "experiment.json").read_text())
    assert [n for n, _ in exp["variants"]] == ["track=11", "track=9", "track=13"]
    assert all(ch["warriors"] == 3 for _, ch in exp["variants"])
    r = CliRunner().invoke(cli, ["sweep", "puluc", "--param", "track=9,13", "--set", "track=9",
                                 "--games", "600", "--jobs", "1", "-q", "--out", str(tmp_path / "s2")])
    assert r.exit_code != 0 and "both given" in r.output
