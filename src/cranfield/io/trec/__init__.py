"""The TREC text formats: the readers and the exact line parser (``text``), the Arrow and
numpy parsers of large files (``arrow_parse``, ``fields``, ``normalize``), a run read in pieces of
whole lines (``run_pieces``), trec_eval's other judgment files (``judgment_files``) and ndeval's
subtopic qrels (``subtopics``).
"""
