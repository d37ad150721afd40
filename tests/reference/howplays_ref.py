"""The how-it-plays columns of a replayed game (sim/playcols.py), from the (seat, legal
options) of every choice the reference saw, by their plain definitions: each reference engine
lists its own choices (what a choice is differs by game) and calls this."""
from sim.results import seat_column

EV = ("changes", "drama", "drama_max", "decided", "decided_thr", "stability", "uncertainty")


def how_it_plays(choices, players: int, flat: bool = False) -> dict:
    """Decisions and forced moves per seat (lists, or ``seat_column`` keys with ``flat``),
    decision moves (per mille), branching and decision factors (x100), the largest choice;
    -1 where a game had no choice; the state-evaluation columns -1 (not evaluated)."""
    dec = [sum(1 for s, n in choices if s == p and n > 1) for p in range(players)]
    forced = [sum(1 for s, n in choices if s == p and n == 1) for p in range(players)]
    d, f, opts = sum(dec), sum(forced), sum(n for _, n in choices)
    out = {"decision_share": round(1000 * d / (d + f)) if d + f else -1,
           "branching": round(100 * opts / (d + f)) if d + f else -1,
           "decision_factor": round(100 * (opts - f) / d) if d else -1,
           "options_max": max((n for _, n in choices), default=0)}
    if flat:
        for p in range(players):
            out[seat_column("decisions", p)], out[seat_column("forced", p)] = dec[p], forced[p]
    else:
        out.update(decisions=dec, forced=forced)
    out.update({"ev_" + name: -1 for name in EV})
    return out
