"""The words reports put on numbers (analysis/wording.py), over synthetic inputs."""
import math

import pytest

from analysis.wording import (BOTS_NOTE, WEAK_PAIRING, edge_phrase, pairing_phrase, size_of,
                              variance_reduction)


@pytest.mark.parametrize("d, lo, hi, kind", [
    (0.0, -0.4, 0.6, "none"),            # nothing detected, and nothing that matters is possible
    (0.5, -2.1, 3.0, "unclear"),         # nothing detected, but the interval is wide
    (-0.28, -0.45, -0.11, "negligible"),  # significant, yet under a point
    (0.3, 0.1, 0.5, "negligible"),
    (2.0, 1.2, 2.8, "small"),
    (-2.7, -3.3, -2.1, "small"),
    (5.2, 4.0, 6.4, "medium"),
    (16.0, 14.7, 18.1, "large"),
    (-24.9, -26.0, -23.8, "large"),
    (float("nan"), float("nan"), float("nan"), "unclear"),
])
def test_size_of(d, lo, hi, kind):
    assert size_of(d, lo, hi) == kind


def test_a_tiny_real_edge_and_a_large_one_do_not_read_alike():
    small = edge_phrase(-0.0028, -0.0045, -0.0011, scale=100)
    large = edge_phrase(0.16, 0.147, 0.181, scale=100)
    assert small == "a real but small disadvantage of 0.3 points: too small to matter in play"
    assert large == "a large advantage of 16.0 points"
    assert "real advantage" not in large
    assert edge_phrase(-0.052, -0.064, -0.04, scale=100) == "a medium disadvantage of 5.2 points"
    assert edge_phrase(0.021, 0.012, 0.028, scale=100) == "a small but real advantage of 2.1 points"


def test_a_tiny_real_edge_says_which_way():
    """A first player at 49.6% (interval excluding 50%) is at a disadvantage: the words
    name the direction, not a bare "edge" that reads as the first player's."""
    below = edge_phrase(-0.004, -0.006, -0.002, scale=100)
    above = edge_phrase(0.004, 0.002, 0.006, scale=100)
    assert "disadvantage of 0.4 points" in below and "edge" not in below
    assert "advantage of 0.4 points" in above and "disadvantage" not in above
    t = edge_phrase(-0.004, -0.006, -0.002, scale=100, noun="change", up="rise", down="fall")
    assert t.startswith("a real but small fall of 0.4 points")


def test_no_edge_says_whether_the_run_could_have_seen_one():
    assert edge_phrase(0.001, -0.004, 0.006, scale=100).startswith("no edge that matters")
    wide = edge_phrase(0.005, -0.021, 0.03, scale=100)
    assert wide.startswith("no edge this run can detect") and "more games" in wide
    assert "-2.1 to +3.0 points" in wide


def test_words_other_than_edge_and_units():
    t = edge_phrase(-0.03, -0.04, -0.02, scale=100, noun="change", up="rise", down="fall")
    assert t == "a medium fall of 3.0 points"
    assert edge_phrase(0.2, 0.1, 0.3, noun="change", unit="rounds", up="rise").endswith(
        "rise of 0.2 rounds: too small to matter in play")


def test_variance_reduction():
    assert variance_reduction(0.25, 0.25, 0.05) == pytest.approx(10.0)
    assert variance_reduction(0.25, 0.25, 0.5) == pytest.approx(1.0)     # independent arms
    assert variance_reduction(0.25, 0.25, 0.0) == math.inf              # every difference alike
    assert math.isnan(variance_reduction(0.0, 0.0, 0.0))


def test_pairing_words():
    weak = pairing_phrase(0.52, 1.3)
    assert "pairing is weak here: the arms share little; intervals are close to those of " \
           "independent runs" in weak and "52.0% of paired games had the same outcome" in weak
    strong = pairing_phrase(0.95, 12.0)
    assert "weak" not in strong and "12.0-fold" in strong
    assert "weak" not in pairing_phrase(None, WEAK_PAIRING)
    assert "no width" in pairing_phrase(1.0, math.inf)


def test_the_bots_note_says_figures_depend_on_the_bots():
    assert "depend on the bots" in BOTS_NOTE and "game length" in BOTS_NOTE


def test_a_run_names_its_bots_and_end_reasons_in_every_file(tmp_path):
    import json

    from click.testing import CliRunner

    from sim.cli import cli
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["puluc", "--games", "500", "--bots", "greedy,random", "--set",
                                 "cap=40", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    names = {"0": "all enemy warriors killed", "1": "horizon reached: draw"}
    assert json.loads((out / "manifest.json").read_text())["end_reasons"] == names
    assert json.loads((out / "summary.json").read_text())["end_reasons"] == names
    page = (out / "index.html").read_text()
    assert "Bots: Jade: greedy, Cinnabar: random." in page and "depend on the bots" in page
    # a 40-cast cap leaves draws: the terminal gives the rates among decisive games too
    assert "1st player, decisive" in r.output and "These figures depend on the bots" in r.output
    assert "stopped by horizon" in r.output


def test_an_sprt_decision_is_a_sentence_with_its_direction_and_size():
    """The SPRT ended with "LLR ... -> H0": now it says what was decided."""
    from analysis.wording import sprt_sentence
    assert sprt_sentence("H0", 0.01, "first player wins", 0.001) == (
        "no difference of 0.01 or more in first player wins (between -0.01 and +0.01)")
    up = sprt_sentence("H1", 0.01, "first player wins", 0.034)
    assert up.startswith("a difference of at least 0.01") and "higher than the reference by about 0.034" in up
    assert "lower than the reference" in sprt_sentence("H1", 0.01, "first player wins", -0.02)
    assert sprt_sentence(None, 0.01, "m", 0.0).startswith("undecided")


@pytest.mark.parametrize("p, text", [(0.0, "< 0.0001"), (3e-9, "< 0.0001"), (0.0001, "0.0001"),
                                     (0.04213, "0.0421"), (1.0, "1"), (float("nan"), ""), (None, "")])
def test_a_p_value_never_prints_as_a_bare_zero(p, text):
    from analysis.wording import p_text
    assert p_text(p) == text


@pytest.mark.parametrize("x, rate, want", [
    (0.0748, True, "+7.48 pts"), (-0.0381, True, "-3.81 pts"), (-0.000031, True, "-0.0031 pts"),
    (0.0, True, "0 pts"), (-0.0, True, "0 pts"), (0.03421, False, "+0.0342"), (-1.2512, False, "-1.251"),
    (12.345, False, "+12.35"), (float("nan"), True, ""),
])
def test_a_difference_is_signed_and_in_points_never_minus_zero(x, rate, want):
    from analysis.wording import diff_text
    assert diff_text(x, rate) == want


@pytest.mark.parametrize("x, rate, want", [
    (0.51234, True, "51.23%"), (79.84471, False, "79.84"), (163.64, False, "163.6"),
    (1630.44, False, "1,630.4"), (0.51234, False, "0.5123"), (float("inf"), False, ""),
])
def test_a_value_has_about_four_figures(x, rate, want):
    from analysis.wording import value_text
    assert value_text(x, rate) == want


def test_a_mean_length_with_horizon_stopped_games_also_gives_the_games_ended_by_the_rules():
    """Horizon-stopped games count at the cap in the headline's length figures; the sentence
    then gives, beside them, the mean of the games that ended by the rules (from the rows)."""
    from analysis.metrics import ended_mean, outcome_counts
    from analysis.report import length_caveat
    from sim.runner import execute
    from sim.spec import make_spec
    spec = make_spec("puluc", 400, {"horizon": 30}, None, None, 3)
    res = execute(spec, jobs=1, rows="memory", progress=False)
    rows = res.frame
    ended = rows.loc[~rows["capped"], spec.game.length].mean()
    assert 0 < rows["capped"].mean() < 1
    assert ended_mean(res.summary, spec.game.length) == pytest.approx(ended)
    text = length_caveat(outcome_counts(res.summary), spec.game.length_unit,
                         ended_mean(res.summary, spec.game.length))
    assert f"that ended by the rules lasted {ended:.1f} {spec.game.length_unit} on average" in text
    assert length_caveat({"capped": 0}, "casts", ended) == ""


@pytest.mark.parametrize("p, want", [
    ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),          # step-down: sorted, (m - rank) * p, monotone
    ([0.001, 0.5], [0.002, 0.5]),
    ([0.2, float("nan"), 0.6], [0.4, float("nan"), 0.6]),
    ([0.9, 0.8], [1.0, 1.0]),                          # capped at 1, never below an earlier one
])
def test_holm_adjusts_as_the_method_says(p, want):
    from analysis.wording import holm
    got = holm(p)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g != g and w != w) or g == pytest.approx(w)


@pytest.mark.parametrize("ps, says", [
    ([0.001, 0.03, 0.5], "2 of 3 differ at 95% each; after Holm's correction for 3 comparisons 1 remains ('a')"),
    ([0.02, 0.03, 0.5], "none remains: no variant can be told from the reference"),
    ([0.2, 0.3, 0.5], "None of the 3 differs at 95% even on its own."),
    ([1e-6, 1e-6, 1e-6], "3 remain ('a', 'b', 'c')"),
])
def test_several_comparisons_are_counted_before_a_difference_is_claimed(ps, says):
    from analysis.wording import multiple_comparisons_sentence
    text = multiple_comparisons_sentence(["a", "b", "c"], ps, "first player score")
    assert says in text and "about 0.15 of them would show a difference by chance alone" in text
    assert multiple_comparisons_sentence(["a"], [0.001], "x") is None     # one comparison: nothing to count
