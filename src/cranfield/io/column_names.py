"""The names that give a table column the query or the document role (the roles are in
:mod:`.columns`; :mod:`.formats` reads these names to recognise a header line without
loading the table machinery)."""

QUERY_NAMES = ("query_id", "qid", "q_id")
DOC_NAMES = ("doc_id", "docno")
