"""How far an experiment was reproduced or replicated: Breuer, Ferro, Fuhr, Maistro, Sakai,
Schaer & Soboroff, "How to Measure the Reproducibility of System-oriented IR Experiments",
SIGIR 2020 (doi:10.1145/3397271.3401036), as the authors' ``repro_eval`` 0.5.0 computes it.

An original experiment has a baseline run B and an advanced run A; the reproduced
(same collection, same topics) or replicated (another collection, ``rep_qrels``) experiment has
B' and A'.  The paper's measures, at the levels of granularity it measures at (the formulas
are those of ``repro_eval``'s source, which the tests compare with; the paper's section and
equation numbers were not checked against its text, which was not at hand):

- order of documents, per topic, original run against its reproduction (reproducibility only):
  Kendall's tau Union (KTU) and rank-biased overlap (RBO);
- effectiveness, per measure (reproducibility only): RMSE of the per-topic scores,
  ``sqrt(sum_j (M_j(B) - M_j(B'))^2 / n)``, and nRMSE, RMSE divided by its largest value for
  the original scores ``sqrt(sum_j max(M_j, 1 - M_j)^2 / n)`` (``repro_eval``'s normalisation);
- overall effects, per measure: the effect ratio
  ``ER = mean_j(M_j(A') - M_j(B')) / mean_j(M_j(A) - M_j(B))`` and the delta relative
  improvement ``DeltaRI = RI - RI'``, ``RI = (mean M(A) - mean M(B)) / mean M(B)``;
- significance, per measure and run: the two-sided paired t-test of the original against the
  reproduced scores (reproducibility), or the unpaired two-sample t-test (replicability;
  Student's pooled variance as ``repro_eval`` runs it, Welch's with ``welch=True``).

Conventions of ``repro_eval`` kept: KTU is scipy's tau-b between the two rankings written as
the positions of their documents in the sorted union of both, rounded to 14 digits (it needs
two rankings of equal length: a topic where they differ is undefined here, with a warning,
where ``repro_eval`` stops with scipy's error); RBO is the depth-truncated, normalised
``sum_{d<=depth} p^(d-1) X_d / d / sum_{d<=depth} p^(d-1)`` (Clarke et al.'s code, which
``repro_eval`` reproduces; ``p=0.95``, ``depth=1000``), with Webber et al.'s RBO_ext
(:mod:`cranfield.comparing.rbo`) given beside it; means are numpy's; the t-tests' p-values are
scipy's, and when every p-value is undefined and the original and reproduced scores are
equal they are 1.

What differs from ``repro_eval`` and has a switch (``compat="pytrec_eval"``): interpolated
precision (``IPrec``, ``IPrecAvg``: trec_eval 10.0's ``lround(r R)`` against pytrec_eval's
9.x ``(long)(r R + 0.9)``, the measures' ``rounding=trec9``), and the order of the documents
compared by KTU and RBO.  cranfield orders every ranking as trec_eval does (score
descending, then document id descending); ``repro_eval`` keeps the order of the file and only
sorts runs of equal adjacent scores by document id descending, which differs for a file not
sorted by score.  The scores themselves are trec_eval's over every judged topic of the qrels
(``complete=True``, trec_eval ``-c``: a judged topic a run has no results for scores 0), as
``repro_eval`` gets them from ir_measures, which reports every topic of the qrels.
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from cranfield.base.limits import MAX_RBO_DEPTH
from cranfield.comparing.rbo import Rankings, overlap_of, persistence, ranked_documents
from cranfield.comparing.repro_measures import (
    KTU_DEPTH,
    delta_ri,
    effect_ratio,
    kendall_tau_union,
    nrmse,
    rmse,
    t_test_p,
    truncated_rbo,
)
from cranfield.comparing.repro_result import ROLES, MeasureEffects, Reproduction
from cranfield.errors import DataWarning, InputError, ParameterError

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.results.tables import ResultsSet

__all__ = [
    "ROLES",
    "MeasureEffects",
    "Reproduction",
    "delta_ri",
    "effect_ratio",
    "kendall_tau_union",
    "nrmse",
    "repro",
    "rmse",
    "truncated_rbo",
]

COMPAT = (None, "pytrec_eval")
PYTREC_ROUNDING = ("IPrec", "IPrecAvg")
"""The measures whose recall levels pytrec_eval rounds as trec_eval 9.x did."""


def _file_order(run: Any, topics: tuple[str, ...]) -> list[list[str]]:
    """``repro_eval``'s order: the file's, runs of equal adjacent scores sorted by document id
    descending (its ``break_ties``); a document again in a topic keeps its first place."""
    per: dict[str, list[tuple[str, float]]] = {t: [] for t in topics}
    seen: dict[str, set[str]] = {t: set() for t in topics}
    qids = run.query_ids
    for code, doc, score in zip(
        run.qcodes.tolist(), run.docs.to_list(), run.scores.tolist(), strict=True
    ):
        q = qids[code]
        if q in per and doc not in seen[q]:
            seen[q].add(doc)
            per[q].append((doc, score))
    out = []
    for t in topics:
        ranked: list[str] = []
        items = per[t]
        i = 0
        while i < len(items):
            j = i
            while j < len(items) and items[j][1] == items[i][1]:
                j += 1
            ranked.extend(sorted((d for d, _ in items[i:j]), reverse=True))
            i = j
        out.append(ranked)
    return out


def _as_rankings(lists: list[list[str]], vocabulary: dict[str, int]) -> Rankings:
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in lists], out=offsets[1:])
    codes = np.fromiter(
        (vocabulary.setdefault(d, len(vocabulary)) for x in lists for d in x),
        dtype=np.int64,
        count=int(offsets[-1]),
    )
    return Rankings(offsets=offsets, codes=codes)


def _lists(r: Rankings, names: list[str]) -> list[list[str]]:
    return [
        [names[c] for c in r.codes[r.offsets[q] : r.offsets[q + 1]].tolist()]
        for q in range(len(r.offsets) - 1)
    ]


def _same_topics(runs: dict[str, Any], a: str, b: str, why: str) -> None:
    """An InputError naming ``b``'s file when its topics are not ``a``'s."""
    ta, tb = set(runs[a].query_ids), set(runs[b].query_ids)
    if ta != tb:
        extra, missing = sorted(tb - ta), sorted(ta - tb)
        what = (
            f"topic {extra[0]!r} is not in {runs[a].source}"
            if extra
            else f"topic {missing[0]!r} of {runs[a].source} is missing"
        )
        raise InputError(
            runs[b].source, f"{what} ({why}; {len(extra)} extra, {len(missing)} missing)"
        )


def repro(
    orig_baseline: Any,
    orig_advanced: Any,
    rep_baseline: Any,
    rep_advanced: Any,
    qrels: Any,
    rep_qrels: Any = None,
    *,
    measures: Any = None,
    p: float = 0.95,
    depth: int = 1000,
    welch: bool = False,
    compat: str | None = None,
) -> Reproduction:
    """Measure how far the runs ``rep_baseline``/``rep_advanced`` reproduce the original
    ``orig_baseline``/``orig_advanced`` (Breuer et al., SIGIR 2020; see the module docstring).

    Without ``rep_qrels``: reproducibility, the four runs on ``qrels`` with the same topics
    (an :class:`~cranfield.errors.InputError` otherwise), with KTU, RBO, RMSE, nRMSE, ER,
    DeltaRI and paired t-tests.  With ``rep_qrels``: replicability, the reproduced runs scored on
    ``rep_qrels`` (another collection), with ER, DeltaRI and unpaired t-tests.

    ``measures``: cranfield measure strings (default AP, nDCG@10, P@10, RR, R@1000);
    ``p``/``depth``: RBO's persistence and depth; ``welch``: Welch's unpaired test instead of
    Student's; ``compat="pytrec_eval"``: ``repro_eval``'s document order for KTU and RBO and
    pytrec_eval's rounding of interpolated precision."""
    from cranfield.base import arguments as A
    from cranfield.evaluation import evaluate
    from cranfield.io import read_qrels, read_run

    if compat not in COMPAT:
        raise ParameterError(f"compat must be None or 'pytrec_eval', got {compat!r}")
    p = persistence(p)
    depth = A.integer(depth, "depth (rank-biased overlap)", minimum=1, maximum=MAX_RBO_DEPTH)
    welch = A.flag(welch, "welch")
    if welch and rep_qrels is None:
        raise ParameterError("welch=True is for replicability (an unpaired test): give rep_qrels")
    labels, chosen = _chosen_measures(measures, compat)
    sources = dict(
        zip(ROLES, (orig_baseline, orig_advanced, rep_baseline, rep_advanced), strict=True)
    )
    runs = {role: read_run(src, name=role) for role, src in sources.items()}
    q_orig = read_qrels(qrels)
    q_rep = q_orig if rep_qrels is None else read_qrels(rep_qrels)
    rpd = rep_qrels is None
    kind = "reproducibility" if rpd else "replicability"
    _same_topics(runs, "orig_baseline", "orig_advanced", "the original runs need the same topics")
    _same_topics(runs, "rep_baseline", "rep_advanced", "the reproduced runs need the same topics")
    if rpd:
        _same_topics(
            runs,
            "orig_baseline",
            "rep_baseline",
            "reproducibility compares the same topics; give the qrels of another "
            "collection as QRELS2 for replicability",
        )
    results = {}
    for role, run in runs.items():
        judged = q_orig if role.startswith("orig") or rpd else q_rep
        if not set(run.query_ids) & set(judged.query_ids):
            raise InputError(run.source, f"no topic of the run has judgments in {judged.source}")
        evaluated = cast("ResultsSet", evaluate(judged, {role: run}, chosen, complete=True))
        results[role] = evaluated[role]  # a dict of runs gives a ResultsSet
    notes: list[str] = []
    effects = []
    for j, label in enumerate(labels):
        col = {role: np.ascontiguousarray(results[role].values[:, j]) for role in ROLES}
        tests = {
            w: t_test_p(col[f"orig_{w}"], col[f"rep_{w}"], rpd, welch)
            for w in ("baseline", "advanced")
        }
        effects.append(
            MeasureEffects(
                measure=label,
                means={role: float(col[role].mean()) for role in ROLES},
                er=effect_ratio(*(col[r] for r in ROLES)),
                delta_ri=delta_ri(*(col[r] for r in ROLES)),
                p_value=tests,
                rmse={w: rmse(col[f"orig_{w}"], col[f"rep_{w}"]) for w in ("baseline", "advanced")}
                if rpd
                else {},
                nrmse={
                    w: nrmse(col[f"orig_{w}"], col[f"rep_{w}"]) for w in ("baseline", "advanced")
                }
                if rpd
                else {},
            )
        )
    effects = _undefined_tests(effects, results, labels)
    common: dict[str, Any] = {}
    if rpd:
        common = _orders(runs, p, depth, compat, notes)
    return Reproduction(
        kind=kind,
        runs={role: runs[role].source for role in ROLES},
        qrels=(q_orig.source,) if rpd else (q_orig.source, q_rep.source),
        topics={
            "orig": results["orig_baseline"].query_ids,
            "rep": results["rep_baseline"].query_ids,
        },
        measures=tuple(effects),
        test="paired t-test" if rpd else ("Welch's t-test" if welch else "Student's t-test"),
        compat=compat,
        p=p,
        depth=depth,
        warnings=tuple(notes),
        **common,
    )


def _chosen_measures(measures: Any, compat: str | None) -> tuple[list[str], list[Any]]:
    """The labels as written and the Measures computed (evaluate's own parsing and checks),
    interpolated precision with pytrec_eval's 9.x rounding under ``compat="pytrec_eval"``
    (unless the measure gives ``rounding`` itself); a measure given twice counts once."""
    from cranfield.evaluation import measure_specs as parsed
    from cranfield.measures import Measure

    labels: list[str] = []
    chosen: list[Any] = []
    for label, m in parsed(measures):
        if compat == "pytrec_eval" and m.name in PYTREC_ROUNDING:
            params = dict(m.params)
            params.setdefault("rounding", "trec9")
            m = Measure(m.name, params, m.cutoff)
        if str(m) not in map(str, chosen):
            labels.append(label)
            chosen.append(m)
    return labels, chosen


def _undefined_tests(effects: list[MeasureEffects], results: dict, labels) -> list:
    """``repro_eval``'s rule: when every p-value of a run is undefined and its original and
    reproduced scores are the same, the p-values are 1."""
    out = list(effects)
    for w in ("baseline", "advanced"):
        if all(math.isnan(m.p_value[w]) for m in out):
            o, r = results[f"orig_{w}"], results[f"rep_{w}"]
            if o.query_ids == r.query_ids and np.array_equal(o.values, r.values):
                out = [
                    MeasureEffects(
                        m.measure, m.means, m.er, m.delta_ri, {**m.p_value, w: 1.0}, m.rmse, m.nrmse
                    )
                    for m in out
                ]
    return out


def _orders(
    runs: dict[str, Any], p: float, depth: int, compat: str | None, notes: list[str]
) -> dict[str, Any]:
    """KTU, RBO and RBO_ext per topic of the original runs against their reproductions."""
    topics = tuple(sorted(runs["rep_baseline"].query_ids))
    ktu, rbo, ext = {}, {}, {}
    for w in ("baseline", "advanced"):
        vocabulary: dict[str, int] = {}
        o, r = runs[f"orig_{w}"], runs[f"rep_{w}"]
        if compat == "pytrec_eval":
            lo, lr = _file_order(o, topics), _file_order(r, topics)
            ro, rr = _as_rankings(lo, vocabulary), _as_rankings(lr, vocabulary)
        else:
            ro = ranked_documents(o, list(topics), vocabulary)
            rr = ranked_documents(r, list(topics), vocabulary)
            names = list(vocabulary)
            lo, lr = _lists(ro, names), _lists(rr, names)
        cut = KTU_DEPTH
        ktu[w] = np.array(
            [kendall_tau_union(a[:cut], b[:cut]) for a, b in zip(lo, lr, strict=True)]
        )
        uneven = [t for t, a, b in zip(topics, lo, lr, strict=True) if len(a[:cut]) != len(b[:cut])]
        if uneven:
            msg = (
                f"KTU of the {w} runs is undefined for {len(uneven)} topic(s) whose "
                f"rankings differ in length (first: {uneven[0]!r}); the mean is over the "
                f"others"
            )
            notes.append(msg)
            warnings.warn(msg, DataWarning, stacklevel=3)
        rbo[w] = truncated_rbo(rr, ro, p, depth)
        ext[w] = overlap_of(ro, rr, p)[2]
    return {"order_topics": topics, "ktu": ktu, "rbo": rbo, "rbo_ext": ext}
