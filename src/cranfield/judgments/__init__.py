"""Judging the judgments (issue 28): agreement between judgment sets, leaderboards under
several sets, and unjudged documents (bounds on every measure, the holes of a run or a pool,
inferred measures from sampled judgments).  Each module is imported on its own, lazily."""
