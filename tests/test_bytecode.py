"""What a user gets after ``make install`` where Python may not write its bytecode caches.

Many container images, and this project's machines, set ``PYTHONDONTWRITEBYTECODE=1``.  There a
module without a current ``.pyc`` is compiled from source by every process that imports it, and
nothing ever writes the cache: ``sim puluc --games 1e6 --jobs 2`` took 9.5-10.9 s instead of
4.7-5.6 s when ``make install`` installed with ``pip --no-compile`` (4.55 s of it compiling
about 1,400 modules).  ``make install`` therefore byte-compiles the installed packages and the
project's own sources, and the test suite runs in the environment as it is (the Makefile no
longer unexports the variable), as a user's commands do.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

#: a real run in a process that may not write bytecode, then every imported source module
#: whose cache is missing or stale (the header of an unchecked-hash or timestamp .pyc)
SCRIPT = r"""
import importlib.util, os, sys
from sim.cli import cli
try:
    cli(["puluc", "--games", "200", "--jobs", "1", "--quiet", "--out", sys.argv[1]])
except SystemExit as e:
    assert not e.code, e.code
stale = []
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None)
    if not f or not f.endswith(".py"):
        continue
    try:
        with open(importlib.util.cache_from_source(f), "rb") as fh:
            head = fh.read(16)
        st = os.stat(f)
    except OSError:
        stale.append(f)
        continue
    if int.from_bytes(head[4:8], "little") == 0 and (
            int.from_bytes(head[8:12], "little") != (int(st.st_mtime) & 0xFFFFFFFF)
            or int.from_bytes(head[12:16], "little") != (st.st_size & 0xFFFFFFFF)):
        stale.append(f)
print("stale:", len(stale))
print("\n".join(sorted(stale)[:15]))
"""


def test_a_run_compiles_no_module_where_bytecode_may_not_be_written(tmp_path):
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "run")], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    count, *names = out.stdout.split("stale:", 1)[1].strip().splitlines()
    assert int(count) == 0, (f"{count} modules imported by `sim puluc` have no current bytecode "
                             "(make install byte-compiles them), e.g.:\n" + "\n".join(names))
