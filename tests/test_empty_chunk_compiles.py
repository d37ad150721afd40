"""A chunk of no games compiles (or loads) a game's kernel: every caller relies on it before it
times or plays games (``sim.longrun.check_long_run``, the workers, the experiments).  Maya's
chunk once skipped its kernel when empty, so on a cold cache the first timed game carried the
whole compile and `sim maya --games 1e6` was refused as "about 1,086 days"."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import numpy as np
from sim.games import get
from sim.games.maya import play
g = get("maya")
ctx = g.prepare(g.resolve_rules({}), 2)
ids, par = g.bot_arrays(g.choose_bots("random", 2))
assert not play.run_games.signatures
cols = g.play_chunk(ctx, 2, 1, 0, 0, ids, par)
assert len(cols["winner"]) == 0
print(len(play.run_games.signatures))
"""


def test_an_empty_maya_chunk_loads_the_kernel():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.strip().splitlines()[-1]) >= 1
