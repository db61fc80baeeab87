"""Results: the queries x measures table of a run (``tables``: Results, ResultsSet), its
aggregates (``aggregate``), which queries a mean is over (``query_sets``) and a run's Results
put together from blocks of queries (``blocks``).
"""

from cranfield.base.moved_paths import former_names

# the names of the module of the same name before the stage packages: for one release
__getattr__ = former_names(__name__)
