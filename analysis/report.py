"""The run report: figures, an HTML page a designer can read, and a terminal summary."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from . import metrics, play_report, plots
from .pages import CSS, SELF_CHECK, Markup, bots_sentence, render, write_page
from .wording import edge_phrase



def _pct(x) -> str:
    return "n/a" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{100 * x:.1f}%"


def _num(x, nd=2) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "n/a"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    return f"{x:,.{nd}f}"


def summarize(S, manifest: dict, game) -> dict:
    """Every figure the report and the terminal show, computed once from a Summary."""
    S = metrics.summary_of(S, game)
    seats = manifest["seats"]
    side_names = side_labels(game, S.players) if S.teams else seats
    out = {
        "summary": S,
        "seats": metrics.seat_win_rates(S, seats),
        "sides": metrics.side_win_rates(S, side_names),
        "teams": S.teams,
        "positions": metrics.position_win_rates(S),
        "decisive_positions": metrics.decisive_position_rates(S),
        "first": metrics.first_player_advantage(S),
        "gap": metrics.largest_turn_order_gap(S),
        "balance": metrics.balance(S),
        "outcomes": metrics.outcome_counts(S),
        "end_reasons": metrics.end_reasons(S, game.end_reasons),
        "length": metrics.duration(S, game.length),
        "length_ended": metrics.ended_mean(S, game.length),
        "margin": metrics.duration(S, "margin") if "margin" in S.hists else None,
        "seat_means": {h: metrics.seat_means(S, h, seats) for h in game.highlight
                       if S.seat_hist(h, 0) is not None},
    }
    return out


def side_labels(game, players: int) -> list[str]:
    """The sides' names: "team North + South" in a team game, else the seats' names."""
    if hasattr(game, "side_labels") and game.n_sides(players) < players:
        return [f"team {x}" for x in game.side_labels(players)]
    return list(game.seat_names(players))


def figures_table(s: dict, game) -> list[tuple[str, str, str]]:
    """(figure, value, 95% interval or note) rows: every number the report shows."""
    rows = []
    teams = s.get("teams", False)
    for _, r in s["seats"].iterrows():
        rows.append((f"win rate, {r['name']}" + (" (its team's)" if teams else ""), _pct(r["rate"]),
                     f"{_pct(r['lo'])} to {_pct(r['hi'])}"))
    if teams:
        for _, r in s["sides"].iterrows():
            rows.append((f"win rate, {r['name']}", _pct(r["rate"]), f"{_pct(r['lo'])} to {_pct(r['hi'])}"))
    for _, r in s["positions"].iterrows():
        rows.append((f"win rate, {r['label']}", _pct(r["rate"]), f"{_pct(r['lo'])} to {_pct(r['hi'])}"))
    f = s["first"]
    who = "first-team" if teams else "first-player"
    rows.append((f"{who} advantage (win rate minus fair share {_pct(f['fair'])})",
                 f"{100 * f['advantage']:+.2f} points",
                 f"{100 * f['adv_lo']:+.2f} to {100 * f['adv_hi']:+.2f}"))
    g = s.get("gap")
    if g is not None and s["summary"].n_sides >= 3:
        rows.append((f"largest turn-order gap: {g['label']} (win rate minus fair share)",
                     f"{100 * g['advantage']:+.2f} points",
                     f"{100 * g['adv_lo']:+.2f} to {100 * g['adv_hi']:+.2f}"))
    for _, r in s["decisive_positions"].iterrows():
        rows.append((f"win rate among decisive games, {r['label']}", _pct(r["rate"]),
                     f"{_pct(r['lo'])} to {_pct(r['hi'])}"))
    rows.append((f"balance (1 - largest gap between {'teams' if teams else 'seats'}' win rates)",
                 f"{s['balance']:.4f}", ""))
    o = s["outcomes"]
    rows.append(("games", _num(o["games"]), ""))
    rows.append(("decisive games (exactly one team won)" if teams else "decisive games (a single winner)",
                 _pct(o["decisive_rate"]), f"{_pct(o['decisive_lo'])} to {_pct(o['decisive_hi'])}"))
    if o["shared"]:
        rows.append(("games whose victory was shared", _pct(o["shared_rate"]),
                     f"{_pct(o['shared_lo'])} to {_pct(o['shared_hi'])}"))
    rows.append(("games without a winner (draws)", _pct(o["no_winner_rate"]),
                 f"{_pct(o['no_winner_lo'])} to {_pct(o['no_winner_hi'])}"))
    rows.append(("games stopped by the horizon", _pct(o["capped_rate"]),
                 f"{_pct(o['capped_lo'])} to {_pct(o['capped_hi'])}"))
    for i, (_, r) in enumerate(s["end_reasons"].iterrows()):
        rows.append((f"ended: {r['reason']} (end_reason {i})", _pct(r["share"]), f"{_num(r['games'])} games"))
    L = s["length"]
    u = game.length_unit
    rows.append((f"length mean ({u})", _num(L["mean"]), f"{_num(L['mean_lo'])} to {_num(L['mean_hi'])}"))
    for key in ("sd", "min", "p5", "p25", "median", "p75", "p95", "max"):
        rows.append((f"length {key} ({u})", _num(L[key]), ""))
    S = s["summary"]
    for col, label in ((game.drama_changes, "lead changes per game"),
                       (game.drama_settled, "point of the game (% of its length) after which the winner led for good")):
        if col and col in S.hists:
            D = metrics.duration(S, col)
            rows.append((f"drama: {label}, mean", _num(D["mean"]), f"{_num(D['mean_lo'])} to {_num(D['mean_hi'])}"))
            rows.append((f"drama: {label}, median", _num(D["median"]), ""))
    if s.get("margin"):
        M = s["margin"]
        rows.append(("final score margin, leader over runner-up: mean", _num(M["mean"]),
                     f"{_num(M['mean_lo'])} to {_num(M['mean_hi'])}"))
        for key in ("median", "p5", "p95"):
            rows.append((f"final score margin {key}", _num(M[key]), ""))
    for name, t in s["seat_means"].items():
        for _, r in t.iterrows():
            rows.append((f"{name.replace('_', ' ')} per game, {r['name']}", _num(r["mean"], 3),
                         f"{_num(r['lo'], 3)} to {_num(r['hi'], 3)}"))
    return rows


def nonzero_seat_means(tables: dict) -> tuple[dict, list[str]]:
    """The per-seat metrics worth a panel, and the names of those that were zero for every
    seat in every game (Maya's ladders and priests with four players): an empty panel reads
    as a broken plot."""
    drawn = {n: t for n, t in tables.items() if (t["hi"].abs() > 0).any() or (t["mean"].abs() > 0).any()}
    return drawn, [n for n in tables if n not in drawn]


def headline(s: dict, manifest: dict, game) -> list[str]:
    """Plain-language sentences for a reader who has never seen the tool."""
    lines = []
    teams = s.get("teams", False)
    n = s["outcomes"]["games"]
    for _, r in (s["sides"] if teams else s["seats"]).iterrows():
        name = str(r["name"])
        lines.append(f"{name[0].upper() + name[1:]} won {_pct(r['rate'])} of {n:,} games "
                     f"(95% interval {_pct(r['lo'])} to {_pct(r['hi'])}).")
    f = s["first"]
    fair = f["fair"]
    lead = gap_sentence(s)
    if lead:
        lines.append(lead)
    who = "The team whose player moves first" if teams else "The player who moves first"
    lines.append(f"{who} wins {_pct(f['rate'])} against a fair share of {_pct(fair)} "
                 f"(95% interval {_pct(f['lo'])} to {_pct(f['hi'])}): "
                 f"{edge_phrase(f['advantage'], f['adv_lo'], f['adv_hi'], scale=100, games=n)}.")
    lines.append(outcome_sentence(s["outcomes"]))
    o = s["outcomes"]
    dp = s["decisive_positions"]
    if o["decisive"] and (o["no_winner"] or o["shared"]) and len(dp) >= 2:
        rates = [_pct(r["rate"]) for _, r in dp.iterrows()]
        unit = "team" if teams else "player"
        named = [f"the 1st {unit} won {rates[0]}"] + [
            f"the {metrics._ordinal(k + 1)} {rates[k]}" for k in range(1, len(rates))]
        lines.append(f"Among the {_pct(o['decisive_rate'])} of games one {unit} won outright "
                     "(draws and shared victories left out), " + ", ".join(named[:-1])
                     + f" and {named[-1]}.")
    L = s["length"]
    lines.append(f"A game lasts {_num(L['mean'], 1)} {game.length_unit} on average "
                 f"(median {_num(L['median'])}, 90% of games between {_num(L['p5'])} and {_num(L['p95'])})"
                 + length_caveat(o, game.length_unit, s.get("length_ended")) + ".")
    lines.append(bots_sentence(manifest))
    return lines


def gap_sentence(s: dict) -> str | None:
    """With three or more sides, the turn-order position furthest from its fair share, said
    before the first side's figure (which can hide a larger gap further down the turn order);
    None with two sides, or where the first side is the furthest."""
    g = s.get("gap")
    if g is None or s["summary"].n_sides < 3 or g["position"] == 0:
        return None
    return (f"Of the {s['summary'].n_sides} turn-order positions, the {g['label']} is furthest from "
            f"fair: it wins {_pct(g['rate'])} against a fair share "
            f"of {_pct(g['fair'])} (95% interval {_pct(g['lo'])} to {_pct(g['hi'])}): "
            f"{edge_phrase(g['advantage'], g['adv_lo'], g['adv_hi'], scale=100, games=s['outcomes']['games'])}.")


def length_caveat(o: dict, unit: str, ended: float | None = None) -> str:
    """Where games were stopped by the horizon, the length figures count them at the cap:
    said next to them, with the mean of the games that ended by the rules, so a mean is not
    read as how long the game runs by its rules."""
    if not o["capped"]:
        return ""
    own = (f"; the {_pct(1 - o['capped_rate'])} that ended by the rules lasted {_num(ended, 1)} "
           f"{unit} on average" if ended is not None and ended == ended else "")
    return (f"; these figures count the {_pct(o['capped_rate'])} of games stopped by the horizon "
            f"as ending there (the cap, in {unit}), so they understate how long those games would run"
            + own)


def outcome_sentence(o: dict) -> str:
    """Draws, shared victories and the horizon, in one sentence (said even when all are 0)."""
    if not (o["no_winner"] or o["capped"] or o["shared"]):
        return "Every game had a winner; none was stopped by the horizon."
    parts = [f"{_pct(o['no_winner_rate'])} of games had no winner (draws)"]
    if o["shared"]:
        parts.append(f"{_pct(o['shared_rate'])} ended in a shared victory")
    parts.append(f"{_pct(o['capped_rate'])} were stopped by the horizon")
    return ", ".join(parts[:-1]) + " and " + parts[-1] + "."


def text_summary(s: dict, manifest: dict, game) -> str:
    """The short table printed at the end of a run."""
    teams = s.get("teams", False)
    lines = [f"{manifest['run']}  {manifest['games_completed']:,} games"
             + ("  (PARTIAL: stopped before the end)" if manifest.get("partial") else "")
             + f"  bots: {', '.join(manifest['bots'])}  seed {manifest['seed']}"]
    lines.append(f"{'':<24}{'win rate':>10}   95% interval")
    for _, r in s["seats"].iterrows():
        lines.append(f"{str(r['name']):<24}{_pct(r['rate']):>10}   {_pct(r['lo'])} .. {_pct(r['hi'])}")
    if teams:
        for _, r in s["sides"].iterrows():
            lines.append(f"{str(r['name'])[:23]:<24}{_pct(r['rate']):>10}   {_pct(r['lo'])} .. {_pct(r['hi'])}")
    for _, r in s["positions"].iterrows():
        lines.append(f"{str(r['label']):<24}{_pct(r['rate']):>10}   {_pct(r['lo'])} .. {_pct(r['hi'])}")
    o = s["outcomes"]
    if o["no_winner"] or o["shared"]:
        for _, r in s["decisive_positions"].iterrows():
            label = f"{r['label']}, decisive"
            lines.append(f"{label:<24}{_pct(r['rate']):>10}   {_pct(r['lo'])} .. {_pct(r['hi'])}")
    lines.append(f"{'draws / no winner':<24}{_pct(o['no_winner_rate']):>10}   "
                 f"{_pct(o['no_winner_lo'])} .. {_pct(o['no_winner_hi'])}")
    if o["shared"]:
        lines.append(f"{'shared victories':<24}{_pct(o['shared_rate']):>10}")
    lines.append(f"{'stopped by horizon':<24}{_pct(o['capped_rate']):>10}")
    L = s["length"]
    lines.append(f"{game.length_unit + ' mean/median/p95':<24}{_num(L['mean'], 1):>10}   "
                 f"{_num(L['median'])} / {_num(L['p95'])}")
    f = s["first"]
    g = s.get("gap")
    if gap_sentence(s):
        lines.append(f"furthest from fair, {g['label']}: "
                     f"{edge_phrase(g['advantage'], g['adv_lo'], g['adv_hi'], scale=100, games=o['games'])} "
                     f"({_pct(g['rate'])} against {_pct(g['fair'])})")
    lines.append(f"{'first team' if teams else 'first player'}: "
                 f"{edge_phrase(f['advantage'], f['adv_lo'], f['adv_hi'], scale=100, games=o['games'])}")
    lines.append(f"These figures depend on the bots ({', '.join(manifest['bots'])}).")
    return "\n".join(lines)


def _params_rows(game, manifest) -> list:
    rows = []
    changed = manifest.get("rules_changed", {})
    for p in game.params:
        val = manifest["rules"].get(p.name)
        mark = Markup('<span class="changed">{}</span>').format(val) if p.name in changed \
            else str(val)
        rows.append((p.name, mark, str(p.default if not isinstance(p.default, tuple) else
                                       ",".join(map(str, p.default))), p.help, p.source))
    return rows


def write_report(S, manifest: dict, game, out_dir, picks=None, meanwhile=None) -> Path:
    """Write index.html (PNGs beside it) and report-standalone.html (images embedded).

    ``S``: the run's Summary (or its results DataFrame); ``picks``: the exemplar games
    (:func:`exemplar_picks`), where the caller has them already; ``meanwhile()``: work done
    while the figures are drawn, before the page is written (the exemplar games' pages)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # the end_reason codes by name, so a reader of manifest.json needs no code (the run's
    # manifest.json is written from this dict after the report)
    manifest.setdefault("end_reasons", {str(i): r for i, r in enumerate(game.end_reasons)})
    s = summarize(S, manifest, game)
    S = s["summary"]
    seats = manifest["seats"]
    players = manifest["players"]
    teams = s["teams"]
    sides = list(s["sides"]["name"])
    figs: list[tuple[str, str, str]] = []  # (file, title, caption)
    jobs = []  # the figures, drawn together below (two at a time where two cores are free)

    def plot(draw, *args, **kw):
        jobs.append((draw, args, kw))

    if S.n:
        if teams:
            plot(plots.win_rates, s["sides"].rename(columns={"side": "seat"}), s["positions"], players,
                 out_dir / "win_rates.png", fair=1.0 / S.n_sides)
            figs.append(("win_rates.png", "Win rates",
                         "Coloured bars: each team (both partners win together). Grey bars: by turn "
                         "order of the teams, whoever sat there. Black whiskers: 95% Wilson intervals. "
                         "Dashed line: the fair share of a team."))
        else:
            plot(plots.win_rates, s["seats"], s["positions"], players, out_dir / "win_rates.png")
            figs.append(("win_rates.png", "Win rates",
                         "Coloured bars: each seat. Grey bars: by turn order, whoever sat there. "
                         "Black whiskers: 95% Wilson intervals. Dashed line: the fair share."))
        plot(plots.length_histogram, S, game.length, game.length_unit, out_dir / "length.png")
        figs.append(("length.png", "Game length",
                     f"Share of games by length in {game.length_unit}; games stopped by the horizon "
                     "are drawn in orange."))
        drawn, zero = nonzero_seat_means(s["seat_means"])
        if drawn:
            plot(plots.seat_means, drawn, out_dir / "seat_means.png", seats)
            figs.append(("seat_means.png", "Per-seat averages",
                         "Mean per game for each seat, with 95% intervals."
                         + (f" Not drawn: {', '.join(n.replace('_', ' ') for n in zero)}, zero for every "
                            "seat in every game of this run." if zero else "")))
        if teams and game.score and S.side_hist(game.score, 0) is not None:
            plot(plots.count_distribution, S, game.score, sides, out_dir / "scores.png",
                 f"final {game.score} of the team (partners' sum)",
                 hists=[S.side_hist(game.score, k) for k in range(S.n_sides)])
            figs.append(("scores.png", f"Final {game.score} of each team",
                         f"Share of games by each team's final {game.score} (the partners' points "
                         "added up)."))
        elif game.score and S.seat_hist(game.score, 0) is not None:
            plot(plots.count_distribution, S, game.score, seats, out_dir / "scores.png", f"final {game.score}")
            figs.append(("scores.png", f"Final {game.score}",
                         f"Share of games by each seat's final {game.score}."))
        if game.drama_changes and game.drama_changes in S.hists:
            plot(plots.drama, S, out_dir / "drama.png", game.drama_changes, game.drama_settled)
            figs.append(("drama.png", "Drama",
                         "Left: how often the lead changed hands in a game. Right: how far into the "
                         "game the eventual winner took the lead for good (late = dramatic)."))
        if "margin" in S.hists:
            plot(plots.margin_histogram, S, out_dir / "margin.png",
                 (game.score or "score") + (" (team)" if teams else ""))
            figs.append(("margin.png", "Winning margins",
                         "How far the leading team finished ahead of the other (partners' points "
                         "added up; 0: a tie on score)." if teams else
                         "How far the leader finished ahead of the runner-up (0: a tie on score)."))
        for name in game.highlight[:2]:
            if S.seat_hist(name, 0) is not None:
                fn = f"dist_{name}.png"
                plot(plots.count_distribution, S, name, seats, out_dir / fn, f"{name.replace('_', ' ')} in a game")
                figs.append((fn, f"Distribution of {name.replace('_', ' ')}",
                             f"Share of games by the number of {name.replace('_', ' ')} each seat made."))
    # the game's own figures and the caller's work (the exemplar pages) are done here while a
    # copy of this process draws half of the figures
    extra = getattr(game, "report_figures", None)
    if picks is None and manifest.get("evaluated"):
        picks = exemplar_picks(game, manifest, out_dir, S)
    here = [lambda: (list(extra(manifest, out_dir)) if extra is not None and S.n else [])
            + (play_report.trace_figure(game, manifest, out_dir, picks) if S.n else [])]
    extra_figs = plots.render(jobs, here + ([meanwhile] if meanwhile is not None else []))[0]

    title = f"{game.title}: {manifest['games_completed']:,} games"
    from .robust import how_sure_box
    import json
    page = render(
        "run_report.html", title=title, css=Markup(CSS), self_check=Markup(SELF_CHECK),
        run=manifest["run"], bots=", ".join(f"{n}: {b}" for n, b in zip(seats, manifest["bots"])),
        seed=manifest["seed"], finished=manifest["finished"],
        teams_named=" against ".join(x.removeprefix("team ") for x in sides) if teams else None,
        fair_share=_pct(1.0 / S.n_sides),
        partial=({"done": f"{manifest['games_completed']:,}", "requested": f"{manifest['games_requested']:,}",
                  "chunks_done": manifest["chunks_done"], "chunks_total": manifest["chunks_total"]}
                 if manifest.get("partial") else None),
        headline=headline(s, manifest, game),
        how_sure=Markup(how_sure_box(game, manifest, out_dir, "run")),
        figures=figs, impact=_impact_section(S, seats) if S.events else None,
        extra_figures=extra_figs, exemplars=_exemplars(game, manifest, out_dir, picks, S),
        can_record=bool(game.actions), game_title=game.title, game_name=game.name,
        figures_table=figures_table(s, game), params=_params_rows(game, manifest),
        how_it_plays=play_report.section(S, game, manifest),
        command=manifest.get("command"), manifest_json=json.dumps(manifest, indent=2, default=str))
    return write_page(out_dir, page, figs + extra_figs)


def write_run_report(S, manifest: dict, game, out_dir) -> Path:
    """The report of a run just played (``save_run``'s ``report``): the exemplar games' pages
    are written (while the figures are drawn) before the page that links them, from the
    games its chunks picked (``S.watch``: no row is read)."""
    picks = exemplar_picks(game, manifest, out_dir, S)
    return write_report(S, manifest, game, out_dir, picks,
                        meanwhile=lambda: write_exemplar_pages(game, manifest, out_dir, picks))


def exemplar_picks(game, manifest: dict, out_dir, S=None) -> list[tuple[str, int, str]]:
    """(label, game index, why) of the run's exemplar games (:func:`sim.exemplars.picks`):
    from the candidates its chunks kept (``S.watch``), else from the few result columns they
    need (a run saved before they were kept); [] where neither is there.  Computed once per
    report: :func:`write_exemplar_pages` and :func:`write_report` take the result."""
    from sim.exemplars import picks
    if S is not None and S.watch is not None:
        return picks(game, S.watch)
    from sim.output import load_rows
    from sim.params import UsageError
    from .show import exemplar_columns, exemplars
    try:
        rows = load_rows(out_dir, columns=exemplar_columns(game, manifest["players"]))
    except (UsageError, OSError, ValueError):
        return []
    return exemplars(game, rows)


def write_exemplar_pages(game, manifest: dict, out_dir: Path, picks=None) -> list[Path]:
    """Play the run's exemplar games again, recorded, and write each one's turn-by-turn page
    (``games/game-<i>.html``; the report links them).  Nothing where the game cannot record
    or the run kept no rows; a game that cannot be told is skipped (its command stays).
    ``picks``: :func:`exemplar_picks`, where the caller has them already."""
    from .show import can_record, show_game, write_show_page
    if not can_record(game):
        return []
    written = []
    for _, i, _ in exemplar_picks(game, manifest, out_dir) if picks is None else picks:
        page = Path(out_dir) / "games" / f"game-{i}.html"
        if page.is_file():
            written.append(page)
            continue
        shown = show_game(game, manifest["seed"], i, manifest.get("rules_changed") or None,
                          manifest.get("bots"), manifest["players"])
        page.parent.mkdir(exist_ok=True)
        write_show_page(shown, page)
        written.append(page)
    return written


def _exemplars(game, manifest: dict, out_dir: Path, picks=None, S=None) -> list[dict]:
    """A few games worth watching, each with the ``sim show`` command that tells it (and a
    link to its page where one was written into ``games/`` of the run directory)."""
    from .show import show_command
    out = []
    for label, i, why in exemplar_picks(game, manifest, out_dir, S) if picks is None else picks:
        page = Path("games") / f"game-{i}.html"
        out.append({"label": label, "index": i, "why": why,
                    "page": page.as_posix() if (out_dir / page).is_file() else None,
                    "command": show_command(game, manifest["seed"], i, manifest["players"],
                                            manifest.get("bots"), manifest.get("rules_changed"))})
    return out


def _impact_section(S, seats) -> dict | None:
    """Observational card/event impact table (causal figures come from `sim impact`)."""
    from .impact import OBSERVATIONAL, observational
    obs = observational(S, seats)
    if not len(obs):
        return None
    rows = []
    for _, r in obs.iterrows():
        rows.append((r["card"].replace("_", " "), r["seat"], f"{int(r['games drew']):,}",
                     _pct(r["win rate drew"]), _pct(r["win rate not"]),
                     "" if r["difference"] != r["difference"] else
                     f"{100 * r['difference']:+.2f} ({100 * r['lo']:+.2f} to {100 * r['hi']:+.2f})",
                     "" if r.get("per card") != r.get("per card") else f"{100 * r['per card']:+.2f}"))
    return {"note": OBSERVATIONAL, "rows": rows,
            "header": ["card / event", "seat", "games it got one", "win rate if got",
                       "win rate if not", "difference, points (95% interval)",
                       "regression: points per card"]}
