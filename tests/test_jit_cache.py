"""numba's cache follows the content of the jitted sources: editing a helper in another
module recompiles the kernels that use it (numba alone keys on the kernel's own file)."""
import json
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
