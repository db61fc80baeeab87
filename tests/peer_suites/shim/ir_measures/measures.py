"""``ir_measures.measures`` as cranfield's work-alike: its measure objects (``from
ir_measures.measures import Accuracy``)."""

from cranfield.compat.ir_measures import *  # noqa: F403
