"""``cranfield demo`` through the real command line."""

from __future__ import annotations

import pytest

from cranfield import examples


@pytest.mark.slow
def test_demo_prints_the_runs_in_quality_order_deterministically(cli):
    first = cli("demo")
    assert first.returncode == 0, first.stderr.decode()
    assert first.stderr == b""  # no warning on the bundled data
    text = first.stdout.decode()
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("run "))
    columns = lines[head].split()
    rows = [line.split() for line in lines[head + 2 : head + 8]]
    assert [r[0] for r in rows] == list(examples.RUNS)
    for measure in ("AP", "nDCG@10", "P@10", "RR", "R@1000"):
        j = columns.index(measure)
        values = [float(r[j]) for r in rows]
        assert values == sorted(values, reverse=True) and len(set(values)) == 6, measure
    assert "Next, try" in text and str(examples.path("collection")) in text
    second = cli("demo")
    assert second.stdout == first.stdout


def test_demo_suggested_command_works(cli):
    d = str(examples.path("collection"))
    out = cli(
        "evaluate", f"{d}/qrels.txt", f"{d}/runs/bm25.txt.gz", "-m", "AP", "-m", "P(rel=2)@10"
    )
    assert out.returncode == 0, out.stderr.decode()
    assert b"bm25.txt.gz" in out.stdout
