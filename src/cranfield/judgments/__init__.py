"""Judging the judgments: agreement between judgment sets (docs/judgments.md)."""
