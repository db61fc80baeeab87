"""``cranfield trec_eval -h``: the options, then the documentation of each measure named by -m."""

from __future__ import annotations

from cranfield.compat.trec_eval.catalogue import CATALOGUE, NICKNAMES
from cranfield.compat.trec_eval.options import Options

OPTIONS_HELP = """\
cranfield trec_eval: trec_eval 10.0's command line and output, computed by cranfield.

trec_eval [-h] [-q] [-m measure[.params]] [-c] [-n] [-l num] [-D debug_level]
          [-N num] [-M num] [-J] [-R rel_format] [-T results_format] [-Z zscore_file]
          rel_info_file results_file

Evaluates the ranked results in results_file against the relevance information in
rel_info_file ('-' as results_file reads standard input).  Options may follow the file
names, take their value attached (-M100, -mP.5) and be grouped (-qc).

 -h, --help                   this help, plus the documentation of the measures named by -m
 -v, --version                print the version (on standard error) and exit
 -q, --query_eval_wanted      also print one block of values per topic
 -m, --measure NAME[.PARAMS]  add a measure or a nickname (official, all_trec, set,
                              all_prefs, prefs, qrels_jg); default: official.  Parameters
                              follow the first '.', comma separated: cutoffs (P.5,10),
                              recall levels (iprec_at_recall.0.25,0.5), numbers
                              (utility.1,-1,0,0) or grade=gain pairs (ndcg.1=1,2=3)
 -c, --complete_rel_info_wanted
                              average over every topic of rel_info_file; topics without
                              results are evaluated as an empty ranking
 -l, --level_for_rel NUM      minimum grade counted relevant (default 1)
 -n, --nosummary              no summary block
 -D, --Debug_level NUM[.QID]  with .QID, evaluate only that topic (debug output is not
                              reproduced)
 -N, --Number_docs_in_coll N  collection size (used by utility)
 -M, --Max_retrieved_per_topic N
                              keep only the first N documents of each ranking
 -J, --Judged_docs_only       drop documents without a judgment before measuring
 -R, --Rel_info_format FMT    qrels (default), qrels_jg, prefs or qrels_prefs
 -T, --Results_format FMT     trec_results (the only format)
 -Z, --Zscore FILE            print z-scores against the 'qid measure mean stddev' lines
                              of FILE
 -o                           obsolete, ignored

Tie order: score descending, then docno descending (trec_eval's).  Per-topic values are
averaged over topics (summed for counts; geometric mean for gm_*).  Deliberate
differences from trec_eval 10.0 are listed by 'cranfield docs trec_eval'.
"""


def help_text(marked: set[str], opts: Options) -> str:
    from cranfield.measures.registry import lookup

    parts = [OPTIONS_HELP, "-----------------------\n"]
    names = [tm for tm in CATALOGUE if tm.name in marked]
    if not names:
        parts.append(
            "No measures indicated.  Request measure documentation with -m measure "
            f"(nicknames: {', '.join(NICKNAMES)}).\n"
        )
    for tm in names:
        parts.append(f"{tm.name}\n")
        base = tm.cranfield.split("(")[0].split("@")[0]
        d = lookup(base) if base else None
        if d is not None:
            parts.append(f"    cranfield: {tm.cranfield}\n    {d.summary}\n    {d.formula}\n")
            parts.append(f"    Source: {d.source}\n")
        elif tm.cranfield:
            parts.append(f"    {tm.cranfield}\n")
        else:
            parts.append(f"    needs -R {tm.rel_format}\n")
    return "".join(parts)
