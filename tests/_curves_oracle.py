"""Plain-Python reimplementations of the curve methods, for the tests.

Written from the sources' wording, not from the library: each query is a list of relevance
flags in rank order (or of tie groups), arithmetic is exact (``fractions.Fraction``) except
where trec_eval itself uses doubles, and every method walks the ranking step by step.
"""

from __future__ import annotations

import math
import statistics
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction as F


def cutoffs(rels):
    """[(k, rel(k))] for k = 1..n."""
    out, count = [], 0
    for k, x in enumerate(rels, 1):
        count += x
        out.append((k, count))
    return out


# ---------------------------------------------------------------- interpolations
def max_rule(rels, R, r):
    """Highest precision at any cut-off whose recall is >= r (Baeza-Yates & Ribeiro-Neto 1999,
    example 3.3)."""
    best = F(0)
    if R == 0:
        return best
    for k, c in cutoffs(rels):
        if F(c, R) >= r:
            best = max(best, F(c, k))
    return best


def trec_rule(rels, R, level: float, old: bool = False):
    """trec_eval's iprec_at_recall, from its description (doubles as in C)."""
    RR = sum(rels)
    x = level * R
    c = int(x + 0.9) if old else int(Decimal(x).to_integral_value(rounding=ROUND_HALF_UP))
    if c > RR or RR == 0:
        return 0.0
    precs = [c_ / k for k, c_ in cutoffs(rels)]
    rel_ranks = [k for k, f in enumerate(rels, 1) if f]
    start = rel_ranks[max(c, 1) - 1]
    return max(precs[start - 1 :])


def precall_points(groups, R, N=None):
    """PRECALL (Raghavan, Jung & Bollmann 1989, eq. 2.2) at NR = 1..R over levels of tied
    documents; relevant documents not ranked are 0, or with N, form one last level with the rest.
    """
    groups = [list(g) for g in groups]
    RR = sum(sum(g) for g in groups)
    n = sum(len(g) for g in groups)
    if N is not None and R > RR:
        groups.append([1] * (R - RR) + [0] * (N - n - (R - RR)))
    out = []
    for NR in range(1, R + 1):
        j = t = 0
        value = F(0)
        for g in groups:
            r, i = sum(g), len(g) - sum(g)
            if t + r >= NR:
                s = NR - t
                value = F(NR) / (NR + j + F(s * i, r))
                break
            t += r
            j += i
        out.append(value)
    return out


def ceiling_rule(groups, R, x, N=None):
    """Raghavan et al. sec. 2.2: chained maximum over simple recall points, value at ceil(x n)."""
    if R == 0:
        return F(0)
    p = precall_points(groups, R, N)
    chained = [max(p[h:]) for h in range(R)]
    h = max(1, math.ceil(x * R))
    return chained[h - 1]


def step_values(rels, choice):
    """Per relevant document h = 1..RR: the precision chosen on its vertical step."""
    steps = {}
    for k, c in cutoffs(rels):
        if c >= 1:
            steps.setdefault(c, []).append((k, F(c, k)))
    out = []
    for h in sorted(steps):
        ks = steps[h]
        ps = [p for _, p in ks]
        if choice == "highest":
            out.append(max(ps))
        elif choice == "lowest":
            out.append(min(ps))
        elif choice == "middle":
            out.append(ks[(len(ks) - 1) // 2][1])
        elif choice == "mean":
            out.append(sum(ps) / len(ps))
        else:
            out.append((ps[0] + ps[-1]) / 2)
    return out


def left_end(method, u, y1, first_relevant_or_empty):
    if method == 2:
        return y1 * u
    if method == 3:
        return 1 + (y1 - 1) * u
    if method == 4:
        s = 1 if first_relevant_or_empty else 0
        return s + (y1 - s) * u
    return y1


def cranfield(rels, R, r, *, semi, step, method, reference=None):
    """Quasi/semi-Cranfield value at r: (value or None if not entered, extrapolated)."""
    if R == 0:  # no relevant document, no curve
        return None, False
    ys = step_values(rels, step)
    RR = len(ys)
    if semi:
        ys = [max(ys[h:]) for h in range(RR)]
    first_ok = (len(rels) == 0) or rels[0] == 1
    if RR == 0:
        if reference is None:
            return F(0), False
        if r == 1:
            return reference, True
        if method == 1:
            return None, False
        return left_end(method, r, reference, first_ok), True
    xs = [F(h, R) for h in range(1, RR + 1)]
    if r < xs[0]:
        if method == 1:
            return None, False
        return left_end(method, r / xs[0], ys[0], first_ok), True
    if r > xs[-1]:
        if reference is None:
            return F(0), False
        w = (r - xs[-1]) / (1 - xs[-1])
        return ys[-1] + w * (reference - ys[-1]), True
    if semi:
        return max(y for x, y in zip(xs, ys, strict=True) if x >= r), False
    for h in range(RR):
        if xs[h] == r:
            return ys[h], False
        if xs[h] < r < xs[h + 1]:
            w = (r - xs[h]) / (xs[h + 1] - xs[h])
            return ys[h] + w * (ys[h + 1] - ys[h]), False
    raise AssertionError("unreachable")


# ---------------------------------------------------------------- fallout
def fallout_rule(groups, R, N, r):
    """Recall-fallout polyline through full levels (Raghavan et al. eq. 3.6), read at recall r.
    Returns (fallout, precision by eq. 3.5, precision by PRECALL)."""
    groups = [list(g) for g in groups]
    RR = sum(sum(g) for g in groups)
    n = sum(len(g) for g in groups)
    rest = [1] * (R - RR) + [0] * (N - n - (R - RR))
    if rest:
        groups.append(rest)
    pts = [(F(0), F(0))]
    rel = non = 0
    for g in groups:
        rel += sum(g)
        non += len(g) - sum(g)
        pts.append((F(rel, R), F(non, N - R)))
    G = F(R, N)
    if r == 0:
        # first level with a relevant document, reached with no non-relevant before it?
        j = 0
        for g in groups:
            if sum(g):
                p0 = F(sum(g), len(g)) if j == 0 else F(0)
                return F(0), p0, p0
            j += len(g)
        return F(0), F(0), F(0)
    for idx in range(1, len(pts)):
        (x0, y0), (x1, y1) = pts[idx - 1], pts[idx]
        if x0 < r <= x1:
            f = y0 + (r - x0) / (x1 - x0) * (y1 - y0)
            p35 = G * r / (G * r + (1 - G) * f)
            # PRECALL with fractional NR (intuitive interpolation) in this level
            level = groups[idx - 1]
            NR, t, j = r * R, x0 * R, y0 * (N - R)
            rr, ii = sum(level), len(level) - sum(level)
            precall = NR / (NR + j + (NR - t) * F(ii, rr))
            return f, p35, precall
    raise AssertionError("unreachable")


# ---------------------------------------------------------------- averaging
def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else math.nan


def median(values):
    values = sorted(values)
    return statistics.median(values) if values else math.nan
