"""``import pytrec_eval`` as cranfield's work-alike, for running pytrec_eval's own tests
(tests/peer_suites/test_peer_suites.py puts this folder first on the path)."""

from cranfield.compat.pytrec_eval import *  # noqa: F403
from cranfield.compat.pytrec_eval import __all__  # noqa: F401
