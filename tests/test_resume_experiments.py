"""Every experiment command resumes from its finished chunks after SIGTERM or kill -9: the
same command into the same folder reuses them (it says how many) and saves results equal to
an uninterrupted run's, field for field, the timing fields excepted
(``analysis.checkpoints.TIMING_FIELDS``: when it started and ended, wall and CPU seconds).

Each command is played three times: whole, into ``a/out``, in this process (the command as
``sim`` would run it: its arguments, folder and ``sys.argv``, which the manifest records;
a process of its own cost a second more of start-up and kernel loading); stopped after a
few chunk files are on disk, into ``b/out``; and again into ``b/out``, both in processes of
their own.  That process is frozen (SIGSTOP) as soon as enough chunk files are there, so
the chunks counted are the ones it had written, then sent SIGTERM (a clean stop, exit
status 143) or SIGKILL."""
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from analysis.checkpoints import FOLDER, TIMING_FIELDS, TaskStore, checkpoints, task_store, without_timing
from sim.summary import Summary

ROOT = Path(__file__).resolve().parents[1]


def _sim(cwd: Path, args) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "sim", *args, "-q", "-o", "out"], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _kept(cwd: Path) -> list:
    folder = cwd / "out" / FOLDER
    return sorted(folder.rglob("*.json")) if folder.is_dir() else []


def _whole(cwd: Path, args) -> str:
    p = _sim(cwd, args)
    out, err = p.communicate(timeout=900)
    assert p.returncode == 0, err
    return err


def _whole_here(cwd: Path, args, monkeypatch) -> None:
    """The uninterrupted run, in this process, with what a ``sim`` process would see."""
    from click.testing import CliRunner

    from sim.cli import cli
    argv = [*args, "-q", "-o", "out"]
    cwd.mkdir(parents=True, exist_ok=True)
    with monkeypatch.context() as m:
        m.chdir(cwd)
        m.setattr(sys, "argv", [str(ROOT / "sim" / "__main__.py"), *argv])
        r = CliRunner().invoke(cli, argv)
    assert r.exit_code == 0, (r.output, r.exception)


def _stopped(cwd: Path, args, after: int, sig) -> int:
    """Start the command, stop it with ``sig`` once ``after`` chunk files are written;
    returns the chunk files left."""
    p = _sim(cwd, args)
    give_up = time.monotonic() + 900  # a safety net, not a measurement
    while p.poll() is None and len(_kept(cwd)) < after and time.monotonic() < give_up:
        time.sleep(0.005)
    assert p.poll() is None, "finished before it could be stopped: " + p.stderr.read()
    os.kill(p.pid, signal.SIGSTOP)
    os.kill(p.pid, sig)
    os.kill(p.pid, signal.SIGCONT)
    _, err = p.communicate(timeout=900)
    if sig == signal.SIGTERM:
        assert p.returncode == 143, err
        assert "Finish it with the same command into the same folder" in err
    else:
        assert p.returncode == -signal.SIGKILL
    return len(_kept(cwd))


def _reused(err: str) -> int:
    m = re.search(r"resumed: ([\d,]+) finished chunks", err)
    return int(m.group(1).replace(",", "")) if m else 0


def _same_results(a: Path, b: Path) -> list[str]:
    """The files compared: every JSON file field for field (timing fields left out), every
    CSV and TOML file byte for byte; returns their names."""
    names = sorted(p.name for p in a.iterdir() if p.suffix in (".json", ".csv", ".toml"))
    assert names == sorted(p.name for p in b.iterdir() if p.suffix in (".json", ".csv", ".toml"))
    for name in names:
        x, y = a / name, b / name
        if x.suffix == ".json":
            assert without_timing(json.loads(x.read_text())) == without_timing(json.loads(y.read_text())), name
        else:
            assert x.read_bytes() == y.read_bytes(), name
    assert not (b / FOLDER).exists()  # a finished experiment keeps no chunks
    return names


def _check(tmp_path, monkeypatch, args, after=3, sig=signal.SIGTERM, exact=True) -> list[str]:
    _whole_here(tmp_path / "a", args, monkeypatch)
    left = _stopped(tmp_path / "b", args, after, sig)
    assert left >= after
    err = _whole(tmp_path / "b", args)
    if exact:   # every chunk written before the stop is reused
        assert _reused(err) == left, err
    else:       # sim tune: the replay of an interrupted search's finalists is not
        assert 1 <= _reused(err) <= left, err
    return _same_results(tmp_path / "a" / "out", tmp_path / "b" / "out")


PULUC = ["--games", "1e5", "--chunk-size", "2000", "--jobs", "1"]


@pytest.mark.slow
def test_compare_resumes_after_sigterm(tmp_path, monkeypatch):
    names = _check(tmp_path, monkeypatch,
                   ["compare", "puluc", "--variant", "base:", "--variant", "nine:track=9", *PULUC])
    assert "experiment.json" in names


@pytest.mark.slow
def test_compare_resumes_after_kill_9_on_two_workers(tmp_path, monkeypatch):
    args = ["compare", "puluc", "--variant", "base:", "--variant", "nine:track=9", "--games", "1e5",
            "--chunk-size", "2000", "--jobs", "2"]
    names = _check(tmp_path, monkeypatch, args, after=4, sig=signal.SIGKILL)
    assert "experiment.json" in names


@pytest.mark.slow
def test_sweep_resumes_after_sigterm(tmp_path, monkeypatch):
    names = _check(tmp_path, monkeypatch, ["sweep", "puluc", "--param", "track=8..10", "--games", "6e4",
                              "--chunk-size", "2000", "--jobs", "1"])
    assert "experiment.json" in names


@pytest.mark.slow
def test_skill_resumes_after_sigterm(tmp_path, monkeypatch):
    # stopped inside the second pairing: the first pairing's chunks and some of the second's
    names = _check(tmp_path, monkeypatch, ["skill", "puluc", "--bots", "random,greedy", "--games", "4e4",
                              "--chunk-size", "2000", "--jobs", "1"], after=24)
    assert "skill.json" in names


@pytest.mark.slow
def test_ladder_resumes_after_kill_9(tmp_path, monkeypatch):
    names = _check(tmp_path, monkeypatch, ["skill", "puluc", "--ladder", "random,greedy", "--games", "4e4",
                              "--chunk-size", "2000", "--jobs", "1"], after=25, sig=signal.SIGKILL)
    assert "ladder.json" in names


@pytest.mark.slow
def test_impact_resumes_after_sigterm(tmp_path, monkeypatch):
    # Batam: Puluc records no card draws (the kernel compiles in the first of the three runs)
    names = _check(tmp_path, monkeypatch, ["impact", "batam", "--card", "pirate_0", "--games", "1e4",
                              "--chunk-size", "250", "--jobs", "1"])
    assert "experiment.json" in names


@pytest.mark.slow
def test_robust_resumes_after_sigterm(tmp_path, monkeypatch):
    # early stops decided on the kept chunks are decided again, the same: led by the game's
    # length, which every condition moves or keeps beyond doubt, each condition stops at the
    # first look (MIN_STOP_GAMES, 2,000 games: four chunks), and so does the worst-case
    # combination played after them (four more); stopped after five chunk files, the
    # resumed run decides the first stage's stops from its kept chunks alone.  (Led by the
    # edge, no condition stopped within 3e4 games: 3e4 of the strong bot's games three times.)
    names = _check(tmp_path, monkeypatch, ["robust", "puluc", "--metric", "length", "--games", "3e4",
                                           "--chunk-size", "500", "--jobs", "1"], after=5)
    assert "robust.json" in names
    conds = json.loads((tmp_path / "b" / "out" / "robust.json").read_text())["conditions"]
    assert all(c["stopped"] and c["stats"]["n"] == 2000 for c in conds), [(c["label"], c["stopped"]) for c in conds]


@pytest.mark.slow
def test_robust_resumes_after_kill_9(tmp_path, monkeypatch):
    # (3,000 games: ten chunks a condition, enough to be killed in, none stopped early: the
    # edge's verdict is far from decided there; the SIGTERM test above stops them all early)
    names = _check(tmp_path, monkeypatch, ["robust", "puluc", "--games", "3000", "--chunk-size", "300", "--jobs", "1"],
                   after=5, sig=signal.SIGKILL)
    assert "robust.json" in names
    conds = json.loads((tmp_path / "b" / "out" / "robust.json").read_text())["conditions"]
    assert not any(c["stopped"] for c in conds)


TUNE = ["tune", "puluc", "--param", "track=7..15", "--param", "lots=2..6", "--target", "first_player=fair",
        "--budget", "3e4", "--final", "4000", "--jobs", "1"]


@pytest.mark.slow
def test_tune_resumes_after_sigterm(tmp_path, monkeypatch):
    # SIGTERM ends the search there and re-plays its finalists (exit 143, chunks kept);
    # the same command again searches on from the kept chunks to the uninterrupted verdict
    names = _check(tmp_path, monkeypatch, TUNE, after=8, exact=False)
    assert {"tune.json", "manifest.json", "variants.toml"} <= set(names)


@pytest.mark.slow
def test_tune_resumes_after_kill_9(tmp_path, monkeypatch):
    names = _check(tmp_path, monkeypatch, TUNE, after=8, sig=signal.SIGKILL)
    assert "tune.json" in names


# ------------------------------------------------------------------ in this process
def test_timing_fields_are_the_only_fields_left_out():
    saved = {"seed": 3, "seconds": 1.5, "manifest": {"started": "x", "cpu_seconds": 2.0, "games": 10,
                                                     "seconds_search": 1.0, "finished": "y"},
             "rows": [{"seconds": 4, "n": 1}]}
    assert without_timing(saved) == {"seed": 3, "manifest": {"games": 10}, "rows": [{"n": 1}]}
    assert set(TIMING_FIELDS) == {"started", "finished", "seconds", "seconds_search", "cpu_seconds"}


def test_a_task_result_reads_back_bit_for_bit(tmp_path):
    s = Summary(2)
    result = (1000, 500, {"n": 500, "s": np.array([0.1, 1 / 3]), "S2": np.eye(2) / 7},
              {0: {"n": 500, "s": np.array([np.pi])}, 3: None}, np.float64(0.25), [s, (1, "x")],
              np.array([2**64 - 1], np.uint64))
    with checkpoints(tmp_path) as kept:
        store = task_store("robust", "puluc", 1, [np.arange(3)])
        store.save(result)
        back = store.load(1000, 500)
        assert kept.reused == 1
        assert task_store("robust", "puluc", 2, [np.arange(3)]).load(1000, 500) is None  # another key
    assert isinstance(store, TaskStore)
    assert back[:2] == (1000, 500)
    assert back[2]["s"].tolist() == result[2]["s"].tolist() and back[2]["S2"].tolist() == result[2]["S2"].tolist()
    assert set(back[3]) == {0, 3} and back[3][0]["s"].tolist() == [np.pi] and back[3][3] is None
    assert back[4] == 0.25 and isinstance(back[4], np.float64)
    assert back[5][0].to_dict() == s.to_dict() and back[5][1] == (1, "x")
    assert back[6].dtype == np.uint64 and int(back[6][0]) == 2**64 - 1
    assert task_store("robust") is None  # outside a checkpoints block nothing is kept


def test_robust_counts_the_games_its_figures_rest_on_whatever_the_dispatch(monkeypatch):
    """Tasks dispatched ahead (threads here, processes with --jobs) carry conditions that an
    early stop merged meanwhile drops: ``games_played`` counts the merged games only, so it is
    the same as with one task at a time (it counted the games those tasks played, which
    depends on timing).  The early stop is staged: one condition decided per chunk."""
    import analysis.robust as R
    from analysis.robust_runs import robust

    def one_a_chunk(layout, metric, base, conds, z=None):
        return {"rows": [{"status": "holds" if i == 0 else "unclear"} for i in range(len(conds))]}

    monkeypatch.setattr(R, "evaluate", one_a_chunk)
    kw = dict(seed=4, chunk_size=500, progress=False, combine=False)
    one = robust("puluc", 8000, jobs=1, backend="sequential", **kw)
    ahead = robust("puluc", 8000, jobs=2, backend="threading", **kw)
    assert sorted(c.stats["n"] for c in one.conditions)[:2] == [2000, 2500]  # staged stops
    assert one.manifest["games_played"] == ahead.manifest["games_played"]
    assert json.dumps(one.to_dict()["conditions"]) == json.dumps(ahead.to_dict()["conditions"])
