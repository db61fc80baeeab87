"""Renderers: results in, text out.  A renderer never computes a measure."""
