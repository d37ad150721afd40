"""Hostile data files (issue #22, point 6): every value a game reads from its data files is
checked for its type and range, a key given twice (in any spelling) or not read at all is
refused, and the one-line message names the file, the line and the field.

``CASES`` holds one edit of a shipped file per file and kind of field; each is refused by
the game's loader (no kernel is compiled) and, end to end, by ``sim GAME --set PARAM=FILE``
with one ``sim: error:`` line and exit status 2.  Puluc reads no data file.
"""
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from sim import toml as TOML
from sim.cli import cli
from sim.games.balam import data as BALAM
from sim.games.batam import GAME as BATAM_GAME
from sim.games.batam import data as BATAM
from sim.games.maya import load_board as maya_board
from sim.params import ParamError

SEEDS = Path(__file__).resolve().parents[1] / "seeds"

#: (game, parameter) -> (the file the parameter names by default, what messages call it)
FILES = {
    ("maya", "board"): ("maya/board.toml", "board"),
    ("batam", "board"): ("batam/board.toml", "board"),
    ("batam", "dice"): ("batam/dice.toml", "dice"),
    ("batam", "tiles"): ("batam/compass_tiles.toml", "compass tiles"),
    ("batam", "cards"): ("batam/compass_cards.toml", "compass cards"),
    ("batam", "components"): ("batam/components.toml", "components"),
    ("balam", "board"): ("balam/board.toml", "board"),
    ("balam", "katun"): ("balam/katun.toml", "katun"),
    ("balam", "components"): ("balam/components.toml", "components"),
}

SEA = ("~" * 50 + "\n") * 25   # 1,250 more sea spaces than a map may have
MAYA_COLOURS = 'colours = ["red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "grey"]'
CARD = '[[card]]\nkind = "tradewind"\nvalue = 2\n'


def case(label, game, param, old, new, field, at=None):
    """Replace ``old`` by ``new`` (the first time) in the shipped file; the message must name
    ``field`` and the line holding ``at`` (the last line of ``new`` unless given), looked
    for from the edit's line on (else above it: a table's header)."""
    return pytest.param(game, param, old, new, field, at or new.rstrip("\n").splitlines()[-1],
                        id=f"{game} {param}: {label}")


CASES = [
    # ---- Maya, board.toml
    case("decimal rows", "maya", "board", "rows = 3", "rows = 3.0", "rows"),
    case("text cols", "maya", "board", "cols = 3", 'cols = "3"', "cols"),
    case("bool levels", "maya", "board", "levels = 5", "levels = true", "levels"),
    case("negative rows", "maya", "board", "rows = 3", "rows = -3", "rows"),
    case("huge rows", "maya", "board", "rows = 3", "rows = 1000000000", "rows"),
    case("zero levels", "maya", "board", "levels = 5", "levels = 0", "levels"),
    case("colours a text", "maya", "board", MAYA_COLOURS, 'colours = "red"', "colours"),
    case("blank colour", "maya", "board", '"red", "orange"', '" ", "orange"', "colours[1]"),
    case("colour twice, case aside", "maya", "board", '"red", "orange"', '"red", "Red"', "colours[2]"),
    case("key twice, case aside", "maya", "board", "rows = 3", "rows = 3\nRows = 3", "Rows"),
    case("unknown key", "maya", "board", "rows = 3", "rows = 3\ntowers = 9", "towers"),
    # ---- Batam, board.toml
    case("name a number", "batam", "board", 'name = "Riau archipelago (default)"', "name = -1", "name"),
    case("name a decimal", "batam", "board", 'name = "Riau archipelago (default)"', "name = 1.5", "name"),
    case("start a number", "batam", "board", 'start = "B"', "start = 0", "start"),
    case("island name a decimal", "batam", "board", 'B = "Batam"', "B = 1.5", "islands.B"),
    case("island name a bool", "batam", "board", 'N = "Bintan"', "N = true", "islands.N"),
    case("island named twice, case aside", "batam", "board", 'L = "Lingga"', 'L = "batam"', "islands.L"),
    case("huge map", "batam", "board", 'grid = """\n', 'grid = """\n' + SEA, "grid", at='grid = """'),
    case("unknown key", "batam", "board", 'start = "B"', 'start = "B"\nrows = -3', "rows"),
    case("key twice, case aside", "batam", "board", 'start = "B"', 'start = "B"\nStart = "B"', "Start"),
    # ---- Batam, dice.toml
    case("negative face", "batam", "dice", "1, 2", "-1, 2", "faces[2]", at="faces"),
    case("zero face", "batam", "dice", "1, 2", "0, 2", "faces[2]", at="faces"),
    case("huge face", "batam", "dice", "1, 2", "1000000, 2", "faces[2]", at="faces"),
    case("text face", "batam", "dice", "1, 2", '"one", 2', "faces[2]", at="faces"),
    case("decimal face", "batam", "dice", "1, 2", "1.5, 2", "faces[2]", at="faces"),
    case("bool face", "batam", "dice", "1, 2", "true, 2", "faces[2]", at="faces"),
    case("too many faces", "batam", "dice", '"seasick", 1', '"seasick", ' + "1, " * 20 + "1", "faces"),
    case("faces a text", "batam", "dice", 'faces = ["seasick", 1, 2, 3, 4, 5]', 'faces = "123456"', "faces"),
    case("unknown key", "batam", "dice", "faces =", "sides = 6\nfaces =", "sides", at="sides"),
    # ---- Batam, compass_tiles.toml
    case("decimal value", "batam", "tiles", "value = 2", "value = 2.5", "tile[1].value"),
    case("text value", "batam", "tiles", "value = 2", 'value = "2"', "tile[1].value"),
    case("negative value", "batam", "tiles", "value = 0", "value = -3", "tile[8].value"),
    case("zero tradewind", "batam", "tiles", "value = 2", "value = 0", "tile[1].value"),
    case("huge value", "batam", "tiles", "value = 2", "value = 100000", "tile[1].value"),
    case("kind in capitals", "batam", "tiles", 'kind = "tradewind"', 'kind = "Tradewind"', "tile[1].kind"),
    case("a count on a tile", "batam", "tiles", "value = 2", "value = 2\ncount = 5", "tile[1].count"),
    case("an island on a pirate", "batam", "tiles", 'kind = "pirate"', 'kind = "pirate"\nisland = "Sugi"',
         "tile[8].island"),
    case("map of an unknown island", "batam", "tiles", 'island = "Sugi"', 'island = 7', "tile[7].island"),
    # ---- Batam, compass_cards.toml
    case("zero count", "batam", "cards", "count = 3", "count = 0", "card[1].count"),
    case("negative count", "batam", "cards", "count = 3", "count = -1", "card[1].count"),
    case("huge count", "batam", "cards", "count = 3", "count = 100", "card[1].count"),
    case("decimal count", "batam", "cards", "count = 3", "count = 2.5", "card[1].count"),
    case("text count", "batam", "cards", "count = 3", 'count = "3"', "card[1].count"),
    case("bool value", "batam", "cards", "value = 2", "value = true", "card[1].value"),
    case("key twice, case aside", "batam", "cards", "count = 3", "count = 3\nCount = 3", "card[1].Count"),
    case("misspelt key", "batam", "cards", "count = 3", "cuont = 3", "card[1].cuont"),
    case("the same card twice", "batam", "cards", "[[card]]\nkind = \"pirate\"\nvalue = 2",
         CARD + "count = 1\n[[card]]\nkind = \"pirate\"\nvalue = 2", "card[10]", at="[[card]]"),
    # ---- Batam, components.toml
    case("zero start coins", "batam", "components", "start_coins = 20", "start_coins = 0", "start_coins"),
    case("decimal start coins", "batam", "components", "start_coins = 20", "start_coins = 20.5",
         "start_coins"),
    case("text start coins", "batam", "components", "start_coins = 20", 'start_coins = "20"', "start_coins"),
    case("huge goods", "batam", "components", "goods_per_player = 4", "goods_per_player = 99",
         "goods_per_player"),
    case("bool goods", "batam", "components", "goods_per_player = 4", "goods_per_player = true",
         "goods_per_player"),
    case("zero coins of a denomination", "batam", "components", "1 = 33", "1 = 0", "bank.1"),
    case("negative coins", "batam", "components", "1 = 33", "1 = -33", "bank.1"),
    case("denomination 0", "batam", "components", "1 = 33", "0 = 33", "bank.0"),
    case("negative denomination", "batam", "components", "1 = 33", "-5 = 33", "bank.-5"),
    case("denomination 05 (a second 5)", "batam", "components", "1 = 33", "05 = 33", "bank.05"),
    case("denomination 5_0", "batam", "components", "1 = 33", "5_0 = 33", "bank.5_0"),
    case("huge bank", "batam", "components", "25 = 16", "1000 = 100000", "bank", at="[bank]"),
    case("unknown key", "batam", "components", "start_coins = 20", "start_coins = 20\nstart_cubes = 4",
         "start_cubes"),
    # ---- Balam, board.toml
    case("decimal spaces", "balam", "board", "spaces = 2", "spaces = 2.0", "tile[1].spaces"),
    case("huge spaces", "balam", "board", "spaces = 2", "spaces = 99", "tile[1].spaces"),
    case("text colour", "balam", "board", 'colour = "shell"', "colour = 5", "tile[1].colour"),
    case("number for a feature", "balam", "board", "forest = true", "forest = 1", "tile[1].forest"),
    case("text for use_red_cross", "balam", "board", "use_red_cross = false", 'use_red_cross = "no"',
         "layout.use_red_cross"),
    case("number as an id", "balam", "board", 'id = "X3"', "id = 3", "tile[29].id"),
    case("a tile described twice", "balam", "board", 'id = "X3"', 'id = "X1"', "tile[29].id"),
    case("ids equal but for case", "balam", "board", 'id = "X3"', 'id = "x1"', "tile[29].id"),
    case("grid row a number", "balam", "board", '"~~ E2 E3 E4 E5 ~~",', "5,", "layout.grid[5]"),
    case("extra path twice", "balam", "board", '["A2", "B1"], ["A5"', '["A2", "B1"], ["B1", "A2"], ["A5"',
         "layout.extra_paths[2]"),
    case("extra path nested", "balam", "board", '["A2", "B1"], ["A5"', '[["A2"], "B1"], ["A5"',
         "layout.extra_paths[1]"),
    case("key twice, case aside", "balam", "board", "forest = true", "forest = true\nForest = true",
         "tile[1].Forest"),
    case("unknown key", "balam", "board", "use_red_cross = false", "use_red_cross = false\nx = 1", "layout.x"),
    # ---- Balam, katun.toml
    case("negative count", "balam", "katun", "count = 4\n[[type]]\ncode = 11",
         "count = -1\n[[type]]\ncode = 11", "type[11].count", at="count = -1"),
    case("decimal count", "balam", "katun", "count = 4\n[[type]]\ncode = 11",
         "count = 4.0\n[[type]]\ncode = 11", "type[11].count", at="count = 4.0"),
    case("huge count", "balam", "katun", "count = 4\n[[type]]\ncode = 11",
         "count = 41\n[[type]]\ncode = 11", "type[11].count", at="count = 41"),
    case("zero ball games", "balam", "katun", "count = 5", "count = 0", "type[8].count"),
    case("text code", "balam", "katun", "code = 16", 'code = "16"', "type[17].code"),
    case("code twice", "balam", "katun", "code = 16", "code = 15", "type[17].code"),
    case("key twice, case aside", "balam", "katun", 'key = "insurrection"', 'key = "Drought"', "type[11].key"),
    case("name twice", "balam", "katun", 'name = "Insurrection"', 'name = "Drought"', "type[11].name"),
    case("number as a key", "balam", "katun", 'key = "insurrection"', "key = 5", "type[11].key"),
    case("misspelt count", "balam", "katun", "count = 3\n[[type]]\ncode = 7",
         "kount = 3\n[[type]]\ncode = 7", "type[7].kount", at="kount"),
    case("negative gain", "balam", "katun", 'gain = "2 maize"\n\n', 'gain = "-2 maize"\n\n',
         "exceptional.gain"),
    case("huge gain", "balam", "katun", 'gain = "2 maize"\n\n', 'gain = "' + "9" * 23 + ' maize"\n\n',
         "exceptional.gain"),
    case("riches twice in a gain", "balam", "katun", 'gain = "1 maize, 1 cacao"', 'gain = "1 maize, 1 maize"',
         "favourable[1].gain"),
    case("number as a gain", "balam", "katun", 'gain = "1 maize, 1 cacao"', "gain = 3", "favourable[1].gain"),
    case("options a text", "balam", "katun", 'options = ["3 maize", "3 prestige"]', 'options = "3 maize"',
         "prosperous[9].options"),
    case("an option a number", "balam", "katun", 'options = ["3 maize", "3 prestige"]',
         'options = ["3 maize", 3]', "prosperous[9].options[2]"),
    # ---- Balam, components.toml
    case("decimal supply", "balam", "components", "maize = 30", "maize = 30.0", "supply.maize"),
    case("negative supply", "balam", "components", "maize = 30", "maize = -1", "supply.maize"),
    case("huge supply", "balam", "components", "maize = 30", "maize = 1000000", "supply.maize"),
    case("key twice, case aside", "balam", "components", "maize = 30", "maize = 30\nMaize = 3", "supply.Maize"),
    case("zero large pyramids", "balam", "components", "large_per_player = 13", "large_per_player = 0",
         "pyramids.large_per_player"),
    case("text tile count", "balam", "components", "village_garrison = 36", 'village_garrison = "36"',
         "tiles.village_garrison"),
    case("number as a cost", "balam", "components", 'village = "1 any"', "village = 1", "costs.village"),
    case("bool ceremony points", "balam", "components", "prisoner = 3\ncenote", "prisoner = true\ncenote",
         "ceremony.prisoner", at="prisoner = true"),
    case("decimal die face", "balam", "components", 'faces = ["0", "1"', 'faces = [0.5, "1"', "dice.faces[1]",
         at="faces"),
    case("bool die face", "balam", "components", 'faces = ["0", "1"', 'faces = [false, "1"', "dice.faces[1]",
         at="faces"),
    case("negative start maize", "balam", "components", "start_maize = 6", "start_maize = -6",
         "setup.start_maize"),
    case("unknown table", "balam", "components", "[setup]", "[extra]\nx = 1\n[setup]", "extra", at="[extra]"),
]


def _edit(tmp_path, game, param, old, new, at):
    """The edited copy of the shipped file, and the line the message must name."""
    rel, what = FILES[(game, param)]
    text = (SEEDS / rel).read_text(encoding="utf-8")
    assert old in text, old
    start = text.index(old)
    edited = text[:start] + new + text[start + len(old):]
    pos = edited.find(at, edited.rfind("\n", 0, start) + 1)   # from the edit's line on,
    if pos < 0:
        pos = edited.rindex(at, 0, start)                      # else the nearest line above
    line = edited[:pos].count("\n") + 1
    path = tmp_path / f"{game}-{param}.toml"
    path.write_text(edited, encoding="utf-8")
    return path, what, line


def _load(game, param, path):
    """What the game reads a file with (no kernel compiled: the data only)."""
    if game == "maya":
        return maya_board(str(path))
    if game == "batam":
        return BATAM.load_all(BATAM_GAME.resolve_rules({param: str(path)}))
    return {"board": BALAM.load_board, "katun": BALAM.load_deck,
            "components": BALAM.load_components}[param](path)


def _check(message, path, what, line, field):
    assert f"{what} file {TOML._shown(path)}, line {line}: '{field}' " in message, message
    assert "\n" not in message


@pytest.mark.parametrize("game, param, old, new, field, at", CASES)
def test_a_hostile_value_is_refused_naming_file_line_and_field(tmp_path, game, param, old, new, field, at):
    path, what, line = _edit(tmp_path, game, param, old, new, at)
    with pytest.raises(ParamError) as e:
        _load(game, param, path)
    _check(str(e.value), path, what, line, field)


@pytest.mark.parametrize("game, param, old, new, field, at", CASES)
def test_a_hostile_value_stops_the_command_with_one_line(tmp_path, monkeypatch, game, param, old, new,
                                                         field, at):
    path, what, line = _edit(tmp_path, game, param, old, new, at)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    r = CliRunner().invoke(cli, [game, "--games", "100", "--jobs", "1", "--set", f"{param}={path}",
                                 "--out", str(out)])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("sim: error: "), r.output
    _check(lines[0], path, what, line, field)
    assert not out.exists()


def test_every_file_and_every_parameter_has_cases():
    covered = {(p.values[0], p.values[1]) for p in CASES}
    assert covered == set(FILES)
    # Puluc reads no data file
    from sim.games.puluc import GAME as PULUC
    assert not [p for p in PULUC.params if p.kind == "file"]


def test_the_shipped_files_load_as_they_are():
    for (game, param), (rel, _) in FILES.items():
        _load(game, param, SEEDS / rel)
    BALAM.load_board(SEEDS / "balam" / "board_small.toml")


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from("[]{}a\"\né"), max_size=80))
def test_the_nesting_bound_is_the_bracket_walk(text):
    """sim.toml's nesting bound (a running sum of brackets, numpy) is the plain walk: one
    level up per opening bracket, one down per closing one, never below zero."""
    depth = best = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
    assert TOML._bracket_depth(text) == best


def test_a_file_loaded_again_is_parsed_once_and_an_edit_is_seen(tmp_path, monkeypatch):
    """``datafile.by_content``: the same bytes are parsed once (each call still reads the
    file and records it for the manifest), the caller gets its own copy, an edited file is
    read afresh, and a refused file is refused again with its message."""
    from sim import datafile
    path = tmp_path / "board.toml"
    path.write_text((SEEDS / "balam" / "board.toml").read_text())
    parsed, real = [], datafile.load
    monkeypatch.setattr(datafile, "load", lambda p, what: parsed.append(p) or real(p, what))
    with TOML.recording() as files:
        a = BALAM.load_board(path)
        a.info[0, 0] = 99                      # the caller's copy
        b = BALAM.load_board(path)
    assert len(parsed) == 1 and b.info[0, 0] != 99
    assert [name for name, _ in files] == ["board.toml"]
    path.write_text(path.read_text().replace("[layout]", "[layout]\n# edited", 1))
    c = BALAM.load_board(path)
    assert len(parsed) == 2 and (c.info == b.info).all()
    path.write_text(path.read_text() + "\nextra = 1\n")
    for _ in range(2):
        with pytest.raises(ParamError, match="extra"):
            BALAM.load_board(path)
    assert len(parsed) == 4


# ------------------------------------------------------------------ key_lines
def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + (k,)
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield path + (i,)
            yield from _leaves(v, path + (i,))


@pytest.mark.parametrize("path", sorted(SEEDS.glob("*/*.toml")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_key_lines_finds_every_key_and_element_of_the_shipped_files(path):
    text = path.read_text(encoding="utf-8")
    data = TOML.loads(text, path, "data")
    lines = TOML.key_lines(text)
    rows = text.splitlines()
    for p in _leaves(data):
        assert p in lines, p
        key = [k for k in p if isinstance(k, str)][-1]
        if not isinstance(p[-1], int):   # the key's own line holds its name
            assert key in rows[lines[p] - 1] or p[-1] in rows[lines[p] - 1], (p, lines[p])


def test_key_lines_follows_strings_comments_arrays_and_tables():
    text = '\n'.join([
        'a = 1',                                   # 1
        'b = """x',                                # 2
        '"" y \\""" z"""',                         # 3
        'c = [1, # ] not the end',                 # 4
        '  "two]", [3,',                           # 5
        '  4], {x = 1, "y.z" = 2}]',               # 6
        "[t.'q.r']",                               # 7
        "k.l = 'lit # no comment'",                # 8
        '[[arr]]',                                 # 9
        'v = 1',                                   # 10
        '[[arr]]',                                 # 11
        '[[arr.sub]]',                             # 12
        'w = 3',                                   # 13
        '[arr.tab]',                               # 14
        '"quoted key" = 5',                        # 15
    ]) + "\n"
    TOML.loads(text, "t.toml", "test")   # valid TOML
    got = TOML.key_lines(text)
    want = {("a",): 1, ("b",): 2, ("c",): 4, ("c", 0): 4, ("c", 1): 5, ("c", 2): 5, ("c", 2, 1): 6,
            ("c", 3): 6, ("c", 3, "y.z"): 6, ("t", "q.r"): 7, ("t", "q.r", "k"): 8,
            ("t", "q.r", "k", "l"): 8, ("arr",): 9, ("arr", 0): 9, ("arr", 0, "v"): 10, ("arr", 1): 11,
            ("arr", 1, "sub", 0): 12, ("arr", 1, "sub", 0, "w"): 13, ("arr", 1, "tab"): 14,
            ("arr", 1, "tab", "quoted key"): 15}
    assert {k: got.get(k) for k in want} == want


# ------------------------------------------------------------------ checks of a whole file
@pytest.mark.parametrize("game, param, old, new, players, expect", [
    # the map as a whole: the grid's line, then the row and column
    ("batam", "board", "~~##~~~*~~", "~~##~~~~~~", 2, "'grid' has 6 compass spaces"),
    ("batam", "board", "~~~~~~~~~~~~~~~~~~~\n~~K#", "~~~~~~~~~~~~~~~~~~~\n#~K#", 2, None),
    # between files and parameters: the file
    ("batam", "components", "start_coins = 20", "start_coins = 200", 4, "too few"),
    ("balam", "components", "start_maize = 6", "start_maize = 10", 4, "maize to start"),
    ("balam", "katun", "count = 5", "count = 2", 4, "ball game cards"),
], ids=["batam compass spaces", "batam valid edit", "batam bank", "balam maize", "balam ball games"])
def test_checks_of_a_whole_file_name_the_file(tmp_path, game, param, old, new, players, expect):
    from sim.games import get
    path, what, _ = _edit(tmp_path, game, param, old, new, new)
    G = get(game)
    if expect is None:   # a valid edit is still accepted
        G.prepare(G.resolve_rules({param: str(path)}), players)
        return
    with pytest.raises(ParamError, match=expect) as e:
        G.prepare(G.resolve_rules({param: str(path)}), players)
    assert f"{what} file {TOML._shown(path)}" in str(e.value)
    if param == "board":
        assert f"{what} file {TOML._shown(path)}, line 17: 'grid' " in str(e.value)


def test_a_huge_hostile_file_is_refused_in_seconds(tmp_path):
    """A 1 MB list of faces: the line is found by a scan that skips past 10,000 elements at
    regex speed (and runs only because a message needs it); tomllib's own parse is most of
    the time (about 4 s here)."""
    import time
    path = tmp_path / "dice.toml"
    path.write_text("# many faces\nfaces = [" + "1, " * 300_000 + '"seasick"]\n')
    t0 = time.perf_counter()
    with pytest.raises(ParamError) as e:
        BATAM.load_dice(path)
    assert time.perf_counter() - t0 < 60
    assert f"dice file {TOML._shown(path)}, line 2: 'faces' must be a list of 2 to 20 elements" in str(e.value)


# a TOML text built piece by piece, knowing the line of every key it writes
_KEYS = st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,6}", fullmatch=True),
                  st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=6))
_STRINGS = st.text(st.sampled_from(list("ab #]}[{,='\"\\\n\t")), max_size=12)


def _key(k: str) -> str:
    import json
    return k if k.replace("_", "a").replace("-", "a").isalnum() and k.isascii() else json.dumps(k, ensure_ascii=False)


def _scalar(draw):
    import json
    kind = draw(st.sampled_from(["int", "float", "bool", "basic", "literal", "multi", "mliteral"]))
    s = draw(_STRINGS)
    if kind == "int":
        return str(draw(st.integers(-10 ** 6, 10 ** 6)))
    if kind == "float":
        return repr(draw(st.floats(allow_nan=False, allow_infinity=False, width=32)))
    if kind == "bool":
        return draw(st.sampled_from(["true", "false"]))
    if kind == "basic":
        return json.dumps(s, ensure_ascii=False)
    if kind == "literal" and "'" not in s and "\n" not in s:
        return f"'{s}'"
    if kind == "multi":
        return '"""' + s.replace("\\", "\\\\").replace('"', '\\"') + '"""'
    if kind == "mliteral" and "'" not in s:
        return "'''" + s + "'''"
    return json.dumps(s, ensure_ascii=False)


@st.composite
def _value(draw, depth=0):
    if depth < 2 and draw(st.booleans()):
        items = [draw(_value(depth + 1)) for _ in range(draw(st.integers(0, 3)))]
        sep = draw(st.sampled_from([", ", ",\n  ", " , # a comment ] }\n"]))
        return "[" + sep.join(items) + draw(st.sampled_from(["", ",", "\n"] if items else ["", "\n"])) + "]"
    if depth < 2 and draw(st.booleans()):
        keys = draw(st.lists(_KEYS, max_size=3, unique=True))
        return "{" + ", ".join(f"{_key(k)} = {draw(_value(depth + 2))}" for k in keys) + "}"
    return _scalar(draw)


@st.composite
def _document(draw):
    lines, want = [], {}
    for t in range(draw(st.integers(0, 3))):
        header = draw(st.sampled_from(["table", "array"])) if t else "root"
        name = f"t{t}"
        if header == "table":
            lines.append(f"[{name}]  # table {t}")
            path = (name,)
        elif header == "array":
            n = draw(st.integers(1, 2))
            for i in range(n):
                lines.append(f"[[{name}]]")
                if i < n - 1:
                    lines.append(f"k = {draw(_value())}")
            path = (name, n - 1)
        else:
            path = ()
        for k in draw(st.lists(_KEYS, max_size=4, unique=True)):
            if not path and k in ("t1", "t2", "t3"):   # the tables' names: a second definition
                continue
            if draw(st.booleans()):
                lines.append(draw(st.sampled_from(["", "# comment = 1", "   "])))
            want[path + (k,)] = sum(x.count("\n") + 1 for x in lines) + 1   # values span lines
            lines.append(f"{_key(k)} = {draw(_value())}")
    return "\n".join(lines) + "\n", want


@settings(max_examples=300, deadline=None)
@given(_document())
def test_key_lines_names_the_line_of_every_key_of_any_toml(doc):
    text, want = doc
    data = TOML.loads(text, "x.toml", "test")
    got = TOML.key_lines(text)
    assert {p: got.get(p) for p in want} == want, text
    assert all(p in got for p in _leaves(data)), text
