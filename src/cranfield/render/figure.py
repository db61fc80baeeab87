"""The charts' Figure: matplotlib's own, that a notebook displays without ``%matplotlib
inline``.

cranfield draws on :class:`matplotlib.figure.Figure` objects, not through pyplot (no global
state, no figure left open), and IPython shows such an object as ``<Figure size 640x500 with 1
Axes>`` unless a matplotlib backend registered a display for figures.  This subclass renders
itself: ``_repr_png_``, what Jupyter shows as the cell's image (one PNG: no HTML copy of it,
which would store the image twice in the notebook).  With ``%matplotlib inline`` active,
IPython's own printer for figures is used instead: one image either way.  Imported when
drawing (it imports matplotlib).
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure as _Figure

__all__ = ["Figure"]

DPI = 100
"""Resolution of the image a notebook shows (a 6.4 x 5 inch chart: 640 x 500 pixels)."""


class Figure(_Figure):
    """A :class:`matplotlib.figure.Figure` that displays itself in a notebook."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
        return buffer.getvalue()
