"""How work is scheduled, never what is computed: a large run read and evaluated block by
block (``streaming``), cut into byte ranges of whole queries (``query_ranges``), runs in worker
processes (``processes``, ``malloc_tuning``) or on a Dask cluster (``dask_executor``).
"""
