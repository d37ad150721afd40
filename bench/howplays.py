"""How the games play (issue #47): every game and player count at its default bots and at the
strong bots `sim robust` uses (fewer games), run with ``evaluate=True``; one JSON line per row (what
docs/FINDINGS.md's "How it plays" table is made of).

    python bench/howplays.py              # every row below
    python bench/howplays.py puluc maya   # those games' rows
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sim.api as api  # noqa: E402

#: (game, players, bots (None: the default), games)
ROWS = [
    ("puluc", 2, None, 20000), ("puluc", 2, "search:depth=3", 3000),
    ("maya", 2, None, 20000), ("maya", 2, "search:depth=3", 1000),
    ("maya", 3, None, 20000), ("maya", 3, "search:iters=32;playout=3", 1000),
    ("maya", 4, None, 20000), ("maya", 4, "search:iters=32;playout=3", 1000),
    ("batam", 2, None, 2000), ("batam", 3, None, 2000), ("batam", 4, None, 2000),
    ("batam", 2, "search:iters=300;leaf=model;keep=0", 1000), ("batam", 3, "search:iters=25", 500),
    ("batam", 4, "search:iters=25", 500),
    ("balam", 2, None, 500), ("balam", 3, None, 500), ("balam", 4, None, 500),
    ("balam", 2, "search:iters=40;horizon=-1;leaf=model", 1000), ("balam", 3, "search:iters=25", 300),
    ("balam", 4, "search:iters=25", 300),
]
KEYS = ["decision_share", "branching", "decision_factor", "ev_changes", "ev_drama", "ev_drama_max",
        "ev_decided", "ev_decided_thr", "ev_stability", "ev_uncertainty"]


def main(games=()):
    for game, p, bots, n in ROWS:
        if games and game not in games:
            continue
        t = time.process_time()
        r = api.simulate(game, n, players=p, bots=bots, jobs=1, evaluate=True)
        s, model = r.summary, r.manifest.get("model") or {}
        row = {"game": game, "players": p, "bots": ",".join(r.manifest["bots"]), "games": n,
               "cpu_s": round(time.process_time() - t, 1), "model": model.get("kind"),
               "log_loss": model.get("log_loss"), "log_loss_base": model.get("log_loss_base"),
               "length": s["length_mean"], "unit": s["length_unit"]}
        for k in KEYS:
            if k in s:
                row[k] = [round(s[k], 2), round(s[k + "_lo"], 2), round(s[k + "_hi"], 2)]
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(tuple(sys.argv[1:]))
