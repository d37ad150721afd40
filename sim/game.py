"""The declaration every game makes, and the contract its kernel keeps.

A game lives in ``sim/games/<name>/`` and exposes ``GAME``, a :class:`Game`.
Registering it is one line in ``sim/games/__init__.py``.

Kernel contract (``run_chunk``)
-------------------------------
``run_chunk(ctx, players, seed, start, count, bot_ids, bot_params)`` plays games
``start .. start+count-1`` and returns a dict of numpy arrays, one entry per
column, each of length ``count`` (per-seat columns have shape
``(count, players)``).  Game *i* must take every random number from the streams
of :mod:`sim.rng` seeded with ``(seed, i)``: stream 0 for chance, stream
``1 + s`` for the bot in seat *s*.  ``ctx`` is whatever ``prepare`` returned
(numpy arrays and numbers, picklable: it is shipped to worker processes).

Callers never call ``run_chunk`` itself: they call :meth:`Game.play_chunk`, which checks a
recording's count, plays the chunk, completes the standard columns the kernel may leave
to it (``capped``: the game ended for the last of ``end_reasons``, which is the horizon's;
``win``: 1 for the seat ``winner`` names, where every game has at most one winner), casts
each declared column to its dtype and checks its shape.  So a kernel returns its columns
as it computed them (any integer dtype) and only what the declarations cannot derive.

Every chunk carries the standard columns:

* ``winner`` (int8): the winning seat, or -1 when no single seat won (draw,
  shared victory, horizon);
* ``win`` (float32, per seat): 1 when the seat is on the sole winning side
  (a player, or a team: every member of a winning team gets 1), 1/k when the
  victory is shared by k sides, 0 otherwise;
* ``end_reason`` (int8): an index into ``Game.end_reasons``;
* ``capped`` (bool): the game was stopped by the horizon, not by the rules;
* ``first_player`` (int8): the seat that moved first;
* the column named by ``Game.length`` (the game's natural length unit).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .params import Param, UsageError, _suggest, resolve


@dataclass(frozen=True)
class Column:
    name: str
    dtype: str
    help: str
    per_seat: bool = False
    #: False for an identifier (a layout hash, a card id) that is recorded per game for
    #: grouping but has no meaningful histogram or mean
    summarize: bool = True


STANDARD_COLUMNS = (
    Column("winner", "int8", "winning seat, -1 when no single seat won"),
    Column("win", "float32", "share of the victory (1 sole winner, 1/k shared, 0 lost)", per_seat=True),
    Column("end_reason", "int8", "how the game ended (index into the game's end reasons)"),
    Column("capped", "bool", "stopped by the horizon rather than by the rules"),
    Column("first_player", "int8", "seat that moved first"),
)


@dataclass(frozen=True)
class Bot:
    name: str
    id: int
    help: str
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class BotChoice:
    """A bot with its settings, as chosen for one seat."""

    bot: Bot
    settings: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        changed = [f"{k}={v}" for k, v in self.settings
                   if v != next(p.default for p in self.bot.params if p.name == k)]
        return self.bot.name + (":" + ",".join(changed) if changed else "")


@dataclass
class Game:
    name: str
    title: str
    version: int
    players: tuple[int, ...]
    default_players: int
    params: tuple[Param, ...]
    bots: tuple[Bot, ...]
    default_bots: tuple[str, ...]
    columns: tuple[Column, ...]
    end_reasons: tuple[str, ...]
    length: str
    length_unit: str
    seat_names: Callable[[int], list[str]]
    prepare: Callable[[dict, int], Any]
    run_chunk: Callable[..., dict]
    rules_doc: str = ""
    # sides (a team is a side): ``side_of(players)`` gives each seat's side index
    # (None: every seat is its own side); ``side_names(players)`` names the sides.
    # Fair shares, first-side advantage and decisive games are per side.
    side_of: Callable[[int], list] | None = None
    side_names: Callable[[int], list] | None = None
    # per-seat columns the report plots (besides win rates and length)
    highlight: tuple[str, ...] = ()
    # per-seat count columns that hold card/event draws, for impact analysis
    events: tuple[str, ...] = ()
    # the per-seat column that holds the final score, where the game scores (margins, regressions)
    score: str | None = None
    # drama, where the game follows its leader (game-level integer columns; the shared summary,
    # report and plots read these declarations, never a column by name): ``drama_changes``
    # counts the times the lead changed hands in a game; ``drama_settled`` is the percent of
    # the game played before the winner led for good (negative where no single winner: such
    # games are left out of its histogram)
    drama_changes: str | None = None
    drama_settled: str | None = None
    # why robust's strong condition (the first of ``strength``) is that bot: a text, or one per
    # player count ({2: '...', 3: '...'}), from the game's `sim strength` climbs (analysis.robust_conditions)
    strong_play: object = ""
    # benchmark configurations for `make bench`: dicts with label, players, bots,
    # rules (optional) and target (optional: {"games_per_s": N} or {"moves_per_s": N}),
    # plus "moves" naming the column that counts moves (for moves/s) and "ref_games"
    # (optional: at most this many games for the pure-Python reference's rate)
    bench: tuple = ()
    # card impact (`sim impact`): the card names of the deck under given rules, and the rule
    # changes that play the same games with one card removed ("remove") or made neutral
    # ("neutral"); may write a modified data file into ``workdir`` and point a parameter at it
    # extra report figures (e.g. the board as assumed): (manifest, out_dir) -> [(png, title, caption)]
    report_figures: Callable[[dict, Any], list] | None = None
    card_names: Callable[[dict], list] | None = None
    card_rules: Callable[[dict, str, str, Any], dict] | None = None
    # recorded games (sim/record.py): the kinds of event the kernel records (empty: the game
    # cannot record yet); ``record_shape(rules, players)`` -> (snapshot width, snapshot rows)
    # when the kernel also copies its state after each turn (for boards in `sim show`);
    # ``show_module``: a module path with ``narrate(record, seat_names) -> list[str]`` and
    # ``draw(snapshot_row, record) -> str`` (text board), optionally ``draw_png(...)``
    actions: tuple = ()
    record_shape: Callable[[dict, int], tuple] | None = None
    show_module: str | None = None
    # the `sim impact` mode used when --mode is not given: "neutral" where removing a card
    # changes the length of the game (the length itself moves the seat edges), else "remove"
    impact_default_mode: str = "remove"
    # `sim robust`: the bots from the strongest to the weakest (bot specs as --bots takes
    # them, tiers and styles alike); every one plays with all seats equal, and the first
    # plays against each other one in every seating.  Empty: the default bot first, then
    # the others in declaration order.
    strength: tuple = ()
    # ... per player count where it differs ({3: (...), 4: (...)}: a search bot at a smaller
    # budget where the default one would make `sim robust` take hours)
    strength_players: dict = field(default_factory=dict)
    # `sim robust`: the most games a condition with the strong bot (the first of the strength
    # list) in a seat plays, per player count, where that bot is too costly to play --games
    # of every condition ({2: 2000}); the others play on.  Absent: --games (--strong-games
    # overrides it)
    strong_games: dict = field(default_factory=dict)
    # playing strength, weakest first (bot specs): the game's ladder for `sim skill --ladder`
    # and for what run reports say about the strength their figures were measured at.
    # Empty: the reverse of ``strength``.
    ladder: tuple = ()
    # `sim robust`: the parameters that hold the setup's randomness (a random or a fixed
    # board layout, a uniform or a turn-based setup); each other choice is a condition.
    # A name the game does not declare (yet) is skipped.
    setup_randomness: tuple = ()
    # learned play (issue #46, ``sim/learn.py``): the module path of the game's features module
    # (``"sim.games.<game>.features"``: FEATURES_VERSION, n_features(players), TRAIN_BOTS, the
    # jitted features(...), sample(...) and attach_model(ctx, mp, ms), which returns a new
    # context and leaves the one given alone: make_spec caches the prepared context and shares
    # it with the specs that read no model); None: the game learns no value model, and a bot
    # setting leaf=model is refused
    learn: str | None = None
    # how it plays (issue #47, sim/playcols.py): the kernel can follow each side's learned
    # chance of winning at every position (the features module's attach_model takes
    # ``evaluate=True``; the EVALUATION columns); False: those columns stay -1
    evaluates: bool = False
    # ... where it takes those chances, in words for the report ("once a round, ...")
    evaluated_at: str = ""
    # ... and plays one game again with its chances traced: (ctx with the model, players, seed,
    # index, bot_ids, bot_par) -> ((positions, sides) chances, the game's columns); the run
    # report's win-probability figure.  None: no figure
    win_trace: Callable | None = None

    # ------------------------------------------------------------- helpers
    def bot_strength(self, players: int | None = None) -> tuple:
        """The bots `sim robust` tries, strongest first (see ``strength``)."""
        if players in self.strength_players:
            return tuple(self.strength_players[players])
        if self.strength:
            return tuple(self.strength)
        names = [b.name for b in self.bots]
        first = [b for b in dict.fromkeys(self.default_bots) if b in names]
        return tuple(first + [b for b in names if b not in first])

    def strength_ladder(self) -> tuple:
        """The bots from the weakest to the strongest (see ``ladder``)."""
        return tuple(self.ladder) if self.ladder else tuple(reversed(self.bot_strength()))

    def sides(self, players: int) -> list[int]:
        """Side index of each seat (a team game maps several seats to one side)."""
        if self.side_of is None:
            return list(range(players))
        return [int(x) for x in self.side_of(players)]

    def n_sides(self, players: int) -> int:
        return len(set(self.sides(players)))

    def side_labels(self, players: int) -> list[str]:
        if self.side_names is not None:
            return list(self.side_names(players))
        if self.side_of is None:
            return list(self.seat_names(players))
        seats = self.seat_names(players)
        sides = self.sides(players)
        return [" + ".join(seats[s] for s in range(players) if sides[s] == k)
                for k in range(self.n_sides(players))]

    def event_of_card(self, card: str) -> str | None:
        """The event column (of ``events``) that counts the draws of ``card`` (a name of
        ``card_names``): the column named as the card, or the one ending in ``_<card>``
        (Balam: 'drought' -> 'katun_drought'), or the one whose last word names the card's
        kind (Batam: 'pirate_0' -> 'compass_pirate', 'sunken_treasure_3' -> 'compass_sunken').
        None when no column, or more than one, fits."""
        if card in self.events:
            return card
        ends = [e for e in self.events if e.endswith("_" + card)]
        if len(ends) == 1:
            return ends[0]
        words = {w for w in card.split("_") if w and not w.isdigit()}
        kind = [e for e in self.events if e.rsplit("_", 1)[-1] in words]
        return kind[0] if len(kind) == 1 else None

    def all_columns(self) -> tuple[Column, ...]:
        return STANDARD_COLUMNS + tuple(self.columns)

    def play_chunk(self, ctx, players: int, seed: int, start: int, count: int, bot_ids, bot_par,
                   record=None) -> dict:
        """Games ``start .. start + count - 1`` as the declared columns: the kernel contract
        (module docstring) every caller uses.  ``record=(buf, snaps)`` records the one game
        played (``count`` 1; ``sim/record.py``)."""
        if record is None:
            cols = self.run_chunk(ctx, players, seed, start, count, bot_ids, bot_par)
        elif count != 1:
            raise ValueError(f"{self.name}: a recorded chunk plays one game (count=1), not {count}")
        else:
            cols = self.run_chunk(ctx, players, seed, start, count, bot_ids, bot_par, record=record)
        return self.complete_columns(cols, players, count)

    def complete_columns(self, cols: dict, players: int, count: int) -> dict:
        """A kernel's columns completed and checked against the declarations, in place:
        ``capped`` from ``end_reason`` (the last end reason is the horizon's) and ``win``
        from ``winner`` where the kernel left them out, each declared column cast to its
        dtype; a missing column or a wrong shape is a ValueError naming it."""
        if "capped" not in cols:
            cols["capped"] = np.asarray(cols["end_reason"]) == len(self.end_reasons) - 1
        if "win" not in cols:
            cols["win"] = np.asarray(cols["winner"])[:, None] == np.arange(players)
        for c in self.all_columns():
            if c.name not in cols:
                raise ValueError(f"{self.name}: the kernel returned no column '{c.name}'")
            a = np.asarray(cols[c.name]).astype(c.dtype, copy=False)
            want = (count, players) if c.per_seat else (count,)
            if a.shape != want:
                raise ValueError(f"{self.name}: column '{c.name}' has shape {a.shape}, not {want}")
            cols[c.name] = a
        return cols

    def resolve_rules(self, given: dict | None) -> dict:
        return resolve(self.params, given, "rule parameter", self.name)

    def param_name(self, key) -> str | None:
        """The declared name of the rule parameter ``key`` names, by its name or an alias
        (surrounding spaces, case and ``-`` for ``_`` ignored, as ``--set`` reads it); None
        where it names none."""
        k = str(key).strip().lower().replace("-", "_")
        return next((p.name for p in self.params if k == p.name or k in p.aliases), None)

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.default_players
        if players not in self.players:
            allowed = ", ".join(str(p) for p in self.players)
            raise UsageError(f"{self.name} is played by {allowed} players, not {players}")
        return int(players)

    def bot(self, name: str) -> Bot:
        for b in self.bots:
            if b.name == name:
                return b
        names = [b.name for b in self.bots]
        raise UsageError(f"unknown bot '{name}' for {self.name}{_suggest(name, names)}; "
                         f"known: {', '.join(names)}")

    def choose_bots(self, spec, players: int) -> tuple[BotChoice, ...]:
        """``spec``: None (defaults), ``"greedy,random"``, or a sequence of names.

        A bot may carry settings: ``search:depth=2`` or ``search:depth=2;width=3``.
        A single name is used for every seat.
        """
        if spec is None:
            items = list(self.default_bots)
        elif isinstance(spec, str):
            items = [s for s in _split_bots(spec)]
        else:
            items = list(spec)
        items = [i.strip() if isinstance(i, str) else i for i in items]
        if len(items) == 1:
            items = items * players
        if len(items) != players:
            raise UsageError(f"{self.name} with {players} players needs {players} bots "
                             f"(one per seat) or one for all, got {len(items)}")
        out = []
        for item in items:
            if isinstance(item, BotChoice):
                out.append(item)
                continue
            name, _, rest = item.partition(":")
            bot = self.bot(name.strip().lower())
            given = {}
            for kv in filter(None, (x.strip() for x in rest.replace(";", ",").split(","))):
                if "=" not in kv:
                    raise UsageError(f"bot setting must be NAME=VALUE, not {kv!r} (in {item!r})")
                k, v = kv.split("=", 1)
                given[k.strip()] = v.strip()
            settings = resolve(bot.params, given, "bot setting", f"bot '{bot.name}'")
            out.append(BotChoice(bot, tuple(settings.items())))
        return tuple(out)

    def bot_arrays(self, choices: tuple[BotChoice, ...]) -> tuple[np.ndarray, np.ndarray]:
        width = max([len(b.params) for b in self.bots] + [1])
        ids = np.array([c.bot.id for c in choices], dtype=np.int64)
        par = np.zeros((len(choices), width), dtype=np.float64)
        for s, c in enumerate(choices):
            for j, ((_, v), p) in enumerate(zip(c.settings, c.bot.params)):
                par[s, j] = setting_number(p, v)
        return ids, par


def setting_number(p: Param, value) -> float:
    """A bot setting as the kernels read it (one float per setting): a choice is its index in
    the declared choices (``leaf=formula`` 0, ``leaf=model`` 1), anything else its number."""
    if p.kind == "choice":
        return float(p.choices.index(value))
    return float(value)


def _split_bots(spec: str) -> list[str]:
    """Split ``"search:depth=2,greedy"`` into seats: a comma followed by NAME= belongs to settings."""
    parts = [p for p in spec.split(",")]
    seats: list[str] = []
    for p in parts:
        if seats and "=" in p and ":" not in p:
            seats[-1] += "," + p
        else:
            seats.append(p)
    return [s for s in seats if s.strip()] or [""]


def short_params(game: Game, rules: dict) -> str:
    """A short label of the parameters that differ from the defaults, e.g. ``track9-exitpile``."""
    parts = []
    for p in game.params:
        v = rules[p.name]
        if v != p.default:
            if isinstance(v, tuple):
                v = "_".join(str(x) for x in v)
            v = str(v).replace("/", "_").replace(".", "p")
            parts.append(f"{p.name}{v}")
    label = "-".join(parts) or "base"
    return label[:60]
