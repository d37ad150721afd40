"""Faults that need real processes: kill -9 of the run or of a worker, SIGTERM, Ctrl-C with
chunks in flight in threads, kill -9 during the final save, Ctrl-C under Dask, a Dask
scheduler or its only worker killed.

A run is started as a user starts it (``python -m sim ...`` in its own session).  To
stop it at a known point, a ``sitecustomize`` module on its PYTHONPATH (here, written
by the test; the package has no test hooks) holds every chunk from a given game index
on, in the main process and in every worker: the first chunks finish and are recorded,
the rest wait, and the fault is injected then.  After each fault: the directory is
consistent, no process of the run is left, and finishing the run gives, bit for bit,
the rows and statistics of an uninterrupted run.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest
from click.testing import CliRunner

from sim import runner
from sim.cli import cli
from sim.output import load_rows

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
GAMES, CHUNK, HOLD_FROM = 12_000, 1_000, 4_000

SITECUSTOMIZE = '''
import os
fault = os.environ.get("SIM_TEST_FAULT", "")
if os.environ.get("SIM_TEST_NO_WORKERS_WAIT"):
    import sim.faults as _f
    _f.NO_WORKERS_WAIT = float(os.environ["SIM_TEST_NO_WORKERS_WAIT"])
if fault.startswith("hold_from="):
    import time
    import sim.runner as _r
    _hold_from = int(fault.split("=")[1])
    _real = _r._play_chunk

    def _play_chunk(game_name, ctx, players, seed, start, count, *a):
        if start >= _hold_from:
            time.sleep(600)          # a chunk that will not finish before the fault
        return _real(game_name, ctx, players, seed, start, count, *a)

    _r._play_chunk = _play_chunk
elif fault == "kill_in_report":
    import signal
    import analysis.report as _rep

    def write_report(*a, **k):
        os.kill(os.getpid(), signal.SIGKILL)   # kill -9 while the report is written

    _rep.write_report = write_report
'''


@pytest.fixture(scope="module")
def inject(tmp_path_factory):
    d = tmp_path_factory.mktemp("inject")
    (d / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return d


@pytest.fixture(scope="module")
def reference():
    """The rows and statistics of the uninterrupted run."""
    spec = runner.make_spec("puluc", GAMES, bots="greedy,random", seed=3)
    res = runner.execute(spec, jobs=1, chunk_size=CHUNK, progress=False, rows="memory")
    return res.frame, res.summary.to_dict()


def start(out, inject, fault, *extra, jobs=2, env=None):
    env = dict(os.environ, PYTHONPATH=f"{inject}{os.pathsep}{ROOT}", SIM_TEST_FAULT=fault, **(env or {}))
    return subprocess.Popen(
        [sys.executable, "-m", "sim", "puluc", "--games", str(GAMES), "--bots", "greedy,random",
         "--seed", "3", "--chunk-size", str(CHUNK), "--jobs", str(jobs), "--raw", "-q",
         "--out", str(out), *extra],
        cwd=out.parent, env=env, start_new_session=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_chunks(p, out, n, timeout=180):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert p.poll() is None, p.communicate()
        if len(list((out / "chunks").glob("*.json"))) >= n if (out / "chunks").is_dir() else False:
            time.sleep(0.3)      # the held chunks are now being played (and held)
            return
        time.sleep(0.1)
    raise AssertionError(f"fewer than {n} chunks finished in {timeout} s")


def shm_folders(pid):
    """joblib's memory-mapping folders of process ``pid`` in /dev/shm."""
    shm = Path("/dev/shm")
    return sorted(f.name for f in shm.iterdir() if f.name.startswith(f"joblib_memmapping_folder_{pid}_")) \
        if shm.is_dir() else []


def family(pid):
    """The processes the run started (workers, resource trackers, a Dask cluster)."""
    return psutil.Process(pid).children(recursive=True)


def all_gone(procs, timeout=15):
    deadline = time.monotonic() + timeout
    alive = procs
    while time.monotonic() < deadline:
        alive = []
        for p in procs:
            try:
                if p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(p)
            except psutil.NoSuchProcess:
                pass
        if not alive:
            return []
        time.sleep(0.2)
    for p in alive:     # do not leave them behind for the next test
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    return alive


def finish_and_compare(out, reference, expect_resumed, report=False):
    """Finish the run (as ``--resume`` does; through the command when ``report``) and
    compare it with the uninterrupted run, bit for bit."""
    frame, summary = reference
    if report:
        r = CliRunner().invoke(cli, ["puluc", "--resume", str(out), "--jobs", "1", "-q"])
        assert r.exit_code == 0, r.output
        m = json.loads((out / "manifest.json").read_text())
        assert json.loads((out / "summary.json").read_text()) == json.loads(json.dumps(summary))
    else:
        spec = runner.make_spec("puluc", GAMES, bots="greedy,random", seed=3)
        res = runner.execute(spec, jobs=1, progress=False, rows="disk", out_dir=out)
        m = res.manifest
        assert res.summary.to_dict() == summary
    assert m["chunks_resumed"] == expect_resumed and not m["partial"]
    rows = load_rows(out)
    pd.testing.assert_frame_equal(rows.reset_index(drop=True), frame.reset_index(drop=True))


@pytest.mark.parametrize("backend", ["threading", "loky"])
def test_kill_9_of_the_run_leaves_no_worker_and_resumes_identically(tmp_path, inject, reference, backend):
    out = tmp_path / "run"
    p = start(out, inject, f"hold_from={HOLD_FROM}", "--backend", backend)
    wait_for_chunks(p, out, HOLD_FROM // CHUNK)
    kids = family(p.pid)
    if backend == "loky":
        assert any("loky" in " ".join(k.cmdline()) for k in kids), [k.cmdline() for k in kids]
    else:  # the default: the chunks play in threads of the run's own process
        assert kids == [], [k.cmdline() for k in kids]
    os.kill(p.pid, signal.SIGKILL)
    p.communicate(timeout=30)
    assert all_gone(kids) == [], "workers outlived the run"
    assert not (out / "manifest.json").exists() and len(list((out / "chunks").iterdir())) == 4
    assert shm_folders(p.pid) == [], "joblib's memory-mapping folders outlived the run"
    finish_and_compare(out, reference, 4)


def test_kill_9_of_a_worker_gives_one_line_a_partial_report_and_the_resume_command(tmp_path, inject,
                                                                                  reference):
    out = tmp_path / "run"
    p = start(out, inject, f"hold_from={HOLD_FROM}", "--backend", "loky")
    wait_for_chunks(p, out, HOLD_FROM // CHUNK)
    kids = family(p.pid)
    worker = next(k for k in kids if "LokyProcess" in " ".join(k.cmdline()))
    worker.kill()
    _, err = p.communicate(timeout=120)
    assert p.returncode == 1, err
    assert "Traceback" not in err and err.count("sim: error:") == 1, err
    line = next(x for x in err.splitlines() if x.startswith("sim: error:"))
    assert "worker process died" in line and f"sim puluc --resume {out}" in line
    m = json.loads((out / "manifest.json").read_text())
    assert m["partial"] and m["games_completed"] == HOLD_FROM and m["stopped"] == "worker died"
    assert "Partial run" in (out / "index.html").read_text()
    assert all_gone(kids) == []
    finish_and_compare(out, reference, 4)


@pytest.mark.parametrize("backend", ["threading", "loky"])
def test_sigterm_stops_cleanly_with_143_no_orphans_no_leaked_semaphores(tmp_path, inject, reference, backend):
    out = tmp_path / "run"
    p = start(out, inject, f"hold_from={HOLD_FROM}", "--backend", backend)
    wait_for_chunks(p, out, HOLD_FROM // CHUNK)
    kids = family(p.pid)
    os.kill(p.pid, signal.SIGTERM)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 143, err
    assert "Traceback" not in err and "leaked" not in err, err
    assert f"Terminated: kept {HOLD_FROM:,} finished games" in err and "--resume" in err
    assert json.loads((out / "manifest.json").read_text())["stopped"] == "terminated"
    assert all_gone(kids) == []
    assert not [f for f in os.listdir("/dev/shm") if f"loky-{p.pid}-" in f]
    assert shm_folders(p.pid) == []
    assert not (Path(tempfile.gettempdir()) / f"sim-joblib-{p.pid}").exists()   # its scratch folder
    finish_and_compare(out, reference, 4)


def test_ctrl_c_with_chunks_in_flight_in_threads_stops_at_once_and_keeps_the_finished(tmp_path, inject,
                                                                                    reference):
    """The default backend plays in threads, which cannot be stopped inside a chunk: Ctrl-C
    must not wait for the chunks in flight (here held for 600 s), and those are played again
    by the resume."""
    out = tmp_path / "run"
    p = start(out, inject, f"hold_from={HOLD_FROM}")
    wait_for_chunks(p, out, HOLD_FROM // CHUNK)
    t = time.monotonic()
    os.kill(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert time.monotonic() - t < 30, "Ctrl-C waited for the chunks in flight"
    assert p.returncode == 130, err
    assert "Traceback" not in err, err
    assert f"Interrupted: kept {HOLD_FROM:,} finished games" in err and "--resume" in err, err
    assert json.loads((out / "manifest.json").read_text())["stopped"] == "interrupted"
    finish_and_compare(out, reference, 4)


def test_kill_9_during_the_final_save_of_a_resume_never_shows_an_inconsistent_pair(tmp_path, inject,
                                                                                  reference):
    from sim.output import save_run
    out = tmp_path / "run"
    spec = runner.make_spec("puluc", GAMES, bots="greedy,random", seed=3)
    real = runner._play_chunk
    calls = {"n": 0}

    def stop_after_four(*a, **k):
        calls["n"] += 1
        if calls["n"] > HOLD_FROM // CHUNK:
            raise KeyboardInterrupt
        return real(*a, **k)

    runner._play_chunk = stop_after_four
    try:                                       # a partial run with its partial manifest
        part = runner.execute(spec, jobs=1, chunk_size=CHUNK, progress=False, rows="disk", out_dir=out)
    finally:
        runner._play_chunk = real
    save_run(part, out, report=False)
    assert json.loads((out / "manifest.json").read_text())["games_completed"] == HOLD_FROM
    env = dict(os.environ, PYTHONPATH=f"{inject}{os.pathsep}{ROOT}", SIM_TEST_FAULT="kill_in_report")
    q = subprocess.run([sys.executable, "-m", "sim", "puluc", "--resume", str(out), "--jobs", "1", "-q"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert q.returncode == -signal.SIGKILL, q.stderr
    # the full summary is written, the partial manifest is gone: no reader sees the two together
    assert json.loads((out / "summary.json").read_text())["n"] == GAMES
    assert not (out / "manifest.json").exists()
    r = CliRunner().invoke(cli, ["report", str(out)])
    assert r.exit_code == 2 and "interrupted" in r.output and "--resume" in r.output
    finish_and_compare(out, reference, GAMES // CHUNK, report=True)


def test_ctrl_c_under_dask_is_one_line(tmp_path, inject):
    out = tmp_path / "run"
    p = start(out, inject, f"hold_from={HOLD_FROM}", "--backend", "dask")
    wait_for_chunks(p, out, HOLD_FROM // CHUNK)
    kids = family(p.pid)
    os.killpg(p.pid, signal.SIGINT)            # as a terminal's Ctrl-C: the whole group
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("Interrupted: kept"), err
    assert all_gone(kids, timeout=30) == []


@pytest.fixture
def dask_cluster(tmp_path, inject):
    """A Dask scheduler and one worker process of two threads (no nanny: a killed worker is
    not replaced), both on 127.0.0.1 only, started as a user starts them; every process is
    ended after the test.  Yields (address, scheduler process, worker process)."""
    dask = str(Path(sys.executable).with_name("dask"))
    # the held chunks, in the worker (and the scheduler, which unpickles the tasks)
    env = dict(os.environ, PYTHONPATH=f"{inject}{os.pathsep}{ROOT}", SIM_TEST_FAULT=f"hold_from={HOLD_FROM}")
    info = tmp_path / "scheduler.json"
    procs = []

    def spawn(*args):
        log = open(tmp_path / f"{args[0]}.log", "w")
        procs.append(subprocess.Popen([dask, *args], cwd=tmp_path, env=env, stdout=log,
                                      stderr=subprocess.STDOUT, start_new_session=True))
        return procs[-1]

    try:
        sched = spawn("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                      "--scheduler-file", str(info))
        deadline = time.monotonic() + 60
        while not info.is_file() and time.monotonic() < deadline:
            assert sched.poll() is None, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:"), address
        worker = spawn("worker", address, "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "2",
                       "--no-nanny", "--no-dashboard")
        yield address, sched, worker
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait(timeout=30)


def _lost_cluster(tmp_path, inject, reference, dask_cluster, victim):
    """Start a run on the cluster, hold it after 4 finished chunks, kill ``victim``; returns
    the run's stderr lines after checking the exit status, the kept chunks and the resume."""
    address, sched, worker = dask_cluster
    out = tmp_path / "run"
    p = start(out, inject, f"hold_from={HOLD_FROM}", "--backend", "dask", "--scheduler", address,
              env={"SIM_TEST_NO_WORKERS_WAIT": "3"})  # the run's wait for a worker: 3 s, not 30
    try:
        wait_for_chunks(p, out, HOLD_FROM // CHUNK)
        (sched if victim == "scheduler" else worker).kill()
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 1, err
    assert "Traceback" not in err, err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert address in lines[0] and f"sim puluc --resume {out}" in lines[0], err
    m = json.loads((out / "manifest.json").read_text())
    assert m["partial"] and m["games_completed"] == HOLD_FROM and m["stopped"] == "dask cluster lost"
    assert len(list((out / "chunks").glob("*.json"))) == HOLD_FROM // CHUNK
    finish_and_compare(out, reference, HOLD_FROM // CHUNK)
    return lines[0]


def test_a_killed_dask_scheduler_is_one_line_exit_1_and_the_chunks_are_kept(tmp_path, inject, reference,
                                                                            dask_cluster):
    line = _lost_cluster(tmp_path, inject, reference, dask_cluster, "scheduler")
    assert line.startswith("sim: error: lost the Dask scheduler at tcp://127.0.0.1:"), line


def test_the_only_dask_worker_killed_is_one_line_exit_1_not_a_wait_forever(tmp_path, inject, reference,
                                                                          dask_cluster):
    line = _lost_cluster(tmp_path, inject, reference, dask_cluster, "worker")
    assert "has had no worker for 3 s" in line, line
