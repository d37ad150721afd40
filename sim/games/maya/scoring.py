"""The End of the Game: two-player scoring (priests, ladder majorities, tie-breaks) and the
Variant for Three Players (task points, declaring the end, the centre bonus)."""
from __future__ import annotations

from ...jit import helper, helper_inline
from .state import (NEG, R_CENTRE, R_L, R_N, R_P, R_PTS, T_BONUS, T_LADDERS, T_LPTS, T_PPTS,
                    T_PRIESTS, T_SCORE, T_TEAM, T_TIEBRK, TB_LADDERS, TB_PRIESTS, TB_SCORE, TB_TIED,
                    WIN, X_CARDS, X_CP, X_SCORE, nib)


# ------------------------------------------------------------------ two players
@helper_inline
def score2(st, n, out):
    """out[s]: victory points, out[2+s]: priests, out[4+s]: ladders, out[6+s]: ladder points."""
    for k in range(8):
        out[k] = 0
    for t in range(n):
        pr = st.pr[t]
        if pr >= 0:
            out[pr] += 1
            out[2 + pr] += 1
        l0 = st.lad[t, 0]
        l1 = st.lad[t, 1]
        out[4] += l0
        out[5] += l1
        if l0 > l1:
            out[0] += 1
            out[6] += 1
        elif l1 > l0:
            out[1] += 1
            out[7] += 1


@helper
def result2(st, n, p):
    """Final result for seat p: WIN, -WIN or 0, with the rulebook's tie-breaks."""
    vp = 0
    pr = 0
    ld = 0
    for t in range(n):
        o = st.pr[t]
        if o >= 0:
            d = 1 if o == p else -1
            vp += d
            pr += d
        lp = st.lad[t, p]
        lq = st.lad[t, 1 - p]
        ld += lp - lq
        if lp > lq:
            vp += 1
        elif lq > lp:
            vp -= 1
    v = vp
    if v == 0:
        v = pr
    if v == 0:
        v = ld
    if v > 0:
        return WIN
    if v < 0:
        return -WIN
    return 0


@helper
def final_scores2(st, R, tally, sc):
    """Two players: scores and tie-breaks into ``tally``; returns the winner or -1."""
    score2(st, R[R_N], sc)
    for s in range(2):
        tally[T_SCORE + s] = sc[s]
        tally[T_PRIESTS + s] = sc[2 + s]
        tally[T_LADDERS + s] = sc[4 + s]
        tally[T_LPTS + s] = sc[6 + s]
        tally[T_PPTS + s] = sc[2 + s]
        tally[T_TEAM + s] = sc[s]
    tb = TB_SCORE
    d = sc[0] - sc[1]
    if d == 0:
        tb = TB_PRIESTS
        d = sc[2] - sc[3]
    if d == 0:
        tb = TB_LADDERS
        d = sc[4] - sc[5]
    if d == 0:
        tb = TB_TIED
    tally[T_TIEBRK] = tb
    if d > 0:
        return 0
    if d < 0:
        return 1
    return -1


# ------------------------------------------------------------------ three/four players
@helper
def colour_points(st, n, L, pts, out):
    """out[c]: task points of colour c on the whole board (each maximal run of c inside a
    tower scores pts[run length]; pts[0] = pts[1] = 0)."""
    for c in range(n):
        out[c] = 0
    for t in range(n):
        x = st.tw[t]
        run = 1
        prev = x & 15
        for l in range(1, L):
            c = nib(x, l)
            if c == prev:
                run += 1
            else:
                out[prev] += pts[run]
                run = 1
                prev = c
        out[prev] += pts[run]


@helper
def can_declare(st, R, cards, p):
    """Seat p may declare: the centre tower and a tower of one of p's task colours are complete."""
    ctr = R[R_CENTRE]
    if st.cut[ctr] != 0:
        return False
    for t in range(R[R_N]):
        if st.cut[t] == 0:
            c = st.tw[t] & 15
            if c == cards[2 * p] or c == cards[2 * p + 1]:
                return True
    return False


@helper
def final_scores_tasks(st, R, tally, cards, cp):
    """Three/four players: task points plus bonus, teams (four players: seats 0 + 2 against
    1 + 3); returns the winning side or -1 on a tie."""
    P = R[R_P]
    colour_points(st, R[R_N], R[R_L], R[R_PTS:], cp)
    for s in range(P):
        tally[T_SCORE + s] = cp[cards[2 * s]] + cp[cards[2 * s + 1]] + tally[T_BONUS + s]
    if P == 4:
        for s in range(4):
            tally[T_TEAM + s] = tally[T_SCORE + s] + tally[T_SCORE + (s + 2) % 4]
        sides = 2
    else:
        for s in range(P):
            tally[T_TEAM + s] = tally[T_SCORE + s]
        sides = P
    best = NEG
    nb = 0
    who = -1
    for s in range(sides):
        v = tally[T_TEAM + s]
        if v > best:
            best = v
            nb = 0
        if v == best:
            nb += 1
            who = s
    if nb > 1:
        tally[T_TIEBRK] = TB_TIED
        return -1
    tally[T_TIEBRK] = TB_SCORE
    return who


@helper_inline
def final_scores(st, R, tally, X):
    """Scores, tie-breaks and the winner into ``tally``; returns the winning side (seat,
    team in four-player games) or -1."""
    if R[R_P] == 2:
        return final_scores2(st, R, tally, X[X_SCORE])
    return final_scores_tasks(st, R, tally, X[X_CARDS], X[X_CP])
