"""How ``sim show`` numbers a narration's lines: the game's own steps (a round, a turn), and
the lines that continue one; the set-up before the first and the ending after the last are
not numbered.  Each game's show module says what starts a step and what starts the ending."""
from __future__ import annotations

import re


def numbered_steps(lines, start: str, ending: tuple[str, ...]) -> list:
    """Per line: the step number where the line matches ``start`` (a pattern whose first
    group is the number), 0 for a line inside a step, None before the first step and from the
    first line starting with one of ``ending`` until the next step."""
    pattern = re.compile(start)
    out, started, ended = [], False, False
    for t in lines:
        m = pattern.match(t)
        if m:
            started, ended = True, False
            out.append(int(m.group(1)))
        else:
            ended = ended or (started and t.startswith(ending))
            out.append(0 if started and not ended else None)
    return out
