"""The heuristic bots' version-6 judgement, on hand-built positions: riches valued by the
building they complete, reserves by the catastrophes they ward off, the deck's structure
(Prosperous Katuns on top) in the turn-or-pass comparison."""
import numpy as np

from sim.games.balam import katun, state
from sim.games.balam.bots import heuristic, insure
from tests.test_balam_rules import DECK, HEUR, JADE, MAIZE, OBS, PAL, RES, TEM, V, Pos


def prosperous_with(options):
    """The first Prosperous card whose options give exactly these riches/prestige."""
    for c in np.flatnonzero(DECK.ctype == state.K_PROS):
        got = [tuple(DECK.cgain[c, i]) for i in range(DECK.cnopt[c])]
        if got == [tuple(o) for o in options]:
            return int(c)
    raise AssertionError("no such card")


def gain(**kw):
    g = [0] * 7
    for name, n in kw.items():
        g[["maize", "cacao", "shell", "jade", "obsidian", "prisoner", "prestige"].index(name)] = n
    return g


def test_a_king_without_an_observatory_takes_the_jade_that_gives_him_one():
    # Prosperous Katun "1 jade | 1 obsidian | 2 prestige": jade is worth 1 in hand, but to a
    # king with no observatory (and no jade) it is the observatory; a king who already leads
    # in observatories takes the prestige
    c = prosperous_with([gain(jade=1), gain(obsidian=1), gain(prestige=2)])
    for has_obs in (False, True):
        took = []
        for g in range(40):
            pos = Pos([(4, MAIZE, 1, 0, 0, 0), (4, MAIZE, 1, 0, 0, 0)], [(0, 1)],
                      bots=(HEUR, HEUR), style="merchant")
            pos.seed(g)
            pos.city(0, 0, V, *((OBS,) if has_obs else ()))
            pos.city(1, 1, V)
            pos.gs[state.GS_SLOT] = c
            pos.gs[state.GS_NSLOT] = 1
            pos.gs[state.GS_LEFT] = 1
            katun.turn_card(*pos.tuples(), 0, 0)
            took.append("jade" if pos.pl[0, state.P_HAND + JADE] == 1 else
                        "prestige" if pos.pl[0, state.P_PROS] == 2 else "other")
        assert set(took) == ({"prestige"} if has_obs else {"jade"}), (has_obs, took)


def test_insurance_is_the_catastrophes_still_unseen_times_their_cost():
    pos = Pos([(4, MAIZE, 1, 0, 0, 0)], [])
    R = pos.R
    unseen = np.array([R[state.R_KCNT + kt] for kt in range(state.NK)], np.int64)
    loss = np.zeros(state.NK)
    loss[state.K_DROUGHT] = 10.0                   # two villages worth 10 to him
    rm, nm, rp, npr = insure.insure(R, 5.0, loss, unseen)
    keep = 1.0 + 0.1 * R[state.R_PTS + MAIZE]      # what paying a maize costs him
    assert np.isclose(rm, insure.INSURE_DISCOUNT * (10.0 - keep)) and rp == 0.0 and npr == 0.0
    hits = unseen[state.K_DROUGHT] * min(1.0, 4.0 * (R[state.R_NP] + 1) / unseen.sum()) / R[state.R_NP]
    assert np.isclose(nm, hits)
    assert insure.cover(rm, nm, 0.0) == rm * min(1.0, nm) and insure.cover(rm, nm, 5.0) == 0.0
    unseen[state.K_DROUGHT] = 0                     # every Drought turned: nothing to insure
    assert insure.insure(R, 5.0, loss, unseen)[0] == 0.0
    assert insure.insure(R, 1.0, loss, unseen + 1)[0] == 0.0     # last round: no cards to come


def test_a_king_with_droughts_ahead_keeps_a_maize_in_his_reserve():
    # his maize village produced; a palace would take the maize into his hand (version 5
    # always did), but six Droughts and four Insurrections are still in the deck
    kept = []
    for droughts_seen in (0, 6):
        pos = Pos([(4, MAIZE, 1, 0, 0, 0), (4, MAIZE, 1, 0, 0, 0)], [(0, 1)],
                  bots=(HEUR, HEUR), style="merchant")
        pos.city(0, 0, V, RES)
        pos.city(1, 0, V, PAL)
        pos.tok[0, 0] = MAIZE
        pos.gs[state.GS_SUP + MAIZE] -= 1
        pos.gs[state.GS_SEEN + state.K_DROUGHT] = droughts_seen
        pos.gs[state.GS_SEEN + state.K_INSURR] = 4 if droughts_seen else 0
        pos.distribute(0)
        kept.append(int(pos.tok[0, 1] == MAIZE))
    assert kept == [1, 0], kept


def test_a_face_down_card_from_the_top_of_the_deck_is_a_prosperous_katun():
    pos = Pos([(4, MAIZE, 1, 0, 0, 0)], [])
    npros = int(pos.R[state.R_KCNT + state.K_PROS])
    assert npros == 10
    pos.gs[state.GS_NSLOT] = 3                      # slots 0..2 dealt from dpos - 3 .. dpos - 1
    for dpos, expect in ((3, [1, 1, 1]), (11, [1, 1, 0]), (12, [1, 0, 0]), (13, [0, 0, 0]),
                         (30, [0, 0, 0])):
        pos.gs[state.GS_DPOS] = dpos
        assert [int(insure.prosperous_on_top(pos.R, pos.gs, k)) for k in range(3)] == expect


def test_a_king_turns_a_card_from_the_top_but_passes_on_a_deck_of_catastrophes():
    # one face-down card he has not divined; every card still unseen below the Prosperous
    # ones is a catastrophe that would hit his city: he pays a riches and passes, unless
    # the card was dealt from the top of the deck (a Prosperous Katun, by the set-up)
    for top in (True, False):
        turned = 0
        for g in range(30):
            pos = Pos([(4, MAIZE, 1, 0, 0, 0)], [], bots=(HEUR, HEUR), style="merchant")
            pos.seed(g)
            pos.city(0, 0, V, V, TEM)
            pos.pl[0, state.P_HAND + MAIZE] = 1
            pos.gs[state.GS_SUP + MAIZE] -= 1
            for kt in range(state.K_DROUGHT):          # only catastrophes left unseen
                pos.gs[state.GS_SEEN + kt] = pos.R[state.R_KCNT + kt]
            if top:
                pos.gs[state.GS_SEEN + state.K_PROS] = 9
            pos.gs[state.GS_SLOT] = int(np.flatnonzero(DECK.ctype == (state.K_PROS if top else
                                                                   state.K_DROUGHT))[0])
            pos.gs[state.GS_NSLOT] = 1
            pos.gs[state.GS_LEFT] = 1
            pos.gs[state.GS_DPOS] = 10 if top else 20
            heuristic.heuristic_turn(*pos.tuples(), 0)
            turned += pos.gs[state.GS_LEFT] == 0
        assert turned == (30 if top else 0), (top, turned)
