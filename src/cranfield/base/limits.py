"""The largest numbers a user may give, declared once for the command line and the library.

Each bound keeps the arithmetic downstream exact in 64-bit integers and the memory bounded;
a larger value is an error naming the option (or the file and line), never an overflow.
"""

from __future__ import annotations

INT64_MAX = 2**63 - 1
"""Grades, ranking depths: numbers stored as int64."""

MAX_DOCUMENTS = 10**12
"""Collection sizes and targets (``--collection-size``, ``--target``): a trillion documents.
``N`` times the documents known for a query must also stay below ``2**62`` (checked per query),
so that the rank sums of the collection-wide measures cannot overflow."""

MAX_CUTOFF = 10**9
"""Document cut-offs of the curves (``--cutoffs``) and ``ND`` values of ``cranfield ties``."""

MAX_SEED = 2**64 - 1
"""Seeds (``--seed``): an unsigned 64-bit integer."""

MAX_RESAMPLES = 10**8
"""Permutations of the randomization test and samples of the bootstrap (``--permutations``)."""

MAX_RBO_DEPTH = 10**6
"""Depth of the truncated RBO of ``cranfield repro`` (``--rbo-depth``): its terms are summed
rank by rank up to the depth, for every topic."""
