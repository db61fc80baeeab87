"""ranx 0.3's evaluation API over cranfield's measures: ``from cranfield.compat import ranx``.

A package of one module per idea: :mod:`.ordering` (numba's argsort), :mod:`.data` (``Qrels``,
``Run``), :mod:`.metrics` (ranx's metric names), :mod:`.evaluate`, :mod:`.report` (the table,
LaTeX and dict of ``Report``), :mod:`.compare`.

``Qrels``, ``Run``, ``evaluate`` and ``compare`` take ranx's arguments and return what ranx
returns; the measures are the registry's (the names of ``docs/peers.md``'s ranx table), so the
values are ranx's where ranx and trec_eval agree on the definition, and ranx's own
conventions are reproduced where they differ (``docs/coming-from.md``, "ranx"):

- **ties**: ranx orders a query's documents with numba's ``np.argsort`` (an unstable
  quicksort with insertion sort below 16 elements): of the negated scores for a ``Run``, of the
  scores, read backwards, for a plain dict given to ``evaluate``.  :func:`ranx_order` is that
  algorithm, and the measures read the documents in its order (the ``given`` tie policy);
  trec_eval orders equal scores by document id descending.
- **rbp**: the raw grade is the gain (cranfield's ``RBP`` rescales gains into [0, 1]);
  computed here from the same ordering.
- **hits@k**: the number of relevant documents in the top k (``P@k`` times k).
- **means**: numpy's ``mean`` of the per-query values, as ranx (cranfield's aggregate sums
  in query order; the two differ in the last bits at most).

Nothing here imports ranx or numba.
"""

from cranfield.compat.ranx.compare import compare
from cranfield.compat.ranx.data import Qrels, Run
from cranfield.compat.ranx.evaluate import evaluate
from cranfield.compat.ranx.metrics import METRICS as METRICS
from cranfield.compat.ranx.metrics import cranfield_measure as cranfield_measure
from cranfield.compat.ranx.metrics import parse_metric
from cranfield.compat.ranx.ordering import SMALL_QUICKSORT as SMALL_QUICKSORT
from cranfield.compat.ranx.ordering import numba_argsort, ranx_order
from cranfield.compat.ranx.report import Report
from cranfield.compat.ranx.report import metric_label as metric_label

__all__ = [
    "Qrels",
    "Report",
    "Run",
    "compare",
    "evaluate",
    "numba_argsort",
    "parse_metric",
    "ranx_order",
]
