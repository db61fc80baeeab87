"""``-R qrels_jg``: qrels whose second column names a judgment group (trec_eval
get_qrels_jg.c, form_res_rels_jg.c, m_map_avgjg.c, m_P_avgjg.c, m_Rprec_mult_avgjg.c).

Each (topic, judgment group) is a separate set of judgments, judged against the same
ranking; ``map_avgjg``, ``P_avgjg_k`` and ``Rprec_mult_avgjg_x`` are AP, P@k and
Rprec(mult=x) of every group, summed in group-id (``strcmp``) order and divided by the
number of groups of the topic.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import Qrels
from ..errors import InputError
from ..io.text import read_bytes
from ..io.validate import check_qrels_duplicates
from ..judging import judge
from ..measures import Measure

__all__ = ["QrelsJG", "evaluate_jg", "read_qrels_jg"]

_INT = __import__("re").compile(rb"[+-]?[0-9]+")


@dataclass(frozen=True)
class QrelsJG:
    """Judgments by (topic, judgment group)."""

    source: str
    groups: dict[str, Qrels]  # judgment group id -> its qrels (topics having that group)
    query_ids: tuple[str, ...]  # all topics, strcmp order
    grades: np.ndarray  # every grade of the file (for the -c num_rel summary)


def read_qrels_jg(path: str) -> QrelsJG:
    data = read_bytes(path)
    rows: dict[str, tuple[list, list, list, list]] = {}
    all_grades: list[int] = []
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        f = raw.split()
        if not f or f[0][:1] == b"#":
            continue
        if len(f) != 4:
            raise InputError(
                path,
                f"expected 4 columns (query, judgment group, document, grade), found {len(f)}",
                lineno,
            )
        if _INT.fullmatch(f[3]) is None:
            raise InputError(
                path, f"grade {f[3].decode('utf-8', 'replace')!r} is not an integer", lineno
            )
        jg = f[1].decode("utf-8", "replace")
        q, d, g, ln = rows.setdefault(jg, ([], [], [], []))
        q.append(f[0].decode("utf-8", "replace"))
        d.append(f[2].decode("utf-8", "replace"))
        g.append(int(f[3]))
        ln.append(lineno)
        all_grades.append(int(f[3]))
    if not rows:
        raise InputError(path, "no judgments (file empty or only comments)")
    groups = {}
    for jg in sorted(rows):
        q, d, g, ln = rows[jg]
        qr = Qrels.from_rows(q, d, g, source=path, lines=np.asarray(ln))
        check_qrels_duplicates(qr)
        groups[jg] = qr
    topics = sorted({t for qr in groups.values() for t in qr.query_ids})
    return QrelsJG(path, groups, tuple(topics), np.asarray(all_grades, dtype=np.int64))


def _m(name: str, cutoff=None, **params) -> Measure:
    from ..measures.registry import REGISTRY

    d = REGISTRY[name]
    return Measure.unchecked(  # trec_eval's own parameter rules
        name, tuple((p.name, params[p.name]) for p in d.params if p.name in params), cutoff
    )


def evaluate_jg(rel: QrelsJG, run, opts, measures) -> tuple[list[str], dict[str, list[np.ndarray]]]:
    """Per-topic values of the ``*_avgjg`` measures (topics in ``strcmp`` order)."""
    run_topics = set(run.query_ids)
    topics = [t for t in rel.query_ids if opts.complete or t in run_topics]
    if opts.debug_query is not None:
        topics = [t for t in topics if t == opts.debug_query]
    index = {t: i for i, t in enumerate(topics)}
    wanted = {tm.name: parsed.values for tm, parsed in measures}
    specs: dict[str, list[Measure]] = {}
    L = opts.level
    if "map_avgjg" in wanted:
        specs["map_avgjg"] = [_m("AP", rel=L)]
    if "P_avgjg" in wanted:
        specs["P_avgjg"] = [_m("P", k, rel=L) for k in wanted["P_avgjg"]]
    if "Rprec_mult_avgjg" in wanted:
        specs["Rprec_mult_avgjg"] = [
            _m("Rprec", rel=L, mult=float(x)) for x in wanted["Rprec_mult_avgjg"]
        ]
    nq = len(topics)
    sums = {name: [np.zeros(nq) for _ in ms] for name, ms in specs.items()}
    n_groups = np.zeros(nq)
    for qr in rel.groups.values():  # group ids in strcmp order: the order trec_eval adds them
        qr = qr.restrict(topics)
        if qr.num_queries == 0:
            continue
        jr = judge(
            qr,
            run,
            ties="trec",
            depth=opts.max_docs,
            judged_only=opts.judged_only,
            complete=opts.complete,
        )
        at = np.array([index[q] for q in jr.query_ids], dtype=np.int64)
        n_groups[at] += 1
        for name, ms in specs.items():
            for j, m in enumerate(ms):
                sums[name][j][at] += m.compute(jr)
    values: dict[str, list[np.ndarray]] = {}
    for name, cols in sums.items():
        values[name] = [np.where(n_groups > 1, c / np.maximum(n_groups, 1), c) for c in cols]
    return topics, values
