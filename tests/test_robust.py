"""sim robust: the verdict logic on synthetic inputs, the exact paired contrasts, the
conditions a game's declarations give, the worst-case pair, the early stop, the engine's
figures against independent runs, and the "How sure is this?" box's look-up."""
import math

import numpy as np
import pytest
from click.testing import CliRunner

from analysis import robust as AR
from sim.cli import cli
from sim.games import get
from sim.params import UsageError
from analysis.robust_runs import Condition, build_conditions, quantities, robust, worst_pair
from sim.runner import simulate

RATE = {"key": "edge", "label": "first-player edge", "rate": True, "signed": True, "unit": ""}
M = 0.01


def cond(label, v, half, s, s_half, kind="bots", assumption="bots", n=10_000):
    return {"label": label, "kind": kind, "assumption": assumption, "n": n, "v": v,
            "lo": v - half, "hi": v + half, "s": s, "s_lo": s - s_half, "s_hi": s + s_half,
            "same": False}


BASE = {"v": 0.10, "lo": 0.09, "hi": 0.11, "n": 10_000}   # a material edge of +10 points


# ------------------------------------------------------------------- verdict logic
def test_all_conditions_agree_holds_and_names_them():
    cs = [cond("greedy (all seats)", 0.12, 0.01, 0.02, 0.01),
          cond("exit=pile", 0.07, 0.01, -0.03, 0.005, "reading", "exit")]
    v = AR.verdict(RATE, BASE, cs, M)
    assert v["kind"] == "holds"
    assert [c["status"] for c in cs] == ["holds", "holds"]
    assert "greedy (all seats)" in v["text"] and "exit=pile" in v["text"]
    assert "+7.00 points to +12.00 points" in v["text"]


def test_sign_flip_depends_and_names_the_assumption():
    cs = [cond("priest (all seats)", -0.05, 0.01, -0.15, 0.01),
          cond("exit=pile", 0.11, 0.01, 0.01, 0.005, "reading", "exit")]
    v = AR.verdict(RATE, BASE, cs, M)
    assert cs[0]["status"] == "flips" and cs[1]["status"] == "holds"
    assert v["kind"] == "depends" and v["depends_on"] == ["the bots"]
    assert "priest (all seats) gives -5.00 points (flips it)" in v["text"]


def test_halving_and_doubling_depend():
    half = [cond("random (all seats)", 0.04, 0.01, -0.06, 0.008)]
    v = AR.verdict(RATE, BASE, half, M)
    assert half[0]["status"] == "halves" and v["kind"] == "depends"
    double = [cond("catastrophes=all", 0.25, 0.01, 0.15, 0.01, "reading", "catastrophes")]
    v = AR.verdict(RATE, BASE, double, M)
    assert double[0]["status"] == "doubles"
    assert v["depends_on"] == ["the reading of catastrophes"]
    # a swing that only reaches the halving line is not a halving: cannot tell
    edge = [cond("x", 0.055, 0.01, -0.045, 0.01)]
    assert AR.verdict(RATE, BASE, edge, M)["kind"] == "cannot tell"
    # the baseline's direction counts: a negative baseline halved by a positive swing
    neg = {"v": -0.10, "lo": -0.11, "hi": -0.09, "n": 10_000}
    c = [cond("y", -0.03, 0.01, 0.07, 0.01)]
    assert AR.verdict(RATE, neg, c, M)["kind"] == "depends" and c[0]["status"] == "halves"


def test_interval_crossing_zero():
    # its own interval crosses 0 and its swing straddles the halving line: cannot tell,
    # with the games that would settle it from the half-width and the distance
    c = [cond("search (all seats)", 0.01, 0.02, -0.04, 0.02)]
    v = AR.verdict(RATE, BASE, c, M)
    assert c[0]["status"] == "unclear" and v["kind"] == "cannot tell"
    assert v["games_needed"] == math.ceil(10_000 * (0.02 / 0.01) ** 2)
    assert "40,000 games" in v["text"]
    # crossing 0 but with the swing wholly below -half of the baseline: it halves it
    c = [cond("search (all seats)", 0.01, 0.02, -0.09, 0.01)]
    assert AR.verdict(RATE, BASE, c, M)["kind"] == "depends"
    assert c[0]["status"] == "halves"


def test_too_few_games_cannot_tell_with_the_games_that_would_settle_it():
    wide = {"v": 0.006, "lo": -0.004, "hi": 0.016, "n": 2_000}   # neither none nor material
    cs = [cond("greedy (all seats)", 0.02, 0.01, 0.014, 0.01)]   # within the baseline's reach
    v = AR.verdict(RATE, wide, cs, M)
    assert v["kind"] == "cannot tell" and v["baseline_status"] == "unclear"
    # |v| < m: the interval must fit within (-m, m): half-width 0.01 against 0.004 to spare
    assert v["games_needed"] == math.ceil(2_000 * (0.01 / 0.004) ** 2)
    assert "no condition can be judged" in v["text"]


def test_an_unclear_baseline_still_shows_a_condition_that_moves_it_beyond_its_reach():
    wide = {"v": 0.008, "lo": -0.002, "hi": 0.018, "n": 10_000}
    far = cond("search (all seats)", 0.045, 0.01, 0.037, 0.013)     # swing 2.4 to 5.0 points
    near = cond("greedy (all seats)", 0.03, 0.01, 0.023, 0.013)     # swing 1.0 to 3.6: unclear
    v = AR.verdict(RATE, wide, [far, near], M)
    assert far["status"] == "moves" and near["status"] == "unclear"
    assert v["kind"] == "depends" and v["depends_on"] == ["the bots"]
    assert "too wide an interval to judge the baseline itself" in v["text"]
    v = AR.verdict(RATE, wide, [near], M)
    assert v["kind"] == "cannot tell" and "no condition can be judged" in v["text"]


def test_baseline_without_a_material_edge():
    none = {"v": 0.002, "lo": -0.003, "hi": 0.007, "n": 50_000}
    ok = [cond("greedy (all seats)", -0.001, 0.004, -0.003, 0.004),
          cond("search (all seats)", 0.004, 0.004, 0.002, 0.004)]
    v = AR.verdict(RATE, none, ok, M)
    assert v["kind"] == "holds" and "no effect of 1 point or more" in v["text"]
    shows = ok + [cond("lot_p=0.55", 0.03, 0.005, 0.028, 0.004, "reading", "lot_p")]
    v = AR.verdict(RATE, none, shows, M)
    assert v["kind"] == "depends" and shows[2]["status"] == "material"
    assert v["depends_on"] == ["the reading of lot_p"]
    # a real but negligible edge whose interval reaches past the threshold: cannot tell
    c = [cond("z", 0.006, 0.005, 0.004, 0.004)]
    assert AR.verdict(RATE, none, c, M)["kind"] == "cannot tell"


def test_unchanged_condition_holds_and_says_so():
    same = cond("stack_own=piles", 0.10, 0.01, 0.0, 0.0, "reading", "stack_own")
    same["same"] = True
    v = AR.verdict(RATE, BASE, [same], M)
    assert same["status"] == "same" and v["kind"] == "holds"
    assert "no game changed" in v["text"]


def test_means_use_one_percent_of_the_level():
    spec = {"key": "length", "label": "game length", "rate": False, "signed": False, "unit": "casts"}
    assert AR.materiality(spec, 80.0) == pytest.approx(0.8)
    assert AR.materiality(RATE, 0.5) == 0.01


# ----------------------------------------------------------------- exact contrasts
def test_linear_contrasts_are_exact_paired_statistics():
    rng = np.random.default_rng(3)
    n = 500
    lay = {"mode": "game", "parts": 1, "quantities": AR.quantity_names(2, False), "sides": 2,
           "fair": 0.5, "score": False}
    Q = len(lay["quantities"])
    base = rng.normal(size=(Q, n))
    condq = base + rng.normal(scale=0.3, size=(Q, n)) + 0.2
    Z = np.vstack([base, condq])
    st = {"n": n, "s": Z.sum(axis=1), "S2": Z @ Z.T}
    w = np.zeros(Q)
    w[AR.quantity_names(2, False).index("length")] = 1
    d = AR.lin(st, AR.contrast(lay, 2, 1, w) - AR.contrast(lay, 2, 0, w))
    x = condq[-1] - base[-1]
    se = x.std(ddof=1) / math.sqrt(n)
    assert d["mean"] == pytest.approx(x.mean())
    assert d["hi"] - d["mean"] == pytest.approx(AR.Z95 * se)
    # a comparison: variant part minus reference part, then the condition minus the baseline
    lay2 = dict(lay, mode="compare", parts=2)
    parts = [rng.normal(size=(Q, n)) for _ in range(4)]
    Z = np.vstack(parts)
    st = {"n": n, "s": Z.sum(axis=1), "S2": Z @ Z.T}
    dd = AR.lin(st, AR.contrast(lay2, 2, 1, w) - AR.contrast(lay2, 2, 0, w))
    x = (parts[3][-1] - parts[2][-1]) - (parts[1][-1] - parts[0][-1])
    assert dd["mean"] == pytest.approx(x.mean())
    assert dd["se"] == pytest.approx(x.std(ddof=1) / math.sqrt(n))
    assert AR.identical({"n": n, "s": np.concatenate([base.sum(1)] * 2),
                         "S2": np.block([[base @ base.T] * 2] * 2)})
    assert not AR.identical(st)


def test_tornado_draws_one_bar_per_condition(tmp_path, monkeypatch):
    from analysis import plots
    captured = {}
    monkeypatch.setattr(plots, "save", lambda fig, path: captured.setdefault("fig", fig))
    swings = [0.03, -0.05, 0.01, -0.02, 0.04]
    rows = [cond(f"c{k}", 0.1 + x, 0.01, x, 0.01) for k, x in enumerate(swings)]
    v = AR.verdict(RATE, BASE, rows, M)
    labels = AR.tornado({"spec": RATE, "base": BASE, "rows": rows, "verdict": v, "m": M},
                        tmp_path / "t.png", "t")
    ax = captured["fig"].axes[0]
    from matplotlib.patches import Rectangle
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(bars) == 5 and len(labels) == 5
    assert labels == ["c1", "c4", "c0", "c3", "c2"]   # largest swing first, either sign
    widths = sorted(round(abs(b.get_width()), 6) for b in bars)
    assert widths == sorted(round(100 * abs(x), 6) for x in swings)


# ----------------------------------------------------------------------- conditions
def test_conditions_from_the_declarations():
    g = get("batam")
    rules = g.resolve_rules({})
    conds, skipped = build_conditions(g, 4, rules, ["heuristic"] * 4)
    labels = [c.label for c in conds]
    strength = [g.choose_bots(b, 4)[0].label for b in g.bot_strength()]
    # every bot with all seats equal but the baseline's, then the strongest against each other
    assert strength[0] == "search:iters=25" and strength[1] == "heuristic"
    assert [c.label for c in conds if c.label.endswith("(all seats)")] == [
        f"{b} (all seats)" for b in strength if b != "heuristic"]
    vs = [c for c in conds if "among" in c.label]
    assert len(vs) == len(strength) - 1
    assert vs[0].seatings == [[strength[0] if s == k else strength[1] for s in range(4)] for k in range(4)]
    readings = [p for p in g.params if p.role == "reading"]
    assert len([c for c in conds if c.kind == "reading"]) == sum(len(p.other_readings()) for p in readings)
    assert "bonus_window=after" in labels
    # a compared variant's own parameter is not varied
    conds, skipped = build_conditions(g, 4, rules, ["heuristic"] * 4, exclude={"bonus_window"})
    assert "bonus_window=after" not in [c.label for c in conds]
    assert ("reading bonus_window", "the compared variant sets it") in skipped


def test_setup_randomness_and_a_missing_declaration():
    g = get("maya")
    conds, skipped = build_conditions(g, 2, g.resolve_rules({}), ["random"] * 2)
    setup = [c for c in conds if c.kind == "setup"]
    assert [c.label for c in setup] == ["setup=turns"] and setup[0].rules == {"setup": "turns"}
    b = get("balam")
    conds, skipped = build_conditions(b, 2, b.resolve_rules({}), ["merchant"] * 2)
    if "layout" in [p.name for p in b.params]:
        assert "layout=fixed" in [c.label for c in conds]
    else:  # the random layout lands from another branch: skipped, and said so
        assert any(w == "setup layout" for w, _ in skipped)


def test_worst_pair_takes_the_two_readings_that_push_the_same_way():
    conds = [Condition("a=1", "reading", "a", {"a": 1}, None),
             Condition("a=2", "reading", "a", {"a": 2}, None),
             Condition("b=1", "reading", "b", {"b": 1}, None),
             Condition("c=1", "reading", "c", {"c": 1}, None),
             Condition("greedy (all seats)", "bots", "bots", {}, [["greedy"] * 2])]
    ev = {"rows": [{"s": -0.03}, {"s": -0.05}, {"s": 0.04}, {"s": -0.01}, {"s": -0.5}]}
    a, b = worst_pair(None, ev, conds)
    assert (a.label, b.label) == ("a=2", "c=1")   # down: 0.05 + 0.01 beats up: 0.04 alone
    ev = {"rows": [{"s": 0.03}, {"s": -0.05}, {"s": 0.04}, {"s": 0.01}, {"s": 0.5}]}
    a, b = worst_pair(None, ev, conds)
    assert (a.label, b.label) == ("b=1", "a=1")   # up: 0.04 + 0.03
    ev = {"rows": [{"s": 0.03}, {"s": 0.0}, {"s": -0.04}, {"s": 0.0}, {"s": 0.5}]}
    assert worst_pair(None, ev, conds) is None


def test_resolve_metric():
    g = get("puluc")
    assert AR.resolve_metric(None, g) == "edge"
    assert AR.resolve_metric("casts", g) == "length"
    assert AR.resolve_metric("seat-gap", g) == "gap"
    with pytest.raises(ValueError, match="edge, gap, decisive, length"):
        AR.resolve_metric("margin", g)   # Puluc declares no score
    assert AR.resolve_metric("prestige", get("balam")) == "margin"


# ------------------------------------------------------------------------ the engine
def test_conditions_agree_with_independent_runs():
    res = robust("puluc", 1500, seed=5, jobs=1, progress=False, early_stop=False, combine=False,
                 chunk_size=400)
    by = {c.label: c for c in res.conditions}
    Q = len(res.layout["quantities"])
    base = simulate("puluc", 1500, seed=5)
    li = res.layout["quantities"].index("length")
    assert res.base_stats["s"][li] == pytest.approx(base["casts"].sum())
    greedy = simulate("puluc", 1500, bots="greedy", seed=5)
    st = by["greedy (all seats)"].stats
    assert st["s"][Q + li] == pytest.approx(greedy["casts"].sum())
    d = greedy["casts"].to_numpy(float) - base["casts"].to_numpy(float)
    assert st["S2"][Q + li, Q + li] - 2 * st["S2"][Q + li, li] + st["S2"][li, li] == pytest.approx((d * d).sum())
    # every seating of an unequal pair, averaged game by game
    a = simulate("puluc", 1500, bots=("search:depth=3", "random"), seed=5)
    b = simulate("puluc", 1500, bots=("random", "search:depth=3"), seed=5)
    st = by["search:depth=3 vs random (every seating)"].stats
    assert st["s"][Q + li] == pytest.approx((a["casts"].sum() + b["casts"].sum()) / 2)
    first = (np.where(a["first_player"] == 0, a["win_0"], a["win_1"])
             + np.where(b["first_player"] == 0, b["win_0"], b["win_1"])) / 2
    assert st["s"][Q] == pytest.approx(first.sum())


def test_quantities_of_a_team_game_with_a_score():
    """Maya with four players is two teams: each side's share, and the margin of the team
    scores (the partners' points added up), per game."""
    g = get("maya")
    spec_rules = g.resolve_rules({})
    ctx = g.prepare(spec_rules, 4)
    ids, par = g.bot_arrays(g.choose_bots("random", 4))
    cols = g.play_chunk(ctx, 4, 7, 0, 300, ids, par)
    q = quantities(g, 4, cols)
    names = AR.quantity_names(2, True)
    assert q.shape == (len(names), 300)
    win = np.asarray(cols["win"], float)
    np.testing.assert_allclose(q[names.index("side 0")], win[:, 0])   # seats 0 and 2: team 0
    np.testing.assert_allclose(q[names.index("side 1")], win[:, 1])
    sc = np.asarray(cols["score"], float)
    team = np.stack([sc[:, 0] + sc[:, 2], sc[:, 1] + sc[:, 3]], axis=1)
    np.testing.assert_allclose(q[names.index("margin")], np.abs(team[:, 0] - team[:, 1]))
    first_team = np.asarray(cols["first_player"]) % 2
    share = win[np.arange(300), first_team]
    nowin = win.sum(axis=1) == 0
    np.testing.assert_allclose(q[names.index("first score")], np.where(nowin, 0.5, share))


def test_early_stop_is_the_fixed_run_cut_short_and_does_not_depend_on_jobs():
    kw = dict(seed=3, progress=False, metric="length", combine=False, chunk_size=1000)
    one = robust("puluc", 12_000, jobs=1, **kw)
    two = robust("puluc", 12_000, jobs=2, **kw)
    stopped = [c for c in one.conditions if c.stopped]
    assert stopped, "a search bot moves the length by 20 casts: decided well before 12,000 games"
    for a, b in zip(one.conditions, two.conditions):
        assert (a.label, a.stopped, a.stats["n"]) == (b.label, b.stopped, b.stats["n"])
        np.testing.assert_array_equal(a.stats["S2"], b.stats["S2"])
    c = stopped[0]
    assert c.stats["n"] < 12_000 and c.stats["n"] % 1000 == 0
    fixed = robust("puluc", c.stats["n"], jobs=1, early_stop=False, **{k: v for k, v in kw.items()})
    f = next(x for x in fixed.conditions if x.label == c.label)
    np.testing.assert_array_equal(f.stats["S2"], c.stats["S2"])
    assert one.manifest["games_played"] < 12_000 * (1 + sum(len(x.seatings or [1]) for x in one.conditions))


def test_compare_mode_is_the_variant_difference_under_each_condition():
    res = robust("puluc", 1000, seed=2, jobs=1, progress=False, early_stop=False, combine=False,
                 variants=[("base", {}), ("nine", {"track": 9})], metric="length")
    ev = AR.evaluate(res.layout, "length", res.base_stats, [c.as_dict() for c in res.conditions])
    ref = simulate("puluc", 1000, seed=2)
    nine = simulate("puluc", 1000, rules={"track": 9}, seed=2)
    assert ev["base"]["v"] == pytest.approx((nine["casts"] - ref["casts"]).mean())
    gref = simulate("puluc", 1000, seed=2, bots="greedy")
    gnine = simulate("puluc", 1000, rules={"track": 9}, seed=2, bots="greedy")
    row = next(r for r in ev["rows"] if r["label"] == "greedy (all seats)")
    assert row["v"] == pytest.approx((gnine["casts"] - gref["casts"]).mean())
    assert row["s"] == pytest.approx(((gnine["casts"] - gref["casts"]) - (nine["casts"] - ref["casts"])).mean())
    assert res.manifest["variants"][1]["rules_changed"] == {"track": "9"}
    with pytest.raises(UsageError, match="two --variant"):
        robust("puluc", 100, variants=[("base", {})])


# ------------------------------------------------------------------ CLI and the box
def test_cli_errors_are_one_line():
    r = CliRunner().invoke(cli, ["robust", "compare", "puluc", "--variant", "base:"])
    assert r.exit_code == 2 and "two --variant" in r.output
    r = CliRunner().invoke(cli, ["robust", "puluc", "--metric", "nope", "--games", "100"])
    assert r.exit_code == 2 and "--metric must be one of" in r.output
    r = CliRunner().invoke(cli, ["robust", "puluc", "--variant", "x:"])
    assert r.exit_code == 2 and "compare" in r.output
    r = CliRunner().invoke(cli, ["robust", "pulc"])
    assert r.exit_code == 2 and "did you mean 'puluc'" in r.output


def test_rules_shows_the_readings_as_a_group():
    r = CliRunner().invoke(cli, ["rules", "batam"])
    assert r.exit_code == 0
    out = r.output
    head = out.index("Readings: where the rulebook is silent or ambiguous")
    nxt = out.index("Horizon")
    block = out[head:nxt]
    for p in get("batam").params:
        assert (f"  {p.name}  " in block) == (p.role == "reading"), p.name
    assert "other readings: rising" in block


def test_robust_command_and_normalised_rules():
    g = get("puluc")
    assert AR.robust_command(g, 2, {"track": 9}) == "sim robust puluc --set track=9"
    assert AR.robust_command(g, 2, variants=[{"name": "base", "rules_changed": {}},
                                              {"name": "nine", "rules_changed": {"track": 9}}]) == (
        "sim robust compare puluc --variant base: --variant nine:track=9")
    assert AR.robust_command(get("maya"), 4, {}) == "sim robust maya --players 4"
    assert AR._norm_rules({"a": 1.0, "b": (1, 3), "c": "x", "d": True}) == AR._norm_rules(
        {"a": "1", "b": "1,3", "c": "x", "d": "True"})


@pytest.mark.parametrize("name", ["puluc", "maya", "batam", "balam"])
def test_every_game_declares_its_bot_strength(name):
    """`strength` names valid bots, strongest first, the default bot among them; the setup
    parameters, where the game has them, are choices or booleans with another value."""
    g = get(name)
    assert g.strength, f"{name}: declare strength=(...) for sim robust"
    labels = [g.choose_bots(b, g.default_players)[0].label for b in g.strength]
    assert len(set(labels)) == len(labels)
    assert g.default_bots[0] in labels
    for players in g.players:  # per player count where declared (a cheaper search budget)
        per = [g.choose_bots(b, players)[0].label for b in g.bot_strength(players)]
        assert len(set(per)) == len(per) >= 2
    if name == "maya":
        assert g.bot_strength(3)[0] == "search:iters=32;playout=3" and g.bot_strength(2)[0] == "search"
    params = {p.name: p for p in g.params}
    for s in g.setup_randomness:
        if s in params:
            assert params[s].kind in ("choice", "bool")


def test_compare_robust_flag_runs_the_robust_comparison(tmp_path):
    r = CliRunner().invoke(cli, ["compare", "puluc", "--variant", "base:", "--variant", "nine:track=9",
                                 "--robust", "--games", "1500", "--jobs", "1", "-q",
                                 "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    import json
    data = json.loads((tmp_path / "r" / "robust.json").read_text())
    assert data["mode"] == "compare" and data["layout"]["parts"] == 2
    assert [v["name"] for v in data["manifest"]["variants"]] == ["base", "nine"]
    assert "change in game length" in data["verdicts"]["length"]["text"]


def test_a_real_swing_under_an_unsettled_baseline_is_said_and_coloured():
    """An unclear baseline (+1 point, -1 to +3) leaves every condition unjudged; one whose
    paired swing excludes 0 (+1.23, +0.25 to +2.21) is still a real move of the headline:
    the verdict names it and the tornado colours it apart from "cannot tell" (all grey
    before)."""
    base = {"v": 0.01, "lo": -0.01, "hi": 0.03, "n": 2000}
    real = cond("greedy (all seats)", 0.0223, 0.02, 0.0123, 0.0098)
    flat = cond("random (all seats)", 0.011, 0.02, 0.001, 0.009)
    v = AR.verdict(RATE, base, [real, flat], M)
    assert v["kind"] == "cannot tell" and real["status"] == flat["status"] == "unclear"
    assert ("Still, the headline moves on the same games under greedy (all seats) +1.23 points "
            "(95% interval +0.25 to +2.21): a real swing") in v["text"]
    assert "random (all seats)" not in v["text"].split("Still")[1]
    assert AR.real_swing(real) and not AR.real_swing(flat)
    assert AR.STATUS_COLOURS["swing"] != AR.STATUS_COLOURS["unclear"]


@pytest.mark.parametrize("command, games, want", [
    ("sim robust puluc --games 2000 -j 2", 12_345, "sim robust puluc --games 13000 -j 2"),
    ("sim robust puluc", 3.2e6, "sim robust puluc --games 3200000"),
    ("sim robust puluc --games=2e3", 480, "sim robust puluc --games=500"),
    (None, 5, None), ("sim robust puluc", math.inf, None),
])
def test_cannot_tell_gives_the_command_with_the_games_it_needs(command, games, want):
    assert AR.rerun_command(command, games) == want
