"""The command line, through click's CliRunner (and one real Ctrl-C in a subprocess)."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from sim import __version__
from sim.cli import cli
from sim.output import load_rows

ROOT = Path(__file__).resolve().parents[1]


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_version_and_help():
    r = run("--version")
    assert r.exit_code == 0 and __version__ in r.output
    r = run("--help")
    assert r.exit_code == 0 and "puluc" in r.output and "rules" in r.output


def test_games_lists_puluc():
    r = run("games")
    assert r.exit_code == 0 and "puluc" in r.output


def test_rules_lists_every_parameter():
    from sim.games import get
    r = run("rules", "puluc")
    assert r.exit_code == 0
    for p in get("puluc").params:
        assert f"  {p.name}  (default" in r.output
    assert "search:depth=VALUE" in r.output


@pytest.mark.parametrize("game", ["puluc", "maya", "batam", "balam"])
def test_rules_brief_gives_one_line_per_parameter_and_bot(game):
    from sim.games import get
    g = get(game)
    full, brief = run("rules", game), run("rules", game, "--brief")
    assert brief.exit_code == 0
    lines = brief.output.splitlines()
    for p in g.params:
        hits = [ln for ln in lines if ln.split() and ln.split()[0] == p.name and " = " in ln]
        assert len(hits) == 1, p.name
        assert p.allowed() in hits[0]
    for b in g.bots:
        assert sum(1 for ln in lines if ln.split() and ln.split()[0] == b.name) == 1, b.name
    assert len(lines) <= 0.6 * len(full.output.splitlines()) and max(map(len, lines)) <= 120
    assert "Readings" in brief.output and f"sim rules {game}" in brief.output


def test_run_writes_results_manifest_and_report(tmp_path):
    out = tmp_path / "run"
    r = run("puluc", "--games", "2000", "--set", "track=9", "--set", "exit=pile",
            "--bots", "greedy,random", "--seed", "3", "--jobs", "1", "--out", str(out), "--csv")
    assert r.exit_code == 0, r.output
    assert "Jade" in r.output and "95% interval" in r.output and "report:" in r.output
    for f in ["results.csv", "manifest.json", "summary.json", "run.json", "index.html",
              "report-standalone.html", "win_rates.png", "length.png"]:
        assert (out / f).is_file(), f
    assert len(list((out / "results").glob("part-*.parquet"))) >= 1
    m = json.loads((out / "manifest.json").read_text())
    assert m["rules_changed"] == {"track": 9, "exit": "pile"} and m["bots"] == ["greedy", "random"]
    df = load_rows(out)
    assert len(df) == 2000 and df["casts"].max() <= 240 and list(df["game"]) == list(range(2000))
    assert len(pd.read_csv(out / "results.csv")) == 2000
    page = (out / "index.html").read_text()
    assert "win_rates.png" in page and "Every figure" in page and "track" in page
    # the report can be rebuilt from the saved results alone
    (out / "index.html").unlink()
    r = run("report", str(out))
    assert r.exit_code == 0 and (out / "index.html").is_file()


def test_default_out_dir_is_under_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("puluc", "--games", "300", "--jobs", "1", "-q", "--set", "track=9")
    assert r.exit_code == 0, r.output
    dirs = list((tmp_path / "reports").iterdir())
    assert len(dirs) == 1 and dirs[0].name.startswith("puluc-track9-")
    assert (dirs[0] / "index.html").is_file()


@pytest.mark.parametrize("args, message", [
    (["chess"], "No such command 'chess'"),
    (["puluc", "--games", "0"], "--games must be at least 1"),
    (["puluc", "--games", "-5"], "--games must be at least 1"),
    (["puluc", "--games", "2.5"], "whole number"),
    (["puluc", "--games", "1e30"], "more than this tool runs"),
    (["puluc", "--games", "5e9", "--raw"], "of disk"),
    (["puluc", "--games", "10", "--csv", "--no-raw"], "--csv needs the per-game rows"),
    (["puluc", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    (["puluc", "--resume", "/nonexistent/run"], "nothing to resume"),
    (["puluc", "--games", "ten"], "whole number"),
    (["puluc", "--set", "trak=9"], "did you mean 'track'"),
    (["puluc", "--set", "track=99"], "must be in 4..40"),
    (["puluc", "--set", "track"], "NAME=VALUE"),
    (["puluc", "--set", "cast_table=1,2"], "needs 5 values"),
    (["puluc", "--bots", "gready,random"], "did you mean 'greedy'"),
    (["puluc", "--bots", "greedy,random,random"], "needs 2 bots"),
    (["puluc", "--players", "3"], "played by 2 players"),
    (["puluc", "--seed", "abc"], "--seed must be an integer"),
    (["puluc", "--jobs", "-3"], "--jobs"),
    (["puluc", "--backend", "spark"], "unknown backend"),
    (["puluc", "--out", "/proc/forbidden/run"], "cannot write to --out"),
    (["rules", "pulcu"], "did you mean 'puluc'"),
    (["report", "/nonexistent/dir"], "not a finished run directory"),
])
def test_bad_input_is_one_line_and_status_2(args, message, tmp_path):
    if args[0] == "puluc" and "--out" not in args:
        args = args + ["--out", str(tmp_path / "r")] + ([] if "--jobs" in args else ["--jobs", "1"])
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert r.exception is None or isinstance(r.exception, SystemExit)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("sim: error:"), r.output
    assert message in lines[0]
    assert "Traceback" not in r.output


def test_workers_ignore_the_terminals_ctrl_c():
    """Ctrl-C reaches every process of the terminal's group; a loky worker caught between
    two chunks (its memory check, its queue) printed a traceback of its own (seen once in
    CI).  The worker initialiser makes workers ignore SIGINT: the parent stops them."""
    code = ("import os, signal, time; from sim.worker import _worker_init; "
            "_worker_init(os.getppid()); os.kill(os.getpid(), signal.SIGINT); "
            "time.sleep(0.2); print('alive')")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "alive", r.stderr


def test_python_dash_m_and_ctrl_c_keeps_finished_chunks(tmp_path):
    """A real SIGINT, as Ctrl-C sends it to the terminal's process group."""
    out = tmp_path / "run"
    from sim import simulate
    simulate("puluc", 10, jobs=1)  # the kernel is compiled and cached before the clock starts
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "sim", "puluc", "--games", "1e8", "--chunk-size",
                          "5000", "--jobs", "2", "--out", str(out), "-q", "--raw"], cwd=tmp_path,
                         start_new_session=True, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # interrupt once a few chunks are on record (a fixed sleep was too short on a slow,
    # cold machine: no chunk had finished and there were no rows to check)
    chunks = out / "chunks"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and p.poll() is None:
        if chunks.is_dir() and len(list(chunks.glob("*.json"))) >= 3:
            break
        time.sleep(0.2)
    assert p.poll() is None, "the run ended before it could be interrupted"
    assert len(list(chunks.glob("*.json"))) >= 3, "no chunk finished within 3 minutes"
    os.killpg(p.pid, signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, stderr
    assert "Interrupted" in stderr and "Traceback" not in stderr and "--resume" in stderr
    m = json.loads((out / "manifest.json").read_text())
    assert m["partial"] and m["games_completed"] == 5000 * m["chunks_done"]
    assert m["chunks_done"] >= 3
    df = load_rows(out)
    assert len(df) == m["games_completed"] and df["game"].is_unique
    assert "Partial run" in (out / "index.html").read_text()


def test_an_unwritable_home_gives_no_matplotlib_warning(tmp_path):
    (tmp_path / "file").write_text("")          # HOME under a file: no ~/.config can be made
    (tmp_path / "tmp").mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
    env.update(HOME=str(tmp_path / "file" / "home"), TMPDIR=str(tmp_path / "tmp"), PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "sim", "puluc", "--games", "500", "--jobs", "1", "-q",
                        "--out", str(tmp_path / "run")], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "", r.stderr               # was: "mkdir -p failed ... Matplotlib created a ..."
    assert (tmp_path / "run" / "index.html").is_file()
    own = tmp_path / "tmp" / f"sim-matplotlib-{os.getuid()}"
    assert own.is_dir() and not own.stat().st_mode & 0o077   # kept for the next run, private


def test_a_run_expected_to_take_hours_needs_yes_or_a_yes_on_a_terminal(tmp_path, monkeypatch):
    from sim import longrun
    monkeypatch.setattr(longrun, "ASK_AFTER", 0.0)       # every run is "long": no hours spent here
    args = ["puluc", "--games", "2000", "--jobs", "1", "-q", "--out", str(tmp_path / "run")]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2 and "add --yes to start a run expected to take more than 0 hours" in r.output
    assert "this run would take about" in r.output and not (tmp_path / "run").exists()
    monkeypatch.setattr(longrun, "_terminal", lambda: True)
    r = CliRunner().invoke(cli, args, input="n\n")
    assert r.exit_code == 2 and "Start it? [y/N]" in r.output and "not started" in r.output
    assert not (tmp_path / "run").exists()
    r = CliRunner().invoke(cli, args, input="y\n")
    assert r.exit_code == 0 and (tmp_path / "run" / "index.html").is_file(), r.output
    monkeypatch.setattr(longrun, "_terminal", lambda: False)
    r = CliRunner().invoke(cli, [*args[:-1], str(tmp_path / "run2"), "--yes"])
    assert r.exit_code == 0 and (tmp_path / "run2" / "index.html").is_file(), r.output
    # a resume is not asked again: the run was started already
    r = CliRunner().invoke(cli, ["puluc", "--resume", str(tmp_path / "run2"), "-q"])
    assert r.exit_code == 0, r.output
