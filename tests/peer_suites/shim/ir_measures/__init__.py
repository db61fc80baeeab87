"""``import ir_measures`` as cranfield's work-alike, for running ir_measures' own tests
(tests/peer_suites/test_peer_suites.py puts this folder first on the path)."""

from cranfield.compat.ir_measures import *  # noqa: F403
from cranfield.compat.ir_measures import __all__  # noqa: F401
