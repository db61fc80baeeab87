"""``cranfield trec_eval`` says on stderr which queries it skips (stdout unchanged, the same
bytes as without them), and a relevance-string length outside C's long gives trec_eval's
empty strings."""

from __future__ import annotations

from _cli_trust import (
    BIG,
    QRELS,
    RUN,
    call,
    files_fixture,  # noqa: F401 - the fixture 'files'
)

from conftest import run_cli


def test_trec_eval_says_which_queries_it_skips(files, tmp_path):
    """stdout is trec_eval's (the same bytes as without the unmatched queries); stderr counts
    the skipped queries in `cranfield evaluate`'s words."""
    clean_q = tmp_path / "q"
    clean_q.write_text("".join(x for x in QRELS.splitlines(True) if not x.startswith("q3")))
    clean_r = tmp_path / "r"
    clean_r.write_text("".join(x for x in RUN.splitlines(True) if not x.startswith("q9")))
    plain = run_cli("trec_eval", "-q", "-m", "all_trec", str(clean_q), str(clean_r))
    assert plain.returncode == 0 and plain.stderr == b""
    noisy = run_cli("trec_eval", "-q", "-m", "all_trec", files["qrels"], files["run"])
    assert noisy.returncode == 0
    assert noisy.stdout == plain.stdout
    assert noisy.stderr.decode().splitlines() == [
        "cranfield: warning: run: 1 queries have results but no judgments and were not "
        "evaluated (first: 'q9')",
        "cranfield: warning: run: 1 judged queries have no results and were skipped "
        "(use -c to score them as empty rankings) (first: 'q3')",
    ]
    evaluate = run_cli("evaluate", files["qrels"], files["run"], "-m", "AP", "--no-complete")
    for line in evaluate.stderr.decode().splitlines():  # the same sentences
        assert line.split(" (")[0] in noisy.stderr.decode()
    complete = run_cli("trec_eval", "-c", files["qrels"], files["run"])
    assert complete.returncode == 0
    assert complete.stderr.decode().splitlines() == [
        "cranfield: warning: run: 1 queries have results but no judgments and were not "
        "evaluated (first: 'q9')"
    ]
    debug = run_cli("trec_eval", "-D", "0.q1", files["qrels"], files["run"])
    assert debug.returncode == 0 and debug.stderr == b""  # the other queries: on request


def test_trec_eval_relstring_length_outside_long(files, capsys, monkeypatch):
    """`(long) length` of a double outside C's long is LONG_MIN on x86-64: empty strings."""
    for length in (BIG, "1e400", "nan"):
        code, out, err = call(
            ["trec_eval", "-q", "-m", f"relstring.{length}", files["qrels"], files["run"]],
            capsys,
            monkeypatch,
        )
        assert code == 0, err
        rows = [line.split("\t") for line in out.splitlines()]
        assert [(q, s) for _, q, s in rows] == [("q1", "''"), ("q2", "''")]
