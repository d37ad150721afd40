"""Runs larger than memory and resumable runs: merged statistics, rows on disk, resume."""
import json

import numpy as np
import pandas as pd
import pytest

import sim.runner as runner
from analysis import metrics
from sim.games import get
from sim.output import load_rows
from sim.runner import execute
from sim.spec import make_spec
from sim.summary import Hist, Summary


def test_histogram_statistics_equal_numpy():
    rng = np.random.default_rng(0)
    for x in [rng.integers(-5, 300, 1001), rng.integers(0, 3, 10), np.array([7]), rng.poisson(40, 5000)]:
        h = Hist.of(x)
        assert h.n == x.size and h.total() == int(x.sum())
        assert h.mean() == pytest.approx(x.mean(), rel=1e-12)
        if x.size > 1:
            assert h.var() == pytest.approx(x.var(ddof=1), rel=1e-9)
        for q in (0, 0.05, 0.25, 0.5, 0.75, 0.95, 1):
            assert h.quantile(q) == pytest.approx(np.quantile(x, q), abs=1e-9)
        a, b = Hist.of(x[: x.size // 2]), Hist.of(x[x.size // 2:])
        m = a.merge(b)
        assert m.lo == h.lo and np.array_equal(m.counts, h.counts)


def test_merged_statistics_equal_the_figures_from_raw_rows():
    g = get("puluc")
    spec = make_spec(g, 20_000, bots="greedy,random", seed=4, rules={"cap": 60})
    res = execute(spec, jobs=1, chunk_size=1_111, progress=False, rows="memory")
    df = res.frame
    S = res.summary
    assert S.n == len(df) == 20_000
    direct = Summary.from_frame(df, g)
    assert direct.to_dict() == S.to_dict()
    # the figures, against pandas/numpy on the rows
    wr = metrics.seat_win_rates(S)
    for s in range(2):
        assert wr["rate"][s] == pytest.approx(df[f"win_{s}"].astype(float).mean(), abs=1e-12)
    first = df["first_player"].to_numpy()
    won_first = np.where(first == 0, df["win_0"], df["win_1"]).astype(float).mean()
    assert metrics.position_win_rates(S)["rate"][0] == pytest.approx(won_first, abs=1e-12)
    d = metrics.duration(S, "casts")
    x = df["casts"].to_numpy()
    assert d["mean"] == pytest.approx(x.mean(), rel=1e-12)
    assert d["sd"] == pytest.approx(x.std(ddof=1), rel=1e-9)
    for key, q in [("p5", .05), ("median", .5), ("p95", .95)]:
        assert d[key] == pytest.approx(np.quantile(x, q), abs=1e-9)
    oc = metrics.outcome_counts(S)
    assert oc["capped"] == int(df["capped"].sum()) and oc["no_winner"] == int((df["winner"] < 0).sum())
    sm = metrics.seat_means(S, "kills")
    assert sm["mean"][1] == pytest.approx(df["kills_1"].mean(), rel=1e-12)


def test_rows_none_keeps_no_rows_and_same_statistics(tmp_path):
    spec = make_spec("puluc", 5_000, seed=9)
    a = execute(spec, jobs=1, chunk_size=700, progress=False, rows="none", out_dir=tmp_path / "a")
    b = execute(spec, jobs=2, chunk_size=1300, progress=False, rows="memory")
    assert a.frame is None
    assert a.summary.to_dict() == b.summary.to_dict()
    assert not (tmp_path / "a" / "results").exists()


def test_resume_gives_exactly_the_uninterrupted_result(tmp_path, monkeypatch):
    spec = make_spec("puluc", 3_000, bots="greedy,random", seed=21)
    full = execute(spec, jobs=1, chunk_size=250, progress=False, rows="disk", out_dir=tmp_path / "full")

    real = runner._play_chunk
    calls = {"n": 0}

    def interrupted(*a, **k):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(runner, "_play_chunk", interrupted)
    part = execute(spec, jobs=1, chunk_size=250, progress=False, rows="disk", out_dir=tmp_path / "r")
    assert part.partial and part.summary.n == 1000
    monkeypatch.setattr(runner, "_play_chunk", real)
    # Ctrl-C between a chunk's rows and its record leaves rows that are not part of the result
    orphan = tmp_path / "r" / "results" / "part-000000001000.parquet"
    assert not orphan.exists()
    load_rows(tmp_path / "full").iloc[1000:1250].to_parquet(orphan, index=False)
    assert len(load_rows(tmp_path / "r")) == part.summary.n == 1000
    # a half-written file from a crash must not be read as a finished chunk
    (tmp_path / "r" / "chunks" / ".000000002500-250.json.x.part").write_text("{")
    # resuming with another chunk size keeps the recorded one
    done = execute(spec, jobs=2, chunk_size=999, progress=False, rows="disk", out_dir=tmp_path / "r")
    assert not done.partial and done.manifest["chunks_resumed"] == 4
    assert done.summary.to_dict() == full.summary.to_dict()
    pd.testing.assert_frame_equal(load_rows(tmp_path / "r"), load_rows(tmp_path / "full"))


def test_resume_refuses_a_different_run(tmp_path):
    execute(make_spec("puluc", 500, seed=1), jobs=1, progress=False, rows="none", out_dir=tmp_path)
    with pytest.raises(runner.UsageError, match="differs in seed"):
        execute(make_spec("puluc", 500, seed=2), jobs=1, progress=False, rows="none", out_dir=tmp_path)


def test_cli_resume_command(tmp_path):
    from click.testing import CliRunner
    from sim.cli import cli
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["puluc", "--games", "2000", "--chunk-size", "500", "--jobs", "1",
                                 "--out", str(out), "-q", "--set", "track=9"])
    assert r.exit_code == 0
    # forget two chunks, as if the run had been stopped
    for f in sorted((out / "chunks").iterdir())[2:]:
        f.unlink()
    r = CliRunner().invoke(cli, ["puluc", "--resume", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["chunks_resumed"] == 2 and m["games_completed"] == 2000 and not m["partial"]
    assert m["rules_changed"] == {"track": 9}


def test_ctrl_c_while_a_chunk_is_being_recorded_records_it_whole(tmp_path, monkeypatch):
    """A SIGINT that lands between a chunk's files and its summary is held until the chunk
    is recorded whole: the manifest, the report and the rows on disk agree."""
    import os
    import signal

    from sim.store import ChunkStore
    real = ChunkStore.save_summary
    calls = {"n": 0}

    def save_then_interrupt(self, start, count, summary, part=None):
        real(self, start, count, summary, part)
        calls["n"] += 1
        if calls["n"] == 3:   # the record is on disk, the run has not counted it yet
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(ChunkStore, "save_summary", save_then_interrupt)
    spec = make_spec("puluc", 2000, seed=4)
    res = execute(spec, jobs=1, chunk_size=250, progress=False, rows="disk", out_dir=tmp_path / "r")
    assert res.partial and res.summary.n == 3 * 250
    assert len(list((tmp_path / "r" / "chunks").glob("*.json"))) == 3
    assert len(load_rows(tmp_path / "r")) == res.summary.n
