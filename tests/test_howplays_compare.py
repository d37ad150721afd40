"""How it plays in a comparison (issue #47): ``sim compare`` gives each figure's paired
difference between variants, equal to the difference of the same games played by plain runs
(same seeds), with its interval; a state-evaluation figure appears only where the variants
were evaluated."""
import re

import numpy as np

import sim.api as api


def test_compare_gives_the_paired_difference_of_decisions_per_game():
    res = api.compare("puluc", {"base": {}, "nine": {"track": 9}}, games=600, jobs=1)
    line = next(v for v in res.verdicts if "how it plays" in v)
    assert line.startswith("'nine' against 'base', how it plays")
    m = re.search(r"decisions per game ([\d.]+) → ([\d.]+) \(([+-][\d.]+) \[([+-][\d.]+), ([+-][\d.]+)\]", line)
    base, nine, d, lo, hi = map(float, m.groups())
    a = api.simulate("puluc", 600, jobs=1).raw
    b = api.simulate("puluc", 600, rules={"track": 9}, jobs=1).raw
    da = (a["decisions_0"] + a["decisions_1"]).to_numpy(float)
    db = (b["decisions_0"] + b["decisions_1"]).to_numpy(float)
    assert abs(base - da.mean()) < 0.006 and abs(nine - db.mean()) < 0.006
    assert abs(d - (db - da).mean()) < 0.006 and lo < d < hi
    assert "lead changes" not in line          # not evaluated: no state-evaluation figure
    assert np.isfinite([lo, hi]).all()
