"""Slow bots: chunks sized from the cost of a game (seconds, not hours, of work at risk), an
estimate before a long experiment starts, progress lines in a log, and a stop after the
first chunk that keeps it.

The stand-in for a slow bot is the measured rate: ``sim.rates.measure_rate`` patched to say
that a game takes a second (the games themselves are Puluc's, played in microseconds), so
every choice made from the cost is exercised without waiting for it.  The figures must not
depend on how the games were cut: game *i* draws from (seed, *i*) alone, and an experiment
decides (a sequential test, an early stop) only at the ends of its plan's chunks."""
import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

import sim.parallel as P
import sim.rates as rates
import sim.runner as R
from sim.cli import cli


def slow(monkeypatch, games_per_s: float) -> None:
    """Every game of every arm is timed at ``games_per_s`` games a second on one core."""
    monkeypatch.setattr(rates, "measure_rate", lambda *a, **k: games_per_s)


def test_sized_chunk_and_split_keep_the_plan():
    assert P.sized_chunk(1e-6, 1000) == 1000            # a fast game: the plan's chunk
    assert P.sized_chunk(0.02, 1000) == 1000            # 20 s: still the plan's
    assert P.sized_chunk(0.2, 1000) == 64               # 100 fit in 20 s: a power of two below
    assert P.sized_chunk(100.0, 1000) == 1              # a game longer than the target: one
    looks = [(0, 500), (500, 500), (1000, 137)]
    pieces = P.split_chunks(looks, 64)
    assert [g for s, c in pieces for g in range(s, s + c)] == list(range(1137))
    ends = {s + c for s, c in pieces}
    assert {s + c for s, c in looks} <= ends and max(c for _, c in pieces) == 64
    assert P.split_chunks(looks, None) == looks


def test_a_slow_run_plays_small_chunks_with_the_same_figures(monkeypatch, tmp_path):
    fast = R.execute(R.make_spec("puluc", 300, seed=4), jobs=1, progress=False, rows="none")
    slow(monkeypatch, 5.0)                               # 0.2 s a game: 64 games a chunk
    res = R.execute(R.make_spec("puluc", 300, seed=4), jobs=1, progress=False, rows="none",
                    out_dir=tmp_path / "run")
    assert [c for _, c in res.chunks] == [64, 64, 64, 64, 44]
    assert json.loads((tmp_path / "run" / "run.json").read_text())["chunk_size"] == 64
    assert res.summary.to_json() == fast.summary.to_json()
    assert len(fast.chunks) == 1


def test_a_slow_run_logs_progress_lines_when_stderr_is_not_a_terminal(monkeypatch, tmp_path):
    slow(monkeypatch, 5.0)
    monkeypatch.setattr(P, "PROGRESS_EVERY_S", 0.0, raising=False)     # a line for every chunk
    r = CliRunner().invoke(cli, ["puluc", "--games", "300", "--jobs", "1", "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stderr.splitlines() if re.search(r"\d+/300 games \(\d+%\)", x)]
    assert len(lines) == 5 and "64/300 games (21%)" in lines[0] and "300/300" in lines[-1], r.stderr
    assert "left" in lines[0]
    r = CliRunner().invoke(cli, ["puluc", "--games", "300", "--jobs", "1", "-q", "--out", str(tmp_path / "q")])
    assert r.exit_code == 0 and "games (" not in r.stderr       # --quiet: none


def test_a_slow_compare_is_announced_logged_and_cut_small_with_the_same_figures(monkeypatch, tmp_path):
    from analysis import experiment_runs as E
    variants = [("base", {}), ("nine", {"track": 9})]
    fast = E.compare("puluc", variants, 200, seed=6, jobs=1, progress=False)
    played = []
    real = E._play_arms

    def counted(*a):
        played.append(a[-1])
        return real(*a)

    monkeypatch.setattr(E, "_play_arms", counted)
    slow(monkeypatch, 1.0)                               # 2 arms at 1 s a game: 8 games a chunk
    monkeypatch.setattr(P, "PROGRESS_EVERY_S", 0.0, raising=False)
    out = tmp_path / "cmp"
    r = CliRunner().invoke(cli, ["compare", "puluc", "--variant", "base:", "--variant", "nine:track=9",
                                 "--games", "200", "--seed", "6", "--jobs", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert played == [8] * 25
    est = [x for x in r.stderr.splitlines() if "on 1 worker" in x]
    assert len(est) == 1 and re.search(r"about 7 min on 1 worker \(25 chunks of up to 8 games", est[0]), r.stderr
    assert len([x for x in r.stderr.splitlines() if re.search(r"/400 games \(\d+%\)", x)]) == 25
    res = E.compare("puluc", variants, 200, seed=6, jobs=1, progress=False)   # the API: silent
    for a, b in zip(res.summaries, fast.summaries):
        assert a.to_json() == b.to_json()
    for k in fast.stats:
        np.testing.assert_array_equal(np.asarray(res.stats[k]), np.asarray(fast.stats[k]))


def test_a_sequential_test_stops_at_the_same_game_whatever_the_cut(monkeypatch):
    """The SPRT looks only at the ends of the plan's chunks: cut into pieces, it decides at the
    same game, with the same log."""
    from analysis import experiment_runs as E
    kw = dict(seed=2, jobs=1, progress=False, sprt_d=0.5, sprt_metric="casts")
    variants = [("base", {}), ("nine", {"track": 9})]
    fast = E.compare("puluc", variants, 48_000, **kw)
    assert fast.manifest["stopped_by_sprt"]
    slow(monkeypatch, 100.0)                             # 2 arms: 0.02 s a game, 512 games a chunk
    res = E.compare("puluc", variants, 48_000, **kw)
    assert res.manifest["games_completed"] == fast.manifest["games_completed"]
    assert res.sprt_log == fast.sprt_log


def test_a_slow_robust_stopped_after_its_first_chunks_keeps_them(monkeypatch, tmp_path):
    """``sim robust`` at a second a game: before, its only chunk was all 200 games, and a Ctrl-C
    150 games in said "interrupted before it finished a chunk" and removed the folder.  Now
    the chunks are small, the line before the start says how long it will take, and the stop
    keeps what was finished: a partial report over the chunks done, kept for a resume."""
    from analysis import robust_runs as RR
    slow(monkeypatch, 1.0)
    monkeypatch.setattr(P, "PROGRESS_EVERY_S", 0.0, raising=False)
    real = RR._play_robust

    def ctrl_c_at_150(*a):                               # the user's Ctrl-C, 150 games in
        start, count = a[3], a[4]
        if start + count > 150:
            raise KeyboardInterrupt
        return real(*a)

    monkeypatch.setattr(RR, "_play_robust", ctrl_c_at_150)
    out = tmp_path / "rob"
    r = CliRunner().invoke(cli, ["robust", "puluc", "--games", "200", "--jobs", "1", "--no-combine",
                                 "-o", str(out)])
    assert "before it finished a chunk" not in r.output
    assert re.search(r"about \d+ min on 1 worker \(\d+ chunks of up to \d+ games?;", r.stderr), r.stderr
    assert re.search(r"\d+/1,800 games \(\d+%\)", r.stderr)        # 9 conditions x 200 games
    assert out.is_dir() and (out / "index.html").is_file()
    man = json.loads((out / "robust.json").read_text())["manifest"]
    assert man["partial"] and 100 <= man["baseline_games"] <= 150
    assert any((out / ".chunks").rglob("*.json"))


def test_a_resumed_experiment_keeps_the_size_its_kept_chunks_were_cut_to(monkeypatch, tmp_path):
    """A resume reads the size back from the kept chunks' names (the measured cost of a game
    differs from one try to the next), so it finds them and plays only the rest."""
    from analysis import checkpoints
    from analysis import experiment_runs as E
    variants = [("base", {}), ("nine", {"track": 9})]
    slow(monkeypatch, 1.0)
    real = E._play_arms
    calls = []

    def stop_at_96(*a):
        calls.append(a[-2])
        if a[-2] >= 96:
            raise KeyboardInterrupt
        return real(*a)

    monkeypatch.setattr(E, "_play_arms", stop_at_96)
    with checkpoints.checkpoints(tmp_path):
        first = E.compare("puluc", variants, 200, seed=6, jobs=1, progress=False)
    assert first.partial and first.manifest["games_completed"] == 96 and calls[:2] == [0, 8]
    slow(monkeypatch, 3.0)                               # measured faster this time: 16 a chunk
    played = []
    monkeypatch.setattr(E, "_play_arms", lambda *a: played.append(a[-2]) or real(*a))
    with checkpoints.checkpoints(tmp_path):
        again = E.compare("puluc", variants, 200, seed=6, jobs=1, progress=False)
    assert not again.partial and min(played) == 96 and len(played) == 13
    fast = E.compare("puluc", variants, 200, seed=6, jobs=1, progress=False)
    assert [s.to_json() for s in again.summaries] == [s.to_json() for s in fast.summaries]


@pytest.mark.parametrize("seconds,want", [(30, "30 s"), (420, "7 min"), (3 * 3600, "3.0 hours")])
def test_the_estimate_line(seconds, want):
    line = P.estimate_line("puluc x2 arms", seconds, 2, 25, 8)
    assert line.startswith(f"sim: puluc x2 arms: about {want} on 2 workers (25 chunks of up to 8 games")


def test_a_slow_skill_table_is_cut_the_same_way_with_the_same_table(monkeypatch):
    """Skill tables (and the strength climb and the ladder, which play through the same
    ``run_arms``) get the small chunks too, with the same table."""
    from analysis import experiment_runs as E
    from analysis.skill_runs import skill
    fast = skill("puluc", ["random", "greedy"], 100, seed=8, jobs=1, progress=False)
    played = []
    real = E._play_arms
    monkeypatch.setattr(E, "_play_arms", lambda *a: played.append(a[-1]) or real(*a))
    slow(monkeypatch, 1.0)                               # one arm at 1 s a game: 16 a chunk
    res = skill("puluc", ["random", "greedy"], 100, seed=8, jobs=1, progress=False)
    assert played and max(played) == 16
    np.testing.assert_array_equal(res["wins"], fast["wins"])
    np.testing.assert_array_equal(res["games"], fast["games"])
    assert {k: s.to_json() for k, s in res["summaries"].items()} == \
        {k: s.to_json() for k, s in fast["summaries"].items()}


def test_a_ctrl_c_while_the_cost_is_measured_stops_the_run_as_before(monkeypatch, tmp_path):
    """Measuring the cost of a game comes before the run's folder is begun: a Ctrl-C there is
    the run's clean stop (a partial result of no games), not an exception out of it."""
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(rates, "measure_rate", interrupted)
    res = R.execute(R.make_spec("puluc", 300, seed=4), jobs=1, progress=False, rows="none",
                    out_dir=tmp_path / "run")
    assert res.partial and res.stopped == R.Stop.INTERRUPTED and res.summary.n == 0


def test_an_announced_estimate_is_timed_properly_not_from_the_quick_check(monkeypatch):
    """The quick check (one game, to size chunks) over-states a fast game's cost by its call
    overhead: a 1e9-game compare of Puluc announced 'about 9.4 hours' and its progress then said
    2.0.  Where the estimate will be printed, the arms the quick check timed are timed again
    properly (measure_rate without ``fast``); a slow game's single timing is kept as it is."""
    import sim.runner as R
    calls = []

    def rate(game, ctx, players, seed, ids, par, budget=0.05, fast=None):
        calls.append((ctx, fast))
        if ctx == "slow":
            return 0.5                                   # 2 s a game: timed once, precisely
        return 100_000.0 if fast is not None else 500_000.0  # the quick check: 5x too slow

    monkeypatch.setattr(rates, "measure_rate", rate)
    plays = [("fast", None, None), ("fast", None, None)]
    # a small experiment: not announced, the quick check suffices
    assert R.seconds_per_game(None, plays, 2, 1, 1000, total=1000, jobs=1) == pytest.approx(2e-5)
    assert all(f is not None for _, f in calls)
    calls.clear()
    sec = R.seconds_per_game(None, plays, 2, 1, 1000, total=10**9, jobs=1)
    assert sec == pytest.approx(4e-6)                    # 2 arms at 500,000 games/s
    assert [f is None for _, f in calls] == [False, False, True, True]
    calls.clear()
    R.seconds_per_game(None, [("slow", None, None)], 2, 1, 1000, total=10**6, jobs=1)
    assert len(calls) == 1                               # no second timing of a slow game
