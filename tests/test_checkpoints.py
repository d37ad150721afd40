"""Experiments keep their finished chunks (analysis.checkpoints): a stopped comparison,
skill table or ladder, run again into the same folder, plays only the rest and gives the
figures of an uninterrupted run, bit for bit."""
import json

import pytest
from click.testing import CliRunner

import analysis.experiment_runs as ER
from analysis.checkpoints import FOLDER, checkpoints
from analysis.experiment_runs import compare
from analysis.ladder import skill_ladder, to_json, verdict
from sim.cli import cli

VARIANTS = [("base", {}), ("nine", {"track": 9})]


@pytest.fixture
def stop_at(monkeypatch):
    """Ctrl-C as the chunk starting at game ``start`` begins (sequential backend: in this
    process); counts the chunks played."""
    played = []
    real = ER._play_arms

    def arm(start):
        def fake(*args):
            if args[-2] == start:
                raise KeyboardInterrupt
            played.append(args[-2])
            return real(*args)
        monkeypatch.setattr(ER, "_play_arms", fake)
    arm(-1)
    return arm, played


def _cmp(**kw):
    return compare("puluc", VARIANTS, 1200, bots=("greedy", "random"), seed=5, jobs=1,
                   chunk_size=200, **kw)


def _figures(res):
    return {k: v.tolist() for k, v in res.stats.items() if hasattr(v, "tolist")}


def test_stopped_compare_resumes_to_the_same_figures(tmp_path, stop_at):
    arm, played = stop_at
    whole = _cmp()
    played.clear()
    arm(600)
    with checkpoints(tmp_path):
        first = _cmp()
    assert first.partial and played == [0, 200, 400]
    kept = list((tmp_path / FOLDER).rglob("*.json"))
    assert len(kept) == 3
    played.clear()
    arm(-1)
    with checkpoints(tmp_path):
        again = _cmp()
    assert not again.partial
    assert played == [600, 800, 1000]  # only the rest is played
    assert _figures(again) == _figures(whole)
    assert [s.to_dict() for s in again.summaries] == [s.to_dict() for s in whole.summaries]


def test_damaged_or_foreign_chunks_are_played_again(tmp_path, stop_at):
    arm, played = stop_at
    with checkpoints(tmp_path):
        whole = _cmp()
    files = sorted((tmp_path / FOLDER).rglob("*.json"))
    assert len(files) == 6
    files[0].write_text(files[0].read_text()[:-20])             # truncated
    rec = json.loads(files[1].read_text())
    rec["body"]["stats"]["n"] += 1                               # edited: checksum fails
    files[1].write_text(json.dumps(rec))
    played.clear()
    with checkpoints(tmp_path):
        again = _cmp()
    assert sorted(played) == sorted(int(f.stem.split("-")[0]) for f in files[:2])
    assert _figures(again) == _figures(whole)
    # another seed is another experiment: nothing of this one is reused
    played.clear()
    with checkpoints(tmp_path):
        compare("puluc", VARIANTS, 1200, bots=("greedy", "random"), seed=6, jobs=1, chunk_size=200)
    assert len(played) == 6


def test_stopped_ladder_has_no_verdict_and_resumes(tmp_path, stop_at):
    arm, played = stop_at
    whole = skill_ladder("puluc", ["random", "greedy"], 400, seed=2, jobs=1, chunk_size=200)
    arm(200)
    with checkpoints(tmp_path):
        cut = skill_ladder("puluc", ["random", "greedy"], 400, seed=2, jobs=1, chunk_size=200)
    assert cut.partial and "no verdict" in " ".join(verdict(cut))
    arm(-1)
    played.clear()
    with checkpoints(tmp_path):
        again = skill_ladder("puluc", ["random", "greedy"], 400, seed=2, jobs=1, chunk_size=200)
    assert to_json(again) == to_json(whole)
    assert len(played) == 4 * 2 - 1  # 2 rungs + 2 seatings of the pair, 2 chunks each; one kept


def test_cli_says_how_to_finish_and_cleans_up(tmp_path, stop_at):
    arm, _ = stop_at
    out = tmp_path / "cmp"
    args = ["compare", "puluc", "--variant", "base:", "--variant", "nine:track=9", "--games", "800",
            "--chunk-size", "200", "--jobs", "1", "-q", "-o", str(out)]
    arm(400)
    r = CliRunner().invoke(cli, args)
    assert r.exit_code != 0
    assert "Finish it with the same command into the same folder" in r.output
    assert (out / FOLDER).is_dir()
    arm(-1)
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert not (out / FOLDER).exists()  # a finished experiment keeps no chunks
    assert (out / "index.html").is_file()


def test_a_folder_with_only_kept_chunks_is_an_experiment(tmp_path):
    from sim.validate import dir_kind
    (tmp_path / FOLDER).mkdir()
    assert dir_kind(tmp_path) == "experiment"
