"""`evaluate` under cranfield names gives trec_eval's numbers.

Two checks on the conformance data: (1) every per-topic and summary value that trec_eval 10.0
printed (the expected files, 4 decimals) is what `evaluate` computes for the mapped cranfield
measure; (2) `evaluate` and `cranfield trec_eval` agree to the last bit on every value.
The name mapping below is written independently of the compat catalogue.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import cranfield
from conftest import CONFORMANCE, need
from cranfield.compat.trec_eval.cformat import fmt_double
from cranfield.compat.trec_eval.engine import evaluate_argv
from cranfield.measures.rbp import powers

SIMPLE = {
    "num_ret": "NumRet",
    "num_rel": "NumRel",
    "num_rel_ret": "NumRelRet",
    "map": "AP",
    "Rprec": "Rprec",
    "bpref": "Bpref",
    "recip_rank": "RR",
    "infAP": "infAP",
    "utility": "Utility",
    "11pt_avg": "IPrecAvg",
    "binG": "BinG",
    "G": "G",
    "ndcg": "nDCG",
    "ndcg_rel": "nDCGRel",
    "Rndcg": "RnDCG",
    "set_P": "SetP",
    "set_relative_P": "SetRelP",
    "set_recall": "SetR",
    "set_map": "SetAP",
    "set_F": "SetF",
    "num_nonrel_judged_ret": "NumNonRelJudgedRet",
    "rbp": "RBP",
    "rbp_resid": "RBPResid",
    "dcg": "DCG",
    "ideal_dcg": "IDCG",
    "yaap": "YAAP",
    "gm_map": "GMAP",
    "gm_bpref": "GMBpref",
    "num_q": "NumQ",
}
CUT = {
    "P": "P",
    "recall": "R",
    "ndcg_cut": "nDCG",
    "map_cut": "AP",
    "relative_P": "RelP",
    "success": "Success",
    "unj": "Unjudged",
}
# measures whose definition takes the relevance level (trec_eval -l)
WITH_REL = {
    "NumRel", "NumRelRet", "AP", "Rprec", "Bpref", "RR", "infAP", "Utility", "IPrecAvg",
    "BinG", "RnDCG", "SetP", "SetRelP", "SetR", "SetAP", "SetF", "NumNonRelJudgedRet",
    "YAAP", "GMAP", "GMBpref", "P", "R", "RelP", "Success", "IPrec",
}  # fmt: skip


def _with(name: str, rel: int, extra: str = "", cutoff: str = "") -> str:
    params = [f"rel={rel}"] if rel != 1 and name in WITH_REL else []
    if extra:
        params.append(extra)
    return name + (f"({','.join(params)})" if params else "") + (f"@{cutoff}" if cutoff else "")


def cranfield_name(trec: str, rel: int) -> str | None:
    """The cranfield measure string for a printed trec_eval name (None: no counterpart)."""
    if trec in SIMPLE:
        return _with(SIMPLE[trec], rel)
    if m := re.fullmatch(r"iprec_at_recall_([0-9.]+)", trec):
        return _with("IPrec", rel, cutoff=repr(float(m[1])))
    if m := re.fullmatch(r"Rprec_mult_([0-9.]+)", trec):
        return _with("Rprec", rel, f"mult={float(m[1])!r}")
    if m := re.fullmatch(r"(P|recall|ndcg_cut|map_cut|relative_P|success|unj)_(\d+)", trec):
        return _with(CUT[m[1]], rel, cutoff=m[2])
    if m := re.fullmatch(r"utility_(.+)", trec):
        a, b, c, d = m[1].split(",")
        return _with("Utility", rel, f"a={a},b={b},c={c},d={d}")
    if m := re.fullmatch(r"set_F_(.+)", trec):
        return _with("SetF", rel, f"beta={float(m[1]) ** 0.5!r}")
    if m := re.fullmatch(r"(ndcg_rel|ndcg|Rndcg|G)_(.+)", trec):
        name = {"ndcg": "nDCG", "ndcg_rel": "nDCGRel", "G": "G", "Rndcg": "RnDCG"}[m[1]]
        gains = ",".join(f"{g}:{v}" for g, v in (p.split("=") for p in m[2].split(",")))
        return _with(name, rel, f"gains={{{gains}}}")
    if m := re.fullmatch(r"rbp_resid_p=(.+)", trec):
        return _with("RBPResid", rel, f"p={m[1]}")
    if m := re.fullmatch(r"11pt_avg_(.+)", trec):
        return None  # custom point lists exist only in the compat command
    return None


def parse_output(path):
    rows = []
    for line in path.read_text().splitlines():
        name, qid, value = line.split("\t")
        rows.append((name.strip(), qid, value))
    return rows


CASES = [
    # (expected, qrels, run, evaluate keywords, relevance level)
    ("out.test.aq", "qrels.test", "results.test", {}, 1),
    ("out.test.aql", "qrels.rel_level", "results.test", {}, 2),
    ("generated-v10.0/out.test.aqJ", "qrels.rel_level", "results.test", {"judged_only": True}, 1),
    ("out.test.aqc", "qrels.test", "results.trunc", {"complete": True}, 1),
    ("out.test.aqcM", "qrels.test", "results.trunc", {"complete": True, "depth": 100}, 1),
    ("out.test.meas_params", "qrels.test", "results.test", {}, 1),
    ("generated-v10.0/out.test.extra", "qrels.rel_level", "results.test", {}, 1),
    ("generated-v10.0/out.302.aq", "qrels-302.test", "results-302.test", {}, 1),
]
# trec_eval blanks these (by these exact names) for a topic missing from the run (-c);
# evaluate(complete=True) scores the empty ranking (Utility 0 anyway; RBPResid: p^0 = 1):
# documented in docs/trec_eval.md
FORCED_ZERO_WHEN_MISSING = {"utility", "rbp_resid"}
# printed by trec_eval but not numbers of a registry measure
NO_COUNTERPART = {"runid", "relstring", "relstring_20", "11pt_avg_.25,.5,.75"}


@pytest.mark.parametrize(("expected", "qrels", "run", "kw", "rel"), CASES)
def test_evaluate_prints_what_trec_eval_printed(expected, qrels, run, kw, rel):
    need(CONFORMANCE)
    rows = parse_output(CONFORMANCE / expected)
    names = sorted({n for n, _, _ in rows if cranfield_name(n, rel)})
    measures = [cranfield_name(n, rel) for n in names]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(CONFORMANCE / qrels, CONFORMANCE / run, measures, **kw)
    per_query = {
        q: dict(zip(res.labels, row, strict=True))
        for q, row in zip(res.query_ids, res.values.tolist(), strict=True)
    }
    summary = res.aggregate()
    missing = set(res.notes.get("missing_queries", []))
    for name, qid, printed in rows:
        label = cranfield_name(name, rel)
        if label is None:
            assert name in NO_COUNTERPART, name
            continue
        if qid == "all":
            if name == "num_rel" and kw.get("complete"):
                continue  # trec_eval's -c summary counts grade > 0 lines (docs/trec_eval.md)
            if name in FORCED_ZERO_WHEN_MISSING and missing:
                continue
            value = summary[label]
        else:
            if name in FORCED_ZERO_WHEN_MISSING and qid in missing:
                continue
            value = per_query[qid][label]
        is_int = printed.lstrip("-").isdigit()
        got = str(int(value)) if is_int else fmt_double(value)
        assert got == printed, f"{name} ({label}) on {qid}: {got} != {printed}"


ARGS = [
    ["-q", "-m", "all_trec", "qrels.test", "results.test"],
    ["-q", "-m", "all_trec", "-l2", "qrels.rel_level", "results.test"],
    ["-q", "-J", "-m", "all_trec", "qrels.rel_level", "results.test"],
    ["-q", "-c", "-M", "100", "-m", "all_trec", "qrels.test", "results.trunc"],
    ["-q", "-m", "dcg", "-m", "ideal_dcg", "-m", "yaap", "-m", "ndcg.0=1,1=0.5,2=3",
     "qrels.rel_level", "results.test"],
]  # fmt: skip


@pytest.mark.parametrize("argv", ARGS, ids=lambda a: " ".join(a))
def test_evaluate_equals_the_compat_command_to_the_last_bit(argv, monkeypatch):
    need(CONFORMANCE)
    monkeypatch.chdir(CONFORMANCE)
    ev = evaluate_argv(argv)
    rel = ev.opts.level
    slots = ev.slots()
    names = [n for n in slots if cranfield_name(n, rel) and not n.startswith("gm_")]
    labels = [cranfield_name(n, rel) for n in names]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(
            argv[-2],
            argv[-1],
            [*labels, "NumRet"],
            judged_only=ev.opts.judged_only,
            complete=ev.opts.complete,
            depth=ev.opts.max_docs,
        )
    assert list(res.query_ids) == ev.qids
    missing = np.isin(np.array(ev.qids), res.notes.get("missing_queries", []))
    for name, label in zip(names, labels, strict=True):
        ours, theirs = res.column(label), slots[name]
        if name in FORCED_ZERO_WHEN_MISSING:
            ours, theirs = ours[~missing], theirs[~missing]
        if name == "rbp_resid":
            # trec_eval prints 0 instead of the tail p^n when nothing retrieved is unjudged
            n = res.column("NumRet")[~missing].astype(int)
            quirk = theirs == 0
            assert np.array_equal(ours[quirk], [powers(0.9, k)[k] for k in n[quirk]])
            ours, theirs = ours[~quirk], theirs[~quirk]
        assert np.array_equal(ours, theirs, equal_nan=True), f"{name} vs {label}"
