"""ndeval's own command line (its rank-column order, ``-traditional``, ``-M``): outputs recorded.

The program is ``src/ndeval.c`` (ndeval 4.5, 29 Apr 2013) of github.com/seanmacavaney/pyndeval
at commit acde21d, built with ``gcc -O2 -o ndeval ndeval.c -lm``; each table below is
``ndeval [OPTIONS] q.txt r.txt`` on the files written here (``%.6f`` per topic).  Topic 1's
rank column contradicts its scores, so ndeval's default order (ranks) and ``-traditional``
(score descending, ties by document id descending) differ: cranfield's ``--ties given`` and
``--ties trec``.
"""

from __future__ import annotations

import warnings

import pytest

import cranfield

QRELS = """1 1 a 1\n1 2 a 1\n1 1 b 1\n1 2 c 2\n1 3 d 1\n1 3 e 0\n2 1 f 1\n2 2 g 1\n2 2 h 1\n"""
RUN = """1 Q0 a 1 2.0 tied
1 Q0 x 2 2.0 tied
1 Q0 b 3 2.0 tied
1 Q0 c 4 1.0 tied
1 Q0 d 5 1.0 tied
1 Q0 e 6 0.5 tied
2 Q0 f 1 1.0 tied
2 Q0 h 2 3.0 tied
2 Q0 g 3 1.0 tied
"""
COLUMNS = [
    "ERR_IA@5",
    "ERR_IA@10",
    "ERR_IA@20",
    "nERR_IA@5",
    "nERR_IA@10",
    "nERR_IA@20",
    "alpha_DCG@5",
    "alpha_DCG@10",
    "alpha_DCG@20",
    "alpha_nDCG@5",
    "alpha_nDCG@10",
    "alpha_nDCG@20",
    "NRBP",
    "nNRBP",
    "AP_IA",
    "P_IA@5",
    "P_IA@10",
    "P_IA@20",
    "StRecall@5",
    "StRecall@10",
    "StRecall@20",
]
RECORDED = {
    # ndeval q.txt r.txt
    ("given", None): """
1,0.603127,0.599190,0.599119,0.892537,0.892537,0.892537,0.626108,0.617749,0.617537,0.921171,0.921171,0.921171,0.562500,0.837209,0.594444,0.333333,0.166667,0.083333,1.000000,1.000000,1.000000
2,0.605144,0.601194,0.601123,1.000000,1.000000,1.000000,0.619347,0.611079,0.610869,1.000000,1.000000,1.000000,0.609375,1.000000,0.791667,0.300000,0.150000,0.075000,1.000000,1.000000,1.000000""",
    # ndeval -traditional q.txt r.txt
    ("trec", None): """
1,0.326778,0.324645,0.324606,0.483582,0.483582,0.483582,0.440141,0.434265,0.434116,0.647564,0.647564,0.647564,0.257812,0.383721,0.400000,0.333333,0.166667,0.083333,1.000000,1.000000,1.000000
2,0.574887,0.571135,0.571067,0.950000,0.950000,0.950000,0.597791,0.589811,0.589608,0.965195,0.965195,0.965195,0.562500,0.923077,0.666667,0.300000,0.150000,0.075000,1.000000,1.000000,1.000000""",
    # ndeval -traditional -M 2 q.txt r.txt
    ("trec", 2): """
1,0.121029,0.120239,0.120225,0.179104,0.179104,0.179104,0.138500,0.136652,0.136605,0.203771,0.203771,0.203771,0.125000,0.186047,0.083333,0.066667,0.033333,0.016667,0.333333,0.333333,0.333333
2,0.453858,0.450896,0.450842,0.750000,0.750000,0.750000,0.433153,0.427370,0.427223,0.699369,0.699369,0.699369,0.468750,0.769231,0.500000,0.200000,0.100000,0.050000,0.500000,0.500000,0.500000""",
    # ndeval -M 2 q.txt r.txt
    ("given", 2): """
1,0.484115,0.480955,0.480898,0.716418,0.716418,0.716418,0.439036,0.433175,0.433026,0.645939,0.645939,0.645939,0.500000,0.744186,0.333333,0.133333,0.066667,0.033333,0.666667,0.666667,0.666667
2,0.544629,0.541075,0.541011,0.900000,0.900000,0.900000,0.537028,0.529859,0.529677,0.867087,0.867087,0.867087,0.562500,0.923077,0.625000,0.200000,0.100000,0.050000,1.000000,1.000000,1.000000""",
}


@pytest.mark.parametrize("ties, depth", list(RECORDED))
def test_ndeval_command_line_orders_and_depth(tmp_path, ties, depth):
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "r.txt").write_text(RUN)
    q = str(tmp_path / "q.txt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(
            q, str(tmp_path / "r.txt"), COLUMNS, subtopics=q, ties=ties, depth=depth
        )
    for line in RECORDED[(ties, depth)].strip().split("\n"):
        topic, *values = line.split(",")
        i = res.query_ids.index(topic)
        got = [f"{v:.6f}" for v in res.values[i]]
        assert got == values, topic
