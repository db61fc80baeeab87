"""Label agreement between judgment sets: ``cranfield.judges(A, B, ...)``.

The sets are aligned on their (query, document) pairs.  A negative grade (trec_eval's "in
the pool, not judged") is no judgment here: such lines are counted and left out.  Grades
are first mapped (``mapping=``, the command's ``--map``), then compared as the integers they
are: the categories are the grades from the smallest to the largest one judged by at least
two sets, so weights and distances are by grade value; sets on different scales are
compared as they are, with a warning suggesting a mapping.

For every two sets: the pairs judged by both (and by one only), the confusion matrix, Cohen's
kappa (unweighted, linear, quadratic), the agreement on each grade, leniency, and per-query
kappa.  Over all sets at once: Krippendorff's alpha (nominal, ordinal, interval), Fleiss'
kappa (the pairs judged by every set) and Gwet's AC1 and AC2.  All of them again after
binarising at ``rel`` (grade >= rel is 1).  Each statistic (declared in
:mod:`.statistics`) comes with a percentile bootstrap interval over queries: queries are
drawn with replacement (``numpy.random.default_rng(seed)``), and since every statistic is a
function of sums over queries, one matrix product gives all resamples.

Here: the sets read, mapped and aligned (:func:`judges`, :func:`parse_mapping`); the
statistics and their intervals in :mod:`.agreement_bootstrap`, the result in
:mod:`.agreement_result`.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cranfield.errors import DataWarning, ParameterError
from cranfield.judgments.agreement_bootstrap import Context, all_sets, pair, resamples
from cranfield.judgments.agreement_result import (
    Estimate,
    JudgmentAgreement,
    PairAgreement,
    QueryKappa,
    SetSummary,
)

__all__ = [
    "Estimate",
    "JudgmentAgreement",
    "PairAgreement",
    "QueryKappa",
    "SetSummary",
    "judges",
    "parse_mapping",
]

MAX_CATEGORIES = 100
"""The widest grade range compared (largest - smallest grade + 1); map wider scales first."""
MAX_BOOTSTRAP = 100_000


_MAP_RE = re.compile(r"^\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*->\s*(-?\d+)\s*$")


def parse_mapping(text: str) -> tuple[str, dict[int, int]]:
    """``'B:0,1->0;2,3->1'`` -> ``('B', {0: 0, 1: 0, 2: 1, 3: 1})``."""
    name, sep, rules = text.partition(":")
    if not sep or not name.strip():
        raise ParameterError(f"--map {text!r}: give SET:GRADES->GRADE;..., e.g. 'B:0,1->0;2,3->1'")
    out: dict[int, int] = {}
    for rule in rules.split(";"):
        m = _MAP_RE.match(rule)
        if not m:
            raise ParameterError(
                f"--map {text!r}: {rule.strip()!r} is not GRADES->GRADE (e.g. 0,1->0)"
            )
        target = int(m.group(2))
        if target < 0:
            raise ParameterError(f"--map {text!r}: grade {target} is negative (not a judgment)")
        for g in m.group(1).split(","):
            g = int(g)
            if g in out and out[g] != target:
                raise ParameterError(f"--map {text!r}: grade {g} is mapped twice")
            out[g] = target
    return name.strip(), out


def _mappings(mapping, names: list[str]) -> dict[str, dict[int, int]]:
    if mapping is None:
        return {}
    items = [mapping] if isinstance(mapping, str) else mapping
    if isinstance(items, Mapping):
        pairs = list(items.items())
    else:
        pairs = [parse_mapping(t) if isinstance(t, str) else t for t in items]
    out: dict[str, dict[int, int]] = {}
    for name, rules in pairs:
        if name not in names:
            raise ParameterError(f"--map names the set {name!r}; the sets are {', '.join(names)}")
        if name in out:
            raise ParameterError(f"--map gives set {name!r} twice")
        try:
            rules = {_grade(k): _grade(v) for k, v in dict(rules).items()}
        except (TypeError, ValueError):
            raise ParameterError(
                f"the mapping of set {name!r}: grades are integers, not {rules!r}"
            ) from None
        if any(v < 0 for v in rules.values()):
            raise ParameterError(f"the mapping of set {name!r} gives a negative grade")
        out[name] = rules
    return out


def _grade(x: Any) -> int:
    """An integer grade (an int, or a string of one), else ValueError."""
    if isinstance(x, bool) or not isinstance(x, int | np.integer | str):
        raise ValueError(x)
    return int(x)


def _default_names(n: int) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [letters[i] if n <= 26 else f"S{i + 1}" for i in range(n)]


def _read_set(source: Any, fmt: str):
    from cranfield.io import read_qrels

    return read_qrels(source, format=fmt) if fmt != "auto" else read_qrels(source)


def judges(
    *qrels: Any,
    names: Sequence[str] | None = None,
    rel: int = 1,
    mapping: Any = None,
    bootstrap: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    qrels_format: str = "auto",
) -> JudgmentAgreement:
    """How two or more judgment sets agree (see the module's docstring and docs/judgments.md).

    ``qrels``: anything :func:`cranfield.read_qrels` reads.  ``names``: the sets' names
    (default A, B, C, ...).  ``mapping``: grade mappings per set, as ``{'B': {0: 0, 1: 0, 2:
    1}}`` or strings ``'B:0,1->0;2->1'`` (grades not listed stay as they are).  ``rel``: the
    binarising threshold.  ``bootstrap``: resamples of the queries (0: no intervals).
    Undefined values are NaN, each with a warning saying why (also in ``.warnings``).
    """
    if len(qrels) < 2:
        raise ParameterError("judges needs at least two judgment sets")
    names = list(names) if names is not None else _default_names(len(qrels))
    if len(names) != len(qrels) or len(set(names)) != len(names):
        raise ParameterError("judges needs one distinct name per judgment set")
    _check_int(rel, "rel", 0, 2**63 - 1)
    _check_int(bootstrap, "bootstrap", 0, MAX_BOOTSTRAP)
    _check_int(seed, "seed", 0, 2**63 - 1)
    if not (isinstance(confidence, float | int) and 0 < confidence < 1):
        raise ParameterError(f"confidence must be between 0 and 1, not {confidence!r}")
    maps = _mappings(mapping, names)
    notes: list[str] = []

    keys: dict[tuple[str, str], int] = {}
    per_set: list[tuple[np.ndarray, np.ndarray]] = []
    summaries = []
    for name, src in zip(names, qrels, strict=True):
        q = _read_set(src, qrels_format)
        grades = np.asarray(q.grades, dtype=np.int64)
        qids = np.repeat(np.arange(q.num_queries), np.diff(q.offsets))
        judged = grades >= 0
        rules = maps.get(name, {})
        if rules:
            grades = np.array([rules.get(int(g), int(g)) for g in grades], dtype=np.int64)
        rows = np.flatnonzero(judged)
        unit = np.fromiter(
            (
                keys.setdefault((q.query_ids[qids[r]], q.doc_ids[r]), len(keys))
                for r in rows.tolist()
            ),
            dtype=np.int64,
            count=len(rows),
        )
        per_set.append((unit, grades[rows]))
        summaries.append(
            SetSummary(
                name=name,
                source=getattr(q, "source", str(src)),
                judgments=len(rows),
                unjudged=int((~judged).sum()),
                queries=len(set(qids[rows].tolist())),
                grades=tuple(int(g) for g in np.unique(grades[rows])),
                mapping=dict(rules),
            )
        )
    scales = {s.grades for s in summaries if s.grades}
    if len(scales) > 1 and len({(min(g), max(g)) for g in scales}) > 1:
        shown = "; ".join(f"{s.name} {_grade_range(s.grades)}" for s in summaries if s.grades)
        notes.append(
            f"the sets grade on different scales ({shown}): grades are compared as the "
            "integers they are; --map (mapping=) puts them on one scale"
        )

    # units in (query, document) order; G[u, s] the grade of set s, -1 where not judged
    order_keys = sorted(keys)
    position = np.empty(len(keys), dtype=np.int64)
    position[[keys[k] for k in order_keys]] = np.arange(len(keys))
    m = len(names)
    grid = np.full((len(keys), m), -1, dtype=np.int64)
    for s, (unit, grades) in enumerate(per_set):
        grid[position[unit], s] = grades
    query_of = [k[0] for k in order_keys]
    judged_by = (grid >= 0).sum(axis=1)
    only = {
        (i, j): (
            int(((grid[:, i] >= 0) & (grid[:, j] < 0)).sum()),
            int(((grid[:, j] >= 0) & (grid[:, i] < 0)).sum()),
        )
        for i in range(m)
        for j in range(i + 1, m)
    }
    pairable = judged_by >= 2
    # pairs judged by one set only count in Gwet's pi_k (of the queries kept)
    single_grade = grid[judged_by == 1].max(axis=1)
    single_query = [q for q, n in zip(query_of, judged_by.tolist(), strict=True) if n == 1]
    grid, query_of = grid[pairable], [q for q, p in zip(query_of, pairable, strict=True) if p]
    qnames, qcode = np.unique(np.array(query_of, dtype=object), return_inverse=True)
    qcode = qcode.reshape(-1).astype(np.int64)
    nq = len(qnames)
    code_of = {q: i for i, q in enumerate(qnames.tolist())}
    single_code = np.array([code_of.get(q, -1) for q in single_query], dtype=np.int64)
    kept = single_code >= 0
    single_code, single_grade = single_code[kept], single_grade[kept]

    if len(grid):
        seen = np.concatenate([grid[grid >= 0], single_grade])
        lo, hi = int(seen.min()), int(seen.max())
    else:
        lo = hi = 0
    if hi - lo + 1 > MAX_CATEGORIES:
        raise ParameterError(
            f"the grades span {lo}..{hi}, more than {MAX_CATEGORIES} categories: map them "
            "onto a smaller scale (--map / mapping=)"
        )

    resample = resamples(nq, bootstrap, seed)
    if nq == 1 and bootstrap:
        notes.append(
            "only one query has pairs judged by two sets: bootstrap intervals over queries "
            "are undefined (NaN)"
        )
        resample = None
    alpha = (1.0 - confidence) / 2.0
    ctx = Context(qcode, nq, resample, alpha, notes)

    binary = np.where(grid >= 0, (grid >= rel).astype(np.int64), -1)
    pairs = []
    for i in range(m):
        for j in range(i + 1, m):
            pairs.append(pair(ctx, grid, rel, i, j, names, lo, hi, qnames, only[i, j]))
    stats = all_sets(ctx, grid, lo, hi, "", m, (single_code, single_grade))
    single_binary = (single_grade >= rel).astype(np.int64)
    bstats = all_sets(ctx, binary, 0, 1, " (binarised)", m, (single_code, single_binary))

    for text in notes:
        warnings.warn(text, DataWarning, stacklevel=2)
    return JudgmentAgreement(
        sets=summaries,
        rel=rel,
        bootstrap=bootstrap if resample is not None else 0,
        seed=seed,
        confidence=float(confidence),
        queries=nq,
        units=len(grid),
        common=int((grid >= 0).all(axis=1).sum()),
        pairs=pairs,
        statistics=stats,
        binary_statistics=bstats,
        warnings=notes,
    )


def _grade_range(grades: tuple[int, ...]) -> str:
    return f"{grades[0]}..{grades[-1]}" if len(grades) > 1 else str(grades[0])


def _check_int(value: Any, what: str, lo: int, hi: int) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not (lo <= value <= hi)
    ):
        raise ParameterError(f"{what} must be an integer from {lo} to {hi}, not {value!r}")
