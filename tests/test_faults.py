"""Nothing lost, nothing stale, nothing crashes: faults injected into runs in this process.

Each test breaks a run the way the issue found it broken (a report that crashed, a data
file edited under a run, foreign or corrupt chunks, a user's folder, options that
contradict a resume, a save cut short, a full disk, a second process) and checks that
the directory stays consistent and that finishing the run gives, bit for bit, the
result of an uninterrupted run.  Faults that need real processes (kill -9, SIGTERM, a
dying worker) are in tests/test_faults_processes.py.
"""
import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import sim.runner as runner
from sim import simulate
from sim.cli import cli
from sim.io import atomic_write
from sim.resources import bytes_per_game
from sim.output import load_run

ROOT = Path(__file__).resolve().parents[1]
MAYA_BOARD = ROOT / "seeds" / "maya" / "board.toml"


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def one_error_line(r, status=2):
    assert r.exit_code == status, (r.exit_code, r.output)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("sim: error:"), r.output
    return lines[0]


def rows_of(d) -> pd.DataFrame:
    return pd.read_parquet(Path(d) / "results").sort_values("game").reset_index(drop=True)


def same_run(a, b):
    """Two run directories hold the same games, bit for bit: rows and merged statistics."""
    pd.testing.assert_frame_equal(rows_of(a), rows_of(b))
    assert json.loads((Path(a) / "summary.json").read_text()) == \
        json.loads((Path(b) / "summary.json").read_text())


def snapshot(d) -> dict:
    """Every file under ``d`` with its content hash."""
    d = Path(d)
    if not d.exists():
        return {}
    return {str(p.relative_to(d)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(d.rglob("*")) if p.name != ".lock"}  # the lock file holds no data


REF_ARGS = ["puluc", "--games", 3000, "--bots", "greedy,random", "--seed", 7, "--jobs", 1, "-q"]


def ref_spec():
    return runner.make_spec("puluc", 3000, bots="greedy,random", seed=7)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run: 3,000 Puluc games (greedy against random), seed 7."""
    d = tmp_path_factory.mktemp("ref") / "run"
    r = run(*REF_ARGS, "--chunk-size", 500, "--out", d)
    assert r.exit_code == 0, r.output
    return d


def interrupted_run(d, monkeypatch, after=3, chunk_size=500):
    """The reference run stopped by Ctrl-C after ``after`` chunks (no report written: the
    state a run killed mid-way leaves)."""
    real = runner._play_chunk
    calls = {"n": 0}

    def flaky(*a, **k):
        calls["n"] += 1
        if calls["n"] > after:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(runner, "_play_chunk", flaky)
    res = runner.execute(ref_spec(), jobs=1, chunk_size=chunk_size, progress=False, rows="disk",
                         out_dir=d)
    monkeypatch.setattr(runner, "_play_chunk", real)
    assert res.partial and res.summary.n == after * chunk_size
    return res


def resume_in_process(d):
    """Finish the run in ``d`` as --resume does, without writing a report."""
    return runner.execute(ref_spec(), jobs=1, progress=False, rows="disk", out_dir=d)


# ------------------------------------------------------------ 1. 0% and 100% win rates
def test_wilson_interval_holds_the_rate_at_0_and_100_percent():
    from analysis.stats import wilson, wilson_array
    for k, n in [(10, 10), (0, 10), (1000, 1000), (0, 1), (3, 3), (7, 7)]:
        lo, hi = wilson(k, n)
        assert lo <= k / n <= hi, (k, n, lo, hi)
    lo, hi = wilson_array(np.array([10.0, 0.0, 7.0]), np.array([10.0, 10.0, 7.0]))
    assert np.all(lo <= np.array([1.0, 0.0, 1.0])) and np.all(hi >= np.array([1.0, 0.0, 1.0]))


@pytest.mark.parametrize("args", [["--games", 10, "--bots", "search,random"],
                                  ["--games", 1000, "--set", "cap=1"]])
def test_a_seat_winning_every_game_is_reported(tmp_path, args):
    d = tmp_path / "r"
    r = run("puluc", *args, "--jobs", 1, "-q", "--out", d)
    assert r.exit_code == 0, r.output
    summary, manifest = load_run(d)
    rates = summary.win / summary.n
    assert rates.max() == 1.0 or rates.min() == 0.0 or summary.win_pos.max() in (0, summary.n)
    assert (d / "index.html").is_file() and (d / "win_rates.png").is_file()
    (d / "index.html").unlink()
    assert run("report", d).exit_code == 0 and (d / "index.html").is_file()


# ------------------------------------------------------------ 2. data files by content
def _maya_board(path, levels):
    text = MAYA_BOARD.read_text()
    path.write_text(text.replace("levels = 5", f"levels = {levels}"))
    assert f"levels = {levels}" in path.read_text()
    return path


def test_an_edited_data_file_is_a_different_run(tmp_path):
    board = _maya_board(tmp_path / "board.toml", 5)
    d = tmp_path / "run"
    args = ["maya", "--games", 400, "--chunk-size", 100, "--jobs", 1, "-q", "--set", f"board={board}"]
    assert run(*args, "--out", d).exit_code == 0
    _maya_board(board, 4)                           # the board is edited between runs
    before = snapshot(d)
    line = one_error_line(run(*args, "--out", d))
    assert "data file" in line and "changed" in line
    line = one_error_line(run("maya", "--resume", d, "--jobs", 1, "-q"))
    assert "data file" in line
    assert snapshot(d) == before                    # nothing reused, nothing written


def test_a_run_plays_every_chunk_on_the_data_it_was_checked_with(tmp_path):
    """The board is read once, when the run is checked: editing it mid-run changes nothing."""
    board = _maya_board(tmp_path / "board.toml", 5)
    spec = runner.make_spec("maya", 300, {"board": str(board)}, seed=3)
    _maya_board(board, 4)                           # edited after the run started
    mid = runner.execute(spec, jobs=1, chunk_size=100, progress=False, rows="memory")
    _maya_board(board, 5)
    clean = simulate("maya", 300, rules={"board": str(board)}, seed=3, jobs=1)
    pd.testing.assert_frame_equal(mid.frame, clean)
    assert spec.data["files"] and spec.fingerprint()["data"] == spec.data


# ------------------------------------------------------------ 3. foreign chunks
def test_foreign_chunks_are_never_reused(tmp_path, reference):
    d = tmp_path / "d"
    r = run("puluc", "--games", 3000, "--bots", "greedy,random", "--seed", 7, "--chunk-size", 500,
            "--jobs", 1, "-q", "--set", "track=9", "--out", d)
    assert r.exit_code == 0
    (d / "run.json").unlink()                       # the run's identity is lost
    r = run(*REF_ARGS, "--chunk-size", 500, "--out", d)
    assert r.exit_code == 0, r.output
    assert "Resumed" not in r.output
    manifest = json.loads((d / "manifest.json").read_text())
    assert manifest["chunks_resumed"] == 0 and manifest["rules_changed"] == {}
    same_run(d, reference)
    assert len(list((d / "results").iterdir())) == 6  # no part of the other run is left


def test_a_record_of_another_run_is_not_reused(tmp_path, monkeypatch, reference):
    d = tmp_path / "d"
    interrupted_run(d, monkeypatch)
    rec = sorted((d / "chunks").iterdir())[0]
    data = json.loads(rec.read_text())
    data["run"] = "0" * 64                          # a well-formed record of another run
    rec.write_text(json.dumps(data))
    res = resume_in_process(d)
    assert res.manifest["chunks_resumed"] == 2
    assert res.summary.to_json() == (reference / "summary.json").read_text()
    pd.testing.assert_frame_equal(rows_of(d), rows_of(reference))


# ------------------------------------------------------------ 4. corrupt parts and records
CORRUPTIONS = {
    "truncated part": lambda d, p, rec: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "flipped byte in part": lambda d, p, rec: p.write_bytes(
        p.read_bytes()[:100] + bytes([p.read_bytes()[100] ^ 1]) + p.read_bytes()[101:]),
    "missing part": lambda d, p, rec: p.unlink(),
    "record []": lambda d, p, rec: rec.write_text("[]"),
    "record null": lambda d, p, rec: rec.write_text("null"),
    "record {}": lambda d, p, rec: rec.write_text("{}"),
    "record truncated": lambda d, p, rec: rec.write_text(rec.read_text()[:40]),
    "record binary": lambda d, p, rec: rec.write_bytes(b"\xff\xfe\x00garbage"),
    "record is a directory": lambda d, p, rec: (rec.unlink(), rec.mkdir()),
    "record of an old format": lambda d, p, rec: rec.write_text(
        json.dumps(json.loads(rec.read_text())["summary"])),
}


@pytest.mark.parametrize("what", list(CORRUPTIONS))
def test_a_corrupt_chunk_is_played_again(tmp_path, monkeypatch, reference, what):
    d = tmp_path / "d"
    interrupted_run(d, monkeypatch)
    part = d / "results" / "part-000000000500.parquet"
    rec = d / "chunks" / "000000000500-500.json"
    CORRUPTIONS[what](d, part, rec)
    res = resume_in_process(d)
    assert res.manifest["chunks_resumed"] == 2 and res.summary.n == 3000 and not res.partial
    assert res.summary.to_json() == (reference / "summary.json").read_text()
    pd.testing.assert_frame_equal(rows_of(d), rows_of(reference))  # pd.read_parquet(D/results)


def test_atomic_write_flushes_the_file_and_its_folder(tmp_path, monkeypatch):
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(os.path.realpath(f"/proc/self/fd/{fd}"))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    path = atomic_write(tmp_path / "x.json", lambda tmp: Path(tmp).write_text("{}"))
    assert any(s.startswith(str(tmp_path / ".x.json.")) for s in synced), synced  # the file
    assert str(tmp_path) in synced                                               # its folder
    assert path.read_text() == "{}"


def test_report_files_follow_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        p = atomic_write(tmp_path / "a.txt", lambda tmp: Path(tmp).write_text("x"))
        assert p.stat().st_mode & 0o777 == 0o640
        os.umask(0o022)
        p = atomic_write(tmp_path / "b.txt", lambda tmp: Path(tmp).write_text("x"))
        assert p.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


# ------------------------------------------------------------ 5. a user's folder
@pytest.mark.parametrize("command", [["puluc", "--games", 100], ["compare", "puluc", "--games", 100,
                                                                 "--variant", "a:", "--variant", "b:track=9"]])
def test_a_folder_holding_other_files_is_refused(tmp_path, command):
    d = tmp_path / "mine"
    d.mkdir()
    (d / "index.html").write_text("<p>my page</p>")
    (d / "manifest.json").write_text('{"name": "my project"}')
    pd.DataFrame({"a": [1, 2]}).to_parquet(d / "data.parquet")
    before = snapshot(d)
    line = one_error_line(run(*command, "--jobs", 1, "-q", "--out", d))
    assert "not empty" in line
    assert snapshot(d) == before


def test_runs_and_experiments_do_not_write_into_each_other(tmp_path, reference):
    d = tmp_path / "run"
    shutil.copytree(reference, d)
    before = snapshot(d)
    line = one_error_line(run("compare", "puluc", "--games", 100, "--variant", "a:",
                              "--variant", "b:track=9", "--jobs", 1, "--out", d))
    assert "holds a run" in line and snapshot(d) == before


# ------------------------------------------------------------ 6. --resume and other options
@pytest.mark.parametrize("extra", [["--set", "track=9"], ["--games", 999], ["--seed", 5],
                                   ["--bots", "random"], ["--players", 3], ["--no-raw"],
                                   ["--out", "OTHER"], ["--chunk-size", 7]])
def test_resume_refuses_options_that_change_the_run(tmp_path, monkeypatch, extra):
    d = tmp_path / "d"
    interrupted_run(d, monkeypatch)
    extra = [str(tmp_path / "other") if x == "OTHER" else x for x in extra]
    before = snapshot(d)
    line = one_error_line(run("puluc", "--resume", d, "--jobs", 1, *extra))
    assert "--resume" in line
    assert snapshot(d) == before and not (tmp_path / "other").exists()


def test_resume_takes_the_options_that_cannot_change_results(tmp_path, monkeypatch, reference):
    d = tmp_path / "d"
    interrupted_run(d, monkeypatch)
    r = run("puluc", "--resume", d, "--jobs", 1, "--backend", "sequential", "-q", "--games", "3e3",
            "--seed", 7, "--set", "track=11", "--bots", "greedy,random", "--out", d)
    assert r.exit_code == 0, r.output
    same_run(d, reference)


# ------------------------------------------------------------ 7. manifest and summary
def test_a_save_cut_short_leaves_no_manifest_and_a_resume_writes_the_pair(tmp_path, monkeypatch,
                                                                           reference):
    import analysis.report
    d = tmp_path / "d"
    interrupted_run(d, monkeypatch)
    real = analysis.report.write_report

    def cut(*a, **k):
        raise KeyboardInterrupt   # the resume is stopped while it writes its report
    monkeypatch.setattr(analysis.report, "write_report", cut)
    r = run("puluc", "--resume", d, "--jobs", 1, "-q")
    assert r.exit_code == 130 and "--resume" in r.output
    assert not (d / "manifest.json").exists()      # never a partial manifest beside a full summary
    line = one_error_line(run("report", d))
    assert "interrupted" in line and "--resume" in line
    monkeypatch.setattr(analysis.report, "write_report", real)
    r = run("puluc", "--resume", d, "--jobs", 1, "-q")
    assert r.exit_code == 0 and "Resumed: 6 finished chunks" in r.output
    summary, manifest = load_run(d)
    assert manifest["games_completed"] == summary.n == 3000 and not manifest["partial"]
    same_run(d, reference)


def test_a_summary_that_does_not_match_its_manifest_is_refused(tmp_path, reference):
    d = tmp_path / "d"
    shutil.copytree(reference, d)
    s = json.loads((d / "summary.json").read_text())
    s["n"] = 1500
    (d / "summary.json").write_text(json.dumps(s))
    assert "not the one manifest.json describes" in one_error_line(run("report", d))


# ------------------------------------------------------------ stops at every phase
def test_ctrl_c_while_the_kernel_loads_leaves_a_resumable_run(tmp_path, monkeypatch, reference):
    from sim.games import get
    game = get("puluc")
    real = game.run_chunk

    def loading(ctx, players, seed, start, count, *a):
        if count == 0:
            raise KeyboardInterrupt      # during the compile (or cache load) before any chunk
        return real(ctx, players, seed, start, count, *a)

    monkeypatch.setattr(game, "run_chunk", loading)
    d = tmp_path / "d"
    # the kernel loads first for the run's estimate (sim.longrun), before anything is written
    r = run(*REF_ARGS, "--chunk-size", 500, "--out", d)
    assert r.exit_code == 130 and "interrupted before the run started; nothing was written" in r.output
    assert not d.exists()
    # with --yes (no estimate asked for), the run's own load: a resumable run
    r = run(*REF_ARGS, "--chunk-size", 500, "--out", d, "--yes")
    assert r.exit_code == 130 and "before any game finished" in r.output and "--resume" in r.output
    assert not (d / "manifest.json").exists() and (d / "run.json").is_file()
    monkeypatch.setattr(game, "run_chunk", real)
    assert run("puluc", "--resume", d, "--jobs", 1, "-q").exit_code == 0
    same_run(d, reference)


def test_sigterm_stops_like_ctrl_c_with_status_143(tmp_path, monkeypatch, reference):
    real = runner._play_chunk
    calls = {"n": 0}

    def term_after_three(*a, **k):
        calls["n"] += 1
        if calls["n"] == 4:
            os.kill(os.getpid(), signal.SIGTERM)
        return real(*a, **k)

    monkeypatch.setattr(runner, "_play_chunk", term_after_three)
    d = tmp_path / "d"
    r = run(*REF_ARGS, "--chunk-size", 500, "--out", d)
    assert r.exit_code == 143, r.output
    assert "Terminated: kept 1,500 finished games" in r.output and "--resume" in r.output
    m = json.loads((d / "manifest.json").read_text())
    assert m["partial"] and m["stopped"] == "terminated" and "Partial run" in (d / "index.html").read_text()
    monkeypatch.setattr(runner, "_play_chunk", real)
    assert signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None) or callable(signal.getsignal(signal.SIGTERM))
    assert run("puluc", "--resume", d, "--jobs", 1, "-q").exit_code == 0
    same_run(d, reference)


def test_a_dying_worker_gives_one_line_a_partial_report_and_the_resume_command(tmp_path, monkeypatch,
                                                                              reference):
    from joblib.externals.loky.process_executor import TerminatedWorkerError
    real = runner._play_chunk
    calls = {"n": 0}

    def dies(*a, **k):
        calls["n"] += 1
        if calls["n"] == 4:
            raise TerminatedWorkerError("A worker process managed by the executor was unexpectedly "
                                        "terminated.")
        return real(*a, **k)

    monkeypatch.setattr(runner, "_play_chunk", dies)
    d = tmp_path / "d"
    r = run(*REF_ARGS, "--chunk-size", 500, "--out", d)
    assert r.exit_code == 1
    err = [x for x in r.output.splitlines() if x.startswith("sim: error:")]
    assert len(err) == 1 and "worker process died" in err[0] and f"--resume {d}" in err[0]
    assert json.loads((d / "manifest.json").read_text())["games_completed"] == 1500
    monkeypatch.setattr(runner, "_play_chunk", real)
    assert run("puluc", "--resume", d, "--jobs", 1, "-q").exit_code == 0
    same_run(d, reference)


# ------------------------------------------------------------ a full disk
@pytest.fixture
def small_disk(tmp_path):
    """A 64 kB tmpfs where we are root and may mount; else None (a fake writer is used)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    ok = os.geteuid() == 0 and shutil.which("mount") and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
        capture_output=True).returncode == 0
    yield mnt if ok else None
    if ok:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_full_disk_keeps_the_finished_chunks_and_says_how_to_resume(tmp_path, monkeypatch,
                                                                     small_disk, reference):
    from sim.store import ChunkStore
    # the up-front check would refuse this run: the disk looks large enough at the start
    import sim.resources
    monkeypatch.setattr(sim.resources, "_free_space", lambda out_dir: (Path(out_dir), 10 ** 12))
    if small_disk is not None:
        d = small_disk / "run"
    else:  # a writer that fails like a full disk after three chunks
        d = tmp_path / "run"
        real = ChunkStore.save_rows
        calls = {"n": 0}

        def full(self, start, frame):
            calls["n"] += 1
            if calls["n"] > 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self.rows_path(start)))
            return real(self, start, frame)
        monkeypatch.setattr(ChunkStore, "save_rows", full)
    r = run(*REF_ARGS, "--chunk-size", 500, "--out", d)
    assert r.exit_code == 1, r.output
    err = [x for x in r.output.splitlines() if x.startswith("sim: error:")]
    assert len(err) == 1 and "full" in err[0], r.output
    assert str(d) in err[0] and "--resume" in err[0] and ("MB" in err[0] or "kB" in err[0])
    kept = list((d / "chunks").glob("*.json"))
    assert kept and not list(d.rglob(".*.part"))    # finished chunks kept, no half-written file
    if small_disk is not None:
        subprocess.run(["mount", "-o", "remount,size=20m", str(small_disk)], check=True)
    else:
        monkeypatch.undo()
    r = run("puluc", "--resume", d, "--jobs", 1, "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((d / "manifest.json").read_text())["chunks_resumed"] == len(kept)
    same_run(d, reference)


def test_the_disk_check_counts_each_part_and_the_report(tmp_path):
    spec = runner.make_spec("puluc", 100_000)
    one_chunk = runner.disk_needed(spec, 1, "disk")
    per_game = runner.disk_needed(spec, 100_000, "disk")   # --chunk-size 1
    assert one_chunk >= runner.REPORT_BYTES + 100_000 * bytes_per_game(spec.game, 2)
    assert per_game - one_chunk > 99_999 * 5_000             # a part and a record per game


# ------------------------------------------------------------ one process per directory
def test_a_second_process_cannot_use_a_run_directory(tmp_path, monkeypatch, reference):
    from sim.lock import RunLock
    d = tmp_path / "d"
    interrupted_run(d, monkeypatch)
    before = snapshot(d)
    done = tmp_path / "done"
    shutil.copytree(reference, done)
    with RunLock(d), RunLock(done):
        line = one_error_line(run("puluc", "--resume", d, "--jobs", 1, "-q"))
        assert "in use by another sim process" in line and str(os.getpid()) in line
        assert "in use" in one_error_line(run("report", done))
    assert snapshot(d) == before
    assert run("puluc", "--resume", d, "--jobs", 1, "-q").exit_code == 0


# ------------------------------------------------------------ resources
def test_the_python_api_and_the_command_share_the_default_seed(tmp_path):
    d = tmp_path / "d"
    assert run("puluc", "--games", 500, "--jobs", 1, "-q", "--out", d).exit_code == 0
    pd.testing.assert_frame_equal(simulate("puluc", 500, jobs=1), rows_of(d), check_dtype=True)


def test_jobs_beyond_the_cores_are_clamped_with_a_message(tmp_path):
    from sim.validate import cores
    d = tmp_path / "d"
    r = run("puluc", "--games", 300, "--jobs", 99999999999999999999, "--backend", "threading", "-q",
            "--out", d)
    assert r.exit_code == 0, r.output
    assert f"using {cores()}" in r.output
    assert json.loads((d / "manifest.json").read_text())["jobs"] == cores()


@pytest.mark.parametrize("args, words", [
    (["--games", "1e10", "--yes"], [("hours", "days"), "chunks"]),   # days on a slow or busy machine
    (["--games", "2e7", "--chunk-size", 200], ["100,000 chunks", "write about"]),
])
def test_a_long_run_says_how_long_and_how_much_disk_first(tmp_path, monkeypatch, args, words):
    import sim.commands.run
    said = []

    def note(text):
        said.append(text)
        if "will take" in text:
            raise KeyboardInterrupt    # stop before playing: the estimate is what we test

    monkeypatch.setattr(sim.commands.run, "_note", note)
    monkeypatch.setattr(runner, "check_disk", lambda *a, **k: 0)
    r = run("puluc", *args, "--jobs", 1, "-q", "--out", tmp_path / "d")
    assert r.exit_code == 130, r.output
    estimate = [s for s in said if "will take" in s]
    assert estimate and all(any(a in estimate[0] for a in ((w,) if isinstance(w, str) else w))
                            for w in words), said


def test_a_run_of_the_previous_format_is_refused_in_one_line(tmp_path, monkeypatch):
    d = tmp_path / "d"
    interrupted_run(d, monkeypatch)
    meta = json.loads((d / "run.json").read_text())
    old = {"fingerprint": {k: v for k, v in meta["fingerprint"].items() if k != "data"},
           "chunk_size": meta["chunk_size"], "rows": meta["rows"], "sim_version": "0.1.0"}
    (d / "run.json").write_text(json.dumps(old))
    before = snapshot(d)
    assert "older sim" in one_error_line(run("puluc", "--resume", d, "--jobs", 1, "-q"))
    assert snapshot(d) == before


def test_an_experiment_whose_dask_cluster_is_lost_is_one_line_exit_1_and_finishes_again(tmp_path,
                                                                                       monkeypatch):
    """The engine says the scheduler was lost after two chunks (sim.faults: the real cluster
    is killed in test_faults_processes): one line with the command that finishes it."""
    import sys

    import analysis.experiment_runs as E
    from sim.faults import DaskLost
    real = E.run_chunks

    def lost_after_two(task, tasks, jobs, backend, scheduler, collect, **kw):
        for args in list(tasks)[:2]:
            collect(task(*args))
        return runner.Stop.CLUSTER, DaskLost("scheduler", "tcp://127.0.0.1:8786")

    d = tmp_path / "cmp"
    args = ["compare", "puluc", "--games", "2000", "--chunk-size", "500", "--jobs", "1", "-q",
            "--variant", "a:", "--variant", "b:track=9", "-o", str(d)]
    monkeypatch.setattr(sys, "argv", ["sim", *args])
    monkeypatch.setattr(E, "run_chunks", lost_after_two)
    line = one_error_line(run(*args), status=1)
    assert line.startswith("sim: error: lost the Dask scheduler at tcp://127.0.0.1:8786; the finished "
                           "chunks are kept"), line
    assert line.endswith(f"same folder: sim {' '.join(args)}"), line
    assert len(list((d / ".chunks").rglob("*.json"))) == 2
    monkeypatch.setattr(E, "run_chunks", real)
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert not (d / ".chunks").exists()


def test_the_errors_of_a_lost_dask_cluster_are_recognised_and_others_are_not():
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    from sim.faults import DaskLost, lost_from
    addr = "tcp://127.0.0.1:8786"
    lost = lost_from(FutureCancelledError("k", "scheduler-connection-lost"), addr)
    assert isinstance(lost, DaskLost) and lost.what == "scheduler" and str(lost) == f"lost the Dask scheduler at {addr}"
    assert lost_from(CommClosedError("in <TCP>: Stream is closed"), addr).what == "scheduler"
    joblib_no_worker = TimeoutError("DaskDistributedBackend has no worker after 10 seconds. Make sure ...")
    none = lost_from(joblib_no_worker, addr)
    assert none.what == "workers" and str(none) == f"the Dask scheduler at {addr} has had no worker for 10 s"
    assert runner.stop_reason(lost) == (runner.Stop.CLUSTER, lost)
    for other in (FutureCancelledError("k", "scheduler-restart"), TimeoutError("slow"), ValueError("x"),
                  KeyboardInterrupt()):
        assert lost_from(other, addr) is None
