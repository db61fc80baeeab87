"""The sizes a large run is read and judged in, declared once: read in pieces of whole lines of
about :data:`PIECE_BYTES` (:mod:`cranfield.io.trec.run_pieces`), judged by the compiled core and
taken in batches of about :data:`BATCH_ROWS` judged rows
(:mod:`cranfield.judging.streamed_run`), and judged ahead by ``cranfield trec_eval``
(:mod:`cranfield.base.core_ahead`) before those modules are imported.
"""

from __future__ import annotations

__all__ = ["BATCH_ROWS", "PIECE_BYTES"]

PIECE_BYTES = 4 << 20
"""Bytes of text parsed at a time (rounded up to the next line end)."""

BATCH_ROWS = 1 << 16
"""Judged rows per batch (about 1.5 MB of arrays, and the measures' temporaries)."""
