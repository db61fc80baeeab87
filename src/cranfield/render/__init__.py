"""Renderers: results in, text, HTML and charts out (docs/cli.md, "Output formats"; the HTML
report: docs/report.md).  A renderer never computes a measure.

The report itself is made by :func:`cranfield.report` (``cranfield/reporting.py``), which
gathers what the page shows and hands it to :mod:`cranfield.render.html`.
"""
