"""The work around the games (issue #26): rows written where they are played, workers started
while the kernel loads and let go when the games are over, the rows read once for the
report's exemplar games.  Timings are not tested here (a shared machine): bench/e2e.py."""
import io
import json
import os
import threading
import time

import pandas as pd
import psutil
import pytest
from click.testing import CliRunner

import sim.output
import sim.runner as runner
from sim.cli import cli
from sim.output import load_rows
from sim.parallel import run_tasks
from sim.worker import release_workers
from sim.games import get as get_game
from sim.results import to_frame
from sim.store import ChunkStore
from sim.validate import cores

two_cores = pytest.mark.skipif(cores() < 2, reason="needs two cores for two workers")


@two_cores
def test_the_workers_write_the_rows_they_played(tmp_path, monkeypatch):
    """Each chunk's Parquet part is written by the worker that played it, not by the process
    that collects the results; the rows are those of a run kept in memory."""
    real = ChunkStore.save_rows
    writers = []

    def spy(self, start, frame):
        writers.append(threading.current_thread() is threading.main_thread())
        return real(self, start, frame)
    monkeypatch.setattr(ChunkStore, "save_rows", spy)
    spec = runner.make_spec("puluc", 4000, seed=5)
    res = runner.execute(spec, jobs=2, chunk_size=500, backend="threading", progress=False, rows="disk",
                         out_dir=tmp_path / "run")
    assert not res.partial and len(writers) == 8 and not any(writers)
    mem = runner.execute(spec, jobs=1, chunk_size=1000, progress=False, rows="memory")
    pd.testing.assert_frame_equal(load_rows(tmp_path / "run"), mem.frame)


def test_a_part_has_the_bytes_pandas_would_write(tmp_path):
    g = runner.make_spec("puluc", 300).game
    ctx = g.prepare(g.resolve_rules({}), 2)
    ids, par = g.bot_arrays(g.choose_bots(None, 2))
    frame = to_frame(g, 2, [(0, g.play_chunk(ctx, 2, 1, 0, 300, ids, par))])
    part = ChunkStore(tmp_path).save_rows(0, frame)
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    assert (tmp_path / "results" / part["name"]).read_bytes() == buf.getvalue()
    assert part["size"] == len(buf.getvalue())


def test_load_rows_reads_only_the_columns_asked_for(tmp_path):
    spec = runner.make_spec("puluc", 2000, seed=3)
    runner.execute(spec, jobs=1, chunk_size=700, progress=False, rows="disk", out_dir=tmp_path)
    full = load_rows(tmp_path)
    some = load_rows(tmp_path, columns=["game", "casts", "no_such_column", "casts"])
    assert list(some.columns) == ["game", "casts"]
    pd.testing.assert_frame_equal(some, full[["game", "casts"]])


def test_a_run_reads_no_rows_for_the_exemplars_and_times_its_report(tmp_path, monkeypatch):
    """The exemplar pages and the report's list of them come from the candidates the chunks
    kept (it was one reading of a few columns, and before that two of every column): the
    same games as the rows give; the manifest gives the report's seconds."""
    from analysis.report import exemplar_picks
    from analysis.show import exemplars
    from sim.output import load_run
    real = sim.output.load_rows
    calls = []

    def spy(run_dir, columns=None):
        calls.append(columns)
        return real(run_dir, columns)
    monkeypatch.setattr(sim.output, "load_rows", spy)
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["puluc", "--games", "3000", "--jobs", "1", "-q", "-o", str(out)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert calls == []
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seconds"]["report"] > 0
    game = get_game("puluc")
    picks = exemplar_picks(game, manifest, out, load_run(out)[0])
    assert picks == exemplars(game, real(out)) == exemplar_picks(game, manifest, out) and len(picks) >= 2
    page = (out / "index.html").read_text()
    for _, i, _ in picks:
        assert (out / "games" / f"game-{i}.html").is_file() and f"games/game-{i}.html" in page


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@two_cores
def test_release_workers_ends_the_pool_without_waiting():
    """A run command lets its loky workers go once its games are over (they end while the
    report is written, instead of holding up the exit)."""
    played = set(run_tasks(_pid_after, [(0.2,)] * 4, 2, "loky"))
    assert len(played) == 2 and os.getpid() not in played
    t = time.monotonic()
    release_workers()
    assert time.monotonic() - t < 1.0
    deadline = time.monotonic() + 20
    while any(_alive(p) for p in played):
        assert time.monotonic() < deadline, "the workers did not end"
        time.sleep(0.1)


def test_figures_drawn_in_a_forked_copy_are_the_figures_drawn_here(tmp_path):
    """plots.render draws every other figure in a forked copy: the same bytes as one after
    the other, every file written."""
    from analysis import plots, report
    from sim.output import load_run
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["puluc", "--games", "2000", "--jobs", "1", "-q", "-o", str(out)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    S, manifest = load_run(out)
    s = report.summarize(S, manifest, get_game("puluc"))
    pngs = {}
    for fork in (True, False):
        d = tmp_path / f"fork-{fork}"
        d.mkdir()
        jobs = [(plots.length_histogram, (s["summary"], "casts", "casts", d / "length.png"), {}),
                (plots.win_rates, (s["seats"], s["positions"], 2, d / "win_rates.png"), {}),
                (plots.seat_means, (s["seat_means"], d / "seat_means.png", manifest["seats"]), {})]
        plots.render(jobs, fork=fork)
        pngs[fork] = {p.name: p.read_bytes() for p in d.glob("*.png")}
    assert len(pngs[True]) == 3 and pngs[True] == pngs[False]


def _fails_in_a_copy(parent: int, path) -> None:
    if os.getpid() != parent:
        raise RuntimeError("a copy that fails")
    path.write_text("drawn")


def test_a_figure_the_forked_copy_failed_to_draw_is_drawn_here(tmp_path):
    from analysis import plots
    jobs = [(_fails_in_a_copy, (os.getpid(), tmp_path / f"f{i}.txt"), {}) for i in range(4)]
    plots.render(jobs, fork=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f0.txt", "f1.txt", "f2.txt", "f3.txt"]


def test_render_runs_the_work_given_for_here_while_the_copy_draws(tmp_path):
    from analysis import plots
    jobs = [(_fails_in_a_copy, (os.getpid(), tmp_path / f"f{i}.txt"), {}) for i in range(3)]
    got = plots.render(jobs, here=[os.getpid, lambda: "page"], fork=True)
    assert got == [os.getpid(), "page"] and len(list(tmp_path.iterdir())) == 3


def test_the_report_modules_load_once_the_first_chunk_is_collected(tmp_path, monkeypatch):
    """The runner calls ``after_first`` once, in its own thread, after the first chunk is
    collected (not beside the kernel load, whose GIL it would share; never in a second
    thread that could meet the main one's imports); sim.preload's importer imports there."""
    import sys

    from sim.preload import importer
    from sim.runner import execute
    from sim.spec import make_spec
    (tmp_path / "speed_probe_mod.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "speed_probe_mod", raising=False)
    load = importer("speed_probe_mod")
    calls = []

    def first():
        calls.append((threading.current_thread() is threading.main_thread(), "speed_probe_mod" in sys.modules))
        load()

    execute(make_spec("puluc", 300), jobs=1, chunk_size=100, progress=False, after_first=first)
    assert calls == [(True, False)] and sys.modules["speed_probe_mod"].X == 1
    importer("no_such_module_here")()  # an import error is left to the import that needs it


def test_render_draws_everything_here_while_another_thread_runs(tmp_path, monkeypatch):
    """No copy is forked while another thread runs (it could inherit a lock that thread
    holds): the figures are all drawn in this process."""
    from analysis import plots
    jobs = [(_fails_in_a_copy, (os.getpid(), tmp_path / f"f{i}.txt"), {}) for i in range(4)]
    forks, real = [], os.fork
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or real())
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        plots.render(jobs)
    finally:
        stop.set()
        other.join()
    assert forks == [] and len(list(tmp_path.iterdir())) == 4


def _hangs_in_a_copy(parent_pid, path):
    if os.getpid() != parent_pid:
        time.sleep(600)      # a copy that inherited a held lock, say
    path.write_text("drawn")


def test_a_hung_copy_is_ended_and_its_figures_drawn_here(tmp_path, monkeypatch):
    from analysis import plots
    monkeypatch.setattr(plots, "COPY_WAIT_S", 0.5)
    jobs = [(_hangs_in_a_copy, (os.getpid(), tmp_path / f"f{i}.txt"), {}) for i in range(4)]
    t0 = time.monotonic()
    plots.render(jobs, fork=True)
    assert time.monotonic() - t0 < 120  # not the copy's 600 s: it was ended (a hang guard, not a speed test)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"f{i}.txt" for i in range(4)]


def test_a_run_measures_its_rate_once(tmp_path, monkeypatch):
    """The long-run check's rate is the one the run's estimate uses: one measurement a run
    (it was two: about 0.1 s of start-up, seconds with a search bot)."""
    import sim.rates as runner
    calls = []
    real = runner.measure_rate

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(runner, "measure_rate", counted)
    r = CliRunner().invoke(cli, ["puluc", "--games", "2000", "--jobs", "1", "-q", "--out", str(tmp_path / "r")],
                           standalone_mode=False)
    assert r.exit_code == 0 and r.exception is None, r.output
    assert len(calls) == 1, calls


class _SlowFirstCall:
    """A game whose first kernel call takes ``compile_s`` (a cold numba compile) and whose
    later calls play at the real kernel's speed."""

    def __init__(self, game, compile_s: float):
        self._game, self._compile_s, self.calls = game, compile_s, 0

    def play_chunk(self, *a, **k):
        self.calls += 1
        if self.calls == 1:
            time.sleep(self._compile_s)
        return self._game.play_chunk(*a, **k)

    def __getattr__(self, name):
        return getattr(self._game, name)


def test_the_rate_of_a_long_run_estimate_leaves_out_the_compile():
    """A cold first run announced "about 36.5 hours (... at about 0 games/s)" when the
    compile was timed as games.  The kernel is compiled (here: a first call that sleeps
    2 s) before the rate is measured, so the rate is the games' own."""
    from sim.games import get
    from sim.longrun import check_long_run
    from sim.parallel import plan_chunks
    from sim.spec import make_spec
    spec = make_spec("puluc", 10_000)
    slow = _SlowFirstCall(get("puluc"), 2.0)
    spec.game = slow
    rate = check_long_run(spec, plan_chunks(10_000, None, 1), 1, "none", yes=False, progress=False)
    assert slow.calls >= 2            # the compile, then the timed games
    assert rate > 1_000, rate         # Puluc's kernel plays some 10^5 games/s; the sleep would give < 10


@two_cores
def test_a_prestarted_pool_is_the_one_the_run_plays_on(tmp_path):
    """sim.prestart starts the workers (each loads the kernel, one times games for the
    estimate) before the run's folder exists; the run's chunks then go to that same pool
    (joblib reuses it only when every setting matches) and the main process does not load
    the kernel; the games are those of a run without it."""
    from joblib.externals.loky import reusable_executor

    from sim.games import get
    from sim.prestart import Prestart
    from sim.worker import release_workers
    spec = runner.make_spec("puluc", 6000, seed=11)
    here = _SlowFirstCall(get("puluc"), 0.0)
    spec.game = here
    try:
        warm = Prestart(spec, 2)
        rate = warm.rate()
        assert warm.error is None and rate > 1_000, (warm.error, rate)
        pool = reusable_executor._executor
        res = runner.execute(spec, jobs=2, chunk_size=1000, progress=False, rows="disk",
                             out_dir=tmp_path / "run", rate=rate, warmed=True, backend="loky")
        assert reusable_executor._executor is pool      # not a second pool
        assert here.calls == 0                           # the kernel was loaded in the workers only
    finally:
        release_workers()
    mem = runner.execute(runner.make_spec("puluc", 6000, seed=11), jobs=1, progress=False, rows="memory")
    assert not res.partial
    pd.testing.assert_frame_equal(load_rows(tmp_path / "run"), mem.frame)


def test_a_warm_up_that_fails_leaves_the_run_to_load_the_kernel_itself():
    from sim.prestart import Prestart
    spec = runner.make_spec("puluc", 1000)
    spec.ctx = None  # the kernel raises on it
    warm = Prestart(spec, 2)
    try:
        assert warm.rate() is None and warm.error is not None
    finally:
        warm.cancel()


def test_prestart_is_for_new_runs_on_the_local_pool(monkeypatch):
    from sim.prestart import prestart
    spec = runner.make_spec("puluc", 1000)
    assert prestart(spec, 1, None) is None              # one job: played here
    assert prestart(spec, 2, "threading") is None
    assert prestart(spec, 2, "dask") is None
    monkeypatch.setenv("SIM_NO_PRESTART", "1")
    assert prestart(spec, 2, None) is None


@two_cores
def test_a_run_with_its_workers_started_first_plays_the_same_games(tmp_path, monkeypatch):
    rows = []
    for off in ("", "1"):
        monkeypatch.setenv("SIM_NO_PRESTART", off)
        out = tmp_path / f"r{off}"
        r = CliRunner().invoke(cli, ["puluc", "--games", "5000", "--jobs", "2", "--chunk-size", "1000",
                                     "-q", "--out", str(out)], standalone_mode=False)
        assert r.exit_code == 0 and r.exception is None, r.output
        rows.append(load_rows(out))
    pd.testing.assert_frame_equal(rows[0], rows[1])


def test_a_worker_writes_its_rows_without_pandas(tmp_path):
    """The chunk's rows go to Parquet from numpy columns (sim.results.to_columns): pandas,
    about 0.2 s of every worker's start, is not imported; the part reads back to the frame."""
    import subprocess
    import sys
    code = ("import sys\n"
            "from sim.worker import _play_chunk\n"
            "from sim.games import get\n"
            "g = get('puluc'); ctx = g.prepare(g.resolve_rules({}), 2)\n"
            "ids, par = g.bot_arrays(g.choose_bots(None, 2))\n"
            f"_play_chunk('puluc', ctx, 2, 7, 0, 500, ids, par, True, {str(tmp_path)!r})\n"
            "print('pandas' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout + out.stderr
    g = runner.make_spec("puluc", 500).game
    ctx = g.prepare(g.resolve_rules({}), 2)
    ids, par = g.bot_arrays(g.choose_bots(None, 2))
    want = to_frame(g, 2, [(0, g.play_chunk(ctx, 2, 7, 0, 500, ids, par))])
    got = pd.read_parquet(next((tmp_path / "results").glob("part-*.parquet")))
    pd.testing.assert_frame_equal(got, want)
