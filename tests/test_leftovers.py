"""What a stopped run leaves behind is cleaned by the next run of that folder: its own
temporaries only (#22.7c, #22.7g)."""
import pandas as pd

import sim.runner as runner
from sim.parallel import run_tasks
from sim.runner import execute
from sim.spec import make_spec


def _stopped_run(out, monkeypatch, games=2_000, chunk=500, after=2):
    """A run into ``out`` stopped by Ctrl-C after ``after`` chunks (its rows on disk)."""
    spec = make_spec("puluc", games, bots="greedy,random", seed=7)
    real = runner._play_chunk
    calls = {"n": 0}

    def interrupted(*a, **k):
        calls["n"] += 1
        if calls["n"] > after:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(runner, "_play_chunk", interrupted)
    part = execute(spec, jobs=1, chunk_size=chunk, progress=False, rows="disk", out_dir=out)
    monkeypatch.setattr(runner, "_play_chunk", real)
    assert part.partial and part.summary.n == after * chunk
    return spec


def test_resume_removes_the_runs_own_temporaries_and_nothing_else(tmp_path, monkeypatch):
    out = tmp_path / "run"
    spec = _stopped_run(out, monkeypatch)
    rows = out / "results"
    # what a kill -9 in the middle of writing leaves: atomic_write's temporaries, and a part
    # written under a temporary name (pandas.read_parquet(DIR/results) would read it as rows)
    pd.read_parquet(rows / "part-000000000000.parquet").to_parquet(rows / "part-000000001000.parquet.tmp")
    planted = [rows / "part-000000001000.parquet.tmp", rows / ".part-000000001000.parquet.k2j4x9q1.part",
               out / "chunks" / ".000000001000-500.json.ab12cd34.part", out / ".summary.json.zz9_y8x7.part"]
    for p in planted[1:]:
        p.write_text("half written")
    # not of this run's patterns: left alone
    others = [out / "notes.tmp", rows / "mine.parquet.bak", out / "chunks" / ".keep.part",
              tmp_path / ".x.abcdefgh.part"]
    for p in others:
        p.write_text("someone's")
    done = execute(spec, jobs=1, progress=False, rows="disk", out_dir=out)
    assert not done.partial and done.manifest["chunks_resumed"] == 2
    assert [p.name for p in planted if p.exists()] == []
    assert all(p.read_text() == "someone's" for p in others)
    (rows / "mine.parquet.bak").unlink()
    assert len(pd.read_parquet(rows)) == 2_000          # the documented way to read the rows




def test_local_processes_make_no_folder_in_dev_shm_and_a_killed_runs_leftovers_are_removed(tmp_path,
                                                                                          monkeypatch):
    import math
    import os
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from sim import scratch
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))   # this test's own folders
    (tmp_path / "tmp").mkdir()
    planted_shm = tmp_path / "shm"
    planted_shm.mkdir()
    monkeypatch.setattr(scratch, "SHM", planted_shm)
    dead = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True).stdout)
    live = os.getppid()
    # what a run killed with its process group (kill -9) leaves, and the same of a live process
    for pid in (dead, live):
        (tmp_path / "tmp" / f"sim-joblib-{pid}").mkdir()
        (planted_shm / f"joblib_memmapping_folder_{pid}_a_b").mkdir()
        (planted_shm / f"sem.loky-{pid}-x1y2").write_bytes(b"")
    (planted_shm / f"sem.mp-{dead}-other").write_bytes(b"")     # not a pool's: left alone
    real_shm = Path("/dev/shm")
    mine = f"joblib_memmapping_folder_{os.getpid()}_"
    seen, marked, got = [], [], []
    for r in run_tasks(math.sqrt, [(float(i),) for i in range(8)], 2, "loky"):
        got.append(r)    # while the pool is up (joblib removes its folder when a call ends)
        marked.append(Path(scratch.folder()).is_dir())
        if real_shm.is_dir():
            seen += [f.name for f in real_shm.iterdir() if f.name.startswith(mine)]
    assert sorted(got) == [math.sqrt(i) for i in range(8)]
    assert seen == [] and all(marked)
    assert not (tmp_path / "tmp" / f"sim-joblib-{os.getpid()}").exists()    # its own, removed at the end
    left = sorted(p.name for p in planted_shm.iterdir()) + sorted(p.name for p in (tmp_path / "tmp").iterdir())
    assert left == sorted([f"joblib_memmapping_folder_{live}_a_b", f"sem.loky-{live}-x1y2",
                           f"sem.mp-{dead}-other"]) + [f"sim-joblib-{live}"]
