"""Nugget-assignment files: the shapes nuggetizer writes are read, every line counted; a bad
file is one error naming the file, the line and the problem (exit status 2 from the
command, one line on standard error, nothing on standard output)."""

from __future__ import annotations

import json

import pytest

import cranfield.nuggets as nuggets
from cranfield.errors import InputError, ParameterError

GOOD = {"qid": "q1", "run_id": "r", "nuggets": [{"importance": "vital", "assignment": "support"}]}


def _line(**changes) -> str:
    obj = {**GOOD, **changes}
    return json.dumps({k: v for k, v in obj.items() if v is not ...})


def _nugget(**changes) -> str:
    """A line whose second nugget is changed (a key dropped where the change is ``...``)."""
    good = {"text": "a fact", "importance": "vital", "assignment": "support"}
    bad = {k: v for k, v in {**good, **changes}.items() if v is not ...}
    return _line(nuggets=[good, bad])


BAD = {
    "invalid JSON": ('{"qid": "q1", "run_id": "r", "nuggets": [}', "invalid JSON at column 42"),
    "not an object": ('["q1", "r"]', "expected a JSON object (one response with its nuggets"),
    "no qid": (_line(qid=...), "no 'qid' key (a response needs qid, run_id and nuggets)"),
    "no run_id": (_line(run_id=...), "no 'run_id' key"),
    "no nuggets": (_line(nuggets=...), "no 'nuggets' key"),
    "passage assignments": (
        _line(run_id=..., docid="d1", candidate_text="..."),
        "no 'run_id' key (a response needs qid, run_id and nuggets); this looks like "
        "nuggetizer's assignments to retrieved passages (qid, docid)",
    ),
    "nuggets not a list": (_line(nuggets={"a": 1}), "'nuggets' must be a list of nuggets"),
    "nugget not an object": (_line(nuggets=["vital"]), "nugget 1 must be a JSON object"),
    "no importance": (_nugget(importance=...), "nugget 2 has no 'importance' key"),
    "no assignment": (_nugget(assignment=...), "nugget 2 has no 'assignment' key"),
    "unknown importance": (
        _nugget(importance="Vital"),
        "nugget 2: unknown importance 'Vital'; expected one of vital, okay",
    ),
    "unknown assignment": (
        _nugget(assignment="supported"),
        "nugget 2: unknown assignment 'supported'; expected one of support, partial_support, "
        "not_support",
    ),
    "failed assignment": (
        _nugget(assignment="failed"),
        "'failed' is nuggetizer's mark of an LLM reply it could not parse",
    ),
    "label not a string": (_nugget(assignment=1), "unknown assignment the number 1"),
    "float qid": (_line(qid=1.5), "'qid' must be a string or an integer, got the number 1.5"),
    "number run_id": (_line(run_id=7), "'run_id' must be a string, got the number 7"),
    "qid with a space": (_line(qid="q 1"), "query id 'q 1' (key 'qid') contains a space"),
    "empty run_id": (_line(run_id=""), "empty run id (key 'run_id')"),
    "key twice": ('{"qid": "q1", "qid": "q2", "run_id": "r", "nuggets": []}', "appears twice"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_line_is_one_error_naming_file_and_line(tmp_path, case, cli):
    text, message = BAD[case]
    path = tmp_path / "assign.jsonl"
    path.write_text(_line(qid="q0") + "\n\n" + text + "\n" + _line(qid="q9") + "\n")
    with pytest.raises(InputError) as exc:
        nuggets.read(path)
    assert exc.value.source == str(path)
    assert exc.value.line == 3
    assert message in exc.value.problem
    done = cli("nuggets", str(path))
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err == f"cranfield: error: {path}: line 3: {exc.value.problem}\n"


def test_a_response_given_twice_names_both_lines(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(_line() + "\n" + _line(qid="q2") + "\n" + _line() + "\n")
    with pytest.raises(
        InputError, match=r"line 3: query 'q1' of run 'r' again \(first at line 1\)"
    ):
        nuggets.read(path)


def test_a_response_given_twice_across_files_names_the_first_file(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(_line() + "\n")
    b.write_text(_line(qid="q2") + "\n" + _line() + "\n")
    with pytest.raises(InputError) as exc:
        nuggets.read([a, b])
    assert (exc.value.source, exc.value.line) == (str(b), 2)
    assert f"(first at line 1 of {a})" in exc.value.problem


def test_the_same_query_of_two_runs_is_two_responses(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(_line() + "\n" + _line(run_id="s") + "\n")
    assert nuggets.read(path).runs == ("r", "s")


def test_every_line_is_counted(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text("\n" + _line() + "\n  \n" + _line(qid=7) + "\n\n")
    a = nuggets.read(path)
    c = a.counts[str(path)]
    assert (c.lines, c.data, c.blank) == (5, 2, 3)
    assert a.query_ids == ("q1", "7")  # a JSON integer is its decimal text
    assert a.lines.tolist() == [2, 4]


def test_nuggetizers_other_keys_are_read_past(tmp_path):
    record = {
        "query": "how often should you take your toddler to the potty",
        "qid": "2027497",
        "answer_text": "Every two hours ...",
        "response_length": 192,
        "run_id": "ragnarok",
        "nuggets": [
            {
                "text": "every two hours",
                "importance": "vital",
                "assignment": "support",
                "reasoning": "stated",
                "trace": {"model": "gpt-4o", "usage": {"tokens": 10}},
            },
            {"text": "readiness", "importance": "okay", "assignment": "partial_support"},
        ],
    }
    path = tmp_path / "ragnarok.jsonl"
    path.write_text(json.dumps(record) + "\n")
    a = nuggets.read(path)
    assert (a.query_ids, a.runs, a.total.tolist(), a.vital.tolist()) == (
        ("2027497",),
        ("ragnarok",),
        [2],
        [1],
    )


def test_an_empty_file_is_an_error(tmp_path, cli):
    path = tmp_path / "a.jsonl"
    path.write_text("\n \n")
    with pytest.raises(InputError, match="file is empty"):
        nuggets.read(path)
    done = cli("nuggets", str(path))
    assert (done.returncode, done.stdout) == (2, b"")


def test_a_missing_file_and_bad_arguments(tmp_path, cli):
    done = cli("nuggets", str(tmp_path / "none.jsonl"))
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1
    assert str(tmp_path / "none.jsonl").encode() in done.stderr
    with pytest.raises(ParameterError, match="one or more nugget-assignment files"):
        nuggets.read([])
    path = tmp_path / "a.jsonl"
    path.write_text(_line() + "\n")
    with pytest.raises(ParameterError, match="is given twice"):
        nuggets.read([path, path])


def test_standard_input_is_read(cli):
    done = cli("nuggets", "-", "-f", "csv", input=(_line() + "\n").encode())
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines()[1] == "r,1,1,1,1.0,1.0,1.0,1.0"


def test_mutated_files_are_read_or_refused_with_one_input_error(tmp_path):
    """Bytes flipped, lines cut, joined or doubled, numbers and ids changed, CRs, BOMs,
    compression (the mutations of the readers' adversarial suite): every file is read or
    refused with an InputError naming it; nothing else escapes."""
    from test_io_adversarial import mutate

    from cranfield import examples

    data = b"".join(p.read_bytes() for p in sorted(examples.path("nuggets").glob("*.jsonl")))
    outcomes = {"read": 0, "refused": 0}
    for seed in range(300):
        mutated, how, _ = mutate(data, seed)
        path = tmp_path / f"m{seed}.jsonl"
        path.write_bytes(mutated)
        try:
            a = nuggets.read(path)
        except InputError as exc:
            assert exc.source == str(path), how
            outcomes["refused"] += 1
            continue
        c = a.counts[str(path)]
        assert c.data == len(a) and c.data + c.blank == c.lines, how
        outcomes["read"] += 1
    assert outcomes["read"] > 10 and outcomes["refused"] > 10, outcomes
