"""``sim games``, ``sim rules`` and ``sim show``: what the toolkit knows, and one game told."""
from __future__ import annotations

from pathlib import Path

import click

from ..games import REGISTRY
from ..games import get as get_game
from ..params import UsageError
from ..validate import safe
from .common import _assignments, _seed


@click.command("games")
def games_cmd():
    """List the games."""
    for name in REGISTRY:
        g = get_game(name)
        counts = "/".join(str(p) for p in g.players)
        click.echo(f"{name:<10} {g.title} ({counts} players, version {g.version})")


@click.command("rules")
@click.argument("game")
@click.option("--brief", is_flag=True, help="one line per parameter and bot: name, default, allowed values")
def rules_cmd(game, brief):
    """Every rule parameter of GAME with its default, allowed values and meaning.

    Example: sim rules batam --brief
    """
    g = get_game(game)
    from ..seeds import seeds_dir
    doc = seeds_dir(g.name) / "RULES.md"  # where it is, in a checkout or an installed package
    click.echo(f"{g.title} (version {g.version}), {'/'.join(map(str, g.players))} players. "
               f"Rules as implemented: {doc if doc.is_file() else g.rules_doc}")
    click.echo("")
    click.echo("Rule parameters (change with --set NAME=VALUE), grouped by what they are:")
    groups = (("rule", "Rules of the rulebook"), ("variant", "Variants the rulebook offers"),
              ("reading", "Readings: where the rulebook is silent or ambiguous (sim robust "
                          "tries each alternative)"),
              ("horizon", "Horizon (not a rule: every game ends)"),
              ("data", "Data files (contents the rulebook does not print are assumptions)"),
              ("analysis", "Analysis switches (not rules)"))
    for role, title in groups:
        ps = [p for p in g.params if p.role == role]
        if not ps:
            continue
        click.echo("")
        click.echo(f" {title}:")
        width = max(len(p.name) for p in ps)
        for p in ps:
            default = ",".join(map(str, p.default)) if isinstance(p.default, tuple) else p.default
            if brief:
                click.echo(f"  {p.name:<{width}}  = {str(default):<12} {p.allowed()}")
                continue
            click.echo(f"  {p.name}  (default {default}; {p.allowed()})")
            click.echo(f"      {p.help}")
            if p.source:
                click.echo(f"      rulebook: {p.source}")
            if role == "reading":
                alts = ", ".join(",".join(map(str, a)) if isinstance(a, tuple) else str(a)
                                 for a in p.other_readings())
                click.echo(f"      other readings: {alts or 'none declared'}")
    click.echo("")
    click.echo(f"Bots (--bots, one per seat; default {','.join(g.default_bots)}):")
    if brief:
        width = max(len(b.name) for b in g.bots)
        for b in g.bots:
            first = b.help.split(". ")[0].rstrip(".")
            click.echo(f"  {b.name:<{width}}  {first[:96] + ('...' if len(first) > 96 else '')}")
        click.echo("")
        click.echo(f"Meanings, rulebook sections and bot options: sim rules {g.name}")
        return
    for b in g.bots:
        click.echo(f"  {b.name}: {b.help}")
        for p in b.params:
            click.echo(f"      {b.name}:{p.name}=VALUE  (default {p.default}; {p.allowed()}) {p.help}")


@click.command("show")
@click.argument("game")
@click.option("--seed", default="1", show_default=True, help="the master seed of the run")
@click.option("--game", "index", default="0", show_default=True,
              help="the index of the game in the run (0, 1, 2, ...)")
@click.option("--players", "-p", type=int, default=None, help="number of players, as the run had")
@click.option("--bots", default=None, help="bots per seat, as the run had")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="a rule parameter, as the run had")
@click.option("--html", default=None, metavar="FILE", help="also write a page with the board after each turn")
def show_cmd(game, seed, index, players, bots, sets, html):
    """Play one game of a run again, recorded, and tell it turn by turn.

    Example: sim show maya --seed 1 --game 17 --players 4 --html game17.html"""
    from analysis.show import show_game, show_text, write_show_page

    from ..api import check_show
    g = get_game(game)
    i = check_show(g, index)
    if html is not None:
        target = Path(html)
        if not html.strip() or target.is_dir() or not target.parent.is_dir():
            raise UsageError(f"--html {safe(html)}: not a file in an existing folder")
    shown = show_game(g, _seed(seed), i, _assignments(game, sets), bots, players)
    click.echo(show_text(shown))
    if html is not None:
        try:
            path = write_show_page(shown, Path(html))
        except OSError as e:
            raise UsageError(f"cannot write --html {safe(html)}: {safe(e.strerror or str(e))}") from None
        click.echo(f"page: {safe(str(path))}")
