"""What a run's files and messages must not depend on: the order Python happened to build a
dictionary in (the summary's checksum), a HOME that cannot be written (matplotlib's cache
warning), and the kind of folder that refuses a write (read-only, not "permission denied")."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.params import UsageError
from sim.summary import Summary

ROOT = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------- item 14: canonical summary
def test_summary_json_is_canonical_whatever_the_histogram_order():
    """Two summaries holding the same data serialise to the same text (and so the same
    ``summary_sha256``), whatever order their histograms were added in: merging took the
    histogram keys from a set, whose order changes from one process to the next."""
    from sim.runner import execute
    from sim.spec import make_spec
    res = execute(make_spec("puluc", 200, seed=3), jobs=1, chunk_size=50, progress=False, rows="none")
    s = res.summary
    assert len(s.hists) > 2
    t = Summary.from_dict(s.to_dict())
    t.hists = dict(reversed(list(s.hists.items())))
    assert list(t.hists) != list(s.hists)
    assert t.to_json() == s.to_json()
    assert Summary.from_json(t.to_json()).to_dict() == s.to_dict()


def test_summary_sha256_is_the_same_in_two_processes(tmp_path):
    """Two identical runs in processes with different hash seeds: one checksum."""
    code = ("import sys; from sim.runner import execute; from sim.spec import make_spec; "
            "from sim.output import save_run;"
            "r = execute(make_spec('puluc', 120, seed=5), jobs=1, chunk_size=40, progress=False, rows='none');"
            "save_run(r, sys.argv[1])")
    shas = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"run{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([sys.executable, "-c", code, str(out)], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=300)
        shas.append(json.loads((out / "manifest.json").read_text())["summary_sha256"])
    assert len(set(shas)) == 1, shas


# ------------------------------------------------------------- item 15: an unwritable HOME
def test_api_with_unwritable_home_prints_no_matplotlib_warning(tmp_path):
    """The Python API (not only the command line) chooses a writable matplotlib folder before
    matplotlib is imported: no multi-line "Matplotlib created a temporary cache directory"
    warning, and the report is written."""
    home = tmp_path / "home-is-a-file"
    home.write_text("not a folder")
    env = {k: v for k, v in os.environ.items()
           if k not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "PYTHONDONTWRITEBYTECODE")}
    env["HOME"] = str(home)
    out = tmp_path / "out"
    code = "import sys, sim; sim.run('puluc', games=50, out=sys.argv[1])"
    r = subprocess.run([sys.executable, "-c", code, str(out)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "matplotlib" not in r.stderr.lower(), r.stderr
    assert r.stderr.strip() == ""
    assert (out / "index.html").is_file()


# --------------------------------------------------------- item 15: a read-only file system
def test_read_only_file_system_is_named_so(tmp_path, monkeypatch):
    """A folder on a read-only file system is refused as such, not as "permission denied"
    (root may write anywhere else, so the two need different remedies)."""
    import sim.validate as V
    real_statvfs = os.statvfs
    ro = tmp_path / "ro"
    ro.mkdir()

    class RO:
        def __init__(self, st):
            self.f_flag = st.f_flag | os.ST_RDONLY

    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == ro else True)
    monkeypatch.setattr(os, "statvfs", lambda p: RO(real_statvfs(p)) if Path(p) == ro else real_statvfs(p))
    with pytest.raises(UsageError) as e:
        V.check_out_dir(ro / "out", "run")
    assert str(e.value).endswith(": read-only file system")
    assert not (ro / "out").exists()
    # a folder that is only not ours still says so
    monkeypatch.setattr(os, "statvfs", real_statvfs)
    with pytest.raises(UsageError) as e:
        V.check_out_dir(ro / "out", "run")
    assert str(e.value).endswith(": permission denied")


def _mount_read_only(where: Path) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "none", str(where)],
                       capture_output=True)
    return r.returncode == 0


def test_read_only_mount_end_to_end(tmp_path):
    """Where this machine lets us mount one (root in a container): ``sim puluc -o`` into a
    read-only tmpfs says "read-only file system", exit 2, one line."""
    where = tmp_path / "rofs"
    if not _mount_read_only(where):
        pytest.skip("cannot mount a read-only file system here")
    try:
        from click.testing import CliRunner

        from sim.cli import cli
        r = CliRunner().invoke(cli, ["puluc", "--games", "50", "-o", str(where / "out")])
        assert r.exit_code == 2
        lines = [x for x in r.output.splitlines() if x.strip()]
        assert len(lines) == 1 and lines[0].endswith("read-only file system"), r.output
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)
