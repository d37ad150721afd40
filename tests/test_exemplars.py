"""The games a report links (longest, stopped by the horizon, won late or narrowly, typical)
are found while the games are played, chunk by chunk (``Summary.watch``): the same games
as the reading of every row they replaced (the reference below, the code it replaced)."""
import numpy as np
import pandas as pd
import pytest

from sim.exemplars import Watch, picks
from sim.games import get
from sim.runner import execute
from sim.spec import make_spec
from sim.summary import Summary


def reference(game, rows) -> list[tuple[str, int, str]]:
    """The rows-based picking the report used before (analysis/show.py, 2026-12-03)."""
    if rows is None or not len(rows) or game.length not in rows:
        return []
    out = []
    length = rows[game.length].to_numpy()
    idx = rows["game"].to_numpy()
    i = int(np.argmax(length))
    out.append(("the longest", int(idx[i]), f"{int(length[i]):,} {game.length_unit}"))
    capped = np.flatnonzero(rows["capped"].to_numpy())
    if len(capped):
        out.append(("stopped by the horizon", int(idx[capped[0]]), f"{len(capped):,} such games"))
    won = rows["winner"].to_numpy() >= 0
    if game.drama_settled and game.drama_settled in rows and won.any():
        settled = np.where(won, rows[game.drama_settled].to_numpy(), -1)
        i = int(np.argmax(settled))
        out.append(("won from furthest behind", int(idx[i]),
                    f"the winner led for good only after {int(settled[i])}% of the game"))
    elif game.score and won.any():
        seats = [c for c in rows if c.startswith(game.score + "_") and c[len(game.score) + 1:].isdigit()]
        if len(seats) > 1:
            sc = np.sort(rows[seats].to_numpy().astype(np.int64), axis=1)
            margin = np.where(won, sc[:, -1] - sc[:, -2], np.iinfo(np.int64).max)
            i = int(np.argmin(margin))
            out.append(("won by the narrowest margin", int(idx[i]), f"by {int(margin[i])} {game.score}"))
    med = np.median(length)
    i = int(np.argmin(np.abs(length - med)))
    out.append(("a typical game", int(idx[i]), f"{int(length[i]):,} {game.length_unit} (the median)"))
    return out


@pytest.mark.parametrize("name,players,rules", [
    ("puluc", None, {}), ("puluc", None, {"horizon": 40}), ("maya", None, {}), ("maya", 4, {}),
    ("batam", None, {}), ("balam", None, {})])
def test_the_chunks_find_the_games_reading_every_row_finds(name, players, rules):
    spec = make_spec(name, 300, rules, None, players, 11)
    res = execute(spec, jobs=1, chunk_size=37, rows="memory", progress=False)
    want = reference(spec.game, res.frame)
    assert len(want) >= 2
    assert picks(spec.game, res.summary.watch) == want
    again = Summary.from_dict(res.summary.to_dict())  # as a saved run's summary.json holds it
    assert picks(spec.game, again.watch) == want
    assert picks(spec.game, Summary.from_frame(res.frame, spec.game, spec.players).watch) == want


def _toy_rows(length, capped, winner):
    g = get("puluc")
    return g, pd.DataFrame({"game": np.arange(len(length)), g.length: np.array(length, np.int16),
                            "capped": np.array(capped, bool), "winner": np.array(winner, np.int8)})


def _chunked(game, rows, size):
    w = None
    for s in range(0, len(rows), size):
        part = rows.iloc[s:s + size]
        cols = {c: part[c].to_numpy() for c in part if c != "game"}
        one = Watch.of(game, 2, cols, part["game"].to_numpy())
        w = one if w is None else w.merge(one)
    return w


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_ties_go_to_the_earliest_game_across_chunks(size):
    """Two longest games, an even count whose median falls between two lengths (both as
    close): the earliest game wins each tie, whichever chunk holds it."""
    length = [5, 9, 4, 9, 6, 5, 7, 4]       # median (5 + 6) / 2 = 5.5: lengths 5 and 6 tie
    capped = [0, 0, 0, 1, 0, 0, 1, 0]
    winner = [0, 1, -1, 0, 1, 0, 1, 0]
    g, rows = _toy_rows(length, capped, winner)
    got = picks(g, _chunked(g, rows, size))
    assert got == reference(g, rows)
    assert dict((label, i) for label, i, _ in got) == {
        "the longest": 1, "stopped by the horizon": 3, "a typical game": 0}


def test_a_chunk_saved_before_candidates_were_kept_makes_the_report_read_the_rows():
    """Merging a chunk whose record holds no candidates gives none (the report then reads
    the rows, as before), while an empty summary takes the other side's."""
    from sim.exemplars import merge
    g, rows = _toy_rows([3, 4, 5], [0, 0, 0], [0, 1, 0])
    w = _chunked(g, rows, 2)
    assert merge(None, w, 0, 3) is w and merge(w, None, 3, 0) is w
    assert merge(w, None, 3, 2) is None and merge(None, w, 2, 3) is None


def test_the_exemplar_pages_draw_each_cast_as_svg(tmp_path):
    """The game pages a run report links are ``sim show --html`` pages: the track after each
    cast drawn as SVG (the text board beside it), cast k numbered k, one step shown at a time."""
    import re
    import xml.etree.ElementTree as ET

    from click.testing import CliRunner

    from sim.cli import cli
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["puluc", "--games", "200", "--jobs", "1", "-q", "-o", str(out)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    pages = sorted((out / "games").glob("game-*.html"))
    assert len(pages) >= 2
    for page in pages:
        html = page.read_text()
        casts = re.findall(r'<section class="turn" id="turn-(\d+)">\s*<h3>Cast (\d+)</h3>', html)
        assert casts and all(a == b for a, b in casts)
        assert [int(a) for a, _ in casts] == list(range(1, len(casts) + 1))
        svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
        assert len(svgs) == len(casts) == html.count("<summary>as text</summary>")
        for k, svg in enumerate(svgs, 1):
            assert ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title").text.startswith(f"After cast {k} (")
        assert f"step 1 of {len(casts)}" in html and 'id="step-next"' in html
