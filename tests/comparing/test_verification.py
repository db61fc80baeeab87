"""``cranfield verify EXPECTED.yaml`` and ``cranfield.verify``: regression checks of scores.

The expected scores are trec_eval 10.0's (``out.test`` of its test suite, qrels.test and
results.test, printed to 4 decimals): within half a unit of the 4th decimal every check is OK;
moved by hand by a known amount, a check becomes OKish or FAIL, and the exit status says so.
Every problem of the YAML file is one error naming the file, the line and the key, status 2.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cranfield import verify
from cranfield.comparing.verification import judge_value
from cranfield.errors import InputError

# trec_eval 10.0, out.test (qrels.test, results.test): the means it prints
TREC_EVAL = {"AP": 0.1785, "P@10": 0.3000, "Rprec": 0.2174, "RR": 0.4064, "num_ret": 1500}


def _yaml(conformance_dir: Path, expected: dict, extra: str = "", run_extra: str = "") -> str:
    lines = [
        f"qrels: {conformance_dir / 'qrels.test'}",
        "tolerance: 0.00005",
        extra,
        "runs:",
        f"  - run: {conformance_dir / 'results.test'}",
        "    name: STANDARD",
        run_extra,
        "    expected:",
    ]
    for k, v in expected.items():
        lines.append(f"      {k}: {v}")
    return "\n".join(x for x in lines if x) + "\n"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "expected.yaml"
    p.write_text(text)
    return p


def test_trec_evals_scores_are_ok(tmp_path, conformance_dir):
    checks = verify(write(tmp_path, _yaml(conformance_dir, TREC_EVAL)))
    assert [(c.run, c.measure, c.verdict) for c in checks] == [
        ("STANDARD", m, "OK") for m in TREC_EVAL
    ]
    assert checks.passed and checks.status == 0
    for c in checks:
        assert abs(c.got - TREC_EVAL[c.measure]) <= 0.00005


def test_a_score_off_by_more_than_the_tolerance_is_okish_then_fail(tmp_path, conformance_dir):
    moved = {
        **TREC_EVAL,
        "AP": {"value": 0.1795, "okish": 0.002},  # 0.001 off: OKish
        "P@10": 0.3100,  # 0.01 off, default okish 1e-3: FAIL
    }
    text = _yaml(conformance_dir, {k: _flow(v) for k, v in moved.items()})
    checks = verify(write(tmp_path, text))
    verdicts = {c.measure: c.verdict for c in checks}
    assert verdicts == {"AP": "OKish", "P@10": "FAIL", "Rprec": "OK", "RR": "OK", "num_ret": "OK"}
    assert not checks.passed and checks.status == 1
    ap = checks[0]
    assert (ap.tolerance, ap.okish) == (0.00005, 0.002)
    assert abs(ap.difference - (-0.001)) <= 0.00005


def _flow(v):
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {x}" for k, x in v.items()) + "}"
    return v


def test_the_command_prints_the_table_and_its_status_says_fail(tmp_path, conformance_dir, cli):
    ok = write(tmp_path, _yaml(conformance_dir, TREC_EVAL))
    out = cli("verify", str(ok))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.decode().splitlines()
    assert lines[0].split() == [
        "run", "measure", "expected", "got", "difference", "tolerance", "okish", "verdict"
    ]  # fmt: skip
    assert [line.split()[1] for line in lines[2:-1]] == list(TREC_EVAL)
    assert all(line.split()[-1] == "OK" for line in lines[2:-1])
    assert lines[-1] == "5 checks: 5 OK, 0 OKish, 0 FAIL"

    bad = write(tmp_path, _yaml(conformance_dir, {**TREC_EVAL, "RR": 0.5}))
    out = cli("verify", str(bad))
    assert out.returncode == 1
    assert out.stdout.decode().splitlines()[-1] == "5 checks: 4 OK, 0 OKish, 1 FAIL"
    assert out.stderr == b""


def test_okish_passes(tmp_path, conformance_dir, cli):
    text = _yaml(conformance_dir, {"AP": 0.1790}, extra="okish: 0.001")
    out = cli("verify", str(write(tmp_path, text)))
    assert out.returncode == 0
    assert out.stdout.decode().splitlines()[-1] == "1 checks: 0 OK, 1 OKish, 0 FAIL"


def test_relative_paths_are_read_from_the_yaml_files_directory(tmp_path, conformance_dir):
    d = tmp_path / "sub"
    d.mkdir()
    (d / "q.txt").write_bytes((conformance_dir / "qrels.test").read_bytes())
    (d / "r.txt").write_bytes((conformance_dir / "results.test").read_bytes())
    p = d / "e.yaml"
    p.write_text("qrels: q.txt\nruns:\n  - run: r.txt\n    expected: {AP: 0.1785, P@10: 0.3}\n")
    checks = verify(p)
    assert [c.run for c in checks] == ["r.txt", "r.txt"]
    assert [c.verdict for c in checks] == ["OK", "OK"]


def test_options_change_the_scores(tmp_path, conformance_dir):
    """depth=1: P@10 is the share of relevant documents at rank 1 over 10 (at most 0.1)."""
    text = _yaml(conformance_dir, {"P@10": 0.3}, extra="options: {depth: 1}")
    (check,) = verify(write(tmp_path, text))
    assert check.verdict == "FAIL" and check.got <= 0.1


def test_the_verdicts():
    assert judge_value(0.5, 0.5, 0, 0) == "OK"
    assert judge_value(0.5, 0.5001, 0.0001, 0.001) == "OK"
    assert judge_value(0.5, 0.5009, 0.0001, 0.001) == "OKish"
    assert judge_value(0.5, 0.502, 0.0001, 0.001) == "FAIL"
    assert judge_value(math.nan, math.nan, 0, 0) == "OK"
    assert judge_value(0.5, math.nan, 1, 1) == "FAIL"
    assert judge_value(math.inf, math.inf, 0, 0) == "OK"


# ------------------------------------------------------------------------------- errors
BAD = [
    # (text after the qrels line, line, words)
    ("runs:\n  - run: R\n    expectd: {AP: 0.1}\n", 4, "unknown key 'expectd'"),
    ("colour: red\nruns: []\n", 2, "unknown key 'colour'"),
    ("runs: []\n", 2, "runs must be a list"),
    ("tolerance: -1\nruns:\n  - run: R\n    expected: {AP: 0.1}\n", 2, "tolerance must be"),
    ("okish: 0.00001\nruns:\n  - run: R\n    expected: {AP: 0.1}\n", 2, "okish (1e-05) must"),
    ("runs:\n  - run: R\n    expected: {APP: 0.1}\n", 4, "measure 'APP'"),
    ("runs:\n  - run: R\n    expected:\n      AP: high\n", 5, "must be a number"),
    ("runs:\n  - run: R\n    expected:\n      AP: {valu: 0.1}\n", 5, "unknown key 'valu'"),
    ("runs:\n  - run: R\n    expected:\n      AP: 0.1\n      AP: 0.2\n", 6, "given twice"),
    ("runs:\n  - run: R\n    expected: {AP: [0.1\n", 5, "invalid YAML"),
    ("runs:\n  - run: R\n", 3, "no 'expected' key"),
    ("runs:\n  - name: x\n    expected: {AP: 0.1}\n", 3, "no 'run' key"),
    ("options: {seed: 3}\nruns:\n  - run: R\n    expected: {AP: 0.1}\n", 2, "unknown key 'seed'"),
    ("a: &x 1\nb: *x\n", 3, "alias"),
    (
        "runs:\n  - run: R\n    expected: {AP: 0.1}\n  - run: R\n    expected: {AP: 0.1}\n",
        5,
        "two runs are named",
    ),
    ("", 1, "the file has no 'runs' key"),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD)
def test_a_bad_file_is_one_error_naming_the_file_line_and_key(
    tmp_path, conformance_dir, text, line, words
):
    run = str(conformance_dir / "results.test")
    body = f"qrels: {conformance_dir / 'qrels.test'}\n" + text.replace(" R\n", f" {run}\n")
    p = write(tmp_path, body)
    with pytest.raises(InputError) as info:
        verify(p)
    assert info.value.source == str(p)
    assert info.value.line == line, str(info.value)
    assert words in str(info.value)


def test_a_missing_run_file_is_named_with_status_2(tmp_path, conformance_dir, cli):
    qrels = conformance_dir / "qrels.test"
    text = f"qrels: {qrels}\nruns:\n  - run: nope.txt\n    expected: {{AP: 0.1}}\n"
    out = cli("verify", str(write(tmp_path, text)))
    assert out.returncode == 2
    err = out.stderr.decode()
    assert err.startswith("cranfield: error: ") and str(tmp_path / "nope.txt") in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert out.stdout == b""


def test_a_bad_key_on_the_command_line_is_status_2(tmp_path, conformance_dir, cli):
    p = write(tmp_path, _yaml(conformance_dir, {"nDCG@x": 0.1}))
    out = cli("verify", str(p))
    assert out.returncode == 2
    err = out.stderr.decode()
    assert f"{p}: line 7: run STANDARD: measure 'nDCG@x'" in err
    assert len(err.strip().splitlines()) == 1


def test_a_missing_yaml_file_is_status_2(tmp_path, cli):
    out = cli("verify", str(tmp_path / "none.yaml"))
    assert out.returncode == 2
    assert str(tmp_path / "none.yaml") in out.stderr.decode()


# ------------------------------------------------------------------------------- example
def test_the_shipped_example_holds_trec_evals_means_and_passes():
    """docs/verify.md's example: every expected value is within half a unit of the 4th
    decimal of pytrec_eval's mean (trec_eval's code) of that run, and every check is OK."""
    import gzip
    import io

    pytrec_eval = pytest.importorskip("pytrec_eval")
    import yaml

    from cranfield import examples

    path = examples.path("cranfield/expected.yaml")
    spec = yaml.safe_load(path.read_text())
    with open(path.parent / spec["qrels"]) as fh:
        qrels = pytrec_eval.parse_qrel(fh)
    names = {"AP": "map", "P@10": "P_10", "nDCG@10": "ndcg_cut_10", "RR": "recip_rank"}
    for item in spec["runs"]:
        text = gzip.decompress((path.parent / item["run"]).read_bytes()).decode()
        run = pytrec_eval.parse_run(io.StringIO(text))
        per_query = pytrec_eval.RelevanceEvaluator(qrels, set(names.values())).evaluate(run)
        assert len(per_query) == 225
        for label, value in item["expected"].items():
            m = names[label]
            mean = sum(v[m] for v in per_query.values()) / len(per_query)
            assert abs(mean - value) <= 0.00005, (item["name"], label, mean, value)
    checks = verify(path)
    assert len(checks) == 8 and all(c.verdict == "OK" for c in checks)


@pytest.mark.parametrize("text", ["", "- a\n- b\n", "just text\n"])
def test_a_file_that_is_not_a_mapping(tmp_path, text):
    p = write(tmp_path, text)
    with pytest.raises(InputError, match="the file must be a mapping") as info:
        verify(p)
    assert info.value.source == str(p) and info.value.line == 1
