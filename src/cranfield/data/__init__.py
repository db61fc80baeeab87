"""The data: qrels and runs as columns (``tables``: Qrels, Run, LineCounts), the id column
they share (``id_column``: IdColumn, Vocabulary) and the naming rule of runs (``run_names``).
"""

from cranfield.base.moved_paths import former_names

# the names of the module of the same name before the stage packages: for one release
__getattr__ = former_names(__name__)
