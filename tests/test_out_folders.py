"""Output folders are never silently reused (issue #45, items 1, 2 and 12).

An experiment's folder records what it holds (``sim.validate.RECORD``: kind, game and settings)
and is locked while the experiment works in it (``sim.lock``): another kind of experiment, or
the same with other settings, a finished one again, or a second process at once, is refused in
one line with exit status 2 and the folder left as it was; the same command into a stopped
experiment's folder finishes it.  ``sim report`` does not rebuild a page over the files of two
experiments.  ``sim.show(html=...)`` takes a page's path, as ``sim show --html`` does, and never
writes over a folder's ``index.html``.  A stop (SIGTERM, a second Ctrl-C) while an experiment
writes its report leaves no half report beside the kept chunks, says how to finish, and exits
as a stopped run does (143 for SIGTERM).

Every command here plays Puluc, 200 games a variant on one job, in this process."""
import json
import os
import shutil
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

import sim
from sim.cli import cli

GAMES = ["--games", "200", "--jobs", "1", "-q"]
COMPARE = ["compare", "puluc", "--variant", "base:", "--variant", "nine:track=9", *GAMES]
SWEEP = ["sweep", "puluc", "--param", "track=10..11", *GAMES]


def _sim(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _tree(d: Path) -> dict:
    """Every file under ``d`` (the lock file aside) with its size and time stamp."""
    return {str(p.relative_to(d)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(d.rglob("*")) if p.is_file() and p.name != ".lock"}


def _refused(r, *words) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("sim: error:"), r.output
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """A finished compare's folder (copied by each test that writes near it)."""
    d = tmp_path_factory.mktemp("compared") / "D"
    r = _sim(*COMPARE, "-o", d)
    assert r.exit_code == 0, r.output
    return d


def _copy(compared, tmp_path) -> Path:
    d = tmp_path / "D"
    shutil.copytree(compared, d)
    return d


# ------------------------------------------------------------------ item 1
def test_another_kind_of_experiment_into_a_compare_folder_is_refused(compared, tmp_path):
    d = _copy(compared, tmp_path)
    before = _tree(d)
    _refused(_sim(*SWEEP, "-o", d), "holds a comparison", "choose another --out")
    assert _tree(d) == before  # before: exit 0, and D held the sweep beside the compare's figure


def test_the_same_experiment_with_other_settings_is_refused(compared, tmp_path):
    d = _copy(compared, tmp_path)
    before = _tree(d)
    line = _refused(_sim(*COMPARE[:-5], "--games", "300", *COMPARE[-3:], "-o", d), "other settings")
    assert "--games 300 here, 200 there" in line
    line = _refused(_sim("compare", "puluc", "--variant", "base:", "--variant", "ten:track=10", *GAMES, "-o", d),
                    "other settings")
    assert "--variant" in line
    assert _tree(d) == before


def test_a_finished_experiment_is_not_played_over(compared, tmp_path):
    d = _copy(compared, tmp_path)
    before = _tree(d)
    # the same settings, however typed (2e2 games, another number of jobs): already there
    line = _refused(_sim(*COMPARE[:-5], "--games", "2e2", "--jobs", "2", "-q", "-o", d), "finished")
    assert "sim report" in line
    assert _tree(d) == before


def test_two_processes_into_one_folder_at_once(tmp_path):
    """The second of two experiments into one folder at once is refused while the first holds
    the folder's lock (here the test holds it, as the first process would)."""
    from sim.lock import RunLock
    d = tmp_path / "D"
    d.mkdir()
    with RunLock(d):
        _refused(_sim(*COMPARE, "-o", d), "in use by another sim process")
    assert _tree(d) == {}
    assert d.is_dir()  # not removed: the other process works there


def test_a_refused_experiment_leaves_an_empty_folder_empty(tmp_path, monkeypatch):
    """A refusal from inside the experiment (after the record is written) takes the record
    back: the folder can then take another experiment."""
    import analysis.experiment_runs as runs
    d = tmp_path / "D"
    d.mkdir()

    def refuse(*a, **k):
        raise sim.UsageError("no")
    monkeypatch.setattr(runs, "compare", refuse)
    _refused(_sim(*COMPARE, "-o", d), "no")
    assert _tree(d) == {}
    monkeypatch.undo()
    r = _sim(*SWEEP, "-o", d)
    assert r.exit_code == 0, r.output


def test_report_refuses_a_folder_mixing_two_experiments(compared, tmp_path):
    """Such folders came from an earlier sim: a skill table written over a compare left the
    compare's ``experiment.json`` beside the table's ``skill.json`` and manifest."""
    d = _copy(compared, tmp_path)
    e = tmp_path / "E"
    r = _sim("skill", "puluc", *GAMES, "-o", e)
    assert r.exit_code == 0, r.output
    for name in ("skill.json", "manifest.json", "index.html"):
        shutil.copy(e / name, d / name)
    (d / ".experiment.json").unlink(missing_ok=True)  # as an earlier sim left it: no record
    before = _tree(d)
    _refused(_sim("report", d), "more than one experiment")  # before: the compare's page, exit 0
    assert _tree(d) == before
    # a record of another kind than the result it names
    f = _copy(compared, tmp_path / "F")
    rec = json.loads((f / ".experiment.json").read_text())
    (f / ".experiment.json").write_text(json.dumps({**rec, "kind": "skill"}))
    _refused(_sim("report", f), "more than one experiment")
    # the compare's own folder is rebuilt
    r = _sim("report", _copy(compared, tmp_path / "G"))
    assert r.exit_code == 0, r.output


def test_a_folder_of_an_earlier_sim_is_judged_by_its_files(compared, tmp_path):
    d = _copy(compared, tmp_path)
    (d / ".experiment.json").unlink(missing_ok=True)
    _refused(_sim(*SWEEP, "-o", d), "holds a comparison")
    _refused(_sim(*COMPARE, "-o", d), "without a record of its settings")


# ------------------------------------------------------------------ item 12
def test_sigterm_while_the_report_is_written(tmp_path, monkeypatch):
    """SIGTERM as the compare writes its report, after its first figure: exit 143 (not 130
    and "aborted"), the line says how to finish, no lone figure is left beside the kept chunks;
    the same command then finishes it from those chunks."""
    import analysis.experiment_report as er
    import sim.stops
    real = er.write_compare_report

    def stopped_midway(res, out_dir):
        (Path(out_dir) / "differences.png").write_bytes(b"a figure")
        os.kill(os.getpid(), signal.SIGTERM)  # the command's handler: a clean stop
        return real(res, out_dir)

    d = tmp_path / "D"
    monkeypatch.setattr(er, "write_compare_report", stopped_midway)
    sigint = signal.getsignal(signal.SIGINT)
    try:
        r = _sim(*COMPARE, "--chunk-size", "100", "-o", d)
    finally:
        sim.stops._terminated.clear()
        signal.signal(signal.SIGINT, sigint)
    assert r.exit_code == 143, (r.exit_code, r.output)
    assert "aborted" not in r.output
    assert "Finish it with the same command into the same folder" in r.output
    assert sorted(p.name for p in d.iterdir() if not p.name.startswith(".")) == []
    assert any((d / ".chunks").rglob("*.json"))
    monkeypatch.undo()
    r = _sim(*COMPARE, "--chunk-size", "100", "-o", d)
    assert r.exit_code == 0, r.output
    assert "resumed" in r.output
    assert (d / "index.html").is_file() and not (d / ".chunks").exists()


def test_a_second_ctrl_c_while_the_report_is_written(tmp_path, monkeypatch):
    """The first Ctrl-C stopped the games; a second one comes while the partial report is
    written: exit 130 with the line that says how to finish (it was "sim: aborted"), and no
    part of the report left beside the kept chunks."""
    import analysis.experiment_report as er

    def stopped_midway(res, out_dir):
        (Path(out_dir) / "differences.png").write_bytes(b"a figure")
        raise KeyboardInterrupt
    monkeypatch.setattr(er, "write_compare_report", stopped_midway)
    d = tmp_path / "D"
    sigint = signal.getsignal(signal.SIGINT)
    try:
        r = _sim(*COMPARE, "--chunk-size", "100", "-o", d)
    finally:
        signal.signal(signal.SIGINT, sigint)
    assert r.exit_code == 130, (r.exit_code, r.output)
    assert "aborted" not in r.output and "the report it had begun is removed" in r.output
    assert "Finish it with the same command into the same folder" in r.output
    assert sorted(p.name for p in d.iterdir() if not p.name.startswith(".")) == []
    assert signal.getsignal(signal.SIGINT) == sigint  # the command leaves Ctrl-C as it found it


def test_a_stopped_sim_process_ends_deaf_to_another_ctrl_c(monkeypatch):
    """``sim`` exiting with 130 or 143 ignores a further Ctrl-C while it ends (its threads
    finishing their chunk): no traceback, no death by SIGINT; any other exit leaves it be."""
    import sim.cli as cli_module
    sigint = signal.getsignal(signal.SIGINT)
    try:
        for code, ignored in ((130, True), (143, True), (0, False), (2, False)):
            signal.signal(signal.SIGINT, signal.default_int_handler)

            def ends(code=code):
                raise SystemExit(code)
            monkeypatch.setattr(cli_module, "cli", ends)
            with pytest.raises(SystemExit):
                cli_module.main()
            assert (signal.getsignal(signal.SIGINT) == signal.SIG_IGN) == ignored, code
    finally:
        signal.signal(signal.SIGINT, sigint)


def test_a_terminated_command_exits_143_whatever_it_was_doing(monkeypatch, tmp_path):
    """Click turns a KeyboardInterrupt (SIGTERM's Terminated is one) escaping a command into
    Abort: the exit status is still 143, and the line says terminated."""
    import sim.commands.info as info
    from sim.stops import Terminated

    def stop(*a, **k):
        raise Terminated()
    monkeypatch.setattr(info, "_seed", stop)
    r = _sim("show", "puluc")
    assert r.exit_code == 143, (r.exit_code, r.output)
    assert "terminated" in r.output and "aborted" not in r.output


# ------------------------------------------------------------------ item 2
def test_show_html_refuses_a_folder_and_keeps_its_index(tmp_path):
    page = tmp_path / "index.html"
    page.write_text("mine")
    with pytest.raises(sim.UsageError, match="not a file in an existing folder"):
        sim.show("puluc", 0, html=tmp_path)
    assert page.read_text() == "mine"
    with pytest.raises(sim.UsageError, match="not a file in an existing folder"):
        sim.show("puluc", 0, html=tmp_path / "no such folder" / "game.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html"]


def test_show_html_writes_the_page_it_names(tmp_path):
    """As ``sim show --html game0``: the page is that file (it was a folder ``game0`` holding
    an ``index.html``)."""
    sim.show("puluc", 0, html=tmp_path / "game0")
    assert (tmp_path / "game0").is_file()
    assert "<html" in (tmp_path / "game0").read_text().lower()


def test_the_apis_experiments_do_not_write_over_an_experiment_folder(compared, tmp_path):
    """sim.compare / sim.sweep(out=D) wrote their report over a folder that held another
    experiment (the command line refuses it): the API writes into a new or empty folder."""
    d = _copy(compared, tmp_path)
    before = _tree(d)
    with pytest.raises(sim.UsageError, match=r"^out= .* holds a comparison of sim"):
        sim.sweep("puluc", {"track": [10, 11]}, games=200, jobs=1, out=d)
    with pytest.raises(sim.UsageError, match="holds a comparison of sim"):
        sim.compare("puluc", {"base": {}, "nine": {"track": 9}}, games=200, jobs=1, out=d)
    assert _tree(d) == before
    fresh = tmp_path / "E"
    fresh.mkdir()
    res = sim.compare("puluc", {"base": {}, "nine": {"track": 9}}, games=200, jobs=1, out=fresh)
    assert (fresh / "index.html").is_file() and res.verdicts
