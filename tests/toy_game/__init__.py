"""Dash, a toy fifth game: the whole of a game in its own folder, registered only inside the
tests (``monkeypatch.setitem(sim.games.REGISTRY, "toy", "tests.toy_game")``), never in the CLI.

Each turn the seat to move rolls a die (chance) and runs that many cells or walks one; the
first to reach the end of the track wins, and a game still running after ``horizon`` turns
is stopped there (no winner).  Pure Python: a real game's kernel is jitted (docs/ADDING_A_GAME.md),
but the contract the runner, reports, recorder and ``sim show`` read is the same."""
from __future__ import annotations

import numpy as np

from sim.game import Bot, Column, Game
from sim.params import Param
from sim.record import Action, H_EVENTS, H_OVERFLOW, H_SNAPS
from sim.results import allocate

SEATS = ["Red", "Blue", "Green"]
ROLL, MOVE = 1, 2
RUN, WALK = 0, 1

PARAMS = (
    Param("track", 12, "cells from the start to the goal", "int", 2, 100, source="Dash: the track"),
    Param("horizon", 40, "turns after which a game is stopped without a winner", "int", 1, 1000,
          source="(not a rule: every game ends)", role="horizon"),
)
BOTS = (
    Bot("runner", 0, "always runs the full roll"),
    Bot("random", 1, "runs or walks, at random"),
    # a stand-in for a search bot: more budget, better play, with diminishing returns (it
    # runs with probability iters / (iters + 1); running is always the better move)
    Bot("careful", 2, "runs with probability iters / (iters + 1)",
        (Param("iters", 1, "the budget", "int", 1, 100_000),
         # the learned value (tests/toy_game/features.py): with 'model' the bot plays the move
         # whose position the model values higher for it (running, once it has learned)
         Param("leaf", "formula", "what values a position: 'formula' (as before), 'model' or "
               "'model2' (its second generation)", "choice", choices=("formula", "model", "model2")))),
)
COLUMNS = (
    Column("turns", "int16", "turns played"),
    Column("cell", "int16", "the seat's cell at the end (the score)", per_seat=True),
    Column("overtakes", "int16", "times the sole leader changed"),
    Column("led_from", "int8", "percent of the turns played before the winner led for good (-1: no winner)"),
)
ACTIONS = (
    Action(ROLL, "roll", ("value",), chance=True, text="{actor} rolls a {value}"),
    Action(MOVE, "move", ("how", "steps", "to"), text="{actor} moves {steps} to cell {to}"),
)


def prepare(rules: dict, players: int):
    """(track, horizon, mp, ms): the last two a learned value model, empty without one (as a
    real game's context carries them, so that its kernel's types never change)."""
    return (int(rules["track"]), int(rules["horizon"]), np.zeros(0, np.float64), np.zeros(0, np.int64))


def _rec(buf, kind, actor, *fields):
    """The same rows as ``sim.record.rec`` writes (this toy is not jitted)."""
    if buf.shape[0] == 1:
        return
    n = buf[0, H_EVENTS]
    if n + 1 < buf.shape[0]:
        buf[n + 1, :] = (kind, actor, *fields, *([0] * (6 - len(fields))))
    else:
        buf[0, H_OVERFLOW] = 1
    buf[0, H_EVENTS] = n + 1


def play(track, horizon, players, seed, index, bot_ids, buf, snaps, bot_params=None, model=None, visit=None):
    """One game: (winner, first seat, turns, cells, overtakes, led_from).  ``model``: the
    value model (mp, ms) a careful bot with leaf=model reads; ``visit(turn, seat, cells)``
    hears each decision point (tests/toy_game/features.py samples positions through it)."""
    rng = np.random.default_rng([seed, index])
    cells = [0] * players
    first = index % players
    leaders = []
    winner = -1
    turn = 0
    while turn < horizon and winner < 0:
        seat = (first + turn) % players
        roll = int(rng.integers(1, 7))
        _rec(buf, ROLL, -1, roll)
        if visit is not None:
            visit(turn, seat, list(cells))
        if bot_ids[seat] == 2 and bot_params[seat, 1] >= 1 and model is not None and model[1].size:
            from .features import choose
            how = choose(model, track, horizon, players, turn, seat, cells, roll)
        elif bot_ids[seat] == 2:
            k = float(bot_params[seat, 0])
            how = RUN if rng.random() < k / (k + 1) else WALK
        else:
            how = RUN if bot_ids[seat] == 0 or rng.random() < 0.5 else WALK
        steps = roll if how == RUN else 1
        cells[seat] = min(track, cells[seat] + steps)
        _rec(buf, MOVE, seat, how, steps, cells[seat])
        if buf.shape[0] > 1 and buf[0, H_SNAPS] < snaps.shape[0]:
            snaps[buf[0, H_SNAPS], :players] = cells
            buf[0, H_SNAPS] += 1
        top = max(cells)
        leaders.append(cells.index(top) if cells.count(top) == 1 else -1)
        if cells[seat] >= track:
            winner = seat
        turn += 1
    changes, last = 0, -1
    for x in leaders:
        if x >= 0:
            changes += last >= 0 and x != last
            last = x
    settled = -1
    if winner >= 0:
        r = len(leaders)
        while r > 0 and leaders[r - 1] == winner:
            r -= 1
        settled = 100 * r // len(leaders)
    return winner, first, turn, cells, changes, settled


def run_chunk(ctx, players, seed, start, count, bot_ids, bot_params, record=None):
    track, horizon, mp, ms = ctx
    out = allocate(GAME, players, count)     # capped and win are left to Game.play_chunk
    del out["capped"], out["win"]
    buf, snaps = record if record is not None else (np.zeros((1, 8), np.int32), np.zeros((0, 1), np.int64))
    for k in range(count):
        w, first, turns, cells, changes, settled = play(track, horizon, players, int(seed), start + k,
                                                        bot_ids, buf, snaps, bot_params, (mp, ms))
        out["winner"][k] = w
        out["first_player"][k] = first
        out["end_reason"][k] = 0 if w >= 0 else 1
        out["turns"][k] = turns
        out["cell"][k] = cells
        out["overtakes"][k] = changes
        out["led_from"][k] = settled
    return out


GAME = Game(
    name="toy",
    title="Dash (a toy game of the tests)",
    version=1,
    players=(2, 3),
    default_players=2,
    params=PARAMS,
    bots=BOTS,
    default_bots=("runner", "random"),
    columns=COLUMNS,
    end_reasons=("reached the goal", "horizon reached: no winner"),
    length="turns",
    length_unit="turns",
    seat_names=lambda players: SEATS[:players],
    prepare=prepare,
    run_chunk=run_chunk,
    score="cell",
    drama_changes="overtakes",
    drama_settled="led_from",
    actions=ACTIONS,
    record_shape=lambda rules, players: (players, int(rules["horizon"])),
    show_module="tests.toy_game.show",
    learn="tests.toy_game.features",
)
