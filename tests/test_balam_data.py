"""Balam data files: the defaults load as the rulebook describes, broken files are refused."""
import numpy as np
import pytest

from sim.games.balam import GAME, target_position
from sim.games.balam import data as D
from sim.params import ParamError

BOARD = (D.SEEDS / "board.toml").read_text()
KATUN = (D.SEEDS / "katun.toml").read_text()
COMP = (D.SEEDS / "components.toml").read_text()


def test_default_board_is_the_five_by_six_rectangle():
    b = D.load_board(D.SEEDS / "board.toml")
    assert (b.rows, b.cols) == (5, 6)
    assert sorted(b.sea) == [(0, 0), (0, 5), (4, 0), (4, 5)]
    assert len(b.names) == 26                                  # 30 cells - 4 sea
    assert ((b.info[:, 0] >= 2) & (b.info[:, 0] <= 4)).all()
    assert set(b.info[:, 1]) == {0, 1, 2, 3, 4}
    assert b.info[:, 5].sum() == 3 and b.info[:, 3].sum() == 8 and b.info[:, 4].sum() == 5
    # paths are symmetric
    for s in range(26):
        for j in range(b.nnb[s]):
            t = b.nbr[s, j]
            assert s in b.nbr[t, :b.nnb[t]]


def test_default_deck_counts_and_components():
    d = D.load_deck(D.SEEDS / "katun.toml")
    counts = np.bincount(d.ctype, minlength=17).tolist()
    assert counts == [10, 14, 2, 2, 1, 2, 3, 5, 1, 6, 4, 4, 4, 4, 4, 3, 3]
    assert len(d.ctype) == 72
    assert (d.cnopt[d.ctype == 0] >= 2).all() and (d.cnopt[d.ctype == 1] == 1).all()
    c = D.load_components(D.SEEDS / "components.toml")
    assert c.supply.tolist() == [30, 10, 8, 8, 16, 10]
    assert (c.large, c.small) == (12, 15) and c.tiles.sum() == 99
    assert c.points.tolist() == [1, 2, 2, 2, 2, 3] and c.cenote_factor == 2
    assert sorted(c.faces.tolist()) == [-1, 0, 1, 1, 2, 3]
    assert target_position(d, 2) == 31 and target_position(d, 5) == 62


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("old,new,msg", [
    ("spaces = 2\n", "spaces = 5\n", r"spaces' must be an integer in 2\.\.4"),
    ('colour = "shell"', 'colour = "gold"', "colour"),
    ('"~~ A2 A3 A4 A5 ~~"', '"~~ A2 A3 A4 ZZ ~~"', "not described"),
    ("use_red_cross = false", "use_red_cross = false\nx = 1", "'layout.x' is not a key"),
    ('extra_paths = [["A2", "B1"]', 'extra_paths = [["A2", "Q9"]', "extra path"),
])
def test_broken_board_files_are_refused(tmp_path, old, new, msg):
    assert old in BOARD
    path = write(tmp_path, "b.toml", BOARD.replace(old, new, 1))
    with pytest.raises(ParamError, match=msg):
        D.load_board(path)


def test_red_cross_tile_and_disconnected_board(tmp_path):
    red = BOARD.replace('"~~ E2 E3 E4 E5 ~~"', '"~~ E2 E3 E4 X1 ~~"')
    with pytest.raises(ParamError, match="red-cross"):
        D.load_board(write(tmp_path, "r.toml", red))
    small = BOARD.replace('paths = "orthogonal"', 'paths = "none"')
    with pytest.raises(ParamError, match="connect"):
        D.load_board(write(tmp_path, "n.toml", small))


@pytest.mark.parametrize("old,new,msg", [
    ("count = 14\n", "count = 13\n", "Favourable"),
    ('options = ["3 maize", "3 prestige"]', 'options = ["3 gold"]', "unknown item"),
    ("code = 16\n", "code = 15\n", "codes"),
    ("count = 1\n[[type]]\ncode = 9", "count = 2\n[[type]]\ncode = 9", "Eclipse"),
])
def test_broken_katun_files_are_refused(tmp_path, old, new, msg):
    assert old in KATUN
    with pytest.raises(ParamError, match=msg):
        D.load_deck(write(tmp_path, "k.toml", KATUN.replace(old, new, 1)))


@pytest.mark.parametrize("old,new,msg", [
    ("maize = 30", "maize = -1", "supply.maize"),
    ('faces = ["0", "1", "1", "2", "3", "skull"]', 'faces = ["0", "4"]', "die face"),
    ('market = "1 cacao"', 'market = "1 gold"', "unknown riches"),
])
def test_broken_component_files_are_refused(tmp_path, old, new, msg):
    assert old in COMP
    with pytest.raises(ParamError, match=msg):
        D.load_components(write(tmp_path, "c.toml", COMP.replace(old, new, 1)))


def test_parameters_checked_in_prepare():
    with pytest.raises(ParamError, match="ball_games"):
        GAME.prepare(GAME.resolve_rules({"ball_games": 1}), 2)
    with pytest.raises(ParamError):
        GAME.resolve_rules({"ball_games": 6})
    with pytest.raises(ParamError, match="does not exist"):
        GAME.prepare(GAME.resolve_rules({"board": "/nonexistent.toml"}), 2)
    R = GAME.prepare(GAME.resolve_rules({"ball_games": 5}), 3)[0]
    assert R[1] == 5
    R = GAME.prepare(GAME.resolve_rules({}), 4)[0]
    assert R[1] == 4


def test_board_picture(tmp_path):
    from sim.games.balam.draw import draw_board
    out = draw_board(None, tmp_path / "board.png")
    assert open(out, "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_small_board_is_a_file_away():
    b = D.load_board(D.resolve_file("small", "board"))
    assert (b.rows, b.cols) == (4, 5) and len(b.names) == 16
    ctx = GAME.prepare(GAME.resolve_rules({"board": "small"}), 4)
    assert ctx[1].shape[0] == 16
