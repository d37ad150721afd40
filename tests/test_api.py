"""The Python API (sim.api): the commands as functions, typed results, the same checks and
messages as the command line, the same library figures, the reports, and the notebook."""
import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import sim
from sim import api
from sim.api_common import api_words
from sim.cli import cli
from sim.games import get
from sim.params import UsageError
from sim.results_api import (CompareResult, ImpactResult, LadderResult, RobustResult, RunResult, ShowResult,
                             SkillResult, SweepResult, TuneResult)

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ the package
def test_import_sim_loads_neither_numba_nor_pandas_nor_analysis():
    code = ("import sys, sim\n"
            "names = [sim.run, sim.compare, sim.sweep, sim.skill, sim.ladder, sim.impact, sim.robust,\n"
            "         sim.tune, sim.show, sim.RunResult, sim.ShowResult, sim.UsageError, sim.api.simulate]\n"
            "print(sorted(m for m in ('numba', 'pandas', 'analysis', 'matplotlib') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
    assert sim.run is api.simulate and sim.compare is api.compare and sim.RunResult is RunResult
    assert {"run", "compare", "show", "RunResult", "simulate", "__version__"} <= set(sim.__all__)
    with pytest.raises(AttributeError):
        sim.no_such_name


def test_the_api_imports_the_analysis_layer_inside_its_functions_only():
    """As the command line does (docs/ARCHITECTURE.md): ``import sim.api`` loads no analysis,
    and the results module none at all (the API hands each result its report writer)."""
    for name, anywhere in (("sim/api.py", False), ("sim/api_study.py", False), ("sim/api_common.py", False),
                           ("sim/results_api.py", True)):
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        nodes = ast.walk(tree) if anywhere else iter(tree.body)
        bad = [n.lineno for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))
               and any(m == "analysis" or m.startswith("analysis.") for m in
                       ([a.name for a in n.names] if isinstance(n, ast.Import) else [n.module or ""]))]
        assert not bad, f"{name} imports analysis at lines {bad}"


def test_sim_simulate_is_still_the_engines_frame():
    df = sim.simulate("puluc", 300, seed=2, jobs=1)
    run = api.simulate("puluc", 300, seed=2, jobs=1)
    assert isinstance(df, pd.DataFrame) and "win_0" in df and df.attrs["manifest"]["seed"] == 2
    pd.testing.assert_frame_equal(df, run.raw)


# ----------------------------------------------------------------------- a run
@pytest.mark.parametrize("game,players", [("puluc", None), ("batam", 3)])
def test_a_runs_frame_names_the_seats_and_the_end_reasons(game, players):
    g = get(game)
    run = api.simulate(game, 200, players=players, seed=4, jobs=1)
    p = run.manifest["players"]
    seats = g.seat_names(p)
    assert isinstance(run, RunResult) and len(run.frame) == 200 and not run.partial
    per_seat = [c.name for c in g.all_columns() if c.per_seat]
    assert "win" in per_seat
    for col in per_seat:
        for s, name in enumerate(seats):
            assert f"{col}_{name}" in run.frame, (col, name)
            np.testing.assert_array_equal(run.frame[f"{col}_{name}"], run.raw[f"{col}_{s}"])
            assert f"{col}_{s}" not in run.frame
    if game == "puluc":
        assert {"win_Jade", "kills_Cinnabar"} <= set(run.frame.columns)
    er = run.frame["end_reason"]
    assert isinstance(er.dtype, pd.CategoricalDtype)
    assert list(er.cat.categories) == list(g.end_reasons)
    np.testing.assert_array_equal(er.cat.codes, run.raw["end_reason"])
    assert run.frame["capped"].dtype == bool
    assert list(run.raw.columns)[:3] == ["game", "winner", "win_0"]  # the raw frame is untouched


def test_a_runs_first_player_share_is_the_engines():
    from sim.runner import execute
    from sim.spec import make_spec
    run = api.simulate("puluc", 3000, bots="greedy,random", seed=4, jobs=1)
    S = execute(make_spec("puluc", 3000, bots="greedy,random", seed=4), jobs=1, rows="none",
                progress=False).summary
    assert S.n == run.summary["games"] == 3000
    assert run.summary["first_player"] == pytest.approx(S.side_win_pos[0] / S.n, abs=1e-12)
    # and the rows say the same: the win share of the seat that moved first
    raw = run.raw
    first = raw[["win_0", "win_1"]].to_numpy()[np.arange(len(raw)), raw["first_player"].to_numpy()]
    assert run.summary["first_player"] == pytest.approx(first.mean(), abs=1e-9)
    assert run.summary["fair_share"] == 0.5
    assert run.summary["win_Jade"] == pytest.approx(raw["win_0"].mean(), abs=1e-9)
    assert any(v.startswith("The player who moves first wins") for v in run.verdicts)
    assert all(isinstance(v, float) for k, v in run.summary.items() if k.startswith("first_player"))


def test_the_same_seed_gives_the_same_frame():
    a = api.simulate("puluc", 1500, seed=9, jobs=1)
    b = api.simulate("puluc", 1500, seed=9, jobs=2, chunk_size=400, backend="threading")
    pd.testing.assert_frame_equal(a.frame, b.frame)
    assert a.summary == {**b.summary}
    c = api.simulate("puluc", 1500, seed=10, jobs=1)
    assert not a.frame.equals(c.frame)


def test_nothing_is_written_without_out_and_the_report_with_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    api.simulate("puluc", 300, jobs=1)
    api.compare("puluc", ["a:", "b:track=9"], games=300, jobs=1)
    assert list(tmp_path.iterdir()) == []
    run = api.simulate("puluc", 300, jobs=1, out="r")
    assert (tmp_path / "r" / "index.html").is_file() and (tmp_path / "r" / "results.parquet").is_file()
    assert run.partial is False


# --------------------------------------------------------------- bad input
CASES = [
    (["puluc", "--games", "100", "--set", "trak=9", "-q"],
     lambda: api.simulate("puluc", 100, rules={"trak": 9}), "did you mean 'track'"),
    (["puluc", "--games", "100", "--bots", "nosuch", "-q"],
     lambda: api.simulate("puluc", 100, bots="nosuch"), "unknown bot 'nosuch'"),
    (["puluc", "--games", "2.5"], lambda: api.simulate("puluc", "2.5"), "whole number"),
    (["compare", "pulc", "--variant", "a:", "--variant", "b:"],
     lambda: api.compare("pulc", ["a:", "b:"]), "unknown game 'pulc' (did you mean 'puluc'?)"),
    (["compare", "puluc", "--variant", "a:", "--variant", "b:trak=9"],
     lambda: api.compare("puluc", {"a": {}, "b": {"trak": 9}}), "unknown rule parameter 'trak'"),
    (["compare", "puluc", "--variant", "a:"], lambda: api.compare("puluc", {"a": {}}), "at least two"),
    (["sweep", "puluc", "--param", "track=9..7"], lambda: api.sweep("puluc", {"track": "9..7"}), "track"),
    (["impact", "puluc"], lambda: api.impact("puluc"), "no card or event draws"),
    (["impact", "balam", "--card", "drout"], lambda: api.impact("balam", "drout"), "did you mean"),
    (["skill", "puluc", "--bots", "random"], lambda: api.skill("puluc", "random"), "at least two bots"),
    (["skill", "puluc", "--ladder", "random,random"], lambda: api.ladder("puluc", "random,random"),
     "every rung must differ"),
    (["robust", "puluc", "--set", "trak=9"], lambda: api.robust("puluc", rules={"trak": 9}), "trak"),
    (["tune", "puluc", "--param", "track=6..14", "--target", "nonsense=1"],
     lambda: api.tune("puluc", ["track=6..14"], ["nonsense=1"]), "nonsense"),
    (["show", "puluc", "--game", "-1"], lambda: api.show("puluc", -1), "between 0 and"),
]


@pytest.mark.parametrize("args,call,words", CASES, ids=[" ".join(c[0][:2]) + f" #{i}" for i, c in enumerate(CASES)])
def test_bad_input_raises_the_commands_usage_error(args, call, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("sim: error: "))
    with pytest.raises(UsageError) as e:
        call()
    # the command's message, its flags named as the function's keyword arguments (--seed: seed=)
    fn = getattr(api, next(n for n in call.__code__.co_names if n in api.__all__))
    assert str(e.value) == api_words(line[len("sim: error: "):], fn)
    assert words in str(e.value)
    assert list(tmp_path.iterdir()) == []  # nothing written, by either


def test_a_folder_of_someone_elses_files_is_refused(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(UsageError, match="holds no run of sim"):
        api.simulate("puluc", 100, jobs=1, out=mine)
    res = api.compare("puluc", ["a:", "b:"], games=200, jobs=1)
    with pytest.raises(UsageError, match="holds no run of sim"):
        res.write_report(mine)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


# --------------------------------------------------------------- experiments
def test_a_variant_against_itself_differs_by_nothing():
    res = api.compare("puluc", {"base": {}, "same": {}}, games=2000, seed=3, jobs=1)
    assert isinstance(res, CompareResult) and [n for n, _ in res.variants] == ["base", "same"]
    same = res.frame[res.frame["variant"] == "same"]
    assert len(same) == len(res.manifest["metrics"]) > 5
    assert (same["diff"] == 0).all() and (same["diff_lo"] == 0).all() and (same["diff_hi"] == 0).all()
    assert (res.summary[res.summary["variant"] == "same"]["diff"] == 0).all()
    assert any("'same' against 'base'" in v and "no change that matters" in v for v in res.verdicts)
    # the command's spelling of the variants gives the same table
    again = api.compare("puluc", ["base:", "same:"], games=2000, seed=3, jobs=1)
    pd.testing.assert_frame_equal(res.frame, again.frame)


def test_a_compare_is_the_library_compare():
    from analysis.experiment_report import compare_table
    from analysis.experiment_runs import compare
    res = api.compare("puluc", {"base": {}, "nine": {"track": "9"}}, games=1500, seed=2, jobs=1)
    lib = compare("puluc", [("base", {}), ("nine", {"track": "9"})], 1500, seed=2, jobs=1, progress=False)
    tab = compare_table(lib)  # the library's table, its keys named after the seats
    pd.testing.assert_frame_equal(res.frame, tab.assign(key=tab["key"].map(api.seat_keys(lib.manifest,
                                                                                       tab["key"].unique()))))
    assert {"win Jade", "win Cinnabar", "kills Jade", "kills Cinnabar"} <= set(res.frame["key"])
    nine = res.frame[(res.frame["variant"] == "nine") & (res.frame["key"] == "casts")].iloc[0]
    assert nine["diff"] < 0  # a shorter track makes shorter games


EXPERIMENTS = {
    "sweep": (lambda: api.sweep("puluc", {"track": "7..9:2"}, games=800, seed=2, jobs=1), SweepResult),
    "skill": (lambda: api.skill("puluc", "random,greedy", games=400, seed=2, jobs=1), SkillResult),
    "ladder": (lambda: api.ladder("puluc", ["random", "greedy"], games=400, seed=2, jobs=1), LadderResult),
    "robust": (lambda: api.robust("puluc", games=800, seed=2, jobs=1, early_stop=False, combine=False),
               RobustResult),
    "robust compare": (lambda: api.robust("puluc", variants=["base:", "nine:track=9"], games=800, seed=2,
                                          jobs=1, early_stop=False, combine=False), RobustResult),
    "tune": (lambda: api.tune("puluc", ["track=6..14"], ["length=min"], budget=2000, final_games=400, jobs=1),
             TuneResult),
    "impact": (lambda: api.impact("balam", "drought", games=120, seed=2, jobs=1), ImpactResult),
    "impact observational": (lambda: api.impact("balam", games=120, seed=2, jobs=1), ImpactResult),
}


@pytest.mark.parametrize("name", list(EXPERIMENTS))
def test_each_experiment_returns_its_typed_result_and_report(name, tmp_path):
    call, cls = EXPERIMENTS[name]
    res = call()
    assert isinstance(res, cls) and not res.partial
    assert isinstance(res.frame, pd.DataFrame) and len(res.frame) > 0
    assert res.verdicts and all(isinstance(v, str) and len(v) > 20 for v in res.verdicts)
    assert res.summary is not None and len(res.summary) > 0
    assert res.result is not None and repr(res).startswith(f"<{cls.__name__} {res.game}: frame ")
    page = res.write_report(tmp_path / "report")
    assert page == tmp_path / "report" / "index.html" and page.is_file()
    text = page.read_text(encoding="utf-8")
    assert "<html" in text.lower()
    if name != "tune":  # `sim report` rebuilds every other experiment's folder (not tune's, yet)
        r = CliRunner().invoke(cli, ["report", str(tmp_path / "report")])
        assert r.exit_code == 0, r.output


def test_the_experiments_frames_hold_what_their_reports_say():
    sk = EXPERIMENTS["skill"][0]()
    assert list(sk.frame["bot"]) == ["random", "greedy"]
    assert sk.summary["ratings"]["greedy"] > sk.summary["ratings"]["random"]
    assert sk.matrix.loc["greedy", "random"] > 0.5 and np.isnan(sk.matrix.loc["greedy", "greedy"])
    lad = EXPERIMENTS["ladder"][0]()
    assert list(lad.frame["bot"]) == ["random", "greedy"] and lad.frame["elo"].iloc[0] == 0
    assert {"win_Jade", "win_Cinnabar"} <= set(lad.frame.columns) and len(lad.pairs) == 1
    rob = EXPERIMENTS["robust"][0]()
    assert set(rob.summary["verdict"]) <= {"holds", "depends", "cannot tell"}
    assert set(rob.frame["headline"]) == set(rob.summary["headline"])
    tu = EXPERIMENTS["tune"][0]()
    assert tu.summary["candidate"].iloc[0] == "rulebook" and "track" in tu.frame
    imp = EXPERIMENTS["impact"][0]()
    assert list(imp.frame["card"]) == ["drought"] and imp.verdicts[0].startswith("drought: ")
    assert len(imp.observational) > 0


# ------------------------------------------------------------------ one game
def test_show_tells_the_games_turns_as_the_command_does(tmp_path):
    from analysis.show import show_game
    s = api.show("puluc", 5, seed=2, bots=("greedy", "random"))
    assert isinstance(s, ShowResult)
    lib = show_game(get("puluc"), 2, 5, None, ("greedy", "random"), None)
    lines = [t.text if hasattr(t, "text") else t[0] for t in lib.turns]
    assert s.lines == lines and len(s.lines) > 10
    assert s.lines[0].startswith("Puluc game 5 (seed 2)")
    assert s.verdicts == [lib.outcome] and s.summary["command"] == lib.command
    assert list(s.frame["text"]) == s.lines
    r = CliRunner().invoke(cli, ["show", "puluc", "--seed", "2", "--game", "5", "--bots", "greedy,random"])
    assert r.exit_code == 0 and r.output.rstrip("\n") == s.text
    page = s.write_report(tmp_path / "game")
    assert page == tmp_path / "game" / "index.html" and "Puluc" in page.read_text(encoding="utf-8")
    other = api.show("puluc", 5, seed=2, bots=("greedy", "random"), html=tmp_path / "g5.html")
    assert (tmp_path / "g5.html").is_file() and other.lines == s.lines


def test_a_runs_report_is_the_commands(tmp_path):
    run = api.simulate("puluc", 500, seed=3, jobs=1)
    page = run.write_report(tmp_path / "run")
    assert page == tmp_path / "run" / "index.html" and page.is_file()
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["games_completed"] == 500 and manifest["seed"] == 3
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "run" / "results.parquet"), run.raw,
                                  check_like=True)
    r = CliRunner().invoke(cli, ["report", str(tmp_path / "run")])
    assert r.exit_code == 0, r.output
    cli_run = tmp_path / "cli"
    assert CliRunner().invoke(cli, ["puluc", "--games", "500", "--seed", "3", "--jobs", "1", "-q",
                                    "--out", str(cli_run)]).exit_code == 0
    ours = json.loads((tmp_path / "run" / "summary.json").read_text())
    theirs = json.loads((cli_run / "summary.json").read_text())
    assert ours == theirs  # the same games, the same merged statistics


# ----------------------------------------------------------- the walkthrough
def _markdown_cells():
    text = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    return [m.group(1).rstrip("\n") for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


def test_the_notebook_has_the_walkthroughs_cells():
    nb = json.loads((ROOT / "docs" / "api_example.ipynb").read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4 and nb["metadata"]["kernelspec"]["language"] == "python"
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert code == _markdown_cells() and len(code) >= 5
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in nb["cells"] if c["cell_type"] == "code")


def test_the_notebook_runs(tmp_path, monkeypatch, capsys):
    """Every code cell in order in one namespace (as a kernel runs them), in a scratch folder."""
    monkeypatch.chdir(tmp_path)
    nb = json.loads((ROOT / "docs" / "api_example.ipynb").read_text(encoding="utf-8"))
    ns: dict = {}
    for i, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        exec(compile("".join(cell["source"]), f"<cell {i}>", "exec"), ns)
    printed = capsys.readouterr().out
    run, nine, drought, game = ns["run"], ns["nine"], ns["drought"], ns["game"]
    assert isinstance(run, RunResult) and run.summary["games"] == 20_000
    assert {"win_Jade", "kills_Cinnabar", "casts"} <= set(run.frame.columns)
    assert run.verdicts[0] in printed and 0.3 < run.summary["first_player"] < 0.7
    assert isinstance(nine, CompareResult) and [n for n, _ in nine.variants] == ["rulebook", "nine"]
    casts = nine.frame[(nine.frame["variant"] == "nine") & (nine.frame["key"] == "casts")].iloc[0]
    assert casts["diff_hi"] < 0  # nine spaces: shorter games, beyond doubt at this size
    assert isinstance(drought, ImpactResult) and list(drought.frame["card"]) == ["drought"]
    assert isinstance(game, ShowResult) and game.lines[0] in printed and game.summary["outcome"] in printed
    page = Path(ns["page"]).resolve()
    assert page == (tmp_path / "reports" / "puluc-nine" / "index.html").resolve() and page.is_file()
