"""The qrels and run the tests of tabular inputs share, as columns (ir_measures' names) and as
the dicts they read to; pyterrier's column names."""

QRELS = {
    "query_id": ["1", "1", "007", "10"],
    "doc_id": ["a", "b", "c", "a"],
    "relevance": [1, 0, 2, 1],
}
QRELS_DICT = {"1": {"a": 1, "b": 0}, "007": {"c": 2}, "10": {"a": 1}}
RUN = {"query_id": ["1", "1", "007"], "doc_id": ["a", "b", "c"], "score": [2.0, 1.5, 3.0]}
RUN_DICT = {"1": {"a": 2.0, "b": 1.5}, "007": {"c": 3.0}}


def pyterrier(cols: dict) -> dict:
    names = {"query_id": "qid", "doc_id": "docno", "relevance": "label"}
    return {names.get(k, k): v for k, v in cols.items()}
