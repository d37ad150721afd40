"""Game Setup: the game's chance streams, the first player, the compass tiles or deck.

Chance (RULES.md, Chance): substreams of ``sim.rng`` keyed on (seed, game, purpose,
index); the slots of the ``rs`` array are named in ``state`` (``RS_*``)."""
from __future__ import annotations

from ...jit import helper, helper_inline
from ...record import rec
from ...rng import (
    DECK,
    SETUP,
    game_base,
    item_key,
    open_substream,
    rand_int,
    seed_streams,
    sort_by_keys,
    substream_start,
)
from .state import (
    clear_state,
    E_FIRST,
    E_SHUFFLE,
    E_TILE,
    G_BANK,
    G_DECKN,
    G_PIRC,
    MODE_CARDS,
    MODE_TILES,
    PIRATE,
    P_TILES,
    RS_BASE,
    RS_KEYS,
    RS_SETUP,
    R_BANK0,
    R_MODE,
    R_NC,
    R_NK,
    R_NT,
    R_P,
    R_START,
    R_STARTNODE,
)


@helper_inline
def roll(rs, k, faces):
    """One die from the chance substream in slot k."""
    return faces[rand_int(rs, k, faces.shape[0])]


@helper
def start_streams(rs, seed, g, P):
    """Game g's streams: the bots' (1 + seat) and the base its chance substreams derive from.
    Slot 0 (the old single chance stream) is set but never drawn from."""
    seed_streams(rs[:1 + P], seed, g)
    rs[RS_BASE] = game_base(seed, g)


@helper
def first_by_dice(rs, faces, P, val, buf):
    """Every player rolls two dice (seasick 0); the highest starts; tied leaders re-roll.
    The dice come from the substream in slot RS_SETUP (SETUP, 0)."""
    cont = (1 << P) - 1
    while True:
        best = -1
        for s in range(P):
            if (cont >> s) & 1:
                d1 = roll(rs, RS_SETUP, faces)
                d2 = roll(rs, RS_SETUP, faces)
                rec(buf, E_FIRST, -1, s, d1, d2, 0, 0, 0)
                val[s] = d1 + d2
                if val[s] > best:
                    best = val[s]
        nc = 0
        w = -1
        nxt = 0
        for s in range(P):
            if (cont >> s) & 1 and val[s] == best:
                nc += 1
                w = s
                nxt |= 1 << s
        if nc == 1:
            return w
        cont = nxt


@helper
def key_deck(st, cid, rs, d, n):
    """Shuffle the n cards in the deck slots: deck number d (0 the first deck, r after r
    reshuffles) sorts them by the keys of their identities, item_key(substream_start(base,
    DECK, d), DECK, identity), ascending; cards are drawn from the end (highest key first).
    Removing a card leaves the others' relative order alone."""
    db = substream_start(rs[RS_BASE], DECK, d)
    keys = rs[RS_KEYS:RS_KEYS + n]
    for i in range(n):
        keys[i] = item_key(db, DECK, cid[st.deck[i]])
    sort_by_keys(st.deck, keys, n)


@helper
def setup(st, rules, rs, order, buf):
    """Fresh game: bank, money, ships at Batam, compass tiles or deck; returns the first player.

    Chance (``rs[RS_BASE]`` holds the game's base): the first player from substream (SETUP,
    0); the tiles sorted by item_key(base, P_TILES, identity), the first R_NC to compass
    spaces 0.. in that order, the rest set aside; the card deck keyed as ``key_deck``.
    ``order``: scratch (MAXK slots)."""
    R = rules.R
    faces = rules.faces
    tk = rules.compass.tk
    tid = rules.compass.tid
    cid = rules.compass.cid
    P = R[R_P]
    clear_state(st)
    st.g[G_BANK] = R[R_BANK0]
    for p in range(P):
        st.pos[p] = R[R_STARTNODE]
        st.coins[p] = R[R_START]
        st.g[G_BANK] -= R[R_START]
    base = rs[RS_BASE]
    open_substream(rs, RS_SETUP, base, SETUP, 0)
    first = first_by_dice(rs, faces, P, order, buf)
    if R[R_MODE] == MODE_TILES:
        nt = R[R_NT]
        keys = rs[RS_KEYS:RS_KEYS + nt]
        for i in range(nt):
            order[i] = i
            keys[i] = item_key(base, P_TILES, tid[i])
        sort_by_keys(order, keys, nt)
        for c in range(R[R_NC]):
            t = order[c]
            st.tile[c] = t
            rec(buf, E_TILE, -1, c, t, tk[t], rules.compass.tv[t], 0, 0)
            if tk[t] == PIRATE:
                st.g[G_PIRC] = c
    elif R[R_MODE] == MODE_CARDS:
        nk = R[R_NK]
        for i in range(nk):
            st.deck[i] = i
        st.g[G_DECKN] = nk
        key_deck(st, cid, rs, 0, nk)
        rec(buf, E_SHUFFLE, -1, 0, nk, 0, 0, 0, 0)
    return first
