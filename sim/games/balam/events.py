"""The events a recorded Balam game holds (``sim.record``): their codes, fields and words.

The kernel appends one row per event (``rec(buf, kind, actor, a..f)``); the actor is the
seat that chose or was struck (-1: chance or the rules).  Sites are board cells (0 ..
S - 1), spaces 0..3 of a site, riches 0..5 (maize, cacao, shells, jade, obsidian,
prisoners), buildings 1..8 (village, garrison, palace, temple, market, reserve, ball
court, observatory), Katun types 0..16 as printed.
"""
from __future__ import annotations

from ...record import Action
from . import state as K

_SPEC = (
    (K.EV_LAYOUT, "layout", ("cell", "tile"), True, "cell {cell} holds site tile {tile}"),
    (K.EV_DECK, "deck", ("position", "card", "type"), True,
     "card {position} of the Katun deck: card {card} (type {type})"),
    (K.EV_FIRST, "first", ("seat",), True, "the first king is seat {seat}"),
    (K.EV_DEAL, "deal", ("round", "cards", "position", "first"), True,
     "round {round}: {cards} Katun cards face down"),
    (K.EV_DIVINE, "divine", ("slots",), False, "{actor} looks at face-down cards {slots}"),
    (K.EV_CARD, "card", ("slot", "card", "type"), False, "{actor} turns card {card}"),
    (K.EV_GAIN, "gain", ("card", "option", "riches"), False, "{actor} chooses option {option}"),
    (K.EV_TAKE, "take", ("from_seat", "riches"), False, "{actor} takes a dowry"),
    (K.EV_CATA, "catastrophe", ("type", "paid"), False, "{actor} faces a catastrophe"),
    (K.EV_PASS, "pass", (), False, "{actor} passes"),
    (K.EV_PAY, "pay", ("riches", "n"), False, "{actor} pays {n} of riches {riches}"),
    (K.EV_BUILD, "build", ("site", "building"), False, "{actor} builds {building} on {site}"),
    (K.EV_ATTACK, "attack", ("from_site", "to_site", "garrisons", "obsidian", "defender"), False,
     "{actor} attacks site {to_site} from site {from_site}"),
    (K.EV_DEFEND, "defend", ("site", "defence", "obsidian"), False,
     "{actor} defends site {site} with {defence} and {obsidian} obsidian"),
    (K.EV_DIE, "die", ("war", "face"), True, "a war die shows {face}"),
    (K.EV_SKULL, "skull", ("site", "space"), False, "{actor} loses a garrison to a skull"),
    (K.EV_DESTROY, "destroy", ("site", "space", "building", "owner"), False,
     "{actor} destroys building {building} on site {site}"),
    (K.EV_PRISONER, "prisoner", ("site", "space"), False, "{actor} takes a prisoner"),
    (K.EV_LOSE, "lose", ("site", "space", "what"), False,
     "{actor} loses {what} on site {site} to the catastrophe"),
    (K.EV_TOKEN, "token", ("site", "space", "riches"), False, "{actor} pays riches {riches}"),
    (K.EV_CENOTE, "cenote", ("cenote", "site", "space", "riches", "points"), False,
     "{actor} brings riches {riches} to the cenote on site {cenote}"),
    (K.EV_BALL, "ball_game", ("points", "courts"), False, "{actor} wins {points} prestige"),
    (K.EV_ROUTE, "route", ("riches", "sink", "site", "space"), False,
     "{actor} routes riches {riches}"),
    (K.EV_CHAAK, "chaak", ("maize",), False, "the Clemency of Chaak: {maize} maize each"),
    (K.EV_BONUS, "bonus", ("points", "prestige"), False, "{actor}'s riches bonus: {points}"),
    (K.EV_END, "end", ("reason", "rounds"), False, "the game ends after {rounds} rounds"),
)
ACTIONS = tuple(Action(int(code), name, fields, chance, text)
                for code, name, fields, chance, text in _SPEC)
