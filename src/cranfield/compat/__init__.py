"""Work-alikes of other evaluation tools on cranfield's measures: ``trec_eval`` (the
``cranfield trec_eval`` command).
"""
