"""``sim tune``: bad input refused in one line (exit 2), a tiny search on Puluc that finds the
known direction, the same result from the same seed, and the variants file it writes read
back by ``sim compare``.  Small budgets, one worker: the whole file runs in seconds."""
import pytest
from click.testing import CliRunner

from analysis.experiment_runs import load_variants_file
from analysis.tune import parse_params, parse_targets, tune
from sim.cli import cli
from sim.games import get


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.parametrize("args, words", [
    (["--param", "trak=5..9"], "did you mean 'track'"),
    (["--param", "horizon=100..200"], "not a rule"),
    (["--param", "exit=1..3"], "list its values"),
    (["--param", "track=9..5"], "LO < HI"),
    (["--param", "track=5.5..9"], "whole number"),
    (["--param", "track=2..9"], "must be in"),
    (["--param", "track=9"], "at least two values"),
    (["--param", "track=5..9", "--param", "track=5..7"], "twice"),
    (["--param", "exit=any,any"], "twice"),
    (["--param", "track"], "NAME=LO..HI"),
    (["--param", "track=5..9", "--target", "lenght=min"], "did you mean 'length'"),
    (["--param", "track=5..9", "--target", "length=fair"], "'fair' is for a side's share"),
    (["--param", "track=5..9", "--target", "length<=min"], "min and max go with"),
    (["--param", "track=5..9", "--target", "length=9..3"], "LO < HI"),
    (["--param", "track=5..9", "--target", "length=abc"], "not a number"),
    (["--param", "track=5..9", "--target", "length"], "METRIC=VALUE"),
    (["--param", "track=5..9"], "at least one --target"),
    (["--target", "length=min"], "at least one --param"),
    (["--param", "track=5..9", "--target", "length=min", "--set", "track=9"], "either tuned or held"),
    (["--param", "track=5..9", "--target", "length=min", "--budget", "abc"], "--budget must be"),
    (["--param", "track=5..9", "--target", "length=min", "--budget", "100"], "too small"),
    (["--param", "track=5..9", "--target", "length=min", "--final", "0"], "--final must be"),
    (["--param", "track=5..9", "--target", "jade=fair", "--players", "3"], "players"),
])
def test_bad_input_is_one_line_and_exit_2(args, words, tmp_path):
    out = tmp_path / "t"
    if "--target" not in args and "at least one --target" not in words:
        args = [*args, "--target", "length=min"]
    r = run("tune", "puluc", *args, "--out", str(out), "-q")
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0], r.output
    assert not out.exists()


def test_an_analysis_switch_is_refused():
    with pytest.raises(Exception, match="analysis switch"):
        parse_params(["neutral=none,pirate_0"], get("batam"))


def test_metric_names_follow_the_run_summary():
    t = parse_targets(["first_player=fair", "red=25%", "seat_spread<=0.02", "rounds=10..20",
                       "lead_changes=max"], get("batam"), 4)
    assert t[0].value == pytest.approx(0.25) and t[0].fair
    assert t[1].value == pytest.approx(0.25)
    assert t[3].metric.name == "length" and t[3].op == "range"
    assert t[4].op == "max"


def test_a_tiny_tune_finds_the_shorter_board_and_warns_at_the_edge():
    res = tune("puluc", ["track=6..14"], ["length=min"], budget=12_000, jobs=1, final_games=4000)
    assert res.final[1][1]["track"] == 6           # fewer spaces, shorter games
    rb, best = res.final[0][2], res.final[1][2]
    assert best.n == rb.n == 4000
    assert any("edge of the range" in n for n in res.notes)
    assert any("4,000 fresh games" in n for n in res.notes)
    assert res.search_games <= 12_000
    assert res.verdict[0].startswith("Best: track=6 makes length")


def test_the_same_seed_gives_the_same_search():
    kw = dict(budget=6000, jobs=1, final_games=1000, seed=7)
    a = tune("puluc", ["track=6..16", "exit=any,pile"], ["first_player=fair", "length=60..70"], **kw)
    b = tune("puluc", ["track=6..16", "exit=any,pile"], ["first_player=fair", "length=60..70"], **kw)
    assert [(c.values, c.moments.n) for c in a.candidates] == [(c.values, c.moments.n) for c in b.candidates]
    assert a.verdict == b.verdict
    assert a.manifest["sampler"] == "NSGAIISampler"


def test_the_variants_file_goes_into_sim_compare(tmp_path):
    out = tmp_path / "tune"
    r = run("tune", "puluc", "--param", "track=6..10", "--target", "length=min", "--budget", "6000",
            "--final", "1000", "-j", "1", "--out", str(out), "-q")
    assert r.exit_code == 0, r.output
    variants = load_variants_file(out / "variants.toml")
    assert variants[0] == ("rulebook", {})
    assert variants[1][0] == "tuned_1" and variants[1][1]["track"] == 6
    html = (out / "index.html").read_text()
    assert "every candidate evaluated" in html and "tune_response_0_0.png" in html
    r = run("compare", "puluc", "--variants", str(out / "variants.toml"), "--games", "500", "-j", "1",
            "--out", str(tmp_path / "cmp"), "-q")
    assert r.exit_code == 0, r.output
    # sim report rebuilds a tune folder from tune.json: the same page, but for the timings
    before = html
    (out / "index.html").unlink()
    r = run("report", str(out))
    assert r.exit_code == 0, r.output

    def strip(h):
        return [x for x in h.splitlines() if "Manifest" not in x and "seconds" not in x]
    assert strip((out / "index.html").read_text()) == strip(before)


def test_a_target_with_a_known_optimum_is_found():
    """Puluc's length grows with the track by about 5 turns a space: aim at the length that
    track=12 gives (measured apart, on another seed) and tune must come back to 12."""
    from analysis.tune import Candidate, _play_batch, estimate
    game = get("puluc")
    ref = Candidate(0, {"track": 12})
    spaces = parse_params(["track=6..20"], game)
    _play_batch(game, [ref], spaces, 2, None, 99, 0, 20_000, 1, "sequential", {})
    length = estimate(parse_targets(["length=min"], game, 2)[0].metric, ref.moments, 2)[0]
    res = tune("puluc", spaces, [f"length={length:.3f}"], budget=40_000, jobs=1, final_games=5000)
    assert res.final[1][1]["track"] == 12, res.verdict


def test_ctrl_c_ends_the_search_and_the_verdict_rests_on_what_it_measured(monkeypatch):
    """A first Ctrl-C during the search (here: the third batch of games) keeps every candidate
    already measured and goes on to the re-play and the verdict, saying so."""
    import analysis.tune as T
    real, calls = T._play_batch, []

    def play(game, cands, *a, **k):
        calls.append(len(cands))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(game, cands, *a, **k)

    monkeypatch.setattr(T, "_play_batch", play)
    res = tune("puluc", ["track=6..14"], ["length=min"], budget=12_000, jobs=1, final_games=1000)
    assert res.candidates and all(c.moments.n > 0 for c in res.candidates)
    assert any("stopped by Ctrl-C" in n for n in res.notes)
    assert res.final[0][2].n == 1000 and len(calls) == 4      # the re-play ran after the stop


def test_ctrl_c_before_any_candidate_is_measured_stops_everything(monkeypatch):
    import analysis.tune as T

    def play(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(T, "_play_batch", play)
    with pytest.raises(KeyboardInterrupt):
        tune("puluc", ["track=6..14"], ["length=min"], budget=12_000, jobs=1, final_games=1000)


def test_a_best_inside_its_interval_says_it_cannot_be_told_from_the_target(tmp_path):
    """Puluc's first player is within a point or two of fair on every track: at 1,000 games a
    candidate's interval (about +-3 points) holds the target, and the verdict says so (it
    printed only "Best: ... 50.1% [48.0%, 52.3%]"); the loss column has its unit."""
    r = run("tune", "puluc", "--param", "track=7..15", "--target", "first_player=fair", "--budget", "6000",
            "--final", "1000", "-j", "1", "--seed", "3", "--out", str(tmp_path / "t"), "-q")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "t" / "tune.txt").read_text()
    line = next(x for x in text.splitlines() if "cannot be told from the target" in x)
    assert "50.0% (fair share) at 1,000 games: the target lies inside its 95% interval" in line
    assert "points from the target" in line and "rulebook's values meet it too" in line
    html = (tmp_path / "t" / "index.html").read_text()
    assert "loss (distance from the target: points for a rate)" in html and " points</td>" in html


def test_loss_text_has_the_metric_unit():
    from analysis.tune import loss_text
    fair, length = parse_targets(["first_player=fair", "length=60"], get("puluc"), 2)
    assert loss_text(fair, 0.0234) == "2.34 points"
    assert loss_text(length, 3.25) == "3.25" and loss_text(length, float("nan")) == "n/a"
