"""End to end: `sim robust puluc --games 5e3` writes its report (a tornado chart with one bar
per condition, a table of every condition, the verdicts; `sim report DIR` rebuilds it), and
run and compare reports in the same folder show its verdict in their "How sure is this?"
box, or the command that would produce one."""
import json
import re

import pytest
from click.testing import CliRunner

from sim.cli import cli


# session scope: written once per test process (a module fixture was written again each
# time a worker came back to this module from another)
@pytest.fixture(scope="session")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("reports")
    runs = {
        "robust": ["robust", "puluc", "--games", "5e3", "--jobs", "2"],
        "run": ["puluc", "--games", "2000", "--jobs", "1", "-q"],
        "run9": ["puluc", "--games", "1000", "--set", "track=9", "--jobs", "1", "-q"],
        "compare": ["compare", "puluc", "--games", "1000", "--variant", "base:", "--variant",
                    "nine:track=9", "--jobs", "1", "-q"],
    }
    out = {}
    for name, args in runs.items():
        r = CliRunner().invoke(cli, args + ["--out", str(root / name)])
        assert r.exit_code == 0, r.output
        out[name] = r.output
    return root, out


def test_robust_writes_its_report_with_one_bar_per_condition(folder):
    root, out = folder
    d = root / "robust"
    for f in ("index.html", "report-standalone.html", "robust.json", "manifest.json", "conditions.csv",
              "tornado_edge.png", "tornado_length.png"):
        assert (d / f).is_file(), f
    data = json.loads((d / "robust.json").read_text())
    labels = [c["label"] for c in data["conditions"]]
    assert len(labels) >= 4   # Puluc's bots at least: greedy, search, search vs greedy/random
    for key, bars in data["tornado"].items():
        assert sorted(bars) == sorted(labels), key
    page = (d / "index.html").read_text()
    for key, ev in data["verdicts"].items():
        assert ev["kind"] in ("holds", "depends", "cannot tell")
        assert ev["text"].split(":")[0] in page
    # the table of every condition: one row per condition and the baseline
    table = page[page.index("<h2>Every condition</h2>"):]
    table = table[:table.index("</table>")]
    assert table.count("<tr>") == len(labels) + 2
    # the terminal prints the same verdicts and the time taken
    assert "first-player edge:" in out["robust"] and "game length:" in out["robust"]
    assert re.search(r"games played: [\d,]+ in [\d.]+ s \(CPU [\d.]+ s over 2 jobs\)", out["robust"])
    man = json.loads((d / "manifest.json").read_text())
    assert man["kind"] == "robust" and man["games_requested"] == 5_000
    assert set(man["condition_games"]) == set(labels)


def test_sim_report_rebuilds_the_robust_page(folder):
    root, _ = folder
    d = root / "robust"
    before = (d / "index.html").read_text()
    (d / "index.html").unlink()
    r = CliRunner().invoke(cli, ["report", str(d)])
    assert r.exit_code == 0, r.output
    assert (d / "index.html").read_text() == before


def test_run_report_shows_the_robust_verdict_of_the_same_rules(folder):
    root, _ = folder
    page = (root / "run" / "index.html").read_text()
    box = page[page.index("How sure is this?"):]
    box = box[:box.index("</div>")]
    assert "../robust/index.html" in box
    verdicts = json.loads((root / "robust" / "robust.json").read_text())["verdicts"]
    from markupsafe import escape          # as the page's templates escape it
    assert str(escape(verdicts["edge"]["text"])) in box
    assert "Jade: random, Cinnabar: random" in box and "RULES.md" in box


def test_other_rules_get_the_command_instead(folder):
    root, _ = folder
    box = (root / "run9" / "index.html").read_text()
    box = box[box.index("How sure is this?"):]
    assert "../robust/index.html" not in box[:box.index("</div>")]
    assert "<code>sim robust puluc --set track=9</code>" in box
    cmp = (root / "compare" / "index.html").read_text()
    cmp = cmp[cmp.index("How sure is this?"):]
    assert "sim robust compare puluc --variant base: --variant nine:track=9" in cmp[:cmp.index("</div>")]
