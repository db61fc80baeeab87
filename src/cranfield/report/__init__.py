"""Renderers: results in, text and charts out (docs/cli.md, "Output formats").  A renderer
never computes a measure."""
