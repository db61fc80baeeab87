"""``cranfield trec_eval``: trec_eval 10.0's command line on cranfield's measures (see
``docs/trec_eval.md``).  :func:`cranfield.compat.trec_eval.engine.main` runs the command; the
catalogue maps trec_eval's measure names onto the registry.
"""
