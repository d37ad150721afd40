"""Setup: the site layout of a game and the Katun deck (piles, ball games, the Eclipse)."""
from __future__ import annotations

import numpy as np

from ...jit import helper
from ...rng import keyed_shuffle, mix64, open_substream, rand_int
from .state import (DECK, GOLDEN, K_BALL, K_ECLIPSE, K_PROS, LAYOUT_RANDOM, PILES_RANDOM,
                    P_ECLIPSE, P_LAYOUT, P_PILES, R_ECLJ, R_LAYOUT, R_PILES, SL_CH)

# ======================================================================= deck
@helper
def build_deck(rs, base, ctype, cid, R, deck, tmp, ids, keys):
    """The rulebook's deck: the other cards shuffled into (ball games + 1) piles with a
    ball game between each two, the shuffled Prosperous Katuns on top, the Eclipse in
    the middle.  deck[0] is the top card.  Returns the deck size.

    Both shuffles sort the cards by a key drawn for each card's identity ``cid`` (type *
    64 + copy; ``sim.rng.keyed_shuffle``, purpose DECK), so a deck without some cards
    keeps the others in the same relative order.  Which piles are the larger ones
    (``piles=random``) and the Eclipse's offset (``eclipse_jitter``) come from
    substreams of their own.  ``tmp``, ``ids`` (int64) and ``keys`` (uint64) are scratch."""
    N = ctype.shape[0]
    n = 0
    for c in range(N):  # the other cards
        t = ctype[c]
        if t != K_PROS and t != K_BALL and t != K_ECLIPSE:
            tmp[n] = c
            ids[n] = cid[c]
            n += 1
    keyed_shuffle(tmp, ids, keys, n, base, DECK)
    npros = 0
    for c in range(N):
        if ctype[c] == K_PROS:
            deck[npros] = c
            ids[npros] = cid[c]
            npros += 1
    keyed_shuffle(deck, ids, keys, npros, base, DECK)
    nb = 0
    for c in range(N):
        if ctype[c] == K_BALL:
            nb += 1
    npiles = nb + 1
    pos = npros
    src = 0
    bi = 0
    need = n % npiles   # piles one card larger than the others
    if R[R_PILES] == PILES_RANDOM:
        open_substream(rs, SL_CH, base, P_PILES, 0)
    for k in range(npiles):
        big = 0
        if R[R_PILES] == PILES_RANDOM:
            # which piles are the larger ones: a uniform choice (selection sampling)
            left = npiles - k
            if need > 0 and (need == left or rand_int(rs, SL_CH, left) < need):
                big = 1
                need -= 1
        elif k < need:
            big = 1
        size = n // npiles + big
        for _ in range(size):
            deck[pos] = tmp[src]
            pos += 1
            src += 1
        if k < nb:
            while ctype[bi] != K_BALL:
                bi += 1
            deck[pos] = bi
            bi += 1
            pos += 1
    ecl = -1
    for c in range(N):
        if ctype[c] == K_ECLIPSE:
            ecl = c
    if ecl >= 0:
        mid = pos // 2
        j = R[R_ECLJ]
        if j > 0:
            open_substream(rs, SL_CH, base, P_ECLIPSE, 0)
            mid += rand_int(rs, SL_CH, 2 * j + 1) - j
            mid = min(max(mid, 0), pos)
        for i in range(pos, mid, -1):
            deck[i] = deck[i - 1]
        deck[mid] = ecl
        pos += 1
    return pos


@helper
def draw_layout(rs, base, R, tinfo, info, perm):
    """This game's board: perm[s] is the tile (index in the board file's printed order)
    on land cell s and info[s] its contents.  ``layout=random``: a uniform permutation of
    the file's land tiles over its land cells (Fisher-Yates on the P_LAYOUT substream);
    ``fixed``: the file as printed.  Cells keep their paths; sea cells are not tiles."""
    S = tinfo.shape[0]
    for s in range(S):
        perm[s] = s
    if R[R_LAYOUT] == LAYOUT_RANDOM:
        open_substream(rs, SL_CH, base, P_LAYOUT, 0)
        for i in range(S - 1, 0, -1):
            j = rand_int(rs, SL_CH, i + 1)
            x = perm[i]
            perm[i] = perm[j]
            perm[j] = x
    for s in range(S):
        for f in range(6):
            info[s, f] = tinfo[perm[s], f]


@helper
def layout_hash(info):
    """A 63-bit identifier of the layout: a hash of the tile on each cell, in cell order,
    by its contents (so layouts that differ only by swapping tiles alike are one layout,
    and the same cells with another board file's tiles are another)."""
    h = np.uint64(0)
    for s in range(info.shape[0]):
        code = (info[s, 0] + 8 * info[s, 1] + 64 * info[s, 2] + 128 * info[s, 3]
                + 256 * info[s, 4] + 512 * info[s, 5])
        h = mix64(h + np.uint64(code) + GOLDEN)
    return np.int64(h >> np.uint64(1))
