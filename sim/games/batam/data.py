"""Batam data files: the board, the crew dice, the compass tiles and cards, the money.

Every loader returns plain numpy arrays and numbers (what the kernel needs) and
raises :class:`sim.params.ParamError` with one clear sentence when a file is
wrong.  A parameter value ``standard`` names the file shipped in
``seeds/batam/``; anything else is a path.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from ... import toml as TOML
from ...params import ParamError
from ...seeds import seeds_dir

SEEDS = seeds_dir("batam")
DEFAULT_FILES = {
    "board": "board.toml",
    "dice": "dice.toml",
    "tiles": "compass_tiles.toml",
    "cards": "compass_cards.toml",
    "components": "components.toml",
}

SEA, COMPASS, HARBOUR = 0, 1, 2
TRADEWIND, SUNKEN, MAP, PIRATE = 0, 1, 2, 3
KIND_NAMES = {"tradewind": TRADEWIND, "sunken_treasure": SUNKEN, "treasure_map": MAP,
              "pirate": PIRATE}
N_COMPASS = 7          # the rulebook: exactly seven compass spaces
MAX_ISLANDS = 16
MAX_CARDS = 64
MAX_FACES = 20


def resolve_path(what: str, value: str) -> Path:
    if value == "standard":
        return SEEDS / DEFAULT_FILES[what]
    return Path(value).expanduser()


def _read_toml(what: str, path: Path) -> dict:
    return TOML.load(path, what)


def _int(what: str, path: Path, key: str, v, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ParamError(f"{what} file '{path}': '{key}' must be an integer in {lo}..{hi}, not {v!r}")
    return int(v)


# ------------------------------------------------------------------ board
class Board:
    """The map as arrays (see :func:`load_board`)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def _parse_grid(path: Path, doc: dict) -> Board:
    grid = doc.get("grid")
    if not isinstance(grid, str) or not grid.strip():
        raise ParamError(f"board file '{path}' needs a 'grid' string drawing the map")
    rows = [r.rstrip() for r in grid.strip("\n").splitlines()]
    width = max(len(r) for r in rows)
    rows = [r.ljust(width, "#") for r in rows]
    islands_tab = doc.get("islands")
    if not isinstance(islands_tab, dict) or not islands_tab:
        raise ParamError(f"board file '{path}' needs an [islands] table (harbour letter = island name)")
    start = doc.get("start")
    if not isinstance(start, str) or start not in islands_tab:
        raise ParamError(f"board file '{path}': 'start' must be the harbour letter of Batam listed in "
                         f"[islands], not {start!r}")
    for letter, name in islands_tab.items():
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper() or not isinstance(name, str):
            raise ParamError(f"board file '{path}': island key {letter!r} must be one capital letter "
                             f"naming a string")
    letters = [start] + [k for k in islands_tab if k != start]
    if len(letters) > MAX_ISLANDS:
        raise ParamError(f"board file '{path}' has {len(letters)} islands; at most {MAX_ISLANDS} are supported")
    island_names = [islands_tab[k] for k in letters]
    if len(set(island_names)) != len(island_names):
        raise ParamError(f"board file '{path}': two harbour letters name the same island")
    cell_id = {}
    kind, island, cells = [], [], []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#" or ch == " ":
                continue
            if ch == "~":
                k, isl = SEA, -1
            elif ch == "*":
                k, isl = COMPASS, -1
            elif ch in islands_tab:
                k, isl = HARBOUR, letters.index(ch)
            else:
                raise ParamError(f"board file '{path}': unknown map character {ch!r} at row {r + 1}, "
                                 f"column {c + 1} (use ~ * # or a letter from [islands])")
            cell_id[(r, c)] = len(kind)
            kind.append(k)
            island.append(isl)
            cells.append((r, c))
    n = len(kind)
    nbr = -np.ones((n, 4), np.int64)
    deg = np.zeros(n, np.int64)
    for i, (r, c) in enumerate(cells):
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):  # increasing space number
            j = cell_id.get((r + dr, c + dc))
            if j is not None:
                nbr[i, deg[i]] = j
                deg[i] += 1
    return Board(rows=rows, kind=np.array(kind, np.int64), island=np.array(island, np.int64),
                 nbr=nbr, deg=deg, cells=cells, island_names=island_names, letters=letters,
                 name=str(doc.get("name", path.name)))


def _reachable(b: Board, src: int, blocked: int) -> np.ndarray:
    seen = np.zeros(len(b.kind), bool)
    seen[src] = True
    stack = [src]
    while stack:
        u = stack.pop()
        for j in range(b.deg[u]):
            v = b.nbr[u, j]
            if v != blocked and not seen[v]:
                seen[v] = True
                stack.append(v)
    return seen


def validate_board(path: Path, b: Board, goods: int):
    comp_nodes = np.flatnonzero(b.kind == COMPASS)
    if len(comp_nodes) != N_COMPASS:
        raise ParamError(f"board file '{path}' has {len(comp_nodes)} compass spaces; the rulebook has "
                         f"exactly {N_COMPASS}")
    for i, name in enumerate(b.island_names):
        if not np.any(b.island == i):
            raise ParamError(f"board file '{path}': island {name} ({b.letters[i]}) has no harbour space "
                             f"on the map")
    starts = np.flatnonzero(b.island == 0)
    if len(starts) != 1:
        raise ParamError(f"board file '{path}': the start harbour '{b.letters[0]}' must appear exactly "
                         f"once on the map, not {len(starts)} times")
    if len(b.island_names) - 1 < goods:
        raise ParamError(f"board file '{path}' has {len(b.island_names) - 1} islands besides Batam, fewer "
                         f"than the {goods} goods each player must sell")
    start = int(starts[0])
    if not _reachable(b, start, -1).all():
        r, c = b.cells[int(np.flatnonzero(~_reachable(b, start, -1))[0])]
        raise ParamError(f"board file '{path}': the space at row {r + 1}, column {c + 1} cannot be "
                         f"reached from Batam")
    harbours = np.flatnonzero(b.kind == HARBOUR)
    for cn in comp_nodes:
        seen = _reachable(b, start, int(cn))
        bad = [h for h in harbours if not seen[h]]
        if bad:
            r, c = b.cells[int(cn)]
            raise ParamError(f"board file '{path}': a pirate on the compass space at row {r + 1}, column "
                             f"{c + 1} would cut off the harbour of "
                             f"{b.island_names[b.island[bad[0]]]}")
    return start, comp_nodes


# ------------------------------------------------------------------ decks
def _kind(what, path, item, idx):
    k = item.get("kind")
    if k not in KIND_NAMES:
        raise ParamError(f"{what} file '{path}': entry {idx + 1} has kind {k!r}; use one of "
                         f"{', '.join(KIND_NAMES)}")
    return KIND_NAMES[k]


def _island_of(what, path, item, idx, island_names):
    name = item.get("island")
    if name not in island_names[1:]:
        raise ParamError(f"{what} file '{path}': treasure map {idx + 1} names island {name!r}, which is "
                         f"not a non-Batam island of the board ({', '.join(island_names[1:])})")
    return island_names.index(name)


def entry_label(item) -> str:
    """The name of a compass tile or card as `sim impact` and the ``neutral`` parameter use
    it: kind, the island of a map (lower case), value, e.g. 'pirate_0', 'tradewind_2',
    'treasure_map_rempang_6'.  Copies of a card share the label."""
    parts = [str(item.get("kind", "?"))]
    if item.get("island"):
        parts.append(str(item["island"]).lower())
    parts.append(str(item.get("value", 0)))
    return "_".join(parts)


def identity(label: str, copy: int) -> int:
    """A tile's or card's identity for the keyed shuffles (``sim.rng.item_key``): a 63-bit
    hash of its label and which copy of that label it is (0, 1, ... in file order).  It does
    not depend on the entry's position in the file, so removing one card (every copy of
    it) leaves every other card's identity, and so its shuffle key, alone."""
    h = hashlib.blake2b(f"{label}#{copy}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") & ((1 << 63) - 1)


def load_compass(what: str, path: Path, key: str, island_names, counted: bool):
    """Kinds, values, islands (-1 unless a map), labels and identities, one per tile or card
    (a card with count n is n entries)."""
    doc = _read_toml(what, path)
    items = doc.get(key)
    if not isinstance(items, list) or not items:
        raise ParamError(f"{what} file '{path}' needs a list of [[{key}]] entries")
    kinds, vals, isl, labels, ids = [], [], [], [], []
    copies: dict = {}
    for i, it in enumerate(items):
        if not isinstance(it, dict):
            raise ParamError(f"{what} file '{path}': entry {i + 1} is not a table")
        k = _kind(what, path, it, i)
        v = _int(what, path, f"value of entry {i + 1}", it.get("value", 0), 0, 1000)
        j = _island_of(what, path, it, i, island_names) if k == MAP else -1
        cnt = _int(what, path, f"count of entry {i + 1}", it.get("count", 1), 1, MAX_CARDS) if counted else 1
        if k in (TRADEWIND, SUNKEN, MAP) and v <= 0:
            raise ParamError(f"{what} file '{path}': entry {i + 1} ({it['kind']}) needs a positive value")
        lab = entry_label(it)
        for _ in range(cnt):
            kinds.append(k)
            vals.append(v)
            isl.append(j)
            labels.append(lab)
            ids.append(identity(lab, copies.get(lab, 0)))
            copies[lab] = copies.get(lab, 0) + 1
    if len(kinds) > MAX_CARDS:
        raise ParamError(f"{what} file '{path}' holds {len(kinds)} entries; at most {MAX_CARDS} are supported")
    return (np.array(kinds, np.int64), np.array(vals, np.int64), np.array(isl, np.int64),
            tuple(labels), np.array(ids, np.int64))


def load_dice(path: Path) -> np.ndarray:
    doc = _read_toml("dice", path)
    faces = doc.get("faces")
    if not isinstance(faces, list) or not 2 <= len(faces) <= MAX_FACES:
        raise ParamError(f"dice file '{path}' needs 'faces', a list of 2 to {MAX_FACES} faces")
    out = []
    for f in faces:
        if f == "seasick":
            out.append(0)
        elif isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 20:
            out.append(int(f))
        else:
            raise ParamError(f"dice file '{path}': face {f!r} must be \"seasick\" or an integer 1..20")
    if max(out) == 0:
        raise ParamError(f"dice file '{path}': at least one face must show a number")
    return np.array(out, np.int64)


def load_components(path: Path):
    doc = _read_toml("components", path)
    start = _int("components", path, "start_coins", doc.get("start_coins"), 0, 10_000)
    goods = _int("components", path, "goods_per_player", doc.get("goods_per_player"), 1, MAX_ISLANDS - 1)
    bank = doc.get("bank")
    if not isinstance(bank, dict) or not bank:
        raise ParamError(f"components file '{path}' needs a [bank] table (denomination = number of coins)")
    total = 0
    for den, cnt in bank.items():
        try:
            d = int(den)
        except ValueError:
            raise ParamError(f"components file '{path}': bank denomination {den!r} is not an integer") from None
        total += d * _int("components", path, f"bank.{den}", cnt, 0, 100_000)
    return start, goods, total


@lru_cache(maxsize=16)
def _load_all(board: str, dice: str, tiles: str, cards: str, components: str, stamp: tuple):
    cp = resolve_path("components", components)
    start_coins, goods, bank_total = load_components(cp)
    bp = resolve_path("board", board)
    b = _parse_grid(bp, _read_toml("board", bp))
    start, comp_nodes = validate_board(bp, b, goods)
    derived = derive(b)
    tk, tv, ti, tlab, tid = load_compass("compass tiles", resolve_path("tiles", tiles), "tile",
                                         b.island_names, False)
    if (tk == PIRATE).sum() > 1:
        raise ParamError("compass tiles file holds more than one pirate tile; the kernel supports one")
    if len(tk) < N_COMPASS:
        raise ParamError(f"compass tiles file needs at least {N_COMPASS} tiles (one per compass space), "
                         f"not {len(tk)}")
    ck, cv, ci, clab, cid = load_compass("compass cards", resolve_path("cards", cards), "card",
                                         b.island_names, True)
    faces = load_dice(resolve_path("dice", dice))
    return dict(board=b, start=start, **derived, tk=tk, tv=tv, ti=ti, tlab=tlab, tid=tid, ck=ck, cv=cv,
                ci=ci, clab=clab, cid=cid, faces=faces,
                start_coins=start_coins, goods=goods, bank_total=bank_total)


def derive(b: Board) -> dict:
    """Arrays the kernel derives from a map: compass numbering, pirate neighbourhoods,
    harbour list, special spaces and the distance tables (see state.py)."""
    from .state import PIRATE_PENALTY
    from .tables import all_pairs

    n = len(b.kind)
    comp_nodes = np.flatnonzero(b.kind == COMPASS).astype(np.int64)
    comp = -np.ones(n, np.int64)
    comp[comp_nodes] = np.arange(len(comp_nodes))
    padj = np.zeros((max(len(comp_nodes), 1), n), np.int64)
    for c, cn in enumerate(comp_nodes):
        for j in range(b.deg[cn]):
            padj[c, b.nbr[cn, j]] = 1
    V = len(comp_nodes) + 1
    D = np.zeros((V, n, n), np.int16)
    W = np.zeros((V, n, n), np.int16)
    L = np.zeros((V, n, n), np.int16)
    all_pairs(b.nbr, b.deg, comp_nodes, padj, np.int64(PIRATE_PENALTY), D, W, L)
    harb_nodes = np.flatnonzero(b.kind == HARBOUR).astype(np.int64)
    special = np.concatenate([harb_nodes, comp_nodes])
    DS = np.ascontiguousarray(D[:, special, :])
    WS = np.ascontiguousarray(W[:, special, :])
    LS = np.ascontiguousarray(L[:, special, :])
    return dict(comp=comp, comp_nodes=comp_nodes, padj=padj, harb_nodes=harb_nodes, special=special,
                D=D, W=W, L=L, DS=DS, WS=WS, LS=LS, DSS=np.ascontiguousarray(DS[:, :, special]),
                LSS=np.ascontiguousarray(LS[:, :, special]))


def load_all(rules: dict) -> dict:
    names = tuple(rules[k] for k in ("board", "dice", "tiles", "cards", "components"))
    stamp = []
    for what, v in zip(("board", "dice", "tiles", "cards", "components"), names):
        p = resolve_path(what, v)
        stamp.append((str(p), TOML.digest(p, what)))  # the content, not the time stamp
    return _load_all(*names, tuple(stamp))


def draw_board(b: Board) -> str:
    """The map as text, with a legend (for reports)."""
    legend = ", ".join(f"{l} = {n}" for l, n in zip(b.letters, b.island_names))
    return "\n".join(b.rows) + f"\n~ sea, * compass, # land; harbours: {legend} (start: {b.letters[0]})"
