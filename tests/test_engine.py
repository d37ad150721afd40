"""One engine: a single run and the experiments play their chunks through
``sim.parallel.run_chunks``, so a Ctrl-C in an experiment, as in a run, waits until the chunk
being merged is merged whole (on the toy game of tests/toy_game/: fast, no kernel to compile)."""
import signal

import pytest

import sim.games
from sim import runner


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(sim.games.REGISTRY, "toy", "tests.toy_game")
    return sim.games.get("toy")


def test_a_comparison_stopped_by_ctrl_c_keeps_whole_chunks(toy, monkeypatch):
    from analysis import experiment_runs as E
    real = E._merge_stats
    calls = []

    def merge_then_interrupted(a, b):
        calls.append(1)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)   # Ctrl-C in the middle of the second chunk's merge
        return real(a, b)

    monkeypatch.setattr(E, "_merge_stats", merge_then_interrupted)
    res = E.compare("toy", [("base", {}), ("long", {"track": 20})], 500, seed=3, jobs=1,
                    chunk_size=100, progress=False)
    assert res.partial
    done = res.manifest["games_completed"]
    assert done == 200                                # the second chunk was merged whole
    assert all(s.n == done for s in res.summaries) and res.stats["n"] == done


def test_a_run_and_an_experiment_share_the_chunk_engine(toy, monkeypatch):
    seen = []
    real = runner.run_chunks

    def spy(task, tasks, *a, **k):
        seen.append(task.__name__)
        return real(task, tasks, *a, **k)

    monkeypatch.setattr(runner, "run_chunks", spy)
    from analysis import experiment_runs as E
    monkeypatch.setattr(E, "run_chunks", spy)
    runner.execute(runner.make_spec("toy", 50), jobs=1)
    E.compare("toy", [("base", {}), ("long", {"track": 20})], 50, jobs=1, progress=False)
    assert seen == ["_play_chunk", "_play_arms"]
