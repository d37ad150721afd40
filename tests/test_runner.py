"""The shared runner: determinism across jobs/chunks/backends, Ctrl-C, manifest, limits."""
import time

import numpy as np
import pandas as pd
import pytest

import sim.runner as runner
from sim import simulate
from sim.params import UsageError
from sim.parallel import plan_chunks
from sim.runner import execute
from sim.spec import make_spec, parse_games


def test_parse_games():
    assert parse_games("1e6") == 1_000_000
    assert parse_games("250000") == 250_000
    assert parse_games("2.5e5") == 250_000
    assert parse_games("1_000") == 1000
    for bad in ["0", "-5", "2.5", "abc", "1e30", "nan", "inf", ""]:
        with pytest.raises(UsageError):
            parse_games(bad)


def test_plan_chunks_covers_every_game_once():
    for games, cs in [(1, None), (10, 3), (100_001, None), (7, 100)]:
        ch = plan_chunks(games, cs, 2)
        idx = np.concatenate([np.arange(s, s + c) for s, c in ch])
        assert np.array_equal(idx, np.arange(games))


def test_identical_whatever_jobs_chunks_backend():
    base = simulate("puluc", 3000, bots=("greedy", "random"), seed=11, jobs=1)
    for jobs, cs, backend in [(2, 500, "loky"), (2, 777, "threading"), (1, 1, "sequential")]:
        df = simulate("puluc", 3000, bots=("greedy", "random"), seed=11, jobs=jobs,
                      chunk_size=cs, backend=backend)
        pd.testing.assert_frame_equal(base, df)
    other = simulate("puluc", 3000, bots=("greedy", "random"), seed=12, jobs=1)
    assert not base.equals(other)


def test_changing_a_bot_keeps_the_chance_stream():
    # seat bots draw from their own streams: the lots of game i do not depend on the bots
    a = simulate("puluc", 200, bots=("random", "random"), seed=3, rules={"cap": 1}, jobs=1)
    b = simulate("puluc", 200, bots=("greedy", "search"), seed=3, rules={"cap": 1}, jobs=1)
    # with a one-cast horizon the only move is the first cast: forfeits/moves depend on the lots alone
    assert (a["moves"] == b["moves"]).all()


def test_manifest_contents():
    df = simulate("puluc", 500, rules={"track": 9}, bots="greedy,random", seed=5, jobs=1)
    m = df.attrs["manifest"]
    assert m["game"] == "puluc" and m["game_version"] >= 1
    assert m["rules"]["track"] == 9 and m["rules_changed"] == {"track": 9}
    assert m["bots"] == ["greedy", "random"] and m["seed"] == 5
    assert m["games_requested"] == m["games_completed"] == 500 and not m["partial"]
    assert "numba" in m["machine"] and m["sim_version"]
    assert list(df["game"]) == list(range(500))


def test_ctrl_c_keeps_finished_chunks(monkeypatch):
    real = runner._play_chunk
    calls = {"n": 0}

    def flaky(*a, **k):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(runner, "_play_chunk", flaky)
    spec = make_spec("puluc", 1000, seed=2)
    res = execute(spec, jobs=1, chunk_size=100, progress=False)
    assert res.partial and res.manifest["partial"]
    assert res.manifest["chunks_done"] == 3 and len(res.frame) == 300
    full = simulate("puluc", 1000, seed=2, jobs=1)
    pd.testing.assert_frame_equal(res.frame.reset_index(drop=True),
                                  full.iloc[:300].reset_index(drop=True), check_like=False)


def test_memory_guard(monkeypatch):
    import sim.resources
    monkeypatch.setattr(sim.resources, "available_memory", lambda: 10 * 2**20)
    with pytest.raises(UsageError, match="GiB"):
        execute(make_spec("puluc", 1_000_000), jobs=1)


def test_bad_seed_and_players():
    with pytest.raises(UsageError):
        make_spec("puluc", 10, seed="x")
    with pytest.raises(UsageError):
        make_spec("puluc", 10, seed=-1)
    with pytest.raises(UsageError, match="played by 2 players"):
        make_spec("puluc", 10, players=3)
    with pytest.raises(UsageError, match="unknown game 'pulcu'.*did you mean 'puluc'"):
        make_spec("pulcu", 10)


def test_a_slow_kernel_load_is_announced_once_and_a_fast_one_is_not(capsys):
    from sim.games import get
    from sim.runner import _compile_notice
    game = get("balam")
    with _compile_notice(game, True, after=0.05):
        time.sleep(0.3)                     # as a first compile: the notice appears
    err = capsys.readouterr().err
    assert err.count("compiling the Balam kernel") == 1 and "numba's cache" in err
    with _compile_notice(game, True, after=0.5):
        pass                                # a cached load: nothing is said
    with _compile_notice(game, False, after=0.0):
        time.sleep(0.1)                     # -q / no terminal: never
    time.sleep(0.6)
    assert capsys.readouterr().err == ""
