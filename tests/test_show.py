"""The toy fifth game (tests/toy_game/: its own folder, registered here by one line, never in
the CLI) runs, reports, records and is shown; `sim show` and `--record` refuse bad input with
one line and status 2."""
import re

import numpy as np
import pytest
from click.testing import CliRunner

import sim.games
from sim.cli import cli
from sim.commands.run import _run_command
from sim.record import RECORDS, load_records, record_run


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(sim.games.REGISTRY, "toy", "tests.toy_game")   # the one registration line
    cli.add_command(_run_command("toy"))
    yield sim.games.get("toy")
    cli.commands.pop("toy", None)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_error_line(r, status=2):
    assert r.exit_code == status, (r.exit_code, r.output)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("sim: error:"), r.output
    return lines[0]


def test_a_new_game_runs_reports_records_and_shows(toy, tmp_path):
    d = tmp_path / "run"
    r = run("toy", "--games", 120, "--jobs", 1, "--out", d, "--record", "0..4", "-q",
            "--set", "horizon=8")
    assert r.exit_code == 0, r.output
    page = (d / "index.html").read_text()
    assert "Drama" in page and "Final cell" in page          # declared columns, other names
    assert "Watch a game" in page and "stopped by the horizon" in page
    assert "sim show toy --seed 1 --game " in page and "--set horizon=8" in page
    recs = load_records(d / RECORDS)
    assert [x.index for x in recs] == [0, 1, 2, 3, 4]
    again = record_run(toy, [3], {"horizon": 8})[0]
    assert np.array_equal(recs[3].events, again.events) and recs[3].columns == again.columns
    # the same game as the run played, bit for bit
    import pandas as pd
    row = pd.read_parquet(d / "results").sort_values("game").iloc[3]
    assert int(row["turns"]) == again.columns["turns"] and int(row["winner"]) == again.columns["winner"]

    html = tmp_path / "g3.html"
    r = run("show", "toy", "--game", 3, "--set", "horizon=8", "--html", html)
    assert r.exit_code == 0, r.output
    assert "rolls" in r.output and "|" in r.output and f"page: {html}" in r.output
    assert r.output.count("rolls") == again.columns["turns"]
    text = html.read_text()
    assert "Turn 1" in text and "sim show toy --seed 1 --game 3 --set horizon=8" in text


def test_show_falls_back_to_the_action_texts(toy, monkeypatch):
    monkeypatch.setattr(toy, "show_module", None)
    r = run("show", "toy", "--game", 0)
    assert r.exit_code == 0, r.output
    assert "chance rolls a " in r.output and "Red moves " in r.output


def test_show_escapes_what_it_writes(toy, tmp_path, monkeypatch):
    import tests.toy_game.show as S
    monkeypatch.setattr(S, "narrate", lambda rec, seats: ["<script>alert(1)</script>"])
    html = tmp_path / "p.html"
    assert run("show", "toy", "--html", html).exit_code == 0
    assert "<script>alert" not in html.read_text() and "&lt;script&gt;" in html.read_text()


@pytest.mark.parametrize("args", [
    ["--game", "abc"], ["--game", "-1"], ["--game", "1" * 40], ["--game", "1e3"],
    ["--seed", "x"], ["--players", "9"], ["--bots", "nobody"], ["--set", "track=0"],
    ["--set", "nope=1"], ["--html", "/no/such/folder/p.html"], ["--html", ""],
])
def test_show_refuses_bad_input_in_one_line(toy, args):
    one_error_line(run("show", "toy", *args))


def test_show_and_record_refuse_a_game_that_cannot_record(tmp_path):
    no_record = [n for n in sim.games.names() if not sim.games.get(n).actions]
    if not no_record:
        pytest.skip("every game records")
    name = no_record[0]
    assert "cannot record" in one_error_line(run("show", name))
    assert "cannot record" in one_error_line(run(name, "--games", 10, "--record", "0..3",
                                                 "--out", tmp_path / "x"))
    assert not (tmp_path / "x").exists()
    assert "unknown game" in one_error_line(run("show", "chess"))


@pytest.mark.parametrize("rec", ["abc", "5..1", "0..300", ""])
def test_record_refuses_bad_indices(toy, tmp_path, rec):
    one_error_line(run("toy", "--games", 300, "--record", rec, "--out", tmp_path / "x"))
    assert not (tmp_path / "x").exists()


def test_narrowest_margin_exemplar_skips_games_without_a_winner():
    """The score columns are small integers (int8): games without a winner must not be
    picked as the narrowest win (their placeholder overflowed to -1 once)."""
    import pandas as pd
    from analysis.show import exemplars
    from sim.games import get
    g = get("maya")
    rows = pd.DataFrame({"game": [0, 1, 2, 3], g.length: [50, 60, 70, 80],
                         "capped": [False, False, False, False], "winner": [-1, 0, 1, 0],
                         f"{g.score}_0": np.array([5, 9, 4, 7], np.int8),
                         f"{g.score}_1": np.array([5, 6, 5, 5], np.int8)})
    got = {label: (i, why) for label, i, why in exemplars(g, rows)}
    assert got["won by the narrowest margin"] == (2, f"by 1 {g.score}")


def test_run_writes_the_exemplar_pages_its_report_links(tmp_path):
    """A run (CLI) plays its exemplar games again, recorded, writes games/game-<i>.html for
    each and links them from the report; each page tells the game the report names."""
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["puluc", "--games", "300", "--jobs", "1", "-q", "-o", str(out)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    page = (out / "index.html").read_text()
    links = sorted(set(re.findall(r"href='(games/game-(\d+)\.html)'", page)))
    assert len(links) >= 2
    for href, i in links:
        text = (out / href).read_text()
        assert f"game {i} of seed" in text
        assert f"--game {i}" in text  # the command that tells it again
