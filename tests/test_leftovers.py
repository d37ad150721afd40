"""What a stopped run leaves behind is cleaned by the next run of that folder: its own
temporaries only (#22.7c, #22.7g)."""
import pandas as pd

import sim.runner as runner
from sim.runner import execute, make_spec


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
