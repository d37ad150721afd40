"""numba's cache follows the content of the jitted sources: editing a helper in another
module recompiles the kernels that use it (numba alone keys on the kernel's own file)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import sim

TOY = '''
import numpy as np
from ...jit import kernel
from ...rng import rand_int, seed_streams

@kernel
def draws(n):
    rs = np.zeros(1, np.uint64)
    seed_streams(rs, 1, 0)
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = rand_int(rs, 0, 1000)
    return out
'''

RUN = ("import json, sim.games.toy.kernel as k, sim.jitcache as c; "
       "v = [int(x) for x in k.draws(5)]; "
       "print(json.dumps([v, sum(k.draws.stats.cache_hits.values()), str(c.cache_root())]))")


def _run(root: Path) -> tuple[list, int]:
    out = subprocess.run([sys.executable, "-c", RUN], cwd=root, capture_output=True, text=True,
                         check=True, env={"PATH": "/usr/bin:/bin", "HOME": str(root)})
    vals, hits, where = json.loads(out.stdout.strip().splitlines()[-1])
    assert where.startswith(str(root)), "the cache lives in the copy's own package directory"
    return vals, hits


def test_editing_a_helper_in_another_module_recompiles_the_kernel(tmp_path):
    pkg = tmp_path / "sim"
    shutil.copytree(Path(sim.__file__).parent, pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (pkg / "games" / "toy").mkdir()
    (pkg / "games" / "toy" / "__init__.py").write_text("")
    (pkg / "games" / "toy" / "kernel.py").write_text(TOY)
    first, _ = _run(tmp_path)
    again, hits = _run(tmp_path)
    assert again == first and hits >= 1, "a second run loads the kernel from the cache"
    rng = pkg / "rng.py"
    text = rng.read_text()
    old = "return np.int64((x * np.uint64(n)) >> _S32)"
    assert old in text
    rng.write_text(text.replace(old, "return np.int64(n - 1) - np.int64((x * np.uint64(n)) >> _S32)"))
    edited, _ = _run(tmp_path)
    assert edited == [999 - v for v in first], "the kernel picked up the edited helper"


def test_a_helper_called_with_a_literal_compiles_once():
    """numba would compile a helper for ``Literal[int](0)`` and again for ``int64`` when a
    call passes a constant, or a variable that starts at 0 (Maya's rollout compiled four
    times): ``sim.jit``'s dispatcher types calls by the plain types of their arguments."""
    import numpy as np

    from sim.jit import helper, kernel

    @helper
    def add(a, i, flag):
        a[i] += 1 if flag else 2

    @kernel
    def calls(n):
        a = np.zeros(3, np.int64)
        add(a, 0, True)           # literals
        j = 0
        for _ in range(n):
            add(a, j, False)      # a variable that starts as a literal 0
            j = (j + 1) % 3
        return a

    assert list(calls(4)) == [1 + 2 * 2, 2, 2]
    assert len(add.signatures) == 1, add.signatures


# ------------------------------------------------ constants, versions, faults (issue #22)
CONSTS = "LIMIT = 7\nOFFSETS = (3, 5)\n"
READER = '''
import numpy as np
from ...jit import kernel
from .consts import LIMIT, OFFSETS

@kernel
def draws(n):
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = LIMIT * 10 + OFFSETS[i % 2]
    return out
'''
RUN_READER = ("import json, sim.games.toy.kernel as k, sim.jitcache as c; "
              "v = [int(x) for x in k.draws(3)]; "
              "print(json.dumps([v, sum(k.draws.stats.cache_hits.values()), str(c.cache_root())]))")


def _copy_with_toy(tmp_path, kernel_src: str, extra: dict | None = None) -> Path:
    pkg = tmp_path / "sim"
    shutil.copytree(Path(sim.__file__).parent, pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    toy = pkg / "games" / "toy"
    toy.mkdir()
    (toy / "__init__.py").write_text("")
    (toy / "kernel.py").write_text(kernel_src)
    for name, text in (extra or {}).items():
        (toy / name).write_text(text)
    return toy


def _run_code(root: Path, code: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(root), **(env_extra or {})}
    return subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, env=env)


def _reader(root: Path, env_extra: dict | None = None) -> tuple[list, int, str]:
    out = _run_code(root, RUN_READER, env_extra)
    assert out.returncode == 0, out.stderr
    vals, hits, _where = json.loads(out.stdout.strip().splitlines()[-1])
    return vals, hits, out.stderr


def _edit(f: Path, text: str) -> None:
    """Write ``f`` as an editor would, later than its last import: Python reuses a module's
    ``.pyc`` while the source's size and whole-second time stamp match, so an edit of the
    same size within one second of the last run would import the old bytecode (Python's
    own check, before numba sees anything; the CI run of 2026-12-04 hit it)."""
    before = f.stat().st_mtime
    f.write_text(text)
    os.utime(f, (before + 2, before + 2))


def test_editing_a_plain_constant_module_recompiles_the_kernel(tmp_path):
    """A kernel that reads constants from a module with no jitted code (as Batam's bots read
    ``state.py``'s offsets and ``PIRATE_PENALTY``) picks up an edit of that module: numba
    alone, and this project's key before #22, kept the old value until the cache was deleted."""
    toy = _copy_with_toy(tmp_path, READER, {"consts.py": CONSTS})
    first, _, _ = _reader(tmp_path)
    assert first == [73, 75, 73]
    again, hits, _ = _reader(tmp_path)
    assert again == first and hits >= 1, "a second run loads the kernel from the cache"
    _edit(toy / "consts.py", "LIMIT = 9\nOFFSETS = (3, 5)\n")
    assert _reader(tmp_path)[0] == [93, 95, 93], "the kernel picked up the edited constant"
    _edit(toy / "consts.py", "LIMIT = 9\nOFFSETS = (4, 5)\n")
    assert _reader(tmp_path)[0] == [94, 95, 94], "and an edited tuple"


def test_the_key_covers_what_every_jitted_function_reads():
    """Every jitted function of the package lives in a file its key covers, and so does every
    module, jitted function or Python function its code names as a global."""
    import importlib
    import inspect
    import pkgutil
    import types as pytypes

    from numba.core.dispatcher import Dispatcher

    import sim.games
    from sim import jitcache

    for info in pkgutil.walk_packages(sim.games.__path__, "sim.games."):
        importlib.import_module(info.name)
    importlib.import_module("sim.drama")
    checked = 0
    for name, mod in list(sys.modules.items()):
        if not name.startswith("sim.") or mod is None:
            continue
        for obj in vars(mod).values():
            if not isinstance(obj, Dispatcher):
                continue
            f = Path(inspect.getfile(obj.py_func)).resolve()
            owner = jitcache._owner(str(f))
            if owner is None:
                continue
            covered = set(jitcache.sources_for(str(owner)))
            assert f in covered, f"{f} defines {obj.py_func.__name__} but its key does not cover it"
            codes = [obj.py_func.__code__]
            while codes:
                code = codes.pop()
                codes += [c for c in code.co_consts if isinstance(c, pytypes.CodeType)]
                for g in code.co_names:
                    val = obj.py_func.__globals__.get(g)
                    if isinstance(val, pytypes.ModuleType):
                        src = getattr(val, "__file__", None)
                    elif isinstance(val, Dispatcher):
                        src = inspect.getfile(val.py_func)
                    elif isinstance(val, pytypes.FunctionType):
                        src = inspect.getfile(val)
                    else:
                        continue
                    if src and jitcache._owner(src) is not None:
                        assert Path(src).resolve() in covered, \
                            f"{obj.py_func.__name__} ({f.name}) reads {g} from {src}, outside its key"
            checked += 1
    assert checked > 100, checked


def test_batam_state_module_is_in_batam_key():
    """The real case of #22: Batam's plain ``state.py`` (offsets, PIRATE_PENALTY) and the
    ``tables.py`` it star-imports are in the key of Batam's kernels."""
    from sim import jitcache
    files = {f.relative_to(jitcache.PKG).as_posix() for f in jitcache.sources_for(str(jitcache.GAMES / "batam"))}
    assert {"games/batam/state.py", "games/batam/tables.py", "rng.py", "jit.py"} <= files
    assert not any(f.startswith("games/balam") or f == "cli.py" for f in files), files


def test_the_key_changes_with_numba_and_numpy_versions(monkeypatch):
    from sim import jitcache
    files = list(jitcache.sources_for(str(jitcache.GAMES / "puluc")))
    base = jitcache._digest(files)
    env = jitcache.environment()
    assert any(e.startswith("numba ") for e in env) and any(e.startswith("numpy ") for e in env)
    for i in range(len(env)):
        changed = env[:i] + (env[i] + "-other",) + env[i + 1:]
        monkeypatch.setattr(jitcache, "environment", lambda changed=changed: changed)
        assert jitcache._digest(files) != base, f"the key ignores {env[i]}"


def test_a_damaged_cache_entry_is_compiled_again_in_one_line(tmp_path):
    _copy_with_toy(tmp_path, READER, {"consts.py": CONSTS})
    cache = tmp_path / "cache"
    env = {"NUMBA_CACHE_DIR": str(cache)}
    first, _, err = _reader(tmp_path, env)
    assert err == ""
    damaged = [p for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert damaged, "the first run saved the kernel"
    for p in damaged:
        p.write_bytes(b"\x80\x04garbage, not a pickle")
    vals, hits, err = _reader(tmp_path, env)
    assert vals == first and hits == 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "damaged" in lines[0] and str(cache) in lines[0], err
    vals, hits, err = _reader(tmp_path, env)
    assert vals == first and hits >= 1 and err == "", "the entry was saved afresh"


def test_an_unusable_cache_directory_runs_without_caching_in_one_line(tmp_path):
    """A cache directory that cannot be made (as root, a read-only folder is still
    writable, so the test puts it under a regular file) or written: the run compiles
    without a cache, says so in one line naming the cache's folder, and exits 0."""
    _copy_with_toy(tmp_path, READER, {"consts.py": CONSTS})
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    vals, hits, err = _reader(tmp_path, {"NUMBA_CACHE_DIR": str(blocker / "cache")})
    assert vals == [73, 75, 73] and hits == 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "without caching" in lines[0] and "not-a-dir" in lines[0], err


def test_a_full_cache_disk_runs_without_caching_in_one_line(tmp_path):
    """The cache's disk full when numba saves (ENOSPC injected at the write): one line that
    blames the cache's disk, never the run's folder."""
    _copy_with_toy(tmp_path, READER, {"consts.py": CONSTS})
    code = ("import errno, numba.core.caching as C\n"
            "def full(self, *a, **k):\n"
            "    raise OSError(errno.ENOSPC, 'No space left on device')\n"
            "C.IndexDataCacheFile._save_data = full\n" + RUN_READER.replace("; ", "\n"))
    out = _run_code(tmp_path, code, {"NUMBA_CACHE_DIR": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])[0] == [73, 75, 73]
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "disk is full" in lines[0] and "cache" in lines[0], out.stderr


def test_an_unsupported_numba_is_refused_in_one_line(tmp_path):
    from sim import jitcache
    from sim.params import UsageError
    jitcache.check_numba("0.68.1")
    jitcache.check_numba("0.60.0")
    for bad in ("0.59.1", "0.69.0", "1.0.0"):
        try:
            jitcache.check_numba(bad)
        except UsageError as e:
            assert bad in str(e) and "pip install" in str(e)
        else:
            raise AssertionError(f"numba {bad} accepted")
    code = "import numba; numba.__version__ = '0.70.0'\nfrom sim.cli import main\nmain()"
    out = subprocess.run([sys.executable, "-c", code, "puluc", "--games", "10", "--out", str(tmp_path / "r")],
                         capture_output=True, text=True)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "numba 0.70.0 is not supported" in lines[0], out.stderr


def test_pyproject_pins_the_tested_numba_range():
    import re

    from sim import jitcache
    text = (Path(sim.__file__).parents[1] / "pyproject.toml").read_text()
    m = re.search(r'"numba>=([\d.]+),<([\d.]+)"', text)
    assert m, "pyproject.toml pins numba with a lower and an upper bound"
    assert jitcache._version(m.group(1)) == jitcache.NUMBA_MIN
    assert jitcache._version(m.group(2)) == jitcache.NUMBA_BELOW
