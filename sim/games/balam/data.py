"""Balam data files: the board, the Katun deck and the components, loaded and validated.

Every problem is reported as one :class:`sim.params.ParamError` sentence naming the
file and the entry.  The loaders return plain numpy arrays for the kernel plus a few
Python lists (names) for reports and tests.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ... import toml as TOML
from ...params import ParamError
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


def _load(path, what) -> dict:
    return TOML.load(path, what)


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


def load_board(path) -> Board:
    name = Path(path).name
    d = _load(path, "board")
    if "layout" not in d or "grid" not in d["layout"]:
        raise ParamError(f"board file {name} needs a [layout] table with a grid")
    lay = d["layout"]
    tiles = {}
    for t in d.get("tile", []):
        tid = str(t.get("id", ""))
        if not tid:
            raise ParamError(f"board file {name}: every [[tile]] needs an id")
        if tid in tiles:
            raise ParamError(f"board file {name}: tile {tid} is described twice")
        sp = t.get("spaces")
        if type(sp) is not int or not 2 <= sp <= MAX_SPACES:
            raise ParamError(f"board file {name}: tile {tid} must have 2 to 4 spaces, not {sp!r}")
        if t.get("colour") not in COLOURS:
            raise ParamError(f"board file {name}: tile {tid} has colour {t.get('colour')!r}; "
                             f"use one of {', '.join(COLOURS)}")
        for f in FEATURES + ("red_cross",):
            if not isinstance(t.get(f, False), bool):
                raise ParamError(f"board file {name}: tile {tid} feature {f} must be true or false")
        tiles[tid] = t
    grid = [str(r).split() for r in lay["grid"]]
    if not grid or any(len(r) != len(grid[0]) for r in grid):
        raise ParamError(f"board file {name}: the grid rows must all have the same number of cells")
    use_red = bool(lay.get("use_red_cross", False))
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
                    raise ParamError(f"board file {name}: grid cell {cell} (row {r + 1}) is not "
                                     f"described by a [[tile]]")
                if cell in pos:
                    raise ParamError(f"board file {name}: tile {cell} appears twice in the grid")
                if tiles[cell].get("red_cross", False) and not use_red:
                    raise ParamError(f"board file {name}: red-cross tile {cell} is set aside by "
                                     f"the rules; set use_red_cross = true to place it")
                pos[cell] = len(names)
                names.append(cell)
                rc.append((r, c))
    S = len(names)
    if S < 2:
        raise ParamError(f"board file {name}: the grid needs at least two land sites")
    if S > 64:
        raise ParamError(f"board file {name}: at most 64 land sites are supported, not {S}")
    edges = set()
    mode = lay.get("paths", "orthogonal")
    if mode not in ("orthogonal", "none"):
        raise ParamError(f"board file {name}: paths must be \"orthogonal\" or \"none\", not {mode!r}")
    if mode == "orthogonal":
        for i, (r, c) in enumerate(rc):
            for j, (r2, c2) in enumerate(rc):
                if i < j and abs(r - r2) + abs(c - c2) == 1:
                    edges.add((i, j))
    for e in lay.get("extra_paths", []):
        if len(e) != 2 or e[0] not in pos or e[1] not in pos or e[0] == e[1]:
            raise ParamError(f"board file {name}: extra path {e!r} must join two different "
                             f"sites of the grid")
        a, b = sorted((pos[e[0]], pos[e[1]]))
        edges.add((a, b))
    adj = [[] for _ in range(S)]
    for a, b in sorted(edges):
        adj[a].append(b)
        adj[b].append(a)
    for i in range(S):
        if len(adj[i]) > MAX_NB:
            raise ParamError(f"board file {name}: site {names[i]} has {len(adj[i])} neighbours; "
                             f"at most {MAX_NB} are supported")
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
        raise ParamError(f"board file {name}: the paths must connect every site (site {lost} "
                         f"cannot be reached)")
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


def parse_gain(text: str, where: str) -> np.ndarray:
    g = np.zeros(7, np.int64)
    for part in str(text).split(","):
        bits = part.split()
        if len(bits) != 2 or not bits[0].isdigit():
            raise ParamError(f"{where}: {part.strip()!r} must read '<amount> <riches or prestige>'")
        what = bits[1].lower()
        if what in RICHES:
            g[RICHES.index(what)] += int(bits[0])
        elif what == "prestige":
            g[PRESTIGE] += int(bits[0])
        else:
            raise ParamError(f"{where}: unknown item {bits[1]!r}; use {', '.join(RICHES)} or prestige")
    if g.sum() <= 0:
        raise ParamError(f"{where}: a gain must give something")
    return g


def load_deck(path) -> Deck:
    name = Path(path).name
    d = _load(path, "katun")
    types = d.get("type", [])
    if len(types) != N_TYPES:
        raise ParamError(f"katun file {name} must describe the 17 card types, not {len(types)}")
    keys, titles, counts = [None] * N_TYPES, [None] * N_TYPES, [0] * N_TYPES
    for t in types:
        code = t.get("code")
        if type(code) is not int or not 0 <= code < N_TYPES or keys[code] is not None:
            raise ParamError(f"katun file {name}: card type codes must be 0..16, each once "
                             f"(bad or repeated code {code!r})")
        cnt = t.get("count")
        if type(cnt) is not int or not 0 <= cnt <= 40:
            raise ParamError(f"katun file {name}: type {code} count must be 0..40, not {cnt!r}")
        keys[code] = str(t.get("key", f"type{code}"))
        titles[code] = str(t.get("name", keys[code]))
        counts[code] = cnt
    if counts[8] > 1:
        raise ParamError(f"katun file {name}: there is at most one Eclipse card, not {counts[8]}")
    if counts[7] < 1:
        raise ParamError(f"katun file {name}: the deck needs at least one ball game card")
    pros = d.get("prosperous", [])
    fav = d.get("favourable", [])
    if len(pros) != counts[0]:
        raise ParamError(f"katun file {name}: {counts[0]} Prosperous Katuns need {counts[0]} "
                         f"[[prosperous]] entries, not {len(pros)}")
    if len(fav) != counts[1]:
        raise ParamError(f"katun file {name}: {counts[1]} Favourable Katuns need {counts[1]} "
                         f"[[favourable]] entries, not {len(fav)}")
    N = sum(counts)
    ctype = np.zeros(N, np.int64)
    cgain = np.zeros((N, MAX_OPT, 7), np.int64)
    cnopt = np.ones(N, np.int64)
    cid = np.zeros(N, np.int64)
    exc = parse_gain(d.get("exceptional", {}).get("gain", "2 maize"), f"katun file {name}, exceptional")
    k = 0
    for code in range(N_TYPES):
        for j in range(counts[code]):
            ctype[k] = code
            cid[k] = code * CARD_ID_STRIDE + j
            if code == 0:
                opts = pros[j].get("options", [])
                if not 1 <= len(opts) <= MAX_OPT:
                    raise ParamError(f"katun file {name}: prosperous card {j + 1} needs 1 to "
                                     f"{MAX_OPT} options, not {len(opts)}")
                for o, txt in enumerate(opts):
                    cgain[k, o] = parse_gain(txt, f"katun file {name}, prosperous card {j + 1}")
                cnopt[k] = len(opts)
            elif code == 1:
                cgain[k, 0] = parse_gain(fav[j].get("gain", ""), f"katun file {name}, favourable card {j + 1}")
                if cgain[k, 0, PRESTIGE]:
                    raise ParamError(f"katun file {name}: favourable card {j + 1} gives riches, "
                                     f"not prestige")
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


def load_components(path) -> Components:
    name = Path(path).name
    d = _load(path, "components")

    def table(key):
        if key not in d or not isinstance(d[key], dict):
            raise ParamError(f"components file {name} needs a [{key}] table")
        return d[key]

    def nonneg(tab, key, where, lo=0, hi=1000):
        v = tab.get(key)
        if type(v) is not int or not lo <= v <= hi:
            raise ParamError(f"components file {name}: {where}.{key} must be an integer "
                             f"{lo}..{hi}, not {v!r}")
        return v

    sup = table("supply")
    supply = np.array([nonneg(sup, r, "supply") for r in RICHES], np.int64)
    pyr = table("pyramids")
    track = nonneg(pyr, "on_score_track", "pyramids", 0, 2)
    large = nonneg(pyr, "large_per_player", "pyramids", 1 + track, 100) - track
    small = nonneg(pyr, "small_per_player", "pyramids", track, 200) - track
    til = table("tiles")
    tiles = np.array([nonneg(til, k, "tiles") for k in TILE_PAIRS], np.int64)
    cst = table("costs")
    cost_any = np.zeros(8, np.int64)
    cost_kind = -np.ones(8, np.int64)
    cost_n = np.zeros(8, np.int64)
    for b, bname in enumerate(BUILDINGS):
        txt = str(cst.get(bname, ""))
        bits = txt.split()
        if len(bits) != 2 or not bits[0].isdigit() or not 1 <= int(bits[0]) <= 3:
            raise ParamError(f"components file {name}: cost of {bname} must read '<1..3> <any or "
                             f"riches>', not {txt!r}")
        if bits[1] == "any":
            cost_any[b] = int(bits[0])
        elif bits[1] in RICHES:
            cost_kind[b] = RICHES.index(bits[1])
            cost_n[b] = int(bits[0])
        else:
            raise ParamError(f"components file {name}: cost of {bname} names unknown riches {bits[1]!r}")
    cer = table("ceremony")
    points = np.array([nonneg(cer, r, "ceremony", 0, 20) for r in RICHES], np.int64)
    factor = nonneg(cer, "cenote_factor", "ceremony", 0, 10)
    dice = table("dice").get("faces", [])
    if not 2 <= len(dice) <= 20:
        raise ParamError(f"components file {name}: a die needs 2 to 20 faces, not {len(dice)}")
    faces = []
    for f in dice:
        s = str(f).strip().lower()
        if s == "skull":
            faces.append(-1)
        elif s in ("0", "1", "2", "3"):
            faces.append(int(s))
        else:
            raise ParamError(f"components file {name}: die face {f!r} must be 0, 1, 2, 3 or skull")
    stp = table("setup")
    return Components(supply, large, small, tiles, cost_any, cost_kind, cost_n, points, factor,
                      np.array(faces, np.int64), nonneg(stp, "start_maize", "setup"),
                      nonneg(stp, "chaak_maize", "setup"))
