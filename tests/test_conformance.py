"""Every registered game keeps the kernel contract (sim/game.py)."""
import numpy as np
import pytest

from sim.games import get, names
from sim.results import check_columns

GAMES = names()


def _run(game, players, bots, start, count, seed=7, rules=None):
    rules = game.resolve_rules(rules or {})
    ctx = game.prepare(rules, players)
    ch = game.choose_bots(bots, players)
    ids, par = game.bot_arrays(ch)
    return game.play_chunk(ctx, players, seed, start, count, ids, par)


@pytest.mark.parametrize("name", GAMES)
def test_declaration(name):
    g = get(name)
    assert g.name == name and g.version >= 1
    assert g.default_players in g.players
    assert g.length in [c.name for c in g.columns]
    assert len(g.end_reasons) >= 2
    assert len({p.name for p in g.params}) == len(g.params)
    assert all(p.help and p.source for p in g.params), "every parameter says what it is and where from"
    for p in g.params:
        assert p.parse(p.default) == p.default or p.kind in ("intlist", "file")
    assert len(g.seat_names(max(g.players))) == max(g.players)
    assert "random" in [b.name for b in g.bots]


@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_the_contract(name):
    g = get(name)
    for players in g.players:
        for bot in [b.name for b in g.bots]:
            n = 40 if bot == "random" else 2 if bot == "search" else 6   # (a search game: up to 0.6 s)
            cols = _run(g, players, bot, 0, n)
            assert check_columns(g, players, cols, n) == []
            win = np.asarray(cols["win"], dtype=np.float64)
            winner = np.asarray(cols["winner"])
            assert ((win >= 0) & (win <= 1)).all()
            for i in range(n):
                if winner[i] >= 0:
                    assert win[i, winner[i]] == 1.0
                else:
                    assert win[i].max() < 1.0 or (win[i] == 1.0).sum() > 1
            assert (np.asarray(cols["end_reason"]) < len(g.end_reasons)).all()
            assert ((np.asarray(cols["first_player"]) >= 0)
                    & (np.asarray(cols["first_player"]) < players)).all()
            assert (np.asarray(cols[g.length]) >= 0).all()


@pytest.mark.parametrize("name", GAMES)
def test_chunks_do_not_matter(name):
    g = get(name)
    p = g.default_players
    whole = _run(g, p, "random", 0, 60)
    a = _run(g, p, "random", 0, 25)
    b = _run(g, p, "random", 25, 35)
    for k in whole:
        assert np.array_equal(np.asarray(whole[k]), np.concatenate([np.asarray(a[k]), np.asarray(b[k])])), k
    again = _run(g, p, "random", 0, 60)
    for k in whole:
        assert np.array_equal(np.asarray(whole[k]), np.asarray(again[k])), k


@pytest.mark.parametrize("name", GAMES)
def test_zero_games(name):
    g = get(name)
    cols = _run(g, g.default_players, "random", 5, 0)
    assert check_columns(g, g.default_players, cols, 0) == []


_AMBIGUOUS = ("reading", "silent", "assumption", "not printed", "not a rule", "ambiguous",
              "disagree", "leaves it open")


@pytest.mark.parametrize("name", GAMES)
def test_readings_are_declared_with_alternatives(name):
    """A parameter whose rulebook source says the rule is ambiguous or silent is declared as
    a reading (with alternatives `sim robust` can try), a horizon, a data file or an analysis
    switch; and every game has at least one reading."""
    g = get(name)
    for p in g.params:
        if any(w in p.source.lower() for w in _AMBIGUOUS):
            assert p.role in ("reading", "horizon", "data", "analysis"), \
                f"{name}: '{p.name}' ({p.source}) is a reading or assumption: tag it"
        if p.role == "reading":
            alts = p.other_readings()
            assert alts, f"{name}: reading '{p.name}' names no alternative"
            for a in alts:
                assert p.parse(a) != p.default, f"{name}: '{p.name}' alternative {a!r} is the default"
    assert any(p.role == "reading" for p in g.params), f"{name} declares no reading"
    names = [p.name for p in g.params] + [a for p in g.params for a in p.aliases]
    assert len(names) == len(set(names)), "aliases must not clash with names"


@pytest.mark.parametrize("name", GAMES)
def test_capped_is_the_last_end_reason(name):
    """The contract derives ``capped`` from the last end reason (the horizon's): every game's
    kernel agrees, whether it sets the column itself or leaves it to Game.play_chunk."""
    g = get(name)
    cols = _run(g, g.default_players, "random", 0, 20, rules={"horizon": 2})
    end = np.asarray(cols["end_reason"])
    assert (np.asarray(cols["capped"]) == (end == len(g.end_reasons) - 1)).all()
    assert np.asarray(cols["capped"]).any(), "a horizon of 2 stops some game"


def _toy():
    import importlib
    return importlib.import_module("tests.toy_game").GAME


def test_play_chunk_completes_capped_and_win_and_casts_the_kernels_columns():
    import dataclasses
    toy = _toy()
    ctx = toy.prepare(toy.resolve_rules({"horizon": 6}), 3)
    ids, par = toy.bot_arrays(toy.choose_bots("runner", 3))
    raw = toy.run_chunk(ctx, 3, 5, 0, 30, ids, par)
    assert "capped" not in raw and "win" not in raw          # the toy leaves both to the contract
    cols = toy.play_chunk(ctx, 3, 5, 0, 30, ids, par)
    assert check_columns(toy, 3, cols, 30) == []
    w = cols["winner"]
    assert (cols["capped"] == (cols["end_reason"] == 1)).all() and cols["capped"].any()
    assert (cols["win"][w >= 0, w[w >= 0]] == 1).all() and (cols["win"].sum(axis=1) == (w >= 0)).all()

    def wide(*a, **k):              # a kernel that returns its integers as int64
        out = toy.run_chunk(*a, **k)
        return {n: np.asarray(v).astype(np.int64) for n, v in out.items()}
    cast = dataclasses.replace(toy, run_chunk=wide).play_chunk(ctx, 3, 5, 0, 30, ids, par)
    assert check_columns(toy, 3, cast, 30) == []
    assert all((cast[c] == cols[c]).all() for c in cols)


def test_play_chunk_names_a_missing_column_a_wrong_shape_and_a_recording_of_many_games():
    import dataclasses
    toy = _toy()
    ctx = toy.prepare(toy.resolve_rules({}), 2)
    ids, par = toy.bot_arrays(toy.choose_bots(None, 2))

    def without_turns(*a, **k):
        out = toy.run_chunk(*a, **k)
        del out["turns"]
        return out

    def flat_cells(*a, **k):
        out = toy.run_chunk(*a, **k)
        out["cell"] = out["cell"][:, 0]
        return out
    with pytest.raises(ValueError, match="toy: the kernel returned no column 'turns'"):
        dataclasses.replace(toy, run_chunk=without_turns).play_chunk(ctx, 2, 1, 0, 4, ids, par)
    with pytest.raises(ValueError, match=r"toy: column 'cell' has shape \(4,\), not \(4, 2\)"):
        dataclasses.replace(toy, run_chunk=flat_cells).play_chunk(ctx, 2, 1, 0, 4, ids, par)
    with pytest.raises(ValueError, match="a recorded chunk plays one game"):
        toy.play_chunk(ctx, 2, 1, 0, 2, ids, par, record=(np.zeros((1, 8), np.int32), np.zeros((0, 1))))
