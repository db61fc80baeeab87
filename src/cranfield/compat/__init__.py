"""trec_eval 10.0 compatibility: ``cranfield trec_eval`` (see ``docs/trec_eval.md``).

:func:`cranfield.compat.engine.main` runs the command; the catalogue maps trec_eval's
measure names onto the registry.
"""
