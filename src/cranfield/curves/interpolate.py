"""Interpolated precision at recall levels, one query at a time (vectorised over queries).

Every method reads the query's step curve (:mod:`.steps`) at recall level ``r``; ``R`` is the
number of relevant documents, ``RR`` how many the run ranks, ``h/R`` the recall of step ``h``.

- ``max`` (Baeza-Yates & Ribeiro-Neto, *Modern Information Retrieval*, 1999, sec. 3.2.1, eq. 3.4 and
  example 3.3): the highest precision at any cut-off with recall ``>= r``; 0 when the run never
  reaches ``r``.  Eq. 3.4 as printed bounds the recall by the next standard level, but its own
  worked example (0.333 at 0 to 0.3, 0.25 at 0.4 to 0.6, 0.2 at 0.7 to 1.0) and Salton's rule take
  every recall ``>= r``: that reading is used.
- ``trec``: trec_eval 10.0 ``iprec_at_recall``: ``c = lround(r R)`` relevant documents, the
  highest precision at or after the ``c``-th relevant one (the first one when ``c = 0``), 0 if
  ``c > RR``; for an empty ranking NaN where ``c = 0`` (trec_eval prints ``-nan``; a query
  missing from the run under ``complete`` is trec_eval's one-document dummy ranking, empty
  only after ``depth=0`` or ``judged_only``).  ``trec9``: the same with trec_eval 9.x's
  ``c = (long)(r R + 0.9)``.
- ``ceiling`` (Raghavan, Jung & Bollmann, "A Critical Investigation of Recall and Precision as
  Measures of Retrieval System Performance", ACM TOIS 7(3), 1989, sec. 2.2, eq. 2.3): the
  precision at each
  simple recall point ``h/R`` (PRECALL, eq. 2.2, on the weak ordering of tied scores when
  ``weak``), raised to the highest later value (the "chain effect"), then read at the simple
  point ``ceil(r R)/R`` (``1/R`` for ``r = 0``).  On a linear ordering this equals ``max``.
- ``quasi-cranfield`` (Keen, "Evaluation Parameters", SMART report ISR-13, sec. 4B, Fig. 16):
  a cut-off at each relevant document,
  the chosen precision of each vertical step (Fig. 15), straight lines between those points.
- ``semi-cranfield`` (Keen Fig. 17): from each recall, a line of constant precision to the
  highest later chosen point ("the best possible precision above x recall").

Left of the first point ``(1/R, y_1)`` quasi- and semi-Cranfield curves need an extrapolation
(Keen sec. 4C): 1 none (the query does not enter the average there, Fig. 18), 2 a line from
0.0 precision at 0.0 recall (Fig. 19), 3 from 1.0 precision (Fig. 20), 4 from 1.0 if the first
document is relevant or nothing is retrieved, else from 0.0 (Fig. 21), 5 constant precision
(Fig. 22).  A query without relevant documents has no such curve and enters no average.
Right of the last ranked relevant document a quasi-Cranfield curve may be extended
linearly to recall 1.0 at the precision a reference (full) search reaches there (Fig. 25).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cranfield.curves.precall import WeakLevels
from cranfield.curves.recall_levels import ceil_count, floor_count
from cranfield.curves.steps import Steps
from cranfield.errors import ParameterError
from cranfield.measures.kernels.counting import lround

__all__ = ["EXTRAPOLATIONS", "INTERPOLATIONS", "LevelValues", "at_levels"]

INTERPOLATIONS = (
    "max",
    "trec",
    "trec9",
    "ceiling",
    "quasi-cranfield",
    "semi-cranfield",
    "none",
)
EXTRAPOLATIONS = (1, 2, 3, 4, 5)
CRANFIELD = ("quasi-cranfield", "semi-cranfield")


@dataclass(frozen=True, eq=False)
class LevelValues:
    """Queries x levels: the value, whether the query enters the average there, and whether
    the value comes from an extrapolation."""

    values: np.ndarray
    entered: np.ndarray
    extrapolated: np.ndarray


def _left(method: int, u: np.ndarray, y1: np.ndarray, start4: np.ndarray) -> np.ndarray:
    """Left-end extrapolation at ``u = r / x_1`` (0 <= u < 1) towards the first point."""
    if method == 2:
        return y1 * u
    if method == 3:
        return 1.0 + (y1 - 1.0) * u
    if method == 4:
        return start4 + (y1 - start4) * u
    return y1.astype(np.float64, copy=True)


def at_levels(
    steps: Steps,
    levels: Sequence[Fraction],
    *,
    interpolation: str,
    step: str = "highest",
    extrapolation: int = 5,
    weak_levels: WeakLevels | None = None,
    remainder: tuple[np.ndarray, np.ndarray] | None = None,
    reference_end: np.ndarray | None = None,
    empty: np.ndarray | None = None,
) -> LevelValues:
    """Per query and level, the interpolated precision (see the module docstring).

    ``remainder`` (``ceiling`` with ``weak``): per query ``(j, i)`` non-relevant documents
    ranked and unranked, the unranked rest of the collection being one last level.
    ``reference_end`` (``quasi-cranfield``): per query the reference run's precision at
    recall 1.0 (Fig. 25).  ``empty`` (``trec``, ``trec9``): queries whose ranking trec_eval
    sees as empty; their value is NaN where ``c <= 0``, trec_eval's ``-nan``.
    """
    Q, L = steps.num_queries, len(levels)
    values = np.zeros((Q, L))
    entered = np.ones((Q, L), dtype=bool)
    extrap = np.zeros((Q, L), dtype=bool)
    R, RR = steps.R, steps.RR
    has = RR > 0

    if interpolation in ("max", "trec", "trec9"):
        peak = steps.suffix_max(steps.precision("highest"))
        for col, lev in enumerate(levels):
            if interpolation == "max":
                c = ceil_count(lev, R)
            elif interpolation == "trec":
                c = lround(float(lev) * R.astype(np.float64))
            else:
                c = np.trunc(float(lev) * R.astype(np.float64) + 0.9).astype(np.int64)
            v = np.where(has & (c <= RR), steps.at(peak, np.maximum(c, 1)), 0.0)
            if empty is not None and interpolation != "max":
                v = np.where(empty & (c <= 0), np.nan, v)  # RR / n with n = 0
            values[:, col] = v
        return LevelValues(values, entered, extrap)

    if interpolation == "ceiling":
        wl = weak_levels if weak_levels is not None else WeakLevels.linear(steps)
        chained = steps.suffix_max(wl.precall(steps))
        rest_best = None
        if remainder is not None:
            j_rem, i_rem = remainder
            r_rem = R - RR

            def rest(h: np.ndarray) -> np.ndarray:
                with np.errstate(divide="ignore", invalid="ignore"):
                    v = h / (h + j_rem + (h - RR) * i_rem / np.maximum(r_rem, 1))
                return np.where(r_rem > 0, v, 0.0)

            # h / (A h + B) is monotone in h: its maximum over [h, R] is at one of the ends
            rest_best = lambda h: np.maximum(rest(np.maximum(h, RR + 1)), rest(R))  # noqa: E731
        for col, lev in enumerate(levels):
            c = np.maximum(ceil_count(lev, R), 1)
            v = np.where(has & (c <= RR), steps.at(chained, c), 0.0)
            if rest_best is not None:
                more = (R > RR) & (c <= R)
                v = np.where(more, np.maximum(v, rest_best(c.astype(np.float64))), v)
            values[:, col] = v
        return LevelValues(values, entered, extrap)

    if interpolation not in CRANFIELD:
        raise ParameterError(
            f"unknown interpolation {interpolation!r}; choose one of {', '.join(INTERPOLATIONS)}"
        )
    if extrapolation not in EXTRAPOLATIONS:
        raise ParameterError(f"unknown extrapolation method {extrapolation!r}; choose 1..5")
    y = steps.precision(step)
    semi = interpolation == "semi-cranfield"
    if semi:
        y = steps.suffix_max(y)
    y1 = steps.at(y, np.ones(Q, dtype=np.int64))
    first_rank = steps.at(steps.first.astype(np.float64), np.ones(Q, dtype=np.int64))
    start4 = np.where((has & (first_rank == 1)) | (steps.n == 0), 1.0, 0.0)
    last_y = steps.at(y, RR)
    use_ref = reference_end is not None
    ref = np.zeros(Q) if reference_end is None else reference_end
    Rf = R.astype(np.float64)

    for col, lev in enumerate(levels):
        a, b = lev.numerator, lev.denominator
        h, t = floor_count(lev, R)
        v = np.zeros(Q)
        ent = np.ones(Q, dtype=bool)
        ext = np.zeros(Q, dtype=bool)
        # left of the first point (r < 1/R), the query ranks some relevant document
        left = has & (h == 0)
        u = a * Rf / b  # r / x_1 = r R
        ent[left] = extrapolation != 1
        ext[left] = extrapolation != 1
        if extrapolation != 1:
            v[left] = _left(extrapolation, u, y1, start4)[left]
        # on the curve: 1/R <= r <= RR/R
        on = has & (h >= 1) & ((h < RR) | ((h == RR) & (t == 0)))
        if semi:
            v[on] = steps.at(y, np.maximum(ceil_count(lev, R), 1))[on]
        else:
            lo = steps.at(y, h)
            hi = steps.at(y, np.minimum(h + 1, RR))
            v[on] = np.where(t == 0, lo, lo + t * (hi - lo))[on]
        # right of the recall ceiling (r > RR/R): 0, or towards the reference (Fig. 25)
        beyond = has & ~on & ~left
        if use_ref:
            with np.errstate(divide="ignore", invalid="ignore"):
                w = (a * Rf - RR * b) / (b * (Rf - RR))
            v[beyond] = (last_y + w * (ref - last_y))[beyond]
            ext[beyond] = True
            # nothing relevant ranked: the curve is all extrapolation from (1.0, reference)
            none_found = ~has & (R > 0)
            if lev == 1:
                v[none_found] = ref[none_found]
                ext[none_found] = True
            elif extrapolation == 1:
                ent[none_found] = False
            else:
                lv = _left(extrapolation, np.full(Q, float(lev)), ref, start4)
                v[none_found] = lv[none_found]
                ext[none_found] = True
        ent[R == 0] = False  # no relevant document: no curve to read (Keen sec. 4C)
        values[:, col], entered[:, col], extrap[:, col] = v, ent, ext
    return LevelValues(values, entered, extrap)
