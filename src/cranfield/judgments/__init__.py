"""Judging the judgments: how judgment sets (qrels) agree with one another."""
