"""Run names from file names that are not UTF-8 (``run\\xff.txt``): the name keeps the byte as a
lone surrogate (output files get it back), and the pandas tables show it as ``\\xff`` (a
pandas 3 string column, stored by Arrow, cannot hold a lone surrogate: ``to_frame()`` raised
UnicodeEncodeError)."""

from __future__ import annotations

import os
import sys
import warnings

import pytest

import cranfield

pytestmark = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="file names of any bytes: Linux"
)


@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 d{q} 1\n{q} 0 e{q} 0\n" for q in (1, 2, 3)))
    odd = os.path.join(os.fsencode(tmp_path), b"run\xff.txt")
    with open(odd, "wb") as fh:
        fh.write(
            b"".join(b"%d Q0 d%d 1 2.0 r\n%d Q0 e%d 2 1.0 r\n" % (q, q, q, q) for q in (1, 2, 3))
        )
    plain = tmp_path / "plain.txt"
    plain.write_text("".join(f"{q} Q0 e{q} 1 2.0 p\n{q} Q0 d{q} 2 1.0 p\n" for q in (1, 2, 3)))
    return str(qrels), os.fsdecode(odd), str(plain)


def test_the_tables_of_results_show_the_byte_escaped(files):
    qrels, odd, plain = files
    res = cranfield.evaluate(qrels, [odd, plain], ["AP"])
    assert [r.run for r in res] == ["run\udcff.txt", "plain.txt"]  # the name keeps the byte
    frame = res.to_frame()
    assert list(frame["run"]) == ["run\\xff.txt", "plain.txt"]
    assert list(frame["value"]) == [1.0, 0.5]  # AP by hand: relevant at rank 1, then at 2
    assert list(res[0].to_frame()["run"]) == ["run\\xff.txt"]


def test_the_tables_of_a_comparison_show_the_byte_escaped(files):
    qrels, odd, plain = files
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # three queries: too few for the tests' power
        c = cranfield.compare(qrels, [odd, plain], ["AP"])
    means = c.to_frame("means")
    assert sorted(means["run"]) == ["plain.txt", "run\\xff.txt"]
    pairs = c.to_frame("pairs")
    names = {x for col in pairs.columns for x in pairs[col] if isinstance(x, str)}
    assert "run\\xff.txt" in names and not any("\udcff" in x for x in names)
