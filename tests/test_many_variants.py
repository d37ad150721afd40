"""A comparison of many variants stays within bounded memory: a chunk task reduces its arms
one at a time (its peak does not grow with their number beyond each arm's sums and summary),
and the differences figure draws at most ``FOREST_MAX`` variants (its canvas grew with every
one: 2,000 variants drew about a gigabyte)."""
import struct
import tracemalloc

import pytest

import analysis.experiment_report as R
import analysis.experiment_runs as E
import sim.games
from analysis.experiment_report import forest_variants, write_compare_report


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(sim.games.REGISTRY, "toy", "tests.toy_game")
    return sim.games.get("toy")


def _peak(arms_n, games=3000) -> int:
    """tracemalloc's peak of one Puluc chunk task of ``arms_n`` arms (the kernel's own
    columns are not traced: what is measured is the reduction)."""
    game = sim.games.get("puluc")
    arms, _ = E.build_arms(game, [(f"t{k}", {"track": 7 + k}) for k in range(arms_n)], None, None, 1, games)
    ctxs = [a.spec.ctx for a in arms]
    specs = [(*game.bot_arrays(a.spec.bots), a.swapped) for a in arms]
    E._play_arms("puluc", ctxs[:1], specs[:1], 2, 1, 0, 10)  # compiled, imports done
    tracemalloc.start()
    try:
        E._play_arms("puluc", ctxs, specs, 2, 1, 0, games)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_chunk_tasks_peak_memory_does_not_grow_with_the_arms():
    few, many = _peak(3), _peak(30)
    # every arm's per-game values held at once (before): ten times the arms, ten times the peak
    assert many < 2.5 * few, (few, many)


def _png_height(path) -> int:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", data[20:24])[0]


def test_the_differences_figure_draws_at_most_forest_max_variants(toy, tmp_path, monkeypatch):
    import analysis.experiment_plots as P
    monkeypatch.setattr(P, "FOREST_MAX", 4)
    variants = [("base", {})] + [(f"t{k}", {"track": 4 + k}) for k in range(9)]
    write_compare_report(E.compare("toy", variants, 30, seed=2, jobs=1, progress=False), tmp_path / "many")
    write_compare_report(E.compare("toy", variants[:5], 30, seed=2, jobs=1, progress=False), tmp_path / "few")
    # as tall as the figure of FOREST_MAX variants, however many there are
    assert _png_height(tmp_path / "many" / "differences.png") == _png_height(tmp_path / "few" / "differences.png")
    assert "4 of 9 variants" in (tmp_path / "many" / "index.html").read_text()
    assert "t8" in (tmp_path / "many" / "metrics.csv").read_text()  # every variant is in the table


def test_forest_variants_keeps_the_reference_and_the_furthest(toy):
    import pandas as pd
    tab = pd.DataFrame({"variant": ["ref", "a", "b", "c"], "key": "m", "diff": [0.0, 0.1, -0.5, 0.2]})
    assert forest_variants(tab, "m", most=2) == ["ref", "b", "c"]
    assert forest_variants(tab, "m", most=3) == ["ref", "a", "b", "c"]


def test_the_report_builds_the_comparison_table_a_fixed_number_of_times(toy, tmp_path, monkeypatch):
    """Once per report, not once per variant (a table per variant of a table of every variant:
    2,000 variants took hours)."""
    res = E.compare("toy", [("base", {})] + [(f"t{k}", {"track": 4 + k}) for k in range(12)], 20, seed=2,
                    jobs=1, progress=False)
    calls = []
    real = R.compare_table
    monkeypatch.setattr(R, "compare_table", lambda r: calls.append(1) or real(r))
    write_compare_report(res, tmp_path / "out")
    R.compare_text(res)
    assert len(calls) <= 2, len(calls)


def test_more_variants_than_a_sweep_plays_are_refused_in_one_line(tmp_path):
    from click.testing import CliRunner

    from sim.cli import cli
    from sim.validate import GRID_MAX
    f = tmp_path / "many.toml"
    f.write_text("".join(f"[variants.v{k}]\ntrack = {7 + k % 9}\n" for k in range(GRID_MAX + 1)))
    r = CliRunner().invoke(cli, ["compare", "puluc", "--variants", str(f), "--games", "100", "-o",
                                 str(tmp_path / "out")])
    assert r.exit_code == 2
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert lines == [f"sim: error: {GRID_MAX + 1:,} variants: a comparison plays at most {GRID_MAX:,}, "
                     "as a sweep does (split them over several)"]
    assert not (tmp_path / "out").exists()
