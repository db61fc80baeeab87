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
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cranfield.errors import DataWarning, ParameterError
from cranfield.judgments import statistics as S

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

PAIR_STATISTICS = ("kappa", "kappa_linear", "kappa_quadratic")
ALL_STATISTICS = (
    "alpha_nominal",
    "alpha_ordinal",
    "alpha_interval",
    "fleiss_kappa",
    "ac1",
    "ac2",
)


@dataclass(frozen=True)
class Estimate:
    """A statistic's value and its bootstrap interval (NaN where undefined)."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        return {k: _json_float(getattr(self, k)) for k in ("value", "low", "high")}


@dataclass(frozen=True)
class SetSummary:
    """One judgment set: its name, source, judgments used and lines left out."""

    name: str
    source: str
    judgments: int
    unjudged: int
    """Lines with a negative grade (left out)."""
    queries: int
    grades: tuple[int, ...]
    """The distinct grades after the mapping."""
    mapping: dict[int, int] = field(default_factory=dict)
    """The grades this set's were mapped from and to (``--map``; empty: none)."""

    def mapping_text(self) -> str:
        """The mapping as ``--map`` writes it: ``0,1->0;2,3->1`` (empty without one)."""
        targets: dict[int, list[int]] = {}
        for g, t in sorted(self.mapping.items()):
            targets.setdefault(t, []).append(g)
        return ";".join(f"{','.join(map(str, gs))}->{t}" for t, gs in sorted(targets.items()))


@dataclass(frozen=True)
class QueryKappa:
    query: str
    pairs: int
    agreement: float
    kappa: float


@dataclass
class PairAgreement:
    """Two sets compared on the pairs both judged."""

    a: str
    b: str
    both: int
    only_a: int
    only_b: int
    grades: tuple[int, ...]
    """The grades of the confusion matrix's rows and columns."""
    confusion: np.ndarray
    observed: float
    """Share of common pairs given the same grade."""
    statistics: dict[str, Estimate]
    per_grade: dict[int, float]
    """Specific agreement on each grade: 2 n_gg / (n_g. + n_.g)."""
    binary_confusion: np.ndarray
    binary_statistics: dict[str, Estimate]
    mean_difference: float
    """Mean of b's grade - a's grade over the common pairs."""
    b_higher: float
    a_higher: float
    per_query: list[QueryKappa]
    """Per-query kappa, the queries that disagree most first."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "pairs_in_both": self.both,
            "pairs_in_a_only": self.only_a,
            "pairs_in_b_only": self.only_b,
            "grades": list(self.grades),
            "confusion": self.confusion.astype(int).tolist(),
            "observed_agreement": _json_float(self.observed),
            "statistics": {k: v.to_dict() for k, v in self.statistics.items()},
            "agreement_per_grade": {str(g): _json_float(v) for g, v in self.per_grade.items()},
            "binary_confusion": self.binary_confusion.astype(int).tolist(),
            "binary_statistics": {k: v.to_dict() for k, v in self.binary_statistics.items()},
            "leniency": {
                "mean_difference": _json_float(self.mean_difference),
                "b_higher": _json_float(self.b_higher),
                "a_higher": _json_float(self.a_higher),
            },
            "per_query": [
                {
                    "query": q.query,
                    "pairs": q.pairs,
                    "agreement": _json_float(q.agreement),
                    "kappa": _json_float(q.kappa),
                }
                for q in self.per_query
            ],
        }


@dataclass
class JudgmentAgreement:
    """What :func:`judges` returns."""

    sets: list[SetSummary]
    rel: int
    bootstrap: int
    seed: int
    confidence: float
    queries: int
    """Queries with a pair judged by at least two sets (the bootstrap's units)."""
    units: int
    """(query, document) pairs judged by at least two sets."""
    common: int
    """Pairs judged by every set (Fleiss' kappa's subjects)."""
    pairs: list[PairAgreement]
    statistics: dict[str, Estimate]
    binary_statistics: dict[str, Estimate]
    warnings: list[str] = field(default_factory=list)

    def pair(self, a: str, b: str) -> PairAgreement:
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p
        raise KeyError((a, b))

    def to_dict(self) -> dict[str, Any]:
        return {
            "sets": [
                {
                    "name": s.name,
                    "source": s.source,
                    "judgments": s.judgments,
                    "unjudged_left_out": s.unjudged,
                    "queries": s.queries,
                    "grades": list(s.grades),
                    "mapping": {str(g): t for g, t in sorted(s.mapping.items())},
                }
                for s in self.sets
            ],
            "rel": self.rel,
            "bootstrap": {
                "samples": self.bootstrap,
                "seed": self.seed,
                "confidence": self.confidence,
                "queries": self.queries,
            },
            "pairs_judged_by_two_or_more": self.units,
            "pairs_judged_by_all": self.common,
            "statistics": {k: v.to_dict() for k, v in self.statistics.items()},
            "binary_statistics": {k: v.to_dict() for k, v in self.binary_statistics.items()},
            "pairs": [p.to_dict() for p in self.pairs],
            "warnings": list(self.warnings),
        }


def _json_float(x: float) -> float | None:
    return None if x != x else float(x)


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

    resample = _resamples(nq, bootstrap, seed)
    if nq == 1 and bootstrap:
        notes.append(
            "only one query has pairs judged by two sets: bootstrap intervals over queries "
            "are undefined (NaN)"
        )
        resample = None
    alpha = (1.0 - confidence) / 2.0
    ctx = _Context(qcode, nq, resample, alpha, notes)

    binary = np.where(grid >= 0, (grid >= rel).astype(np.int64), -1)
    pairs = []
    for i in range(m):
        for j in range(i + 1, m):
            pairs.append(_pair(ctx, grid, rel, i, j, names, lo, hi, qnames, only[i, j]))
    stats = _all_sets(ctx, grid, lo, hi, "", m, (single_code, single_grade))
    single_binary = (single_grade >= rel).astype(np.int64)
    bstats = _all_sets(ctx, binary, 0, 1, " (binarised)", m, (single_code, single_binary))

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


def _resamples(nq: int, bootstrap: int, seed: int) -> np.ndarray | None:
    """``(bootstrap, nq)`` multiplicities of the queries in each resample."""
    if not bootstrap or nq == 0:
        return None
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, nq, size=(bootstrap, nq))
    mult = np.zeros((bootstrap, nq), dtype=np.float64)
    np.add.at(mult, (np.repeat(np.arange(bootstrap), nq), drawn.reshape(-1)), 1.0)
    return mult


@dataclass
class _Context:
    qcode: np.ndarray
    nq: int
    resample: np.ndarray | None
    alpha: float
    notes: list[str]

    def per_query(self, values: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Sum the units' arrays ``values`` (rows ``rows`` of the pairable units) by query
        (the units are in query order: one ``add.reduceat`` over each query's run)."""
        out = np.zeros((self.nq, *values.shape[1:]), dtype=np.float64)
        if len(rows) == 0:
            return out
        q = self.qcode[rows]
        starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
        out[q[starts]] = np.add.reduceat(np.asarray(values, dtype=np.float64), starts, axis=0)
        return out

    def resampled(self, per_query: np.ndarray) -> np.ndarray | None:
        """The sums of per-query arrays ``(nq, ...)`` in every bootstrap resample."""
        if self.resample is None:
            return None
        flat = per_query.reshape(self.nq, -1)
        return (self.resample @ flat).reshape(-1, *per_query.shape[1:])

    def interval(self, value: float, boot: np.ndarray | None) -> Estimate:
        """``value`` with the percentile interval of its bootstrap values (NaN ones left
        out)."""
        if boot is None:
            return Estimate(value, float("nan"), float("nan"))
        boot = np.asarray(boot, dtype=np.float64)
        boot = boot[~np.isnan(boot)]
        if len(boot) == 0:
            return Estimate(value, float("nan"), float("nan"))
        low, high = np.quantile(boot, [self.alpha, 1.0 - self.alpha])
        return Estimate(value, float(low), float(high))

    def estimate(self, per_query: list[np.ndarray], fn) -> Estimate:
        """The statistic ``fn(*sums)`` on all queries and its bootstrap interval."""
        value = float(fn(*[a.sum(axis=0) for a in per_query]))
        if self.resample is None:
            return self.interval(value, None)
        return self.interval(value, fn(*[self.resampled(a) for a in per_query]))


_WEIGHTS = {"kappa": None, "kappa_linear": "linear", "kappa_quadratic": "quadratic"}


def _why_undefined(values: np.ndarray) -> str:
    """Why a statistic of these (pairable) grades is undefined."""
    seen = np.unique(values[values >= 0])
    if len(seen) == 0:
        return "no pair is judged by the sets compared"
    if len(seen) == 1:
        return f"every judgment compared has grade {int(seen[0])} (expected disagreement 0)"
    return "expected disagreement is 0"


def _pair(ctx: _Context, grid, rel, i, j, names, lo, hi, qnames, only) -> PairAgreement:
    a_name, b_name = names[i], names[j]
    in_a, in_b = grid[:, i] >= 0, grid[:, j] >= 0
    rows = np.flatnonzero(in_a & in_b)
    k = hi - lo + 1
    a, b = grid[rows, i] - lo, grid[rows, j] - lo
    # per-query confusion matrices by one bincount over (query, grade a, grade b)
    codes = (ctx.qcode[rows] * k + a) * k + b
    conf_q = np.bincount(codes, minlength=ctx.nq * k * k).astype(np.float64)
    conf_q = conf_q.reshape(ctx.nq, k, k)
    label = f"{a_name} and {b_name}"
    n = len(rows)
    if n == 0:
        ctx.notes.append(
            f"{label} judge no (query, document) pair in common: their statistics are "
            "undefined (NaN)"
        )
    confusion = conf_q.sum(axis=0)
    boot = ctx.resampled(conf_q)
    # binarised: grade >= rel is 1; the 2 x 2 matrices are sums of blocks of the graded ones
    to_binary = np.zeros((k, 2))
    to_binary[np.arange(k), (np.arange(k) + lo >= rel).astype(np.int64)] = 1.0
    bconfusion = to_binary.T @ confusion @ to_binary
    bboot = None if boot is None else np.einsum("ki,bkl,lj->bij", to_binary, boot, to_binary)
    stats, bstats = {}, {}
    undefined: dict[tuple[str, str], list[str]] = {}
    for name, w in _WEIGHTS.items():
        for out, c, cb, values, how in (
            (stats, confusion, boot, np.concatenate([a, b]) + lo, ""),
            (bstats, bconfusion, bboot, np.concatenate([a, b]) + lo >= rel, " after binarising"),
        ):
            est = ctx.interval(
                float(S.cohen_kappa(c, w)), None if cb is None else S.cohen_kappa(cb, w)
            )
            if est.value != est.value and n:
                reason = _why_undefined(values.astype(np.int64))
                undefined.setdefault((f" of {label}{how}", reason), []).append(name)
            out[name] = est
    _undefined_notes(ctx, undefined)
    rows_sum, cols_sum = confusion.sum(axis=1), confusion.sum(axis=0)
    per_grade = {}
    for g in range(k):
        den = rows_sum[g] + cols_sum[g]
        per_grade[g + lo] = float(2 * confusion[g, g] / den) if den else float("nan")

    diff = (b - a).astype(np.float64)
    per_query = []
    kq = S.cohen_kappa(conf_q)
    count_q = conf_q.sum(axis=(1, 2))
    agree_q = np.trace(conf_q, axis1=1, axis2=2)
    for qi in np.flatnonzero(count_q):
        per_query.append(
            QueryKappa(
                str(qnames[qi]), int(count_q[qi]), float(agree_q[qi] / count_q[qi]), float(kq[qi])
            )
        )
    # most disagreement first: lowest kappa (undefined last), then lowest raw agreement
    per_query.sort(key=lambda r: (r.kappa != r.kappa, r.kappa, r.agreement, r.query))
    return PairAgreement(
        a=a_name,
        b=b_name,
        both=n,
        only_a=only[0],
        only_b=only[1],
        grades=tuple(range(lo, hi + 1)),
        confusion=confusion,
        observed=float(np.trace(confusion) / n) if n else float("nan"),
        statistics=stats,
        per_grade=per_grade,
        binary_confusion=bconfusion,
        binary_statistics=bstats,
        mean_difference=float(diff.mean()) if n else float("nan"),
        b_higher=float((diff > 0).mean()) if n else float("nan"),
        a_higher=float((diff < 0).mean()) if n else float("nan"),
        per_query=per_query,
    )


def _all_sets(ctx: _Context, grid, lo, hi, suffix, m, singles) -> dict[str, Estimate]:
    """Krippendorff's alpha, Fleiss' kappa and Gwet's AC1/AC2 over every set at once
    (``singles``: query code and grade of the pairs judged by one set, for Gwet's pi_k)."""
    k = hi - lo + 1
    judged = grid >= 0
    counts = np.zeros((len(grid), k))
    for s in range(m):
        rows = np.flatnonzero(judged[:, s])
        np.add.at(counts, (rows, grid[rows, s] - lo), 1.0)
    every = np.arange(len(grid))
    out: dict[str, Estimate] = {}
    coinc = S.coincidences(np.where(judged, grid - lo, -1), ctx.qcode, ctx.nq, k)
    for level in ("nominal", "ordinal", "interval"):
        out[f"alpha_{level}"] = ctx.estimate(
            [coinc], lambda o, lv=level: S.krippendorff_alpha(o, lv)
        )
    full = np.flatnonzero(judged.all(axis=1))
    p_i, n_ij = S.fleiss_terms(counts[full])
    out["fleiss_kappa"] = ctx.estimate(
        [
            ctx.per_query(p_i, full),
            ctx.per_query(np.ones(len(full)), full),
            ctx.per_query(n_ij, full),
        ],
        S.fleiss_kappa,
    )
    ones = ctx.per_query(np.ones(len(grid)), every)
    s_code, s_grade = singles
    s_units = np.bincount(s_code, minlength=ctx.nq).astype(np.float64)
    s_pi = np.bincount(s_code * k + (s_grade - lo), minlength=ctx.nq * k).astype(np.float64)
    for name, weighted in (("ac1", False), ("ac2", True)):
        pa, pi = S.gwet_terms(counts, weighted)
        out[name] = ctx.estimate(
            [
                ctx.per_query(pa, every),
                ones,
                ctx.per_query(pi, every) + s_pi.reshape(ctx.nq, k),
                ones + s_units,
            ],
            lambda sa, u, sp, up, w=weighted: S.gwet_ac(sa, u, sp, up, w),
        )
    undefined: dict[tuple[str, str], list[str]] = {}
    for name, est in out.items():
        if est.value != est.value:
            reason = (
                "no pair is judged by every set"
                if name == "fleiss_kappa" and len(full) == 0 and len(grid)
                else _why_undefined(grid)
            )
            if name in ("ac1", "ac2") and k == 1 and len(grid):
                reason = f"a single category (every judgment has grade {lo})"
            undefined.setdefault((f"{suffix} over all sets", reason), []).append(name)
    _undefined_notes(ctx, undefined)
    return out


def _undefined_notes(ctx: _Context, undefined: dict[tuple[str, str], list[str]]) -> None:
    """One warning per subject and reason, naming every statistic it leaves undefined."""
    for (subject, reason), names in undefined.items():
        verb = "is" if len(names) == 1 else "are"
        ctx.notes.append(f"{', '.join(names)}{subject} {verb} undefined (NaN): {reason}")
