"""The installed package: a wheel carries the games' data files, every game runs from it
outside the checkout, every package is listed, and Python 3.10 reads TOML with tomli."""
import importlib
import os
import subprocess
import sys
import sysconfig
import textwrap
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def test_every_package_and_every_seeds_folder_is_in_the_wheel_list():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(conf["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in ("sim", "analysis") for p in (ROOT / top).rglob("__init__.py")}
    assert found <= listed, f"add to pyproject.toml's packages: {sorted(found - listed)}"
    # a folder of data files only (analysis/templates) is a package too, else setuptools
    # warns on every install that it would be left out of a later version
    data = {".".join(p.parent.relative_to(ROOT).parts)
            for top in ("sim", "analysis") for ext in ("html", "toml", "md", "csv")
            for p in (ROOT / top).rglob(f"*.{ext}") if "__pycache__" not in p.parts}
    assert data <= listed, f"add to pyproject.toml's packages: {sorted(data - listed)}"
    assert "analysis.templates" in listed
    seeds = {f"sim._seeds.{p.name}" for p in (ROOT / "seeds").iterdir() if p.is_dir()}
    assert seeds | {"sim._seeds"} <= listed
    assert conf["package-dir"]["sim._seeds"] == "seeds"


def test_every_games_rules_document_is_found_through_the_seeds_folder():
    """The "How sure is this?" link and `sim rules` name the game's RULES.md: it must be
    the seeds folder's copy (the checkout's or the wheel's), never a path worked out from
    the source tree (which is wrong after a wheel install)."""
    from sim.games import get, names
    from sim.seeds import seeds_dir
    for name in names():
        doc = Path(get(name).rules_doc)
        assert doc == seeds_dir(name) / "RULES.md" and doc.is_file(), (name, doc)
    for path in (ROOT / "sim" / "games").rglob("*.py"):
        assert "parents[3]" not in path.read_text(), path


def test_the_seeds_are_found_in_a_checkout():
    from sim.seeds import root, seeds_dir
    assert root() == ROOT / "seeds" and (seeds_dir("maya") / "board.toml").is_file()


def test_toml_is_read_with_tomli_where_tomllib_is_missing(monkeypatch, tmp_path):
    """Python 3.10 has no tomllib: the helper takes the tomli backport (same API)."""
    import sim.toml
    fake = types.ModuleType("tomli")
    fake.loads, fake.TOMLDecodeError = tomllib.loads, tomllib.TOMLDecodeError
    fake.used = True
    monkeypatch.setitem(sys.modules, "tomllib", None)      # import tomllib -> ModuleNotFoundError
    monkeypatch.setitem(sys.modules, "tomli", fake)
    try:
        mod = importlib.reload(sim.toml)
        assert mod.tomllib is fake
        f = tmp_path / "b.toml"
        f.write_text("rows = 3\n")
        assert mod.load(f, "board") == {"rows": 3}
    finally:
        monkeypatch.undo()
        importlib.reload(sim.toml)
    for game in ("maya", "batam", "balam"):  # the games read their files through the helper only
        src = "".join(p.read_text() for p in (ROOT / "sim" / "games" / game).glob("*.py")
                      if p.name in ("__init__.py", "data.py"))
        assert "import tomllib" not in src, game


def _site_packages() -> str:
    return sysconfig.get_paths()["purelib"]


@pytest.mark.slow
def test_a_wheel_installed_elsewhere_runs_every_game(tmp_path):
    """`pip install .` (the README's recipe for Dask workers) must carry seeds/: build the
    wheel, install it without dependencies in a fresh virtual environment, and run every
    game there (Puluc through the command, with its report), from a folder outside the
    checkout.  The dependencies come from this
    environment's site-packages on PYTHONPATH (its .pth files, among them the checkout's
    editable install, are not processed there).  Kernels run uncompiled
    (NUMBA_DISABLE_JIT): the point is the data files, not the speed."""
    src = tmp_path / "src"
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        if (ROOT / f).is_file():
            (src / f).parent.mkdir(parents=True, exist_ok=True)
            (src / f).write_bytes((ROOT / f).read_bytes())
    dist = tmp_path / "dist"
    b = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(src)],
                       capture_output=True, text=True, timeout=600)
    if b.returncode != 0 and ("Could not find a version" in b.stderr or "connection" in b.stderr.lower()):
        pytest.skip("no package index to fetch setuptools for the build: " + b.stderr.strip()[-200:])
    assert b.returncode == 0, b.stderr
    wheel = next(dist.glob("boardsim-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                    str(wheel)], check=True, capture_output=True, timeout=600)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    script = textwrap.dedent(f"""
        import sim, sim.seeds
        from pathlib import Path
        assert Path(sim.__file__).is_relative_to({str(venv)!r}), sim.__file__
        assert sim.seeds.root() == Path(sim.__file__).parent / "_seeds", sim.seeds.root()
        from click.testing import CliRunner
        from sim import simulate
        from sim.cli import cli
        r = CliRunner().invoke(cli, ["puluc", "--games", "2", "--jobs", "1", "-q", "--out", "run"])
        assert r.exit_code == 0 and Path("run", "index.html").is_file(), (r.output, r.exception)
        print("puluc", "ok")
        for game in ("maya", "batam", "balam"):   # each reads its data files from the wheel
            assert len(simulate(game, 2, jobs=1)) == 2
            print(game, "ok")
        from sim.games import get
        for game in ("puluc", "maya", "batam", "balam"):  # "How sure is this?" links here
            doc = Path(get(game).rules_doc)
            assert doc.is_file() and doc.is_relative_to(sim.seeds.root()), (game, doc)
        import analysis.pages
        assert (Path(analysis.pages.__file__).parent / "templates" / "run_report.html").is_file()
        r = CliRunner().invoke(cli, ["rules", "maya"])
        assert str(sim.seeds.root() / "maya" / "RULES.md") in r.output, r.output
    """)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PYTHONPATH=_site_packages(), NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    r = subprocess.run([str(py), "-c", script], cwd=outside, env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["puluc", "ok", "maya", "ok", "batam", "ok", "balam", "ok"]


def test_the_readme_dask_recipe_binds_the_scheduler_to_a_private_address():
    """A Dask scheduler without TLS or authentication runs code for anyone who reaches it:
    the recipe (docs/USAGE.md, linked from the README) binds it (--host) and says where it
    may listen."""
    text = (ROOT / "docs" / "USAGE.md").read_text()
    recipe = [line for line in text.splitlines() if "dask scheduler" in line and line.strip().startswith(".venv")]
    assert recipe and all("--host" in line for line in recipe), recipe
    prose = " ".join(text.split())
    assert "without TLS and authentication to localhost or a private network only" in prose
