"""A property of the whole command line, tried with generated input (hypothesis).

Whatever values the options get (valid ones, and hostile ones of every type: text with
control characters, non-finite and huge numbers, negative counts, unknown names), a run
or a comparison ends in exactly one of two ways:

* status 0 and a report in the output folder, or
* status 2, one ``sim: error:`` line, and nothing written;

never a traceback, and never more than a bounded amount of memory.
"""
import os
import tempfile
import resource
from pathlib import Path

import pytest
from click.testing import CliRunner

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sim.cli import cli  # noqa: E402

MEMORY_BOUND = 600 * 2 ** 20   # a run of 120 games with its report needs far less


def _max_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


START = {"rss": _max_rss()}


@pytest.fixture(autouse=True, scope="module")
def _baseline():
    START["rss"] = _max_rss()   # where this module's tests begin

hostile_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=24)
hostile_number = st.one_of(
    st.integers(min_value=-10 ** 30, max_value=10 ** 30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e999", "0", "-1", "1e30", "", " ", "0x10", "1_0",
                     "9" * 500, "\x1b[2J", "1e-300"]))


PARAM_VALUES = {"track": ["4", "9", "11", "40"], "exit": ["any", "pile"], "lots": ["1", "4", "8"],
                "lot_p": ["0.3", "0.5"], "drag": ["forward", "reverse"], "cap": ["1", "60", "240"],
                "warriors": ["1", "5"]}
valid_set = st.sampled_from(sorted(PARAM_VALUES)).flatmap(
    lambda k: st.sampled_from(PARAM_VALUES[k]).map(lambda v: f"{k}={v}"))
hostile_set = st.one_of(hostile_text, st.tuples(st.sampled_from(sorted(PARAM_VALUES) + ["trak", ""]),
                                                st.one_of(hostile_text, hostile_number))
                        .map(lambda kv: f"{kv[0]}={kv[1]}"))
any_value = st.one_of(hostile_text, hostile_number)



def _not_a_long_run(value) -> bool:
    """A "hostile" --games that is in fact a valid count above the valid ones' 120 would run
    that many games: in a fresh clone's make test this module's run went on for over ten
    minutes with a run's lock in its output folder, such a count the likeliest cause (the
    generated value was not kept).  The property is about refusals and reports, not long runs."""
    from sim.spec import parse_games
    try:
        return parse_games(value) <= 120
    except Exception:
        return True


#: option -> (valid values, hostile values); None among the valid ones: the option left out
RUN_OPTIONS = {
    "--games": (st.integers(1, 120).map(str), any_value.filter(_not_a_long_run)),
    "--seed": (st.one_of(st.none(), st.integers(0, 2 ** 64 - 1).map(str)), any_value),
    "--set": (st.lists(valid_set, max_size=2), st.lists(hostile_set, min_size=1, max_size=2)),
    "--bots": (st.sampled_from([None, "random", "greedy", "random,greedy", "search:depth=1,random"]),
               any_value),
    "--players": (st.sampled_from([None, "2"]), any_value),
    "--chunk-size": (st.one_of(st.none(), st.integers(20, 500).map(str)), any_value),
    "--jobs": (st.just("1"), st.one_of(st.integers(-10 ** 20, -1).map(str), hostile_text)),
    "--backend": (st.sampled_from([None, "sequential"]), any_value),
    "--scheduler": (st.none(), st.one_of(hostile_text, st.sampled_from(
        ["tcp://127.0.0.1:1", "http://x:8787", "tcp://[::1", "tcp://h:0"]))),
    "raw": (st.sampled_from([None, "--raw", "--no-raw"]), st.just("--no-raw")),
    "--csv": (st.booleans(), st.just(True)),
}


@st.composite
def run_options(draw):
    """Every option valid (or left out) but at most one, which gets a hostile value."""
    bad = draw(st.sampled_from([None, None, None] + sorted(RUN_OPTIONS)))
    return {k: draw(hostile if k == bad else valid) for k, (valid, hostile) in RUN_OPTIONS.items()}


def _invoke(args):
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)
        out = Path(tmp) / "out"
        try:
            r = CliRunner().invoke(cli, args + ["--out", str(out), "-q"])
        finally:
            os.chdir(cwd)
        assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
        assert "Traceback" not in r.output, (args, r.output)
        # the most memory this process ever held (resident), against where the tests began
        grown = _max_rss() - START["rss"]
        assert grown < MEMORY_BOUND, (args, f"{grown / 2**20:.0f} MiB more than at the start")
        hypothesis.event(f"status {r.exit_code}")
        if r.exit_code == 0:
            assert (out / "index.html").is_file(), (args, r.output)
            assert (out / "manifest.json").is_file()
            assert (out / ("summary.json" if args[0] == "puluc" else "experiment.json")).is_file()
        else:
            assert r.exit_code == 2, (args, r.exit_code, r.output)
            lines = [x for x in r.output.splitlines() if x.strip()]
            assert len(lines) == 1 and lines[0].startswith("sim: error:"), (args, r.output)
            assert not any(ord(c) < 32 for c in lines[0]), (args, r.output)
            assert os.listdir(tmp) == [], (args, os.listdir(tmp))   # nothing written


@pytest.mark.slow
@settings(max_examples=24, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(opts=run_options())
def test_a_run_reports_or_refuses_in_one_line(opts):
    args = ["puluc"]
    for k, v in opts.items():
        if k == "--set":
            for a in v:
                args += ["--set", a]
        elif k == "raw":
            if v:
                args.append(v)
        elif k == "--csv":
            if v:
                args.append("--csv")
        elif v is not None:
            args += [k, v]
    _invoke(args)


VALID_VARIANTS = ["base:", "nine:track=9", "pile:exit=pile", "short:cap=60"]


@st.composite
def experiment_args(draw):
    """A comparison or a sweep, valid but for at most one hostile value."""
    bad = draw(st.sampled_from([None, None, "variant", "--games", "--chunk-size", "--jobs", "param"]))
    if draw(st.booleans()):
        param = draw(st.sampled_from(["track=7..9", "exit=any,pile", "track=9,11"]))
        if bad == "param":
            param = draw(st.one_of(hostile_text, st.sampled_from(
                ["track=nan..9", "track=1..1e9", "track=4..inf", "cap=1..1000000", "track=9..7"])))
        args = ["sweep", "puluc", "--param", param]
    else:
        names = draw(st.lists(st.sampled_from(VALID_VARIANTS), min_size=2, max_size=3, unique=True))
        if bad == "variant":
            names[-1] = draw(st.one_of(hostile_text, st.tuples(hostile_text, hostile_set)
                                       .map(lambda t: f"{t[0]}:{t[1]}")))
        args = ["compare", "puluc"]
        for v in names:
            args += ["--variant", v]
    for k, valid in (("--games", st.integers(1, 60).map(str)),
                     ("--chunk-size", st.one_of(st.none(), st.integers(10, 100).map(str))),
                     ("--jobs", st.just("1"))):
        hostile = any_value.filter(_not_a_long_run) if k == "--games" else any_value
        v = draw(hostile if k == bad else valid)
        if v is not None:
            args += [k, v]
    return args


@pytest.mark.slow
@settings(max_examples=10, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(args=experiment_args())
def test_an_experiment_reports_or_refuses_in_one_line(args):
    _invoke(args)
