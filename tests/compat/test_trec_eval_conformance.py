"""`cranfield trec_eval` reproduces trec_eval 10.0's expected outputs byte for byte.

The commands are those of ../shared/conformance/trec_eval/README.md (upstream's quicktest, rows
1-15, and the generated-v10.0 cases), run through the real command line from that directory.
"""

from __future__ import annotations

import pytest

from conftest import CONFORMANCE, need

MEAS_PARAMS = (
    "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 "
    "-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 "
    "-mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20"
)
EXTRA = (
    "-q -m dcg -m ideal_dcg -m yaap -m ndcg_rel.0=1,1=0.5,2=3 -m G.1=2 -m Rndcg.2=1,1=3 "
    "-m rbp_resid.p=0.5 -m set_F.0.25"
)
SLOW = pytest.mark.slow

CASES = [
    # (expected output, flags, rel_info file, results file)
    ("out.test", "", "qrels.test", "results.test"),
    ("out.test", "", "qrels.test.with-comments", "results.test"),
    ("out.comment.test", "", "qrels.comment.test", "results.comment.test"),
    ("out.test.a", "-m all_trec", "qrels.test", "results.test"),
    ("out.test.aq", "-m all_trec -q", "qrels.test", "results.test"),
    ("out.test.aqc", "-m all_trec -q -c", "qrels.test", "results.trunc"),
    ("out.test.aqcM", "-m all_trec -q -c -M100", "qrels.test", "results.trunc"),
    ("out.test.aql", "-m all_trec -mrelstring.20 -q -l2", "qrels.rel_level", "results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs", "prefs.test", "prefs.results.test"),
    ("out.test.prefs", "-m all_prefs -q -R prefs", "prefs.comment.test", "prefs.results.test"),
    ("out.test.qrels_prefs", "-m all_prefs -q -R qrels_prefs", "qrels.test", "results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg", "qrels.123", "results.test"),
    ("out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg", "qrels.comments.123", "results.test"),
    ("out.test.meas_params", MEAS_PARAMS, "qrels.test", "results.test"),
    ("out.test.aqZ", "-q -m all_trec -Z zscores_file", "qrels.test", "results.test"),
    ("generated-v10.0/out.302.aq", "-q -m all_trec", "qrels-302.test", "results-302.test"),
    pytest.param(
        "generated-v10.0/out.comment.aq",
        "-q -m all_trec",
        "qrels.comment.test",
        "results.comment.test",
        marks=SLOW,
    ),
    pytest.param(
        "generated-v10.0/out.comment.aql2",
        "-q -m all_trec -l 2",
        "qrels.comment.test",
        "results.comment.test",
        marks=SLOW,
    ),
    ("generated-v10.0/out.test.aqJ", "-q -J -m all_trec", "qrels.rel_level", "results.test"),
    ("generated-v10.0/out.test.extra", EXTRA, "qrels.rel_level", "results.test"),
]


def _topics(name: str) -> list[str]:
    """The topics of a rel_info or results file in order of first appearance (first field of
    each line that is not blank or a comment): an independent reading for the notes below."""
    seen: dict[str, None] = {}
    for line in (CONFORMANCE / name).read_text().split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            seen.setdefault(line.split()[0], None)
    return list(seen)


def _skip_notes(flags: str, rel_info: str, results: str) -> str:
    """What cranfield says on stderr about the topics trec_eval skips without a word (the
    wording of `cranfield evaluate`'s notes, docs/trec_eval.md)."""
    judged, ranked = _topics(rel_info), _topics(results)
    run_only = [t for t in ranked if t not in judged]
    missing = [] if "-c" in flags.split() else [t for t in judged if t not in ranked]
    out = ""
    if run_only:
        out += (
            f"cranfield: warning: {results}: {len(run_only)} queries have results but no "
            f"judgments and were not evaluated (first: {run_only[0]!r})\n"
        )
    if missing:
        out += (
            f"cranfield: warning: {results}: {len(missing)} judged queries have no results and "
            f"were skipped (use -c to score them as empty rankings) (first: {missing[0]!r})\n"
        )
    return out


@pytest.mark.parametrize(("expected", "flags", "rel_info", "results"), CASES)
def test_output_is_byte_identical_to_trec_eval(cli, expected, flags, rel_info, results):
    need(CONFORMANCE)
    proc = cli("trec_eval", *flags.split(), rel_info, results, cwd=CONFORMANCE)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr.decode() == _skip_notes(flags, rel_info, results)
    want = (CONFORMANCE / expected).read_bytes()
    if proc.stdout != want:  # show the first differing line, not 13 kB of bytes
        got_lines, want_lines = proc.stdout.splitlines(), want.splitlines()
        for i, (g, w) in enumerate(zip(got_lines, want_lines, strict=False)):
            assert g == w, f"line {i + 1} of {expected}"
        assert len(got_lines) == len(want_lines), f"{len(got_lines)} lines, want {len(want_lines)}"
    assert proc.stdout == want


def test_options_may_follow_the_files_and_long_names_work(cli):
    need(CONFORMANCE)
    proc = cli(
        "trec_eval",
        "qrels.test",
        "--measure=all_trec",
        "results.test",
        "--query_eval_wanted",
        cwd=CONFORMANCE,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == (CONFORMANCE / "out.test.aq").read_bytes()


def test_results_from_standard_input(cli):
    need(CONFORMANCE)
    data = (CONFORMANCE / "results.test").read_bytes()
    proc = cli("trec_eval", "-m", "all_trec", "qrels.test", "-", cwd=CONFORMANCE, input=data)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == (CONFORMANCE / "out.test.a").read_bytes()
