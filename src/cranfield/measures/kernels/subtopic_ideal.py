"""ndeval's ideal ranking for the normalised diversity measures (``idealResult``, ndeval 4.5).

Finding the ranking of greatest alpha-DCG is NP-hard (Clarke et al., SIGIR 2008); ndeval,
and so cranfield, takes a greedy approximation: over the documents of the subtopic qrels,
repeatedly take the one of highest novelty-discounted gain given those taken so far
(:mod:`cranfield.measures.kernels.subtopic_view`), and among exactly equal gains the one of greatest
document id (byte order).  Gains are added in subtopic order and each subtopic's gain is
multiplied by ``1 - alpha`` when a document relevant to it is taken, as ndeval does, so the
same document wins every exact tie.

The ideal depends on ``rel`` and ``alpha`` only: it is computed once per subtopic file (kept
in :class:`~cranfield.io.trec.subtopics.Subtopics`) for all the topics a call needs at once.
Documents relevant to the same set of subtopics always have equal gains, so each greedy step
compares those sets (each with its greatest remaining document), for every topic in one
vectorised step; a topic is done when its best gain is 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.io.trec.subtopics import Subtopics

__all__ = ["ideal_gains"]

_EMPTY = np.zeros(0, dtype=np.float64)
_DONE = np.iinfo(np.int64).max


def ideal_gains(
    sub: Subtopics, rel: int, alpha: float, topics: np.ndarray
) -> dict[int, np.ndarray]:
    """``{topic: gains of its greedy ideal ranking, while positive}`` for ``topics`` (indices
    of ``sub.pairs``), from ``sub``'s cache or computed now."""
    done: dict[int, np.ndarray] = sub.cache.setdefault(("ideal", rel, alpha), {})
    todo = [t for t in dict.fromkeys(np.asarray(topics).tolist()) if t not in done]
    if todo:
        gains = _greedy([_signatures(sub, t, rel) for t in todo], 1 - alpha)
        done.update(zip(todo, gains, strict=True))
    return done


def _signatures(sub: Subtopics, topic: int, rel: int) -> list[tuple[int, ...]]:
    """The relevant subtopics of each document of ``topic`` (ascending), documents in
    descending byte order of their ids."""
    pairs = sub.pairs
    a, b = int(pairs.offsets[topic]), int(pairs.offsets[topic + 1])
    off, subs, grade = sub.entry_offsets, sub.entry_subtopic, sub.entry_grade
    out = []
    for p in pairs.grades[a:b][::-1].tolist():
        e = slice(int(off[p]), int(off[p + 1]))
        out.append(tuple(subs[e][grade[e] >= rel].tolist()))
    return out


class _Groups:
    """The documents of every topic grouped by their set of relevant subtopics."""

    def __init__(self, topics: list[list[tuple[int, ...]]]) -> None:
        topic, slots, members, heads = [], [], [], []
        nslots = 0
        for t, signatures in enumerate(topics):
            groups: dict[tuple[int, ...], list[int]] = {}
            for position, sig in enumerate(signatures):
                if sig:
                    groups.setdefault(sig, []).append(position)
            local = {s: nslots + i for i, s in enumerate(sorted({s for g in groups for s in g}))}
            nslots += len(local)
            for sig, positions in groups.items():
                topic.append(t)
                slots.append([local[s] for s in sig])
                members.append(positions)
                heads.append(positions[0])
        self.topic = np.asarray(topic, dtype=np.int64)
        width = max((len(s) for s in slots), default=1)
        self.pad = nslots  # a slot whose gain stays 0.0: adding it changes nothing
        self.table = np.full((len(slots), width), self.pad, dtype=np.int64)
        for g, row in enumerate(slots):
            self.table[g, : len(row)] = row
        self.count = np.array([len(m) for m in members], dtype=np.int64)
        self.start = np.concatenate(([0], np.cumsum(self.count)[:-1])).astype(np.int64)
        self.members = np.array([p for m in members for p in m], dtype=np.int64)
        self.head = np.asarray(heads, dtype=np.int64)
        self.taken = np.zeros(len(slots), dtype=np.int64)
        self.first = np.flatnonzero(np.r_[True, self.topic[1:] != self.topic[:-1]])


def _greedy(topics: list[list[tuple[int, ...]]], r: float) -> list[np.ndarray]:
    """Per topic (the documents' relevant subtopics, by descending document id): the gains
    of ndeval's greedy ideal ranking, while positive."""
    g = _Groups(topics)
    steps_topic: list[np.ndarray] = []
    steps_gain: list[np.ndarray] = []
    if len(g.topic):
        gain = np.ones(g.pad + 1)
        gain[g.pad] = 0.0
        cols = [g.table[:, c] for c in range(g.table.shape[1])]
        owner = g.topic[g.first]  # the topic of each reduceat segment
        segment = np.repeat(np.arange(len(g.first)), np.diff(np.r_[g.first, len(g.topic)]))
        while True:
            score = gain[cols[0]]
            for c in cols[1:]:
                score = score + gain[c]  # in subtopic order, as ndeval adds
            score[g.head == _DONE] = -1.0
            best = np.maximum.reduceat(score, g.first)
            live = best > 0.0
            if not live.any():
                break
            tied = (score == best[segment]) & live[segment]
            head = np.minimum.reduceat(np.where(tied, g.head, _DONE), g.first)
            chosen = np.flatnonzero(tied & (g.head == head[segment]))  # one per live topic
            steps_topic.append(owner[live])
            steps_gain.append(best[live])
            g.taken[chosen] += 1
            more = g.taken[chosen] < g.count[chosen]
            nxt = g.members[np.minimum(g.start[chosen] + g.taken[chosen], len(g.members) - 1)]
            g.head[chosen] = np.where(more, nxt, _DONE)
            slots = g.table[chosen].ravel()
            gain[slots[slots < g.pad]] *= r  # distinct slots: one product each
    out = [_EMPTY] * len(topics)
    if steps_topic:
        t, v = np.concatenate(steps_topic), np.concatenate(steps_gain)
        order = np.argsort(t, kind="stable")  # per topic, in step order
        t, v = t[order], v[order]
        bounds = np.searchsorted(t, np.arange(len(topics) + 1))
        out = [v[bounds[i] : bounds[i + 1]] for i in range(len(topics))]
    return out
