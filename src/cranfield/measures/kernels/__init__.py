"""The arithmetic the measure families share (no declarations here): segment counting
(``counting``), discounts and gains (``discount``, ``gains``), the C/W/L framework (``cwl``) and the
subtopic views of the diversity measures (``subtopic_view``, ``subtopic_ideal``, ``subtopic_ties``),
a weak ordering's final level (``final_level``) and the sums over relevant ranks (``rank_sums``).
"""
