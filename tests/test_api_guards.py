"""The Python API's and the experiments' guards (issue #45, items 9, 10, 11 and 16): every
public function refuses an argument of the wrong type with ``sim.UsageError``, one line naming
the keyword argument (the command line names its flag); ``sim strength`` refuses non-finite
and absurd budgets; an experiment expected to take hours starts only with ``--yes`` /
``yes=True``; a comparison's frame names the seats and holds the turn-order shares."""
import math

import pytest
from click.testing import CliRunner

import sim
from sim import api
from sim.cli import cli
from sim.params import UsageError

INF, NAN = float("inf"), float("nan")
V2 = ["a:", "b:"]

# (function, its arguments, the keyword argument the message must name); every one refused before
# anything is played or written
TYPE_CASES = [
    # sim.run
    ("run", ("puluc", 200), dict(rules="track=9"), "rules"),
    ("run", ("puluc", 200), dict(rules=[("track", 9)]), "rules"),
    ("run", ("puluc", 200), dict(bots=("greedy", None)), "bots"),
    ("run", ("puluc", 200), dict(bots=5), "bots"),
    ("run", ("puluc", True), {}, "games"),
    ("run", ("puluc", [200]), {}, "games"),
    ("run", ("puluc", "2.5"), {}, "games"),
    ("run", (5, 200), {}, "game"),
    ("run", ("puluc", 200), dict(players="2"), "players"),
    ("run", ("puluc", 200), dict(players=2.5), "players"),
    ("run", ("puluc", 200), dict(seed=1.5), "seed"),
    ("run", ("puluc", 200), dict(seed=None), "seed"),
    ("run", ("puluc", 200), dict(seed="x"), "seed"),
    ("run", ("puluc", 200), dict(jobs=1.5), "jobs"),
    ("run", ("puluc", 200), dict(jobs="2"), "jobs"),
    ("run", ("puluc", 200), dict(jobs=True), "jobs"),
    ("run", ("puluc", 200), dict(jobs=-1), "jobs"),
    ("run", ("puluc", 200), dict(chunk_size=100.5), "chunk_size"),
    ("run", ("puluc", 200), dict(chunk_size=0), "chunk_size"),
    ("run", ("puluc", 200), dict(backend=5), "backend"),
    ("run", ("puluc", 200), dict(scheduler=5), "scheduler"),
    ("run", ("puluc", 200), dict(progress="yes"), "progress"),
    ("run", ("puluc", 200), dict(out=5), "out"),
    ("run", ("puluc", 200), dict(out=""), "out"),
    # sim.compare
    ("compare", ("puluc", 5), {}, "variants"),
    ("compare", ("puluc", [{"track": 9}, {}]), {}, "variants"),
    ("compare", ("puluc", {"a": 5, "b": {}}), {}, "variants"),
    ("compare", ("puluc", [("a", {}), ("b", {}, 3)]), {}, "variants"),
    ("compare", ("puluc", V2), dict(variants_file=5), "variants_file"),
    ("compare", ("puluc", V2), dict(games=True), "games"),
    ("compare", ("puluc", V2), dict(seed="x"), "seed"),
    ("compare", ("puluc", V2), dict(sprt="no"), "sprt"),
    ("compare", ("puluc", V2), dict(sprt=True, sprt_d="x"), "sprt_d"),
    ("compare", ("puluc", V2), dict(alpha="x"), "alpha"),
    ("compare", ("puluc", V2), dict(alpha=0.7), "alpha"),
    ("compare", ("puluc", V2), dict(sprt_metric=5), "sprt_metric"),
    ("compare", ("puluc", V2), dict(out=5), "out"),
    ("compare", ("puluc", V2), dict(jobs=1.5), "jobs"),
    ("compare", ("puluc", V2), dict(yes="yes"), "yes"),
    # sim.sweep
    ("sweep", ("puluc", 5), {}, "params"),
    ("sweep", ("puluc", [5]), {}, "params"),
    ("sweep", ("puluc", {"track": "7..9"}), dict(games=True), "games"),
    ("sweep", ("puluc", {"track": "7..9"}), dict(bots=[None]), "bots"),
    # sim.skill and sim.ladder
    ("skill", ("puluc", 5), {}, "bots"),
    ("skill", ("puluc", ["random", None]), {}, "bots"),
    ("skill", ("puluc", "random,greedy"), dict(games=True), "games"),
    ("skill", ("puluc", "random,greedy"), dict(rules="track=9"), "rules"),
    ("ladder", ("puluc", 5), {}, "bots"),
    ("ladder", ("puluc", "random,greedy"), dict(seed=[1]), "seed"),
    # sim.strength
    ("strength", ("puluc", 5), {}, "bot"),
    ("strength", ("puluc", "search:depth=1"), dict(param=5), "param"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", factor="x"), "factor"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", factor=INF), "factor"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", factor=1e300), "factor"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", add=INF), "add"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", add=NAN), "add"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", add=1e300), "add"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", rungs=2.5), "rungs"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", rungs=True), "rungs"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", tol=INF), "tol"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", length_tol="x"), "length_tol"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", minutes=INF), "minutes"),
    ("strength", ("puluc", "search:depth=1"), dict(param="depth", games=True), "games"),
    # sim.impact
    ("impact", ("balam", 5), {}, "card"),
    ("impact", ("balam", "drought"), dict(mode=5), "mode"),
    ("impact", ("balam", "drought"), dict(metric=5), "metric"),
    ("impact", ("balam",), dict(games=True), "games"),
    # sim.robust
    ("robust", ("puluc",), dict(variants=5), "variants"),
    ("robust", ("puluc",), dict(metric=5), "metric"),
    ("robust", ("puluc",), dict(early_stop="no"), "early_stop"),
    ("robust", ("puluc",), dict(combine=None), "combine"),
    ("robust", ("puluc",), dict(rules="track=9"), "rules"),
    # sim.tune
    ("tune", ("puluc", 5, ["length=min"]), {}, "params"),
    ("tune", ("puluc", ["track=6..14"], 5), {}, "targets"),
    ("tune", ("puluc", ["track=6..14"], ["length=min"]), dict(budget=True), "budget"),
    ("tune", ("puluc", ["track=6..14"], ["length=min"]), dict(final_games=[1]), "final_games"),
    # sim.show
    ("show", ("puluc", 1.5), {}, "index"),
    ("show", ("puluc", None), {}, "index"),
    ("show", ("puluc", 0), dict(seed="x"), "seed"),
    ("show", ("puluc", 0), dict(rules="track=9"), "rules"),
    ("show", ("puluc", 0), dict(html=5), "html"),
]


def _id(case):
    fn, args, kw, arg = case
    shown = ", ".join([repr(a) for a in args[1:]] + [f"{k}={v!r}" for k, v in kw.items()])
    return f"{fn}({shown})"[:60]


@pytest.mark.parametrize("case", TYPE_CASES, ids=[_id(c) for c in TYPE_CASES])
def test_a_wrong_argument_is_refused_in_one_line_naming_it(case, tmp_path, monkeypatch):
    fn, args, kw, arg = case
    monkeypatch.chdir(tmp_path)
    if fn not in ("run", "show", "tune") and "games" not in kw:
        kw = {"games": 200, "jobs": 1, **kw}  # small, should a check be missing
    with pytest.raises(UsageError) as e:
        getattr(sim, fn)(*args, **kw)
    msg = str(e.value)
    assert "\n" not in msg and f"{arg}=" in msg, msg
    assert "--" not in msg, msg  # no command-line flag in an API message
    assert list(tmp_path.iterdir()) == []  # nothing written


# the same check, its flag on the command line and its keyword in the API
FLAG_CASES = [
    (["compare", "puluc", "--variant", "a:", "--variant", "b:", "--seed", "x"],
     lambda: api.compare("puluc", V2, seed="x"), "--seed", "seed="),
    (["puluc", "--games", "2.5"], lambda: api.simulate("puluc", "2.5"), "--games", "games="),
    (["skill", "puluc", "--bots", "random,greedy", "--chunk-size", "0"],
     lambda: api.skill("puluc", "random,greedy", chunk_size=0), "--chunk-size", "chunk_size="),
    (["compare", "puluc", "--variant", "a:"], lambda: api.compare("puluc", ["a:"]), "--variant", "variants="),
    (["show", "puluc", "--game", "-1"], lambda: api.show("puluc", -1), "--game", "index="),
]


@pytest.mark.parametrize("args,call,flag,keyword", FLAG_CASES, ids=[c[2] for c in FLAG_CASES])
def test_the_command_line_names_its_flag_and_the_api_its_keyword(args, call, flag, keyword, tmp_path,
                                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("sim: error: "))
    assert flag in line and keyword not in line
    with pytest.raises(UsageError) as e:
        call()
    assert keyword in str(e.value) and flag not in str(e.value)
    # the rest of the message is the command's
    from sim.api_common import api_words
    fn = getattr(api, next(n for n in call.__code__.co_names if n in api.__all__))
    assert str(e.value) == api_words(line[len("sim: error: "):], fn)


def test_a_results_write_report_and_the_rules_resolver_refuse_wrong_types_in_their_own_words(tmp_path):
    from sim.games import get
    res = api.compare("puluc", V2, games=200, jobs=1)
    with pytest.raises(UsageError, match=r"^write_report takes a folder's path"):
        res.write_report(5)
    (tmp_path / "f").write_text("mine")
    with pytest.raises(UsageError) as e:
        res.write_report(tmp_path / "f")
    assert str(e.value).startswith("write_report: ") and "--out" not in str(e.value)
    with pytest.raises(UsageError, match="rule parameters must be given as NAME -> VALUE pairs"):
        get("puluc").resolve_rules("track=9")  # was an AttributeError in sim/params.py


# ----------------------------------------------------------------- item 9: sim strength
@pytest.mark.parametrize("extra", [["--factor", "inf"], ["--factor", "nan"], ["--factor", "1e300"],
                                   ["--add", "inf"], ["--add", "1e300"],
                                   ["--tol", "inf"], ["--minutes", "inf"], ["--length-tol", "nan"]],
                         ids=lambda x: " ".join(x))
def test_strength_refuses_a_non_finite_or_absurd_budget_in_one_line(extra, tmp_path):
    out = tmp_path / "s"
    r = CliRunner().invoke(cli, ["strength", "puluc", "--bot", "search:depth=1", "--param", "depth", "--games",
                                 "200", "-j", "1", "-o", str(out), *extra])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("sim: error: --"), r.output
    assert "Traceback" not in r.output and not out.exists()


# ------------------------------------------------------------- item 11: the time guard
def _slow(monkeypatch, seconds=60.0):
    """Experiments count as long from ``seconds`` on (two hours otherwise)."""
    import sim.longrun
    monkeypatch.setattr(sim.longrun, "ASK_AFTER", seconds)


@pytest.mark.parametrize("args", [
    ["compare", "puluc", "--variant", "a:", "--variant", "b:track=9"],
    ["sweep", "puluc", "--param", "track=9..11:2"],
    ["skill", "puluc", "--bots", "random,greedy"],
    ["skill", "puluc", "--ladder", "random,greedy"],
    ["strength", "puluc", "--bot", "search:depth=1", "--param", "depth", "--add", "1", "--rungs", "2"],
    ["impact", "balam", "--card", "drought"],
    ["robust", "puluc"],
    ["compare", "puluc", "--variant", "a:", "--variant", "b:track=9", "--robust"],
], ids=lambda a: " ".join(a[:2] + a[2:3] + a[-1:]))
def test_an_experiment_expected_to_take_hours_needs_yes(args, tmp_path, monkeypatch):
    _slow(monkeypatch)
    out = tmp_path / "x"
    r = CliRunner().invoke(cli, [*args, "--games", "1e10", "-j", "1", "-o", str(out)])
    assert r.exit_code == 2, r.output
    # (a cold numba cache first says it compiles the kernel the estimate plays: a note, not the refusal)
    lines = [x for x in r.output.splitlines() if x.strip() and "(first run only" not in x]
    assert len(lines) == 1 and "--yes" in lines[0] and "would take about" in lines[0], r.output
    assert not out.exists()


@pytest.mark.parametrize("fn,args", [
    ("compare", ("puluc", V2)), ("sweep", ("puluc", {"track": "9..11:2"})), ("skill", ("puluc", "random,greedy")),
    ("ladder", ("puluc", "random,greedy")), ("impact", ("balam", "drought")),
    ("strength", ("puluc", "search:depth=1")), ("robust", ("puluc",)),
])
def test_the_apis_experiments_expected_to_take_hours_need_yes(fn, args, tmp_path, monkeypatch):
    _slow(monkeypatch)
    monkeypatch.chdir(tmp_path)
    kw = dict(param="depth", add=1, rungs=2) if fn == "strength" else {}
    with pytest.raises(UsageError) as e:
        getattr(sim, fn)(*args, games=1e10, jobs=1, out="x", **kw)
    assert "yes=True" in str(e.value) and "--yes" not in str(e.value) and "\n" not in str(e.value)
    assert list(tmp_path.iterdir()) == []


def test_yes_starts_an_experiment_however_long(tmp_path, monkeypatch):
    _slow(monkeypatch, 1e-9)
    with pytest.raises(UsageError, match="yes=True"):
        api.compare("puluc", V2, games=200, jobs=1)
    assert api.compare("puluc", V2, games=200, jobs=1, yes=True).manifest["games_completed"] == 200
    r = CliRunner().invoke(cli, ["compare", "puluc", "--variant", "a:", "--variant", "b:", "--games", "200",
                                 "-j", "1", "-q", "--yes", "-o", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output


def test_a_run_of_the_api_expected_to_take_hours_needs_yes_too(tmp_path, monkeypatch):
    _slow(monkeypatch, 1e-9)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError) as e:
        api.simulate("puluc", 300, jobs=1, out="r")
    assert "add yes=True to start a run" in str(e.value) and list(tmp_path.iterdir()) == []
    assert api.simulate("puluc", 300, jobs=1, yes=True).summary["games"] == 300


# -------------------------------------------------------- item 16: a compare's frame
def test_a_compares_frame_names_the_seats_and_holds_the_turn_order_shares():
    from analysis.metrics import decisive_position_rates, position_win_rates
    res = api.compare("puluc", {"base": {}, "nine": {"track": 9}}, games=600, seed=2, jobs=1)
    keys = set(res.frame["key"])
    assert {"win Jade", "win Cinnabar"} <= keys and not any(k.startswith("win ") and k[-1].isdigit() for k in keys)
    t = res.turn_order
    assert list(t["variant"]) == ["base", "base", "nine", "nine"]
    assert list(t["position"]) == ["1st player", "2nd player"] * 2
    for k, name in enumerate(["base", "nine"]):
        S = res.result.summaries[[i for i, a in enumerate(res.result.arms) if not a.swapped][k]]
        rows = t[t["variant"] == name]
        assert list(rows["share"]) == list(position_win_rates(S)["rate"])
        assert list(rows["share_decisive"]) == list(decisive_position_rates(S)["rate"])
        assert math.isclose(rows["share"].sum() + res.frame.query("key == 'no winner' and variant == @name")
                            ["value"].iloc[0], 1.0)
