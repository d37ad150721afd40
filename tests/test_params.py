import pytest

from sim.games import get
from sim.params import Param, ParamError, UsageError, parse_assignments, resolve


def test_defaults_and_overrides():
    g = get("puluc")
    r = g.resolve_rules({"track": "9", "exit": "PILE"})
    assert r["track"] == 9 and r["exit"] == "pile" and r["warriors"] == 5
    assert list(r) == [p.name for p in g.params]


def test_unknown_parameter_suggests_closest():
    with pytest.raises(ParamError, match="unknown rule parameter 'trak'.*did you mean 'track'"):
        get("puluc").resolve_rules({"trak": 9})


def test_out_of_range_and_bad_type():
    g = get("puluc")
    with pytest.raises(ParamError, match=r"'track' must be in 4\.\.40, not 2"):
        g.resolve_rules({"track": 2})
    with pytest.raises(ParamError, match="'track' takes int"):
        g.resolve_rules({"track": "nine"})
    with pytest.raises(ParamError, match="'track' takes int"):
        g.resolve_rules({"track": "9.5"})
    with pytest.raises(ParamError, match="one of space | cast"):
        g.resolve_rules({"entry": "spaec"})


def test_choice_suggestion():
    with pytest.raises(ParamError, match="did you mean 'pile'"):
        get("puluc").resolve_rules({"exit": "piles"})


def test_intlist_and_bool():
    p = Param("t", "standard", "", "intlist", 1, 9, choices=("standard",))
    assert p.parse("5,1,2") == (5, 1, 2)
    assert p.parse("standard") == "standard"
    with pytest.raises(ParamError):
        p.parse("5,0")
    b = Param("b", False, "", "bool")
    assert b.parse("yes") is True and b.parse("off") is False
    with pytest.raises(ParamError):
        b.parse("maybe")


def test_resolve_generic_and_assignments():
    ps = [Param("a", 1, "", "int", 0, 5), Param("x", 0.5, "", "float", 0, 1)]
    assert resolve(ps, {"x": "0.25"}) == {"a": 1, "x": 0.25}
    assert parse_assignments(["a=3", " x = 0.1"]) == {"a": "3", "x": "0.1"}
    with pytest.raises(UsageError):
        parse_assignments(["a3"])


def test_bots_choice():
    g = get("puluc")
    ch = g.choose_bots("search:depth=1,greedy", 2)
    assert [c.bot.name for c in ch] == ["search", "greedy"]
    assert dict(ch[0].settings) == {"depth": 1}
    assert [c.bot.name for c in g.choose_bots("greedy", 2)] == ["greedy", "greedy"]
    with pytest.raises(UsageError, match="did you mean 'greedy'"):
        g.choose_bots("gready,random", 2)
    with pytest.raises(UsageError, match="needs 2 bots"):
        g.choose_bots("greedy,random,random", 2)
    with pytest.raises(ParamError, match="'depth' must be in 1..4"):
        g.choose_bots("search:depth=7,random", 2)
