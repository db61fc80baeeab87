"""``cranfield repro``: its outputs agree with the Python API, and bad input is one error with
exit status 2 naming the file."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from conftest import run_cli

QRELS = "1 0 d1 1\n1 0 d2 0\n1 0 d3 1\n2 0 d4 1\n2 0 d5 1\n3 0 d1 1\n3 0 d6 1\n"


def _run(rows: dict[str, list[tuple[str, float]]]) -> str:
    return "".join(
        f"{q} Q0 {d} {i} {s} x\n" for q, docs in rows.items() for i, (d, s) in enumerate(docs)
    )


B = {"1": [("d2", 3), ("d1", 2), ("d3", 1)], "2": [("d5", 2), ("d9", 1), ("d4", 0.5)],
     "3": [("d7", 2), ("d1", 1), ("d6", 1)]}  # fmt: skip
A = {"1": [("d1", 3), ("d3", 2), ("d2", 1)], "2": [("d4", 2), ("d5", 1), ("d9", 0.5)],
     "3": [("d1", 2), ("d6", 1), ("d7", 1)]}  # fmt: skip
B2 = {"1": [("d2", 3), ("d3", 2), ("d1", 1)], "2": [("d9", 2), ("d5", 1), ("d4", 0.5)],
      "3": [("d7", 2), ("d6", 1), ("d1", 1)]}  # fmt: skip
A2 = {"1": [("d1", 3), ("d2", 2), ("d3", 1)], "2": [("d4", 2), ("d5", 1), ("d9", 0.5)],
      "3": [("d6", 2), ("d1", 1), ("d7", 1)]}  # fmt: skip


@pytest.fixture
def files(tmp_path):
    out = {"qrels": tmp_path / "qrels.txt"}
    out["qrels"].write_text(QRELS)
    for name, rows in (("b", B), ("a", A), ("b2", B2), ("a2", A2)):
        out[name] = tmp_path / f"{name}.run"
        out[name].write_text(_run(rows))
    return {k: str(v) for k, v in out.items()}


def _argv(f, *extra, b2=None, qrels2=None):
    argv = ["repro", "--orig-baseline", f["b"], "--orig-advanced", f["a"],
            "--rep-baseline", b2 or f["b2"], "--rep-advanced", f["a2"], f["qrels"]]  # fmt: skip
    return [*argv, *([qrels2] if qrels2 else []), "-m", "AP", "-m", "P@2", *extra]


def test_json_equals_the_python_api(files):
    import cranfield

    r = run_cli(*_argv(files, "-f", "json"))
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    api = cranfield.repro(files["b"], files["a"], files["b2"], files["a2"], files["qrels"],
                          measures=["AP", "P@2"])  # fmt: skip
    assert got == json.loads(json.dumps(api.to_dict()))
    assert got["kind"] == "reproducibility" and got["topics"] == {"orig": 3, "rep": 3}
    # P@2 per topic by hand, equal scores by document id descending (topic 3 has ties):
    # B 1/2, 1/2, 1/2; A 1, 1, 1/2; B2 1/2, 1/2, 1/2; A2 1/2, 1, 1/2
    p2 = got["measures"][1]
    assert p2["measure"] == "P@2"
    assert p2["er"] == pytest.approx((1 / 6) / (1 / 3))
    ri, ri2 = (2.5 / 3 - 0.5) / 0.5, (2 / 3 - 0.5) / 0.5
    assert p2["delta_ri"] == pytest.approx(ri - ri2)
    assert p2["rmse"] == {"baseline": 0.0, "advanced": pytest.approx(np.sqrt(0.25 / 3))}


def test_csv_and_table(files):
    r = run_cli(*_argv(files, "-f", "csv"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.decode().splitlines()
    assert lines[0] == "scope,quantity,value"
    assert "P@2,er,0.5" in lines
    assert any(x.startswith("topic:3,ktu_advanced,") for x in lines)
    r = run_cli(*_argv(files))
    assert r.returncode == 0, r.stderr
    assert all(w in r.stdout.decode() for w in ("reproducibility", "KTU", "RBO", "P@2"))


def test_replicability_runs_the_unpaired_test(files, tmp_path):
    from scipy.stats import ttest_ind

    import cranfield

    r = run_cli(*_argv(files, "-f", "json", "--welch", qrels2=files["qrels"]))
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["kind"] == "replicability" and "order" not in got
    assert got["test"] == "Welch's t-test" and "rmse" not in got["measures"][0]
    res = cranfield.evaluate(files["qrels"], {"b": files["b"], "b2": files["b2"]}, ["AP"])
    want = ttest_ind(res["b"].column("AP"), res["b2"].column("AP"), equal_var=False).pvalue
    assert got["measures"][0]["p_value"]["baseline"] == pytest.approx(want, rel=1e-12)


def test_plot(files, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "er.png"
    r = run_cli(*_argv(files, "--plot", str(out)))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _one_error(r, *names):
    assert r.returncode == 2, (r.stdout, r.stderr)
    err = r.stderr.decode()
    assert "Traceback" not in err and err.count("\n") == 1, err
    for n in names:
        assert n in err, err
    return err


def test_a_reproduced_run_with_other_topics_is_one_error(files, tmp_path):
    fewer = tmp_path / "fewer.run"
    fewer.write_text(_run({q: v for q, v in B2.items() if q != "3"}))
    err = _one_error(run_cli(*_argv(files, b2=str(fewer))), str(fewer), "'3'")
    assert "same topics" in err


def test_replicability_allows_other_topics(files, tmp_path):
    fewer = tmp_path / "fewer.run"
    fewer.write_text(_run({q: v for q, v in B2.items() if q != "3"}))
    a2 = tmp_path / "a2.run"
    a2.write_text(_run({q: v for q, v in A2.items() if q != "3"}))
    argv = _argv(files, qrels2=files["qrels"], b2=str(fewer))
    argv[argv.index(files["a2"])] = str(a2)
    assert run_cli(*argv).returncode == 0


def test_a_missing_file_is_one_error(files, tmp_path):
    gone = str(tmp_path / "gone.run")
    _one_error(run_cli(*_argv(files, b2=gone)), gone)


def test_a_run_without_judged_topics_is_one_error(files, tmp_path):
    other = tmp_path / "other.run"
    other.write_text(_run({"9": [("d1", 1)]}))
    argv = _argv(files, qrels2=files["qrels"], b2=str(other))
    argv[argv.index(files["a2"])] = str(other)
    _one_error(run_cli(*argv), str(other), "no topic")


def test_three_qrels_files_are_a_usage_error(files):
    r = run_cli(*_argv(files, files["qrels"], qrels2=files["qrels"]))
    assert r.returncode == 2 and b"at most two qrels" in r.stderr


def test_rankings_of_other_lengths_leave_ktu_undefined(files, tmp_path):
    """repro_eval stops with scipy's error there; here the topic's KTU is undefined, with a
    warning, and the mean is over the other topics."""
    import cranfield
    from cranfield.errors import DataWarning

    short = tmp_path / "short.run"
    short.write_text(_run({**B2, "3": B2["3"][:2]}))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = cranfield.repro(files["b"], files["a"], str(short), files["a2"], files["qrels"],
                            measures=["AP"])  # fmt: skip
    assert any(issubclass(w.category, DataWarning) and "'3'" in str(w.message) for w in seen)
    assert np.isnan(r.ktu["baseline"][2]) and not np.isnan(r.ktu["baseline"][:2]).any()
    assert r.mean("ktu", "baseline") == pytest.approx(np.mean(r.ktu["baseline"][:2]))


def test_welch_is_for_replicability(files):
    import cranfield
    from cranfield.errors import ParameterError

    r = run_cli(*_argv(files, "--welch"))
    assert r.returncode == 2 and b"--welch is for replicability" in r.stderr
    with pytest.raises(ParameterError, match="replicability"):
        cranfield.repro(files["b"], files["a"], files["b2"], files["a2"], files["qrels"],
                        welch=True)  # fmt: skip


def test_an_unknown_measure_is_one_error(files):
    r = run_cli(*_argv(files, "-m", "NoSuchMeasure"))
    _one_error(r, "NoSuchMeasure")


def test_rbo_depth_is_bounded(files):
    import cranfield
    from cranfield.base.limits import MAX_RBO_DEPTH
    from cranfield.errors import ParameterError

    r = run_cli(*_argv(files, "--rbo-depth", str(MAX_RBO_DEPTH + 1)))
    assert r.returncode == 2 and b"--rbo-depth" in r.stderr
    with pytest.raises(ParameterError, match="depth"):
        cranfield.repro(files["b"], files["a"], files["b2"], files["a2"], files["qrels"],
                        depth=MAX_RBO_DEPTH + 1)  # fmt: skip
