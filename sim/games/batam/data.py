"""Batam data files: the board, the crew dice, the compass tiles and cards, the money.

Every loader returns plain numpy arrays and numbers (what the kernel needs) and
raises :class:`sim.params.ParamError` with one clear sentence when a file is
wrong: every value is read through :mod:`sim.datafile` (its type and range checked,
the message naming the file, the line and the field; a key the loader does not read is
refused).  A parameter value ``standard`` names the file shipped in ``seeds/batam/``;
anything else is a path.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from ... import datafile
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
MAX_FACE = 20          # the highest number a crew die face may show
MAX_SPACES = 1000      # spaces a ship may use (the route tables are spaces^2 x 8 int16)
MAX_VALUE = 1000       # a tile's or card's value
MAX_DENOMINATION = 1000
MAX_BANK = 1_000_000   # the bank's total value (the bank column is int32)


def resolve_path(what: str, value: str) -> Path:
    if value == "standard":
        return SEEDS / DEFAULT_FILES[what]
    return Path(value).expanduser()


def _read(what: str, path: Path) -> datafile.Node:
    return datafile.load(path, what)


# ------------------------------------------------------------------ board
class Board:
    """The map as arrays (see :func:`load_board`)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def _parse_grid(path: Path, doc) -> Board:
    """The map of a board file (``doc``: its :class:`sim.datafile.Node`, or a plain dict)."""
    if isinstance(doc, dict):
        doc = datafile.Node(datafile.File(path, "board"), doc, ())
    doc.only("name", "start", "grid", "islands")
    grid = doc.text("grid", max_len=TOML.MAX_BYTES)
    rows = [r.rstrip() for r in grid.strip("\n").splitlines()]
    width = max(len(r) for r in rows)
    if sum(1 for r in rows for ch in r if ch not in "# ") > MAX_SPACES:
        raise doc.fail("grid", f"draws more than {MAX_SPACES} spaces a ship may use; at most "
                               f"{MAX_SPACES} are supported")
    rows = [r.ljust(width, "#") for r in rows]
    itab = doc.table("islands")
    if not 1 <= len(itab) <= MAX_ISLANDS:
        raise itab.fail(None, f"must list 1 to {MAX_ISLANDS} islands (harbour letter = island name), "
                             f"not {len(itab)}")
    for letter in itab.keys():
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
            raise itab.fail(letter, "must be one capital letter (a harbour on the map)")
        itab.text(letter, max_len=60)
    start = doc.text("start", choices=tuple(itab.keys()))
    letters = [start] + [k for k in itab.keys() if k != start]
    island_names = [itab.data[k] for k in letters]
    # names are compared as typed and in lower case (a treasure map's label uses lower case)
    datafile.unique([(itab, k, itab.data[k]) for k in itab.keys()], "island name")
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
            elif ch in itab.data:
                k, isl = HARBOUR, letters.index(ch)
            else:
                raise doc.fail("grid", f"holds unknown map character {ch!r} at row {r + 1}, column "
                                       f"{c + 1} (use ~ * # or a letter from [islands])")
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
                 name=doc.text("name", default=path.name), where=f"{doc.where('grid')}: 'grid'")


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
    """Whole-map checks (the messages name the file, the grid's line and the row and column)."""
    at = getattr(b, "where", f"board file '{path}'")
    comp_nodes = np.flatnonzero(b.kind == COMPASS)
    if len(comp_nodes) != N_COMPASS:
        raise ParamError(f"{at} has {len(comp_nodes)} compass spaces; the rulebook has "
                         f"exactly {N_COMPASS}")
    for i, name in enumerate(b.island_names):
        if not np.any(b.island == i):
            raise ParamError(f"{at} draws no harbour space for island {name} ({b.letters[i]})")
    starts = np.flatnonzero(b.island == 0)
    if len(starts) != 1:
        raise ParamError(f"{at} must draw the start harbour '{b.letters[0]}' exactly once, not "
                         f"{len(starts)} times")
    if len(b.island_names) - 1 < goods:
        raise ParamError(f"{at} has {len(b.island_names) - 1} islands besides Batam, fewer "
                         f"than the {goods} goods each player must sell")
    start = int(starts[0])
    if not _reachable(b, start, -1).all():
        r, c = b.cells[int(np.flatnonzero(~_reachable(b, start, -1))[0])]
        raise ParamError(f"{at} has a space at row {r + 1}, column {c + 1} that cannot be reached "
                         f"from Batam")
    harbours = np.flatnonzero(b.kind == HARBOUR)
    for cn in comp_nodes:
        seen = _reachable(b, start, int(cn))
        bad = [h for h in harbours if not seen[h]]
        if bad:
            r, c = b.cells[int(cn)]
            raise ParamError(f"{at} has a compass space at row {r + 1}, column {c + 1} where a pirate "
                             f"would cut off the harbour of {b.island_names[b.island[bad[0]]]}")
    return start, comp_nodes


# ------------------------------------------------------------------ decks
def _island_of(item: datafile.Node, island_names) -> int:
    name = item.get("island")
    if not isinstance(name, str) or name not in island_names[1:]:
        raise item.fail("island", f"names {datafile.shown(name)}, which is not a non-Batam island of "
                                  f"the board ({', '.join(island_names[1:])})")
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
    doc = _read(what, path)
    doc.only(key)
    kinds, vals, isl, labels, ids = [], [], [], [], []
    copies: dict = {}
    first: dict = {}
    for it in doc.tables(key, 1, MAX_CARDS):
        k = KIND_NAMES[it.text("kind", choices=tuple(KIND_NAMES))]
        if k != MAP and it.has("island"):
            raise it.fail("island", "is for a treasure_map only (the island whose harbour pays it)")
        it.only("kind", "value", *(("island",) if k == MAP else ()), *(("count",) if counted else ()))
        v = it.int("value", 1 if k in (TRADEWIND, SUNKEN, MAP) else 0, MAX_VALUE, default=0)
        j = _island_of(it, island_names) if k == MAP else -1
        cnt = it.int("count", 1, MAX_CARDS, default=1) if counted else 1
        lab = entry_label(it.data)
        if counted and lab in first:   # one entry per card, its copies counted by 'count'
            line = first[lab].file.line(first[lab].path)
            raise it.fail(None, f"repeats the card {lab} of '{first[lab].name()}' (line {line}); "
                                f"give one entry a count")
        first[lab] = it
        for _ in range(cnt):
            kinds.append(k)
            vals.append(v)
            isl.append(j)
            labels.append(lab)
            ids.append(identity(lab, copies.get(lab, 0)))
            copies[lab] = copies.get(lab, 0) + 1
    if len(kinds) > MAX_CARDS:
        raise doc.fail(key, f"holds {len(kinds)} {key}s; at most {MAX_CARDS} are supported")
    return (np.array(kinds, np.int64), np.array(vals, np.int64), np.array(isl, np.int64),
            tuple(labels), np.array(ids, np.int64))


def load_dice(path: Path) -> np.ndarray:
    doc = _read("dice", path)
    doc.only("faces")
    faces = doc.array("faces", 2, MAX_FACES)
    out = []
    for i in faces.keys():
        f = faces.get(i)
        if f == "seasick":
            out.append(0)
        elif isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= MAX_FACE:
            out.append(int(f))
        else:
            raise faces.fail(i, f'must be "seasick" or an integer in 1..{MAX_FACE}, not {datafile.shown(f)}')
    if max(out) == 0:
        raise doc.fail("faces", "needs at least one face showing a number")
    return np.array(out, np.int64)


def load_components(path: Path):
    doc = _read("components", path)
    doc.only("start_coins", "goods_per_player", "bank")
    start = doc.int("start_coins", 1, 10_000)
    goods = doc.int("goods_per_player", 1, MAX_ISLANDS - 1)
    bank = doc.table("bank")
    if not len(bank):
        raise bank.fail(None, "must list the coins: denomination = number of coins")
    total = 0
    for den in bank.keys():
        # digits only, no leading zero: "05", "+5", "5_0" or " 5" would repeat or hide a denomination
        if not (den.isascii() and den.isdigit() and den[0] != "0" and int(den) <= MAX_DENOMINATION):
            raise bank.fail(den, f"is not a denomination: name one by its value, a whole number "
                                 f"1..{MAX_DENOMINATION} written with digits only")
        total += int(den) * bank.int(den, 1, 100_000)
    if total > MAX_BANK:
        raise bank.fail(None, f"holds coins worth {total:,}; at most {MAX_BANK:,} are supported")
    return start, goods, total


@lru_cache(maxsize=16)
def _load_all(board: str, dice: str, tiles: str, cards: str, components: str, stamp: tuple):
    cp = resolve_path("components", components)
    start_coins, goods, bank_total = load_components(cp)
    bp = resolve_path("board", board)
    b = _parse_grid(bp, _read("board", bp))
    start, comp_nodes = validate_board(bp, b, goods)
    derived = derive(b)
    tp = resolve_path("tiles", tiles)
    tk, tv, ti, tlab, tid = load_compass("compass tiles", tp, "tile", b.island_names, False)
    if (tk == PIRATE).sum() > 1:
        raise ParamError(f"compass tiles file {TOML._shown(tp)} holds more than one pirate tile; the "
                         f"kernel supports one")
    if len(tk) < N_COMPASS:
        raise ParamError(f"compass tiles file {TOML._shown(tp)} needs at least {N_COMPASS} tiles (one per "
                         f"compass space), not {len(tk)}")
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
    harb_nodes = np.flatnonzero(b.kind == HARBOUR).astype(np.int64)
    special = np.concatenate([harb_nodes, comp_nodes])
    DS = np.zeros((V, len(special), n), np.int16)
    WS = np.zeros((V, len(special), n), np.int16)
    LS = np.zeros((V, len(special), n), np.int16)
    all_pairs(b.nbr, b.deg, comp_nodes, padj, np.int64(PIRATE_PENALTY), special, DS, WS, LS)
    return dict(comp=comp, comp_nodes=comp_nodes, padj=padj, harb_nodes=harb_nodes, special=special,
                DS=DS, WS=WS, LS=LS, DSS=np.ascontiguousarray(DS[:, :, special]),
                LSS=np.ascontiguousarray(LS[:, :, special]))


def load_all(rules: dict) -> dict:
    names = tuple(rules[k] for k in ("board", "dice", "tiles", "cards", "components"))
    stamp = []
    for what, v in zip(("board", "dice", "tiles", "cards", "components"), names):
        p = resolve_path(what, v)
        stamp.append((str(p), TOML.digest(p, what)))  # the content, not the time stamp
    return _load_all(*names, tuple(stamp))
