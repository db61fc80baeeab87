"""The package's version (``cranfield.__version__``, the same as pyproject.toml's): here, below
every stage, so that a module writing it (the report's provenance, ``trec_eval -v``) does not
import the package's public API."""

__version__ = "0.1.0"
