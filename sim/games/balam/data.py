"""Balam data files: the board, the Katun deck and the components, loaded and validated.

Every problem is reported as one :class:`sim.params.ParamError` sentence naming the
file, the line and the field (every value is read through :mod:`sim.datafile`: type and
range checked, a key the loader does not read refused).  The loaders return plain numpy arrays for the kernel plus a few
Python lists (names) for reports and tests.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ... import datafile
from ...seeds import seeds_dir

SEEDS = seeds_dir("balam")
BUILTIN = {
    "board": {"default": SEEDS / "board.toml", "small": SEEDS / "board_small.toml"},
    "katun": {"default": SEEDS / "katun.toml"},
    "components": {"default": SEEDS / "components.toml"},
}

RICHES = ("maize", "cacao", "shell", "jade", "obsidian", "prisoner")
COLOURS = RICHES[:5]
PRESTIGE = 6  # index of prestige in a gain vector
FEATURES = ("forest", "seashore", "volcano", "cenote")
# building codes used by the kernel (0 = empty space, 9 = second space of a palace/temple)
BUILDINGS = ("village", "garrison", "palace", "temple", "market", "reserve", "ballcourt",
             "observatory")
TILE_PAIRS = ("village_garrison", "palace_temple", "market_reserve", "ballcourt_observatory")
N_TYPES = 17
CARD_ID_STRIDE = 64   # card identity = type * 64 + copy (a type holds at most 40 cards)
MAX_OPT = 4
MAX_NB = 8
MAX_SPACES = 4


def resolve_file(value: str, kind: str) -> Path:
    return BUILTIN[kind].get(value, Path(value))


# ------------------------------------------------------------------ board
@dataclass
class Board:
    """A board file: land cells (sites) in grid order, their paths, and the tile the grid
    prints on each.  The cells and paths are the board; the tiles are what lies on it:
    with ``layout=random`` each game permutes the tiles over the cells (the kernel's
    draw_layout), so ``names[s]`` and ``info[s]`` describe cell s as printed."""
    names: list           # the tile id printed on each land cell
    rc: np.ndarray        # (S, 2) grid row/col of each land cell
    nbr: np.ndarray       # (S, MAX_NB) neighbour cells, -1 padded
    nnb: np.ndarray       # (S,)
    info: np.ndarray      # (S, 6): spaces, colour, forest, seashore, volcano, cenote of the
    #                       tile printed on each cell (the tile set, in printed order)
    sea: list             # grid cells holding sea tiles
    rows: int
    cols: int


MAX_TILES = 256      # [[tile]] descriptions in a board file
MAX_GRID = 64        # rows, and cells per row, of a board's grid
MAX_EXTRA = 1000     # extra paths


@datafile.by_content("board")
def load_board(path) -> Board:
    d = datafile.load(path, "board")
    d.only("layout", "tile")
    lay = d.table("layout")
    lay.only("use_red_cross", "paths", "grid", "extra_paths")
    tiles = {}
    nodes = d.tables("tile", 0, MAX_TILES, default=[])
    for t in nodes:
        t.only("id", "spaces", "colour", *FEATURES, "red_cross")
        tid = t.text("id", max_len=20)
        if tid.split() != [tid] or tid in ("~~", ".."):
            raise t.fail("id", f"must be one word, not ~~ or .. (the grid names a tile by it), not {tid!r}")
        t.int("spaces", 2, MAX_SPACES)
        t.text("colour", choices=COLOURS)
        for f in FEATURES + ("red_cross",):
            t.bool(f, default=False)
        tiles[tid] = t.data
    # a tile described twice, or two ids that differ only in case
    datafile.unique([(t, "id", t.data["id"]) for t in nodes], "tile id")
    rows = lay.array("grid", 1, MAX_GRID)
    grid = []
    for r in rows.keys():
        cells = rows.text(r, max_len=10 * MAX_GRID).split()
        if not 1 <= len(cells) <= MAX_GRID:
            raise rows.fail(r, f"must hold 1 to {MAX_GRID} cells, not {len(cells)}")
        if grid and len(cells) != len(grid[0]):
            raise rows.fail(r, f"holds {len(cells)} cells, the first row {len(grid[0])}: the grid rows "
                               f"must all have the same number of cells")
        grid.append(cells)
    use_red = lay.bool("use_red_cross", default=False)
    names, rc, sea = [], [], []
    pos = {}
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell == "~~":
                sea.append((r, c))
            elif cell == "..":
                continue
            else:
                if cell not in tiles:
                    raise rows.fail(r, f"names cell {cell} (column {c + 1}), which is not described "
                                       f"by a [[tile]]")
                if cell in pos:
                    raise rows.fail(r, f"names tile {cell} a second time: it appears twice in the grid")
                if tiles[cell].get("red_cross", False) and not use_red:
                    raise rows.fail(r, f"places red-cross tile {cell}, set aside by the rules; set "
                                       f"use_red_cross = true to place it")
                pos[cell] = len(names)
                names.append(cell)
                rc.append((r, c))
    S = len(names)
    if not 2 <= S <= 64:
        raise lay.fail("grid", f"must hold 2 to 64 land sites, not {S}")
    edges = set()
    mode = lay.text("paths", default="orthogonal", choices=("orthogonal", "none"))
    if mode == "orthogonal":
        for i, (r, c) in enumerate(rc):
            for j, (r2, c2) in enumerate(rc):
                if i < j and abs(r - r2) + abs(c - c2) == 1:
                    edges.add((i, j))
    extra = lay.array("extra_paths", 0, MAX_EXTRA, default=[])
    listed: dict = {}
    for k in extra.keys():
        e = extra.get(k)
        if (not isinstance(e, list) or len(e) != 2 or not all(isinstance(x, str) for x in e)
                or e[0] not in pos or e[1] not in pos or e[0] == e[1]):
            raise extra.fail(k, f"is not a path: an extra path must join two different sites of the "
                                f"grid, not {datafile.shown(e)}")
        a, b = sorted((pos[e[0]], pos[e[1]]))
        if (a, b) in listed:
            first = listed[(a, b)]
            raise extra.fail(k, f"repeats the path {e[0]}-{e[1]} of '{extra.name(first)}' (line "
                                f"{extra.file.line(extra.path + (first,))})")
        listed[(a, b)] = k
        edges.add((a, b))
    adj = [[] for _ in range(S)]
    for a, b in sorted(edges):
        adj[a].append(b)
        adj[b].append(a)
    for i in range(S):
        if len(adj[i]) > MAX_NB:
            raise lay.fail("grid", f"gives site {names[i]} {len(adj[i])} neighbours; at most {MAX_NB} "
                                   f"are supported")
    seen = {0}
    todo = [0]
    while todo:
        x = todo.pop()
        for y in adj[x]:
            if y not in seen:
                seen.add(y)
                todo.append(y)
    if len(seen) != S:
        lost = names[min(set(range(S)) - seen)]
        raise lay.fail("paths", f"leaves site {lost} out: the paths must connect every site")
    nbr = -np.ones((S, MAX_NB), np.int64)
    nnb = np.zeros(S, np.int64)
    info = np.zeros((S, 6), np.int64)
    for i in range(S):
        adj[i].sort()
        nnb[i] = len(adj[i])
        nbr[i, :len(adj[i])] = adj[i]
        t = tiles[names[i]]
        info[i] = (t["spaces"], COLOURS.index(t["colour"]), t.get("forest", False),
                   t.get("seashore", False), t.get("volcano", False), t.get("cenote", False))
    return Board(names, np.array(rc, np.int64), nbr, nnb, info, sea, len(grid), len(grid[0]))


# ------------------------------------------------------------------ deck
@dataclass
class Deck:
    keys: list            # 17 type keys, by code
    titles: list
    ctype: np.ndarray     # (N,) card type code
    cgain: np.ndarray     # (N, MAX_OPT, 7) riches 0..5 and prestige
    cnopt: np.ndarray     # (N,) options (1 unless a choice)
    cid: np.ndarray       # (N,) the card's identity, type * 64 + copy (the deck's shuffle
    #                       keys hang on it, so a deck without some cards keeps the others'
    #                       relative order)


MAX_GAIN = 99   # riches or prestige one part of a gain gives


def parse_gain(node, key) -> np.ndarray:
    """The gain ``node[key]`` reads: "<amount> <what>, ...", each riches or prestige once."""
    text = node.get(key)
    if not isinstance(text, str):
        raise node.fail(key, f"must be a text such as '1 maize, 2 prestige', not {datafile.shown(text)}")
    g = np.zeros(7, np.int64)
    named: set = set()
    for part in text.split(","):
        bits = part.split()
        if (len(bits) != 2 or not (bits[0].isascii() and bits[0].isdigit())
                or not 1 <= int(bits[0]) <= MAX_GAIN):
            raise node.fail(key, f"part {part.strip()!r} must read '<amount> <riches or prestige>', the "
                                 f"amount a whole number 1..{MAX_GAIN}")
        what = bits[1].lower()
        if what not in RICHES and what != "prestige":
            raise node.fail(key, f"names unknown item {bits[1]!r}; use {', '.join(RICHES)} or prestige")
        if what in named:
            raise node.fail(key, f"names {what} twice; give its amount once")
        named.add(what)
        g[RICHES.index(what) if what in RICHES else PRESTIGE] += int(bits[0])
    return g


@datafile.by_content("katun")
def load_deck(path) -> Deck:
    d = datafile.load(path, "katun")
    d.only("type", "exceptional", "prosperous", "favourable")
    types = d.tables("type", 1, 10 * N_TYPES)
    if len(types) != N_TYPES:
        raise d.fail("type", f"must describe the 17 card types ([[type]] 17 times), not {len(types)}")
    keys, titles, counts = [None] * N_TYPES, [None] * N_TYPES, [0] * N_TYPES
    by_code: dict = {}
    for t in types:
        t.only("code", "key", "name", "count")
        code = t.int("code", 0, N_TYPES - 1)
        if code in by_code:
            first = by_code[code]
            raise t.fail("code", f"repeats code {code} of '{first.name('code')}' (line "
                                 f"{first.file.line(first.path + ('code',))}): card type codes must "
                                 f"be 0..16, each once")
        by_code[code] = t
        counts[code] = t.int("count", 0, 40)
        keys[code] = t.text("key", default=f"type{code}", max_len=60)
        titles[code] = t.text("name", default=keys[code])
    # keys name the katun_<key> columns and sim impact's cards; names the report's rows
    datafile.unique([(t, "key", keys[t.data["code"]]) for t in types], "key")
    datafile.unique([(t, "name", titles[t.data["code"]]) for t in types], "name")
    if counts[8] > 1:
        raise by_code[8].fail("count", f"is {counts[8]}: there is at most one Eclipse card")
    if counts[7] < 1:
        raise by_code[7].fail("count", "is 0: the deck needs at least one ball game card")
    pros = d.tables("prosperous", 0, 40, default=[])
    fav = d.tables("favourable", 0, 40, default=[])
    if len(pros) != counts[0]:
        raise by_code[0].fail("count", f"is {counts[0]}: {counts[0]} Prosperous Katuns need {counts[0]} "
                                       f"[[prosperous]] entries, not {len(pros)}")
    if len(fav) != counts[1]:
        raise by_code[1].fail("count", f"is {counts[1]}: {counts[1]} Favourable Katuns need {counts[1]} "
                                       f"[[favourable]] entries, not {len(fav)}")
    N = sum(counts)
    ctype = np.zeros(N, np.int64)
    cgain = np.zeros((N, MAX_OPT, 7), np.int64)
    cnopt = np.ones(N, np.int64)
    cid = np.zeros(N, np.int64)
    if d.has("exceptional"):
        ex = d.table("exceptional")
        ex.only("gain")
        exc = parse_gain(ex, "gain") if ex.has("gain") else np.array([2, 0, 0, 0, 0, 0, 0], np.int64)
    else:
        exc = np.array([2, 0, 0, 0, 0, 0, 0], np.int64)   # the rulebook's 2 maize
    for j, it in enumerate(pros):
        it.only("options")
        opts = it.array("options", 1, MAX_OPT)
        gains = [parse_gain(opts, o) for o in opts.keys()]
        pros[j] = gains
    for j, it in enumerate(fav):
        it.only("gain")
        g = parse_gain(it, "gain")
        if g[PRESTIGE]:
            raise it.fail("gain", "gives prestige: a Favourable Katun gives riches only")
        fav[j] = g
    k = 0
    for code in range(N_TYPES):
        for j in range(counts[code]):
            ctype[k] = code
            cid[k] = code * CARD_ID_STRIDE + j
            if code == 0:
                for o, g in enumerate(pros[j]):
                    cgain[k, o] = g
                cnopt[k] = len(pros[j])
            elif code == 1:
                cgain[k, 0] = fav[j]
            elif code == 2:
                cgain[k, 0] = exc
            k += 1
    return Deck(keys, titles, ctype, cgain, cnopt, cid)


# ------------------------------------------------------------------ components
@dataclass
class Components:
    supply: np.ndarray    # (6,)
    large: int            # large pyramids usable for sites, per king
    small: int            # small pyramids usable for markets, per king
    tiles: np.ndarray     # (4,) tile pairs
    cost_any: np.ndarray  # (8,) riches of choice, by building
    cost_kind: np.ndarray  # (8,) -1 or the riches a building needs
    cost_n: np.ndarray    # (8,) how many of cost_kind
    points: np.ndarray    # (6,) ceremony points
    cenote_factor: int
    faces: np.ndarray     # (F,) 0..3, -1 = skull
    start_maize: int
    chaak_maize: int


@datafile.by_content("components")
def load_components(path) -> Components:
    d = datafile.load(path, "components")
    d.only("supply", "pyramids", "tiles", "costs", "ceremony", "dice", "setup")

    def table(key, *known):
        t = d.table(key)
        t.only(*known)
        return t

    sup = table("supply", *RICHES)
    supply = np.array([sup.int(r, 0, 1000) for r in RICHES], np.int64)
    pyr = table("pyramids", "on_score_track", "large_per_player", "small_per_player")
    track = pyr.int("on_score_track", 0, 2)
    large = pyr.int("large_per_player", 1 + track, 100) - track
    small = pyr.int("small_per_player", track, 200) - track
    til = table("tiles", *TILE_PAIRS)
    tiles = np.array([til.int(k, 0, 1000) for k in TILE_PAIRS], np.int64)
    cst = table("costs", *BUILDINGS)
    cost_any = np.zeros(8, np.int64)
    cost_kind = -np.ones(8, np.int64)
    cost_n = np.zeros(8, np.int64)
    for b, bname in enumerate(BUILDINGS):
        txt = cst.get(bname)
        bits = txt.split() if isinstance(txt, str) else []
        if len(bits) != 2 or bits[0] not in ("1", "2", "3"):
            raise cst.fail(bname, f"must read '<1..3> <any or riches>', not {datafile.shown(txt)}")
        if bits[1] == "any":
            cost_any[b] = int(bits[0])
        elif bits[1] in RICHES:
            cost_kind[b] = RICHES.index(bits[1])
            cost_n[b] = int(bits[0])
        else:
            raise cst.fail(bname, f"names unknown riches {bits[1]!r}; use any or {', '.join(RICHES)}")
    cer = table("ceremony", *RICHES, "cenote_factor")
    points = np.array([cer.int(r, 0, 20) for r in RICHES], np.int64)
    factor = cer.int("cenote_factor", 0, 10)
    dice = table("dice", "faces").array("faces", 2, 20)
    faces = []
    for i in dice.keys():
        f = dice.get(i)
        s = f.strip().lower() if isinstance(f, str) else f
        if s == "skull":
            faces.append(-1)
        elif s in ("0", "1", "2", "3") or (type(s) is int and 0 <= s <= 3):
            faces.append(int(s))
        else:
            raise dice.fail(i, f"must be 0, 1, 2, 3 or skull (a die face), not {datafile.shown(f)}")
    stp = table("setup", "start_maize", "chaak_maize")
    return Components(supply, large, small, tiles, cost_any, cost_kind, cost_n, points, factor,
                      np.array(faces, np.int64), stp.int("start_maize", 0, 1000),
                      stp.int("chaak_maize", 0, 1000))
