"""``sim tune``'s report beside its targets (issue #45, item 4): the re-played candidates show
the games without a winner, the length and the horizon's share beside the rulebook's, a
notable move called out; the follow-up ``sim compare`` it suggests carries every option the
search ran with (bots, players, rules held fixed, seed), so following it replays the same
games with the same bots.  Puluc, small budgets, one worker."""
import json
import shlex

from click.testing import CliRunner

from analysis.tune_targets import _rows
from sim.cli import cli
from sim.games import get


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _compare_line(text: str) -> str:
    lines = [x for x in text.splitlines() if "sim compare " in x]
    assert lines, text
    return lines[0][lines[0].index("sim compare "):].strip().rstrip(".")


def test_the_follow_up_command_carries_every_option_and_replays_the_verdicts_games(tmp_path):
    out = tmp_path / "t"
    r = run("tune", "puluc", "--param", "track=6..10", "--target", "length=min", "--budget", "6000",
            "--final", "1000", "--bots", "greedy", "--set", "exit=pile", "--seed", "5", "-j", "1",
            "--out", str(out))
    assert r.exit_code == 0, r.output
    cmd = _compare_line(r.output)                       # printed on the terminal
    args = shlex.split(cmd)
    assert args[:3] == ["sim", "compare", "puluc"]
    pairs = set(zip(args, args[1:]))
    assert ("--bots", "greedy") in pairs and ("--players", "2") in pairs
    assert ("--set", "exit=pile") in pairs
    manifest = json.loads((out / "manifest.json").read_text())
    assert ("--seed", str(manifest["final_seed"])) in pairs and ("--games", "1000") in pairs
    # the page and tune.txt name the same command (the page: variants.toml beside it)
    html = (out / "index.html").read_text()
    assert "--bots greedy" in html and "--set exit=pile" in html
    assert "--bots greedy" in (out / "tune.txt").read_text()
    # following it plays the verdict's games with the tune's bots and rules: the same figures
    r = run(*args[1:], "-j", "1", "-q", "--out", str(tmp_path / "cmp"))
    assert r.exit_code == 0, r.output
    cm = json.loads((tmp_path / "cmp" / "manifest.json").read_text())
    assert cm["bots"] == ["greedy", "greedy"]
    assert all(v["rules_changed"].get("exit") == "pile" for v in cm["variants"])
    tj = json.loads((out / "tune.json").read_text())
    ex = json.loads((tmp_path / "cmp" / "experiment.json").read_text())
    li = ex["manifest"]["metrics"].index("casts")
    row = _rows(get("puluc"), 2).index("length")
    for k, f in enumerate(tj["final"]):   # the rulebook, then tuned_1...: their mean length, exactly
        tune_mean = f["moments"]["s"][row] / f["moments"]["n"]
        assert abs(ex["stats"]["sum"][k][li] / ex["stats"]["n"] - tune_mean) < 1e-9


def test_the_candidates_show_draws_length_and_horizon_beside_the_rulebook(tmp_path):
    """The rulebook's track is 11; every candidate of 6..8 makes the games notably shorter,
    and the verdict says so beside the target it was searched for."""
    out = tmp_path / "t"
    r = run("tune", "puluc", "--param", "track=6..8", "--target", "first_player=fair", "--budget", "6000",
            "--final", "1000", "-j", "1", "--out", str(out), "-q")
    assert r.exit_code == 0, r.output
    text = (out / "tune.txt").read_text()
    best = next(x for x in text.splitlines() if x.startswith("Best, beside the rulebook"))
    for words in ("games without a winner", "casts", "stopped by the horizon", "first side's share"):
        assert words in best, best
    assert "notably shorter" in best, best
    # the warning box repeats the notable move of the proposed candidate
    assert any("notably shorter" in x for x in text.splitlines() if x.startswith("note:")), text
    html = (out / "index.html").read_text()
    for head in ("games without a winner", "stopped by the horizon", "length (casts)"):
        assert head in html, head
